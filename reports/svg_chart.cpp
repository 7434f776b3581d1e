// The SVG chart's frame (see svg_chart.h): the title wrapped and the legend in rows above the
// plot, the plot area left after the axes' tick labels and labels, the axes themselves, and the
// pieces in the order they are drawn.
#include "reports/svg_chart.h"

#include "reports/font_metrics.h"
#include "reports/svg_internal.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace lb::svg {

using namespace detail;

namespace {

constexpr double margin = 8;
constexpr double tickGap = 5;      // between an axis and its tick labels
constexpr double categoryMark = 4; // a category's tick, outside the axis: its label below it
constexpr double legendRow = 18;
constexpr double legendIcon = 26;
constexpr std::size_t legendColumns = 4;

double lineHeight(double pixels) {
    return pixels * linePitch;
}

// Maps a value on an axis to 0..1 along it (logarithmic axes by their logarithm).
double fraction(const chart::Axis& a, double v) {
    if (a.logarithmic) {
        if (!(v > 0) || !(a.min > 0) || !(a.max > a.min))
            return std::nan("");
        return std::log10(v / a.min) / std::log10(a.max / a.min);
    }
    return a.max > a.min ? (v - a.min) / (a.max - a.min) : 0.0;
}

double unfraction(const chart::Axis& a, double f) {
    if (a.logarithmic)
        return a.min * std::pow(a.max / a.min, f);
    return a.min + f * (a.max - a.min);
}

// The text of a round number with `decimals` decimals.
std::string tickText(double v, int decimals) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, std::abs(v) < 1e-12 ? 0.0 : v,
                                 std::chars_format::fixed, decimals);
    return std::string(buf, r.ptr);
}

std::vector<chart::Tick> roundTicks(const chart::Axis& a, double pixels) {
    const double span = a.max - a.min;
    if (!(span > 0))
        return {};
    const double wanted = std::clamp(pixels / 50.0, 4.0, 10.0);
    const double raw = span / wanted;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude * 10;
    for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (raw <= m * magnitude * 1.0000001) {
            step = m * magnitude;
            break;
        }
    const int decimals = std::max(
        0,
        static_cast<int>(std::ceil(-std::log10(step) - 1e-9)) +
            (std::abs(step / std::pow(10.0, std::floor(std::log10(step))) - 2.5) < 1e-9 ? 1 : 0));
    std::vector<chart::Tick> out;
    for (double k = std::ceil(a.min / step - 1e-9); k * step <= a.max + step * 1e-9; k += 1)
        out.push_back({k * step, tickText(k * step, decimals)});
    return out;
}

std::vector<chart::Tick> powerTicks(const chart::Axis& a) {
    std::vector<chart::Tick> out;
    if (!(a.min > 0) || !(a.max > a.min))
        return out;
    const int first = static_cast<int>(std::floor(std::log10(a.min)));
    const int last = static_cast<int>(std::ceil(std::log10(a.max)));
    // Powers of ten; over less than two decades, their 2 and 5 times too.
    const bool fine = std::log10(a.max / a.min) < 2;
    for (int e = first; e <= last; ++e)
        for (const double m : {1.0, 2.0, 5.0}) {
            if (m > 1 && !fine)
                continue;
            const double v = m * std::pow(10.0, e);
            if (v >= a.min * 0.999999 && v <= a.max * 1.000001)
                out.push_back({v, tickText(v, std::max(0, -e))});
        }
    return out;
}

double widest(const std::vector<chart::Tick>& ticks) {
    double w = 0;
    for (const auto& t : ticks)
        w = std::max(w, font::textWidth(t.label, bodyPixels));
    return w;
}

// An axis' label broken into lines no longer than the axis.
std::vector<std::string> labelLines(const chart::Axis& a, double length) {
    return a.label.empty() ? std::vector<std::string>{}
                           : wrappedLines(a.label, length, bodyPixels, false);
}

// How much room an axis' tick labels and label take across it, along `length` pixels.
double axisDepth(const chart::Axis& a, double length, bool vertical) {
    const auto ticks = ticksOf(a, length);
    const double labels = vertical || a.uprightLabels ? widest(ticks) : lineHeight(bodyPixels);
    const auto lines = labelLines(a, length);
    return tickGap + (a.categories ? categoryMark : 0) + labels +
           (lines.empty() ? 0 : 6 + static_cast<double>(lines.size()) * lineHeight(bodyPixels));
}

