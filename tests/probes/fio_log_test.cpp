// What fio measures along a run: the per-interval logs' parser on logs captured from the real
// fio 3.33 and on hand-made lines, percentile curves from json+ histograms, the fio probe's log
// options, collection and removal, and real fio runs of a preset and of the queue-depth sweep
// whose logs, histograms and metrics come back as series and sweep points. Also how compressible
// the data a preset wrote is: fio's buffer_compress_percentage, and a sample of its file
// compressed after the run (dataSampleCommand), with the real fio and gzip.
#include "engine/exec/runner.h"
#include "engine/measure/probe.h"
#include "engine/measure/series.h"
#include "engine/scenario/scenario.h"
#include "probes/data_sample.h"
#include "probes/fio_histogram.h"
#include "probes/fio_json.h"
#include "probes/fio_log.h"
#include "probes/registry.h"
#include "tests/support/run_ok.h"
#include "tests/support/scratch_dir.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace lb;
namespace fs = std::filesystem;

namespace {

using test::runOk;

const std::string logData = LAYOUTBENCH_TEST_DATA_DIR "/fio/3.33/logs/";

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << "cannot open " << path;
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

const Series* find(const std::vector<Series>& all, const std::string& name) {
    for (const auto& s : all)
        if (s.name == name)
            return &s;
    return nullptr;
}

std::vector<std::string> names(const std::vector<Series>& all) {
    std::vector<std::string> out;
    for (const auto& s : all)
        out.push_back(s.name);
    return out;
}

const Probe& fioProbe() {
    static const ProbeRegistry r = standardProbes();
    return *r.find("fio");
}

OptionValues options(const std::map<std::string, RawOption::Value>& values) {
    std::map<std::string, RawOption> raw;
    for (const auto& [name, value] : values)
        raw[name] = RawOption{value, 1, 1};
    auto v = validateOptions(fioProbe().options(), raw, "test.toml");
    EXPECT_TRUE(v) << (v ? "" : v.error().message);
    return v ? *v : OptionValues{};
}

bool has(const std::vector<std::string>& args, const std::string& arg) {
    return std::find(args.begin(), args.end(), arg) != args.end();
}

std::size_t count(const std::vector<std::string>& args, const std::string& arg) {
    return static_cast<std::size_t>(std::count(args.begin(), args.end(), arg));
}

} // namespace

// --- the parser ------------------------------------------------------------------------------

// Hand-made lines: directions, units, clones added up (rates) or averaged (latency), the
// priority column, clat/slat logs skipped, times at the mean of each window.
TEST(FioLogs, WindowsOfClonesBecomeSeriesInCanonicalUnits) {
    const std::string text = "==> j_bw.1.log <==\n"
                             "500, 1000, 0, 0, 0\n"
                             "500, 10, 1, 0, 0\n"
                             "1001, 2000, 0, 0, 0\n"
                             "==> j_bw.2.log <==\n"
                             "502, 3000, 0, 0, 0, 0\n"
                             "999, 4000, 0, 0, 0, 0\n"
                             "==> j_lat.1.log <==\n"
                             "500, 100000, 0, 0, 0\n"
                             "==> j_lat.2.log <==\n"
                             "500, 300000, 0, 0, 0\n"
                             "==> j_clat.1.log <==\n"
                             "500, 7, 0, 0, 0\n"
                             "==> j_iops.1.log <==\n"
                             "500, 250, 2, 0, 0\n";
    auto series = fio::parseLogs(text, 500);
    ASSERT_TRUE(series) << series.error().message;
    EXPECT_EQ(names(*series), (std::vector<std::string>{"fio.j.read.bw", "fio.j.read.lat_mean",
                                                        "fio.j.trim.iops", "fio.j.write.bw"}));
    const Series* bw = find(*series, "fio.j.read.bw");
    ASSERT_TRUE(bw);
    EXPECT_EQ(bw->unit, Unit::BytesPerSecond);
    EXPECT_EQ(bw->xUnit, Unit::Seconds);
    EXPECT_EQ(bw->y, (std::vector<double>{4000 * 1024.0, 6000 * 1024.0})) << "KiB/s, added up";
    ASSERT_EQ(bw->x.size(), 2u);
    EXPECT_DOUBLE_EQ(bw->x[0], 0.501);
    EXPECT_DOUBLE_EQ(bw->x[1], 1.0);
    const Series* lat = find(*series, "fio.j.read.lat_mean");
    ASSERT_TRUE(lat);
    EXPECT_EQ(lat->unit, Unit::Nanoseconds);
    EXPECT_EQ(lat->y, std::vector<double>{200000}) << "the clones' mean";
    EXPECT_EQ(find(*series, "fio.j.trim.iops")->unit, Unit::OpsPerSecond);
    EXPECT_EQ(find(*series, "fio.j.write.bw")->y, std::vector<double>{10240});
}

