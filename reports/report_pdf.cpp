// The report as a PDF (see report_pdf.h): Qt's text layout of the document's print HTML, with the
// charts drawn by QCustomPlot as document images, laid out again until every heading stands with
// what follows it and every table row on one page, then painted page by page with its foot.
#include "reports/report_pdf.h"

#include "engine/base/size.h"
#include "reports/charts.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QByteArray>
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
#include <limits>
#include <memory>
#include <optional>
#include <qcustomplot.h>
#include <set>

namespace lb {

using namespace report_detail;

std::string chartPng(const chart::Chart& chart, int width, int height) {
    QCustomPlot plot;
    plot.setFont(QFont("DejaVu Sans", 9));
    charts::draw(plot, chart);
    // Twice the pixels of the layout size: sharp in print and on high-density screens. Taller
    // than asked where long upright metric names would leave the plot less than most of it.
    const QPixmap pixmap = plot.toPixmap(width, charts::pictureHeight(plot, width, height), 2.0);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    pixmap.toImage().save(&buffer, "PNG");
    return bytes.toStdString();
}

std::vector<ChartImage> renderCharts(const ReportData& data, int width, int height) {
    std::vector<ChartImage> out;
    for (const auto& c : chart::reportCharts(data))
        out.push_back({c.id, c.caption, chartPng(c.chart, width, height)});
    return out;
}

namespace {

// ---- tables in Qt's layout ---------------------------------------------------------------------
//
// Qt's table layout gives a column what its widest cell would like, then squeezes, and a squeezed
// cell breaks its words anywhere ("bonnie.put_b|lock"). The PDF's columns are sized as a browser
// would: each gets at least its widest unbreakable piece, the rest of the page goes to the columns
// whose cells want more, in proportion. Pieces are measured in the PDF's table type (7.5 pt): a
// dotted name's pieces are its dot-separated parts, a number with its unit is one piece, other
// text breaks at spaces.

// The width of a cell's widest unbreakable piece (first) and of its whole text (second), in
// pixels at 96 dpi.
std::pair<double, double> cellWidths(const Cell& cell, const QFontMetricsF& font) {
    const auto width = [&font](std::string_view t) {
        return font.horizontalAdvance(
            QString::fromUtf8(t.data(), static_cast<qsizetype>(t.size())));
    };
    if (cell.numeric)
        return {width(cell.text), width(cell.text)};
    double widest = 0;
    std::size_t start = 0;
    const std::string_view text = cell.text;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] != ' ' && !(cell.dotted && text[i] == '.'))
            continue;
        const std::size_t end = i < text.size() && text[i] == '.' ? i + 1 : i; // keeps its dot
        widest = std::max(widest, width(text.substr(start, end - start)));
        start = i + 1;
    }
    return {widest, width(text)};
}

// Each column's share of the table's width, in percent: at least its widest piece, then the rest
// of the line in proportion to what the column would like beyond that. A column's width holds
// its cells' padding and borders; the shares are rounded down so that they never ask for more
// than the line.
std::vector<std::string> columnPercents(const Block& table) {
    QFont cellFont("DejaVu Sans");
    cellFont.setPointSizeF(7.5);
    QFont headerFont = cellFont;
    headerFont.setBold(true);
    const QFontMetricsF cells(cellFont), headers(headerFont);
    constexpr double lineWidth = 640; // px: A4 inside 2 cm margins, at 96 dpi
    constexpr double cellFrame = 14;  // px per column: padding both sides, border, spacing
    const std::size_t columns = table.headers.size();
    std::vector<double> least(columns), most(columns);
    for (std::size_t c = 0; c < columns; ++c)
        std::tie(least[c], most[c]) = cellWidths(Cell{table.headers[c]}, headers);
    for (const auto& row : table.rows)
        for (std::size_t c = 0; c < std::min(columns, row.size()); ++c) {
            // A verdict's cell is set in bold (class "verdict"), as the header is.
            const auto [cMin, cMax] = cellWidths(row[c], row[c].color.empty() ? cells : headers);
            least[c] = std::max(least[c], cMin);
            most[c] = std::max(most[c], cMax);
        }
    double sumLeast = 0, sumMore = 0;
    for (std::size_t c = 0; c < columns; ++c) {
        least[c] += cellFrame;
        most[c] += cellFrame;
        sumLeast += least[c];
        sumMore += most[c] - least[c];
    }
    const double total = std::max(lineWidth, sumLeast);
    const double spare = std::min(total - sumLeast, sumMore);
    std::vector<std::string> out(columns);
    for (std::size_t c = 0; c < columns; ++c) {
        const double w = least[c] + (sumMore > 0 ? spare * (most[c] - least[c]) / sumMore : 0);
        out[c] = fixed(std::floor(1000 * w / total) / 10, 1) + "%";
    }
    return out;
}

