// The charts shared by layoutbench-gui and the decision report: grouped bars per layout with the
// spread over iterations, and the overhead chart of one comparison with its threshold bands. Both
// clear the plot first, so the app can rebuild a chart in place; neither sets interactions (the
// app adds zoom, pan and hover).
#include "reports/charts.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <qcustomplot.h>
#include <string>
#include <vector>

namespace lb::charts {

namespace {

// Layout colours, in layout order (the baseline first): distinct, readable on white and in print.
const char* const layoutPalette[] = {"#1f77b4", "#ff7f0e", "#9467bd", "#17becf",
                                     "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"};

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// "bonnie.put_block" -> "put_block"; "fio.seq-read.read.bw" -> "seq-read read bw".
QString metricLabel(const std::string& name) {
    std::string label = name;
    for (const char* prefix : {"bonnie.", "fio."})
        if (label.rfind(prefix, 0) == 0) {
            label = label.substr(std::char_traits<char>::length(prefix));
            break;
        }
    if (name.rfind("bonnie.", 0) != 0)
        std::replace(label.begin(), label.end(), '.', ' ');
    return qs(label);
}

bool isBarMetric(const std::string& name) {
    static const char* const bonnie[] = {"bonnie.put_block", "bonnie.get_block", "bonnie.rewrite",
                                         "bonnie.seeks"};
    for (const char* b : bonnie)
        if (name == b)
            return true;
    for (const char* family : {"fio.", "iscsi.", "nfs."})
        if (name.rfind(family, 0) == 0) {
            const auto dot = name.rfind('.');
            const std::string stat = name.substr(dot + 1);
            return stat == "bw" || stat == "iops";
        }
    return false;
}

const MetricSamples* findSamples(const ReportData& data, const std::string& layout,
                                 const std::string& metric) {
    const auto it = data.samples.find(layout);
    if (it == data.samples.end())
        return nullptr;
    for (const auto& s : it->second.metrics)
        if (s.name == metric && !s.values.empty())
            return &s;
    return nullptr;
}

// Display scale and unit of a canonical unit, as reports/display.h shows them.
std::pair<double, QString> displayUnit(Unit unit) {
    switch (unit) {
    case Unit::BytesPerSecond:
        return {1e-6, "MB/s"};
    case Unit::OpsPerSecond:
        return {1.0, "ops/s"};
    case Unit::Nanoseconds:
        return {1e-6, "ms"};
    case Unit::Seconds:
        return {1.0, "s"};
    case Unit::Percent:
        return {1.0, "%"};
    case Unit::Count:
        return {1.0, ""};
    }
    return {1.0, ""};
}

// Removes what a previous build left: plottables, items, bar groups, the title.
void reset(QCustomPlot& plot) {
    plot.clearPlottables();
    plot.clearItems();
    for (QCPBarsGroup* group :
         plot.findChildren<QCPBarsGroup*>(QString(), Qt::FindDirectChildrenOnly))
        delete group;
    QCPLayoutGrid* grid = plot.plotLayout();
    if (plot.legend->layout() != plot.axisRect()->insetLayout()) { // moved by showLegend
        plot.legend->layout()->take(plot.legend);
        plot.axisRect()->insetLayout()->addElement(plot.legend, Qt::AlignTop | Qt::AlignRight);
    }
    for (int i = grid->elementCount() - 1; i >= 0; --i)
        if (QCPLayoutElement* el = grid->elementAt(i);
            el && (el->objectName() == "chart-title" || el->objectName() == "legend-row"))
            grid->remove(el);
    grid->simplify();
    plot.xAxis->setLabel({});
    plot.yAxis->setLabel({});
    plot.xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    plot.xAxis->setTickLabelRotation(0);
    plot.legend->setVisible(false);
}

void setTitle(QCustomPlot& plot, const QString& text) {
    plot.plotLayout()->insertRow(0);
    auto* title = new QCPTextElement(&plot, text, QFont(plot.font().family(), 11, QFont::Bold));
    title->setObjectName("chart-title");
    plot.plotLayout()->addElement(0, 0, title);
}

// Metric names on the key axis at 1, 2, ...; upright when there are more than a few, so long
// names neither overlap nor run off the edge.
void setMetricTicks(QCustomPlot& plot, const std::vector<QString>& labels) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (std::size_t i = 0; i < labels.size(); ++i)
        ticker->addTick(static_cast<double>(i + 1), labels[i]);
    plot.xAxis->setTicker(ticker);
    plot.xAxis->setSubTicks(false);
    plot.xAxis->setTickLength(0, 4);
    plot.xAxis->setTickLabelRotation(labels.size() > 4 ? 90 : 0);
    plot.xAxis->grid()->setVisible(false);
    plot.xAxis->setRange(0.4, static_cast<double>(labels.size()) + 0.6);
}

// The legend in a row of its own under the title, centred, so it never hides a bar: a grid row
// "legend-row" of [stretch | legend | stretch].
void showLegend(QCustomPlot& plot) {
    QCPLayoutGrid* grid = plot.plotLayout();
    if (plot.legend->layout() == plot.axisRect()->insetLayout()) {
        plot.axisRect()->insetLayout()->take(plot.legend);
        auto* legendRow = new QCPLayoutGrid;
        legendRow->setObjectName("legend-row");
        const int row = grid->rowCount() - 1; // the axis rect is the last row
        grid->insertRow(row);
        grid->addElement(row, 0, legendRow);
        grid->setRowStretchFactor(row, 0.001);
        legendRow->addElement(0, 0, new QCPLayoutElement(&plot));
        legendRow->addElement(0, 1, plot.legend);
        legendRow->addElement(0, 2, new QCPLayoutElement(&plot));
        legendRow->setColumnStretchFactors({1.0, 0.001, 1.0});
        legendRow->setMargins(QMargins(0, 0, 0, 0));
    }
    plot.legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot.legend->setWrap(4);
    plot.legend->setBorderPen(Qt::NoPen);
    plot.legend->setBrush(Qt::NoBrush);
    plot.legend->setVisible(true);
}

} // namespace

