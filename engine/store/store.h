// The results store: one SQLite file holding hosts, disks, layouts, campaigns, runs with their raw
// output, metrics, and the journal of every command applied to a server (plan_step).
//
// The store owns every statement: nothing outside its modules writes SQL (a configure-time check
// in cmake/SqlOwnership.cmake holds everyone to it). Its modules, one per family of tables:
//   store.cpp            opening, the connection's settings, the statement cache, ids of names
//   store_schema.cpp     the schema and its stepwise migrations
//   store_columns.cpp    columns of many values: JSON lists, packed samples, series and output
//   store_inventory.cpp  hosts, their disks, layouts
//   store_runs.cpp       runs and their metrics, as written and as read back
//   store_samples.cpp    the samples a comparison reads (packed per run, see there)
//   store_series.cpp     what runs measured over their course (fio's per-interval logs)
//   store_campaigns.cpp  campaigns: their scenario, status, policy and I/O path
//   store_conditioning.cpp  SSD preconditioning steps before a layout's measured runs
//   store_imports.cpp    staging layouts that hold a streaming import's runs until it is done
//   store_merge.cpp      another database's results copied in (merge, store_merge.h)
//   journal.cpp          the plan journal (plan_step), through the Journal type (journal.h)
#pragma once

#include "engine/base/expected.h"
#include "engine/base/names.h"
#include "engine/measure/analysis.h"
#include "engine/measure/run.h"
#include "engine/measure/series.h"
#include "engine/store/background_checkpoints.h"
#include "engine/store/sqlite.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lb {

namespace test {
struct StoreBackdoor; // tests/support/raw_sql.h: raw SQL for tests that corrupt a database
}
class StatementLease; // engine/store/store_internal.h
struct MergeRequest;  // engine/store/store_merge.h
struct MergeSummary;

// Returns the current time as ISO 8601 UTC ("2026-11-29T21:27:12Z"); injectable for tests.
using Clock = std::function<std::string()>;
std::string utcNow();

// Default database path: $LAYOUTBENCH_DB when set, else $XDG_DATA_HOME/layoutbench/results.db,
// else ~/.local/share/layoutbench/results.db.
std::string defaultDatabasePath();

enum class CampaignStatus { Running, Done, Failed, Aborted };
template <> struct EnumNames<CampaignStatus> {
    static constexpr std::array<std::pair<CampaignStatus, std::string_view>, 4> table{{
        {CampaignStatus::Running, "running"},
        {CampaignStatus::Done, "done"},
        {CampaignStatus::Failed, "failed"},
        {CampaignStatus::Aborted, "aborted"},
    }};
};
// The kind of the layout an import keeps its runs under until all of them are stored
// (engine/store/import_stage.h): listings leave such layouts and their runs out.
inline constexpr std::string_view stagedImportKind = "staged-import";

struct LayoutRecord {
    std::int64_t id = 0;
    std::string name;
    std::string kind;
    std::string spec; // JSON, written and read by engine/build/layout_spec.h
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
    std::string host;                // the machine it ran on; empty when the store does not know
    std::optional<double> fillLevel; // the fill level it ran at; none: as built
    std::optional<std::uint64_t> fillBytes; // what the ageing wrote to reach it
};

// A run as stored, for reports and for looking at what a campaign did. Raw output only when asked
// for (RunQuery::output).
struct StoredRun {
    std::int64_t id = 0;
    std::int64_t campaignId = 0; // 0: imported
    std::string layout;
    std::string workload;
    std::string probe;
    int iteration = 0;
    RunStatus status = RunStatus::Ok;
    std::string reason;
    std::vector<std::string> argv;
    std::optional<int> exitCode;
    std::string stdoutText;
    std::string stderrText;
    std::string toolVersion;
    std::string startedAt;
    std::string finishedAt;
    double wallSeconds = 0;
    std::vector<std::string> caveats;
    std::vector<MetricNote> notes;
    std::string source;
    RunOrigin origin;
    std::int64_t metrics = 0;        // how many
    std::string host;                // the machine it ran on; empty when the store does not know
    std::optional<double> fillLevel; // the fill level it ran at; none: as built
    std::optional<std::uint64_t> fillBytes; // what the ageing wrote to reach it
};

