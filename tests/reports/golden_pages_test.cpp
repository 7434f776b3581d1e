// Golden page images of the decision report (issue 28): page 1 of the HTML as Chromium headless
// shows it and of the PDF as pdftoppm rasterises it, each checked for the presence of its parts
// where the page's own layout puts them (the browser's boxes of the elements for the HTML,
// pdftotext -bbox-layout for the PDF): the title, set larger than the Summary heading above it;
// the summary's verdict on its verdict colour (charts::verdictColor); each of the summary's
// tables with its header row shaded and every row, by the first cells the Markdown of the same
// report lists; the "Written …" line; the next heading below them all; in the HTML, any chart in
// view not blank. Then each page is compared with its golden PNG in tests/data/golden/ as a
// coarse grid of ink coverage with a tolerance, not pixel by pixel (fonts and antialiasing
// differ): a part missing, added or moved by half a line fails, a changed digit does not.
//
// LAYOUTBENCH_UPDATE_GOLDEN=1 rewrites the golden PNGs from the pages rendered here (when all
// their parts are found) instead of comparing: run it after a deliberate change of the first
// page and look at the new goldens before committing them.
//
// The pages, the reports they come from and the boxes found stay in golden-pages/FORMAT/ beside
// this executable (in the build directory), replaced on every run; a failure names them, and a
// difference from the golden is framed in red in page-1-differences.png there.
// Part of report_tests (its main makes the QApplication, offscreen).
#include "engine/capacity/projection.h"
#include "engine/store/store.h"
#include "probes/import.h"
#include "reports/charts.h"
#include "reports/report.h"
#include "reports/report_data.h"
#include "reports/report_file.h"
#include "reports/report_pdf.h"
#include "tests/support/report_text.h"
#include "tests/support/scratch_dir.h"

#include <QColor>
#include <QImage>
#include <QPainter>
#include <QPen>
#include <QProcess>
#include <QRect>
#include <QSize>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace fs = std::filesystem;
using namespace lb;

namespace {

const std::string dataDir = LAYOUTBENCH_TEST_DATA_DIR;

// ---- the report ---------------------------------------------------------------------------

std::string fixedClock() {
    return "2024-04-04T12:00:00Z";
}

// Ten 500 GB SSDs as ZFS RAIDZ2 on bare metal (the baseline) and as md RAID6 in a guest with
// the bonnie++ seed results, and a five-year projection at 30 % a year on a drive priced here
// (not the catalog's, whose prices may change). Who wrote the report, when and with what are
// fixed: the page changes with neither the clock nor the build.
void gatherGoldenReport(const std::string& dbPath, ReportData& out) {
    auto store = Store::open(dbPath, fixedClock);
    ASSERT_TRUE(store) << store.error().message;
    const nlohmann::json inventory = {{"hostname", "storage1"},
                                      {"kernel", "Linux 6.1.0-18-amd64 x86_64"},
                                      {"cpu_model", "Intel(R) Xeon(R) E-2236 CPU @ 3.40GHz"},
                                      {"cpus", "12"},
                                      {"ram_bytes", 34359738368ULL}};
    auto host = store->ensureHost("storage1", inventory.dump());
    ASSERT_TRUE(host) << host.error().message;
    nlohmann::json disks = nlohmann::json::array(), bytes = nlohmann::json::array();
    for (int i = 0; i < 10; ++i) {
        disks.push_back("ssd" + std::to_string(i));
        bytes.push_back(500107862016ULL);
    }
    const nlohmann::json bare = {{"kind", "zfs-raidz2"}, {"baseline", true},
                                 {"disks", disks},       {"disk_bytes", bytes},
                                 {"ashift", 12},         {"recordsize", 131072}};
    const nlohmann::json guest = {{"kind", "md-raid6"},
                                  {"disks", disks},
                                  {"disk_bytes", bytes},
                                  {"underprovision", 0.8},
                                  {"hypervisor", "xen-hvm"}};
    ASSERT_TRUE(store->ensureLayout("bare-metal", "zfs-raidz2", bare.dump(), *host));
    ASSERT_TRUE(store->ensureLayout("guest-vm", "md-raid6", guest.dump(), *host));
    const std::string bonnie = dataDir + "/bonnie++/1.97/";
    for (const auto& [layout, kind, file] :
         {std::tuple{"bare-metal", "zfs-raidz2", "seed-bare-metal.csv"},
          std::tuple{"guest-vm", "md-raid6", "seed-guest.csv"}}) {
        auto imported = importFiles(*store, {layout, "storage1", kind, {bonnie + file}});
        ASSERT_TRUE(imported) << imported.error().message;
    }
    ReportRequest request;
    request.baseline = "bare-metal";
    ProjectionRequest projection;
    projection.usedBytes = 1'000'000'000'000ULL;
    projection.growth.kind = GrowthKind::Compound;
    projection.growth.annualRate = 0.30;
    projection.drive = Drive{.id = "samsung-860-evo-500gb",
                             .model = "Samsung 860 EVO 500GB",
                             .capacityBytes = 500'000'000'000ULL,
                             .tbw = 300.0,
                             .warrantyYears = 5.0,
                             .priceUsd = 55.0};
    projection.hostBytesPerDay = 100'000'000'000ULL;
    request.projection = projection;
    request.author = "tester@storage1";
    request.writtenAt = fixedClock();
    request.generator = "layoutbench 0.1.0";
    auto data = gatherReport(*store, request);
    ASSERT_TRUE(data) << data.error().message;
    ASSERT_FALSE(data->comparisons.empty());
    out = std::move(*data);
}

// What the Markdown of the same report (the same sections and tables in the same order, and
// cheap: no charts) says page 1 must hold after "Summary": each table with its first header cell
// and the first cell of each row, and the heading after the summary.
struct TableFacts {
    std::string header;
    std::vector<std::string> rows;
};

struct SummaryFacts {
    std::vector<TableFacts> tables;
    std::string nextHeading;
};

using test::unescapeHtml;
using test::unescapeMarkdown;

SummaryFacts summaryFacts(const ReportData& data) {
    SummaryFacts facts;
    std::istringstream lines(renderMarkdown(data));
    bool inSummary = false, inTable = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with("#")) {
            const std::string heading = unescapeMarkdown(line.substr(line.find(' ') + 1));
            if (inSummary) {
                facts.nextHeading = heading;
                break;
            }
            inSummary = heading == "Summary";
            continue;
        }
        const bool cells = inSummary && line.starts_with("| ");
        if (cells && !line.starts_with("| ---") && !line.starts_with("|---")) {
            const std::string first = unescapeMarkdown(line.substr(2, line.find(" |", 2) - 2));
            if (inTable)
                facts.tables.back().rows.push_back(first);
            else
                facts.tables.push_back({first, {}});
        }
        inTable = cells;
    }
    return facts;
}

