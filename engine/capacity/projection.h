// Five-year projection of a layout: when the data outgrows it, what each way of growing it costs,
// and when its SSDs reach their rated endurance. Servers are bought for five years, so the layout
// decision is also a decision about these dates and sums.
#pragma once

#include "engine/base/expected.h"
#include "engine/capacity/capacity.h"
#include "engine/capacity/drive_catalog.h"
#include "engine/capacity/layout.h"
#include "engine/capacity/risk.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

// ---------------------------------------------------------------------------------------------
// Growth

enum class GrowthKind {
    Linear,   // the same number of bytes every year
    Compound, // the same percentage every year, compounded monthly: (1 + r)^(months / 12)
};

struct GrowthModel {
    GrowthKind kind = GrowthKind::Linear;
    double bytesPerYear = 0; // Linear
    double annualRate = 0;   // Compound: 0.30 for 30 % a year

    // Bytes in use `months` after `usedBytes` (never below zero).
    double usedAfter(double usedBytes, double months) const;
    bool operator==(const GrowthModel&) const = default;
};

// "30%" (compound) or "2TB/y", "500G/year" (linear). Negative or malformed -> badInput naming
// --growth.
Expected<GrowthModel> parseGrowth(std::string_view text);
// "compound 30.0 %/year", "linear 2.00 TB/year"
std::string describeGrowth(const GrowthModel& g);

// One line of a usage export: "2024-03-01,1200000000000".
struct UsageSample {
    std::string date; // as written
    double day = 0;   // days since 1970-01-01 (the time of day as a fraction)
    std::uint64_t bytes = 0;
    unsigned line = 0;
};

// CSV "date,bytes", header line optional; blank lines and '#' comments skipped. Dates are
// YYYY-MM-DD with an optional time (THH:MM[:SS][Z]); bytes are a byte count or a size ("1.2T").
// Errors are badInput "SOURCE:LINE: date|bytes: message"; samples must be in strictly increasing
// date order.
Expected<std::vector<UsageSample>> parseUsageSamples(std::string_view csv,
                                                     const std::string& sourceName);
// Reads the file through readInput (a regular file, within `limit`).
Expected<std::vector<UsageSample>> loadUsageSamples(const std::string& path,
                                                    const InputLimit& limit = documentLimit());

struct GrowthFit {
    GrowthModel model;                         // the better of the two fits, as a growth rate
    bool exponential = false;                  // which one it was
    GrowthModel linear;                        // least squares of bytes against days
    double linearRmsBytes = 0;                 // root mean square residual of that line
    std::optional<GrowthModel> compound;       // least squares of ln(bytes) against days
    std::optional<double> exponentialRmsBytes; // its residual, measured in bytes like the line's
    std::size_t samples = 0;
    std::string firstDate, lastDate;
    std::uint64_t lastBytes = 0; // the last measured value: where a projection from a fit starts
};

// Fits both models and keeps the one with the lower residual in bytes (the line on a tie). No
// exponential fit when a sample is 0 bytes. Fewer than 2 samples, or a fit that shrinks, ->
// badInput naming --samples.
Expected<GrowthFit> fitGrowth(const std::vector<UsageSample>& samples);

// "100G/d", "1TB/day" -> bytes per day; errors name --host-writes.
Expected<std::uint64_t> parseDailyWrites(std::string_view text);

// ---------------------------------------------------------------------------------------------
// Prices

// What a drive costs, as the buyer gives it: per drive ("180", "$180", "180 USD") or per
// terabyte of 10^12 bytes ("25/TB", "$25/TB"), which prices each disk by its size.
struct DrivePrice {
    double usd = 0;
    bool perTb = false;
    std::string text; // as given, for people
    bool operator==(const DrivePrice&) const = default;
};
// Bad input naming the field `price`: no number, a negative or non-finite one, a unit other
// than TB.
Expected<DrivePrice> parseDrivePrice(std::string_view text);
double diskPriceUsd(const DrivePrice& price, std::uint64_t diskBytes);

// Write amplification given instead of the layout's model: "3.0" for every layout, or
// "NAME=3.0" for one (repeatable); the named ones win over the one for all.
struct GivenWriteAmplification {
    std::optional<double> all;
    std::map<std::string, double> byLayout;
    std::optional<double> forLayout(const std::string& name) const;
    bool operator==(const GivenWriteAmplification&) const = default;
};
// Bad input naming `write-amplification`: not a number, below 1 (a layout never writes less
// than the host asked for), a layout given twice, two for every layout.
Expected<GivenWriteAmplification> parseWriteAmplifications(const std::vector<std::string>& texts);

// ---------------------------------------------------------------------------------------------
// Wear

