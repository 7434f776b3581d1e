// What the SVG chart writer's two files share (reports/svg_chart.cpp: the frame, axes, title and
// legend; reports/svg_plot.cpp: what is drawn inside the plot); private to them.
#pragma once

#include "reports/chart_model.h"
#include "reports/report.h" // htmlEscape: text in elements and quoted attributes
#include "reports/svg_chart.h"

#include <string>
#include <string_view>

namespace lb::svg::detail {

// Type sizes in pixels: 9 pt and 11 pt at 96 dpi, as QCustomPlot sets the same charts.
inline constexpr double bodyPixels = 12;
inline constexpr double titlePixels = 11.0 * 96.0 / 72.0;
inline constexpr double linePitch = 1.17; // a line's height in ems

// A number as SVG writes it: at most two decimals, no trailing zeros, never "-0".
std::string num(double v);
// Appends each part in turn: `out += "M" + num(x) + ...` makes GCC 12 at -O3 warn -Wrestrict
// on libstdc++'s insert-at-front inside operator+(const char*, string&&) (a false alarm, GCC bug
// 105329); appending builds the same text without the temporaries.
template <typename... Parts> void appendAll(std::string& out, const Parts&... parts) {
    (out.append(parts), ...);
}

// stroke-dasharray for a dash style at a width, as Qt draws its pens ("" for solid).
std::string dashArray(chart::Dash dash, double width);
// ' stroke="#..." stroke-width=".." [stroke-opacity=".."] [stroke-dasharray=".."]'
std::string strokeAttributes(const chart::Stroke& stroke);
// The y pixel of a text's baseline when its line is centred on `middle`.
double baselineCentredOn(double middle, double pixels);

// What is drawn inside the plot area, clipped to it (svg_plot.cpp).
void drawBands(std::string& out, const chart::Chart& chart, const Frame& frame);
void drawRules(std::string& out, const chart::Chart& chart, const Frame& frame);
void drawSeries(std::string& out, const chart::Chart& chart, const Frame& frame);
void drawLabels(std::string& out, const chart::Chart& chart, const Frame& frame);
// A legend's sample of a series, `width` x `height` at (x, y).
void drawLegendIcon(std::string& out, const chart::Series& series, double x, double y, double width,
                    double height);

} // namespace lb::svg::detail
