// One iteration of one workload on one layout, as recorded: what ran, what it printed, what it
// measured. Raw output is kept so a parser fix can re-derive metrics later.
#pragma once

#include "engine/measure/metric.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

enum class RunStatus { Ok, Failed, Aborted, Running };

std::string_view runStatusName(RunStatus s); // "ok", "failed", "aborted", "running"
std::optional<RunStatus> runStatusFromName(std::string_view name);

// A remark on some metrics of a run, structured so the comparison can act on it: `Qualifies`
// changes what a figure means (it is shown next to the verdict), `Excludes` keeps the metrics out
// of the verdict (listed as not compared, with the text as the reason), `Method` records how they
// were measured ("direct I/O", "buffered I/O"): two sides measured differently are not compared.
// A note may name metrics that have no value (bonnie++'s +++++), so they are listed, not lost.
struct MetricNote {
    enum class Kind { Qualifies, Excludes, Method };
    Kind kind = Kind::Qualifies;
    std::string metrics; // a glob over metric names (metricMatches): "fio.seq-read-1m.*"
    std::string text;
    bool operator==(const MetricNote&) const = default;
};

std::string_view metricNoteKindName(MetricNote::Kind k); // "qualifies", "excludes", "method"
std::optional<MetricNote::Kind> metricNoteKindFromName(std::string_view name);

// Where an imported run's figures come from: the format recognised, the units the tool printed
// (converted to the canonical units on import) and what the output says about the workload
// (record size, block size, direction). Empty for runs layoutbench made itself.
struct RunOrigin {
    std::string format;                      // "bonnie++ 1.96 text table", "dd (BSD)"
    std::vector<std::string> convertedFrom;  // as printed: "KiB/s", "us"
    std::map<std::string, std::string> spec; // "record_size_bytes": "4096", "direction": "write"
    bool empty() const { return format.empty() && convertedFrom.empty() && spec.empty(); }
    bool operator==(const RunOrigin&) const = default;
};

// A quantity measured along a run rather than once (fio's per-interval logs): points (x, y) in
// canonical units, x in `xUnit` (seconds since the job started), y in `unit`. Named like the
// metric it follows over time: "fio.<job>.<dir>.bw" (bytes/s), ".iops" (ops/s), ".lat_mean"
// (nanoseconds, the interval's mean total latency).
struct Series {
    std::string name;
    Unit xUnit = Unit::Seconds;
    Unit unit = Unit::Count;
    std::vector<double> x;
    std::vector<double> y;
    bool operator==(const Series&) const = default;
};

// What a parser makes of one tool output: metrics, or the reason the run failed.
struct ParsedRun {
    std::string workload;    // e.g. "bonnie", "fio:seq-read-1m"
    std::string toolVersion; // as the tool reported it, e.g. "fio-3.33", "2.00a"
    std::vector<Metric> metrics;
    std::vector<std::string> caveats; // e.g. "bonnie.putc: too fast to time (+++++)"
    std::vector<MetricNote> notes;
    std::vector<Series> series; // sorted by name
    RunOrigin origin;
    // How much a sample of the data the run wrote compressed (sample bytes / compressed bytes),
    // measured after the run where the probe can read it back; the campaign makes its notes
    // (compressionNotes). None when not measured.
    std::optional<double> dataCompressRatio;
    bool failed = false;
    std::string failureReason;
    bool operator==(const ParsedRun&) const = default;
};

struct Run {
    std::int64_t id = 0;
    std::int64_t campaignId = 0; // 0: imported, not part of a campaign
    std::string layout;
    std::string workload;
    std::string probe;
    int iteration = 0;
    std::vector<std::string> argv;
    std::optional<int> exitCode;
    std::string stdoutText;
    std::string stderrText;
    std::string toolVersion;
    std::string startedAt;  // ISO 8601 UTC
    std::string finishedAt; // ISO 8601 UTC
    double wallSeconds = 0;
    RunStatus status = RunStatus::Running;
    std::string reason;
    std::vector<std::string> caveats;
    std::vector<MetricNote> notes;
    std::string source;          // the imported file, for imported runs
    std::int64_t sourceLine = 0; // and the line of it the run starts at (0: not known)
    RunOrigin origin;            // imported runs: format, converted units, workload spec
    // The machine it ran on: for imported runs the machine the output names (a bonnie++ line's,
    // a fio client's) unless the import says otherwise. Empty: its campaign's host, else its
    // layout's.
    std::string host;
    // Imported runs: contentHash() of the output they were read from, so the same data is
    // recognised when it is imported again. Empty for runs layoutbench made itself.
    std::string contentHash;
    // The fill level it was measured at (a share of the layout's usable space, to a thousandth)
    // and the bytes the ageing wrote on the layout to reach it (engine/build/fill.h); none: as
    // built.
    std::optional<double> fillLevel;
    std::optional<std::uint64_t> fillBytes;
    std::vector<Metric> metrics;
    std::vector<Series> series; // stored with the metrics, when the run ends ok
};

} // namespace lb
