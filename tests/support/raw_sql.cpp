// Raw SQL for tests (see raw_sql.h).
#include "tests/support/raw_sql.h"

#include "engine/base/output_codec.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

namespace lb::test {

std::string journalMode(Store& store) {
    auto q = StoreBackdoor::database(store).prepare("PRAGMA journal_mode");
    EXPECT_TRUE(q);
    if (!q)
        return {};
    auto row = q->step();
    return row && *row ? q->columnText(0) : std::string();
}

double julianSeconds(Store& store, const std::string& text) {
    auto q = StoreBackdoor::database(store).prepare(
        "SELECT COALESCE((julianday(?1) - 2440587.5) * 86400.0, 0)");
    EXPECT_TRUE(q);
    if (!q)
        return -1;
    auto row = q->bind(1, text).step();
    return row && *row ? q->columnDouble(0) : -1;
}

std::int64_t pageSize(Store& store) {
    auto q = StoreBackdoor::database(store).prepare("PRAGMA page_size");
    EXPECT_TRUE(q);
    if (!q)
        return 0;
    auto row = q->step();
    return row && *row ? q->columnInt(0) : 0;
}

bool acceptsOrphanMetric(Store& store) {
    auto ins = StoreBackdoor::database(store).prepare(
        "INSERT INTO run_sample(run_id, data) VALUES(999999, x'000000000000000000000000')");
    EXPECT_TRUE(ins);
    return ins && ins->run();
}

bool acceptsRunStatus(Store& store, const std::string& status) {
    auto& db = StoreBackdoor::database(store);
    EXPECT_TRUE(db.exec("SAVEPOINT status_probe"));
    auto layout = db.exec("INSERT INTO layout(name, kind, spec, created_at) VALUES('status "
                          "probe', 'dir', '{}', '2026-01-01T00:00:00Z')");
    EXPECT_TRUE(layout) << (layout ? "" : layout.error().message);
    auto ins = db.prepare("INSERT INTO run(layout_id, workload, probe, iteration, status) "
                          "VALUES(last_insert_rowid(), 'w', 'p', 0, ?1)");
    EXPECT_TRUE(ins);
    const bool accepted = ins && ins->bind(1, status).run();
    EXPECT_TRUE(db.exec("ROLLBACK TO status_probe; RELEASE status_probe"));
    return accepted;
}

void exec(Store& store, const std::string& sql) {
    auto done = StoreBackdoor::database(store).exec(sql);
    ASSERT_TRUE(done) << done.error().message;
}

void setSchemaVersion(Store& store, int version) {
    auto q = StoreBackdoor::database(store).prepare(
        "UPDATE meta SET value = ?1 WHERE key = 'schema_version'");
    ASSERT_TRUE(q);
    ASSERT_TRUE(q->bind(1, std::to_string(version)).run());
}

void downgradeToSchema18(Store& store) {
    ASSERT_TRUE(StoreBackdoor::database(store).exec("DROP INDEX run_layout_fill"));
    setSchemaVersion(store, 18);
}

void downgradeToSchema17(Store& store) {
    downgradeToSchema18(store);
    ASSERT_TRUE(StoreBackdoor::database(store).exec(
        "ALTER TABLE run DROP COLUMN fill_permille; ALTER TABLE run DROP COLUMN fill_bytes"));
    setSchemaVersion(store, 17);
}

void downgradeToSchema16(Store& store) {
    downgradeToSchema17(store);
    ASSERT_TRUE(StoreBackdoor::database(store).exec("DROP INDEX run_layout_host"));
    setSchemaVersion(store, 16);
}

void downgradeToSchema15(Store& store) {
    downgradeToSchema16(store);
    ASSERT_TRUE(StoreBackdoor::database(store).exec("ALTER TABLE run DROP COLUMN host_id"));
    setSchemaVersion(store, 15);
}

void downgradeToSchema14(Store& store) {
    downgradeToSchema15(store);
    ASSERT_TRUE(StoreBackdoor::database(store).exec(
        "UPDATE run SET content_hash = content_hash || '00000000' WHERE content_hash IS NOT NULL; "
        "DELETE FROM run_hash; INSERT OR IGNORE INTO run_hash(hash, run_id) SELECT r.content_hash, "
        "r.id FROM run r JOIN layout l ON l.id = r.layout_id WHERE r.content_hash IS NOT NULL AND "
        "l.kind != 'staged-import' ORDER BY 1, 2"));
    setSchemaVersion(store, 14);
}

void downgradeToSchema13(Store& store) {
    downgradeToSchema14(store);
    auto& db = StoreBackdoor::database(store);
    std::vector<std::pair<std::int64_t, std::string>> texts;
    {
        auto q = db.prepare("SELECT id, stdout FROM run WHERE typeof(stdout) = 'blob'");
        ASSERT_TRUE(q);
        ASSERT_TRUE(q->forEachRow([&](sql::Statement& row) {
            auto text = unpackOutput(row.columnBlob(1));
            ASSERT_TRUE(text) << text.error().message;
            texts.emplace_back(row.columnInt(0), std::move(*text));
        }));
    }
    auto write = db.prepare("UPDATE run SET stdout = ?1 WHERE id = ?2");
    ASSERT_TRUE(write);
    for (const auto& [id, text] : texts)
        ASSERT_TRUE(write->bind(1, text).bind(2, id).run());
    setSchemaVersion(store, 13);
}

void downgradeToSchema12(Store& store) {
    downgradeToSchema13(store);
    // Notes and caveats as text in each run again.
    ASSERT_TRUE(StoreBackdoor::database(store).exec(
        "ALTER TABLE run ADD COLUMN notes TEXT NOT NULL DEFAULT '[]'; "
        "ALTER TABLE run ADD COLUMN caveats TEXT NOT NULL DEFAULT '[]'; "
        "UPDATE run SET notes = (SELECT text FROM run_text WHERE id = notes_id) WHERE notes_id IS "
        "NOT NULL; UPDATE run SET caveats = (SELECT text FROM run_text WHERE id = caveats_id) "
        "WHERE caveats_id IS NOT NULL; ALTER TABLE run DROP COLUMN notes_id; "
        "ALTER TABLE run DROP COLUMN caveats_id; DROP TABLE run_text"));
    setSchemaVersion(store, 12);
}

void downgradeToSchema11(Store& store) {
    downgradeToSchema12(store);
    auto& db = StoreBackdoor::database(store);
    ASSERT_TRUE(db.exec("DROP TABLE run_hash; CREATE INDEX run_content_hash ON run(content_hash) "
                        "WHERE content_hash IS NOT NULL"));
    // The status check as schema 11 wrote it; the schema is read again on the next statement.
    ASSERT_TRUE(
        db.exec("PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(sql, "
                "'CHECK(status = ''ok'' OR status = ''failed'' OR status = ''aborted'' OR status = "
                "''running'')', 'CHECK(status IN (''ok'', ''failed'', ''aborted'', ''running''))') "
                "WHERE name = 'run'; PRAGMA writable_schema = OFF"));
    auto version = db.prepare("PRAGMA schema_version");
    ASSERT_TRUE(version && *version->step());
    ASSERT_TRUE(db.exec("PRAGMA schema_version = " + std::to_string(version->columnInt(0) + 1)));
    setSchemaVersion(store, 11);
}

void downgradeToSchema10(Store& store) {
    downgradeToSchema11(store);
    ASSERT_TRUE(StoreBackdoor::database(store).exec("DROP TABLE run_series"));
    setSchemaVersion(store, 10);
}

void downgradeToSchema4(Store& store) {
    // Schema 4 kept a row per metric; the store's reading of each run's metrics fills them in.
    auto runs = store.runs();
    ASSERT_TRUE(runs);
    downgradeToSchema12(store);
    auto& db = StoreBackdoor::database(store);
    ASSERT_TRUE(db.exec("CREATE TABLE metric(id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL "
                        "REFERENCES run(id) ON DELETE CASCADE, name TEXT NOT NULL, value REAL NOT "
                        "NULL, unit TEXT NOT NULL, UNIQUE(run_id, name))"));
    auto ins = db.prepare("INSERT INTO metric(run_id, name, value, unit) VALUES(?1, ?2, ?3, ?4)");
    ASSERT_TRUE(ins);
    for (const auto& run : *runs) {
        auto metrics = store.runMetrics(run.id);
        ASSERT_TRUE(metrics);
        for (const auto& m : *metrics)
            ASSERT_TRUE(ins->bind(1, run.id)
                            .bind(2, m.name)
                            .bind(3, m.value)
                            .bind(4, unitName(m.unit))
                            .run());
    }
    ASSERT_TRUE(db.exec("DROP TABLE run_sample; DROP TABLE metric_name; DROP TABLE run_series; "
                        "DROP TABLE run_hash"));
    // Schemas 5 to 8: conditioning steps, content hashes, uids, the source line of imports.
    ASSERT_TRUE(db.exec("DROP TRIGGER IF EXISTS run_uid; DROP TRIGGER campaign_uid; "
                        "DROP TRIGGER plan_step_uid; DROP INDEX run_uid; DROP INDEX campaign_uid; "
                        "DROP INDEX plan_step_uid; DROP TABLE conditioning; "
                        "ALTER TABLE run DROP COLUMN content_hash; "
                        "ALTER TABLE run DROP COLUMN uid; ALTER TABLE campaign DROP COLUMN uid; "
                        "ALTER TABLE plan_step DROP COLUMN uid; "
                        "ALTER TABLE run DROP COLUMN source_line"));
    setSchemaVersion(store, 4);
}

std::int64_t queryInt(Store& store, const std::string& sql) {
    auto q = StoreBackdoor::database(store).prepare(sql);
    EXPECT_TRUE(q) << sql;
    if (!q)
        return -1;
    auto row = q->step();
    EXPECT_TRUE(row && *row) << sql;
    return row && *row ? q->columnInt(0) : -1;
}

std::string tableRows(Store& store, const std::vector<std::string>& tables) {
    auto& db = StoreBackdoor::database(store);
    std::string out;
    for (const auto& table : tables) {
        std::string columns;
        auto info = db.prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid");
        EXPECT_TRUE(info);
        if (!info)
            return out;
        info->bind(1, table);
        EXPECT_TRUE(info->forEachRow([&](sql::Statement& row) {
            columns += (columns.empty() ? "quote(" : " || '|' || quote(") + row.columnText(0) + ")";
        }));
        auto q = db.prepare("SELECT " + columns + " FROM " + table + " ORDER BY rowid");
        EXPECT_TRUE(q) << table;
        if (!q)
            return out;
        out += "== " + table + "\n";
        EXPECT_TRUE(q->forEachRow([&](sql::Statement& row) { out += row.columnText(0) + "\n"; }));
    }
    return out;
}

int deleteRuns(Store& store, std::int64_t campaignId, const std::string& workload, int iteration) {
    auto& db = StoreBackdoor::database(store);
    auto metrics = db.prepare("DELETE FROM run_sample WHERE run_id IN (SELECT id FROM run WHERE "
                              "campaign_id = ?1 AND workload = ?2 AND iteration = ?3)");
    EXPECT_TRUE(metrics);
    if (!metrics || !metrics->bind(1, campaignId).bind(2, workload).bind(3, iteration).run())
        return -1;
    auto runs =
        db.prepare("DELETE FROM run WHERE campaign_id = ?1 AND workload = ?2 AND iteration = ?3");
    EXPECT_TRUE(runs);
    if (!runs || !runs->bind(1, campaignId).bind(2, workload).bind(3, iteration).run())
        return -1;
    return db.changes();
}

CellSearch cellsHolding(Store& store, const std::string& needle) {
    auto& db = StoreBackdoor::database(store);
    CellSearch out;
    std::vector<std::string> tables;
    auto t = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'");
    EXPECT_TRUE(t && t->forEachRow([&](sql::Statement& r) { tables.push_back(r.columnText(0)); }));
    for (const auto& table : tables) {
        ++out.tables;
        std::vector<std::string> cols;
        auto c = db.prepare("SELECT name FROM pragma_table_info(?1)");
        EXPECT_TRUE(c);
        if (!c)
            continue;
        c->bind(1, table);
        EXPECT_TRUE(c->forEachRow([&](sql::Statement& r) { cols.push_back(r.columnText(0)); }));
        for (const auto& col : cols) {
            ++out.columns;
            // Names come from the schema itself, never from input.
            auto q = db.prepare("SELECT COUNT(*) FROM \"" + table + "\" WHERE instr(CAST(\"" + col +
                                "\" AS TEXT), ?1) > 0");
            EXPECT_TRUE(q) << (q ? "" : q.error().message);
            if (!q)
                continue;
            q->bind(1, needle);
            auto row = q->step();
            if (row && *row && q->columnInt(0) > 0)
                out.holding.push_back(table + "." + col);
        }
    }
    return out;
}

std::string queryPlanText(const std::string& path, const std::string& sql) {
    std::string error;
    const auto plan = queryReadOnly(path, "EXPLAIN QUERY PLAN " + sql, &error);
    if (!plan)
        return "no plan: " + error;
    std::string out;
    for (const auto& row : *plan)
        out += row.back() + "\n";
    return out;
}

std::optional<Rows> queryReadOnly(const std::string& path, const std::string& sql,
                                  std::string* error) {
    sqlite3* h = nullptr;
    if (sqlite3_open_v2(path.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        if (error)
            *error = h ? sqlite3_errmsg(h) : "cannot open";
        sqlite3_close(h);
        return std::nullopt;
    }
    sqlite3_busy_timeout(h, 5000);
    sqlite3_stmt* st = nullptr;
    std::optional<Rows> rows;
    if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK) {
        rows.emplace();
        int rc = 0;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            std::vector<std::string> row;
            for (int c = 0; c < sqlite3_column_count(st); ++c) {
                const unsigned char* t = sqlite3_column_text(st, c);
                row.emplace_back(t ? reinterpret_cast<const char*>(t) : "<null>");
            }
            rows->push_back(std::move(row));
        }
        if (rc != SQLITE_DONE)
            rows.reset();
    }
    if (!rows && error)
        *error = sqlite3_errmsg(h);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return rows;
}

void writeSchemaVersionText(const std::string& path, const std::string& text) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK) << path;
    sqlite3_stmt* q = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "UPDATE meta SET value = ?1 WHERE key = 'schema_version'", -1,
                                 &q, nullptr),
              SQLITE_OK);
    sqlite3_bind_text(q, 1, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    EXPECT_EQ(sqlite3_step(q), SQLITE_DONE) << sqlite3_errmsg(db);
    sqlite3_finalize(q);
    sqlite3_close(db);
}

WriteLockHolder::WriteLockHolder(const std::string& path) {
    if (sqlite3_open(path.c_str(), &db_) == SQLITE_OK &&
        sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK)
        holding_ = true;
    else
        ADD_FAILURE() << path << ": " << (db_ ? sqlite3_errmsg(db_) : "cannot open");
}

WriteLockHolder::~WriteLockHolder() {
    release();
    sqlite3_close(db_);
}

void WriteLockHolder::release() {
    if (holding_)
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    holding_ = false;
}

} // namespace lb::test
