// What an SVG chart draws inside its plot area (see svg_chart.h): threshold bands, vertical rules,
// bars with their whiskers (grouped bars side by side as QCustomPlot groups them, 1 px apart),
// lines and step lines with their markers, and the labels and arrows above them; and the legend's
// samples of each series.
#include "reports/font_metrics.h"
#include "reports/svg_internal.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace lb::svg::detail {

namespace {

constexpr double whiskerWidth = 6;
constexpr double symbolGap = 10; // around a bar's top, where its whisker is not drawn

bool drawable(double v) {
    return std::isfinite(v);
}

// A value as a bar's tooltip says it: three significant figures or so.
std::string shortValue(double v) {
    const double a = std::abs(v);
    const int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
    return std::string(buf, r.ptr);
}

std::string categoryAt(const chart::Axis& axis, double key) {
    for (const auto& t : axis.ticks)
        if (t.at == key)
            return t.label;
    return shortValue(key);
}

// The centre and width in pixels of a bar at `key`, side by side with its group's others.
std::pair<double, double> barPixels(const chart::Series& s, const Frame& f, double key) {
    const double width = std::abs(f.px(key + s.barWidth / 2) - f.px(key - s.barWidth / 2));
    double centre = f.px(key);
    if (s.grouped && s.groupSize > 1) {
        const double total =
            static_cast<double>(s.groupSize) * width + static_cast<double>(s.groupSize - 1);
        centre += -total / 2 + static_cast<double>(s.groupIndex) * (width + 1) + width / 2;
    }
    return {centre, width};
}

// A whisker from the bar's top to `to`, leaving the symbol gap around the top, with its cap.
std::string whisker(double x, double top, double to) {
    const double gapEnd = to < top ? top - symbolGap / 2 : top + symbolGap / 2;
    std::string d;
    if (!((to < top && to >= gapEnd) || (to > top && to <= gapEnd)))
        appendAll(d, "M", num(x), " ", num(gapEnd), "V", num(to));
    appendAll(d, "M", num(x - whiskerWidth / 2), " ", num(to), "h", num(whiskerWidth));
    return d;
}

void drawBars(std::string& out, const chart::Series& s, const Frame& f, const chart::Axis& keys) {
    std::string whiskers;
    const double zero = f.py(0, s.rightAxis);
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
        if (!drawable(s.x[i]) || !drawable(s.y[i]))
            continue;
        const auto [centre, width] = barPixels(s, f, s.x[i]);
        const double top = f.py(s.y[i], s.rightAxis);
        out += "<rect x=\"" + num(centre - width / 2) + "\" y=\"" + num(std::min(top, zero)) +
               "\" width=\"" + num(width) + "\" height=\"" + num(std::abs(zero - top)) +
               "\"><title>" +
               htmlEscape(s.name + ", " + categoryAt(keys, s.x[i]) + ": " + shortValue(s.y[i])) +
               "</title></rect>\n";
        if (i < s.errorMinus.size() && drawable(s.errorMinus[i]))
            whiskers += whisker(centre, top, f.py(s.y[i] - s.errorMinus[i], s.rightAxis));
        if (i < s.errorPlus.size() && drawable(s.errorPlus[i]))
            whiskers += whisker(centre, top, f.py(s.y[i] + s.errorPlus[i], s.rightAxis));
    }
    if (!whiskers.empty())
        out += "<path class=\"whiskers\" data-series=\"" + htmlEscape(s.errorName) + "\" d=\"" +
               whiskers + "\" fill=\"none\" stroke=\"#202020\"/>\n";
}

// The path of a line through the points it can draw (a gap where it cannot: NaN, or not above
// zero on a logarithmic axis); a step line holds each value until the next point.
std::string linePath(const chart::Series& s, const Frame& f) {
    std::string d;
    bool pen = false;
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
        const double x = f.px(s.x[i]), y = f.py(s.y[i], s.rightAxis);
        if (!drawable(x) || !drawable(y)) {
            pen = false;
            continue;
        }
        if (!pen)
            appendAll(d, "M", num(x), " ", num(y));
        else if (s.kind == chart::Series::Kind::StepLine)
            appendAll(d, "H", num(x), "V", num(y));
        else
            appendAll(d, "L", num(x), " ", num(y));
        pen = true;
    }
    return d;
}

