// The front door's scenario workflows: the scenario a run or a resume runs (secrets restored),
// what a campaign will build and destroy (the safety review), and the dry run that shows every
// command a scenario would run without running one, with the facts it assumes of this machine.
#pragma once

#include "engine/base/expected.h"
#include "engine/campaign/schedule.h"
#include "engine/exec/layout_plan.h"
#include "engine/exec/runner.h"
#include "engine/exec/safety.h"
#include "engine/measure/probe.h"
#include "engine/scenario/scenario.h"
#include "engine/store/store.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lb {

// ---- the scenario to run

// Where a scenario comes from: its file, or the text of an editor (with the path it is saved
// under, if any, which names it in messages and anchors relative paths).
struct ScenarioSource {
    std::string path;
    std::optional<std::string> text; // none: read `path`
};

// The scenario a campaign runs: the source's; or when resuming, the copy stored with the
// campaign, whatever the source says now, with the CHAP secrets (masked in the stored copy)
// taken from the source for the same layouts. `store` is needed only to resume. Bad input naming
// the field: "resume: no campaign 7 in ...", "layout: no layout named 'x' in ...".
Expected<Scenario> resolveScenario(const ScenarioSource& source, std::optional<std::int64_t> resume,
                                   const std::optional<std::string>& onlyLayout, Store* store,
                                   const ProbeRegistry& probes);

// ---- the safety review

// What a campaign will build and destroy, reviewed before anything runs: each layout's plan, and
// every block device with what the safety inspection found on it.
struct PlannedLayout {
    std::string name;
    std::string kind; // "zfs-mirror"
    bool baseline = false;
    std::vector<std::string> devices; // the block devices building it destroys, in disk order
    std::vector<PlanStep> steps;      // each with its undo; a guest's own steps say so
    std::string problem;              // why there is no plan ("" when there is one)
};

struct DeviceReview {
    std::string path; // as the scenario names it
    std::string disk; // the scenario's [[disks]] name
    bool wipe = false;
    std::vector<std::string> layouts; // the layouts that destroy it
    std::optional<DiskState> state;   // what the inspection found, once it ran
    std::string inspectError;         // why the inspection could not run ("" when it did)
};

struct CampaignReview {
    std::string scenario;
    std::vector<PlannedLayout> layouts; // in the scenario's order
    std::vector<DeviceReview> devices;  // each device once, in order of first use
};

// The layouts a campaign builds (the baseline and `onlyLayout`, or all), each with its plan, and
// the block devices they destroy, not yet inspected. A function of the scenario alone: device
// sizes are not known here, so a partition of a fraction of a device shows a placeholder size.
CampaignReview reviewCampaign(const Scenario& scenario,
                              const std::optional<std::string>& onlyLayout);

// Runs the safety inspection the campaign makes before it builds anything on each reviewed
// device, through `runner` (the scenario's host). A device that cannot be inspected keeps the
// reason; the campaign will refuse it. Stops before the next device once `cancel` is set.
using DiskInspector = std::function<Expected<DiskState>(Runner&, const std::string&)>;
void inspectReviewedDevices(CampaignReview& review, Runner& runner,
                            const DiskInspector& inspector = inspectDisk,
                            const std::atomic<bool>* cancel = nullptr);

// ---- the dry run

// What a dry run assumes of the machine the scenario would run on (its runs read the real
// figures from each target).
struct DryRunHost {
    std::uint64_t ramBytes = 0; // 0: not known (the plan shows a placeholder where it counts)
    bool root = false;
    std::map<std::string, std::uint64_t> deviceBytes; // block device sizes, by path
};

struct DryRunWorkload {
    const ScenarioWorkload* workload = nullptr;
    // Where its commands run: on the layout's host, on its one client, or from the workbench to
    // all its clients (a probe that drives them).
    enum class Where { Layout, Client, Workbench };
    Where where = Where::Layout;
    MeasuredCommand command; // as the probe makes it; client commands kept apart
    // SSD preconditioning: the steady-state rounds before it is measured; or why the
    // preconditioning asked for does not apply to it.
    std::optional<Preconditioning> rounds;
    std::string notPreconditioned;
};

struct DryRunLayout {
    const ScenarioLayout* layout = nullptr;
    std::vector<LayoutPlan> parts; // in the order they are applied; the last runs the workloads
    std::vector<DryRunWorkload> workloads;
    // What its SSD preconditioning does before the first measured run, one line; none without.
    std::optional<std::string> precondition;
    // Its drills, in order, after the workloads: each one's steps with their undos (planDrill).
    std::vector<std::pair<const ScenarioDrill*, LayoutPlan>> drills;
    // Its fill levels, lowest first, and its usable bytes as the capacity model gives them (0:
    // not known until built), from which `plan` says what the ageing writes (describeFill).
    std::vector<double> fillLevels;
    std::uint64_t usableBytes = 0;
};

struct DryRun {
    CampaignSchedule schedule;
    std::vector<DryRunLayout> layouts; // in the scenario's order
};

// What this machine is, for a dry run of a scenario here: its memory, whether this process is
// root, and the sizes of the scenario's block devices from sysfs (a device that is missing or not
// a block device has none). Nothing is run. For a scenario whose host is another machine (an ssh
// target, or a system other than this one's) its memory and disk sizes are not known: only
// whether it runs as root (as its ssh user, else as whoever plans).
DryRunHost localDryRunHost(const Scenario& scenario);

// Every command a scenario would run — each layout's plan with its undo, and each workload's
// command on it — built exactly as the campaign builds them, nothing run.
Expected<DryRun> dryRun(const Scenario& scenario, const ProbeRegistry& probes,
                        const DryRunHost& host);
// The plan points into the scenario: a temporary one would leave it dangling.
Expected<DryRun> dryRun(Scenario&&, const ProbeRegistry&, const DryRunHost&) = delete;

} // namespace lb
