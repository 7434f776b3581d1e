// What runs measured over their course: one run_series row per series of a run (fio's
// per-interval bandwidth, IOPS and latency), its points packed (store_internal.h), written with
// the run's metrics and read back for the charts.
#include "engine/store/store.h"
#include "engine/store/store_internal.h"

namespace lb {

namespace {

Series seriesOfRow(sql::Statement& row, int first) {
    Series s;
    s.name = row.columnText(first);
    s.xUnit = unitFromName(row.columnText(first + 1)).value_or(Unit::Count);
    s.unit = unitFromName(row.columnText(first + 2)).value_or(Unit::Count);
    store::unpackPoints(row.columnBlob(first + 3), s);
    return s;
}

} // namespace

Expected<void> Store::insertSeries(std::int64_t runId, const std::vector<Series>& series) {
    if (series.empty())
        return {};
    LB_TRY(s, statement("INSERT INTO run_series(run_id, name, x_unit, unit, data) "
                        "VALUES(?1, ?2, ?3, ?4, ?5)"));
    for (const auto& one : series) {
        const std::string points = store::packPoints(one); // outlives the insert
        LB_TRY_VOID(s->bind(1, runId)
                        .bindUncopied(2, one.name)
                        .bindUncopied(3, unitName(one.xUnit)) // static names
                        .bindUncopied(4, unitName(one.unit))
                        .bindBlobUncopied(5, points)
                        .run());
    }
    return {};
}

Expected<std::vector<Series>> Store::runSeries(std::int64_t runId) {
    LB_TRY(q, statement("SELECT name, x_unit, unit, data FROM run_series WHERE run_id = ?1 "
                        "ORDER BY name"));
    q->bind(1, runId);
    std::vector<Series> out;
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) { out.push_back(seriesOfRow(row, 0)); }));
    return out;
}

Expected<std::vector<RunSeries>> Store::layoutSeries(const std::string& layout,
                                                     std::optional<std::int64_t> campaignId,
                                                     const std::optional<std::string>& host) {
    LB_TRY(q, statement("SELECT r.id, COALESCE(r.campaign_id, 0), r.workload, r.iteration, s.name, "
                        "s.x_unit, s.unit, s.data FROM run r JOIN run_series s ON s.run_id = r.id "
                        "WHERE r.layout_id = (SELECT id FROM layout WHERE name = ?1) AND "
                        "r.status = 'ok' AND (?2 IS NULL OR r.campaign_id = ?2) AND (?3 IS NULL "
                        "OR r.host_id = (SELECT id FROM host WHERE name = ?3)) "
                        "ORDER BY r.id, s.name"));
    q->bind(1, layout).bind(2, campaignId).bind(3, host);
    std::vector<RunSeries> out;
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) {
        if (out.empty() || out.back().runId != row.columnInt(0))
            out.push_back({row.columnInt(0),
                           row.columnInt(1),
                           row.columnText(2),
                           static_cast<int>(row.columnInt(3)),
                           {}});
        out.back().series.push_back(seriesOfRow(row, 4));
    }));
    return out;
}

} // namespace lb