struct RunQuery {
    std::optional<std::int64_t> campaignId; // none: every run
    enum class Output { None, FailedStderr, All };
    Output output = Output::None; // FailedStderr: stderr of the runs that did not end ok
};

// A fill level (a share of the usable space) as the store keeps it, in thousandths, and back.
inline std::optional<int> fillPermille(std::optional<double> level) {
    if (!level)
        return std::nullopt;
    return static_cast<int>(*level * 1000.0 + 0.5);
}
inline double fillLevelOf(int permille) {
    return permille / 1000.0;
}
// The level of runs measured as built, where levels are picked and listed.
inline constexpr int asBuiltPermille = -1;

// A run's place in a campaign: what is done and what is missing is counted in these.
struct RunSlot {
    std::string layout;
    std::string workload;
    int iteration = 0;
    // The fill level it runs at, in thousandths of the usable space; none: as built.
    std::optional<int> fillPermille;
    auto operator<=>(const RunSlot&) const = default;
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

// How far the ids of the rows an import may add had gone before it (Store::importMarks): what it
// added after them, and no run names, is deleted when it is refused.
struct ImportMarks {
    std::int64_t host = 0;
    std::int64_t text = 0;
    std::int64_t metricName = 0;
    std::int64_t run = 0;
};

// Two runs of one import with the same data.
struct RepeatedContent {
    ImportedRunRef first;
    ImportedRunRef again;
};

struct CampaignRecord {
    std::int64_t id = 0;
    std::string name;
    std::string scenarioPath;
    CampaignStatus status = CampaignStatus::Running;
    std::string startedAt;
    std::string finishedAt;
    std::int64_t runs = 0;
};

// What a campaign keeps of where it ran and what it ran.
struct StoredCampaign {
    std::int64_t id = 0;
    std::string name;
    std::string scenarioPath;
    std::string scenario; // the scenario's text, secrets masked
    std::string inventory = "{}";
    CampaignStatus status = CampaignStatus::Running;
    std::string startedAt;
    std::string finishedAt;
};

struct NewCampaign {
    std::string name;
    std::string scenarioPath;
    std::string scenario;
    std::optional<std::int64_t> hostId;
    std::string inventory = "{}";
};

// A disk of a host as lsblk saw it.
struct DiskRecord {
    std::string path;
    std::optional<std::string> model;
    std::optional<std::string> serial;
    std::optional<std::int64_t> sizeBytes;
    std::optional<bool> rotational;
    bool operator==(const DiskRecord&) const = default;
};

// Runs of a layout in one campaign: all of them and those that did not end ok.
struct LayoutRunCounts {
    std::int64_t runs = 0;
    std::int64_t notOk = 0;
};

// How a campaign's workloads do their I/O, the same on every layout.
struct CampaignIo {
    bool direct = true;
    std::string why; // "every layout accepts O_DIRECT", "layout 'raidz1' does not accept O_DIRECT"
    bool coldCache = true; // cache = "cold": page cache dropped, ZFS primarycache=metadata
    // Whether the page cache was dropped before each run: cache = "cold" with drop_caches =
    // true (the default). The runs' own caveats say where a drop failed.
    bool pageCacheDropped = true;
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
    static constexpr int latestSchemaVersion = 19;

    // Opens (creating if needed) and migrates the database to the latest schema.
    static Expected<Store> open(const std::string& path, Clock clock = utcNow);
    // A second connection to a database open() has migrated, for reading beside the first one
    // (WAL lets both work at once); an error when its schema is not the latest.
    static Expected<Store> openReader(const std::string& path, Clock clock = utcNow);

    Store(Store&&) noexcept;
    Store& operator=(Store&&) noexcept;
    ~Store();

    int schemaVersion() const { return schemaVersion_; }
    const std::string& path() const { return db_.path(); }
    std::string now() const { return clock_(); }