TEST(FioLogs, NothingToReadIsNoSeries) {
    auto series = fio::parseLogs("", 500);
    ASSERT_TRUE(series);
    EXPECT_TRUE(series->empty());
}

TEST(FioLogs, ALineThatIsNoRowNamesItsFileAndLine) {
    auto bad = fio::parseLogs("==> j_bw.1.log <==\n500, 1, 0, 0, 0\n500; 1; 0\n", 500);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().kind, ErrorKind::BadInput);
    EXPECT_NE(bad.error().message.find("j_bw.1.log:2:"), std::string::npos) << bad.error().message;
    auto direction = fio::parseLogs("==> j_bw.1.log <==\n500, 1, 7, 0, 0\n", 500);
    ASSERT_FALSE(direction);
    EXPECT_NE(direction.error().message.find("direction 7"), std::string::npos)
        << direction.error().message;
    auto number = fio::parseLogs("==> j_lat.1.log <==\n500, x, 0, 0, 0\n", 500);
    ASSERT_FALSE(number);
    EXPECT_NE(number.error().message.find("field 2"), std::string::npos) << number.error().message;
}

// Logs of the real fio 3.33 (tests/data/fio/3.33/logs/README.txt): two clones of a sequential
// read, 500 ms windows.
TEST(FioLogs, RealLogsOfTwoClones) {
    const std::string text = readFile(logData + "seq_read_numjobs2.txt");
    auto series = fio::parseLogs(text, 500);
    ASSERT_TRUE(series) << series.error().message;
    EXPECT_EQ(names(*series),
              (std::vector<std::string>{"fio.seqread.read.bw", "fio.seqread.read.iops",
                                        "fio.seqread.read.lat_mean"}));
    for (const auto& s : *series) {
        SCOPED_TRACE(s.name);
        EXPECT_EQ(s.x.size(), s.y.size());
        EXPECT_GE(s.x.size(), 3u);
        EXPECT_LE(s.x.size(), 5u);
        EXPECT_TRUE(std::is_sorted(s.x.begin(), s.x.end()));
        for (std::size_t i = 1; i < s.x.size(); ++i)
            EXPECT_NEAR(s.x[i] - s.x[i - 1], 0.5, 0.05) << "500 ms windows";
        for (const double v : s.y)
            EXPECT_GT(v, 0);
    }
    // The first window: both clones' first rows.
    const Series* bw = find(*series, "fio.seqread.read.bw");
    ASSERT_TRUE(bw);
    EXPECT_DOUBLE_EQ(bw->x[0], 0.526);
    EXPECT_DOUBLE_EQ(bw->y[0], (686235.0 + 1278053.0) * 1024);
    const Series* lat = find(*series, "fio.seqread.read.lat_mean");
    ASSERT_TRUE(lat);
    EXPECT_DOUBLE_EQ(lat->x[0], 0.501);
    EXPECT_DOUBLE_EQ(lat->y[0], (166882.0 + 97889.0) / 2);
    EXPECT_EQ(lat->x.size(), 4u);
}

// A mixed job: reads and writes in rows of their own, one series each.
TEST(FioLogs, RealLogsOfAMixedJob) {
    auto series = fio::parseLogs(readFile(logData + "randrw.txt"), 500);
    ASSERT_TRUE(series) << series.error().message;
    EXPECT_EQ(names(*series),
              (std::vector<std::string>{"fio.randrw.read.bw", "fio.randrw.read.iops",
                                        "fio.randrw.read.lat_mean", "fio.randrw.write.bw",
                                        "fio.randrw.write.iops", "fio.randrw.write.lat_mean"}));
}

