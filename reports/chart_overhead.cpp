// The overhead chart of one comparison as a value (see chart_model.h): a bar per decisive metric
// coloured by its verdict, its 95 % interval, the viable and not-viable bands, and one label a bar
// that keeps it honest (runs a side, "no interval", how far a bar or interval cut at the top
// reaches) and stays inside the plot.
#include "reports/chart_model.h"
#include "reports/chart_model_internal.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace lb::chart {

namespace {

constexpr double none = std::numeric_limits<double>::quiet_NaN();

std::string signedPercent(double percent) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.0f %%", percent);
    return buf;
}

// The value axis: it shows the not-viable band and stops at the cost cap, beyond which the exact
// size no longer matters, and a 3000 % bar would flatten every other one. Longer bars (and
// infinite ones, from a zero median) stop at the top; their labels keep the true value.
std::pair<double, double> overheadRange(const std::vector<const MetricComparison*>& metrics,
                                        const Thresholds& t) {
    const double notViableBottom = (t.notViableMin - 1.0) * 100.0;
    double top = notViableBottom * 1.25;
    double bottom = 0;
    for (const auto* m : metrics)
        for (double v : {m->overhead, m->interval ? m->interval->low - 1.0 : m->overhead,
                         m->interval ? m->interval->high - 1.0 : m->overhead})
            if (std::isfinite(v)) {
                top = std::max(top, v * 100.0 * 1.1);
                bottom = std::min(bottom, v * 100.0 * 1.1);
            }
    top = std::min(top, (detail::costCap(t) - 1.0) * 100.0);
    return {bottom, top};
}

// A bar's figures in words: its value, its runs a side, and how far its interval reaches when
// it runs past the top, or that it has none.
struct BarWords {
    std::string value, runs, reach;
};

BarWords barWords(const MetricComparison& m, double cap) {
    BarWords w;
    w.value = std::isfinite(m.overhead) ? signedPercent(m.overhead * 100.0) : std::string("inf");
    w.runs = "n=" + std::to_string(m.baselineSamples) + "/" + std::to_string(m.candidateSamples);
    if (!m.interval)
        w.reach = "no interval";
    else if (const double high = (m.interval->high - 1.0) * 100.0; !(high < cap))
        w.reach = std::isfinite(high) ? "to " + signedPercent(high) : std::string("to inf");
    return w;
}

// The value label of a bar that is not cut: its figures a line each, so that sixteen labels side
// by side stay apart. Above the bar; inside it at its top where the bar reaches the upper 30 % of
// the axis (above, the label would leave the plot); above the zero line for a bar below it.
Label valueLabel(const BarWords& w, double key, double v, const Axis& axis, std::size_t bars) {
    Label text;
    text.x = key;
    text.points = bars > 8 ? 7 : 9;
    text.background = "#ffffff";
    // Readable over the whisker or arrow that runs through it.
    text.backgroundAlpha = 200;
    text.horizontal = Align::Centre;
    text.padLeft = text.padTop = text.padRight = text.padBottom = 1;
    text.text = w.value + "\n" + w.runs + (w.reach.empty() ? "" : "\n" + w.reach);
    const bool high = (v - axis.min) > 0.7 * (axis.max - axis.min);
    text.y = v >= 0 ? v : 0.0;
    text.vertical = v >= 0 && high ? Align::Start : Align::End;
    return text;
}

// The one label of a bar whose interval runs past the top where bars are too many to carry
// values: the interval's reach, written down beside its arrow.
Label reachLabel(const BarWords& w, double key, double cap) {
    Label reach;
    reach.name = "interval-cut-value";
    reach.x = key;
    reach.y = cap;
    reach.points = 7;
    reach.horizontal = Align::Start;
    reach.upright = true;
    reach.vertical = Align::End; // turned: the text runs down, right of the arrow
    reach.padLeft = reach.padBottom = 3;
    reach.text = w.reach;
    return reach;
}