    // A write transaction: everything done before commit() is one unit.
    Expected<sql::Transaction> transaction() { return sql::Transaction::begin(db_); }
    // Whether reads map the database file (the default) or copy its pages into the page cache.
    // A long import turns mapping off: every page it reads would stay mapped, counted in its
    // resident memory, up to the map's 1 GiB.
    Expected<void> mapReads(bool on);
    // The WAL checkpointed on a thread of its own, after each commit, until the result is
    // destroyed (before the store): for a writer committing batch after batch. Past `walPages`
    // pages in the WAL, a commit waits for its checkpoint (sql::BackgroundCheckpoints).
    Expected<std::unique_ptr<sql::BackgroundCheckpoints>>
    checkpointInBackground(int walPages = sql::defaultCheckpointPages);

    // --- hosts, disks, layouts (store_inventory.cpp)
    Expected<std::int64_t> ensureHost(const std::string& name,
                                      const std::string& inventoryJson = "{}");
    // The inventory JSON of a host ("{}" when there is no such host).
    Expected<std::string> hostInventory(const std::string& host);
    // Records a host's disks, updating those seen before (by path).
    Expected<void> recordDisks(std::int64_t hostId, const std::vector<DiskRecord>& disks);
    Expected<std::int64_t> ensureLayout(const std::string& name, const std::string& kind,
                                        const std::string& specJson,
                                        std::optional<std::int64_t> hostId);
    Expected<std::optional<LayoutRecord>> findLayout(const std::string& name);
    Expected<std::vector<LayoutRecord>> layouts();
    // "no layout named 'raidz' in PATH (did you mean 'zfs-raidz2'?)", or with the layouts it
    // holds listed when none is near: what `field` says when a layout is not found.
    Error noLayoutNamed(std::string_view field, const std::string& typed);

    // --- runs (store_runs.cpp)
    // Stores the run with its argv, raw output and metrics; returns its id.
    Expected<std::int64_t> insertRun(std::int64_t layoutId, const Run& run);
    // The first run imported with this content hash (Run::contentHash), if any. Runs that
    // imports still stage are left out: their hashes are indexed when they are published.
    // Only the first run with a hash is indexed (run_hash), the hash of one imported again
    // (--allow-duplicate) naming the first.
    Expected<std::optional<ImportedRunRef>> importedRunWithContent(const std::string& hash);

    // Campaign runs are written in three steps so nothing is lost and nothing is half-written:
    // beginRun (status 'running', argv), recordRunOutput (raw output, before any parsing), and
    // finishRun (status, reason, caveats and metrics in one transaction).
    Expected<std::int64_t> beginRun(std::int64_t layoutId, const Run& run);
    Expected<void> recordRunOutput(const Run& run);
    Expected<void> finishRun(const Run& run);
    // Adds a note to a finished run (a campaign's own remark on metrics it measured).
    Expected<void> addRunNote(std::int64_t runId, const MetricNote& note);
    // Marks a campaign's settled runs of a probe aborted with `reason` (they were measured a
    // way the campaign no longer uses, and run again); how many.
    Expected<std::size_t> supersedeRuns(std::int64_t campaignId, const std::string& probe,
                                        const std::string& reason);
    // Marks the campaign's runs still 'running' (layoutbench stopped during them) aborted with
    // `reason`; how many.
    Expected<std::size_t> abortInterruptedRuns(std::int64_t campaignId, const std::string& reason);
    // Staging layouts (kind stagedImportKind, engine/store/import_stage.h): their ids; deleting one
    // with its runs; making one the layout `name` (a new layout); moving its runs into the
    // existing `layoutId`, their iterations numbered on from what it holds, and deleting it.
    Expected<std::vector<std::int64_t>> stagedLayouts();
    Expected<void> deleteStagedLayout(std::int64_t layoutId);
    // Before an import: how far the ids of hosts, run texts, metric names and runs had gone.
    // After a refused one (its staged runs deleted): the hosts and run texts added since that
    // nothing names, and the metric names added since when no run was added since (those are
    // named inside runs' packed samples).
    Expected<ImportMarks> importMarks();
    Expected<void> deleteImportLeftovers(const ImportMarks& marks);
    Expected<void> adoptStagedLayout(std::int64_t stagingId, const std::string& name,
                                     const std::string& kind, const std::string& specJson,
                                     std::int64_t hostId);
    Expected<void> moveStagedRuns(std::int64_t stagingId, std::int64_t layoutId);
    // Stages a run under a staging layout: as insertRun, but its content hash is not indexed
    // (every run would land anywhere in that index, and at millions of runs each batch would
    // rewrite all of it) until publishStagedContent indexes those of all staged runs at once,
    // in order: how many were new (a hash held already keeps the run it names).
    Expected<std::int64_t> stageRun(std::int64_t stagingId, const Run& run);
    Expected<std::int64_t> publishStagedContent(std::int64_t stagingId);
    // After publishStagedContent: the first staged run (in the order staged) whose data an
    // earlier run has, staged or published, with that run.
    Expected<std::optional<RepeatedContent>> repeatedStagedContent(std::int64_t stagingId);
    // The campaign's runs that ended ok or failed: done, not to be run again.
    Expected<std::vector<RunSlot>> settledRuns(std::int64_t campaignId);
    // How many runs of each workload a layout holds (imports number their iterations on).
    Expected<std::map<std::string, int>> workloadRunCounts(std::int64_t layoutId);
    // The campaign of the layout's most recent run, if it came from one.
    Expected<std::optional<std::int64_t>> latestCampaignOf(const std::string& layout);
    // The campaigns a layout's runs belong to (0 for imported runs), sorted.
    Expected<std::vector<std::int64_t>> campaignsOfLayout(std::int64_t layoutId);
    Expected<std::vector<RunSummary>> runs();
    // Runs with what they recorded, in the order they were stored.
    Expected<std::vector<StoredRun>> storedRuns(const RunQuery& query = {});
    // The metrics of one run, by name.
    Expected<std::vector<Metric>> runMetrics(std::int64_t runId);

