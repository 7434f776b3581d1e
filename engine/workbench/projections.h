// The front door's capacity projections, as people ask for them: the settings as typed (use,
// growth or usage samples to fit it to, horizon, drive, price, write amplification, capacities
// given for imported layouts), the layouts to project (stored ones, and ones that do not exist
// yet), and every projection checked and made in one call.
#pragma once

#include "engine/base/expected.h"
#include "engine/capacity/drive_catalog.h"
#include "engine/capacity/projection.h"
#include "engine/store/store.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

// ---- capacity projections

// A projection's settings as a person types them, the same words in every front end.
struct ProjectionSettings {
    std::string used;   // bytes in use now: "1.2T"; with samples, default the last sample's
    std::string growth; // "30%" (compound) or "2TB/y" (linear); or samples, below
    unsigned years = 5;
    std::optional<Drive> drive;
    std::string hostWrites; // "100G/d"; empty: no wear figures
    // "nas=12T": the usable capacity of an imported layout, whose disks are unknown; one each.
    std::vector<std::string> capacities;
    std::string price; // "180" per drive or "25/TB"; empty: the drive's catalog price, if any
    std::vector<std::string> writeAmplification; // "3.0" for all, "NAME=3.0" for one
    std::string samples; // instead of growth: a CSV of date,bytes usage samples to fit it to
    std::optional<double> ceiling;   // the fill ceiling as a fraction; each kind's default
    double underprovisionGain = 1.0; // the user's WA factor for underprovisioning
    // "nas=zfs-raidz2,10,500G,80%": the disks an imported layout was built on (parseImportedDisks).
    std::vector<std::string> importedDisks;
    // The risk model's figures, when given: the drives' annual failure rate (a fraction, over the
    // catalog's), detection to replacement in hours (default RiskAssumptions), a measured rebuild
    // rate in MB/s (10^6 bytes a second; without it the rate is assumed), a hot spare.
    std::optional<double> afr;
    std::optional<double> replaceAfterHours;
    std::optional<double> rebuildMegabytesPerSecond;
    bool hotSpare = false;
};

// The settings checked and read; bad input naming the field (used, growth, samples, years,
// host-writes, capacity, price, write-amplification, ceiling, underprovision-wa-gain, afr,
// replace-after, rebuild-rate).
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
    // The kind guest: the md kind of the disks passed to the guest as one disk, and the pool the
    // guest makes of it (guestCapacityInput).
    std::string inner;
    std::string guestPool = "zfs-stripe";
};

struct HypotheticalLayout {
    std::string name; // the kind as typed
    CapacityInput layout;
};

// Each kind's layout of those disks, in the order given, `drive`'s capacity the disk size when
// none is typed. Bad input naming the field: disk-size (none and no drive, not a size, sizes
// that are not one per disk), disks (0 with one size for every disk), recordsize, kind (not a
// kind). Whether the disks make such a layout (too few, too small) is the capacity model's to
// say, when the layout is projected. The kind guest needs inner (an md kind) and guest-pool.
Expected<std::vector<HypotheticalLayout>>
hypotheticalLayouts(const HypotheticalLayoutSettings& settings, const std::optional<Drive>& drive);

// The unit a projection answers in: binary (TiB) when the disk size or the use was typed in a
// binary unit ("4TiB", "900gib"), decimal (TB, as drives are sold) otherwise. TiB in, TiB out.
// projectionRequest also reads the capacities and imported layouts' disks given
// (ProjectionRequest::binaryUnits), and planProjection the new layouts' disk size.
bool projectionInBinaryUnits(std::string_view diskSize, std::string_view used);

// "nas=12T", "old=3.6TiB" (LAYOUT=SIZE, the size as engine/base/size.h reads a drive's) -> usable
// bytes by layout name; bad input naming the field `capacity`: no '=', no name, a size that is
// not one or is 0, a layout given twice.
Expected<std::map<std::string, std::uint64_t>>
parseGivenCapacities(const std::vector<std::string>& texts);

// "nas=zfs-raidz2,10,500G,80%" (LAYOUT=KIND,DISKS[,SIZE][,PARTITIONED]) -> the disks an imported
// layout was built on, by layout name: the kind ("guest:md-raid6" for a guest whose ZFS pool
// sits on that md array), how many disks, each one's size (`drive`'s capacity when left out) and
// the fraction of each partitioned (whole disks when left out; 0.8 or 80%). Bad input naming the
// field `imported-disks`.
Expected<std::map<std::string, CapacityInput>>
parseImportedDisks(const std::vector<std::string>& texts, const std::optional<Drive>& drive);

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
// `importedDisks`: imported layouts whose disks are given, modelled as the built ones are (bad
// input naming imported-disks for one that is not among `layouts` or not imported, or that also
// has a capacity given).
Expected<ProjectionCoverage>
projectionCoverage(const std::vector<LayoutRecord>& layouts,
                   const std::map<std::string, std::uint64_t>& givenCapacity,
                   const std::map<std::string, CapacityInput>& importedDisks = {});

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

