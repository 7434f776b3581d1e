// What both front ends do with the engine (see workbench.h).
#include "engine/workbench.h"

#include "engine/base/size.h"
#include "engine/build/clients.h"
#include "engine/build/layout_spec.h"
#include "engine/build/plan.h"
#include "engine/build/serve.h"
#include "engine/campaign/campaign.h"
#include "engine/campaign/precondition.h"
#include "engine/exec/ssh_runner.h"

#include <algorithm>

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
                     [&](const ScenarioLayout& l) { return l.name == *onlyLayout; }))
        return badInput("layout: no layout named '" + *onlyLayout + "' in " +
                        (source.path.empty() ? std::string("the scenario") : source.path));
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
    // A qemu or bhyve guest started by the plan has the memory it is given.
    ctx.ramBytes = layout.guest && (layout.guest->hypervisor == Hypervisor::Qemu ||
                                    layout.guest->hypervisor == Hypervisor::Bhyve)
                       ? layout.guest->memoryBytes
                       : host.ramBytes;
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
    return out;
}

} // namespace

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

Expected<ProjectionRequest> projectionRequest(const ProjectionSettings& s) {
    if (s.used.empty())
        return badInput("used: required (bytes in use now, e.g. 1.2T)");
    if (s.growth.empty())
        return badInput("growth: required: 30% (compound) or 2TB/y (linear)");
    ProjectionRequest r;
    auto used = parseSize(s.used);
    if (!used)
        return badInput("used: " + used.error().message);
    r.usedBytes = *used;
    // The use is the one size every projection has: its unit is the answer's (as `project`'s).
    r.binaryUnits = projectionInBinaryUnits("", s.used);
    LB_TRY(growth, parseGrowth(s.growth));
    r.growth = growth;
    if (s.years < 1 || s.years > 50)
        return badInput("years: must be 1 to 50");
    r.years = s.years;
    r.drive = s.drive;
    if (!s.hostWrites.empty()) {
        LB_TRY(writes, parseDailyWrites(s.hostWrites));
        r.hostBytesPerDay = writes;
    }
    LB_TRY(given, parseGivenCapacities(s.capacities));
    r.givenCapacity = std::move(given);
    if (!s.price.empty()) {
        LB_TRY(price, parseDrivePrice(s.price));
        r.price = std::move(price);
    }
    LB_TRY(wa, parseWriteAmplifications(s.writeAmplification));
    r.writeAmplification = std::move(wa);
    return r;
}

Expected<std::vector<HypotheticalLayout>> hypotheticalLayouts(const HypotheticalLayoutSettings& s,
                                                              const std::optional<Drive>& drive) {
    if (s.diskSize.empty() && !drive)
        return badInput("disk-size: required (each disk's size, e.g. 500G or 4TiB, or one size "
                        "per disk), or a drive whose capacity it is");
    if (s.disks == 0 && s.diskSize.find(',') == std::string::npos)
        return badInput("disks: must be 1 or more with one size for every disk (or give one size "
                        "per disk: 500G,500G,1T)");
    auto sizes = s.diskSize.empty() ? Expected<std::vector<std::uint64_t>>(
                                          std::vector<std::uint64_t>(s.disks, drive->capacityBytes))
                                    : parseDiskSizes(s.diskSize, s.disks);
    if (!sizes)
        return badInput("disk-size: " + sizes.error().message);
    auto record = parseSize(s.recordsize, SizeConvention::Binary);
    if (!record)
        return badInput("recordsize: " + record.error().message);
    std::vector<HypotheticalLayout> out;
    for (const auto& name : s.kinds) {
        const auto kind = parseLayoutKind(name);
        if (!kind)
            return badInput("kind: " + unknownLayoutKind(name));
        HypotheticalLayout h;
        h.name = name;
        h.layout.kind = *kind;
        h.layout.diskBytes = *sizes;
        h.layout.recordsizeBytes = *record;
        h.layout.ashift = s.ashift;
        h.layout.underprovision = s.underprovision;
        out.push_back(std::move(h));
    }
    return out;
}

bool projectionInBinaryUnits(std::string_view diskSize, std::string_view used) {
    const auto typedBinary = [](std::string_view t) {
        return t.find("iB") != std::string_view::npos || t.find("ib") != std::string_view::npos;
    };
    return typedBinary(diskSize) || typedBinary(used);
}

