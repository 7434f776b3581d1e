// The charts shared by layoutbench-gui and the decision report: grouped bars per layout with the
// spread over iterations, and the overhead chart of one comparison with its threshold bands. Both
// clear the plot first, so the app can rebuild a chart in place; neither sets interactions (the
// app adds zoom, pan and hover).
#include "reports/charts.h"

#include "engine/measure/series.h"
#include "reports/display.h"

#include <QFontMetricsF>
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <qcustomplot.h>
#include <set>
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

// Names, sorted and each once, as a chart's list of choices.
QStringList sortedNames(std::vector<std::string> names) {
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    QStringList out;
    for (const auto& n : names)
        out << qs(n);
    return out;
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
    plot.yAxis2->setLabel({});
    plot.yAxis2->setVisible(false);
    for (QCPAxis* axis : {plot.xAxis, plot.yAxis, plot.yAxis2}) {
        axis->setScaleType(QCPAxis::stLinear);
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    }
    plot.xAxis->setTickLabelRotation(0);
    plot.legend->setVisible(false);
}

void setTitle(QCustomPlot& plot, const QString& text) {
    plot.plotLayout()->insertRow(0);
    const QFont font(plot.font().family(), 11, QFont::Bold);
    // A title wider than the report's charts (900 px) is cut at both ends by QCPTextElement:
    // it breaks at spaces onto more lines instead.
    constexpr double widest = 860;
    const QFontMetricsF metrics(font);
    QString wrapped, line;
    for (const QString& word : text.split(' ')) {
        const QString longer = line.isEmpty() ? word : line + ' ' + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(longer) > widest) {
            wrapped += (wrapped.isEmpty() ? "" : "\n") + line;
            line = word;
        } else {
            line = longer;
        }
    }
    wrapped += (wrapped.isEmpty() ? "" : "\n") + line;
    auto* title = new QCPTextElement(&plot, wrapped, font);
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
    // Every metric that decides a comparison is drawn, whatever its kind (a p99 latency, a
    // bonnie++ file operation): a chart that leaves out what decided would look surer than it is.
    std::set<std::string> deciding;
    for (const auto& c : data.comparisons)
        for (const auto& m : c.metrics)
            if (m.decisive)
                deciding.insert(m.name);
    std::vector<std::string> names;
    for (const auto& [layout, samples] : data.samples)
        for (const auto& s : samples.metrics)
            if ((isBarMetric(s.name) || deciding.count(s.name)) && !s.values.empty())
                names.push_back(s.name);
    return sortedNames(std::move(names));
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
    // How many runs each bar stands for, written above it (on a layer over the bars).
    if (!plot.layer("labels"))
        plot.addLayer("labels", plot.layer("main"), QCustomPlot::limAbove);
    const double groupOffset = -0.5 * width * static_cast<double>(data.layouts.size() - 1);
    const int countFont = names.size() * data.layouts.size() > 24 ? 6 : 7;
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
            // One run has no spread: no whisker rather than a flat one (NaN draws none).
            const bool spread = s->values.size() > 1;
            minus.push_back(spread ? (mid - *lo) * scale : qQNaN());
            plus.push_back(spread ? (*hi - mid) * scale : qQNaN());
            top = std::max(top, *hi * scale);
            auto* count = new QCPItemText(&plot);
            count->setObjectName("run-count");
            count->setLayer("labels");
            count->setFont(QFont(plot.font().family(), countFont));
            count->position->setType(QCPItemPosition::ptPlotCoords);
            count->position->setCoords(static_cast<double>(k + 1) + groupOffset +
                                           width * static_cast<double>(li),
                                       *hi * scale);
            count->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            count->setPadding(QMargins(0, 0, 0, 2));
            count->setText(QString("n=%1").arg(s->values.size()));
            count->setSelectable(false);
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
    setTitle(plot, normalise ? "Median per layout, relative to the baseline (bars: min–max, n runs)"
                             : "Median per layout in " + unitLabel + " (bars: min–max, n runs)");
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
            // No interval below three runs a side: no whisker rather than a false one (NaN
            // draws none), and the label says so.
            minus.push_back(m.interval ? std::max(0.0, v - clamp((m.interval->low - 1.0) * 100.0))
                                       : qQNaN());
            // An interval that runs past the top ends in an arrow there, with its value.
            const double high = m.interval ? (m.interval->high - 1.0) * 100.0 : 0.0;
            const bool highCut = m.interval && !(high < cap);
            plus.push_back(m.interval && !highCut ? std::max(0.0, high - v) : qQNaN());
            if (highCut) {
                auto* arrow = new QCPItemLine(&plot);
                arrow->setObjectName("interval-cut");
                arrow->setLayer("labels");
                arrow->start->setCoords(static_cast<double>(i + 1), v);
                arrow->end->setCoords(static_cast<double>(i + 1), cap);
                arrow->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 7, 9));
                arrow->setPen(QPen(QColor("#202020")));
                arrow->setSelectable(false);
                auto* reach = new QCPItemText(&plot);
                reach->setObjectName("interval-cut-value");
                reach->setLayer("labels");
                reach->setFont(QFont(plot.font().family(), 7));
                reach->position->setType(QCPItemPosition::ptPlotCoords);
                reach->position->setCoords(static_cast<double>(i + 1), cap);
                reach->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
                reach->setPadding(QMargins(4, 1, 0, 0));
                reach->setText(std::isfinite(high) ? QString::asprintf("to %+.0f %%", high)
                                                   : QString("to inf"));
                reach->setSelectable(false);
            }

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
                text->setPadding(QMargins(1, 1, 1, 1));
                // Readable over the whisker that runs through it.
                text->setBrush(QColor(255, 255, 255, 200));
            }
            // The runs behind it, and whether there is an interval at all.
            // A line each, so that sixteen labels side by side stay apart.
            const QString runs = QString("n=%1/%2%3")
                                     .arg(m.baselineSamples)
                                     .arg(m.candidateSamples)
                                     .arg(m.interval ? "" : "\nno interval");
            const QString value = std::isfinite(m.overhead)
                                      ? QString::asprintf("%+.0f %%", m.overhead * 100.0)
                                      : QString("inf");
            text->setText(clamped ? value + "  " + QString(runs).replace('\n', ", ")
                                  : value + "\n" + runs);
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
        labels.push_back(
            metricLabel(m->name) +
            (labelled ? QString()
                      : QString(" (n=%1/%2)").arg(m->baselineSamples).arg(m->candidateSamples)));
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
std::pair<double, QString> byteAxisUnit(double bytes, bool binary) {
    const auto [scale, prefix] =
        binary ? display::binaryPrefix(bytes) : display::decimalPrefix(bytes);
    return {scale, prefix.empty() ? QStringLiteral("bytes") : qs(prefix + "B")};
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

const ExpansionPath* drawnExpansion(const LayoutProjection& p) {
    const auto drawn = [](const ExpansionPath& e) { return e.keepsUp && !e.schedule.empty(); };
    if (p.cost && p.cost->expansion)
        for (const auto& e : p.expansions)
            if (e.kind == *p.cost->expansion && drawn(e))
                return &e;
    const auto first = std::find_if(p.expansions.begin(), p.expansions.end(), drawn);
    return first == p.expansions.end() ? nullptr : &*first;
}

void buildProjectionChart(QCustomPlot& plot, const LayoutProjection& projection, bool binary) {
    reset(plot);
    const auto& p = projection;
    const auto [tb, unitName] = byteAxisUnit(projectionTop(p), binary);
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

    if (const ExpansionPath* path = drawnExpansion(p)) {
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
        gExpanded->setName("with " + qs(std::string(expansionKindName(path->kind))));
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

// ---- a run's course: series over time, queue-depth sweeps ------------------------------------

namespace {

// "fio.seq-read-1m.read.bw" -> "bandwidth"; the quantity a series' axis shows.
QString seriesQuantity(const std::string& name) {
    const std::string stat = name.substr(name.rfind('.') + 1);
    if (stat == "bw")
        return "bandwidth";
    if (stat == "iops")
        return "IOPS";
    if (stat == "lat_mean")
        return "mean total latency";
    if (stat == "lat_curve" || stat == "clat_curve")
        return stat == "lat_curve" ? "total latency" : "completion latency";
    return qs(stat);
}

QString axisLabel(const QString& quantity, const display::AxisUnit& unit) {
    return unit.label.empty() ? quantity : quantity + " (" + qs(unit.label) + ")";
}

// A layout's runs of one series (nullptr for a run without it).
std::vector<const Series*> runsOf(const std::vector<RunSeries>& runs, const std::string& name) {
    std::vector<const Series*> out;
    for (const auto& r : runs) {
        const auto it = std::find_if(r.series.begin(), r.series.end(),
                                     [&](const Series& s) { return s.name == name; });
        out.push_back(it == r.series.end() ? nullptr : &*it);
    }
    return out;
}

QCPGraph* addLine(QCustomPlot& plot, QCPAxis* valueAxis, const QString& name, const QPen& pen,
                  const QVector<double>& x, const QVector<double>& y) {
    auto* g = plot.addGraph(plot.xAxis, valueAxis);
    g->setName(name);
    g->setPen(pen);
    g->setData(x, y, true);
    return g;
}

} // namespace

namespace {

// The names of the series whose x is in `xUnit`, sorted, once each.
QStringList namesWithX(const ReportData& data, Unit xUnit) {
    std::vector<std::string> names;
    for (const auto& [layout, runs] : data.series)
        for (const auto& r : runs)
            for (const auto& s : r.series)
                if (s.xUnit == xUnit)
                    names.push_back(s.name);
    return sortedNames(std::move(names));
}

// One layout's runs of a series and its median one, with the layout's colour.
struct LayoutRuns {
    std::size_t colour = 0;
    std::string layout;
    std::vector<const Series*> runs; // nullptr: the run lacks the series
    const std::vector<RunSeries>* all = nullptr;
    std::size_t median = 0;
};

// The layouts (in order) with runs of the series; the largest value and unit of them all.
std::vector<LayoutRuns> layoutRuns(const ReportData& data, const std::string& name, double& largest,
                                   Unit& unit) {
    std::vector<LayoutRuns> out;
    for (std::size_t li = 0; li < data.layouts.size(); ++li) {
        const auto it = data.series.find(data.layouts[li].name);
        if (it == data.series.end())
            continue;
        auto runs = runsOf(it->second, name);
        const auto middle = medianRun(runs);
        if (!middle)
            continue;
        for (const Series* s : runs)
            if (s) {
                unit = s->unit;
                for (const double v : s->y)
                    largest = std::max(largest, v);
            }
        out.push_back({li, data.layouts[li].name, std::move(runs), &it->second, *middle});
    }
    return out;
}

// Each layout's runs as graphs at (key(x), y / divisor): the other iterations first, faint and
// out of the legend, the median ones over them, named after the layout.
void drawRuns(QCustomPlot& plot, const std::vector<LayoutRuns>& drawn,
              const std::function<double(double)>& key, double divisor) {
    auto points = [&](const Series& s, QVector<double>& x, QVector<double>& y) {
        for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            x << key(s.x[i]);
            y << s.y[i] / divisor;
        }
    };
    for (const auto& d : drawn)
        for (std::size_t r = 0; r < d.runs.size(); ++r) {
            if (!d.runs[r] || r == d.median)
                continue;
            QColor faint(layoutPalette[d.colour % std::size(layoutPalette)]);
            faint.setAlpha(70);
            QVector<double> x, y;
            points(*d.runs[r], x, y);
            addLine(plot, plot.yAxis,
                    qs(d.layout) + " iteration " + QString::number((*d.all)[r].iteration),
                    QPen(faint, 1), x, y)
                ->removeFromLegend();
        }
    for (const auto& d : drawn) {
        QVector<double> x, y;
        points(*d.runs[d.median], x, y);
        addLine(plot, plot.yAxis, qs(d.layout),
                QPen(QColor(layoutPalette[d.colour % std::size(layoutPalette)]), 2), x, y);
    }
}

// A percentile on the "nines" scale: 1 / (1 - p): 50 % at 2, 99 % at 100, 99.9 % at 1000; the
// last bucket (100 %) at 99.9999 %.
double nines(double percent) {
    return 1.0 / (1.0 - std::min(percent, 99.9999) / 100.0);
}

} // namespace

QStringList timeSeriesNames(const ReportData& data) {
    return namesWithX(data, Unit::Seconds);
}

QStringList percentileCurveNames(const ReportData& data) {
    return namesWithX(data, Unit::Percent);
}

void buildTimeSeriesChart(QCustomPlot& plot, const ReportData& data, const std::string& name) {
    reset(plot);
    double largest = 0;
    Unit unit = Unit::Count;
    const auto drawn = layoutRuns(data, name, largest, unit);
    double right = 0;
    for (const auto& d : drawn)
        for (const Series* s : d.runs)
            if (s && !s->x.empty())
                right = std::max(right, *std::max_element(s->x.begin(), s->x.end()));
    const auto axis = display::axisUnit(largest, unit);
    plot.xAxis->setLabel("seconds since the job started");
    plot.yAxis->setLabel(axisLabel(seriesQuantity(name), axis));
    plot.yAxis->grid()->setVisible(true);
    plot.xAxis->setRange(0, right > 0 ? right * 1.02 : 1.0);
    plot.yAxis->setRange(0, largest > 0 ? largest / axis.divisor * 1.1 : 1.0);
    if (drawn.empty()) {
        setTitle(plot, metricLabel(name) + ": no per-interval logs (imported results, job files "
                                           "and runs on exports or clients have none)");
        return;
    }
    drawRuns(
        plot, drawn, [](double x) { return x; }, axis.divisor);
    setTitle(plot, metricLabel(name) + " over time: the median iteration of each layout, the "
                                       "others faint");
    showLegend(plot);
}

void buildPercentileChart(QCustomPlot& plot, const ReportData& data, const std::string& name) {
    reset(plot);
    double largest = 0, smallest = 0, deepest = 2;
    Unit unit = Unit::Nanoseconds;
    const auto drawn = layoutRuns(data, name, largest, unit);
    for (const auto& d : drawn)
        for (const Series* s : d.runs)
            if (s)
                for (std::size_t i = 0; i < s->x.size() && i < s->y.size(); ++i) {
                    deepest = std::max(deepest, nines(s->x[i]));
                    if (s->y[i] > 0 && (smallest == 0 || s->y[i] < smallest))
                        smallest = s->y[i];
                }
    const auto axis = display::axisUnit(largest, unit);
    const bool total = name.ends_with(".lat_curve");
    plot.xAxis->setLabel("percentile of I/Os (at or below the latency)");
    plot.yAxis->setLabel(axisLabel(total ? "total latency" : "completion latency", axis) +
                         ", logarithmic");
    // Latency spans orders of magnitude: both axes logarithmic, the percentile as its nines.
    for (QCPAxis* a : {plot.xAxis, plot.yAxis})
        a->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    const std::pair<double, const char*> marks[] = {
        {0, "0"},       {50, "50"},       {90, "90"},         {99, "99"},
        {99.9, "99.9"}, {99.99, "99.99"}, {99.999, "99.999"}, {99.9999, "100"}};
    for (const auto& [percent, label] : marks)
        if (nines(percent) <= deepest * 1.001)
            ticks->addTick(nines(percent), label);
    plot.xAxis->setTicker(ticks);
    plot.yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog));
    plot.yAxis->grid()->setVisible(true);
    plot.xAxis->setRange(1, deepest * 1.2);
    plot.yAxis->setRange(smallest > 0 ? smallest / axis.divisor / 1.5 : 0.1,
                         largest > 0 ? largest / axis.divisor * 1.5 : 1.0);
    if (drawn.empty()) {
        setTitle(plot, metricLabel(name) + ": no latency histogram (fio's json+ output has one)");
        return;
    }
    drawRuns(plot, drawn, nines, axis.divisor);
    setTitle(plot, metricLabel(name) + ": latency by percentile, the median iteration of each "
                                       "layout, the others faint");
    showLegend(plot);
}

