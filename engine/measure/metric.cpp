#include "engine/measure/metric.h"

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

// bonnie++ tests: block rates are throughputs, seeks and file operations are ops/s; each with its
// name for a reader and what it does.
struct BonnieTest {
    std::string_view name;
    Unit unit;
    std::string_view plain;
    std::string_view meaning;
};
constexpr std::array<BonnieTest, 12> bonnieTests{{
    {"putc", Unit::BytesPerSecond, "writes a character at a time",
     "bonnie++ writes its file one character at a time with putc(); bound by the CPU as much as "
     "by the disks"},
    {"put_block", Unit::BytesPerSecond, "sequential block writes",
     "bonnie++ writes its file from start to end in blocks with write(2)"},
    {"rewrite", Unit::BytesPerSecond, "sequential rewrites",
     "bonnie++ reads each block of its file, changes it and writes it back"},
    {"getc", Unit::BytesPerSecond, "reads a character at a time",
     "bonnie++ reads its file one character at a time with getc()"},
    {"get_block", Unit::BytesPerSecond, "sequential block reads",
     "bonnie++ reads its file from start to end in blocks with read(2)"},
    {"seeks", Unit::OpsPerSecond, "random seeks",
     "bonnie++'s processes read blocks at random places in its file (and write some of them "
     "back): the disks' seek time"},
    {"seq_create", Unit::OpsPerSecond, "creating files in order",
     "bonnie++ creates its small files (-n) in the order of their names"},
    {"seq_stat", Unit::OpsPerSecond, "reading file attributes in order",
     "bonnie++ reads the attributes (stat) of its small files in the order of their names"},
    {"seq_del", Unit::OpsPerSecond, "deleting files in order",
     "bonnie++ deletes its small files in the order of their names"},
    {"ran_create", Unit::OpsPerSecond, "creating files in random order",
     "bonnie++ creates its small files in random order"},
    {"ran_stat", Unit::OpsPerSecond, "reading file attributes in random order",
     "bonnie++ reads the attributes (stat) of its small files in random order"},
    {"ran_del", Unit::OpsPerSecond, "deleting files in random order",
     "bonnie++ deletes its small files in random order"},
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
    // fio's fsync/fdatasync latency (fsync=, fdatasync=): how long the syncs took, shown, never
    // deciding (the writes' own latency and throughput decide).
    if (dir == "sync")
        return stat == "lat_mean" || stat == "lat_p50" || stat == "lat_p99" || stat == "lat_p99_9"
                   ? std::optional(
                         MetricInfo{std::string(full), Unit::Nanoseconds, Better::Lower, false})
                   : std::nullopt;
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
// mode's table, e.g. iozone.f64M-r4k.write); <op>_ops when iozone -O reported operations/s,
// <op>_latency (nanoseconds, lower is better) when -N reported microseconds per operation.
// Throughput mode's figures decide by default; the automatic table's cells are shown only: a
// table holds a hundred of them, most for files that fit in a cache, and a scenario's [decide]
// (or compare --decide) names the cells that matter.
std::optional<MetricInfo> describeIozone(std::string_view rest, std::string_view full) {
    auto op = rest.substr(rest.rfind('.') + 1);
    const bool ops = op.ends_with("_ops");
    const bool latency = op.ends_with("_latency");
    if (ops)
        op.remove_suffix(4);
    if (latency)
        op.remove_suffix(8);
    const bool tableCell = rest.find('.') != std::string_view::npos;
    for (const auto known : iozoneOperations)
        if (op == known)
            return MetricInfo{std::string(full),
                              latency ? Unit::Nanoseconds
                              : ops   ? Unit::OpsPerSecond
                                      : Unit::BytesPerSecond,
                              latency ? Better::Lower : Better::Higher, !tableCell};
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

// fill.<stat>: what the ageing before a fill level wrote and what the pool said of itself after
// it (engine/build/fill.h); shown beside the level's runs, never deciding.
std::optional<MetricInfo> describeFillMetric(std::string_view rest, std::string_view name) {
    if (rest == "seconds")
        return MetricInfo{std::string(name), Unit::Seconds, Better::Lower, false};
    if (rest == "write_rate")
        return MetricInfo{std::string(name), Unit::BytesPerSecond, Better::Higher, false};
    if (rest == "level" || rest == "pool_capacity" || rest == "pool_fragmentation")
        return MetricInfo{std::string(name), Unit::Percent, Better::Lower, false};
    if (rest == "free_extent_avg_bytes")
        return MetricInfo{std::string(name), Unit::Count, Better::Higher, false};
    if (rest == "written_bytes" || rest == "level_written_bytes" || rest == "deleted_bytes" ||
        rest == "rewritten_bytes" || rest == "files" || rest == "free_extents")
        return MetricInfo{std::string(name), Unit::Count, Better::Lower, false};
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
    if (family == "fill")
        return describeFillMetric(rest, name);
    if (family == "drill") {
        // drill.<action>.<stat>: each layout has its own drills, so they are shown, never part
        // of the verdict between two layouts.
        const auto stat = rest.substr(rest.rfind('.') + 1);
        if (rest.find('.') == std::string_view::npos)
            return std::nullopt;
        if (stat == "seconds" || stat == "scrub_seconds" || stat == "window_seconds" ||
            stat == "heal_seconds" || stat == "check_seconds" || stat == "detect_seconds" ||
            stat.ends_with("_at")) // a fail-rebuild drill's moments: healthy_at, failed_at, ...
            return MetricInfo{std::string(name), Unit::Seconds, Better::Lower, false};
        if (stat == "read_throughput" || stat == "rebuild_rate")
            return MetricInfo{std::string(name), Unit::BytesPerSecond, Better::Higher, false};
        if (stat == "read_errors" || stat == "mismatch_cnt" || stat == "scrub_errors" ||
            stat == "checksum_mismatches")
            return MetricInfo{std::string(name), Unit::Count, Better::Lower, false};
        // Bytes a rebuild restored (a count of bytes: the store has no unit of bytes) and the
        // share filled before the failure: what the rebuild's time is of, neither better.
        if (stat == "rebuild_bytes" || stat == "heal_bytes")
            return MetricInfo{std::string(name), Unit::Count, Better::Higher, false};
        if (stat == "fill")
            return MetricInfo{std::string(name), Unit::Percent, Better::Higher, false};
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

bool readsData(std::string_view name) {
    const auto dot = name.find('.');
    if (dot == std::string_view::npos)
        return false;
    const auto family = name.substr(0, dot);
    const auto rest = name.substr(dot + 1);
    if (family == "fio" || family == "iscsi" || family == "nfs")
        return rest.find(".read.") != std::string_view::npos;
    if (family == "bonnie")
        for (std::string_view test :
             {"getc", "get_block", "seeks", "rewrite", "seq_stat", "ran_stat"})
            if (rest.starts_with(test) && (rest.size() == test.size() || rest[test.size()] == '_'))
                return true;
    if (family == "iozone")
        return rest.find("read") != std::string_view::npos;
    return family == "xz";
}

bool knownMetricFamily(std::string_view family) {
    static constexpr std::array<std::string_view, 10> families{
        "bonnie", "fio", "iscsi", "nfs", "xz", "randfile", "drill", "iozone", "dd", "fill"};
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

namespace {

// fio's statistics of a job's direction, for a reader: a name after the direction's, and what it
// is.
struct JobStatWords {
    std::string_view stat;
    std::string_view plain; // after "read", "write", ...
    std::string_view meaning;
};
constexpr std::array<JobStatWords, 10> jobStatWords{{
    {"bw", "throughput", "bytes moved per second by the job"},
    {"iops", "operations per second", "I/O operations completed per second by the job"},
    {"lat_p99", "latency (99th percentile)",
     "99 % of the job's I/Os took at most this long, from submission to completion"},
    {"lat_p99_9", "latency (99.9th percentile)",
     "99.9 % of the job's I/Os took at most this long, from submission to completion"},
    {"lat_p50", "latency (median)", "half the job's I/Os took at most this long"},
    {"lat_mean", "latency (mean)", "the mean time of the job's I/Os"},
    {"clat_p50", "completion latency (median)",
     "the median time from submission to completion, submission itself left out"},
    {"clat_p99", "completion latency (99th percentile)",
     "99 % of the job's I/Os completed within this time after submission"},
    {"clat_p99_9", "completion latency (99.9th percentile)",
     "99.9 % of the job's I/Os completed within this time after submission"},
    {"runtime", "run time", "how long the job ran; fixed by its own settings when time-based"},
}};

// "fio.seq-read-1m.read.bw" -> family, job, direction, stat; none when not of that shape.
struct JobMetricParts {
    std::string_view family, job, dir, stat;
};
std::optional<JobMetricParts> jobMetricParts(std::string_view name) {
    const auto dot = name.find('.');
    const auto last = name.rfind('.');
    if (dot == std::string_view::npos || last == dot)
        return std::nullopt;
    const auto head = name.substr(0, last);
    const auto dirDot = head.rfind('.');
    if (dirDot <= dot)
        return std::nullopt;
    return JobMetricParts{name.substr(0, dot), name.substr(dot + 1, dirDot - dot - 1),
                          head.substr(dirDot + 1), name.substr(last + 1)};
}

const JobStatWords* jobStatOf(std::string_view stat) {
    for (const auto& w : jobStatWords)
        if (w.stat == stat)
            return &w;
    return nullptr;
}

const BonnieTest* bonnieTestOf(std::string_view rest, std::string_view& suffix) {
    for (const auto& t : bonnieTests)
        if (rest.starts_with(t.name) &&
            (rest.size() == t.name.size() || rest.substr(t.name.size()) == "_cpu" ||
             rest.substr(t.name.size()) == "_latency")) {
            suffix = rest.substr(t.name.size());
            return &t;
        }
    return nullptr;
}

struct SingleMetricWords {
    std::string_view metric, plain, meaning;
};
constexpr std::array<SingleMetricWords, 3> singleMetricWords{{
    {"xz.throughput", "xz compression throughput",
     "xz compresses a file read from the layout and writes the result back: input bytes per "
     "second"},
    {"randfile.throughput", "large random-file write",
     "one large file of random bytes written to the layout and flushed: bytes per second"},
    {"dd.throughput", "dd throughput", "bytes per second of a dd copy"},
}};

} // namespace

std::string plainMetricName(std::string_view name) {
    if (!describeMetric(name))
        return std::string(name);
    if (name.starts_with("bonnie.")) {
        std::string_view suffix;
        if (const auto* t = bonnieTestOf(name.substr(7), suffix))
            return suffix.empty()     ? std::string(t->plain)
                   : suffix == "_cpu" ? "CPU during " + std::string(t->plain)
                                      : "slowest single operation of " + std::string(t->plain);
    }
    for (const auto& w : singleMetricWords)
        if (name == w.metric)
            return std::string(w.plain);
    if (name.starts_with("fio.") || name.starts_with("iscsi.") || name.starts_with("nfs."))
        if (const auto parts = jobMetricParts(name))
            if (const auto* w = jobStatOf(parts->stat)) {
                const std::string over = parts->family == "iscsi" ? " over iSCSI"
                                         : parts->family == "nfs" ? " over NFS"
                                                                  : "";
                const std::string dir =
                    parts->dir == "mixed" ? "read and write" : std::string(parts->dir);
                return std::string(parts->job) + over + ": " + dir + " " + std::string(w->plain);
            }
    return std::string(name);
}

std::optional<MetricTerm> metricTerm(std::string_view name) {
    if (!describeMetric(name))
        return std::nullopt;
    if (name.starts_with("bonnie.")) {
        std::string_view suffix;
        if (const auto* t = bonnieTestOf(name.substr(7), suffix)) {
            if (suffix == "_cpu")
                return MetricTerm{"*_cpu", "the share of one CPU bonnie++ used during the test "
                                           "(over 100 % with several); shown, not deciding"};
            if (suffix == "_latency")
                return MetricTerm{"*_latency",
                                  "the slowest single operation of the test in the run: one "
                                  "operation says little, so it is shown, not deciding"};
            return MetricTerm{std::string(t->name), std::string(t->meaning)};
        }
    }
    if (name.starts_with("fio.") || name.starts_with("iscsi.") || name.starts_with("nfs."))
        if (const auto parts = jobMetricParts(name))
            if (const auto* w = jobStatOf(parts->stat))
                return MetricTerm{std::string(w->stat),
                                  std::string(w->meaning) + " (fio; per job and direction)"};
    for (const auto& w : singleMetricWords)
        if (name == w.metric)
            return MetricTerm{std::string(w.metric), std::string(w.meaning)};
    return std::nullopt;
}

} // namespace lb
