// The projection of one layout (engine/capacity/projection.h): the month-by-month use against its
// ceiling, SSD wear from the layout's write amplification, and the costs over the horizon. Every
// capacity figure, grown layouts included, comes from the capacity model (computeCapacity), so a
// projection never disagrees with `layoutbench capacity`. What it is given is read in
// projection_settings.cpp; its expansion paths and their schedules are projection_paths.cpp.
#include "engine/capacity/projection.h"

#include "engine/base/size.h"
#include "engine/capacity/capacity_internal.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lb {

namespace {

constexpr unsigned maxYears = 50;

// RAID-5 and RAID-6 writes. A write smaller than a stripe is read-modify-write: the data chunk
// and every parity chunk of the stripe are rewritten. Full-stripe writes cost only n / (n - p),
// so this is the small-write (pessimistic) figure, which is what VM and database traffic is.
WriteAmplification mdParityWa(const CapacityInput& layout, unsigned n) {
    const unsigned p = parityOf(layout.kind);
    const double full = static_cast<double>(n) / static_cast<double>(n - p);
    return WriteAmplification{1.0 + p, "RAID-" + std::string(p == 1 ? "5" : "6") +
                                           " small writes (read-modify-write): data + " +
                                           std::to_string(p) + " parity chunk" +
                                           (p == 1 ? "" : "s") + "; full-stripe writes would be " +
                                           fixed(full, 2)};
}

// RAIDZ is copy-on-write: a record is written once with its parity and padding, no
// read-modify-write. Records smaller than the record size (small files, the tail of a file) pay
// more padding; this uses full records.
WriteAmplification raidzWa(const CapacityInput& layout, unsigned n) {
    const auto a = raidzAllocate(layout.recordsizeBytes, n, parityOf(layout.kind), layout.ashift);
    const std::uint64_t total = a.dataSectors + a.paritySectors + a.paddingSectors;
    return WriteAmplification{
        static_cast<double>(total) / static_cast<double>(a.dataSectors),
        "RAIDZ" + std::to_string(parityOf(layout.kind)) + " width " + std::to_string(n) + ", " +
            std::to_string(layout.recordsizeBytes / KiB) + "K records, ashift " +
            std::to_string(layout.ashift) + ": (" + std::to_string(a.dataSectors) + " data + " +
            std::to_string(a.paritySectors) + " parity + " + std::to_string(a.paddingSectors) +
            " padding) / " + std::to_string(a.dataSectors) + " sectors"};
}

// dRAID has fixed-width stripes: every record takes whole rows of data + parity sectors.
WriteAmplification draidWa(const CapacityInput& layout, unsigned n) {
    const unsigned p = parityOf(layout.kind);
    const unsigned d =
        layout.draid.data != 0 ? layout.draid.data : draidDefaultData(p, n, layout.draid.spares);
    const std::uint64_t sectorBytes = 1ULL << layout.ashift;
    const std::uint64_t dataSectors = (layout.recordsizeBytes + sectorBytes - 1) / sectorBytes;
    const std::uint64_t rows = (dataSectors + d - 1) / d;
    return WriteAmplification{
        static_cast<double>(rows * (d + p)) / static_cast<double>(dataSectors),
        draidVdevName(layout.kind, n, layout.draid) + ", " +
            std::to_string(layout.recordsizeBytes / KiB) + "K records, ashift " +
            std::to_string(layout.ashift) + ": " + std::to_string(rows) + " row(s) of " +
            std::to_string(d) + " data + " + std::to_string(p) + " parity sectors for " +
            std::to_string(dataSectors) + " data sectors"};
}

} // namespace

Expected<WriteAmplification> layoutWriteAmplification(const CapacityInput& layout) {
    // computeCapacity validates the kind, disk count, record size and ashift the figures use.
    if (auto c = computeCapacity(layout); !c)
        return fail(c.error());
    // One vdev's width (a pool of several identical vdevs amplifies as one of them does).
    const auto n = static_cast<unsigned>(layout.diskBytes.size() / layout.vdevs);
    const std::string nDisks = std::to_string(n);
    switch (layout.kind) {
    case LayoutKind::MdRaid1:
    case LayoutKind::ZfsMirror:
        return WriteAmplification{static_cast<double>(n), nDisks +
                                                              "-way mirror: every write lands on " +
                                                              nDisks + " disks"};
    case LayoutKind::MdRaid10:
    case LayoutKind::ZfsRaid10:
        return WriteAmplification{2.0, "striped two-way mirrors: every write lands on 2 disks"};
    case LayoutKind::MdRaid5:
    case LayoutKind::MdRaid6:
        return mdParityWa(layout, n);
    case LayoutKind::ZfsRaidz1:
    case LayoutKind::ZfsRaidz2:
    case LayoutKind::ZfsRaidz3:
        return raidzWa(layout, n);
    case LayoutKind::ZfsDraid1:
    case LayoutKind::ZfsDraid2:
    case LayoutKind::ZfsDraid3:
        return draidWa(layout, n);
    case LayoutKind::MdRaid0:
    case LayoutKind::ZfsStripe:
        return WriteAmplification{1.0, "striped, no redundancy: every byte written once"};
    default:
        return badInput("kind: " + std::string(layoutKindName(layout.kind)) +
                        " has no write-amplification model");
    }
}

