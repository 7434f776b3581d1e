// Expansion paths and their schedules (engine/capacity/projection.h): how each kind of layout
// grows (md reshape, another ZFS vdev, RAIDZ expansion), every grown state from the capacity
// model, and the month-by-month purchases that keep use under the ceiling.
#include "engine/capacity/capacity_internal.h"
#include "engine/capacity/projection.h"

#include <algorithm>
#include <functional>

namespace lb {

namespace {

// Limits of the expansion paths. md arrays with v1.2 metadata and ZFS pools allow more, but no
// server in this tool's scope does; the cap also bounds the schedule when growth is absurd.
constexpr unsigned maxDisks = 1024;
// A cap on RAIDZ width for the expansion path, far beyond any vdev one would build (rebuild
// time and small-block padding grow with width); it only bounds the schedule.
constexpr unsigned maxRaidzWidth = 255;

// The layout after `steps` expansion steps; nullopt past the path's limit.
struct GrownState {
    std::uint64_t usableBytes = 0;
    double efficiency = 1;
    unsigned disks = 0;
};
using StateFn = std::function<Expected<std::optional<GrownState>>(unsigned steps)>;

struct PathSpec {
    ExpansionKind kind;
    unsigned disksPerStep;
    std::uint64_t diskBytes;
    std::string description;
    std::string note;
    StateFn state;
    // RAIDZ expansion: what `zfs list` shows after one step (the capacity model with the
    // original width kept for the deflate ratio).
    std::function<Expected<std::uint64_t>()> reportedAfterStep = {};
};

std::vector<std::uint64_t> grownDisks(const std::vector<std::uint64_t>& base,
                                      const std::vector<std::uint64_t>& added, unsigned steps) {
    std::vector<std::uint64_t> out = base;
    for (unsigned s = 0; s < steps; ++s)
        out.insert(out.end(), added.begin(), added.end());
    return out;
}

// A path whose every state is computeCapacity on a layout with more disks of the same kind.
StateFn grownLayout(const CapacityInput& base, std::vector<std::uint64_t> added, unsigned limit) {
    return [base, added = std::move(added),
            limit](unsigned steps) -> Expected<std::optional<GrownState>> {
        CapacityInput in = base;
        in.diskBytes = grownDisks(base.diskBytes, added, steps);
        if (in.diskBytes.size() > limit)
            return std::optional<GrownState>{};
        auto c = computeCapacity(in);
        if (!c)
            return fail(c.error());
        return std::optional<GrownState>{GrownState{c->usableBytes, c->dataEfficiency,
                                                    static_cast<unsigned>(in.diskBytes.size())}};
    };
}

// md grows by reshaping onto added disks: one at a time, two for RAID10's pairs.
PathSpec mdGrowPath(const CapacityInput& in, unsigned n, std::uint64_t largest) {
    const unsigned step = in.kind == LayoutKind::MdRaid10 ? 2 : 1;
    std::string note = "Reshapes every stripe onto the new disk" +
                       std::string(step == 2 ? "s" : "") +
                       " online (hours to days, slower I/O meanwhile); then grow what sits "
                       "on the array (filesystem, LVM, or the guest's disk and its pool).";
    if (in.kind == LayoutKind::MdRaid0)
        note += " md reshapes raid0 by converting it to raid4 and back.";
    if (in.kind == LayoutKind::MdRaid10)
        note += " Two disks per step keep the near=2 copies in pairs.";
    return {ExpansionKind::MdGrow,
            step,
            largest,
            "mdadm --add, then mdadm --grow --raid-devices=" + std::to_string(n + step),
            note,
            grownLayout(in, std::vector<std::uint64_t>(step, largest), maxDisks)};
}

// Another vdev like the first (mirror, RAIDZ or dRAID) per step, in the same pool.
PathSpec addVdevPath(const CapacityInput& in, unsigned n, std::uint64_t largest,
                     const std::string& shape) {
    const double efficiency = [&] {
        auto c = computeCapacity(in);
        return c ? c->dataEfficiency : 1.0;
    }();
    return {ExpansionKind::ZfsAddVdev,
            n,
            largest,
            "zpool add POOL " + shape + " " + std::to_string(n) + " DISKS",
            "Another " + shape +
                " vdev of the same width and disks: existing data stays where it "
                "is, and the pool is lost if any one vdev is.",
            [in, n, efficiency](unsigned steps) -> Expected<std::optional<GrownState>> {
                // One more vdev like the first per step, in the same pool (one slop reserve,
                // capped at 128 GiB: the model's vdevs).
                CapacityInput grown = in;
                for (unsigned s = 0; s < steps; ++s)
                    grown.diskBytes.insert(grown.diskBytes.end(), in.diskBytes.begin(),
                                           in.diskBytes.begin() + n);
                grown.vdevs = in.vdevs + steps;
                if (grown.diskBytes.size() > maxDisks)
                    return std::optional<GrownState>{};
                auto c = computeCapacity(grown);
                if (!c)
                    return fail(c.error());
                return std::optional<GrownState>{GrownState{
                    c->usableBytes, efficiency, static_cast<unsigned>(grown.diskBytes.size())}};
            }};
}

// RAIDZ expansion (OpenZFS 2.3): one disk at a time widens the single vdev.
PathSpec raidzExpandPath(const CapacityInput& in, std::uint64_t largest, const std::string& shape) {
    return {ExpansionKind::RaidzExpand,
            1,
            largest,
            "zpool attach POOL " + shape + "-0 DISK",
            "Needs OpenZFS 2.3 or later. Blocks written before an expansion keep their "
            "old data:parity ratio, so they take more room than the same data written "
            "after (the schedule counts this); and OpenZFS keeps using the original "
            "ratio to report space, so zfs list and df show less free space than there "
            "is.",
            grownLayout(in, {largest}, maxRaidzWidth),
            [in, largest]() -> Expected<std::uint64_t> {
                CapacityInput grown = in;
                grown.raidzExpandedFrom = static_cast<unsigned>(in.diskBytes.size());
                grown.diskBytes.push_back(largest);
                auto c = computeCapacity(grown);
                if (!c)
                    return fail(c.error());
                return c->usableBytes;
            }};
}

// The ways a layout of this kind can grow; a kind that grows only by replacing every disk says
// so in `notes`.
std::vector<PathSpec> pathsFor(const CapacityInput& in, std::vector<std::string>& notes) {
    const auto& disks = in.diskBytes;
    const auto n = static_cast<unsigned>(disks.size() / in.vdevs); // one vdev's width
    const std::uint64_t largest = *std::max_element(disks.begin(), disks.end());
    switch (in.kind) {
    case LayoutKind::MdRaid0:
    case LayoutKind::MdRaid5:
    case LayoutKind::MdRaid6:
    case LayoutKind::MdRaid10:
        return {mdGrowPath(in, n, largest)};
    case LayoutKind::MdRaid1:
        notes.push_back("md-raid1: adding a member adds a copy, not space; it grows only by "
                        "replacing every member with a larger disk (not modelled).");
        return {};
    case LayoutKind::ZfsStripe:
        return {{ExpansionKind::ZfsAddVdev, 1, disks.front(), "zpool add POOL DISK",
                 "Existing data stays where it is; new writes favour the emptier disk.",
                 grownLayout(in, {disks.front()}, maxDisks)}};
    case LayoutKind::ZfsRaid10:
        return {{ExpansionKind::ZfsAddVdev, 2, std::max(disks[0], disks[1]),
                 "zpool add POOL mirror DISK DISK",
                 "Existing data stays on the old mirrors; new writes favour the new one.",
                 grownLayout(in, {disks[0], disks[1]}, maxDisks)}};
    case LayoutKind::ZfsMirror:
    case LayoutKind::ZfsRaidz1:
    case LayoutKind::ZfsRaidz2:
    case LayoutKind::ZfsRaidz3:
    case LayoutKind::ZfsDraid1:
    case LayoutKind::ZfsDraid2:
    case LayoutKind::ZfsDraid3: {
        const bool raidz = isRaidz(in.kind);
        const std::string shape = raidz              ? "raidz" + std::to_string(parityOf(in.kind))
                                  : isDraid(in.kind) ? draidVdevName(in.kind, n, in.draid)
                                                     : std::string("mirror");
        std::vector<PathSpec> paths{addVdevPath(in, n, largest, shape)};
        if (raidz && in.vdevs == 1)
            paths.push_back(raidzExpandPath(in, largest, shape));
        return paths;
    }
    default:
        return {};
    }
}

struct Simulation {
    const GrowthModel& growth;
    double used0;
    double ceiling;
    unsigned months;
    unsigned years;
};

// A path's states, each computed once, as the schedule reaches them: states[k] is the layout
// after k steps.
class GrownStates {
public:
    explicit GrownStates(const PathSpec& spec) : spec_(spec) {}
    // The state after k steps; none past the path's limit.
    Expected<std::optional<GrownState>> at(unsigned k) {
        while (states_.size() <= k) {
            auto s = spec_.state(static_cast<unsigned>(states_.size()));
            if (!s)
                return fail(s.error());
            if (!*s)
                return std::optional<GrownState>{};
            states_.push_back(**s);
        }
        return std::optional<GrownState>{states_[k]};
    }
    const GrownState& operator[](unsigned k) const { return states_[k]; }

private:
    const PathSpec& spec_;
    std::vector<GrownState> states_;
};

// What one step adds (and, for RAIDZ expansion, what zfs list shows it add), and its price.
Expected<void> priceStep(ExpansionPath& path, const PathSpec& spec, const GrownState& s0,
                         const GrownState& s1, std::optional<double> diskPrice) {
    path.stepUsableBytes = s1.usableBytes - s0.usableBytes;
    if (spec.reportedAfterStep) {
        // Space accounting keeps the original deflate ratio and metaslab size: zfs list shows
        // less than the new width holds.
        auto reported = spec.reportedAfterStep();
        if (!reported)
            return fail(reported.error());
        path.reportedStepUsableBytes = *reported > s0.usableBytes ? *reported - s0.usableBytes : 0;
    }
    if (diskPrice) {
        path.stepCostUsd = *diskPrice * spec.disksPerStep;
        path.costPerUsableTbUsd =
            *path.stepCostUsd / (static_cast<double>(path.stepUsableBytes) / bytesPerTb);
    }
    return {};
}

// Month by month: before the month's data is written, add steps until it fits under the
// ceiling. For RAIDZ expansion, data keeps the efficiency of the width it was written at:
// `consumed` counts raw space in units of (usable / efficiency), and what the pool can still
// take is the new width's usable less the extra room the old data occupies.
Expected<void> scheduleSteps(ExpansionPath& path, const PathSpec& spec, const Simulation& sim,
                             GrownStates& states) {
    const bool oldDataKeepsRatio = spec.kind == ExpansionKind::RaidzExpand;
    unsigned k = 0;
    double consumed = 0, usedBefore = 0;
    auto effective = [&](const GrownState& s) {
        const double u = static_cast<double>(s.usableBytes);
        return oldDataKeepsRatio ? u - (consumed * s.efficiency - usedBefore) : u;
    };
    for (unsigned m = 0; m <= sim.months && path.keepsUp; ++m) {
        const double used = sim.growth.usedAfter(sim.used0, m);
        while (used > sim.ceiling * effective(states[k])) {
            auto next = states.at(k + 1);
            if (!next)
                return fail(next.error());
            if (!*next) {
                path.keepsUp = false;
                path.limitMonth = m;
                break;
            }
            ++k;
            const unsigned added = states[k].disks - states[k - 1].disks;
            path.schedule.push_back(
                {m, added, states[k].disks, states[k].usableBytes, toBytes(effective(states[k]))});
            path.disksBought += added;
            const unsigned year = m == 0 ? 1 : (m + 11) / 12;
            path.disksPerYear[year - 1] += added;
        }
        consumed += (used - usedBefore) / states[k].efficiency;
        usedBefore = used;
    }
    path.finalUsableBytes = toBytes(effective(states[k]));
    return {};
}

Expected<ExpansionPath> schedulePath(const PathSpec& spec, const Simulation& sim,
                                     std::optional<double> diskPrice) {
    ExpansionPath path;
    path.kind = spec.kind;
    path.description = spec.description;
    path.note = spec.note;
    path.disksPerStep = spec.disksPerStep;
    path.diskBytes = spec.diskBytes;
    path.disksPerYear.assign(sim.years, 0);
    if (spec.kind == ExpansionKind::RaidzExpand)
        path.requiresOpenZfs = "2.3";
    GrownStates states(spec);
    LB_TRY(first, states.at(0));
    LB_TRY(second, states.at(1));
    if (!first || !second || second->usableBytes <= first->usableBytes)
        return path; // no step possible; disksPerStep says what one would have been
    LB_TRY_VOID(priceStep(path, spec, *first, *second, diskPrice));
    LB_TRY_VOID(scheduleSteps(path, spec, sim, states));
    if (diskPrice)
        path.totalCostUsd = *diskPrice * path.disksBought;
    return path;
}

} // namespace

Expected<void> addExpansions(LayoutProjection& p, const ProjectionInput& in) {
    const Simulation sim{in.growth, static_cast<double>(in.usedBytes), p.ceilingFraction,
                         in.years * 12, in.years};
    for (const auto& spec : pathsFor(in.layout, p.notes)) {
        auto path = schedulePath(spec, sim, unitPriceUsd(in, spec.diskBytes));
        if (!path)
            return fail(path.error());
        if (path->stepUsableBytes == 0) {
            p.notes.push_back(std::string(expansionKindName(spec.kind)) +
                              ": a step would add no usable space; left out.");
            continue;
        }
        p.expansions.push_back(std::move(*path));
    }
    return {};
}

} // namespace lb
