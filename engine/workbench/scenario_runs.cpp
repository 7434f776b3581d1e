// The front door's scenario workflows (see scenario_runs.h).
#include "engine/workbench/scenario_runs.h"

#include "engine/base/joined.h"
#include "engine/base/suggest.h"
#include "engine/build/clients.h"
#include "engine/build/drill.h"
#include "engine/build/layout_spec.h"
#include "engine/build/plan.h"
#include "engine/build/serve.h"
#include "engine/campaign/campaign.h"
#include "engine/campaign/precondition.h"
#include "engine/exec/ssh_runner.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace lb {

Expected<Scenario> resolveScenario(const ScenarioSource& source, std::optional<std::int64_t> resume,
                                   const std::optional<std::string>& onlyLayout, Store* store,
                                   const ProbeRegistry& probes) {
    auto fromSource = [&]() {
        return source.text ? parseScenario(*source.text, source.path, probes)
                           : loadScenario(source.path, probes);
    };
    Expected<Scenario> scenario = badInput("no scenario");
    if (resume && store) {
        // A resumed campaign runs the scenario it started with, whatever the source says now.
        // A file anchors the stored text's relative paths where it is now; an editor's text at
        // the path the campaign stored.
        LB_TRY(stored, storedScenario(*store, *resume));
        scenario = parseScenario(
            stored.second, source.text || source.path.empty() ? stored.first : source.path, probes);
        // The stored copy has its CHAP secrets masked: they come from the source, for the same
        // layouts.
        if (scenario && hasMaskedSecrets(*scenario)) {
            LB_TRY(given, fromSource());
            const std::string name = source.path.empty() ? "the scenario editor" : source.path;
            LB_TRY_VOID(restoreMaskedSecrets(*scenario, given, name));
        }
    } else {
        scenario = fromSource();
    }
    if (!scenario || !onlyLayout)
        return scenario;
    const auto& layouts = scenario->layouts;
    if (std::none_of(layouts.begin(), layouts.end(),
                     [&](const ScenarioLayout& l) { return l.name == *onlyLayout; })) {
        std::vector<std::string> names;
        for (const auto& l : layouts)
            names.push_back(l.name);
        const std::string near = didYouMean(*onlyLayout, names);
        return badInput("layout: no layout named '" + *onlyLayout + "' in " +
                        (source.path.empty() ? std::string("the scenario") : source.path) +
                        (near.empty() ? " (layouts: " + joinedText(names, ", ") + ")" : near));
    }
    return scenario;
}

namespace {

// The layout's block devices, each once in the review, with the layouts that destroy it.
void reviewDevices(CampaignReview& review, PlannedLayout& planned, const Scenario& scenario,
                   const ScenarioLayout& l) {
    for (const auto& diskName : scenario.disksTouchedBy(l)) {
        const ScenarioDisk* d = scenario.disk(diskName);
        if (!d || d->device.empty())
            continue;
        planned.devices.push_back(d->device);
        auto known = std::find_if(review.devices.begin(), review.devices.end(),
                                  [&](const DeviceReview& r) { return r.path == d->device; });
        if (known == review.devices.end()) {
            review.devices.push_back({d->device, d->name, d->wipe, {}, {}, {}});
            known = std::prev(review.devices.end());
        }
        if (std::find(known->layouts.begin(), known->layouts.end(), l.name) == known->layouts.end())
            known->layouts.push_back(l.name);
    }
}

} // namespace

CampaignReview reviewCampaign(const Scenario& scenario,
                              const std::optional<std::string>& onlyLayout) {
    CampaignReview review;
    review.scenario = scenario.name;
    for (const auto& l : scenario.layouts) {
        if (onlyLayout && !l.baseline && l.name != *onlyLayout)
            continue;
        PlannedLayout planned;
        planned.name = l.name;
        planned.kind = std::string(layoutKindName(l.kind));
        planned.baseline = l.baseline;
        reviewDevices(review, planned, scenario, l);
        if (auto parts = planParts(scenario, l)) {
            for (auto& part : *parts)
                for (auto& step : part.steps) {
                    if (part.runsOn == RunsOn::Guest)
                        step.description = "in the guest: " + step.description;
                    planned.steps.push_back(std::move(step));
                }
        } else {
            planned.problem = parts.error().message;
        }
        review.layouts.push_back(std::move(planned));
    }
    return review;
}

void inspectReviewedDevices(CampaignReview& review, Runner& runner, const DiskInspector& inspector,
                            const std::atomic<bool>* cancel) {
    for (auto& device : review.devices) {
        if (cancel && cancel->load())
            break;
        if (auto state = inspector(runner, device.path))
            device.state = std::move(*state);
        else
            device.inspectError = state.error().message;
    }
}

