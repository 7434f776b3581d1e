// The charts of the decision report and of layoutbench-gui as plain values, computed once from
// the report's data and drawn by two renderers: reports/svg_chart.h (SVG, for the HTML and
// Markdown reports, Qt-free) and reports/charts.h (QCustomPlot, for the app and the PDF). Every
// decision about what a chart shows lives here — which metrics, medians and whiskers, the
// baseline's 100 %, overhead bars coloured by verdict and the threshold bands, intervals cut at
// the top, run counts, axis units, projection steps, steady-state lines, the median iteration
// solid and the others faint, the nines scale, two value axes — so both renderers show the same
// figures. No Qt.
#pragma once

#include "engine/capacity/projection.h"
#include "reports/report_data.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace lb::chart {

// ---- the model -------------------------------------------------------------------------------

enum class Dash { Solid, Dashed, Dotted, DashDotted };

// A line's colour ("#rrggbb"), opacity (0-255), width in pixels and dash.
struct Stroke {
    std::string colour = "#000000";
    int alpha = 255;
    double width = 1;
    Dash dash = Dash::Solid;
    bool operator==(const Stroke&) const = default;
};

enum class Marker { None, Circle, Square };

// One plottable: bars (at x, each y high, side by side with the other series of its group) or a
// line through its points (a step line holds each y until the next x).
struct Series {
    enum class Kind { Bars, Line, StepLine };
    Kind kind = Kind::Line;
    std::string name;
    bool inLegend = true;
    bool rightAxis = false; // its values against the right value axis
    std::vector<double> x, y;
    Stroke stroke;    // a line; a bar's outline
    std::string fill; // bars
    Marker marker = Marker::None;
    double markerSize = 0; // pixels
    // Bars: width in x units; grouped bars stand side by side at each x, this series the
    // `groupIndex`th of `groupSize` ("slots" is a macro wherever Qt is included).
    double barWidth = 0.6;
    bool grouped = false;
    std::size_t groupIndex = 0, groupSize = 1;
    // Whiskers of bars, parallel to y: how far below and above y they reach, NaN for none at that
    // bar; both empty: the series has none. Named `errorName`, never in the legend.
    std::vector<double> errorMinus, errorPlus;
    std::string errorName;
    bool operator==(const Series&) const;
};

enum class Align { Start, Centre, End }; // left/top, middle, right/bottom

// Text at a point in plot coordinates. The point sits at `horizontal` x `vertical` of the text's
// box (padding included): Start/Start is its top left. Upright text is turned a quarter clockwise
// about the point (it reads downwards), its box aligned as before turning.
struct Label {
    // "run-count", "interval-cut-value", "bar-cut-value" (a cut bar's one label), or "" for a
    // bar's value
    std::string name;
    double x = 0, y = 0;
    std::string text; // lines separated by '\n'
    double points = 9;
    Align horizontal = Align::Centre, vertical = Align::End;
    bool upright = false;
    std::string background; // "" for none
    int backgroundAlpha = 255;
    int padLeft = 0, padTop = 0, padRight = 0, padBottom = 0; // pixels
    bool operator==(const Label&) const = default;
};

// A line from one point to another in plot coordinates, ending in an arrow head.
struct Arrow {
    std::string name; // "interval-cut", "bar-cut"
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    std::string colour = "#202020";
    bool operator==(const Arrow&) const = default;
};

// A horizontal band across the whole plot between two values, behind everything else.
struct Band {
    std::string name; // "band-viable", "band-not-viable"
    double low = 0, high = 0;
    std::string colour;
    int alpha = 45;
    bool operator==(const Band&) const = default;
};

// A vertical line across the whole plot at x.
struct Rule {
    std::string name; // "expansion-step"
    double x = 0;
    Stroke stroke;
    bool operator==(const Rule&) const = default;
};

struct Tick {
    double at = 0;
    std::string label;
    bool operator==(const Tick&) const = default;
};

struct Axis {
    // Auto: numbers at round steps the renderer chooses; Given: exactly `ticks`; Powers: powers
    // of ten (a logarithmic axis).
    enum class Ticks { Auto, Given, Powers };
    bool visible = true;
    std::string label;
    double min = 0, max = 1;
    bool logarithmic = false;
    Ticks tickKind = Ticks::Auto;
    std::vector<Tick> ticks;
    // One tick per category (a metric), its mark outside and no sub-ticks or grid; labels
    // upright when there are many.
    bool categories = false;
    bool uprightLabels = false;
    bool grid = false;
    std::string zeroLine; // colour of a line at 0, "" for none
    bool operator==(const Axis&) const = default;
};

