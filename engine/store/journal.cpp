// The plan journal's SQL (see journal.h).
#include "engine/store/journal.h"

#include "engine/store/store.h"
#include "engine/store/store_internal.h"

#include <cassert>

namespace lb {

namespace {

// The argv an undo is journaled with and replayed from. An undo never carries a secret: the
// journal keeps argv only, so a secret stdin would be lost (and must never be stored anyway).
std::vector<std::string> argvOf(const Command& c) {
    assert(c.secretStdin.empty());
    std::vector<std::string> v{c.program};
    v.insert(v.end(), c.args.begin(), c.args.end());
    return v;
}

} // namespace

std::string stepOutput(const ProcessResult& r) {
    std::string out = r.stdoutText;
    if (!r.stderrText.empty())
        out += (out.empty() ? "" : "\n") + r.stderrText;
    return out;
}

Expected<std::int64_t> Journal::beginBuild(std::int64_t campaignId, std::int64_t layoutId,
                                           const PlanStep& step, RunsOn runsOn) {
    // The journal numbers a campaign's steps in the order they ran, undo steps included.
    LB_TRY(ins, store_.statement("INSERT INTO plan_step(campaign_id, layout_id, seq, phase, argv, "
                                 "undo_argv, started_at, status, runs_on) VALUES(?1, ?2, (SELECT "
                                 "COALESCE(MAX(seq), 0) + 1 FROM plan_step WHERE campaign_id = "
                                 "?1), 'build', ?3, ?4, ?5, 'running', ?6)"));
    ins->bind(1, campaignId)
        .bind(2, layoutId)
        .bind(3, store::stringsJson(step.command.argvForDisplay()))
        .bind(4, step.undo ? std::optional<std::string>(store::stringsJson(argvOf(*step.undo)))
                           : std::nullopt)
        .bind(5, store_.now())
        .bind(6, enumName(runsOn));
    LB_TRY_VOID(ins->run());
    return store_.database().lastInsertId();
}

Expected<void> Journal::finishBuild(std::int64_t stepId, const Expected<ProcessResult>& result,
                                    StepStatus status) {
    LB_TRY(upd, store_.statement("UPDATE plan_step SET exit_code = ?1, output = ?2, finished_at = "
                                 "?3, status = ?4 WHERE id = ?5"));
    return upd->bind(1, result ? std::optional<std::int64_t>(result->exitCode) : std::nullopt)
        .bind(2, result ? stepOutput(*result) : result.error().message)
        .bind(3, store_.now())
        .bind(4, enumName(status))
        .bind(5, stepId)
        .run();
}

Expected<std::vector<PendingUndo>> Journal::pendingUndos(std::int64_t campaignId,
                                                         std::optional<std::int64_t> layoutId) {
    // 'running' steps are included: a crash during the command leaves us unsure it applied, and
    // every undo is safe to run on something that does not exist.
    LB_TRY(q, store_.statement("SELECT id, layout_id, undo_argv, status, runs_on FROM plan_step "
                               "WHERE campaign_id = ?1 AND phase = 'build' AND status IN "
                               "('applied', 'running') AND undo_argv IS NOT NULL AND (?2 IS NULL "
                               "OR layout_id = ?2) ORDER BY seq DESC"));
    q->bind(1, campaignId).bind(2, layoutId);
    std::vector<PendingUndo> out;
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) {
        out.push_back({row.columnInt(0), row.columnInt(1),
                       store::stringsFromJson(row.columnText(2)), row.columnText(3) == "applied",
                       enumFromName<RunsOn>(row.columnText(4)).value_or(RunsOn::Host)});
    }));
    return out;
}

Expected<void> Journal::recordUndo(std::int64_t campaignId, const PendingUndo& undo,
                                   const std::string& startedAt,
                                   const Expected<ProcessResult>& result) {
    const bool ok = result && result->ok();
    LB_TRY(ins, store_.statement("INSERT INTO plan_step(campaign_id, layout_id, seq, phase, argv, "
                                 "exit_code, output, started_at, finished_at, status, runs_on) "
                                 "VALUES(?1, ?2, (SELECT COALESCE(MAX(seq), 0) + 1 FROM plan_step "
                                 "WHERE campaign_id = ?1), 'undo', ?3, ?4, ?5, ?6, ?7, ?8, ?9)"));
    return ins->bind(1, campaignId)
        .bind(2, undo.layoutId)
        .bind(3, store::stringsJson(undo.undo))
        .bind(4, result ? std::optional<std::int64_t>(result->exitCode) : std::nullopt)
        .bind(5, result ? stepOutput(*result) : result.error().message)
        .bind(6, startedAt)
        .bind(7, store_.now())
        .bind(8, enumName(ok ? StepStatus::Applied : StepStatus::Failed))
        .bind(9, enumName(undo.runsOn))
        .run();
}

Expected<void> Journal::markUndone(std::int64_t stepId) {
    LB_TRY(upd, store_.statement("UPDATE plan_step SET status = 'undone' WHERE id = ?1"));
    return upd->bind(1, stepId).run();
}

Expected<std::vector<JournalStep>> Journal::steps(std::optional<std::int64_t> campaignId) {
    LB_TRY(q, store_.statement(
                  "SELECT p.id, COALESCE(p.campaign_id, 0), COALESCE(p.layout_id, 0), "
                  "COALESCE(l.name, ''), p.seq, p.phase, p.argv, p.undo_argv, p.exit_code, "
                  "p.output, COALESCE(p.started_at, ''), COALESCE(p.finished_at, ''), p.status, "
                  "p.runs_on FROM plan_step p LEFT JOIN layout l ON l.id = p.layout_id WHERE (?1 "
                  "IS NULL OR p.campaign_id = ?1) ORDER BY p.campaign_id, p.seq"));
    q->bind(1, campaignId);
    std::vector<JournalStep> out;
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) {
        JournalStep s;
        s.id = row.columnInt(0);
        s.campaignId = row.columnInt(1);
        s.layoutId = row.columnInt(2);
        s.layout = row.columnText(3);
        s.seq = row.columnInt(4);
        s.phase = enumFromName<StepPhase>(row.columnText(5)).value_or(StepPhase::Build);
        s.argv = store::stringsFromJson(row.columnText(6));
        if (!row.columnIsNull(7))
            s.undo = store::stringsFromJson(row.columnText(7));
        if (!row.columnIsNull(8))
            s.exitCode = static_cast<int>(row.columnInt(8));
        s.output = row.columnText(9);
        s.startedAt = row.columnText(10);
        s.finishedAt = row.columnText(11);
        s.status = enumFromName<StepStatus>(row.columnText(12)).value_or(StepStatus::Failed);
        s.runsOn = enumFromName<RunsOn>(row.columnText(13)).value_or(RunsOn::Host);
        out.push_back(std::move(s));
    }));
    return out;
}

} // namespace lb
