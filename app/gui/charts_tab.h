// The Charts tab: the grouped bars per layout, the overhead chart of the current comparison, a
// series over time (fio's per-interval logs: the median iteration of each layout, the others
// faint), a latency percentile curve (fio's json+ histogram) and a queue-depth sweep, drawn by the
// shared chart code (reports/charts.h) so the app and the decision report show the same pictures.
// Zoom and pan with the mouse, values on hover, export to PNG and PDF.
#pragma once

#include "app/gui/gui_types.h"

#include <QStringList>
#include <QWidget>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QMouseEvent;
class QStackedWidget;
class QTabWidget;

namespace lb::gui {

class ChartsTab : public QWidget {
    Q_OBJECT
public:
    explicit ChartsTab(QWidget* parent = nullptr);

    // Draws the charts of one comparison (charts.comparisons holds it).
    void showResult(const ReportData& charts);
    void clear(const QString& why = {});

    // Exports one chart; the format follows the file name (.png or .pdf).
    bool exportChart(QCustomPlot* plot, const QString& path);

    // The text the tooltip shows for a point of a plot ("" when nothing is under it).
    QString hoverText(QCustomPlot* plot, const QPointF& pos) const;

    // What the charts are drawn from (empty before a comparison is shown).
    const ReportData& data() const { return data_; }
    QCustomPlot* barsPlot() const { return bars_; }
    QCustomPlot* overheadPlot() const { return overhead_; }
    QCustomPlot* timeSeriesPlot() const { return timeSeries_; }
    QCustomPlot* percentilePlot() const { return percentile_; }
    QCustomPlot* sweepPlot() const { return sweep_; }
    // The series over time and the percentile curves on offer (item data: the name as stored,
    // "fio.seq-read-1m.read.bw") and the sweeps ("fio read"); the placeholder shown instead of a
    // chart without data ("" when a chart shows).
    QComboBox* seriesBox() const { return seriesBox_; }
    QComboBox* curveBox() const { return curveBox_; }
    QComboBox* sweepBox() const { return sweepBox_; }
    QString placeholderText(QCustomPlot* plot) const;
    QCheckBox* normaliseBox() const { return normalise_; }
    QTabWidget* plotTabs() const { return plots_; }

private:
    void rebuildBars();
    // The hover text of a layout's bar of a metric on the grouped bars.
    QString barText(const std::string& metric, const std::string& layout) const;
    void onMouseMove(QCustomPlot* plot, QMouseEvent* event);
    void rebuildOverhead();
    bool showChartIf(QStackedWidget* stack, bool drawable, const QString& why);
    void rebuildTimeSeries();
    void rebuildPercentiles();
    void rebuildSweep();
    void rebuild(QCustomPlot* plot);
    QCustomPlot* currentPlot() const;
    void exportDialog(QCustomPlot* plot, bool pdf);

    QCustomPlot* bars_ = nullptr;
    QCustomPlot* overhead_ = nullptr;
    QCustomPlot* timeSeries_ = nullptr;
    QCustomPlot* percentile_ = nullptr;
    QCustomPlot* sweep_ = nullptr;
    QComboBox* seriesBox_ = nullptr;
    QComboBox* curveBox_ = nullptr;
    QComboBox* sweepBox_ = nullptr;
    QTabWidget* plots_ = nullptr;
    std::vector<QCustomPlot*> order_;     // the plots in tab order
    std::vector<QStackedWidget*> stacks_; // parallel to order_: placeholder or chart
    QCheckBox* normalise_ = nullptr;
    QLabel* note_ = nullptr;
    ReportData data_;
    QStringList barMetrics_; // the metrics of the grouped bars, in key order
    bool hasData_ = false;
};

} // namespace lb::gui
