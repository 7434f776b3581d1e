// A decision report written to a file whose extension names its format (.html/.htm, .pdf,
// .md/.markdown): the one way the command line and the desktop app write reports. HTML and PDF
// draw charts with QCustomPlot, so writing them needs a QApplication and the GUI thread.
#pragma once

#include "engine/base/expected.h"
#include "reports/report_data.h"

#include <optional>
#include <string>
#include <string_view>

namespace lb {

enum class ReportFormat { Html, Pdf, Markdown };

// The format a path's extension names, if any.
std::optional<ReportFormat> reportFormatOf(const std::string& path);
std::string_view reportFormatName(ReportFormat f); // "html", "pdf", "markdown"

// Renders `data` in the path's format and writes it next to the target before renaming it, so a
// failed write never leaves half a report. A Markdown report's charts go beside it, REPORT.md's
// into REPORT-charts/ID.png. Bad input when the extension names no format.
Expected<ReportFormat> writeReportFile(const ReportData& data, const std::string& path);

} // namespace lb
