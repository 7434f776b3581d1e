// A fleet's machines side by side on one layout: for each deciding metric every host's median
// and 95 % interval, the fleet's median and spread, and the hosts that stand apart from the rest
// (a slow disk, a mis-seated controller), worst first. The rule is the one for outlier runs
// (analysis.h, Outlier), applied to the hosts' medians instead of one side's runs.
#pragma once

#include "engine/measure/analysis.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lb {

// The fewest hosts measuring a metric for any of them to stand apart: with two, neither is the
// odd one out.
inline constexpr std::size_t minHostsForStandouts = 3;

// One host's runs of one metric.
struct FleetHostFigure {
    std::string host;
    std::size_t runs = 0;
    double median = 0;
    std::optional<Interval> interval; // geometricMeanInterval of its runs
    double deviation = 0; // median over the fleet's median, minus 1: -0.38 is 38 % below
    double score = 0;     // modified z-score of its log median among the hosts'
    bool apart = false;   // stands apart (see analyseFleet)
    // Its interval lies wholly outside the other hosts' medians (their lowest to highest): more
    // than its own runs' noise sets it apart.
    bool intervalOutside = false;
    bool operator==(const FleetHostFigure&) const = default;
};

struct FleetMetric {
    std::string name;
    Unit unit = Unit::Count;
    Better better = Better::Higher;
    double fleetMedian = 0;             // the median of the hosts' medians
    Interval spread;                    // the lowest and the highest host median
    std::vector<FleetHostFigure> hosts; // by host name
    bool operator==(const FleetMetric&) const = default;
};

// A host standing apart on one metric, for the reader: worse (slower, more latency) or better.
struct FleetStandout {
    std::string host;
    std::string metric;
    double deviation = 0; // as FleetHostFigure
    bool worse = false;
    bool intervalOutside = false;
    // "srv-07: put_block 38 % below the fleet median, worse (interval outside the
    // fleet's spread)"
    std::string sentence;
    bool operator==(const FleetStandout&) const = default;
};

struct FleetAnalysis {
    std::string layout;
    std::vector<std::string> hosts;       // sorted
    std::vector<FleetMetric> metrics;     // by name
    std::vector<FleetStandout> standouts; // worse first, then the largest deviation first
    ComparePolicy policy;                 // what decided which metrics are looked at
};

// `samples`: each host's successful runs of `layout`. The metrics looked at are those that decide
// under `policy` (every metric with `allMetrics`) and that at least two hosts measured. A host
// stands apart on a metric when its median's modified z-score among the hosts' log medians is
// beyond outlierScore and it lies at least the viable band from the fleet's median, with at
// least minHostsForStandouts hosts measuring it.
FleetAnalysis analyseFleet(std::string layout,
                           const std::vector<std::pair<std::string, LayoutSamples>>& samples,
                           const ComparePolicy& policy = {}, bool allMetrics = false);

} // namespace lb