// ---- pages -------------------------------------------------------------------------------------

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

// A table cell's lines, top and bottom, in the document's coordinates.
std::pair<qreal, qreal> cellExtent(QAbstractTextDocumentLayout* layout,
                                   const QTextTableCell& cell) {
    qreal top = std::numeric_limits<qreal>::max(), bottom = 0;
    for (QTextBlock b = cell.firstCursorPosition().block(); b.isValid(); b = b.next()) {
        const QRectF at = layout->blockBoundingRect(b);
        if (const QTextLayout* lines = b.layout(); lines && lines->lineCount() > 0) {
            top = std::min(top, at.top() + lines->lineAt(0).rect().top());
            bottom =
                std::max(bottom, at.top() + lines->lineAt(lines->lineCount() - 1).rect().bottom());
        }
        if (b == cell.lastCursorPosition().block())
            break;
    }
    return {top, bottom};
}

// The first table row, counted over every table's body rows from 0 as emitHtml counts them, that
// starts on one page and ends on the next (Qt's layout moves a cell's lines, not its row, past a
// page's end: "fio.qd-sweep-qd1." under one page's rows, "read.runtime" under the next page's
// header); none when every row stands on one page. Rows already moved are not asked for again.
std::optional<std::size_t> rowAcrossPages(QTextDocument& doc, qreal pageHeight,
                                          const std::set<std::size_t>& moved) {
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    const auto pageOf = [pageHeight](qreal y) { return static_cast<int>(y / pageHeight); };
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
                const auto [cellTop, cellBottom] = cellExtent(layout, table->cellAt(r, c));
                top = std::min(top, cellTop);
                bottom = std::max(bottom, cellBottom);
            }
            if (bottom > top && pageOf(bottom - 1) > pageOf(top) && !moved.count(bodyRow))
                return bodyRow;
        }
    }
    return std::nullopt;
}

// The document laid out as QTextDocument::print lays out a copy (the writer's resolution, 2 cm
// margins, its page size), but here, so that headings can be kept with what follows and each
// page gets its foot. The document's own lengths (margins, pixels) are at 96 dpi and scaled to
// the writer's by the layout; the page size is in the writer's units.
std::unique_ptr<QTextDocument> layOut(const ReportDocument& document,
                                      const std::vector<ChartImage>& images, QPdfWriter& writer,
                                      const std::set<std::size_t>& breaks,
                                      const std::set<std::size_t>& rowBreaks) {
    auto doc = std::make_unique<QTextDocument>();
    doc->setDefaultFont(QFont("DejaVu Sans", 9));
    for (const auto& c : images)
        doc->addResource(QTextDocument::ImageResource,
                         QUrl(QString::fromStdString("chart:" + c.id)),
                         QImage::fromData(QByteArray::fromStdString(c.png), "PNG"));
    HtmlFlavor flavor{true, columnPercents, breaks, rowBreaks};
    doc->setHtml(QString::fromStdString(emitHtml(
        document.doc, document.title,
        [](const std::string& id, const std::string& caption) {
            return "<img src=\"chart:" + htmlEscape(id) + "\" width=\"620\" alt=\"" +
                   htmlEscape(caption) + "\">";
        },
        flavor)));
    doc->documentLayout()->setPaintDevice(&writer);
    constexpr qreal documentDpi = 96;
    QTextFrameFormat frame = doc->rootFrame()->frameFormat();
    frame.setMargin(2 / 2.54 * documentDpi);
    doc->rootFrame()->setFrameFormat(frame);
    doc->setPageSize(QSizeF(writer.width(), writer.height()));
    return doc;
}

