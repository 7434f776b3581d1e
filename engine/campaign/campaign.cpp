// A campaign's course: open (or resume) it, recover what a crash left built, then stage by stage
// build the layouts, decide their I/O path, run their iterations in turn (adding iterations while
// a verdict is not confident), bracket, drill and tear down. Building a layout is in
// campaign_build.cpp, a stage's rounds in campaign_rounds.cpp, one run's execution in
// campaign_runs.cpp, the target's inspection in campaign_target.cpp.
#include "engine/campaign/campaign.h"

#include "engine/base/content_hash.h"
#include "engine/base/utf8.h"
#include "engine/build/layout_spec.h"
#include "engine/build/serve.h"
#include "engine/campaign/campaign_internal.h"
#include "engine/campaign/campaign_lock.h"
#include "engine/exec/ssh_runner.h"
#include "engine/measure/next_step.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

namespace lb {

std::string campaignToolTag(const std::string& storePath, std::int64_t campaignId) {
    const std::string absolute = std::filesystem::absolute(storePath).lexically_normal().string();
    // Appended part by part: "c" + string&& makes GCC 12 at -O3 warn -Wrestrict (a false alarm in
    // libstdc++'s operator+, GCC bug 105329).
    return std::string("c")
        .append(std::to_string(campaignId))
        .append("-")
        .append(contentHash(absolute).substr(0, 12));
}

namespace campaign {

Expected<std::set<RunKey>> settledRuns(Store& store, std::int64_t campaignId) {
    LB_TRY_VOID(
        store.abortInterruptedRuns(campaignId, "interrupted: layoutbench stopped during this run"));
    LB_TRY(settled, store.settledRuns(campaignId));
    return std::set<RunKey>(settled.begin(), settled.end());
}

Expected<std::int64_t> CampaignRunner::openCampaign(const Target& target) {
    auto host = store_.ensureHost(target.inventory.value("hostname", std::string("local")),
                                  dumpJson(target.inventory));
    if (!host)
        return fail(host.error());
    hostId_ = *host;
    if (auto r = recordDisks(target.inventory); !r)
        return fail(r.error());
    if (opt_.resume) {
        LB_TRY_VOID(store_.setCampaignStatus(*opt_.resume, CampaignStatus::Running, false));
        return *opt_.resume;
    }
    return store_.createCampaign(
        {scenario_.name, scenario_.path, scenario_.text, hostId_, dumpJson(target.inventory)});
}

// The I/O path a campaign takes first: what the scenario says, else direct where every layout of
// the first stage takes O_DIRECT.
CampaignIo CampaignRunner::firstIoPath(const std::vector<BuiltLayout>& built) const {
    const auto refusing = std::find_if(built.begin(), built.end(),
                                       [](const BuiltLayout& b) { return !b.acceptsDirect; });
    if (scenario_.io == Scenario::IoPath::Direct)
        return CampaignIo{true, "io = \"direct\" in the scenario", true};
    if (scenario_.io == Scenario::IoPath::Buffered)
        return CampaignIo{false, "io = \"buffered\" in the scenario"};
    if (refusing != built.end())
        return CampaignIo{false,
                          "layout '" + refusing->layout->name + "' does not accept O_DIRECT"};
    return CampaignIo{true, "every layout accepts O_DIRECT"};
}

// A layout refuses O_DIRECT after others were measured with it: their fio runs are superseded,
// and the layouts they ran on (those not built now) run again, buffered.
Expected<CampaignIo> CampaignRunner::switchToBuffered(const std::vector<BuiltLayout>& built,
                                                      const BuiltLayout& refusing) {
    CampaignIo decided{false, "layout '" + refusing.layout->name + "' does not accept O_DIRECT"};
    LB_TRY(n, store_.supersedeRuns(result_.campaignId, "fio",
                                   "superseded: measured with direct I/O before " + decided.why +
                                       "; run again buffered"));
    LB_TRY(settled, settledRuns(store_, result_.campaignId));
    done_ -= std::min(done_, n);
    for (const auto& key : settled_)
        if (!settled.count(key))
            for (const auto& l : scenario_.layouts)
                if (l.name == key.layout &&
                    std::find(rerun_.begin(), rerun_.end(), &l) == rerun_.end() &&
                    std::none_of(built.begin(), built.end(),
                                 [&](const BuiltLayout& b) { return b.layout == &l; }))
                    rerun_.push_back(&l);
    settled_ = std::move(settled);
    return decided;
}

// What O_DIRECT means depends on the ZFS (OpenZFS 2.3's direct property): said on the runs of a
// pool measured with direct I/O.
void CampaignRunner::noteDirectIo(BuiltLayout& b) const {
    if (!b.zfs || !io_->direct || b.zfsImpl.kind != ZfsImplementation::Kind::OpenZfs)
        return;
    if (b.zfsImpl.openZfsAtLeast(2, 3)) {
        b.caveats.push_back("OpenZFS 2.3+: O_DIRECT bypasses the ARC (direct=standard); a "
                            "read smaller than the record size still reads the whole "
                            "record from the vdevs");
        return;
    }
    const std::string text = "OpenZFS before 2.3 accepts O_DIRECT but reads through the ARC";
    b.caveats.push_back(text + (scenario_.coldCache
                                    ? ": primarycache=metadata keeps data out of it"
                                    : ": with cache = \"warm\" reads can come from it"));
    if (!scenario_.coldCache)
        b.notes.push_back({MetricNote::Kind::Qualifies, "*", text});
}

// One I/O path for every layout: direct where all take O_DIRECT, else buffered on all (with the
// cache defeated by cache = "cold"), so no comparison sets direct against buffered I/O. Layouts
// built one after the other are found out one by one: when a later one refuses O_DIRECT, the fio
// runs measured with direct I/O so far are superseded and run again, buffered.
Expected<void> CampaignRunner::decideIo(std::vector<BuiltLayout>& built) {
    const auto refusing = std::find_if(built.begin(), built.end(),
                                       [](const BuiltLayout& b) { return !b.acceptsDirect; });
    std::optional<CampaignIo> decided;
    if (!io_)
        decided = firstIoPath(built);
    else if (io_->direct && scenario_.io == Scenario::IoPath::Auto && refusing != built.end()) {
        LB_TRY(buffered, switchToBuffered(built, *refusing));
        decided = buffered;
    }
    if (decided) {
        decided->coldCache = scenario_.coldCache;
        decided->pageCacheDropped = scenario_.coldCache && scenario_.dropCaches;
        io_ = decided;
        LB_TRY_VOID(store_.setCampaignIo(result_.campaignId, *io_));
        CampaignProgress p{CampaignProgress::Kind::Message};
        p.message = "measuring " + describeCampaignIo(*io_);
        progress(p);
    }
    for (auto& b : built) {
        b.ctx.directIo = io_->direct;
        noteDirectIo(b);
    }
    return {};
}

CampaignRunner::StagePlan CampaignRunner::planStage(const std::vector<const ScenarioLayout*>& stage,
                                                    bool bracketPass) const {
    StagePlan plan;
    plan.first = bracketPass ? schedule_.bracketFirst : 0;
    plan.adaptive = stageAdaptive(stage, bracketPass);
    plan.interleavedBracket = schedule_.interleaved && schedule_.bracket;
    plan.drills = !(schedule_.bracket && !schedule_.interleaved && !bracketPass &&
                    stage.size() == 1 && stage.front()->baseline);
    return plan;
}

// Whether anything of the stage is left to do: a round, a drill or a bracketing run.
bool CampaignRunner::stageHasWork(const std::vector<const ScenarioLayout*>& stage,
                                  const StagePlan& plan, bool round) const {
    bool work = round;
    for (const auto* l : stage) {
        if (plan.drills)
            for (const auto& d : scenario_.drills)
                work = work || (d.layout == l->name &&
                                !settled_.count(keyAt(l->name, d.name(), 0, lastFillLevel(*l))));
        if (plan.interleavedBracket && l->baseline)
            for (int i = 0; i < schedule_.bracketRuns; ++i)
                work = work || missingRuns({l}, {schedule_.bracketFirst + i, std::nullopt});
    }
    return work;
}

// The stage's layouts built, their I/O path decided, their SSDs preconditioned.
Expected<void> CampaignRunner::prepareStage(const std::vector<const ScenarioLayout*>& stage,
                                            const Target& target, bool bracketPass,
                                            std::vector<BuiltLayout>& built) {
    for (const auto* l : stage) {
        if (cancelled())
            break;
        LB_TRY(b, build(*l, target, bracketPass));
        if (b)
            built.push_back(std::move(*b));
    }
    LB_TRY_VOID(decideIo(built));
    for (const auto& b : built) {
        if (cancelled())
            break;
        LB_TRY_VOID(condition(b));
    }
    return {};
}

// Round after round, each starting with another layout, until the stage's rounds are done (or,
// adaptive, its deciding metrics settled); then what stays undecided.
Expected<void> CampaignRunner::runRounds(const std::vector<const ScenarioLayout*>& stage,
                                         const StagePlan& plan, std::vector<BuiltLayout>& built,
                                         std::optional<Round> next) {
    int done = 0;
    while (!cancelled() && next) {
        const Round round = *next;
        const int i = round.iteration;
        if (i - plan.first >= schedule_.minIterations) {
            // An adaptive round: the campaign grows by the runs of this stage it holds.
            const auto runs =
                std::count_if(scenario_.workloads.begin(), scenario_.workloads.end(),
                              [&](const ScenarioWorkload& w) { return round.includes(w.name); });
            total_ += built.size() * static_cast<std::size_t>(runs);
        }
        for (std::size_t k = 0; k < built.size(); ++k)
            LB_TRY_VOID(
                runIteration(built[(k + static_cast<std::size_t>(i)) % built.size()], round));
        done = i - plan.first + 1;
        LB_TRY(following, nextRound(stage, plan.first, plan.adaptive));
        next = std::move(following);
    }
    if (!plan.adaptive || cancelled())
        return {};
    LB_TRY(open, undecided(stage));
    if (done < schedule_.maxIterations)
        open.open.clear(); // stopped because every open metric settled
    return noteUndecided(open, done);
}

// The baseline's bracketing runs where they interleave with the stage, then the drills.
Expected<void> CampaignRunner::finishStage(const StagePlan& plan, std::vector<BuiltLayout>& built) {
    for (auto& b : built) {
        if (cancelled())
            break;
        if (plan.interleavedBracket && b.layout->baseline)
            for (int i = 0; i < schedule_.bracketRuns; ++i)
                LB_TRY_VOID(runIteration(b, {schedule_.bracketFirst + i, std::nullopt}));
    }
    if (plan.drills)
        for (auto& b : built)
            LB_TRY_VOID(runDrills(b));
    return {};
}

// Builds the stage's layouts, runs their iterations in turn (each round starting with another
// layout), the bracketing runs and drills, and tears them down, newest first.
Expected<void> CampaignRunner::runStage(const std::vector<const ScenarioLayout*>& stage,
                                        const Target& target, bool bracketPass) {
    const StagePlan plan = planStage(stage, bracketPass);
    // The fill levels, lowest first, up to the last with rounds to run (a resume ages the pool
    // again through the levels it had measured: the seed makes it the same ageing).
    const auto levels = stageFillLevels(stage);
    std::size_t through = 0;
    bool rounds = false;
    for (std::size_t k = 0; k < levels.size(); ++k) {
        stageFill_ = levels[k];
        LB_TRY(next, nextRound(stage, plan.first, plan.adaptive));
        if (next) {
            rounds = true;
            through = k;
        }
    }
    stageFill_ = levels.back();
    if (!stageHasWork(stage, plan, rounds))
        return {};
    if (plan.drills)
        through = levels.size() - 1; // the drills run on the layout at its last level
    std::vector<BuiltLayout> built;
    Expected<void> outcome = prepareStage(stage, target, bracketPass, built);
    for (std::size_t k = 0; outcome && k <= through && !cancelled(); ++k) {
        stageFill_ = levels[k];
        auto filled = fillStage(built);
        if (!filled) {
            outcome = fail(filled.error());
            break;
        }
        if (!*filled)
            break;
        auto next = nextRound(stage, plan.first, plan.adaptive);
        if (!next) {
            outcome = fail(next.error());
            break;
        }
        outcome = runRounds(stage, plan, built, std::move(*next));
    }
    if (outcome)
        outcome = finishStage(plan, built);
    for (auto it = built.rbegin(); it != built.rend(); ++it)
        if (auto r = teardown(*it); !r) {
            if (outcome)
                outcome = r;
            break;
        }
    return outcome;
}

// What the target's inventory says the campaign needs: block device sizes (partitions are cut
// to a fraction of them) and the tools' versions.
void CampaignRunner::readInventory(const Target& target) {
    // From lsblk, children included.
    std::function<void(const json&)> sizes = [&](const json& devs) {
        for (const auto& dev : devs) {
            if (dev.contains("path") && dev["path"].is_string() && dev.contains("size") &&
                dev["size"].is_number_unsigned())
                deviceBytes_[dev["path"].get<std::string>()] = dev["size"].get<std::uint64_t>();
            if (dev.contains("children"))
                sizes(dev["children"]);
        }
    };
    const json disks = target.inventory.value("disks", json::array());
    if (disks.is_array())
        sizes(disks);
    // FreeBSD's, from diskinfo.
    if (const auto it = target.inventory.find("disk_bytes"); it != target.inventory.end())
        for (const auto& [device, bytes] : it->items())
            if (bytes.is_number_unsigned())
                deviceBytes_[device] = bytes.get<std::uint64_t>();
    for (const auto& [name, version] : target.inventory["tools"].items())
        toolVersions_[name] = version.get<std::string>();
}

// The campaign opened (or resumed) under its lock: one process at a time works on a campaign (a
// cleanup must not tear down under it), held until the campaign ends. A resume takes it before it
// marks the campaign running again.
Expected<std::int64_t> CampaignRunner::openLocked(const Target& target,
                                                  std::optional<ProcessLock>& lock) {
    const auto take = [&](std::int64_t campaignId) -> Expected<void> {
        LB_TRY(l, acquireCampaignLock(store_.path(), campaignId));
        lock.emplace(std::move(l));
        return {};
    };
    if (opt_.resume)
        LB_TRY_VOID(take(*opt_.resume));
    LB_TRY(id, openCampaign(target));
    if (!lock)
        LB_TRY_VOID(take(id));
    result_.campaignId = id;
    LB_TRY_VOID(store_.setCampaignPolicy(id, scenario_.policy()));
    return id;
}

// The runs to do: what a crash left built undone, the runs already settled counted as done
// (adaptive ones included), the schedule made, the devices guarded, the work directory made.
Expected<void> CampaignRunner::planRuns(std::int64_t id,
                                        const std::vector<const ScenarioLayout*>& layouts) {
    // A crash may have left layouts half-built: undo what the journal shows, newest first.
    LB_TRY_VOID(undoApplied(store_, runner_, id, std::nullopt, guestRunnerFor()));
    LB_TRY(settled, settledRuns(store_, id));
    settled_ = std::move(settled);
    if (auto r = guardDevices(layouts); !r) {
        (void)store_.setCampaignStatus(id, CampaignStatus::Failed, true);
        return fail(r.error());
    }
    std::set<RunKey> planned;
    for (const auto& p : schedule_.runs) {
        const auto l = std::find_if(scenario_.layouts.begin(), scenario_.layouts.end(),
                                    [&](const ScenarioLayout& s) { return s.name == p.layout; });
        if (l == scenario_.layouts.end() || scenario_.fillLevels(*l).empty())
            planned.insert({p.layout, p.workload, p.iteration});
        else
            for (const double level : scenario_.fillLevels(*l))
                planned.insert(keyAt(p.layout, p.workload, p.iteration, level));
    }
    for (const auto& key : settled_)
        planned.insert(key);
    total_ = planned.size();
    maxTotal_ = std::max(schedule_.maxRuns, total_);
    done_ = result_.skippedRuns = settled_.size();
    if (auto r = runner_.run(simple("mkdir", {"-p", "--", scenario_.workDir})); !r || !r->ok())
        return runtimeError(scenario_.workDir + ": cannot create the work directory" +
                            (r ? ": " + trim(r->stderrText) : ": " + r.error().message));
    LB_TRY(io, store_.campaignIo(id)); // a resumed campaign keeps the path it chose
    io_ = io;
    return {};
}

// Stage after stage, the bracketing pass last where it is one; layouts measured before the I/O
// path changed run again right after the stage that changed it.
Expected<void> CampaignRunner::runStages(std::int64_t id, const Target& target) {
    std::vector<std::pair<std::vector<const ScenarioLayout*>, bool>> stages; // layouts, bracket
    for (std::size_t k = 0; k < schedule_.stages.size(); ++k)
        stages.emplace_back(schedule_.stages[k], schedule_.bracket && !schedule_.interleaved &&
                                                     k + 1 == schedule_.stages.size());
    for (std::size_t k = 0; k < stages.size(); ++k) {
        if (cancelled())
            break;
        const auto [stage, bracketPass] = stages[k];
        if (auto r = runStage(stage, target, bracketPass); !r) {
            (void)undoApplied(store_, runner_, id, std::nullopt, guestRunnerFor());
            (void)store_.setCampaignStatus(id, CampaignStatus::Failed, true);
            return fail(r.error());
        }
        for (const auto* l : rerun_)
            stages.insert(stages.begin() + static_cast<std::ptrdiff_t>(k) + 1, {{l}, false});
        rerun_.clear();
    }
    return {};
}

Expected<CampaignResult> CampaignRunner::run() {
    const Target target = inspectTarget(runner_, scenario_, probes_, scenario_.host.os);
    // The plans are written for what the target runs.
    if (!scenario_.host.os)
        scenario_.host.os = target.os;
    readInventory(target);
    std::optional<ProcessLock> lock;
    LB_TRY(id, openLocked(target, lock));
    schedule_ = scheduleCampaign(scenario_, opt_.onlyLayout);
    const auto layouts = selectedLayouts(scenario_, opt_.onlyLayout);
    LB_TRY_VOID(planRuns(id, layouts));
    LB_TRY_VOID(runStages(id, target));
    result_.status = cancelled()                ? CampaignStatus::Aborted
                     : result_.problems.empty() ? CampaignStatus::Done
                                                : CampaignStatus::Failed;
    LB_TRY_VOID(store_.setCampaignStatus(id, result_.status, true));
    for (const auto* l : layouts) {
        if (l->baseline)
            continue;
        if (!scenario_.fillLevels(*l).empty() || !scenario_.fill.empty()) {
            LB_TRY_VOID(compareByFillLevel(*l));
            continue;
        }
        auto cmp = compareStoredLayouts(store_, scenario_.baseline().name, l->name,
                                        scenario_.policy(), id);
        if (cmp)
            result_.comparisons.push_back(std::move(*cmp));
        else
            result_.notComparable.push_back(l->name + ": no comparison (" + cmp.error().message +
                                            ")");
    }
    return result_;
}

} // namespace campaign

Expected<CampaignResult> runCampaign(Store& store, const Scenario& scenario,
                                     const ProbeRegistry& probes, Runner& runner,
                                     const CampaignOptions& options) {
    campaign::CampaignRunner campaignRunner(store, scenario, probes, runner, options);
    return campaignRunner.run();
}

Expected<std::pair<std::string, std::string>> storedScenario(Store& store,
                                                             std::int64_t campaignId) {
    LB_TRY(campaign, store.campaign(campaignId));
    if (!campaign)
        return badInput("resume: no campaign " + std::to_string(campaignId) + " in " +
                        store.path());
    return std::pair{campaign->scenarioPath, campaign->scenario};
}

} // namespace lb
