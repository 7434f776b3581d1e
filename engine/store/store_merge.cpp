// The other database is attached to this one's connection as `other`, and each table is copied
// with one INSERT ... SELECT that maps its references by what identifies them in both: a host
// and a layout by name, a campaign, run and journal step by its uid.
#include "engine/store/store_merge.h"

#include "engine/base/joined.h"
#include "engine/store/store_internal.h"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace lb {

namespace {

namespace fs = std::filesystem;

// A statement with the layout prefix bound to ?1 when given.
Expected<sql::Statement> prepared(sql::Database& db, std::string_view text,
                                  const std::optional<std::string>& prefix) {
    auto q = db.prepare(text);
    if (q && prefix)
        q->bind(1, *prefix);
    return q;
}

// Runs one statement; how many rows it changed.
Expected<std::int64_t> changed(sql::Database& db, std::string_view text,
                               const std::optional<std::string>& prefix = std::nullopt) {
    auto q = prepared(db, text, prefix);
    if (!q)
        return fail(q.error());
    if (auto r = q->run(); !r)
        return fail(r.error());
    return db.changes();
}

// The first column of the first row of a query.
Expected<std::int64_t> countOf(sql::Database& db, std::string_view text,
                               const std::optional<std::string>& prefix = std::nullopt) {
    auto q = prepared(db, text, prefix);
    if (!q)
        return fail(q.error());
    auto row = q->step();
    if (!row)
        return fail(row.error());
    return *row ? q->columnInt(0) : 0;
}

// The other database attached as `other` for as long as this lives, read through a migrated
// copy when its schema is older than this program's (the copy is removed afterwards).
class Attached {
public:
    // `host`: the name its one machine is to take (MergeRequest::host); empty: its own.
    static Expected<std::unique_ptr<Attached>> open(sql::Database& db, const std::string& path,
                                                    const std::string& host);
    ~Attached() {
        (void)db_.exec("DETACH DATABASE other");
        if (!copyDir_.empty()) {
            std::error_code ec;
            fs::remove_all(copyDir_, ec);
        }
    }
    Attached(const Attached&) = delete;
    Attached& operator=(const Attached&) = delete;

private:
    explicit Attached(sql::Database& db) : db_(db) {}
    Expected<void> attach(const std::string& path) {
        auto q = db_.prepare("ATTACH DATABASE ?1 AS other");
        if (!q)
            return fail(q.error());
        return q->bind(1, path).run();
    }
    Expected<void> useMigratedCopy(const std::string& name);
    Expected<void> renameHost(const std::string& name, const std::string& host);

