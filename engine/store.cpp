#include "engine/store.h"

#include "engine/content_hash.h"
#include "engine/utf8.h"

#include <array>
#include <charconv>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace lb {

namespace {

// Migration N takes the schema from version N to N+1. Never edit a shipped step: add one.
const std::vector<const char*> migrations{
    R"sql(
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
)sql",
    // 1 -> 2: a guest layout's steps inside the virtual machine run through the guest's own
    // runner; the journal says where each step ran so its undo goes to the same place.
    R"sql(
ALTER TABLE plan_step ADD COLUMN runs_on TEXT NOT NULL DEFAULT 'host';
)sql",
    // 2 -> 3: notes on a run's metrics that the comparison acts on (kept out of the verdict, shown
    // next to it, how they were measured), and the comparison policy a campaign's scenario set
    // (thresholds, deciding metrics), so `compare` judges its layouts by the scenario's rule.
    R"sql(
ALTER TABLE run ADD COLUMN notes TEXT NOT NULL DEFAULT '[]';
ALTER TABLE campaign ADD COLUMN policy TEXT NOT NULL DEFAULT '{}';
ALTER TABLE campaign ADD COLUMN io TEXT NOT NULL DEFAULT '{}';
)sql",
    // 3 -> 4: an imported run says how it was read: the format recognised, the units converted
    // from and what the output told about the workload (RunOrigin), so a report can show it.
    R"sql(
ALTER TABLE run ADD COLUMN origin TEXT NOT NULL DEFAULT '{}';
)sql",
    // 4 -> 5: SSD preconditioning and the steady-state rounds before a layout's measured runs
    // (SNIA PTS), each with its raw output; kept apart from `run`, so no verdict ever counts them.
    R"sql(
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
)sql",
    // 5 -> 6: an imported run's content hash, so the same data imported again is recognised;
    // the runs imported before get theirs from their stored output (hashImportedRuns).
    R"sql(
ALTER TABLE run ADD COLUMN content_hash TEXT;
CREATE INDEX run_content_hash ON run(content_hash) WHERE content_hash IS NOT NULL;
)sql",
    // 6 -> 7: an identity for runs, campaigns, journal steps and conditioning steps that stays
    // theirs in every database they are merged into, so merging again adds nothing. Triggers
    // give each new row its uid, whichever module inserts it.
    R"sql(
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
)sql",
    // 7 -> 8: the line of its file an imported run starts at, so that a message about its data
    // (imported again, or twice in one import) names FILE:LINE. Runs imported before have none.
    R"sql(
ALTER TABLE run ADD COLUMN source_line INTEGER;
)sql",
};

// After the SQL of 5 -> 6: the content hash of every imported run (one with a source and no
// campaign), from the output stored with it.
Expected<void> hashImportedRuns(sql::Database& db) {
    auto read = db.prepare("SELECT id, stdout FROM run WHERE campaign_id IS NULL AND source IS "
                           "NOT NULL AND content_hash IS NULL");
    if (!read)
        return fail(read.error());
    std::vector<std::pair<std::int64_t, std::string>> hashes;
    if (auto r = read->forEachRow([&](sql::Statement& row) {
            hashes.emplace_back(row.columnInt(0), contentHash(row.columnText(1)));
        });
        !r)
        return r;
    auto write = db.prepare("UPDATE run SET content_hash = ?1 WHERE id = ?2");
    if (!write)
        return fail(write.error());
    for (const auto& [id, hash] : hashes)
        if (auto r = write->bind(1, hash).bind(2, id).run(); !r)
            return r;
    return {};
}

std::string toJson(const std::vector<std::string>& items) {
    return dumpJson(nlohmann::json(items));
}

std::vector<MetricNote> notesFromJson(const std::string& text) {
    std::vector<MetricNote> out;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_array())
        return out;
    for (const auto& n : j) {
        if (!n.is_object())
            continue;
        const auto kind = metricNoteKindFromName(n.value("kind", std::string()));
        if (kind)
            out.push_back(
                {*kind, n.value("metrics", std::string()), n.value("text", std::string())});
    }
    return out;
}

