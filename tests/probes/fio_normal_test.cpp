// fio's normal output (probes/fio_normal.h): genuine fio 3.33 runs written as JSON and normal
// text at once (--output-format=json,normal) read to the same metrics within the text's rounding,
// fio 3.1's form, the forms fio's stat.c printed before 2.17, and the errors and caveats.
#include "probes/fio_json.h"
#include "probes/fio_normal.h"
#include "tests/probes/golden.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <string>

namespace lb {
namespace {

using test::golden;
using test::metricValue;

constexpr double KiB = 1024.0;
constexpr double MiB = 1024.0 * 1024.0;
constexpr double us = 1000.0;

// How far the text may be from the JSON: fio prints bandwidth and IOPS to 3-4 significant digits
// (1 in the last digit: under 1 % from 100 up), latency means to 0.01 of their unit (usec here),
// percentiles as whole usec (rounded up from ns), runtime in whole msec as the JSON does.
double tolerance(const std::string& name, double json) {
    if (name.ends_with(".bw") || name.ends_with(".iops"))
        return 0.01 * json;
    if (name.ends_with(".lat_mean"))
        return 0.01 * us;
    if (name.find("_p") != std::string::npos)
        return 1.0 * us;
    return 1e-9;
}

class FioNormalMatchesJson : public ::testing::TestWithParam<std::string> {};

TEST_P(FioNormalMatchesJson, SameMetricsWithinTheTextsRounding) {
    const std::string base = "fio/3.33/normal_" + GetParam();
    auto json = fio::parseJson(golden(base + ".json"));
    auto normal = fio::parseNormal(golden(base + ".normal"));
    ASSERT_TRUE(json) << json.error().message;
    ASSERT_TRUE(normal) << normal.error().message;
    EXPECT_EQ(normal->failed, json->failed);
    EXPECT_EQ(normal->toolVersion, json->toolVersion);
    EXPECT_EQ(normal->origin.spec, json->origin.spec);
    const auto fromJson = test::sortedMetrics(json->metrics);
    const auto fromText = test::sortedMetrics(normal->metrics);
    ASSERT_EQ(fromText.size(), fromJson.size());
    for (std::size_t i = 0; i < fromJson.size(); ++i) {
        ASSERT_EQ(fromText[i].name, fromJson[i].name);
        EXPECT_EQ(fromText[i].unit, fromJson[i].unit) << fromJson[i].name;
        EXPECT_NEAR(fromText[i].value, fromJson[i].value,
                    tolerance(fromJson[i].name, fromJson[i].value))
            << fromJson[i].name;
    }
    EXPECT_TRUE(std::none_of(normal->caveats.begin(), normal->caveats.end(), [](const auto& c) {
        return c.find("not read") != std::string::npos;
    })) << "every line of fio's own output is placed";
}

INSTANTIATE_TEST_SUITE_P(Fio333, FioNormalMatchesJson,
                         ::testing::Values("seq_read", "randrw_70_30", "numjobs2", "numjobs2_group",
                                           "libaio_direct", "lat_percentiles", "unified",
                                           "two_groups", "trim"));

TEST(FioNormal, Fio31SeqRead) {
    auto run = fio::parseNormal(golden("fio/3.1/seq_read.normal"));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run->toolVersion, "fio-3.1");
    EXPECT_EQ(run->origin.format, "fio 3.1 normal output");
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.seqread.read.bw"), 2462 * MiB);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.seqread.read.iops"), 19700);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.seqread.read.lat_mean"), 44.71 * us);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.seqread.read.clat_p50"), 9 * us);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.seqread.read.clat_p99"), 1369 * us);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.seqread.read.clat_p99_9"), 5211 * us);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.seqread.read.runtime"), 0.013);
}

TEST(FioNormal, NumjobsWithoutGroupReportingCombinedByName) {
    auto run = fio::parseNormal(golden("fio/3.33/normal_numjobs2.normal"));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run->origin.spec.at("job_entries"), "2");
    // 19.9 MiB/s + 24.5 MiB/s, IOPS 5094 + 6282, the longer runtime.
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.twojobs.read.bw"), (19.9 + 24.5) * MiB);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.twojobs.read.iops"), 5094 + 6282);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.twojobs.read.runtime"), 0.402);
}

TEST(FioNormal, FailedJobIsAFailedRunQuotingFio) {
    auto run = fio::parseNormal(golden("fio/3.33/normal_trim.normal"));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_TRUE(run->failed);
    EXPECT_NE(run->failureReason.find("error 25"), std::string::npos) << run->failureReason;
    EXPECT_NE(run->failureReason.find("err=25/file:ioengines.c:399"), std::string::npos)
        << run->failureReason;
}

} // namespace
} // namespace lb