QString verdictColor(Verdict v) {
    switch (v) {
    case Verdict::Viable:
        return "#2e7d32";
    case Verdict::Decision:
        return "#ef8f00";
    case Verdict::NotViable:
        return "#c62828";
    }
    return "#000000";
}

QStringList barMetrics(const ReportData& data) {
    std::vector<std::string> names;
    for (const auto& [layout, samples] : data.samples)
        for (const auto& s : samples.metrics)
            if (isBarMetric(s.name) && !s.values.empty())
                names.push_back(s.name);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    QStringList out;
    for (const auto& n : names)
        out << qs(n);
    return out;
}

void buildGroupedBars(QCustomPlot& plot, const ReportData& data, const QStringList& metrics,
                      bool normalise) {
    reset(plot);
    std::vector<std::string> names;
    std::vector<QString> labels;
    std::vector<QString> units;
    for (const QString& m : metrics) {
        names.push_back(m.toStdString());
        labels.push_back(metricLabel(names.back()));
        const auto info = describeMetric(names.back());
        const QString unit = displayUnit(info ? info->unit : Unit::Count).second;
        if (std::find(units.begin(), units.end(), unit) == units.end())
            units.push_back(unit);
    }

    auto* group = new QCPBarsGroup(&plot);
    group->setSpacingType(QCPBarsGroup::stAbsolute);
    group->setSpacing(1);
    const double width = 0.8 / static_cast<double>(std::max<std::size_t>(1, data.layouts.size()));
    double top = 0;
    for (std::size_t li = 0; li < data.layouts.size(); ++li) {
        const ReportLayout& layout = data.layouts[li];
        auto* bars = new QCPBars(plot.xAxis, plot.yAxis);
        bars->setName(qs(layout.name));
        bars->setWidth(width);
        bars->setBarsGroup(group);
        const QColor color(layoutPalette[li % std::size(layoutPalette)]);
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(130)));
        QVector<double> keys, values, minus, plus;
        for (std::size_t k = 0; k < names.size(); ++k) {
            const MetricSamples* s = findSamples(data, layout.name, names[k]);
            if (!s)
                continue;
            const auto info = describeMetric(names[k]);
            double scale = displayUnit(info ? info->unit : Unit::Count).first;
            if (normalise) {
                const MetricSamples* b = findSamples(data, data.baseline, names[k]);
                const double bm = b ? median(b->values) : 0.0;
                if (!(bm > 0))
                    continue;
                scale = 100.0 / bm;
            }
            const double mid = median(s->values);
            const auto [lo, hi] = std::minmax_element(s->values.begin(), s->values.end());
            keys.push_back(static_cast<double>(k + 1));
            values.push_back(mid * scale);
            minus.push_back((mid - *lo) * scale);
            plus.push_back((*hi - mid) * scale);
            top = std::max(top, *hi * scale);
        }
        bars->setData(keys, values, true);
        auto* spread = new QCPErrorBars(plot.xAxis, plot.yAxis);
        spread->setName(qs(layout.name) + " (min–max)");
        spread->setDataPlottable(bars);
        spread->setData(minus, plus);
        spread->setPen(QPen(QColor("#202020")));
        spread->setWhiskerWidth(6);
        spread->removeFromLegend();
    }

    setMetricTicks(plot, labels);
    QString unitLabel;
    for (const auto& u : units)
        unitLabel += (unitLabel.isEmpty() ? "" : " · ") + u;
    plot.yAxis->setLabel(normalise ? QString("% of the baseline's median") : unitLabel);
    plot.yAxis->setRange(0, top > 0 ? top * 1.15 : 1.0);
    plot.yAxis->grid()->setVisible(true);
    setTitle(plot, normalise ? "Median per layout, relative to the baseline (bars: min–max)"
                             : "Median per layout in " + unitLabel + " (bars: min–max)");
    showLegend(plot);
}

