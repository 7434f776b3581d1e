// Verdicts follow the rule: cost ratio <= 1.10 viable, >= 2.0 not viable, between a decision.
#include "engine/measure/analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <random>

using namespace lb;

TEST(Median, OddEvenAndUnsorted) {
    EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
    EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
    EXPECT_DOUBLE_EQ(median({7}), 7);
}

TEST(CostRatio, ThroughputAndLatencyPointTheSameWay) {
    // Half the throughput costs twice the time; twice the latency costs twice the time.
    EXPECT_DOUBLE_EQ(costRatio(200, 100, Better::Higher), 2.0);
    EXPECT_DOUBLE_EQ(costRatio(100, 200, Better::Lower), 2.0);
    EXPECT_DOUBLE_EQ(costRatio(100, 200, Better::Higher), 0.5);
}

TEST(Verdict, Bands) {
    const Thresholds t;
    EXPECT_EQ(verdictFor(0.7, t), Verdict::Viable);
    EXPECT_EQ(verdictFor(1.10, t), Verdict::Viable);
    EXPECT_EQ(verdictFor(1.11, t), Verdict::Decision);
    EXPECT_EQ(verdictFor(1.99, t), Verdict::Decision);
    EXPECT_EQ(verdictFor(2.0, t), Verdict::NotViable);
    const Thresholds strict{1.05, 1.5};
    EXPECT_EQ(verdictFor(1.08, strict), Verdict::Decision);
    EXPECT_EQ(verdictFor(1.5, strict), Verdict::NotViable);
    EXPECT_EQ(worse(Verdict::Decision, Verdict::Viable), Verdict::Decision);
    EXPECT_EQ(worse(Verdict::Decision, Verdict::NotViable), Verdict::NotViable);
}

// The verdict's order: deciding metrics first, then not viable, decision, viable, each the
// largest cost first, ties by name; what the comparison lists and the GUI table sorts by.
TEST(Verdict, WorstFirstIsTheOrderOfTheVerdict) {
    auto metric = [](std::string name, bool decisive, double ratio) {
        MetricComparison m;
        m.name = std::move(name);
        m.decisive = decisive;
        m.ratio = ratio;
        m.verdict = verdictFor(ratio, Thresholds{});
        return m;
    };
    std::vector<MetricComparison> metrics{
        metric("a.viable", true, 1.05),      metric("b.shown-worst", false, 3.0),
        metric("c.decision", true, 1.3),     metric("d.not-viable", true, 2.5),
        metric("e.decision-big", true, 1.8), metric("f.viable-fast", true, 0.9),
        metric("g.decision", true, 1.3)};
    std::sort(metrics.begin(), metrics.end(), worstFirst);
    std::vector<std::string> names;
    for (const auto& m : metrics)
        names.push_back(m.name);
    EXPECT_EQ(names, (std::vector<std::string>{"d.not-viable", "e.decision-big", "c.decision",
                                               "g.decision", "a.viable", "f.viable-fast",
                                               "b.shown-worst"}));

    // A comparison lists its metrics so: the seed's put_block, 58 % slower, before the rest.
    const std::vector<MetricSamples> bare{{"bonnie.get_block", {500000.0 * 1024}},
                                          {"bonnie.put_block", {343719.0 * 1024}}};
    const std::vector<MetricSamples> guest{{"bonnie.get_block", {510000.0 * 1024}},
                                           {"bonnie.put_block", {217553.0 * 1024}}};
    const Comparison c = compareLayouts("bare", bare, "guest", guest);
    ASSERT_EQ(c.metrics.size(), 2U);
    EXPECT_EQ(c.metrics[0].name, "bonnie.put_block");
    EXPECT_TRUE(std::is_sorted(c.metrics.begin(), c.metrics.end(), worstFirst));
}

