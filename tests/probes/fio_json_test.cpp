// Golden-file tests of the fio JSON parser: outputs captured from real fio 3.33 runs
// (tests/data/fio/3.33, see its README.txt) and hand-broken ones (tests/data/fio/broken).
#include "engine/measure/metric.h"
#include "probes/fio_histogram.h"
#include "probes/fio_json.h"
#include "tests/probes/golden.h"
#include "tests/support/metric_note_print.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using lb::ErrorKind;
using lb::Metric;
using lb::ParsedRun;
using lb::Unit;

std::string readData(const std::string& relative) {
    const std::string path = std::string(LAYOUTBENCH_TEST_DATA_DIR) + "/fio/" + relative;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ADD_FAILURE() << "cannot open " << path;
        return {};
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

ParsedRun parseGolden(const std::string& name) {
    const auto out = readData("3.33/" + name + ".json");
    const std::string stderrPath = "3.33/" + name + ".stderr";
    std::string err;
    if (std::ifstream(std::string(LAYOUTBENCH_TEST_DATA_DIR) + "/fio/" + stderrPath))
        err = readData(stderrPath);
    auto parsed = lb::fio::parseJson(out, err);
    if (!parsed) {
        ADD_FAILURE() << name << ": " << parsed.error().message;
        return {};
    }
    return std::move(parsed).value();
}

const Metric* find(const ParsedRun& run, const std::string& name) {
    for (const auto& m : run.metrics)
        if (m.name == name)
            return &m;
    return nullptr;
}

// Asserts the metric exists with this value and unit.
void expectMetric(const ParsedRun& run, const std::string& name, double value, Unit unit) {
    const Metric* m = find(run, name);
    ASSERT_NE(m, nullptr) << "missing metric " << name;
    EXPECT_DOUBLE_EQ(m->value, value) << name;
    EXPECT_EQ(m->unit, unit) << name;
}

std::vector<std::string> namesWithPrefix(const ParsedRun& run, const std::string& prefix) {
    std::vector<std::string> names;
    for (const auto& m : run.metrics)
        if (m.name.starts_with(prefix))
            names.push_back(m.name);
    return names;
}

bool hasCaveatContaining(const ParsedRun& run, const std::string& a, const std::string& b) {
    for (const auto& c : run.caveats)
        if (c.find(a) != std::string::npos && c.find(b) != std::string::npos)
            return true;
    return false;
}

lb::Error parseError(const std::string& stdoutText, const std::string& stderrText = {}) {
    auto parsed = lb::fio::parseJson(stdoutText, stderrText);
    if (parsed) {
        ADD_FAILURE() << "expected an error";
        return {};
    }
    return parsed.error();
}

const std::vector<std::string> goldenFiles{
    "seq_read",
    "rand_write_4k",
    "randrw_70_30_jsonplus",
    "numjobs2",
    "failed_notdir",
    "failed_readonly_short",
    "warning_before_json",
    "json_then_normal",
    "client_server",
    "client_server_one_client",
    "client_server_two_jobs",
    "unified_rw_reporting",
    "status_interval",
    "zfs_fuse_randread_lat_percentiles",
    "zfs_fuse_randread_clat_only",
    "dir_randread_lat_percentiles",
    "job_file_direct_and_buffered",
    "randfile_256m",
};

using lb::MetricNote;
constexpr auto Qualifies = MetricNote::Kind::Qualifies;
constexpr auto Method = MetricNote::Kind::Method;

bool hasNote(const ParsedRun& run, MetricNote::Kind kind, const std::string& metrics,
             const std::string& text) {
    return std::find(run.notes.begin(), run.notes.end(), MetricNote{kind, metrics, text}) !=
           run.notes.end();
}

// The notes whose glob matches `metric`.
std::vector<MetricNote> notesOn(const ParsedRun& run, const std::string& metric) {
    std::vector<MetricNote> out;
    for (const auto& n : run.notes)
        if (lb::metricMatches(n.metrics, metric))
            out.push_back(n);
    return out;
}

TEST(FioJson, SequentialRead) {
    const auto run = parseGolden("seq_read");
    EXPECT_EQ(run.workload, "fio");
    EXPECT_EQ(run.toolVersion, "fio-3.33");
    EXPECT_FALSE(run.failed);
    EXPECT_TRUE(run.caveats.empty());
    expectMetric(run, "fio.seqread.read.bw", 1398101333, Unit::BytesPerSecond);
    expectMetric(run, "fio.seqread.read.iops", 10666.666667, Unit::OpsPerSecond);
    expectMetric(run, "fio.seqread.read.clat_p50", 6112, Unit::Nanoseconds);
    expectMetric(run, "fio.seqread.read.clat_p99", 2506752, Unit::Nanoseconds);
    expectMetric(run, "fio.seqread.read.clat_p99_9", 2506752, Unit::Nanoseconds);
    expectMetric(run, "fio.seqread.read.lat_mean", 71437.421875, Unit::Nanoseconds);
    expectMetric(run, "fio.seqread.read.runtime", 0.006, Unit::Seconds);
    EXPECT_EQ(run.metrics.size(), 7u); // write and trim did no I/O
}

TEST(FioJson, RandomWrite4k) {
    const auto run = parseGolden("rand_write_4k");
    EXPECT_FALSE(run.failed);
    expectMetric(run, "fio.randwrite4k.write.bw", 1198372571, Unit::BytesPerSecond);
    expectMetric(run, "fio.randwrite4k.write.iops", 292571.428571, Unit::OpsPerSecond);
    expectMetric(run, "fio.randwrite4k.write.clat_p50", 2096, Unit::Nanoseconds);
    expectMetric(run, "fio.randwrite4k.write.clat_p99", 10560, Unit::Nanoseconds);
    expectMetric(run, "fio.randwrite4k.write.clat_p99_9", 70144, Unit::Nanoseconds);
    expectMetric(run, "fio.randwrite4k.write.lat_mean", 2756.088867, Unit::Nanoseconds);
    expectMetric(run, "fio.randwrite4k.write.runtime", 0.007, Unit::Seconds);
    EXPECT_TRUE(namesWithPrefix(run, "fio.randwrite4k.read.").empty());
    EXPECT_TRUE(namesWithPrefix(run, "fio.randwrite4k.trim.").empty());
}

TEST(FioJson, RandRwJsonPlus) {
    const auto run = parseGolden("randrw_70_30_jsonplus");
    EXPECT_FALSE(run.failed);
    expectMetric(run, "fio.randrw7030.read.bw", 87177552, Unit::BytesPerSecond);
    expectMetric(run, "fio.randrw7030.read.iops", 21283.58209, Unit::OpsPerSecond);
    expectMetric(run, "fio.randrw7030.read.clat_p99", 77312, Unit::Nanoseconds);
    expectMetric(run, "fio.randrw7030.read.lat_mean", 45290.006311, Unit::Nanoseconds);
    expectMetric(run, "fio.randrw7030.write.bw", 38025552, Unit::BytesPerSecond);
    expectMetric(run, "fio.randrw7030.write.iops", 9283.58209, Unit::OpsPerSecond);
    expectMetric(run, "fio.randrw7030.write.clat_p50", 2896, Unit::Nanoseconds);
    expectMetric(run, "fio.randrw7030.write.clat_p99_9", 22400, Unit::Nanoseconds);
    expectMetric(run, "fio.randrw7030.write.runtime", 0.067, Unit::Seconds);
    EXPECT_EQ(run.metrics.size(), 14u);
}

TEST(FioJson, SameNamedJobsAreCombined) {
    const auto run = parseGolden("numjobs2");
    EXPECT_FALSE(run.failed);
    expectMetric(run, "fio.twojobs.read.bw", 71697504.0 + 72315586.0, Unit::BytesPerSecond);
    expectMetric(run, "fio.twojobs.read.iops", 17504.273504 + 17655.172414, Unit::OpsPerSecond);
    // Both did 2048 I/Os, so the weighted mean is the plain mean here.
    expectMetric(run, "fio.twojobs.read.lat_mean",
                 (56655.709961 * 2048 + 56229.053223 * 2048) / 4096, Unit::Nanoseconds);
    expectMetric(run, "fio.twojobs.read.clat_p50", 56064, Unit::Nanoseconds); // max(56064, 55552)
    expectMetric(run, "fio.twojobs.read.clat_p99", 97792, Unit::Nanoseconds); // max(96768, 97792)
    expectMetric(run, "fio.twojobs.read.clat_p99_9", 146432, Unit::Nanoseconds); // max(146432, ..)
    expectMetric(run, "fio.twojobs.read.runtime", 0.117, Unit::Seconds);         // max(117, 116)
    EXPECT_EQ(run.metrics.size(), 7u);
    EXPECT_TRUE(hasCaveatContaining(run, "fio.twojobs.read.clat_p",
                                    "largest of 2 jobs' p50, p99 and p99.9"));
}

// A json+ direction's clat_ns bins ({"<ns>": count}) and the percentiles fio printed beside them.
struct JsonPlusLatency {
    std::vector<std::pair<double, double>> bins;
    nlohmann::json percentiles;
};

std::vector<JsonPlusLatency> readJsonPlus(const std::string& name) {
    const auto doc = nlohmann::json::parse(readData("3.33/" + name + ".json"));
    std::vector<JsonPlusLatency> out;
    for (const auto& job : doc.at("jobs")) {
        const auto& clat = job.at("read").at("clat_ns");
        JsonPlusLatency l{{}, clat.at("percentile")};
        for (const auto& [key, count] : clat.at("bins").items())
            l.bins.emplace_back(std::stod(key), count.get<double>());
        l.bins = lb::fio::mergedBins(std::move(l.bins));
        out.push_back(std::move(l));
    }
    return out;
}

// fio's percentile rule followed: from each job's own bins, every percentile fio printed (1st to
// 99.99th) is fio's, to the nanosecond, for the four jobs of a numjobs=4 run and for the
// group_reporting entry of another run of the same job, whose bins fio added up from its four.
TEST(FioJsonPlus, PercentileFromBinsIsFiosOwn) {
    for (const auto* file : {"jsonplus_numjobs4", "jsonplus_numjobs4_group"})
        for (const auto& job : readJsonPlus(file)) {
            ASSERT_EQ(job.percentiles.size(), 17u) << file;
            for (const auto& [key, value] : job.percentiles.items())
                EXPECT_EQ(lb::fio::binsPercentile(job.bins, std::stod(key)), value.get<double>())
                    << file << " p" << key;
        }
}

// numjobs=4 without group_reporting, json+: the four jobs' histograms added up give the
// percentiles, as fio's group_reporting computes them, and the metric says it was merged.
TEST(FioJsonPlus, SameNamedJobsPercentilesMergedFromTheirBins) {
    const auto run = parseGolden("jsonplus_numjobs4");
    std::vector<std::pair<double, double>> all;
    double lowest = 1e300, highest = 0;
    for (const auto& job : readJsonPlus("jsonplus_numjobs4")) {
        all.insert(all.end(), job.bins.begin(), job.bins.end());
        lowest = std::min(lowest, job.percentiles.at("99.000000").get<double>());
        highest = std::max(highest, job.percentiles.at("99.000000").get<double>());
    }
    all = lb::fio::mergedBins(std::move(all));
    const std::array<std::pair<const char*, double>, 3> wanted{
        {{"clat_p50", 50.0}, {"clat_p99", 99.0}, {"clat_p99_9", 99.9}}};
    for (const auto& [stat, percent] : wanted)
        expectMetric(run, std::string("fio.jp4.read.") + stat,
                     *lb::fio::binsPercentile(all, percent), Unit::Nanoseconds);
    // 5079040 ns: a percentile of all 4096 I/Os, between the jobs' own (4816896 to 5865472).
    expectMetric(run, "fio.jp4.read.clat_p99", 5079040, Unit::Nanoseconds);
    EXPECT_GT(5079040, lowest);
    EXPECT_LT(5079040, highest);
    EXPECT_TRUE(lb::test::hasNote(run, lb::MetricNote::Kind::Qualifies, "fio.jp4.read.clat_p*",
                                  "merged from 4 jobs' json+ histograms"));
    EXPECT_FALSE(hasCaveatContaining(run, "fio.jp4.read.clat_p", "largest of"));
}

// Without json+ the percentiles of same-named jobs stay the largest job's, and say so.
TEST(FioJsonPlus, WithoutBinsTheLargestIsKeptAndSaid) {
    auto text = readData("3.33/jsonplus_numjobs4.json");
    auto doc = nlohmann::ordered_json::parse(text);
    for (auto& job : doc.at("jobs"))
        job.at("read").at("clat_ns").erase("bins");
    auto parsed = lb::fio::parseJson(doc.dump(2));
    ASSERT_TRUE(parsed) << parsed.error().message;
    expectMetric(*parsed, "fio.jp4.read.clat_p99", 5865472, Unit::Nanoseconds);
    EXPECT_TRUE(lb::test::hasNote(*parsed, lb::MetricNote::Kind::Qualifies, "fio.jp4.read.clat_p*",
                                  "largest of 4 jobs' p50, p99 and p99.9"));
}

TEST(FioJson, FailedJobNotADirectory) {
    const auto run = parseGolden("failed_notdir");
    EXPECT_TRUE(run.failed);
    EXPECT_NE(run.failureReason.find("'notdir'"), std::string::npos) << run.failureReason;
    EXPECT_NE(run.failureReason.find("error 20"), std::string::npos) << run.failureReason;
    // The matching line from fio's stderr.
    EXPECT_NE(run.failureReason.find("err=20/file:filesetup.c:455, func=fstat"), std::string::npos)
        << run.failureReason;
    EXPECT_TRUE(run.metrics.empty());
}

TEST(FioJson, FailedJobThatDidIoGivesNoMetrics) {
    // fio read 1 MiB before failing with EIO; fio logged the err= line on stdout, before the JSON.
    const auto run = parseGolden("failed_readonly_short");
    EXPECT_TRUE(run.failed);
    EXPECT_NE(run.failureReason.find("'shortread'"), std::string::npos) << run.failureReason;
    EXPECT_NE(run.failureReason.find("error 5"), std::string::npos) << run.failureReason;
    EXPECT_NE(run.failureReason.find("err=5/file:backend.c:471"), std::string::npos)
        << run.failureReason;
    EXPECT_TRUE(run.metrics.empty());
}

TEST(FioJson, WarningBeforeJson) {
    const auto text = readData("3.33/warning_before_json.json");
    ASSERT_TRUE(text.starts_with("note: both iodepth >= 1 and synchronous I/O engine"));
    const auto run = parseGolden("warning_before_json");
    EXPECT_FALSE(run.failed);
    expectMetric(run, "fio.warnread.read.bw", 1677721600, Unit::BytesPerSecond);
    expectMetric(run, "fio.warnread.read.clat_p99", 2211840, Unit::Nanoseconds);
}

TEST(FioJson, NormalOutputAroundJson) {
    const auto run = parseGolden("json_then_normal");
    EXPECT_FALSE(run.failed);
    expectMetric(run, "fio.jsonnormal.read.bw", 1677721600, Unit::BytesPerSecond);
    expectMetric(run, "fio.jsonnormal.read.lat_mean", 71637.484375, Unit::Nanoseconds);
    EXPECT_EQ(run.metrics.size(), 7u);
}

TEST(FioJson, StatusIntervalUsesTheFinalReport) {
    // Three complete reports, after 1 s, 2 s and at the end; only the last is the result.
    const auto run = parseGolden("status_interval");
    EXPECT_FALSE(run.failed);
    expectMetric(run, "fio.status.read.bw", 90367872, Unit::BytesPerSecond);
    expectMetric(run, "fio.status.read.iops", 22062.468766, Unit::OpsPerSecond);
    expectMetric(run, "fio.status.read.runtime", 2.001, Unit::Seconds);
    expectMetric(run, "fio.status.read.lat_mean", 44584.175187, Unit::Nanoseconds);
    expectMetric(run, "fio.status.read.clat_p99", 66048, Unit::Nanoseconds);
    EXPECT_EQ(run.metrics.size(), 7u);
}

TEST(FioJson, ClientServerTwoClients) {
    // Both servers ran on 127.0.0.1, so the port tells the clients apart.
    const auto run = parseGolden("client_server");
    EXPECT_FALSE(run.failed);
    EXPECT_EQ(run.toolVersion, "fio-3.33");
    // The aggregate is fio's "All clients" entry...
    expectMetric(run, "fio.csjob.read.bw", 111255161, Unit::BytesPerSecond);
    expectMetric(run, "fio.csjob.read.iops", 27161.904762, Unit::OpsPerSecond);
    expectMetric(run, "fio.csjob.read.lat_mean", 71171.137097, Unit::Nanoseconds);
    expectMetric(run, "fio.csjob.write.bw", 48527847, Unit::BytesPerSecond);
    expectMetric(run, "fio.csjob.write.runtime", 0.105, Unit::Seconds);
    // ...which has no percentiles, so these are the maximum over the clients.
    expectMetric(run, "fio.csjob.read.clat_p99", 116224, Unit::Nanoseconds);
    expectMetric(run, "fio.csjob.read.clat_p99_9", 831488, Unit::Nanoseconds);
    expectMetric(run, "fio.csjob.write.clat_p50", 2640, Unit::Nanoseconds);
    EXPECT_TRUE(hasCaveatContaining(run, "fio.csjob.read.clat_p", "All clients"));

    expectMetric(run, "fio.csjob@127.0.0.1:8765.read.bw", 55627580, Unit::BytesPerSecond);
    expectMetric(run, "fio.csjob@127.0.0.1:8765.read.clat_p99", 115200, Unit::Nanoseconds);
    expectMetric(run, "fio.csjob@127.0.0.1:8765.write.iops", 5923.809524, Unit::OpsPerSecond);
    expectMetric(run, "fio.csjob@127.0.0.1:8766.read.bw", 56162461, Unit::BytesPerSecond);
    expectMetric(run, "fio.csjob@127.0.0.1:8766.write.lat_mean", 2820.485531, Unit::Nanoseconds);
    EXPECT_EQ(run.metrics.size(), 3u * 2u * 7u);
}

TEST(FioJson, ClientServerOneClient) {
    // One client: fio prints no "All clients" entry and the host name needs no port.
    const auto run = parseGolden("client_server_one_client");
    EXPECT_FALSE(run.failed);
    expectMetric(run, "fio.csjob@127.0.0.1.read.bw", 73011200, Unit::BytesPerSecond);
    expectMetric(run, "fio.csjob.read.bw", 73011200, Unit::BytesPerSecond);
    expectMetric(run, "fio.csjob.write.clat_p99", 6368, Unit::Nanoseconds);
    EXPECT_TRUE(run.caveats.empty());
}

TEST(FioJson, ClientServerTwoJobs) {
    // fio's "All clients" entry adds jobA and jobB together, so it cannot stand for either.
    const auto run = parseGolden("client_server_two_jobs");
    EXPECT_FALSE(run.failed);
    expectMetric(run, "fio.jobA.read.bw", 70492504.0 + 72315586.0, Unit::BytesPerSecond);
    expectMetric(run, "fio.jobA.read.clat_p99_9", 1286144, Unit::Nanoseconds);
    expectMetric(run, "fio.jobB.write.bw", 1048576000.0 + 645277538.0, Unit::BytesPerSecond);
    expectMetric(run, "fio.jobB.write.runtime", 0.013, Unit::Seconds);
    expectMetric(run, "fio.jobA@127.0.0.1:8766.read.bw", 70492504, Unit::BytesPerSecond);
    expectMetric(run, "fio.jobB@127.0.0.1:8765.write.clat_p99", 39680, Unit::Nanoseconds);
    EXPECT_TRUE(namesWithPrefix(run, "fio.All clients").empty());
    EXPECT_TRUE(namesWithPrefix(run, "fio.jobA.write.").empty());
    EXPECT_TRUE(hasCaveatContaining(run, "All clients", "jobA, jobB"));
}

TEST(FioJson, UnifiedRwReportingGivesMixedMetrics) {
    const auto run = parseGolden("unified_rw_reporting");
    EXPECT_FALSE(run.failed);
    EXPECT_TRUE(run.caveats.empty());
    expectMetric(run, "fio.mixed.mixed.bw", 147168561, Unit::BytesPerSecond);
    expectMetric(run, "fio.mixed.mixed.iops", 35929.824561, Unit::OpsPerSecond);
    expectMetric(run, "fio.mixed.mixed.clat_p50", 5472, Unit::Nanoseconds);
    expectMetric(run, "fio.mixed.mixed.clat_p99", 55040, Unit::Nanoseconds);
    expectMetric(run, "fio.mixed.mixed.lat_mean", 24438.386719, Unit::Nanoseconds);
    expectMetric(run, "fio.mixed.mixed.runtime", 0.057, Unit::Seconds);
    // Its job options print no direct=: buffered, fio's default. It ran 0.057 s: too short.
    EXPECT_NE(
        std::find(run.notes.begin(), run.notes.end(),
                  lb::MetricNote{lb::MetricNote::Kind::Method, "fio.mixed.*", "buffered I/O"}),
        run.notes.end());
    EXPECT_TRUE(std::any_of(run.notes.begin(), run.notes.end(), [](const lb::MetricNote& n) {
        return n.kind == lb::MetricNote::Kind::Qualifies && n.metrics == "fio.mixed.mixed.*";
    }));
}

TEST(FioJson, AllMetricNamesAreInTheCatalog) {
    for (const auto& file : goldenFiles) {
        const auto run = parseGolden(file);
        for (const auto& m : run.metrics) {
            const auto info = lb::describeMetric(m.name);
            ASSERT_TRUE(info.has_value()) << file << ": " << m.name << " is not in the catalog";
            EXPECT_EQ(info->unit, m.unit) << m.name;
        }
    }
}

TEST(FioJson, LooksLikeJson) {
    for (const auto& file : goldenFiles)
        EXPECT_TRUE(lb::fio::looksLikeJson(readData("3.33/" + file + ".json"))) << file;
    EXPECT_TRUE(lb::fio::looksLikeJson(readData("broken/truncated.json")));
    EXPECT_FALSE(lb::fio::looksLikeJson(readData("broken/no_json.txt")));
    EXPECT_FALSE(lb::fio::looksLikeJson(""));
    EXPECT_FALSE(lb::fio::looksLikeJson("{}"));
    EXPECT_FALSE(lb::fio::looksLikeJson("seqread: (groupid=0, jobs=1): err= 0: pid=1"));
}

TEST(FioJsonBroken, Empty) {
    const auto error = parseError(readData("broken/empty.json"));
    EXPECT_EQ(error.kind, ErrorKind::BadInput);
    EXPECT_EQ(error.message, "no JSON object found in fio output");
}

TEST(FioJsonBroken, NoJsonQuotesStderr) {
    const auto error =
        parseError(readData("broken/no_json.txt"), readData("broken/no_json.stderr"));
    EXPECT_EQ(error.kind, ErrorKind::BadInput);
    EXPECT_EQ(error.message,
              "no JSON object found in fio output (stderr: fio: failed parsing rw=bogus)");
}

TEST(FioJsonBroken, Truncated) {
    const auto error = parseError(readData("broken/truncated.json"));
    EXPECT_EQ(error.kind, ErrorKind::BadInput);
    EXPECT_TRUE(error.message.starts_with("truncated JSON at byte 3000")) << error.message;

    // Complete interim reports (--status-interval) do not stand in for a cut-off final one.
    const auto status = readData("3.33/status_interval.json").substr(0, 15000);
    const auto cut = parseError(status);
    EXPECT_TRUE(cut.message.starts_with("truncated JSON at byte 15000")) << cut.message;
}

TEST(FioJsonBroken, EveryTruncationIsAnError) {
    // fio killed at any point of writing its JSON: an error, never a partial result.
    const auto text = readData("3.33/seq_read.json");
    const auto close = text.rfind('}');
    ASSERT_NE(close, std::string::npos);
    for (std::size_t size = 0; size <= close; ++size) {
        auto parsed = lb::fio::parseJson(std::string_view(text).substr(0, size));
        ASSERT_FALSE(parsed) << "prefix of " << size << " bytes parsed";
        ASSERT_EQ(parsed.error().kind, ErrorKind::BadInput);
    }
    EXPECT_TRUE(lb::fio::parseJson(std::string_view(text).substr(0, close + 1)));
}

TEST(FioJsonBroken, NonNumericBandwidth) {
    const auto error = parseError(readData("broken/non_numeric_bw.json"));
    EXPECT_EQ(error.kind, ErrorKind::BadInput);
    EXPECT_EQ(error.message, "jobs[0].read.bw_bytes: expected a number");
}

TEST(FioJsonBroken, MissingIops) {
    const auto error = parseError(readData("broken/missing_iops.json"));
    EXPECT_EQ(error.kind, ErrorKind::BadInput);
    EXPECT_EQ(error.message, "jobs[0].read.iops: missing");
}

TEST(FioJsonBroken, SyntaxErrorNamesTheByte) {
    const auto text = readData("broken/invalid_syntax.json");
    const auto error = parseError(text);
    EXPECT_EQ(error.kind, ErrorKind::BadInput);
    // The missing comma after "groupid" : 0 is noticed at the end of the next key, "error",
    // which nlohmann reports as the byte of its closing quote.
    const auto offset = text.find("\"error\"") + 6;
    EXPECT_TRUE(error.message.starts_with("invalid JSON at byte " + std::to_string(offset) +
                                          ": syntax error"))
        << error.message;
}

TEST(FioJsonBroken, StructuralErrorsNameThePath) {
    EXPECT_EQ(parseError(R"({"jobs": []})").message, "fio version: missing");
    EXPECT_EQ(parseError(R"({"fio version": 3})").message, "fio version: expected a string");
    EXPECT_TRUE(parseError(R"({"fio version": "fio-3.33"})").message.starts_with("jobs: missing"));
    EXPECT_EQ(parseError(R"({"fio version": "fio-3.33", "jobs": {}})").message,
              "jobs: expected an array");
    EXPECT_EQ(parseError(R"({"fio version": "fio-3.33", "jobs": [7]})").message,
              "jobs[0]: expected an object");
    EXPECT_EQ(parseError(R"({"fio version": "fio-3.33", "jobs": [{"error": 0}]})").message,
              "jobs[0].jobname: missing");
    EXPECT_EQ(parseError(R"({"fio version": "fio-3.33", "jobs": [{"jobname": "j"}]})").message,
              "jobs[0].error: missing");
    EXPECT_EQ(parseError(R"({"fio version": "fio-3.33", "jobs": [{"jobname": "j", "error": 0}]})")
                  .message,
              "jobs[0]: no read, write or trim statistics");
    EXPECT_EQ(parseError(R"({"fio version": "fio-3.33", "jobs": [{"jobname": "j", "error": 0,
                            "read": {"total_ios": 1, "io_bytes": 4096, "bw_bytes": 1,
                            "iops": 1, "runtime": 1, "lat_ns": {"mean": 1},
                            "clat_ns": {"percentile": {"99.000000": "x"}}}}]})")
                  .message,
              R"(jobs[0].read.clat_ns.percentile["99.000000"]: expected a number)");
    EXPECT_EQ(parseError(R"({"fio version": "fio-3.33", "client_stats": [{"jobname": "j",
                            "error": 0}]})")
                  .message,
              "client_stats[0].hostname: missing");
}

