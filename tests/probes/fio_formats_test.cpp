// fio everywhere it has been: 1.x/2.x JSON (written from fio's 2.x formats), json+ bins, the
// "mixed" of unified_rw_reporting, client_stats, direct/buffered notes, and terse v3/v4/v5
// (real fio 3.33 captures), against tests/data/fio/<version>/ (README.txt says which is which).
#include "engine/measure/metric.h"
#include "probes/fio_json.h"
#include "probes/fio_terse.h"
#include "tests/probes/golden.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace lb;
using lb::test::golden;
using lb::test::hasNote;
using lb::test::metricValue;

namespace {

ParsedRun json(const std::string& file) {
    auto run = fio::parseJson(golden("fio/" + file));
    EXPECT_TRUE(run) << file << ": " << (run ? "" : run.error().message);
    return run ? *run : ParsedRun{};
}

// The notes on how the I/O was done (the runs' other notes, e.g. "under 5 s", are tested with
// the probe).
// The I/O path notes ("direct I/O"); the notes of the work ("bs=4.00 KiB") have an '='.
std::vector<MetricNote> methodNotes(const ParsedRun& run) {
    std::vector<MetricNote> out;
    for (const auto& n : run.notes)
        if (n.kind == MetricNote::Kind::Method && n.text.find('=') == std::string::npos)
            out.push_back(n);
    return out;
}

ParsedRun terse(const std::string& file) {
    auto run = fio::parseTerse(golden("fio/" + file));
    EXPECT_TRUE(run) << file << ": " << (run ? "" : run.error().message);
    return run ? *run : ParsedRun{};
}

void expectCatalogued(const ParsedRun& run) {
    for (const auto& m : run.metrics) {
        const auto info = describeMetric(m.name);
        ASSERT_TRUE(info) << m.name;
        EXPECT_EQ(info->unit, m.unit) << m.name;
    }
}

constexpr double KiB = 1024;
constexpr double us = 1000; // ns

} // namespace

TEST(FioLegacyJson, Fio2xUnitsAreConverted) {
    const auto run = json("2.2.10/two_jobs_direct_and_buffered.json");
    EXPECT_EQ(run.toolVersion, "fio-2.2.10");
    EXPECT_FALSE(run.failed);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.bw"), 9274 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.iops"), 2318);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.clat_p50"), 185 * us);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.clat_p99"), 6324 * us);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.clat_p99_9"), 10420 * us);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.lat_mean"), 424.75 * us);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.runtime"), 0.615);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.write.bw"), 4045 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.seqwrite.write.bw"), 131072 * KiB);
    EXPECT_EQ(lb::test::findMetric(run.metrics, "fio.seqwrite.read.bw"), nullptr);
    EXPECT_TRUE(run.caveats.empty());
    expectCatalogued(run);
}

TEST(FioLegacyJson, JobOptionsGiveMethodNotes) {
    const auto run = json("2.2.10/two_jobs_direct_and_buffered.json");
    EXPECT_TRUE(hasNote(run, MetricNote::Kind::Method, "fio.randrw.*", "direct I/O"));
    EXPECT_TRUE(hasNote(run, MetricNote::Kind::Method, "fio.seqwrite.*", "buffered I/O"));
    EXPECT_EQ(methodNotes(run).size(), 2u);
    const auto direct = json("3.33/direct_randread.json");
    const auto directMethod = methodNotes(direct);
    ASSERT_EQ(directMethod.size(), 1u);
    EXPECT_EQ(directMethod[0],
              (MetricNote{MetricNote::Kind::Method, "fio.direct4k.*", "direct I/O"}));
    // And the work it did, from its options, fio's defaults where it set none.
    EXPECT_TRUE(hasNote(direct, MetricNote::Kind::Method, "fio.direct4k.*", "bs=4.00 KiB"));
    EXPECT_TRUE(hasNote(direct, MetricNote::Kind::Method, "fio.direct4k.*", "iodepth=1"));
    // Without printed options (fio 2.0) the JSON does not say.
    EXPECT_TRUE(methodNotes(json("2.0.13/seqread.json")).empty());
}

TEST(FioLegacyJson, Fio20HasNoIoCount) {
    const auto run = json("2.0.13/seqread.json");
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.seqread.read.bw"), 131072 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.seqread.read.iops"), 128);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.seqread.read.lat_mean"), 7793.75 * us);
}

TEST(FioLegacyJson, ClientStatsOf2x) {
    const auto run = json("2.2.10/client_server.json");
    EXPECT_FALSE(run.failed);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.csjob.read.bw"), 18274 * KiB); // "All clients"
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.csjob@server1.read.bw"), 9274 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.csjob@server2.read.bw"), 9000 * KiB);
    // "All clients" has no percentiles: they come from the clients.
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.csjob.read.clat_p99"), 6324 * us);
    expectCatalogued(run);
}