TEST(Compare, SeedPutBlockIsADecisionButOneRunIsNeverConfident) {
    // The seed measurement: bare metal 343719 KiB/s, the guest 217553 KiB/s.
    const std::vector<MetricSamples> bare{{"bonnie.put_block", {343719.0 * 1024}}};
    const std::vector<MetricSamples> guest{{"bonnie.put_block", {217553.0 * 1024}}};
    const auto c = compareLayouts("bare", bare, "guest", guest);
    ASSERT_EQ(c.metrics.size(), 1U);
    const auto& m = c.metrics[0];
    EXPECT_NEAR(m.ratio, 1.58, 0.005);
    EXPECT_NEAR(m.overhead, 0.58, 0.005);
    EXPECT_EQ(m.verdict, Verdict::Decision);
    // One run a side cannot estimate its own noise: no interval, never confident.
    EXPECT_FALSE(m.interval.has_value());
    EXPECT_FALSE(m.confident);
    EXPECT_EQ(m.uncertainty, "too few runs: 1 and 1");
    EXPECT_FALSE(c.confident);
    EXPECT_EQ(c.verdict, Verdict::Decision);
    EXPECT_EQ(verdictReason(m), "put_block: 58 % more time per byte — decision required");
    EXPECT_EQ(c.headline, "guest: decision — put_block 58 % more time per byte (not confident: 1 "
                          "of 1 deciding metrics; too few runs: 1 and 1)");
}

TEST(Compare, TwoRunsGiveNoIntervalThreeDo) {
    const std::vector<MetricSamples> base2{{"xz.throughput", {100, 101}}};
    const std::vector<MetricSamples> cand2{{"xz.throughput", {60, 61}}};
    const auto two = compareLayouts("a", base2, "b", cand2);
    EXPECT_FALSE(two.metrics[0].interval);
    EXPECT_EQ(two.metrics[0].uncertainty, "too few runs: 2 and 2");
    const std::vector<MetricSamples> base3{{"xz.throughput", {100, 101, 99}}};
    const std::vector<MetricSamples> cand3{{"xz.throughput", {50, 51, 49}}};
    const auto three = compareLayouts("a", base3, "b", cand3);
    ASSERT_TRUE(three.metrics[0].interval);
    EXPECT_LT(three.metrics[0].interval->low, 2.0 * 1.0);
    EXPECT_EQ(three.metrics[0].verdict, Verdict::NotViable);
    // 100/50 = 2.0 exactly: the interval straddles the not-viable line, so not confident.
    EXPECT_FALSE(three.metrics[0].confident);
}

TEST(Compare, WorstDecidingMetricDecidesAndShownMetricsDoNot) {
    const std::vector<MetricSamples> base{{"bonnie.get_block", {100, 101, 99}},
                                          {"bonnie.put_block_cpu", {10, 10, 10}},
                                          {"bonnie.put_block_latency", {1000, 1000, 1000}},
                                          {"fio.j.read.lat_p99", {1000, 1010, 990}}};
    const std::vector<MetricSamples> cand{{"bonnie.get_block", {90, 91, 89}},
                                          {"bonnie.put_block_cpu", {90, 90, 90}},
                                          {"bonnie.put_block_latency", {9000, 9000, 9000}},
                                          {"fio.j.read.lat_p99", {2500, 2400, 2600}}};
    const auto c = compareLayouts("a", base, "b", cand);
    ASSERT_EQ(c.metrics.size(), 4U);
    // Deciding first, worst first: the latency (2.5x), then get_block (1.11).
    EXPECT_EQ(c.metrics[0].name, "fio.j.read.lat_p99");
    EXPECT_EQ(c.metrics[0].verdict, Verdict::NotViable);
    EXPECT_EQ(c.metrics[1].name, "bonnie.get_block");
    EXPECT_EQ(c.metrics[1].verdict, Verdict::Decision);
    // The single slowest operation (9x) and CPU (9x) are shown, never deciding.
    for (std::size_t i = 2; i < 4; ++i) {
        EXPECT_FALSE(c.metrics[i].decisive) << c.metrics[i].name;
        EXPECT_EQ(c.metrics[i].verdict, Verdict::NotViable);
    }
    EXPECT_EQ(c.verdict, Verdict::NotViable);
    EXPECT_EQ(c.headline.substr(0, c.headline.find(" (")),
              "b: not-viable — j.read.lat_p99 150 % more latency; get_block 11 %");
}

TEST(Compare, ALatencyOutlierAloneNoLongerDecides) {
    // The report that opened this: not viable on put_block_latency while put_block was a decision.
    const std::vector<MetricSamples> base{{"bonnie.put_block", {300, 301, 299}},
                                          {"bonnie.put_block_latency", {1e6, 1e6, 1e6}}};
    const std::vector<MetricSamples> cand{{"bonnie.put_block", {200, 201, 199}},
                                          {"bonnie.put_block_latency", {5e6, 5e6, 5e6}}};
    const auto c = compareLayouts("bare", base, "guest", cand);
    EXPECT_EQ(c.verdict, Verdict::Decision);
    EXPECT_TRUE(c.confident);
    EXPECT_EQ(c.headline, "guest: decision — put_block 50 % more time per byte");
}

