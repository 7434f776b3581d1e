// Gathers a decision report's contents from the store: which layouts, which runs, which campaign,
// the comparisons and the samples behind them. Everything is sorted and nothing reads the clock,
// so the same database always gives the same ReportData (and the same report).
#include "reports/report_data.h"

#include "engine/build/layout_spec.h"
#include "engine/workbench.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <pwd.h>
#include <set>
#include <toml++/toml.h>
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
        if (validThresholds(th))
            bits.thresholds = th;
    }
    return bits;
}

// The runs of `layouts`, each layout's from the campaign `runsOf` gives it (none: all of them).
Expected<std::vector<ReportRun>>
loadRuns(Store& store, const std::set<std::string>& layouts,
         const std::function<std::optional<std::int64_t>(const std::string&)>& runsOf) {
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
        ReportRun r;
        r.id = s.id;
        r.campaignId = s.campaignId;
        r.layout = std::move(s.layout);
        r.workload = std::move(s.workload);
        r.probe = std::move(s.probe);
        r.iteration = s.iteration;
        r.status = s.status;
        r.reason = std::move(s.reason);
        r.argv = std::move(s.argv);
        r.caveats = std::move(s.caveats);
        r.toolVersion = std::move(s.toolVersion);
        if (r.status != RunStatus::Ok)
            r.stderrTail = tail(s.stderrText);
        r.wallSeconds = s.wallSeconds;
        r.exitCode = s.exitCode;
        r.source = std::move(s.source);
        r.origin = originText(s.origin);
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace

Expected<ReportData> gatherReport(Store& store, const ReportRequest& request) {
    ReportData data;
    data.title = "layoutbench decision report";
    data.thresholds = request.thresholds;

    auto all = store.layouts();
    if (!all)
        return fail(all.error());
    std::optional<StoredCampaign> campaign;
    std::map<std::string, LayoutRunCounts> campaignCounts;
    // Layouts whose runs are all imported: in a campaign's report with every run of theirs.
    std::set<std::string> importedOnly;
    std::optional<std::int64_t> campaignId = request.campaignId;
    std::size_t campaignsSeen = 0;
    if (!campaignId && !request.allRuns) {
        // The newest campaign of the layouts the report compares (the named ones, else all).
        std::set<std::int64_t> ids;
        for (const auto& l : *all) {
            if ((request.baseline || request.candidate) && l.name != request.baseline &&
                l.name != request.candidate)
                continue;
            LB_TRY(of, store.campaignsOfLayout(l.id));
            for (const auto id : of)
                if (id != 0)
                    ids.insert(id);
        }
        campaignsSeen = ids.size();
        if (!ids.empty())
            campaignId = *ids.rbegin();
    }
    if (campaignId) {
        LB_TRY(found, store.campaign(*campaignId));
        if (!found)
            return badInput("campaign: no campaign " + std::to_string(*campaignId) + " in " +
                            store.path());
        campaign = std::move(found);
        LB_TRY(counts, store.campaignLayoutRuns(campaign->id));
        campaignCounts = std::move(counts);
    }

    // The layouts in scope: every layout, or those with runs in the campaign (and, when the
    // campaign was not named, those with imported runs only).
    std::vector<LayoutRecord> scope;
    for (auto& l : *all) {
        if (campaign) {
            const auto it = campaignCounts.find(l.name);
            if (it == campaignCounts.end()) {
                if (request.campaignId)
                    continue;
                LB_TRY(of, store.campaignsOfLayout(l.id));
                if (of.empty() || *of.rbegin() != 0)
                    continue;
                importedOnly.insert(l.name);
            } else {
                l.runs = it->second.runs;
                l.failedRuns = it->second.notOk;
            }
        }
        scope.push_back(l);
    }
    auto byName = [&](const std::string& name) -> const LayoutRecord* {
        for (const auto& l : *all)
            if (l.name == name)
                return &l;
        return nullptr;
    };
    for (const auto& [field, name] :
         {std::pair{"baseline", &request.baseline}, std::pair{"candidate", &request.candidate}})
        if (*name && !byName(**name))
            return badInput(std::string(field) + ": no layout named '" + **name + "' in " +
                            store.path());
    if (scope.empty())
        return badInput(campaign ? "campaign: campaign " + std::to_string(campaign->id) +
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
            if (layoutSpecMarksBaseline(l.spec)) {
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
            return badInput("candidate: '" + baseline + "' is also the baseline");
        chosen.push_back(inScope(*request.candidate));
    } else {
        for (const auto& l : scope)
            if (l.name != baseline)
                chosen.push_back(l);
    }

    // Campaign context: the one named, else the only campaign every chosen run belongs to.
    if (!campaign) {
        std::set<std::int64_t> ids;
        for (const auto& l : chosen) {
            LB_TRY(of, store.campaignsOfLayout(l.id));
            ids.insert(of.begin(), of.end());
        }
        if (ids.size() == 1 && *ids.begin() != 0) {
            LB_TRY(found, store.campaign(*ids.begin()));
            campaign = std::move(found);
        }
    }
    const auto runsOf = [&](const std::string& layout) {
        return importedOnly.count(layout) ? std::nullopt : campaignId;
    };
    if (request.campaignId)
        data.scope = "campaign " + std::to_string(*request.campaignId) +
                     (campaign && !campaign->name.empty() ? " '" + campaign->name + "'" : "") +
                     " (--campaign; --all for every run)";
    else if (campaignId)
        data.scope = "campaign " + std::to_string(*campaignId) +
                     (campaign && !campaign->name.empty() ? " '" + campaign->name + "'" : "") +
                     ", " +
                     (campaignsSeen > 1 ? "the newest of " + std::to_string(campaignsSeen) +
                                              " campaigns with these layouts"
                                        : std::string("the only campaign with these layouts")) +
                     (importedOnly.empty() ? "" : ", and every imported run") +
                     " (--campaign N for another, --all for every run)";
    else
        data.scope = request.allRuns ? "every run in the database (--all)"
                                     : "every run in the database (all imported)";
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
        LB_TRY(steps, store.conditioningSteps(campaign->id));
        data.steadyState = steadyStateSeries(steps);
    }
    if (data.inventoryJson.empty() || data.inventoryJson == "{}") {
        LB_TRY(inv, store.hostInventory(chosen.front().host));
        data.inventoryJson = inv;
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

        auto samples = store.layoutSamples(l.name, runsOf(l.name));
        if (!samples)
            return fail(samples.error());
        data.samples[l.name] = std::move(*samples);
        LB_TRY(series, store.layoutSeries(l.name, runsOf(l.name)));
        if (!series.empty())
            data.series[l.name] = std::move(series);
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

    auto runs = loadRuns(store, names, runsOf);
    if (!runs)
        return fail(runs.error());
    data.runs = std::move(*runs);

    if (request.projection) {
        data.projectionRequest = request.projection;
        std::vector<LayoutRecord> records;
        for (const auto& l : data.layouts)
            records.push_back({0, l.name, l.kind, l.specJson, l.host});
        LB_TRY(coverage, projectionCoverage(records, request.projection->givenCapacity));
        data.notProjected = std::move(coverage.missing);
        std::vector<std::string> projected;
        for (const auto& r : records)
            projected.push_back(r.name);
        LB_TRY_VOID(
            checkWriteAmplificationLayouts(request.projection->writeAmplification, projected));
        for (const auto& r : records) {
            auto p = projectStoredLayout(r, *request.projection);
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