std::vector<std::pair<std::string, std::string>> sweepKeys(const ReportData& data) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [layout, samples] : data.samples)
        for (const auto& c : queueDepthSweeps(samples.metrics))
            out.emplace_back(c.family, c.direction);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

void buildSweepChart(QCustomPlot& plot, const ReportData& data, const std::string& family,
                     const std::string& direction) {
    reset(plot);
    struct Curve {
        std::size_t colour;
        std::string layout;
        SweepCurve curve;
    };
    std::vector<Curve> curves;
    double topIops = 0, topLatency = 0;
    int deepest = 1;
    bool completionOnly = false;
    for (std::size_t li = 0; li < data.layouts.size(); ++li) {
        const auto it = data.samples.find(data.layouts[li].name);
        if (it == data.samples.end())
            continue;
        for (auto& c : queueDepthSweeps(it->second.metrics)) {
            if (c.family != family || c.direction != direction)
                continue;
            for (const auto& p : c.points) {
                topIops = std::max(topIops, p.iops.value_or(0));
                topLatency = std::max(topLatency, p.p99Ns.value_or(0));
                deepest = std::max(deepest, p.depth);
            }
            completionOnly = completionOnly || c.p99Metric == "clat_p99";
            curves.push_back({li, data.layouts[li].name, std::move(c)});
        }
    }
    const auto iopsAxis = display::axisUnit(topIops, Unit::OpsPerSecond);
    const auto latencyAxis = display::axisUnit(topLatency, Unit::Nanoseconds);
    const QString latency = completionOnly ? "p99 completion latency" : "p99 total latency";
    for (const auto& c : curves) {
        const QColor colour(layoutPalette[c.colour % std::size(layoutPalette)]);
        QVector<double> depth, iops, depthLat, p99;
        for (const auto& p : c.curve.points) {
            if (p.iops) {
                depth << p.depth;
                iops << *p.iops / iopsAxis.divisor;
            }
            if (p.p99Ns) {
                depthLat << p.depth;
                p99 << *p.p99Ns / latencyAxis.divisor;
            }
        }
        auto* g = addLine(plot, plot.yAxis, qs(c.layout) + " IOPS", QPen(colour, 2), depth, iops);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
        auto* l = addLine(plot, plot.yAxis2, qs(c.layout) + " " + latency,
                          QPen(colour, 1.5, Qt::DashLine), depthLat, p99);
        l->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 5));
    }
    // Depths double: a base-2 logarithmic axis spaces them evenly.
    plot.xAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    for (int d = 1; d <= std::max(deepest, 1); d *= 2)
        ticks->addTick(d, QString::number(d));
    plot.xAxis->setTicker(ticks);
    plot.xAxis->setLabel("queue depth (iodepth)");
    plot.xAxis->setRange(0.8, deepest * 1.25);
    plot.yAxis->setLabel(axisLabel("IOPS, solid", iopsAxis));
    plot.yAxis->setRange(0, topIops > 0 ? topIops / iopsAxis.divisor * 1.1 : 1.0);
    plot.yAxis->grid()->setVisible(true);
    plot.yAxis2->setVisible(true);
    plot.yAxis2->setLabel(axisLabel(latency + ", dashed", latencyAxis));
    plot.yAxis2->setRange(0, topLatency > 0 ? topLatency / latencyAxis.divisor * 1.1 : 1.0);
    const QString what = qs(family + " " + direction);
    setTitle(plot, curves.empty() ? what + ": no queue-depth sweep (the qd-sweep preset)"
                                  : what + ": IOPS and " + latency + " against queue depth");
    if (!curves.empty())
        showLegend(plot);
}

} // namespace lb::charts
