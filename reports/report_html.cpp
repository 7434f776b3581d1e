// The report's emitters: HTML for a browser (the charts inline as SVG) and for Qt's PDF layout
// (the charts as images, the tables sized to fit A4 by the PDF's renderer), and Markdown.
#include "engine/base/size.h"
#include "engine/base/utf8.h"
#include "engine/capacity/projection.h"
#include "engine/exec/command.h"
#include "engine/measure/analysis.h"
#include "engine/measure/series.h"
#include "reports/comparison_text.h"
#include "reports/display.h"
#include "reports/report.h"
#include "reports/report_doc.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace lb::report_detail {

// Shared by the browser and Qt's rich-text engine (which lays out the PDF): plain CSS 2.1.
const char* const htmlStyleCommon =
    "h1{font-size:18pt}h2{font-size:14pt;margin-top:1.4em}h3{font-size:11pt}"
    "table{border-collapse:collapse;margin:0.4em 0}"
    "th,td{border:1px solid #b0b0b0;padding:3px 6px;text-align:left;vertical-align:top}"
    "th{background-color:#eeeeee}td.num{text-align:right}"
    "span.verdict,td.verdict{color:#ffffff;font-weight:bold}"
    "pre{background-color:#f4f4f4;padding:6px;font-family:'DejaVu Sans Mono',monospace;"
    "font-size:8pt;white-space:pre-wrap}"
    "p.caption{font-style:italic;font-size:9pt}";
// The browser gets a readable column and numbers kept on one line.
const char* const htmlStyleScreen =
    "body{font-family:'DejaVu Sans',sans-serif;font-size:10pt;color:#222;max-width:64em;"
    "margin:1.5em auto;padding:0 1em}td.num{white-space:nowrap}"
    "p.chart svg{max-width:100%;height:auto}";
// Qt's table layout starves text columns next to unbreakable ones: let everything wrap, and
// use a smaller type in tables so nine columns fit an A4 page.
const char* const htmlStylePrint = "body{font-family:'DejaVu Sans',sans-serif;color:#222}"
                                   "th,td{font-size:7.5pt;padding:2px 4px}";

std::string htmlSpans(const std::vector<Span>& spans) {
    std::string out;
    for (const auto& s : spans) {
        std::string t = htmlEscape(s.text);
        if (!s.color.empty())
            t = "<span class=\"verdict\" style=\"background-color:" + htmlEscape(s.color) +
                ";color:#ffffff\">&nbsp;" + t + "&nbsp;</span>";
        if (s.strong)
            t = "<b>" + t + "</b>";
        out += t;
    }
    return out;
}

// ---- tables in Qt's layout --------------------------------------------------------------------
//
// Qt's table layout gives a column what its widest cell would like, then squeezes, and a squeezed
// cell breaks its words anywhere ("bonnie.put_b|lock"). For the PDF the columns are sized as a
// browser would (HtmlFlavor::columnWidths, measured with Qt by the PDF's renderer), and the text
// marks where it may break.

// A cell's text as Qt lays it out in the PDF: a dotted name breaks after its dots only (a zero
// width space after each, a word joiner after each hyphen); a number keeps its unit.
std::string printText(const Cell& cell) {
    static const std::string zeroWidthSpace = "\u200b", wordJoiner = "\u2060",
                             noBreakSpace = "\u00a0";
    std::string out;
    for (const char ch : cell.text) {
        if (cell.numeric && ch == ' ') {
            out += noBreakSpace;
            continue;
        }
        out += ch;
        if (cell.dotted && ch == '.')
            out += zeroWidthSpace;
        else if (cell.dotted && ch == '-')
            out += wordJoiner;
    }
    return out;
}