TEST(FioJson, NoJobsIsAFailedRun) {
    const auto parsed = lb::fio::parseJson(R"({"fio version": "fio-3.33", "jobs": []})");
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_TRUE(parsed->failed);
    EXPECT_TRUE(parsed->metrics.empty());
}

TEST(FioJson, BracesInLogLinesAndStringsAreSkipped) {
    // A '{' in a log line before the JSON and braces inside JSON strings must not confuse the
    // search for the object's ends.
    const std::string text = "fio: cannot open /tmp/{odd}/x\n"
                             R"({"fio version": "fio-3.33", "jobs": [{"jobname": "a}{b", "error": 0,
           "read": {"total_ios": 2, "io_bytes": 8192, "bw_bytes": 100, "iops": 3.5,
                    "runtime": 1500, "lat_ns": {"mean": 42}}}]})"
                             "\ntrailing {text\n";
    const auto parsed = lb::fio::parseJson(text);
    ASSERT_TRUE(parsed) << parsed.error().message;
    expectMetric(*parsed, "fio.a}{b.read.bw", 100, Unit::BytesPerSecond);
    expectMetric(*parsed, "fio.a}{b.read.runtime", 1.5, Unit::Seconds);
    EXPECT_EQ(find(*parsed, "fio.a}{b.read.clat_p99"), nullptr); // no percentiles printed
}

