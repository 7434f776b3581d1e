// The charts of the app and of the decision report, drawn by the same code into a QCustomPlot:
// grouped bars per layout with the spread over iterations as error bars, and the overhead chart
// (one bar per metric: the candidate's overhead %, with the viable and not-viable thresholds
// drawn as bands). Needs Qt Widgets; never used by engine/ or probes/.
//
// Both builders first clear what an earlier build left in the plot (plottables, items, their
// title and legend rows), so a chart can be rebuilt in place; neither sets interactions. Layout
// of a built plot, top to bottom: a QCPTextElement title (objectName "chart-title"), the legend
// in its own row (a QCPLayoutGrid named "legend-row"), the axis rect. Key axis: a
// QCPAxisTickerText with one tick per metric at 1, 2, ... (labels upright when more than four).
#pragma once

#include "engine/capacity/projection.h"
#include "reports/report_data.h"

#include <QString>
#include <QStringList>

class QCustomPlot;

namespace lb::charts {

// Which metrics the grouped-bar chart shows: bonnie put_block, get_block, rewrite, seeks, every
// fio bandwidth and IOPS metric, and every metric that decides a comparison (a p99 latency, a
// bonnie++ file operation), that any layout has. Sorted.
QStringList barMetrics(const ReportData& data);

// Grouped bars: one QCPBars series per layout (named after it, in data.layouts order, side by side
// in a QCPBarsGroup), one group per metric in `metrics` (key i+1 for metrics[i]; a layout without
// the metric has no bar there), each bar the median in display units (MB/s or ops/s), with a
// QCPErrorBars (not in the legend) from the minimum to the maximum over iterations (none, NaN,
// for a single run), and above each bar its run count (QCPItemText "run-count": "n=3"). When
// `normalise` is true every bar is a percentage of the baseline's median (=100 %), so metrics of
// mixed units can stand side by side; metrics the baseline lacks are then left out.
void buildGroupedBars(QCustomPlot& plot, const ReportData& data, const QStringList& metrics,
                      bool normalise);

// Overhead chart for one comparison: one bar per decisive metric (key i+1 for the i-th decisive
// metric), the overhead in %, coloured by verdict — one QCPBars per verdict present, named
// "viable", "decision required", "not viable" — with the 95 % interval as QCPErrorBars and the
// bands drawn behind on the "background" layer: QCPItemRect items named "band-viable" (overhead
// -100 % to viableMax-1, since a faster candidate is viable too) and "band-not-viable"
// (notViableMin-1 upwards). The value axis stops at three times the not-viable threshold; longer
// bars are cut there and labelled with their true value. Value labels are QCPItemText items on a
// layer "labels" above the bars, each with the runs a side ("n=5/5", and "no interval" below
// three a side, where the bar has no whisker: its error is NaN); with more than 16 bars the
// runs go in the tick labels instead. An interval that runs past the top ends there in an arrow
// (QCPItemLine "interval-cut") with its value ("interval-cut-value": "to +412 %").
void buildOverheadChart(QCustomPlot& plot, const Comparison& comparison);

// Capacity projection of one layout over its months (x: month 0..N, y: bytes in a unit):
// QCPGraph "usable" (usable capacity without expansion, a step line), "used" (projected use),
// "ceiling" (the fill ceiling, dashed) and, when an expansion path keeps up, "with expansion"
// (the usable capacity along drawnExpansion's schedule, a step line; named "with md-grow") with
// a vertical
// QCPItemStraightLine per expansion step (objectName "expansion-step"). The value axis is in the
// decimal unit (kB to PB) in which the largest value reads 1 to 999, named in its label, or with
// `binary` the binary one (KiB to PiB): the unit the sizes were typed in.
void buildProjectionChart(QCustomPlot& plot, const LayoutProjection& projection,
                          bool binary = false);
// The expansion path the projection chart draws: the cheapest that keeps up where the cost is
// known, else the first that keeps up; none when no step is needed or none keeps up.
const ExpansionPath* drawnExpansion(const LayoutProjection& projection);

// One workload's steady-state rounds on a layout (SNIA PTS's steady-state chart): QCPGraph
// "tracked" (the tracked value per round, x: round 1..N), and over the last window of rounds
// "average" (solid), "110 % of average" and "90 % of average" (dotted) and "slope" (the
// least-squares line, dashed). The title says whether the window held.
void buildSteadyStateChart(QCustomPlot& plot, const SteadyStateSeries& series);

// The series over time the data holds (ReportData::series with x in seconds), sorted, once
// each.
QStringList timeSeriesNames(const ReportData& data);

// One series over time (fio's per-interval logs, e.g. "fio.seq-read-1m.read.bw") per layout, in
// the layouts' colours (as the grouped bars): each layout's median run (engine/measure/series.h
// medianRun) a QCPGraph named after the layout, 2 px, in the legend; its other iterations
// QCPGraphs named "<layout> iteration <n>", faint (alpha 70), 1 px, drawn below and out of the
// legend. x: seconds since the job started; y: the quantity ("bandwidth", "IOPS", "mean total
// latency") in the unit display::axisUnit chooses from the largest value, named in the axis
// label ("bandwidth (MB/s)"). No layout with the series: no graphs, and the title says there
// are no per-interval logs.
void buildTimeSeriesChart(QCustomPlot& plot, const ReportData& data, const std::string& name);

// The percentile curves the data holds (fio json+ histograms, engine/measure/run.h: x in percent),
// sorted, once each: "fio.<job>.<dir>.lat_curve" (total latency) or ".clat_curve".
QStringList percentileCurveNames(const ReportData& data);

// A percentile curve per layout, the runs drawn as buildTimeSeriesChart draws them (median
// iteration solid and in the legend, the others faint): x the percentile on the "nines" scale
// (1 / (1 - p), logarithmic, ticks labelled 0, 50, 90, 99, 99.9 ... as far as the data goes,
// the last bucket "100"), y the latency on a logarithmic axis in the unit display::axisUnit
// chooses. No layout with the curve: no graphs, and the title says there is no histogram.
void buildPercentileChart(QCustomPlot& plot, const ReportData& data, const std::string& name);

// The queue-depth sweeps (engine/measure/series.h) in the layouts' samples, as (family, direction),
// sorted, once each.
std::vector<std::pair<std::string, std::string>> sweepKeys(const ReportData& data);

// One queue-depth sweep per layout: QCPGraph "<layout> IOPS" (yAxis, solid, circles) and
// "<layout> p99 total latency" (or "p99 completion latency" where fio measured no total
// latency; yAxis2, dashed, squares), medians over iterations, against the queue depth on a
// base-2 logarithmic x axis with a tick at each power of two. Each value axis has its unit
// chosen from the data (display::axisUnit), named in its label.
void buildSweepChart(QCustomPlot& plot, const ReportData& data, const std::string& family,
                     const std::string& direction);

// Verdict colours shared by tables and charts: viable green, decision amber, not-viable red.
QString verdictColor(Verdict v);

} // namespace lb::charts