// A table, its header row in <thead>: a PDF repeats it on each page the table runs onto. A row
// the print flavour moves to the next page closes the table and opens it again there.
// `bodyRows` counts the body rows of every table so far.
void htmlTable(std::string& out, const Block& b, const HtmlFlavor& flavor, std::size_t& bodyRows) {
    const auto widths =
        flavor.print && flavor.columnWidths ? flavor.columnWidths(b) : std::vector<std::string>{};
    const auto open = [&](bool newPage) {
        out += std::string("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"") +
               (flavor.print ? " width=\"100%\"" : "") +
               (newPage ? " style=\"page-break-before:always\"" : "") + ">\n<thead><tr>";
        for (std::size_t c = 0; c < b.headers.size(); ++c)
            out += (c < widths.size() ? "<th width=\"" + widths[c] + "\">" : std::string("<th>")) +
                   htmlEscape(b.headers[c]) + "</th>";
        out += "</tr></thead>\n<tbody>\n";
    };
    open(!b.rows.empty() && flavor.rowBreakBefore.count(bodyRows));
    for (std::size_t r = 0; r < b.rows.size(); ++r, ++bodyRows) {
        if (r > 0 && flavor.rowBreakBefore.count(bodyRows)) {
            out += "</tbody></table>\n";
            open(true);
        }
        out += "<tr>";
        for (const auto& cell : b.rows[r]) {
            if (!cell.color.empty())
                out += "<td class=\"verdict\" bgcolor=\"" + htmlEscape(cell.color) +
                       "\" style=\"background-color:" + htmlEscape(cell.color) +
                       ";color:#ffffff\">";
            else if (cell.numeric)
                out += "<td class=\"num\" align=\"right\">";
            else
                out += "<td>";
            out += htmlEscape(flavor.print ? printText(cell) : cell.text) + "</td>";
        }
        out += "</tr>\n";
    }
    out += "</tbody></table>\n";
}

std::string emitHtml(const Doc& doc, const std::string& title, const ChartMarkup& chart,
                     const HtmlFlavor& flavor) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<title>" +
                      htmlEscape(title) + "</title>\n<style>" + htmlStyleCommon +
                      (flavor.print ? htmlStylePrint : htmlStyleScreen) +
                      "</style>\n</head>\n<body>\n";
    std::size_t kept = 0;     // headings and charts, each kept with what follows in a PDF
    std::size_t bodyRows = 0; // table rows below the headers, each kept on one page in a PDF
    const auto breakStyle = [&] {
        return flavor.breakBefore.count(kept++) ? std::string(" style=\"page-break-before:always\"")
                                                : std::string();
    };
    for (const Block& b : doc.blocks) {
        switch (b.kind) {
        case Block::Kind::Heading: {
            // Appended part by part: GCC 12 at -O3 warns -Wrestrict on "<" + string&& (a false
            // alarm in libstdc++'s operator+, GCC bug 105329).
            const std::string tag = std::string("h").append(std::to_string(b.level));
            out.append("<").append(tag).append(breakStyle()).append(">");
            out.append(htmlEscape(b.text)).append("</").append(tag).append(">\n");
            break;
        }
        case Block::Kind::Paragraph:
            out += "<p>" + htmlSpans(b.spans) + "</p>\n";
            break;
        case Block::Kind::Bullets:
            out += "<ul>\n";
            for (const auto& item : b.items)
                out += "<li>" + htmlSpans(item) + "</li>\n";
            out += "</ul>\n";
            break;
        case Block::Kind::Table:
            htmlTable(out, b, flavor, bodyRows);
            break;
        case Block::Kind::Code:
            out += "<pre>" + htmlEscape(b.text) + "</pre>\n";
            break;
        case Block::Kind::Chart:
            out += "<p class=\"chart\"" + breakStyle() + ">" + chart(b.text, b.caption) +
                   "</p>\n<p class=\"caption\">" + htmlEscape(b.caption) + "</p>\n";
            break;
        }
    }
    out += "</body>\n</html>\n";
    return out;
}

// ---- Markdown --------------------------------------------------------------------------------

std::string mdSpans(const std::vector<Span>& spans) {
    std::string out;
    for (const auto& s : spans)
        out += s.strong ? "**" + markdownEscape(s.text) + "**" : markdownEscape(s.text);
    return out;
}

// `chartDir`: where the charts' SVG files are, relative to the Markdown file.
std::string emitMarkdown(const Doc& doc, const std::string& chartDir) {
    std::string out;
    for (const Block& b : doc.blocks) {
        switch (b.kind) {
        case Block::Kind::Heading:
            out += std::string(static_cast<std::size_t>(b.level), '#') + " " +
                   markdownEscape(b.text) + "\n\n";
            break;
        case Block::Kind::Paragraph:
            out += mdSpans(b.spans) + "\n\n";
            break;
        case Block::Kind::Bullets:
            for (const auto& item : b.items)
                out += "- " + mdSpans(item) + "\n";
            out += "\n";
            break;
        case Block::Kind::Table: {
            std::string header = "|", rule = "|";
            for (std::size_t c = 0; c < b.headers.size(); ++c) {
                header.append(" ").append(markdownEscape(b.headers[c])).append(" |");
                const bool numeric =
                    !b.rows.empty() && b.rows.front().size() > c && b.rows.front()[c].numeric;
                rule += numeric ? " ---: |" : " --- |";
            }
            out += header + "\n" + rule + "\n";
            for (const auto& row : b.rows) {
                out += "|";
                for (const auto& cell : row)
                    out.append(" ").append(markdownEscape(cell.text)).append(" |");
                out += "\n";
            }
            out += "\n";
            break;
        }
        case Block::Kind::Code: {
            // A fence longer than any run of backticks inside, so nothing can close it early.
            std::size_t longest = 0, run = 0;
            for (char ch : b.text) {
                run = ch == '`' ? run + 1 : 0;
                longest = std::max(longest, run);
            }
            const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
            out += fence + "\n" + b.text + "\n" + fence + "\n\n";
            break;
        }
        case Block::Kind::Chart: {
            // A path with spaces or parentheses stays one link target inside <...>.
            const std::string file = (chartDir.empty() ? "" : chartDir + "/") + b.text + ".svg";
            out += "![" + markdownEscape(b.caption) + "](<" + file + ">)\n\n*" +
                   markdownEscape(b.caption) + "*\n\n";
            break;
        }
        }
    }
    while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n')
        out.pop_back();
    return out;
}

} // namespace lb::report_detail

namespace lb {

std::string htmlEscape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string markdownEscape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '\n' || c == '\r') {
            out += ' ';
            continue;
        }
        if (std::string_view("\\`*_[]<>|&#~").find(c) != std::string_view::npos)
            out += '\\';
        out += c;
    }
    return out;
}

} // namespace lb
