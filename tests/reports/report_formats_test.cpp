// One report, every format: the HTML, PDF and Markdown written for one request carry the same
// headings in the same order, the same charts with their captions and the same table rows, for
// a bonnie++ store, a campaign of the real fio with logs and a queue-depth sweep, and imported fio
// results. The PDF is read back as a reader's tools see it (pdftotext, pdfimages). Part of
// report_tests (its main makes the QApplication, offscreen).
#include "engine/campaign/campaign.h"
#include "engine/exec/runner.h"
#include "engine/scenario/scenario.h"
#include "engine/store/store.h"
#include "probes/import.h"
#include "probes/registry.h"
#include "reports/report_data.h"
#include "reports/report_file.h"
#include "reports/report_pdf.h"
#include "tests/support/report_text.h"
#include "tests/support/scratch_dir.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace lb;
namespace fs = std::filesystem;

namespace {

using test::unescapeHtml;
using test::unescapeMarkdown;

const std::string dataDir = LAYOUTBENCH_TEST_DATA_DIR;

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string shellOutput(const std::string& cmd) {
    std::string out;
    if (FILE* pipe = ::popen(cmd.c_str(), "r")) {
        char buf[4096];
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;)
            out.append(buf, n);
        ::pclose(pipe);
    }
    return out;
}

// What a reader counts in a report.
struct Outline {
    std::vector<std::string> headings;
    std::vector<std::string> captions;
    std::size_t images = 0;
    std::size_t tableRows = 0;           // body rows, headers not counted
    std::vector<std::string> firstCells; // of every body row, in order
    std::vector<std::string> code;       // each code block's last line
};

std::string lastLine(std::string text) {
    while (!text.empty() && text.back() == '\n')
        text.pop_back();
    const auto nl = text.rfind('\n');
    return nl == std::string::npos ? text : text.substr(nl + 1);
}

Outline htmlOutline(const std::string& html) {
    Outline o;
    static const std::regex heading("<h[1-3][^>]*>([^<]*)</h[1-3]>");
    for (std::sregex_iterator it(html.begin(), html.end(), heading), end; it != end; ++it)
        o.headings.push_back(unescapeHtml((*it)[1]));
    static const std::regex caption("<p class=\"caption\">([^<]*)</p>");
    for (std::sregex_iterator it(html.begin(), html.end(), caption), end; it != end; ++it)
        o.captions.push_back(unescapeHtml((*it)[1]));
    static const std::regex image("<svg class=\"chart\"");
    o.images = static_cast<std::size_t>(
        std::distance(std::sregex_iterator(html.begin(), html.end(), image), {}));
    static const std::regex pre("<pre>([^<]*)</pre>");
    for (std::sregex_iterator it(html.begin(), html.end(), pre), end; it != end; ++it)
        o.code.push_back(lastLine(unescapeHtml((*it)[1])));
    static const std::regex row("<tr><td[^>]*>([^<]*)</td>");
    for (std::sregex_iterator it(html.begin(), html.end(), row), end; it != end; ++it) {
        ++o.tableRows;
        o.firstCells.push_back(unescapeHtml((*it)[1]));
    }
    return o;
}

Outline markdownOutline(const std::string& md) {
    Outline o;
    std::istringstream lines(md);
    std::string fence, code;
    bool inTable = false, headerSeen = false;
    for (std::string line; std::getline(lines, line);) {
        if (!fence.empty()) {
            if (line == fence) {
                fence.clear();
                o.code.push_back(lastLine(code));
            } else {
                code += line + "\n";
            }
            continue;
        }
        if (line.starts_with("```")) {
            fence = line;
            code.clear();
            continue;
        }
        if (line.starts_with("|")) {
            if (!inTable) {
                inTable = true;
                headerSeen = false;
                continue; // the header
            }
            if (!headerSeen) {
                headerSeen = true;
                continue; // the rule
            }
            ++o.tableRows;
            const auto end = line.find(" |", 2);
            o.firstCells.push_back(unescapeMarkdown(line.substr(2, end - 2)));
            continue;
        }
        inTable = false;
        if (line.starts_with("#")) {
            const auto space = line.find(' ');
            o.headings.push_back(unescapeMarkdown(line.substr(space + 1)));
        } else if (line.starts_with("![")) {
            ++o.images;
        } else if (line.size() > 2 && line.front() == '*' && line.back() == '*' && line[1] != '*') {
            o.captions.push_back(unescapeMarkdown(line.substr(1, line.size() - 2)));
        }
    }
    return o;
}