// An hour of 500 ms windows from four clones, three logs each: how long reading takes.
TEST(FioLogs, AnHourOfLogsReadsQuickly) {
    std::string text;
    for (const char* kind : {"bw", "iops", "lat"})
        for (int clone = 1; clone <= 4; ++clone) {
            text += "==> j_" + std::string(kind) + "." + std::to_string(clone) + ".log <==\n";
            for (int t = 500; t <= 3600 * 1000; t += 500)
                text += std::to_string(t + clone) + ", 123456, 0, 0, 0, 0\n";
        }
    const auto t0 = std::chrono::steady_clock::now();
    auto series = fio::parseLogs(text, 500);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(series) << series.error().message;
    ASSERT_EQ(series->size(), 3u);
    EXPECT_EQ((*series)[0].x.size(), 7200u);
    std::printf("  %zu bytes of logs (%d rows) read in %.3f s (%.1f MB/s)\n", text.size(),
                3 * 4 * 7200, seconds, static_cast<double>(text.size()) / seconds / 1e6);
    EXPECT_LT(seconds, 2.0);
}

// --- json+ histograms ------------------------------------------------------------------------

// fio 3.33 json+ without lat_percentiles: completion latency's bins give each direction's curve,
// a point per bucket; where it passes 99 % is fio's own p99.
TEST(FioHistogram, BinsBecomeAPercentileCurve) {
    const std::string text =
        readFile(LAYOUTBENCH_TEST_DATA_DIR "/fio/3.33/randrw_70_30_jsonplus.json");
    auto run = fio::parseJson(text);
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(names(run->series), (std::vector<std::string>{"fio.randrw7030.read.clat_curve",
                                                            "fio.randrw7030.write.clat_curve"}));
    const Series* read = find(run->series, "fio.randrw7030.read.clat_curve");
    ASSERT_TRUE(read);
    EXPECT_EQ(read->xUnit, Unit::Percent);
    EXPECT_EQ(read->unit, Unit::Nanoseconds);
    const auto doc = nlohmann::json::parse(text.substr(text.find('{')));
    const auto& clat = doc["jobs"][0]["read"]["clat_ns"];
    EXPECT_EQ(read->x.size(), clat["bins"].size());
    EXPECT_TRUE(std::is_sorted(read->x.begin(), read->x.end()));
    EXPECT_TRUE(std::is_sorted(read->y.begin(), read->y.end()));
    EXPECT_DOUBLE_EQ(read->x.back(), 100);
    EXPECT_NEAR(read->y.back(), clat["max"].get<double>(), clat["max"].get<double>() * 0.05)
        << "the last bucket holds the slowest";
    const auto p99 = std::find_if(read->x.begin(), read->x.end(), [](double x) { return x >= 99; });
    ASSERT_NE(p99, read->x.end());
    EXPECT_EQ(read->y[static_cast<std::size_t>(p99 - read->x.begin())],
              clat["percentile"]["99.000000"].get<double>());
    // The same through nlohmann alone.
    auto slow = fio::parseJsonWithoutSimdjson(text);
    ASSERT_TRUE(slow);
    EXPECT_EQ(slow->series, run->series);
}

// Bins that are not (latency, count) make a caveat, not a failed parse: the metrics stand.
TEST(FioHistogram, UnreadableBinsAreACaveat) {
    auto doc = nlohmann::json::parse(
        readFile(LAYOUTBENCH_TEST_DATA_DIR "/fio/3.33/randrw_70_30_jsonplus.json"));
    doc["jobs"][0]["write"]["clat_ns"]["bins"]["not-a-latency"] = 3;
    auto run = fio::parseJson(doc.dump(2));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_TRUE(run->series.empty());
    EXPECT_FALSE(run->metrics.empty());
    ASSERT_EQ(run->caveats.size(), 1u);
    EXPECT_EQ(run->caveats[0], "fio's json+ latency histogram is unreadable: "
                               "jobs[0].write.clat_ns.bins: a bucket that is not a latency and a "
                               "count");
}