std::string notesJson(const std::vector<MetricNote>& notes) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& n : notes)
        out.push_back(
            {{"kind", metricNoteKindName(n.kind)}, {"metrics", n.metrics}, {"text", n.text}});
    return dumpJson(out);
}

std::string originJson(const RunOrigin& origin) {
    if (origin.empty())
        return "{}";
    return dumpJson(nlohmann::json{{"format", origin.format},
                                   {"converted_from", origin.convertedFrom},
                                   {"spec", origin.spec}});
}

} // namespace

std::string describeCampaignIo(const CampaignIo& io) {
    return std::string(io.direct ? "direct" : "buffered") + " I/O on every layout (" + io.why +
           "); " +
           (io.coldCache ? "cold cache: the page cache dropped before each run, ZFS caching "
                           "metadata only"
                         : "warm cache (cache = \"warm\"): reads may come from memory");
}

std::string utcNow() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string defaultDatabasePath() {
    if (const char* named = std::getenv("LAYOUTBENCH_DB"); named && *named)
        return named;
    std::filesystem::path base;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        base = std::filesystem::path(home) / ".local" / "share";
    else
        base = ".";
    return (base / "layoutbench" / "results.db").string();
}

Expected<Store> Store::open(const std::string& path, Clock clock) {
    if (path != ":memory:") {
        std::error_code ec;
        const auto parent = std::filesystem::path(path).parent_path();
        if (!parent.empty())
            std::filesystem::create_directories(parent, ec);
        if (ec)
            return runtimeError(parent.string() + ": cannot create directory: " + ec.message());
    }
    auto db = sql::Database::open(path);
    if (!db)
        return fail(db.error());
    Store store(std::move(*db), std::move(clock));
    // A page cache of 32 MiB rather than SQLite's 2 MiB: the run table's uid and content-hash
    // indexes take rows in random order, and an import of a million runs otherwise reads most
    // index pages back from the file for every run it adds.
    for (const char* pragma : {"PRAGMA foreign_keys = ON", "PRAGMA journal_mode = WAL",
                               "PRAGMA synchronous = NORMAL", "PRAGMA cache_size = -32768"})
        if (auto r = store.db_.exec(pragma); !r)
            return fail(r.error());
    if (auto r = store.migrate(); !r)
        return fail(r.error());
    return store;
}

Expected<void> Store::migrate() {
    if (auto r = db_.exec("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT "
                          "NULL)");
        !r)
        return r;
    auto read = db_.prepare("SELECT value FROM meta WHERE key = 'schema_version'");
    if (!read)
        return fail(read.error());
    auto has = read->step();
    if (!has)
        return fail(has.error());
    int version = 0;
    if (*has) {
        // Anything but a whole number this program could have written would index the migrations
        // out of range: refuse it, naming the file.
        const std::string text = read->columnText(0);
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), version);
        if (ec != std::errc() || end != text.data() + text.size() || version < 0)
            return runtimeError(db_.path() + ": meta.schema_version is '" + text +
                                "', not a schema version layoutbench writes (0 to " +
                                std::to_string(latestSchemaVersion) +
                                "): the database is damaged or not layoutbench's");
    }
    if (version > latestSchemaVersion)
        return runtimeError(db_.path() + ": written by a newer layoutbench (schema " +
                            std::to_string(version) + ", this version knows up to " +
                            std::to_string(latestSchemaVersion) + ")");
    while (version < latestSchemaVersion) {
        auto tx = transaction();
        if (!tx)
            return fail(tx.error());
        auto migrated = db_.exec(migrations[static_cast<std::size_t>(version)]);
        if (migrated && version + 1 == 6)
            migrated = hashImportedRuns(db_);
        if (!migrated)
            return runtimeError("migrating " + db_.path() + " to schema " +
                                std::to_string(version + 1) + ": " + migrated.error().message);
        auto set = db_.prepare("INSERT INTO meta(key, value) VALUES('schema_version', ?1) "
                               "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
        if (!set)
            return fail(set.error());
        if (auto r = set->bind(1, std::to_string(version + 1)).run(); !r)
            return r;
        if (auto r = tx->commit(); !r)
            return r;
        ++version;
    }
    schemaVersion_ = version;
    return {};
}