// Text with every white space and the characters the PDF layout adds left out, and the
// ligatures pdftotext reports spelt out: what was written, whatever the line breaks. Hyphens go
// too: pdftotext joins a line that ends in one to the next without it ("libaio -" and
// "-direct=0" read back as "libaio-direct=0").
std::string squeezed(const std::string& text) {
    static const std::vector<std::pair<std::string, std::string>> swaps = {
        {"\u200b", ""},   {"\u2060", ""},   {"\u00a0", ""},    {"\u00ad", ""},    {"\ufb01", "fi"},
        {"\ufb02", "fl"}, {"\ufb00", "ff"}, {"\ufb03", "ffi"}, {"\ufb04", "ffl"}, {"\f", ""}};
    std::string s = text;
    for (const auto& [from, to] : swaps)
        for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
            s.replace(at, from.size(), to);
    std::string out;
    for (const char c : s)
        if (!std::isspace(static_cast<unsigned char>(c)) && c != '-')
            out += c;
    return out;
}

std::size_t occurrences(const std::string& haystack, const std::string& needle) {
    std::size_t n = 0;
    if (needle.empty())
        return 0;
    for (auto at = haystack.find(needle); at != std::string::npos;
         at = haystack.find(needle, at + needle.size()))
        ++n;
    return n;
}

// Writes the three formats of `data` into `dir` and compares them with the HTML's outline.
void expectEveryFormatWhole(const ReportData& data, const fs::path& dir) {
    for (const char* name : {"report.html", "report.pdf", "report.md"}) {
        auto written = writeReportFile(data, (dir / name).string(), writePdf);
        ASSERT_TRUE(written) << name << ": " << written.error().message;
    }
    const Outline html = htmlOutline(slurp(dir / "report.html"));
    ASSERT_GT(html.headings.size(), 5u);

    const Outline md = markdownOutline(slurp(dir / "report.md"));
    EXPECT_EQ(md.headings, html.headings);
    EXPECT_EQ(md.images, html.images);
    EXPECT_EQ(md.captions, html.captions);
    EXPECT_EQ(md.tableRows, html.tableRows);
    EXPECT_EQ(md.code, html.code);
    for (const auto& entry : fs::directory_iterator(dir / "report-charts"))
        EXPECT_GT(fs::file_size(entry.path()), 1000u) << entry.path();
    EXPECT_EQ(static_cast<std::size_t>(std::distance(fs::directory_iterator(dir / "report-charts"),
                                                     fs::directory_iterator())),
              html.images);

    if (std::system("command -v pdftotext >/dev/null 2>&1 && command -v pdfimages >/dev/null "
                    "2>&1") != 0)
        GTEST_SKIP() << "pdftotext/pdfimages (poppler-utils) are not installed: the PDF is "
                        "not read back";
    const fs::path pdf = dir / "report.pdf";
    // The page feet left out: a block that runs onto the next page has one inside it.
    // The foot is the report's title (with its date) and then "page N of M".
    std::vector<std::string> kept;
    {
        static const std::regex foot("^page [0-9]+ of [0-9]+$");
        std::istringstream raw(shellOutput("pdftotext '" + pdf.string() + "' -"));
        for (std::string line; std::getline(raw, line);) {
            if (!line.empty() && line.front() == '\f')
                line.erase(0, 1);
            if (!std::regex_match(line, foot)) {
                kept.push_back(line);
                continue;
            }
            while (!kept.empty() && kept.back().empty())
                kept.pop_back();
            if (!kept.empty() &&
                (kept.back() == data.title || kept.back().starts_with(data.title + ", ")))
                kept.pop_back();
        }
    }
    std::string body;
    for (const auto& line : kept)
        body += line + "\n";
    const std::string text = squeezed(body);
    ASSERT_FALSE(text.empty());
    // Headings in order.
    std::size_t at = 0;
    for (const auto& h : html.headings) {
        const auto found = text.find(squeezed(h), at);
        EXPECT_NE(found, std::string::npos) << "the PDF lacks the heading '" << h << "'";
        if (found != std::string::npos)
            at = found;
    }
    for (const auto& c : html.captions)
        EXPECT_NE(text.find(squeezed(c)), std::string::npos)
            << "the PDF lacks the caption '" << c << "'";
    // Each code block to its end (the appendix's command lines and tool output).
    for (const auto& c : html.code) {
        const std::string want = squeezed(c);
        const auto start = text.find(want.substr(0, 40));
        EXPECT_NE(text.find(want), std::string::npos)
            << "the PDF lacks '" << c << "'; it has '"
            << (start == std::string::npos ? std::string("nothing of it")
                                           : text.substr(start, want.size() + 40))
            << "'";
    }
    // pdfimages -list: two header lines, then one line per image drawn.
    std::size_t images = 0;
    std::istringstream list(shellOutput("pdfimages -list '" + pdf.string() + "'"));
    for (std::string line; std::getline(list, line);)
        ++images;
    EXPECT_EQ(images - 2, html.images);
    // Every row's first cell, as often as the HTML's rows have it (the PDF may say it elsewhere
    // too, never less).
    std::map<std::string, std::size_t> cells;
    for (const auto& c : html.firstCells)
        ++cells[squeezed(c)];
    for (const auto& [cell, n] : cells) {
        const auto near = text.find(cell.substr(0, cell.size() / 2));
        EXPECT_GE(occurrences(text, cell), n)
            << "rows starting with '" << cell << "'; the PDF has '"
            << (near == std::string::npos ? std::string("nothing of it")
                                          : text.substr(near, cell.size() + 60))
            << "'";
    }
}