struct Chart {
    std::string title; // one line: a renderer wraps it to its width
    Axis x, y;
    Axis y2{.visible = false}; // the right value axis, for series on it
    std::vector<Band> bands;
    std::vector<Series> series; // in drawing order, the legend's order
    std::vector<Label> labels;  // above the series
    std::vector<Arrow> arrows;  // above the series
    std::vector<Rule> rules;
    bool legend = false; // a legend row under the title, of the series inLegend
    bool operator==(const Chart&) const = default;
};

// One chart of the report: its id ("bars-throughput", "overhead-0", ... as chartPlan names them),
// its caption and the chart.
struct ReportChart {
    std::string id;
    std::string caption;
    Chart chart;
    bool operator==(const ReportChart&) const = default;
};

// ---- the picture -----------------------------------------------------------------------------

// The least share of a chart's picture its plot area is given, and its least height in pixels:
// a renderer draws the picture taller rather than give the plot less, so that many long metric
// names standing upright under the bars never take most of a printed chart.
inline constexpr double leastPlotShare = 0.6;
inline constexpr double smallestPlot = 220;
// The height a renderer draws a chart at when asked for `height` pixels and everything but the
// plot (title, legend, axes, their ticks and labels) takes `around` pixels of it: `height`, or
// taller where the plot would be less than leastPlotShare of the picture or smallestPlot high.
int pictureHeight(int height, double around);

// ---- colours ---------------------------------------------------------------------------------

// Verdict colours shared by tables and charts: viable green, decision amber, not-viable red.
std::string verdictColour(Verdict v);
// A layout's colour by its index in the report's layouts (the baseline first).
std::string layoutColour(std::size_t index);
// The colour at 100/130 of its brightness, as a bar's outline.
std::string darker(const std::string& colour);

// ---- what the charts show --------------------------------------------------------------------

// Which metrics the grouped-bar chart shows: bonnie put_block, get_block, rewrite, seeks, every
// fio bandwidth and IOPS metric, and every metric that decides a comparison (a p99 latency, a
// bonnie++ file operation), that any layout has. Sorted.
std::vector<std::string> barMetrics(const ReportData& data);
// "bonnie.put_block" -> "put_block"; "fio.seq-read.read.bw" -> "seq-read read bw".
std::string metricLabel(const std::string& name);
// The series over time the data holds (x in seconds), sorted, once each.
std::vector<std::string> timeSeriesNames(const ReportData& data);
// The percentile curves the data holds (fio json+ histograms: x in percent), sorted, once each:
// "fio.<job>.<dir>.lat_curve" (total latency) or ".clat_curve".
std::vector<std::string> percentileCurveNames(const ReportData& data);
// The queue-depth sweeps (engine/measure/series.h) in the layouts' samples, as (family,
// direction), sorted, once each.
std::vector<std::pair<std::string, std::string>> sweepKeys(const ReportData& data);
// The expansion path the projection chart draws: the cheapest that keeps up where the cost is
// known, else the first that keeps up; none when no step is needed or none keeps up.
const ExpansionPath* drawnExpansion(const LayoutProjection& projection);

// ---- the charts ------------------------------------------------------------------------------

// Grouped bars: one bar series per layout (named after it, in data.layouts order, side by side),
// one group per metric in `metrics` (x = i+1 for metrics[i]; a layout without the metric has no
// bar there), each bar the median in display units (MB/s, ops/s, ms), whiskers from the minimum
// to the maximum over iterations (none for a single run), and above each bar its run count
// (Label "run-count": "n=3"). With `costRatios` every bar is the layout's cost ratio against the
// baseline as the verdicts take it (engine/measure/analysis.h's costRatio of the medians: time
// per unit of work, so higher is worse for a throughput and a latency alike, the baseline's bars
// 1), its whiskers the cost of its cheapest and dearest run, the bands of data.thresholds behind
// ("band-viable" up to viableMax, "band-not-viable" from notViableMin), and the value axis
// stopping where the overhead chart's does; a longer bar ends there in an Arrow "bar-cut" and has
// one label, its ratio and runs (Label "bar-cut-value": "24.10  n=3"), and a range that runs
// past it ends there in an Arrow "range-cut", with no whisker cap. Metrics the baseline lacks,
// or whose better direction the catalog does not know, are left out.
Chart groupedBars(const ReportData& data, const std::vector<std::string>& metrics, bool costRatios);

