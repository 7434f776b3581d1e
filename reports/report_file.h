// A decision report written to a file whose extension names its format (.html/.htm, .pdf,
// .md/.markdown): the one way the command line and the desktop app write reports. HTML and
// Markdown are written here, with no Qt; a PDF is laid out by Qt, so the caller says how: the
// desktop app in its own process (reports/report_pdf.h writePdf), the command line through
// layoutbench-render.
#pragma once

#include "engine/base/expected.h"
#include "reports/report.h"
#include "reports/report_data.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace lb {

enum class ReportFormat { Html, Pdf, Markdown };

// The format a path's extension names, if any.
std::optional<ReportFormat> reportFormatOf(const std::string& path);
std::string_view reportFormatName(ReportFormat f); // "html", "pdf", "markdown"

// Writes a report document as a PDF at a path.
using PdfWriter =
    std::function<Expected<void>(const ReportDocument& document, const std::string& path)>;

// Renders `data` in the path's format and writes it next to the target before renaming it, so a
// failed write never leaves half a report; a PDF through `pdf`. A Markdown report's charts go
// beside it, REPORT.md's into REPORT-charts/ID.svg. Bad input when the extension names no format.
Expected<ReportFormat> writeReportFile(const ReportData& data, const std::string& path,
                                       const PdfWriter& pdf);
// The same for a document built elsewhere (the fleet's report).
Expected<ReportFormat> writeReportFile(const ReportDocument& document, const std::string& path,
                                       const PdfWriter& pdf);

} // namespace lb
