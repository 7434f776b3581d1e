// The charts of reports/chart_model.h drawn into a QCustomPlot, for layoutbench-gui (which adds
// zoom, pan and hover) and for the PDF report (rendered to images): the same values the SVG of the
// HTML and Markdown reports draws. Needs Qt Widgets; never used by engine/, probes/ or the
// command line.
//
// draw() first clears what an earlier draw left in the plot (plottables, items, their title and
// legend rows), so a chart can be rebuilt in place; it sets no interactions. Layout of a drawn
// plot, top to bottom: a QCPTextElement title (objectName "chart-title", wrapped at 860 px), the
// legend in its own row (a QCPLayoutGrid named "legend-row"), the axis rect. The model's pieces
// become: bars QCPBars (grouped ones in a QCPBarsGroup, 1 px apart) with their whiskers as a
// QCPErrorBars out of the legend; lines QCPGraphs; labels QCPItemTexts and arrows QCPItemLines
// (spike arrow) on a layer "labels" above the plottables; bands QCPItemRects on the "background"
// layer; rules QCPItemStraightLines; each item named as in the model (objectName). A category
// axis is a QCPAxisTickerText with one tick per metric, given ticks a QCPAxisTickerText, powers
// of ten a QCPAxisTickerLog.
#pragma once

#include "engine/capacity/projection.h"
#include "reports/chart_model.h"
#include "reports/report_data.h"

#include <QString>
#include <QStringList>

class QCustomPlot;

namespace lb::charts {

void draw(QCustomPlot& plot, const chart::Chart& chart);

// The height a drawn plot is rendered at as a picture when asked for width x height: taller where
// its title, legend and axes would leave the plot area less of it than chart::pictureHeight
// allows (60 %, and 220 pixels), as the SVG grows.
int pictureHeight(QCustomPlot& plot, int width, int height);

// The charts of chart_model.h, built from the data and drawn.
void buildGroupedBars(QCustomPlot& plot, const ReportData& data, const QStringList& metrics,
                      bool costRatios);
void buildOverheadChart(QCustomPlot& plot, const Comparison& comparison);
void buildProjectionChart(QCustomPlot& plot, const LayoutProjection& projection,
                          bool binary = false);
void buildSteadyStateChart(QCustomPlot& plot, const SteadyStateSeries& series);
void buildTimeSeriesChart(QCustomPlot& plot, const ReportData& data, const std::string& name);
void buildPercentileChart(QCustomPlot& plot, const ReportData& data, const std::string& name);
void buildSweepChart(QCustomPlot& plot, const ReportData& data, const std::string& family,
                     const std::string& direction);

// chart_model.h's lists of what can be drawn, as the app's choosers take them.
QStringList barMetrics(const ReportData& data);
QStringList timeSeriesNames(const ReportData& data);
QStringList percentileCurveNames(const ReportData& data);
using chart::drawnExpansion;
using chart::sweepKeys;

// chart::verdictColour as the app's widgets take it.
QString verdictColor(Verdict v);

} // namespace lb::charts