// The legend's series, and the width of each column of items (filled row by row).
struct LegendLayout {
    std::vector<const chart::Series*> items;
    std::vector<double> columns;
    std::size_t rows = 0;
    double width = 0;
};

LegendLayout legendLayout(const chart::Chart& chart) {
    LegendLayout l;
    if (!chart.legend)
        return l;
    for (const auto& s : chart.series)
        if (s.inLegend)
            l.items.push_back(&s);
    l.columns.assign(std::min(legendColumns, l.items.size()), 0.0);
    for (std::size_t i = 0; i < l.items.size(); ++i) {
        const double w = legendIcon + 5 + font::textWidth(l.items[i]->name, bodyPixels) + 16;
        l.columns[i % legendColumns] = std::max(l.columns[i % legendColumns], w);
    }
    l.rows = (l.items.size() + legendColumns - 1) / legendColumns;
    for (const double c : l.columns)
        l.width += c;
    return l;
}

// The parts of the picture above the plot: where the plot may start.
double headerHeight(const chart::Chart& chart, int width) {
    const double title =
        static_cast<double>(titleLines(chart.title, width - 40.0).size()) * lineHeight(titlePixels);
    const double legend = static_cast<double>(legendLayout(chart).rows) * legendRow;
    return margin + title + 4 + legend + (legend > 0 ? 4 : 0) + 6;
}

} // namespace

double Frame::px(double value) const {
    return left + fraction(x, value) * (right - left);
}

double Frame::py(double value, bool rightAxis) const {
    return bottom - fraction(rightAxis ? y2 : y, value) * (bottom - top);
}

double Frame::valueAtX(double pixel) const {
    return unfraction(x, (pixel - left) / (right - left));
}

double Frame::valueAtY(double pixel, bool rightAxis) const {
    return unfraction(rightAxis ? y2 : y, (bottom - pixel) / (bottom - top));
}

std::vector<chart::Tick> ticksOf(const chart::Axis& axis, double pixels) {
    switch (axis.tickKind) {
    case chart::Axis::Ticks::Given: {
        std::vector<chart::Tick> out;
        for (const auto& t : axis.ticks)
            if (t.at >= std::min(axis.min, axis.max) && t.at <= std::max(axis.min, axis.max))
                out.push_back(t);
        return out;
    }
    case chart::Axis::Ticks::Powers:
        return powerTicks(axis);
    case chart::Axis::Ticks::Auto:
        break;
    }
    return roundTicks(axis, pixels);
}

std::vector<std::string> titleLines(const std::string& title, double width) {
    return wrappedLines(title, width, titlePixels, true);
}

std::vector<std::string> wrappedLines(const std::string& text, double width, double pixels,
                                      bool bold) {
    std::vector<std::string> lines;
    std::string line;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(' ', start), text.size());
        const std::string word = text.substr(start, end - start);
        const std::string longer = line.empty() ? word : line + ' ' + word;
        if (!line.empty() && font::textWidth(longer, pixels, bold) > width) {
            lines.push_back(line);
            line = word;
        } else {
            line = longer;
        }
        start = end + 1;
    }
    lines.push_back(line);
    return lines;
}

// The frame: the plot area within the header and the room the axes need around it. Auto ticks
// are chosen for a plot of about the picture's size less its margins.
Frame frameOf(const chart::Chart& chart, int width, int height) {
    Frame f;
    f.x = chart.x;
    f.y = chart.y;
    f.y2 = chart.y2;
    const double w = width, h = height;
    f.top = headerHeight(chart, width);
    f.bottom = h - margin - axisDepth(chart.x, w - 120, false);
    const double tall = f.bottom - f.top;
    f.left = margin + axisDepth(chart.y, tall, true);
    // The last tick label is centred on its tick: room for what of it passes the plot's edge.
    const auto xTicks = ticksOf(chart.x, w - 120);
    const double lastHalf = xTicks.empty() || chart.x.uprightLabels
                                ? 0.0
                                : font::textWidth(xTicks.back().label, bodyPixels) / 2 -
                                      (1 - fraction(chart.x, xTicks.back().at)) * (w - 120);
    f.right = w - margin -
              (chart.y2.visible ? axisDepth(chart.y2, tall, true) : std::max(12.0, lastHalf));
    return f;
}

