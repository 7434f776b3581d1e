// Text around results is not an error (issue 40): genuine captures as people paste them — quoted
// in a mail, in a Markdown fence, as a diff's added lines, indented with non-breaking spaces,
// with CRLF, after a header row or prose with commas — import the same figures as the capture
// alone; a broken result line is still refused, named.
#include "probes/import.h"
#include "probes/pasted_text.h"
#include "tests/probes/golden.h"

#include <gtest/gtest.h>
#include <string>

using namespace lb;
using lb::test::golden;

namespace {

// Every line of the text with `before` in front of it.
std::string prefixed(const std::string& text, const std::string& before) {
    std::string out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto end = text.find('\n', pos);
        end = end == std::string::npos ? text.size() : end + 1;
        out += before + text.substr(pos, end - pos);
        pos = end;
    }
    return out;
}

// Each run's metrics, as the file imports them.
std::vector<std::vector<Metric>> metricsOf(const std::string& name, const std::string& text) {
    auto f = parseResultFile(name, text);
    EXPECT_TRUE(f) << name << ": " << (f ? "" : f.error().message);
    std::vector<std::vector<Metric>> out;
    if (f)
        for (const auto& r : f->runs)
            out.push_back(lb::test::sortedMetrics(r.metrics));
    return out;
}

void expectSameAs(const std::string& capture, const std::string& wrapped) {
    const auto alone = metricsOf(capture, golden(capture));
    ASSERT_FALSE(alone.empty());
    EXPECT_EQ(metricsOf(capture + " (wrapped)", wrapped), alone);
}

std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

} // namespace

TEST(ImportWrapped, MailQuotingIsReadAround) {
    const std::string terse = "fio/3.33/terse_v4_randrw.terse";
    expectSameAs(terse, "On Monday Ann wrote:\n" + prefixed(golden(terse), "> "));
    expectSameAs(terse, prefixed(prefixed(golden(terse), "> "), "> "));
    const std::string normal = "fio/3.33/normal_seq_read.normal";
    expectSameAs(normal, prefixed(golden(normal), "> "));
}

TEST(ImportWrapped, MarkdownFencesAreReadAround) {
    const std::string terse = "fio/3.33/terse_v4_randrw.terse";
    expectSameAs(terse, "Results of the new box:\n\n```\n" + golden(terse) + "```\n");
    const std::string normal = "fio/2.2.10/normal_seq_read.normal";
    expectSameAs(normal, "## fio\n~~~text\n" + golden(normal) + "~~~\nLooks fine.\n");
}

TEST(ImportWrapped, ADiffsAddedLinesAreRead) {
    const std::string terse = "fio/3.33/terse_v4_randrw.terse";
    expectSameAs(terse, "--- /dev/null\n+++ b/results.txt\n@@ -0,0 +1,1 @@\n" +
                            prefixed(golden(terse), "+"));
    const std::string dd = "dd/coreutils-9.1/five-fdatasync.txt";
    expectSameAs(dd, prefixed(golden(dd), "+"));
}

// Non-breaking and other Unicode spaces where the tool printed spaces, and CRLF line ends.
TEST(ImportWrapped, UnicodeSpacesAndCrlfAreSpaces) {
    const std::string normal = "fio/3.33/normal_randrw_70_30.normal";
    expectSameAs(normal, replaceAll(golden(normal), "  ", "\xC2\xA0\xC2\xA0"));
    expectSameAs(normal, replaceAll(golden(normal), " ", "\xE2\x80\xAF"));
    expectSameAs(normal, replaceAll(golden(normal), "\n", "\r\n"));
    const std::string dd = "dd/coreutils-9.1/write-direct-then-read.txt";
    expectSameAs(dd, replaceAll(golden(dd), " ", "\xC2\xA0"));
    EXPECT_EQ(text::plainText("\xEF\xBB\xBF"
                              "a\xC2\xA0"
                              "b\r\n> c\n```\n"),
              "a b\r\nc\n\n");
}

// A header row (bonnie++ 1.03's field names) and a prose line of many commas are skipped and
// named; the lines of figures import.
TEST(ImportWrapped, HeaderRowsAndProseWithCommasAreSkippedAndNamed) {
    const std::string csv = "bonnie++/1.03/kvm-three-lines.csv";
    const std::string header =
        "name,file_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,"
        "get_block,get_block_cpu,seeks,seeks_cpu,num_files,seq_create,seq_create_cpu,seq_stat,"
        "seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,"
        "ran_del,ran_del_cpu\n";
    expectSameAs(csv, header + golden(csv));
    const std::string prose = "Hi all, here, as promised, are the numbers: ide, virtio, host, "
                              "and, for what it is worth, eve, my, old, box, at, home, ok?\n";
    expectSameAs(csv, prose + golden(csv));
    auto f = parseResultFile("mail.txt", header + prose + golden(csv));
    ASSERT_TRUE(f) << f.error().message;
    EXPECT_NE(f->description.find("lines 1,2 not read"), std::string::npos) << f->description;
    EXPECT_TRUE(lb::test::hasCaveat(ParsedRun{.caveats = f->runs[0].caveats},
                                    "lines 1,2: comma-separated words"));
}

// A line of figures that is no result the parsers know is still refused, naming its line.
TEST(ImportWrapped, ABrokenResultLineIsStillRefused) {
    const std::string csv = golden("bonnie++/1.03/kvm-three-lines.csv");
    auto r = parseResultFile("cut.csv", "> note\n" + csv +
                                            "eve,11760M,65971,91,86969,24,42273,7,"
                                            "38865,71,91063,8,451.1,0,16,1,2,3\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message.rfind("cut.csv:5: ", 0), 0u) << r.error().message;
}

// fio's error lines of any shape before terse lines do not hide them.
TEST(ImportWrapped, TerseLinesAmongErrorLinesAreRead) {
    const std::string terse = "fio/3.33/terse_v4_randrw.terse";
    expectSameAs(terse, "error: something fio said\nfio: another\n" + golden(terse));
}
