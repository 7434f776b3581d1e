// The order of a campaign's runs (engine/campaign/schedule.h): layouts that can coexist are
// interleaved, the baseline brackets the candidates, and the bounds of iterations = "auto".
#include "engine/campaign/schedule.h"
#include "probes/registry.h"

#include <gtest/gtest.h>

using namespace lb;

namespace {

Scenario parsed(const std::string& text) {
    static const ProbeRegistry probes = standardProbes();
    auto s = parseScenario(text, "schedule.toml", probes);
    EXPECT_TRUE(s) << s.error().message;
    return s ? *s : Scenario{};
}

const std::string disks = R"(
[[disks]]
name = "d1"
file = "d1.img"
size = "1G"

[[disks]]
name = "d2"
file = "d2.img"
size = "1G"
)";

const std::string workloads = R"(
[[workloads]]
probe = "xz"

[[workloads]]
probe = "randfile"
)";

std::string layoutsOn(const std::string& candidateDisks) {
    return R"(
[[layouts]]
name = "cand"
kind = "zfs-stripe"
disks = )" +
           candidateDisks +
           R"(

[[layouts]]
name = "base"
kind = "dir"
path = "."
baseline = true
)";
}

std::string layoutOf(const PlannedRun& r) {
    return r.layout + "#" + std::to_string(r.iteration) + (r.bracket ? "b" : "");
}

} // namespace

TEST(Schedule, CoexistingLayoutsAreInterleavedRoundByRoundAndTheBaselineBracketsThem) {
    const auto s =
        parsed("name = \"s\"\niterations = 2\n" + disks + layoutsOn("[\"d1\"]") + workloads);
    const auto c = scheduleCampaign(s, std::nullopt);
    EXPECT_TRUE(c.interleaved) << c.sequentialWhy;
    EXPECT_TRUE(c.bracket);
    ASSERT_EQ(c.stages.size(), 1U);
    std::vector<std::string> order;
    for (const auto& r : c.runs)
        if (r.workload == "xz")
            order.push_back(layoutOf(r));
    // Each round starts with another layout; one baseline round after the last.
    EXPECT_EQ(order, (std::vector<std::string>{"base#0", "cand#0", "cand#1", "base#1", "base#2b"}));
    EXPECT_EQ(c.runs.size(), 10U);
    EXPECT_EQ(c.maxRuns, 10U);
}

TEST(Schedule, LayoutsSharingDisksRunOneAfterTheOtherBaselineFirstAndLast) {
    const std::string text = "name = \"s\"\niterations = \"auto\"\nmax_iterations = 5\n" + disks +
                             layoutsOn("[\"d1\", \"d2\"]") + R"(
[[layouts]]
name = "other"
kind = "zfs-mirror"
disks = ["d1", "d2"]
)" + workloads;
    // The schedule points into the scenario's layouts: the scenario must outlive it.
    const auto scenario = parsed(text);
    const auto c = scheduleCampaign(scenario, std::nullopt);
    EXPECT_FALSE(c.interleaved);
    EXPECT_EQ(c.sequentialWhy, "layouts 'cand' and 'other' share disk 'd1'");
    EXPECT_TRUE(c.bracket); // the baseline is a directory: it can run again
    ASSERT_EQ(c.stages.size(), 4U);
    EXPECT_EQ(c.stages[0].front()->name, "base");
    EXPECT_EQ(c.stages[1].front()->name, "cand");
    EXPECT_EQ(c.stages[2].front()->name, "other");
    EXPECT_EQ(c.stages[3].front()->name, "base");
    EXPECT_EQ(c.minIterations, 3);
    EXPECT_EQ(c.maxIterations, 5);
    EXPECT_EQ(c.bracketFirst, 5);
    EXPECT_EQ(c.bracketRuns, 3);
    // Planned: 3 iterations x 2 workloads on each of three layouts, 3 bracketing iterations.
    EXPECT_EQ(c.runs.size(), 24U);
    // At most: the baseline's 3, each candidate's 5, and the bracketing 3.
    EXPECT_EQ(c.maxRuns, (3U + 5U + 5U + 3U) * 2U);
    EXPECT_EQ(layoutOf(c.runs.back()), "base#7b");
}

TEST(Schedule, TheScenarioCanTurnInterleavingAndBracketingOff) {
    const auto s = parsed("name = \"s\"\ninterleave = false\nbracket = false\n" + disks +
                          layoutsOn("[\"d1\"]") + workloads);
    const auto c = scheduleCampaign(s, std::nullopt);
    EXPECT_FALSE(c.interleaved);
    EXPECT_EQ(c.sequentialWhy, "interleave = false in the scenario");
    EXPECT_FALSE(c.bracket);
    EXPECT_EQ(c.stages.size(), 2U);
    EXPECT_EQ(c.runs.size(), 12U);
}

TEST(Schedule, ABaselineSharingItsDisksWithACandidateIsNotBracketedByDefault) {
    const std::string text = "name = \"s\"\n" + disks + R"(
[[layouts]]
name = "base"
kind = "zfs-mirror"
disks = ["d1", "d2"]
baseline = true

[[layouts]]
name = "cand"
kind = "zfs-stripe"
disks = ["d1", "d2"]
)" + workloads;
    // The schedule points into the scenario's layouts: the scenario must outlive it.
    const auto scenario = parsed(text);
    const auto c = scheduleCampaign(scenario, std::nullopt);
    EXPECT_FALSE(c.interleaved);
    EXPECT_FALSE(c.bracket);
    // --layout with the baseline alone: nothing to interleave or bracket.
    const auto alone = scheduleCampaign(scenario, std::string("base"));
    EXPECT_EQ(alone.stages.size(), 1U);
    EXPECT_FALSE(alone.bracket);
}

TEST(Schedule, ARunCountsOnceAtEachFillLevelOfItsLayoutBesideTheAgeing) {
    // The scenario's levels for the baseline, the candidate's own three: what plan and the GUI
    // say is what the campaign runs, each scheduled run at each level, and the ageing to each.
    const std::string text = "name = \"s\"\niterations = 2\ninterleave = false\nbracket = false\n"
                             "fill = [0.0, 0.5]\n" +
                             disks + R"(
[[layouts]]
name = "base"
kind = "zfs-stripe"
disks = ["d1"]
baseline = true

[[layouts]]
name = "cand"
kind = "zfs-stripe"
disks = ["d2"]
fill = [0.0, 0.5, 0.8]
)" + workloads;
    const auto s = parsed(text);
    const auto c = scheduleCampaign(s, std::nullopt);
    ASSERT_EQ(c.runs.size(), 8U);
    EXPECT_EQ(describeRunCount(s, c), "20 at their fill levels, and 5 ageing runs (fill:age)");
    EXPECT_NE(describeSchedule(s, c).find("runs: 20 at their fill levels"), std::string::npos)
        << describeSchedule(s, c);
}
