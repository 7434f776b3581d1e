// bonnie++ CSV parsing: the field layout of each format version, unit conversion to canonical
// units, and bonnie++'s markers for "too fast to time" (+++++) and "not run" (empty).
#include "probes/bonnie_csv.h"

#include "probes/text_fields.h"

#include <array>
#include <charconv>
#include <cstddef>
#include <string>
#include <system_error>
#include <vector>

namespace lb::bonnie {

namespace {

using text::parseLatencyNs;
using text::parseNonNegative;
using text::quoted;
using text::trim;

enum class Kind {
    Info,      // run parameters (host, sizes, counts): not metrics, and written loosely ("64M",
               // "link", empty chunk size), so they are not validated
    KibPerSec, // block IO rate, KiB/s in the file
    PerSec,    // seeks or file operations per second
    Cpu,       // percent of one CPU; above 100 is normal with -c or seeker processes
    Latency,   // "<n>us", "<n>ms" or "<n>s": the worst latency seen in the test
};

struct Field {
    Field(std::string column, Kind k)
        : name(std::move(column)), metric("bonnie." + name), kind(k) {}
    std::string name;   // bonnie++'s column name
    std::string metric; // "bonnie." + name: the metric a metric field becomes
    Kind kind = Kind::Info;
};

struct Test {
    std::string_view name;
    Kind rate;
};

// In the order bonnie++ writes them; the latencies at the end follow the same order.
constexpr std::array<Test, 6> ioTests{{
    {"putc", Kind::KibPerSec},
    {"put_block", Kind::KibPerSec},
    {"rewrite", Kind::KibPerSec},
    {"getc", Kind::KibPerSec},
    {"get_block", Kind::KibPerSec},
    {"seeks", Kind::PerSec},
}};
constexpr const auto& fileTests = fileTestNames;

struct Format {
    std::string_view version;
    // Format 1.98 added the number of seeks and of seeker processes after io_chunk_size.
    bool seekCounts;
};
constexpr std::array<Format, 3> formats{{{"1.96", false}, {"1.97", false}, {"1.98", true}}};

std::vector<Field> buildLayout(bool seekCounts) {
    std::vector<Field> fields{{"format_version", Kind::Info}, {"bonnie_version", Kind::Info},
                              {"name", Kind::Info},           {"concurrency", Kind::Info},
                              {"seed", Kind::Info},           {"file_size", Kind::Info},
                              {"io_chunk_size", Kind::Info}};
    if (seekCounts) {
        fields.push_back({"num_seeks", Kind::Info});
        fields.push_back({"seek_procs", Kind::Info});
    }
    for (const auto& t : ioTests) {
        fields.push_back({std::string(t.name), t.rate});
        fields.push_back({std::string(t.name) + "_cpu", Kind::Cpu});
    }
    // bonnie++'s header says num_dirs,file_chunk_size but it writes <empty>,num_dirs; both are
    // Info fields, so the mix-up does not matter here.
    for (std::string_view name :
         {"num_files", "max_size", "min_size", "num_dirs", "file_chunk_size"})
        fields.push_back({std::string(name), Kind::Info});
    for (const auto name : fileTests) {
        fields.push_back({std::string(name), Kind::PerSec});
        fields.push_back({std::string(name) + "_cpu", Kind::Cpu});
    }
    for (const auto& t : ioTests)
        fields.push_back({std::string(t.name) + "_latency", Kind::Latency});
    for (const auto name : fileTests)
        fields.push_back({std::string(name) + "_latency", Kind::Latency});
    return fields;
}

const std::vector<Field>& layout(bool seekCounts) {
    static const std::vector<Field> withoutSeekCounts = buildLayout(false); // 48 fields
    static const std::vector<Field> withSeekCounts = buildLayout(true);     // 50 fields
    return seekCounts ? withSeekCounts : withoutSeekCounts;
}

// bonnie++ 1.00 to 1.03e wrote no format or bonnie++ version: name, size, the six IO tests'
// rate and CPU, num_files (with its ":max:min/dirs" when given), the six file tests' rate and
// CPU; no latencies.
const std::vector<Field>& layoutV1() {
    static const std::vector<Field> fields = [] {
        std::vector<Field> f{{"name", Kind::Info}, {"file_size", Kind::Info}};
        for (const auto& t : ioTests) {
            f.push_back({std::string(t.name), t.rate});
            f.push_back({std::string(t.name) + "_cpu", Kind::Cpu});
        }
        f.push_back({"num_files", Kind::Info});
        for (const auto name : fileTests) {
            f.push_back({std::string(name), Kind::PerSec});
            f.push_back({std::string(name) + "_cpu", Kind::Cpu});
        }
        return f;
    }();
    return fields;
}
constexpr std::size_t v1FileSizeColumn = 1;
constexpr std::size_t v1FilesColumn = 14;

const Format* findFormat(std::string_view version) {
    for (const auto& f : formats)
        if (f.version == version)
            return &f;
    return nullptr;
}

std::vector<std::string_view> splitFields(std::string_view line) {
    return text::split(line, ',');
}

bool allPlus(std::string_view s) {
    return !s.empty() && s.find_first_not_of('+') == std::string_view::npos;
}

Unit unitOf(Kind kind) {
    switch (kind) {
    case Kind::KibPerSec:
        return Unit::BytesPerSecond;
    case Kind::PerSec:
        return Unit::OpsPerSecond;
    case Kind::Cpu:
        return Unit::Percent;
    case Kind::Latency:
        return Unit::Nanoseconds;
    case Kind::Info:
        break;
    }
    return Unit::Count;
}

Expected<double> parseValue(std::string_view text, Kind kind) {
    if (kind == Kind::Latency)
        return parseLatencyNs(text);
    auto value = parseNonNegative(text, text);
    if (value && kind == Kind::KibPerSec)
        return *value * 1024.0;
    return value;
}

Unexpected fieldError(std::size_t index, const Field& field, const std::string& what) {
    return badInput("field " + std::to_string(index + 1) + " (" + field.name + "): " + what);
}

// bonnie++ 1.96 with -s 0 wrote one empty IO field too few (47 fields; seen in a real 1.96
// result). When the whole IO block is empty the missing field cannot shift any value, so it is
// restored instead of rejecting a genuine result.
constexpr std::size_t shortLineSize = 47;
constexpr std::size_t ioBlockStart = 5;      // file_size, 0-based
constexpr std::size_t shortIoBlockSize = 13; // file_size .. seeks_cpu, one short

bool isShortNoIoLine(const std::vector<std::string_view>& values) {
    if (values.size() != shortLineSize)
        return false;
    for (std::size_t i = ioBlockStart; i < ioBlockStart + shortIoBlockSize; ++i)
        if (!values[i].empty())
            return false;
    return true;
}

// A CSV format version is always <digit>.<two digits> ("1.96", "1.98"); being this strict keeps
// ordinary numeric CSV ("1.5,2.5") from looking like bonnie++.
bool looksLikeFormatVersion(std::string_view s) {
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    return s.size() == 4 && digit(s[0]) && s[1] == '.' && digit(s[2]) && digit(s[3]);
}

// A bonnie++ version: "1.96", "2.00a", "1.03e"; lenient about anything after the first digit.
bool looksLikeToolVersion(std::string_view s) {
    if (s.empty() || s[0] < '0' || s[0] > '9' || s.find('.') == std::string_view::npos)
        return false;
    for (const char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '.'))
            return false;
    return true;
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// A 1.0x size cell: "4G", "500M", "11760M", "1G:32k"; empty with -s 0.
bool looksLikeSize(std::string_view s) {
    if (s.empty())
        return true;
    if (!isDigit(s[0]))
        return false;
    for (const char c : s)
        if (!(isDigit(c) || c == ':' ||
              std::string_view("kKmMgGtT").find(c) != std::string_view::npos))
            return false;
    return true;
}

// A 1.0x metric cell: a number, +++++ (or +++ for CPU), or empty (test not run).
bool looksLikeCell(std::string_view s) {
    return s.find_first_not_of("0123456789.") == s.npos || allPlus(s);
}

// A bonnie++ 1.0x line: 27 fields, a size where 1.96+ has its bonnie++ version, and numbers,
// +++++ or nothing where the rates are. The name is anything but a format version.
bool looksLikeV1(const std::vector<std::string_view>& values) {
    if (values.size() != layoutV1().size() || looksLikeFormatVersion(values[0]) ||
        !looksLikeSize(values[v1FileSizeColumn]))
        return false;
    bool anyValue = false;
    for (std::size_t i = 2; i < values.size(); ++i) {
        if (i == v1FilesColumn)
            continue;
        if (!looksLikeCell(values[i]))
            return false;
        anyValue = anyValue || !values[i].empty();
    }
    return anyValue;
}

// num_files, 0-based: after the two seek counts of format 1.98.
std::size_t filesColumn(const Format& format) {
    return format.seekCounts ? 21 : 19;
}

// How the line was read, for an imported run: the units bonnie++ wrote and the run's sizes.
RunOrigin csvOrigin(const Format& format, const std::vector<std::string_view>& values) {
    RunOrigin o;
    o.format = "bonnie++ CSV (format " + std::string(format.version) + ")";
    o.convertedFrom = {"KiB/s", "us/ms/s latencies"};
    const std::size_t filesAt = filesColumn(format);
    if (!values[2].empty())
        o.spec["machine"] = std::string(values[2]);
    if (!values[5].empty())
        o.spec["size"] = std::string(values[5]);
    if (!values[filesAt].empty())
        o.spec["files"] = std::string(values[filesAt]);
    return o;
}

} // namespace

void noteTooFast(ParsedRun& run, const std::string& metric, std::string_view marker) {
    const std::string what = "too fast to time (" + std::string(marker) + ")";
    run.caveats.push_back(metric + ": " + what);
    run.notes.push_back(MetricNote{MetricNote::Kind::Excludes, metric, what});
}

void noteWork(ParsedRun& run, std::string_view fileSize, std::string_view files) {
    // The tests' metrics by the fewest globs (an import writes these notes for every line):
    // bonnie.put* is putc and put_block, bonnie.seq_* the three sequential file tests, ...
    static constexpr std::array<std::string_view, 4> blockTests{"bonnie.put*", "bonnie.rewrite*",
                                                                "bonnie.get*", "bonnie.seeks*"};
    static constexpr std::array<std::string_view, 2> fileTests{"bonnie.seq_*", "bonnie.ran_*"};
    // A table's size cell may add the chunk size: "256M:4k".
    // Sized once: six notes pushed one by one grew the vector four times a line.
    run.notes.reserve(run.notes.size() + blockTests.size() + fileTests.size());
    const std::string size(trim(fileSize.substr(0, fileSize.find(':'))));
    if (!size.empty())
        for (const auto glob : blockTests)
            run.notes.push_back({MetricNote::Kind::Method, std::string(glob), "file_size=" + size});
    const std::string count(trim(files.substr(0, files.find(':'))));
    if (!count.empty())
        for (const auto glob : fileTests)
            run.notes.push_back({MetricNote::Kind::Method, std::string(glob), "files=" + count});
}

namespace {

// Each metric field of `values` (laid out as `fields`) as a metric, a +++++ note, or nothing.
Expected<void> readMetrics(const std::vector<std::string_view>& values,
                           const std::vector<Field>& fields, ParsedRun& run) {
    // Sized once: grown metric by metric, the vector was allocated and moved seven times a line.
    // What it holds (a spare line's metrics) is written over, each name into its memory.
    auto& metrics = run.metrics;
    metrics.reserve(fields.size());
    std::size_t count = 0;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const auto& field = fields[i];
        const auto value = values[i];
        if (field.kind == Kind::Info || value.empty())
            continue;
        if (allPlus(value)) {
            const std::string why = "too fast to time (" + std::string(value) + ")";
            // A note per missing metric, so the comparison lists it as not compared instead of
            // it vanishing; the CPU column of a too-fast test is +++ too.
            run.notes.push_back({MetricNote::Kind::Excludes, field.metric, why});
            // One caveat per test is enough for a person reading the run.
            const bool rateAlreadyNoted = field.kind == Kind::Cpu && allPlus(values[i - 1]);
            if (!rateAlreadyNoted)
                run.caveats.push_back(field.metric + ": " + why);
            continue;
        }
        auto parsed = parseValue(value, field.kind);
        if (!parsed)
            return fieldError(i, field, parsed.error().message);
        if (count < metrics.size())
            metrics[count].name.assign(field.metric);
        else
            metrics.emplace_back().name = field.metric;
        metrics[count].value = *parsed;
        metrics[count].unit = unitOf(field.kind);
        ++count;
    }
    metrics.resize(count);
    return {};
}

// A bonnie++ 1.0x line (looksLikeV1): its version is not in it, only that it is 1.0x.
Expected<ParsedRun> parseV1(const std::vector<std::string_view>& values,
                            std::vector<Metric> spare) {
    ParsedRun run;
    run.metrics = std::move(spare);
    run.workload = "bonnie";
    run.toolVersion = std::string(v1Version);
    run.origin.format = "bonnie++ 1.0x CSV (no format version)";
    run.origin.convertedFrom = {"KiB/s"};
    if (!values[0].empty())
        run.origin.spec["machine"] = std::string(values[0]);
    if (!values[v1FileSizeColumn].empty())
        run.origin.spec["size"] = std::string(values[v1FileSizeColumn]);
    if (!values[v1FilesColumn].empty())
        run.origin.spec["files"] = std::string(values[v1FilesColumn]);
    LB_TRY_VOID(readMetrics(values, layoutV1(), run));
    noteWork(run, values[v1FileSizeColumn], values[v1FilesColumn]);
    return run;
}

} // namespace

