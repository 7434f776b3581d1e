// Gathers a decision report's contents from the store: which layouts, which runs, which campaign,
// the comparisons and the samples behind them. Everything is sorted and nothing reads the clock,
// so the same database always gives the same ReportData (and the same report).
#include "reports/report_data.h"

#include "engine/utf8.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <pwd.h>
#include <set>
#include <toml++/toml.h>
#include <unistd.h>

namespace lb {

namespace {

using nlohmann::json;

constexpr std::size_t stderrTailLines = 12;
constexpr std::size_t stderrTailBytes = 4000;

// The last lines of a tool's stderr, trailing blank lines dropped.
std::string tail(const std::string& text) {
    std::size_t end = text.size();
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == ' '))
        --end;
    std::size_t begin = end;
    std::size_t lines = 0;
    while (begin > 0) {
        if (text[begin - 1] == '\n' && ++lines == stderrTailLines)
            break;
        --begin;
    }
    if (end - begin > stderrTailBytes)
        begin = end - stderrTailBytes;
    return text.substr(begin, end - begin);
}

// An imported run's origin (the run table's origin column) in one line for readers.
std::string originText(const std::string& text) {
    const json j = json::parse(text, nullptr, false);
    if (!j.is_object() || !j.contains("format") || !j["format"].is_string())
        return {};
    std::string out = j["format"].get<std::string>();
    std::string units;
    for (const auto& u : j.value("converted_from", json::array()))
        if (u.is_string())
            units += (units.empty() ? "" : ", ") + u.get<std::string>();
    if (!units.empty())
        out += ", converted from " + units;
    return out;
}

std::vector<std::string> stringArray(const std::string& text) {
    std::vector<std::string> out;
    const json j = json::parse(text, nullptr, false);
    if (!j.is_array())
        return out;
    for (const auto& item : j)
        out.push_back(item.is_string() ? item.get<std::string>() : dumpJson(item));
    return out;
}

bool specMarksBaseline(const std::string& specJson) {
    const json j = json::parse(specJson, nullptr, false);
    return j.is_object() && j.value("baseline", false) == true;
}

struct CampaignRow {
    std::int64_t id = 0;
    std::string name;
    std::string scenarioPath;
    std::string scenario;
    std::string inventory;
};

Expected<std::optional<CampaignRow>> findCampaign(Store& store, std::int64_t id) {
    auto q = store.database().prepare(
        "SELECT id, name, COALESCE(scenario_path, ''), COALESCE(scenario, ''), inventory "
        "FROM campaign WHERE id = ?1");
    if (!q)
        return fail(q.error());
    q->bind(1, id);
    auto row = q->step();
    if (!row)
        return fail(row.error());
    if (!*row)
        return std::optional<CampaignRow>{};
    return std::optional<CampaignRow>{CampaignRow{
        q->columnInt(0), q->columnText(1), q->columnText(2), q->columnText(3), q->columnText(4)}};
}

// Thresholds and description from a stored scenario's TOML; nothing when it does not parse.
struct ScenarioBits {
    std::optional<Thresholds> thresholds;
    std::string description;
};

ScenarioBits scenarioBits(const std::string& text) {
    ScenarioBits bits;
    if (text.empty())
        return bits;
    toml::table root;
    try {
        root = toml::parse(text);
    } catch (const toml::parse_error&) {
        return bits; // the campaign stored it after validating it; nothing to add here
    }
    if (auto d = root["description"].value<std::string>())
        bits.description = *d;
    if (const toml::table* t = root["thresholds"].as_table()) {
        Thresholds th;
        th.viableMax = (*t)["viable"].value_or(th.viableMax);
        th.notViableMin = (*t)["not_viable"].value_or(th.notViableMin);
        if (th.viableMax >= 1.0 && th.notViableMin > th.viableMax)
            bits.thresholds = th;
    }
    return bits;
}

// Layouts with at least one run in the campaign, with their run counts in it.
Expected<std::map<std::string, std::pair<std::int64_t, std::int64_t>>>
campaignLayoutCounts(Store& store, std::int64_t campaignId) {
    auto q = store.database().prepare(
        "SELECT l.name, COUNT(*), SUM(CASE WHEN r.status != 'ok' THEN 1 ELSE 0 END) FROM run r "
        "JOIN layout l ON l.id = r.layout_id WHERE r.campaign_id = ?1 GROUP BY l.name");
    if (!q)
        return fail(q.error());
    q->bind(1, campaignId);
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> out;
    if (auto r = q->forEachRow([&](sql::Statement& row) {
            out[row.columnText(0)] = {row.columnInt(1), row.columnInt(2)};
        });
        !r)
        return fail(r.error());
    return out;
}