Expected<std::int64_t> Store::ensureHost(const std::string& name,
                                         const std::string& inventoryJson) {
    auto ins = db_.prepare("INSERT INTO host(name, inventory) VALUES(?1, ?2) "
                           "ON CONFLICT(name) DO UPDATE SET inventory = CASE WHEN ?2 = '{}' "
                           "THEN inventory ELSE ?2 END RETURNING id");
    if (!ins)
        return fail(ins.error());
    ins->bind(1, name).bind(2, inventoryJson);
    auto row = ins->step();
    if (!row)
        return fail(row.error());
    return ins->columnInt(0);
}

Expected<std::int64_t> Store::ensureLayout(const std::string& name, const std::string& kind,
                                           const std::string& specJson,
                                           std::optional<std::int64_t> hostId) {
    auto existing = findLayout(name);
    if (!existing)
        return fail(existing.error());
    if (*existing) {
        if ((*existing)->kind != kind)
            return badInput("layout '" + name + "' already exists with kind '" + (*existing)->kind +
                            "', not '" + kind + "'");
        return (*existing)->id;
    }
    auto ins = db_.prepare(
        "INSERT INTO layout(name, kind, spec, host_id, created_at) VALUES(?1, ?2, ?3, ?4, ?5)");
    if (!ins)
        return fail(ins.error());
    if (auto r =
            ins->bind(1, name).bind(2, kind).bind(3, specJson).bind(4, hostId).bind(5, now()).run();
        !r)
        return fail(r.error());
    return db_.lastInsertId();
}

Expected<std::optional<LayoutRecord>> Store::findLayout(const std::string& name) {
    auto q = db_.prepare("SELECT l.id, l.name, l.kind, l.spec, COALESCE(h.name, '') FROM layout l "
                         "LEFT JOIN host h ON h.id = l.host_id WHERE l.name = ?1");
    if (!q)
        return fail(q.error());
    q->bind(1, name);
    auto row = q->step();
    if (!row)
        return fail(row.error());
    if (!*row)
        return std::optional<LayoutRecord>{};
    LayoutRecord rec;
    rec.id = q->columnInt(0);
    rec.name = q->columnText(1);
    rec.kind = q->columnText(2);
    rec.spec = q->columnText(3);
    rec.host = q->columnText(4);
    return std::optional<LayoutRecord>{rec};
}

Expected<std::int64_t> Store::insertRun(std::int64_t layoutId, const Run& run) {
    // Prepared once per connection: an import inserts millions of runs.
    auto ins = db_.cached(
        "INSERT INTO run(campaign_id, layout_id, workload, probe, iteration, argv, exit_code, "
        "stdout, stderr, tool_version, started_at, finished_at, wall_seconds, status, reason, "
        "caveats, source, notes, origin, content_hash, source_line) VALUES(?1, ?2, ?3, ?4, ?5, "
        "?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)");
    if (!ins)
        return fail(ins.error());
    (*ins)
        ->bind(1, run.campaignId ? std::optional<std::int64_t>(run.campaignId) : std::nullopt)
        .bind(2, layoutId)
        .bind(3, run.workload)
        .bind(4, run.probe)
        .bind(5, run.iteration)
        .bind(6, toJson(run.argv))
        .bind(7, run.exitCode)
        .bind(8, run.stdoutText)
        .bind(9, run.stderrText)
        .bind(10, run.toolVersion)
        .bind(11, run.startedAt)
        .bind(12, run.finishedAt)
        .bind(13, run.wallSeconds)
        .bind(14, runStatusName(run.status))
        .bind(15, run.reason)
        .bind(16, toJson(run.caveats))
        .bind(17, run.source.empty() ? std::nullopt : std::optional<std::string>(run.source))
        .bind(18, notesJson(run.notes))
        .bind(19, originJson(run.origin))
        .bind(20,
              run.contentHash.empty() ? std::nullopt : std::optional<std::string>(run.contentHash))
        .bind(21, run.sourceLine > 0 ? std::optional<std::int64_t>(run.sourceLine) : std::nullopt);
    if (auto r = (*ins)->run(); !r)
        return fail(r.error());
    const std::int64_t runId = db_.lastInsertId();
    if (auto r = insertMetrics(runId, run.metrics); !r)
        return fail(r.error());
    return runId;
}

