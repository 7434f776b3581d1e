// Comparison of a candidate layout against the baseline: medians, the ratio as a cost (time per
// unit of work), overhead, the verdict band, and a bootstrap interval that says how sure we are.
#pragma once

#include "engine/metric.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

enum class Verdict { Viable, Decision, NotViable };
std::string_view verdictName(Verdict v); // "viable", "decision", "not-viable"
// Severity order for "the worst metric decides": viable < decision < not-viable.
Verdict worse(Verdict a, Verdict b);

struct Thresholds {
    double viableMax = 1.10;   // ratio at or below: viable
    double notViableMin = 2.0; // ratio at or above: not viable
    bool operator==(const Thresholds&) const = default;
};

Verdict verdictFor(double ratio, const Thresholds& t);

double median(std::vector<double> values); // values must not be empty

// Cost ratio of candidate over baseline for one metric's medians: baseline/candidate for a
// throughput, candidate/baseline for a time or latency.
double costRatio(double baselineMedian, double candidateMedian, Better better);

struct Interval {
    double low = 0;
    double high = 0;
    bool operator==(const Interval&) const = default;
};

// Percentile bootstrap (95 %) of the cost ratio of medians: both samples resampled with
// replacement, `resamples` times, from a fixed seed so the same data always gives the same
// interval.
Interval bootstrapRatioInterval(const std::vector<double>& baseline,
                                const std::vector<double>& candidate, Better better,
                                int resamples = 2000, std::uint64_t seed = 0x6c61796f7574ULL);

struct MetricComparison {
    std::string name;
    Unit unit = Unit::Count;
    Better better = Better::Higher;
    bool decisive = true;
    std::size_t baselineSamples = 0;
    std::size_t candidateSamples = 0;
    double baselineMedian = 0;
    double candidateMedian = 0;
    double ratio = 0;
    double overhead = 0; // ratio - 1
    Interval interval;
    Verdict verdict = Verdict::Viable;
    bool confident = false; // the whole interval lies inside one band
};

struct Comparison {
    std::string baseline;
    std::string candidate;
    Thresholds thresholds;
    Verdict verdict = Verdict::Viable;     // worst decisive metric
    std::vector<MetricComparison> metrics; // sorted by name
    std::vector<std::string> onlyInBaseline;
    std::vector<std::string> onlyInCandidate;
};

// Samples of one metric for one layout: one value per run (iteration).
struct MetricSamples {
    std::string name;
    std::vector<double> values;
};

// Compares every metric both layouts have. Metrics unknown to the catalog are skipped.
Comparison compareLayouts(std::string baseline, const std::vector<MetricSamples>& baselineSamples,
                          std::string candidate, const std::vector<MetricSamples>& candidateSamples,
                          const Thresholds& thresholds = {});

// "put_block: 58 % more time per byte — decision required"
std::string verdictReason(const MetricComparison& m);

} // namespace lb
