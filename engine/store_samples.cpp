// What a comparison reads of a layout: its successful runs' metrics grouped by name, the notes on
// them and the workloads that failed. The metrics come from run_sample, one packed row per run
// (metric id, value), so a layout with 500 runs of 1,000 metrics is 500 rows, not 500,000 rows
// to sort by name.
#include "engine/store.h"
#include "engine/store_internal.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace lb {

Expected<std::vector<MetricSamples>> Store::metricSamples(const std::string& layout,
                                                          std::optional<std::int64_t> campaignId) {
    // started_at is ISO 8601 UTC with milliseconds; julianday() reads it, Z included. The run
    // index (layout_id, status) gives the rows in run order: no sort.
    LB_TRY(q,
           statement("SELECT COALESCE((julianday(r.started_at) - 2440587.5) * 86400.0, 0), "
                     "COALESCE(r.campaign_id, 0), r.workload, s.data FROM run r "
                     "JOIN run_sample s ON s.run_id = r.id "
                     "WHERE r.layout_id = (SELECT id FROM layout WHERE name = ?1) "
                     "AND r.status = 'ok' AND (?2 IS NULL OR r.campaign_id = ?2) ORDER BY r.id"));
    q->bind(1, layout).bind(2, campaignId);
    // Two passes over the runs: the first counts each metric's samples, so the second makes
    // every metric's vectors once at their size (growing them sample by sample was most of the
    // time). The packed rows are read where SQLite keeps them, never copied.
    std::vector<std::size_t> count; // by metric id
    std::int64_t newest = -1;
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) {
        const std::string_view packed = row.columnBlob(3);
        for (std::size_t i = 0; i < packed.size() / store::sampleBytes; ++i) {
            const auto id = static_cast<std::size_t>(store::sampleId(packed, i));
            if (id >= count.size())
                count.resize(id + 1, 0);
            ++count[id];
            newest = std::max(newest, static_cast<std::int64_t>(id));
        }
    }));
    if (newest < 0)
        return std::vector<MetricSamples>{};
    LB_TRY(kinds, metricKinds(newest));

    // Metrics by name, as the comparison reads them (a name stored with two units is one
    // metric), in the order the runs first measured them; each with the workload of that run.
    std::vector<MetricSamples> out;
    std::unordered_map<std::string, std::size_t> byName; // index in out
    std::vector<std::size_t> slot(count.size(), 0);      // metric id -> index in out + 1
    Expected<void> named;
    q->reset();
    q->bind(1, layout).bind(2, campaignId);
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) {
        if (!named)
            return;
        const double startedAt = row.columnDouble(0);
        const std::int64_t campaign = row.columnInt(1);
        const std::string_view packed = row.columnBlob(3);
        for (std::size_t i = 0; i < packed.size() / store::sampleBytes; ++i) {
            const auto id = static_cast<std::size_t>(store::sampleId(packed, i));
            if (id >= slot.size()) // a run stored since the first pass
                slot.resize(id + 1, 0);
            if (slot[id] == 0) {
                if (id >= kinds->size() || (*kinds)[id].name.empty()) {
                    named = runtimeError(path() + ": run_sample names metric id " +
                                         std::to_string(id) + ", which metric_name does not hold");
                    return;
                }
                const auto [it, added] = byName.emplace((*kinds)[id].name, out.size());
                if (added)
                    out.push_back({(*kinds)[id].name, {}, {}, {}, row.columnText(2)});
                slot[id] = it->second + 1;
                MetricSamples& m = out[it->second];
                const std::size_t n = m.values.size() + (id < count.size() ? count[id] : 0);
                m.values.reserve(n);
                m.startedAt.reserve(n);
                m.campaigns.reserve(n);
            }
            MetricSamples& m = out[slot[id] - 1];
            m.values.push_back(store::sampleValue(packed, i));
            m.startedAt.push_back(startedAt);
            m.campaigns.push_back(campaign);
        }
    }));
    LB_TRY_VOID(named);
    std::sort(out.begin(), out.end(),
              [](const MetricSamples& a, const MetricSamples& b) { return a.name < b.name; });
    return out;
}