// Device bytes written per host byte, summed over all members, from the layout alone (not the
// SSD's internal write amplification):
//   N-way mirror (md-raid1, zfs-mirror): N; striped mirrors (md-raid10, zfs-raid10): 2;
//   RAIDZ: (data + parity + padding sectors) / data sectors of one record (ZFS is copy-on-write:
//   no read-modify-write); md RAID-5/6: writes smaller than a stripe are read-modify-write and
//   write the data chunk plus 1 or 2 parity chunks: 2 or 3 (large full-stripe writes approach
//   N / (N - parity), so this is the pessimistic, small-write figure);
//   md-raid0, zfs-stripe: 1.
struct WriteAmplification {
    double factor = 1;
    std::string basis; // how the figure was derived, for people
};
Expected<WriteAmplification> layoutWriteAmplification(const CapacityInput& layout);

// Years until rated endurance when each disk receives deviceBytesPerDay.
double enduranceYears(double enduranceBytes, double deviceBytesPerDay);

struct WearEstimate {
    WriteAmplification layout; // the factor used: the model's, or the one given
    // Given with --write-amplification: the model's own figure, which `layout` replaced.
    std::optional<WriteAmplification> modelled;
    double underprovisionGain = 1; // the user's expected WA factor from underprovisioning
    double writeAmplification = 1; // layout factor * underprovisionGain
    double hostBytesPerDay = 0;
    double deviceBytesPerDay = 0;         // per member disk: host * WA / disks (spread evenly)
    std::optional<double> enduranceBytes; // per disk, from the catalog; none for HDDs
    std::optional<double> years;          // until rated endurance
    // Disks of the layout bought again within the horizon because they reached their rated
    // endurance (each original disk every `years`); the disks of an expansion are not counted.
    unsigned replacementDisks = 0;
};

// ---------------------------------------------------------------------------------------------
// Expansion

enum class ExpansionKind {
    MdGrow,      // mdadm --grow --raid-devices: reshape onto one more disk (two for raid10)
    ZfsAddVdev,  // zpool add: another top-level vdev of the same shape
    RaidzExpand, // zpool attach to a RAIDZ vdev (OpenZFS >= 2.3): one more disk in the vdev
};
std::string_view expansionKindName(ExpansionKind k); // "md-grow", "zfs-add-vdev", "raidz-expand"

struct ExpansionStep {
    unsigned month = 0;                     // the month whose use would otherwise pass the ceiling
    unsigned disks = 0;                     // disks this step adds
    unsigned totalDisks = 0;                // disks in the layout after it
    std::uint64_t usableBytes = 0;          // nominal usable after it (a fresh layout this shape)
    std::uint64_t effectiveUsableBytes = 0; // what the data can really fill (see RaidzExpand)
};

struct ExpansionPath {
    ExpansionKind kind = ExpansionKind::MdGrow;
    std::string description;
    unsigned disksPerStep = 0;
    std::uint64_t diskBytes = 0;       // each added disk
    std::uint64_t stepUsableBytes = 0; // usable added by the first step
    std::optional<double> stepCostUsd;
    std::optional<double> costPerUsableTbUsd;   // first step's cost per 10^12 usable bytes added
    std::optional<std::string> requiresOpenZfs; // minimum OpenZFS version, when there is one
    // RAIDZ expansion: what `zfs list` shows the first step adding. OpenZFS keeps the vdev's
    // original data:parity ratio for space accounting, so it reports less than is really there.
    std::optional<std::uint64_t> reportedStepUsableBytes;
    // A capacity figure had to be scaled rather than computed. No path needs that since the
    // capacity model computes pools of several vdevs; kept (false) for `project --json`.
    bool approximate = false;
    std::string note;

    std::vector<ExpansionStep> schedule; // steps needed to keep use below the ceiling
    std::vector<unsigned> disksPerYear;  // [0] = year 1 (month 0 counts in year 1)
    unsigned disksBought = 0;
    std::optional<double> totalCostUsd;
    bool keepsUp = true;                // false: the path reaches a limit before the horizon
    std::optional<unsigned> limitMonth; // where it did
    std::uint64_t finalUsableBytes = 0; // effective usable at the end of the horizon
};

// ---------------------------------------------------------------------------------------------
// Projection

// Fill ceiling used when none is given: 80 % for ZFS (allocation slows and fragments as a pool
// fills), 90 % for md.
double defaultCeiling(LayoutKind kind);
// The same for a modelled layout: a ZFS pool on an md array (ZFS on md, a guest's pool) fills
// as ZFS does, so 80 %.
double defaultCeiling(const CapacityInput& layout);

