// A chart model drawn into a QCustomPlot (see charts.h): every decision about what a chart shows
// was made in chart_model.h; this file only maps its pieces onto QCustomPlot's.
#include "reports/charts.h"

#include <QFontMetricsF>
#include <cmath>
#include <qcustomplot.h>

namespace lb::charts {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QStringList qList(const std::vector<std::string>& names) {
    QStringList out;
    for (const auto& n : names)
        out << qs(n);
    return out;
}

QColor colour(const std::string& rgb, int alpha = 255) {
    QColor c(qs(rgb));
    c.setAlpha(alpha);
    return c;
}

QPen pen(const chart::Stroke& s) {
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine,
                                          Qt::DashDotLine};
    return QPen(colour(s.colour, s.alpha), s.width, styles[static_cast<int>(s.dash)]);
}

QVector<double> qVector(const std::vector<double>& v) {
    return QVector<double>(v.begin(), v.end());
}

// Removes what a previous draw left: plottables, items, bar groups, the title, the legend's row.
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
    plot.legend->setVisible(false);
    if (!plot.layer("labels"))
        plot.addLayer("labels", plot.layer("main"), QCustomPlot::limAbove);
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

QSharedPointer<QCPAxisTicker> ticker(const chart::Axis& a) {
    switch (a.tickKind) {
    case chart::Axis::Ticks::Given: {
        QSharedPointer<QCPAxisTickerText> text(new QCPAxisTickerText);
        for (const auto& t : a.ticks)
            text->addTick(t.at, qs(t.label));
        return text;
    }
    case chart::Axis::Ticks::Powers:
        return QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog);
    case chart::Axis::Ticks::Auto:
        break;
    }
    return QSharedPointer<QCPAxisTicker>(new QCPAxisTicker);
}

void setAxis(QCPAxis& axis, const chart::Axis& a) {
    axis.setVisible(a.visible);
    axis.setLabel(qs(a.label));
    axis.setScaleType(a.logarithmic ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    axis.setTicker(ticker(a));
    axis.setSubTicks(!a.categories);
    if (a.categories)
        axis.setTickLength(0, 4);
    else
        axis.setTickLength(5, 0);
    axis.setTickLabelRotation(a.uprightLabels ? 90 : 0);
    axis.grid()->setVisible(a.grid);
    axis.grid()->setZeroLinePen(a.zeroLine.empty() ? QPen(Qt::NoPen) : QPen(colour(a.zeroLine)));
    axis.setRange(a.min, a.max);
}

void addBand(QCustomPlot& plot, const chart::Band& b) {
    auto* rect = new QCPItemRect(&plot);
    rect->setObjectName(qs(b.name));
    rect->setLayer("background");
    for (auto* pos : {rect->topLeft, rect->bottomRight}) {
        pos->setTypeX(QCPItemPosition::ptAxisRectRatio);
        pos->setTypeY(QCPItemPosition::ptPlotCoords);
    }
    rect->topLeft->setCoords(0, b.high);
    rect->bottomRight->setCoords(1, b.low);
    rect->setPen(Qt::NoPen);
    rect->setBrush(colour(b.colour, b.alpha));
    rect->setSelectable(false);
}

void addBars(QCustomPlot& plot, const chart::Series& s, QCPBarsGroup*& group) {
    auto* bars = new QCPBars(plot.xAxis, s.rightAxis ? plot.yAxis2 : plot.yAxis);
    bars->setName(qs(s.name));
    bars->setWidth(s.barWidth);
    if (s.grouped) {
        if (!group) {
            group = new QCPBarsGroup(&plot);
            group->setSpacingType(QCPBarsGroup::stAbsolute);
            group->setSpacing(1);
        }
        bars->setBarsGroup(group);
    }
    bars->setBrush(colour(s.fill));
    bars->setPen(pen(s.stroke));
    bars->setData(qVector(s.x), qVector(s.y), true);
    if (s.errorMinus.empty() && s.errorPlus.empty())
        return;
    auto* whiskers = new QCPErrorBars(plot.xAxis, s.rightAxis ? plot.yAxis2 : plot.yAxis);
    whiskers->setName(qs(s.errorName));
    whiskers->setDataPlottable(bars);
    whiskers->setData(qVector(s.errorMinus), qVector(s.errorPlus));
    whiskers->setPen(QPen(QColor("#202020")));
    whiskers->setWhiskerWidth(6);
    whiskers->removeFromLegend();
}

void addLine(QCustomPlot& plot, const chart::Series& s) {
    auto* g = plot.addGraph(plot.xAxis, s.rightAxis ? plot.yAxis2 : plot.yAxis);
    g->setName(qs(s.name));
    g->setPen(pen(s.stroke));
    g->setLineStyle(s.kind == chart::Series::Kind::StepLine ? QCPGraph::lsStepLeft
                                                            : QCPGraph::lsLine);
    if (s.marker != chart::Marker::None)
        g->setScatterStyle(QCPScatterStyle(s.marker == chart::Marker::Circle
                                               ? QCPScatterStyle::ssCircle
                                               : QCPScatterStyle::ssSquare,
                                           s.markerSize));
    g->setData(qVector(s.x), qVector(s.y), true);
    if (!s.inLegend)
        g->removeFromLegend();
}

Qt::Alignment alignment(chart::Align horizontal, chart::Align vertical) {
    const Qt::Alignment h = horizontal == chart::Align::Start    ? Qt::AlignLeft
                            : horizontal == chart::Align::Centre ? Qt::AlignHCenter
                                                                 : Qt::AlignRight;
    const Qt::Alignment v = vertical == chart::Align::Start    ? Qt::AlignTop
                            : vertical == chart::Align::Centre ? Qt::AlignVCenter
                                                               : Qt::AlignBottom;
    return h | v;
}

void addLabel(QCustomPlot& plot, const chart::Label& l) {
    auto* text = new QCPItemText(&plot);
    if (!l.name.empty())
        text->setObjectName(qs(l.name));
    text->setLayer("labels");
    QFont font(plot.font().family());
    font.setPointSizeF(l.points);
    text->setFont(font);
    text->position->setType(QCPItemPosition::ptPlotCoords);
    text->position->setCoords(l.x, l.y);
    text->setPositionAlignment(alignment(l.horizontal, l.vertical));
    text->setRotation(l.upright ? 90 : 0);
    text->setPadding(QMargins(l.padLeft, l.padTop, l.padRight, l.padBottom));
    if (!l.background.empty())
        text->setBrush(colour(l.background, l.backgroundAlpha));
    text->setText(qs(l.text));
    text->setSelectable(false);
}

void addArrow(QCustomPlot& plot, const chart::Arrow& a) {
    auto* arrow = new QCPItemLine(&plot);
    arrow->setObjectName(qs(a.name));
    arrow->setLayer("labels");
    arrow->start->setCoords(a.x1, a.y1);
    arrow->end->setCoords(a.x2, a.y2);
    arrow->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 7, 9));
    arrow->setPen(QPen(colour(a.colour)));
    arrow->setSelectable(false);
}