int chartHeight(const chart::Chart& chart, int width, int height) {
    const Frame f = frameOf(chart, width, height);
    return chart::pictureHeight(height, static_cast<double>(height) - (f.bottom - f.top));
}

namespace {

void drawTitle(std::string& out, const chart::Chart& chart, int width) {
    double y = margin;
    for (const auto& line : titleLines(chart.title, width - 40.0)) {
        out += "<text x=\"" + num(width / 2.0) + "\" y=\"" + num(y + font::ascent * titlePixels) +
               "\" font-size=\"" + num(titlePixels) +
               "\" font-weight=\"bold\" text-anchor=\"middle\">" + htmlEscape(line) + "</text>\n";
        y += lineHeight(titlePixels);
    }
}

void drawLegend(std::string& out, const chart::Chart& chart, int width) {
    const LegendLayout l = legendLayout(chart);
    if (l.items.empty())
        return;
    const double top = margin +
                       static_cast<double>(titleLines(chart.title, width - 40.0).size()) *
                           lineHeight(titlePixels) +
                       4;
    out += "<g class=\"legend\">\n";
    for (std::size_t i = 0; i < l.items.size(); ++i) {
        const std::size_t column = i % legendColumns;
        double x = (width - l.width) / 2;
        for (std::size_t c = 0; c < column; ++c)
            x += l.columns[c];
        const double y = top + static_cast<double>(i / legendColumns) * legendRow;
        drawLegendIcon(out, *l.items[i], x, y + 3, legendIcon, legendRow - 6);
        out += "<text x=\"" + num(x + legendIcon + 5) + "\" y=\"" +
               num(baselineCentredOn(y + legendRow / 2, bodyPixels)) + "\" font-size=\"" +
               num(bodyPixels) + "\">" + htmlEscape(l.items[i]->name) + "</text>\n";
    }
    out += "</g>\n";
}

void drawGrid(std::string& out, const Frame& f) {
    std::string lines;
    if (f.x.grid)
        for (const auto& t : ticksOf(f.x, f.right - f.left))
            appendAll(lines, "M", num(f.px(t.at)), " ", num(f.top), "V", num(f.bottom));
    if (f.y.grid)
        for (const auto& t : ticksOf(f.y, f.bottom - f.top))
            appendAll(lines, "M", num(f.left), " ", num(f.py(t.at)), "H", num(f.right));
    if (!lines.empty())
        out += "<path class=\"grid\" d=\"" + lines +
               "\" fill=\"none\" stroke=\"#c8c8c8\" stroke-dasharray=\"1 2\"/>\n";
    if (!f.y.zeroLine.empty() && 0 > f.y.min && 0 < f.y.max)
        out += "<path d=\"M" + num(f.left) + " " + num(f.py(0)) + "H" + num(f.right) +
               "\" stroke=\"" + htmlEscape(f.y.zeroLine) + "\"/>\n";
}

// The x axis: its line, tick marks, tick labels (upright when there are many) and label.
void drawXAxis(std::string& out, const Frame& f) {
    const chart::Axis& a = f.x;
    const double mark = a.categories ? categoryMark : -5; // categories: outside; numbers: inside
    std::string marks;
    appendAll(marks, "M", num(f.left), " ", num(f.bottom), "H", num(f.right));
    std::string labels;
    for (const auto& t : ticksOf(a, f.right - f.left)) {
        const double x = f.px(t.at);
        appendAll(marks, "M", num(x), " ", num(f.bottom), "v", num(mark));
        const double y = f.bottom + tickGap + (a.categories ? categoryMark : 0);
        if (a.uprightLabels)
            labels += "<text transform=\"translate(" + num(x) + " " + num(y) +
                      ") rotate(90)\" y=\"" + num(baselineCentredOn(0, bodyPixels)) + "\">" +
                      htmlEscape(t.label) + "</text>\n";
        else
            labels += "<text x=\"" + num(x) + "\" y=\"" + num(y + font::ascent * bodyPixels) +
                      "\" text-anchor=\"middle\">" + htmlEscape(t.label) + "</text>\n";
    }
    out += "<path class=\"axis\" d=\"" + marks + "\" stroke=\"#000000\" fill=\"none\"/>\n";
    out += "<g font-size=\"" + num(bodyPixels) + "\">\n" + labels + "</g>\n";
    if (!a.label.empty())
        out += "<text x=\"" + num((f.left + f.right) / 2) + "\" y=\"" +
               num(f.bottom + axisDepth(a, f.right - f.left, false) - font::descent * bodyPixels) +
               "\" font-size=\"" + num(bodyPixels) + "\" text-anchor=\"middle\">" +
               htmlEscape(a.label) + "</text>\n";
}

// A value axis at the left (or, `right`, the right) of the plot.
void drawYAxis(std::string& out, const Frame& f, bool right) {
    const chart::Axis& a = right ? f.y2 : f.y;
    const double at = right ? f.right : f.left;
    const double side = right ? 1 : -1;
    std::string marks;
    appendAll(marks, "M", num(at), " ", num(f.top), "V", num(f.bottom));
    std::string labels;
    for (const auto& t : ticksOf(a, f.bottom - f.top)) {
        const double y = f.py(t.at, right);
        appendAll(marks, "M", num(at), " ", num(y), "h", num(-5 * side));
        labels += "<text x=\"" + num(at + side * tickGap) + "\" y=\"" +
                  num(baselineCentredOn(y, bodyPixels)) + "\">" + htmlEscape(t.label) + "</text>\n";
    }
    out += "<path class=\"axis\" d=\"" + marks + "\" stroke=\"#000000\" fill=\"none\"/>\n";
    out += "<g font-size=\"" + num(bodyPixels) + "\" text-anchor=\"" + (right ? "start" : "end") +
           "\">\n" + labels + "</g>\n";
    // The label turned along the axis, its glyphs' tops outwards, its first line outermost.
    const auto lines = labelLines(a, f.bottom - f.top);
    if (lines.empty())
        return;
    const double x = at + side * (axisDepth(a, f.bottom - f.top, true) - font::ascent * bodyPixels);
    out += "<text transform=\"translate(" + num(x) + " " + num((f.top + f.bottom) / 2) +
           ") rotate(" + (right ? "90" : "-90") + ")\" font-size=\"" + num(bodyPixels) +
           "\" text-anchor=\"middle\">";
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += "<tspan x=\"0\" y=\"" + num(static_cast<double>(i) * lineHeight(bodyPixels)) +
               "\">" + htmlEscape(lines[i]) + "</tspan>";
    out += "</text>\n";
}

} // namespace