// Several rows a statement: an import inserts tens of millions of metrics, and each statement
// costs as much again as the row it inserts.
Expected<void> Store::insertMetrics(std::int64_t runId, const std::vector<Metric>& metrics) {
    constexpr std::size_t rowsPerStatement = 16;
    static const std::array<std::string, rowsPerStatement + 1> sql = [] {
        std::array<std::string, rowsPerStatement + 1> out;
        for (std::size_t n = 1; n <= rowsPerStatement; ++n) {
            out[n] = "INSERT INTO metric(run_id, name, value, unit) VALUES";
            for (std::size_t i = 0; i < n; ++i)
                out[n] += std::string(i ? "," : "") + "(?1, ?" + std::to_string(2 + 3 * i) + ", ?" +
                          std::to_string(3 + 3 * i) + ", ?" + std::to_string(4 + 3 * i) + ")";
        }
        return out;
    }();
    for (std::size_t at = 0; at < metrics.size(); at += rowsPerStatement) {
        const std::size_t n = std::min(rowsPerStatement, metrics.size() - at);
        auto q = db_.cached(sql[n]);
        if (!q)
            return fail(q.error());
        (*q)->bind(1, runId);
        for (std::size_t i = 0; i < n; ++i) {
            const auto& m = metrics[at + i];
            const int first = static_cast<int>(2 + 3 * i);
            (*q)->bind(first, m.name).bind(first + 1, m.value).bind(first + 2, unitName(m.unit));
        }
        if (auto r = (*q)->run(); !r)
            return r;
    }
    return {};
}

Expected<std::optional<ImportedRunRef>> Store::importedRunWithContent(const std::string& hash,
                                                                      std::int64_t staging) {
    // Asked once per imported run: prepared once per connection.
    auto q = db_.cached("SELECT r.id, l.id, l.name, COALESCE(r.source, ''), "
                        "COALESCE(r.source_line, 0), COALESCE(r.finished_at, '') FROM run r "
                        "JOIN layout l ON l.id = r.layout_id WHERE r.content_hash = ?1 AND "
                        "(l.kind != ?2 OR l.id = ?3) ORDER BY r.id LIMIT 1");
    if (!q)
        return fail(q.error());
    (*q)->bind(1, hash).bind(2, stagedImportKind).bind(3, staging);
    auto row = (*q)->step();
    if (!row)
        return fail(row.error());
    if (!*row)
        return std::optional<ImportedRunRef>{};
    const auto& r = **q;
    return std::optional<ImportedRunRef>{ImportedRunRef{r.columnInt(0), r.columnInt(1),
                                                        r.columnText(2), r.columnText(3),
                                                        r.columnInt(4), r.columnText(5)}};
}

Expected<std::int64_t> Store::beginRun(std::int64_t layoutId, const Run& run) {
    Run pending = run;
    pending.status = RunStatus::Running;
    pending.metrics.clear();
    return insertRun(layoutId, pending);
}

