// The charts of metrics and capacity as values (see chart_model.h): grouped bars per layout,
// the overhead of a comparison with its bands, the capacity projection and the steady state.
#include "reports/chart_model.h"

#include "reports/chart_model_internal.h"
#include "reports/display.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <set>

namespace lb::chart {

namespace {

// Layout colours, in layout order (the baseline first): distinct, readable on white and in print.
const char* const layoutPalette[] = {"#1f77b4", "#ff7f0e", "#9467bd", "#17becf",
                                     "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"};

constexpr double none = std::numeric_limits<double>::quiet_NaN();

bool sameValues(const std::vector<double>& a, const std::vector<double>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](double x, double y) {
        return x == y || (std::isnan(x) && std::isnan(y));
    });
}

bool isBarMetric(const std::string& name) {
    static const char* const bonnie[] = {"bonnie.put_block", "bonnie.get_block", "bonnie.rewrite",
                                         "bonnie.seeks"};
    for (const char* b : bonnie)
        if (name == b)
            return true;
    for (const char* family : {"fio.", "iscsi.", "nfs."})
        if (name.rfind(family, 0) == 0) {
            const std::string stat = name.substr(name.rfind('.') + 1);
            return stat == "bw" || stat == "iops";
        }
    return false;
}

const MetricSamples* findSamples(const ReportData& data, const std::string& layout,
                                 const std::string& metric) {
    const auto it = data.samples.find(layout);
    if (it == data.samples.end())
        return nullptr;
    for (const auto& s : it->second.metrics)
        if (s.name == metric && !s.values.empty())
            return &s;
    return nullptr;
}

// Display scale and unit of a canonical unit, as reports/display.h shows them.
std::pair<double, std::string> displayUnit(Unit unit) {
    switch (unit) {
    case Unit::BytesPerSecond:
        return {1e-6, "MB/s"};
    case Unit::OpsPerSecond:
        return {1.0, "ops/s"};
    case Unit::Nanoseconds:
        return {1e-6, "ms"};
    case Unit::Seconds:
        return {1.0, "s"};
    case Unit::Percent:
        return {1.0, "%"};
    case Unit::Count:
        return {1.0, ""};
    }
    return {1.0, ""};
}

Unit unitOf(const std::string& metric) {
    const auto info = describeMetric(metric);
    return info ? info->unit : Unit::Count;
}

} // namespace

bool Series::operator==(const Series& o) const {
    return kind == o.kind && name == o.name && inLegend == o.inLegend && rightAxis == o.rightAxis &&
           sameValues(x, o.x) && sameValues(y, o.y) && stroke == o.stroke && fill == o.fill &&
           marker == o.marker && markerSize == o.markerSize && barWidth == o.barWidth &&
           grouped == o.grouped && groupIndex == o.groupIndex && groupSize == o.groupSize &&
           sameValues(errorMinus, o.errorMinus) && sameValues(errorPlus, o.errorPlus) &&
           errorName == o.errorName;
}

std::string verdictColour(Verdict v) {
    switch (v) {
    case Verdict::Viable:
        return "#2e7d32";
    case Verdict::Decision:
        return "#ef8f00";
    case Verdict::NotViable:
        return "#c62828";
    case Verdict::NoVerdict:
        return "#616161";
    }
    return "#000000";
}

std::string layoutColour(std::size_t index) {
    return layoutPalette[index % std::size(layoutPalette)];
}

std::string darker(const std::string& colour) {
    // Brightness (HSV's value) at 100/130 with hue and saturation kept: each channel scaled.
    unsigned rgb = 0;
    if (colour.size() != 7 || std::sscanf(colour.c_str() + 1, "%6x", &rgb) != 1)
        return colour;
    char out[8];
    const auto scaled = [rgb](int shift) {
        return static_cast<unsigned>(std::lround(((rgb >> shift) & 0xffU) * 100.0 / 130.0));
    };
    std::snprintf(out, sizeof out, "#%02x%02x%02x", scaled(16), scaled(8), scaled(0));
    return out;
}