Expected<std::string> hostInventory(Store& store, const std::string& host) {
    auto q = store.database().prepare("SELECT inventory FROM host WHERE name = ?1");
    if (!q)
        return fail(q.error());
    q->bind(1, host);
    auto row = q->step();
    if (!row)
        return fail(row.error());
    return *row ? q->columnText(0) : std::string("{}");
}

Expected<std::vector<ReportRun>> loadRuns(Store& store, const std::set<std::string>& layouts,
                                          std::optional<std::int64_t> campaignId) {
    auto q = store.database().prepare(
        "SELECT r.id, COALESCE(r.campaign_id, 0), l.name, r.workload, r.probe, r.iteration, "
        "r.status, r.reason, r.argv, r.caveats, r.tool_version, "
        "CASE WHEN r.status = 'ok' THEN '' ELSE r.stderr END, "
        "COALESCE(r.wall_seconds, 0), r.exit_code, COALESCE(r.source, ''), r.origin FROM run r "
        "JOIN layout l "
        "ON l.id = r.layout_id "
        "WHERE (?1 IS NULL OR r.campaign_id = ?1) ORDER BY r.id");
    if (!q)
        return fail(q.error());
    q->bind(1, campaignId);
    std::vector<ReportRun> out;
    if (auto result = q->forEachRow([&](sql::Statement& row) {
            std::string layout = row.columnText(2);
            if (!layouts.count(layout))
                return;
            ReportRun r;
            r.id = row.columnInt(0);
            r.campaignId = row.columnInt(1);
            r.layout = std::move(layout);
            r.workload = row.columnText(3);
            r.probe = row.columnText(4);
            r.iteration = static_cast<int>(row.columnInt(5));
            r.status = runStatusFromName(row.columnText(6)).value_or(RunStatus::Failed);
            r.reason = row.columnText(7);
            r.argv = stringArray(row.columnText(8));
            r.caveats = stringArray(row.columnText(9));
            r.toolVersion = row.columnText(10);
            if (r.status != RunStatus::Ok)
                r.stderrTail = tail(row.columnText(11));
            r.wallSeconds = row.columnDouble(12);
            if (!row.columnIsNull(13))
                r.exitCode = static_cast<int>(row.columnInt(13));
            r.source = row.columnText(14);
            r.origin = originText(row.columnText(15));
            out.push_back(std::move(r));
        });
        !result)
        return fail(result.error());
    return out;
}

} // namespace

std::optional<CapacityInput> capacityInputFromSpec(const std::string& specJson,
                                                   const std::string& kind) {
    const json spec = json::parse(specJson, nullptr, false);
    if (!spec.is_object())
        return std::nullopt;
    auto k = parseLayoutKind(spec.value("kind", kind));
    // A pool or a guest on an md array: the array is what the disks make.
    const auto md = spec.find("md");
    if (md != spec.end() && md->is_object())
        k = parseLayoutKind(md->value("kind", std::string()));
    const auto disks = spec.find("disk_bytes");
    if (!k || disks == spec.end() || !disks->is_array() || disks->empty())
        return std::nullopt;
    CapacityInput in;
    in.kind = *k;
    for (const auto& d : *disks) {
        if (!d.is_number_unsigned())
            return std::nullopt;
        in.diskBytes.push_back(d.get<std::uint64_t>());
    }
    if (auto it = spec.find("recordsize"); it != spec.end() && it->is_number_unsigned())
        in.recordsizeBytes = it->get<std::uint64_t>();
    if (auto it = spec.find("ashift"); it != spec.end() && it->is_number_unsigned())
        in.ashift = it->get<unsigned>();
    if (auto it = spec.find("underprovision"); it != spec.end() && it->is_number())
        in.underprovision = it->get<double>();
    if (auto it = spec.find("chunk"); it != spec.end() && it->is_number_unsigned())
        in.mdChunkBytes = it->get<std::uint64_t>();
    if (md != spec.end() && md->is_object()) {
        in.mdChunkBytes = md->value("chunk", in.mdChunkBytes);
        // A pool on the array: zfs-stripe with an inner array, or a guest running ZFS on it.
        const auto guest = spec.find("guest");
        in.poolOnArray = spec.value("kind", kind) == "zfs-stripe" ||
                         (guest != spec.end() && guest->is_object() &&
                          guest->value("layout", std::string()).starts_with("zfs"));
    }
    return in;
}

std::optional<Capacity> capacityFromSpec(const std::string& specJson, const std::string& kind) {
    const auto in = capacityInputFromSpec(specJson, kind);
    if (!in)
        return std::nullopt;
    auto cap = computeCapacity(*in);
    if (!cap)
        return std::nullopt;
    return *cap;
}

