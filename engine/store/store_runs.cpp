// The store's runs: written as they happen (with their raw output before any parsing), their
// metrics, and read back for lists, reports and resuming a campaign.
#include "engine/base/output_codec.h"
#include "engine/store/store.h"
#include "engine/store/store_internal.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <unordered_map>

namespace lb {

namespace {

// A run's fill level and the bytes the ageing wrote before it, as parameters 24 and 25.
void bindFill(sql::Statement& ins, const Run& run) {
    ins.bind(24, fillPermille(run.fillLevel));
    if (run.fillBytes)
        ins.bind(25, static_cast<std::int64_t>(*run.fillBytes));
    else
        ins.bindNull(25);
}

// A run's uid: 32 hex digits like the ones schema 7 gave earlier runs, but the first 12 are the
// time in milliseconds and the other 20 random (80 bits), as UUIDv7 does: new runs go to the end
// of the uid index instead of anywhere in it. At millions of runs an index taking keys in random
// order outgrows the page cache and every batch of an import rewrites pages all over it.
std::string runUid() {
    thread_local std::mt19937_64 random{std::random_device{}()};
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
    const std::uint64_t high = random(), low = random();
    // Written digit by digit: snprintf took 2,000 instructions a run.
    std::string text(32, '0');
    const auto hex = [&](std::size_t at, std::size_t digits, std::uint64_t value) {
        for (std::size_t i = digits; i-- > 0; value >>= 4)
            text[at + i] = "0123456789abcdef"[value & 0xF];
    };
    hex(0, 12, static_cast<std::uint64_t>(ms) & 0xFFFFFFFFFFFFULL);
    hex(12, 4, high & 0xFFFF);
    hex(16, 16, low);
    return text;
}

// Binds a run's output at `index`, uncopied: `packed` (packOutput's BLOB) when there is one,
// else the text. Both outlive the statement's step.
void bindOutput(sql::Statement& s, int index, const std::string& text,
                const std::optional<std::string>& packed) {
    if (packed)
        s.bindBlobUncopied(index, *packed);
    else
        s.bindUncopied(index, text);
}

// The id of `items` as the last run's when they are the same, else made by `idOf` and kept as
// the last.
template <typename Items, typename IdOf>
Expected<std::optional<std::int64_t>> sameAsLast(std::optional<store::Last<Items>>& last,
                                                 const Items& items, IdOf idOf) {
    if (last && last->items == items)
        return last->id;
    LB_TRY(id, idOf());
    last = store::Last<Items>{items, id};
    return id;
}

} // namespace

Expected<std::optional<std::int64_t>> Store::runHostId(const std::string& name) {
    if (name.empty())
        return std::optional<std::int64_t>{};
    return sameAsLast(cache_->lastHost, name, [&]() -> Expected<std::optional<std::int64_t>> {
        // Made when new (no write when not), and then its id is the row just inserted.
        LB_TRY(ins, statement("INSERT OR IGNORE INTO host(name) VALUES(?1)"));
        LB_TRY_VOID(ins->bindUncopied(1, name).run());
        if (db_.changes() == 1)
            return std::optional<std::int64_t>(db_.lastInsertId());
        LB_TRY(q, statement("SELECT id FROM host WHERE name = ?1"));
        q->bindUncopied(1, name);
        LB_TRY(row, q->step());
        if (!row)
            return runtimeError(path() + ": no id for host '" + name + "'");
        return std::optional<std::int64_t>(q->columnInt(0));
    });
}

Expected<void> Store::insertMetrics(std::int64_t runId, const std::vector<Metric>& metrics) {
    if (metrics.empty())
        return {};
    std::string packed;
    packed.reserve(metrics.size() * store::sampleBytes);
    // Runs of one import measure the same metrics in the same order: the previous run's ids are
    // tried first, a comparison of names where a lookup by name would hash each.
    auto& previous = cache_->previousMetricIds;
    if (previous.size() < metrics.size())
        previous.resize(metrics.size());
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        const Metric& metric = metrics[i];
        auto& [name, unit, id] = previous[i];
        if (id == 0 || unit != metric.unit || name != metric.name) {
            LB_TRY(known, metricId(metric));
            previous[i] = {metric.name, metric.unit, known};
        }
        store::appendSample(packed, id, metric.value);
    }
    LB_TRY(s, statement("INSERT INTO run_sample(run_id, data) VALUES(?1, ?2)"));
    return s->bind(1, runId).bindBlobUncopied(2, packed).run();
}

Expected<std::int64_t> Store::insertRun(std::int64_t layoutId, const Run& run) {
    return insertRunRow(layoutId, run, true);
}

