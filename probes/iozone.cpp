// iozone reports: one run per invocation; throughput-mode "Children see" lines and the
// automatic mode's table become iozone.* metrics in bytes/s (iozone's kB are KiB).
#include "probes/iozone.h"

#include "probes/iozone_internal.h"
#include "probes/text_fields.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <utility>

namespace lb::iozone {

namespace detail {

Unexpected lineError(int line, std::string_view field, const std::string& message) {
    return badInput(std::to_string(line) + ": " + std::string(field) + ": " + message);
}

std::string sizeName(std::uint64_t kib) {
    if (kib >= 1024 * 1024 && kib % (1024 * 1024) == 0)
        return std::to_string(kib / (1024 * 1024)) + "G";
    if (kib >= 1024 && kib % 1024 == 0)
        return std::to_string(kib / 1024) + "M";
    return std::to_string(kib) + "k";
}

std::optional<std::uint64_t> wholeNumber(std::string_view s) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
    return std::strtoull(std::string(s).c_str(), nullptr, 10);
}

std::string cellPrefix(std::uint64_t fileKiB, std::uint64_t recordKiB) {
    return "iozone.f" + sizeName(fileKiB) + "-r" + sizeName(recordKiB) + ".";
}

Metric metricOf(const Invocation& inv, const std::string& name, double value) {
    switch (inv.output) {
    case Output::OpsPerSecond:
        return {name + "_ops", value, Unit::OpsPerSecond};
    case Output::MicrosecondsPerOp:
        return {name + "_latency", value * 1000.0, Unit::Nanoseconds};
    case Output::KiBPerSecond:
        break;
    }
    return {name, value * text::bytesPerKiB, Unit::BytesPerSecond};
}

void addMetric(Invocation& inv, const std::string& name, double value) {
    if (inv.output == Output::MicrosecondsPerOp && value == 0) {
        ++inv.underOneMicrosecond;
        return;
    }
    inv.run.metrics.push_back(metricOf(inv, name, value));
}

Expected<void> addOrCheck(Invocation& inv, const std::string& name, double value,
                          std::string_view printed, const text::Line& line,
                          std::string_view field) {
    const auto stored = metricOf(inv, name, value);
    const auto same = [&](const Metric& m) { return m.name == stored.name; };
    const auto it = std::find_if(inv.run.metrics.begin(), inv.run.metrics.end(), same);
    if (it == inv.run.metrics.end()) {
        addMetric(inv, name, value);
        return {};
    }
    if (it->value != stored.value)
        return lineError(line.number, field,
                         text::quoted(printed) +
                             " differs from the same figure in iozone's output above");
    return {};
}

} // namespace detail

