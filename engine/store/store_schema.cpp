// The store's schema and its stepwise migrations (engine/store/store.h): the SQL of each step from
// version N to N+1, the steps SQL alone cannot do, and Store::migrate, which applies them in
// order, each in its own transaction.
#include "engine/base/content_hash.h"
#include "engine/base/output_codec.h"
#include "engine/store/store.h"
#include "engine/store/store_internal.h"

#include <charconv>
#include <utility>

namespace lb {

namespace {

// Migration N takes the schema from version N to N+1: its SQL, then (where SQL alone cannot do
// it) a step in C++ inside the same transaction. Never edit a shipped step: add one.
struct Migration {
    const char* sql;
    Expected<void> (*after)(sql::Database&) = nullptr;
};

Expected<void> hashImportedRuns(sql::Database& db);
Expected<void> packExistingSamples(sql::Database& db);
Expected<void> checkRunStatusByComparison(sql::Database& db);
Expected<void> hashStoredRunsAgain(sql::Database& db);

const std::vector<Migration> migrations{

    {R"sql(
CREATE TABLE host(
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    inventory TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE disk(
    id INTEGER PRIMARY KEY,
    host_id INTEGER NOT NULL REFERENCES host(id),
    path TEXT NOT NULL,
    model TEXT,
    serial TEXT,
    size_bytes INTEGER,
    rotational INTEGER,
    UNIQUE(host_id, path)
);
CREATE TABLE layout(
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    spec TEXT NOT NULL DEFAULT '{}',
    host_id INTEGER REFERENCES host(id),
    created_at TEXT NOT NULL
);
CREATE TABLE campaign(
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    scenario_path TEXT,
    scenario TEXT,
    host_id INTEGER REFERENCES host(id),
    inventory TEXT NOT NULL DEFAULT '{}',
    started_at TEXT NOT NULL,
    finished_at TEXT,
    status TEXT NOT NULL CHECK(status IN ('running', 'done', 'failed', 'aborted'))
);
CREATE TABLE run(
    id INTEGER PRIMARY KEY,
    campaign_id INTEGER REFERENCES campaign(id),
    layout_id INTEGER NOT NULL REFERENCES layout(id),
    workload TEXT NOT NULL,
    probe TEXT NOT NULL,
    iteration INTEGER NOT NULL DEFAULT 0,
    argv TEXT NOT NULL DEFAULT '[]',
    exit_code INTEGER,
    stdout TEXT NOT NULL DEFAULT '',
    stderr TEXT NOT NULL DEFAULT '',
    tool_version TEXT NOT NULL DEFAULT '',
    started_at TEXT,
    finished_at TEXT,
    wall_seconds REAL,
    status TEXT NOT NULL CHECK(status IN ('ok', 'failed', 'aborted', 'running')),
    reason TEXT NOT NULL DEFAULT '',
    caveats TEXT NOT NULL DEFAULT '[]',
    source TEXT
);
CREATE INDEX run_layout ON run(layout_id, status);
CREATE INDEX run_campaign ON run(campaign_id);
CREATE TABLE metric(
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value REAL NOT NULL,
    unit TEXT NOT NULL,
    UNIQUE(run_id, name)
);
CREATE TABLE plan_step(
    id INTEGER PRIMARY KEY,
    campaign_id INTEGER REFERENCES campaign(id),
    layout_id INTEGER REFERENCES layout(id),
    seq INTEGER NOT NULL,
    phase TEXT NOT NULL,
    argv TEXT NOT NULL,
    undo_argv TEXT,
    exit_code INTEGER,
    output TEXT NOT NULL DEFAULT '',
    started_at TEXT,
    finished_at TEXT,
    status TEXT NOT NULL
);
)sql"},
    // 1 -> 2: a guest layout's steps inside the virtual machine run through the guest's own
    // runner; the journal says where each step ran so its undo goes to the same place.
    {R"sql(
ALTER TABLE plan_step ADD COLUMN runs_on TEXT NOT NULL DEFAULT 'host';
)sql"},
    // 2 -> 3: notes on a run's metrics that the comparison acts on (kept out of the verdict, shown
    // next to it, how they were measured), and the comparison policy a campaign's scenario set
    // (thresholds, deciding metrics), so `compare` judges its layouts by the scenario's rule.
    {R"sql(
ALTER TABLE run ADD COLUMN notes TEXT NOT NULL DEFAULT '[]';
ALTER TABLE campaign ADD COLUMN policy TEXT NOT NULL DEFAULT '{}';
ALTER TABLE campaign ADD COLUMN io TEXT NOT NULL DEFAULT '{}';
)sql"},
    // 3 -> 4: an imported run says how it was read: the format recognised, the units converted
    // from and what the output told about the workload (RunOrigin), so a report can show it.
    {R"sql(
ALTER TABLE run ADD COLUMN origin TEXT NOT NULL DEFAULT '{}';
)sql"},
    // 4 -> 5: SSD preconditioning and the steady-state rounds before a layout's measured runs
    // (SNIA PTS), each with its raw output; kept apart from `run`, so no verdict ever counts them.
    {R"sql(
CREATE TABLE conditioning(
    id INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaign(id),
    layout_id INTEGER NOT NULL REFERENCES layout(id),
    workload TEXT NOT NULL,
    round INTEGER NOT NULL,
    tracked TEXT NOT NULL DEFAULT '',
    value REAL,
    bytes INTEGER,
    argv TEXT NOT NULL DEFAULT '[]',
    exit_code INTEGER,
    stdout TEXT NOT NULL DEFAULT '',
    stderr TEXT NOT NULL DEFAULT '',
    started_at TEXT,
    finished_at TEXT,
    wall_seconds REAL,
    error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX conditioning_campaign ON conditioning(campaign_id, layout_id);
)sql"},
    // 5 -> 6: an imported run's content hash, so the same data imported again is recognised;
    // the runs imported before get theirs from their stored output (hashImportedRuns).
    {R"sql(
ALTER TABLE run ADD COLUMN content_hash TEXT;
CREATE INDEX run_content_hash ON run(content_hash) WHERE content_hash IS NOT NULL;
)sql",
     hashImportedRuns},
    // 6 -> 7: an identity for runs, campaigns, journal steps and conditioning steps that stays
    // theirs in every database they are merged into, so merging again adds nothing. Triggers
    // give each new row its uid, whichever module inserts it.
    {R"sql(
ALTER TABLE run ADD COLUMN uid TEXT;
ALTER TABLE campaign ADD COLUMN uid TEXT;
ALTER TABLE plan_step ADD COLUMN uid TEXT;
ALTER TABLE conditioning ADD COLUMN uid TEXT;
UPDATE run SET uid = lower(hex(randomblob(16)));
UPDATE campaign SET uid = lower(hex(randomblob(16)));
UPDATE plan_step SET uid = lower(hex(randomblob(16)));
UPDATE conditioning SET uid = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX run_uid ON run(uid);
CREATE UNIQUE INDEX campaign_uid ON campaign(uid);
CREATE UNIQUE INDEX plan_step_uid ON plan_step(uid);
CREATE UNIQUE INDEX conditioning_uid ON conditioning(uid);
CREATE TRIGGER run_uid AFTER INSERT ON run WHEN NEW.uid IS NULL BEGIN
    UPDATE run SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id;
END;
CREATE TRIGGER campaign_uid AFTER INSERT ON campaign WHEN NEW.uid IS NULL BEGIN
    UPDATE campaign SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id;
END;
CREATE TRIGGER plan_step_uid AFTER INSERT ON plan_step WHEN NEW.uid IS NULL BEGIN
    UPDATE plan_step SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id;
END;
CREATE TRIGGER conditioning_uid AFTER INSERT ON conditioning WHEN NEW.uid IS NULL BEGIN
    UPDATE conditioning SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id;
END;
)sql"},
    // 7 -> 8: the line of its file an imported run starts at, so that a message about its data
    // (imported again, or twice in one import) names FILE:LINE. Runs imported before have none.
    {R"sql(
ALTER TABLE run ADD COLUMN source_line INTEGER;
)sql"},
    // 8 -> 9: a comparison read 500,000 metric rows per layout at a million, and sorting them by
    // name took most of a second; an import wrote a row and an index entry per metric. A metric
    // is now its name and unit once (metric_name, by integer id) and each run's metrics are one
    // packed row (run_sample: id and value per metric, see store_internal.h), so a comparison
    // reads one row per run and a run is written in two rows. The metric table goes.
    {R"sql(
CREATE TABLE metric_name(
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    unit TEXT NOT NULL,
    UNIQUE(name, unit)
);
CREATE TABLE run_sample(
    run_id INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
    data BLOB NOT NULL
);
INSERT INTO metric_name(name, unit) SELECT DISTINCT name, unit FROM metric ORDER BY name, unit;
)sql",
     packExistingSamples},
    // 9 -> 10: a run is given its uid by the statement that inserts it. The trigger that gave
    // it made every insert of a run one that may have to be undone part way, so SQLite kept a
    // statement journal for it: a copy of each page the insert touched, 64 KiB a page, about
    // ten writes of a temporary file per run, which was most of an import's time.
    {R"sql(
DROP TRIGGER run_uid;
)sql"},
    // 10 -> 11: what a run measured over its course (fio's per-interval logs of bandwidth, IOPS
    // and latency), one row per series, its points packed (store_internal.h).
    {R"sql(
CREATE TABLE run_series(
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    x_unit TEXT NOT NULL,
    unit TEXT NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY(run_id, name)
);
)sql"},
    // 11 -> 12: the content hash of published runs, each with the first run that has it, in a
    // table of their own kept in hash order. As an index of `run`, every imported run was
    // inserted anywhere in it: past a million runs each batch of an import rewrote most of its
    // pages (ten million bonnie++ lines spent 476 s of system time writing them). An import's
    // hashes are added in one sorted pass when it is published (Store::publishStagedContent).
    // No run with a hash is deleted once published, so nothing removes rows from it.
    {R"sql(
CREATE TABLE run_hash(
    hash TEXT PRIMARY KEY,
    run_id INTEGER NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO run_hash(hash, run_id) SELECT r.content_hash, r.id FROM run r
    JOIN layout l ON l.id = r.layout_id
    WHERE r.content_hash IS NOT NULL AND l.kind != 'staged-import' ORDER BY 1, 2;
DROP INDEX run_content_hash;
)sql",
     checkRunStatusByComparison},
    // 12 -> 13: a run's notes and caveats are, as a rule, those of every other run of its import
    // or workload: ten million bonnie++ lines carried the same 420 bytes each, a quarter of what
    // the import wrote (twice: to the WAL, then to the database). Each text is kept once in
    // run_text and runs name it by id; none (no id) is the empty list. A text no run names any
    // more stays (there are a handful per database), so an id never dangles and is not declared
    // a foreign key, which would cost a lookup of run_text for each run inserted.
    {R"sql(
CREATE TABLE run_text(
    id INTEGER PRIMARY KEY,
    text TEXT NOT NULL UNIQUE
);
INSERT OR IGNORE INTO run_text(text) SELECT notes FROM run WHERE notes != '[]' ORDER BY id;
INSERT OR IGNORE INTO run_text(text) SELECT caveats FROM run WHERE caveats != '[]' ORDER BY id;
ALTER TABLE run ADD COLUMN notes_id INTEGER;
ALTER TABLE run ADD COLUMN caveats_id INTEGER;
UPDATE run SET notes_id = (SELECT t.id FROM run_text t WHERE t.text = run.notes)
    WHERE notes != '[]';
UPDATE run SET caveats_id = (SELECT t.id FROM run_text t WHERE t.text = run.caveats)
    WHERE caveats != '[]';
ALTER TABLE run DROP COLUMN notes;
ALTER TABLE run DROP COLUMN caveats;
)sql"},
    // 13 -> 14: run.stdout may hold a BLOB, output packed with LZ4 (engine/base/output_codec.h),
    // where it was always text. Nothing on disk changes; the version keeps a layoutbench that would
    // take those bytes for text from opening the database. Earlier outputs stay text.
    {"-- run.stdout: text, or a BLOB of packed output"},
    // 14 -> 15: content hashes are XXH3's 128 bits instead of SHA-1 (engine/base/content_hash.h): a
    // tenth of what storing a fio JSON+ file took. Every stored hash is taken again from the
    // output stored with it, and run_hash filled again as 11 -> 12 first filled it.
    {"DELETE FROM run_hash", hashStoredRunsAgain},
    // 15 -> 16: each run names the machine it ran on. One import can hold several (a bonnie++
    // CSV of six machines was six runs of one layout, their medians mixed), so the host is the
    // run's, not only its layout's or its campaign's. Runs stored before take their campaign's
    // host, else their layout's; imported runs took the import's --host as their layout's. No
    // host is ever deleted, so the id never dangles; like notes_id it is not declared a foreign
    // key, which would cost a lookup of host for each run inserted.
    {R"sql(
ALTER TABLE run ADD COLUMN host_id INTEGER;
UPDATE run SET host_id = COALESCE((SELECT c.host_id FROM campaign c WHERE c.id = run.campaign_id),
                                  (SELECT l.host_id FROM layout l WHERE l.id = run.layout_id));
)sql"},
    // 16 -> 17: which machines a layout's runs come from is asked of every layout when a
    // database opens and of both sides of every comparison (Store::layoutHosts). Through
    // run_layout it read each run's row for its host: 18 ms a layout of 25,000 runs, most of
    // the GUI's time to its first comparison. This index answers it alone (1.4 ms); an import
    // appends to it in order, as it does to run_layout.
    {R"sql(
CREATE INDEX run_layout_host ON run(layout_id, host_id, status, campaign_id);
)sql"},
    // 17 -> 18: the fill level a run was measured at (issue 44), in thousandths of the layout's
    // usable space, so a comparison pairs a candidate at 80 % with the baseline at 80 % and never
    // mixes levels; and the bytes the ageing wrote to reach it, which the drive-wear projection
    // must not count silently. NULL: measured as built (every run before this schema).
    {R"sql(
ALTER TABLE run ADD COLUMN fill_permille INTEGER;
ALTER TABLE run ADD COLUMN fill_bytes INTEGER;
)sql"},
    // 18 -> 19: a layout's fill levels are asked of every layout when the GUI opens a database
    // and of both sides of every comparison (Store::layoutFillLevels). The fill lies in the run's
    // row past its raw output: reading every run's row cost 80 million instructions a layout of
    // 25,000 runs. The runs measured at a level are indexed by layout and level, and the levels
    // are found with a seek each; a run measured as built (every import) is not in the index, so
    // an import writes nothing more. run_layout keeps (layout, status) alone: its runs in run
    // order are the samples' pass, which a wider key would have to sort.
    {R"sql(
CREATE INDEX run_layout_fill ON run(layout_id, fill_permille, status, campaign_id)
    WHERE fill_permille IS NOT NULL;
)sql"},
};

// After the SQL of 5 -> 6: the content hash of every imported run (one with a source and no
// campaign), from the output stored with it.
Expected<void> hashImportedRuns(sql::Database& db) {
    std::vector<std::pair<std::int64_t, std::string>> hashes;
    {
        LB_TRY(read, db.prepare("SELECT id, stdout FROM run WHERE campaign_id IS NULL AND source "
                                "IS NOT NULL AND content_hash IS NULL"));
        LB_TRY_VOID(read.forEachRow([&](sql::Statement& row) {
            hashes.emplace_back(row.columnInt(0), contentHash(row.columnText(1)));
        }));
    }
    LB_TRY(write, db.prepare("UPDATE run SET content_hash = ?1 WHERE id = ?2"));
    for (const auto& [id, hash] : hashes)
        LB_TRY_VOID(write.bind(1, hash).bind(2, id).run());
    return {};
}

// After the SQL of 14 -> 15: every run's content hash taken again, a few thousand runs at a time
// (a million bonnie++ lines are not held in memory at once), then run_hash filled again. A run
// whose packed output is damaged keeps its old hash (reading it reports the damage): one bad
// cell does not keep the whole database from opening.
Expected<void> hashStoredRunsAgain(sql::Database& db) {
    LB_TRY(read, db.prepare("SELECT id, stdout FROM run WHERE content_hash IS NOT NULL AND id > ?1 "
                            "ORDER BY id LIMIT 4096"));
    LB_TRY(write, db.prepare("UPDATE run SET content_hash = ?1 WHERE id = ?2"));
    std::vector<std::pair<std::int64_t, std::string>> hashes;
    for (std::int64_t after = 0;;) {
        hashes.clear();
        std::int64_t last = after;
        read.bind(1, after);
        LB_TRY_VOID(read.forEachRow([&](sql::Statement& row) {
            last = row.columnInt(0);
            if (auto text = store::storedOutput(row, 1))
                hashes.emplace_back(last, contentHash(*text));
        }));
        read.reset();
        if (last == after)
            break;
        after = last;
        for (const auto& [id, hash] : hashes)
            LB_TRY_VOID(write.bind(1, hash).bind(2, id).run());
    }
    return db.exec("INSERT OR IGNORE INTO run_hash(hash, run_id) SELECT r.content_hash, r.id FROM "
                   "run r JOIN layout l ON l.id = r.layout_id WHERE r.content_hash IS NOT NULL AND "
                   "l.kind != 'staged-import' ORDER BY 1, 2");
}

// After the SQL of 11 -> 12: run's CHECK(status IN (...)) made SQLite build a table of the four
// names for every run inserted (a twelfth of a bonnie++ import's time); the same check as
// comparisons costs nothing. A CHECK changes nothing on disk, so its text is replaced in place
// (PRAGMA writable_schema, as SQLite's documentation of ALTER TABLE describes), the schema's
// version raised so that every connection reads it again.
Expected<void> checkRunStatusByComparison(sql::Database& db) {
    std::int64_t version = 0;
    {
        LB_TRY(q, db.prepare("PRAGMA schema_version"));
        LB_TRY(row, q.step());
        if (row)
            version = q.columnInt(0);
    }
    LB_TRY_VOID(db.exec("PRAGMA writable_schema = ON"));
    auto edited = db.exec(
        "UPDATE sqlite_schema SET sql = replace(sql, 'CHECK(status IN (''ok'', ''failed'', "
        "''aborted'', ''running''))', 'CHECK(status = ''ok'' OR status = ''failed'' OR status = "
        "''aborted'' OR status = ''running'')') WHERE type = 'table' AND name = 'run'");
    LB_TRY_VOID(db.exec("PRAGMA writable_schema = OFF"));
    LB_TRY_VOID(edited);
    LB_TRY_VOID(db.exec("PRAGMA schema_version = " + std::to_string(version + 1)));
    LB_TRY(check, db.prepare("SELECT COUNT(*) FROM sqlite_schema WHERE name = 'run' AND sql LIKE "
                             "'%CHECK(status = ''ok'' OR %'"));
    LB_TRY(row, check.step());
    if (!row || check.columnInt(0) != 1)
        return runtimeError("the run table's status check was not replaced");
    return {};
}

// Packs each run's metric rows into its run_sample row, then drops the metric table.
Expected<void> packExistingSamples(sql::Database& db) {
    {
        LB_TRY(q, db.prepare("SELECT m.run_id, n.id, m.value FROM metric m JOIN metric_name n ON "
                             "n.name = m.name AND n.unit = m.unit ORDER BY m.run_id, m.id"));
        LB_TRY(ins, db.prepare("INSERT INTO run_sample(run_id, data) VALUES(?1, ?2)"));
        std::int64_t run = 0;
        std::string packed;
        auto flush = [&]() -> Expected<void> {
            if (packed.empty())
                return {};
            auto r = ins.bind(1, run).bindBlob(2, packed).run();
            packed.clear();
            return r;
        };
        Expected<void> written;
        LB_TRY_VOID(q.forEachRow([&](sql::Statement& row) {
            if (!written)
                return;
            if (row.columnInt(0) != run) {
                written = flush();
                run = row.columnInt(0);
            }
            store::appendSample(packed, row.columnInt(1), row.columnDouble(2));
        }));
        LB_TRY_VOID(written);
        LB_TRY_VOID(flush());
    }
    return db.exec("DROP TABLE metric");
}

} // namespace

Expected<int> Store::storedSchemaVersion() {
    LB_TRY(read, db_.prepare("SELECT value FROM meta WHERE key = 'schema_version'"));
    LB_TRY(has, read.step());
    int version = 0;
    if (has) {
        // Anything but a whole number this program could have written would index the migrations
        // out of range: refuse it, naming the file.
        const std::string text = read.columnText(0);
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), version);
        if (ec != std::errc() || end != text.data() + text.size() || version < 0)
            return runtimeError(db_.path() + ": meta.schema_version is '" + text +
                                "', not a schema version layoutbench writes (0 to " +
                                std::to_string(latestSchemaVersion) +
                                "): the database is damaged or not layoutbench's");
    }
    return version;
}

Expected<void> Store::migrate() {
    LB_TRY_VOID(db_.exec("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT "
                         "NULL)"));
    LB_TRY(version, storedSchemaVersion());
    if (version > latestSchemaVersion)
        return runtimeError(db_.path() + ": written by a newer layoutbench (schema " +
                            std::to_string(version) + ", this version knows up to " +
                            std::to_string(latestSchemaVersion) + ")");
    while (version < latestSchemaVersion) {
        LB_TRY(tx, transaction());
        const Migration& step = migrations[static_cast<std::size_t>(version)];
        auto applied = db_.exec(step.sql);
        if (applied && step.after)
            applied = step.after(db_);
        if (!applied)
            return runtimeError("migrating " + db_.path() + " to schema " +
                                std::to_string(version + 1) + ": " + applied.error().message);
        LB_TRY(set, db_.prepare("INSERT INTO meta(key, value) VALUES('schema_version', ?1) "
                                "ON CONFLICT(key) DO UPDATE SET value = excluded.value"));
        LB_TRY_VOID(set.bind(1, std::to_string(version + 1)).run());
        LB_TRY_VOID(tx.commit());
        ++version;
    }
    schemaVersion_ = version;
    return {};
}

} // namespace lb
