// The results store: one SQLite file holding hosts, disks, layouts, campaigns, runs with their raw
// output, metrics, and the journal of every command applied to a server (plan_step).
#pragma once

#include "engine/analysis.h"
#include "engine/expected.h"
#include "engine/run.h"
#include "engine/sqlite.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

// Returns the current time as ISO 8601 UTC ("2026-11-29T21:27:12Z"); injectable for tests.
using Clock = std::function<std::string()>;
std::string utcNow();

// Default database path: $LAYOUTBENCH_DB when set, else $XDG_DATA_HOME/layoutbench/results.db,
// else ~/.local/share/layoutbench/results.db.
std::string defaultDatabasePath();

// The kind of the layout an import keeps its runs under until all of them are stored
// (engine/import_stage.h): listings leave such layouts and their runs out.
inline constexpr std::string_view stagedImportKind = "staged-import";

struct LayoutRecord {
    std::int64_t id = 0;
    std::string name;
    std::string kind;
    std::string spec; // JSON
    std::string host;
    std::int64_t runs = 0;
    std::int64_t failedRuns = 0;
};

struct RunSummary {
    std::int64_t id = 0;
    std::int64_t campaignId = 0;
    std::string layout;
    std::string workload;
    std::string probe;
    int iteration = 0;
    RunStatus status = RunStatus::Ok;
    std::string reason;
    std::string startedAt;
    double wallSeconds = 0;
    std::int64_t metrics = 0;
};

// An imported run, as a message about importing its data again names it.
struct ImportedRunRef {
    std::int64_t id = 0;
    std::int64_t layoutId = 0;
    std::string layout;
    std::string source;          // the file it was imported from
    std::int64_t sourceLine = 0; // the line of it the run starts at; 0 when not known
    std::string importedAt;      // ISO 8601 UTC
};

struct CampaignRecord {
    std::int64_t id = 0;
    std::string name;
    std::string scenarioPath;
    std::string status;
    std::string startedAt;
    std::string finishedAt;
    std::int64_t runs = 0;
};

// How a campaign's workloads do their I/O, the same on every layout.
struct CampaignIo {
    bool direct = true;
    std::string why; // "every layout accepts O_DIRECT", "layout 'raidz1' does not accept O_DIRECT"
    bool coldCache = true; // cache = "cold": page cache dropped, ZFS primarycache=metadata
    bool operator==(const CampaignIo&) const = default;
};

// "buffered I/O on every layout (layout 'raidz1' does not accept O_DIRECT); cold cache: ..."
std::string describeCampaignIo(const CampaignIo& io);

// One step of SSD preconditioning before a layout's measured runs (SNIA PTS): the
// workload-independent preconditioning (workload "", round 0) or one steady-state round of a
// workload's own pattern (round 1, 2, ...), with the variable it tracks and its raw output.
// Stored apart from runs: no verdict counts them.
struct ConditioningStep {
    std::int64_t id = 0;
    std::int64_t campaignId = 0;
    std::int64_t layoutId = 0;
    std::string layout; // read back only
    std::string workload;
    int round = 0;
    std::string tracked;                // the metrics summed for the round, "fio.*.iops"
    std::optional<double> value;        // none when the step failed
    std::optional<std::uint64_t> bytes; // what the preconditioning wrote (twice this)
    std::vector<std::string> argv;
    std::optional<int> exitCode;
    std::string stdoutText, stderrText;
    std::string startedAt, finishedAt;
    double wallSeconds = 0;
    std::string error; // why it failed, empty when it did not
};

class Store {
public:
    static constexpr int latestSchemaVersion = 8;

    // Opens (creating if needed) and migrates the database to the latest schema.
    static Expected<Store> open(const std::string& path, Clock clock = utcNow);

    int schemaVersion() const { return schemaVersion_; }
    const std::string& path() const { return db_.path(); }
    sql::Database& database() { return db_; }
    std::string now() const { return clock_(); }

    // A write transaction: everything done before commit() is one unit.
    Expected<sql::Transaction> transaction() { return sql::Transaction::begin(db_); }

    Expected<std::int64_t> ensureHost(const std::string& name,
                                      const std::string& inventoryJson = "{}");
    Expected<std::int64_t> ensureLayout(const std::string& name, const std::string& kind,
                                        const std::string& specJson,
                                        std::optional<std::int64_t> hostId);
    Expected<std::optional<LayoutRecord>> findLayout(const std::string& name);

