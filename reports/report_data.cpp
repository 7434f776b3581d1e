// Gathers a decision report's contents from the store: which layouts, which runs, which campaign,
// the comparisons and the samples behind them. Everything is sorted and nothing reads the clock,
// so the same database always gives the same ReportData (and the same report).
#include "reports/report_data.h"

#include "engine/build/drill.h"
#include "engine/build/layout_spec.h"
#include "engine/scenario/scenario.h"
#include "engine/workbench.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <pwd.h>
#include <set>
#include <unistd.h>

namespace lb {

namespace {

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

// An imported run's origin in one line for readers.
std::string originText(const RunOrigin& origin) {
    if (origin.format.empty())
        return {};
    std::string out = origin.format;
    std::string units;
    for (const auto& u : origin.convertedFrom)
        units += (units.empty() ? "" : ", ") + u;
    if (!units.empty())
        out += ", converted from " + units;
    return out;
}

// The runs of `layouts`, each layout's from the campaign `runsOf` gives it (none: all of them),
// only those measured on `host` when one is picked.
Expected<std::vector<ReportRun>>
loadRuns(Store& store, const std::set<std::string>& layouts,
         const std::function<std::optional<std::int64_t>(const std::string&)>& runsOf,
         const std::optional<std::string>& host) {
    std::optional<std::int64_t> only;
    for (const auto& l : layouts) {
        const auto of = runsOf(l);
        if (!of) {
            only.reset();
            break;
        }
        only = of;
    }
    LB_TRY(stored, store.storedRuns({only, RunQuery::Output::FailedStderr}));
    std::vector<ReportRun> out;
    for (auto& s : stored) {
        if (!layouts.count(s.layout))
            continue;
        if (const auto of = runsOf(s.layout); of && s.campaignId != *of)
            continue;
        if (host && s.host != *host)
            continue;
        ReportRun r;
        static_cast<StoredRun&>(r) = std::move(s);
        if (r.status != RunStatus::Ok)
            r.stderrTail = tail(r.stderrText);
        r.stderrText.clear();
        r.originText = originText(r.origin);
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace

namespace {

// Which runs a report holds: those of one campaign (named, else the newest the compared layouts
// ran in, unless every run is asked for), and the layouts with runs there.
struct ReportScope {
    std::vector<LayoutRecord> all;
    std::optional<std::int64_t> campaignId;
    std::optional<StoredCampaign> campaign; // the campaign the report is about, if one
    std::size_t campaignsSeen = 0;          // campaigns of the compared layouts, when none named
    std::set<std::string> importedOnly;     // layouts with imported runs only: all of them count
    std::vector<LayoutRecord> layouts;      // in scope, their run counts the campaign's

    // The campaign whose runs of `layout` the report holds; none: all of them.
    std::optional<std::int64_t> runsOf(const std::string& layout) const {
        return importedOnly.count(layout) ? std::nullopt : campaignId;
    }
    const LayoutRecord* byName(const std::string& name) const {
        for (const auto& l : all)
            if (l.name == name)
                return &l;
        return nullptr;
    }
};

// The newest campaign of the layouts the report compares (the named ones, else all).
Expected<void> findNewestCampaign(Store& store, const ReportRequest& request, ReportScope& s) {
    std::set<std::int64_t> ids;
    for (const auto& l : s.all) {
        if ((request.baseline || request.candidate) && l.name != request.baseline &&
            l.name != request.candidate)
            continue;
        LB_TRY(of, store.campaignsOfLayout(l.id));
        for (const auto id : of)
            if (id != 0)
                ids.insert(id);
    }
    s.campaignsSeen = ids.size();
    if (!ids.empty())
        s.campaignId = *ids.rbegin();
    return {};
}

// The layouts in scope: every layout, or those with runs in the campaign (and, when the campaign
// was not named, those with imported runs only).
Expected<void> findScopeLayouts(Store& store, const ReportRequest& request, ReportScope& s) {
    std::map<std::string, LayoutRunCounts> counts;
    if (s.campaign) {
        LB_TRY(found, store.campaignLayoutRuns(s.campaign->id));
        counts = std::move(found);
    }
    for (auto l : s.all) {
        if (s.campaign) {
            const auto it = counts.find(l.name);
            if (it == counts.end()) {
                if (request.campaignId)
                    continue;
                LB_TRY(of, store.campaignsOfLayout(l.id));
                if (of.empty() || *of.rbegin() != 0)
                    continue;
                s.importedOnly.insert(l.name);
            } else {
                l.runs = it->second.runs;
                l.failedRuns = it->second.notOk;
            }
        }
        s.layouts.push_back(std::move(l));
    }
    return {};
}

Expected<ReportScope> findScope(Store& store, const ReportRequest& request) {
    ReportScope s;
    LB_TRY(all, store.layouts());
    s.all = std::move(all);
    s.campaignId = request.campaignId;
    if (!s.campaignId && !request.allRuns)
        LB_TRY_VOID(findNewestCampaign(store, request, s));
    if (s.campaignId) {
        LB_TRY(found, store.campaign(*s.campaignId));
        if (!found)
            return badInput("campaign: no campaign " + std::to_string(*s.campaignId) + " in " +
                            store.path());
        s.campaign = std::move(found);
    }
    LB_TRY_VOID(findScopeLayouts(store, request, s));
    for (const auto& [field, name] :
         {std::pair{"baseline", &request.baseline}, std::pair{"candidate", &request.candidate}})
        if (*name && !s.byName(**name))
            return fail(store.noLayoutNamed(field, **name));
    if (s.layouts.empty())
        return badInput(s.campaign ? "campaign: campaign " + std::to_string(s.campaign->id) +
                                         " has no runs in " + store.path()
                                   : "no layouts in " + store.path() +
                                         ": import results or run a scenario first");
    return s;
}

// The baseline (named, else the one the scenario marked, else the first by name) first, then the
// candidates (the one named, else every other layout in scope).
Expected<std::vector<LayoutRecord>> chooseLayouts(const ReportScope& s,
                                                  const ReportRequest& request) {
    std::string baseline = s.layouts.front().name;
    if (request.baseline)
        baseline = *request.baseline;
    else if (const auto marked = std::find_if(
                 s.layouts.begin(), s.layouts.end(),
                 [](const LayoutRecord& l) { return layoutSpecMarksBaseline(l.spec); });
             marked != s.layouts.end())
        baseline = marked->name;
    auto inScope = [&](const std::string& name) -> LayoutRecord {
        for (const auto& l : s.layouts)
            if (l.name == name)
                return l;
        LayoutRecord l = *s.byName(name); // named but without runs in the campaign
        l.runs = l.failedRuns = 0;
        return l;
    };
    std::vector<LayoutRecord> chosen{inScope(baseline)};
    if (request.candidate) {
        if (*request.candidate == baseline)
            return badInput("candidate: '" + baseline + "' is also the baseline");
        chosen.push_back(inScope(*request.candidate));
        return chosen;
    }
    // A fail-rebuild drill's load phases are compared with each other, named (compare), not
    // as candidates of the campaign.
    for (const auto& l : s.layouts)
        if (l.name != baseline && !isDrillPhaseLayout(l.name))
            chosen.push_back(l);
    return chosen;
}

// Which runs the report holds, in words, as its top says.
std::string scopeText(const ReportScope& s, const ReportRequest& request) {
    const std::string name =
        s.campaign && !s.campaign->name.empty() ? " '" + s.campaign->name + "'" : "";
    if (request.campaignId)
        return "campaign " + std::to_string(*request.campaignId) + name +
               " (the campaign asked for; the other campaigns' runs are left out)";
    if (s.campaignId)
        return "campaign " + std::to_string(*s.campaignId) + name + ", " +
               (s.campaignsSeen > 1 ? "the newest of " + std::to_string(s.campaignsSeen) +
                                          " campaigns with these layouts"
                                    : std::string("the only campaign with these layouts")) +
               (s.importedOnly.empty() ? "" : ", and every imported run") +
               (s.campaignsSeen > 1 ? " (the other campaigns' runs are left out)" : "");
    return request.allRuns ? "every run in the database"
                           : "every run in the database (all imported)";
}

// How to ask for other runs than scopeText's, in the command's flags.
std::string scopeHint(const ReportScope& s, const ReportRequest& request) {
    if (request.campaignId)
        return "--campaign; --all for every run";
    if (s.campaignId)
        return "--campaign N for another, --all for every run";
    return request.allRuns ? "--all" : "";
}

// What the campaign the report is about says: its scenario, the rule it judged by, how its runs
// did their I/O, its inventory and its SSD preconditioning.
Expected<void> addCampaign(ReportData& data, Store& store, const StoredCampaign& campaign,
                           const ReportRequest& request) {
    data.campaignId = campaign.id;
    data.campaign = campaign.name;
    data.scenarioPath = campaign.scenarioPath;
    const StoredScenarioSummary scenario = summarizeStoredScenario(campaign.scenario);
    data.scenarioDescription = scenario.description;
    data.scenarioDevices = scenario.devices;
    LB_TRY(policy, store.campaignPolicy(campaign.id));
    if (request.scenarioThresholds && policy)
        data.thresholds = policy->thresholds;
    else if (request.scenarioThresholds && scenario.thresholds)
        data.thresholds = *scenario.thresholds; // a campaign from before policies were stored
    if (policy)
        data.decide = policy->decide;
    LB_TRY(io, store.campaignIo(campaign.id));
    data.io = io;
    data.inventoryJson = campaign.inventory;
    LB_TRY(steps, store.conditioningSteps(campaign.id));
    data.steadyState = steadyStateSeries(steps);
    return {};
}

// The machine the report is about: the one picked, else the one every layout's runs share.
void setReportHost(ReportData& data, const std::vector<std::optional<std::string>>& onHost,
                   const std::optional<std::string>& picked) {
    data.hostPicked = picked.has_value();
    if (picked) {
        data.host = *picked;
        return;
    }
    std::set<std::string> distinct;
    for (const auto& h : onHost) {
        if (!h)
            return;
        distinct.insert(*h);
    }
    if (distinct.size() == 1)
        data.host = *distinct.begin();
}

// The fill level the report's tables take: the lowest every chosen layout was measured at, so no
// comparison mixes levels (the others are in the fill summaries); none when no layout was filled.
Expected<void> chooseFillLevel(ReportData& data, Store& store,
                               const std::vector<LayoutRecord>& chosen, const ReportScope& s) {
    std::optional<std::vector<int>> shared;
    bool filled = false;
    for (const auto& l : chosen) {
        LB_TRY(levels, store.layoutFillLevels(l.name, s.runsOf(l.name)));
        filled = filled || levels.size() > 1 ||
                 (levels.size() == 1 && levels.front() != asBuiltPermille);
        if (!shared) {
            shared = levels;
            continue;
        }
        std::vector<int> both;
        std::set_intersection(shared->begin(), shared->end(), levels.begin(), levels.end(),
                              std::back_inserter(both));
        shared = std::move(both);
    }
    if (filled && shared && !shared->empty())
        data.fillPermille = shared->front();
    return {};
}

// Where each candidate's verdict changes across the fill levels, and each projected layout's
// measured levels tied to its projection.
Expected<void> addFillLevels(ReportData& data, Store& store, const ReportRequest& request) {
    if (!data.fillPermille)
        return {};
    for (std::size_t i = 1; i < data.layouts.size(); ++i) {
        auto curve = compareAtFillLevels(store, data.baseline, data.layouts[i].name,
                                         ComparePolicy{data.thresholds, data.decide},
                                         data.campaignId, request.host);
        if (curve) {
            data.fillSummaries.push_back(curve->summary);
            data.fillCurves.push_back(std::move(*curve));
        } else if (curve.error().kind != ErrorKind::BadInput)
            return fail(curve.error());
    }
    for (const auto& p : data.projections) {
        LB_TRY(tied, fillProjection(store, p.name, p));
        if (tied)
            data.fillProjections.push_back(std::move(*tied));
    }
    return {};
}

// Each chosen layout with its capacity, samples and series, each of one machine (comparedHost).
Expected<void> addLayouts(ReportData& data, Store& store, const std::vector<LayoutRecord>& chosen,
                          const ReportScope& s, const std::optional<std::string>& host) {
    std::vector<std::optional<std::string>> onHost;
    for (const auto& l : chosen) {
        ReportLayout rl;
        rl.name = l.name;
        rl.kind = l.kind;
        rl.host = l.host;
        rl.specJson = l.spec;
        rl.baseline = l.name == data.baseline;
        rl.capacity = capacityFromSpec(l.spec, l.kind);
        if (const auto in = capacityInputFromSpec(l.spec, l.kind); in && rl.capacity)
            rl.redundancyNote = redundancyNote(*in);
        rl.runs = l.runs;
        rl.failedRuns = l.failedRuns;
        if (data.hostPicked) { // the picked machine's runs alone
            rl.runs = rl.failedRuns = 0;
            for (const auto& r : data.runs)
                if (r.layout == l.name) {
                    ++rl.runs;
                    rl.failedRuns += r.status == RunStatus::Ok ? 0 : 1;
                }
        }
        LB_TRY(measuredOn, comparedHost(store, rl.baseline ? "baseline" : "candidate", l.name,
                                        s.runsOf(l.name), host));
        data.layouts.push_back(std::move(rl));
        LB_TRY(samples, store.layoutSamples(l.name, s.runsOf(l.name), host, data.fillPermille));
        data.samples[l.name] = std::move(samples);
        LB_TRY(series, store.layoutSeries(l.name, s.runsOf(l.name), host));
        if (!series.empty())
            data.series[l.name] = std::move(series);
        const std::string where = measuredOn.value_or(l.host);
        if (!where.empty() &&
            std::find(data.hosts.begin(), data.hosts.end(), where) == data.hosts.end())
            data.hosts.push_back(where);
        onHost.push_back(std::move(measuredOn));
    }
    std::sort(data.hosts.begin(), data.hosts.end());
    setReportHost(data, onHost, host);
    return {};
}

// With a machine picked and no candidate named, the candidates with no runs on it are not part of
// the report (as layouts with no runs in its campaign are not).
Expected<void> keepLayoutsOfHost(Store& store, std::vector<LayoutRecord>& chosen,
                                 const ReportScope& s, const ReportRequest& request) {
    if (!request.host || request.candidate)
        return {};
    std::vector<LayoutRecord> kept{chosen.front()};
    for (std::size_t i = 1; i < chosen.size(); ++i) {
        LB_TRY(hosts, store.layoutHosts(chosen[i].name, s.runsOf(chosen[i].name)));
        if (hosts.empty() || std::find(hosts.begin(), hosts.end(), *request.host) != hosts.end())
            kept.push_back(std::move(chosen[i]));
    }
    chosen = std::move(kept);
    return {};
}

// Every candidate against the baseline; bad input when the candidate named shares no metric.
Expected<void> addComparisons(ReportData& data, const ReportRequest& request) {
    const std::string& baseline = data.baseline;
    for (std::size_t i = 1; i < data.layouts.size(); ++i) {
        const std::string& candidate = data.layouts[i].name;
        Comparison cmp =
            compareWithDrift(baseline, data.samples[baseline], candidate, data.samples[candidate],
                             ComparePolicy{data.thresholds, data.decide}, data.campaignId);
        if (cmp.metrics.empty() && request.candidate)
            return badInput("no metric was measured successfully on both '" + baseline + "' and '" +
                            candidate + "'");
        if (data.fillPermille && *data.fillPermille != asBuiltPermille)
            cmp.fillLevel = fillLevelOf(*data.fillPermille);
        data.comparisons.push_back(std::move(cmp));
    }
    return {};
}

// Each layout whose capacity is known, projected as requested; the imported ones it cannot cover.
Expected<void> addProjections(ReportData& data, const ProjectionRequest& request) {
    data.projectionRequest = request;
    std::vector<LayoutRecord> records;
    std::vector<std::string> projected;
    for (const auto& l : data.layouts) {
        records.push_back({0, l.name, l.kind, l.specJson, l.host});
        projected.push_back(l.name);
    }
    LB_TRY(coverage, projectionCoverage(records, request.givenCapacity, request.importedDisks));
    // An imported layout whose disks are given has the capacity of a built one.
    for (auto& l : data.layouts)
        if (const auto disks = request.importedDisks.find(l.name);
            !l.capacity && disks != request.importedDisks.end())
            if (auto c = computeCapacity(disks->second)) {
                l.capacity = *c;
                l.kind = layoutLabel(disks->second) + " (imported)";
                l.redundancyNote = redundancyNote(disks->second);
            }
    data.projectionMisfit = projectionMisfit(request, coverage, false);
    data.notProjected = std::move(coverage.missing);
    LB_TRY_VOID(checkWriteAmplificationLayouts(request.writeAmplification, projected));
    for (const auto& r : records) {
        // The rebuild a fail-rebuild drill of the layout measured, where one did.
        ProjectionRequest own = request;
        own.risk = withMeasuredRebuild(request.risk, data.samples[r.name]);
        auto p = projectStoredLayout(r, own);
        if (!p)
            continue;
        if (!*p)
            return fail(p->error());
        data.projections.push_back(std::move(**p));
    }
    return {};
}

// A block device of lsblk's list is one the scenario names: by its path or name, or by a
// /dev/disk/by-id/ name, which carries the disk's serial.
std::string textOf(const nlohmann::json& disk, const char* key) {
    const auto it = disk.is_object() ? disk.find(key) : disk.end();
    return it != disk.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool namedByScenario(const nlohmann::json& disk, const std::vector<std::string>& devices) {
    const std::string path = textOf(disk, "path"), name = textOf(disk, "name"),
                      serial = textOf(disk, "serial");
    for (const auto& d : devices)
        if ((!path.empty() && d == path) || (!name.empty() && d == "/dev/" + name) ||
            (serial.size() >= 6 && d.starts_with("/dev/disk/by-id/") &&
             d.find(serial) != std::string::npos))
            return true;
    const auto children = disk.is_object() ? disk.find("children") : disk.end();
    if (children != disk.end() && children->is_array())
        for (const auto& c : *children)
            if (namedByScenario(c, devices))
                return true;
    return false;
}

// Only the disks the scenario named, each with its partitions: the machine's other block
// devices (its root disk, zram) were not tested, and are named as left out.
void keepScenarioDisks(ReportData& data) {
    if (!data.scenarioDevices)
        return;
    nlohmann::json inventory = nlohmann::json::parse(data.inventoryJson, nullptr, false);
    if (!inventory.is_object() || !inventory.contains("disks") || !inventory["disks"].is_array())
        return;
    nlohmann::json kept = nlohmann::json::array();
    for (const auto& d : inventory["disks"]) {
        if (namedByScenario(d, *data.scenarioDevices))
            kept.push_back(d);
        else if (const std::string name = textOf(d, "name"); !name.empty())
            data.disksLeftOut.push_back(name);
    }
    inventory["disks"] = std::move(kept);
    data.inventoryJson = dumpJson(inventory);
}

} // namespace

Expected<ReportData> gatherReport(Store& store, const ReportRequest& request) {
    ReportData data;
    data.title = "layoutbench decision report";
    data.thresholds = request.thresholds;
    data.author = request.author;
    data.writtenAt = request.writtenAt;
    data.generator = request.generator;

    LB_TRY(scope, findScope(store, request));
    LB_TRY(chosen, chooseLayouts(scope, request));
    LB_TRY_VOID(keepLayoutsOfHost(store, chosen, scope, request));
    data.baseline = chosen.front().name;
    // Campaign context: the one named, else the only campaign every chosen run belongs to.
    if (!scope.campaign) {
        std::set<std::int64_t> ids;
        for (const auto& l : chosen) {
            LB_TRY(of, store.campaignsOfLayout(l.id));
            ids.insert(of.begin(), of.end());
        }
        if (ids.size() == 1 && *ids.begin() != 0) {
            LB_TRY(found, store.campaign(*ids.begin()));
            scope.campaign = std::move(found);
        }
    }
    data.scope = scopeText(scope, request);
    data.scopeHint = scopeHint(scope, request);
    if (scope.campaign)
        LB_TRY_VOID(addCampaign(data, store, *scope.campaign, request));
    std::set<std::string> names;
    for (const auto& l : chosen)
        names.insert(l.name);
    LB_TRY(runs,
           loadRuns(
               store, names, [&](const std::string& l) { return scope.runsOf(l); }, request.host));
    data.runs = std::move(runs);
    data.hostPicked = request.host.has_value();
    LB_TRY_VOID(chooseFillLevel(data, store, chosen, scope));
    LB_TRY_VOID(addLayouts(data, store, chosen, scope, request.host));
    std::vector<std::string> layoutNames;
    for (const auto& l : data.layouts)
        layoutNames.push_back(l.name);
    // Among the runs the report holds (its scope, its host), read once above.
    std::vector<const StoredRun*> held;
    for (const auto& r : data.runs)
        held.push_back(&r);
    LB_TRY(drills, failureDrills(store, layoutNames, held));
    data.failureDrills = std::move(drills);
    if (data.inventoryJson.empty() || data.inventoryJson == "{}") {
        LB_TRY(inventory, store.hostInventory(data.host.empty() ? chosen.front().host : data.host));
        data.inventoryJson = inventory.empty() ? "{}" : inventory;
    }
    keepScenarioDisks(data);
    LB_TRY_VOID(addComparisons(data, request));
    if (request.projection)
        LB_TRY_VOID(addProjections(data, *request.projection));
    LB_TRY_VOID(addFillLevels(data, store, request));
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