    sql::Database& db_;
    fs::path copyDir_;
};

Expected<std::unique_ptr<Attached>> Attached::open(sql::Database& db, const std::string& path,
                                                   const std::string& host) {
    std::unique_ptr<Attached> a(new Attached(db));
    if (auto r = a->attach(path); !r)
        return badInput(path + ": cannot open: " + r.error().message);
    auto version = countOf(db, "SELECT CAST(value AS INTEGER) FROM other.meta WHERE key = "
                               "'schema_version'");
    if (!version)
        return badInput(path + ": not a layoutbench database (" + version.error().message + ")");
    if (*version > Store::latestSchemaVersion)
        return badInput(path + ": written by a newer layoutbench (schema " +
                        std::to_string(*version) + ", this version knows up to " +
                        std::to_string(Store::latestSchemaVersion) + ")");
    // A copy too when its machine is to be renamed: the other database is never written.
    if (*version < Store::latestSchemaVersion || !host.empty())
        if (auto r = a->useMigratedCopy(path); !r)
            return fail(r.error());
    if (!host.empty())
        if (auto r = a->renameHost(path, host); !r)
            return fail(r.error());
    return a;
}

// In the copy: its one host named `host`; a database of no host gets it for every run, campaign
// and layout it holds; one of several machines is refused, naming them.
Expected<void> Attached::renameHost(const std::string& name, const std::string& host) {
    std::vector<std::string> hosts;
    {
        LB_TRY(q, db_.prepare("SELECT name FROM other.host ORDER BY name"));
        LB_TRY_VOID(q.forEachRow([&](sql::Statement& row) { hosts.push_back(row.columnText(0)); }));
    }
    if (hosts.size() > 1)
        return badInput("host: " + name + " holds the results of " + std::to_string(hosts.size()) +
                        " machines (" + joinedText(hosts, ", ") +
                        "); a merge names the machine of a database of one");
    if (hosts.empty()) {
        LB_TRY(add, db_.prepare("INSERT INTO other.host(name) VALUES(?1)"));
        LB_TRY_VOID(add.bind(1, host).run());
        for (const char* table : {"run", "campaign", "layout"})
            LB_TRY_VOID(
                db_.exec("UPDATE other." + std::string(table) +
                         " SET host_id = (SELECT id FROM other.host) WHERE host_id IS NULL"));
        return {};
    }
    LB_TRY(rename, db_.prepare("UPDATE other.host SET name = ?1"));
    return rename.bind(1, host).run();
}

Expected<void> Attached::useMigratedCopy(const std::string& name) {
    std::string dir = (fs::temp_directory_path() / "layoutbench-merge-XXXXXX").string();
    if (!mkdtemp(dir.data()))
        return runtimeError("cannot create a directory under " +
                            fs::temp_directory_path().string() + " for a copy of " + name);
    copyDir_ = dir;
    const std::string copy = (copyDir_ / "other.db").string();
    auto vacuum = db_.prepare("VACUUM other INTO ?1");
    if (!vacuum)
        return fail(vacuum.error());
    if (auto r = vacuum->bind(1, copy).run(); !r)
        return runtimeError(name + ": cannot copy it to migrate: " + r.error().message);
    if (auto r = db_.exec("DETACH DATABASE other"); !r)
        return r;
    if (auto migrated = Store::open(copy); !migrated)
        return runtimeError(name + ": " + migrated.error().message);
    return attach(copy);
}

// Bad input when a layout of the other database has the name (with the prefix) of one here that
// is of another kind, or on another host unless the merge names the machine (a fleet's layout
// measured on each of its hosts): they are different layouts.
Expected<void> refuseLayoutClash(sql::Database& db, const MergeRequest& request) {
    auto q = db.prepare("SELECT ?1 || ol.name, ol.kind, COALESCE(oh.name, ''), l.kind, "
                        "COALESCE(h.name, '') FROM other.layout ol "
                        "JOIN main.layout l ON l.name = ?1 || ol.name "
                        "LEFT JOIN other.host oh ON oh.id = ol.host_id "
                        "LEFT JOIN main.host h ON h.id = l.host_id "
                        "WHERE ol.kind != l.kind OR (?2 = '' AND COALESCE(oh.name, '') != "
                        "COALESCE(h.name, '')) ORDER BY 1 LIMIT 1");
    if (!q)
        return fail(q.error());
    q->bind(1, request.prefix).bind(2, request.host);
    auto row = q->step();
    if (!row)
        return fail(row.error());
    if (!*row)
        return {};
    // Appended part by part: "(" + string&& makes GCC 12 at -O3 warn -Wrestrict (a false alarm in
    // libstdc++'s operator+, GCC bug 105329).
    auto what = [&](int kind, int host) {
        return std::string("(")
            .append(q->columnText(kind))
            .append(", on host '")
            .append(q->columnText(host))
            .append("')");
    };
    return badInput("prefix: " + request.other + "'s layout '" + q->columnText(0) + "' " +
                    what(1, 2) + " is not the '" + q->columnText(0) + "' here " + what(3, 4) +
                    "; one keeps them apart");
}

// Hosts (an empty inventory here takes the other's), disks, layouts.
Expected<void> mergeInventory(sql::Database& db, const MergeRequest& request, MergeSummary& sum) {
    auto before = countOf(db, "SELECT COUNT(*) FROM main.host");
    if (!before)
        return fail(before.error());
    if (auto r = changed(db, "INSERT INTO main.host(name, inventory) SELECT name, inventory "
                             "FROM other.host WHERE true ORDER BY id ON CONFLICT(name) DO UPDATE "
                             "SET inventory = excluded.inventory WHERE inventory = '{}'");
        !r)
        return fail(r.error());
    auto after = countOf(db, "SELECT COUNT(*) FROM main.host");
    if (!after)
        return fail(after.error());
    sum.hosts = *after - *before;
    auto disks = changed(
        db, "INSERT OR IGNORE INTO main.disk(host_id, path, model, serial, size_bytes, "
            "rotational) SELECT h.id, d.path, d.model, d.serial, d.size_bytes, d.rotational "
            "FROM other.disk d JOIN other.host oh ON oh.id = d.host_id "
            "JOIN main.host h ON h.name = oh.name ORDER BY d.id");
    auto layouts = changed(db,
                           "INSERT INTO main.layout(name, kind, spec, host_id, created_at) "
                           "SELECT ?1 || ol.name, ol.kind, ol.spec, h.id, ol.created_at "
                           "FROM other.layout ol LEFT JOIN other.host oh ON oh.id = ol.host_id "
                           "LEFT JOIN main.host h ON h.name = oh.name WHERE NOT EXISTS "
                           "(SELECT 1 FROM main.layout l WHERE l.name = ?1 || ol.name) "
                           "AND ol.kind != '" +
                               std::string(stagedImportKind) + "' ORDER BY ol.id",
                           request.prefix);
    if (!disks || !layouts)
        return fail(!disks ? disks.error() : layouts.error());
    sum.disks = *disks;
    sum.layouts = *layouts;
    return {};
}

// Campaigns: new ones, and one still running here that has ended there takes its end.
Expected<void> mergeCampaigns(sql::Database& db, MergeSummary& sum) {
    auto added = changed(
        db, "INSERT INTO main.campaign(name, scenario_path, scenario, host_id, inventory, "
            "started_at, finished_at, status, policy, io, uid) SELECT c.name, c.scenario_path, "
            "c.scenario, h.id, c.inventory, c.started_at, c.finished_at, c.status, c.policy, "
            "c.io, c.uid FROM other.campaign c LEFT JOIN other.host oh ON oh.id = c.host_id "
            "LEFT JOIN main.host h ON h.name = oh.name WHERE NOT EXISTS "
            "(SELECT 1 FROM main.campaign m WHERE m.uid = c.uid) ORDER BY c.id");
    if (!added)
        return fail(added.error());
    sum.campaigns = *added;
    auto ended = changed(db, "UPDATE main.campaign AS m SET status = c.status, finished_at = "
                             "c.finished_at, policy = c.policy, io = c.io FROM other.campaign c "
                             "WHERE c.uid = m.uid AND m.status = 'running' AND c.status != "
                             "'running'");
    if (!ended)
        return fail(ended.error());
    return {};
}

// The metrics of the runs here that have none yet and do there: each run's packed row, its
// metric ids mapped from the other database's metric_name to this one's; how many metrics.
Expected<std::int64_t> mergeSamples(sql::Database& db) {
    LB_TRY_VOID(db.exec("INSERT OR IGNORE INTO main.metric_name(name, unit) SELECT name, unit "
                        "FROM other.metric_name ORDER BY id"));
    std::unordered_map<std::int64_t, std::int64_t> idHere; // by the other database's id
    {
        LB_TRY(ids, db.prepare("SELECT o.id, m.id FROM other.metric_name o JOIN main.metric_name "
                               "m ON m.name = o.name AND m.unit = o.unit"));
        LB_TRY_VOID(ids.forEachRow(
            [&](sql::Statement& row) { idHere.emplace(row.columnInt(0), row.columnInt(1)); }));
    }
    LB_TRY(read, db.prepare("SELECT m.id, s.data FROM other.run_sample s "
                            "JOIN other.run r ON r.id = s.run_id JOIN main.run m ON m.uid = r.uid "
                            "WHERE NOT EXISTS (SELECT 1 FROM main.run_sample h WHERE h.run_id = "
                            "m.id) ORDER BY s.run_id"));
    LB_TRY(write, db.prepare("INSERT INTO main.run_sample(run_id, data) VALUES(?1, ?2)"));
    std::int64_t metrics = 0;
    Expected<void> written;
    std::string packed;
    LB_TRY_VOID(read.forEachRow([&](sql::Statement& row) {
        const std::string_view there = row.columnBlob(1);
        packed.clear();
        for (std::size_t i = 0; written && i < there.size() / store::sampleBytes; ++i) {
            const auto id = idHere.find(store::sampleId(there, i));
            if (id == idHere.end())
                written = runtimeError("the other database's run_sample names metric id " +
                                       std::to_string(store::sampleId(there, i)) +
                                       ", which its metric_name does not hold");
            else
                store::appendSample(packed, id->second, store::sampleValue(there, i));
        }
        if (written)
            written = write.bind(1, row.columnInt(0)).bindBlob(2, packed).run();
        metrics += static_cast<std::int64_t>(there.size() / store::sampleBytes);
    }));
    LB_TRY_VOID(written);
    return metrics;
}

// Runs with their raw output, then their metrics and series. A run still running here that has
// finished there takes its output and outcome.
Expected<void> mergeRuns(sql::Database& db, const MergeRequest& request, MergeSummary& sum) {
    // An imported run (no campaign, a content hash) whose data this database already holds.
    const std::string_view heldHere =
        "r.content_hash IS NOT NULL AND r.campaign_id IS NULL AND EXISTS "
        "(SELECT 1 FROM main.run_hash m WHERE m.hash = r.content_hash)";
    const std::string notHere = "NOT EXISTS (SELECT 1 FROM main.run m WHERE m.uid = r.uid)";
    LB_TRY(duplicates, countOf(db, "SELECT COUNT(*) FROM other.run r WHERE " + notHere + " AND " +
                                       std::string(heldHere)));
    sum.duplicateRuns = duplicates;
    LB_TRY(lastHere, countOf(db, "SELECT COALESCE(MAX(id), 0) FROM main.run"));
    // The notes and caveats of the runs there, by their ids here.
    LB_TRY_VOID(db.exec("INSERT OR IGNORE INTO main.run_text(text) SELECT text FROM "
                        "other.run_text ORDER BY id"));
    const auto textHere = [](std::string_view column) {
        return "(SELECT mt.id FROM other.run_text ot JOIN main.run_text mt ON mt.text = ot.text "
               "WHERE ot.id = r." +
               std::string(column) + ")";
    };
    LB_TRY(
        runs,
        changed(
            db,
            "INSERT INTO main.run(campaign_id, layout_id, workload, probe, iteration, argv, "
            "exit_code, stdout, stderr, tool_version, started_at, finished_at, wall_seconds, "
            "status, "
            "reason, caveats_id, source, notes_id, origin, content_hash, uid, source_line, "
            "host_id, fill_permille, fill_bytes) SELECT "
            "mc.id, ml.id, r.workload, r.probe, r.iteration, r.argv, r.exit_code, r.stdout, "
            "r.stderr, "
            "r.tool_version, r.started_at, r.finished_at, r.wall_seconds, r.status, r.reason, " +
                textHere("caveats_id") + ", r.source, " + textHere("notes_id") +
                ", r.origin, r.content_hash, r.uid, r.source_line, (SELECT h.id FROM other.host oh "
                "JOIN main.host h ON h.name = oh.name WHERE oh.id = r.host_id), "
                "r.fill_permille, r.fill_bytes FROM other.run r "
                "JOIN other.layout ol ON ol.id = r.layout_id JOIN main.layout ml ON ml.name = ?1 "
                "|| "
                "ol.name LEFT JOIN other.campaign oc ON oc.id = r.campaign_id "
                "LEFT JOIN main.campaign mc ON mc.uid = oc.uid WHERE " +
                notHere + " AND NOT (" + std::string(heldHere) + ") ORDER BY r.id",
            request.prefix));
    sum.runs = runs;
    // Their content hashes, in the order run_hash keeps.
    LB_TRY_VOID(
        changed(db, "INSERT OR IGNORE INTO main.run_hash(hash, run_id) SELECT content_hash, "
                    "id FROM main.run WHERE id > " +
                        std::to_string(lastHere) + " AND content_hash IS NOT NULL ORDER BY 1, 2"));
    LB_TRY_VOID(changed(
        db, "UPDATE main.run AS m SET exit_code = r.exit_code, stdout = r.stdout, stderr = "
            "r.stderr, tool_version = r.tool_version, started_at = r.started_at, finished_at = "
            "r.finished_at, wall_seconds = r.wall_seconds, status = r.status, reason = r.reason, "
            "caveats_id = " +
                textHere("caveats_id") + ", notes_id = " + textHere("notes_id") +
                " FROM other.run r WHERE r.uid = m.uid AND m.status = 'running' AND r.status != "
                "'running'"));
    LB_TRY(metrics, mergeSamples(db));
    sum.metrics = metrics;
    // Series carry no ids of their own: copied as they are, for the runs here that have none.
    return db.exec("INSERT INTO main.run_series(run_id, name, x_unit, unit, data) SELECT m.id, "
                   "s.name, s.x_unit, s.unit, s.data FROM other.run_series s JOIN other.run r ON "
                   "r.id = s.run_id JOIN main.run m ON m.uid = r.uid WHERE NOT EXISTS (SELECT 1 "
                   "FROM main.run_series h WHERE h.run_id = m.id) ORDER BY s.run_id, s.name");
}

// The journal of applied commands and the SSD conditioning steps, of the campaigns merged.
Expected<void> mergeSteps(sql::Database& db, const MergeRequest& request, MergeSummary& sum) {
    auto steps = changed(
        db,
        "INSERT INTO main.plan_step(campaign_id, layout_id, seq, phase, argv, undo_argv, "
        "exit_code, output, started_at, finished_at, status, runs_on, uid) SELECT mc.id, ml.id, "
        "p.seq, p.phase, p.argv, p.undo_argv, p.exit_code, p.output, p.started_at, "
        "p.finished_at, p.status, p.runs_on, p.uid FROM other.plan_step p "
        "LEFT JOIN other.campaign oc ON oc.id = p.campaign_id "
        "LEFT JOIN main.campaign mc ON mc.uid = oc.uid "
        "LEFT JOIN other.layout ol ON ol.id = p.layout_id "
        "LEFT JOIN main.layout ml ON ml.name = ?1 || ol.name "
        "WHERE NOT EXISTS (SELECT 1 FROM main.plan_step m WHERE m.uid = p.uid) ORDER BY p.id",
        request.prefix);
    auto conditioning = changed(
        db,
        "INSERT INTO main.conditioning(campaign_id, layout_id, workload, round, tracked, value, "
        "bytes, argv, exit_code, stdout, stderr, started_at, finished_at, wall_seconds, error, "
        "uid) SELECT mc.id, ml.id, c.workload, c.round, c.tracked, c.value, c.bytes, c.argv, "
        "c.exit_code, c.stdout, c.stderr, c.started_at, c.finished_at, c.wall_seconds, c.error, "
        "c.uid FROM other.conditioning c JOIN other.campaign oc ON oc.id = c.campaign_id "
        "JOIN main.campaign mc ON mc.uid = oc.uid JOIN other.layout ol ON ol.id = c.layout_id "
        "JOIN main.layout ml ON ml.name = ?1 || ol.name "
        "WHERE NOT EXISTS (SELECT 1 FROM main.conditioning m WHERE m.uid = c.uid) ORDER BY c.id",
        request.prefix);
    if (!steps || !conditioning)
        return fail(!steps ? steps.error() : conditioning.error());
    sum.planSteps = *steps;
    sum.conditioningSteps = *conditioning;
    return {};
}

} // namespace

Expected<MergeSummary> mergeDatabase(Store& store, const MergeRequest& request) {
    std::error_code ec;
    if (!fs::is_regular_file(request.other, ec))
        return badInput(request.other + ": no such database");
    if (fs::equivalent(request.other, store.path(), ec))
        return badInput(request.other + ": is the database it would be merged into");
    auto& db = store.database();
    auto attached = Attached::open(db, request.other, request.host);
    if (!attached)
        return fail(attached.error());
    auto tx = store.transaction();
    if (!tx)
        return fail(tx.error());
    MergeSummary sum;
    if (auto r = refuseLayoutClash(db, request); !r)
        return fail(r.error());
    if (auto r = mergeInventory(db, request, sum); !r)
        return fail(r.error());
    if (auto r = mergeCampaigns(db, sum); !r)
        return fail(r.error());
    if (auto r = mergeRuns(db, request, sum); !r)
        return fail(r.error());
    if (auto r = mergeSteps(db, request, sum); !r)
        return fail(r.error());
    if (auto r = tx->commit(); !r)
        return fail(r.error());
    return sum;
}

} // namespace lb