TEST(FioJson, LatencyMeanIsWeightedByIos) {
    const std::string text = R"({"fio version": "fio-3.33", "jobs": [
        {"jobname": "w", "error": 0, "write": {"total_ios": 1, "io_bytes": 1, "bw_bytes": 10,
         "iops": 1, "runtime": 10, "lat_ns": {"mean": 100}}},
        {"jobname": "w", "error": 0, "write": {"total_ios": 3, "io_bytes": 3, "bw_bytes": 30,
         "iops": 3, "runtime": 20, "lat_ns": {"mean": 200}}}]})";
    const auto parsed = lb::fio::parseJson(text);
    ASSERT_TRUE(parsed) << parsed.error().message;
    expectMetric(*parsed, "fio.w.write.lat_mean", (100.0 * 1 + 200.0 * 3) / 4, Unit::Nanoseconds);
    expectMetric(*parsed, "fio.w.write.bw", 40, Unit::BytesPerSecond);
    expectMetric(*parsed, "fio.w.write.runtime", 0.02, Unit::Seconds);
}

TEST(FioJson, OneFailedEntryRemovesItsJobOnly) {
    const std::string text = R"({"fio version": "fio-3.33", "jobs": [
        {"jobname": "ok", "error": 0, "read": {"total_ios": 1, "io_bytes": 1, "bw_bytes": 10,
         "iops": 1, "runtime": 10, "lat_ns": {"mean": 100}}},
        {"jobname": "bad", "error": 28, "read": {"total_ios": 1, "io_bytes": 1, "bw_bytes": 10,
         "iops": 1, "runtime": 10, "lat_ns": {"mean": 100}}},
        {"jobname": "bad", "error": 0, "read": {"total_ios": 1, "io_bytes": 1, "bw_bytes": 10,
         "iops": 1, "runtime": 10, "lat_ns": {"mean": 100}}}]})";
    const auto parsed =
        lb::fio::parseJson(text, "fio: pid=7, err=28/file:io_u.c:1889, func=io_u error, "
                                 "error=No space left on device\n");
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_TRUE(parsed->failed);
    EXPECT_NE(parsed->failureReason.find("'bad'"), std::string::npos);
    EXPECT_NE(parsed->failureReason.find("error 28"), std::string::npos);
    EXPECT_NE(parsed->failureReason.find("No space left on device"), std::string::npos);
    EXPECT_NE(find(*parsed, "fio.ok.read.bw"), nullptr);
    EXPECT_TRUE(namesWithPrefix(*parsed, "fio.bad.").empty());
}

