// The statistics under a comparison (engine/measure/analysis.h): medians and spreads, the cost
// ratio, Welch's interval on the logs, the modified z-score that finds outliers, and the chance
// that more runs settle a verdict.
#include "engine/measure/analysis.h"
#include "engine/measure/measure_internal.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>

namespace lb {

double median(const std::vector<double>& samples) {
    assert(!samples.empty());
    // Partitioned in a scratch copy the thread keeps: a comparison takes two medians a metric.
    thread_local std::vector<double> values;
    values.assign(samples.begin(), samples.end());
    const auto mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid),
                     values.end());
    const double upper = values[mid];
    if (values.size() % 2 == 1)
        return upper;
    const double lower =
        *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
    return (lower + upper) / 2;
}

double coefficientOfVariation(const std::vector<double>& values) {
    if (values.size() < 2)
        return 0;
    double mean = 0;
    for (double v : values)
        mean += v;
    mean /= static_cast<double>(values.size());
    double ss = 0;
    for (double v : values)
        ss += (v - mean) * (v - mean);
    return mean == 0 ? 0 : std::sqrt(ss / static_cast<double>(values.size() - 1)) / std::fabs(mean);
}

double costRatio(double baselineMedian, double candidateMedian, Better better) {
    const double num = better == Better::Higher ? baselineMedian : candidateMedian;
    const double den = better == Better::Higher ? candidateMedian : baselineMedian;
    if (den == 0)
        return num == 0 ? 1.0 : HUGE_VAL;
    return num / den;
}

namespace {

struct LogStats {
    double mean = 0;
    double variance = 0; // sample variance (n - 1)
    std::size_t n = 0;
};

// Mean and sample variance of the logs; none when a value is not positive. Each log is taken
// once (a comparison of 1,000 metrics over 500 runs a side takes a million).
std::optional<LogStats> logStats(const std::vector<double>& values) {
    thread_local std::vector<double> logs;
    logs.clear();
    LogStats s;
    s.n = values.size();
    for (double v : values) {
        if (!(v > 0) || !std::isfinite(v))
            return std::nullopt;
        logs.push_back(std::log(v));
        s.mean += logs.back();
    }
    s.mean /= static_cast<double>(s.n);
    for (double x : logs)
        s.variance += (x - s.mean) * (x - s.mean);
    s.variance /= static_cast<double>(s.n - 1);
    return s;
}

// Student's t computed in double. Boost promotes a double to long double by default, and the
// quantiles were 8 % of a comparison of 1,000 metrics; double is precise far beyond what an
// interval or a chance of settling needs.
using StudentT = boost::math::students_t_distribution<
    double, boost::math::policies::policy<boost::math::policies::promote_double<false>>>;

// Whether no value can stand apart: every one lies within `minRatio` of the median of the logs
// (an outlier must be that far from it, whatever its score). Told from the range when it is
// narrow enough, else from the middle values alone, with two logs instead of one a value: a
// steady metric, the usual case, needs no more. The bounds are narrowed by a rounding's worth so
// that a value this lets through is judged by the full rule, never one it should have judged
// skipped.
bool noneApart(const std::vector<double>& values, double minRatio) {
    if (!(minRatio > 1.0) || values.empty())
        return false;
    // Cheapest first, one pass: the median lies between the least and the greatest value, so
    // when those two are less than `minRatio` apart no value can be that far from it.
    const auto [least, most] = std::minmax_element(values.begin(), values.end());
    if (*most < *least * minRatio * (1 - 1e-9))
        return true;
    thread_local std::vector<double> sorted;
    sorted.assign(values.begin(), values.end());
    const auto mid = sorted.size() / 2;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(mid),
                     sorted.end());
    double centre = std::log(sorted[mid]);
    if (sorted.size() % 2 == 0)
        centre =
            (centre + std::log(*std::max_element(
                          sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(mid)))) /
            2;
    const double apart = std::log(minRatio);
    const double low = std::exp(centre - apart) * (1 + 1e-9);
    const double high = std::exp(centre + apart) * (1 - 1e-9);
    return std::all_of(values.begin(), values.end(), [&](double v) { return v > low && v < high; });
}

} // namespace

double studentQuantile(double df, double p) {
    return boost::math::quantile(StudentT(df), p);
}

std::vector<std::pair<std::size_t, double>> outlierIndexes(const std::vector<double>& values,
                                                           double minRatio, std::size_t minCount) {
    std::vector<std::pair<std::size_t, double>> out;
    if (values.size() < minCount ||
        std::any_of(values.begin(), values.end(), [](double v) { return !(v > 0); }))
        return out;
    if (noneApart(values, minRatio))
        return out;
    std::vector<double> logs, deviations;
    for (const double v : values)
        logs.push_back(std::log(v));
    const double centre = median(logs);
    for (const double l : logs)
        deviations.push_back(std::fabs(l - centre));
    const double mad = median(deviations);
    const double meanDeviation = std::accumulate(deviations.begin(), deviations.end(), 0.0) /
                                 static_cast<double>(deviations.size());
    // M = 0.6745 (x - median) / MAD; where more than half are equal, MAD is 0 and the mean
    // absolute deviation stands in (M = (x - median) / (1.253314 MeanAD)).
    const double scale = mad > 0 ? mad / 0.6745 : 1.253314 * meanDeviation;
    if (!(scale > 0))
        return out;
    const double apart = std::log(std::max(minRatio, 1.0));
    for (std::size_t i = 0; i < logs.size(); ++i) {
        const double score = (logs[i] - centre) / scale;
        if (std::fabs(score) > outlierScore && std::fabs(logs[i] - centre) >= apart)
            out.emplace_back(i, score);
    }
    return out;
}

