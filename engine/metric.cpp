#include "engine/metric.h"

#include <algorithm>
#include <array>
#include <utility>

namespace lb {

namespace {

constexpr std::array<std::pair<Unit, std::string_view>, 6> unitNames{{
    {Unit::BytesPerSecond, "bytes/s"},
    {Unit::OpsPerSecond, "ops/s"},
    {Unit::Seconds, "seconds"},
    {Unit::Nanoseconds, "nanoseconds"},
    {Unit::Percent, "percent"},
    {Unit::Count, "count"},
}};

// bonnie++ tests: block rates are throughputs, seeks and file operations are ops/s.
struct BonnieTest {
    std::string_view name;
    Unit unit;
};
constexpr std::array<BonnieTest, 12> bonnieTests{{
    {"putc", Unit::BytesPerSecond},
    {"put_block", Unit::BytesPerSecond},
    {"rewrite", Unit::BytesPerSecond},
    {"getc", Unit::BytesPerSecond},
    {"get_block", Unit::BytesPerSecond},
    {"seeks", Unit::OpsPerSecond},
    {"seq_create", Unit::OpsPerSecond},
    {"seq_stat", Unit::OpsPerSecond},
    {"seq_del", Unit::OpsPerSecond},
    {"ran_create", Unit::OpsPerSecond},
    {"ran_stat", Unit::OpsPerSecond},
    {"ran_del", Unit::OpsPerSecond},
}};

std::optional<MetricInfo> describeBonnie(std::string_view rest, std::string_view full) {
    for (const auto& t : bonnieTests) {
        if (rest == t.name)
            return MetricInfo{std::string(full), t.unit, Better::Higher, true};
        if (rest.size() == t.name.size() + 4 && rest.substr(0, t.name.size()) == t.name) {
            const auto suffix = rest.substr(t.name.size());
            if (suffix == "_cpu")
                return MetricInfo{std::string(full), Unit::Percent, Better::Lower, false};
        }
        // The single slowest operation of the run: one outlier, shown but not deciding.
        if (rest.size() == t.name.size() + 8 && rest.substr(0, t.name.size()) == t.name &&
            rest.substr(t.name.size()) == "_latency")
            return MetricInfo{std::string(full), Unit::Nanoseconds, Better::Lower, false};
    }
    return std::nullopt;
}

constexpr std::array<std::string_view, 10> jobStats{
    "bw",      "iops",    "clat_p50",  "clat_p99", "clat_p99_9",
    "lat_p50", "lat_p99", "lat_p99_9", "lat_mean", "runtime"};

// <job>.<read|write|trim|mixed>.<stat> for fio, iscsi and nfs; "mixed" is fio's
// unified_rw_reporting, reads and writes counted together.
std::optional<MetricInfo> describeJobMetric(std::string_view rest, std::string_view full) {
    const auto lastDot = rest.rfind('.');
    if (lastDot == std::string_view::npos)
        return std::nullopt;
    const auto stat = rest.substr(lastDot + 1);
    const auto head = rest.substr(0, lastDot);
    const auto dirDot = head.rfind('.');
    if (dirDot == std::string_view::npos || dirDot == 0)
        return std::nullopt;
    const auto dir = head.substr(dirDot + 1);
    if (dir != "read" && dir != "write" && dir != "trim" && dir != "mixed")
        return std::nullopt;
    if (stat == "bw")
        return MetricInfo{std::string(full), Unit::BytesPerSecond, Better::Higher, true};
    if (stat == "iops")
        return MetricInfo{std::string(full), Unit::OpsPerSecond, Better::Higher, true};
    // Total latency (submission + completion) at p99 decides: on engines that complete I/O
    // inside io_submit (FUSE) completion latency alone is ~1 µs and says nothing.
    if (stat == "lat_p99")
        return MetricInfo{std::string(full), Unit::Nanoseconds, Better::Lower, true};
    if (stat == "clat_p50" || stat == "clat_p99" || stat == "clat_p99_9" || stat == "lat_mean" ||
        stat == "lat_p50" || stat == "lat_p99_9")
        return MetricInfo{std::string(full), Unit::Nanoseconds, Better::Lower, false};
    // A job's runtime is fixed by its own settings for time-based jobs: shown, never decisive.
    if (stat == "runtime")
        return MetricInfo{std::string(full), Unit::Seconds, Better::Lower, false};
    return std::nullopt;
}

// ---- Imported tools: iozone and dd ----

// iozone's operations as its reports name them (throughput mode and the automatic table).
constexpr std::array<std::string_view, 16> iozoneOperations{
    "write",         "rewrite",        "read",        "reread", "random_read", "random_write",
    "backward_read", "record_rewrite", "stride_read", "fwrite", "frewrite",    "fread",
    "freread",       "mixed",          "pwrite",      "pread"};

// iozone.<op> (throughput mode) or iozone.<file>-<record>.<op> (one cell of the automatic
// mode's table, e.g. iozone.f64M-r4k.write); <op>_ops when iozone -O reported operations/s.
// Throughput mode's figures decide by default; the automatic table's cells are shown only: a
// table holds a hundred of them, most for files that fit in a cache, and a scenario's [decide]
// (or compare --decide) names the cells that matter.
std::optional<MetricInfo> describeIozone(std::string_view rest, std::string_view full) {
    auto op = rest.substr(rest.rfind('.') + 1);
    const bool ops = op.ends_with("_ops");
    if (ops)
        op.remove_suffix(4);
    const bool tableCell = rest.find('.') != std::string_view::npos;
    for (const auto known : iozoneOperations)
        if (op == known)
            return MetricInfo{std::string(full), ops ? Unit::OpsPerSecond : Unit::BytesPerSecond,
                              Better::Higher, !tableCell};
    return std::nullopt;
}

} // namespace

std::string_view unitName(Unit u) {
    for (const auto& [unit, name] : unitNames)
        if (unit == u)
            return name;
    return "count";
}

std::optional<Unit> unitFromName(std::string_view name) {
    for (const auto& [unit, n] : unitNames)
        if (n == name)
            return unit;
    return std::nullopt;
}

std::optional<MetricInfo> describeMetric(std::string_view name) {
    const auto dot = name.find('.');
    if (dot == std::string_view::npos)
        return std::nullopt;
    const auto family = name.substr(0, dot);
    const auto rest = name.substr(dot + 1);
    if (family == "bonnie")
        return describeBonnie(rest, name);
    if (family == "fio" || family == "iscsi" || family == "nfs")
        return describeJobMetric(rest, name);
    if (family == "drill") {
        // drill.<action>.<stat>: each layout has its own drills, so they are shown, never part
        // of the verdict between two layouts.
        const auto stat = rest.substr(rest.rfind('.') + 1);
        if (rest.find('.') == std::string_view::npos)
            return std::nullopt;
        if (stat == "seconds" || stat == "scrub_seconds")
            return MetricInfo{std::string(name), Unit::Seconds, Better::Lower, false};
        if (stat == "read_throughput")
            return MetricInfo{std::string(name), Unit::BytesPerSecond, Better::Higher, false};
        if (stat == "read_errors")
            return MetricInfo{std::string(name), Unit::Count, Better::Lower, false};
        if (stat == "growth" || stat == "usable_growth")
            return MetricInfo{std::string(name), Unit::Percent, Better::Higher, false};
        if (stat == "members")
            return MetricInfo{std::string(name), Unit::Count, Better::Higher, false};
        return std::nullopt;
    }
    if (family == "iozone")
        return describeIozone(rest, name);
    if (name == "xz.throughput" || name == "randfile.throughput" || name == "dd.throughput")
        return MetricInfo{std::string(name), Unit::BytesPerSecond, Better::Higher, true};
    // The wall time of a fixed amount of work is the throughput's reciprocal: shown, and the
    // throughput decides, so one measurement is not counted twice.
    if (name == "xz.wall")
        return MetricInfo{std::string(name), Unit::Seconds, Better::Lower, false};
    if (name == "xz.cpu")
        return MetricInfo{std::string(name), Unit::Seconds, Better::Lower, false};
    return std::nullopt;
}

std::vector<std::string> jobMetricNames(std::string_view family, std::string_view job,
                                        const std::vector<std::string>& directions) {
    std::vector<std::string> out;
    for (const auto& dir : directions)
        for (const auto stat : jobStats)
            out.push_back(std::string(family) + "." + std::string(job) + "." + dir + "." +
                          std::string(stat));
    return out;
}

std::vector<std::string> bonnieMetricNames() {
    std::vector<std::string> out;
    for (const auto& t : bonnieTests)
        for (const char* suffix : {"", "_cpu", "_latency"})
            out.push_back("bonnie." + std::string(t.name) + suffix);
    return out;
}

bool knownMetricFamily(std::string_view family) {
    static constexpr std::array<std::string_view, 9> families{
        "bonnie", "fio", "iscsi", "nfs", "xz", "randfile", "drill", "iozone", "dd"};
    return std::find(families.begin(), families.end(), family) != families.end();
}

bool metricMatches(std::string_view glob, std::string_view name) {
    // Iterative wildcard match with one backtrack point: linear in practice, no recursion.
    std::size_t g = 0, n = 0, starG = std::string_view::npos, starN = 0;
    while (n < name.size()) {
        if (g < glob.size() && (glob[g] == '?' || glob[g] == name[n])) {
            ++g;
            ++n;
        } else if (g < glob.size() && glob[g] == '*') {
            starG = g++;
            starN = n;
        } else if (starG != std::string_view::npos) {
            g = starG + 1;
            n = ++starN;
        } else {
            return false;
        }
    }
    while (g < glob.size() && glob[g] == '*')
        ++g;
    return g == glob.size();
}

} // namespace lb
