// The rules of a layout's verdict as one statement: the worst deciding metric decides; it is
// confident when that metric is confidently in its band and no other deciding metric's interval
// reaches a worse band; with nothing comparable there is no verdict; the next step never
// contradicts the confidence; a caveat is on the metrics of the runs that carry it, and only those.
#include "engine/base/joined.h"
#include "engine/measure/analysis.h"
#include "engine/measure/metric.h"
#include "engine/measure/next_step.h"

#include <gtest/gtest.h>
#include <string>

using namespace lb;

namespace {

MetricSamples samples(std::string name, std::vector<double> values, std::string workload) {
    MetricSamples s{std::move(name), std::move(values)};
    s.workload = std::move(workload);
    return s;
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

const MetricComparison& metric(const Comparison& c, const std::string& name) {
    for (const auto& m : c.metrics)
        if (m.name == name)
            return m;
    throw std::runtime_error("no metric " + name);
}

} // namespace

TEST(VerdictRules, NoVerdictIsAWordOfItsOwnOutsideTheBands) {
    EXPECT_EQ(verdictName(Verdict::NoVerdict), "no-verdict");
    EXPECT_EQ(worse(Verdict::NoVerdict, Verdict::Viable), Verdict::Viable);
    EXPECT_EQ(worse(Verdict::NotViable, Verdict::NoVerdict), Verdict::NotViable);
    EXPECT_FALSE(worseThan(Verdict::NoVerdict, Verdict::NotViable));
}

// One deciding metric confidently not viable among metrics with too few runs: nothing the others
// show can make the layout better, so the verdict is confident, and the next step says so.
TEST(VerdictRules, OneConfidentlyNotViableMetricSettlesAWorstOfVerdict) {
    LayoutSamples base, cand;
    base.metrics = {samples("fio.seq.write.lat_p99", {1e6, 1.02e6, 0.98e6}, "seq"),
                    samples("fio.rand.read.bw", {100e6}, "rand")};
    cand.metrics = {samples("fio.seq.write.lat_p99", {5e6, 5.1e6, 4.9e6}, "seq"),
                    samples("fio.rand.read.bw", {90e6}, "rand")};
    const auto c = compareLayouts("a", base, "b", cand);
    ASSERT_EQ(c.verdict, Verdict::NotViable);
    EXPECT_TRUE(metric(c, "fio.seq.write.lat_p99").confident);
    EXPECT_FALSE(metric(c, "fio.rand.read.bw").confident);
    EXPECT_TRUE(c.confident);
    EXPECT_TRUE(c.confidence.starts_with("settled: ")) << c.confidence;
    EXPECT_TRUE(has(c.confidence, "1 of 2 deciding metrics is not confident")) << c.confidence;
    ASSERT_TRUE(c.next);
    EXPECT_TRUE(c.next->text.starts_with("nothing to run: ")) << c.next->text;
    EXPECT_TRUE(has(c.next->text, "with confidence")) << c.next->text;
    EXPECT_EQ(c.next, nextStep(c));
}

// Every deciding metric confident and viable: settled, nothing to do.
TEST(VerdictRules, AllConfidentIsSettledWithNoNextStep) {
    LayoutSamples base, cand;
    base.metrics = {samples("bonnie.put_block", {100e6, 101e6, 99e6}, "bonnie"),
                    samples("bonnie.get_block", {200e6, 202e6, 198e6}, "bonnie")};
    cand.metrics = {samples("bonnie.put_block", {99e6, 100e6, 98e6}, "bonnie"),
                    samples("bonnie.get_block", {199e6, 201e6, 197e6}, "bonnie")};
    const auto c = compareLayouts("a", base, "b", cand);
    EXPECT_EQ(c.verdict, Verdict::Viable);
    EXPECT_TRUE(c.confident);
    EXPECT_EQ(c.confidence, "settled: every deciding metric's 95 % interval lies inside one band");
    EXPECT_FALSE(c.next);
}

// The worst metric confidently a decision, another confidently viable, a third with an interval
// across viable and decision but never reaching not viable: the decision is settled.
TEST(VerdictRules, AnOpenMetricThatCannotReachAWorseBandLeavesItSettled) {
    LayoutSamples base, cand;
    base.metrics = {samples("bonnie.put_block", {100e6, 101e6, 99e6}, "bonnie"),
                    samples("bonnie.get_block", {200e6, 190e6, 210e6}, "bonnie")};
    cand.metrics = {samples("bonnie.put_block", {66e6, 67e6, 65e6}, "bonnie"),
                    samples("bonnie.get_block", {190e6, 170e6, 180e6}, "bonnie")};
    const auto c = compareLayouts("a", base, "b", cand);
    ASSERT_EQ(c.verdict, Verdict::Decision);
    const auto& open = metric(c, "bonnie.get_block");
    ASSERT_FALSE(open.confident);
    ASSERT_TRUE(open.interval);
    ASSERT_LT(open.interval->high, c.thresholds.notViableMin);
    EXPECT_TRUE(c.confident) << c.confidence;
    ASSERT_TRUE(c.next);
    EXPECT_TRUE(c.next->text.starts_with("the figures are settled; decide whether"))
        << c.next->text;
}

// An open metric whose interval reaches the not-viable band: the decision is not settled, and
// the next step never calls it settled.
TEST(VerdictRules, AnOpenMetricThatCouldBeWorseKeepsItOpen) {
    LayoutSamples base, cand;
    base.metrics = {samples("bonnie.put_block", {100e6, 101e6, 99e6}, "bonnie"),
                    samples("bonnie.get_block", {200e6, 120e6, 260e6}, "bonnie")};
    cand.metrics = {samples("bonnie.put_block", {66e6, 67e6, 65e6}, "bonnie"),
                    samples("bonnie.get_block", {170e6, 100e6, 150e6}, "bonnie")};
    const auto c = compareLayouts("a", base, "b", cand);
    ASSERT_EQ(c.verdict, Verdict::Decision);
    const auto& open = metric(c, "bonnie.get_block");
    ASSERT_TRUE(open.interval);
    ASSERT_GE(open.interval->high, c.thresholds.notViableMin);
    EXPECT_FALSE(c.confident);
    EXPECT_TRUE(c.confidence.starts_with("not settled: 1 of 2 deciding metrics is not confident"))
        << c.confidence;
    ASSERT_TRUE(c.next);
    EXPECT_FALSE(has(c.next->text, "settled;")) << c.next->text;
}

// Every metric measured doing other work: no verdict, its reason, and a next step that says what
// to measure; never "decision", never "settled".
TEST(VerdictRules, NothingComparableHasNoVerdictAndSaysWhatToMeasure) {
    LayoutSamples base, cand;
    base.metrics = {samples("fio.j.read.bw", {100e6, 101e6, 99e6}, "j"),
                    samples("fio.j.read.iops", {25e3, 25e3, 25e3}, "j")};
    cand.metrics = {samples("fio.j.read.bw", {300e6, 301e6, 299e6}, "j"),
                    samples("fio.j.read.iops", {4.7e3, 4.7e3, 4.7e3}, "j")};
    base.notes = {{MetricNote::Kind::Method, "fio.j.*", "bs=4 KiB"}};
    cand.notes = {{MetricNote::Kind::Method, "fio.j.*", "bs=64 KiB"}};
    const auto c = compareLayouts("a", base, "b", cand);
    EXPECT_EQ(c.verdict, Verdict::NoVerdict);
    EXPECT_FALSE(c.confident);
    EXPECT_EQ(c.confidence, "nothing comparable: bs 4 KiB vs 64 KiB (2 metrics measured doing "
                            "other work)");
    ASSERT_TRUE(c.next);
    EXPECT_TRUE(c.next->text.starts_with("measure both layouts doing the same work"))
        << c.next->text;
    EXPECT_FALSE(has(c.next->text, "settled")) << c.next->text;
    EXPECT_TRUE(c.headline.starts_with("b: no-verdict — ")) << c.headline;
}

// Over a grid of spreads and ratios the next step never contradicts the confidence: a confident
// verdict is never asked for more runs, an open one is never called settled.
TEST(VerdictRules, TheNextStepNeverContradictsTheConfidence) {
    for (double spread : {0.0, 0.02, 0.1, 0.3})
        for (double ratio : {1.0, 1.09, 1.12, 1.5, 1.95, 2.05, 3.0})
            for (std::size_t runs : {1U, 2U, 3U, 5U}) {
                LayoutSamples base, cand;
                std::vector<double> b, k;
                for (std::size_t i = 0; i < runs; ++i) {
                    const double jitter = 1 + spread * (static_cast<double>(i % 3) - 1);
                    b.push_back(100e6 * jitter);
                    k.push_back(100e6 / ratio * (2 - jitter));
                }
                base.metrics = {samples("bonnie.put_block", b, "bonnie"),
                                samples("bonnie.get_block", {200e6, 200e6, 200e6}, "bonnie")};
                cand.metrics = {samples("bonnie.put_block", k, "bonnie"),
                                samples("bonnie.get_block", {199e6, 200e6, 201e6}, "bonnie")};
                const auto c = compareLayouts("a", base, "b", cand);
                const std::string at = "spread " + std::to_string(spread) + " ratio " +
                                       std::to_string(ratio) + " runs " + std::to_string(runs);
                EXPECT_EQ(c.confident, c.confidence.starts_with("settled: ")) << at;
                if (!c.next) {
                    EXPECT_TRUE(c.confident) << at;
                } else if (c.confident) {
                    EXPECT_TRUE(c.next->workloads.empty()) << at << ": " << c.next->text;
                } else {
                    EXPECT_FALSE(has(c.next->text, "settled;")) << at << ": " << c.next->text;
                }
            }
}

// A caveat carried by the 4 KiB job's runs is on that job's metrics only, though its glob matches
// the 1 MiB job's too; a note the layout does not tie to workloads stays on every match.
TEST(VerdictRules, ACaveatIsOnTheMetricsOfTheRunsThatCarryIt) {
    LayoutSamples base, cand;
    for (auto* side : {&base, &cand}) {
        side->metrics = {samples("fio.rand-4k.read.bw", {100e6, 100e6, 100e6}, "rand-4k"),
                         samples("fio.seq-1m.read.bw", {500e6, 500e6, 500e6}, "seq-1m")};
        side->notes = {{MetricNote::Kind::Qualifies, "fio.*",
                        "4.00 KiB blocks on 128.00 KiB records: 32 times the bytes counted"}};
        side->noteRuns = {3};
        side->noteWorkloads = {{{"rand-4k", 3}}};
    }
    base.notes.push_back({MetricNote::Kind::Qualifies, "fio.*", "page cache dropped"});
    base.noteRuns.push_back(6);
    base.noteWorkloads.emplace_back();
    const auto c = compareLayouts("a", base, "b", cand);
    const auto& small = metric(c, "fio.rand-4k.read.bw");
    const auto& large = metric(c, "fio.seq-1m.read.bw");
    EXPECT_TRUE(has(joinedText(small.notes, "|"), "32 times the bytes"));
    EXPECT_FALSE(has(joinedText(large.notes, "|"), "32 times the bytes"));
    EXPECT_TRUE(has(joinedText(large.notes, "|"), "page cache dropped"));
    for (const auto& line : noteLines(c)) {
        if (has(line.text, "32 times")) {
            EXPECT_EQ(line.metrics, std::vector<std::string>{"fio.rand-4k.read.bw"});
        }
    }
}

// The cache caveat is about reads: a write is not served from cache.
TEST(VerdictRules, OnlyReadsAreServedFromCache) {
    EXPECT_TRUE(readsData("fio.rand.read.bw"));
    EXPECT_FALSE(readsData("fio.rand.write.bw"));
    EXPECT_TRUE(readsData("bonnie.get_block"));
    EXPECT_TRUE(readsData("bonnie.seeks_latency"));
    EXPECT_FALSE(readsData("bonnie.put_block"));
    EXPECT_FALSE(readsData("bonnie.getcx"));
    EXPECT_FALSE(readsData("randfile.throughput"));
    EXPECT_TRUE(readsData("xz.throughput"));
    EXPECT_TRUE(readsData("nfs.j.read.lat_p99"));
}