TEST(Compare, ScenarioNamesItsDecidingMetrics) {
    LayoutSamples base, cand;
    base.metrics = {{"bonnie.put_block", {300, 301, 299}}, {"fio.j.read.bw", {100, 100, 100}}};
    cand.metrics = {{"bonnie.put_block", {100, 101, 99}}, {"fio.j.read.bw", {100, 101, 99}}};
    const auto c = compareLayouts("a", base, "b", cand, {{}, {"fio.*.read.bw"}});
    ASSERT_EQ(c.metrics.size(), 2U);
    EXPECT_EQ(c.metrics[0].name, "fio.j.read.bw");
    EXPECT_TRUE(c.metrics[0].decisive);
    EXPECT_EQ(c.metrics[0].role, "[decide] fio.*.read.bw");
    EXPECT_FALSE(c.metrics[1].decisive); // put_block 3x, but not named
    EXPECT_EQ(c.metrics[1].role, "shown: not named in [decide]");
    EXPECT_EQ(c.verdict, Verdict::Viable);
    EXPECT_EQ(c.headline.substr(0, c.headline.find(" (worst")),
              "b: viable — every deciding metric within 10 %");
}

TEST(Compare, AVerdictSaysWhatItWasMeasuredOn) {
    // The caveats a campaign writes (campaign_target.cpp) become short labels, ZFS first.
    EXPECT_EQ(measuredOn({"cold cache", "file vdevs: the pool's disks are files on the host",
                          "ZFS: zfs-fuse (FUSE, pool version 23)", "zfs-fuse: a FUSE port of ZFS",
                          "ZFS: zfs-fuse (FUSE, pool version 23)"}),
              (std::vector<std::string>{"zfs-fuse", "file vdevs"}));
    EXPECT_EQ(measuredOn({"ZFS: OpenZFS 2.3.2 (2.3.2-2~bpo12+2)", "TCG: the guest ran under"}),
              (std::vector<std::string>{"OpenZFS 2.3.2", "TCG emulation"}));
    LayoutSamples base, cand;
    base.metrics = {{"bonnie.put_block", {300, 301, 299}}};
    cand.metrics = {{"bonnie.put_block", {300, 301, 299}}};
    cand.measuredOn = {"zfs-fuse", "file vdevs"};
    auto c = compareLayouts("dir", base, "raidz1", cand);
    EXPECT_EQ(c.candidateMeasuredOn, cand.measuredOn);
    EXPECT_TRUE(c.headline.ends_with(" [raidz1 measured on zfs-fuse, file vdevs]")) << c.headline;
    // Kernel OpenZFS on disks is what a server runs: nothing beside the verdict.
    cand.measuredOn = {"OpenZFS 2.3.2"};
    c = compareLayouts("dir", base, "raidz1", cand);
    EXPECT_EQ(c.headline.find(" measured on "), std::string::npos) << c.headline;
}

TEST(Compare, CompletionLatencyDecidesOnlyWithoutTotalLatency) {
    LayoutSamples base, cand;
    base.metrics = {{"fio.j.read.clat_p99", {1000, 1000, 1000}}};
    cand.metrics = {{"fio.j.read.clat_p99", {3000, 3000, 3000}}};
    auto c = compareLayouts("a", base, "b", cand);
    ASSERT_EQ(c.metrics.size(), 1U);
    EXPECT_TRUE(c.metrics[0].decisive);
    EXPECT_EQ(c.metrics[0].role, "p99 completion latency (no total latency measured)");
    base.metrics.push_back({"fio.j.read.lat_p99", {1100, 1100, 1100}});
    cand.metrics.push_back({"fio.j.read.lat_p99", {1100, 1100, 1100}});
    c = compareLayouts("a", base, "b", cand);
    for (const auto& m : c.metrics)
        EXPECT_EQ(m.decisive, m.name == "fio.j.read.lat_p99") << m.name;
    EXPECT_EQ(c.verdict, Verdict::Viable);
}