// --- Total latency, how the I/O was done, runs too short (issue 13)

TEST(FioJson, TotalLatencyPercentilesOnZfsFuseWhereSubmissionIsTheLatency) {
    // libaio's io_submit does the whole I/O on FUSE: completion latency is ~1.5 µs, the total
    // is what the I/O took. Run with lat_percentiles=1, as the presets run.
    const auto run = parseGolden("zfs_fuse_randread_lat_percentiles");
    EXPECT_FALSE(run.failed);
    const std::string base = "fio.rand-read-4k-qd1.read.";
    expectMetric(run, base + "lat_p50", 29824, Unit::Nanoseconds);
    expectMetric(run, base + "lat_p99", 2113536, Unit::Nanoseconds);
    expectMetric(run, base + "lat_p99_9", 5144576, Unit::Nanoseconds);
    expectMetric(run, base + "clat_p50", 1528, Unit::Nanoseconds);
    expectMetric(run, base + "clat_p99", 3632, Unit::Nanoseconds);
    expectMetric(run, base + "lat_mean", 100905.987533, Unit::Nanoseconds);
    expectMetric(run, base + "runtime", 6.003, Unit::Seconds);
    EXPECT_EQ(run.metrics.size(), 10u);
    // Mean slat 99185 ns of 100906 ns: the clat figures are qualified, the total ones are not;
    // a 6 s run is long enough; the job ran with direct=1, and its options say the work.
    const std::string job = "fio.rand-read-4k-qd1.*";
    EXPECT_EQ(run.notes, (std::vector<MetricNote>{
                             {Method, job, "direct I/O"},
                             {Qualifies, base + "clat_*",
                              "submission takes 98 % of the total latency: completion latency "
                              "alone understates it"},
                             {Method, job, "rw=randread"},
                             {Method, job, "bs=4.00 KiB"},
                             {Method, job, "iodepth=1"},
                             {Method, job, "numjobs=1"},
                             {Method, job, "ioengine=libaio"},
                             {Method, job, "size=64.00 MiB"},
                             {Method, job, "runtime=6"}}));
    for (const auto& n : notesOn(run, base + "lat_p99"))
        EXPECT_EQ(n.kind, Method) << "only the Method notes: " << n.text;
}

