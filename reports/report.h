// The decision report's renderers: self-contained HTML (charts embedded as PNG data URIs), PDF
// (Qt's PDF writer) and Markdown (for a ticket, its charts as PNG files beside it). All three show
// the same sections, tables, charts and notes in the same order; HTML and Markdown are
// byte-identical for the same ReportData. The HTML and PDF renderers draw charts with QCustomPlot
// and need a QApplication; this header itself is Qt-free.
#pragma once

#include "engine/base/expected.h"
#include "reports/report_data.h"

#include <string>
#include <string_view>
#include <vector>

namespace lb {

// & < > " ' as entities: safe in element text and in quoted attribute values.
std::string htmlEscape(std::string_view text);

// Backslash-escapes what Markdown would read as markup or HTML (\ ` * _ [ ] < > | & # ~),
// and turns line breaks into spaces so a value stays in its table cell.
std::string markdownEscape(std::string_view text);

// One chart of a report, rendered to PNG bytes.
struct ReportChart {
    // "bars-throughput", "bars-ops", "overhead-<n>" (n: comparison index), "series-<n>" and
    // "curve-<n>" (n: index in charts::timeSeriesNames, percentileCurveNames), "sweep-<n>" (n:
    // index in charts::sweepKeys), "steady-<n>", "projection-<n>"
    std::string id;
    std::string caption; // plain text
    std::string png;     // the PNG file's bytes
};

// The charts the HTML and PDF reports show, in order: grouped bars per unit (MB/s, ops/s), one
// overhead chart per comparison with metrics, bandwidth and mean latency over time, latency
// percentile curves and queue-depth sweeps where the runs have them, steady state, projections.
// Deterministic: same data, same bytes. Needs a QApplication.
std::vector<ReportChart> renderCharts(const ReportData& data, int width = 900, int height = 420);

// Without charts, as a ticket takes it: every section, table and note, no chart. With the
// charts (renderCharts) each is an image `chartDir/ID.png` with its caption, as in the HTML; the
// caller writes the PNG files there (writeReportFile does).
std::string renderMarkdown(const ReportData& data);
std::string renderMarkdown(const ReportData& data, const std::vector<ReportChart>& charts,
                           const std::string& chartDir);
std::string renderHtml(const ReportData& data); // needs a QApplication
// Writes a PDF to `path`; a runtime error naming the path when it cannot. Needs a QApplication.
Expected<void> renderPdf(const ReportData& data, const std::string& path);

} // namespace lb