Expected<std::int64_t> Store::insertRunRow(std::int64_t layoutId, const Run& run,
                                           bool indexContent) {
    LB_TRY(caveats, sameAsLast(cache_->lastCaveats, run.caveats,
                               [&] { return textId(store::stringsJson(run.caveats)); }));
    LB_TRY(notes, sameAsLast(cache_->lastNotes, run.notes,
                             [&] { return textId(store::notesJson(run.notes)); }));
    // A run's own host is made when new. Without one a run takes its campaign's, else its
    // layout's.
    LB_TRY(host, runHostId(run.host));
    // Bound uncopied, like the run's own texts: they outlive the insert.
    const std::string argv = store::stringsJson(run.argv);
    const std::string origin = store::originJson(run.origin);
    const std::string uid = runUid();
    const auto packed = packOutput(run.stdoutText);
    const auto orNull = [](const std::string& text) {
        return text.empty() ? std::nullopt : std::optional<std::string_view>(text);
    };
    LB_TRY(ins, statement("INSERT INTO run(campaign_id, layout_id, workload, probe, iteration, "
                          "argv, exit_code, stdout, stderr, tool_version, started_at, finished_at, "
                          "wall_seconds, status, reason, caveats_id, source, notes_id, origin, "
                          "content_hash, source_line, uid, host_id, fill_permille, fill_bytes) "
                          "VALUES(?1, ?2, ?3, ?4, ?5, ?6, "
                          "?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, "
                          "?22, COALESCE(?23, (SELECT host_id "
                          "FROM campaign WHERE id = ?1), (SELECT host_id FROM layout WHERE id = "
                          "?2)), ?24, ?25)"));
    ins->bind(1, run.campaignId ? std::optional<std::int64_t>(run.campaignId) : std::nullopt)
        .bind(2, layoutId)
        .bindUncopied(3, run.workload)
        .bindUncopied(4, run.probe)
        .bind(5, run.iteration)
        .bindUncopied(6, argv)
        .bind(7, run.exitCode)
        .bindUncopied(9, run.stderrText)
        .bindUncopied(10, run.toolVersion)
        .bindUncopied(11, run.startedAt)
        .bindUncopied(12, run.finishedAt)
        .bind(13, run.wallSeconds)
        .bindUncopied(14, runStatusName(run.status))
        .bindUncopied(15, run.reason)
        .bind(16, caveats)
        .bindUncopied(17, orNull(run.source))
        .bind(18, notes)
        .bindUncopied(19, origin)
        .bindUncopied(20, orNull(run.contentHash))
        .bind(21, run.sourceLine > 0 ? std::optional<std::int64_t>(run.sourceLine) : std::nullopt)
        .bindUncopied(22, uid)
        .bind(23, host);
    bindFill(*ins, run);
    bindOutput(*ins, 8, run.stdoutText, packed);
    LB_TRY_VOID(ins->run());
    const std::int64_t runId = db_.lastInsertId();
    if (indexContent && !run.contentHash.empty()) {
        LB_TRY(hash, statement("INSERT OR IGNORE INTO run_hash(hash, run_id) VALUES(?1, ?2)"));
        LB_TRY_VOID(hash->bind(1, run.contentHash).bind(2, runId).run());
    }
    LB_TRY_VOID(insertMetrics(runId, run.metrics));
    LB_TRY_VOID(insertSeries(runId, run.series));
    return runId;
}

Expected<ImportedRunRef> Store::importedRun(std::int64_t runId) {
    LB_TRY(q, statement("SELECT r.id, l.id, l.name, COALESCE(r.source, ''), "
                        "COALESCE(r.source_line, 0), COALESCE(r.finished_at, '') FROM run r "
                        "JOIN layout l ON l.id = r.layout_id WHERE r.id = ?1"));
    q->bind(1, runId);
    LB_TRY(row, q->step());
    if (!row)
        return runtimeError(path() + ": no run " + std::to_string(runId));
    return ImportedRunRef{q->columnInt(0),  q->columnInt(1), q->columnText(2),
                          q->columnText(3), q->columnInt(4), q->columnText(5)};
}

Expected<std::optional<ImportedRunRef>> Store::importedRunWithContent(const std::string& hash) {
    std::int64_t runId = 0;
    {
        LB_TRY(q, statement("SELECT run_id FROM run_hash WHERE hash = ?1"));
        q->bind(1, hash);
        LB_TRY(row, q->step());
        if (!row)
            return std::optional<ImportedRunRef>{};
        runId = q->columnInt(0);
    }
    LB_TRY(ref, importedRun(runId));
    return std::optional<ImportedRunRef>(std::move(ref));
}

