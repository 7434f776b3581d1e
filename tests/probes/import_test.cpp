// Import detects the format, stores whole files, and refuses a file with any bad line.
#include "probes/import.h"

#include <gtest/gtest.h>

using namespace lb;

TEST(ParseResultFile, DetectsFioJsonAndBonnieCsv) {
    const std::string fio = R"(note: a log line before the JSON
{"fio version": "fio-3.33", "jobs": []})";
    auto f = parseResultFile("a.json", fio);
    ASSERT_TRUE(f) << f.error().message;
    EXPECT_EQ(f->format, ImportFormat::FioJson);
    EXPECT_EQ(f->runs.size(), 1U);
    EXPECT_EQ(f->runs[0].stdoutText, fio); // raw output kept as printed
}

TEST(ParseResultFile, ErrorsNameFileAndLine) {
    auto r = parseResultFile("x.csv", "hello world\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(r.error().message.rfind("x.csv:1: ", 0), 0U) << r.error().message;
}