void buildOverheadChart(QCustomPlot& plot, const Comparison& comparison) {
    reset(plot);
    const double viableTop = (comparison.thresholds.viableMax - 1.0) * 100.0;
    const double notViableBottom = (comparison.thresholds.notViableMin - 1.0) * 100.0;

    std::vector<const MetricComparison*> metrics;
    for (const auto& m : comparison.metrics)
        if (m.decisive)
            metrics.push_back(&m);

    // The axis shows the not-viable band and stops at three times its start: beyond that the
    // exact size no longer matters, and a 3000 % bar would flatten every other one. Longer bars
    // (and infinite ones, from a zero median) stop at the top; their labels keep the true value.
    double top = notViableBottom * 1.25;
    double bottom = 0;
    for (const auto* m : metrics)
        for (double v : {m->overhead, m->interval ? m->interval->low - 1.0 : m->overhead,
                         m->interval ? m->interval->high - 1.0 : m->overhead})
            if (std::isfinite(v)) {
                top = std::max(top, v * 100.0 * 1.1);
                bottom = std::min(bottom, v * 100.0 * 1.1);
            }
    top = std::min(top, std::max(notViableBottom * 3.0, viableTop * 3.0));
    const double cap = top;
    auto clamp = [cap](double v) { return std::isfinite(v) ? std::min(v, cap) : cap; };

    // Bands behind everything: overhead can never go below -100 % (ratio 0).
    auto band = [&plot](const char* name, double low, double high, QColor color) {
        auto* rect = new QCPItemRect(&plot);
        rect->setObjectName(name);
        rect->setLayer("background");
        for (auto* pos : {rect->topLeft, rect->bottomRight}) {
            pos->setTypeX(QCPItemPosition::ptAxisRectRatio);
            pos->setTypeY(QCPItemPosition::ptPlotCoords);
        }
        rect->topLeft->setCoords(0, high);
        rect->bottomRight->setCoords(1, low);
        rect->setPen(Qt::NoPen);
        color.setAlpha(45);
        rect->setBrush(color);
        rect->setSelectable(false);
    };
    band("band-viable", -100.0, viableTop, QColor(verdictColor(Verdict::Viable)));
    band("band-not-viable", notViableBottom, std::max(top * 10.0, 1000.0),
         QColor(verdictColor(Verdict::NotViable)));

    // Value labels on the bars while they fit, on a layer above the bars.
    const bool labelled = metrics.size() <= 16;
    if (!plot.layer("labels"))
        plot.addLayer("labels", plot.layer("main"), QCustomPlot::limAbove);
    const std::pair<Verdict, const char*> kinds[] = {{Verdict::Viable, "viable"},
                                                     {Verdict::Decision, "decision required"},
                                                     {Verdict::NotViable, "not viable"}};
    for (const auto& [verdict, label] : kinds) {
        QVector<double> keys, values, minus, plus;
        for (std::size_t i = 0; i < metrics.size(); ++i) {
            const MetricComparison& m = *metrics[i];
            if (m.verdict != verdict)
                continue;
            const double v = clamp(m.overhead * 100.0);
            keys.push_back(static_cast<double>(i + 1));
            values.push_back(v);
            // No interval below three runs a side: no whisker rather than a false one.
            minus.push_back(m.interval ? std::max(0.0, v - clamp((m.interval->low - 1.0) * 100.0))
                                       : 0.0);
            plus.push_back(m.interval ? std::max(0.0, clamp((m.interval->high - 1.0) * 100.0) - v)
                                      : 0.0);

            // Bars cut at the top always say how long they really are, written down the bar.
            const bool clamped = !(m.overhead * 100.0 < cap);
            if (!labelled && !clamped)
                continue;
            auto* text = new QCPItemText(&plot);
            text->setLayer("labels");
            text->setFont(QFont(plot.font().family(), metrics.size() > 8 ? 7 : 9));
            text->position->setType(QCPItemPosition::ptPlotCoords);
            text->position->setCoords(static_cast<double>(i + 1), v);
            if (clamped) {
                text->setRotation(90);
                text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
                text->setBrush(QColor(255, 255, 255, 230));
                text->setPadding(QMargins(2, 0, 2, 0));
            } else {
                text->setPositionAlignment(Qt::AlignHCenter |
                                           (v >= 0 ? Qt::AlignBottom : Qt::AlignTop));
                text->setPadding(QMargins(0, 2, 0, 2));
            }
            text->setText(std::isfinite(m.overhead)
                              ? QString::asprintf("%+.0f %%", m.overhead * 100.0)
                              : QString("inf"));
            text->setSelectable(false);
        }
        if (keys.isEmpty())
            continue;
        auto* bars = new QCPBars(plot.xAxis, plot.yAxis);
        bars->setName(label);
        bars->setWidth(0.6);
        const QColor color(verdictColor(verdict));
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(130)));
        bars->setData(keys, values, true);
        auto* interval = new QCPErrorBars(plot.xAxis, plot.yAxis);
        interval->setName(QString(label) + " (95 % interval)");
        interval->setDataPlottable(bars);
        interval->setData(minus, plus);
        interval->setPen(QPen(QColor("#202020")));
        interval->setWhiskerWidth(6);
        interval->removeFromLegend();
    }

    std::vector<QString> labels;
    for (const auto* m : metrics)
        labels.push_back(metricLabel(m->name));
    setMetricTicks(plot, labels);
    plot.yAxis->setLabel("overhead: % more time than the baseline");
    plot.yAxis->setRange(bottom < 0 ? bottom - 5.0 : 0.0, top);
    plot.yAxis->grid()->setVisible(true);
    plot.yAxis->grid()->setZeroLinePen(QPen(QColor("#404040")));
    setTitle(plot, qs(comparison.candidate) + " against " + qs(comparison.baseline) + ": " +
                       qs(std::string(verdictName(comparison.verdict))));
    showLegend(plot);
}