// What a projection needs beyond the layout: how much is used, how it grows, over how long,
// and the drives (see engine/workbench.h: projectionRequest).
struct ProjectionRequest {
    std::uint64_t usedBytes = 0; // in use now
    GrowthModel growth;
    unsigned years = 5;
    std::optional<Drive> drive;                   // price and endurance of the member disks
    std::optional<DrivePrice> price;              // the buyer's price, over the catalog's
    GivenWriteAmplification writeAmplification;   // over the layouts' models
    std::optional<std::uint64_t> hostBytesPerDay; // no wear figures without
    // Usable bytes given for imported layouts, by layout name: their results came from elsewhere
    // and their disks are unknown, so this is all a projection can know of their capacity.
    std::map<std::string, std::uint64_t> givenCapacity;
    // The disks of imported layouts, by layout name, as the user says they were: modelled as a
    // built layout's are, so their capacity, expansions, cost and wear are known.
    std::map<std::string, CapacityInput> importedDisks;
    // A size was typed in a binary unit (the use, 1TiB; a capacity given, nas=3.6TiB; an
    // imported layout's disks): the answer gives its sizes so too.
    bool binaryUnits = false;
    // The growth fitted to usage samples (the file they came from), or none: typed as a rate.
    std::optional<GrowthFit> fit;
    std::string samplesPath;
    std::optional<double> ceiling;   // fraction of usable; each kind's default when unset
    double underprovisionGain = 1.0; // the user's WA factor for underprovisioning, (0, 1]
    RiskSettings risk;               // AFR, replacement, rebuild rate and spares, when given
};

struct ProjectionInput {
    std::string name; // shown in reports; defaults to the kind's name
    CapacityInput layout;
    std::uint64_t usedBytes = 0; // in use at month 0
    GrowthModel growth;
    unsigned years = 5;              // horizon
    std::optional<double> ceiling;   // fraction of usable; defaultCeiling(layout) when unset
    std::optional<Drive> drive;      // price and endurance of the member disks
    std::optional<DrivePrice> price; // the buyer's price: over the drive's catalog price
    std::optional<std::uint64_t> hostBytesPerDay; // what the hosts write; no wear figures without
    double underprovisionGain = 1.0;              // user-supplied WA factor, (0, 1]
    std::optional<double> writeAmplification;     // given, >= 1: over the layout's model
    // A usable capacity given instead of the capacity model, for a layout whose disks are unknown
    // (imported results): use is projected against it alone, with no expansion paths, costs,
    // wear or risk; `layout.kind` only chooses the default ceiling.
    std::optional<std::uint64_t> givenUsableBytes;
    RiskSettings risk; // what the risk model is told beyond the drive
};

struct MonthPoint {
    unsigned month = 0;
    std::uint64_t usableBytes = 0; // without expansion
    std::uint64_t usedBytes = 0;
    bool operator==(const MonthPoint&) const = default;
};

// What the layout costs over the horizon, where a price is known (--price, or the drive
// catalog's illustrative one): its disks, the disks that replace worn-out ones, and the cheapest
// expansion path that keeps up.
struct HorizonCost {
    // "price given: 25/TB", "catalog price of the Samsung 870 EVO 1TB (illustrative)"
    std::string priceBasis;
    bool illustrative = false;              // the catalog's price, not the buyer's
    double purchaseUsd = 0;                 // the layout's disks
    double replacementUsd = 0;              // wear.replacementDisks at the disks' price
    std::optional<ExpansionKind> expansion; // the cheapest path that keeps up, when one is needed
    double expansionUsd = 0;
    double totalUsd = 0;
    // Growth no path keeps up with: the total leaves out what it would take.
    bool expansionShort = false;
};

struct LayoutProjection {
    std::string name;
    LayoutKind kind = LayoutKind::Dir;
    std::vector<std::uint64_t> diskBytes;
    Capacity capacity;
    // The same disks unpartitioned, when underprovisioned: what the spare area costs in capacity.
    std::optional<Capacity> wholeDiskCapacity;
    double ceilingFraction = 0;
    std::uint64_t ceilingBytes = 0;
    std::optional<unsigned> ceilingMonth; // first month used > ceiling without expansion
    std::vector<MonthPoint> months;       // 0 .. years * 12
    std::vector<ExpansionPath> expansions;
    std::optional<WearEstimate> wear; // when host writes are given
    std::optional<HorizonCost> cost;  // when a price is known
    // The chance of losing the data within the horizon, the rebuild's window taken at the fill
    // the use reaches by the horizon's end (at most the ceiling, which expansions keep it under);
    // none when the capacity was given (no disks known).
    std::optional<RiskEstimate> risk;
    std::vector<std::string> notes; // e.g. why a kind has no expansion path
    // The usable capacity was given, not modelled: `capacity` holds usableBytes alone and there
    // are no disks.
    bool capacityGiven = false;
};

// Bad input (no capacity model for the layout, ceiling outside (0, 1], horizon outside 1..50
// years, negative growth, gain outside (0, 1], write amplification below 1, a given capacity of
// 0, risk settings checkRiskSettings refuses) -> badInput naming the option.
Expected<LayoutProjection> projectLayout(const ProjectionInput& in);

} // namespace lb
