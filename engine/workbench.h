// What both front ends do with the engine, done once here: the command line and the desktop app
// parse their input, call these, and present what comes back. Errors name the field they are
// about ("resume: ...", "growth: ..."); each front end says it in its own terms (a flag, a
// widget).
//
//   resolveScenario       the scenario a run or a resume runs, secrets restored
//   scheduleCampaign      the runs of a campaign in order, drills included
//   (engine/campaign/schedule.h) reviewCampaign        what a campaign builds and destroys, for the
//   safety review dryRun                every command a scenario would run, nothing run
//   projectionRequest     a projection's settings as typed, checked
//   hypotheticalLayouts   the layouts of a projection that do not exist yet: kind, disks, size
//   projectionInBinaryUnits  whether a projection answers in TiB, as its sizes were typed
//   projectionCoverage    which stored layouts a projection covers, and how
//   storedProjectionInput what a stored layout is projected from: its disks or a given capacity
//   projectStoredLayout   a stored layout's projection
#pragma once

#include "engine/base/expected.h"
#include "engine/campaign/schedule.h"
#include "engine/capacity/projection.h"
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
#include <string_view>
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
    std::uint64_t ramBytes = 0;
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
};

struct DryRun {
    CampaignSchedule schedule;
    std::vector<DryRunLayout> layouts; // in the scenario's order
};

// Every command a scenario would run — each layout's plan with its undo, and each workload's
// command on it — built exactly as the campaign builds them, nothing run.
Expected<DryRun> dryRun(const Scenario& scenario, const ProbeRegistry& probes,
                        const DryRunHost& host);
// The plan points into the scenario: a temporary one would leave it dangling.
Expected<DryRun> dryRun(Scenario&&, const ProbeRegistry&, const DryRunHost&) = delete;

// ---- capacity projections

// A projection's settings as a person types them, the same words in every front end.
struct ProjectionSettings {
    std::string used;   // bytes in use now: "1.2T"
    std::string growth; // "30%" (compound) or "2TB/y" (linear)
    unsigned years = 5;
    std::optional<Drive> drive;
    std::string hostWrites; // "100G/d"; empty: no wear figures
    // "nas=12T": the usable capacity of an imported layout, whose disks are unknown; one each.
    std::vector<std::string> capacities;
    std::string price; // "180" per drive or "25/TB"; empty: the drive's catalog price, if any
    std::vector<std::string> writeAmplification; // "3.0" for all, "NAME=3.0" for one
};

// The settings checked and read; bad input naming the field (used, growth, years, host-writes,
// capacity, price, write-amplification).
Expected<ProjectionRequest> projectionRequest(const ProjectionSettings& settings);

// Layouts that do not exist yet, as typed (`project --kind K --disks N --disk-size S`, the
// Projection tab's "New layout…"): several kinds compare the same disks.
struct HypotheticalLayoutSettings {
    std::vector<std::string> kinds; // "zfs-raidz2", as typed
    unsigned disks = 0;             // 0 with one size per disk: as many as there are sizes
    // "500G", "4TiB" for every disk, or one per disk ("500G,500G,1T"); empty: the drive's capacity.
    std::string diskSize;
    std::string recordsize = "128K"; // ZFS record size, read as a binary size
    unsigned ashift = 12;
    double underprovision = 1.0;
};

struct HypotheticalLayout {
    std::string name; // the kind as typed
    CapacityInput layout;
};

// Each kind's layout of those disks, in the order given, `drive`'s capacity the disk size when
// none is typed. Bad input naming the field: disk-size (none and no drive, not a size, sizes
// that are not one per disk), disks (0 with one size for every disk), recordsize, kind (not a
// kind). Whether the disks make such a layout (too few, too small) is the capacity model's to
// say, when the layout is projected.
Expected<std::vector<HypotheticalLayout>>
hypotheticalLayouts(const HypotheticalLayoutSettings& settings, const std::optional<Drive>& drive);

// The unit a projection answers in: binary (TiB) when the disk size or the use was typed in a
// binary unit ("4TiB", "900gib"), decimal (TB, as drives are sold) otherwise. TiB in, TiB out.
bool projectionInBinaryUnits(std::string_view diskSize, std::string_view used);

// "nas=12T", "old=3.6TiB" (LAYOUT=SIZE, the size as engine/base/size.h reads a drive's) -> usable
// bytes by layout name; bad input naming the field `capacity`: no '=', no name, a size that is
// not one or is 0, a layout given twice.
Expected<std::map<std::string, std::uint64_t>>
parseGivenCapacities(const std::vector<std::string>& texts);

// "FIELD: 'x' is not among the layouts projected ('a', 'b')" ("(none)" when none is).
Error notAmongProjected(std::string_view field, const std::string& name,
                        const std::vector<std::string>& projected);
// Every layout a --write-amplification names is among those projected.
Expected<void> checkWriteAmplificationLayouts(const GivenWriteAmplification& given,
                                              const std::vector<std::string>& projected);

// How a projection covers stored layouts, each listed in the order given: those projected from
// their recorded disks, imported ones projected against the capacity given for them, and
// imported ones it cannot project, no capacity being given. Layouts that are none of these (a
// dir: no capacity model, not imported) are left out of the projection, as before.
struct ProjectionCoverage {
    std::vector<std::string> modelled;
    std::vector<std::string> given;
    std::vector<std::string> missing;
};

// Bad input naming the field `capacity` when a capacity is given for a layout that is not among
// `layouts`, or for one that is not imported (its capacity comes from its disks).
Expected<ProjectionCoverage>
projectionCoverage(const std::vector<LayoutRecord>& layouts,
                   const std::map<std::string, std::uint64_t>& givenCapacity);

// The projection input of a layout under a request.
ProjectionInput projectionInput(std::string name, CapacityInput layout,
                                const ProjectionRequest& request);

// The stored layout of that name; bad input naming the field `layout` when there is none.
Expected<LayoutRecord> storedLayout(Store& store, const std::string& layout);

// The projection input of a stored layout under a request: its recorded disks, or, for an
// imported layout, the capacity the request gives it. Bad input naming the field `layout` when
// it has neither (what its spec lacks; an imported layout records no disks).
Expected<ProjectionInput> storedProjectionInput(const LayoutRecord& layout,
                                                const ProjectionRequest& request);

// A stored layout's projection under a request; none when neither its spec nor the request says
// enough for a capacity (see storedProjectionInput), the projection's error when the engine
// rejects the input.
std::optional<Expected<LayoutProjection>> projectStoredLayout(const LayoutRecord& layout,
                                                              const ProjectionRequest& request);

} // namespace lb
