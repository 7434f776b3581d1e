// The Charts tab (see charts_tab.h).
#include "app/gui/charts_tab.h"

#include "reports/charts.h"
#include "reports/comparison_text.h"
#include "reports/display.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTabWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cassert>
#include <cmath>
#include <qcustomplot.h>

namespace lb::gui {

namespace {

QCustomPlot* makePlot(const QString& name) {
    auto* plot = new QCustomPlot;
    plot->setObjectName(name);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->setMinimumHeight(140);
    plot->setNoAntialiasingOnDrag(true);
    plot->setMouseTracking(true);
    return plot;
}

// After a chart function built a plot: the app's interactions, whatever the chart set.
void finish(QCustomPlot* plot) {
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->replot();
}

// The label a text ticker gives a key, else the key itself.
QString keyLabel(const QCPAxis* axis, double key) {
    if (auto text = qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker())) {
        const auto& ticks = text->ticks();
        auto it = ticks.lowerBound(key - 0.5);
        QString best;
        double distance = 1e300;
        for (; it != ticks.end() && it.key() <= key + 0.5; ++it)
            if (std::abs(it.key() - key) < distance) {
                distance = std::abs(it.key() - key);
                best = it.value();
            }
        if (!best.isEmpty())
            return best.simplified();
    }
    return QString::number(key);
}

} // namespace

ChartsTab::ChartsTab(QWidget* parent) : QWidget(parent) {
    bars_ = makePlot(QStringLiteral("bars"));
    overhead_ = makePlot(QStringLiteral("overhead"));
    timeSeries_ = makePlot(QStringLiteral("time-series"));
    percentile_ = makePlot(QStringLiteral("percentiles"));
    sweep_ = makePlot(QStringLiteral("sweep"));
    order_ = {bars_, overhead_, timeSeries_, percentile_, sweep_};
    // One chart at a time: each gets the whole height, which a 768-pixel screen needs for the
    // metric names under the bars.
    plots_ = new QTabWidget;
    plots_->setDocumentMode(true);
    // Each chart sits on a stack with a placeholder, shown while there is nothing to draw.
    for (QCustomPlot* plot : order_) {
        auto* stack = new QStackedWidget;
        auto* empty = new QLabel;
        empty->setAlignment(Qt::AlignCenter);
        empty->setWordWrap(true);
        empty->setObjectName(QStringLiteral("placeholder"));
        stack->addWidget(empty);
        stack->addWidget(plot);
        stacks_.push_back(stack);
    }
    // The charts of a run's course choose what they show above the chart.
    auto chooser = [](const QString& label, QComboBox* box, QStackedWidget* stack) {
        auto* page = new QWidget;
        auto* row = new QHBoxLayout;
        row->addWidget(new QLabel(label));
        row->addWidget(box, 1);
        auto* column = new QVBoxLayout(page);
        column->setContentsMargins(0, 4, 0, 0);
        column->addLayout(row);
        column->addWidget(stack, 1);
        return page;
    };
    seriesBox_ = new QComboBox;
    seriesBox_->setObjectName(QStringLiteral("series"));
    curveBox_ = new QComboBox;
    curveBox_->setObjectName(QStringLiteral("curves"));
    sweepBox_ = new QComboBox;
    sweepBox_->setObjectName(QStringLiteral("sweeps"));
    plots_->addTab(stacks_[0], tr("Grouped bars per layout"));
    plots_->addTab(stacks_[1], tr("Overhead of the candidate"));
    plots_->addTab(chooser(tr("Series:"), seriesBox_, stacks_[2]), tr("Over time"));
    plots_->addTab(chooser(tr("Latency:"), curveBox_, stacks_[3]), tr("Latency percentiles"));
    plots_->addTab(chooser(tr("Sweep:"), sweepBox_, stacks_[4]), tr("Queue-depth sweep"));
    connect(seriesBox_, &QComboBox::currentIndexChanged, this, [this] { rebuildTimeSeries(); });
    connect(curveBox_, &QComboBox::currentIndexChanged, this, [this] { rebuildPercentiles(); });
    connect(sweepBox_, &QComboBox::currentIndexChanged, this, [this] { rebuildSweep(); });

    note_ = new QLabel;
    note_->setWordWrap(true); // never widens the window
    note_->setTextFormat(Qt::RichText);
    note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    normalise_ = new QCheckBox(tr("Cost against the baseline"));
    normalise_->setChecked(true);
    normalise_->setToolTip(tr("Every metric as the verdicts weigh it: the layout's time per unit "
                              "of work over the baseline's (1 = the same), so higher is worse "
                              "for a throughput and a latency alike"));
    connect(normalise_, &QCheckBox::toggled, this, [this] { rebuildBars(); });
    auto* reset = new QPushButton(tr("Reset view"));
    reset->setToolTip(tr("Undo zoom and pan"));
    auto* png = new QPushButton(tr("Export PNG…"));
    auto* pdf = new QPushButton(tr("Export PDF…"));

    auto* top = new QHBoxLayout;
    top->addWidget(note_, 1);
    top->addSpacing(12);
    top->addWidget(normalise_);
    top->addWidget(reset);
    top->addWidget(png);
    top->addWidget(pdf);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(plots_, 1);

    connect(plots_, &QTabWidget::currentChanged, this,
            [this] { normalise_->setEnabled(currentPlot() == bars_); });
    connect(reset, &QPushButton::clicked, this, [this] { rebuild(currentPlot()); });
    connect(png, &QPushButton::clicked, this, [this] { exportDialog(currentPlot(), false); });
    connect(pdf, &QPushButton::clicked, this, [this] { exportDialog(currentPlot(), true); });
    for (QCustomPlot* plot : order_)
        connect(plot, &QCustomPlot::mouseMove, this,
                [this, plot](QMouseEvent* e) { onMouseMove(plot, e); });
    clear();
}

