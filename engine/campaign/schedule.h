// The order of a campaign's runs in time. Two layouts measured one after the other differ by the
// machine's drift as well as by layout, so where layouts can coexist (disjoint disks, no VM, no
// export) they are built together and their iterations taken in turn; the baseline runs again
// after the candidates (bracketing) so the drift is measured rather than assumed away; and with
// iterations = "auto" the campaign adds iterations until the verdicts are confident.
#pragma once

#include "engine/scenario/scenario.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lb {

struct PlannedRun {
    std::string layout;
    std::string workload;
    int iteration = 0;    // 0-based, as stored
    bool bracket = false; // the baseline's pass after the candidates
    bool operator==(const PlannedRun&) const = default;
};

struct CampaignSchedule {
    // Every layout built at once, each round running every workload once on each layout.
    bool interleaved = false;
    std::string sequentialWhy; // why not interleaved ("" when interleaved)
    // The baseline runs again after the candidates.
    bool bracket = false;
    // Layouts built together, in order; when sequential, one layout each: with bracket the
    // baseline first and again last, else the scenario's order.
    std::vector<std::vector<const ScenarioLayout*>> stages;
    int minIterations = 3;
    int maxIterations = 3; // = min unless iterations = "auto"
    int bracketFirst = 0;  // iteration number of the first bracketing run
    int bracketRuns = 0;   // iterations of the baseline in the bracketing pass
    // The runs at the minimum iterations (drills included, as "drill:<action>", iteration 0), in
    // the order they run; and how many there are at most with every adaptive iteration.
    std::vector<PlannedRun> runs;
    std::size_t maxRuns = 0;
};

// The layouts a campaign runs: all, or the baseline and `onlyLayout`.
std::vector<const ScenarioLayout*> selectedLayouts(const Scenario& s,
                                                   const std::optional<std::string>& onlyLayout);

CampaignSchedule scheduleCampaign(const Scenario& s, const std::optional<std::string>& onlyLayout);
// The schedule points into the scenario's layouts: a temporary scenario would leave it dangling.
CampaignSchedule scheduleCampaign(Scenario&&, const std::optional<std::string>&) = delete;

// For people: how the runs are ordered and repeated, a few lines ending in newlines.
std::string describeSchedule(const Scenario& s, const CampaignSchedule& c);
// How many runs (bracketing and drills included, each run once per fill level of its layout, and
// the ageing to each level), as plan and the GUI say it: "35, up to 65"; "8 at their fill levels,
// and 4 ageing runs (fill:age)".
std::string describeRunCount(const Scenario& s, const CampaignSchedule& c);

} // namespace lb