void addRule(QCustomPlot& plot, const chart::Rule& r) {
    auto* line = new QCPItemStraightLine(&plot);
    line->setObjectName(qs(r.name));
    line->point1->setCoords(r.x, 0);
    line->point2->setCoords(r.x, 1);
    line->setPen(pen(r.stroke));
    line->setSelectable(false);
}

} // namespace

void draw(QCustomPlot& plot, const chart::Chart& c) {
    reset(plot);
    setAxis(*plot.xAxis, c.x);
    setAxis(*plot.yAxis, c.y);
    setAxis(*plot.yAxis2, c.y2);
    for (const auto& b : c.bands)
        addBand(plot, b);
    QCPBarsGroup* group = nullptr;
    for (const auto& s : c.series)
        if (s.kind == chart::Series::Kind::Bars)
            addBars(plot, s, group);
        else
            addLine(plot, s);
    for (const auto& a : c.arrows)
        addArrow(plot, a);
    for (const auto& l : c.labels)
        addLabel(plot, l);
    for (const auto& r : c.rules)
        addRule(plot, r);
    setTitle(plot, qs(c.title));
    if (c.legend)
        showLegend(plot);
}

int pictureHeight(QCustomPlot& plot, int width, int height) {
    // The layout at that size, as toPixmap lays it out, without painting.
    const QRect shown = plot.viewport();
    plot.setViewport(QRect(0, 0, width, height));
    for (const auto phase :
         {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        plot.plotLayout()->update(phase);
    const int area = plot.axisRect()->rect().height();
    plot.setViewport(shown);
    return chart::pictureHeight(height, static_cast<double>(height - area));
}

void buildGroupedBars(QCustomPlot& plot, const ReportData& data, const QStringList& metrics,
                      bool costRatios) {
    std::vector<std::string> names;
    for (const QString& m : metrics)
        names.push_back(m.toStdString());
    draw(plot, chart::groupedBars(data, names, costRatios));
}

void buildOverheadChart(QCustomPlot& plot, const Comparison& comparison) {
    draw(plot, chart::overhead(comparison));
}

void buildProjectionChart(QCustomPlot& plot, const LayoutProjection& projection, bool binary) {
    draw(plot, chart::projection(projection, binary));
}

void buildSteadyStateChart(QCustomPlot& plot, const SteadyStateSeries& series) {
    draw(plot, chart::steadyState(series));
}

void buildTimeSeriesChart(QCustomPlot& plot, const ReportData& data, const std::string& name) {
    draw(plot, chart::timeSeries(data, name));
}

void buildPercentileChart(QCustomPlot& plot, const ReportData& data, const std::string& name) {
    draw(plot, chart::percentiles(data, name));
}

void buildSweepChart(QCustomPlot& plot, const ReportData& data, const std::string& family,
                     const std::string& direction) {
    draw(plot, chart::sweep(data, family, direction));
}

QStringList barMetrics(const ReportData& data) {
    return qList(chart::barMetrics(data));
}

QStringList timeSeriesNames(const ReportData& data) {
    return qList(chart::timeSeriesNames(data));
}

QStringList percentileCurveNames(const ReportData& data) {
    return qList(chart::percentileCurveNames(data));
}

QString verdictColor(Verdict v) {
    return qs(chart::verdictColour(v));
}

} // namespace lb::charts