    // --- samples (store_samples.cpp)
    // Every metric of every successful run of a layout, grouped by name (sorted); only the
    // campaign's runs when one is given.
    Expected<std::vector<MetricSamples>>
    metricSamples(const std::string& layout, std::optional<std::int64_t> campaignId = std::nullopt);
    // The same with the notes of those runs and the workloads that failed: what a comparison
    // needs of one side.
    // `host`: only the runs measured on that machine. `fillPermille`: only the runs measured at
    // that fill level (asBuiltPermille: those measured as built); none: every run.
    Expected<LayoutSamples> layoutSamples(const std::string& layout,
                                          std::optional<std::int64_t> campaignId = std::nullopt,
                                          const std::optional<std::string>& host = std::nullopt,
                                          std::optional<int> fillPermille = std::nullopt);
    // The fill levels a layout's settled runs were measured at, in thousandths, ascending, with
    // asBuiltPermille for runs measured as built (store_fill.cpp); only the campaign's runs when
    // one is given.
    Expected<std::vector<int>>
    layoutFillLevels(const std::string& layout,
                     std::optional<std::int64_t> campaignId = std::nullopt);
    // The machines a layout's settled runs (ok or failed) were measured on, sorted; only the
    // campaign's runs when one is given. Runs of no known host are not counted.
    Expected<std::vector<std::string>>
    layoutHosts(const std::string& layout, std::optional<std::int64_t> campaignId = std::nullopt);

    // --- series (store_series.cpp): written with a run's metrics (insertRun, finishRun)
    // The series of one run, sorted by name.
    Expected<std::vector<Series>> runSeries(std::int64_t runId);
    // The series of every successful run of a layout that has any, in run order; only the
    // campaign's runs when one is given, only those measured on `host` when one is.
    Expected<std::vector<RunSeries>>
    layoutSeries(const std::string& layout, std::optional<std::int64_t> campaignId = std::nullopt,
                 const std::optional<std::string>& host = std::nullopt);

    // --- campaigns (store_campaigns.cpp)
    Expected<std::int64_t> createCampaign(const NewCampaign& campaign);
    // Sets the status; `finished` stamps the time it ended, else clears it.
    Expected<void> setCampaignStatus(std::int64_t campaignId, CampaignStatus status, bool finished);
    Expected<std::optional<StoredCampaign>> campaign(std::int64_t campaignId);
    // The layouts with runs in the campaign and how many.
    Expected<std::map<std::string, LayoutRunCounts>> campaignLayoutRuns(std::int64_t campaignId);
    // The comparison policy a campaign's scenario set (thresholds, deciding metrics).
    Expected<void> setCampaignPolicy(std::int64_t campaignId, const ComparePolicy& policy);
    Expected<std::optional<ComparePolicy>> campaignPolicy(std::int64_t campaignId);
    // The I/O path a campaign chose for every layout, once it is decided.
    Expected<void> setCampaignIo(std::int64_t campaignId, const CampaignIo& io);
    Expected<std::optional<CampaignIo>> campaignIo(std::int64_t campaignId);
    Expected<std::vector<CampaignRecord>> campaigns();

