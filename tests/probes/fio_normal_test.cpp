// fio's normal output (probes/fio_normal.h): genuine fio 3.33 runs written as JSON and normal
// text at once (--output-format=json,normal) read to the same metrics within the text's rounding,
// fio 3.1's form, the forms fio's stat.c printed before 2.17, and the errors and caveats.
#include "engine/measure/metric.h"
#include "probes/fio_json.h"
#include "probes/fio_normal.h"
#include "tests/probes/golden.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

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

// The text's metrics against the JSON's, name by name, within the text's rounding. `keep`
// chooses the metrics compared.
void expectSameMetrics(
    const ParsedRun& text, const ParsedRun& json,
    bool (*keep)(const Metric&) = [](const Metric&) { return true; }) {
    std::vector<Metric> fromJson, fromText;
    for (const auto& m : test::sortedMetrics(json.metrics))
        if (keep(m))
            fromJson.push_back(m);
    for (const auto& m : test::sortedMetrics(text.metrics))
        if (keep(m))
            fromText.push_back(m);
    ASSERT_EQ(fromText.size(), fromJson.size());
    for (std::size_t i = 0; i < fromJson.size(); ++i) {
        ASSERT_EQ(fromText[i].name, fromJson[i].name);
        EXPECT_EQ(fromText[i].unit, fromJson[i].unit) << fromJson[i].name;
        EXPECT_NEAR(fromText[i].value, fromJson[i].value,
                    tolerance(fromJson[i].name, fromJson[i].value))
            << fromJson[i].name;
    }
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
    expectSameMetrics(*normal, *json);
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

// fio 2.2.10: "read : io=5864.0KB, bw=34093KB/s, iops=8523, runt=   172msec", KB meaning KiB.
TEST(FioNormal, Fio2210RandRw) {
    auto run = fio::parseNormal(golden("fio/2.2.10/normal_randrw_70_30.normal"));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run->origin.format, "fio 2.2.10 normal output");
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.randrw.read.bw"), 34093 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.randrw.read.iops"), 8523);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.randrw.read.lat_mean"), 113.74 * us);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.randrw.read.clat_p50"), 64 * us);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.randrw.read.clat_p99"), 1624 * us);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.randrw.read.clat_p99_9"), 4256 * us);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.randrw.read.runtime"), 0.172);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.randrw.write.bw"), 13535 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.randrw.write.lat_mean"), 5.62 * us);
}

class FioNormal2210 : public ::testing::TestWithParam<std::string> {};

// Every line of fio 2.2.10's own output is placed, and what it prints agrees with itself: the
// bandwidth is the I/O done over the runtime.
TEST_P(FioNormal2210, EveryLinePlaced) {
    auto run = fio::parseNormal(golden("fio/2.2.10/normal_" + GetParam() + ".normal"));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run->toolVersion, "fio-2.2.10");
    EXPECT_FALSE(run->failed);
    EXPECT_FALSE(run->metrics.empty());
    for (const auto& c : run->caveats)
        EXPECT_EQ(c.find("not read"), std::string::npos) << c;
}

INSTANTIATE_TEST_SUITE_P(Fio2210, FioNormal2210,
                         ::testing::Values("seq_read", "randrw_70_30", "numjobs2", "numjobs2_group",
                                           "unified"));

TEST(FioNormal, Fio2210Unified) {
    auto run = fio::parseNormal(golden("fio/2.2.10/normal_unified.normal"));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.unified.mixed.bw"), 59362 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.unified.mixed.iops"), 14840);
}

// fio >= 2.17 prefixes: "Ki"/"Mi" powers of 1024, "k"/"M" of 1000, "bit" an eighth of a byte.
TEST(FioNormal, PrefixesAndUnits) {
    const std::string text = "j: (groupid=0, jobs=1): err= 0: pid=1: Sun Dec  6 00:00:00 2026\n"
                             "  write: IOPS=1.5M, BW=12.0Gbit/s (1.5GB/s)(3.0GiB/2000msec)\n"
                             "     lat (msec): min=1, max=2, avg= 1.50, stdev= 0.10\n";
    auto run = fio::parseNormal(text);
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.j.write.iops"), 1.5e6);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.j.write.bw"), 12.0e9 / 8);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.j.write.lat_mean"), 1.5e6);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.j.write.runtime"), 2.0);
}

