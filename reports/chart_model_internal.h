// What the chart builders of reports/chart_model*.cpp share; private to them.
#pragma once

#include "reports/chart_model.h"

#include <string>
#include <vector>

namespace lb::chart::detail {

// Names, sorted and each once, as a chart's list of choices.
std::vector<std::string> sortedNames(std::vector<std::string> names);

// An axis of categories (metrics) at 1, 2, ... labelled `labels`.
void categoryAxis(Axis& axis, const std::vector<std::string>& labels);

// A line series through (x, y).
Series line(std::string name, Stroke stroke, std::vector<double> x, std::vector<double> y);

// The cost ratio at which a chart's value axis stops: three times the not-viable band's start
// above 1 (4 at the default 2.0). Beyond it the exact size no longer matters, and a 30 times
// longer bar would flatten every other one.
double costCap(const Thresholds& thresholds);

// The share of the value axis a cut bar's arrow takes, its head at the cut.
inline constexpr double cutArrowShare = 0.08;

// A bar at `x` cut at `cap` on `axis`: an Arrow "bar-cut" up to the cut over the bar's last
// cutArrowShare of the axis, and the bar's one label (Label "bar-cut-value", `text` at
// `points`), written down the bar from the arrow's tail so that it stays inside the bar.
void cutBar(Chart& chart, const Axis& axis, double x, double cap, std::string text, double points);

} // namespace lb::chart::detail