TEST(Compare, WhatCannotBeComparedIsListedWithItsReason) {
    LayoutSamples base, cand;
    base.metrics = {{"xz.throughput", {10, 10, 10}, "xz"},
                    {"bonnie.seeks", {5, 5, 5}, "bonnie"},
                    {"fio.seq.write.bw", {5, 5, 5}, "fio:seq"},
                    {"randfile.throughput", {300, 300, 300}, "randfile"}};
    cand.metrics = {{"xz.throughput", {10.5, 10.5, 10.5}, "xz"},
                    {"fio.seq.write.bw", {5, 5, 5}, "fio:seq"},
                    {"randfile.throughput", {290, 290, 290}, "randfile"}};
    cand.failed = {{"bonnie", 3, 0, "exit status 1: out of memory"}};
    base.notes = {{MetricNote::Kind::Excludes, "bonnie.putc", "too fast to time (+++++)"},
                  {MetricNote::Kind::Method, "fio.seq.*", "direct I/O"}};
    cand.notes = {{MetricNote::Kind::Method, "fio.seq.*", "buffered I/O"},
                  {MetricNote::Kind::Excludes, "randfile.throughput",
                   "bounded by the data source (source 300 MB/s, measured 290 MB/s)"},
                  {MetricNote::Kind::Qualifies, "xz.*", "working set 256 MiB fits in memory"}};
    const auto c = compareLayouts("a", base, "b", cand);
    std::map<std::string, std::string> why;
    for (const auto& n : c.notCompared)
        why[n.name] = n.reason;
    EXPECT_EQ(why["bonnie.seeks"],
              "every run failed on the candidate: exit status 1: out of memory");
    EXPECT_EQ(why["bonnie.putc"], "too fast to time (+++++) on the baseline");
    for (const auto& m : c.metrics) {
        if (m.name == "fio.seq.write.bw") {
            EXPECT_EQ(m.excluded, "not comparable: direct I/O vs buffered I/O");
            EXPECT_FALSE(m.decisive);
        }
        if (m.name == "randfile.throughput") {
            EXPECT_FALSE(m.decisive);
            EXPECT_NE(m.excluded.find("bounded by the data source"), std::string::npos);
        }
        if (m.name == "xz.throughput") {
            EXPECT_TRUE(m.decisive);
            EXPECT_EQ(m.notes, std::vector<std::string>{"working set 256 MiB fits in memory"});
        }
    }
}

TEST(Compare, NothingDecidingComparedIsNeverViable) {
    LayoutSamples base, cand;
    base.metrics = {{"bonnie.put_block_cpu", {10, 10, 10}}};
    cand.metrics = {{"bonnie.put_block_cpu", {10, 10, 10}}};
    const auto c = compareLayouts("a", base, "b", cand);
    EXPECT_EQ(c.verdict, Verdict::NoVerdict);
    EXPECT_FALSE(c.confident);
    EXPECT_EQ(c.headline, "b: no-verdict — no deciding metric could be compared");
}

TEST(Decide, GlobsAndFamilies) {
    EXPECT_TRUE(metricMatches("fio.*.read.bw", "fio.seq-read-1m.read.bw"));
    EXPECT_TRUE(metricMatches("fio.*.*.lat_p99", "fio.j.write.lat_p99"));
    EXPECT_FALSE(metricMatches("fio.*.read.bw", "fio.j.write.bw"));
    EXPECT_TRUE(metricMatches("bonnie.put_?lock", "bonnie.put_block"));
    EXPECT_FALSE(checkDecideGlob("bonnie.put_block"));
    EXPECT_FALSE(checkDecideGlob("*"));
    EXPECT_EQ(*checkDecideGlob("fi0.*.read.bw"), "unknown metric family 'fi0' in 'fi0.*.read.bw'");
    EXPECT_TRUE(checkDecideGlob("fio"));
}

// Seeded log-normal samples: the noise of benchmark figures is multiplicative.
struct Simulation {
    std::mt19937_64 rng{0x6c61796f7574ULL};
    std::vector<double> draw(std::size_t n, double median, double cv) {
        const double sigma = std::sqrt(std::log1p(cv * cv));
        std::normal_distribution<double> normal(0.0, sigma);
        std::vector<double> out(n);
        for (auto& v : out)
            v = median * std::exp(normal(rng));
        return out;
    }
};