Expected<std::int64_t> Store::beginRun(std::int64_t layoutId, const Run& run) {
    Run pending = run;
    pending.status = RunStatus::Running;
    pending.metrics.clear();
    pending.series.clear();
    return insertRun(layoutId, pending);
}

Expected<void> Store::recordRunOutput(const Run& run) {
    LB_TRY(q, statement("UPDATE run SET exit_code = ?1, stdout = ?2, stderr = ?3, started_at = ?4, "
                        "finished_at = ?5, wall_seconds = ?6, tool_version = ?7 WHERE id = ?8"));
    const auto packed = packOutput(run.stdoutText);
    bindOutput(*q, 2, run.stdoutText, packed);
    return q->bind(1, run.exitCode)
        .bind(3, run.stderrText)
        .bind(4, run.startedAt)
        .bind(5, run.finishedAt)
        .bind(6, run.wallSeconds)
        .bind(7, run.toolVersion)
        .bind(8, run.id)
        .run();
}

Expected<void> Store::finishRun(const Run& run) {
    LB_TRY(tx, transaction());
    {
        LB_TRY(caveats, textId(store::stringsJson(run.caveats)));
        LB_TRY(notes, textId(store::notesJson(run.notes)));
        LB_TRY(q, statement("UPDATE run SET status = ?1, reason = ?2, caveats_id = ?3, notes_id = "
                            "?5 WHERE id = ?4"));
        LB_TRY_VOID(q->bind(1, runStatusName(run.status))
                        .bind(2, run.reason)
                        .bind(3, caveats)
                        .bind(4, run.id)
                        .bind(5, notes)
                        .run());
    }
    LB_TRY_VOID(insertMetrics(run.id, run.metrics));
    LB_TRY_VOID(insertSeries(run.id, run.series));
    return tx.commit();
}

Expected<void> Store::addRunNote(std::int64_t runId, const MetricNote& note) {
    std::optional<std::int64_t> textNow;
    {
        LB_TRY(q, statement("SELECT notes_id FROM run WHERE id = ?1"));
        q->bind(1, runId);
        LB_TRY(row, q->step());
        if (!row)
            return runtimeError("no run " + std::to_string(runId) + " in " + path());
        if (!q->columnIsNull(0))
            textNow = q->columnInt(0);
    }
    LB_TRY(text, runText(textNow));
    auto notes = store::notesFromJson(text);
    notes.push_back(note);
    LB_TRY(id, textId(store::notesJson(notes)));
    LB_TRY(u, statement("UPDATE run SET notes_id = ?1 WHERE id = ?2"));
    return u->bind(1, id).bind(2, runId).run();
}

Expected<std::size_t> Store::supersedeRuns(std::int64_t campaignId, const std::string& probe,
                                           const std::string& reason) {
    LB_TRY(q, statement("UPDATE run SET status = 'aborted', reason = ?3 WHERE campaign_id = ?1 "
                        "AND probe = ?2 AND status IN ('ok', 'failed')"));
    LB_TRY_VOID(q->bind(1, campaignId).bind(2, probe).bind(3, reason).run());
    return static_cast<std::size_t>(db_.changes());
}

Expected<std::size_t> Store::abortInterruptedRuns(std::int64_t campaignId,
                                                  const std::string& reason) {
    LB_TRY(q, statement("UPDATE run SET status = 'aborted', reason = ?2 WHERE campaign_id = ?1 "
                        "AND status = 'running'"));
    LB_TRY_VOID(q->bind(1, campaignId).bind(2, reason).run());
    return static_cast<std::size_t>(db_.changes());
}

Expected<std::vector<RunSlot>> Store::settledRuns(std::int64_t campaignId) {
    LB_TRY(q, statement("SELECT l.name, r.workload, r.iteration, r.fill_permille FROM run r JOIN "
                        "layout l ON l.id = r.layout_id WHERE r.campaign_id = ?1 AND r.status IN "
                        "('ok', 'failed')"));
    q->bind(1, campaignId);
    std::vector<RunSlot> out;
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) {
        std::optional<int> fill;
        if (!row.columnIsNull(3))
            fill = static_cast<int>(row.columnInt(3));
        out.push_back(
            {row.columnText(0), row.columnText(1), static_cast<int>(row.columnInt(2)), fill});
    }));
    return out;
}

