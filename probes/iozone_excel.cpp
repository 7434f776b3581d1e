// iozone's -R report (the "Excel output" iozone prints after its normal output): the automatic
// mode's quoted tables, one per test (record sizes in kB across, file sizes in kB down), and the
// throughput mode's "Throughput report", read into the same iozone.* metrics as the normal
// output. Where both are in a file, the report's numbers are checked against it, not stored twice.
#include "probes/iozone_internal.h"

#include <algorithm>
#include <array>
#include <utility>

namespace lb::iozone::detail {

namespace {

using text::Line;

// dump_excel()'s titles, without the quotes and " report".
constexpr std::array<Name, 13> tableTitles{{
    {"Writer", "write"},
    {"Re-writer", "rewrite"},
    {"Reader", "read"},
    {"Re-Reader", "reread"},
    {"Random read", "random_read"},
    {"Random write", "random_write"},
    {"Backward read", "backward_read"},
    {"Record rewrite", "record_rewrite"},
    {"Stride read", "stride_read"},
    {"Fwrite", "fwrite"},
    {"Re-Fwrite", "frewrite"},
    {"Fread", "fread"},
    {"Re-Fread", "freread"},
}};

// dump_throughput()'s row labels (iozone.c throughput_tests[]).
constexpr std::array<Name, 13> throughputRows{{
    {"Initial write", "write"},
    {"Rewrite", "rewrite"},
    {"Read", "read"},
    {"Re-read", "reread"},
    {"Reverse Read", "backward_read"},
    {"Stride read", "stride_read"},
    {"Random read", "random_read"},
    {"Mixed workload", "mixed"},
    {"Random write", "random_write"},
    {"Pwrite", "pwrite"},
    {"Pread", "pread"},
    {"Fwrite", "fwrite"},
    {"Fread", "fread"},
}};

constexpr std::string_view excelBelow = "Excel output is below:";
constexpr std::string_view throughputTitle = "Throughput report";

// The text between a line's first two quotes, and what follows the second.
struct Quoted {
    std::string_view inside;
    std::string_view after;
};

std::optional<Quoted> quotedStart(std::string_view line) {
    const auto t = text::trim(line);
    if (t.size() < 2 || t.front() != '"')
        return std::nullopt;
    const auto close = t.find('"', 1);
    if (close == std::string_view::npos)
        return std::nullopt;
    return Quoted{t.substr(1, close - 1), t.substr(close + 1)};
}

// A whole line that is one quoted title: "Writer report", "Output is in kBytes/sec".
std::optional<std::string_view> quotedTitle(std::string_view line) {
    const auto q = quotedStart(line);
    if (!q || !text::trim(q->after).empty())
        return std::nullopt;
    return text::trim(q->inside);
}

// Cpu: the CPU utilization tables -+u adds (percentages, not throughputs).
enum class Section { None, Tables, Throughput, Cpu };

struct Reader {
    Invocation& inv;
    Section section = Section::None;
    std::optional<std::string> op;          // the current table's test; nullopt: not imported
    std::vector<std::uint64_t> recordSizes; // the current table's heading, in kB
    bool heading = false;
    int placeholders = 0; // 0 cells: record sizes iozone skipped above its crossover
};

void unplaced(Reader& r, const Line& line) {
    r.inv.linesNotRead.push_back(line.number);
    r.inv.run.caveats.push_back("iozone line " + std::to_string(line.number) + " (" +
                                text::quoted(text::trim(line.text)) +
                                ") is not part of the -R report: not read");
}

Expected<void> tableTitle(Reader& r, std::string_view title, const Line& line) {
    r.section = Section::Tables;
    r.heading = false;
    r.recordSizes.clear();
    const auto name = title.substr(0, title.size() - std::string_view(" report").size());
    if (const auto op = lookup(tableTitles, name)) {
        r.op = std::string(*op);
    } else {
        r.op.reset();
        r.inv.run.caveats.push_back("iozone -R table " + text::quoted(title) + " (line " +
                                    std::to_string(line.number) +
                                    ") is not imported: not an operation layoutbench knows");
    }
    r.inv.run.origin.spec["mode"] = "automatic";
    if (!r.inv.unitStated && !r.inv.excel)
        r.inv.run.caveats.push_back("iozone's -R tables do not say their unit and the text "
                                    "before them does not either: read as kB/s, iozone's "
                                    "default (with -O they are operations per second, with -N "
                                    "microseconds per operation)");
    r.inv.excel = true;
    return {};
}

// `    "4"  "8"  "16"`: the record sizes in kB.
Expected<void> tableHeading(Reader& r, const Line& line) {
    for (const auto& t : text::tokens(line.text)) {
        const auto inner = t.text.size() >= 2 && t.text.front() == '"' && t.text.back() == '"'
                               ? t.text.substr(1, t.text.size() - 2)
                               : std::string_view();
        const auto kib = wholeNumber(inner);
        if (!kib)
            return lineError(line.number, "record size",
                             text::quoted(t.text) + " is not a quoted record size in kB");
        r.recordSizes.push_back(*kib);
    }
    r.heading = true;
    return {};
}

// `"4096"   512773  1631856 ...`: one file size's values, in the heading's order.
Expected<void> tableRow(Reader& r, const Quoted& q, const Line& line) {
    const auto fileKiB = wholeNumber(q.inside);
    if (!fileKiB)
        return lineError(line.number, "file size",
                         text::quoted(q.inside) + " is not a file size in kB");
    const auto values = text::tokens(q.after);
    if (values.size() > r.recordSizes.size())
        return lineError(line.number, r.op ? *r.op : "row",
                         std::to_string(values.size()) + " values under " +
                             std::to_string(r.recordSizes.size()) + " record sizes");
    for (std::size_t i = 0; i < values.size(); ++i) {
        auto value = text::parseNonNegative(values[i].text);
        if (!value)
            return lineError(line.number, r.op ? *r.op : "row", value.error().message);
        if (*value == 0) {
            ++r.placeholders;
            continue;
        }
        if (!r.op)
            continue;
        const auto name = cellPrefix(*fileKiB, r.recordSizes[i]) + *r.op;
        if (auto added = addOrCheck(r.inv, name, *value, values[i].text, line, *r.op); !added)
            return added;
        r.inv.fileSizes.push_back(std::to_string(*fileKiB * 1024));
        r.inv.recordSizes.push_back(std::to_string(r.recordSizes[i] * 1024));
    }
    return {};
}

// The throughput report's settings: `"Record size = 4 kBytes "`, `"Output is in ops/sec"`.
Expected<void> throughputSetting(Reader& r, std::string_view title, const Line& line) {
    if (title.starts_with("Output is in")) {
        const auto unit = text::trim(title.substr(12));
        const auto output = unit == "ops/sec"           ? std::optional(Output::OpsPerSecond)
                            : unit == "microseconds/op" ? std::optional(Output::MicrosecondsPerOp)
                            : unit == "kBytes/sec" || unit == "Kbytes/sec"
                                ? std::optional(Output::KiBPerSecond)
                                : std::nullopt;
        if (!output)
            return lineError(line.number, "unit",
                             text::quoted(unit) + " is not kBytes/sec, ops/sec or microseconds/op");
        if (*output != r.inv.output && !r.inv.run.metrics.empty())
            return lineError(line.number, "unit",
                             text::quoted(unit) +
                                 " differs from the unit of iozone's output above");
        r.inv.output = *output;
        r.inv.unitStated = true;
        return {};
    }
    if (title.starts_with("Record size")) {
        const auto tokens = text::tokens(title);
        if (tokens.size() >= 4)
            if (const auto kib = wholeNumber(tokens[3].text))
                r.inv.run.origin.spec["record_size_bytes"] = std::to_string(*kib * 1024);
        return {};
    }
    unplaced(r, line);
    return {};
}

// `"  Initial write "  477185.91 `: one value per process count (-l/-u give several).
Expected<void> throughputRow(Reader& r, const Quoted& q, const Line& line) {
    const auto label = text::trim(q.inside);
    const auto op = lookup(throughputRows, label);
    if (!op) {
        r.inv.run.caveats.push_back("iozone -R row " + text::quoted(label) + " (line " +
                                    std::to_string(line.number) +
                                    ") is not imported: not an operation layoutbench knows");
        return {};
    }
    const auto values = text::tokens(q.after);
    if (values.size() != 1)
        return lineError(line.number, *op,
                         std::to_string(values.size()) +
                             " values (one per process count): only a report of one process "
                             "count is imported");
    auto value = text::parseNonNegative(values[0].text);
    if (!value)
        return lineError(line.number, *op, value.error().message);
    return addOrCheck(r.inv, "iozone." + std::string(*op), *value, values[0].text, line, *op);
}

Expected<void> quotedLine(Reader& r, const Quoted& q, const Line& line) {
    const auto title = quotedTitle(line.text);
    if (title && title->find("CPU utilization report") != std::string_view::npos) {
        if (r.section != Section::Cpu)
            r.inv.run.caveats.push_back("iozone's CPU utilization tables (-+u, from line " +
                                        std::to_string(line.number) + ") are not imported");
        r.section = Section::Cpu;
        return {};
    }
    if (r.section == Section::Cpu)
        return {};
    if (title && title->starts_with(throughputTitle)) {
        r.section = Section::Throughput;
        r.inv.excel = true;
        return {};
    }
    if (r.section == Section::Throughput)
        return title ? throughputSetting(r, *title, line) : throughputRow(r, q, line);
    if (title && title->ends_with(" report"))
        return tableTitle(r, *title, line);
    if (r.section == Section::Tables && !r.heading)
        return tableHeading(r, line);
    if (r.section == Section::Tables)
        return tableRow(r, q, line);
    return lineError(line.number, "-R report",
                     text::quoted(text::trim(line.text)) + " comes before any report's title");
}

} // namespace

bool startsExcelReport(std::string_view line) {
    const auto t = text::trim(line);
    if (t == excelBelow)
        return true;
    const auto title = quotedTitle(line);
    return title && (title->ends_with(" report") || title->starts_with(throughputTitle));
}

Expected<void> readExcelReport(Invocation& inv, std::span<const Line> lines, std::size_t at) {
    Reader r{inv};
    for (std::size_t i = at; i < lines.size(); ++i) {
        const auto& line = lines[i];
        const auto t = text::trim(line.text);
        if (t.empty()) {
            if (r.section == Section::Tables && r.heading)
                r.heading = false; // a table ends at its blank line
            continue;
        }
        if (t == excelBelow) {
            r.section = Section::Tables;
            continue;
        }
        if (const auto q = quotedStart(line.text)) {
            if (auto done = quotedLine(r, *q, line); !done)
                return done;
        } else if (t != "iozone test complete." && t != "exiting iozone") {
            unplaced(r, line);
        }
    }
    if (r.placeholders > 0)
        inv.run.caveats.push_back(std::to_string(r.placeholders) +
                                  " cells of iozone's -R tables are 0, its placeholder for the "
                                  "record sizes it skips above its crossover" +
                                  std::string(inv.output == Output::MicrosecondsPerOp
                                                  ? " (with -N also an operation under 1 µs)"
                                                  : "") +
                                  ": not imported");
    return {};
}

} // namespace lb::iozone::detail