QCustomPlot* ChartsTab::currentPlot() const {
    const int i = plots_->currentIndex();
    return i >= 0 && static_cast<std::size_t>(i) < order_.size()
               ? order_[static_cast<std::size_t>(i)]
               : bars_;
}

void ChartsTab::rebuild(QCustomPlot* plot) {
    if (plot == bars_)
        rebuildBars();
    else if (plot == overhead_)
        rebuildOverhead();
    else if (plot == timeSeries_)
        rebuildTimeSeries();
    else if (plot == percentile_)
        rebuildPercentiles();
    else
        rebuildSweep();
}

QString ChartsTab::placeholderText(QCustomPlot* plot) const {
    for (std::size_t i = 0; i < order_.size(); ++i)
        if (order_[i] == plot && stacks_[i]->currentIndex() == 0)
            return qobject_cast<QLabel*>(stacks_[i]->widget(0))->text();
    return {};
}

// Shows the chart of `stack` when it has something to draw; else its placeholder, saying `why`
// once there is a comparison at all. Returns whether the chart is shown.
bool ChartsTab::showChartIf(QStackedWidget* stack, bool drawable, const QString& why) {
    stack->setCurrentIndex(hasData_ && drawable ? 1 : 0);
    if (hasData_ && !drawable)
        qobject_cast<QLabel*>(stack->widget(0))->setText(why);
    return hasData_ && drawable;
}

// A chart of a run's course, or the placeholder saying why there is none.
void ChartsTab::rebuildTimeSeries() {
    const QString name = seriesBox_->currentData().toString();
    if (!showChartIf(stacks_[2], !name.isEmpty(),
                     tr("No per-interval logs: the runs of these layouts recorded none "
                        "(imported results, fio job files and runs on exports or clients "
                        "have none; fio presets in the layout's directory log them unless "
                        "their log_avg_msec is 0).")))
        return;
    charts::buildTimeSeriesChart(*timeSeries_, data_, ss(name));
    finish(timeSeries_);
}

void ChartsTab::rebuildPercentiles() {
    const QString name = curveBox_->currentData().toString();
    if (!showChartIf(stacks_[3], !name.isEmpty(),
                     tr("No latency histogram: fio prints one with --output-format=json+ "
                        "(the presets ask for it); older runs, plain JSON and other tools "
                        "have none.")))
        return;
    charts::buildPercentileChart(*percentile_, data_, ss(name));
    finish(percentile_);
}

void ChartsTab::rebuildSweep() {
    const QStringList key = sweepBox_->currentData().toStringList();
    if (!showChartIf(stacks_[4], key.size() == 2,
                     tr("No queue-depth sweep: run the fio preset qd-sweep (random 4 KiB "
                        "reads at queue depths 1 to 64) to see IOPS and p99 latency "
                        "against queue depth.")))
        return;
    charts::buildSweepChart(*sweep_, data_, ss(key[0]), ss(key[1]));
    finish(sweep_);
}