namespace {

// The decimal unit (drives are sold in them) in which the largest of `bytes` reads 1 to 999.
std::pair<double, QString> byteAxisUnit(double bytes) {
    static const std::array<std::pair<double, const char*>, 5> units{
        {{1e15, "PB"}, {1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}}};
    for (const auto& [scale, name] : units)
        if (bytes >= scale)
            return {scale, QString(name)};
    return {1.0, QStringLiteral("bytes")};
}

// The most bytes a projection chart shows: usable, used and the expansion path's capacity.
double projectionTop(const LayoutProjection& p) {
    double top =
        std::max(static_cast<double>(p.ceilingBytes), static_cast<double>(p.capacity.usableBytes));
    for (const auto& m : p.months)
        top = std::max({top, static_cast<double>(m.usableBytes), static_cast<double>(m.usedBytes)});
    for (const auto& e : p.expansions)
        if (e.keepsUp)
            for (const auto& step : e.schedule)
                top = std::max(top, static_cast<double>(step.effectiveUsableBytes));
    return top;
}

} // namespace

void buildProjectionChart(QCustomPlot& plot, const LayoutProjection& projection) {
    reset(plot);
    const auto& p = projection;
    const auto [tb, unitName] = byteAxisUnit(projectionTop(p));
    QVector<double> months, usable, used, ceiling;
    for (const auto& m : p.months) {
        months << static_cast<double>(m.month);
        usable << static_cast<double>(m.usableBytes) / tb;
        used << static_cast<double>(m.usedBytes) / tb;
        ceiling << static_cast<double>(p.ceilingBytes) / tb;
    }
    auto* gUsable = plot.addGraph(plot.xAxis, plot.yAxis);
    gUsable->setName("usable");
    gUsable->setLineStyle(QCPGraph::lsStepLeft);
    gUsable->setPen(QPen(QColor("#1f77b4"), 2));
    gUsable->setData(months, usable, true);

    auto* gUsed = plot.addGraph(plot.xAxis, plot.yAxis);
    gUsed->setName("used");
    gUsed->setPen(QPen(QColor("#ff7f0e"), 2));
    gUsed->setData(months, used, true);

    auto* gCeiling = plot.addGraph(plot.xAxis, plot.yAxis);
    gCeiling->setName(QString("ceiling"));
    gCeiling->setPen(QPen(QColor("#d62728"), 1.5, Qt::DashLine));
    gCeiling->setData(months, ceiling, true);

    double top = 0;
    for (double v : usable)
        top = std::max(top, v);
    for (double v : used)
        top = std::max(top, v);

    const auto path = std::find_if(p.expansions.begin(), p.expansions.end(),
                                   [](const ExpansionPath& e) { return e.keepsUp; });
    if (path != p.expansions.end() && !path->schedule.empty()) {
        QVector<double> expanded;
        std::size_t next = 0;
        double current = static_cast<double>(p.capacity.usableBytes) / tb;
        for (const auto& m : p.months) {
            while (next < path->schedule.size() && path->schedule[next].month <= m.month) {
                current = static_cast<double>(path->schedule[next].effectiveUsableBytes) / tb;
                ++next;
            }
            expanded << current;
            top = std::max(top, current);
        }
        auto* gExpanded = plot.addGraph(plot.xAxis, plot.yAxis);
        gExpanded->setName("with expansion");
        gExpanded->setLineStyle(QCPGraph::lsStepLeft);
        gExpanded->setPen(QPen(QColor("#2ca02c"), 1.5, Qt::DashDotLine));
        gExpanded->setData(months, expanded, true);
        for (const auto& step : path->schedule) {
            auto* line = new QCPItemStraightLine(&plot);
            line->setObjectName("expansion-step");
            line->point1->setCoords(static_cast<double>(step.month), 0);
            line->point2->setCoords(static_cast<double>(step.month), 1);
            line->setPen(QPen(QColor("#2ca02c"), 1, Qt::DotLine));
            line->setSelectable(false);
        }
    }

    plot.xAxis->setLabel("month");
    plot.yAxis->setLabel(unitName);
    plot.xAxis->setRange(0, months.isEmpty() ? 1.0 : std::max(1.0, months.back()));
    plot.yAxis->setRange(0, top > 0 ? top * 1.1 : 1.0);
    plot.yAxis->grid()->setVisible(true);
    QString title = qs(p.name) + ": ";
    title += p.ceilingMonth ? QString("ceiling passed in month %1").arg(*p.ceilingMonth)
                            : QString("ceiling not passed");
    setTitle(plot, title);
    showLegend(plot);
}