TEST(Interval, CoverageProvenBySimulation) {
    // 2,000 trials per cell: CV 1 %, 5 %, 15 %; n = 3, 5, 10 per side; true cost ratios 1.00,
    // 1.05 and 1.50. The 95 % interval must hold the true ratio in at least 93 % of trials, and
    // in the A/A cells the verdict may be confidently anything but viable in at most 5 %.
    Simulation sim;
    constexpr int trials = 2000;
    std::printf("  coverage of the 95 %% interval (share of %d trials holding the true ratio)\n",
                trials);
    std::printf("  %6s %4s %6s %9s %16s\n", "CV", "n", "ratio", "coverage", "confidently-bad");
    for (double cv : {0.01, 0.05, 0.15})
        for (std::size_t n : {3U, 5U, 10U})
            for (double ratio : {1.00, 1.05, 1.50}) {
                int covered = 0, confidentlyBad = 0;
                for (int t = 0; t < trials; ++t) {
                    // A throughput: cost ratio = baseline / candidate.
                    const std::vector<MetricSamples> b{{"xz.throughput", sim.draw(n, 100, cv)}};
                    const std::vector<MetricSamples> c{
                        {"xz.throughput", sim.draw(n, 100 / ratio, cv)}};
                    const auto cmp = compareLayouts("a", b, "b", c);
                    const auto& m = cmp.metrics.at(0);
                    ASSERT_TRUE(m.interval);
                    covered += m.interval->low <= ratio && ratio <= m.interval->high ? 1 : 0;
                    confidentlyBad += m.confident && m.verdict != Verdict::Viable ? 1 : 0;
                }
                const double coverage = static_cast<double>(covered) / trials;
                const double bad = static_cast<double>(confidentlyBad) / trials;
                std::printf("  %5.0f%% %4zu %6.2f %8.1f%% %15.1f%%\n", cv * 100, n, ratio,
                            coverage * 100, bad * 100);
                EXPECT_GE(coverage, 0.93) << "CV " << cv << " n " << n << " ratio " << ratio;
                if (ratio == 1.00) {
                    EXPECT_LE(bad, 0.05) << "CV " << cv << " n " << n;
                }
            }
}

// The adaptive stop: a metric is given up before max_iterations only when those runs could not
// make it confident. Checked by simulation against what max_iterations runs a side then actually
// give: of the metrics given up, few would have become confident (the stop costs little
// knowledge), a clear ratio is not given up, and one on a band's edge is, once the runs so far
// can tell (at three runs they never can: the heavy tails of two degrees of freedom).
TEST(Interval, GivingUpEarlyIsRarelyWrongAndNeverForAClearRatio) {
    Simulation sim;
    constexpr int trials = 1000;
    constexpr std::size_t maxRuns = 10;
    const Thresholds bands;
    std::printf("  giving up before max_iterations = %zu: share given up, and of those the share "
                "that %zu runs a side made confident\n",
                maxRuns, maxRuns);
    std::printf("  %5s %6s %6s %10s %10s\n", "runs", "CV", "ratio", "given up", "wrongly");
    for (std::ptrdiff_t first : {3, 6, 8})
        for (double cv : {0.05, 0.15})
            for (double ratio : {1.00, 1.08, 1.10, 1.30, 1.95}) {
                int givenUp = 0, wrongly = 0;
                for (int t = 0; t < trials; ++t) {
                    auto b = sim.draw(maxRuns, 100, cv);
                    auto c = sim.draw(maxRuns, 100 / ratio, cv);
                    const auto early =
                        compareLayouts("a", {{"xz.throughput", {b.begin(), b.begin() + first}}},
                                       "b", {{"xz.throughput", {c.begin(), c.begin() + first}}});
                    const auto& m = early.metrics.at(0);
                    if (m.confident || couldBecomeConfident(m, bands, maxRuns))
                        continue;
                    ++givenUp;
                    const auto late =
                        compareLayouts("a", {{"xz.throughput", b}}, "b", {{"xz.throughput", c}});
                    wrongly += late.metrics.at(0).confident ? 1 : 0;
                }
                const double shareGivenUp = static_cast<double>(givenUp) / trials;
                const double shareWrong = givenUp ? static_cast<double>(wrongly) / givenUp : 0.0;
                std::printf("  %5td %5.0f%% %6.2f %9.1f%% %9.1f%%\n", first, cv * 100, ratio,
                            shareGivenUp * 100, shareWrong * 100);
                EXPECT_LE(shareWrong, 0.10) << first << " runs, CV " << cv << " ratio " << ratio;
                if ((ratio == 1.00 || ratio == 1.30) && cv == 0.05) {
                    EXPECT_LE(shareGivenUp, 0.02)
                        << "a clear ratio: " << first << " runs, CV " << cv << " ratio " << ratio;
                }
                if (ratio == 1.10 && first == 8) {
                    EXPECT_GE(shareGivenUp, 0.3) << "a ratio on an edge, CV " << cv;
                }
            }
    MetricComparison few;
    few.baselineSamples = 2;
    few.candidateSamples = 3;
    EXPECT_TRUE(couldBecomeConfident(few, bands, maxRuns)) << "no interval yet: runs may give one";
}

