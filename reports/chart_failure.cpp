// The chart of a fail-rebuild drill's course (chart_model.h, diskFailure): the load's bandwidth
// each second through healthy, degraded, rebuilding and whole again, the phases and the drill's
// moments marked.
#include "reports/chart_model_internal.h"
#include "reports/display.h"

#include <algorithm>
#include <array>

namespace lb::chart {

namespace {

constexpr std::array<std::pair<const char*, const char*>, 2> directions{
    {{"read", "#1f77b4"}, {"write", "#d62728"}}};

// The colour a moment's rule has: the failure red, the spare amber, whole again green.
std::string momentColour(const std::string& label) {
    if (label == "failed")
        return "#c0392b";
    if (label == "spare added")
        return "#d68910";
    return "#1e8449";
}

// "fio.drill-randrw.read.bw": the series fio's bandwidth log gives the drill's job.
std::string bwName(const char* direction) {
    std::string name = "fio.drill-randrw.";
    name += direction;
    name += ".bw";
    return name;
}

const lb::Series* seriesOf(const FailureDrillPhase& p, const std::string& name) {
    for (const auto& s : p.series)
        if (s.name == name)
            return &s;
    return nullptr;
}

// Each phase a line of its own per direction (no line across the moments between them), one of
// each direction in the legend; y divided by `divisor` (the axis unit).
void addPhaseLines(Chart& chart, const FailureDrill& drill, double divisor) {
    for (const auto& [dir, colour] : directions) {
        bool named = false;
        for (const auto& p : drill.phases) {
            const lb::Series* s = seriesOf(p, bwName(dir));
            if (!s || s->x.empty())
                continue;
            std::vector<double> x, y;
            for (std::size_t i = 0; i < s->x.size() && i < s->y.size(); ++i) {
                x.push_back(*p.at + s->x[i]);
                y.push_back(s->y[i] / divisor);
            }
            Series line = detail::line(std::string(dir) + (named ? " (" + p.phase + ")" : ""),
                                       Stroke{colour, 255, 2}, std::move(x), std::move(y));
            line.marker = Marker::Circle;
            line.markerSize = 4;
            line.inLegend = !named;
            named = true;
            chart.series.push_back(std::move(line));
        }
    }
}

// The phases named along the top, each at its start; the moments as rules, named below them.
void markCourse(Chart& chart, const FailureDrill& drill) {
    for (const auto& p : drill.phases) {
        chart.rules.push_back({"phase-start", *p.at, Stroke{"#808080", 160, 1, Dash::Dotted}});
        Label l;
        l.name = "phase";
        l.x = *p.at;
        l.y = chart.y.max;
        l.text = p.phase;
        l.horizontal = Align::Start;
        l.vertical = Align::Start;
        l.padLeft = 3;
        l.padTop = 2;
        chart.labels.push_back(std::move(l));
    }
    for (const auto& [at, label] : drillMoments(drill)) {
        chart.rules.push_back({"moment", at, Stroke{momentColour(label), 255, 1.5, Dash::Dashed}});
        Label l;
        l.name = "moment";
        l.x = at;
        l.y = chart.y.max * 0.9;
        l.text = label;
        l.points = 8;
        l.horizontal = Align::Start;
        l.vertical = Align::Start;
        l.padLeft = 3;
        l.background = "#ffffff";
        l.backgroundAlpha = 200;
        chart.labels.push_back(std::move(l));
    }
}

} // namespace

Chart diskFailure(const FailureDrill& drill) {
    Chart chart;
    chart.title = drill.layout + ": the load's bandwidth each second through the drill";
    chart.x.label = "seconds since the healthy load began";
    chart.x.grid = chart.y.grid = true;
    double largest = 0, right = 0;
    for (const auto& p : drill.phases)
        for (const auto& [dir, colour] : directions)
            if (const lb::Series* s = seriesOf(p, bwName(dir)))
                for (std::size_t i = 0; i < s->x.size() && i < s->y.size(); ++i) {
                    largest = std::max(largest, s->y[i]);
                    right = std::max(right, p.at.value_or(0) + s->x[i]);
                }
    for (const auto& [at, label] : drillMoments(drill))
        right = std::max(right, at);
    const auto axis = display::axisUnit(largest, Unit::BytesPerSecond);
    chart.y.label = "bandwidth (" + axis.label + ")";
    chart.x.max = right > 0 ? right * 1.04 : 1.0;
    chart.y.max = largest > 0 ? largest / axis.divisor * 1.3 : 1.0;
    const bool placed = std::all_of(drill.phases.begin(), drill.phases.end(),
                                    [](const FailureDrillPhase& p) { return p.at.has_value(); });
    if (largest <= 0 || !placed) {
        chart.title = drill.layout + ": no per-second logs of the drill's load (a drill before "
                                     "they were kept)";
        return chart;
    }
    addPhaseLines(chart, drill, axis.divisor);
    markCourse(chart, drill);
    chart.legend = true;
    return chart;
}

} // namespace lb::chart