Expected<void> Store::recordRunOutput(const Run& run) {
    auto q = db_.prepare("UPDATE run SET exit_code = ?1, stdout = ?2, stderr = ?3, started_at = "
                         "?4, finished_at = ?5, wall_seconds = ?6, tool_version = ?7 WHERE id = "
                         "?8");
    if (!q)
        return fail(q.error());
    return q->bind(1, run.exitCode)
        .bind(2, run.stdoutText)
        .bind(3, run.stderrText)
        .bind(4, run.startedAt)
        .bind(5, run.finishedAt)
        .bind(6, run.wallSeconds)
        .bind(7, run.toolVersion)
        .bind(8, run.id)
        .run();
}

Expected<void> Store::finishRun(const Run& run) {
    auto tx = transaction();
    if (!tx)
        return fail(tx.error());
    auto q = db_.prepare(
        "UPDATE run SET status = ?1, reason = ?2, caveats = ?3, notes = ?5 WHERE id = ?4");
    if (!q)
        return fail(q.error());
    if (auto r = q->bind(1, runStatusName(run.status))
                     .bind(2, run.reason)
                     .bind(3, toJson(run.caveats))
                     .bind(4, run.id)
                     .bind(5, notesJson(run.notes))
                     .run();
        !r)
        return r;
    if (auto r = insertMetrics(run.id, run.metrics); !r)
        return r;
    return tx->commit();
}

Expected<void> Store::addRunNote(std::int64_t runId, const MetricNote& note) {
    auto q = db_.prepare("SELECT notes FROM run WHERE id = ?1");
    if (!q)
        return fail(q.error());
    q->bind(1, runId);
    auto row = q->step();
    if (!row)
        return fail(row.error());
    if (!*row)
        return runtimeError("no run " + std::to_string(runId) + " in " + path());
    auto notes = notesFromJson(q->columnText(0));
    notes.push_back(note);
    auto u = db_.prepare("UPDATE run SET notes = ?1 WHERE id = ?2");
    if (!u)
        return fail(u.error());
    return u->bind(1, notesJson(notes)).bind(2, runId).run();
}

Expected<std::vector<MetricSamples>> Store::metricSamples(const std::string& layout,
                                                          std::optional<std::int64_t> campaignId) {
    // started_at is ISO 8601 UTC with milliseconds; julianday() reads it, Z included.
    auto q = db_.prepare("SELECT m.name, m.value, "
                         "COALESCE((julianday(r.started_at) - 2440587.5) * 86400.0, 0), "
                         "COALESCE(r.campaign_id, 0), r.workload "
                         "FROM metric m JOIN run r ON r.id = m.run_id "
                         "JOIN layout l ON l.id = r.layout_id "
                         "WHERE l.name = ?1 AND r.status = 'ok' "
                         "AND (?2 IS NULL OR r.campaign_id = ?2) ORDER BY m.name, r.id");
    if (!q)
        return fail(q.error());
    q->bind(1, layout).bind(2, campaignId);
    std::vector<MetricSamples> out;
    if (auto r = q->forEachRow([&](sql::Statement& row) {
            std::string name = row.columnText(0);
            if (out.empty() || out.back().name != name)
                out.push_back({std::move(name), {}, {}, {}, row.columnText(4)});
            out.back().values.push_back(row.columnDouble(1));
            out.back().startedAt.push_back(row.columnDouble(2));
            out.back().campaigns.push_back(row.columnInt(3));
        });
        !r)
        return fail(r.error());
    return out;
}