// Headings keep with their text and charts with their captions: one whose next block would
// start on a later page moves to that page. Qt's layout has no keep-with-next, and changing a
// laid-out document's formats in place lost what followed from the pages (charts, whole
// sections), so the document is laid out afresh with each break, the first block left alone
// first (each break moves what comes after it). Then a table row that runs onto the next page
// starts it, its table's header above it.
std::unique_ptr<QTextDocument> layOutKeptTogether(const ReportDocument& document,
                                                  const std::vector<ChartImage>& images,
                                                  QPdfWriter& writer) {
    const qreal pageHeight = writer.height();
    std::set<std::size_t> breaks, rowBreaks;
    auto doc = layOut(document, images, writer, breaks, rowBreaks);
    for (;;) {
        if (const auto lone = blockLeftAlone(*doc, pageHeight)) {
            breaks.insert(*lone);
        } else if (const auto row = rowAcrossPages(*doc, pageHeight, rowBreaks)) {
            rowBreaks.insert(*row);
        } else {
            return doc;
        }
        doc = layOut(document, images, writer, breaks, rowBreaks);
    }
}

// Each page of the laid-out document, and at its foot the report's title and date on the left
// and "page N of M" on the right.
void paintPages(QTextDocument& doc, QPdfWriter& writer, const ReportDocument& document) {
    const QRectF page(0, 0, writer.width(), writer.height());
    const qreal margin = 2 / 2.54 * writer.logicalDpiY(); // 2 cm, in the writer's units
    const int pages = doc.pageCount();
    QPainter painter(&writer);
    const QFont footFont("DejaVu Sans", 7);
    const QString foot = QString::fromStdString(
        document.title + (document.writtenAt.empty() ? std::string() : ", " + document.writtenAt));
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
        doc.documentLayout()->draw(&painter, ctx);
        painter.restore();
        painter.setFont(footFont);
        const QRectF footRect(margin, page.height() - margin * 0.8, page.width() - 2 * margin,
                              margin * 0.4);
        painter.drawText(footRect, Qt::AlignLeft | Qt::AlignVCenter, foot);
        painter.drawText(footRect, Qt::AlignRight | Qt::AlignVCenter,
                         QStringLiteral("page %1 of %2").arg(i + 1).arg(pages));
    }
    painter.end();
}

} // namespace

Expected<void> writePdf(const ReportDocument& document, const std::string& path) {
    std::vector<ChartImage> images;
    for (const auto& c : document.charts)
        images.push_back({c.id, c.caption, chartPng(c.chart)});
    QBuffer file;
    file.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&file);
        writer.setTitle(QString::fromStdString(document.title));
        writer.setCreator("layoutbench");
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter);
        auto doc = layOutKeptTogether(document, images, writer);
        paintPages(*doc, writer, document);
    }
    file.close();
    QByteArray pdf = file.data();
    static const QByteArray key = "/CreationDate (D:";
    if (const auto at = pdf.indexOf(key); at >= 0) {
        const auto start = at + key.size();
        const auto end = pdf.indexOf(')', start);
        if (const QByteArray stamp = pdfDate(document.writtenAt, end - start);
            end > start && !stamp.isEmpty())
            pdf.replace(start, end - start, stamp);
    }
    QSaveFile out(QString::fromStdString(path));
    if (!out.open(QIODevice::WriteOnly) || out.write(pdf) != pdf.size() || !out.commit())
        return runtimeError(path + ": cannot write: " + out.errorString().toStdString());
    return {};
}

Expected<void> renderPdf(const ReportData& data, const std::string& path) {
    return writePdf(reportDocument(data), path);
}

} // namespace lb