std::vector<std::string> barMetrics(const ReportData& data) {
    // Every metric that decides a comparison is drawn, whatever its kind (a p99 latency, a
    // bonnie++ file operation): a chart that leaves out what decided would look surer than it is.
    std::set<std::string> deciding;
    for (const auto& c : data.comparisons)
        for (const auto& m : c.metrics)
            if (m.decisive)
                deciding.insert(m.name);
    std::vector<std::string> names;
    for (const auto& [layout, samples] : data.samples)
        for (const auto& s : samples.metrics)
            if ((isBarMetric(s.name) || deciding.count(s.name)) && !s.values.empty())
                names.push_back(s.name);
    return detail::sortedNames(std::move(names));
}

std::string metricLabel(const std::string& name) {
    std::string label = name;
    for (const char* prefix : {"bonnie.", "fio."})
        if (label.rfind(prefix, 0) == 0) {
            label = label.substr(std::char_traits<char>::length(prefix));
            break;
        }
    if (name.rfind("bonnie.", 0) != 0)
        std::replace(label.begin(), label.end(), '.', ' ');
    return label;
}

namespace detail {

std::vector<std::string> sortedNames(std::vector<std::string> names) {
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

void categoryAxis(Axis& axis, const std::vector<std::string>& labels) {
    axis.ticks.clear();
    for (std::size_t i = 0; i < labels.size(); ++i)
        axis.ticks.push_back({static_cast<double>(i + 1), labels[i]});
    axis.tickKind = Axis::Ticks::Given;
    axis.categories = true;
    // Upright when there are more than a few, so long names neither overlap nor run off.
    axis.uprightLabels = labels.size() > 4;
    axis.grid = false;
    axis.min = 0.4;
    axis.max = static_cast<double>(labels.size()) + 0.6;
}

Series line(std::string name, Stroke stroke, std::vector<double> x, std::vector<double> y) {
    Series s;
    s.kind = Series::Kind::Line;
    s.name = std::move(name);
    s.stroke = std::move(stroke);
    s.x = std::move(x);
    s.y = std::move(y);
    return s;
}

double costCap(const Thresholds& t) {
    return 1.0 + 3.0 * std::max(t.notViableMin - 1.0, t.viableMax - 1.0);
}

void cutBar(Chart& chart, const Axis& axis, double x, double cap, std::string text, double points) {
    const double tail = cap - cutArrowShare * (axis.max - axis.min);
    chart.arrows.push_back({"bar-cut", x, tail, x, cap, "#202020"});
    Label label;
    label.name = "bar-cut-value";
    label.x = x;
    label.y = tail;
    label.text = std::move(text);
    label.points = points;
    label.upright = true; // turned: Start is the arrow's tail, the text runs down the bar
    label.horizontal = Align::Start;
    label.vertical = Align::Centre;
    label.background = "#ffffff";
    label.backgroundAlpha = 230;
    label.padLeft = 3;
    label.padRight = 2;
    chart.labels.push_back(std::move(label));
}

} // namespace detail

int pictureHeight(int height, double around) {
    const double plot = static_cast<double>(height) - around;
    const double wanted = std::max(smallestPlot, around * leastPlotShare / (1.0 - leastPlotShare));
    return height + static_cast<int>(std::ceil(std::max(0.0, wanted - plot)));
}

// ---- grouped bars ------------------------------------------------------------------------------

namespace {

// What one bar of the grouped chart stands for, in the chart's units: the median of a layout's
// runs and its least and greatest run, with how many runs.
struct BarFigures {
    double mid = 0, lo = 0, hi = 0;
    std::size_t runs = 0;
};

// A layout's figures of a metric in display units, or as cost ratios against the baseline's
// median: the engine's costRatio of the medians (the comparison's ratio), and of each run for
// its range. None where the baseline has no median above zero or the catalog does not know
// which way the metric is better.
std::optional<BarFigures> barFigures(const ReportData& data, const MetricSamples& s,
                                     bool costRatios) {
    const auto [least, greatest] = std::minmax_element(s.values.begin(), s.values.end());
    BarFigures f;
    f.runs = s.values.size();
    if (!costRatios) {
        const double scale = displayUnit(unitOf(s.name)).first;
        f.mid = median(s.values) * scale;
        f.lo = *least * scale;
        f.hi = *greatest * scale;
        return f;
    }
    const MetricSamples* b = findSamples(data, data.baseline, s.name);
    const auto info = describeMetric(s.name);
    const double bm = b ? median(b->values) : 0.0;
    if (!(bm > 0) || !info)
        return std::nullopt;
    f.mid = costRatio(bm, median(s.values), info->better);
    const double a = costRatio(bm, *least, info->better);
    const double z = costRatio(bm, *greatest, info->better);
    f.lo = std::min(a, z);
    f.hi = std::max(a, z);
    return f;
}

// Where a grouped chart's value axis stops and its bars are cut (infinity: never), and its top.
struct ValueRange {
    double cap = std::numeric_limits<double>::infinity();
    double top = 0;
};

ValueRange valueRange(const ReportData& data, const std::vector<std::string>& metrics,
                      bool costRatios) {
    ValueRange r;
    if (costRatios) {
        r.cap = detail::costCap(data.thresholds);
        // The not-viable band in sight, as on the overhead chart.
        r.top = (1.0 + (data.thresholds.notViableMin - 1.0) * 1.25) / 1.15;
    }
    for (const auto& layout : data.layouts)
        for (const auto& metric : metrics)
            if (const MetricSamples* s = findSamples(data, layout.name, metric))
                if (const auto f = barFigures(data, *s, costRatios))
                    for (const double v : {f->mid, f->hi})
                        if (!std::isnan(v))
                            r.top = std::max(r.top, std::min(v, r.cap));
    return r;
}

// One layout's bars over `metrics`, each with one label: its run count above its whisker, or,
// cut at the range's cap, its value down the bar from the cut's arrow.
Series layoutBars(const ReportData& data, const std::vector<std::string>& metrics, bool costRatios,
                  std::size_t li, const ValueRange& range, Chart& chart) {
    const ReportLayout& layout = data.layouts[li];
    const std::size_t groupSize = std::max<std::size_t>(1, data.layouts.size());
    Series bars;
    bars.kind = Series::Kind::Bars;
    bars.name = layout.name;
    bars.barWidth = 0.8 / static_cast<double>(groupSize);
    bars.grouped = true;
    bars.groupIndex = li;
    bars.groupSize = groupSize;
    bars.fill = layoutColour(li);
    bars.stroke.colour = darker(bars.fill);
    bars.errorName = layout.name + " (min–max)";
    const double groupOffset = -0.5 * bars.barWidth * static_cast<double>(data.layouts.size() - 1);
    const double countPoints = metrics.size() * data.layouts.size() > 24 ? 6 : 7;
    for (std::size_t k = 0; k < metrics.size(); ++k) {
        const MetricSamples* s = findSamples(data, layout.name, metrics[k]);
        const auto f = s ? barFigures(data, *s, costRatios) : std::nullopt;
        if (!f)
            continue;
        const double key = static_cast<double>(k + 1);
        const double at = key + groupOffset + bars.barWidth * static_cast<double>(li);
        const std::string runs = "n=" + std::to_string(f->runs);
        const bool cut = !(f->mid < range.cap);
        bars.x.push_back(key);
        bars.y.push_back(cut ? range.cap : f->mid);
        if (cut) {
            // No whisker: the arrow says the bar runs on, its label how far.
            bars.errorMinus.push_back(none);
            bars.errorPlus.push_back(none);
            detail::cutBar(chart, chart.y, at, range.cap,
                           (std::isfinite(f->mid) ? display::ratio(f->mid) : std::string("inf")) +
                               "  " + runs,
                           countPoints);
            continue;
        }
        // One run has no spread: no whisker rather than a flat one. A range that runs past the
        // cut ends there without its cap.
        const bool spread = f->runs > 1;
        const double hi = std::min(f->hi, range.cap);
        bars.errorMinus.push_back(spread ? f->mid - f->lo : none);
        bars.errorPlus.push_back(spread && f->hi < range.cap ? f->hi - f->mid : none);
        if (spread && !(f->hi < range.cap))
            chart.arrows.push_back({"range-cut", at, f->mid, at, range.cap, "#202020"});
        Label count;
        count.name = "run-count";
        count.x = at;
        count.y = hi;
        count.points = countPoints;
        count.horizontal = Align::Centre;
        count.vertical = Align::End;
        count.padBottom = 2;
        count.text = runs;
        chart.labels.push_back(std::move(count));
    }
    return bars;
}

} // namespace

Chart groupedBars(const ReportData& data, const std::vector<std::string>& metrics,
                  bool costRatios) {
    Chart chart;
    std::vector<std::string> labels, units;
    for (const auto& m : metrics) {
        labels.push_back(metricLabel(m));
        const std::string unit = displayUnit(unitOf(m)).second;
        if (std::find(units.begin(), units.end(), unit) == units.end())
            units.push_back(unit);
    }
    const ValueRange range = valueRange(data, metrics, costRatios);
    chart.y.min = 0;
    chart.y.max = range.top > 0 ? range.top * 1.15 : 1.0;
    chart.y.grid = true;
    if (costRatios) {
        const Thresholds& t = data.thresholds;
        chart.bands.push_back({"band-viable", 0, t.viableMax, verdictColour(Verdict::Viable), 45});
        chart.bands.push_back({"band-not-viable", t.notViableMin, std::max(chart.y.max, 1.0) * 10,
                               verdictColour(Verdict::NotViable), 45});
    }
    for (std::size_t li = 0; li < data.layouts.size(); ++li)
        chart.series.push_back(layoutBars(data, metrics, costRatios, li, range, chart));
    detail::categoryAxis(chart.x, labels);
    std::string unitLabel;
    for (const auto& u : units)
        unitLabel += (unitLabel.empty() ? "" : " · ") + u;
    chart.y.label =
        costRatios ? "cost ratio: time per unit of work over the baseline's" : unitLabel;
    chart.title = costRatios ? "Cost of each layout against " + data.baseline +
                                   " as the verdicts weigh it, higher is worse for every metric "
                                   "(bars: medians, whiskers: min–max, n runs)"
                             : "Median per layout in " + unitLabel + " (bars: min–max, n runs)";
    chart.legend = true;
    return chart;
}

// ---- projection and steady state ---------------------------------------------------------------

namespace {

// The most bytes a projection chart shows: usable, used and the expansion path's capacity.
double projectionTop(const LayoutProjection& p) {
    double top =
        std::max(static_cast<double>(p.ceilingBytes), static_cast<double>(p.capacity.usableBytes));
    for (const auto& m : p.months)
        top = std::max({top, static_cast<double>(m.usableBytes), static_cast<double>(m.usedBytes)});
    for (const auto& e : p.expansions)
        if (e.keepsUp)
            for (const auto& step : e.schedule)
                top = std::max(top, static_cast<double>(step.effectiveUsableBytes));
    return top;
}

// The usable capacity month by month along an expansion path's steps.
std::vector<double> expandedCapacity(const LayoutProjection& p, const ExpansionPath& path,
                                     double unit) {
    std::vector<double> out;
    std::size_t next = 0;
    double current = static_cast<double>(p.capacity.usableBytes) / unit;
    for (const auto& m : p.months) {
        while (next < path.schedule.size() && path.schedule[next].month <= m.month) {
            current = static_cast<double>(path.schedule[next].effectiveUsableBytes) / unit;
            ++next;
        }
        out.push_back(current);
    }
    return out;
}

} // namespace

const ExpansionPath* drawnExpansion(const LayoutProjection& p) {
    const auto drawn = [](const ExpansionPath& e) { return e.keepsUp && !e.schedule.empty(); };
    if (p.cost && p.cost->expansion)
        for (const auto& e : p.expansions)
            if (e.kind == *p.cost->expansion && drawn(e))
                return &e;
    const auto first = std::find_if(p.expansions.begin(), p.expansions.end(), drawn);
    return first == p.expansions.end() ? nullptr : &*first;
}

Chart projection(const LayoutProjection& p, bool binary) {
    Chart chart;
    const auto [unit, prefix] =
        binary ? display::binaryPrefix(projectionTop(p)) : display::decimalPrefix(projectionTop(p));
    std::vector<double> months, usable, used, ceiling;
    for (const auto& m : p.months) {
        months.push_back(static_cast<double>(m.month));
        usable.push_back(static_cast<double>(m.usableBytes) / unit);
        used.push_back(static_cast<double>(m.usedBytes) / unit);
        ceiling.push_back(static_cast<double>(p.ceilingBytes) / unit);
    }
    double top = 0;
    for (const auto* values : {&usable, &used})
        for (const double v : *values)
            top = std::max(top, v);
    Series usableLine = detail::line("usable", {"#1f77b4", 255, 2}, months, usable);
    usableLine.kind = Series::Kind::StepLine;
    chart.series.push_back(std::move(usableLine));
    chart.series.push_back(detail::line("used", {"#ff7f0e", 255, 2}, months, used));
    chart.series.push_back(
        detail::line("ceiling", {"#d62728", 255, 1.5, Dash::Dashed}, months, ceiling));
    if (const ExpansionPath* path = drawnExpansion(p)) {
        std::vector<double> expanded = expandedCapacity(p, *path, unit);
        for (const double v : expanded)
            top = std::max(top, v);
        Series grown =
            detail::line("with " + std::string(expansionKindName(path->kind)),
                         {"#2ca02c", 255, 1.5, Dash::DashDotted}, months, std::move(expanded));
        grown.kind = Series::Kind::StepLine;
        chart.series.push_back(std::move(grown));
        for (const auto& step : path->schedule)
            chart.rules.push_back({"expansion-step",
                                   static_cast<double>(step.month),
                                   {"#2ca02c", 255, 1, Dash::Dotted}});
    }
    chart.x.label = "month";
    chart.x.grid = true;
    chart.y.label = prefix.empty() ? std::string("bytes") : prefix + "B";
    chart.x.min = 0;
    chart.x.max = months.empty() ? 1.0 : std::max(1.0, months.back());
    chart.y.min = 0;
    chart.y.max = top > 0 ? top * 1.1 : 1.0;
    chart.y.grid = true;
    chart.title = p.name + ": " +
                  (p.ceilingMonth ? "ceiling passed in month " + std::to_string(*p.ceilingMonth)
                                  : std::string("ceiling not passed"));
    chart.legend = true;
    return chart;
}

Chart steadyState(const SteadyStateSeries& series) {
    Chart chart;
    const auto& c = series.check;
    std::vector<double> x;
    for (std::size_t i = 0; i < series.rounds.size(); ++i)
        x.push_back(static_cast<double>(i + 1));
    Series tracked = detail::line("tracked", {"#1f77b4", 255, 2}, x, series.rounds);
    tracked.marker = Marker::Circle;
    tracked.markerSize = 5;
    chart.series.push_back(std::move(tracked));
    double top = 0;
    for (const double v : series.rounds)
        top = std::max(top, v);
    if (c.windowRounds > 0) {
        const double first = static_cast<double>(c.windowStart + 1);
        const double last = static_cast<double>(c.windowStart + c.windowRounds);
        const auto flat = [&](const char* name, double from, double to, Stroke stroke) {
            chart.series.push_back(
                detail::line(name, std::move(stroke), {first, last}, {from, to}));
            top = std::max({top, from, to});
        };
        flat("average", c.average, c.average, {"#2ca02c", 255, 1.5});
        flat("110 % of average", 1.1 * c.average, 1.1 * c.average,
             {"#2ca02c", 255, 1, Dash::Dotted});
        flat("90 % of average", 0.9 * c.average, 0.9 * c.average,
             {"#2ca02c", 255, 1, Dash::Dotted});
        // The fitted line passes through the window's average at its middle.
        const double half = static_cast<double>(c.windowRounds - 1) / 2.0;
        flat("slope", c.average - c.slope * half, c.average + c.slope * half,
             {"#ff7f0e", 255, 1.5, Dash::Dashed});
    }
    chart.x.label = "round";
    chart.x.grid = true;
    chart.y.label = series.tracked;
    chart.x.min = 0.5;
    chart.x.max = std::max(1.0, static_cast<double>(series.rounds.size())) + 0.5;
    chart.y.min = 0;
    chart.y.max = top > 0 ? top * 1.15 : 1.0;
    chart.y.grid = true;
    chart.title = series.workload + " on " + series.layout + ": " +
                  (c.reached ? "steady state over rounds " + std::to_string(c.windowStart + 1) +
                                   "-" + std::to_string(c.windowStart + c.windowRounds)
                             : std::string("not at steady state"));
    chart.legend = true;
    return chart;
}

} // namespace lb::chart
