// Writing a report file (see report_file.h).
#include "reports/report_file.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace lb {

namespace fs = std::filesystem;

namespace {

Expected<void> writeText(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            return runtimeError(path + ": cannot write: " + std::strerror(errno));
        out << text;
        out.flush();
        if (!out) {
            std::remove(tmp.c_str());
            return runtimeError(path + ": cannot write: " + std::strerror(errno));
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        std::remove(tmp.c_str());
        return runtimeError(path + ": cannot write: " + why);
    }
    return {};
}

} // namespace

std::optional<ReportFormat> reportFormatOf(const std::string& path) {
    const auto dot = path.rfind('.');
    if (dot == std::string::npos || path.find('/', dot) != std::string::npos)
        return std::nullopt;
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == "html" || ext == "htm")
        return ReportFormat::Html;
    if (ext == "pdf")
        return ReportFormat::Pdf;
    if (ext == "md" || ext == "markdown")
        return ReportFormat::Markdown;
    return std::nullopt;
}

std::string_view reportFormatName(ReportFormat f) {
    switch (f) {
    case ReportFormat::Html:
        return "html";
    case ReportFormat::Pdf:
        return "pdf";
    case ReportFormat::Markdown:
        return "markdown";
    }
    return "";
}

namespace {

// The charts beside the Markdown file: REPORT.md's in REPORT-charts/, named by chart id.
Expected<void> writeMarkdown(const ReportDocument& document, const std::string& path) {
    const fs::path md(path);
    const std::string dirName = md.stem().string() + "-charts";
    const fs::path dir = md.parent_path() / dirName;
    if (!document.charts.empty()) {
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec)
            return runtimeError(dir.string() + ": cannot create: " + ec.message());
        for (const auto& c : document.charts)
            LB_TRY_VOID(writeText((dir / (c.id + ".svg")).string(), reportChartSvg(c)));
    }
    return writeText(path, renderMarkdown(document, dirName));
}

} // namespace

Expected<ReportFormat> writeReportFile(const ReportData& data, const std::string& path,
                                       const PdfWriter& pdf) {
    if (!reportFormatOf(path))
        return writeReportFile(ReportDocument{}, path, pdf); // the refusal, said once
    return writeReportFile(reportDocument(data), path, pdf);
}

Expected<ReportFormat> writeReportFile(const ReportDocument& document, const std::string& path,
                                       const PdfWriter& pdf) {
    const auto format = reportFormatOf(path);
    if (!format)
        return badInput("out: '" + path +
                        "' must end in .html, .pdf or .md (the format follows the extension)");
    switch (*format) {
    case ReportFormat::Markdown:
        LB_TRY_VOID(writeMarkdown(document, path));
        break;
    case ReportFormat::Html:
        LB_TRY_VOID(writeText(path, renderHtml(document)));
        break;
    case ReportFormat::Pdf:
        LB_TRY_VOID(pdf(document, path));
        break;
    }
    return *format;
}

} // namespace lb
