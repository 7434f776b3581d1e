// Drift of the machine during a campaign (engine/measure/analysis.h): the trend of the baseline's
// deciding metrics over the campaign's time, and the note it adds to a comparison.
#include "engine/measure/analysis.h"
#include "engine/measure/measure_internal.h"

#include <algorithm>
#include <cmath>

namespace lb {

namespace {

// The start of each value's run into `out`; false when a run's start is not known.
bool runStarts(const MetricSamples& s, std::vector<double>& out) {
    out.clear();
    for (std::size_t i = 0; i < s.values.size(); ++i)
        if (const SampleRun* run = s.runAt(i))
            out.push_back(run->startedAt);
    return out.size() == s.values.size();
}

} // namespace

std::optional<Drift> measureDrift(const std::vector<MetricSamples>& baseline,
                                  const std::vector<std::string>& metrics) {
    struct Trend {
        std::string name;
        double slope = 0, se = 0, span = 0, df = 0;
    };
    std::vector<Trend> trends;
    std::vector<double> startedAt; // of each value's run
    for (const auto& s : baseline) {
        if (std::find(metrics.begin(), metrics.end(), s.name) == metrics.end() ||
            s.values.size() < minSamplesForInterval || !runStarts(s, startedAt))
            continue;
        // Least squares of log(value) on time: the slope, and its standard error from the
        // residuals (the runs' own noise).
        const auto n = static_cast<double>(s.values.size());
        double mt = 0, my = 0;
        bool positive = true;
        for (std::size_t i = 0; i < s.values.size(); ++i) {
            positive = positive && s.values[i] > 0;
            mt += startedAt[i];
            my += positive ? std::log(s.values[i]) : 0;
        }
        if (!positive)
            continue;
        mt /= n;
        my /= n;
        double sxx = 0, sxy = 0;
        for (std::size_t i = 0; i < s.values.size(); ++i) {
            sxx += (startedAt[i] - mt) * (startedAt[i] - mt);
            sxy += (startedAt[i] - mt) * (std::log(s.values[i]) - my);
        }
        if (sxx <= 0)
            continue;
        const double slope = sxy / sxx;
        double rss = 0;
        for (std::size_t i = 0; i < s.values.size(); ++i) {
            const double r = std::log(s.values[i]) - my - slope * (startedAt[i] - mt);
            rss += r * r;
        }
        const double df = n - 2;
        if (df < 1)
            continue;
        const auto [lo, hi] = std::minmax_element(startedAt.begin(), startedAt.end());
        trends.push_back({s.name, slope, std::sqrt(rss / df / sxx), *hi - *lo, df});
    }
    std::optional<Drift> worst;
    for (const auto& t : trends) {
        const double q = studentQuantile(t.df, 1.0 - 0.025 / static_cast<double>(trends.size()));
        const double low = (t.slope - q * t.se) * t.span;
        const double high = (t.slope + q * t.se) * t.span;
        if (low <= 0 && high >= 0)
            continue; // within the runs' own noise
        const double change = std::exp(t.slope * t.span) - 1;
        if (!worst || std::fabs(change) > std::fabs(worst->change))
            worst = Drift{t.name, change, {std::exp(low), std::exp(high)}};
    }
    return worst;
}

std::optional<Drift> baselineDrift(const std::vector<MetricSamples>& baseline,
                                   std::int64_t campaign, const Comparison& c) {
    std::vector<MetricSamples> own;
    for (const auto& s : baseline) {
        MetricSamples kept{s.name, {}, s.workload, {}, s.runs};
        for (std::size_t i = 0; i < s.values.size(); ++i)
            if (const SampleRun* run = s.runAt(i); run && run->campaign == campaign) {
                kept.values.push_back(s.values[i]);
                kept.runOf.push_back(s.runOf[i]);
            }
        own.push_back(std::move(kept));
    }
    std::vector<std::string> deciding;
    for (const auto& m : c.metrics)
        if (m.decisive)
            deciding.push_back(m.name);
    return measureDrift(own, deciding);
}

void addDrift(Comparison& c, std::optional<Drift> drift) {
    c.drift = std::move(drift);
    if (!c.drift)
        return;
    const std::string text = "the machine drifted by " + percentText(c.drift->change) + " % " +
                             (c.drift->change >= 0 ? "up" : "down") +
                             " during the campaign (the baseline's " + c.drift->metric +
                             ", early runs against late ones)";
    for (auto& m : c.metrics)
        if (m.decisive)
            m.notes.push_back(text);
    c.headline += "; " + text;
}

Comparison compareWithDrift(std::string baseline, const LayoutSamples& baselineSamples,
                            std::string candidate, const LayoutSamples& candidateSamples,
                            const ComparePolicy& policy,
                            std::optional<std::int64_t> driftCampaign) {
    Comparison c = compareLayouts(std::move(baseline), baselineSamples, std::move(candidate),
                                  candidateSamples, policy);
    if (driftCampaign)
        addDrift(c, baselineDrift(baselineSamples.metrics, *driftCampaign, c));
    return c;
}

} // namespace lb
