// `report --out FILE.pdf` on a command line without Qt: the report document is handed to
// layoutbench-render (app/render, in the layoutbench-gui package), found beside this program
// first, then on PATH. Without it, a runtime error naming the program and its package.
#pragma once

#include "engine/base/expected.h"
#include "reports/report.h"

#include <optional>
#include <string>

namespace lb::cli {

inline constexpr const char* rendererProgram = "layoutbench-render";
inline constexpr const char* rendererPackage = "layoutbench-gui";

// Where layoutbench-render is: beside the running program, else the first on PATH.
std::optional<std::string> findRenderer();

// Writes `document` to `path` as a PDF through layoutbench-render (a reportFile's PdfWriter).
Expected<void> pdfThroughRenderer(const ReportDocument& document, const std::string& path);

} // namespace lb::cli
