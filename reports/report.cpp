// The decision report's renderers: the charts (QCustomPlot, as PNG), the Markdown and HTML files
// (the contents and emitters are report_doc.h's), and the PDF, Qt's text layout of the same HTML
// with the charts added as document resources, kept whole across pages.
#include "reports/report.h"

#include "engine/base/size.h"
#include "engine/base/utf8.h"
#include "engine/capacity/projection.h"
#include "engine/exec/command.h"
#include "engine/measure/analysis.h"
#include "engine/measure/next_step.h"
#include "engine/measure/series.h"
#include "reports/charts.h"
#include "reports/comparison_text.h"
#include "reports/display.h"
#include "reports/report_doc.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QByteArray>
#include <QFile>
#include <QFont>
#include <QFontMetricsF>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPixmap>
#include <QSaveFile>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>
#include <QTextTable>
#include <QUrl>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <qcustomplot.h>
#include <set>

namespace lb {

using namespace report_detail;

namespace {

// ---- charts ----------------------------------------------------------------------------------

std::string pngBytes(QCustomPlot& plot, int width, int height) {
    // Twice the pixels of the layout size: sharp in print and on high-density screens.
    const QPixmap pixmap = plot.toPixmap(width, height, 2.0);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    pixmap.toImage().save(&buffer, "PNG");
    return bytes.toStdString();
}

std::set<std::string> chartIds(const std::vector<ReportChart>& charts) {
    std::set<std::string> ids;
    for (const auto& c : charts)
        ids.insert(c.id);
    return ids;
}

} // namespace

std::vector<ReportChart> renderCharts(const ReportData& data, int width, int height) {
    std::vector<ReportChart> out;
    QCustomPlot plot;
    plot.setFont(QFont("DejaVu Sans", 9));
    for (const ChartRef& ref : chartPlan(data)) {
        if (ref.id == "bars-throughput" || ref.id == "bars-ops" || ref.id == "bars-latency") {
            QStringList metrics;
            const Unit unit = ref.id == "bars-throughput" ? Unit::BytesPerSecond
                              : ref.id == "bars-ops"      ? Unit::OpsPerSecond
                                                          : Unit::Nanoseconds;
            for (const auto& m : barMetricsOfUnit(data, unit))
                metrics << QString::fromStdString(m);
            charts::buildGroupedBars(plot, data, metrics, false);
        } else if (ref.id.rfind("series-", 0) == 0) {
            const auto index = std::stoll(ref.id.substr(std::string("series-").size()));
            charts::buildTimeSeriesChart(plot, data,
                                         charts::timeSeriesNames(data)[index].toStdString());
        } else if (ref.id.rfind("curve-", 0) == 0) {
            const auto index = std::stoll(ref.id.substr(std::string("curve-").size()));
            charts::buildPercentileChart(plot, data,
                                         charts::percentileCurveNames(data)[index].toStdString());
        } else if (ref.id.rfind("sweep-", 0) == 0) {
            const auto index = std::stoul(ref.id.substr(std::string("sweep-").size()));
            const auto key = charts::sweepKeys(data)[index];
            charts::buildSweepChart(plot, data, key.first, key.second);
        } else if (ref.id.rfind("steady-", 0) == 0) {
            const auto index = std::stoul(ref.id.substr(std::string("steady-").size()));
            charts::buildSteadyStateChart(plot, data.steadyState[index]);
        } else if (ref.id.rfind("projection-", 0) == 0) {
            const auto index = std::stoul(ref.id.substr(std::string("projection-").size()));
            charts::buildProjectionChart(plot, data.projections[index],
                                         data.projectionRequest &&
                                             data.projectionRequest->binaryUnits);
        } else {
            const auto index = std::stoul(ref.id.substr(std::string("overhead-").size()));
            charts::buildOverheadChart(plot, data.comparisons[index]);
        }
        out.push_back({ref.id, ref.caption, pngBytes(plot, width, height)});
    }
    return out;
}

std::string renderMarkdown(const ReportData& data) {
    return emitMarkdown(buildDoc(data, {}), {});
}

std::string renderMarkdown(const ReportData& data, const std::vector<ReportChart>& charts,
                           const std::string& chartDir) {
    return emitMarkdown(buildDoc(data, chartIds(charts)), chartDir);
}

std::string renderHtml(const ReportData& data) {
    const std::vector<ReportChart> charts = renderCharts(data);
    std::map<std::string, std::string> uris;
    for (const auto& c : charts)
        uris[c.id] =
            "data:image/png;base64," + QByteArray::fromStdString(c.png).toBase64().toStdString();
    return emitHtml(
        buildDoc(data, chartIds(charts)), data.title,
        [&uris](const std::string& id) { return uris.at(id); }, HtmlFlavor{false, 900});
}

namespace {

// The PDF's /CreationDate is the report's own date (when it was written, as its summary says),
// not the clock of the rendering, so the same request gives the same bytes. Qt stamps its clock
// as D:YYYYMMDDHHmmSS then Z or +HH'mm'; the stamp is replaced in place by one of the same length,
// so the cross-reference offsets stay valid. No date asked for: 1970, as fixed as any.
QByteArray pdfDate(const std::string& isoUtc, qsizetype length) {
    std::string digits;
    for (const char ch : isoUtc.substr(0, 19))
        if (ch >= '0' && ch <= '9')
            digits += ch;
    if (digits.size() != 14)
        digits = "19700101000000";
    const std::string zone = length == 15 ? "Z" : "+00'00'";
    const std::string stamp = digits + zone;
    return stamp.size() == static_cast<std::size_t>(length) ? QByteArray::fromStdString(stamp)
                                                            : QByteArray();
}

bool holdsImage(const QTextBlock& b) {
    for (auto it = b.begin(); !it.atEnd(); ++it)
        if (it.fragment().charFormat().isImageFormat())
            return true;
    return false;
}

// The first heading or chart, counted together from 0 as emitHtml counts them, that ends its page
// while what follows it (a heading's text, a chart's caption) starts on the next; none when each
// stands with what follows.
std::optional<std::size_t> blockLeftAlone(QTextDocument& doc, qreal pageHeight) {
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    std::size_t kept = 0;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
        if (b.blockFormat().headingLevel() == 0 && !holdsImage(b))
            continue;
        const std::size_t index = kept++;
        const QTextBlock next = b.next();
        if (!next.isValid() ||
            b.blockFormat().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore)
            continue;
        const QRectF at = layout->blockBoundingRect(b);
        const QRectF following = layout->blockBoundingRect(next);
        const QTextLayout* lines = next.layout();
        const qreal firstLine =
            lines && lines->lineCount() > 0 ? lines->lineAt(0).rect().bottom() : following.height();
        const auto pageOf = [pageHeight](qreal y) { return static_cast<int>(y / pageHeight); };
        if (pageOf(following.top() + firstLine - 1) > pageOf(at.top()))
            return index;
    }
    return std::nullopt;
}

// The first table row, counted over every table's body rows from 0 as emitHtml counts them, that
// starts on one page and ends on the next (Qt's layout moves a cell's lines, not its row, past a
// page's end: "fio.qd-sweep-qd1." under one page's rows, "read.runtime" under the next page's
// header); none when every row stands on one page. Rows already moved are not asked for again.
std::optional<std::size_t> rowAcrossPages(QTextDocument& doc, qreal pageHeight,
                                          const std::set<std::size_t>& moved) {
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    const auto pageOf = [pageHeight](qreal y) { return static_cast<int>(y / pageHeight); };
    // A cell's lines, top and bottom, in the document's coordinates.
    const auto extent = [&](const QTextTableCell& cell) {
        qreal top = std::numeric_limits<qreal>::max(), bottom = 0;
        for (QTextBlock b = cell.firstCursorPosition().block(); b.isValid(); b = b.next()) {
            const QRectF at = layout->blockBoundingRect(b);
            if (const QTextLayout* lines = b.layout(); lines && lines->lineCount() > 0) {
                top = std::min(top, at.top() + lines->lineAt(0).rect().top());
                bottom = std::max(bottom,
                                  at.top() + lines->lineAt(lines->lineCount() - 1).rect().bottom());
            }
            if (b == cell.lastCursorPosition().block())
                break;
        }
        return std::pair{top, bottom};
    };
    std::size_t bodyRow = 0;
    std::vector<QTextTable*> tables;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
        QTextTable* table = QTextCursor(b).currentTable();
        if (!table || std::find(tables.begin(), tables.end(), table) != tables.end())
            continue;
        tables.push_back(table);
        const int headers = table->format().headerRowCount();
        for (int r = headers; r < table->rows(); ++r, ++bodyRow) {
            qreal top = std::numeric_limits<qreal>::max(), bottom = 0;
            for (int c = 0; c < table->columns(); ++c) {
                const auto [cellTop, cellBottom] = extent(table->cellAt(r, c));
                top = std::min(top, cellTop);
                bottom = std::max(bottom, cellBottom);
            }
            if (bottom > top && pageOf(bottom - 1) > pageOf(top) && !moved.count(bodyRow))
                return bodyRow;
        }
    }
    return std::nullopt;
}

} // namespace