std::optional<Expected<LayoutProjection>> projectSpec(const std::string& name,
                                                      const std::string& specJson,
                                                      const std::string& kind,
                                                      const ProjectionRequest& request) {
    auto layout = capacityInputFromSpec(specJson, kind);
    if (!layout || !computeCapacity(*layout))
        return std::nullopt;
    ProjectionInput in;
    in.name = name;
    in.layout = std::move(*layout);
    in.usedBytes = request.usedBytes;
    in.growth = request.growth;
    in.years = request.years;
    in.drive = request.drive;
    in.hostBytesPerDay = request.hostBytesPerDay;
    return projectLayout(in);
}

Expected<ReportData> gatherReport(Store& store, const ReportRequest& request) {
    ReportData data;
    data.title = "layoutbench decision report";
    data.thresholds = request.thresholds;

    auto all = store.layouts();
    if (!all)
        return fail(all.error());
    std::optional<CampaignRow> campaign;
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> campaignCounts;
    if (request.campaignId) {
        auto found = findCampaign(store, *request.campaignId);
        if (!found)
            return fail(found.error());
        if (!*found)
            return badInput("--campaign: no campaign " + std::to_string(*request.campaignId) +
                            " in " + store.path());
        campaign = std::move(*found);
        auto counts = campaignLayoutCounts(store, campaign->id);
        if (!counts)
            return fail(counts.error());
        campaignCounts = std::move(*counts);
    }

    // The layouts in scope: every layout, or those with runs in the campaign.
    std::vector<LayoutRecord> scope;
    for (auto& l : *all) {
        if (campaign) {
            const auto it = campaignCounts.find(l.name);
            if (it == campaignCounts.end())
                continue;
            l.runs = it->second.first;
            l.failedRuns = it->second.second;
        }
        scope.push_back(l);
    }
    auto byName = [&](const std::string& name) -> const LayoutRecord* {
        for (const auto& l : *all)
            if (l.name == name)
                return &l;
        return nullptr;
    };
    for (const auto& [flag, name] :
         {std::pair{"--baseline", &request.baseline}, std::pair{"--candidate", &request.candidate}})
        if (*name && !byName(**name))
            return badInput(std::string(flag) + ": no layout named '" + **name + "' in " +
                            store.path());
    if (scope.empty())
        return badInput(campaign ? "--campaign: campaign " + std::to_string(campaign->id) +
                                       " has no runs in " + store.path()
                                 : "no layouts in " + store.path() +
                                       ": import results or run a scenario first");

    // The baseline: named, else the one the scenario marked, else the first by name.
    std::string baseline;
    if (request.baseline) {
        baseline = *request.baseline;
    } else {
        baseline = scope.front().name;
        for (const auto& l : scope)
            if (specMarksBaseline(l.spec)) {
                baseline = l.name;
                break;
            }
    }
    data.baseline = baseline;

    std::vector<LayoutRecord> chosen;
    auto inScope = [&](const std::string& name) -> LayoutRecord {
        for (const auto& l : scope)
            if (l.name == name)
                return l;
        LayoutRecord l = *byName(name); // named but without runs in the campaign
        l.runs = l.failedRuns = 0;
        return l;
    };
    chosen.push_back(inScope(baseline));
    if (request.candidate) {
        if (*request.candidate == baseline)
            return badInput("--candidate: '" + baseline + "' is also the baseline");
        chosen.push_back(inScope(*request.candidate));
    } else {
        for (const auto& l : scope)
            if (l.name != baseline)
                chosen.push_back(l);
    }

    // Campaign context: the one named, else the only campaign every chosen run belongs to.
    if (!campaign) {
        auto q = store.database().prepare(
            "SELECT DISTINCT COALESCE(campaign_id, 0) FROM run WHERE layout_id = ?1");
        if (!q)
            return fail(q.error());
        std::set<std::int64_t> ids;
        for (const auto& l : chosen) {
            q->reset();
            q->bind(1, l.id);
            if (auto r = q->forEachRow([&](sql::Statement& row) { ids.insert(row.columnInt(0)); });
                !r)
                return fail(r.error());
        }
        if (ids.size() == 1 && *ids.begin() != 0) {
            auto found = findCampaign(store, *ids.begin());
            if (!found)
                return fail(found.error());
            campaign = std::move(*found);
        }
    }
    if (campaign) {
        data.campaignId = campaign->id;
        data.campaign = campaign->name;
        data.scenarioPath = campaign->scenarioPath;
        const ScenarioBits bits = scenarioBits(campaign->scenario);
        data.scenarioDescription = bits.description;
        auto policy = store.campaignPolicy(campaign->id);
        if (!policy)
            return fail(policy.error());
        if (request.scenarioThresholds && *policy)
            data.thresholds = (*policy)->thresholds;
        else if (request.scenarioThresholds && bits.thresholds)
            data.thresholds = *bits.thresholds; // a campaign from before policies were stored
        if (*policy)
            data.decide = (*policy)->decide;
        auto io = store.campaignIo(campaign->id);
        if (!io)
            return fail(io.error());
        data.io = *io;
        data.inventoryJson = campaign->inventory;
        auto steps = store.conditioningSteps(campaign->id);
        if (!steps)
            return fail(steps.error());
        data.steadyState = steadyStateSeries(*steps);
    }
    if (data.inventoryJson.empty() || data.inventoryJson == "{}") {
        auto inv = hostInventory(store, chosen.front().host);
        if (!inv)
            return fail(inv.error());
        data.inventoryJson = *inv;
    }
    if (data.inventoryJson.empty())
        data.inventoryJson = "{}";

    std::set<std::string> names;
    for (const auto& l : chosen) {
        ReportLayout rl;
        rl.name = l.name;
        rl.kind = l.kind;
        rl.host = l.host;
        rl.specJson = l.spec;
        rl.baseline = l.name == baseline;
        rl.capacity = capacityFromSpec(l.spec, l.kind);
        rl.runs = l.runs;
        rl.failedRuns = l.failedRuns;
        data.layouts.push_back(std::move(rl));
        names.insert(l.name);

        auto samples = store.layoutSamples(l.name, request.campaignId);
        if (!samples)
            return fail(samples.error());
        data.samples[l.name] = std::move(*samples);
    }

    for (std::size_t i = 1; i < data.layouts.size(); ++i) {
        const std::string& candidate = data.layouts[i].name;
        Comparison cmp =
            compareLayouts(baseline, data.samples[baseline], candidate, data.samples[candidate],
                           ComparePolicy{data.thresholds, data.decide});
        if (data.campaignId)
            addDrift(cmp, baselineDrift(data.samples[baseline].metrics, *data.campaignId, cmp));
        if (cmp.metrics.empty() && request.candidate)
            return badInput("no metric was measured successfully on both '" + baseline + "' and '" +
                            candidate + "'");
        data.comparisons.push_back(std::move(cmp));
    }

    auto runs = loadRuns(store, names, request.campaignId);
    if (!runs)
        return fail(runs.error());
    data.runs = std::move(*runs);

    if (request.projection) {
        data.projectionRequest = request.projection;
        for (const auto& l : data.layouts) {
            if (!l.capacity)
                continue;
            auto p = projectSpec(l.name, l.specJson, l.kind, *request.projection);
            if (!p)
                continue;
            if (!*p)
                return fail(p->error());
            data.projections.push_back(std::move(**p));
        }
    }
    data.author = request.author;
    data.writtenAt = request.writtenAt;
    data.generator = request.generator;
    for (const auto& l : data.layouts)
        if (!l.host.empty() &&
            std::find(data.hosts.begin(), data.hosts.end(), l.host) == data.hosts.end())
            data.hosts.push_back(l.host);
    std::sort(data.hosts.begin(), data.hosts.end());
    return data;
}

