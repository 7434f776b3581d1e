// The decision report as a PDF and its charts as images, drawn with Qt: the same document the HTML
// and Markdown files are written from (reports/report.h), its charts drawn by QCustomPlot
// (reports/charts.h) from the same values the SVG draws. Needs a QApplication (QCustomPlot is a
// widget); used by layoutbench-render, which the command line runs for --out FILE.pdf, and by the
// desktop app.
#pragma once

#include "engine/base/expected.h"
#include "reports/report.h"
#include "reports/report_data.h"

#include <string>
#include <vector>

namespace lb {

// One chart of a report as PNG bytes.
struct ChartImage {
    std::string id;
    std::string caption;
    std::string png;
};

// A chart drawn by QCustomPlot at width x height, or taller where its plot would be less than
// most of the picture (charts::pictureHeight); twice the pixels, for print.
std::string chartPng(const chart::Chart& chart, int width = 900, int height = 420);
// The report's charts (chart::reportCharts) as PNG. Deterministic: same data, same bytes.
std::vector<ChartImage> renderCharts(const ReportData& data, int width = 900, int height = 420);

// Writes the document to `path` as an A4 PDF: Qt's text layout of its HTML (the print flavour)
// with the charts as images kept whole and with their captions, headings with what follows, table
// rows on one page, "page N of M" at each foot, and the report's date as the PDF's. A runtime
// error naming the path when it cannot.
Expected<void> writePdf(const ReportDocument& document, const std::string& path);
Expected<void> renderPdf(const ReportData& data, const std::string& path);

} // namespace lb
