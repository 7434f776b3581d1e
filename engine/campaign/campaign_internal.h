// Shared by the campaign's modules only: campaign.cpp (the campaign's course: opening it, its
// stages, the I/O path), campaign_build.cpp (building a layout and tearing it down),
// campaign_rounds.cpp (a stage's rounds and when they stop), campaign_target.cpp (what the
// target is: inventory, disks, guests, the kernel's OOM killer),
// campaign_runs.cpp (one measured run, from its command to its stored metrics) and
// campaign_conditioning.cpp (SSD preconditioning and steady state before the measured runs).
#pragma once

#include "engine/build/clients.h"
#include "engine/build/plan.h"
#include "engine/campaign/campaign.h"
#include "engine/campaign/schedule.h"
#include "engine/capacity/zfs_version.h"
#include "engine/exec/process_lock.h"

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lb::campaign {

using nlohmann::json;

// A small helper command (inspection, cleanup), a minute unless said otherwise.
Command simple(std::string program, std::vector<std::string> args, int timeoutSeconds = 60);
// Runs a small helper command; its stdout on success, nullopt otherwise.
std::optional<std::string> capture(Runner& runner, Command c);
std::string formatPercent(double fraction);
std::string trim(std::string s);

struct Target {
    TargetOs os = TargetOs::Linux; // what uname -s said (Linux where it could not tell)
    std::uint64_t ramBytes = 0;
    bool root = false;
    ZfsImplementation zfs; // what `zfs version` (or zfs-fuse's zpool) says
    json inventory;
};

// What the target is: CPU, memory, kernel, disks (lsblk), tool versions. `os` is what the
// scenario says the target runs (the host's, or a guest's), asked (uname -s) where it says nothing:
// a FreeBSD guest's memory comes from sysctl as a FreeBSD host's does.
Target inspectTarget(Runner& runner, const Scenario& scenario, const ProbeRegistry& probes,
                     std::optional<TargetOs> os);

// What a guest's runs carry: how the VM was set up, and its memory as the guest sees it.
std::vector<std::string> guestCaveats(const ScenarioLayout& layout, Runner& guest);

// Why a run failed, in the tool's own words where it said (out of memory, disk full).
std::string failureReason(const ProcessResult& r, int timeoutSeconds);

// The kernel's OOM-killer line for a run that just failed, where dmesg is readable: only lines
// from the run's own time count.
std::optional<std::string> kernelOomKill(Runner& where, const std::string& program,
                                         double runSeconds);

using RunKey = RunSlot;

// Runs already settled (ok or failed) in a campaign; interrupted ones are marked aborted.
Expected<std::set<RunKey>> settledRuns(Store& store, std::int64_t campaignId);

// A layout built for its runs: where they run and what they carry.
struct BuiltLayout {
    const ScenarioLayout* layout = nullptr;
    std::int64_t id = 0;
    Runner* where = nullptr;
    WorkloadContext ctx;
    std::vector<std::string> caveats;
    std::vector<MetricNote> notes; // on every metric of its runs (emulation, no resync, ...)
    bool acceptsDirect = true;     // its file system takes O_DIRECT
    bool zfs = false;              // a pool, on the host or in its guest
    ZfsImplementation zfsImpl;     // the ZFS that runs the pool
    // The fill level it is filled and aged to now, and what the ageing wrote on it to get there
    // (campaign_fill.cpp); none: as built.
    std::optional<double> fillLevel;
    std::uint64_t fillBytes = 0;
};

// Which ZFS runs a built layout's pool, and what that means for its results: the implementation
// on every run (a caveat); next to every verdict (a note) when it is not a server's kernel ZFS
// (zfs-fuse) or when the pool's disks are files, which sit in the host's page cache.
void noteZfsImplementation(BuiltLayout& built, const ZfsImplementation& zfs,
                           const Scenario& scenario);

// A tool's raw output and times, kept in a run or a preconditioning step.
template <typename Record> void keepOutput(Record& into, const ProcessResult& r) {
    into.exitCode = r.exitCode;
    into.stdoutText = r.stdoutText;
    into.stderrText = r.stderrText;
    into.startedAt = r.startedAt;
    into.finishedAt = r.finishedAt;
    into.wallSeconds = r.wallSeconds;
}

// "fio.seq-read-1m.*", "bonnie.*": globs for the metrics of one run, so a remark about the run
// does not reach other workloads' metrics of the same layout.
std::vector<std::string> runMetricGlobs(const std::vector<Metric>& metrics);

class CampaignRunner {
public:
    CampaignRunner(Store& store, const Scenario& scenario, const ProbeRegistry& probes,
                   Runner& runner, const CampaignOptions& options)
        : store_(store), scenario_(scenario), probes_(probes), runner_(runner), opt_(options) {}

    Expected<CampaignResult> run();

private:
    bool cancelled() const { return opt_.cancel && opt_.cancel->load(); }
    // How a tool runs: its output to the app, stopped by the app's cancel flag, gently first.
    RunOptions toolRunOptions() const {
        RunOptions ro;
        ro.onOutput = opt_.onToolOutput;
        ro.cancel = opt_.cancel;
        ro.graceInterrupt = opt_.graceInterrupt;
        ro.graceTerminate = opt_.graceTerminate;
        ro.toolTag = campaignToolTag(store_.path(), result_.campaignId);
        return ro;
    }
    void progress(CampaignProgress p) {
        p.done = done_;
        p.total = total_;
        p.maxTotal = std::max(total_, maxTotal_);
        p.iterations = scenario_.iterations;
        p.maxIterations = schedule_.maxIterations;
        p.bracket = schedule_.bracket && p.iteration >= schedule_.bracketFirst &&
                    p.layout == scenario_.baseline().name &&
                    (p.kind == CampaignProgress::Kind::Running ||
                     p.kind == CampaignProgress::Kind::RunFinished);
        if (sessionRuns_ > 0 && done_ < total_)
            p.etaSeconds = sessionSeconds_ / static_cast<double>(sessionRuns_) *
                           static_cast<double>(total_ - done_);
        if (opt_.onProgress)
            opt_.onProgress(p);
    }
    // The campaign's course (campaign.cpp).
    void readInventory(const Target& target);
    Expected<std::int64_t> openCampaign(const Target& target);
    Expected<std::int64_t> openLocked(const Target& target, std::optional<ProcessLock>& lock);
    Expected<void> planRuns(std::int64_t id, const std::vector<const ScenarioLayout*>& layouts);
    Expected<void> runStages(std::int64_t id, const Target& target);
    Expected<void> recordDisks(const json& inventory);
    Expected<void> guardDevices(const std::vector<const ScenarioLayout*>& layouts);
    // Building a layout (campaign_build.cpp).
    Expected<std::optional<BuiltLayout>> build(const ScenarioLayout& layout, const Target& target,
                                               bool bracketPass);
    Expected<std::string> buildGuest(const ScenarioLayout& layout, BuiltLayout& built);
    Expected<std::string> buildOnHost(const ScenarioLayout& layout, const Target& target,
                                      BuiltLayout& built);
    void describeMachine(const ScenarioLayout& layout, const Target& target, BuiltLayout& built);
    void noteBuildCaveats(const ScenarioLayout& layout, const Target& target, BuiltLayout& built);
    Expected<void> teardown(BuiltLayout& built);
    Expected<void> runStage(const std::vector<const ScenarioLayout*>& stage, const Target& target,
                            bool bracketPass);
    // What a stage does besides its rounds: where its rounds start, whether they may add
    // iterations, whether the baseline's bracketing runs interleave with it, whether its drills
    // run here.
    struct StagePlan {
        int first = 0;
        bool adaptive = false;
        bool interleavedBracket = false;
        bool drills = false;
    };
    StagePlan planStage(const std::vector<const ScenarioLayout*>& stage, bool bracketPass) const;
    bool stageHasWork(const std::vector<const ScenarioLayout*>& stage, const StagePlan& plan,
                      bool round) const;
    Expected<void> prepareStage(const std::vector<const ScenarioLayout*>& stage,
                                const Target& target, bool bracketPass,
                                std::vector<BuiltLayout>& built);
    Expected<void> finishStage(const StagePlan& plan, std::vector<BuiltLayout>& built);
    // One round of a stage: an iteration of every workload on every layout of it or, beyond the
    // minimum of an adaptive stage, of the workloads whose deciding metrics are still open only.
    struct Round {
        int iteration = 0;
        std::optional<std::set<std::string>> workloads; // none: every workload
        bool includes(const std::string& workload) const {
            return !workloads || workloads->count(workload) != 0;
        }
    };
    Expected<void> runIteration(BuiltLayout& built, const Round& round);
    Expected<void> runDrills(BuiltLayout& built);
    Expected<void> storeLoadPhases(const BuiltLayout& built, const ScenarioDrill& drill);
    bool missingRuns(const std::vector<const ScenarioLayout*>& stage, const Round& round) const;
    bool stageAdaptive(const std::vector<const ScenarioLayout*>& stage, bool bracketPass) const;
    // Deciding metrics of a stage not settled yet ("layout: metric"): those more runs could still
    // settle (open) and those they could not within max_iterations (beyond); and the workloads
    // that measure the open ones.
    struct Undecided {
        std::vector<std::string> open, beyond;
        std::set<std::string> openWorkloads;
        // Workloads with an outlier on a deciding metric not yet run again
        // (workloadsToRunAgainForOutliers): one more round of them before the stage stops.
        std::set<std::string> outlierWorkloads;
    };
    Expected<Undecided> undecided(const std::vector<const ScenarioLayout*>& stage);
    Expected<std::optional<Round>> nextRound(const std::vector<const ScenarioLayout*>& stage,
                                             int first, bool adaptive);
    Expected<void> noteUndecided(const Undecided& metrics, int iterations);
    Expected<void> runRounds(const std::vector<const ScenarioLayout*>& stage, const StagePlan& plan,
                             std::vector<BuiltLayout>& built, std::optional<Round> next);
    // The I/O path of every layout (campaign.cpp).
    Expected<void> decideIo(std::vector<BuiltLayout>& built);
    CampaignIo firstIoPath(const std::vector<BuiltLayout>& built) const;
    Expected<CampaignIo> switchToBuffered(const std::vector<BuiltLayout>& built,
                                          const BuiltLayout& refusing);
    void noteDirectIo(BuiltLayout& b) const;
    Expected<void> failLayoutRuns(const ScenarioLayout& layout, std::int64_t layoutId,
                                  const std::string& reason, bool bracketPass);
    Expected<Runner*> guestRunner(const ScenarioLayout& layout);
    GuestRunnerFor guestRunnerFor();
    Expected<void> waitForGuest(const ScenarioLayout& layout, Runner& guest);
    // One measured run (campaign_runs.cpp).
    Expected<void> runOne(const BuiltLayout& built, const Probe* probe, const ScenarioWorkload& w,
                          int iteration);
    // What a run came to, before it is settled.
    struct Outcome {
        RunStatus status = RunStatus::Ok;
        std::string reason;
    };
    Expected<Outcome> execute(Run& run, Runner& where, const MeasuredCommand& mc,
                              const Probe& probe, const ScenarioWorkload& w,
                              const WorkloadContext& ctx,
                              const std::optional<std::string>& cacheNote);
    Expected<Outcome> interpret(Run& run, const ProcessResult& result, Runner& where,
                                const MeasuredCommand& mc, const Probe& probe,
                                const ScenarioWorkload& w, const WorkloadContext& ctx,
                                const std::optional<std::string>& cacheNote);
    Expected<void> settle(Run& run, RunStatus status, std::string reason);
    std::vector<std::string> dropCaches(Runner& where, TargetOs os);
    // SSD preconditioning (campaign_conditioning.cpp).
    Expected<void> condition(const BuiltLayout& built);
    Expected<ConditioningStep> conditioningStep(const BuiltLayout& built, const Probe& probe,
                                                const ScenarioWorkload& w, MeasuredCommand mc,
                                                int round);
    Expected<void> steadyRounds(const BuiltLayout& built, const ScenarioWorkload* w,
                                const Probe* probe, const Preconditioning& p, std::uint64_t bytes);
    // Fill levels (campaign_fill.cpp): the stage's levels lowest first ({none} without fill),
    // whether a layout runs at the stage's level now, the key of a run at it, the layouts
    // filled and aged to it (false when one could not be: the stage stops there), and the
    // comparisons level by level at the end.
    std::vector<std::optional<double>>
    stageFillLevels(const std::vector<const ScenarioLayout*>& stage) const;
    bool runsAtStageFill(const ScenarioLayout& layout) const;
    RunKey keyAt(const std::string& layout, const std::string& workload, int iteration,
                 std::optional<double> level) const {
        return {layout, workload, iteration, fillPermille(level)};
    }
    std::optional<double> lastFillLevel(const ScenarioLayout& layout) const;
    Expected<bool> fillStage(std::vector<BuiltLayout>& built);
    Expected<bool> fillOne(BuiltLayout& built, double level);
    Expected<void> compareByFillLevel(const ScenarioLayout& candidate);

    Store& store_;
    Scenario scenario_; // a copy: its host's OS is filled in when the scenario leaves it open
    const ProbeRegistry& probes_;
    Runner& runner_;
    const CampaignOptions& opt_;
    CampaignResult result_;
    std::set<RunKey> settled_;
    std::size_t done_ = 0, total_ = 0, maxTotal_ = 0, sessionRuns_ = 0;
    double sessionSeconds_ = 0;
    std::int64_t hostId_ = 0;
    std::map<std::string, std::string> toolVersions_;      // on the host
    std::map<std::string, std::string> guestToolVersions_; // in the guest of the current layout
    std::string drillOutput_; // the stdout of the last drill run: its load phases
    std::map<std::string, std::uint64_t> deviceBytes_; // block device path -> size (lsblk)
    std::map<std::string, std::unique_ptr<Runner>> guestRunners_; // by layout name
    ClientPlacement clients_{scenario_, runner_};
    CampaignSchedule schedule_;
    std::map<std::string, std::int64_t> lastRun_; // layout -> id of its latest run
    std::optional<CampaignIo> io_;                // decided once, for every layout
    std::optional<double> stageFill_;             // the fill level the stage's rounds run at
    std::vector<const ScenarioLayout*> rerun_;    // measured before the I/O path changed
    // What preconditioning and steady state say about a workload's runs on a layout, by
    // (layout, workload); on every metric of those runs.
    std::map<std::pair<std::string, std::string>, std::vector<MetricNote>> conditioningNotes_;
};

} // namespace lb::campaign