Expected<LayoutSamples> Store::layoutSamples(const std::string& layout,
                                             std::optional<std::int64_t> campaignId) {
    LayoutSamples out;
    auto metrics = metricSamples(layout, campaignId);
    if (!metrics)
        return fail(metrics.error());
    out.metrics = std::move(*metrics);
    auto notes = db_.prepare("SELECT DISTINCT r.notes FROM run r JOIN layout l ON l.id = "
                             "r.layout_id WHERE l.name = ?1 AND r.status = 'ok' AND r.notes != "
                             "'[]' AND (?2 IS NULL OR r.campaign_id = ?2)");
    if (!notes)
        return fail(notes.error());
    notes->bind(1, layout).bind(2, campaignId);
    if (auto r = notes->forEachRow([&](sql::Statement& row) {
            for (auto& n : notesFromJson(row.columnText(0)))
                if (std::find(out.notes.begin(), out.notes.end(), n) == out.notes.end())
                    out.notes.push_back(std::move(n));
        });
        !r)
        return fail(r.error());
    auto failed = db_.prepare(
        "SELECT r.workload, SUM(r.status = 'failed'), SUM(r.status = 'ok'), "
        "(SELECT f.reason FROM run f WHERE f.layout_id = r.layout_id AND f.workload = r.workload "
        "AND f.status = 'failed' AND (?2 IS NULL OR f.campaign_id = ?2) ORDER BY f.id DESC "
        "LIMIT 1) FROM run r JOIN layout l ON l.id = r.layout_id WHERE l.name = ?1 "
        "AND (?2 IS NULL OR r.campaign_id = ?2) GROUP BY r.workload "
        "HAVING SUM(r.status = 'failed') > 0 ORDER BY r.workload");
    if (!failed)
        return fail(failed.error());
    failed->bind(1, layout).bind(2, campaignId);
    if (auto r = failed->forEachRow([&](sql::Statement& row) {
            out.failed.push_back({row.columnText(0), static_cast<std::size_t>(row.columnInt(1)),
                                  static_cast<std::size_t>(row.columnInt(2)), row.columnText(3)});
        });
        !r)
        return fail(r.error());
    return out;
}

Expected<void> Store::setCampaignPolicy(std::int64_t campaignId, const ComparePolicy& policy) {
    auto q = db_.prepare("UPDATE campaign SET policy = ?1 WHERE id = ?2");
    if (!q)
        return fail(q.error());
    const nlohmann::json j{{"viable_max", policy.thresholds.viableMax},
                           {"not_viable_min", policy.thresholds.notViableMin},
                           {"decide", policy.decide}};
    return q->bind(1, j.dump()).bind(2, campaignId).run();
}

Expected<std::optional<ComparePolicy>> Store::campaignPolicy(std::int64_t campaignId) {
    auto q = db_.prepare("SELECT policy FROM campaign WHERE id = ?1");
    if (!q)
        return fail(q.error());
    q->bind(1, campaignId);
    auto row = q->step();
    if (!row)
        return fail(row.error());
    if (!*row)
        return std::optional<ComparePolicy>{};
    const auto j = nlohmann::json::parse(q->columnText(0), nullptr, false);
    if (!j.is_object() || !j.contains("viable_max"))
        return std::optional<ComparePolicy>{}; // a campaign from before policies were stored
    ComparePolicy p;
    p.thresholds.viableMax = j.value("viable_max", p.thresholds.viableMax);
    p.thresholds.notViableMin = j.value("not_viable_min", p.thresholds.notViableMin);
    for (const auto& g : j.value("decide", nlohmann::json::array()))
        if (g.is_string())
            p.decide.push_back(g.get<std::string>());
    return std::optional<ComparePolicy>{p};
}

Expected<void> Store::setCampaignIo(std::int64_t campaignId, const CampaignIo& io) {
    auto q = db_.prepare("UPDATE campaign SET io = ?1 WHERE id = ?2");
    if (!q)
        return fail(q.error());
    const nlohmann::json j{{"direct", io.direct}, {"why", io.why}, {"cold_cache", io.coldCache}};
    return q->bind(1, j.dump()).bind(2, campaignId).run();
}

