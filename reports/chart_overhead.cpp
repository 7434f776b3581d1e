// The overhead chart of one comparison as a value (see chart_model.h): a bar per decisive metric
// coloured by its verdict, its 95 % interval, the viable and not-viable bands, and the labels that
// keep it honest (runs a side, "no interval", bars and intervals cut at the top).
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

// The value axis: it shows the not-viable band and stops at three times its start, beyond which
// the exact size no longer matters, and a 3000 % bar would flatten every other one. Longer bars
// (and infinite ones, from a zero median) stop at the top; their labels keep the true value.
std::pair<double, double> overheadRange(const std::vector<const MetricComparison*>& metrics,
                                        const Thresholds& t) {
    const double viableTop = (t.viableMax - 1.0) * 100.0;
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
    top = std::min(top, std::max(notViableBottom * 3.0, viableTop * 3.0));
    return {bottom, top};
}

// An interval that runs past the top ends there in an arrow, with its value beside it: written
// down the arrow where more than eight bars stand side by side, so that neighbours stay apart.
void cutInterval(Chart& chart, double key, double from, double cap, double high, std::size_t bars) {
    chart.arrows.push_back({"interval-cut", key, from, key, cap, "#202020"});
    Label reach;
    reach.name = "interval-cut-value";
    reach.x = key;
    reach.y = cap;
    reach.points = 7;
    reach.horizontal = Align::Start;
    if (bars > 8) {
        reach.upright = true;
        reach.vertical = Align::End; // turned: the text runs down, right of the arrow
        reach.padLeft = reach.padBottom = 3;
    } else {
        reach.vertical = Align::Start;
        reach.padLeft = 4;
        reach.padTop = 1;
    }
    reach.text = std::isfinite(high) ? "to " + signedPercent(high) : std::string("to inf");
    chart.labels.push_back(std::move(reach));
}

// A bar's value and the runs behind it, and whether there is an interval at all: a line each,
// so that sixteen labels side by side stay apart. A bar cut at the top says how long it really
// is, written down the bar.
Label valueLabel(const MetricComparison& m, double key, double v, bool clamped, std::size_t bars) {
    Label text;
    text.x = key;
    text.y = v;
    text.points = bars > 8 ? 7 : 9;
    text.background = "#ffffff";
    const std::string runs =
        "n=" + std::to_string(m.baselineSamples) + "/" + std::to_string(m.candidateSamples);
    const std::string value =
        std::isfinite(m.overhead) ? signedPercent(m.overhead * 100.0) : std::string("inf");
    if (clamped) {
        text.upright = true;
        text.horizontal = Align::Start;
        text.vertical = Align::Centre;
        text.backgroundAlpha = 230;
        text.padLeft = text.padRight = 2;
        text.text = value + "  " + runs + (m.interval ? "" : ", no interval");
    } else {
        text.horizontal = Align::Centre;
        text.vertical = v >= 0 ? Align::End : Align::Start;
        text.padLeft = text.padTop = text.padRight = text.padBottom = 1;
        // Readable over the whisker that runs through it.
        text.backgroundAlpha = 200;
        text.text = value + "\n" + runs + (m.interval ? "" : "\nno interval");
    }
    return text;
}

// The bars of one verdict, their whiskers and labels.
Series verdictBars(Chart& chart, const std::vector<const MetricComparison*>& metrics,
                   Verdict verdict, const std::string& name, double cap) {
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
        bars.x.push_back(key);
        bars.y.push_back(v);
        // No interval below three runs a side: no whisker rather than a false one, and the
        // label says so.
        bars.errorMinus.push_back(
            m.interval ? std::max(0.0, v - clamp((m.interval->low - 1.0) * 100.0)) : none);
        const double high = m.interval ? (m.interval->high - 1.0) * 100.0 : 0.0;
        const bool highCut = m.interval && !(high < cap);
        bars.errorPlus.push_back(m.interval && !highCut ? std::max(0.0, high - v) : none);
        if (highCut)
            cutInterval(chart, key, v, cap, high, metrics.size());
        const bool clamped = !(m.overhead * 100.0 < cap);
        if (labelled || clamped)
            chart.labels.push_back(valueLabel(m, key, v, clamped, metrics.size()));
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

    // Bands behind everything: overhead can never go below -100 % (ratio 0).
    chart.bands.push_back({"band-viable", -100.0, viableTop, verdictColour(Verdict::Viable), 45});
    chart.bands.push_back({"band-not-viable", notViableBottom, std::max(top * 10.0, 1000.0),
                           verdictColour(Verdict::NotViable), 45});
    const std::pair<Verdict, const char*> kinds[] = {{Verdict::Viable, "viable"},
                                                     {Verdict::Decision, "decision required"},
                                                     {Verdict::NotViable, "not viable"}};
    for (const auto& [verdict, name] : kinds)
        if (Series bars = verdictBars(chart, metrics, verdict, name, top); !bars.x.empty())
            chart.series.push_back(std::move(bars));

    const bool labelled = metrics.size() <= 16;
    std::vector<std::string> labels;
    for (const auto* m : metrics)
        labels.push_back(metricLabel(m->name) +
                         (labelled ? std::string()
                                   : " (n=" + std::to_string(m->baselineSamples) + "/" +
                                         std::to_string(m->candidateSamples) + ")"));
    detail::categoryAxis(chart.x, labels);
    chart.y.label = "overhead: % more time than the baseline";
    chart.y.min = bottom < 0 ? bottom - 5.0 : 0.0;
    chart.y.max = top;
    chart.y.grid = true;
    chart.y.zeroLine = "#404040";
    chart.title = comparison.candidate + " against " + comparison.baseline + ": " +
                  std::string(verdictName(comparison.verdict));
    chart.legend = true;
    return chart;
}

} // namespace lb::chart
