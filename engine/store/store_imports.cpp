// The store's side of a streaming import (engine/store/import_stage.h): staging layouts, which hold
// an import's runs while it is under way, and handing their runs to the layout named.
#include "engine/store/store.h"
#include "engine/store/store_internal.h"

namespace lb {

Expected<std::vector<std::int64_t>> Store::stagedLayouts() {
    LB_TRY(q, statement("SELECT id FROM layout WHERE kind = ?1"));
    q->bind(1, stagedImportKind);
    std::vector<std::int64_t> ids;
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) { ids.push_back(row.columnInt(0)); }));
    return ids;
}

// Its samples go with its runs (ON DELETE CASCADE).
Expected<void> Store::deleteStagedLayout(std::int64_t layoutId) {
    LB_TRY(runs, statement("DELETE FROM run WHERE layout_id = ?1"));
    LB_TRY_VOID(runs->bind(1, layoutId).run());
    LB_TRY(layout, statement("DELETE FROM layout WHERE id = ?1 AND kind = ?2"));
    return layout->bind(1, layoutId).bind(2, stagedImportKind).run();
}

Expected<ImportMarks> Store::importMarks() {
    LB_TRY(q, statement("SELECT (SELECT COALESCE(MAX(id), 0) FROM host), (SELECT COALESCE(MAX(id), "
                        "0) FROM run_text), (SELECT COALESCE(MAX(id), 0) FROM metric_name), "
                        "(SELECT COALESCE(MAX(id), 0) FROM run)"));
    LB_TRY(row, q->step());
    if (!row)
        return runtimeError(path() + ": no row for the import's marks");
    ImportMarks marks{q->columnInt(0), q->columnInt(1), q->columnInt(2), q->columnInt(3)};
    q->reset();
    return marks;
}

Expected<void> Store::deleteImportLeftovers(const ImportMarks& marks) {
    LB_TRY(hosts, statement("DELETE FROM host WHERE id > ?1 AND NOT EXISTS (SELECT 1 FROM run "
                            "WHERE run.host_id = host.id) AND NOT EXISTS (SELECT 1 FROM layout "
                            "WHERE layout.host_id = host.id) AND NOT EXISTS (SELECT 1 FROM "
                            "campaign WHERE campaign.host_id = host.id) AND NOT EXISTS (SELECT 1 "
                            "FROM disk WHERE disk.host_id = host.id)"));
    LB_TRY_VOID(hosts->bind(1, marks.host).run());
    LB_TRY(texts, statement("DELETE FROM run_text WHERE id > ?1 AND NOT EXISTS (SELECT 1 FROM run "
                            "WHERE run.caveats_id = run_text.id OR run.notes_id = run_text.id)"));
    LB_TRY_VOID(texts->bind(1, marks.text).run());
    LB_TRY(names, statement("DELETE FROM metric_name WHERE id > ?1 AND NOT EXISTS (SELECT 1 FROM "
                            "run WHERE id > ?2)"));
    LB_TRY_VOID(names->bind(1, marks.metricName).bind(2, marks.run).run());
    // The ids known for what was deleted are gone with it.
    cache_->forget();
    return {};
}

Expected<void> Store::adoptStagedLayout(std::int64_t stagingId, const std::string& name,
                                        const std::string& kind, const std::string& specJson,
                                        std::int64_t hostId) {
    LB_TRY(q, statement("UPDATE layout SET name = ?1, kind = ?2, spec = ?3, host_id = ?4, "
                        "created_at = ?5 WHERE id = ?6"));
    return q->bind(1, name)
        .bind(2, kind)
        .bind(3, specJson)
        .bind(4, hostId)
        .bind(5, now())
        .bind(6, stagingId)
        .run();
}

Expected<void> Store::moveStagedRuns(std::int64_t stagingId, std::int64_t layoutId) {
    LB_TRY(before, workloadRunCounts(layoutId));
    LB_TRY(staged, workloadRunCounts(stagingId));
    LB_TRY(move, statement("UPDATE run SET layout_id = ?1, iteration = iteration + ?2 WHERE "
                           "layout_id = ?3 AND workload = ?4"));
    for (const auto& [workload, count] : staged) {
        (void)count;
        const auto held = before.find(workload);
        LB_TRY_VOID(move->bind(1, layoutId)
                        .bind(2, held == before.end() ? 0 : held->second)
                        .bind(3, stagingId)
                        .bind(4, workload)
                        .run());
        move->reset();
    }
    LB_TRY(drop, statement("DELETE FROM layout WHERE id = ?1 AND kind = ?2"));
    return drop->bind(1, stagingId).bind(2, stagedImportKind).run();
}

Expected<std::int64_t> Store::stageRun(std::int64_t stagingId, const Run& run) {
    return insertRunRow(stagingId, run, false);
}

// Sorted, the hashes are added to run_hash in one pass over its pages.
Expected<std::int64_t> Store::publishStagedContent(std::int64_t stagingId) {
    LB_TRY(q,
           statement("INSERT OR IGNORE INTO run_hash(hash, run_id) SELECT content_hash, id "
                     "FROM run WHERE layout_id = ?1 AND content_hash IS NOT NULL ORDER BY 1, 2"));
    LB_TRY_VOID(q->bind(1, stagingId).run());
    return db_.changes();
}

// After publishStagedContent, a staged run whose hash names another run is a repeat: of an
// earlier staged run (the smallest id went in first) or of a published one.
Expected<std::optional<RepeatedContent>> Store::repeatedStagedContent(std::int64_t stagingId) {
    std::int64_t first = 0, again = 0;
    {
        LB_TRY(q, statement("SELECT h.run_id, s.id FROM run s JOIN run_hash h ON h.hash = "
                            "s.content_hash WHERE s.layout_id = ?1 AND h.run_id != s.id ORDER BY "
                            "s.id LIMIT 1"));
        q->bind(1, stagingId);
        LB_TRY(row, q->step());
        if (!row)
            return std::optional<RepeatedContent>{};
        first = q->columnInt(0);
        again = q->columnInt(1);
    }
    LB_TRY(firstRef, importedRun(first));
    LB_TRY(againRef, importedRun(again));
    return std::optional<RepeatedContent>(
        RepeatedContent{std::move(firstRef), std::move(againRef)});
}

} // namespace lb
