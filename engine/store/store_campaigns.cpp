// The store's campaigns: the scenario each ran (secrets masked), where, its status, the rule its
// layouts are judged by and the I/O path it chose.
#include "engine/store/store.h"
#include "engine/store/store_internal.h"

#include <nlohmann/json.hpp>

namespace lb {

Expected<std::int64_t> Store::createCampaign(const NewCampaign& c) {
    LB_TRY(q, statement("INSERT INTO campaign(name, scenario_path, scenario, host_id, inventory, "
                        "started_at, status) VALUES(?1, ?2, ?3, ?4, ?5, ?6, 'running')"));
    LB_TRY_VOID(q->bind(1, c.name)
                    .bind(2, c.scenarioPath)
                    .bind(3, c.scenario)
                    .bind(4, c.hostId)
                    .bind(5, c.inventory)
                    .bind(6, now())
                    .run());
    return db_.lastInsertId();
}

Expected<void> Store::setCampaignStatus(std::int64_t campaignId, CampaignStatus status,
                                        bool finished) {
    LB_TRY(q, statement("UPDATE campaign SET status = ?1, finished_at = ?2 WHERE id = ?3"));
    return q->bind(1, enumName(status))
        .bind(2, finished ? std::optional<std::string>(now()) : std::nullopt)
        .bind(3, campaignId)
        .run();
}

Expected<std::optional<StoredCampaign>> Store::campaign(std::int64_t campaignId) {
    LB_TRY(q, statement("SELECT id, name, COALESCE(scenario_path, ''), COALESCE(scenario, ''), "
                        "inventory, status, started_at, COALESCE(finished_at, '') FROM campaign "
                        "WHERE id = ?1"));
    q->bind(1, campaignId);
    LB_TRY(row, q->step());
    if (!row)
        return std::optional<StoredCampaign>{};
    StoredCampaign c;
    c.id = q->columnInt(0);
    c.name = q->columnText(1);
    c.scenarioPath = q->columnText(2);
    c.scenario = q->columnText(3);
    c.inventory = q->columnText(4);
    c.status = enumFromName<CampaignStatus>(q->columnText(5)).value_or(CampaignStatus::Failed);
    c.startedAt = q->columnText(6);
    c.finishedAt = q->columnText(7);
    return std::optional<StoredCampaign>{std::move(c)};
}

Expected<std::map<std::string, LayoutRunCounts>>
Store::campaignLayoutRuns(std::int64_t campaignId) {
    LB_TRY(q, statement("SELECT l.name, COUNT(*), SUM(CASE WHEN r.status != 'ok' THEN 1 ELSE 0 "
                        "END) FROM run r JOIN layout l ON l.id = r.layout_id WHERE r.campaign_id "
                        "= ?1 GROUP BY l.name"));
    q->bind(1, campaignId);
    std::map<std::string, LayoutRunCounts> out;
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) {
        out[row.columnText(0)] = {row.columnInt(1), row.columnInt(2)};
    }));
    return out;
}

Expected<void> Store::setCampaignPolicy(std::int64_t campaignId, const ComparePolicy& policy) {
    LB_TRY(q, statement("UPDATE campaign SET policy = ?1 WHERE id = ?2"));
    const nlohmann::json j{{"viable_max", policy.thresholds.viableMax},
                           {"not_viable_min", policy.thresholds.notViableMin},
                           {"decide", policy.decide}};
    return q->bind(1, j.dump()).bind(2, campaignId).run();
}

Expected<std::optional<ComparePolicy>> Store::campaignPolicy(std::int64_t campaignId) {
    LB_TRY(q, statement("SELECT policy FROM campaign WHERE id = ?1"));
    q->bind(1, campaignId);
    LB_TRY(row, q->step());
    if (!row)
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
    LB_TRY(q, statement("UPDATE campaign SET io = ?1 WHERE id = ?2"));
    const nlohmann::json j{{"direct", io.direct},
                           {"why", io.why},
                           {"cold_cache", io.coldCache},
                           {"page_cache_dropped", io.pageCacheDropped}};
    return q->bind(1, j.dump()).bind(2, campaignId).run();
}

Expected<std::optional<CampaignIo>> Store::campaignIo(std::int64_t campaignId) {
    LB_TRY(q, statement("SELECT io FROM campaign WHERE id = ?1"));
    q->bind(1, campaignId);
    LB_TRY(row, q->step());
    if (!row)
        return std::optional<CampaignIo>{};
    const auto j = nlohmann::json::parse(q->columnText(0), nullptr, false);
    if (!j.is_object() || !j.contains("direct") || !j["direct"].is_boolean())
        return std::optional<CampaignIo>{}; // not decided yet, or from before it was stored
    const bool cold = j.value("cold_cache", true);
    return std::optional<CampaignIo>{CampaignIo{j["direct"].get<bool>(), j.value("why", ""), cold,
                                                j.value("page_cache_dropped", cold)}};
}

Expected<std::vector<CampaignRecord>> Store::campaigns() {
    LB_TRY(q, statement("SELECT c.id, c.name, COALESCE(c.scenario_path, ''), c.status, "
                        "c.started_at, COALESCE(c.finished_at, ''), "
                        "(SELECT COUNT(*) FROM run r WHERE r.campaign_id = c.id) "
                        "FROM campaign c ORDER BY c.id"));
    std::vector<CampaignRecord> out;
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) {
        out.push_back(
            {row.columnInt(0), row.columnText(1), row.columnText(2),
             enumFromName<CampaignStatus>(row.columnText(3)).value_or(CampaignStatus::Failed),
             row.columnText(4), row.columnText(5), row.columnInt(6)});
    }));
    return out;
}

} // namespace lb