// ---- tools --------------------------------------------------------------------------------

// Tests may not skip: a tool missing is a failure that says where it comes from.
::testing::AssertionResult installed(const char* tool, const char* package) {
    if (!QStandardPaths::findExecutable(tool).isEmpty())
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << tool << " is not installed: scripts/setup.sh installs it (Debian package " << package
           << ")";
}

struct ToolResult {
    bool ok = false;
    std::string out, err;
};

// Runs a tool to its end (a minute at most), its output collected.
ToolResult runTool(const QString& program, const QStringList& args) {
    QProcess process;
    process.start(program, args);
    ToolResult r;
    if (!process.waitForStarted(60'000)) {
        r.err = process.errorString().toStdString();
        return r;
    }
    const bool finished = process.waitForFinished(60'000);
    if (!finished) {
        process.kill();
        process.waitForFinished();
    }
    r.out = process.readAllStandardOutput().toStdString();
    r.err = process.readAllStandardError().toStdString();
    if (!finished)
        r.err += "\n(killed after a minute)";
    r.ok = finished && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    return r;
}

std::string tail(const std::string& text, std::size_t n = 1500) {
    return text.size() <= n ? text : "…" + text.substr(text.size() - n);
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void spit(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

// golden-pages/FORMAT/ beside this executable, emptied.
fs::path keptDir(const std::string& format) {
    const fs::path dir = fs::read_symlink("/proc/self/exe").parent_path() / "golden-pages" / format;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// ---- pixels -------------------------------------------------------------------------------

// Anything clearly darker or more coloured than white: text, rules, fills, not the tables'
// #eeeeee header shading.
bool isInk(QRgb c) {
    return std::max({255 - qRed(c), 255 - qGreen(c), 255 - qBlue(c)}) > 40;
}

bool near(QRgb c, const QColor& want, int tolerance) {
    return std::abs(qRed(c) - want.red()) <= tolerance &&
           std::abs(qGreen(c) - want.green()) <= tolerance &&
           std::abs(qBlue(c) - want.blue()) <= tolerance;
}

// The share of the box's pixels (within the image) that `is` holds for.
double shareOf(const QImage& image, const QRect& box, const std::function<bool(QRgb)>& is) {
    const QRect r = box.intersected(image.rect());
    if (r.isEmpty())
        return 0;
    long n = 0;
    for (int y = r.top(); y <= r.bottom(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = r.left(); x <= r.right(); ++x)
            n += is(line[x]) ? 1 : 0;
    }
    return static_cast<double>(n) / (static_cast<double>(r.width()) * r.height());
}

std::string describe(const QRect& r) {
    return "x " + std::to_string(r.left()) + "–" + std::to_string(r.right() + 1) + ", y " +
           std::to_string(r.top()) + "–" + std::to_string(r.bottom() + 1);
}

std::string percent(double share) {
    std::ostringstream s;
    s.precision(1);
    s << std::fixed << share * 100 << " %";
    return s.str();
}

// ---- the parts of page 1 ------------------------------------------------------------------

struct TablePart {
    std::optional<QRect> box, header;                      // the table, its header row
    std::vector<std::pair<std::string, QRect>> firstCells; // of its rows, as found
};

// Where page 1 has each part, in the page image's pixels; a part not found stays empty.
struct PageParts {
    std::optional<QRect> title, summaryHeading, verdict, written, nextHeading;
    std::vector<TablePart> tables; // the summary's, one per SummaryFacts::tables
    std::vector<QRect> charts;     // charts that start on the page
};

// A page rendered, and the files a failure points at.
struct Page {
    std::string format; // "HTML", "PDF"
    fs::path png;       // the page image
    fs::path report;    // the report it shows
    fs::path boxes;     // where the parts' boxes came from
    QImage image;       // png, as RGB32
};

std::string lookAt(const Page& page) {
    return "\n  look at " + page.png.string() + " (page 1 of " + page.report.string() +
           "; the boxes found: " + page.boxes.string() + ")";
}

struct NamedPart {
    std::string name;
    const std::optional<QRect>* box;
    bool inSummary; // between the Summary heading and the next one
};

// The parts, in page order, by the names a failure gives them.
std::vector<NamedPart> named(const PageParts& p, const SummaryFacts& f) {
    std::vector<NamedPart> out = {{"the title", &p.title, false},
                                  {"the Summary heading", &p.summaryHeading, false},
                                  {"the summary's verdict", &p.verdict, true}};
    for (std::size_t i = 0; i < f.tables.size() && i < p.tables.size(); ++i) {
        const std::string table = "the summary's table \"" + f.tables[i].header + " …\"";
        out.push_back({table, &p.tables[i].box, true});
        out.push_back({"the header row of " + table, &p.tables[i].header, true});
    }
    out.push_back({"the summary's \"Written …\" line", &p.written, true});
    out.push_back(
        {"the heading after the summary (\"" + f.nextHeading + "\")", &p.nextHeading, false});
    return out;
}

// Drawn: on the page, with ink in its box.
bool expectDrawn(const Page& page, const std::string& name, const QRect& box) {
    if (!page.image.rect().contains(box)) {
        ADD_FAILURE() << page.format << " page 1: " << name << " is not (wholly) on it, at "
                      << describe(box) << lookAt(page);
        return false;
    }
    if (const double ink = shareOf(page.image, box, isInk); ink < 0.03) {
        ADD_FAILURE() << page.format << " page 1: " << name << " is not drawn where the layout "
                      << "puts it (" << describe(box) << ": " << percent(ink) << " ink)"
                      << lookAt(page);
        return false;
    }
    return true;
}

// Every part found and drawn, in its place. False when one is not.
bool expectPartsInPlace(const Page& page, const PageParts& parts, const SummaryFacts& facts) {
    bool all = true;
    for (const auto& part : named(parts, facts)) {
        if (!*part.box) {
            ADD_FAILURE() << page.format << " page 1: " << part.name << " is missing"
                          << lookAt(page);
            all = false;
        } else {
            all = expectDrawn(page, part.name, **part.box) && all;
        }
    }
    if (!all)
        return false;
    EXPECT_LE(parts.title->bottom(), parts.summaryHeading->top())
        << page.format << " page 1: the title is not above the Summary heading" << lookAt(page);
    EXPECT_GT(parts.title->height(), parts.summaryHeading->height())
        << page.format << " page 1: the title is not set larger than the Summary heading"
        << lookAt(page);
    for (const auto& part : named(parts, facts)) {
        if (!part.inSummary)
            continue;
        const QRect& box = **part.box;
        EXPECT_TRUE(box.top() >= parts.summaryHeading->bottom() &&
                    box.bottom() <= parts.nextHeading->top())
            << page.format << " page 1: " << part.name << " (" << describe(box)
            << ") is not in the summary, between \"Summary\" and \"" << facts.nextHeading << "\""
            << lookAt(page);
    }
    return true;
}

// Each table's header row shaded as the report's CSS has it, and each row there by its first
// cell.
void expectTables(const Page& page, const PageParts& parts, const SummaryFacts& facts) {
    const QColor shading(0xee, 0xee, 0xee);
    for (std::size_t i = 0; i < facts.tables.size(); ++i) {
        const TableFacts& want = facts.tables[i];
        const TablePart& got = parts.tables[i];
        const std::string table = "the summary's table \"" + want.header + " …\"";
        const double shaded =
            shareOf(page.image, *got.header, [&](QRgb c) { return near(c, shading, 6); });
        EXPECT_GT(shaded, 0.2) << page.format << " page 1: the header row of " << table
                               << " is not shaded #eeeeee (" << percent(shaded) << " of "
                               << describe(*got.header) << ")" << lookAt(page);
        for (const std::string& row : want.rows) {
            const auto cell = std::find_if(got.firstCells.begin(), got.firstCells.end(),
                                           [&](const auto& c) { return c.first == row; });
            if (cell == got.firstCells.end()) {
                ADD_FAILURE() << page.format << " page 1: " << table << " has no row \"" << row
                              << "\"" << lookAt(page);
            } else if (expectDrawn(page, "the row \"" + row + "\" of " + table, cell->second)) {
                EXPECT_TRUE(got.box->contains(cell->second))
                    << page.format << " page 1: the row \"" << row << "\" is outside " << table
                    << lookAt(page);
            }
        }
    }
}

void expectParts(const Page& page, const PageParts& parts, const ReportData& data,
                 const SummaryFacts& facts) {
    const double ink = shareOf(page.image, page.image.rect(), isInk);
    EXPECT_GT(ink, 0.02) << page.format << " page 1 is blank (" << percent(ink) << " ink)"
                         << lookAt(page);
    EXPECT_LT(ink, 0.6) << page.format << " page 1 is mostly ink (" << percent(ink) << ")"
                        << lookAt(page);
    if (!expectPartsInPlace(page, parts, facts))
        return;
    const Verdict verdict = data.comparisons.front().verdict;
    const QColor colour(charts::verdictColor(verdict));
    const double coloured =
        shareOf(page.image, *parts.verdict, [&](QRgb c) { return near(c, colour, 24); });
    EXPECT_GT(coloured, 0.25) << page.format << " page 1: the summary's verdict \""
                              << verdictName(verdict) << "\" is not on its colour "
                              << colour.name().toStdString() << " (" << percent(coloured) << " of "
                              << describe(*parts.verdict) << ")" << lookAt(page);
    expectTables(page, parts, facts);
    for (const QRect& chart : parts.charts) {
        EXPECT_GT(shareOf(page.image, chart, isInk), 0.05)
            << page.format << " page 1: the chart at " << describe(chart) << " is blank"
            << lookAt(page);
    }
}

// ---- the golden ---------------------------------------------------------------------------

bool updatingGoldens() {
    const char* update = std::getenv("LAYOUTBENCH_UPDATE_GOLDEN");
    return update && std::string(update) == "1";
}

const char* const updateHint = "after a deliberate change of the first page, "
                               "LAYOUTBENCH_UPDATE_GOLDEN=1 rewrites the goldens from the pages "
                               "rendered (look at them before committing)";

struct CellDifference {
    QRect cell;
    double ink = 0, golden = 0;
};

// Cells whose ink coverage differs from the golden's by more than part of a line of text moved
// in or out of them would make; a digit changed is a few pixels of a cell. The cells are about
// two lines of text high and four characters wide: a block moved by a line changes the cells at
// its edges.
std::vector<CellDifference> gridDifferences(const QImage& page, const QImage& golden, QSize cell) {
    std::vector<CellDifference> out;
    for (int y = 0; y < page.height(); y += cell.height())
        for (int x = 0; x < page.width(); x += cell.width()) {
            const QRect r(QPoint(x, y), cell);
            const double a = shareOf(page, r, isInk), b = shareOf(golden, r, isInk);
            if (std::abs(a - b) > 0.04 + 0.35 * std::max(a, b))
                out.push_back({r.intersected(page.rect()), a, b});
        }
    return out;
}

std::string partsAt(const QRect& cell, const PageParts& parts, const SummaryFacts& facts) {
    std::string out;
    for (const auto& part : named(parts, facts))
        if (*part.box && (*part.box)->intersects(cell))
            out += (out.empty() ? " (" : ", ") + part.name;
    return out.empty() ? out : out + ")";
}

// The page with its differing cells framed in red, beside it.
fs::path writeDifferences(const Page& page, const std::vector<CellDifference>& cells) {
    QImage marked = page.image.copy();
    QPainter painter(&marked);
    painter.setPen(QPen(QColor(255, 0, 0), 2));
    for (const auto& d : cells)
        painter.drawRect(d.cell.adjusted(1, 1, -1, -1));
    painter.end();
    fs::path out = page.png;
    out.replace_filename(page.png.stem().string() + "-differences.png");
    marked.save(QString::fromStdString(out.string()));
    return out;
}

void compareWithGolden(const Page& page, const PageParts& parts, const SummaryFacts& facts,
                       const std::string& goldenName, QSize cell) {
    const fs::path golden = fs::path(dataDir) / "golden" / goldenName;
    if (updatingGoldens()) {
        if (::testing::Test::HasFailure()) {
            ADD_FAILURE() << "LAYOUTBENCH_UPDATE_GOLDEN=1: " << golden
                          << " not rewritten: the page lacks parts (above)";
            return;
        }
        fs::create_directories(golden.parent_path());
        fs::copy_file(page.png, golden, fs::copy_options::overwrite_existing);
        std::cout << "LAYOUTBENCH_UPDATE_GOLDEN=1: wrote " << golden.string() << " from "
                  << page.png.string() << "\n";
        return;
    }
    QImage expected;
    ASSERT_TRUE(expected.load(QString::fromStdString(golden.string())))
        << "no golden image " << golden.string() << " to compare " << page.png.string()
        << " with: LAYOUTBENCH_UPDATE_GOLDEN=1 writes it";
    expected = expected.convertToFormat(QImage::Format_RGB32);
    ASSERT_EQ(expected.size(), page.image.size())
        << page.format << " page 1 is " << page.image.width() << "×" << page.image.height()
        << " pixels, the golden " << golden.string() << " " << expected.width() << "×"
        << expected.height() << "; " << updateHint << lookAt(page);
    const auto cells = gridDifferences(page.image, expected, cell);
    if (cells.empty())
        return;
    std::ostringstream list;
    for (std::size_t i = 0; i < cells.size() && i < 10; ++i)
        list << "\n  " << describe(cells[i].cell) << ": " << percent(cells[i].ink)
             << " ink, the golden " << percent(cells[i].golden)
             << partsAt(cells[i].cell, parts, facts);
    if (cells.size() > 10)
        list << "\n  … and " << cells.size() - 10 << " more";
    ADD_FAILURE() << page.format << " page 1 differs from its golden in " << cells.size()
                  << " cells of " << cell.width() << "×" << cell.height()
                  << " px (a part missing, added or moved):" << list.str() << "\n  compare "
                  << page.png.string() << " with " << golden.string()
                  << "; the cells are framed in " << writeDifferences(page, cells).string()
                  << "\n  " << updateHint;
}

void loadPage(Page& page) {
    QImage loaded;
    ASSERT_TRUE(loaded.load(QString::fromStdString(page.png.string())))
        << "cannot read " << page.png;
    page.image = loaded.convertToFormat(QImage::Format_RGB32);
}

// ---- HTML: Chromium headless --------------------------------------------------------------

QStringList chromiumArgs(const fs::path& dir) {
    // As root Chromium runs only without its sandbox; a profile of its own per test, so two
    // tests at once do not share one.
    return {"--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--window-size=1000,1400",
            QString::fromStdString("--user-data-dir=" + (dir / "chromium-profile").string())};
}

QString fileUrl(const fs::path& p) {
    return QString::fromStdString("file://" + fs::absolute(p).string());
}

// Once the page has loaded (its charts decoded), the boxes of the elements page 1's parts are
// made of, in document order, as "tag left top right bottom text" lines in a hidden <pre> that
// --dump-dom prints: headings and paragraphs by their text's box (not the block's width), each
// table followed by its header row (tr0) and the first cell of each of its rows (td0).
const char* const boxesScript = R"(<script>
addEventListener('load', () => {
  const box = r => [r.left, r.top, r.right, r.bottom].map(Math.round).join('\t');
  const textBox = e => { const r = document.createRange(); r.selectNodeContents(e);
                         return box(r.getBoundingClientRect()); };
  const text = e => e.textContent.replace(/\s+/g, ' ').trim();
  const out = [];
  for (const e of document.querySelectorAll('h1,h2,table,span.verdict,img,p')) {
    const tag = e.tagName.toLowerCase();
    if (tag === 'p' && !text(e).startsWith('Written')) continue;
    const tight = tag === 'h1' || tag === 'h2' || tag === 'p';
    out.push([tag, tight ? textBox(e) : box(e.getBoundingClientRect()), text(e)].join('\t'));
    if (tag !== 'table') continue;
    for (const [i, row] of [...e.rows].entries())
      if (i === 0) out.push(['tr0', box(row.getBoundingClientRect()), ''].join('\t'));
      else if (row.cells.length)
        out.push(['td0', box(row.cells[0].getBoundingClientRect()), text(row.cells[0])].join('\t'));
  }
  const pre = document.createElement('pre');
  pre.id = 'lb-boxes';
  pre.hidden = true;
  pre.textContent = '\n' + out.join('\n') + '\n';
  document.body.appendChild(pre);
});
</script>
)";

struct DomBox {
    std::string tag;
    QRect box;
    std::string text;
};

std::vector<DomBox> parseDomBoxes(const std::string& dom) {
    std::vector<DomBox> out;
    const auto start = dom.find("id=\"lb-boxes\"");
    if (start == std::string::npos)
        return out;
    const auto open = dom.find('>', start);
    std::istringstream lines(unescapeHtml(dom.substr(open + 1, dom.find("</pre>", open) - open)));
    for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        DomBox b;
        int left = 0, top = 0, right = 0, bottom = 0;
        if (!std::getline(fields, b.tag, '\t') || !(fields >> left >> top >> right >> bottom))
            continue;
        fields.ignore(1);
        std::getline(fields, b.text);
        b.box = QRect(QPoint(left, top), QPoint(right - 1, bottom - 1));
        out.push_back(std::move(b));
    }
    return out;
}

// The screenshot of page 1 and, from a copy with boxesScript, the boxes in the same window.
void renderHtmlPage(Page& page, const fs::path& dir, std::vector<DomBox>& boxes) {
    const auto shot = runTool(
        "chromium", chromiumArgs(dir) << QString::fromStdString("--screenshot=" + page.png.string())
                                      << fileUrl(page.report));
    ASSERT_TRUE(shot.ok && fs::exists(page.png))
        << "chromium wrote no screenshot " << page.png << ":\n"
        << tail(shot.err);
    std::string html = slurp(page.report);
    const auto body = html.rfind("</body>");
    ASSERT_NE(body, std::string::npos) << page.report << " has no </body>";
    html.insert(body, boxesScript);
    const fs::path measured = dir / "report-with-boxes.html";
    spit(measured, html);
    const auto dom = runTool("chromium", chromiumArgs(dir) << "--dump-dom" << fileUrl(measured));
    ASSERT_TRUE(dom.ok) << "chromium --dump-dom " << measured << " failed:\n" << tail(dom.err);
    boxes = parseDomBoxes(dom.out);
    ASSERT_FALSE(boxes.empty()) << "no boxes in the DOM chromium printed for " << measured;
    std::ostringstream listing;
    for (const auto& b : boxes)
        listing << b.tag << " " << describe(b.box) << " " << b.text.substr(0, 80) << "\n";
    spit(page.boxes, listing.str());
    ASSERT_NO_FATAL_FAILURE(loadPage(page));
}

PageParts htmlParts(const std::vector<DomBox>& boxes, const ReportData& data,
                    const SummaryFacts& facts, int pageHeight) {
    PageParts parts;
    parts.tables.resize(facts.tables.size());
    const std::string verdict(verdictName(data.comparisons.front().verdict));
    bool inSummary = false;
    std::size_t nextTable = 0;  // of facts.tables
    TablePart* table = nullptr; // the one whose rows follow
    for (const DomBox& b : boxes) {
        if (b.tag == "img" && b.box.top() < pageHeight)
            parts.charts.push_back(b.box);
        if (b.tag == "h1" && !parts.title)
            parts.title = b.box;
        if (b.tag == "h2") {
            if (inSummary && b.text == facts.nextHeading && !parts.nextHeading)
                parts.nextHeading = b.box;
            inSummary = b.text == "Summary" && !parts.summaryHeading;
            if (inSummary)
                parts.summaryHeading = b.box;
        }
        if (b.tag != "tr0" && b.tag != "td0")
            table = nullptr;
        if (!inSummary)
            continue;
        if (b.tag == "span" && b.text == verdict && !parts.verdict)
            parts.verdict = b.box;
        else if (b.tag == "p" && !parts.written)
            parts.written = b.box;
        else if (b.tag == "table" && nextTable < facts.tables.size() &&
                 b.text.starts_with(facts.tables[nextTable].header))
            (table = &parts.tables[nextTable++])->box = b.box;
        else if (table && b.tag == "tr0")
            table->header = b.box;
        else if (table && b.tag == "td0")
            table->firstCells.emplace_back(b.text, b.box);
    }
    return parts;
}

// ---- PDF: pdftoppm and pdftotext -bbox-layout ----------------------------------------------

struct TextWord {
    std::string text;
    QRectF box; // points
};

struct TextLine {
    std::string text; // its words, one space apart
    QRectF box;
    std::vector<TextWord> words;
};

// The ligatures Qt's PDF writer draws ("ﬁles"), spelt out as the report wrote them.
std::string spelledOut(std::string word) {
    static const std::vector<std::pair<std::string, std::string>> ligatures = {
        {"\ufb01", "fi"}, {"\ufb02", "fl"}, {"\ufb00", "ff"}, {"\ufb03", "ffi"}, {"\ufb04", "ffl"}};
    for (const auto& [from, to] : ligatures)
        for (auto at = word.find(from); at != std::string::npos; at = word.find(from, at))
            word.replace(at, from.size(), to);
    return word;
}

// pdftotext -bbox-layout's XHTML: the page's size in points and its lines with their words.
std::vector<TextLine> parseBboxLayout(const std::string& xhtml, double& pageWidth) {
    static const std::regex page("<page width=\"([0-9.]+)\"");
    if (std::smatch m; std::regex_search(xhtml, m, page))
        pageWidth = std::stod(m[1]);
    static const std::regex item("<(line|word) xMin=\"([0-9.]+)\" yMin=\"([0-9.]+)\" "
                                 "xMax=\"([0-9.]+)\" yMax=\"([0-9.]+)\">([^<]*)");
    std::vector<TextLine> lines;
    for (std::sregex_iterator it(xhtml.begin(), xhtml.end(), item), end; it != end; ++it) {
        const auto& m = *it;
        const QRectF box(QPointF(std::stod(m[2]), std::stod(m[3])),
                         QPointF(std::stod(m[4]), std::stod(m[5])));
        if (m[1] == "line") {
            lines.push_back({"", box, {}});
        } else if (!lines.empty()) {
            TextLine& line = lines.back();
            line.words.push_back({spelledOut(unescapeHtml(m[6])), box});
            line.text += (line.text.empty() ? "" : " ") + line.words.back().text;
        }
    }
    return lines;
}

QRect toPixels(const QRectF& points, double scale) {
    return QRect(QPoint(static_cast<int>(std::floor(points.left() * scale)),
                        static_cast<int>(std::floor(points.top() * scale))),
                 QPoint(static_cast<int>(std::ceil(points.right() * scale)) - 1,
                        static_cast<int>(std::ceil(points.bottom() * scale)) - 1));
}

// A word as drawn, without the no-break spaces around a verdict.
std::string bare(std::string word) {
    for (const std::string_view pad : {"\u00a0", "\u2007", "\u202f"})
        for (auto at = word.find(pad); at != std::string::npos; at = word.find(pad))
            word.erase(at, pad.size());
    return word;
}

// A line of text that is a table cell's, or its first line when the cell wraps.
bool startsCell(const std::string& line, const std::string& cell) {
    if (line.empty() || !cell.starts_with(line))
        return false;
    return line.size() == cell.size() || cell[line.size()] == ' ' || line.back() == '-';
}

// One of the summary's tables: its header cell at lines[at], its rows above lines[end]. Its
// header row is every line of it above the first row; the table, every line down to its last.
TablePart pdfTable(const std::vector<const TextLine*>& lines, std::size_t at, std::size_t end,
                   const TableFacts& facts, double scale) {
    TablePart table;
    const QRectF cell = lines[at]->box;
    std::vector<bool> taken(end, false);
    double firstRow = 1e9, lastRow = cell.bottom();
    for (const std::string& row : facts.rows)
        for (std::size_t i = at + 1; i < end; ++i)
            if (!taken[i] && lines[i]->box.top() >= cell.bottom() &&
                startsCell(lines[i]->text, row)) {
                taken[i] = true;
                table.firstCells.emplace_back(row, toPixels(lines[i]->box, scale));
                firstRow = std::min(firstRow, lines[i]->box.top());
                lastRow = std::max(lastRow, lines[i]->box.bottom());
                break;
            }
    QRectF header = cell, box = cell;
    for (std::size_t i = at; i < end; ++i) {
        const QRectF& line = lines[i]->box;
        if (line.top() < cell.top() || line.bottom() > lastRow)
            continue;
        box = box.united(line);
        if (line.bottom() <= firstRow)
            header = header.united(line);
    }
    table.header = toPixels(header, scale);
    table.box = toPixels(box, scale);
    return table;
}

// The summary's parts from its lines (in page order): the verdict, the "Written" line, and each
// table by its header cell, then its rows by their first cells, above the next table's header.
void pdfSummaryParts(const std::vector<const TextLine*>& lines, const ReportData& data,
                     const SummaryFacts& facts, double scale, PageParts& parts) {
    const std::string verdict(verdictName(data.comparisons.front().verdict));
    for (const TextLine* line : lines) {
        if (line->text.starts_with("Written") && !parts.written)
            parts.written = toPixels(line->box, scale);
        for (const TextWord& word : line->words)
            if (bare(word.text) == verdict && !parts.verdict)
                parts.verdict = toPixels(word.box, scale);
    }
    std::vector<std::size_t> headers; // where each table's header cell is in `lines`
    for (const TableFacts& table : facts.tables) {
        const auto from =
            lines.begin() + static_cast<std::ptrdiff_t>(headers.empty() ? 0 : headers.back() + 1);
        const auto at = std::find_if(from, lines.end(), [&](const TextLine* l) {
            return startsCell(l->text, table.header);
        });
        if (at == lines.end())
            break;
        headers.push_back(static_cast<std::size_t>(at - lines.begin()));
    }
    for (std::size_t t = 0; t < headers.size(); ++t)
        parts.tables[t] =
            pdfTable(lines, headers[t], t + 1 < headers.size() ? headers[t + 1] : lines.size(),
                     facts.tables[t], scale);
}

PageParts pdfParts(const std::vector<TextLine>& lines, const ReportData& data,
                   const SummaryFacts& facts, double scale) {
    PageParts parts;
    parts.tables.resize(facts.tables.size());
    const TextLine *summary = nullptr, *next = nullptr;
    for (const TextLine& line : lines) {
        if (line.text == data.title && !parts.title)
            parts.title = toPixels(line.box, scale);
        if (line.text == "Summary" && !summary)
            summary = &line;
        else if (summary && !next && line.text == facts.nextHeading &&
                 line.box.top() >= summary->box.bottom())
            next = &line;
    }
    if (!summary)
        return parts;
    parts.summaryHeading = toPixels(summary->box, scale);
    if (next)
        parts.nextHeading = toPixels(next->box, scale);
    std::vector<const TextLine*> inside;
    for (const TextLine& line : lines)
        if (line.box.top() >= summary->box.bottom() &&
            (!next || line.box.bottom() <= next->box.top()))
            inside.push_back(&line);
    std::stable_sort(inside.begin(), inside.end(), [](const TextLine* a, const TextLine* b) {
        return std::pair(a->box.top(), a->box.left()) < std::pair(b->box.top(), b->box.left());
    });
    pdfSummaryParts(inside, data, facts, scale, parts);
    return parts;
}

} // namespace

// Page 1 of the HTML report in a 1000×1400 window, as a reader's browser shows it.
TEST(GoldenPages, HtmlFirstPageHasItsPartsAndLooksLikeTheGolden) {
    ASSERT_TRUE(installed("chromium", "chromium"));
    const test::ScratchDir scratch("golden-html");
    ReportData data;
    ASSERT_NO_FATAL_FAILURE(gatherGoldenReport(scratch.path("results.db"), data));
    const SummaryFacts facts = summaryFacts(data);
    ASSERT_FALSE(facts.nextHeading.empty()) << "the Markdown report has no heading after Summary";
    const fs::path dir = keptDir("html");
    Page page{"HTML", dir / "page-1.png", dir / "report.html", dir / "boxes.txt", {}};
    auto written = writeReportFile(data, page.report.string(), writePdf);
    ASSERT_TRUE(written) << written.error().message;
    std::vector<DomBox> boxes;
    ASSERT_NO_FATAL_FAILURE(renderHtmlPage(page, dir, boxes));
    const PageParts parts = htmlParts(boxes, data, facts, page.image.height());
    expectParts(page, parts, data, facts);
    compareWithGolden(page, parts, facts, "report-html-page-1.png", QSize(50, 25));
}

// Page 1 of the PDF report at 60 dpi, as a reader's viewer shows it.
TEST(GoldenPages, PdfFirstPageHasItsPartsAndLooksLikeTheGolden) {
    ASSERT_TRUE(installed("pdftoppm", "poppler-utils"));
    ASSERT_TRUE(installed("pdftotext", "poppler-utils"));
    const test::ScratchDir scratch("golden-pdf");
    ReportData data;
    ASSERT_NO_FATAL_FAILURE(gatherGoldenReport(scratch.path("results.db"), data));
    const SummaryFacts facts = summaryFacts(data);
    ASSERT_FALSE(facts.nextHeading.empty()) << "the Markdown report has no heading after Summary";
    const fs::path dir = keptDir("pdf");
    Page page{"PDF", dir / "page-1.png", dir / "report.pdf", dir / "page-1-bbox.html", {}};
    auto written = writeReportFile(data, page.report.string(), writePdf);
    ASSERT_TRUE(written) << written.error().message;
    const QString pdf = QString::fromStdString(page.report.string());
    const auto raster =
        runTool("pdftoppm", {"-r", "60", "-f", "1", "-l", "1", "-png", "-singlefile", pdf,
                             QString::fromStdString((dir / "page-1").string())});
    ASSERT_TRUE(raster.ok) << "pdftoppm " << page.report << " failed:\n" << tail(raster.err);
    const auto text = runTool("pdftotext", {"-bbox-layout", "-f", "1", "-l", "1", pdf,
                                            QString::fromStdString(page.boxes.string())});
    ASSERT_TRUE(text.ok) << "pdftotext " << page.report << " failed:\n" << tail(text.err);
    ASSERT_NO_FATAL_FAILURE(loadPage(page));
    double pageWidth = 0;
    const auto lines = parseBboxLayout(slurp(page.boxes), pageWidth);
    ASSERT_GT(pageWidth, 0) << "no page size in " << page.boxes;
    const PageParts parts = pdfParts(lines, data, facts, page.image.width() / pageWidth);
    expectParts(page, parts, data, facts);
    compareWithGolden(page, parts, facts, "report-pdf-page-1.png", QSize(32, 16));
}