// Overhead of one comparison: one bar per decisive metric (x = i+1), the overhead in %, coloured
// by verdict — one series per verdict present, "viable", "decision required", "not viable" — with
// the 95 % interval as whiskers and the bands behind: "band-viable" (-100 % to viableMax-1, since
// a faster candidate is viable too) and "band-not-viable" (notViableMin-1 upwards). The value
// axis stops at three times the not-viable threshold. Every bar has one label, never two: its
// value and its runs a side ("+58 %", "n=5/5", and "no interval" below three a side, where the bar
// has no whisker), above the bar, or inside it at its top where the bar reaches the upper 30 % of
// the axis, or above the zero line for a bar below it, so no label leaves the plot. With more
// than 16 bars the runs go in the tick labels instead and only cut bars and intervals are
// labelled. A longer bar is cut at the top and ends there in an Arrow "bar-cut", its one label
// written down the bar from the arrow's tail (Label "bar-cut-value": "+2310 %  n=3/3" and
// "to +4828 %" where its interval reaches). An interval that runs past the top of a bar that is
// not cut ends there in an Arrow "interval-cut", its reach a line of the bar's label ("to
// +412 %"), or with more than 16 bars a label of its own written down the arrow (Label
// "interval-cut-value").
Chart overhead(const Comparison& comparison);

// Capacity projection of one layout over its months: "usable" (without expansion, a step line),
// "used", "ceiling" (dashed) and, when an expansion path keeps up, "with <kind>" (its usable
// capacity along drawnExpansion's schedule, a step line) with a Rule "expansion-step" per step.
// The value axis is in the decimal unit (kB to PB) in which the largest value reads 1 to 999,
// or with `binary` the binary one: the unit the sizes were typed in.
Chart projection(const LayoutProjection& projection, bool binary = false);

// One workload's steady-state rounds on a layout (SNIA PTS): "tracked" (x: round 1..N) and over
// the last window "average", "110 % of average" and "90 % of average" (dotted) and "slope" (the
// least-squares line, dashed). The title says whether the window held.
Chart steadyState(const SteadyStateSeries& series);

// One series over time per layout, in the layouts' colours: each layout's median run
// (engine/measure/series.h medianRun) named after the layout, 2 px, in the legend; its other
// iterations "<layout> iteration <n>", faint (alpha 70), 1 px, drawn first and out of the
// legend. x: seconds since the job started; y: the quantity in the unit display::axisUnit
// chooses from the largest value, named in the axis label ("bandwidth (MB/s)"). No layout with
// the series: no series, and the title says there are no per-interval logs.
Chart timeSeries(const ReportData& data, const std::string& name);

// A percentile curve per layout, drawn as timeSeries draws runs: x the percentile on the "nines"
// scale (1 / (1 - p), logarithmic, ticks 0, 50, 90, 99, 99.9 ... as far as the data goes, the
// last bucket "100"), y the latency on a logarithmic axis. No layout with the curve: no series,
// and the title says there is no histogram.
Chart percentiles(const ReportData& data, const std::string& name);
// A percentile on the nines scale: 50 % at 2, 99 % at 100; the last bucket (100 %) at 99.9999 %.
double nines(double percent);

// One queue-depth sweep per layout: "<layout> IOPS" (left axis, solid, circles) and "<layout>
// p99 total latency" (or "p99 completion latency" where fio measured no total latency; right
// axis, dashed, squares), medians over iterations, against the queue depth on a base-2
// logarithmic x axis with a tick at each power of two.
Chart sweep(const ReportData& data, const std::string& family, const std::string& direction);

// A fail-rebuild drill's course (chart_failure.cpp): the load's read and write bandwidth each
// second, a line per phase and direction ("read", "write"; the later phases' lines "read
// (degraded)" ... out of the legend), x in seconds since the healthy load began, y in the unit
// display::axisUnit chooses; a dotted Rule "phase-start" and a Label "phase" at each phase's start
// ("healthy", "degraded", "rebuilding", "rebuilt"), and a dashed Rule "moment" with a Label
// "moment" at each of drillMoments ("failed", "spare added", "whole again"). A drill without its
// per-second logs or its moments: no series, and the title says so.
Chart diskFailure(const FailureDrill& drill);

// The deciding metrics of the comparisons level by level (data.fillCurves), first seen first,
// and one's chart (chart_fill.cpp): each layout's median at each fill level it was measured at.
std::vector<std::string> fillChartMetrics(const ReportData& data);
Chart fillLevels(const ReportData& data, const std::string& metric);

// The charts the report shows (report_doc.h's chartPlan), each built from the data.
std::vector<ReportChart> reportCharts(const ReportData& data);

} // namespace lb::chart
