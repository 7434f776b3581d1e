// The charts of a run's course as values (see chart_model.h): series over time and latency
// percentile curves (each layout's median iteration solid, the others faint), and queue-depth
// sweeps with IOPS and p99 latency on two value axes.
#include "engine/measure/series.h"
#include "reports/chart_model.h"
#include "reports/chart_model_internal.h"
#include "reports/display.h"

#include <algorithm>
#include <functional>

namespace lb::chart {

namespace {

// "fio.seq-read-1m.read.bw" -> "bandwidth"; the quantity a series' axis shows.
std::string seriesQuantity(const std::string& name) {
    const std::string stat = name.substr(name.rfind('.') + 1);
    if (stat == "bw")
        return "bandwidth";
    if (stat == "iops")
        return "IOPS";
    if (stat == "lat_mean")
        return "mean total latency";
    if (stat == "lat_curve" || stat == "clat_curve")
        return stat == "lat_curve" ? "total latency" : "completion latency";
    return stat;
}

std::string axisLabel(const std::string& quantity, const display::AxisUnit& unit) {
    return unit.label.empty() ? quantity : quantity + " (" + unit.label + ")";
}

// A layout's runs of one series (nullptr for a run without it).
std::vector<const lb::Series*> runsOf(const std::vector<RunSeries>& runs, const std::string& name) {
    std::vector<const lb::Series*> out;
    for (const auto& r : runs) {
        const auto it = std::find_if(r.series.begin(), r.series.end(),
                                     [&](const lb::Series& s) { return s.name == name; });
        out.push_back(it == r.series.end() ? nullptr : &*it);
    }
    return out;
}

// The names of the series whose x is in `xUnit`, sorted, once each.
std::vector<std::string> namesWithX(const ReportData& data, Unit xUnit) {
    std::vector<std::string> names;
    for (const auto& [layout, runs] : data.series)
        for (const auto& r : runs)
            for (const auto& s : r.series)
                if (s.xUnit == xUnit)
                    names.push_back(s.name);
    return detail::sortedNames(std::move(names));
}

// One layout's runs of a series and its median one, with the layout's colour.
struct LayoutRuns {
    std::size_t colour = 0;
    std::string layout;
    std::vector<const lb::Series*> runs; // nullptr: the run lacks the series
    const std::vector<RunSeries>* all = nullptr;
    std::size_t median = 0;
};

// The layouts (in order) with runs of the series; the largest value and unit of them all.
std::vector<LayoutRuns> layoutRuns(const ReportData& data, const std::string& name, double& largest,
                                   Unit& unit) {
    std::vector<LayoutRuns> out;
    for (std::size_t li = 0; li < data.layouts.size(); ++li) {
        const auto it = data.series.find(data.layouts[li].name);
        if (it == data.series.end())
            continue;
        auto runs = runsOf(it->second, name);
        const auto middle = medianRun(runs);
        if (!middle)
            continue;
        for (const lb::Series* s : runs)
            if (s) {
                unit = s->unit;
                for (const double v : s->y)
                    largest = std::max(largest, v);
            }
        out.push_back({li, data.layouts[li].name, std::move(runs), &it->second, *middle});
    }
    return out;
}

// Each layout's runs as lines at (key(x), y / divisor): the other iterations first, faint and
// out of the legend, the median ones over them, named after the layout.
void drawRuns(Chart& chart, const std::vector<LayoutRuns>& drawn,
              const std::function<double(double)>& key, double divisor) {
    const auto points = [&](const lb::Series& s, std::string name, Stroke stroke) {
        std::vector<double> x, y;
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            x.push_back(key(s.x[i]));
            y.push_back(s.y[i] / divisor);
        }
        Series line = detail::line(std::move(name), std::move(stroke), std::move(x), std::move(y));
        // A run of a second or two has a point or two: marked, or a single one would not show.
        if (line.x.size() < 3) {
            line.marker = Marker::Circle;
            line.markerSize = 5;
        }
        return line;
    };
    for (const auto& d : drawn)
        for (std::size_t r = 0; r < d.runs.size(); ++r) {
            if (!d.runs[r] || r == d.median)
                continue;
            Series faint =
                points(*d.runs[r], d.layout + " iteration " + std::to_string((*d.all)[r].iteration),
                       {layoutColour(d.colour), 70, 1});
            faint.inLegend = false;
            chart.series.push_back(std::move(faint));
        }
    for (const auto& d : drawn)
        chart.series.push_back(
            points(*d.runs[d.median], d.layout, {layoutColour(d.colour), 255, 2}));
}

} // namespace