namespace {

using namespace detail;
using text::Line;
using text::Token;

constexpr std::string_view banner = "Iozone: Performance Test of File I/O";
constexpr std::string_view childrenSee = "Children see throughput for";

// Throughput mode's labels ("Children see throughput for 4 <label> = ...").
constexpr std::array<Name, 13> throughputLabels{{
    {"initial writers", "write"},
    {"rewriters", "rewrite"},
    {"readers", "read"},
    {"re-readers", "reread"},
    {"reverse readers", "backward_read"},
    {"stride readers", "stride_read"},
    {"random readers", "random_read"},
    {"mixed workload", "mixed"},
    {"random writers", "random_write"},
    {"pwrite writers", "pwrite"},
    {"pread readers", "pread"},
    {"fwriters", "fwrite"},
    {"freaders", "fread"},
}};

// The automatic table's column headings, the two header lines joined.
constexpr std::array<Name, 13> tableHeadings{{
    {"write", "write"},
    {"rewrite", "rewrite"},
    {"read", "read"},
    {"reread", "reread"},
    {"random read", "random_read"},
    {"random write", "random_write"},
    {"bkwd read", "backward_read"},
    {"record rewrite", "record_rewrite"},
    {"stride read", "stride_read"},
    {"fwrite", "fwrite"},
    {"frewrite", "frewrite"},
    {"fread", "fread"},
    {"freread", "freread"},
}};

bool contains(std::string_view s, std::string_view what) {
    return s.find(what) != std::string_view::npos;
}

// "Children see throughput for  4 initial writers  =  907733.81 kB/sec"
Expected<void> throughputLine(Invocation& inv, const Line& line) {
    const auto at = line.text.find(childrenSee);
    const auto rest = line.text.substr(at + childrenSee.size());
    const auto eq = rest.find('=');
    if (eq == std::string_view::npos)
        return lineError(line.number, "throughput", "no '=' before the value");
    auto left = text::tokens(rest.substr(0, eq));
    const auto right = text::tokens(rest.substr(eq + 1));
    if (left.size() < 2 || !wholeNumber(left.front().text))
        return lineError(line.number, "throughput", "expected '<processes> <operation>'");
    std::string label;
    for (std::size_t i = 1; i < left.size(); ++i)
        label += (i > 1 ? " " : "") + std::string(left[i].text);
    const auto op = lookup(throughputLabels, label);
    if (!op) {
        inv.run.caveats.push_back("iozone '" + label + "' (line " + std::to_string(line.number) +
                                  ") is not imported: not an operation layoutbench knows");
        return {};
    }
    if (right.size() != 2)
        return lineError(line.number, *op, "expected '<value> kB/sec'");
    // iozone refuses -N in throughput mode; a figure under "Microseconds/op Mode" could only be
    // a per-operation time printed as a throughput, which no metric here means.
    if (inv.output == Output::MicrosecondsPerOp)
        return lineError(line.number, *op,
                         "a throughput figure under iozone's -N (microseconds per operation) "
                         "mode: its unit is unknown");
    const auto unit = right[1].text;
    if (unit == "ops/sec")
        inv.output = Output::OpsPerSecond;
    else if (unit != "kB/sec" && unit != "KB/sec")
        return lineError(line.number, *op, text::quoted(unit) + " is not kB/sec or ops/sec");
    auto value = text::parseNonNegative(right[0].text);
    if (!value)
        return lineError(line.number, *op, value.error().message);
    inv.run.origin.spec["processes"] = std::string(left.front().text);
    addMetric(inv, "iozone." + std::string(*op), *value);
    return {};
}

struct Column {
    std::string op; // empty: a heading layoutbench does not know
    std::string heading;
    std::size_t end = 0;
};

// The two heading lines of the automatic table: the first holds "random", "bkwd", "record" and
// "stride" right-aligned over words of the second; each goes with the word it ends nearest to.
Expected<std::vector<Column>> tableColumns(std::string_view above, const Line& headings) {
    const auto top = text::tokens(above);
    const auto words = text::tokens(headings.text);
    std::vector<std::string> names;
    for (std::size_t i = 2; i < words.size(); ++i)
        names.emplace_back(words[i].text);
    const auto distance = [](std::size_t a, std::size_t b) { return a > b ? a - b : b - a; };
    for (const auto& t : top) {
        std::size_t best = 2;
        for (std::size_t i = 3; i < words.size(); ++i)
            if (distance(words[i].end, t.end) < distance(words[best].end, t.end))
                best = i;
        if (best < words.size())
            names[best - 2] = std::string(t.text) + " " + names[best - 2];
    }
    std::vector<Column> columns;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const auto op = lookup(tableHeadings, names[i]);
        for (const auto& c : columns)
            if (op && c.op == *op)
                return lineError(headings.number, names[i],
                                 "two columns read as '" + std::string(*op) +
                                     "': the heading lines are not aligned as iozone prints them");
        columns.push_back({op ? std::string(*op) : std::string(), names[i], words[i + 2].end});
    }
    return columns;
}

// Values are right-aligned under their headings (give or take a column); a row with every value
// is read in order.
Expected<std::vector<std::optional<std::string_view>>>
rowCells(const std::vector<Column>& columns, const std::vector<Token>& values, int line) {
    std::vector<std::optional<std::string_view>> cells(columns.size());
    if (values.size() == columns.size()) {
        for (std::size_t i = 0; i < values.size(); ++i)
            cells[i] = values[i].text;
        return cells;
    }
    std::size_t next = 0;
    for (const auto& v : values) {
        while (next < columns.size() && columns[next].end + 2 < v.end)
            ++next;
        if (next == columns.size() || v.end + 2 < columns[next].end)
            return lineError(line, "row",
                             "the value " + text::quoted(v.text) + " is under no column heading");
        cells[next++] = v.text;
    }
    return cells;
}

// The automatic table being read: its columns, and its first row's count of values and where it
// ends. iozone prints every row of a table with the same widths (the tests -i chose, "%9lld"
// each), so the rows after it end where it ends.
struct Table {
    std::vector<Column> columns;
    std::size_t firstValues = 0;
    std::size_t firstEnd = 0;
};

