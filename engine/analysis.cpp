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

// Uniform in (0, 1), never 0: 53 random bits.
double uniform(SplitMix64& rng) {
    return (static_cast<double>(rng.next() >> 11) + 0.5) * 0x1.0p-53;
}

double normal(SplitMix64& rng) {
    // Box-Muller; the second variate is thrown away to keep the stream simple.
    constexpr double twoPi = 6.283185307179586476925;
    return std::sqrt(-2.0 * std::log(uniform(rng))) * std::cos(twoPi * uniform(rng));
}

// Marsaglia and Tsang's method; every shape used here is at least 1.
double gamma(double shape, SplitMix64& rng) {
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    while (true) {
        double x = 0, v = 0;
        do {
            x = normal(rng);
            v = 1.0 + c * x;
        } while (v <= 0);
        v = v * v * v;
        const double u = uniform(rng);
        if (u < 1.0 - 0.0331 * x * x * x * x ||
            std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v)))
            return d * v;
    }
}

double beta(double a, double b, SplitMix64& rng) {
    const double x = gamma(a, rng);
    return x / (x + gamma(b, rng));
}

// One bootstrap replicate of the median of `sorted`.
//
// Small samples are resampled directly. For large ones the same distribution is drawn in O(1):
// a resample of n picks indexes floor(n*U) for n uniforms U, so its k-th smallest pick is
// floor(n*U_(k)), and the k-th order statistic of n uniforms is Beta(k, n-k+1); given it, the
// next one is U_(k) + (1-U_(k)) * Beta(1, n-k). Exact in distribution, without touching n values.
double resampledMedian(const std::vector<double>& sorted, SplitMix64& rng,
                       std::vector<double>& scratch) {
    const std::size_t n = sorted.size();
    constexpr std::size_t directLimit = 64;
    if (n <= directLimit) {
        scratch.resize(n);
        for (auto& v : scratch)
            v = sorted[rng.below(n)];
        return median(scratch);
    }
    auto at = [&](double u) {
        return sorted[std::min(n - 1, static_cast<std::size_t>(u * static_cast<double>(n)))];
    };
    const std::size_t k = (n + 1) / 2; // 1-based rank of the (lower) middle
    const double uk = beta(static_cast<double>(k), static_cast<double>(n - k + 1), rng);
    if (n % 2 == 1)
        return at(uk);
    const double next = uk + (1.0 - uk) * beta(1.0, static_cast<double>(n - k), rng);
    return (at(uk) + at(next)) / 2;
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
    std::vector<double> base(baseline), cand(candidate);
    std::sort(base.begin(), base.end());
    std::sort(cand.begin(), cand.end());
    std::vector<double> ratios;
    ratios.reserve(static_cast<std::size_t>(resamples));
    std::vector<double> scratch;
    for (int i = 0; i < resamples; ++i) {
        const double b = resampledMedian(base, rng, scratch);
        const double c = resampledMedian(cand, rng, scratch);
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
