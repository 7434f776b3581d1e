// What a comparison reads of a layout: its successful runs' metrics grouped by name, the notes on
// them and the workloads that failed. The metrics come from run_sample, one packed row per run
// (metric id, value), so a layout with 500 runs of 1,000 metrics is 500 rows, not 500,000 rows
// to sort by name.
#include "engine/base/joined.h"
#include "engine/store/store.h"
#include "engine/store/store_internal.h"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

namespace lb {

Expected<std::vector<MetricSamples>> Store::metricSamples(const std::string& layout,
                                                          std::optional<std::int64_t> campaignId) {
    LB_TRY(samples, layoutSamples(layout, campaignId));
    return std::move(samples.metrics);
}

namespace {

// A tool's version as method notes on the metrics its runs give ("version=fio-3.33" on fio.*),
// so a comparison holds two versions against each other as it holds two block sizes: a caveat
// next to each metric (engine/measure/analysis.h). fio also drives the iSCSI and NFS clients' jobs.
std::vector<MetricNote> versionNotes(const std::string& probe, const std::string& version) {
    std::vector<MetricNote> out{{MetricNote::Kind::Method, probe + ".*", "version=" + version}};
    if (probe == "fio")
        for (const char* family : {"iscsi.*", "nfs.*"})
            out.push_back({MetricNote::Kind::Method, family, "version=" + version});
    return out;
}

// A successful run as the samples pass keeps it: when it started, its campaign, its workload
// (an index) and where its packed samples lie in the pass's buffer.
struct OkRun {
    std::int64_t id = 0;
    double startedAt = 0;
    std::int64_t campaign = 0;
    std::size_t workload = 0;
    std::size_t begin = 0, end = 0; // byte offsets
};

// The runs' samples grouped by metric name (a name stored with two units is one metric), sorted,
// each with the workload of the run that measured it first. `count`: each metric id's samples,
// so every metric's vectors are made once at their size (growing them sample by sample was most
// of the time). `kinds`: the name of each metric id.
template <typename Kinds>
Expected<std::vector<MetricSamples>>
samplesByName(const std::vector<OkRun>& runs, std::string_view packed,
              const std::vector<std::string>& workloads, const std::vector<std::size_t>& count,
              const Kinds& kinds, const std::string& path) {
    std::vector<MetricSamples> out;
    std::unordered_map<std::string, std::size_t> byName; // index in out
    std::vector<std::size_t> slot(count.size(), 0);      // metric id -> index in out + 1
    auto table = std::make_shared<std::vector<SampleRun>>();
    table->reserve(runs.size());
    for (const OkRun& run : runs)
        table->push_back({run.id, run.startedAt, run.campaign});
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const OkRun& run = runs[r];
        const auto runIndex = static_cast<std::uint32_t>(r);
        for (std::size_t i = run.begin / store::sampleBytes; i < run.end / store::sampleBytes;
             ++i) {
            const auto id = static_cast<std::size_t>(store::sampleId(packed, i));
            if (slot[id] == 0) {
                if (id >= kinds.size() || kinds[id].name.empty())
                    return runtimeError(path + ": run_sample names metric id " +
                                        std::to_string(id) + ", which metric_name does not hold");
                const auto [it, added] = byName.emplace(kinds[id].name, out.size());
                if (added)
                    out.push_back({kinds[id].name, {}, workloads[run.workload], {}, table});
                slot[id] = it->second + 1;
                MetricSamples& m = out[it->second];
                const std::size_t n = m.values.size() + count[id];
                m.values.reserve(n);
                m.runOf.reserve(n);
            }
            MetricSamples& m = out[slot[id] - 1];
            m.values.push_back(store::sampleValue(packed, i));
            m.runOf.push_back(runIndex);
        }
    }
    std::sort(out.begin(), out.end(),
              [](const MetricSamples& a, const MetricSamples& b) { return a.name < b.name; });
    return out;
}

// The run_text ids of the notes or of the caveats met, each once, in order, with the runs that
// refer to each.
struct DistinctTexts {
    std::vector<std::int64_t> ids;
    std::unordered_map<std::int64_t, std::size_t> runs;
    // The workloads (indexes) of the runs that refer to each, with how many runs of each.
    std::unordered_map<std::int64_t, std::vector<std::pair<std::size_t, std::size_t>>> workloads;
    void add(sql::Statement& row, int column, std::size_t workload) {
        if (row.columnIsNull(column))
            return;
        const std::int64_t id = row.columnInt(column);
        if (runs[id]++ == 0)
            ids.push_back(id);
        auto& of = workloads[id];
        const auto w = std::find_if(of.begin(), of.end(),
                                    [workload](const auto& wc) { return wc.first == workload; });
        if (w == of.end())
            of.emplace_back(workload, 1);
        else
            ++w->second;
    }
};

// layoutSamples' query with only the filters given in its WHERE clause: a term "?3 IS NULL OR
// ..." was evaluated for every row, three of them 5 % of a comparison's instructions. Each of the
// eight is made once and kept, so the store's statement cache finds it by its address.
const char* okRunsQuery(bool campaign, bool host, bool fill) {
    static const std::array<std::string, 8> queries = [] {
        std::array<std::string, 8> out;
        for (std::size_t mask = 0; mask < out.size(); ++mask)
            out[mask] = std::string("SELECT r.started_at, COALESCE(r.campaign_id, 0), r.workload, "
                                    "r.notes_id, s.data, r.caveats_id, r.id, r.probe, "
                                    "r.tool_version FROM run r LEFT JOIN run_sample s ON "
                                    "s.run_id = r.id WHERE r.layout_id = (SELECT id FROM layout "
                                    "WHERE name = ?1) AND r.status = 'ok'") +
                        (mask & 1 ? " AND r.campaign_id = ?2" : "") +
                        (mask & 2 ? " AND r.host_id = (SELECT id FROM host WHERE name = ?3)" : "") +
                        (mask & 4 ? " AND COALESCE(r.fill_permille, -1) = ?4" : "") +
                        " ORDER BY r.id";
        return out;
    }();
    return queries[(campaign ? 1U : 0U) | (host ? 2U : 0U) | (fill ? 4U : 0U)].c_str();
}

// A run's start as seconds since 1970: read here (store::isoUtcSeconds), else by `julian`, the
// statement of SQLite's julianday() arithmetic on ?1; its error, if it fails, kept in `unread`.
struct StartSeconds {
    sql::Statement& julian;
    std::optional<Error> unread;
    double operator()(std::string_view startedAt) {
        if (startedAt.empty())
            return 0; // not known (an import's run): julianday() reads nothing either
        if (const auto s = store::isoUtcSeconds(startedAt))
            return *s;
        julian.reset();
        auto row = julian.bindUncopied(1, startedAt).step();
        if (!row)
            unread = row.error();
        return row && *row ? julian.columnDouble(0) : 0.0;
    }
};

// What one pass over a layout's successful runs gathers: their packed samples copied into one
// buffer, their workloads with how many runs each, the texts of their notes and caveats, and the
// tool versions met by probe with how many runs each (compared like the work a run did,
// versionNotes).
struct OkRunsRead {
    std::vector<OkRun> runs;
    std::string packed;                                         // every run's samples in turn
    std::vector<std::string> workloads;                         // by index
    std::map<std::string, std::size_t, std::less<>> byWorkload; // the index of each
    std::vector<std::size_t> okCount;                           // by workload index
    DistinctTexts noteTexts, caveatTexts;
    std::vector<std::pair<std::string, std::string>> versions;
    std::vector<std::size_t> versionRuns;