double enduranceYears(double enduranceBytes, double deviceBytesPerDay) {
    if (deviceBytesPerDay <= 0)
        return std::numeric_limits<double>::infinity();
    return enduranceBytes / (deviceBytesPerDay * 365.0);
}

std::string_view expansionKindName(ExpansionKind k) {
    switch (k) {
    case ExpansionKind::MdGrow:
        return "md-grow";
    case ExpansionKind::ZfsAddVdev:
        return "zfs-add-vdev";
    case ExpansionKind::RaidzExpand:
        return "raidz-expand";
    }
    return "md-grow";
}

double defaultCeiling(LayoutKind kind) {
    return isZfs(kind) ? 0.80 : 0.90;
}

double defaultCeiling(const CapacityInput& layout) {
    return layout.poolOnArray ? defaultCeiling(LayoutKind::ZfsStripe) : defaultCeiling(layout.kind);
}

std::optional<double> unitPriceUsd(const ProjectionInput& in, std::uint64_t diskBytes) {
    if (in.price)
        return diskPriceUsd(*in.price, diskBytes);
    if (in.drive)
        return in.drive->priceUsd;
    return std::nullopt;
}

namespace {

// What a projection cannot be asked: a horizon past maxYears, a ceiling outside (0, 1], negative
// growth, a write-amplification gain or factor that makes the disks write less than the hosts.
Expected<void> checkProjectionInput(const ProjectionInput& in) {
    if (in.years < 1 || in.years > maxYears)
        return badInput("years: must be between 1 and " + std::to_string(maxYears) + ", got " +
                        std::to_string(in.years));
    if (in.ceiling && !(*in.ceiling > 0.0 && *in.ceiling <= 1.0))
        return badInput("ceiling: must be a fraction in (0, 1], e.g. 0.8, got " +
                        fixed(*in.ceiling, 3));
    if (in.growth.bytesPerYear < 0 || in.growth.annualRate < 0 ||
        !std::isfinite(in.growth.bytesPerYear) || !std::isfinite(in.growth.annualRate))
        return badInput("growth: negative growth; a projection needs growth of 0 or more");
    if (!(in.underprovisionGain > 0.0 && in.underprovisionGain <= 1.0))
        return badInput("underprovision-wa-gain: must be a factor in (0, 1] (e.g. 0.8 for "
                        "20 % less write amplification), got " +
                        fixed(in.underprovisionGain, 3));
    if (in.writeAmplification &&
        !(std::isfinite(*in.writeAmplification) && *in.writeAmplification >= 1.0))
        return badInput("write-amplification: must be 1 or more (the disks write at least what "
                        "the hosts write), got " +
                        fixed(*in.writeAmplification, 3));
    return checkRiskSettings(in.risk);
}

// How the hosts' writes wear the disks: the layout's write amplification (modelled, or given),
// what each disk writes a day, the years its endurance lasts, and the disks bought again within
// the horizon.
Expected<WearEstimate> estimateWear(const ProjectionInput& in, std::uint64_t hostBytesPerDay) {
    auto wa = layoutWriteAmplification(in.layout);
    if (!wa)
        return fail(wa.error());
    WearEstimate w;
    w.layout = *wa;
    if (in.writeAmplification) {
        w.modelled = *wa;
        w.layout = {*in.writeAmplification, "given with --write-amplification"};
    }
    w.underprovisionGain = in.underprovisionGain;
    w.writeAmplification = w.layout.factor * in.underprovisionGain;
    w.hostBytesPerDay = static_cast<double>(hostBytesPerDay);
    w.deviceBytesPerDay =
        w.hostBytesPerDay * w.writeAmplification / static_cast<double>(in.layout.diskBytes.size());
    if (in.drive) {
        w.enduranceBytes = in.drive->enduranceBytes();
        if (w.enduranceBytes)
            w.years = enduranceYears(*w.enduranceBytes, w.deviceBytesPerDay);
    }
    // Worn out at years, 2 * years, ... before the horizon: bought again each time.
    if (w.years && std::isfinite(*w.years) && *w.years > 0 && *w.years < in.years)
        w.replacementDisks =
            static_cast<unsigned>(in.layout.diskBytes.size()) *
            (static_cast<unsigned>(std::ceil(static_cast<double>(in.years) / *w.years)) - 1);
    return w;
}

// The layout's disks, their replacements and the cheapest expansion that keeps up, at the
// buyer's price or the catalog's; none without a price.
std::optional<HorizonCost> horizonCost(const LayoutProjection& p, const ProjectionInput& in) {
    if (!in.price && !in.drive)
        return std::nullopt;
    HorizonCost c;
    c.illustrative = !in.price;
    c.priceBasis = in.price
                       ? "price given: " + in.price->text + (in.price->perTb ? "" : " per drive")
                       : "catalog price of the " + in.drive->model + " (illustrative)";
    for (const auto bytes : in.layout.diskBytes)
        c.purchaseUsd += *unitPriceUsd(in, bytes);
    if (p.wear && p.wear->replacementDisks > 0)
        c.replacementUsd = c.purchaseUsd * p.wear->replacementDisks /
                           static_cast<double>(in.layout.diskBytes.size());
    if (p.ceilingMonth) {
        const ExpansionPath* cheapest = nullptr;
        for (const auto& e : p.expansions)
            if (e.keepsUp && e.totalCostUsd &&
                (!cheapest || *e.totalCostUsd < *cheapest->totalCostUsd))
                cheapest = &e;
        if (cheapest) {
            c.expansion = cheapest->kind;
            c.expansionUsd = *cheapest->totalCostUsd;
        } else {
            c.expansionShort = true;
        }
    }
    c.totalUsd = c.purchaseUsd + c.replacementUsd + c.expansionUsd;
    return c;
}

// Month by month without expansion: the use, and the first month it passes the ceiling.
void addMonths(LayoutProjection& p, const ProjectionInput& in) {
    const unsigned months = in.years * 12;
    const auto used0 = static_cast<double>(in.usedBytes);
    for (unsigned m = 0; m <= months; ++m) {
        const std::uint64_t used = toBytes(in.growth.usedAfter(used0, m));
        p.months.push_back({m, p.capacity.usableBytes, used});
        if (!p.ceilingMonth && used > p.ceilingBytes)
            p.ceilingMonth = m;
    }
}

// A layout whose disks are unknown, against the usable capacity given for it: its use and
// ceiling alone. Growing it, its costs and its wear all depend on disks nobody recorded.
Expected<LayoutProjection> projectGivenCapacity(const ProjectionInput& in) {
    if (*in.givenUsableBytes == 0)
        return badInput("capacity: '" + in.name + "' must be given more than 0 bytes");
    LayoutProjection p;
    p.name = in.name;
    p.kind = in.layout.kind;
    p.capacityGiven = true;
    p.capacity.usableBytes = *in.givenUsableBytes;
    p.ceilingFraction = in.ceiling.value_or(defaultCeiling(in.layout));
    p.ceilingBytes =
        toBytes(std::floor(static_cast<double>(p.capacity.usableBytes) * p.ceilingFraction));
    addMonths(p, in);
    p.notes.push_back("Usable capacity as given: the layout's results were imported and its "
                      "disks are unknown, so it has no expansion paths, costs, wear or risk "
                      "figures.");
    return p;
}

} // namespace