// Entries of one job name are added up; should one give total latency and another completion
// latency, the first one's kind is kept.
TEST(FioHistogram, EntriesOfOneJobAreAddedUp) {
    const auto curves = fio::latencyCurves({{"j", "read", true, {{100, 1}, {300, 1}}},
                                            {"j", "read", true, {{200, 2}}},
                                            {"j", "read", false, {{50, 100}}},
                                            {"k", "write", false, {{10, 0}}}});
    ASSERT_EQ(curves.size(), 1u) << "k has no I/O: no curve";
    EXPECT_EQ(curves[0].name, "fio.j.read.lat_curve");
    EXPECT_EQ(curves[0].y, (std::vector<double>{100, 200, 300}));
    EXPECT_EQ(curves[0].x, (std::vector<double>{25, 75, 100}));
    // A bucket two entries share is one point with both counts, wherever it comes in each.
    const auto shared = fio::latencyCurves(
        {{"j", "read", false, {{300, 1}, {100, 1}}}, {"j", "read", false, {{200, 2}, {100, 4}}}});
    ASSERT_EQ(shared.size(), 1u);
    EXPECT_EQ(shared[0].y, (std::vector<double>{100, 200, 300}));
    EXPECT_EQ(shared[0].x, (std::vector<double>{62.5, 87.5, 100}));
}

TEST(FioHistogram, PlainJsonHasNoCurve) {
    auto run = fio::parseJson(readFile(LAYOUTBENCH_TEST_DATA_DIR "/fio/3.33/seq_read.json"));
    ASSERT_TRUE(run);
    EXPECT_TRUE(run->series.empty());
}

// --- the probe -------------------------------------------------------------------------------

WorkloadContext context(const std::string& workdir) {
    WorkloadContext ctx;
    ctx.workdir = workdir;
    ctx.ramBytes = 8ULL << 30;
    ctx.directIo = true;
    return ctx;
}

// A preset in the layout's directory logs bandwidth, IOPS and latency per 500 ms by default,
// prints the logs after the run (inspect) and removes them after the data file.
TEST(FioProbeLogs, APresetLogsEveryIntervalAndCollectsItsLogs) {
    auto mc = fioProbe().command(options({{"preset", "seq-read-1m"}}), context("/mnt/w"));
    ASSERT_TRUE(mc) << mc.error().message;
    const auto& args = mc->command.args;
    for (const char* option : {"--write_bw_log=seq-read-1m", "--write_iops_log=seq-read-1m",
                               "--write_lat_log=seq-read-1m", "--log_avg_msec=500"})
        EXPECT_TRUE(has(args, option)) << option;
    ASSERT_EQ(mc->inspect.size(), 2u) << "the logs, then the data's sample";
    EXPECT_EQ(mc->inspect[0].program, "sh");
    EXPECT_EQ(mc->inspect[0].cwd, "/mnt/w");
    EXPECT_EQ(mc->inspect[0].args.back(), "seq-read-1m") << "the prefix as an argument";
    ASSERT_EQ(mc->cleanup.size(), 2u);
    EXPECT_EQ(mc->cleanup[1].cwd, "/mnt/w");
    EXPECT_EQ(mc->cleanup[1].args.back(), "seq-read-1m");

    auto quiet = fioProbe().command(
        options({{"preset", "seq-read-1m"}, {"log_avg_msec", std::int64_t{0}}}), context("/mnt/w"));
    ASSERT_TRUE(quiet);
    EXPECT_FALSE(has(quiet->command.args, "--write_bw_log=seq-read-1m"));
    EXPECT_EQ(quiet->inspect.size(), 1u) << "the data's sample alone";
    EXPECT_EQ(quiet->cleanup.size(), 1u);

    // A steady-state round is judged by its summary: no logs.
    auto round =
        fioProbe().steadyStateRound(options({{"preset", "seq-read-1m"}}), context("/mnt/w"), 5);
    ASSERT_TRUE(round) << round.error().message;
    EXPECT_FALSE(has(round->command.args, "--log_avg_msec=500"));
    EXPECT_TRUE(round->inspect.empty()) << "no logs, no sample of its data";
}