// The bars of one verdict, their whiskers, arrows and labels: one label a bar at most.
Series verdictBars(Chart& chart, const std::vector<const MetricComparison*>& metrics,
                   Verdict verdict, const std::string& name) {
    const double cap = chart.y.max;
    const auto clamp = [cap](double v) { return std::isfinite(v) ? std::min(v, cap) : cap; };
    const bool labelled = metrics.size() <= 16;
    Series bars;
    bars.kind = Series::Kind::Bars;
    bars.name = name;
    bars.barWidth = 0.6;
    bars.fill = verdictColour(verdict);
    bars.stroke.colour = darker(bars.fill);
    bars.errorName = name + " (95 % interval)";
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        const MetricComparison& m = *metrics[i];
        if (m.verdict != verdict)
            continue;
        const double key = static_cast<double>(i + 1);
        const double v = clamp(m.overhead * 100.0);
        const BarWords words = barWords(m, cap);
        bars.x.push_back(key);
        bars.y.push_back(v);
        // No interval below three runs a side: no whisker rather than a false one, and the
        // label says so.
        bars.errorMinus.push_back(
            m.interval ? std::max(0.0, v - clamp((m.interval->low - 1.0) * 100.0)) : none);
        const bool highCut = m.interval && !((m.interval->high - 1.0) * 100.0 < cap);
        bars.errorPlus.push_back(
            m.interval && !highCut ? std::max(0.0, (m.interval->high - 1.0) * 100.0 - v) : none);
        if (!(m.overhead * 100.0 < cap)) {
            // Cut at the top: the arrow ends the bar, and its one label gives all its figures.
            detail::cutBar(chart, chart.y, key, cap,
                           words.value + "  " + words.runs +
                               (words.reach.empty() ? "" : "\n" + words.reach),
                           metrics.size() > 8 ? 7 : 9);
            continue;
        }
        if (highCut)
            chart.arrows.push_back({"interval-cut", key, v, key, cap, "#202020"});
        if (labelled)
            chart.labels.push_back(valueLabel(words, key, v, chart.y, metrics.size()));
        else if (highCut)
            chart.labels.push_back(reachLabel(words, key, cap));
    }
    return bars;
}

} // namespace

Chart overhead(const Comparison& comparison) {
    Chart chart;
    const double viableTop = (comparison.thresholds.viableMax - 1.0) * 100.0;
    const double notViableBottom = (comparison.thresholds.notViableMin - 1.0) * 100.0;
    std::vector<const MetricComparison*> metrics;
    for (const auto& m : comparison.metrics)
        if (m.decisive)
            metrics.push_back(&m);
    const auto [bottom, top] = overheadRange(metrics, comparison.thresholds);
    chart.y.label = "overhead: % more time than the baseline";
    chart.y.min = bottom < 0 ? bottom - 5.0 : 0.0;
    chart.y.max = top;
    chart.y.grid = true;
    chart.y.zeroLine = "#404040";

    // Bands behind everything: overhead can never go below -100 % (ratio 0).
    chart.bands.push_back({"band-viable", -100.0, viableTop, verdictColour(Verdict::Viable), 45});
    chart.bands.push_back({"band-not-viable", notViableBottom, std::max(top * 10.0, 1000.0),
                           verdictColour(Verdict::NotViable), 45});
    const std::pair<Verdict, const char*> kinds[] = {{Verdict::Viable, "viable"},
                                                     {Verdict::Decision, "decision required"},
                                                     {Verdict::NotViable, "not viable"}};
    for (const auto& [verdict, name] : kinds)
        if (Series bars = verdictBars(chart, metrics, verdict, name); !bars.x.empty())
            chart.series.push_back(std::move(bars));

    const bool labelled = metrics.size() <= 16;
    std::vector<std::string> labels;
    for (const auto* m : metrics)
        labels.push_back(metricLabel(m->name) +
                         (labelled ? std::string()
                                   : " (n=" + std::to_string(m->baselineSamples) + "/" +
                                         std::to_string(m->candidateSamples) + ")"));
    detail::categoryAxis(chart.x, labels);
    chart.title = comparison.candidate + " against " + comparison.baseline + ": " +
                  std::string(verdictName(comparison.verdict));
    chart.legend = true;
    return chart;
}

} // namespace lb::chart