TEST(FioNormal, BadFigureNamesLineAndField) {
    std::string text = golden("fio/3.1/seq_read.normal");
    text.replace(text.find("BW=2462MiB/s"), 12, "BW=24x2MiB/s");
    auto run = fio::parseNormal(text);
    ASSERT_FALSE(run);
    EXPECT_EQ(run.error().message.rfind("6: read: BW: ", 0), 0u) << run.error().message;
}

TEST(FioNormal, MissingTotalLatencyIsRefused) {
    std::string text = golden("fio/3.1/seq_read.normal");
    text.erase(text.find("     lat (usec): min"),
               text.find("    clat percentiles") - text.find("     lat (usec): min"));
    auto run = fio::parseNormal(text);
    ASSERT_FALSE(run);
    EXPECT_EQ(run.error().message.rfind("6: read: no ' lat", 0), 0u) << run.error().message;
}

TEST(FioNormal, UnplacedLineIsACaveatNamingIt) {
    std::string text = golden("fio/3.1/seq_read.normal");
    text.insert(text.find("  cpu "), "  something fio never printed\n");
    auto run = fio::parseNormal(text);
    ASSERT_TRUE(run) << run.error().message;
    ASSERT_EQ(run->caveats.size(), 1u);
    EXPECT_NE(run->caveats[0].find("17 'something fio never printed'"), std::string::npos)
        << run->caveats[0];
}

class FioNormalClientMatchesJson : public ::testing::TestWithParam<std::string> {};

// fio --client's text (fio 3.33, servers on 127.0.0.1) against the JSON of the same invocation
// (--output-format=json,normal): the sums over the clients, each job's metrics, are equal within
// the text's rounding. The JSON names each client by the address fio connected to, the text by
// the name each server gave in its "hostname=" line.
TEST_P(FioNormalClientMatchesJson, SumsOverClientsWithinTheTextsRounding) {
    const std::string base = "fio/3.33/normal_client_" + GetParam();
    auto json = fio::parseJson(golden(base + ".json"));
    auto normal = fio::parseNormal(golden(base + ".txt"));
    ASSERT_TRUE(json) << json.error().message;
    ASSERT_TRUE(normal) << normal.error().message;
    EXPECT_FALSE(normal->failed);
    EXPECT_EQ(normal->toolVersion, json->toolVersion);
    EXPECT_EQ(json->origin.spec.at("machine"), "127.0.0.1");
    EXPECT_EQ(normal->origin.spec.at("machine"), "vm");
    ASSERT_FALSE(json->metrics.empty());
    // Per-client metrics (fio.<job>@<client>.*) are named differently in the two forms.
    expectSameMetrics(*normal, *json,
                      [](const Metric& m) { return m.name.find('@') == std::string::npos; });
    for (const auto& c : normal->caveats)
        EXPECT_EQ(c.find("not read"), std::string::npos) << c;
}

INSTANTIATE_TEST_SUITE_P(Fio333, FioNormalClientMatchesJson,
                         ::testing::Values("one_randrw", "two_read", "three_write_group",
                                           "two_randrw_numjobs2"));

// One server: every block is its, so it gets per-client metrics under the name it gave.
TEST(FioNormal, OneClientsBlocksAreItsHost) {
    auto run = fio::parseNormal(golden("fio/3.33/normal_client_one_randrw.txt"));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run->origin.spec.at("machine"), "vm");
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.cs1@vm.read.iops"),
                     metricValue(*run, "fio.cs1.read.iops"));
    EXPECT_TRUE(run->caveats.empty());
}

