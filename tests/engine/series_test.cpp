// The series of runs (engine/measure/series.h): which iteration is a layout's median one, and the
// queue-depth sweeps read from a layout's metrics.
#include "engine/measure/series.h"

#include <gtest/gtest.h>

using namespace lb;

namespace {

Series flat(double value, std::size_t points = 4) {
    Series s{"fio.j.read.bw", Unit::Seconds, Unit::BytesPerSecond, {}, {}};
    for (std::size_t i = 0; i < points; ++i) {
        s.x.push_back(0.5 * static_cast<double>(i + 1));
        s.y.push_back(value);
    }
    return s;
}

MetricSamples samples(const std::string& name, std::vector<double> values) {
    return {name, std::move(values), "w"};
}

} // namespace

TEST(Series, TheMedianRunByItsMeanValue) {
    const Series a = flat(10), b = flat(30), c = flat(20), d = flat(40);
    EXPECT_EQ(medianRun({&a, &b, &c}), 2u);
    EXPECT_EQ(medianRun({&a, &b, &c, &d}), 2u) << "the lower middle of an even count";
    EXPECT_EQ(medianRun({nullptr, &b, nullptr}), 1u) << "runs without the series are passed by";
    EXPECT_FALSE(medianRun({nullptr}));
    EXPECT_FALSE(medianRun({}));
    EXPECT_DOUBLE_EQ(seriesMean(flat(7)), 7);
    EXPECT_EQ(seriesMean(flat(7, 0)), 0);
}

TEST(Series, NamesOfEveryRunOnceEach) {
    RunSeries one{1, 0, "w", 0, {flat(1)}};
    RunSeries two{2, 0, "w", 1, {flat(1)}};
    two.series[0].name = "fio.j.read.lat_mean";
    two.series.push_back(flat(2));
    EXPECT_EQ(seriesNames({one, two}),
              (std::vector<std::string>{"fio.j.read.bw", "fio.j.read.lat_mean"}));
}

TEST(Series, ASweepJobNamesItsDepth) {
    EXPECT_EQ(queueDepthOfJob("qd-sweep-qd16"), 16);
    EXPECT_EQ(queueDepthOfJob("qd-sweep-qd1"), 1);
    EXPECT_FALSE(queueDepthOfJob("rand-read-4k-qd32")) << "a preset at one depth is no sweep";
    EXPECT_FALSE(queueDepthOfJob("qd-sweep-qd"));
    EXPECT_FALSE(queueDepthOfJob("qd-sweep-qd0"));
    EXPECT_FALSE(queueDepthOfJob("qd-sweep-qd4x"));
}

// Medians over iterations at each depth; total latency where every depth has it, else
// completion latency for the whole curve; other jobs and stats are passed by.
TEST(Series, SweepsFromALayoutsMetrics) {
    const std::vector<MetricSamples> metrics = {
        samples("fio.qd-sweep-qd1.read.iops", {100, 300, 200}),
        samples("fio.qd-sweep-qd1.read.lat_p99", {50000}),
        samples("fio.qd-sweep-qd1.read.clat_p99", {40000}),
        samples("fio.qd-sweep-qd4.read.iops", {700}),
        samples("fio.qd-sweep-qd4.read.lat_p99", {90000}),
        samples("fio.qd-sweep-qd2.read.iops", {400}),
        samples("fio.qd-sweep-qd2.read.lat_p99", {60000}),
        samples("fio.qd-sweep-qd2.read.bw", {1.6e6}),
        samples("fio.rand-read-4k-qd32.read.iops", {9000}),
        samples("nfs.qd-sweep-qd1.read.iops", {10}),
        samples("nfs.qd-sweep-qd1.read.clat_p99", {1e6}),
        samples("nfs.qd-sweep-qd8.read.iops", {80}),
        samples("nfs.qd-sweep-qd8.read.lat_p99", {2e6}),
        samples("nfs.qd-sweep-qd8.read.clat_p99", {1.5e6}),
    };
    const auto sweeps = queueDepthSweeps(metrics);
    ASSERT_EQ(sweeps.size(), 2u);
    EXPECT_EQ(sweeps[0].family, "fio");
    EXPECT_EQ(sweeps[0].direction, "read");
    EXPECT_EQ(sweeps[0].p99Metric, "lat_p99");
    EXPECT_EQ(sweeps[0].points,
              (std::vector<SweepPoint>{{1, 200, 50000}, {2, 400, 60000}, {4, 700, 90000}}));
    EXPECT_EQ(sweeps[1].family, "nfs");
    EXPECT_EQ(sweeps[1].p99Metric, "clat_p99") << "depth 1 has no total latency";
    EXPECT_EQ(sweeps[1].points, (std::vector<SweepPoint>{{1, 10, 1e6}, {8, 80, 1.5e6}}));
    EXPECT_TRUE(queueDepthSweeps({samples("fio.seq.read.iops", {1})}).empty());
}