Expected<LayoutProjection> projectLayout(const ProjectionInput& in) {
    LB_TRY_VOID(checkProjectionInput(in));
    if (in.givenUsableBytes)
        return projectGivenCapacity(in);
    LB_TRY(capacity, computeCapacity(in.layout));
    LayoutProjection p;
    p.name = in.name.empty() ? std::string(layoutKindName(in.layout.kind)) : in.name;
    p.kind = in.layout.kind;
    p.diskBytes = in.layout.diskBytes;
    p.capacity = capacity;
    if (in.layout.underprovision < 1.0) {
        CapacityInput whole = in.layout;
        whole.underprovision = 1.0;
        if (auto c = computeCapacity(whole))
            p.wholeDiskCapacity = *c;
    }
    p.ceilingFraction = in.ceiling.value_or(defaultCeiling(in.layout));
    p.ceilingBytes =
        toBytes(std::floor(static_cast<double>(capacity.usableBytes) * p.ceilingFraction));
    addMonths(p, in);
    LB_TRY_VOID(addExpansions(p, in));
    if (auto note = redundancyNote(in.layout))
        p.notes.push_back(*note + ".");
    if (in.hostBytesPerDay) {
        LB_TRY(wear, estimateWear(in, *in.hostBytesPerDay));
        p.wear = wear;
    }
    p.cost = horizonCost(p, in);
    // The fill a rebuild meets: the use at the horizon's end, at most the ceiling.
    const double fill =
        capacity.usableBytes == 0
            ? 0.0
            : std::min(p.ceilingFraction, static_cast<double>(p.months.back().usedBytes) /
                                              static_cast<double>(capacity.usableBytes));
    LB_TRY(risk, estimateRisk(in.layout, in.drive, in.risk, fill, in.years));
    p.risk = std::move(risk);
    return p;
}

} // namespace lb