Expected<std::map<std::string, std::uint64_t>>
parseGivenCapacities(const std::vector<std::string>& texts) {
    std::map<std::string, std::uint64_t> out;
    for (const auto& text : texts) {
        // A size never holds '=': a layout's name may.
        const auto eq = text.rfind('=');
        if (eq == std::string::npos || eq == 0)
            return badInput("capacity: '" + text + "' is not LAYOUT=SIZE (e.g. nas=12T)");
        const std::string name = text.substr(0, eq);
        // A usable capacity is read off zfs list or df: "3.6TiB" is near enough.
        auto size = parseApproximateSize(std::string_view(text).substr(eq + 1));
        if (!size)
            return badInput("capacity: " + name + ": " + size.error().message);
        if (*size == 0)
            return badInput("capacity: " + name + ": a usable capacity of 0 bytes holds nothing");
        if (!out.emplace(name, *size).second)
            return badInput("capacity: '" + name + "' is given twice");
    }
    return out;
}

Error notAmongProjected(std::string_view field, const std::string& name,
                        const std::vector<std::string>& projected) {
    std::string names;
    for (const auto& p : projected)
        names += (names.empty() ? "'" : ", '") + p + "'";
    return Error::badInput(std::string(field) + ": '" + name +
                           "' is not among the layouts projected (" +
                           (names.empty() ? std::string("none") : names) + ")");
}

Expected<void> checkWriteAmplificationLayouts(const GivenWriteAmplification& given,
                                              const std::vector<std::string>& projected) {
    for (const auto& entry : given.byLayout)
        if (std::find(projected.begin(), projected.end(), entry.first) == projected.end())
            return fail(notAmongProjected("write-amplification", entry.first, projected));
    return {};
}

Expected<ProjectionCoverage>
projectionCoverage(const std::vector<LayoutRecord>& layouts,
                   const std::map<std::string, std::uint64_t>& givenCapacity) {
    for (const auto& entry : givenCapacity) {
        const std::string& name = entry.first;
        const auto l = std::find_if(layouts.begin(), layouts.end(),
                                    [&](const LayoutRecord& r) { return r.name == name; });
        if (l == layouts.end()) {
            std::vector<std::string> names;
            for (const auto& r : layouts)
                names.push_back(r.name);
            return fail(notAmongProjected("capacity", name, names));
        }
        if (!layoutSpecIsImported(l->spec))
            return badInput("capacity: '" + name + "' is not an imported layout: " +
                            (capacityInputFromSpec(l->spec, l->kind)
                                 ? "its capacity comes from its recorded disks"
                                 : "only an imported layout's capacity is given"));
    }
    ProjectionCoverage out;
    for (const auto& l : layouts) {
        if (capacityInputFromSpec(l.spec, l.kind))
            out.modelled.push_back(l.name);
        else if (!layoutSpecIsImported(l.spec))
            continue;
        else if (givenCapacity.count(l.name))
            out.given.push_back(l.name);
        else
            out.missing.push_back(l.name);
    }
    return out;
}

ProjectionInput projectionInput(std::string name, CapacityInput layout,
                                const ProjectionRequest& request) {
    ProjectionInput in;
    in.name = std::move(name);
    in.layout = std::move(layout);
    in.usedBytes = request.usedBytes;
    in.growth = request.growth;
    in.years = request.years;
    in.drive = request.drive;
    in.price = request.price;
    in.hostBytesPerDay = request.hostBytesPerDay;
    in.writeAmplification = request.writeAmplification.forLayout(in.name);
    return in;
}

Expected<LayoutRecord> storedLayout(Store& store, const std::string& layout) {
    LB_TRY(record, store.findLayout(layout));
    if (!record)
        return badInput("layout: no layout named '" + layout + "' in " + store.path());
    return std::move(*record);
}

Expected<ProjectionInput> storedProjectionInput(const LayoutRecord& layout,
                                                const ProjectionRequest& request) {
    const auto given = request.givenCapacity.find(layout.name);
    if (given != request.givenCapacity.end() && layoutSpecIsImported(layout.spec)) {
        CapacityInput kindOnly; // what was recorded of the kind chooses the default ceiling
        kindOnly.kind = parseLayoutKind(layout.kind).value_or(LayoutKind::Dir);
        ProjectionInput in = projectionInput(layout.name, std::move(kindOnly), request);
        in.givenUsableBytes = given->second;
        return in;
    }
    if (auto disks = capacityInputFromSpec(layout.spec, layout.kind))
        return projectionInput(layout.name, std::move(*disks), request);
    LB_TRY(disks, requireCapacityInput(layout.name, layout.spec)); // says what the spec lacks
    return projectionInput(layout.name, std::move(disks), request);
}

std::optional<Expected<LayoutProjection>> projectStoredLayout(const LayoutRecord& layout,
                                                              const ProjectionRequest& request) {
    auto in = storedProjectionInput(layout, request);
    if (!in || (!in->givenUsableBytes && !computeCapacity(in->layout)))
        return std::nullopt;
    return projectLayout(*in);
}

} // namespace lb