// Not stored, and named in the import's message and the run's caveats: a line that holds
// figures no table or report could place, e.g. a paste cut off mid-row.
void notRead(Invocation& inv, const Line& line, std::string_view why) {
    inv.linesNotRead.push_back(line.number);
    inv.run.caveats.push_back("iozone line " + std::to_string(line.number) + " (" +
                              text::quoted(text::trim(line.text)) +
                              ") is not read: " + std::string(why));
}

Expected<void> tableRow(Invocation& inv, Table& table, const Line& line) {
    const auto tokens = text::tokens(line.text);
    // A row with fewer values than the first, or that ends before it, is cut (a paste that ends
    // mid-line): its last number may itself be cut, so none of it is stored, and the rows before
    // it are kept. A user wants the table they pasted, told which line was left out, rather
    // than no import at all. Where tabs replaced spaces only the count of values tells.
    const bool tabs = line.text.find('\t') != std::string_view::npos;
    if (table.firstValues > 0 &&
        (tokens.size() - 2 < table.firstValues || (!tabs && tokens.back().end < table.firstEnd))) {
        notRead(inv, line, "it stops before the rows above it end (cut short?)");
        return {};
    }
    if (table.firstValues == 0) {
        table.firstValues = tokens.size() - 2;
        table.firstEnd = tokens.back().end;
    }
    const auto fileKiB = wholeNumber(tokens[0].text);
    const auto recordKiB = wholeNumber(tokens[1].text);
    const std::vector<Token> values(tokens.begin() + 2, tokens.end());
    // A value under no heading (an extra column, a row of another table) refuses the file: which
    // of its numbers belong to which test can no longer be told.
    auto cells = rowCells(table.columns, values, line.number);
    if (!cells)
        return fail(cells.error());
    const std::string prefix = cellPrefix(*fileKiB, *recordKiB);
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
        if (!(*cells)[i] || table.columns[i].op.empty())
            continue;
        auto value = text::parseNonNegative(*(*cells)[i]);
        if (!value)
            return lineError(line.number, table.columns[i].op, value.error().message);
        addMetric(inv, prefix + table.columns[i].op, *value);
    }
    inv.fileSizes.push_back(std::to_string(*fileKiB * 1024));
    inv.recordSizes.push_back(std::to_string(*recordKiB * 1024));
    return {};
}

bool isTableRow(std::string_view line) {
    const auto tokens = text::tokens(line);
    return tokens.size() >= 3 && wholeNumber(tokens[0].text) && wholeNumber(tokens[1].text);
}

// A line that starts with a number: iozone's settings and summaries start with words, so such a
// line is a table's row, or what is left of one.
bool looksLikeData(std::string_view line) {
    const auto tokens = text::tokens(line);
    return !tokens.empty() && static_cast<bool>(text::parseNonNegative(tokens[0].text));
}

bool isTableHeading(std::string_view line) {
    const auto tokens = text::tokens(line);
    return tokens.size() >= 3 && (tokens[0].text == "kB" || tokens[0].text == "KB") &&
           tokens[1].text == "reclen";
}

// "Record Size 4 kB", "File size set to 1048576 kB": the number before the unit, in bytes.
void sizeSetting(Invocation& inv, std::string_view line, std::string_view key) {
    const auto tokens = text::tokens(line);
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i)
        if (const auto n = wholeNumber(tokens[i].text);
            n && (tokens[i + 1].text == "kB" || tokens[i + 1].text == "KB"))
            inv.run.origin.spec[std::string(key)] = std::to_string(*n * 1024);
}