    // A row of layoutSamples' query; `seconds` reads its start.
    void add(sql::Statement& row, StartSeconds& seconds) {
        const std::string_view workload = row.columnBlob(2);
        auto w = byWorkload.find(workload);
        if (w == byWorkload.end()) {
            w = byWorkload.emplace(std::string(workload), workloads.size()).first;
            workloads.emplace_back(workload);
            okCount.push_back(0);
        }
        ++okCount[w->second];
        noteTexts.add(row, 3, w->second);
        caveatTexts.add(row, 5, w->second);
        if (const std::string_view version = row.columnBlob(8); !version.empty())
            addVersion(row.columnBlob(7), version);
        const std::string_view data = row.columnBlob(4);
        if (data.size() < store::sampleBytes)
            return; // no metrics
        runs.push_back({row.columnInt(6), seconds(row.columnBlob(0)), row.columnInt(1), w->second,
                        packed.size(),
                        packed.size() + data.size() / store::sampleBytes * store::sampleBytes});
        packed.append(data.substr(0, runs.back().end - runs.back().begin));
    }
    void addVersion(std::string_view probe, std::string_view version) {
        auto v = std::find_if(versions.begin(), versions.end(), [&](const auto& pv) {
            return pv.first == probe && pv.second == version;
        });
        if (v == versions.end()) {
            versions.emplace_back(probe, version);
            versionRuns.push_back(0);
            v = versions.end() - 1;
        }
        ++versionRuns[static_cast<std::size_t>(v - versions.begin())];
    }
    // The notes of the tool versions met (versionNotes), each with its runs.
    void addVersionNotes(LayoutSamples& out) const {
        for (std::size_t i = 0; i < versions.size(); ++i)
            for (auto& n : versionNotes(versions[i].first, versions[i].second)) {
                out.notes.push_back(std::move(n));
                out.noteRuns.push_back(versionRuns[i]);
                out.noteWorkloads.emplace_back(); // every workload of the probe
            }
    }
    std::size_t okRunsOf(std::string_view workload) const {
        const auto ok = byWorkload.find(workload);
        return ok == byWorkload.end() ? 0 : okCount[ok->second];
    }
};

// The notes of one text, each once in the layout's notes, with the runs that carry it and their
// workloads.
void addNotes(LayoutSamples& out, std::vector<MetricNote> notes, std::size_t runs,
              const std::vector<std::pair<std::size_t, std::size_t>>& workloads,
              const std::vector<std::string>& names) {
    for (auto& n : notes) {
        const auto at = std::find(out.notes.begin(), out.notes.end(), n);
        const auto i = static_cast<std::size_t>(at - out.notes.begin());
        if (at == out.notes.end()) {
            out.notes.push_back(std::move(n));
            out.noteRuns.push_back(runs);
            out.noteWorkloads.emplace_back();
        } else {
            out.noteRuns[i] += runs;
        }
        auto& of = out.noteWorkloads[i];
        for (const auto& [w, count] : workloads) {
            const auto& name = names[w]; // a structured binding is not captured (clang 14)
            const auto known = std::find_if(of.begin(), of.end(),
                                            [&](const auto& wc) { return wc.first == name; });
            if (known == of.end())
                of.emplace_back(name, count);
            else
                known->second += count;
        }
    }
}

// How many samples of each metric id the packed buffer holds.
std::vector<std::size_t> samplesPerMetric(std::string_view packed) {
    std::vector<std::size_t> count; // by metric id
    for (std::size_t i = 0; i < packed.size() / store::sampleBytes; ++i) {
        const auto id = static_cast<std::size_t>(store::sampleId(packed, i));
        if (id >= count.size())
            count.resize(id + 1, 0);
        ++count[id];
    }
    return count;
}

// A failed run of a workload: counted, its reason the latest in run order.
void addFailure(std::map<std::string, FailedWorkload, std::less<>>& byWorkload, sql::Statement& row,
                const OkRunsRead& read) {
    const std::string_view workload = row.columnBlob(0);
    auto f = byWorkload.find(workload);
    if (f == byWorkload.end())
        f = byWorkload
                .emplace(std::string(workload),
                         FailedWorkload{std::string(workload), 0, read.okRunsOf(workload), {}})
                .first;
    ++f->second.failed;
    f->second.reason = row.columnText(1);
}

} // namespace