Expected<std::map<std::string, int>> Store::workloadRunCounts(std::int64_t layoutId) {
    LB_TRY(q, statement("SELECT workload, COUNT(*) FROM run WHERE layout_id = ?1 GROUP BY "
                        "workload"));
    q->bind(1, layoutId);
    std::map<std::string, int> out;
    LB_TRY_VOID(q->forEachRow(
        [&](sql::Statement& row) { out[row.columnText(0)] = static_cast<int>(row.columnInt(1)); }));
    return out;
}

Expected<std::optional<std::int64_t>> Store::latestCampaignOf(const std::string& layout) {
    LB_TRY(q, statement("SELECT r.campaign_id FROM run r JOIN layout l ON l.id = r.layout_id "
                        "WHERE l.name = ?1 ORDER BY r.id DESC LIMIT 1"));
    q->bind(1, layout);
    LB_TRY(row, q->step());
    if (!row || q->columnInt(0) == 0)
        return std::optional<std::int64_t>{};
    return std::optional<std::int64_t>{q->columnInt(0)};
}

Expected<std::vector<std::int64_t>> Store::campaignsOfLayout(std::int64_t layoutId) {
    LB_TRY(q, statement("SELECT DISTINCT COALESCE(campaign_id, 0) FROM run WHERE layout_id = ?1 "
                        "ORDER BY 1"));
    q->bind(1, layoutId);
    std::vector<std::int64_t> out;
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) { out.push_back(row.columnInt(0)); }));
    return out;
}

namespace {

// The columns runs() and storedRuns() both begin with: id, campaign (0: imported), layout (its
// name, or its id when `layout` names it), workload, probe, iteration, status and reason.
template <typename StoredRunLike>
void readRunHead(sql::Statement& row, StoredRunLike& r,
                 std::optional<std::string_view> layout = std::nullopt) {
    r.id = row.columnInt(0);
    r.campaignId = row.columnInt(1);
    r.layout = layout ? std::string(*layout) : row.columnText(2);
    r.workload = row.columnText(3);
    r.probe = row.columnText(4);
    r.iteration = static_cast<int>(row.columnInt(5));
    // Read in place: the name is only looked up.
    r.status = runStatusFromName(row.columnBlob(6)).value_or(RunStatus::Failed);
    r.reason = row.columnText(7);
}

// A run's fill level and the bytes written to reach it, from columns `at` and `at` + 1.
template <typename Record> void readFill(sql::Statement& row, int at, Record& r) {
    if (!row.columnIsNull(at))
        r.fillLevel = fillLevelOf(static_cast<int>(row.columnInt(at)));
    if (!row.columnIsNull(at + 1))
        r.fillBytes = static_cast<std::uint64_t>(row.columnInt(at + 1));
}

} // namespace

Expected<std::vector<RunSummary>> Store::runs() {
    // Layouts and hosts are a handful: their names are read once, by id, where joining them
    // looked each run's up in both tables (200,000 lookups for 100,000 runs, a fifth of the
    // time the GUI takes to show a database). Staging layouts are left out, and their runs.
    std::unordered_map<std::int64_t, std::string> layoutNames, hostNames;
    {
        LB_TRY(q, statement("SELECT id, name FROM layout WHERE kind != ?1"));
        q->bind(1, stagedImportKind);
        LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) {
            layoutNames.emplace(row.columnInt(0), row.columnText(1));
        }));
    }
    {
        LB_TRY(q, statement("SELECT id, name FROM host"));
        LB_TRY_VOID(q->forEachRow(
            [&](sql::Statement& row) { hostNames.emplace(row.columnInt(0), row.columnText(1)); }));
    }
    // The metric count comes from the packed samples' length: no metric row is read.
    LB_TRY(q, statement("SELECT r.id, COALESCE(r.campaign_id, 0), r.layout_id, r.workload, "
                        "r.probe, r.iteration, r.status, r.reason, COALESCE(r.started_at, ''), "
                        "COALESCE(r.wall_seconds, 0), COALESCE(length(s.data), 0), r.host_id, "
                        "r.fill_permille, r.fill_bytes FROM run r LEFT JOIN run_sample s ON "
                        "s.run_id = r.id ORDER BY r.id"));
    // Sized once (SQLite counts the rows from an index's pages): grown run by run, the summaries
    // were moved seventeen times over at 100,000 runs.
    std::vector<RunSummary> out;
    {
        LB_TRY(count, statement("SELECT COUNT(*) FROM run"));
        LB_TRY(row, count->step());
        if (row)
            out.reserve(static_cast<std::size_t>(count->columnInt(0)));
    }
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) {
        const auto layout = layoutNames.find(row.columnInt(2));
        if (layout == layoutNames.end())
            return;
        RunSummary s;
        readRunHead(row, s, layout->second);
        s.startedAt = row.columnText(8);
        s.wallSeconds = row.columnDouble(9);
        s.metrics = row.columnInt(10) / static_cast<std::int64_t>(store::sampleBytes);
        if (!row.columnIsNull(11))
            if (const auto host = hostNames.find(row.columnInt(11)); host != hostNames.end())
                s.host = host->second;
        readFill(row, 12, s);
        out.push_back(std::move(s));
    }));
    return out;
}