void ChartsTab::rebuildOverhead() {
    overhead_->clearPlottables();
    overhead_->clearItems();
    if (hasData_ && !data_.comparisons.empty())
        charts::buildOverheadChart(*overhead_, data_.comparisons.front());
    finish(overhead_);
}

void ChartsTab::showResult(const ReportData& charts) {
    assert(!charts.comparisons.empty());
    data_ = charts;
    const Comparison& comparison = data_.comparisons.front();
    hasData_ = true;
    for (QStackedWidget* stack : stacks_)
        stack->setCurrentIndex(1);
    {
        // Keep the series and the sweep chosen, where the new data has them too.
        const QString series = seriesBox_->currentData().toString();
        const QString curve = curveBox_->currentData().toString();
        const QStringList sweep = sweepBox_->currentData().toStringList();
        const QSignalBlocker blockSeries(seriesBox_), blockCurve(curveBox_), blockSweep(sweepBox_);
        const auto offer = [](QComboBox* box, const QStringList& names, const QString& chosen) {
            box->clear();
            for (const QString& name : names)
                box->addItem(name.startsWith("fio.") ? name.mid(4) : name, name);
            box->setCurrentIndex(std::max(0, box->findData(chosen)));
        };
        offer(seriesBox_, charts::timeSeriesNames(data_), series);
        offer(curveBox_, charts::percentileCurveNames(data_), curve);
        sweepBox_->clear();
        for (const auto& [family, direction] : charts::sweepKeys(data_))
            sweepBox_->addItem(qs(family + " " + direction),
                               QStringList{qs(family), qs(direction)});
        sweepBox_->setCurrentIndex(std::max(0, sweepBox_->findData(sweep)));
    }
    note_->setText(tr("<b>%1</b> against <b>%2</b>: %3. <span style=\"color: gray\">Drag to "
                      "pan, wheel to zoom, hover a bar for its values.</span>")
                       .arg(qs(comparison.candidate).toHtmlEscaped(),
                            qs(comparison.baseline).toHtmlEscaped(),
                            qs(verdictName(comparison.verdict))));
    rebuildBars();
    rebuildOverhead();
    rebuildTimeSeries();
    rebuildPercentiles();
    rebuildSweep();
}

void ChartsTab::clear(const QString& why) {
    hasData_ = false;
    data_ = {};
    seriesBox_->clear();
    curveBox_->clear();
    sweepBox_->clear();
    for (QCustomPlot* plot : order_) {
        plot->clearPlottables();
        plot->clearItems();
        plot->replot();
    }
    const QString text = why.isEmpty() ? tr("Open a database and pick a baseline and a candidate "
                                            "on the Results tab.")
                                       : why;
    for (QStackedWidget* stack : stacks_) {
        stack->setCurrentIndex(0);
        qobject_cast<QLabel*>(stack->widget(0))->setText(text);
    }
    note_->setText(text.toHtmlEscaped());
}

void ChartsTab::rebuildBars() {
    bars_->clearPlottables();
    bars_->clearItems();
    barMetrics_ = hasData_ ? charts::barMetrics(data_) : QStringList();
    if (hasData_)
        charts::buildGroupedBars(*bars_, data_, barMetrics_, normalise_->isChecked());
    finish(bars_);
}

