// Raw SQL for the few tests that must reach below the store: a database from a newer or an
// older layoutbench, a campaign that died in the middle, the connection's own settings, a secret
// searched for in every column of every table, a database watched while another process writes
// it. Everything else reads and writes through the
// store's methods; raw_sql.cpp is the one file outside the store allowed to hold SQL (see
// cmake/SqlOwnership.cmake).
#pragma once

#include "engine/store/store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lb::test {

// The store connection's journal mode ("wal").
std::string journalMode(Store& store);

// SQLite's reading of a run's start time as seconds since 1970, as layoutSamples' query once
// made it: (julianday(text) - 2440587.5) * 86400.0, or 0 where julianday() reads nothing.
double julianSeconds(Store& store, const std::string& text);

// The database's page size in bytes.
std::int64_t pageSize(Store& store);

// Whether the store's connection accepts a metric of a run that does not exist (it must not:
// foreign keys are on).
bool acceptsOrphanMetric(Store& store);

// Whether the run table takes a row of this status (nothing is kept).
bool acceptsRunStatus(Store& store, const std::string& status);

// Marks the database as written with schema `version` (99: a newer layoutbench).
void setSchemaVersion(Store& store, int version);

// Takes the database back to schema 18: no index of runs by fill level (run_layout_fill).
void downgradeToSchema18(Store& store);

// Takes the database back to schema 17: runs store no fill level (run.fill_permille and
// run.fill_bytes dropped).
void downgradeToSchema17(Store& store);
// Takes the database back to schema 16: no index of runs by layout and host.
void downgradeToSchema16(Store& store);
// Takes the database back to schema 15: runs name no host of their own (run.host_id dropped).
void downgradeToSchema15(Store& store);
// Takes the database back to schema 14: content hashes of another kind (40 hex digits, as
// SHA-1's were), run_hash filled with them.
void downgradeToSchema14(Store& store);
// Takes the database back to schema 13: every run's output as text.
void downgradeToSchema13(Store& store);
// Takes the database back to schema 12: notes and caveats as text in each run.
void downgradeToSchema12(Store& store);
// Takes the database back to schema 10: no series of runs.
// Schema 11 kept content hashes in an index of run, and checked a run's status with IN.
void downgradeToSchema11(Store& store);
void downgradeToSchema10(Store& store);

// Takes the database back to schema 4: a row per metric, no conditioning table, no content
// hashes, no uids, no source lines and no series.
void downgradeToSchema4(Store& store);

// Runs statements below the store: a cell damaged as a failing disk would leave it, say.
void exec(Store& store, const std::string& sql);

// The first column of the first row of a query (-1, and a failed expectation, when none).
std::int64_t queryInt(Store& store, const std::string& sql);

// Every row of the tables, each column quoted, ids included, in the order of their rowids: what
// two databases must both hold to be the same.
std::string tableRows(Store& store, const std::vector<std::string>& tables);

// Deletes a campaign's runs of one workload and iteration with their metrics, as if the
// campaign had died before running them; how many runs went.
int deleteRuns(Store& store, std::int64_t campaignId, const std::string& workload, int iteration);

// Every "table.column" of the database whose text holds `needle`, and how many tables and
// columns were searched.
struct CellSearch {
    std::vector<std::string> holding;
    int tables = 0;
    int columns = 0;
};
CellSearch cellsHolding(Store& store, const std::string& needle);

// Runs one query on a fresh read-only connection to the database at `path`, which another
// process (layoutbench under test) may be writing: every row, each column as text ("<null>" for
// NULL). None when the database or a table does not exist yet or the query fails (why in
// `error`).
using Rows = std::vector<std::vector<std::string>>;
std::optional<Rows> queryReadOnly(const std::string& path, const std::string& sql,
                                  std::string* error = nullptr);

// SQLite's plan for `sql` (the query, without EXPLAIN QUERY PLAN) on the database at `path`, a
// line a step; empty, with the error in the returned text, when it cannot be read.
std::string queryPlanText(const std::string& path, const std::string& sql);

// Writes `text` as the schema version of the database at `path`, through a connection of its
// own (no store would open a damaged one).
void writeSchemaVersionText(const std::string& path, const std::string& text);

// Another program holding the database's write lock (BEGIN IMMEDIATE) until release() or the
// end of its life.
class WriteLockHolder {
public:
    explicit WriteLockHolder(const std::string& path);
    ~WriteLockHolder();
    WriteLockHolder(const WriteLockHolder&) = delete;
    WriteLockHolder& operator=(const WriteLockHolder&) = delete;
    bool holding() const { return holding_; }
    void release();

private:
    struct sqlite3* db_ = nullptr;
    bool holding_ = false;
};

// The backdoor itself: the store's connection, for the functions above only.
struct StoreBackdoor {
    static sql::Database& database(Store& store) { return store.database(); }
};

} // namespace lb::test
