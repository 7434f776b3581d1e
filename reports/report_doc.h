// The decision report's contents and its emitters, inside reports/: the report is built once as
// a list of blocks (headings, paragraphs, tables, code, charts) from the ReportData by its
// sections (report_doc.cpp: the frame and the host, layouts, drills and steady state;
// report_summary.cpp: the first page, the question and the verdicts; report_results.cpp:
// projections, comparisons, charts, failures, caveats, glossary, appendix), then written out by
// the HTML and Markdown emitters (report_html.cpp); report.cpp puts the document and its charts
// together (reports/chart_model.h, reports/svg_chart.h); report_pdf.cpp, in the Qt renderer, lays
// the same document out as a PDF.
// Every string that came from a scenario, a disk or a tool is escaped by an emitter, never by a
// section, so nothing can slip through unescaped.
#pragma once

#include "engine/measure/analysis.h"
#include "engine/measure/metric.h"
#include "reports/report_data.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace lb::report_detail {

using nlohmann::json;

// ---- the document model ----------------------------------------------------------------------

struct Span {
    std::string text;
    bool strong = false;
    std::string color; // background colour of a verdict, "" for none
    bool operator==(const Span&) const = default;
};

struct Cell {
    std::string text;
    std::string color; // background colour (verdicts), "" for none
    bool numeric = false;
    bool dotted = false; // a dotted name (bonnie.put_block): the PDF wraps it only at its dots
    bool operator==(const Cell&) const = default;
};

struct Block {
    enum class Kind { Heading, Paragraph, Bullets, Table, Code, Chart };
    Kind kind = Kind::Paragraph;
    int level = 2;                        // Heading
    std::vector<Span> spans;              // Paragraph
    std::vector<std::vector<Span>> items; // Bullets
    std::vector<std::string> headers;     // Table
    std::vector<std::vector<Cell>> rows;  // Table
    std::string text;                     // Heading, Code; Chart: the chart id
    std::string caption;                  // Chart
    bool operator==(const Block&) const = default;
};

class Doc {
public:
    void heading(int level, std::string text) {
        Block b;
        b.kind = Block::Kind::Heading;
        b.level = level;
        b.text = std::move(text);
        blocks.push_back(std::move(b));
    }
    void para(std::vector<Span> spans) {
        Block b;
        b.kind = Block::Kind::Paragraph;
        b.spans = std::move(spans);
        blocks.push_back(std::move(b));
    }
    void para(std::string text) { para(std::vector<Span>{{std::move(text)}}); }
    void bullets(std::vector<std::vector<Span>> items) {
        Block b;
        b.kind = Block::Kind::Bullets;
        b.items = std::move(items);
        blocks.push_back(std::move(b));
    }
    void table(std::vector<std::string> headers, std::vector<std::vector<Cell>> rows) {
        Block b;
        b.kind = Block::Kind::Table;
        b.headers = std::move(headers);
        b.rows = std::move(rows);
        blocks.push_back(std::move(b));
    }
    void code(std::string text) {
        Block b;
        b.kind = Block::Kind::Code;
        b.text = std::move(text);
        blocks.push_back(std::move(b));
    }
    void chart(std::string id, std::string caption) {
        Block b;
        b.kind = Block::Kind::Chart;
        b.text = std::move(id);
        b.caption = std::move(caption);
        blocks.push_back(std::move(b));
    }
    std::vector<Block> blocks;
    bool operator==(const Doc&) const = default;
};

// ---- formatting helpers (report_doc.cpp) -----------------------------------------------------

std::string plainPercent(double fraction);
// A size of capacity or use, in the unit the projection's sizes were typed in (TiB in, TiB out);
// decimal, as drives are sold, otherwise.
std::string capacityText(const ReportData& data, std::uint64_t bytes);
std::string verdictText(Verdict v);
std::string commandLine(const std::vector<std::string>& argv);
std::string jsonScalar(const json& v);
std::string plural(std::int64_t n, const char* one, const char* many);
// The reason every deciding metric that is not confident gives, when they all give the same
// ("too few runs: 1 and 1"), so that it is said once; "" when they differ or none is open.
std::string sharedUncertainty(const Comparison& c);

