// The store's SSD preconditioning records: the steps that ran before a layout's measured runs,
// raw output included, for the report's steady-state table and chart.
#include "engine/store/store.h"
#include "engine/store/store_internal.h"

namespace lb {

Expected<std::int64_t> Store::addConditioningStep(const ConditioningStep& step) {
    LB_TRY(q, statement("INSERT INTO conditioning(campaign_id, layout_id, workload, round, "
                        "tracked, value, bytes, argv, exit_code, stdout, stderr, started_at, "
                        "finished_at, wall_seconds, error) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, "
                        "?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"));
    std::optional<std::int64_t> bytes;
    if (step.bytes)
        bytes = static_cast<std::int64_t>(*step.bytes);
    LB_TRY_VOID(q->bind(1, step.campaignId)
                    .bind(2, step.layoutId)
                    .bind(3, step.workload)
                    .bind(4, step.round)
                    .bind(5, step.tracked)
                    .bind(6, step.value)
                    .bind(7, bytes)
                    .bind(8, store::stringsJson(step.argv))
                    .bind(9, step.exitCode)
                    .bind(10, step.stdoutText)
                    .bind(11, step.stderrText)
                    .bind(12, step.startedAt)
                    .bind(13, step.finishedAt)
                    .bind(14, step.wallSeconds)
                    .bind(15, step.error)
                    .run());
    return db_.lastInsertId();
}

Expected<std::vector<ConditioningStep>> Store::conditioningSteps(std::int64_t campaignId) {
    LB_TRY(q, statement("SELECT c.id, c.layout_id, l.name, c.workload, c.round, c.tracked, "
                        "c.value, c.bytes, c.argv, c.exit_code, c.stdout, c.stderr, "
                        "COALESCE(c.started_at, ''), COALESCE(c.finished_at, ''), "
                        "COALESCE(c.wall_seconds, 0), c.error FROM conditioning c "
                        "JOIN layout l ON l.id = c.layout_id WHERE c.campaign_id = ?1 "
                        "ORDER BY c.id"));
    q->bind(1, campaignId);
    std::vector<ConditioningStep> out;
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) {
        ConditioningStep s;
        s.id = row.columnInt(0);
        s.campaignId = campaignId;
        s.layoutId = row.columnInt(1);
        s.layout = row.columnText(2);
        s.workload = row.columnText(3);
        s.round = static_cast<int>(row.columnInt(4));
        s.tracked = row.columnText(5);
        if (!row.columnIsNull(6))
            s.value = row.columnDouble(6);
        if (!row.columnIsNull(7))
            s.bytes = static_cast<std::uint64_t>(row.columnInt(7));
        s.argv = store::stringsFromJson(row.columnText(8));
        if (!row.columnIsNull(9))
            s.exitCode = static_cast<int>(row.columnInt(9));
        s.stdoutText = row.columnText(10);
        s.stderrText = row.columnText(11);
        s.startedAt = row.columnText(12);
        s.finishedAt = row.columnText(13);
        s.wallSeconds = row.columnDouble(14);
        s.error = row.columnText(15);
        out.push_back(std::move(s));
    }));
    return out;
}

} // namespace lb
