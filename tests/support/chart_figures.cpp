// Whether a drawn chart shows its model's figures (see chart_figures.h).
#include "tests/support/chart_figures.h"

#include "reports/report.h"

#include <cmath>
#include <qcustomplot.h>
#include <regex>
#include <sstream>

namespace lb::test {

namespace {

bool same(double a, double b) {
    return a == b || (std::isnan(a) && std::isnan(b));
}

std::string listed(const std::vector<double>& v) {
    std::ostringstream out;
    for (const double d : v)
        out << d << " ";
    return out.str();
}

// The keys and values a bar series or graph holds.
std::pair<std::vector<double>, std::vector<double>> dataOf(QCPAbstractPlottable* p) {
    std::vector<double> keys, values;
    const auto take = [&](auto* container) {
        for (auto it = container->constBegin(); it != container->constEnd(); ++it) {
            keys.push_back(it->key);
            values.push_back(it->value);
        }
    };
    if (auto* bars = qobject_cast<QCPBars*>(p))
        take(bars->data().data());
    else if (auto* graph = qobject_cast<QCPGraph*>(p))
        take(graph->data().data());
    return {keys, values};
}

std::string seriesDiffers(QCustomPlot& plot, QCPAbstractPlottable* p, const chart::Series& s) {
    if (p->name().toStdString() != s.name)
        return "plottable " + p->name().toStdString() + " where the chart has " + s.name;
    if (p->valueAxis() != (s.rightAxis ? plot.yAxis2 : plot.yAxis))
        return s.name + ": on the other value axis";
    const auto [keys, values] = dataOf(p);
    if (keys != s.x || values != s.y)
        return s.name + ": holds x " + listed(keys) + "y " + listed(values) + "; the chart x " +
               listed(s.x) + "y " + listed(s.y);
    if (auto* graph = qobject_cast<QCPGraph*>(p);
        graph &&
        (graph->pen().widthF() != s.stroke.width || graph->pen().color().alpha() != s.stroke.alpha))
        return s.name + ": another pen";
    return {};
}

std::string whiskersDiffer(QCPErrorBars* e, const chart::Chart& c) {
    const auto it = std::find_if(c.series.begin(), c.series.end(), [&](const auto& s) {
        return s.name == e->dataPlottable()->name().toStdString();
    });
    if (it == c.series.end())
        return "whiskers of " + e->dataPlottable()->name().toStdString() + ", not in the chart";
    if (static_cast<std::size_t>(e->data()->size()) != it->errorMinus.size())
        return it->name + ": another number of whiskers";
    for (std::size_t k = 0; k < it->errorMinus.size(); ++k) {
        const auto& err = e->data()->at(static_cast<int>(k));
        if (!same(err.errorMinus, it->errorMinus[k]) || !same(err.errorPlus, it->errorPlus[k]))
            return it->name + ": whisker " + std::to_string(k) + " differs";
    }
    return {};
}

// The numbers of an SVG path's d attribute as the points it goes through.
std::vector<std::pair<double, double>> pathPoints(const std::string& d) {
    std::vector<std::pair<double, double>> out;
    std::istringstream in(d);
    char command = 0;
    double x = 0;
    while (in >> std::ws && in.peek() != EOF) {
        if (std::isalpha(in.peek()))
            in >> command;
        if (command == 'H') {
            in >> x;
            continue;
        }
        double y = 0;
        if (command == 'V')
            in >> y;
        else
            in >> x >> y;
        out.emplace_back(x, y);
    }
    return out;
}

bool near(const chart::Axis& axis, double value, double want) {
    if (axis.logarithmic)
        return std::abs(std::log(value / want)) < 1e-3;
    return std::abs(value - want) <= (axis.max - axis.min) * 1e-4;
}

// The points of one series in its part of the SVG, in plot coordinates.
std::vector<std::pair<double, double>> svgPoints(const std::string& part, const chart::Series& s,
                                                 const svg::Frame& f) {
    static const std::regex bar("<rect x=\"([-0-9.]+)\" y=\"([-0-9.]+)\" width=\"[-0-9.]+\" "
                                "height=\"([-0-9.]+)\"><title>");
    static const std::regex line("<path d=\"(M[^\"]*)\" fill=\"none\"");
    std::vector<std::pair<double, double>> out;
    if (s.kind == chart::Series::Kind::Bars) {
        std::size_t k = 0;
        for (std::sregex_iterator it(part.begin(), part.end(), bar), e; it != e; ++it, ++k) {
            const double top = std::stod((*it)[2]), height = std::stod((*it)[3]);
            const bool up = std::abs(top + height - f.py(0, s.rightAxis)) < 0.02;
            out.emplace_back(k < s.x.size() ? s.x[k] : 0,
                             f.valueAtY(up ? top : top + height, s.rightAxis));
        }
        return out;
    }
    std::smatch m;
    if (std::regex_search(part, m, line))
        for (const auto& [x, y] : pathPoints(m[1]))
            out.emplace_back(f.valueAtX(x), f.valueAtY(y, s.rightAxis));
    return out;
}

} // namespace

std::string plotDiffers(QCustomPlot& plot, const chart::Chart& c) {
    std::vector<QCPAbstractPlottable*> drawn;
    for (int i = 0; i < plot.plottableCount(); ++i)
        if (!qobject_cast<QCPErrorBars*>(plot.plottable(i)))
            drawn.push_back(plot.plottable(i));
    if (drawn.size() != c.series.size())
        return std::to_string(drawn.size()) + " plottables for " + std::to_string(c.series.size()) +
               " series";
    for (std::size_t i = 0; i < drawn.size(); ++i)
        if (auto why = seriesDiffers(plot, drawn[i], c.series[i]); !why.empty())
            return why;
    for (int i = 0; i < plot.plottableCount(); ++i)
        if (auto* e = qobject_cast<QCPErrorBars*>(plot.plottable(i)))
            if (auto why = whiskersDiffer(e, c); !why.empty())
                return why;
    std::vector<std::string> texts, labels;
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot.item(i)))
            texts.push_back(t->text().toStdString());
    for (const auto& l : c.labels)
        labels.push_back(l.text);
    if (texts != labels)
        return "other labels";
    if (plot.xAxis->label().toStdString() != c.x.label ||
        plot.yAxis->label().toStdString() != c.y.label || plot.yAxis->range().upper != c.y.max)
        return "other axes";
    return {};
}

std::string svgDiffers(const std::string& svg, const chart::Chart& c, const svg::Frame& f) {
    std::size_t at = 0;
    for (const chart::Series& s : c.series) {
        const auto start = svg.find("<g class=\"series\" data-series=\"" + htmlEscape(s.name), at);
        if (start == std::string::npos)
            return "no series " + s.name;
        const auto end = std::min(svg.find("<g class=\"series\"", start + 1), svg.size());
        at = start + 1;
        const auto points = svgPoints(svg.substr(start, end - start), s, f);
        if (points.size() != s.y.size())
            return s.name + ": " + std::to_string(points.size()) + " points drawn for " +
                   std::to_string(s.y.size());
        for (std::size_t k = 0; k < points.size(); ++k)
            if (!near(c.x, points[k].first, s.x[k]) ||
                !near(s.rightAxis ? c.y2 : c.y, points[k].second, s.y[k]))
                return s.name + ": point " + std::to_string(k) + " drawn at (" +
                       std::to_string(points[k].first) + ", " + std::to_string(points[k].second) +
                       ") for (" + std::to_string(s.x[k]) + ", " + std::to_string(s.y[k]) + ")";
    }
    return {};
}

} // namespace lb::test