// ---- the contents ----------------------------------------------------------------------------

struct ChartRef {
    std::string id;
    std::string caption;
};

// Which charts a report has, and their captions (the same in every format).
std::vector<ChartRef> chartPlan(const ReportData& data);
std::vector<std::string> barMetricsOfUnit(const ReportData& data, Unit unit);

// The sections, in the order buildDoc puts them.
void addSummary(Doc& doc, const ReportData& data);
void addQuestion(Doc& doc, const ReportData& data);
void addVerdicts(Doc& doc, const ReportData& data);
void addInventory(Doc& doc, const ReportData& data);
void addLayouts(Doc& doc, const ReportData& data);
void addProjections(Doc& doc, const ReportData& data, const std::set<std::string>& charts);
void addComparisons(Doc& doc, const ReportData& data, const std::set<std::string>& charts);
void addCharts(Doc& doc, const ReportData& data, const std::set<std::string>& charts);
void addCourse(Doc& doc, const ReportData& data, const std::set<std::string>& charts);
void addDrills(Doc& doc, const ReportData& data);
// "As the pools fill" (report_fill.cpp): where each candidate's verdict changes across the fill
// levels, and each deciding metric drawn against fill level for every layout.
void addFillLevels(Doc& doc, const ReportData& data, const std::set<std::string>& charts);
// Its charts, "fill-N" for chart::fillChartMetrics(data)[N], in chartPlan.
void planFillCharts(const ReportData& data, std::vector<ChartRef>& out);
// "When a disk fails" (report_failure.cpp): each fail-rebuild drill's course as a chart, the
// rebuild table, and the risk over the projection's horizon with what it assumes.
void addDiskFailure(Doc& doc, const ReportData& data, const std::set<std::string>& charts);
// Its charts, "failure-N" for data.failureDrills[N], in chartPlan.
void planFailureCharts(const ReportData& data, std::vector<ChartRef>& out);
void addSteadyState(Doc& doc, const ReportData& data, const std::set<std::string>& charts);
void addFailedRuns(Doc& doc, const ReportData& data);
void addCaveats(Doc& doc, const ReportData& data);
void addGlossary(Doc& doc, const ReportData& data);
void addAppendix(Doc& doc, const ReportData& data);

// The whole report; `charts` are the ids of the charts rendered (a chart not among them is left
// out with its caption).
Doc buildDoc(const ReportData& data, const std::set<std::string>& charts);

// ---- the emitters (report_html.cpp) ----------------------------------------------------------

// The markup of a chart by its id and caption: the SVG itself in the HTML file, an <img> of a
// document resource in the PDF.
using ChartMarkup = std::function<std::string(const std::string& id, const std::string& caption)>;

struct HtmlFlavor {
    bool print = false; // for Qt's PDF layout rather than a browser
    // The print flavour's column widths of a table ("23.5%" each), from the PDF's renderer, which
    // measures the text in its own type; none: the layout's own.
    std::function<std::vector<std::string>(const Block& table)> columnWidths;
    // Headings and charts, counted together from 0, that start a new page.
    std::set<std::size_t> breakBefore;
    // Table rows, counted from 0 over every table's body rows, that start a new page: the table
    // is closed before the row and opened again, its header first, on the next page.
    std::set<std::size_t> rowBreakBefore;
};

std::string emitHtml(const Doc& doc, const std::string& title, const ChartMarkup& chart,
                     const HtmlFlavor& flavor);
// Charts as SVG files in `chartDir` (relative to the Markdown file), ID.svg.
std::string emitMarkdown(const Doc& doc, const std::string& chartDir);

} // namespace lb::report_detail