Expected<std::vector<StoredRun>> Store::storedRuns(const RunQuery& query) {
    LB_TRY(q,
           statement("SELECT r.id, COALESCE(r.campaign_id, 0), l.name, r.workload, r.probe, "
                     "r.iteration, r.status, r.reason, r.argv, r.exit_code, "
                     "CASE WHEN ?2 = 2 OR (?2 = 1 AND r.status != 'ok') THEN r.stderr ELSE '' "
                     "END, CASE WHEN ?2 = 2 THEN r.stdout ELSE '' END, r.tool_version, "
                     "COALESCE(r.started_at, ''), COALESCE(r.finished_at, ''), "
                     "COALESCE(r.wall_seconds, 0), COALESCE(c.text, '[]'), COALESCE(n.text, '[]'), "
                     "COALESCE(r.source, ''), r.origin, COALESCE(length(s.data), 0), "
                     "COALESCE(h.name, ''), r.fill_permille, r.fill_bytes FROM run r JOIN layout l "
                     "ON l.id = r.layout_id "
                     "LEFT JOIN run_sample s ON s.run_id = r.id "
                     "LEFT JOIN host h ON h.id = r.host_id "
                     "LEFT JOIN run_text c ON c.id = r.caveats_id "
                     "LEFT JOIN run_text n ON n.id = r.notes_id "
                     "WHERE (?1 IS NULL OR r.campaign_id = ?1) ORDER BY r.id"));
    q->bind(1, query.campaignId).bind(2, static_cast<int>(query.output));
    std::vector<StoredRun> out;
    Expected<void> unpacked;
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) {
        if (!unpacked)
            return;
        StoredRun r;
        readRunHead(row, r);
        auto text = store::storedOutput(row, 11);
        if (!text) {
            unpacked = runtimeError(path() + ": run " + std::to_string(r.id) +
                                    ": stdout: " + text.error().message);
            return;
        }
        r.stdoutText = std::move(*text);
        r.argv = store::stringsFromJson(row.columnText(8));
        if (!row.columnIsNull(9))
            r.exitCode = static_cast<int>(row.columnInt(9));
        r.stderrText = row.columnText(10);
        r.toolVersion = row.columnText(12);
        r.startedAt = row.columnText(13);
        r.finishedAt = row.columnText(14);
        r.wallSeconds = row.columnDouble(15);
        r.caveats = store::stringsFromJson(row.columnText(16));
        r.notes = store::notesFromJson(row.columnText(17));
        r.source = row.columnText(18);
        r.origin = store::originFromJson(row.columnText(19));
        r.metrics = row.columnInt(20) / static_cast<std::int64_t>(store::sampleBytes);
        r.host = row.columnText(21);
        readFill(row, 22, r);
        out.push_back(std::move(r));
    }));
    LB_TRY_VOID(unpacked);
    return out;
}

Expected<std::vector<Metric>> Store::runMetrics(std::int64_t runId) {
    std::string packed;
    {
        LB_TRY(q, statement("SELECT data FROM run_sample WHERE run_id = ?1"));
        q->bind(1, runId);
        LB_TRY(row, q->step());
        if (row)
            packed = q->columnBlob(0);
    }
    const std::size_t n = packed.size() / store::sampleBytes;
    std::int64_t newest = -1;
    for (std::size_t i = 0; i < n; ++i)
        newest = std::max(newest, store::sampleId(packed, i));
    LB_TRY(kinds, metricKinds(newest));
    std::vector<Metric> out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const auto id = static_cast<std::size_t>(store::sampleId(packed, i));
        if (id >= kinds->size() || (*kinds)[id].name.empty())
            return runtimeError(path() + ": run " + std::to_string(runId) + " names metric id " +
                                std::to_string(id) + ", which metric_name does not hold");
        out.push_back({(*kinds)[id].name, store::sampleValue(packed, i), (*kinds)[id].unit});
    }
    std::sort(out.begin(), out.end(),
              [](const Metric& a, const Metric& b) { return a.name < b.name; });
    return out;
}

} // namespace lb