ReportData gathered(Store& store, ReportRequest request = {}) {
    auto data = gatherReport(store, request);
    EXPECT_TRUE(data) << (data ? "" : data.error().message);
    return data ? *data : ReportData{};
}

} // namespace

// bonnie++ results on two layouts, the seed's files.
TEST(ReportFormats, BonnieResultsAreWholeInEveryFormat) {
    const test::ScratchDir dir("formats-bonnie");
    auto store = Store::open(dir.path("results.db"));
    ASSERT_TRUE(store);
    const std::string bonnie = dataDir + "/bonnie++/1.97/";
    ASSERT_TRUE(importFiles(
        *store, {"bare-metal", "storage1", "zfs-raidz2", {bonnie + "seed-bare-metal.csv"}}));
    ASSERT_TRUE(importFiles(*store, {"guest-vm",
                                     "storage1",
                                     "md-raid6",
                                     {bonnie + "seed-guest.csv", bonnie + "hdd-slow-seeks.csv"}}));
    ReportRequest request;
    request.baseline = "bare-metal";
    expectEveryFormatWhole(gathered(*store, request), dir.path(""));
}

// Five imported fio runs a side, as kept from earlier work.
TEST(ReportFormats, ImportedFioResultsAreWholeInEveryFormat) {
    const test::ScratchDir dir("formats-imported");
    auto store = Store::open(dir.path("results.db"));
    ASSERT_TRUE(store);
    const std::string fio = dataDir + "/fio/3.33/";
    for (const char* layout : {"old", "new"}) {
        ImportRequest r{layout, "storage1", "imported", {}, true};
        for (int i = 0; i < 5; ++i)
            r.files.push_back(fio + "seq_read.json");
        ASSERT_TRUE(importFiles(*store, r)) << layout;
    }
    ReportRequest request;
    request.baseline = "old";
    expectEveryFormatWhole(gathered(*store, request), dir.path(""));
}

// The real fio on two directory layouts: a sequential read with its logs (series and percentile
// charts) and a queue-depth sweep (its table and chart).
TEST(ReportFormats, AFioCampaignWithLogsAndASweepIsWholeInEveryFormat) {
    const test::ScratchDir dir("formats-fio");
    const auto probes = standardProbes();
    const std::string toml =
        "name = \"formats\"\niterations = 1\nwork_dir = \"" + dir.path("work") +
        "\"\n[[layouts]]\nname = \"base\"\nkind = \"dir\"\npath = \"" + dir.path("") +
        "\"\nbaseline = true\n[[layouts]]\nname = \"cand\"\nkind = \"dir\"\npath = \"" +
        dir.path("") +
        "\"\n[[workloads]]\nprobe = \"fio\"\npreset = \"seq-read-1m\"\nsize = \"4MiB\"\n"
        "runtime = 1\ndirect = false\nioengine = \"psync\"\n"
        "[[workloads]]\nprobe = \"fio\"\npreset = \"qd-sweep\"\nsize = \"4MiB\"\nruntime = 1\n"
        "direct = false\n";
    auto scenario = parseScenario(toml, dir.path("scenario.toml"), probes);
    ASSERT_TRUE(scenario) << scenario.error().message;
    auto store = Store::open(dir.path("results.db"));
    ASSERT_TRUE(store);
    auto runner = makeLocalRunner();
    auto result = runCampaign(*store, *scenario, probes, *runner, {});
    ASSERT_TRUE(result) << result.error().message;
    ReportRequest request;
    request.campaignId = result->campaignId;
    const ReportData data = gathered(*store, request);
    ASSERT_FALSE(data.series.empty()) << "no logs: no course charts to check";
    expectEveryFormatWhole(data, dir.path(""));
}