namespace {

Expected<DryRunLayout> dryRunLayout(const Scenario& scenario, const ProbeRegistry& probes,
                                    const DryRunHost& host, const ScenarioLayout& layout) {
    DryRunLayout out;
    out.layout = &layout;
    LB_TRY(parts, planParts(scenario, layout, host.deviceBytes));
    out.parts = std::move(parts);
    const LayoutPlan& plan = out.parts.back(); // the part the workloads run on
    WorkloadContext ctx;
    ctx.workdir = plan.workdir;
    ctx.dryRun = true;
    // The tools run where the campaign runs them, written for that system; in a guest with the
    // guest's memory (as the scenario knows it), never the host's or this machine's.
    ctx.os = workloadOs(scenario, layout);
    ctx.ramBytes = layout.guest ? knownMemoryBytes(*layout.guest).value_or(0) : host.ramBytes;
    if (layout.guest) {
        const auto guestTarget = parseSshUrl(layout.guest->target);
        ctx.root = guestTarget && guestTarget->user == "root";
    } else {
        ctx.root = host.root;
    }
    ctx.layoutName = layout.name;
    ctx.exported = exportTarget(layout, plan.workdir);
    for (const auto& w : scenario.workloads) {
        const Probe* probe = probes.find(w.probe);
        DryRunWorkload dw;
        dw.workload = &w;
        WorkloadContext wctx = ctx;
        wctx.clients = drivenClients(scenario, w, *probe);
        dw.where = !wctx.clients.empty() ? DryRunWorkload::Where::Workbench
                   : !w.clients.empty()  ? DryRunWorkload::Where::Client
                                         : DryRunWorkload::Where::Layout;
        LB_TRY(command, probe->command(w.options, wctx));
        dw.command = std::move(command);
        dw.rounds = preconditioningFor(layout, w, *probe, &dw.notPreconditioned);
        out.workloads.push_back(std::move(dw));
    }
    std::vector<Preconditioning> conditioned;
    for (const auto& dw : out.workloads)
        if (dw.rounds)
            conditioned.push_back(*dw.rounds);
    if (!conditioned.empty())
        out.precondition = describePreconditioning(layout, conditioned);
    for (const auto& d : scenario.drills) {
        if (d.layout != layout.name)
            continue;
        LB_TRY(drill, planDrill(scenario, layout, d, plan.workdir));
        out.drills.emplace_back(&d, std::move(drill));
    }
    out.fillLevels = scenario.fillLevels(layout);
    if (!out.fillLevels.empty())
        if (const auto in =
                capacityInputFromSpec(layoutSpecJson(scenario, layout, host.deviceBytes),
                                      std::string(layoutKindName(layout.kind))))
            if (const auto cap = computeCapacity(*in))
                out.usableBytes = cap->usableBytes;
    return out;
}

// The system this program runs on.
constexpr TargetOs thisOs =
#if defined(__FreeBSD__)
    TargetOs::FreeBsd;
#else
    TargetOs::Linux;
#endif

} // namespace

DryRunHost localDryRunHost(const Scenario& scenario) {
    DryRunHost host;
    // Root as the ssh user is, or as whoever plans (who builds the layouts runs as root).
    const std::string& target = scenario.host.target;
    const auto ssh = parseSshUrl(target);
    host.root = ssh && !ssh->user.empty() ? ssh->user == "root" : geteuid() == 0;
    // Another machine, or another system than this one: plan asks it nothing, so its memory and
    // its disks' sizes are not known here (the plan shows placeholders for them).
    if ((!target.empty() && target != "local") || scenario.host.os.value_or(thisOs) != thisOs)
        return host;
    host.ramBytes = static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                    static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    for (const auto& d : scenario.disks) {
        if (d.device.empty())
            continue;
        std::error_code ec;
        const auto real = std::filesystem::canonical(d.device, ec);
        if (ec)
            continue;
        std::ifstream sectors("/sys/class/block/" + real.filename().string() + "/size");
        std::uint64_t n = 0;
        if (sectors >> n)
            host.deviceBytes[d.device] = n * 512;
    }
    return host;
}

Expected<DryRun> dryRun(const Scenario& scenario, const ProbeRegistry& probes,
                        const DryRunHost& host) {
    DryRun out;
    out.schedule = scheduleCampaign(scenario, std::nullopt);
    for (const auto& layout : scenario.layouts) {
        LB_TRY(planned, dryRunLayout(scenario, probes, host, layout));
        out.layouts.push_back(std::move(planned));
    }
    return out;
}

} // namespace lb
