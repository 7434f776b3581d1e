// Whether a drawn chart shows its model's figures (reports/chart_model.h), for the report's tests
// and the app's: what a QCustomPlot holds (reports/charts.h), and what an SVG (reports/svg_chart.h)
// draws, read back through its axes. Each returns "" when they agree, else the first difference.
#pragma once

#include "reports/chart_model.h"
#include "reports/svg_chart.h"

#include <string>

class QCustomPlot;

namespace lb::test {

// The plot's bars and graphs (name, value axis, keys, values, a graph's pen), the bars'
// whiskers, its text labels and its axes' labels and value range, against the chart's.
std::string plotDiffers(QCustomPlot& plot, const chart::Chart& chart);

// Each series of the SVG read back through its frame: a bar's top, a line's points; to half a
// hundredth of a pixel, as the SVG rounds.
std::string svgDiffers(const std::string& svg, const chart::Chart& chart, const svg::Frame& frame);

} // namespace lb::test