TEST(Interval, LatencyRatioPointsTheOtherWay) {
    const auto i = ratioInterval({100, 101, 99}, {200, 202, 198}, Better::Lower);
    ASSERT_TRUE(i);
    EXPECT_LT(i->low, 2.0);
    EXPECT_GT(i->high, 2.0);
    EXPECT_NEAR(std::sqrt(i->low * i->high), 2.0, 0.001);
    EXPECT_FALSE(ratioInterval({100, 0, 99}, {1, 2, 3}, Better::Higher)); // no ratio scale
    const auto same = ratioInterval({5, 5, 5}, {5, 5, 5}, Better::Higher);
    ASSERT_TRUE(same);
    EXPECT_EQ(same->low, 1.0);
    EXPECT_EQ(same->high, 1.0);
}

TEST(Drift, ABaselineThatMovedMoreThanItsNoiseIsReported) {
    // Three runs at the start, three an hour later, 8 % slower; noise about 0.5 %.
    const auto startedAt = [](std::vector<double> at) {
        std::vector<SampleRun> runs;
        for (const double t : at)
            runs.push_back({0, t, 1});
        return runs;
    };
    const auto moved = MetricSamples::withRuns("xz.throughput", {100, 100.5, 99.5, 92, 92.4, 91.6},
                                               startedAt({0, 10, 20, 3600, 3610, 3620}));
    const auto d = measureDrift({moved}, {"xz.throughput"});
    ASSERT_TRUE(d);
    EXPECT_EQ(d->metric, "xz.throughput");
    EXPECT_NEAR(d->change, -0.08, 0.01);
    // The same spread with no trend: within the noise, nothing to report.
    const auto steady = MetricSamples::withRuns("xz.throughput", {100, 92, 96, 92, 100, 96},
                                                startedAt({0, 10, 20, 3600, 3610, 3620}));
    EXPECT_FALSE(measureDrift({steady}, {"xz.throughput"}));
    // A metric that does not decide is not looked at.
    EXPECT_FALSE(measureDrift({moved}, {"bonnie.put_block"}));
    Comparison c;
    c.candidate = "b";
    c.headline = "b: viable — every deciding metric within 10 %";
    c.metrics.push_back({});
    c.metrics[0].decisive = true;
    addDrift(c, d);
    EXPECT_NE(c.headline.find("the machine drifted by 8 % down during the campaign"),
              std::string::npos);
    EXPECT_EQ(c.metrics[0].notes.size(), 1U);
}

// The modified z-score of the log values: a stall among steady runs stands apart; the jitter of
// steady runs does not, nor does a run a few per cent off runs that are otherwise equal (below
// the viable band); fewer than five runs tell nothing apart.
TEST(Outliers, AStallStandsApartAndSteadyJitterDoesNot) {
    const auto stall = outlierIndexes({60.1, 59.8, 60.5, 0.12, 60.0}, 1.10);
    ASSERT_EQ(stall.size(), 1U);
    EXPECT_EQ(stall[0].first, 3U);
    EXPECT_LT(stall[0].second, -outlierScore);
    EXPECT_TRUE(outlierIndexes({61.2, 59.7, 60.4, 58.9, 62.0}, 1.10).empty());
    // Equal runs (MAD 0): the mean absolute deviation stands in.
    EXPECT_TRUE(outlierIndexes({100, 100, 100, 100, 95}, 1.10).empty()); // 5 %: within the band
    const auto fast = outlierIndexes({100, 100, 100, 100, 160}, 1.10);
    ASSERT_EQ(fast.size(), 1U);
    EXPECT_EQ(fast[0].first, 4U);
    EXPECT_GT(fast[0].second, outlierScore);
    EXPECT_TRUE(outlierIndexes({60.1, 59.8, 0.12, 60.0}, 1.10).empty());      // four runs
    EXPECT_TRUE(outlierIndexes({60.1, 59.8, 60.5, 0.0, 60.0}, 1.10).empty()); // no log of 0
}

