// The metric catalog: every metric layoutbench stores has a canonical name, a canonical unit and a
// direction (is more better or worse). Values in the store are always in the canonical unit.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

enum class Unit { BytesPerSecond, OpsPerSecond, Seconds, Nanoseconds, Percent, Count };
enum class Better { Higher, Lower };

std::string_view unitName(Unit u); // "bytes/s", "ops/s", "seconds", "nanoseconds", "percent", ...
std::optional<Unit> unitFromName(std::string_view name);

struct MetricInfo {
    std::string name;
    Unit unit = Unit::Count;
    Better better = Better::Higher;
    // Whether the metric decides a layout's verdict by default: throughput, IOPS and the total
    // p99 latency of each job. Single-worst-operation figures (bonnie++ *_latency), other
    // percentiles, CPU, counts and runtimes are shown but do not decide unless a scenario's
    // [decide] names them.
    bool decisive = true;
    bool operator==(const MetricInfo&) const = default;
};

// Looks a name up in the catalog (ARCHITECTURE.md "Metric names and units"), including the
// per-job families fio.<job>.<dir>.<stat>, iscsi.<job>..., nfs.<job>....
std::optional<MetricInfo> describeMetric(std::string_view name);

// Whether a metric measures reading data, which a cache can serve (a working set that fits in
// memory): fio's (iSCSI's, NFS's) read direction, bonnie++'s reads, seeks, rewrites and stats,
// iozone's reads, xz (it reads its input). A write's figure is never "served from cache".
bool readsData(std::string_view name);

// A metric's name for a reader who does not know the tools: "sequential block writes" for
// bonnie.put_block, "seq-read-1m: read throughput" for fio.seq-read-1m.read.bw, "xz compression
// throughput"; the name itself where the catalog does not know it.
std::string plainMetricName(std::string_view name);
// The term of a metric's name a glossary explains, and what it means: "put_block": "bonnie++
// writes its file ... with write(2)"; "lat_p99" for every fio job's p99 latency; "*_cpu" for
// bonnie++'s CPU figures. Metrics sharing a term share its entry. None where the catalog does
// not know the metric.
struct MetricTerm {
    std::string term;
    std::string meaning;
    bool operator==(const MetricTerm&) const = default;
};
std::optional<MetricTerm> metricTerm(std::string_view name);

// Every metric name a job of fio (or iscsi/nfs through fio) can produce for the directions it
// does ("read", "write", "trim"): <family>.<job>.<dir>.<stat>.
std::vector<std::string> jobMetricNames(std::string_view family, std::string_view job,
                                        const std::vector<std::string>& directions);
// Every metric name bonnie++ can produce.
std::vector<std::string> bonnieMetricNames();

// Whether metrics of this family ("bonnie", "fio", ...) exist in the catalog.
bool knownMetricFamily(std::string_view family);

// Whether `name` matches `glob`: `*` stands for any run of characters (dots included), `?` for
// one; everything else matches itself. "fio.*.read.bw" matches "fio.seq-read-1m.read.bw".
bool metricMatches(std::string_view glob, std::string_view name);

// A measured value in canonical units.
struct Metric {
    std::string name;
    double value = 0;
    Unit unit = Unit::Count;
    bool operator==(const Metric&) const = default;
};

} // namespace lb
