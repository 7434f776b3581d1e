// fio JSON and terse as the fio of CentOS 7/8 and Ubuntu 18.04 (fio 3.1) writes them: no
// bw_bytes, io_bytes in bytes beside io_kbytes, latencies in ns, lat_percentiles printed under
// clat_ns, empty job names; against real fio 3.1 captures in tests/data/fio/3.1.
#include "probes/fio_json.h"
#include "probes/fio_terse.h"
#include "probes/import.h"
#include "tests/probes/golden.h"

#include <gtest/gtest.h>

using namespace lb;
using lb::test::findMetric;
using lb::test::golden;
using lb::test::metricValue;

namespace {

ParsedRun json31(const std::string& file) {
    const auto text = golden("fio/3.1/" + file);
    auto run = fio::parseJson(text);
    EXPECT_TRUE(run) << file << ": " << (run ? "" : run.error().message);
    // Both readings of the document (simdjson's and nlohmann's) give one result.
    auto dom = fio::parseJsonWithoutSimdjson(text);
    EXPECT_TRUE(dom) << file << ": " << (dom ? "" : dom.error().message);
    if (run && dom) {
        EXPECT_EQ(lb::test::sortedMetrics(run->metrics), lb::test::sortedMetrics(dom->metrics))
            << file;
    }
    return run ? *run : ParsedRun{};
}

constexpr double KiB = 1024;

} // namespace

// bw_bytes as fio 3.2 computes it, (1000 * io_bytes) / runtime, from the exact byte count; the
// KiB/s "bw" beside it is truncated.
TEST(Fio31Json, BandwidthFromBytesAndRuntime) {
    const auto run = json31("seq_read.json");
    EXPECT_EQ(run.toolVersion, "fio-3.1");
    EXPECT_FALSE(run.failed);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.seqread.read.bw"), 2097152000);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.seqread.read.iops"), 16000);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.seqread.read.runtime"), 0.016);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.seqread.read.lat_mean"), 54960.40625);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.seqread.read.clat_p50"), 9920);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.seqread.read.clat_p99"), 1826816);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.seqread.read.clat_p99_9"), 5079040);
    EXPECT_EQ(findMetric(run.metrics, "fio.seqread.write.bw"), nullptr); // no write I/O
}

// Percentiles of same-named entries cannot be summed: the largest is kept, and the metric
// says so where the comparison and the report show it. The entries are counted.
TEST(Fio31Json, SameNamedJobsAreSummed) {
    const auto run = json31("numjobs2.json");
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.numjobs2.read.bw"), 44858866.0 + 44150568.0);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.numjobs2.read.iops"), 10951.871658 + 10778.947368);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.numjobs2.read.clat_p99"), 477184);
    EXPECT_TRUE(lb::test::hasNote(
        run, MetricNote::Kind::Qualifies, "fio.numjobs2.read.clat_p*",
        "largest of 2 jobs' p50, p99 and p99.9, not a merged percentile: jobs named 'numjobs2'"));
    EXPECT_EQ(run.origin.spec.at("job_entries"), "2");
    auto file = parseResultFile("numjobs2.json", golden("fio/3.1/numjobs2.json"));
    ASSERT_TRUE(file) << file.error().message;
    EXPECT_EQ(file->description.rfind("fio 3.1 JSON, 1 job (2 entries combined by name), ", 0), 0u)
        << file->description;
}

TEST(Fio31Json, JsonPlusReadAndWrite) {
    const auto run = json31("randrw_70_30_jsonplus.json");
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.bw"), 27152826);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.write.bw"), 12230309);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.clat_p50"), 79360);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.write.clat_p99"), 244736);
    EXPECT_FALSE(run.series.empty()); // the bins' percentile curves
}

// Before fio 3.18, lat_percentiles=1 switched clat percentiles off and printed total latency's
// under clat_ns: they are total latency's, and named so.
TEST(Fio31Json, LatPercentilesAreTotalLatency) {
    const auto run = json31("lat_percentiles.json");
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.latpct.read.lat_p50"), 93696);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.latpct.read.lat_p99"), 3391488);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.latpct.read.lat_p99_9"), 7110656);
    EXPECT_EQ(findMetric(run.metrics, "fio.latpct.read.clat_p50"), nullptr);
}

TEST(Fio31Json, MissingOldFieldIsNamed) {
    auto text = golden("fio/3.1/seq_read.json");
    text.erase(text.find("\"bw\" : 2048000,"), 15);
    auto r = fio::parseJson(text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "jobs[0].read.bw: missing");
}

TEST(Fio31Terse, EmptyJobNameIsUnnamed) {
    auto run = fio::parseTerse(golden("fio/3.1/terse_v3_empty_jobname.terse"));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run->toolVersion, "fio-3.1");
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.unnamed.read.bw"), 341333 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.unnamed.read.iops"), 85333);
}

// fio's own "fio: ..." lines come before the failed job's terse line: the file is fio terse, and
// the run failed with fio's message.
TEST(Fio31Terse, ErrorLinesMakeAFailedRun) {
    const auto text = golden("fio/3.1/terse_v3_failed_readonly_short.terse");
    EXPECT_TRUE(fio::looksLikeTerse(text));
    auto run = fio::parseTerse(text);
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_TRUE(run->failed);
    EXPECT_EQ(run->failureReason,
              "fio job 'shortread' failed with error 5 (Input/output error): fio: pid=9192, "
              "err=5/file:backend.c:490, func=full resid, error=Input/output error");
}