Expected<LayoutSamples> Store::layoutSamples(const std::string& layout,
                                             std::optional<std::int64_t> campaignId) {
    LayoutSamples out;
    LB_TRY(metrics, metricSamples(layout, campaignId));
    out.metrics = std::move(metrics);
    {
        LB_TRY(notes, statement("SELECT DISTINCT r.notes FROM run r JOIN layout l ON l.id = "
                                "r.layout_id WHERE l.name = ?1 AND r.status = 'ok' AND r.notes != "
                                "'[]' AND (?2 IS NULL OR r.campaign_id = ?2)"));
        notes->bind(1, layout).bind(2, campaignId);
        LB_TRY_VOID(notes->forEachRow([&](sql::Statement& row) {
            for (auto& n : store::notesFromJson(row.columnText(0)))
                if (std::find(out.notes.begin(), out.notes.end(), n) == out.notes.end())
                    out.notes.push_back(std::move(n));
        }));
    }
    LB_TRY(failed, statement("SELECT r.workload, SUM(r.status = 'failed'), SUM(r.status = 'ok'), "
                             "(SELECT f.reason FROM run f WHERE f.layout_id = r.layout_id AND "
                             "f.workload = r.workload AND f.status = 'failed' AND (?2 IS NULL OR "
                             "f.campaign_id = ?2) ORDER BY f.id DESC LIMIT 1) FROM run r JOIN "
                             "layout l ON l.id = r.layout_id WHERE l.name = ?1 AND (?2 IS NULL OR "
                             "r.campaign_id = ?2) GROUP BY r.workload HAVING SUM(r.status = "
                             "'failed') > 0 ORDER BY r.workload"));
    failed->bind(1, layout).bind(2, campaignId);
    LB_TRY_VOID(failed->forEachRow([&](sql::Statement& row) {
        out.failed.push_back({row.columnText(0), static_cast<std::size_t>(row.columnInt(1)),
                              static_cast<std::size_t>(row.columnInt(2)), row.columnText(3)});
    }));
    return out;
}

Expected<Comparison> compareStoredLayouts(Store& store, const std::string& baseline,
                                          const std::string& candidate,
                                          const std::optional<ComparePolicy>& policy,
                                          std::optional<std::int64_t> campaignId) {
    for (const auto& [field, name] :
         {std::pair{"baseline", &baseline}, std::pair{"candidate", &candidate}}) {
        LB_TRY(found, store.findLayout(*name));
        if (!found)
            return badInput(std::string(field) + ": no layout named '" + *name + "' in " +
                            store.path());
    }
    LB_TRY(b, store.layoutSamples(baseline, campaignId));
    LB_TRY(c, store.layoutSamples(candidate, campaignId));
    return compareLoadedLayouts(store, baseline, b, candidate, c, policy, campaignId);
}

Expected<Comparison> compareLoadedLayouts(Store& store, const std::string& baseline,
                                          const LayoutSamples& b, const std::string& candidate,
                                          const LayoutSamples& c,
                                          const std::optional<ComparePolicy>& policy,
                                          std::optional<std::int64_t> campaignId) {
    std::optional<std::int64_t> campaign = campaignId;
    if (!campaign) {
        LB_TRY(latest, store.latestCampaignOf(candidate));
        campaign = latest;
    }
    ComparePolicy rule;
    if (policy) {
        rule = *policy;
    } else if (campaign) {
        LB_TRY(stored, store.campaignPolicy(*campaign));
        rule = stored.value_or(ComparePolicy{});
    }
    auto cmp = compareLayouts(baseline, b, candidate, c, rule);
    if (cmp.metrics.empty())
        return badInput("no metric was measured successfully on both '" + baseline + "' and '" +
                        candidate + "'");
    if (campaign)
        addDrift(cmp, baselineDrift(b.metrics, *campaign, cmp));
    return cmp;
}

} // namespace lb