Expected<ParsedRun> parseCsvLine(std::string_view line, std::vector<Metric> spare) {
    const auto text = trim(line);
    if (text.empty())
        return badInput("empty input: expected a bonnie++ CSV line");
    if (text.find('\n') != std::string_view::npos)
        return badInput("expected one bonnie++ CSV line, got several lines");

    auto values = splitFields(text);
    const auto* format = findFormat(values[0]);
    if (format == nullptr && looksLikeV1(values))
        return parseV1(values, std::move(spare));
    if (format == nullptr)
        return badInput("field 1 (format_version): " + quoted(values[0]) +
                        " is not a bonnie++ CSV format version this parser knows (1.96, 1.97, "
                        "1.98), nor is the line one of bonnie++ 1.0x's (27 fields, the machine "
                        "name first): " +
                        std::to_string(values.size()) + " fields");
    const auto& fields = layout(format->seekCounts);
    if (!format->seekCounts && isShortNoIoLine(values))
        values.insert(values.begin() + static_cast<std::ptrdiff_t>(ioBlockStart),
                      std::string_view{});
    if (values.size() != fields.size()) {
        const auto& other = layout(!format->seekCounts);
        std::string msg = "expected " + std::to_string(fields.size()) + " fields (format " +
                          std::string(format->version) + "), got " + std::to_string(values.size());
        if (values.size() == other.size())
            msg += "; " + std::to_string(other.size()) + " fields is format " +
                   (format->seekCounts ? "1.96/1.97" : "1.98");
        else if (values.size() < fields.size())
            msg += " (truncated line?)";
        return badInput(msg);
    }

    ParsedRun run;
    run.metrics = std::move(spare);
    run.workload = "bonnie";
    run.toolVersion = std::string(values[1]);
    if (run.toolVersion.empty())
        return fieldError(1, fields[1], "is empty");
    run.origin = csvOrigin(*format, values);
    LB_TRY_VOID(readMetrics(values, fields, run));
    noteWork(run, values[5], values[filesColumn(*format)]);
    return run;
}

std::string machineOf(std::string_view line) {
    const auto fields = splitFields(trim(line));
    if (looksLikeV1(fields))
        return std::string(fields[0]);
    return fields.size() > 2 ? std::string(fields[2]) : std::string();
}

bool looksLikeCsv(std::string_view text) {
    std::string_view line;
    std::size_t pos = 0;
    while (line.empty()) {
        if (pos >= text.size())
            return false;
        const auto end = text.find('\n', pos);
        line = trim(text.substr(pos, end - pos));
        if (end == std::string_view::npos)
            break;
        pos = end + 1;
    }
    const auto fields = splitFields(line);
    return (fields.size() >= 3 && looksLikeFormatVersion(fields[0]) &&
            looksLikeToolVersion(fields[1])) ||
           looksLikeV1(fields);
}

} // namespace lb::bonnie