// ---- several layouts projected side by side, as `project` and the Projection tab ask

// What to project: layouts of the results store by name, and layouts that do not exist yet
// (hypothetical.kinds empty: none).
struct ProjectionAsk {
    ProjectionSettings settings;
    std::vector<std::string> stored;
    HypotheticalLayoutSettings hypothetical;
};

// A setting that applies to none of the layouts asked for, which the front end refuses in its
// own words: use (or samples) when an imported layout has no capacity given (NoCapacityModel);
// drive, host-writes, price, write-amplification or a risk figure (afr, replace-after,
// rebuild-rate, hot-spare) when every layout is an imported one with only its capacity given,
// and so no disks to price, wear or lose (NoDisksKnown).
struct ProjectionMisfit {
    enum class Why { NoCapacityModel, NoDisksKnown };
    Why why = Why::NoCapacityModel;
    std::string field;                // used, samples, drive, host-writes, price, ...
    std::vector<std::string> layouts; // the imported layouts it does not apply to
};

// What a request asks that applies to none of the layouts projected, by how its stored layouts
// are covered: the use (`useField`: used, or samples when the use came from them) when an
// imported layout has no capacity given; else, when every layout is an imported one with only
// its capacity given and no new layout is projected (`newLayouts`), the first of drive,
// host-writes, price, write-amplification, afr, replace-after, rebuild-rate and hot-spare it
// sets. None when everything applies somewhere.
std::optional<ProjectionMisfit> projectionMisfit(const ProjectionRequest& request,
                                                 const ProjectionCoverage& coverage,
                                                 bool newLayouts, std::string useField = "used");

// An ask read and checked, ready to project: each layout's input, with the kind it is shown as
// (what a stored layout records, "imported" for one whose capacity is given; a new one's kind as
// typed), how the stored layouts are covered, and a misfit, if any, which projectPlan refuses.
struct ProjectionPlan {
    ProjectionRequest request;
    std::vector<ProjectionInput> inputs; // the stored layouts in the order asked, then the new
    std::vector<std::string> kinds;
    ProjectionCoverage coverage;
    std::optional<ProjectionMisfit> misfit;
    // The unit the answer is given in: TiB when the disk size or the use was typed so.
    bool binaryUnits = false;
    bool disksFromDrive = false; // no disk size typed: the new layouts' disks are the drive's
};

// Bad input naming the field: the settings' (projectionRequest), layout (not in the store),
// capacity (projectionCoverage), the new layouts' (hypotheticalLayouts), kind/layout (nothing to
// project), write-amplification (for a layout not projected). `store` is read only for
// `ask.stored`, and must be given when that is not empty.
Expected<ProjectionPlan> planProjection(const ProjectionAsk& ask, Store* store);
// The rebuild rate a fail-rebuild drill measured on a layout (drill.fail-rebuild.rebuild_rate of
// its newest run), with its basis: "measured: fail-rebuild drill, run 12, on the layout's disks
// under TCG" (under TCG when its runs were measured so).
struct MeasuredRebuild {
    double bytesPerSecond = 0;
    std::string basis;
    bool operator==(const MeasuredRebuild&) const = default;
};
// The one among a layout's samples; none without a drill's rate.
std::optional<MeasuredRebuild> measuredRebuild(const LayoutSamples& samples);
// The measured rebuild of each stored layout that has one, by name: what the Projection tab,
// which holds its layouts rather than the store, hands planProjection. `runs` is the store's run
// list (Store::runs); only the layouts with a successful fail-rebuild drill among them have their
// samples read.
Expected<std::map<std::string, MeasuredRebuild>>
measuredRebuilds(Store& store, const std::vector<RunSummary>& runs);

// The same with the stored layouts read from `records` instead of a store (the Projection tab
// holds its layouts, the scenario's among them): a name of `ask.stored` not among them is bad
// input naming the field `layout`. A stored layout in `rebuilds` takes its measured rebuild, as
// the store's planProjection does.
Expected<ProjectionPlan>
planProjection(const ProjectionAsk& ask, const std::vector<LayoutRecord>& records,
               const std::map<std::string, MeasuredRebuild>& rebuilds = {});

// The measured rebuild as the risk model's rate and basis. A rate given (--rebuild-rate) stays;
// without a drill `given` is returned as it is.
RiskSettings withMeasuredRebuild(RiskSettings given,
                                 const std::optional<MeasuredRebuild>& measured);
RiskSettings withMeasuredRebuild(RiskSettings given, const LayoutSamples& samples);

// Each layout of the plan projected, in order; bad input when the plan has a misfit, or naming
// the field the projection rejects (a disk size the layout cannot take is the catalog drive's,
// at its entry, when the disks are the drive's).
Expected<std::vector<LayoutProjection>> projectPlan(const ProjectionPlan& plan);

} // namespace lb
