// layoutbench-render: `layoutbench-render --document FILE.json --out FILE.pdf` lays out a report
// document, written by `layoutbench report --out FILE.pdf` (reports/report_json.h), as a PDF: the
// same blocks and charts as the HTML and Markdown reports, its charts drawn by QCustomPlot. It
// opens no window: Qt draws offscreen unless the user chose a platform. Exit status 0 when the
// PDF is written, 1 when it cannot be, 2 for usage or a document it cannot read.
#include "engine/base/utf8.h"
#include "layoutbench_version.h"
#include "reports/report_json.h"
#include "reports/report_pdf.h"

#include <CLI/CLI.hpp>
#include <QApplication>
#include <fstream>
#include <iostream>
#include <sstream>

namespace {

// Qt's chatter ("XDG_RUNTIME_DIR not set", font fallbacks) is noise here; only its errors get
// through.
void quietQtMessages(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtCriticalMsg || type == QtFatalMsg)
        std::cerr << "layoutbench-render: Qt: " << message.toStdString() << '\n';
}

int complain(const lb::Error& error) {
    std::cerr << "layoutbench-render: " << lb::escapeControl(error.message) << '\n';
    return error.kind == lb::ErrorKind::BadInput ? 2 : 1;
}

lb::Expected<lb::ReportDocument> readDocument(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return lb::badInput(path + ": cannot read");
    std::ostringstream text;
    text << in.rdbuf();
    return lb::parseReportDocument(text.str(), path);
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app("Lay out a layoutbench report document as a PDF (layoutbench report --out "
                 "FILE.pdf runs it)",
                 "layoutbench-render");
    app.set_version_flag("-V,--version", std::string("layoutbench-render ") + lb::kVersionText);
    std::string documentPath, out;
    app.add_option("--document", documentPath, "Report document (JSON) written by layoutbench")
        ->required();
    app.add_option("--out", out, "PDF file to write")->required();
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    auto document = readDocument(documentPath);
    if (!document)
        return complain(document.error());
    // The charts are drawn by QCustomPlot, a widget: an application, offscreen unless chosen (a
    // stale DISPLAY would abort in xcb, a HiDPI screen would change the charts' pixels).
    qInstallMessageHandler(quietQtMessages);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    int qtArgc = 1;
    QApplication qt(qtArgc, argv);
    if (auto written = lb::writePdf(*document, out); !written)
        return complain(written.error());
    return 0;
}