TEST(FioProbeLogs, OnlyAPresetInTheLayoutsDirectoryTakesALogInterval) {
    const auto jobFile = options({{"job_file", "/a.fio"}, {"log_avg_msec", std::int64_t{100}}});
    auto refused = fioProbe().validate(jobFile, "s.toml:9");
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("workloads.log_avg_msec"), std::string::npos)
        << refused.error().message;
    const auto onExport = options(
        {{"preset", "seq-read-1m"}, {"target", "nfs"}, {"log_avg_msec", std::int64_t{100}}});
    EXPECT_FALSE(fioProbe().validate(onExport, "s.toml:9"));
    EXPECT_TRUE(fioProbe().validate(options({{"preset", "seq-read-1m"}, {"target", "nfs"}}), "s:1"))
        << "the default alone is no request";
}

// The sweep: the shared options first (global on fio's command line), then one job per depth,
// each after the one before.
TEST(FioProbeLogs, TheQueueDepthSweepIsOneJobPerDepthOneAfterTheOther) {
    auto mc = fioProbe().command(options({{"preset", "qd-sweep"}}), context("/mnt/w"));
    ASSERT_TRUE(mc) << mc.error().message;
    const auto& args = mc->command.args;
    const auto firstJob = std::find_if(
        args.begin(), args.end(), [](const std::string& a) { return a.starts_with("--name="); });
    ASSERT_NE(firstJob, args.end());
    EXPECT_TRUE(std::find(args.begin(), firstJob, "--rw=randread") != firstJob);
    EXPECT_TRUE(std::find(args.begin(), firstJob, "--bs=4k") != firstJob);
    EXPECT_TRUE(std::find(args.begin(), firstJob, "--lat_percentiles=1") != firstJob);
    std::vector<int> depths;
    for (auto it = firstJob; it != args.end(); ++it)
        if (it->starts_with("--name=")) {
            const auto depth = queueDepthOfJob(it->substr(7));
            ASSERT_TRUE(depth) << *it;
            depths.push_back(*depth);
            EXPECT_EQ(*(it + 1), "--iodepth=" + std::to_string(*depth));
            EXPECT_EQ(*(it + 2), "--stonewall");
            EXPECT_EQ(*(it + 3), "--write_bw_log=" + it->substr(7));
        }
    EXPECT_EQ(depths, (std::vector<int>{1, 2, 4, 8, 16, 32, 64}));
    EXPECT_EQ(count(args, "--stonewall"), 7u);
    EXPECT_EQ(mc->inspect.at(0).args.size(), 3u + 7u) << "sh -c SCRIPT sh, then each job";
    const auto metrics = fioProbe().metricNames("sweep", options({{"preset", "qd-sweep"}}));
    EXPECT_TRUE(std::find(metrics.begin(), metrics.end(), "fio.qd-sweep-qd64.read.lat_p99") !=
                metrics.end());
}

// --- the real fio ----------------------------------------------------------------------------

// A preset run by the real fio: its logs are read back as series that agree with its summary,
// and removed afterwards.
TEST(FioProbeReal, APresetsLogsBecomeSeries) {
    const test::ScratchDir dir("fio-logs");
    auto runner = makeLocalRunner();
    const auto opts = options({{"preset", "seq-read-1m"},
                               {"size", "4M"},
                               {"runtime", std::int64_t{2}},
                               {"direct", false},
                               {"ioengine", "psync"}});
    auto mc = fioProbe().command(opts, context(dir.path("")));
    ASSERT_TRUE(mc) << mc.error().message;
    const auto [result, inspected] = test::runMeasured(*runner, *mc);
    auto parsed = fioProbe().parse(result, inspected, opts);
    ASSERT_TRUE(parsed) << parsed.error().message;
    ASSERT_FALSE(parsed->failed) << parsed->failureReason;
    // The logs, and the total-latency curve of the json+ histogram.
    EXPECT_EQ(names(parsed->series),
              (std::vector<std::string>{"fio.seq-read-1m.read.bw", "fio.seq-read-1m.read.iops",
                                        "fio.seq-read-1m.read.lat_curve",
                                        "fio.seq-read-1m.read.lat_mean"}));
    const Series* bw = find(parsed->series, "fio.seq-read-1m.read.bw");
    ASSERT_TRUE(bw);
    EXPECT_GE(bw->x.size(), 3u);
    EXPECT_LE(bw->x.size(), 5u);
    double summary = 0;
    for (const auto& m : parsed->metrics)
        if (m.name == "fio.seq-read-1m.read.bw")
            summary = m.value;
    ASSERT_GT(summary, 0);
    const double mean = seriesMean(*bw);
    std::printf("  bandwidth: summary %.0f MB/s, mean of %zu windows %.0f MB/s\n", summary / 1e6,
                bw->x.size(), mean / 1e6);
    EXPECT_GT(mean, summary / 3) << "the windows average near the run's bandwidth";
    EXPECT_LT(mean, summary * 3);

    for (const auto& c : mc->cleanup)
        runOk(*runner, c);
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir.path("")))
        left.push_back(e.path().filename().string());
    EXPECT_TRUE(left.empty()) << left.front();
}