Expected<std::optional<CampaignIo>> Store::campaignIo(std::int64_t campaignId) {
    auto q = db_.prepare("SELECT io FROM campaign WHERE id = ?1");
    if (!q)
        return fail(q.error());
    q->bind(1, campaignId);
    auto row = q->step();
    if (!row)
        return fail(row.error());
    if (!*row)
        return std::optional<CampaignIo>{};
    const auto j = nlohmann::json::parse(q->columnText(0), nullptr, false);
    if (!j.is_object() || !j.contains("direct") || !j["direct"].is_boolean())
        return std::optional<CampaignIo>{}; // not decided yet, or from before it was stored
    return std::optional<CampaignIo>{
        CampaignIo{j["direct"].get<bool>(), j.value("why", ""), j.value("cold_cache", true)}};
}

Expected<std::size_t> Store::supersedeRuns(std::int64_t campaignId, const std::string& probe,
                                           const std::string& reason) {
    auto q = db_.prepare("UPDATE run SET status = 'aborted', reason = ?3 WHERE campaign_id = ?1 "
                         "AND probe = ?2 AND status IN ('ok', 'failed')");
    if (!q)
        return fail(q.error());
    if (auto r = q->bind(1, campaignId).bind(2, probe).bind(3, reason).run(); !r)
        return fail(r.error());
    return static_cast<std::size_t>(db_.changes());
}

Expected<std::optional<std::int64_t>> Store::latestCampaignOf(const std::string& layout) {
    auto q = db_.prepare("SELECT r.campaign_id FROM run r JOIN layout l ON l.id = r.layout_id "
                         "WHERE l.name = ?1 ORDER BY r.id DESC LIMIT 1");
    if (!q)
        return fail(q.error());
    q->bind(1, layout);
    auto row = q->step();
    if (!row)
        return fail(row.error());
    if (!*row || q->columnInt(0) == 0)
        return std::optional<std::int64_t>{};
    return std::optional<std::int64_t>{q->columnInt(0)};
}

Expected<std::vector<LayoutRecord>> Store::layouts() {
    auto q =
        db_.prepare("SELECT l.id, l.name, l.kind, l.spec, COALESCE(h.name, ''), "
                    "(SELECT COUNT(*) FROM run r WHERE r.layout_id = l.id), "
                    "(SELECT COUNT(*) FROM run r WHERE r.layout_id = l.id AND r.status != 'ok') "
                    "FROM layout l LEFT JOIN host h ON h.id = l.host_id WHERE l.kind != ?1 "
                    "ORDER BY l.name");
    if (!q)
        return fail(q.error());
    q->bind(1, stagedImportKind);
    std::vector<LayoutRecord> out;
    if (auto r = q->forEachRow([&](sql::Statement& row) {
            out.push_back({row.columnInt(0), row.columnText(1), row.columnText(2),
                           row.columnText(3), row.columnText(4), row.columnInt(5),
                           row.columnInt(6)});
        });
        !r)
        return fail(r.error());
    return out;
}

Expected<std::vector<RunSummary>> Store::runs() {
    auto q = db_.prepare("SELECT r.id, COALESCE(r.campaign_id, 0), l.name, r.workload, r.probe, "
                         "r.iteration, r.status, r.reason, COALESCE(r.started_at, ''), "
                         "COALESCE(r.wall_seconds, 0), "
                         "(SELECT COUNT(*) FROM metric m WHERE m.run_id = r.id) "
                         "FROM run r JOIN layout l ON l.id = r.layout_id WHERE l.kind != ?1 "
                         "ORDER BY r.id");
    if (!q)
        return fail(q.error());
    q->bind(1, stagedImportKind);
    std::vector<RunSummary> out;
    if (auto r = q->forEachRow([&](sql::Statement& row) {
            RunSummary s;
            s.id = row.columnInt(0);
            s.campaignId = row.columnInt(1);
            s.layout = row.columnText(2);
            s.workload = row.columnText(3);
            s.probe = row.columnText(4);
            s.iteration = static_cast<int>(row.columnInt(5));
            s.status = runStatusFromName(row.columnText(6)).value_or(RunStatus::Failed);
            s.reason = row.columnText(7);
            s.startedAt = row.columnText(8);
            s.wallSeconds = row.columnDouble(9);
            s.metrics = row.columnInt(10);
            out.push_back(std::move(s));
        });
        !r)
        return fail(r.error());
    return out;
}