Expected<LayoutSamples> Store::layoutSamples(const std::string& layout,
                                             std::optional<std::int64_t> campaignId,
                                             const std::optional<std::string>& host,
                                             std::optional<int> fillPermille) {
    // One pass over the layout's successful runs, in run order (the index (layout_id, status)
    // gives them so: no sort). Reading the runs once rather than once a question (samples
    // counted, samples read, notes, workloads) took a layout of 25,000 runs from 120 to 45 ms.
    // started_at is ISO 8601 UTC: read here (isoUtcSeconds), where SQLite's julianday() took a
    // third of the pass; a form not layoutbench's is julianday()'s to read.
    LB_TRY(q, statement(
                  okRunsQuery(campaignId.has_value(), host.has_value(), fillPermille.has_value())));
    q->bind(1, layout);
    if (campaignId)
        q->bind(2, *campaignId);
    if (host)
        q->bind(3, *host);
    if (fillPermille)
        q->bind(4, *fillPermille);
    LB_TRY(julian, statement("SELECT COALESCE((julianday(?1) - 2440587.5) * 86400.0, 0)"));
    StartSeconds seconds{*julian};
    OkRunsRead read;
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) { read.add(row, seconds); }));
    if (seconds.unread)
        return fail(*seconds.unread);
    LayoutSamples out;
    for (const auto id : read.noteTexts.ids) {
        LB_TRY(text, runText(id));
        addNotes(out, store::notesFromJson(text), read.noteTexts.runs[id],
                 read.noteTexts.workloads[id], read.workloads);
    }
    read.addVersionNotes(out);
    std::vector<std::string> caveats;
    for (const auto id : read.caveatTexts.ids) {
        LB_TRY(text, runText(id));
        for (auto& c : store::stringsFromJson(text))
            caveats.push_back(std::move(c));
    }
    out.measuredOn = measuredOn(caveats);
    if (const auto count = samplesPerMetric(read.packed); !count.empty()) {
        LB_TRY(kinds, metricKinds(static_cast<std::int64_t>(count.size() - 1)));
        LB_TRY(metrics,
               samplesByName(read.runs, read.packed, read.workloads, count, *kinds, path()));
        out.metrics = std::move(metrics);
    }
    // The workloads that failed: how often, the last reason, and how often they succeeded.
    LB_TRY(failed, statement("SELECT workload, reason FROM run "
                             "WHERE layout_id = (SELECT id FROM layout WHERE name = ?1) AND "
                             "status = 'failed' AND (?2 IS NULL OR campaign_id = ?2) AND (?3 IS "
                             "NULL OR host_id = (SELECT id FROM host WHERE name = ?3)) AND (?4 "
                             "IS NULL OR COALESCE(fill_permille, -1) = ?4) ORDER BY id"));
    failed->bind(1, layout).bind(2, campaignId).bind(3, host).bind(4, fillPermille);
    std::map<std::string, FailedWorkload, std::less<>> byWorkload;
    LB_TRY_VOID(
        failed->forEachRow([&](sql::Statement& row) { addFailure(byWorkload, row, read); }));
    for (auto& [workload, f] : byWorkload)
        out.failed.push_back(std::move(f));
    return out;
}