std::string marker(const chart::Series& s, double x, double y) {
    const double r = s.markerSize / 2;
    std::string out;
    if (s.marker == chart::Marker::Circle)
        appendAll(out, "<circle cx=\"", num(x), "\" cy=\"", num(y), "\" r=\"", num(r), "\"/>");
    else
        appendAll(out, "<rect x=\"", num(x - r), "\" y=\"", num(y - r), "\" width=\"",
                  num(s.markerSize), "\" height=\"", num(s.markerSize), "\"/>");
    return out;
}

void drawLine(std::string& out, const chart::Series& s, const Frame& f) {
    appendAll(out, "<path d=\"", linePath(s, f), "\" fill=\"none\"", strokeAttributes(s.stroke),
              " stroke-linejoin=\"round\"/>\n");
    if (s.marker == chart::Marker::None)
        return;
    chart::Stroke plain = s.stroke;
    plain.dash = chart::Dash::Solid;
    appendAll(out, "<g fill=\"none\"", strokeAttributes(plain), ">");
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
        const double x = f.px(s.x[i]), y = f.py(s.y[i], s.rightAxis);
        if (drawable(x) && drawable(y))
            out += marker(s, x, y);
    }
    out += "</g>\n";
}

// The arrow head at (x2, y2) of a line from (x1, y1): QCustomPlot's spike arrow, 9 px long and
// 7 px wide, its back notched.
void drawArrow(std::string& out, const chart::Arrow& a, const Frame& f) {
    const double x1 = f.px(a.x1), y1 = f.py(a.y1), x2 = f.px(a.x2), y2 = f.py(a.y2);
    const double length = std::hypot(x2 - x1, y2 - y1);
    if (!drawable(length) || length <= 0)
        return;
    const double dx = (x2 - x1) / length, dy = (y2 - y1) / length;
    const auto at = [&](double along, double across) {
        return num(x2 - dx * along - dy * across) + " " + num(y2 - dy * along + dx * across);
    };
    out += "<g class=\"arrow\" data-name=\"" + htmlEscape(a.name) + "\" stroke=\"" +
           htmlEscape(a.colour) + "\" fill=\"" + htmlEscape(a.colour) + "\"><path d=\"M" + num(x1) +
           " " + num(y1) + "L" + at(7.2, 0) + "\"/><path d=\"M" + at(0, 0) + "L" + at(9, 3.5) +
           "L" + at(7.2, 0) + "L" + at(9, -3.5) + "Z\" stroke-linejoin=\"miter\"/></g>\n";
}

void drawLabel(std::string& out, const chart::Label& l, const Frame& f) {
    const double pixels = l.points * 96.0 / 72.0;
    std::vector<std::string> lines;
    for (std::size_t start = 0;;) {
        const std::size_t end = l.text.find('\n', start);
        lines.push_back(l.text.substr(start, end - start));
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    double textWidth = 0;
    for (const auto& line : lines)
        textWidth = std::max(textWidth, font::textWidth(line, pixels));
    const double width = textWidth + l.padLeft + l.padRight;
    const double height =
        static_cast<double>(lines.size()) * pixels * linePitch + l.padTop + l.padBottom;
    const auto offset = [](chart::Align a, double size) {
        return a == chart::Align::Start ? 0.0 : a == chart::Align::Centre ? -size / 2 : -size;
    };
    const double left = offset(l.horizontal, width), top = offset(l.vertical, height);
    out += "<g class=\"label\"" +
           (l.name.empty() ? "" : " data-name=\"" + htmlEscape(l.name) + "\"") +
           " transform=\"translate(" + num(f.px(l.x)) + " " + num(f.py(l.y)) + ")" +
           (l.upright ? " rotate(90)" : "") + "\">";
    if (!l.background.empty())
        out += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(width) +
               "\" height=\"" + num(height) + "\" fill=\"" + htmlEscape(l.background) +
               "\" fill-opacity=\"" + num(l.backgroundAlpha / 255.0) + "\"/>";
    out += "<text font-size=\"" + num(pixels) + "\" text-anchor=\"middle\">";
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += "<tspan x=\"" + num(left + l.padLeft + textWidth / 2) + "\" y=\"" +
               num(top + l.padTop + (static_cast<double>(i) * linePitch + font::ascent) * pixels) +
               "\">" + htmlEscape(lines[i]) + "</tspan>";
    out += "</text></g>\n";
}

} // namespace

