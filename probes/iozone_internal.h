// What iozone.cpp and iozone_excel.cpp share: one invocation as it is read, and the helpers
// that name and store its metrics the same way for the normal output and the -R report.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/run.h"
#include "probes/text_fields.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lb::iozone::detail {

// What iozone's figures are: kB/s by default, operations per second with -O, microseconds per
// operation with -N (iozone.c prints "Microseconds/op Mode." in its settings).
enum class Output { KiBPerSecond, OpsPerSecond, MicrosecondsPerOp };

// What one invocation printed, as it is read.
struct Invocation {
    int line = 0;
    std::string raw;
    std::string version;
    bool banner = false;
    Output output = Output::KiBPerSecond;
    bool unitStated = false; // "Output is in ..." or the -O/-N mode line was seen
    bool table = false;      // the automatic mode's normal table was read
    bool excel = false;      // a -R report was read
    ParsedRun run;
    std::vector<std::string> fileSizes;   // automatic table rows, in bytes
    std::vector<std::string> recordSizes; // automatic table rows, in bytes
    std::vector<int> linesNotRead;        // data-looking lines no table or report could place
    int underOneMicrosecond = 0;          // -N cells of 0: iozone truncates to whole µs
    int refusalLine = 0; // where iozone said it would not run the test (0: it did not)
    std::string refusal; // what it said
};

// A name iozone prints and the operation it becomes in a metric's name.
struct Name {
    std::string_view printed;
    std::string_view op;
};

template <std::size_t N>
std::optional<std::string_view> lookup(const std::array<Name, N>& names, std::string_view key) {
    for (const auto& n : names)
        if (n.printed == key)
            return n.op;
    return std::nullopt;
}

Unexpected lineError(int line, std::string_view field, const std::string& message);

// 64 -> "64k", 4096 -> "4M", 1048576 -> "1G": the sizes in a table metric's name.
std::string sizeName(std::uint64_t kib);

std::optional<std::uint64_t> wholeNumber(std::string_view s);

// "iozone.f64M-r4k." for a cell of the automatic table.
std::string cellPrefix(std::uint64_t fileKiB, std::uint64_t recordKiB);

// iozone's number as the metric `name` is stored: kB/s as bytes/s, -O's ops/s as <name>_ops,
// -N's microseconds per operation as <name>_latency in nanoseconds.
Metric metricOf(const Invocation& inv, const std::string& name, double value);

// Stores iozone's number as metricOf() names it. A -N cell of 0 (an operation under 1 µs, which
// iozone truncates to 0) is counted, not stored: 0 ns is not what was measured.
void addMetric(Invocation& inv, const std::string& name, double value);

// The -R report repeats the normal output's numbers: a metric already read is checked, not
// stored twice; one the normal output lacks is stored.
Expected<void> addOrCheck(Invocation& inv, const std::string& name, double value,
                          std::string_view printed, const text::Line& line, std::string_view field);

// True if the line starts iozone's -R report: "Excel output is below:", a quoted
// "<test> report" title or the throughput mode's "Throughput report ..." title.
bool startsExcelReport(std::string_view line);

// Reads the -R report from lines[at] to the end of the invocation. A line that is not part of
// it is named in a caveat, never dropped unsaid.
Expected<void> readExcelReport(Invocation& inv, std::span<const text::Line> lines, std::size_t at);

} // namespace lb::iozone::detail
