// The decision report as a document, and its Qt-free renderers: the document is built once from
// the ReportData (its blocks, report_doc.h, and its charts as values, chart_model.h), then written
// as self-contained HTML (the charts inline as SVG) or as Markdown (for a ticket, its charts as
// SVG files beside it). Both show the same sections, tables, charts and notes in the same order,
// byte-identical for the same ReportData. The PDF is the same document laid out by Qt: see
// reports/report_pdf.h (layoutbench-render, the desktop app).
#pragma once

#include "reports/chart_model.h"
#include "reports/report_data.h"
#include "reports/report_doc.h"

#include <string>
#include <string_view>
#include <vector>

namespace lb {

// & < > " ' as entities: safe in element text and in quoted attribute values.
std::string htmlEscape(std::string_view text);

// Backslash-escapes what Markdown would read as markup or HTML (\ ` * _ [ ] < > | & # ~),
// and turns line breaks into spaces so a value stays in its table cell.
std::string markdownEscape(std::string_view text);

// Everything a format writes: the title and date (a PDF's page foot), the blocks, and the charts
// the blocks name, in order: grouped bars per unit (MB/s, ops/s, ms), one overhead chart per
// comparison with metrics, bandwidth and mean latency over time, latency percentile curves and
// queue-depth sweeps where the runs have them, steady state, projections. Chart ids:
// "bars-throughput", "bars-ops", "bars-latency", "overhead-<n>" (n: comparison index),
// "series-<n>" and "curve-<n>" (n: index in chart::timeSeriesNames, percentileCurveNames),
// "sweep-<n>" (n: index in chart::sweepKeys), "steady-<n>", "projection-<n>".
struct ReportDocument {
    std::string title;
    std::string writtenAt;
    report_detail::Doc doc;
    std::vector<chart::ReportChart> charts;
    bool operator==(const ReportDocument&) const = default;
};
ReportDocument reportDocument(const ReportData& data);

// A chart of the report as an SVG file (900 x 420 pixels, taller for long names), as the
// Markdown report has it beside it; the HTML has the same inline (without its namespace).
std::string reportChartSvg(const chart::ReportChart& chart);

// Without charts, as a ticket takes it: every section, table and note, no chart.
std::string renderMarkdown(const ReportData& data);
// With the charts: each an image `chartDir/ID.svg` with its caption, as in the HTML; the caller
// writes the SVG files there (writeReportFile does).
std::string renderMarkdown(const ReportDocument& document, const std::string& chartDir);
std::string renderHtml(const ReportData& data);
std::string renderHtml(const ReportDocument& document);

} // namespace lb