QString ChartsTab::hoverText(QCustomPlot* plot, const QPointF& pos) const {
    int index = -1;
    if (auto* graph = plot->plottableAt<QCPGraph>(pos, false, &index);
        graph && index >= 0 && index < graph->data()->size())
        return QStringLiteral("<b>%1</b><br>%2: %3<br>%4: %5")
            .arg(graph->name().toHtmlEscaped(), graph->keyAxis()->label().toHtmlEscaped())
            .arg(graph->data()->at(index)->key, 0, 'g', 4)
            .arg(graph->valueAxis()->label().toHtmlEscaped())
            .arg(graph->data()->at(index)->value, 0, 'g', 4);
    auto* bars = plot->plottableAt<QCPBars>(pos, false, &index);
    if (!bars || index < 0 || index >= bars->data()->size() || !hasData_)
        return {};
    const double key = bars->data()->at(index)->key;
    const double value = bars->data()->at(index)->value;
    const QString label = keyLabel(bars->keyAxis(), key).toHtmlEscaped();
    // The charts put metric k (in the order they were given) at key k + 1.
    const auto k = static_cast<qsizetype>(std::lround(key)) - 1;
    if (plot == overhead_) {
        std::vector<const MetricComparison*> decisive;
        if (!data_.comparisons.empty())
            for (const auto& m : data_.comparisons.front().metrics)
                if (m.decisive)
                    decisive.push_back(&m);
        if (k < 0 || k >= static_cast<qsizetype>(decisive.size()))
            return QStringLiteral("<b>%1</b><br>%2 %").arg(label).arg(value, 0, 'f', 1);
        const MetricComparison& m = *decisive[static_cast<std::size_t>(k)];
        return tr("<b>%1</b><br>%2 → %3<br>ratio %4, 95 % interval %5 (%6)<br>%7")
            .arg(qs(m.name).toHtmlEscaped(), qs(display::value(m.baselineMedian, m.unit)),
                 qs(display::value(m.candidateMedian, m.unit)), qs(display::ratio(m.ratio)),
                 qs(intervalText(m)),
                 m.confident ? tr("confident") : tr("not confident: %1").arg(qs(m.uncertainty)),
                 qs(verdictReason(m)).toHtmlEscaped());
    }
    if (k < 0 || k >= barMetrics_.size())
        return QStringLiteral("<b>%1</b><br>%2: %3")
            .arg(label, bars->name().toHtmlEscaped())
            .arg(value, 0, 'g', 4);
    return barText(ss(barMetrics_[k]), ss(bars->name()));
}

QString ChartsTab::barText(const std::string& metric, const std::string& layout) const {
    const auto info = describeMetric(metric);
    const Unit unit = info ? info->unit : Unit::Count;
    QString text = QStringLiteral("<b>%1</b> on <b>%2</b>")
                       .arg(qs(metric).toHtmlEscaped(), qs(layout).toHtmlEscaped());
    if (const auto it = data_.samples.find(layout); it != data_.samples.end())
        for (const auto& s : it->second.metrics)
            if (s.name == metric && !s.values.empty()) {
                const auto [lo, hi] = std::minmax_element(s.values.begin(), s.values.end());
                text += tr("<br>median %1").arg(qs(display::value(median(s.values), unit)));
                if (s.values.size() > 1)
                    text += tr("<br>%1 iterations, from %2 to %3")
                                .arg(s.values.size())
                                .arg(qs(display::value(*lo, unit)), qs(display::value(*hi, unit)));
            }
    if (!normalise_->isChecked())
        return text;
    // The comparison's own ratio: a bar cut at the top is shorter than it.
    if (layout == data_.baseline)
        return text + tr("<br>the baseline: cost ratio 1");
    for (const auto& c : data_.comparisons)
        for (const auto& m : c.metrics)
            if (c.candidate == layout && m.name == metric)
                text += tr("<br>cost ratio %1 against %2")
                            .arg(qs(display::ratio(m.ratio)), qs(c.baseline).toHtmlEscaped());
    return text;
}

void ChartsTab::onMouseMove(QCustomPlot* plot, QMouseEvent* event) {
    if (event->buttons() != Qt::NoButton)
        return; // dragging
    const QString text = hoverText(plot, event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, plot);
}

bool ChartsTab::exportChart(QCustomPlot* plot, const QString& path) {
    if (path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive))
        return plot->savePdf(path, 0, 0, QCP::epAllowCosmetic, QStringLiteral("layoutbench"),
                             QFileInfo(path).completeBaseName());
    return plot->savePng(path, 0, 0, 2.0);
}

void ChartsTab::exportDialog(QCustomPlot* plot, bool pdf) {
    const QString suffix = pdf ? QStringLiteral(".pdf") : QStringLiteral(".png");
    const QString base = QStringLiteral("layoutbench-") + plot->objectName();
    QString path = QFileDialog::getSaveFileName(
        this, pdf ? tr("Export chart as PDF") : tr("Export chart as PNG"), base + suffix,
        pdf ? tr("PDF document (*.pdf)") : tr("PNG image (*.png)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(suffix, Qt::CaseInsensitive))
        path += suffix;
    if (!exportChart(plot, path))
        QMessageBox::warning(this, tr("Export chart"), tr("Could not write %1.").arg(path));
}

} // namespace lb::gui
