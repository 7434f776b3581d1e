// The next step a reader of an unsettled comparison is given: the runs that would settle it, the
// metrics more runs cannot, the outliers that change it, or the decision that is left.
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

} // namespace

// One run a side, as the shipped samples are: an interval needs three, so two more of the
// workload on both layouts; imported runs are imported again, not run.
TEST(NextStep, OneRunASideAsksForTwoMoreOnBoth) {
    LayoutSamples base, cand;
    base.metrics = {samples("bonnie.put_block", {352e6}, "bonnie")};
    cand.metrics = {samples("bonnie.put_block", {222e6}, "bonnie")};
    auto c = compareLayouts("bare-metal", base, "guest", cand);
    auto next = nextStep(c);
    ASSERT_TRUE(next);
    EXPECT_EQ(next->text, "run 2 more iterations of bonnie on both layouts (3 a side): an "
                          "interval needs at least 3 runs on each side");
    EXPECT_EQ(next->workloads, std::vector<std::string>{"bonnie"});
    EXPECT_EQ(next->runsEachSide, 3U);

    for (auto* side : {&base, &cand}) // imported: the run of each value is in no campaign
        side->metrics[0] = MetricSamples::withRuns(side->metrics[0].name, side->metrics[0].values,
                                                   {SampleRun{}}, side->metrics[0].workload);
    c = compareLayouts("bare-metal", base, "guest", cand);
    ASSERT_TRUE(c.imported);
    next = nextStep(c);
    ASSERT_TRUE(next);
    EXPECT_TRUE(has(next->text, "import 2 more runs of bonnie for both layouts (3 a side)"))
        << next->text;
}

// Three runs on the baseline, one on the candidate: only the candidate is asked for more.
TEST(NextStep, OnlyTheSideThatLacksRunsIsAsked) {
    LayoutSamples base, cand;
    base.metrics = {samples("fio.j.read.bw", {600e6, 602e6, 598e6}, "fio:j")};
    cand.metrics = {samples("fio.j.read.bw", {450e6}, "fio:j")};
    const auto next = nextStep(compareLayouts("a", base, "b", cand));
    ASSERT_TRUE(next);
    EXPECT_TRUE(has(next->text, "run 2 more iterations of fio:j on b (3 a side)")) << next->text;
}

// An interval that spans the viable and decision bands with runs that scatter: more runs
// narrow it; the step names how many and which interval spans.
TEST(NextStep, AnIntervalAcrossTwoBandsAsksForAsManyRunsAsLikelySettleIt) {
    LayoutSamples base, cand;
    base.metrics = {samples("bonnie.put_block", {100e6, 92e6, 108e6}, "bonnie")};
    cand.metrics = {samples("bonnie.put_block", {78e6, 86e6, 70e6}, "bonnie")};
    const auto c = compareLayouts("a", base, "b", cand);
    ASSERT_FALSE(c.confident);
    ASSERT_TRUE(c.metrics[0].interval);
    const auto next = nextStep(c);
    ASSERT_TRUE(next);
    EXPECT_GT(next->runsEachSide, 3U);
    EXPECT_LE(next->runsEachSide, nextStepMaxRuns);
    EXPECT_TRUE(has(next->text, "the interval of sequential block writes (")) << next->text;
    EXPECT_TRUE(has(next->text, ") still spans two bands")) << next->text;
    // With that many runs a side the chance of a confident verdict is at least a half, and with
    // one fewer it is not.
    EXPECT_GE(chanceOfConfidence(c.metrics[0], c.thresholds, next->runsEachSide), 0.5);
    EXPECT_LT(chanceOfConfidence(c.metrics[0], c.thresholds, next->runsEachSide - 1), 0.5);
}

// A ratio right on the edge of the viable band: no number of runs up to the maximum settles
// it, and the step says to decide on it as measured rather than ask for runs.
TEST(NextStep, ARatioOnABandsEdgeIsDecidedAsMeasured) {
    LayoutSamples base, cand;
    base.metrics = {samples("bonnie.put_block", {110e6, 100e6, 120e6, 105e6}, "bonnie")};
    cand.metrics = {samples("bonnie.put_block", {100e6, 91e6, 109e6, 95.5e6}, "bonnie")};
    const auto c = compareLayouts("a", base, "b", cand);
    ASSERT_FALSE(c.confident);
    const auto next = nextStep(c);
    ASSERT_TRUE(next);
    EXPECT_TRUE(has(next->text, "more runs will not settle sequential block writes")) << next->text;
    EXPECT_TRUE(next->workloads.empty());
}

// Settled in the band between: the decision is the reader's, on the worst metric; settled
// viable: nothing to do.
TEST(NextStep, SettledLeavesTheDecisionOrNothing) {
    LayoutSamples base, cand;
    base.metrics = {samples("bonnie.put_block", {100e6, 101e6, 99e6, 100.5e6}, "bonnie")};
    cand.metrics = {samples("bonnie.put_block", {66e6, 66.5e6, 65.5e6, 66.2e6}, "bonnie")};
    auto c = compareLayouts("a", base, "b", cand);
    ASSERT_TRUE(c.confident);
    ASSERT_EQ(c.verdict, Verdict::Decision);
    auto next = nextStep(c);
    ASSERT_TRUE(next);
    EXPECT_EQ(next->text, "the figures are settled; decide whether 52 % more time on sequential "
                          "block writes is acceptable");

    cand.metrics = {samples("bonnie.put_block", {99e6, 100e6, 98e6, 99.5e6}, "bonnie")};
    c = compareLayouts("a", base, "b", cand);
    ASSERT_TRUE(c.confident);
    EXPECT_FALSE(nextStep(c));
}