// Five runs a side, one of the candidate's a stall at 0.2 % of its siblings' speed: the interval
// spans every band and the verdict is not confident. The run is named, and the comparison
// without it is given (viable, confident); the verdict shown keeps it.
TEST(Outliers, AStallIsNamedAndTheVerdictWithoutItGiven) {
    LayoutSamples base, cand;
    base.metrics = {MetricSamples::withRuns(
        "bonnie.put_block", {60.2e6, 59.9e6, 60.4e6, 60.1e6, 59.7e6}, {{1}, {2}, {3}, {4}, {5}})};
    cand.metrics = {MetricSamples::withRuns("bonnie.put_block",
                                            {59.8e6, 60.3e6, 0.12e6, 60.0e6, 59.6e6},
                                            {{11}, {12}, {13}, {14}, {15}})};
    const auto c = compareLayouts("dir", base, "raidz1", cand);
    ASSERT_EQ(c.metrics.size(), 1U);
    const auto& m = c.metrics[0];
    EXPECT_FALSE(m.confident);
    ASSERT_EQ(m.outliers.size(), 1U);
    EXPECT_FALSE(m.outliers[0].baseline);
    EXPECT_EQ(m.outliers[0].run, 13);
    EXPECT_DOUBLE_EQ(m.outliers[0].value, 0.12e6);
    EXPECT_DOUBLE_EQ(m.outliers[0].median, 59.8e6);
    ASSERT_TRUE(m.withoutOutliers);
    EXPECT_EQ(m.withoutOutliers->verdict, Verdict::Viable);
    EXPECT_TRUE(m.withoutOutliers->confident);
    ASSERT_FALSE(m.notes.empty());
    const std::string& note = m.notes.back();
    EXPECT_NE(note.find("outlier: run #13 of raidz1 at 0.20 % of its median"), std::string::npos)
        << note;
    EXPECT_NE(note.find("without it: viable"), std::string::npos) << note;
    EXPECT_NE(note.find(", confident. The verdict shown keeps it"), std::string::npos) << note;
}

// An A/A pair of steady runs: nothing is an outlier and no note says otherwise.
TEST(Outliers, AnAAPairHasNone) {
    LayoutSamples a, b;
    a.metrics = {{"fio.j.read.bw", {612e6, 597e6, 604e6, 589e6, 620e6, 601e6}}};
    b.metrics = {{"fio.j.read.bw", {598e6, 611e6, 593e6, 607e6, 615e6, 600e6}}};
    const auto c = compareLayouts("a", a, "b", b);
    ASSERT_EQ(c.metrics.size(), 1U);
    EXPECT_TRUE(c.metrics[0].outliers.empty());
    EXPECT_FALSE(c.metrics[0].withoutOutliers);
    for (const auto& n : c.metrics[0].notes)
        EXPECT_EQ(n.find("outlier"), std::string::npos) << n;
    EXPECT_TRUE(c.confident);
}

// The headline names the outlier run next to the verdict, and what the verdict is without it.
TEST(Outliers, TheHeadlineNamesTheRunAndTheVerdictWithout) {
    LayoutSamples base, cand;
    base.metrics = {{"bonnie.put_block", {60.2e6, 59.9e6, 60.4e6, 60.1e6, 59.7e6}}};
    cand.metrics = {MetricSamples::withRuns("bonnie.put_block",
                                            {59.8e6, 60.3e6, 0.12e6, 60.0e6, 59.6e6},
                                            {{11}, {12}, {13}, {14}, {15}})};
    const auto c = compareLayouts("dir", base, "raidz1", cand);
    EXPECT_NE(c.headline.find("; outlier run #13 (without: viable, confident)"), std::string::npos)
        << c.headline;
}

// Notes that differ only in a number are one line with the number's range and how many runs
// carry it; numbers inside names (rand-read-4k, run #13) are words, and a note all runs carry
// gets no count.
TEST(CollapseNotes, OneLinePerNoteWithItsRangeAndCount) {
    const auto lines =
        collapseNotes({"ran 0.53 s: under 5 s", "ran 0.25 s: under 5 s", "ran 0.31 s: under 5 s",
                       "working set 32.00 MiB fits in 23.54 GiB of RAM",
                       "fio.rand-read-4k-qd1.read.clat_p99: submission takes 23 % of the total",
                       "fio.rand-read-8k-qd1.read.clat_p99: submission takes 23 % of the total"},
                      {3, 2, 2, 8, 1, 1}, 8);
    EXPECT_EQ(lines,
              (std::vector<std::string>{
                  "ran 0.25\u20130.53 s: under 5 s (in 7 of 8 runs)",
                  "working set 32.00 MiB fits in 23.54 GiB of RAM",
                  "fio.rand-read-4k-qd1.read.clat_p99: submission takes 23 % of the total",
                  "fio.rand-read-8k-qd1.read.clat_p99: submission takes 23 % of the total"}));
    EXPECT_EQ(collapseNotes({"outlier: run #13 of b", "outlier: run #14 of b"}, {}, 2).size(), 2U);
    EXPECT_EQ(collapseNotes({"took 12 % of it", "took 99 % of it"}, {}, 2),
              (std::vector<std::string>{"took 12\u201399 % of it"}));
}