    // Stores the run with its argv, raw output and metrics; returns its id.
    Expected<std::int64_t> insertRun(std::int64_t layoutId, const Run& run);
    // The first run imported with this content hash (Run::contentHash), if any. Runs that
    // imports still stage are left out, but for those of layout `staging` (the asker's own).
    Expected<std::optional<ImportedRunRef>> importedRunWithContent(const std::string& hash,
                                                                   std::int64_t staging = 0);

    // Campaign runs are written in three steps so nothing is lost and nothing is half-written:
    // beginRun (status 'running', argv), recordRunOutput (raw output, before any parsing), and
    // finishRun (status, reason, caveats and metrics in one transaction).
    Expected<std::int64_t> beginRun(std::int64_t layoutId, const Run& run);
    Expected<void> recordRunOutput(const Run& run);
    Expected<void> finishRun(const Run& run);
    // Adds a note to a finished run (a campaign's own remark on metrics it measured).
    Expected<void> addRunNote(std::int64_t runId, const MetricNote& note);

    // Every metric of every successful run of a layout, grouped by name (sorted); only the
    // campaign's runs when one is given.
    Expected<std::vector<MetricSamples>>
    metricSamples(const std::string& layout, std::optional<std::int64_t> campaignId = std::nullopt);
    // The same with the notes of those runs and the workloads that failed: what a comparison
    // needs of one side.
    Expected<LayoutSamples> layoutSamples(const std::string& layout,
                                          std::optional<std::int64_t> campaignId = std::nullopt);

    // The comparison policy a campaign's scenario set (thresholds, deciding metrics).
    Expected<void> setCampaignPolicy(std::int64_t campaignId, const ComparePolicy& policy);
    Expected<std::optional<ComparePolicy>> campaignPolicy(std::int64_t campaignId);
    // The I/O path a campaign chose for every layout, once it is decided.
    Expected<void> setCampaignIo(std::int64_t campaignId, const CampaignIo& io);
    Expected<std::optional<CampaignIo>> campaignIo(std::int64_t campaignId);
    // Marks a campaign's settled runs of a probe aborted with `reason` (they were measured a
    // way the campaign no longer uses, and run again); how many.
    Expected<std::size_t> supersedeRuns(std::int64_t campaignId, const std::string& probe,
                                        const std::string& reason);
    // Sets a campaign's status (running, done, failed, aborted); `finished` stamps the time it
    // ended, else clears it.
    Expected<void> setCampaignStatus(std::int64_t campaignId, const std::string& status,
                                     bool finished);
    // Marks the campaign's runs still 'running' (layoutbench stopped during them) aborted with
    // `reason`; how many.
    Expected<std::size_t> abortInterruptedRuns(std::int64_t campaignId, const std::string& reason);
    // The campaign of the layout's most recent run, if it came from one.
    Expected<std::optional<std::int64_t>> latestCampaignOf(const std::string& layout);

    // SSD preconditioning and steady-state rounds (engine/store_conditioning.cpp), in the order
    // they ran.
    Expected<std::int64_t> addConditioningStep(const ConditioningStep& step);
    Expected<std::vector<ConditioningStep>> conditioningSteps(std::int64_t campaignId);

    Expected<std::vector<LayoutRecord>> layouts();
    Expected<std::vector<RunSummary>> runs();
    Expected<std::vector<CampaignRecord>> campaigns();

    // "ok" when PRAGMA integrity_check finds nothing.
    Expected<std::string> integrityCheck();

private:
    Store(sql::Database db, Clock clock) : db_(std::move(db)), clock_(std::move(clock)) {}
    Expected<void> migrate();
    Expected<void> insertMetrics(std::int64_t runId, const std::vector<Metric>& metrics);

    sql::Database db_;
    Clock clock_;
    int schemaVersion_ = 0;
};

// Loads both layouts' successful runs and compares every metric they share, and measures the
// baseline's drift over the candidate's campaign. `policy`: the rule to judge by; none: the one
// stored with the candidate's campaign (its scenario's thresholds and [decide]), else the
// defaults. Bad input when a layout does not exist or they share no metric.
Expected<Comparison> compareStoredLayouts(Store& store, const std::string& baseline,
                                          const std::string& candidate,
                                          const std::optional<ComparePolicy>& policy,
                                          std::optional<std::int64_t> campaignId = std::nullopt);

} // namespace lb