TEST(FioJsonPlus, PercentilesFromBinsKeyedByIndex) {
    const auto run = json("2.15/jsonplus_index_bins.json");
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.pctlist.read.clat_p50"), 100 * us);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.pctlist.read.clat_p99"), 868 * us);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.pctlist.read.clat_p99_9"), 7456 * us);
}

TEST(FioJsonPlus, PercentilesFromBinsWhenTheListLacksThem) {
    // fio 3.33 json+ with percentile_list=90:95; p50/p99/p99.9 worked out from its clat bins.
    const auto run = json("3.33/jsonplus_percentile_list.json");
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.pctlist.read.clat_p50"), 113152);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.pctlist.read.clat_p99"), 3784704);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.pctlist.read.clat_p99_9"), 13565952);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.pctlist.read.bw"), 20610830);
    // A json+ file with the default list keeps fio's own percentiles.
    const auto text = golden("fio/3.33/randrw_70_30_jsonplus.json");
    const auto doc = nlohmann::json::parse(text.substr(text.find('{')));
    const auto& read = doc["jobs"][0]["read"]["clat_ns"]["percentile"];
    const auto plus = json("3.33/randrw_70_30_jsonplus.json");
    EXPECT_DOUBLE_EQ(metricValue(plus, "fio.randrw7030.read.clat_p99"),
                     read["99.000000"].get<double>());
}

// Found by the fio_json fuzz target in CI: a bucket index whose histogram group lies past 64
// bits was shifted past the type's width (undefined); it is refused, naming the bucket.
TEST(FioJsonPlus, BucketBeyondSixtyFourBitsIsRefusedNotShifted) {
    const auto text = golden("fio/2.15/jsonplus_index_bins.json");
    auto doc = nlohmann::json::parse(text.substr(text.find('{')));
    auto& bins = doc["jobs"][0]["read"]["clat"]["bins"];
    ASSERT_TRUE(bins.is_object());
    bins["54144"] = 1; // (54144 >> 6) - 1 = 845 error bits
    auto r = fio::parseJson(doc.dump());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "jobs[0].read.clat.bins.54144: bucket 54144 lies beyond 2^63 µs");
    bins.erase("54144");
    bins["FIO_IO_U_PLAT_VAL"] = 0; // would divide by zero
    r = fio::parseJson(doc.dump());
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("describe no histogram fio writes"), std::string::npos)
        << r.error().message;
    // Found by the fuzz target later: a _VAL below 2^_BITS put index 56 past the linear range
    // with -1 error bits (a shift by 2^64-1).
    bins["FIO_IO_U_PLAT_VAL"] = 28;
    r = fio::parseJson(doc.dump());
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("FIO_IO_U_PLAT_VAL 28 describe no histogram fio writes"),
              std::string::npos)
        << r.error().message;
}

// Found by the fio_json fuzz target in CI: with bins and no "percentile" in clat_ns, adding the
// percentiles moved clat_ns's members and the bins were read from freed memory. Now they come out
// as fio's own list has them.
TEST(FioJsonPlus, PercentilesFromBinsWhenClatHasNone) {
    const auto text = golden("fio/3.33/randrw_70_30_jsonplus.json");
    auto doc = nlohmann::ordered_json::parse(text.substr(text.find('{')));
    auto& clat = doc["jobs"][0]["read"]["clat_ns"];
    const auto p99 = clat["percentile"]["99.000000"].get<double>();
    clat.erase("percentile");
    ASSERT_TRUE(clat.contains("bins"));
    const auto r = fio::parseJson(doc.dump());
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_DOUBLE_EQ(metricValue(*r, "fio.randrw7030.read.clat_p99"), p99);

    // Found the same way: a bucket beyond a double's range threw std::out_of_range out of the
    // parser. The bins then give no percentiles, and the histogram is a caveat.
    clat["bins"][std::string(400, '9')] = 1;
    const auto huge = fio::parseJson(doc.dump());
    ASSERT_TRUE(huge) << huge.error().message;
    EXPECT_EQ(lb::test::findMetric(huge->metrics, "fio.randrw7030.read.clat_p99"), nullptr);
    ASSERT_EQ(huge->caveats.size(), 1u);
    EXPECT_NE(huge->caveats[0].find("histogram is unreadable: jobs[0].read.clat_ns.bins"),
              std::string::npos)
        << huge->caveats[0];
}

TEST(FioLegacyJson, MissingLegacyFieldsAreNamed) {
    auto text = golden("fio/2.0.13/seqread.json");
    text.erase(text.find("\"bw\" : 131072,"), 14);
    auto r = fio::parseJson(text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "jobs[0].read.bw: missing");
}

TEST(FioTerse, Version3) {
    const auto run = terse("3.33/terse_v3_randrw.terse");
    EXPECT_EQ(run.toolVersion, "fio-3.33");
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.bw"), 9274 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.iops"), 2318);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.runtime"), 0.615);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.lat_mean"), 424.755746 * us);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.clat_p50"), 185 * us);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.clat_p99"), 6324 * us);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.read.clat_p99_9"), 10420 * us);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.write.bw"), 4045 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.randrw.write.lat_mean"), 11.125225 * us);
    EXPECT_EQ(run.metrics.size(), 14u);
    EXPECT_EQ(run.origin.format, "fio 3.33 terse v3");
    expectCatalogued(run);
}