// In a comparison: the short-run notes of 5 runs a side become one line.
TEST(CollapseNotes, AComparisonSaysEachNoteOnce) {
    LayoutSamples base, cand;
    base.metrics = {{"fio.j.read.bw", {100, 101, 99, 100, 100}}};
    cand.metrics = {{"fio.j.read.bw", {100, 101, 99, 100, 100}}};
    for (const char* t : {"ran 2.0 s: under 5 s", "ran 2.1 s: under 5 s", "ran 1.9 s: under 5 s"})
        base.notes.push_back({MetricNote::Kind::Qualifies, "fio.j.*", t});
    base.noteRuns = {3, 1, 1};
    cand.notes = {{MetricNote::Kind::Qualifies, "fio.j.*", "ran 2.0 s: under 5 s"}};
    cand.noteRuns = {4};
    const auto c = compareLayouts("a", base, "b", cand);
    ASSERT_EQ(c.metrics.size(), 1U);
    EXPECT_EQ(c.metrics[0].notes,
              (std::vector<std::string>{"ran 1.9\u20132.1 s: under 5 s (in 9 of 10 runs)"}));
}

// Another xz preset is other work: out of the verdict, named. Another version of the tool, or
// another machine's memory, is not, but may matter: a note beside a metric that still decides.
TEST(Compare, AnotherPresetIsNotComparableAndAnotherVersionIsACaveat) {
    LayoutSamples base, cand;
    base.metrics = {{"xz.throughput", {10e6, 10e6, 10e6}, "xz"},
                    {"bonnie.put_block", {100e6, 100e6, 100e6}, "bonnie"}};
    cand.metrics = {{"xz.throughput", {9e6, 9e6, 9e6}, "xz"},
                    {"bonnie.put_block", {99e6, 99e6, 99e6}, "bonnie"}};
    base.notes = {{MetricNote::Kind::Method, "xz.*", "level=6"},
                  {MetricNote::Kind::Method, "bonnie.*", "version=1.97"},
                  {MetricNote::Kind::Method, "*", "memory=23.43 GiB"},
                  {MetricNote::Kind::Method, "*", "kernel=Linux 6.1.0-18-amd64 x86_64"}};
    cand.notes = {{MetricNote::Kind::Method, "xz.*", "level=9"},
                  {MetricNote::Kind::Method, "bonnie.*", "version=2.00a"},
                  {MetricNote::Kind::Method, "*", "memory=3.84 GiB"},
                  {MetricNote::Kind::Method, "*", "kernel=Linux 6.1.0-18-amd64 x86_64"}};
    const auto c = compareLayouts("a", base, "b", cand);
    for (const auto& m : c.metrics) {
        if (m.name == "xz.throughput") {
            EXPECT_EQ(m.excluded, "not comparable: level 6 vs 9");
            EXPECT_FALSE(m.decisive);
        }
        if (m.name == "bonnie.put_block") {
            EXPECT_TRUE(m.decisive);
            EXPECT_TRUE(m.excluded.empty());
            EXPECT_NE(std::find(m.notes.begin(), m.notes.end(),
                                "the sides ran other versions of the tool, which may matter: "
                                "version 1.97 vs 2.00a"),
                      m.notes.end());
            // The guest's memory is not the host's; the same kernel says nothing.
            EXPECT_NE(std::find(m.notes.begin(), m.notes.end(),
                                "the sides ran on different machines, which may matter: memory "
                                "23.43 GiB vs 3.84 GiB"),
                      m.notes.end());
            for (const auto& n : m.notes)
                EXPECT_EQ(n.find("kernel"), std::string::npos) << n;
        }
    }
}

// The one rule every front end checks its thresholds by: 1 <= viable < not viable.
TEST(Verdict, ThresholdsHoldTogether) {
    EXPECT_TRUE(validThresholds({}));
    EXPECT_TRUE(validThresholds({1.0, 1.01}));
    EXPECT_FALSE(validThresholds({0.99, 2.0})) << "a ratio under 1 is no cost";
    EXPECT_FALSE(validThresholds({1.5, 1.5})) << "no band between them";
    EXPECT_FALSE(validThresholds({2.0, 1.5}));
}