Expected<std::vector<std::string>> Store::layoutHosts(const std::string& layout,
                                                      std::optional<std::int64_t> campaignId) {
    // A layout's runs come from a machine or a few: each host's id is found by one seek in
    // run_layout_host, the next past the last, where reading every run's entry of the index cost
    // 35 million instructions a layout of 25,000 runs. Past `seeks` hosts (a CSV of a machine a
    // line) one pass over the entries costs less, and takes over.
    constexpr int seeks = 64;
    std::vector<std::int64_t> ids;
    {
        LB_TRY(next, statement("SELECT r.host_id FROM run r WHERE r.layout_id = (SELECT id FROM "
                               "layout WHERE name = ?1) AND r.host_id > ?3 AND r.status IN "
                               "('ok', 'failed') AND (?2 IS NULL OR r.campaign_id = ?2) ORDER BY "
                               "r.host_id LIMIT 1"));
        for (std::int64_t after = 0; ids.size() <= seeks; after = ids.back()) {
            next->bind(1, layout).bind(2, campaignId).bind(3, after);
            LB_TRY(row, next->step());
            if (!row)
                break;
            ids.push_back(next->columnInt(0));
            next->reset();
        }
    }
    std::vector<std::string> out;
    if (ids.size() > seeks) {
        // Each host once, as the index gives them in order, then their names.
        LB_TRY(q, statement("SELECT h.name FROM (SELECT DISTINCT r.host_id AS id FROM run r "
                            "WHERE r.layout_id = (SELECT id FROM layout WHERE name = ?1) AND "
                            "r.status IN ('ok', 'failed') AND (?2 IS NULL OR r.campaign_id = ?2)) "
                            "d JOIN host h ON h.id = d.id ORDER BY h.name"));
        q->bind(1, layout).bind(2, campaignId);
        LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) { out.push_back(row.columnText(0)); }));
        return out;
    }
    LB_TRY(name, statement("SELECT name FROM host WHERE id = ?1"));
    for (const auto id : ids) {
        name->bind(1, id);
        LB_TRY(row, name->step());
        if (row)
            out.push_back(name->columnText(0));
        name->reset();
    }
    std::sort(out.begin(), out.end());
    return out;
}

