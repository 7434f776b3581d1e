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

} // namespace lb::chart::detail