// The sweep by the real fio (1 s a depth): IOPS and p99 total latency at every depth.
TEST(FioProbeReal, TheQueueDepthSweepGivesEveryDepth) {
    const test::ScratchDir dir("fio-sweep");
    auto runner = makeLocalRunner();
    const auto opts = options(
        {{"preset", "qd-sweep"}, {"size", "4M"}, {"runtime", std::int64_t{1}}, {"direct", false}});
    auto mc = fioProbe().command(opts, context(dir.path("")));
    ASSERT_TRUE(mc) << mc.error().message;
    const auto [result, inspected] = test::runMeasured(*runner, *mc);
    auto parsed = fioProbe().parse(result, inspected, opts);
    ASSERT_TRUE(parsed) << parsed.error().message;
    ASSERT_FALSE(parsed->failed) << parsed->failureReason;
    std::vector<MetricSamples> samples;
    for (const auto& m : parsed->metrics)
        samples.push_back({m.name, {m.value}, "qd-sweep"});
    const auto sweeps = queueDepthSweeps(samples);
    ASSERT_EQ(sweeps.size(), 1u);
    EXPECT_EQ(sweeps[0].family, "fio");
    EXPECT_EQ(sweeps[0].direction, "read");
    EXPECT_EQ(sweeps[0].p99Metric, "lat_p99");
    std::vector<int> depths;
    for (const auto& p : sweeps[0].points) {
        depths.push_back(p.depth);
        EXPECT_TRUE(p.iops && *p.iops > 0) << p.depth;
        EXPECT_TRUE(p.p99Ns && *p.p99Ns > 0) << p.depth;
        std::printf("  qd %2d: %9.0f IOPS, p99 %8.1f us\n", p.depth, p.iops.value_or(0),
                    p.p99Ns.value_or(0) / 1e3);
    }
    EXPECT_EQ(depths, (std::vector<int>{1, 2, 4, 8, 16, 32, 64}));
    EXPECT_TRUE(find(parsed->series, "fio.qd-sweep-qd64.read.bw")) << "each depth logs";
    for (const auto& c : mc->cleanup)
        runOk(*runner, c);
    EXPECT_TRUE(fs::is_empty(dir.path("")));
}

// --- how compressible the data a preset wrote is ------------------------------------------

TEST(DataCompressibility, APresetWritesDataOfTheChosenCompressibility) {
    auto mc = fioProbe().command(
        options({{"preset", "seq-write-1m"}, {"buffer_compress_percentage", std::int64_t{50}}}),
        context("/mnt/w"));
    ASSERT_TRUE(mc) << mc.error().message;
    EXPECT_TRUE(has(mc->command.args, "--buffer_compress_percentage=50"));
    EXPECT_TRUE(has(mc->command.args, "--refill_buffers")) << "every write its own buffer";
    auto plain = fioProbe().command(options({{"preset", "seq-write-1m"}}), context("/mnt/w"));
    ASSERT_TRUE(plain);
    EXPECT_FALSE(std::any_of(plain->command.args.begin(), plain->command.args.end(),
                             [](const std::string& a) { return a.starts_with("--buffer_comp"); }))
        << "unset: fio's own random buffers";
    ASSERT_FALSE(plain->inspect.empty());
    EXPECT_EQ(plain->inspect.back().cwd, "/mnt/w");
    const auto& sample = plain->inspect.back().args;
    ASSERT_GE(sample.size(), 5u);
    EXPECT_EQ(sample[3], "lb-fio-data-sample.dat") << "a file of its own, removed after";
    EXPECT_TRUE(has(sample, "fio")) << "written the way the preset writes";
    EXPECT_TRUE(has(sample, "--bs=1M"));
    EXPECT_FALSE(has(sample, "--refill_buffers"));
    EXPECT_TRUE(has(mc->inspect.back().args, "--buffer_compress_percentage=50"));
    EXPECT_TRUE(has(mc->inspect.back().args, "--refill_buffers"));
}