// Settings lines say how the figures were taken. The throughput mode's "Parent sees" and
// per-process Min/Max/Avg lines pass through here too, unread on purpose: the "Children see"
// line is the processes' sum that is stored, and those lines are views of the same test.
void settingLine(Invocation& inv, const Line& line) {
    const auto trimmed = text::trim(line.text);
    if (const auto at = trimmed.find("$Revision:"); at != std::string_view::npos) {
        const auto tokens = text::tokens(trimmed.substr(at + 10));
        if (!tokens.empty())
            inv.version = std::string(tokens.front().text);
    } else if (trimmed.starts_with("Command line used:")) {
        inv.run.origin.spec["command"] = std::string(text::trim(trimmed.substr(18)));
    } else if (trimmed.starts_with("Record Size")) {
        sizeSetting(inv, trimmed, "record_size_bytes");
    } else if (trimmed.starts_with("File size set to")) {
        sizeSetting(inv, trimmed, "file_size_bytes");
    } else if (contains(trimmed, "operations per second") || contains(trimmed, "OPS Mode")) {
        inv.output = Output::OpsPerSecond;
        inv.unitStated = true;
    } else if (contains(trimmed, "microseconds per operation") ||
               contains(trimmed, "Microseconds/op Mode")) {
        inv.output = Output::MicrosecondsPerOp;
        inv.unitStated = true;
    } else if (trimmed.starts_with("Output is in")) {
        inv.unitStated = true;
    } else if (contains(trimmed, "not supported in throughput mode")) {
        inv.refusalLine = line.number; // iozone.c: -N with -t, after which iozone exits
        inv.refusal = std::string(trimmed);
    }
}

// The automatic table's heading line: its columns, each operation layoutbench does not know
// named in a caveat.
Expected<Table> tableHeading(Invocation& inv, std::string_view above, const Line& line) {
    auto columns = tableColumns(above, line);
    if (!columns)
        return fail(columns.error());
    inv.run.origin.spec["mode"] = "automatic";
    inv.table = true;
    for (const auto& c : *columns)
        if (c.op.empty())
            inv.run.caveats.push_back("iozone column '" + c.heading + "' (line " +
                                      std::to_string(line.number) +
                                      ") is not imported: not an operation layoutbench knows");
    Table table;
    table.columns = std::move(*columns);
    return table;
}

// Reads one invocation's lines; `lines` starts at its banner (or at the text's start).
Expected<Invocation> readInvocation(std::span<const Line> lines) {
    Invocation inv;
    inv.line = lines.front().number;
    std::optional<Table> table;
    for (const auto& line : lines) {
        inv.raw.append(line.text);
        inv.raw += '\n';
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto& line = lines[i];
        if (startsExcelReport(line.text)) {
            if (auto r = readExcelReport(inv, lines, i); !r)
                return fail(r.error());
            break; // the -R report is the last thing an invocation prints
        }
        inv.banner = inv.banner || contains(line.text, banner);
        if (text::trim(line.text).empty())
            continue; // a blank line does not end the table: only a line of words does
        if (table && isTableRow(line.text)) {
            if (auto r = tableRow(inv, *table, line); !r)
                return fail(r.error());
            continue;
        }
        table.reset();
        if (contains(line.text, childrenSee)) {
            if (auto r = throughputLine(inv, line); !r)
                return fail(r.error());
        } else if (isTableHeading(line.text)) {
            auto read = tableHeading(inv, i > 0 ? lines[i - 1].text : std::string_view(), line);
            if (!read)
                return fail(read.error());
            table = std::move(*read);
        } else if (looksLikeData(line.text)) {
            notRead(inv, line, "figures under no table heading (a table cut short?)");
        } else {
            settingLine(inv, line);
        }
    }
    return inv;
}

std::string joinedUnique(std::vector<std::string> items) {
    std::vector<std::string> unique;
    for (auto& item : items)
        if (std::find(unique.begin(), unique.end(), item) == unique.end())
            unique.push_back(std::move(item));
    std::string out;
    for (const auto& item : unique)
        out += (out.empty() ? "" : ",") + item;
    return out;
}

PastedRun finish(Invocation inv) {
    auto& origin = inv.run.origin;
    inv.run.workload = "iozone";
    inv.run.toolVersion = inv.version;
    const bool automatic = origin.spec.count("mode") > 0;
    origin.format = "iozone " + (inv.version.empty() ? std::string() : inv.version + " ") +
                    (automatic ? (inv.table ? "automatic-mode table" : "automatic-mode -R report")
                               : "throughput report");
    origin.convertedFrom = {inv.output == Output::OpsPerSecond ? "ops/sec"
                            : inv.output == Output::MicrosecondsPerOp
                                ? "microseconds/op (whole microseconds, as iozone truncates them)"
                                : "kB/sec (KiB/s)"};
    if (inv.underOneMicrosecond > 0)
        inv.run.caveats.push_back(
            std::to_string(inv.underOneMicrosecond) +
            " cells of iozone's -N output are 0: iozone truncates to whole microseconds, so the "
            "operation took under 1 µs; not imported (0 ns is not what was measured)");
    if (automatic) {
        // The table's rows name their own sizes; -r/-s only bound them.
        origin.spec.erase("record_size_bytes");
        origin.spec.erase("file_size_bytes");
        origin.spec["file_sizes_bytes"] = joinedUnique(inv.fileSizes);
        origin.spec["record_sizes_bytes"] = joinedUnique(inv.recordSizes);
    } else {
        origin.spec["mode"] = "throughput";
    }
    if (!inv.linesNotRead.empty()) {
        std::vector<std::string> numbers;
        for (const int n : inv.linesNotRead)
            numbers.push_back(std::to_string(n));
        origin.spec["lines_not_read"] = joinedUnique(std::move(numbers));
    }
    return PastedRun{inv.line, std::move(inv.raw), std::move(inv.run)};
}

} // namespace

