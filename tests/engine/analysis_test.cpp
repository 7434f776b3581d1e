// Verdicts follow the rule: cost ratio <= 1.10 viable, >= 2.0 not viable, between a decision.
#include "engine/analysis.h"

#include <gtest/gtest.h>

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

TEST(Compare, SeedPutBlockIsADecision) {
    // The seed measurement: bare metal 343719 KiB/s, the guest 217553 KiB/s.
    const std::vector<MetricSamples> bare{{"bonnie.put_block", {343719.0 * 1024}}};
    const std::vector<MetricSamples> guest{{"bonnie.put_block", {217553.0 * 1024}}};
    const auto c = compareLayouts("bare", bare, "guest", guest);
    ASSERT_EQ(c.metrics.size(), 1U);
    const auto& m = c.metrics[0];
    EXPECT_NEAR(m.ratio, 1.58, 0.005);
    EXPECT_NEAR(m.overhead, 0.58, 0.005);
    EXPECT_EQ(m.verdict, Verdict::Decision);
    EXPECT_TRUE(m.confident); // one sample each: the interval is the point
    EXPECT_EQ(c.verdict, Verdict::Decision);
    EXPECT_EQ(verdictReason(m), "put_block: 58 % more time per byte — decision required");
}

TEST(Compare, WorstDecisiveMetricDecidesAndInfoMetricsDoNot) {
    const std::vector<MetricSamples> base{{"bonnie.get_block", {100, 101, 99}},
                                          {"bonnie.put_block_cpu", {10, 10, 10}},
                                          {"fio.j.read.clat_p99", {1000, 1000, 1000}}};
    const std::vector<MetricSamples> cand{{"bonnie.get_block", {90, 91, 89}},
                                          {"bonnie.put_block_cpu", {90, 90, 90}},
                                          {"fio.j.read.clat_p99", {2500, 2400, 2600}}};
    const auto c = compareLayouts("a", base, "b", cand);
    ASSERT_EQ(c.metrics.size(), 3U);
    EXPECT_EQ(c.metrics[0].name, "bonnie.get_block");    // sorted by name
    EXPECT_EQ(c.metrics[0].verdict, Verdict::Decision);  // 100/90 = 1.11
    EXPECT_EQ(c.metrics[1].verdict, Verdict::NotViable); // cpu 9x, but informational
    EXPECT_FALSE(c.metrics[1].decisive);
    EXPECT_EQ(c.metrics[2].verdict, Verdict::NotViable); // latency 2.5x
    EXPECT_EQ(c.verdict, Verdict::NotViable);
}

TEST(Compare, MetricsOnOneSideOnlyAreListed) {
    const std::vector<MetricSamples> base{{"xz.wall", {10}}, {"bonnie.seeks", {5}}};
    const std::vector<MetricSamples> cand{{"xz.wall", {10.5}}, {"randfile.throughput", {3}}};
    const auto c = compareLayouts("a", base, "b", cand);
    ASSERT_EQ(c.metrics.size(), 1U);
    EXPECT_EQ(c.metrics[0].verdict, Verdict::Viable);
    EXPECT_EQ(c.onlyInBaseline, std::vector<std::string>{"bonnie.seeks"});
    EXPECT_EQ(c.onlyInCandidate, std::vector<std::string>{"randfile.throughput"});
}

TEST(Bootstrap, ReproducibleAndCoversTheRatio) {
    const std::vector<double> base{100, 104, 98, 101, 99};
    const std::vector<double> cand{60, 70, 65, 62, 64};
    const auto a = bootstrapRatioInterval(base, cand, Better::Higher);
    const auto b = bootstrapRatioInterval(base, cand, Better::Higher);
    EXPECT_EQ(a, b);
    const double point = costRatio(median(base), median(cand), Better::Higher);
    EXPECT_LE(a.low, point);
    EXPECT_GE(a.high, point);
    EXPECT_GT(a.high, a.low);
    // The extremes bound the interval: no resample can go beyond max/min.
    EXPECT_GE(a.low, 98.0 / 70.0);
    EXPECT_LE(a.high, 104.0 / 60.0);
}

TEST(Bootstrap, NotConfidentWhenTheIntervalStraddlesABand) {
    // Ratios spread from about 1.0 to 1.3: straddles the 1.10 line.
    const std::vector<MetricSamples> base{{"bonnie.get_block", {100, 130, 100, 130, 115}}};
    const std::vector<MetricSamples> cand{{"bonnie.get_block", {100, 100, 100, 100, 100}}};
    const auto c = compareLayouts("a", base, "b", cand);
    ASSERT_EQ(c.metrics.size(), 1U);
    EXPECT_LT(c.metrics[0].interval.low, 1.10);
    EXPECT_GT(c.metrics[0].interval.high, 1.10);
    EXPECT_FALSE(c.metrics[0].confident);
}

TEST(Bootstrap, LargeSamplesUseOrderStatisticsWithTheSameDistribution) {
    // 201 and 200 values (odd and even) go through the order-statistic draw. On an evenly
    // spaced grid the bootstrap median wanders by about sqrt(n)/2 ranks (one standard
    // deviation), which fixes how wide the interval must be.
    for (std::size_t n : {200U, 201U}) {
        std::vector<double> base(n), cand(n);
        for (std::size_t i = 0; i < n; ++i) {
            base[i] = 1000.0 + static_cast<double>(i);      // median ~1100
            cand[i] = 500.0 + static_cast<double>(i) / 2.0; // median ~550: ratio ~2
        }
        const auto ci = bootstrapRatioInterval(base, cand, Better::Higher, 4000);
        const double point = costRatio(median(base), median(cand), Better::Higher);
        EXPECT_LT(ci.low, point);
        EXPECT_GT(ci.high, point);
        // The median rank wanders by about sqrt(n)/2 = 7 ranks (sd); 95 % ~ +-14 ranks.
        // Baseline 1100+-14, candidate 550+-7: ratio within about [1.96, 2.04].
        EXPECT_GT(ci.low, 1.94);
        EXPECT_LT(ci.high, 2.06);
        EXPECT_LT(ci.low, 1.995);
        EXPECT_GT(ci.high, 2.005);
    }
}

TEST(Bootstrap, DirectAndOrderStatisticDrawsAgreeAtTheBoundary) {
    // 64 values are resampled directly, 65 by order statistics: on the same kind of data the
    // two intervals must be close (their difference comes from one extra value only).
    auto interval = [](std::size_t n) {
        std::vector<double> base(n), cand(n, 100.0);
        for (std::size_t i = 0; i < n; ++i)
            base[i] = 100.0 + static_cast<double>(i % 21); // median 110, spread 0..20
        return bootstrapRatioInterval(base, cand, Better::Higher, 4000);
    };
    const auto direct = interval(64), drawn = interval(65);
    EXPECT_NEAR(direct.low, drawn.low, 0.02);
    EXPECT_NEAR(direct.high, drawn.high, 0.02);
}