Expected<void> renderPdf(const ReportData& data, const std::string& path) {
    QBuffer file;
    file.open(QIODevice::WriteOnly);
    const std::vector<ReportChart> charts = renderCharts(data);
    const Doc contents = buildDoc(data, chartIds(charts));

    QPdfWriter writer(&file);
    writer.setTitle(QString::fromStdString(data.title));
    writer.setCreator("layoutbench");
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter);
    const QRectF page(0, 0, writer.width(), writer.height());
    const qreal margin = 2 / 2.54 * writer.logicalDpiY(); // 2 cm, in the writer's units
    // Laid out as QTextDocument::print lays out a copy (the writer's resolution, 2 cm margins,
    // its page size), but here, so that headings can be kept with what follows and each page
    // gets "page N of M" at its foot. The document's own lengths (margins, pixels) are at 96 dpi
    // and scaled to the writer's by the layout; the page size and the painter are in the
    // writer's units.
    const auto laidOut = [&](const std::set<std::size_t>& breaks,
                             const std::set<std::size_t>& rowBreaks) {
        auto doc = std::make_unique<QTextDocument>();
        doc->setDefaultFont(QFont("DejaVu Sans", 9));
        for (const auto& c : charts)
            doc->addResource(QTextDocument::ImageResource,
                             QUrl(QString::fromStdString("chart:" + c.id)),
                             QImage::fromData(QByteArray::fromStdString(c.png), "PNG"));
        doc->setHtml(QString::fromStdString(emitHtml(
            contents, data.title, [](const std::string& id) { return "chart:" + id; },
            HtmlFlavor{true, 620, breaks, rowBreaks})));
        doc->documentLayout()->setPaintDevice(&writer);
        constexpr qreal documentDpi = 96;
        QTextFrameFormat frame = doc->rootFrame()->frameFormat();
        frame.setMargin(2 / 2.54 * documentDpi);
        doc->rootFrame()->setFrameFormat(frame);
        doc->setPageSize(page.size());
        return doc;
    };
    // Headings keep with their text and charts with their captions: one whose next block would
    // start on a later page moves to that page. Qt's layout has no keep-with-next, and changing a
    // laid-out document's formats in place lost what followed from the pages (charts, whole
    // sections), so the document is laid out afresh with each break, the first block left alone
    // first (each break moves what comes after it).
    // Then a table row that runs onto the next page starts it, its table's header above it.
    std::set<std::size_t> breaks, rowBreaks;
    auto doc = laidOut(breaks, rowBreaks);
    for (;;) {
        if (const auto lone = blockLeftAlone(*doc, page.height())) {
            breaks.insert(*lone);
        } else if (const auto row = rowAcrossPages(*doc, page.height(), rowBreaks)) {
            rowBreaks.insert(*row);
        } else {
            break;
        }
        doc = laidOut(breaks, rowBreaks);
    }

    const int pages = doc->pageCount();
    QPainter painter(&writer);
    const QFont footFont("DejaVu Sans", 7);
    for (int i = 0; i < pages; ++i) {
        if (i > 0)
            writer.newPage();
        painter.save();
        const QRectF view(0, i * page.height(), page.width(), page.height());
        painter.translate(0, -view.top());
        painter.setClipRect(view);
        QAbstractTextDocumentLayout::PaintContext ctx;
        ctx.clip = view;
        ctx.palette.setColor(QPalette::Text, Qt::black);
        doc->documentLayout()->draw(&painter, ctx);
        painter.restore();
        painter.setFont(footFont);
        const QRectF foot(margin, page.height() - margin * 0.8, page.width() - 2 * margin,
                          margin * 0.4);
        painter.drawText(
            foot, Qt::AlignLeft | Qt::AlignVCenter,
            QString::fromStdString(
                data.title + (data.writtenAt.empty() ? std::string() : ", " + data.writtenAt)));
        painter.drawText(foot, Qt::AlignRight | Qt::AlignVCenter,
                         QStringLiteral("page %1 of %2").arg(i + 1).arg(pages));
    }
    painter.end();
    file.close();
    QByteArray pdf = file.data();
    static const QByteArray key = "/CreationDate (D:";
    if (const auto at = pdf.indexOf(key); at >= 0) {
        const auto start = at + key.size();
        const auto end = pdf.indexOf(')', start);
        if (const QByteArray stamp = pdfDate(data.writtenAt, end - start);
            end > start && !stamp.isEmpty())
            pdf.replace(start, end - start, stamp);
    }
    QSaveFile out(QString::fromStdString(path));
    if (!out.open(QIODevice::WriteOnly) || out.write(pdf) != pdf.size() || !out.commit())
        return runtimeError(path + ": cannot write: " + out.errorString().toStdString());
    return {};
}

} // namespace lb