TEST(FioTerse, Versions4And5AndTwoX) {
    const auto v4 = terse("3.33/terse_v4_randrw.terse");
    EXPECT_DOUBLE_EQ(metricValue(v4, "fio.randrw.read.bw"), 12293 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(v4, "fio.randrw.write.bw"), 5362 * KiB);
    EXPECT_EQ(lb::test::findMetric(v4.metrics, "fio.randrw.trim.bw"), nullptr); // no trim I/O
    EXPECT_EQ(v4.origin.format, "fio 3.33 terse v4");
    const auto v5 = terse("3.33/terse_v5_randrw.terse");
    EXPECT_DOUBLE_EQ(metricValue(v5, "fio.randrw5.read.bw"), 17714 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(v5, "fio.randrw5.read.lat_mean"), 222.252187 * us);
    EXPECT_DOUBLE_EQ(metricValue(v5, "fio.randrw5.read.clat_p99"), 3424 * us);
    EXPECT_DOUBLE_EQ(metricValue(v5, "fio.randrw5.write.bw"), 7726 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(v5, "fio.randrw5.write.clat_p99_9"), 61 * us);
    const auto old = terse("2.2.10/terse_v3_randrw.terse");
    EXPECT_EQ(old.toolVersion, "fio-2.2.10");
    EXPECT_DOUBLE_EQ(metricValue(old, "fio.randrw.read.bw"), 9274 * KiB);
}

TEST(FioTerse, UnifiedReportingIsMixed) {
    for (const char* file : {"3.33/terse_v3_unified.terse", "3.33/terse_v4_unified.terse"}) {
        const auto run = terse(file);
        ASSERT_EQ(run.metrics.size(), 7u) << file;
        for (const auto& m : run.metrics)
            EXPECT_NE(m.name.find(".mixed."), std::string::npos) << m.name;
        expectCatalogued(run);
    }
    const auto run = terse("3.33/terse_v3_unified.terse");
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.mixedt.mixed.bw"), 22629 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(run, "fio.mixedt.mixed.clat_p50"), 41 * us);
}

TEST(FioTerse, ErrorsNameLineAndField) {
    auto text = golden("fio/3.33/terse_v3_randrw.terse");
    text.replace(text.find(";9274;"), 6, ";92x4;");
    auto r = fio::parseTerse("\n" + text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "2: field 7 (read_bandwidth_kb): '92x4' is not a number");
    r = fio::parseTerse("3;fio-3.33;j;0;0;1;2;3\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "1: field 9 (read): the line ends inside the first I/O block");
    r = fio::parseTerse("7;fio-9;j;0;0\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message,
              "1: field 1 (terse_version): '7' is not a terse version read here (3, 4, 5)");
    auto bad = golden("fio/3.33/terse_v3_randrw.terse");
    bad.replace(bad.find("50.000000%=185"), 14, "50.000000%185");
    r = fio::parseTerse(bad);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "1: field 24 (read_clat_pct07): '50.000000%185' is not "
                                 "'<percentile>%=<usec>'");
}

// Found by the fio_terse fuzz target in CI: an error code of 1e116 was cast to an integer
// (undefined). Codes and versions must be whole numbers an int holds.
TEST(FioTerse, ErrorCodeMustBeAWholeNumber) {
    const std::string huge = "1" + std::string(116, '0');
    auto r = fio::parseTerse("3;fio-3.33;j;0;" + huge + "\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message,
              "1: field 5 (error): '" + huge + "' is not a whole number up to 2147483647");
    r = fio::parseTerse("3;fio-3.33;j;0;2.5\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message,
              "1: field 5 (error): '2.5' is not a whole number up to 2147483647");
}

// Found by the fio_terse fuzz target (tests/data/fuzz/fio_terse): a job name that is not UTF-8
// (Latin-1 "réad") threw from the JSON the terse jobs are turned into. It is kept, escaped.
TEST(FioTerse, JobNameThatIsNotUtf8IsEscaped) {
    auto run = fio::parseTerse(golden("fuzz/fio_terse/job-name-latin1.terse"));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_DOUBLE_EQ(metricValue(*run, "fio.r\\xe9ad.read.bw"), 9274 * KiB);
}

TEST(FioTerse, LooksLikeTerse) {
    EXPECT_TRUE(fio::looksLikeTerse(golden("fio/3.33/terse_v4_randrw.terse")));
    EXPECT_TRUE(fio::looksLikeTerse("\n  5;fio-3.33;x;0;0\n"));
    EXPECT_FALSE(fio::looksLikeTerse("1.97,1.97,host,1\n"));
    EXPECT_FALSE(fio::looksLikeTerse("3;4;5\n"));
}
