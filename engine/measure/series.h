// What the charts of a run's course need, computed once for the app and the report: the series
// stored with each run of a layout (fio's per-interval logs), which of a layout's iterations is
// its median one, and a queue-depth sweep's points (the qd-sweep preset: one job per depth).
#pragma once

#include "engine/measure/analysis.h"
#include "engine/measure/run.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

// The series of one successful run, as the store reads them back.
struct RunSeries {
    std::int64_t runId = 0;
    std::int64_t campaignId = 0; // 0: imported
    std::string workload;
    int iteration = 0;
    std::vector<Series> series; // sorted by name
    bool operator==(const RunSeries&) const = default;
};

// The mean of a series' values over its time (each point weighs the same), 0 when empty.
double seriesMean(const Series& s);

// Among one series' runs on a layout (nullptr: that run lacks it), the index of the median one by
// seriesMean: the lower middle of an even count. None when no run has the series.
std::optional<std::size_t> medianRun(const std::vector<const Series*>& runs);

// Every series name that some run has, sorted, once each.
std::vector<std::string> seriesNames(const std::vector<RunSeries>& runs);

// A queue-depth sweep's jobs are named <queueDepthSweepJob><depth> ("qd-sweep-qd16").
inline constexpr std::string_view queueDepthSweepJob = "qd-sweep-qd";

// The depth of a sweep's job name, none for another job.
std::optional<int> queueDepthOfJob(std::string_view job);

// One layout's queue-depth sweep for one family and direction: at each depth the medians over
// iterations of IOPS and of the p99 latency (total latency, lat_p99, where fio measured it; else
// completion latency, clat_p99, named in p99Metric).
struct SweepPoint {
    int depth = 0;
    std::optional<double> iops;  // ops/s
    std::optional<double> p99Ns; // nanoseconds
    bool operator==(const SweepPoint&) const = default;
};
struct SweepCurve {
    std::string family;             // "fio", "iscsi", "nfs"
    std::string direction;          // "read", "write", "trim"
    std::string p99Metric;          // "lat_p99" or "clat_p99"
    std::vector<SweepPoint> points; // by depth
    bool operator==(const SweepCurve&) const = default;
};

// The sweeps among a layout's metrics (Store::metricSamples), sorted by family and direction;
// empty when it ran none.
std::vector<SweepCurve> queueDepthSweeps(const std::vector<MetricSamples>& metrics);

} // namespace lb