std::vector<SteadyStateSeries> steadyStateSeries(const std::vector<ConditioningStep>& steps) {
    std::vector<SteadyStateSeries> out;
    const ConditioningStep* preconditioning = nullptr;
    for (const auto& step : steps) {
        if (step.round == 0) {
            preconditioning = &step;
            continue;
        }
        // A new series where the workload changes or its rounds start again (a new build).
        if (out.empty() || out.back().layout != step.layout ||
            out.back().workload != step.workload || step.round == 1) {
            SteadyStateSeries s;
            s.layout = step.layout;
            s.workload = step.workload;
            s.tracked = step.tracked;
            if (preconditioning && preconditioning->layout == step.layout) {
                s.written = preconditioning->bytes;
                s.writeRate = preconditioning->value;
                s.writeSeconds = preconditioning->wallSeconds;
            }
            out.push_back(std::move(s));
        }
        auto& s = out.back();
        if (step.value)
            s.rounds.push_back(*step.value);
        if (!step.error.empty() && s.failed.empty())
            s.failed = "round " + std::to_string(step.round) + ": " + step.error;
    }
    for (auto& s : out)
        s.check = checkSteadyState(s.rounds);
    return out;
}

std::string defaultAuthor() {
    std::string user;
    if (const char* u = std::getenv("USER"); u && *u)
        user = u;
    else if (const passwd* pw = getpwuid(geteuid()))
        user = pw->pw_name;
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    return (user.empty() ? "unknown" : user) + "@" + (host[0] ? host : "unknown");
}

} // namespace lb
