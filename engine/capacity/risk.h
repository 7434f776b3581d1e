// Risk over a projection's horizon: the chance of losing a layout's data, from its redundancy
// groups, the drives' annual failure rate and the window a failed drive leaves open, and the
// chance of an unrecoverable read during a rebuild that has no redundancy left. The model
// (stated in the man page, project):
//
//   Drives fail independently at λ = −ln(1 − AFR) a year. Each redundancy group (a RAIDZ or dRAID
//   vdev, a mirror, an md array) of n drives tolerating f failures is a Markov chain of 0 … f + 1
//   failed drives (risk_chain.h); its repair rate is 1/W, W the window: detection to replacement
//   (an assumption with a default; none with a hot or distributed spare) plus the rebuild, the
//   rebuild rate applied to what the layout rebuilds on the real disks at the projected fill
//   (md: the whole member; ZFS: the allocated share; dRAID onto a distributed spare: the
//   sequential rebuild, spread over the children). The pool is lost when any group is:
//   1 − Π(1 − P_group).
//
// Without a measured rebuild rate the window is an assumption, and the estimate says so; the
// drills (engine/build/drill.h) may later measure one and hand it in as RiskSettings.
#pragma once

#include "engine/base/expected.h"
#include "engine/capacity/capacity.h"
#include "engine/capacity/drive_catalog.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lb {

// What the risk model assumes when it is told nothing else: each figure once, with its basis.
struct RiskAssumptions {
    // Detection to replacement: a failed drive noticed, a new one bought or fetched and put in.
    static constexpr double replaceAfterHours = 72.0;
    // A rebuild's pace: md's default speed_limit_max is 200 MB/s, and an array that serves its
    // load while it rebuilds goes slower.
    static constexpr double rebuildBytesPerSecond = 100e6;
    static constexpr std::string_view rebuildBasis = "assumed; no rebuild measured";
    // Without a drive from the catalog: what Backblaze's data drives failed at in 2024.
    static constexpr double afr = 0.0157;
    static constexpr std::string_view afrBasis =
        "assumed: Backblaze Drive Stats, every data drive in 2024";
    // Without a drive from the catalog: the consumer hard disk's rating, the worst a common
    // drive publishes.
    static constexpr double urePerBit = 1e-14;
    static constexpr std::string_view ureBasis =
        "assumed: a consumer hard disk's rating, the worst a common drive states";
};

// What the model is told beyond the layout and its drive; every one optional.
struct RiskSettings {
    std::optional<double> afr;               // over the drive's catalog figure, in (0, 1)
    std::optional<double> replaceAfterHours; // detection to replacement, 0 or more
    // A measured rebuild rate, bytes each second a rebuild restores onto the disk rebuilt.
    std::optional<double> rebuildBytesPerSecond;
    std::string rebuildBasis; // where the measured rate comes from; empty: "as given"
    bool hotSpare = false;    // a spare in the pool: the rebuild starts at once
    bool operator==(const RiskSettings&) const = default;
};

// Bad input naming the field: afr (outside (0, 1)), replace-after (negative or not finite),
// rebuild-rate (not above 0, not finite).
Expected<void> checkRiskSettings(const RiskSettings& settings);

// What one rebuild restores.
enum class RebuildKind {
    None,            // f = 0: nothing to rebuild from
    WholeMember,     // md (ZFS on md included): every byte of the member, whatever the fill
    Allocated,       // ZFS resilver: the member's allocated share
    DraidSequential, // dRAID onto a distributed spare: the allocated share, from every child
};
std::string_view rebuildKindName(RebuildKind k); // "none", "whole-member", "allocated", ...

// One redundancy group and its chance of losing data within the horizon.
struct RiskGroup {
    bool special = false; // a ZFS pool's special class (metadata, small blocks)
    unsigned disks = 0;
    unsigned tolerates = 0;
    std::uint64_t memberBytes = 0;  // the member rebuilt (its partition when underprovisioned)
    std::uint64_t rebuildBytes = 0; // what one rebuild restores onto it
    double rebuildHours = 0;
    double windowHours = 0; // replacement + rebuild; 0 when nothing is rebuilt
    double lossProbability = 0;
    // A rebuild with no redundancy left (f drives failed) reads every surviving data column.
    std::uint64_t exposedReadBytes = 0;
    std::optional<double> ureProbability; // none when f = 0
};

// Where a drive's figure comes from.
enum class FigureSource { Given, Catalog, Assumed };
std::string_view figureSourceName(FigureSource s); // "given", "catalog", "assumed"

struct RiskEstimate {
    unsigned horizonYears = 0;
    double lossProbability = 0; // the pool (or array): any group lost
    std::string lost;           // "the pool", "the array"
    double afr = 0;
    double failuresPerYear = 0; // λ
    FigureSource afrFrom = FigureSource::Assumed;
    // "given"; "Samsung 870 EVO 500GB: data sheet MTBF ..."; RiskAssumptions::afrBasis.
    std::string afrSource;
    std::string driveModel; // the catalog's drive the figures are of, if any
    std::vector<RiskGroup> groups;
    RebuildKind rebuild = RebuildKind::None;
    double fillFraction = 0;        // the fill the rebuild is taken at
    double replaceAfterHours = 0;   // 0 with a spare
    bool replaceAfterGiven = false; // the figure was given, not assumed
    std::string spare;              // "", "hot", "distributed"
    double rebuildBytesPerSecond = 0;
    bool rebuildMeasured = false;
    std::string rebuildBasis;
    unsigned draidChildren = 0, draidData = 0; // dRAID: what its sequential rebuild spreads over
    double urePerBit = 0;
    FigureSource ureFrom = FigureSource::Assumed; // never given: the catalog's, or assumed
    std::string ureSource;
    // The group with the largest loss probability: the figures a sentence quotes.
    const RiskGroup& worst() const;
};

// The layout's risk over `years` with its drives (`drive`: the catalog's AFR and error rate,
// when it has them) at `fillFraction` of its usable space. Bad input naming the field for bad
// settings (checkRiskSettings) and for a kind without redundancy groups (dir, guest unresolved).
Expected<RiskEstimate> estimateRisk(const CapacityInput& layout, const std::optional<Drive>& drive,
                                    const RiskSettings& settings, double fillFraction,
                                    unsigned years);

// The sentence a signer reads, made here alone and rendered by every output after the layout's
// name: "a 0.021 % chance of losing the pool in 5 years (10 disks, any 2 may fail, ...). A
// 500.00 GB disk at 60 % full rebuilds ... A rebuild with no redundancy left reads ...". Sizes
// in TiB with `binaryUnits`, as the projection answers when its sizes were typed so.
std::string riskStatement(const RiskEstimate& risk, bool binaryUnits = false);

// The figures behind the statement, each with where it comes from, as (what, its value and basis)
// in the order the model takes them: the drives' failure rate, detection to replacement, the
// rebuild rate (measured by a drill, applied to this layout's disks at the projected fill, or
// assumed), the rebuild, the window (replacement plus rebuild) and the chance of loss. What
// every output lists under the statement where it shows its assumptions.
std::vector<std::pair<std::string, std::string>> riskAssumptions(const RiskEstimate& risk,
                                                                 bool binaryUnits = false);

// A probability for people: "a 0.021 % chance", "a 62 % chance", "a 1 in 4.8 million chance".
std::string chanceText(double probability);

} // namespace lb