TEST(FioJson, ClatOnlyOutputKeepsClatAndSaysSubmissionDominates) {
    // The same job without lat_percentiles=1, as older or imported runs are.
    const auto run = parseGolden("zfs_fuse_randread_clat_only");
    const std::string base = "fio.rand-read-4k-qd1.read.";
    expectMetric(run, base + "clat_p99", 1784, Unit::Nanoseconds);
    EXPECT_EQ(find(run, base + "lat_p99"), nullptr);
    EXPECT_EQ(run.metrics.size(), 7u);
    EXPECT_TRUE(hasNote(run, Qualifies, base + "clat_*",
                        "submission takes 96 % of the total latency: completion latency alone "
                        "understates it"));
    // With the Method notes: the I/O path and one per option of the work (rw, bs, iodepth,
    // numjobs, ioengine, size, runtime).
    EXPECT_EQ(notesOn(run, base + "clat_p99").size(), 9u);
    EXPECT_EQ(notesOn(run, base + "bw").size(), 8u);
}

TEST(FioJson, ADirectoryOnADiskHasASubmissionShareToo) {
    // libaio on ext4 on a virtio disk: 21 % of the total latency is submission.
    const auto run = parseGolden("dir_randread_lat_percentiles");
    const std::string base = "fio.rand-read-4k-qd1.read.";
    expectMetric(run, base + "lat_p99", 2867200, Unit::Nanoseconds);
    expectMetric(run, base + "clat_p99", 2637824, Unit::Nanoseconds);
    EXPECT_TRUE(hasNote(run, Qualifies, base + "clat_*",
                        "submission takes 21 % of the total latency: completion latency alone "
                        "understates it"));
}

