// A campaign's course: open (or resume) it, recover what a crash left built, then stage by stage
// build the layouts, run their iterations in turn (adding iterations while a verdict is not
// confident), bracket, drill and tear down. One run's execution is in campaign_runs.cpp, the
// target's inspection in campaign_target.cpp.
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
    return "c" + std::to_string(campaignId) + "-" + contentHash(absolute).substr(0, 12);
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

// Builds a layout (host plan, and for a guest its VM and the inside plan) and works out where and
// how its runs go. None when the build failed: its runs of this pass are then recorded as failed.
Expected<std::optional<BuiltLayout>> CampaignRunner::build(const ScenarioLayout& layout,
                                                           const Target& target, bool bracketPass) {
    auto layoutId = store_.ensureLayout(layout.name, std::string(layoutKindName(layout.kind)),
                                        layoutSpecJson(scenario_, layout, deviceBytes_), hostId_);
    if (!layoutId)
        return fail(layoutId.error());
    BuiltLayout built;
    built.layout = &layout;
    built.id = *layoutId;
    built.where = &runner_;
    progress({CampaignProgress::Kind::Building, layout.name});
    auto notBuilt = [&](const std::string& reason) -> Expected<std::optional<BuiltLayout>> {
        if (auto r = failLayoutRuns(layout, built.id, reason, bracketPass); !r)
            return fail(r.error());
        return std::optional<BuiltLayout>{};
    };
    std::string workdir;
    if (layout.kind == LayoutKind::Guest) {
        auto plans = planGuestLayout(scenario_, layout, deviceBytes_);
        if (!plans)
            return fail(plans.error());
        if (auto applied = applyPlan(store_, runner_, result_.campaignId, built.id, plans->host);
            !applied)
            return notBuilt(applied.error().message);
        auto guest = guestRunner(layout);
        Expected<void> ready = guest ? waitForGuest(layout, **guest) : fail(guest.error());
        if (ready) {
            if (auto applied =
                    applyPlan(store_, **guest, result_.campaignId, built.id, plans->guest);
                !applied)
                ready = fail(applied.error());
        }
        if (!ready) {
            if (auto r = teardown(built); !r)
                return fail(r.error());
            return notBuilt(ready.error().message);
        }
        built.where = *guest;
        workdir = plans->guest.workdir;
        built.caveats = guestCaveats(layout, *built.where);
        for (const auto& c : built.caveats)
            if (c.starts_with("TCG"))
                built.notes.push_back({MetricNote::Kind::Qualifies, "*", c});
    } else {
        // dRAID where the ZFS has none: said before anything is built.
        if (isDraid(layout.kind))
            if (const auto why = zfsFeatureProblem(target.zfs, "draid"); !why.empty())
                return notBuilt(why);
        auto plan = planLayout(scenario_, layout, deviceBytes_);
        if (!plan)
            return fail(plan.error());
        if (auto applied = applyPlan(store_, runner_, result_.campaignId, built.id, *plan);
            !applied)
            return notBuilt(applied.error().message);
        workdir = plan->workdir;
    }

    WorkloadContext& ctx = built.ctx;
    ctx.workdir = workdir;
    ctx.ramBytes = target.ramBytes;
    ctx.os = layout.guest ? layout.guest->os : scenario_.host.os.value_or(TargetOs::Linux);
    ctx.root = target.root;
    ctx.exported = exportTarget(layout, workdir);
    std::string kernel = target.inventory.value("kernel", std::string());
    if (built.where != &runner_) {
        // The guest's memory is what bonnie++ must exceed, and its tools are the ones that run.
        const Target inside = inspectTarget(*built.where, scenario_, probes_);
        ctx.ramBytes = inside.ramBytes;
        ctx.root = inside.root;
        kernel = inside.inventory.value("kernel", std::string());
        guestToolVersions_.clear();
        for (const auto& [name, version] : inside.inventory["tools"].items())
            guestToolVersions_[name] = version.get<std::string>();
    }
    // The machine the runs go on, held against the other side's by the comparison: another
    // memory size or kernel may change the figures (a caveat beside each,
    // engine/measure/analysis.h).
    if (ctx.ramBytes > 0)
        built.notes.push_back(
            {MetricNote::Kind::Method, "*", "memory=" + formatBytes(ctx.ramBytes, true)});
    if (!kernel.empty())
        built.notes.push_back({MetricNote::Kind::Method, "*", "kernel=" + kernel});
    // Whether it takes O_DIRECT; the campaign then picks one path for every layout (decideIo).
    const std::string probeFile = workdir + "/.lb-odirect-probe";
    auto direct = built.where->run(simple("dd", {"if=/dev/zero", "of=" + probeFile, "bs=4096",
                                                 "count=1", "oflag=direct", "status=none"}));
    built.acceptsDirect = direct && direct->ok();
    (void)built.where->run(simple("rm", {"-f", "--", probeFile}));
    built.zfs = isZfs(layout.kind) || (layout.guest && layout.guest->layout.starts_with("zfs"));
    if (built.zfs)
        noteZfsImplementation(built, built.where == &runner_ ? target.zfs : detectZfs(*built.where),
                              scenario_);
    if (built.zfs)
        built.caveats.push_back(scenario_.coldCache
                                    ? "ZFS primarycache=metadata (cache = \"cold\"): the ARC "
                                      "keeps no file data, reads come from the vdevs"
                                    : "ZFS primarycache=all (cache = \"warm\"): reads can come "
                                      "from the ARC; dropping the page cache does not empty it");
    if (built.zfs && !scenario_.coldCache)
        built.notes.push_back({MetricNote::Kind::Qualifies, "*",
                               "cache = \"warm\": ZFS reads can come from the ARC"});
    if (layout.mdKind() && layout.assumeClean) {
        const std::string text = "md array created with --assume-clean: no initial resync, "
                                 "parity not verified before the runs";
        built.caveats.push_back(text);
        built.notes.push_back({MetricNote::Kind::Qualifies, "*", text});
    }
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

bool CampaignRunner::missingRuns(const std::vector<const ScenarioLayout*>& stage,
                                 const Round& round) const {
    for (const auto* l : stage)
        for (const auto& w : scenario_.workloads)
            if (round.includes(w.name) && !settled_.count({l->name, w.name, round.iteration}))
                return true;
    return false;
}

// Whether a stage adds iterations beyond the minimum: with iterations = "auto", every stage that
// holds a candidate (its verdict can become confident), and with `until` every stage (a layout's
// own spread). Never the bracketing pass: it measures drift.
bool CampaignRunner::stageAdaptive(const std::vector<const ScenarioLayout*>& stage,
                                   bool bracketPass) const {
    if (!scenario_.adaptive() || bracketPass)
        return false;
    return scenario_.untilCv ||
           std::any_of(stage.begin(), stage.end(), [](const auto* l) { return !l->baseline; });
}

// The deciding metrics that keep a stage going: not confident against the baseline (or, with
// `until`, spread more than it allows on a layout of the stage). No open one: the stage may stop.
// A metric whose interval could not fit in its band even with max_iterations runs of the same
// spread (its ratio too near a band's edge) does not keep the stage going: running to the
// maximum would cost the time and leave it undecided all the same.
Expected<CampaignRunner::Undecided>
CampaignRunner::undecided(const std::vector<const ScenarioLayout*>& stage) {
    Undecided out;
    const ComparePolicy policy = scenario_.policy();
    const std::string& base = scenario_.baseline().name;
    for (const auto* l : stage) {
        if (scenario_.untilCv) {
            auto samples = store_.layoutSamples(l->name, result_.campaignId);
            if (!samples)
                return fail(samples.error());
            for (const auto& m : samples->metrics)
                if (decidesUnder(policy, m.name) && m.values.size() >= 2 &&
                    coefficientOfVariation(m.values) > *scenario_.untilCv) {
                    out.open.push_back(l->name + ": " + m.name);
                    out.openWorkloads.insert(m.workload);
                }
            continue;
        }
        if (l->baseline)
            continue;
        auto cmp = compareStoredLayouts(store_, base, l->name, policy, result_.campaignId);
        if (!cmp) {
            if (cmp.error().kind == ErrorKind::BadInput)
                continue; // nothing measured on both yet (failed runs): more runs will not help
            return fail(cmp.error());
        }
        const auto maxRuns = static_cast<std::size_t>(schedule_.maxIterations);
        out.outlierWorkloads.merge(workloadsToRunAgainForOutliers(
            *cmp, static_cast<std::size_t>(schedule_.minIterations)));
        for (const auto& m : cmp->metrics) {
            if (!m.decisive || m.confident)
                continue;
            const bool open = couldBecomeConfident(m, policy.thresholds, maxRuns);
            (open ? out.open : out.beyond).push_back(l->name + ": " + m.name);
            if (open)
                out.openWorkloads.insert(m.workload);
        }
    }
    return out;
}

// The next round a stage runs, counting from `first`: the missing runs of the minimum, then
// (adaptive) one more of the workloads that measure a deciding metric still undecided, up to the
// maximum. A workload whose deciding metrics are all settled is not run again: more of its runs
// would change no verdict, and on a real campaign (bonnie++ for ten minutes beside a short fio
// job that is still undecided) they would be most of the time.
Expected<std::optional<CampaignRunner::Round>>
CampaignRunner::nextRound(const std::vector<const ScenarioLayout*>& stage, int first,
                          bool adaptive) {
    const int minimum = schedule_.minIterations;
    const int maximum = adaptive ? schedule_.maxIterations : minimum;
    for (int n = 0; n < maximum; ++n) {
        if (n < minimum) {
            if (Round every{first + n, std::nullopt}; missingRuns(stage, every))
                return std::optional<Round>{every};
            continue;
        }
        auto open = undecided(stage);
        if (!open)
            return fail(open.error());
        if (open->open.empty()) {
            // Settled, but a run stood apart: that workload runs once more before the stage
            // stops, so a stall is not what the verdict rests on alone.
            if (Round again{first + n, std::move(open->outlierWorkloads)};
                !again.workloads->empty() && missingRuns(stage, again))
                return std::optional<Round>{std::move(again)};
            return std::optional<Round>{};
        }
        Round some{first + n, std::move(open->openWorkloads)};
        if (std::none_of(scenario_.workloads.begin(), scenario_.workloads.end(),
                         [&](const ScenarioWorkload& w) { return some.includes(w.name); }))
            some.workloads.reset(); // measured under names this scenario no longer has
        if (missingRuns(stage, some))
            return std::optional<Round>{std::move(some)};
    }
    return std::optional<Round>{};
}

// An adaptive stage that stopped undecided says so on the metrics it could not settle: at
// max_iterations, or earlier for those no number of runs up to it could settle.
Expected<void> CampaignRunner::noteUndecided(const Undecided& metrics, int iterations) {
    const std::string after = " after " + std::to_string(iterations) + " iterations";
    const std::string open = scenario_.untilCv
                                 ? "still spread more than " + formatPercent(*scenario_.untilCv) +
                                       after + " (max_iterations)"
                                 : "not confident" + after + " (max_iterations)";
    const std::string beyond =
        "not confident" + after + ", and " + std::to_string(schedule_.maxIterations) +
        " (max_iterations) could not make it so: its ratio lies too near a band's edge for "
        "its spread";
    for (const auto* list : {&metrics.open, &metrics.beyond})
        for (const auto& entry : *list) {
            const auto colon = entry.find(": ");
            const auto last = lastRun_.find(entry.substr(0, colon));
            if (last == lastRun_.end())
                continue;
            MetricNote note{MetricNote::Kind::Qualifies, entry.substr(colon + 2),
                            list == &metrics.open ? open : beyond};
            if (auto r = store_.addRunNote(last->second, note); !r)
                return r;
        }
    return {};
}

// One I/O path for every layout: direct where all take O_DIRECT, else buffered on all (with the
// cache defeated by cache = "cold"), so no comparison sets direct against buffered I/O. Layouts
// built one after the other are found out one by one: when a later one refuses O_DIRECT, the fio
// runs measured with direct I/O so far are superseded and run again, buffered.
Expected<void> CampaignRunner::decideIo(std::vector<BuiltLayout>& built) {
    const auto refusing = std::find_if(built.begin(), built.end(),
                                       [](const BuiltLayout& b) { return !b.acceptsDirect; });
    std::optional<CampaignIo> decided;
    if (!io_) {
        if (scenario_.io == Scenario::IoPath::Direct)
            decided = CampaignIo{true, "io = \"direct\" in the scenario", true};
        else if (scenario_.io == Scenario::IoPath::Buffered)
            decided = CampaignIo{false, "io = \"buffered\" in the scenario"};
        else if (refusing != built.end())
            decided = CampaignIo{false, "layout '" + refusing->layout->name +
                                            "' does not accept O_DIRECT"};
        else
            decided = CampaignIo{true, "every layout accepts O_DIRECT"};
    } else if (io_->direct && scenario_.io == Scenario::IoPath::Auto && refusing != built.end()) {
        decided =
            CampaignIo{false, "layout '" + refusing->layout->name + "' does not accept O_DIRECT"};
        auto n = store_.supersedeRuns(result_.campaignId, "fio",
                                      "superseded: measured with direct I/O before " +
                                          decided->why + "; run again buffered");
        if (!n)
            return fail(n.error());
        auto settled = settledRuns(store_, result_.campaignId);
        if (!settled)
            return fail(settled.error());
        done_ -= std::min(done_, *n);
        for (const auto& key : settled_)
            if (!settled->count(key))
                for (const auto& l : scenario_.layouts)
                    if (l.name == key.layout &&
                        std::find(rerun_.begin(), rerun_.end(), &l) == rerun_.end() &&
                        std::none_of(built.begin(), built.end(),
                                     [&](const BuiltLayout& b) { return b.layout == &l; }))
                        rerun_.push_back(&l);
        settled_ = std::move(*settled);
    }
    if (decided) {
        decided->coldCache = scenario_.coldCache;
        decided->pageCacheDropped = scenario_.coldCache && scenario_.dropCaches;
        io_ = decided;
        if (auto r = store_.setCampaignIo(result_.campaignId, *io_); !r)
            return r;
        CampaignProgress p{CampaignProgress::Kind::Message};
        p.message = "measuring " + describeCampaignIo(*io_);
        progress(p);
    }
    for (auto& b : built) {
        b.ctx.directIo = io_->direct;
        // What O_DIRECT means depends on the ZFS (OpenZFS 2.3's direct property).
        if (b.zfs && io_->direct && b.zfsImpl.kind == ZfsImplementation::Kind::OpenZfs) {
            if (b.zfsImpl.openZfsAtLeast(2, 3)) {
                b.caveats.push_back("OpenZFS 2.3+: O_DIRECT bypasses the ARC (direct=standard); a "
                                    "read smaller than the record size still reads the whole "
                                    "record from the vdevs");
            } else {
                const std::string text =
                    "OpenZFS before 2.3 accepts O_DIRECT but reads through the ARC";
                b.caveats.push_back(text +
                                    (scenario_.coldCache
                                         ? ": primarycache=metadata keeps data out of it"
                                         : ": with cache = \"warm\" reads can come from it"));
                if (!scenario_.coldCache)
                    b.notes.push_back({MetricNote::Kind::Qualifies, "*", text});
            }
        }
    }
    return {};
}

// Builds the stage's layouts, runs their iterations in turn (each round starting with another
// layout), the bracketing runs and drills, and tears them down, newest first.
Expected<void> CampaignRunner::runStage(const std::vector<const ScenarioLayout*>& stage,
                                        const Target& target, bool bracketPass) {
    const int first = bracketPass ? schedule_.bracketFirst : 0;
    const bool adaptive = stageAdaptive(stage, bracketPass);
    const bool interleavedBracket = schedule_.interleaved && schedule_.bracket;
    const bool drillsHere = !(schedule_.bracket && !schedule_.interleaved && !bracketPass &&
                              stage.size() == 1 && stage.front()->baseline);
    auto next = nextRound(stage, first, adaptive);
    if (!next)
        return fail(next.error());
    bool work = next->has_value();
    for (const auto* l : stage) {
        if (drillsHere)
            for (const auto& d : scenario_.drills)
                work = work || (d.layout == l->name && !settled_.count({l->name, d.name(), 0}));
        if (interleavedBracket && l->baseline)
            for (int i = 0; i < schedule_.bracketRuns; ++i)
                work = work || missingRuns({l}, {schedule_.bracketFirst + i, std::nullopt});
    }
    if (!work)
        return {};

    std::vector<BuiltLayout> built;
    Expected<void> outcome;
    auto tearAll = [&]() -> Expected<void> {
        for (auto it = built.rbegin(); it != built.rend(); ++it)
            if (auto r = teardown(*it); !r)
                return r;
        return {};
    };
    for (const auto* l : stage) {
        if (cancelled())
            break;
        auto b = build(*l, target, bracketPass);
        if (!b) {
            (void)tearAll();
            return fail(b.error());
        }
        if (*b)
            built.push_back(std::move(**b));
    }
    if (auto r = decideIo(built); !r) {
        (void)tearAll();
        return r;
    }
    for (const auto& b : built) {
        if (cancelled())
            break;
        if (auto r = condition(b); !r) {
            (void)tearAll();
            return r;
        }
    }
    int done = 0;
    while (outcome && !cancelled() && *next) {
        const Round& round = **next;
        const int i = round.iteration;
        if (i - first >= schedule_.minIterations) {
            // An adaptive round: the campaign grows by the runs of this stage it holds.
            const auto runs =
                std::count_if(scenario_.workloads.begin(), scenario_.workloads.end(),
                              [&](const ScenarioWorkload& w) { return round.includes(w.name); });
            total_ += built.size() * static_cast<std::size_t>(runs);
        }
        for (std::size_t k = 0; k < built.size() && outcome; ++k)
            outcome = runIteration(built[(k + static_cast<std::size_t>(i)) % built.size()], round);
        done = i - first + 1;
        if (!outcome)
            break;
        next = nextRound(stage, first, adaptive);
        if (!next)
            outcome = fail(next.error());
    }
    if (outcome && adaptive && !cancelled()) {
        auto open = undecided(stage);
        if (!open)
            outcome = fail(open.error());
        else if (done < schedule_.maxIterations)
            open->open.clear(); // stopped because every open metric settled
        if (outcome)
            outcome = noteUndecided(*open, done);
    }
    for (auto& b : built) {
        if (!outcome || cancelled())
            break;
        if (interleavedBracket && b.layout->baseline)
            for (int i = 0; i < schedule_.bracketRuns && outcome; ++i)
                outcome = runIteration(b, {schedule_.bracketFirst + i, std::nullopt});
    }
    for (auto& b : built)
        if (outcome && drillsHere)
            outcome = runDrills(b);
    if (auto r = tearAll(); !r && outcome)
        outcome = r;
    return outcome;
}

Expected<CampaignResult> CampaignRunner::run() {
    const Target target = inspectTarget(runner_, scenario_, probes_);
    // The plans are written for what the target runs.
    if (!scenario_.host.os)
        scenario_.host.os = target.os;
    // Block device sizes from lsblk (children included): partitions are cut to a fraction.
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
    // One process at a time works on a campaign (a cleanup must not tear down under it); held
    // until the campaign ends. A resume takes it before it marks the campaign running again.
    std::optional<ProcessLock> lock;
    const auto take = [&](std::int64_t campaignId) -> Expected<void> {
        auto l = acquireCampaignLock(store_.path(), campaignId);
        if (!l)
            return fail(l.error());
        lock.emplace(std::move(*l));
        return {};
    };
    if (opt_.resume)
        if (auto r = take(*opt_.resume); !r)
            return fail(r.error());
    auto id = openCampaign(target);
    if (!id)
        return fail(id.error());
    if (!lock)
        if (auto r = take(*id); !r)
            return fail(r.error());
    result_.campaignId = *id;
    if (auto r = store_.setCampaignPolicy(*id, scenario_.policy()); !r)
        return fail(r.error());

    // A crash may have left layouts half-built: undo what the journal shows, newest first.
    auto recovered = undoApplied(store_, runner_, *id, std::nullopt, guestRunnerFor());
    if (!recovered)
        return fail(recovered.error());
    auto settled = settledRuns(store_, *id);
    if (!settled)
        return fail(settled.error());
    settled_ = std::move(*settled);

    schedule_ = scheduleCampaign(scenario_, opt_.onlyLayout);
    const auto layouts = selectedLayouts(scenario_, opt_.onlyLayout);
    if (auto r = guardDevices(layouts); !r) {
        (void)store_.setCampaignStatus(*id, CampaignStatus::Failed, true);
        return fail(r.error());
    }
    // Runs settled before a resume count as done, adaptive ones included.
    std::set<RunKey> planned;
    for (const auto& p : schedule_.runs)
        planned.insert({p.layout, p.workload, p.iteration});
    for (const auto& key : settled_)
        planned.insert(key);
    total_ = planned.size();
    maxTotal_ = std::max(schedule_.maxRuns, total_);
    done_ = result_.skippedRuns = settled_.size();

    if (auto r = runner_.run(simple("mkdir", {"-p", "--", scenario_.workDir})); !r || !r->ok())
        return runtimeError(scenario_.workDir + ": cannot create the work directory" +
                            (r ? ": " + trim(r->stderrText) : ": " + r.error().message));

    auto io = store_.campaignIo(*id); // a resumed campaign keeps the path it chose
    if (!io)
        return fail(io.error());
    io_ = *io;
    std::vector<std::pair<std::vector<const ScenarioLayout*>, bool>> stages; // layouts, bracket
    for (std::size_t k = 0; k < schedule_.stages.size(); ++k)
        stages.emplace_back(schedule_.stages[k], schedule_.bracket && !schedule_.interleaved &&
                                                     k + 1 == schedule_.stages.size());
    for (std::size_t k = 0; k < stages.size(); ++k) {
        if (cancelled())
            break;
        const auto [stage, bracketPass] = stages[k];
        if (auto r = runStage(stage, target, bracketPass); !r) {
            (void)undoApplied(store_, runner_, *id, std::nullopt, guestRunnerFor());
            (void)store_.setCampaignStatus(*id, CampaignStatus::Failed, true);
            return fail(r.error());
        }
        // Layouts measured before the I/O path changed run again, right away.
        for (const auto* l : rerun_)
            stages.insert(stages.begin() + static_cast<std::ptrdiff_t>(k) + 1, {{l}, false});
        rerun_.clear();
    }
    result_.status = cancelled()                ? CampaignStatus::Aborted
                     : result_.problems.empty() ? CampaignStatus::Done
                                                : CampaignStatus::Failed;
    LB_TRY_VOID(store_.setCampaignStatus(*id, result_.status, true));
    for (const auto* l : layouts) {
        if (l->baseline)
            continue;
        auto cmp = compareStoredLayouts(store_, scenario_.baseline().name, l->name,
                                        scenario_.policy(), *id);
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
