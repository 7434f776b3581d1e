// The charts of a metric against fill level (chart_model.h, fillLevels): each layout's median at
// each level it was measured at, so a layout that wins empty and loses full shows it.
#include "engine/measure/fill_levels.h"
#include "reports/chart_model_internal.h"
#include "reports/display.h"

#include <algorithm>
#include <map>
#include <set>

namespace lb::chart {

std::vector<std::string> fillChartMetrics(const ReportData& data) {
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const auto& curve : data.fillCurves)
        for (const auto& level : curve.levels)
            for (const auto& m : level.comparison.metrics)
                if (m.decisive && seen.insert(m.name).second)
                    out.push_back(m.name);
    return out;
}

Chart fillLevels(const ReportData& data, const std::string& metric) {
    // Each layout's (level in %, median), the baseline's from every curve alike.
    std::map<std::string, std::map<double, double>> points;
    std::vector<std::string> order;
    Unit unit = Unit::Count;
    const auto add = [&](const std::string& layout, double level, double value) {
        if (!points.count(layout))
            order.push_back(layout);
        points[layout][level] = value;
    };
    for (const auto& curve : data.fillCurves)
        for (const auto& level : curve.levels) {
            const double at =
                level.permille == asBuiltPermille ? 0.0 : fillLevelOf(level.permille) * 100;
            for (const auto& m : level.comparison.metrics)
                if (m.name == metric) {
                    unit = m.unit;
                    add(curve.baseline, at, m.baselineMedian);
                    add(curve.candidate, at, m.candidateMedian);
                }
        }
    Chart chart;
    chart.title = metric + " at each fill level (median of the runs)";
    chart.x.label = "fill level (% of the usable space)";
    chart.x.grid = chart.y.grid = true;
    double largest = 0, right = 0;
    for (const auto& [layout, byLevel] : points)
        for (const auto& [at, value] : byLevel) {
            largest = std::max(largest, value);
            right = std::max(right, at);
        }
    const auto axis = display::axisUnit(largest, unit);
    chart.y.label = axis.label.empty() ? std::string(unitName(unit)) : axis.label;
    chart.x.min = 0;
    chart.x.max = right > 0 ? std::min(100.0, right * 1.1 + 2) : 1.0;
    chart.y.max = largest > 0 ? largest / axis.divisor * 1.15 : 1.0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        std::vector<double> x, y;
        for (const auto& [at, value] : points[order[i]]) {
            x.push_back(at);
            y.push_back(value / axis.divisor);
        }
        Series s =
            detail::line(order[i], Stroke{layoutColour(i), 255, 2}, std::move(x), std::move(y));
        s.marker = Marker::Circle;
        s.markerSize = 6;
        chart.series.push_back(std::move(s));
    }
    chart.legend = true;
    return chart;
}

} // namespace lb::chart
