#include "engine/analysis.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <map>

namespace lb {

std::string_view verdictName(Verdict v) {
    switch (v) {
    case Verdict::Viable:
        return "viable";
    case Verdict::Decision:
        return "decision";
    case Verdict::NotViable:
        return "not-viable";
    }
    return "decision";
}

Verdict worse(Verdict a, Verdict b) {
    return static_cast<int>(a) >= static_cast<int>(b) ? a : b;
}

Verdict verdictFor(double ratio, const Thresholds& t) {
    if (ratio <= t.viableMax)
        return Verdict::Viable;
    if (ratio >= t.notViableMin)
        return Verdict::NotViable;
    return Verdict::Decision;
}

double median(std::vector<double> values) {
    assert(!values.empty());
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

double costRatio(double baselineMedian, double candidateMedian, Better better) {
    const double num = better == Better::Higher ? baselineMedian : candidateMedian;
    const double den = better == Better::Higher ? candidateMedian : baselineMedian;
    if (den == 0)
        return num == 0 ? 1.0 : HUGE_VAL;
    return num / den;
}

namespace {

// SplitMix64: a tiny generator whose output is the same on every platform and standard library
// (std::uniform_int_distribution is not), so intervals are reproducible everywhere.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

private:
    std::uint64_t state_;
};

double resampledMedian(const std::vector<double>& values, SplitMix64& rng,
                       std::vector<double>& scratch) {
    scratch.resize(values.size());
    for (auto& v : scratch)
        v = values[rng.below(values.size())];
    return median(scratch);
}

double percentile(std::vector<double>& sorted, double p) {
    // Linear interpolation between closest ranks.
    const double pos = p * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = static_cast<std::size_t>(std::ceil(pos));
    const double frac = pos - static_cast<double>(lo);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

} // namespace

Interval bootstrapRatioInterval(const std::vector<double>& baseline,
                                const std::vector<double>& candidate, Better better, int resamples,
                                std::uint64_t seed) {
    assert(!baseline.empty() && !candidate.empty() && resamples > 0);
    SplitMix64 rng(seed);
    std::vector<double> ratios;
    ratios.reserve(static_cast<std::size_t>(resamples));
    std::vector<double> scratch;
    for (int i = 0; i < resamples; ++i) {
        const double b = resampledMedian(baseline, rng, scratch);
        const double c = resampledMedian(candidate, rng, scratch);
        ratios.push_back(costRatio(b, c, better));
    }
    std::sort(ratios.begin(), ratios.end());
    return {percentile(ratios, 0.025), percentile(ratios, 0.975)};
}

Comparison compareLayouts(std::string baseline, const std::vector<MetricSamples>& baselineSamples,
                          std::string candidate, const std::vector<MetricSamples>& candidateSamples,
                          const Thresholds& thresholds) {
    Comparison out;
    out.baseline = std::move(baseline);
    out.candidate = std::move(candidate);
    out.thresholds = thresholds;

    std::map<std::string, const MetricSamples*> base, cand;
    for (const auto& s : baselineSamples)
        if (!s.values.empty())
            base[s.name] = &s;
    for (const auto& s : candidateSamples)
        if (!s.values.empty())
            cand[s.name] = &s;

    for (const auto& [name, b] : base) {
        const auto c = cand.find(name);
        if (c == cand.end()) {
            out.onlyInBaseline.push_back(name);
            continue;
        }
        const auto info = describeMetric(name);
        if (!info)
            continue;
        MetricComparison m;
        m.name = name;
        m.unit = info->unit;
        m.better = info->better;
        m.decisive = info->decisive;
        m.baselineSamples = b->values.size();
        m.candidateSamples = c->second->values.size();
        m.baselineMedian = median(b->values);
        m.candidateMedian = median(c->second->values);
        m.ratio = costRatio(m.baselineMedian, m.candidateMedian, m.better);
        m.overhead = m.ratio - 1;
        m.interval = bootstrapRatioInterval(b->values, c->second->values, m.better);
        m.verdict = verdictFor(m.ratio, thresholds);
        m.confident = verdictFor(m.interval.low, thresholds) == m.verdict &&
                      verdictFor(m.interval.high, thresholds) == m.verdict;
        if (m.decisive)
            out.verdict = worse(out.verdict, m.verdict);
        out.metrics.push_back(std::move(m));
    }
    for (const auto& [name, c] : cand)
        if (!base.count(name))
            out.onlyInCandidate.push_back(name);
    return out;
}

std::string verdictReason(const MetricComparison& m) {
    std::string shortName = m.name;
    if (const auto dot = shortName.find('.'); dot != std::string::npos)
        shortName = shortName.substr(dot + 1);
    const char* what = "more time";
    const char* lessWhat = "less time";
    if (m.unit == Unit::BytesPerSecond) {
        what = "more time per byte";
        lessWhat = "less time per byte";
    } else if (m.unit == Unit::OpsPerSecond) {
        what = "more time per operation";
        lessWhat = "less time per operation";
    } else if (m.unit == Unit::Nanoseconds) {
        what = "more latency";
        lessWhat = "less latency";
    }
    const double pct = std::fabs(m.overhead) * 100.0;
    const char* tail = "viable";
    if (m.verdict == Verdict::Decision)
        tail = "decision required";
    else if (m.verdict == Verdict::NotViable)
        tail = "not viable";
    char pctText[32];
    std::snprintf(pctText, sizeof pctText, "%.0f", pct);
    return shortName + ": " + pctText + " % " + (m.overhead >= 0 ? what : lessWhat) + " — " + tail;
}

} // namespace lb
