// The latency distribution of each fio job from its json+ histogram ("bins": the count of I/Os
// per latency bucket), as a percentile curve: a pure function of the bins fio_json.cpp read from
// the same parse as the job's metrics.
#pragma once

#include "engine/measure/run.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lb::fio {

// One json+ histogram of one job entry and direction: (latency in nanoseconds, I/O count) per
// bucket, as fio printed them.
struct LatencyBins {
    std::string job;
    std::string direction; // "read", "write", "trim", "mixed"
    bool total = false;    // total latency's bins (lat_ns, lat_percentiles=1), else clat_ns's
    std::vector<std::pair<double, double>> bins;
};

// Bins added up: in latency order, the counts of one bucket summed (entries of one job, clients).
std::vector<std::pair<double, double>> mergedBins(std::vector<std::pair<double, double>> bins);

// The latency at which the bins, in latency order, reach `percent` of their I/Os, as fio's
// stat.c computes a percentile (calc_clat_percentiles): the first bucket whose running count is at
// least percent/100 times the total, and that bucket's value as fio printed it in json+ (the
// middle of the bucket, plat_idx_to_val). None when the bins hold no I/O.
std::optional<double> binsPercentile(const std::vector<std::pair<double, double>>& sortedBins,
                                     double percent);

// For each job and direction with bins: the series fio.<job>.<dir>.lat_curve from total
// latency's bins, else .clat_curve from completion latency's. A point per bucket, in latency
// order: x the percent of I/Os that completed within y (nanoseconds, the bucket's value), so the
// last point is at 100. Entries of one job name (numjobs without group_reporting) are added up;
// should they differ in kind, the first entry's is kept. Sorted by name.
std::vector<Series> latencyCurves(const std::vector<LatencyBins>& histograms);

} // namespace lb::fio