TEST(DataCompressibility, AJobFileSaysWhatDataItWrites) {
    const auto v = fioProbe().validate(
        options({{"job_file", "/a.fio"}, {"buffer_compress_percentage", std::int64_t{50}}}),
        "s.toml:3");
    ASSERT_FALSE(v);
    EXPECT_NE(v.error().message.find("s.toml:3: workloads.buffer_compress_percentage"),
              std::string::npos)
        << v.error().message;
}

TEST(DataCompressibility, TheSampleIsTwoCounts) {
    EXPECT_DOUBLE_EQ(*dataSampleRatio("4194304 2097152\n"), 2.0);
    EXPECT_FALSE(dataSampleRatio(""));
    EXPECT_FALSE(dataSampleRatio("0 0\n")) << "an empty file";
    EXPECT_FALSE(dataSampleRatio("4194304\n"));
}

// The real fio writing compressible and incompressible data, the real gzip compressing a sample
// of each file: the ratio follows what fio was asked for.
namespace {

double measuredRatio(const std::string& dir, const std::map<std::string, RawOption::Value>& more) {
    auto runner = makeLocalRunner();
    std::map<std::string, RawOption::Value> values{{"preset", "seq-write-1m"},
                                                   {"size", "16M"},
                                                   {"runtime", std::int64_t{1}},
                                                   {"direct", false},
                                                   {"log_avg_msec", std::int64_t{0}}};
    values.insert(more.begin(), more.end());
    const auto o = options(values);
    auto mc = fioProbe().command(o, context(dir));
    EXPECT_TRUE(mc) << (mc ? "" : mc.error().message);
    if (!mc)
        return 0;
    const auto out = test::runMeasured(*runner, *mc);
    auto parsed = fioProbe().parse(out.result, out.inspected, o);
    for (const auto& c : mc->cleanup)
        runOk(*runner, c);
    EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error().message);
    if (!parsed)
        return 0;
    EXPECT_TRUE(parsed->dataCompressRatio) << "measured after the run";
    return parsed->dataCompressRatio.value_or(0);
}

} // namespace

TEST(DataCompressibilityReal, TheMeasuredRatioFollowsWhatFioWasAskedToWrite) {
    const test::ScratchDir dir("compress");
    const double random = measuredRatio(dir.path("."), {});
    const double half =
        measuredRatio(dir.path("."), {{"buffer_compress_percentage", std::int64_t{50}}});
    const double most =
        measuredRatio(dir.path("."), {{"buffer_compress_percentage", std::int64_t{90}}});
    const double zero =
        measuredRatio(dir.path("."), {{"buffer_compress_percentage", std::int64_t{0}}});
    std::printf("gzip -1 on fio's data: default %.2fx, 0 %% %.2fx, 50 %% %.2fx, 90 %% %.2fx\n",
                random, zero, half, most);
    EXPECT_LT(zero, 1.05) << "a buffer of random bytes for every write";
    // fio 3.33's default buffers (random bytes filled once, scrambled a little per write) are
    // not quite incompressible to gzip (about 1.1x here in 1 MiB blocks), but below the eighth
    // ZFS asks a block to save before it keeps it compressed.
    EXPECT_LT(random, compressibleRatio) << "fio's default buffers are random bytes";
    EXPECT_GT(half, 1.5) << "half of every buffer is zeros";
    EXPECT_GT(most, half);
}