namespace {

// Where each invocation's lines start, and the end: at iozone's banner, or, in reports pasted
// without it, where a report begins again: a second automatic-table heading (its line above
// with it), or a -R report after one ("Excel output is below:" again, or a table title again).
std::vector<std::size_t> invocationStarts(const std::vector<Line>& lines) {
    std::vector<std::size_t> starts{0};
    bool table = false;
    std::vector<std::string_view> titles; // the -R report's, "Excel output is below:" as ""
    const auto cut = [&](std::size_t at) {
        if (at > starts.back())
            starts.push_back(at);
        table = false;
        titles.clear();
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto t = text::trim(lines[i].text);
        if (contains(t, banner)) {
            cut(i);
        } else if (isTableHeading(t)) {
            const bool above =
                i > 0 && !text::trim(lines[i - 1].text).empty() && !isTableRow(lines[i - 1].text);
            if (table || !titles.empty())
                cut(above ? i - 1 : i);
            table = true;
        } else if (detail::startsExcelReport(t)) {
            const auto title = t.starts_with('"') ? t : std::string_view();
            if (!titles.empty() &&
                (title.empty() || std::find(titles.begin(), titles.end(), title) != titles.end()))
                cut(i);
            titles.push_back(title);
        }
    }
    starts.push_back(lines.size());
    return starts;
}

} // namespace

Expected<std::vector<PastedRun>> parse(std::string_view text) {
    const auto lines = text::lines(text);
    const auto starts = invocationStarts(lines);

    std::vector<PastedRun> runs;
    for (std::size_t s = 0; s + 1 < starts.size(); ++s) {
        const std::span<const Line> part(lines.data() + starts[s], starts[s + 1] - starts[s]);
        if (part.empty())
            continue;
        auto inv = readInvocation(part);
        if (!inv)
            return fail(inv.error());
        if (inv->refusalLine > 0 && inv->run.metrics.empty())
            return lineError(inv->refusalLine, "iozone",
                             "iozone refused this run (" + text::quoted(inv->refusal) +
                                 "): it holds no figures");
        // Prose before the first banner is not a run, even where a line of it starts with a
        // number (notRead() named it, but the prose holds no iozone figure).
        const bool onlyUnread = inv->run.caveats.size() == inv->linesNotRead.size();
        if (inv->run.metrics.empty() && onlyUnread && !inv->banner && s + 2 < starts.size())
            continue;
        if (inv->run.metrics.empty() && inv->run.caveats.empty()) {
            if (inv->banner)
                return lineError(inv->line, "iozone",
                                 "this run has no throughput lines and no table (cut short?)");
            continue; // prose before the first banner
        }
        runs.push_back(finish(std::move(*inv)));
    }
    if (runs.empty())
        return badInput("1: iozone: no throughput report, automatic-mode table or -R report");
    return runs;
}

bool looksLikeIozone(std::string_view text) {
    if (contains(text, banner) || contains(text, childrenSee))
        return true;
    for (const auto& line : text::lines(text))
        if (isTableHeading(line.text) || detail::startsExcelReport(line.text))
            return true;
    return false;
}

bool looksLikeSpreadsheet(std::string_view text) {
    // libbif.c's do_header(): a BIFF2 BOF record, opcode 9, length 4, version 2, worksheet 0x10.
    constexpr std::string_view bof{"\x09\x00\x04\x00\x02\x00\x10\x00", 8};
    return text.starts_with(bof);
}

} // namespace lb::iozone