Expected<void> Store::setCampaignStatus(std::int64_t campaignId, const std::string& status,
                                        bool finished) {
    auto q = db_.prepare("UPDATE campaign SET status = ?1, finished_at = ?2 WHERE id = ?3");
    if (!q)
        return fail(q.error());
    return q->bind(1, status)
        .bind(2, finished ? std::optional<std::string>(now()) : std::nullopt)
        .bind(3, campaignId)
        .run();
}

Expected<std::size_t> Store::abortInterruptedRuns(std::int64_t campaignId,
                                                  const std::string& reason) {
    auto q = db_.prepare("UPDATE run SET status = 'aborted', reason = ?2 WHERE campaign_id = ?1 "
                         "AND status = 'running'");
    if (!q)
        return fail(q.error());
    if (auto r = q->bind(1, campaignId).bind(2, reason).run(); !r)
        return fail(r.error());
    return static_cast<std::size_t>(db_.changes());
}

Expected<std::vector<CampaignRecord>> Store::campaigns() {
    auto q = db_.prepare("SELECT c.id, c.name, COALESCE(c.scenario_path, ''), c.status, "
                         "c.started_at, COALESCE(c.finished_at, ''), "
                         "(SELECT COUNT(*) FROM run r WHERE r.campaign_id = c.id) "
                         "FROM campaign c ORDER BY c.id");
    if (!q)
        return fail(q.error());
    std::vector<CampaignRecord> out;
    if (auto r = q->forEachRow([&](sql::Statement& row) {
            out.push_back({row.columnInt(0), row.columnText(1), row.columnText(2),
                           row.columnText(3), row.columnText(4), row.columnText(5),
                           row.columnInt(6)});
        });
        !r)
        return fail(r.error());
    return out;
}

Expected<std::string> Store::integrityCheck() {
    auto q = db_.prepare("PRAGMA integrity_check");
    if (!q)
        return fail(q.error());
    std::string result;
    if (auto r = q->forEachRow([&](sql::Statement& row) {
            if (!result.empty())
                result += "\n";
            result += row.columnText(0);
        });
        !r)
        return fail(r.error());
    return result;
}

Expected<Comparison> compareStoredLayouts(Store& store, const std::string& baseline,
                                          const std::string& candidate,
                                          const std::optional<ComparePolicy>& policy,
                                          std::optional<std::int64_t> campaignId) {
    for (const auto& [field, name] :
         {std::pair{"baseline", &baseline}, std::pair{"candidate", &candidate}}) {
        auto found = store.findLayout(*name);
        if (!found)
            return fail(found.error());
        if (!*found)
            return badInput(std::string(field) + ": no layout named '" + *name + "' in " +
                            store.path());
    }
    auto b = store.layoutSamples(baseline, campaignId);
    if (!b)
        return fail(b.error());
    auto c = store.layoutSamples(candidate, campaignId);
    if (!c)
        return fail(c.error());
    std::optional<std::int64_t> campaign = campaignId;
    if (!campaign) {
        auto latest = store.latestCampaignOf(candidate);
        if (!latest)
            return fail(latest.error());
        campaign = *latest;
    }
    ComparePolicy rule;
    if (policy) {
        rule = *policy;
    } else if (campaign) {
        auto stored = store.campaignPolicy(*campaign);
        if (!stored)
            return fail(stored.error());
        rule = stored->value_or(ComparePolicy{});
    }
    auto cmp = compareLayouts(baseline, *b, candidate, *c, rule);
    if (cmp.metrics.empty())
        return badInput("no metric was measured successfully on both '" + baseline + "' and '" +
                        candidate + "'");
    if (campaign)
        addDrift(cmp, baselineDrift(b->metrics, *campaign, cmp));
    return cmp;
}

} // namespace lb