// A stall that changes the verdict: the step names the run to look at.
TEST(NextStep, AnOutlierThatChangesTheVerdictIsNamed) {
    LayoutSamples base, cand;
    base.metrics = {samples("bonnie.put_block", {60.2e6, 59.9e6, 60.4e6, 60.1e6, 59.7e6}, "b")};
    cand.metrics = {samples("bonnie.put_block", {59.8e6, 60.3e6, 0.12e6, 60.0e6, 59.6e6}, "b")};
    cand.metrics[0] = MetricSamples::withRuns(cand.metrics[0].name, cand.metrics[0].values,
                                              {{11}, {12}, {13}, {14}, {15}}, "b");
    const auto next = nextStep(compareLayouts("dir", base, "raidz1", cand));
    ASSERT_TRUE(next);
    EXPECT_TRUE(has(next->text, "look at run #13 of raidz1: it stands apart")) << next->text;
}

// The names a signer reads, and the glossary's terms.
TEST(PlainMetricNames, BonnieFioAndTheRest) {
    EXPECT_EQ(plainMetricName("bonnie.put_block"), "sequential block writes");
    EXPECT_EQ(plainMetricName("bonnie.ran_del"), "deleting files in random order");
    EXPECT_EQ(plainMetricName("bonnie.seeks_cpu"), "CPU during random seeks");
    EXPECT_EQ(plainMetricName("bonnie.getc_latency"),
              "slowest single operation of reads a character at a time");
    EXPECT_EQ(plainMetricName("fio.seq-read-1m.read.bw"), "seq-read-1m: read throughput");
    EXPECT_EQ(plainMetricName("fio.r.mixed.lat_p99"),
              "r: read and write latency (99th percentile)");
    EXPECT_EQ(plainMetricName("iscsi.r4k.read.iops"), "r4k over iSCSI: read operations per second");
    EXPECT_EQ(plainMetricName("xz.throughput"), "xz compression throughput");
    EXPECT_EQ(plainMetricName("no.such.metric"), "no.such.metric");

    const auto block = metricTerm("bonnie.put_block");
    ASSERT_TRUE(block);
    EXPECT_EQ(block->term, "put_block");
    EXPECT_NE(block->meaning.find("write(2)"), std::string::npos);
    ASSERT_TRUE(metricTerm("bonnie.rewrite_cpu"));
    EXPECT_EQ(metricTerm("bonnie.rewrite_cpu")->term, "*_cpu");
    EXPECT_EQ(metricTerm("fio.a.read.lat_p99")->term, metricTerm("nfs.b.write.lat_p99")->term);
    EXPECT_FALSE(metricTerm("no.such.metric"));
    // Every bonnie++ metric has a plain name of its own.
    for (const auto& name : bonnieMetricNames())
        EXPECT_NE(plainMetricName(name), name);
}

// An adaptive campaign runs a workload once more where a deciding metric has an outlier and the
// side with it has only the minimum of runs; once it has more, not again. An A/A pair of steady
// runs asks for nothing.
TEST(NextStep, AnOutlierAtTheMinimumIsRunOnceMore) {
    LayoutSamples base, cand;
    base.metrics = {samples("bonnie.put_block", {60.2e6, 59.9e6, 60.4e6, 60.1e6, 59.7e6}, "b")};
    cand.metrics = {samples("bonnie.put_block", {59.8e6, 60.3e6, 0.12e6, 60.0e6, 59.6e6}, "b")};
    cand.metrics[0] = MetricSamples::withRuns(cand.metrics[0].name, cand.metrics[0].values,
                                              {{11}, {12}, {13}, {14}, {15}}, "b");
    const auto c = compareLayouts("dir", base, "raidz1", cand);
    EXPECT_EQ(workloadsToRunAgainForOutliers(c, 5), std::set<std::string>{"b"});
    EXPECT_TRUE(workloadsToRunAgainForOutliers(c, 4).empty()) << "already run beyond the minimum";

    LayoutSamples a, b;
    a.metrics = {samples("fio.j.read.bw", {612e6, 597e6, 604e6, 589e6, 620e6}, "fio:j")};
    b.metrics = {samples("fio.j.read.bw", {598e6, 611e6, 593e6, 607e6, 615e6}, "fio:j")};
    EXPECT_TRUE(workloadsToRunAgainForOutliers(compareLayouts("a", a, "b", b), 5).empty());
}

// A metric confidently not viable fixes the verdict: the open ones cannot change it, and the
// step says there is nothing to run rather than ask for runs of them.
TEST(NextStep, AConfidentlyNotViableMetricLeavesNothingToRun) {
    LayoutSamples base, cand;
    base.metrics = {samples("fio.w.write.bw", {500e6, 502e6, 498e6}, "fio:w"),
                    samples("fio.r.read.iops", {1000, 700, 1300}, "fio:r")};
    cand.metrics = {samples("fio.w.write.bw", {100e6, 101e6, 99e6}, "fio:w"),
                    samples("fio.r.read.iops", {800, 550, 1050}, "fio:r")};
    const auto c = compareLayouts("a", base, "b", cand);
    ASSERT_EQ(c.verdict, Verdict::NotViable);
    // The read IOPS are not confident, but nothing they show can make a worst-of verdict better:
    // the verdict is confident, as its next step says.
    ASSERT_FALSE(c.metrics[1].confident);
    ASSERT_TRUE(c.confident);
    const auto next = nextStep(c);
    ASSERT_TRUE(next);
    EXPECT_EQ(next->text, "nothing to run: w: write throughput alone makes it not viable, with "
                          "confidence, whatever more runs of the others would show");
    EXPECT_TRUE(next->workloads.empty());
}