std::string chartSvg(const chart::Chart& chart, const std::string& id, int width, int height,
                     SvgUse use) {
    height = chartHeight(chart, width, height);
    const Frame f = frameOf(chart, width, height);
    const std::string clip = "lb-plot-" + htmlEscape(id);
    std::string out =
        std::string(use == SvgUse::File ? "<svg xmlns=\"http://www.w3.org/2000/svg\" " : "<svg ") +
        "class=\"chart\" width=\"" + std::to_string(width) + "\" height=\"" +
        std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " +
        std::to_string(height) +
        "\" font-family=\"'DejaVu Sans', sans-serif\" role=\"img\">\n<title>" +
        htmlEscape(chart.title) + "</title>\n";
    out += "<rect width=\"" + std::to_string(width) + "\" height=\"" + std::to_string(height) +
           "\" fill=\"#ffffff\"/>\n";
    out += "<clipPath id=\"" + clip + "\"><rect x=\"" + num(f.left) + "\" y=\"" + num(f.top) +
           "\" width=\"" + num(f.right - f.left) + "\" height=\"" + num(f.bottom - f.top) +
           "\"/></clipPath>\n";
    out += "<g clip-path=\"url(#" + clip + ")\">\n";
    drawBands(out, chart, f);
    drawGrid(out, f);
    drawRules(out, chart, f);
    drawSeries(out, chart, f);
    drawLabels(out, chart, f);
    out += "</g>\n";
    drawXAxis(out, f);
    drawYAxis(out, f, false);
    if (chart.y2.visible)
        drawYAxis(out, f, true);
    drawTitle(out, chart, width);
    drawLegend(out, chart, width);
    out += "</svg>\n";
    return out;
}

} // namespace lb::svg