TEST(FioJson, SynchronousEnginesHaveNoSubmissionLatencyToNote) {
    // psync reports slat as 0 with N = 0.
    for (const char* file : {"seq_read", "rand_write_4k", "numjobs2", "client_server"}) {
        const auto run = parseGolden(file);
        for (const auto& n : run.notes)
            EXPECT_EQ(n.text.find("submission"), std::string::npos) << file << ": " << n.text;
    }
}

TEST(FioJson, EachJobsIoMethodComesFromItsEffectiveOptions) {
    // [global] direct=1; one job sets direct=0; one sets direct=0 and then buffered=0, which
    // fio applies in order: O_DIRECT (checked with strace when captured).
    const auto run = parseGolden("job_file_direct_and_buffered");
    EXPECT_TRUE(hasNote(run, Method, "fio.direct-from-global.*", "direct I/O"));
    EXPECT_TRUE(hasNote(run, Method, "fio.buffered-by-job.*", "buffered I/O"));
    EXPECT_TRUE(hasNote(run, Method, "fio.direct-by-last-option.*", "direct I/O"));
    // --lat_percentiles=1 before the job file reached all three jobs.
    for (const char* job : {"direct-from-global", "buffered-by-job", "direct-by-last-option"})
        EXPECT_NE(find(run, "fio." + std::string(job) + ".read.lat_p99"), nullptr) << job;
}