    // --- SSD preconditioning and steady-state rounds (store_conditioning.cpp), in the order
    // they ran.
    Expected<std::int64_t> addConditioningStep(const ConditioningStep& step);
    Expected<std::vector<ConditioningStep>> conditioningSteps(std::int64_t campaignId);

    // "ok" when PRAGMA integrity_check finds nothing.
    Expected<std::string> integrityCheck();

private:
    friend class Journal;
    // Another database is attached to this connection and copied table by table
    // (store_merge.cpp).
    friend Expected<MergeSummary> mergeDatabase(Store& store, const MergeRequest& request);
    friend struct test::StoreBackdoor;
    struct Cache; // prepared statements, metric and text ids, per connection

    Store(sql::Database db, Clock clock);
    sql::Database& database() { return db_; }
    Expected<void> migrate();
    Expected<int> storedSchemaVersion(); // meta's, 0 when it has none
    // The prepared statement for `sql` (a string literal: it is cached by address), made once
    // per connection; the lease resets it.
    Expected<StatementLease> statement(const char* sql);
    // insertRun and stageRun; `indexContent` adds the run's content hash to run_hash.
    Expected<std::int64_t> insertRunRow(std::int64_t layoutId, const Run& run, bool indexContent);
    Expected<ImportedRunRef> importedRun(std::int64_t runId);
    Expected<void> insertMetrics(std::int64_t runId, const std::vector<Metric>& metrics);
    Expected<void> insertSeries(std::int64_t runId, const std::vector<Series>& series);
    // A metric's id in metric_name, made when new.
    Expected<std::int64_t> metricId(const Metric& metric);
    // The name and unit of each metric id, by id; read again when `newestId` is not known yet.
    struct MetricKind {
        std::string name;
        Unit unit = Unit::Count;
    };
    Expected<const std::vector<MetricKind>*> metricKinds(std::int64_t newestId);
    // The id in run_text of a run's notes or caveats (their JSON), made when new; none for the
    // empty list. runText reads one back ("[]" for none).
    Expected<std::optional<std::int64_t>> textId(const std::string& text);
    // The id of the host a run names, made when new; none for no name.
    Expected<std::optional<std::int64_t>> runHostId(const std::string& name);
    Expected<std::string> runText(std::optional<std::int64_t> id);

