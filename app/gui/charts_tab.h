// The Charts tab: the grouped bars per layout and the overhead chart of the current comparison,
// drawn by the shared chart code (reports/charts.h) so the app and the decision report show the
// same pictures. Zoom and pan with the mouse, values on hover, export to PNG and PDF.
#pragma once

#include "app/gui/gui_types.h"

#include <QStringList>
#include <QWidget>
#include <vector>

class QCheckBox;
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

    void showResult(const ComparisonResult& result);
    void clear(const QString& why = {});

    // Exports one chart; the format follows the file name (.png or .pdf).
    bool exportChart(QCustomPlot* plot, const QString& path);

    // The text the tooltip shows for a point of a plot ("" when nothing is under it).
    QString hoverText(QCustomPlot* plot, const QPointF& pos) const;

    QCustomPlot* barsPlot() const { return bars_; }
    QCustomPlot* overheadPlot() const { return overhead_; }
    QCheckBox* normaliseBox() const { return normalise_; }
    QTabWidget* plotTabs() const { return plots_; }

private:
    void rebuildBars();
    void onMouseMove(QCustomPlot* plot, QMouseEvent* event);
    void rebuildOverhead();
    QCustomPlot* currentPlot() const;
    void exportDialog(QCustomPlot* plot, bool pdf);

    QCustomPlot* bars_ = nullptr;
    QCustomPlot* overhead_ = nullptr;
    QTabWidget* plots_ = nullptr;
    std::vector<QStackedWidget*> stacks_; // [bars, overhead]: placeholder or chart
    QCheckBox* normalise_ = nullptr;
    QLabel* note_ = nullptr;
    ReportData data_;
    QStringList barMetrics_; // the metrics of the grouped bars, in key order
    bool hasData_ = false;
};

} // namespace lb::gui