// Several servers: the text does not say which block is whose, so no figure is given to one
// client; "All clients" ("BW=727Mi (763M)", no unit) is the job's sum, as in the JSON.
TEST(FioNormal, SeveralClientsGiveTheirSumOnly) {
    auto run = fio::parseNormal(golden("fio/3.33/normal_client_plain_two_read.txt"));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run->origin.spec.at("machine"), "vm");
    for (const auto& m : run->metrics)
        EXPECT_EQ(m.name.find('@'), std::string::npos) << m.name;
    EXPECT_GT(metricValue(*run, "fio.cs2.read.bw"), 0);
    EXPECT_TRUE(std::any_of(run->caveats.begin(), run->caveats.end(), [](const auto& c) {
        return c.find("does not say which client") != std::string::npos;
    }));
    // fio's "All clients" has no percentiles, and the text no histograms: the largest client's.
    EXPECT_TRUE(std::any_of(run->caveats.begin(), run->caveats.end(), [](const auto& c) {
        return c.find("largest of 2 clients' p50, p99 and p99.9") != std::string::npos;
    }));
}

// A "<host> " before a job's head names its client (and the run's machine).
TEST(FioNormal, HostPrefixNamesTheClient) {
    const std::string text = "<db1> j: (groupid=0, jobs=1): err= 0: pid=1: x\n"
                             "  read: IOPS=10, BW=40.0KiB/s (41.0kB/s)(40.0KiB/1000msec)\n"
                             "     lat (usec): min=1, max=2, avg= 1.50, stdev= 0.10\n";
    auto run = fio::parseNormal(text);
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run->origin.spec.at("machine"), "db1");
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.j@db1.read.iops"), 10);
}

TEST(FioNormal, Detection) {
    EXPECT_TRUE(fio::looksLikeNormal(golden("fio/3.1/seq_read.normal")));
    EXPECT_TRUE(fio::looksLikeNormal(golden("fio/2.2.10/normal_seq_read.normal")));
    EXPECT_FALSE(fio::looksLikeNormal(golden("fio/3.33/terse_v3_randrw.terse")));
}

} // namespace
} // namespace lb

namespace lb {
namespace {

// fdatasync=1: fio's "sync" latency is stored as fio.<job>.sync.lat_mean and lat_p50/p99/p99_9,
// from the JSON's "sync" (ns) and the normal output's "sync (usec)" lines, the same within the
// text's rounding to whole microseconds.
TEST(FioNormal, SyncLatencyIsStoredFromBothForms) {
    auto json = fio::parseJson(golden("fio/3.33/normal_fdatasync.json"));
    ASSERT_TRUE(json) << json.error().message;
    EXPECT_DOUBLE_EQ(metricValue(*json, "fio.syncwrite.sync.lat_mean"), 197271.844575);
    EXPECT_DOUBLE_EQ(metricValue(*json, "fio.syncwrite.sync.lat_p50"), 179200);
    EXPECT_DOUBLE_EQ(metricValue(*json, "fio.syncwrite.sync.lat_p99"), 536576);
    EXPECT_DOUBLE_EQ(metricValue(*json, "fio.syncwrite.sync.lat_p99_9"), 1990656);
    auto normal = fio::parseNormal(golden("fio/3.33/normal_fdatasync.normal"));
    ASSERT_TRUE(normal) << normal.error().message;
    EXPECT_DOUBLE_EQ(metricValue(*normal, "fio.syncwrite.sync.lat_mean"), 197270); // avg=197.27
    EXPECT_DOUBLE_EQ(metricValue(*normal, "fio.syncwrite.sync.lat_p50"), 180000);  // [  180]
    EXPECT_DOUBLE_EQ(metricValue(*normal, "fio.syncwrite.sync.lat_p99"), 537000);  // [  537]
    EXPECT_DOUBLE_EQ(metricValue(*normal, "fio.syncwrite.sync.lat_p99_9"), 1991000);
    EXPECT_FALSE(test::hasCaveat(*normal, "not read")); // the sync lines are all placed
    // A job that did not sync (fio prints zeros) has no sync metric.
    auto plain = fio::parseJson(golden("fio/3.33/seq_read.json"));
    ASSERT_TRUE(plain);
    EXPECT_EQ(test::findMetric(plain->metrics, "fio.seqread.sync.lat_mean"), nullptr);
    EXPECT_TRUE(describeMetric("fio.syncwrite.sync.lat_p99"));
    EXPECT_FALSE(describeMetric("fio.syncwrite.sync.lat_p99")->decisive);
}

} // namespace
} // namespace lb