double nines(double percent) {
    return 1.0 / (1.0 - std::min(percent, 99.9999) / 100.0);
}

std::vector<std::string> timeSeriesNames(const ReportData& data) {
    return namesWithX(data, Unit::Seconds);
}

std::vector<std::string> percentileCurveNames(const ReportData& data) {
    return namesWithX(data, Unit::Percent);
}

Chart timeSeries(const ReportData& data, const std::string& name) {
    Chart chart;
    double largest = 0;
    Unit unit = Unit::Count;
    const auto drawn = layoutRuns(data, name, largest, unit);
    double right = 0;
    for (const auto& d : drawn)
        for (const lb::Series* s : d.runs)
            if (s && !s->x.empty())
                right = std::max(right, *std::max_element(s->x.begin(), s->x.end()));
    const auto axis = display::axisUnit(largest, unit);
    chart.x.label = "seconds since the job started";
    chart.x.grid = true;
    chart.y.label = axisLabel(seriesQuantity(name), axis);
    chart.y.grid = true;
    chart.x.max = right > 0 ? right * 1.02 : 1.0;
    chart.y.max = largest > 0 ? largest / axis.divisor * 1.1 : 1.0;
    if (drawn.empty()) {
        chart.title = metricLabel(name) + ": no per-interval logs (imported results, job files "
                                          "and runs on exports or clients have none)";
        return chart;
    }
    drawRuns(
        chart, drawn, [](double x) { return x; }, axis.divisor);
    chart.title = metricLabel(name) + " over time: the median iteration of each layout, the "
                                      "others faint";
    chart.legend = true;
    return chart;
}

Chart percentiles(const ReportData& data, const std::string& name) {
    Chart chart;
    double largest = 0, smallest = 0, deepest = 2;
    Unit unit = Unit::Nanoseconds;
    const auto drawn = layoutRuns(data, name, largest, unit);
    for (const auto& d : drawn)
        for (const lb::Series* s : d.runs)
            if (s)
                for (std::size_t i = 0; i < s->x.size() && i < s->y.size(); ++i) {
                    deepest = std::max(deepest, nines(s->x[i]));
                    if (s->y[i] > 0 && (smallest == 0 || s->y[i] < smallest))
                        smallest = s->y[i];
                }
    const auto axis = display::axisUnit(largest, unit);
    const bool total = name.ends_with(".lat_curve");
    chart.x.label = "percentile of I/Os (at or below the latency)";
    chart.y.label =
        axisLabel(total ? "total latency" : "completion latency", axis) + ", logarithmic";
    // Latency spans orders of magnitude: both axes logarithmic, the percentile as its nines.
    chart.x.logarithmic = chart.y.logarithmic = true;
    chart.x.tickKind = Axis::Ticks::Given;
    const std::pair<double, const char*> marks[] = {
        {0, "0"},       {50, "50"},       {90, "90"},         {99, "99"},
        {99.9, "99.9"}, {99.99, "99.99"}, {99.999, "99.999"}, {99.9999, "100"}};
    for (const auto& [percent, label] : marks)
        if (nines(percent) <= deepest * 1.001)
            chart.x.ticks.push_back({nines(percent), label});
    chart.y.tickKind = Axis::Ticks::Powers;
    chart.x.grid = chart.y.grid = true;
    chart.x.min = 1;
    chart.x.max = deepest * 1.2;
    chart.y.min = smallest > 0 ? smallest / axis.divisor / 1.5 : 0.1;
    chart.y.max = largest > 0 ? largest / axis.divisor * 1.5 : 1.0;
    if (drawn.empty()) {
        chart.title = metricLabel(name) + ": no latency histogram (fio's json+ output has one)";
        return chart;
    }
    drawRuns(chart, drawn, nines, axis.divisor);
    chart.title = metricLabel(name) + ": latency by percentile, the median iteration of each "
                                      "layout, the others faint";
    chart.legend = true;
    return chart;
}