Expected<std::optional<std::string>> comparedHost(Store& store, std::string_view side,
                                                  const std::string& layout,
                                                  std::optional<std::int64_t> campaignId,
                                                  const std::optional<std::string>& host,
                                                  std::string_view field) {
    LB_TRY(hosts, store.layoutHosts(layout, campaignId));
    if (host && !hosts.empty() && std::find(hosts.begin(), hosts.end(), *host) == hosts.end())
        return badInput(std::string(field) + ": layout '" + layout + "' has no runs on host '" +
                        *host + "' (its runs are on " + joinedText(hosts, ", ") + ")");
    if (!host && hosts.size() > 1)
        return badInput(std::string(field) + ": the " + std::string(side) + " layout '" + layout +
                        "' holds runs of " + std::to_string(hosts.size()) + " hosts (" +
                        joinedText(hosts, ", ") +
                        "): runs of different machines are not compared as one; name one");
    if (host)
        return std::optional<std::string>{*host};
    if (hosts.size() == 1)
        return std::optional<std::string>{hosts.front()};
    return std::optional<std::string>{};
}

Expected<ComparedSamples> loadComparedSamples(Store& store, const std::string& baseline,
                                              const std::string& candidate,
                                              std::optional<std::int64_t> campaignId,
                                              const HostChoice& hosts, std::optional<int> fill) {
    // One choice for both sides is the field host; sides chosen apart name their own.
    const bool apart = hosts.baseline != hosts.candidate;
    struct Side {
        const char* name;
        const std::string* layout;
        const std::optional<std::string>* host;
        const char* field;
    };
    for (const auto& side : {Side{"baseline", &baseline, &hosts.baseline, "baseline_host"},
                             Side{"candidate", &candidate, &hosts.candidate, "candidate_host"}}) {
        LB_TRY(found, store.findLayout(*side.layout));
        if (!found)
            return fail(store.noLayoutNamed(side.name, *side.layout));
        LB_TRY_VOID(comparedHost(store, side.name, *side.layout, campaignId, *side.host,
                                 apart ? side.field : "host"));
    }
    ComparedSamples out;
    LB_TRY(level, comparedFillLevel(store, baseline, candidate, campaignId, fill));
    out.fillPermille = level;
    LB_TRY(b, store.layoutSamples(baseline, campaignId, hosts.baseline, level));
    out.baseline = std::move(b);
    LB_TRY(c, store.layoutSamples(candidate, campaignId, hosts.candidate, level));
    out.candidate = std::move(c);
    return out;
}

Expected<ComparePolicy> storedPolicy(Store& store, const std::string& candidate,
                                     std::optional<std::int64_t> campaignId) {
    std::optional<std::int64_t> campaign = campaignId;
    if (!campaign) {
        LB_TRY(latest, store.latestCampaignOf(candidate));
        campaign = latest;
    }
    if (!campaign)
        return ComparePolicy{};
    LB_TRY(stored, store.campaignPolicy(*campaign));
    return stored.value_or(ComparePolicy{});
}

Expected<Comparison> compareStoredLayouts(Store& store, const std::string& baseline,
                                          const std::string& candidate,
                                          const std::optional<ComparePolicy>& policy,
                                          std::optional<std::int64_t> campaignId,
                                          const HostChoice& hosts, std::optional<int> fill) {
    LB_TRY(loaded, loadComparedSamples(store, baseline, candidate, campaignId, hosts, fill));
    LB_TRY(cmp, compareLoadedLayouts(store, baseline, loaded.baseline, candidate, loaded.candidate,
                                     policy, campaignId));
    if (loaded.fillPermille && *loaded.fillPermille != asBuiltPermille)
        cmp.fillLevel = fillLevelOf(*loaded.fillPermille);
    return cmp;
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
    } else {
        LB_TRY(stored, storedPolicy(store, candidate, campaign));
        rule = std::move(stored);
    }
    auto cmp = compareWithDrift(baseline, b, candidate, c, rule, campaign);
    if (cmp.metrics.empty())
        return badInput("no metric was measured successfully on both '" + baseline + "' and '" +
                        candidate + "'");
    return cmp;
}

} // namespace lb