std::string num(double v) {
    char buf[64];
    const double rounded = std::round(v * 100) / 100;
    const auto r = std::to_chars(buf, buf + sizeof buf, rounded == 0 ? 0.0 : rounded,
                                 std::chars_format::fixed, 2);
    std::string s(buf, r.ptr);
    while (s.back() == '0')
        s.pop_back();
    if (s.back() == '.')
        s.pop_back();
    return s;
}

std::string dashArray(chart::Dash dash, double width) {
    const double w = std::max(1.0, width);
    switch (dash) {
    case chart::Dash::Solid:
        return "";
    case chart::Dash::Dashed:
        return num(4 * w) + " " + num(2 * w);
    case chart::Dash::Dotted:
        return num(w) + " " + num(2 * w);
    case chart::Dash::DashDotted:
        return num(4 * w) + " " + num(2 * w) + " " + num(w) + " " + num(2 * w);
    }
    return "";
}

std::string strokeAttributes(const chart::Stroke& stroke) {
    std::string out =
        " stroke=\"" + htmlEscape(stroke.colour) + "\" stroke-width=\"" + num(stroke.width) + "\"";
    if (stroke.alpha < 255)
        out += " stroke-opacity=\"" + num(stroke.alpha / 255.0) + "\"";
    if (const std::string dashes = dashArray(stroke.dash, stroke.width); !dashes.empty())
        out += " stroke-dasharray=\"" + dashes + "\"";
    return out;
}

double baselineCentredOn(double middle, double pixels) {
    return middle + (font::ascent - font::descent) / 2 * pixels;
}

void drawBands(std::string& out, const chart::Chart& chart, const Frame& f) {
    for (const auto& b : chart.bands) {
        const double top = std::max(f.top, std::min(f.py(b.high), f.bottom));
        const double bottom = std::max(f.top, std::min(f.py(b.low), f.bottom));
        out += "<rect class=\"band\" data-name=\"" + htmlEscape(b.name) + "\" x=\"" + num(f.left) +
               "\" y=\"" + num(top) + "\" width=\"" + num(f.right - f.left) + "\" height=\"" +
               num(bottom - top) + "\" fill=\"" + htmlEscape(b.colour) + "\" fill-opacity=\"" +
               num(b.alpha / 255.0) + "\"/>\n";
    }
}

void drawRules(std::string& out, const chart::Chart& chart, const Frame& f) {
    for (const auto& r : chart.rules)
        out += "<path class=\"rule\" data-name=\"" + htmlEscape(r.name) + "\" d=\"M" +
               num(f.px(r.x)) + " " + num(f.top) + "V" + num(f.bottom) + "\"" +
               strokeAttributes(r.stroke) + "/>\n";
}

void drawSeries(std::string& out, const chart::Chart& chart, const Frame& f) {
    for (const auto& s : chart.series) {
        out += "<g class=\"series\" data-series=\"" + htmlEscape(s.name) + "\"";
        if (s.kind == chart::Series::Kind::Bars) {
            out += " fill=\"" + htmlEscape(s.fill) + "\"" + strokeAttributes(s.stroke) + ">\n";
            drawBars(out, s, f, chart.x);
        } else {
            out += ">\n";
            drawLine(out, s, f);
        }
        out += "</g>\n";
    }
}

void drawLabels(std::string& out, const chart::Chart& chart, const Frame& f) {
    for (const auto& a : chart.arrows)
        drawArrow(out, a, f);
    for (const auto& l : chart.labels)
        drawLabel(out, l, f);
}

void drawLegendIcon(std::string& out, const chart::Series& s, double x, double y, double width,
                    double height) {
    if (s.kind == chart::Series::Kind::Bars) {
        out += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(width) +
               "\" height=\"" + num(height) + "\" fill=\"" + htmlEscape(s.fill) + "\"" +
               strokeAttributes(s.stroke) + "/>\n";
        return;
    }
    const double middle = y + height / 2;
    out += "<path d=\"M" + num(x) + " " + num(middle) + "h" + num(width) + "\"" +
           strokeAttributes(s.stroke) + "/>\n";
    if (s.marker != chart::Marker::None) {
        chart::Stroke plain = s.stroke;
        plain.dash = chart::Dash::Solid;
        out += "<g fill=\"none\"" + strokeAttributes(plain) + ">" +
               marker(s, x + width / 2, middle) + "</g>\n";
    }
}

} // namespace lb::svg::detail