std::vector<std::pair<std::string, std::string>> sweepKeys(const ReportData& data) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [layout, samples] : data.samples)
        for (const auto& c : queueDepthSweeps(samples.metrics))
            out.emplace_back(c.family, c.direction);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

namespace {

struct SweepOf {
    std::size_t colour;
    std::string layout;
    SweepCurve curve;
};

// A layout's IOPS (left axis) and p99 latency (right axis) against the queue depth.
void sweepLines(Chart& chart, const SweepOf& c, const display::AxisUnit& iopsAxis,
                const display::AxisUnit& latencyAxis, const std::string& latency) {
    std::vector<double> depth, iops, depthLat, p99;
    for (const auto& p : c.curve.points) {
        if (p.iops) {
            depth.push_back(p.depth);
            iops.push_back(*p.iops / iopsAxis.divisor);
        }
        if (p.p99Ns) {
            depthLat.push_back(p.depth);
            p99.push_back(*p.p99Ns / latencyAxis.divisor);
        }
    }
    const std::string colour = layoutColour(c.colour);
    Series iopsLine = detail::line(c.layout + " IOPS", {colour, 255, 2}, depth, iops);
    iopsLine.marker = Marker::Circle;
    iopsLine.markerSize = 6;
    Series p99Line =
        detail::line(c.layout + " " + latency, {colour, 255, 1.5, Dash::Dashed}, depthLat, p99);
    p99Line.rightAxis = true;
    p99Line.marker = Marker::Square;
    p99Line.markerSize = 5;
    chart.series.push_back(std::move(iopsLine));
    chart.series.push_back(std::move(p99Line));
}

} // namespace

Chart sweep(const ReportData& data, const std::string& family, const std::string& direction) {
    Chart chart;
    std::vector<SweepOf> curves;
    double topIops = 0, topLatency = 0;
    int deepest = 1;
    bool completionOnly = false;
    for (std::size_t li = 0; li < data.layouts.size(); ++li) {
        const auto it = data.samples.find(data.layouts[li].name);
        if (it == data.samples.end())
            continue;
        for (auto& c : queueDepthSweeps(it->second.metrics)) {
            if (c.family != family || c.direction != direction)
                continue;
            for (const auto& p : c.points) {
                topIops = std::max(topIops, p.iops.value_or(0));
                topLatency = std::max(topLatency, p.p99Ns.value_or(0));
                deepest = std::max(deepest, p.depth);
            }
            completionOnly = completionOnly || c.p99Metric == "clat_p99";
            curves.push_back({li, data.layouts[li].name, std::move(c)});
        }
    }
    const auto iopsAxis = display::axisUnit(topIops, Unit::OpsPerSecond);
    const auto latencyAxis = display::axisUnit(topLatency, Unit::Nanoseconds);
    const std::string latency = completionOnly ? "p99 completion latency" : "p99 total latency";
    for (const auto& c : curves)
        sweepLines(chart, c, iopsAxis, latencyAxis, latency);
    // Depths double: a base-2 logarithmic axis spaces them evenly.
    chart.x.logarithmic = true;
    chart.x.tickKind = Axis::Ticks::Given;
    for (int d = 1; d <= std::max(deepest, 1); d *= 2)
        chart.x.ticks.push_back({static_cast<double>(d), std::to_string(d)});
    chart.x.label = "queue depth (iodepth)";
    chart.x.grid = true;
    chart.x.min = 0.8;
    chart.x.max = deepest * 1.25;
    chart.y.label = axisLabel("IOPS, solid", iopsAxis);
    chart.y.max = topIops > 0 ? topIops / iopsAxis.divisor * 1.1 : 1.0;
    chart.y.grid = true;
    chart.y2.visible = true;
    chart.y2.label = axisLabel(latency + ", dashed", latencyAxis);
    chart.y2.max = topLatency > 0 ? topLatency / latencyAxis.divisor * 1.1 : 1.0;
    const std::string what = family + " " + direction;
    chart.title = curves.empty() ? what + ": no queue-depth sweep (the qd-sweep preset)"
                                 : what + ": IOPS and " + latency + " against queue depth";
    chart.legend = !curves.empty();
    return chart;
}

} // namespace lb::chart
