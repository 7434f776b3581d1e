// What to do next about a comparison that is not settled, in one sentence for the person who
// signs: the runs that would make its deciding metrics confident ("run 2 more iterations of
// bonnie on both layouts (3 a side): an interval needs at least 3 runs on each side"), the
// metrics more runs cannot settle, the outliers that change the verdict, or, when the figures
// are settled in the band between, that the decision is the reader's.
#pragma once

#include "engine/measure/analysis.h"

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lb {

// The runs a side is asked for at most: more than this a side is not a next step but a
// different campaign.
inline constexpr std::size_t nextStepMaxRuns = 20;

// None when the comparison is settled (Comparison::confident) in the viable or the not-viable
// band with no deciding metric left open; the reader's call when it is settled between them;
// what to measure when there is no verdict. compareLayouts keeps its result in Comparison::next,
// which every output shows. Where the layouts' runs were imported (Comparison::imported), more of
// them are imported, not run. More runs are asked for where they make a confident verdict likely (a
// chance of one half, chanceOfConfidence), up to `maxRuns` a side.
std::optional<NextStep> nextStep(const Comparison& c, std::size_t maxRuns = nextStepMaxRuns);

// What an adaptive campaign runs once more before it stops: the workloads of the deciding metrics
// that have an outlier (a run that stands apart) on a side that has no more than `minRuns` runs of
// it, i.e. that no adaptive round has run again yet. The outlier stays stored and counted; the run
// after it says whether it was a stall or what the layout does.
std::set<std::string> workloadsToRunAgainForOutliers(const Comparison& c, std::size_t minRuns);

} // namespace lb