void buildSteadyStateChart(QCustomPlot& plot, const SteadyStateSeries& series) {
    reset(plot);
    const auto& c = series.check;
    QVector<double> x, y;
    for (std::size_t i = 0; i < series.rounds.size(); ++i) {
        x << static_cast<double>(i + 1);
        y << series.rounds[i];
    }
    auto* tracked = plot.addGraph(plot.xAxis, plot.yAxis);
    tracked->setName("tracked");
    tracked->setPen(QPen(QColor("#1f77b4"), 2));
    tracked->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    tracked->setData(x, y, true);
    double top = 0;
    for (const double v : y)
        top = std::max(top, v);
    if (c.windowRounds > 0) {
        const double first = static_cast<double>(c.windowStart + 1);
        const double last = static_cast<double>(c.windowStart + c.windowRounds);
        auto line = [&](const char* name, double from, double to, const QPen& pen) {
            auto* g = plot.addGraph(plot.xAxis, plot.yAxis);
            g->setName(name);
            g->setPen(pen);
            g->setData(QVector<double>{first, last}, QVector<double>{from, to}, true);
            top = std::max({top, from, to});
        };
        line("average", c.average, c.average, QPen(QColor("#2ca02c"), 1.5));
        line("110 % of average", 1.1 * c.average, 1.1 * c.average,
             QPen(QColor("#2ca02c"), 1, Qt::DotLine));
        line("90 % of average", 0.9 * c.average, 0.9 * c.average,
             QPen(QColor("#2ca02c"), 1, Qt::DotLine));
        // The fitted line passes through the window's average at its middle.
        const double half = static_cast<double>(c.windowRounds - 1) / 2.0;
        line("slope", c.average - c.slope * half, c.average + c.slope * half,
             QPen(QColor("#ff7f0e"), 1.5, Qt::DashLine));
    }
    plot.xAxis->setLabel("round");
    plot.yAxis->setLabel(qs(series.tracked));
    plot.xAxis->setRange(0.5, std::max(1.0, static_cast<double>(series.rounds.size())) + 0.5);
    plot.yAxis->setRange(0, top > 0 ? top * 1.15 : 1.0);
    plot.yAxis->grid()->setVisible(true);
    setTitle(plot, qs(series.workload + " on " + series.layout + ": ") +
                       (c.reached ? QString("steady state over rounds %1-%2")
                                        .arg(c.windowStart + 1)
                                        .arg(c.windowStart + c.windowRounds)
                                  : QString("not at steady state")));
    showLegend(plot);
}

} // namespace lb::charts
