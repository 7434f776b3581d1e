// Building a campaign's layout (engine/campaign/campaign_internal.h): its plan applied on the
// host, or for a guest the VM and the plan inside it once the guest answers; what the machine the
// runs go on is (memory, kernel, O_DIRECT, its ZFS); and the teardown.
#include "engine/base/size.h"
#include "engine/build/layout_spec.h"
#include "engine/build/serve.h"
#include "engine/campaign/campaign_internal.h"
#include "engine/exec/ssh_runner.h"

#include <chrono>
#include <thread>

namespace lb::campaign {

// The runner inside a guest layout's virtual machine (made once per layout).
Expected<Runner*> CampaignRunner::guestRunner(const ScenarioLayout& layout) {
    if (auto it = guestRunners_.find(layout.name); it != guestRunners_.end())
        return it->second.get();
    const ScenarioGuest& g = *layout.guest;
    auto r = makeRunnerFor(g.target, g.identity, g.knownHosts);
    if (!r)
        return fail(r.error());
    return (guestRunners_[layout.name] = std::move(*r)).get();
}

GuestRunnerFor CampaignRunner::guestRunnerFor() {
    return [this](std::int64_t layoutId) -> Runner* {
        for (const auto& l : scenario_.layouts) {
            if (!l.guest)
                continue;
            auto rec = store_.findLayout(l.name);
            if (rec && *rec && (*rec)->id == layoutId) {
                auto r = guestRunner(l);
                return r ? *r : nullptr;
            }
        }
        return nullptr;
    };
}

// Waits until the guest answers over SSH: a booting VM (TCG emulation takes a while).
Expected<void> CampaignRunner::waitForGuest(const ScenarioLayout& layout, Runner& guest) {
    const auto deadline = std::chrono::steady_clock::now() + opt_.guestBootTimeout;
    std::string last;
    while (!cancelled()) {
        auto r = guest.run(simple("true", {}, 30));
        if (r && r->ok())
            return {};
        last =
            r ? trim(r->stderrText.empty() ? r->exitSummary() : r->stderrText) : r.error().message;
        if (std::chrono::steady_clock::now() >= deadline)
            break;
        std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return runtimeError("guest of layout '" + layout.name + "' (" + layout.guest->target +
                        ") did not answer over SSH within " +
                        std::to_string(opt_.guestBootTimeout.count()) + " s: " + last);
}

// A guest layout: the host's plan (its VM), then the plan inside the guest once it answers. The
// reason it was not built, or "" with the guest's runner, work directory and caveats in `built`.
Expected<std::string> CampaignRunner::buildGuest(const ScenarioLayout& layout, BuiltLayout& built) {
    LB_TRY(plans, planGuestLayout(scenario_, layout, deviceBytes_));
    if (auto applied = applyPlan(store_, runner_, result_.campaignId, built.id, plans.host);
        !applied)
        return applied.error().message;
    auto guest = guestRunner(layout);
    Expected<void> ready = guest ? waitForGuest(layout, **guest) : fail(guest.error());
    if (ready) {
        if (auto applied = applyPlan(store_, **guest, result_.campaignId, built.id, plans.guest);
            !applied)
            ready = fail(applied.error());
    }
    if (!ready) {
        LB_TRY_VOID(teardown(built));
        return ready.error().message;
    }
    built.where = *guest;
    built.ctx.workdir = plans.guest.workdir;
    built.caveats = guestCaveats(layout, *built.where);
    for (const auto& c : built.caveats)
        if (c.starts_with("TCG"))
            built.notes.push_back({MetricNote::Kind::Qualifies, "*", c});
    return std::string();
}

// A layout on the host: its plan applied. The reason it was not built, or "".
Expected<std::string> CampaignRunner::buildOnHost(const ScenarioLayout& layout,
                                                  const Target& target, BuiltLayout& built) {
    // dRAID where the ZFS has none: said before anything is built.
    if (isDraid(layout.kind))
        if (const auto why = zfsFeatureProblem(target.zfs, "draid"); !why.empty())
            return why;
    LB_TRY(plan, planLayout(scenario_, layout, deviceBytes_));
    if (auto applied = applyPlan(store_, runner_, result_.campaignId, built.id, plan); !applied)
        return applied.error().message;
    built.ctx.workdir = plan.workdir;
    return std::string();
}

// Where the runs go: memory, root, the OS and the export, the guest's own where they run in one;
// and the machine's memory and kernel noted on every metric, held against the other side's by the
// comparison (another memory size or kernel may change the figures, engine/measure/analysis.h).
void CampaignRunner::describeMachine(const ScenarioLayout& layout, const Target& target,
                                     BuiltLayout& built) {
    WorkloadContext& ctx = built.ctx;
    ctx.ramBytes = target.ramBytes;
    ctx.os = workloadOs(scenario_, layout);
    ctx.root = target.root;
    ctx.exported = exportTarget(layout, ctx.workdir);
    std::string kernel = target.inventory.value("kernel", std::string());
    if (built.where != &runner_) {
        // The guest's memory is what bonnie++ must exceed, and its tools are the ones that run.
        const Target inside = inspectTarget(*built.where, scenario_, probes_, ctx.os);
        ctx.ramBytes = inside.ramBytes;
        ctx.root = inside.root;
        kernel = inside.inventory.value("kernel", std::string());
        guestToolVersions_.clear();
        for (const auto& [name, version] : inside.inventory["tools"].items())
            guestToolVersions_[name] = version.get<std::string>();
    }
    if (ctx.ramBytes > 0)
        built.notes.push_back(
            {MetricNote::Kind::Method, "*", "memory=" + formatBytes(ctx.ramBytes, true)});
    if (!kernel.empty())
        built.notes.push_back({MetricNote::Kind::Method, "*", "kernel=" + kernel});
}

namespace {

// Whether the layout's file system takes O_DIRECT; the campaign then picks one path for every
// layout (decideIo).
void probeDirectIo(BuiltLayout& built) {
    const std::string probeFile = built.ctx.workdir + "/.lb-odirect-probe";
    auto direct = built.where->run(simple("dd", {"if=/dev/zero", "of=" + probeFile, "bs=4096",
                                                 "count=1", "oflag=direct", "status=none"}));
    built.acceptsDirect = direct && direct->ok();
    (void)built.where->run(simple("rm", {"-f", "--", probeFile}));
}

} // namespace

// What the layout's runs carry about how it was built: its ZFS and what the cache setting means
// for it, writes acknowledged before they were safe (dataLossCaveats), an md array that skipped
// its initial resync.
void CampaignRunner::noteBuildCaveats(const ScenarioLayout& layout, const Target& target,
                                      BuiltLayout& built) {
    built.zfs = isZfs(layout.kind) || (layout.guest && layout.guest->layout.starts_with("zfs"));
    if (built.zfs) {
        noteZfsImplementation(built, built.where == &runner_ ? target.zfs : detectZfs(*built.where),
                              scenario_);
        built.caveats.push_back(scenario_.coldCache
                                    ? "ZFS primarycache=metadata (cache = \"cold\"): the ARC "
                                      "keeps no file data, reads come from the vdevs"
                                    : "ZFS primarycache=all (cache = \"warm\"): reads can come "
                                      "from the ARC; dropping the page cache does not empty it");
    }
    if (built.zfs && !scenario_.coldCache)
        built.notes.push_back({MetricNote::Kind::Qualifies, "*",
                               "cache = \"warm\": ZFS reads can come from the ARC"});
    for (const auto& loss : dataLossCaveats(layout)) {
        built.caveats.push_back(loss.text);
        built.notes.push_back({MetricNote::Kind::Qualifies, loss.metrics, loss.text});
    }
    if (layout.mdKind() && layout.assumeClean) {
        const std::string text = "md array created with --assume-clean: no initial resync, "
                                 "parity not verified before the runs";
        built.caveats.push_back(text);
        built.notes.push_back({MetricNote::Kind::Qualifies, "*", text});
    }
}

// Builds a layout (host plan, and for a guest its VM and the inside plan) and works out where and
// how its runs go. None when the build failed: its runs of this pass are then recorded as failed.
Expected<std::optional<BuiltLayout>> CampaignRunner::build(const ScenarioLayout& layout,
                                                           const Target& target, bool bracketPass) {
    LB_TRY(layoutId, store_.ensureLayout(layout.name, std::string(layoutKindName(layout.kind)),
                                         layoutSpecJson(scenario_, layout, deviceBytes_), hostId_));
    BuiltLayout built;
    built.layout = &layout;
    built.id = layoutId;
    built.where = &runner_;
    progress({CampaignProgress::Kind::Building, layout.name});
    LB_TRY(notBuilt, layout.kind == LayoutKind::Guest ? buildGuest(layout, built)
                                                      : buildOnHost(layout, target, built));
    if (!notBuilt.empty()) {
        LB_TRY_VOID(failLayoutRuns(layout, built.id, notBuilt, bracketPass));
        return std::optional<BuiltLayout>{};
    }
    describeMachine(layout, target, built);
    probeDirectIo(built);
    noteBuildCaveats(layout, target, built);
    return std::optional<BuiltLayout>{std::move(built)};
}

Expected<void> CampaignRunner::teardown(BuiltLayout& built) {
    progress({CampaignProgress::Kind::TearingDown, built.layout->name});
    auto undone = undoApplied(store_, runner_, result_.campaignId, built.id, guestRunnerFor());
    if (!undone)
        return fail(undone.error());
    for (const auto& p : *undone)
        result_.problems.push_back("teardown of '" + built.layout->name + "': " + p);
    return {};
}

} // namespace lb::campaign