TEST(FioJson, FiosDefaultIsBufferedIo) {
    for (const char* file : {"seq_read", "numjobs2", "randrw_70_30_jsonplus"}) {
        const auto run = parseGolden(file);
        ASSERT_FALSE(run.notes.empty()) << file;
        EXPECT_EQ(run.notes.front().kind, Method) << file;
        EXPECT_EQ(run.notes.front().text, "buffered I/O") << file;
    }
}

TEST(FioJson, RunsUnderFiveSecondsAreQualified) {
    const auto run = parseGolden("status_interval");
    EXPECT_TRUE(
        hasNote(run, Qualifies, "fio.status.read.*", "ran 2.0 s: under 5 s, too short to trust"));
    const auto rw = parseGolden("randrw_70_30_jsonplus");
    EXPECT_TRUE(hasNote(rw, Qualifies, "fio.randrw7030.read.*",
                        "ran 0.067 s: under 5 s, too short to trust"));
    EXPECT_TRUE(hasNote(rw, Qualifies, "fio.randrw7030.write.*",
                        "ran 0.067 s: under 5 s, too short to trust"));
    for (const auto& n : parseGolden("dir_randread_lat_percentiles").notes)
        EXPECT_EQ(n.text.find("too short"), std::string::npos) << n.text;
}

