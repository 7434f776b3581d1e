// A chart (reports/chart_model.h) drawn as SVG by the reports library itself, for the HTML report
// (inline) and the Markdown report (a file beside it): the title wrapped to the width, the legend
// in a row under it, the plot with its bands, grid, series, whiskers, labels and arrows, its axes
// with their ticks and labels. Deterministic: the same chart gives the same bytes. Text is set in
// DejaVu Sans (measured by reports/font_metrics.h) and escaped. No Qt.
#pragma once

#include "reports/chart_model.h"

#include <string>
#include <vector>

namespace lb::svg {

// Where the plot area is in the picture (pixels from the top left) and how plot coordinates map
// onto it; what chartSvg draws with, for tests that read an SVG's shapes back as values.
struct Frame {
    double left = 0, top = 0, right = 0, bottom = 0;
    chart::Axis x, y, y2;
    double px(double value) const;
    double py(double value, bool rightAxis = false) const;
    // The inverse of px and py.
    double valueAtX(double pixel) const;
    double valueAtY(double pixel, bool rightAxis = false) const;
};

// The frame of `chart` drawn at width x height pixels.
Frame frameOf(const chart::Chart& chart, int width, int height);

// The ticks an axis shows over `pixels` of length: the given ones in range, powers of ten, or
// round numbers (1, 2, 2.5 or 5 times a power of ten apart) with as many decimals as they need.
std::vector<chart::Tick> ticksOf(const chart::Axis& axis, double pixels);

// Text broken at spaces into lines no wider than `width` pixels in DejaVu Sans at `pixels`; the
// title's lines in the title's type (11 pt bold).
std::vector<std::string> wrappedLines(const std::string& text, double width, double pixels,
                                      bool bold);
std::vector<std::string> titleLines(const std::string& title, double width);

// The height chartSvg draws a chart at when asked for `height`: taller where the axes' labels
// (many long metric names, upright) would leave the plot less than chart::pictureHeight allows
// (60 % of the picture, and 220 pixels).
int chartHeight(const chart::Chart& chart, int width, int height);

// An SVG document of the chart, `width` x chartHeight() pixels: a file of its own, or (`inline`)
// an element of an HTML page, which needs no namespace. `id` (letters, digits, '-') names its
// clip path, so that several charts can stand inline in one HTML page.
enum class SvgUse { File, Inline };
std::string chartSvg(const chart::Chart& chart, const std::string& id, int width = 900,
                     int height = 420, SvgUse use = SvgUse::File);

} // namespace lb::svg
