// The report document (reports/report.h) as JSON, the way the command line hands a report to
// layoutbench-render for its PDF: the blocks and the charts as values, everything the PDF shows,
// so the renderer needs neither the database nor the data it was gathered from. Written and read
// by the same release (the packages depend on each other's version); a document of another
// format version is refused. No Qt.
#pragma once

#include "engine/base/expected.h"
#include "reports/report.h"

#include <string>
#include <string_view>

namespace lb {

inline constexpr int reportDocumentVersion = 1;

std::string reportDocumentJson(const ReportDocument& document);
// Bad input naming `source` (the file) and what is wrong when `text` is not such a document.
Expected<ReportDocument> parseReportDocument(std::string_view text, const std::string& source);

} // namespace lb