TEST(FioJson, ClientNotesFollowTheMetricNames) {
    // The aggregate takes its method from its clients ("All clients" prints no options); each
    // client has its own notes.
    const auto run = parseGolden("client_server");
    EXPECT_TRUE(hasNote(run, Method, "fio.csjob.*", "buffered I/O"));
    EXPECT_TRUE(hasNote(run, Method, "fio.csjob@127.0.0.1:8765.*", "buffered I/O"));
    EXPECT_TRUE(hasNote(run, Qualifies, "fio.csjob@127.0.0.1:8766.write.*",
                        "ran 0.1 s: under 5 s, too short to trust"));
    for (const auto& m : run.metrics)
        EXPECT_FALSE(notesOn(run, m.name).empty()) << m.name;
}

TEST(FioJson, SameNamedJobsDisagreeingOnDirectAreMixed) {
    const std::string text = R"({"fio version": "fio-3.33", "global options": {"direct": "1"},
        "jobs": [
        {"jobname": "w", "error": 0, "job options": {"rw": "write"},
         "write": {"total_ios": 1, "io_bytes": 1, "bw_bytes": 10, "iops": 1, "runtime": 9000,
                   "slat_ns": {"mean": 5}, "lat_ns": {"mean": 100}}},
        {"jobname": "w", "error": 0, "job options": {"buffered": "1"},
         "write": {"total_ios": 3, "io_bytes": 3, "bw_bytes": 30, "iops": 3, "runtime": 9000,
                   "slat_ns": {"mean": 10}, "lat_ns": {"mean": 100}}}]})";
    const auto parsed = lb::fio::parseJson(text);
    ASSERT_TRUE(parsed) << parsed.error().message;
    // Slat share (5 + 3 x 10) / 400 = 8.75 %: under 10 %, no note; 9 s is long enough.
    // The second job sets no rw: fio's default, read. Both are said, so the comparison sees the
    // job measured both ways.
    EXPECT_EQ(parsed->notes,
              (std::vector<MetricNote>{{Method, "fio.w.*", "direct and buffered I/O mixed"},
                                       {Method, "fio.w.*", "rw=write"},
                                       {Method, "fio.w.*", "bs=4.00 KiB"},
                                       {Method, "fio.w.*", "iodepth=1"},
                                       {Method, "fio.w.*", "numjobs=1"},
                                       {Method, "fio.w.*", "ioengine=psync"},
                                       {Method, "fio.w.*", "rw=read"}}));
}

TEST(FioJson, NoOptionsPrintedNoMethod) {
    // lb-netload's JSON and hand-trimmed files print no options: the method is not known.
    const std::string text = R"({"fio version": "fio-3.33", "jobs": [
        {"jobname": "r", "error": 0, "read": {"total_ios": 1, "io_bytes": 1, "bw_bytes": 10,
         "iops": 1, "runtime": 6000, "lat_ns": {"mean": 100}}}]})";
    const auto parsed = lb::fio::parseJson(text);
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_TRUE(parsed->notes.empty());
}

TEST(FioJsonBroken, NonNumericTotalLatencyPercentileNamesThePath) {
    const std::string text = R"({"fio version": "fio-3.33", "jobs": [
        {"jobname": "r", "error": 0, "read": {"total_ios": 1, "io_bytes": 1, "bw_bytes": 10,
         "iops": 1, "runtime": 6000, "lat_ns": {"mean": 100,
         "percentile": {"99.000000": "slow"}}}}]})";
    const auto e = parseError(text);
    EXPECT_EQ(e.kind, ErrorKind::BadInput);
    EXPECT_NE(e.message.find("jobs[0].read.lat_ns.percentile[\"99.000000\"]"), std::string::npos)
        << e.message;
}

TEST(FioJson, ParsingIsDeterministic) {
    for (const auto& file : goldenFiles)
        EXPECT_EQ(parseGolden(file), parseGolden(file)) << file;
}

// simdjson reads fio 3.x output as fio wrote it; nlohmann's DOM the rest. Every captured and
// broken output gives the same run, or the same error, either way.
TEST(FioJson, SimdjsonAndNlohmannReadEveryFileAlike) {
    namespace fs = std::filesystem;
    int parsed = 0, refused = 0;
    for (const auto& entry :
         fs::recursive_directory_iterator(fs::path(LAYOUTBENCH_TEST_DATA_DIR) / "fio")) {
        const auto ext = entry.path().extension();
        if (ext != ".json" && ext != ".txt")
            continue;
        const auto relative =
            fs::relative(entry.path(), fs::path(LAYOUTBENCH_TEST_DATA_DIR) / "fio");
        const std::string text = readData(relative.string());
        const auto fast = lb::fio::parseJson(text);
        const auto slow = lb::fio::parseJsonWithoutSimdjson(text);
        ASSERT_EQ(fast.has_value(), slow.has_value()) << relative;
        if (fast) {
            EXPECT_EQ(*fast, *slow) << relative;
            ++parsed;
        } else {
            EXPECT_EQ(fast.error().message, slow.error().message) << relative;
            ++refused;
        }
    }
    EXPECT_GE(parsed, 20);
    EXPECT_GE(refused, 5);
}

} // namespace