    sql::Database db_;
    Clock clock_;
    int schemaVersion_ = 0;
    std::unique_ptr<Cache> cache_;
};

// The machine each side of a comparison takes its runs from: one for both (compare --host), or
// one each, to put host against host (--baseline-host, --candidate-host), the same layout on
// both sides or not. Unset: the side's layout must hold one machine's runs.
struct HostChoice {
    std::optional<std::string> baseline, candidate;
    HostChoice() = default;
    HostChoice(std::nullopt_t) {}
    // One machine for both sides; implicit, as `host` was before sides could differ.
    HostChoice(const std::optional<std::string>& both) : baseline(both), candidate(both) {}
    HostChoice(std::optional<std::string> b, std::optional<std::string> c)
        : baseline(std::move(b)), candidate(std::move(c)) {}
};

// The one machine a side of a comparison (`side`: baseline, candidate) is measured on: the rule
// every comparison keeps, the command line's, the report's and the desktop app's. A layout whose
// settled runs (of `campaignId` when given) come from several hosts is refused, bad input naming
// `field` (host; baseline_host or candidate_host when the sides are picked apart) and the hosts,
// unless `host` picks one; a picked host the layout has no runs on is refused naming those it
// has. The picked host, else the only one; none when no run names one.
Expected<std::optional<std::string>> comparedHost(Store& store, std::string_view side,
                                                  const std::string& layout,
                                                  std::optional<std::int64_t> campaignId,
                                                  const std::optional<std::string>& host,
                                                  std::string_view field = "host");

// Both layouts' successful runs (layoutSamples, of `campaignId` when given), each checked to
// exist: bad input naming the field (baseline, candidate) when one does not. Runs of different
// machines are never mixed: a layout whose runs come from several hosts is refused (bad input
// naming the field host, or baseline_host/candidate_host when the sides were given apart, and
// the hosts) unless `hosts` picks one, and then that side is that host's runs (refused the same
// way when a layout has none there).
// Runs at different fill levels are never mixed either (comparedFillLevel): both sides are the
// runs at one level, `fill`'s, else the one level both hold.
struct ComparedSamples {
    LayoutSamples baseline, candidate;
    std::optional<int> fillPermille; // the level compared; none: every run was as built
};
Expected<ComparedSamples> loadComparedSamples(Store& store, const std::string& baseline,
                                              const std::string& candidate,
                                              std::optional<std::int64_t> campaignId = std::nullopt,
                                              const HostChoice& hosts = {},
                                              std::optional<int> fill = std::nullopt);

// The fill level a comparison takes both sides' runs at (store_fill.cpp): the rule every
// comparison keeps, a candidate at 80 % against the baseline at 80 %, never levels mixed.
// `pick` (thousandths, asBuiltPermille for runs measured as built): that level, refused (bad
// input naming the field fill and the levels it has) when a side has no runs there. None: the
// one level both sides hold; refused when a side holds several or the sides hold different ones.
// None back when neither side holds a run measured at a fill level.
Expected<std::optional<int>> comparedFillLevel(Store& store, const std::string& baseline,
                                               const std::string& candidate,
                                               std::optional<std::int64_t> campaignId,
                                               std::optional<int> pick);

// A candidate against the baseline at every fill level both hold, like with like, lowest first
// (store_fill.cpp); the levels only one side holds named, and the sentence that says where the
// candidate's verdict changes (fillVerdictSummary), made here once for every output.
struct FillLevelComparison {
    int permille = 0;
    Comparison comparison;
};
struct FillCurve {
    std::string baseline, candidate;
    std::vector<FillLevelComparison> levels;
    std::vector<int> onlyBaseline, onlyCandidate; // levels not compared
    std::string summary;
};
Expected<FillCurve> compareAtFillLevels(Store& store, const std::string& baseline,
                                        const std::string& candidate,
                                        const std::optional<ComparePolicy>& policy,
                                        std::optional<std::int64_t> campaignId = std::nullopt,
                                        const HostChoice& hosts = {});

// The rule stored with the candidate's campaign (`campaignId`, else the newest it ran in): its
// scenario's thresholds and [decide]; the defaults when it has none (imported results).
Expected<ComparePolicy> storedPolicy(Store& store, const std::string& candidate,
                                     std::optional<std::int64_t> campaignId = std::nullopt);

// Loads both layouts' successful runs and compares every metric they share, and measures the
// baseline's drift over the candidate's campaign. `policy`: the rule to judge by; none: the one
// stored with the candidate's campaign (its scenario's thresholds and [decide]), else the
// defaults. Bad input naming the field (baseline, candidate) when a layout does not exist, or
// when they share no metric; runs of several hosts as loadComparedSamples says.
Expected<Comparison> compareStoredLayouts(Store& store, const std::string& baseline,
                                          const std::string& candidate,
                                          const std::optional<ComparePolicy>& policy,
                                          std::optional<std::int64_t> campaignId = std::nullopt,
                                          const HostChoice& hosts = {},
                                          std::optional<int> fill = std::nullopt);

// The same for samples loaded already (layoutSamples, with the same campaign): a front end that
// shows every layout loads each once.
Expected<Comparison> compareLoadedLayouts(Store& store, const std::string& baseline,
                                          const LayoutSamples& baselineSamples,
                                          const std::string& candidate,
                                          const LayoutSamples& candidateSamples,
                                          const std::optional<ComparePolicy>& policy,
                                          std::optional<std::int64_t> campaignId = std::nullopt);

} // namespace lb