// Why Welch on logs: benchmark figures are positive and their noise is multiplicative (a run
// is a few percent faster or slower), so their logs are close to normal with a spread that does
// not depend on the level; the cost ratio becomes a difference of means, for which Welch's
// t-interval keeps its coverage with unequal spreads and at n = 3 (the t quantile with few
// degrees of freedom is what a percentile bootstrap of medians lacks: at n = 3 it held the true
// ratio only ~90 % of the time). tests/engine/analysis_test.cpp proves the coverage by
// simulation.
std::optional<Interval> ratioInterval(const std::vector<double>& baseline,
                                      const std::vector<double>& candidate, Better better,
                                      double level) {
    if (baseline.size() < minSamplesForInterval || candidate.size() < minSamplesForInterval)
        return std::nullopt;
    const auto b = logStats(baseline);
    const auto c = logStats(candidate);
    if (!b || !c)
        return std::nullopt;
    // log cost ratio: baseline over candidate for a throughput, candidate over baseline else.
    const double d = better == Better::Higher ? b->mean - c->mean : c->mean - b->mean;
    const double vb = b->variance / static_cast<double>(b->n);
    const double vc = c->variance / static_cast<double>(c->n);
    const double se = std::sqrt(vb + vc);
    if (se == 0)
        return Interval{std::exp(d), std::exp(d)}; // identical runs: nothing to be unsure of
    // Welch–Satterthwaite degrees of freedom.
    const double df =
        (vb + vc) * (vb + vc) /
        (vb * vb / static_cast<double>(b->n - 1) + vc * vc / static_cast<double>(c->n - 1));
    const double t = studentQuantile(df, 0.5 + level / 2);
    return Interval{std::exp(d - t * se), std::exp(d + t * se)};
}

std::optional<Interval> geometricMeanInterval(const std::vector<double>& values, double level) {
    if (values.size() < minSamplesForInterval)
        return std::nullopt;
    const auto s = logStats(values);
    if (!s)
        return std::nullopt;
    const double se = std::sqrt(s->variance / static_cast<double>(s->n));
    const double t = studentQuantile(static_cast<double>(s->n - 1), 0.5 + level / 2);
    return Interval{std::exp(s->mean - t * se), std::exp(s->mean + t * se)};
}

bool couldBecomeConfident(const MetricComparison& m, const Thresholds& thresholds,
                          std::size_t maxRuns) {
    return chanceOfConfidence(m, thresholds, maxRuns) >= 0.05;
}

double chanceOfConfidence(const MetricComparison& m, const Thresholds& thresholds,
                          std::size_t runs) {
    if (m.confident || !m.interval)
        return 1;
    const std::size_t fewest = std::min(m.baselineSamples, m.candidateSamples);
    const std::size_t maxRuns = runs;
    if (maxRuns <= fewest || !(m.interval->low > 0))
        return 0;
    // In logs: the centre of the interval now, its standard error now and with maxRuns a side.
    const double low = std::log(m.interval->low), high = std::log(m.interval->high);
    const double centre = (low + high) / 2;
    const double now = 1.0 / static_cast<double>(m.baselineSamples) +
                       1.0 / static_cast<double>(m.candidateSamples);
    const double then = 2.0 / static_cast<double>(maxRuns);
    const double df = static_cast<double>(fewest - 1);
    const double seNow = (high - low) / 2 / studentQuantile(df, 0.975);
    const double seThen = seNow * std::sqrt(then / now);
    const double reach = studentQuantile(static_cast<double>(2 * maxRuns - 2), 0.975) * seThen;
    // Where the centre may end with maxRuns a side: the runs to come move it by a share of what
    // is unknown now (the share of runs still to come), with the heavy tails of few runs.
    const double shift = seNow * std::sqrt(std::max(0.0, 1 - then / now));
    const StudentT tails(df);
    const auto below = [&](double x) {
        if (x == std::numeric_limits<double>::infinity())
            return 1.0;
        if (x == -std::numeric_limits<double>::infinity())
            return 0.0;
        return shift > 0 ? boost::math::cdf(tails, (x - centre) / shift) : (centre < x ? 1.0 : 0.0);
    };
    const double inf = std::numeric_limits<double>::infinity();
    const double viable = std::log(thresholds.viableMax),
                 notViable = std::log(thresholds.notViableMin);
    // The chance that the interval then lies inside one band: its centre at least `reach` from
    // the band's edges.
    double chance = 0;
    for (const auto& [bandLow, bandHigh] :
         {std::pair{-inf, viable}, std::pair{viable, notViable}, std::pair{notViable, inf}})
        if (bandHigh - bandLow > 2 * reach)
            chance += below(bandHigh - reach) - below(bandLow + reach);
    return chance;
}

} // namespace lb
