// A layout's risk over the horizon (engine/capacity/risk.h): its redundancy groups, the window
// each leaves open after a failure, the chain's loss probability for each (risk_chain.h), the
// pool's, the unrecoverable-read figure, and the sentence every output renders.
#include "engine/capacity/risk.h"

#include "engine/base/size.h"
#include "engine/capacity/risk_chain.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <utility>

namespace lb {

namespace {

// A group's drives (their partitions), the failures it tolerates, and the data columns a rebuild
// with no redundancy left reads.
struct GroupShape {
    std::vector<std::uint64_t> members;
    unsigned tolerates = 0;
    unsigned dataWidth = 0;
    bool special = false; // the pool's special class
};

// The partitions in groups of `width`, each tolerating `tolerates`.
std::vector<GroupShape> split(const std::vector<std::uint64_t>& parts, std::size_t width,
                              unsigned tolerates, unsigned dataWidth) {
    std::vector<GroupShape> out;
    for (std::size_t i = 0; i + width <= parts.size(); i += width)
        out.push_back(
            {std::vector<std::uint64_t>(parts.begin() + static_cast<std::ptrdiff_t>(i),
                                        parts.begin() + static_cast<std::ptrdiff_t>(i + width)),
             tolerates, dataWidth});
    return out;
}

// Each disk's partition as the layout uses it.
std::vector<std::uint64_t> partitions(const std::vector<std::uint64_t>& disks,
                                      double underprovision) {
    std::vector<std::uint64_t> parts;
    for (const auto bytes : disks)
        parts.push_back(
            static_cast<std::uint64_t>(std::floor(static_cast<double>(bytes) * underprovision)));
    return parts;
}

// The data vdevs' redundancy groups: a RAIDZ or dRAID vdev, a mirror (a raid10's pair), an md
// array; a stripe is one group that tolerates nothing. A ZFS pool on md (a guest's) is its array.
Expected<std::vector<GroupShape>> dataGroupsOf(const CapacityInput& in) {
    const auto parts = partitions(in.diskBytes, in.underprovision);
    const auto n = static_cast<unsigned>(parts.size());
    const unsigned width = in.vdevs > 0 ? n / in.vdevs : n;
    const unsigned p = parityOf(in.kind);
    switch (in.kind) {
    case LayoutKind::MdRaid0:
    case LayoutKind::ZfsStripe:
        return split(parts, n, 0, n);
    case LayoutKind::MdRaid1:
        return split(parts, n, n - 1, 1);
    case LayoutKind::MdRaid10:
    case LayoutKind::ZfsRaid10:
        return split(parts, 2, 1, 1);
    case LayoutKind::MdRaid5:
    case LayoutKind::MdRaid6:
        return split(parts, n, p, n - p);
    case LayoutKind::ZfsMirror:
        return split(parts, width, width - 1, 1);
    case LayoutKind::ZfsRaidz1:
    case LayoutKind::ZfsRaidz2:
    case LayoutKind::ZfsRaidz3:
        return split(parts, width, p, width - p);
    case LayoutKind::ZfsDraid1:
    case LayoutKind::ZfsDraid2:
    case LayoutKind::ZfsDraid3:
        return split(parts, width, p,
                     in.draid.data != 0 ? in.draid.data
                                        : draidDefaultData(p, width, in.draid.spares));
    default:
        return badInput("kind: " + std::string(layoutKindName(in.kind)) +
                        " has no redundancy groups to estimate a risk of loss from");
    }
}

// The layout's redundancy groups: the data vdevs', and a ZFS pool's special class (a mirror,
// or one device that tolerates nothing), whose loss loses the pool as a data vdev's does.
Expected<std::vector<GroupShape>> groupsOf(const CapacityInput& in) {
    LB_TRY(groups, dataGroupsOf(in));
    if (isZfs(in.kind) && !in.specialDiskBytes.empty()) {
        auto parts = partitions(in.specialDiskBytes, in.underprovision);
        const auto n = static_cast<unsigned>(parts.size());
        groups.push_back({std::move(parts), n - 1, 1, true});
    }
    return groups;
}

RebuildKind rebuildOf(const CapacityInput& in, unsigned tolerates) {
    if (tolerates == 0)
        return RebuildKind::None;
    if (isMd(in.kind))
        return RebuildKind::WholeMember;
    if (isDraid(in.kind) && in.draid.spares > 0)
        return RebuildKind::DraidSequential;
    return RebuildKind::Allocated;
}

// Where the AFR and the error rate come from: given, the catalog's drive, or assumed.
void setDriveFigures(RiskEstimate& r, const std::optional<Drive>& drive, const RiskSettings& s) {
    const std::string catalog = drive ? drive->model + ": " + drive->reliabilitySource : "";
    r.driveModel = drive ? drive->model : "";
    r.afrFrom = s.afr                 ? FigureSource::Given
                : drive && drive->afr ? FigureSource::Catalog
                                      : FigureSource::Assumed;
    switch (r.afrFrom) {
    case FigureSource::Given:
        r.afr = *s.afr;
        r.afrSource = "given";
        break;
    case FigureSource::Catalog:
        r.afr = *drive->afr;
        r.afrSource = catalog;
        break;
    case FigureSource::Assumed:
        r.afr = RiskAssumptions::afr;
        r.afrSource = RiskAssumptions::afrBasis;
        break;
    }
    r.failuresPerYear = failureRateOfAfr(r.afr);
    const bool catalogUre = drive && drive->urePerBit;
    r.ureFrom = catalogUre ? FigureSource::Catalog : FigureSource::Assumed;
    r.urePerBit = catalogUre ? *drive->urePerBit : RiskAssumptions::urePerBit;
    r.ureSource = catalogUre ? catalog : std::string(RiskAssumptions::ureBasis);
}

// "as given", "the catalog's figure for the Samsung 870 EVO 500GB", "assumed: ..."
std::string afrSourceText(const RiskEstimate& r) {
    switch (r.afrFrom) {
    case FigureSource::Given:
        return "as given";
    case FigureSource::Catalog:
        return "the catalog's figure for the " + r.driveModel;
    case FigureSource::Assumed:
        break;
    }
    return r.afrSource;
}

// How a failed drive is replaced and rebuilt, for every group of the layout.
void setRepair(RiskEstimate& r, const CapacityInput& in, const RiskSettings& s, unsigned f) {
    r.rebuild = rebuildOf(in, f);
    const bool distributed = r.rebuild == RebuildKind::DraidSequential;
    r.spare = distributed ? "distributed" : s.hotSpare ? "hot" : "";
    r.replaceAfterGiven = s.replaceAfterHours.has_value();
    r.replaceAfterHours =
        r.spare.empty() ? s.replaceAfterHours.value_or(RiskAssumptions::replaceAfterHours) : 0.0;
    r.rebuildMeasured = s.rebuildBytesPerSecond.has_value();
    r.rebuildBytesPerSecond =
        s.rebuildBytesPerSecond.value_or(RiskAssumptions::rebuildBytesPerSecond);
    r.rebuildBasis = !r.rebuildMeasured       ? std::string(RiskAssumptions::rebuildBasis)
                     : s.rebuildBasis.empty() ? std::string("as given")
                                              : s.rebuildBasis;
    if (isDraid(in.kind)) {
        r.draidChildren = in.vdevs > 0 ? static_cast<unsigned>(in.diskBytes.size()) / in.vdevs
                                       : static_cast<unsigned>(in.diskBytes.size());
        r.draidData = in.draid.data != 0
                          ? in.draid.data
                          : draidDefaultData(parityOf(in.kind), r.draidChildren, in.draid.spares);
    }
}

// One group's window, chain and exposed read, under the estimate's repair and drive figures.
RiskGroup groupRisk(const GroupShape& shape, const RiskEstimate& r) {
    RiskGroup g;
    g.special = shape.special;
    g.disks = static_cast<unsigned>(shape.members.size());
    g.tolerates = shape.tolerates;
    g.memberBytes = *std::min_element(shape.members.begin(), shape.members.end());
    RedundancyChain chain{g.disks, g.tolerates, r.failuresPerYear, 0.0};
    if (g.tolerates > 0) {
        g.rebuildBytes = r.rebuild == RebuildKind::WholeMember
                             ? g.memberBytes
                             : static_cast<std::uint64_t>(
                                   std::floor(static_cast<double>(g.memberBytes) * r.fillFraction));
        double seconds = static_cast<double>(g.rebuildBytes) / r.rebuildBytesPerSecond;
        // Each rebuilt sector reads d and writes 1, spread over the c - 1 children left.
        if (r.rebuild == RebuildKind::DraidSequential)
            seconds *= (r.draidData + 1.0) / (r.draidChildren - 1.0);
        g.rebuildHours = seconds / 3600.0;
        g.windowHours = r.replaceAfterHours + g.rebuildHours;
        chain.repairsPerYear = g.windowHours > 0 ? hoursPerYear / g.windowHours : 0.0;
        g.exposedReadBytes = g.rebuildBytes * shape.dataWidth;
        g.ureProbability =
            unrecoverableReadProbability(static_cast<double>(g.exposedReadBytes), r.urePerBit);
    }
    // A window of nothing (nothing allocated, a spare): repaired at once, never lost.
    g.lossProbability = g.tolerates > 0 && g.windowHours <= 0
                            ? 0.0
                            : chainLossProbability(chain, static_cast<double>(r.horizonYears));
    return g;
}

// Two significant digits: 0.021, 5.8, 62.
std::string twoDigits(double v) {
    if (!(v > 0))
        return "0";
    const int decimals = std::max(0, 1 - static_cast<int>(std::floor(std::log10(v))));
    return fixed(v, decimals);
}

// Two significant digits, a whole number without its ".0": "1", "1.5", "20".
std::string wholeOrTwoDigits(double v) {
    std::string out = twoDigits(v);
    if (out.size() > 2 && out.ends_with(".0"))
        out.resize(out.size() - 2);
    return out;
}

std::string percentText(double fraction) {
    return twoDigits(fraction * 100.0) + " %";
}

// 0.2 h -> "12 min"; 1.14 h -> "1.1 h"; 73.4 h -> "73 h"; 150 h -> "6.3 days".
std::string durationText(double hours) {
    if (hours < 1.0)
        return hours * 60.0 < 1.0 ? std::string("under a minute") : fixed(hours * 60.0, 0) + " min";
    if (hours < 10.0)
        return fixed(hours, 1) + " h";
    if (hours < 100.0)
        return fixed(hours, 0) + " h";
    return fixed(hours / 24.0, 1) + " days";
}

// "100.0 MB/s"; in binary units "95.4 MiB/s", as the sizes beside it.
std::string rateText(double bytesPerSecond, bool binary) {
    return binary ? fixed(bytesPerSecond / static_cast<double>(MiB), 1) + " MiB/s"
                  : formatRate(bytesPerSecond);
}

// "10 disks, any 2 may fail"; "5 groups of 2 disks, any 1 of each may fail"; with a special
// class, "...; and the special vdev's 2 disks, any 1 may fail".
std::string groupsText(const RiskEstimate& r) {
    const RiskGroup& g = r.groups.front();
    const auto data = static_cast<std::size_t>(std::count_if(
        r.groups.begin(), r.groups.end(), [](const RiskGroup& x) { return !x.special; }));
    const std::string disks = std::to_string(g.disks) + " disks";
    const std::string may = g.tolerates == 0 ? "none may fail"
                                             : "any " + std::to_string(g.tolerates) +
                                                   (data > 1 ? " of each" : "") + " may fail";
    std::string out =
        data == 1 ? disks + ", " + may : std::to_string(data) + " groups of " + disks + ", " + may;
    for (const auto& s : r.groups)
        if (s.special)
            out += s.tolerates == 0
                       ? "; and the special vdev's one disk, which may not fail"
                       : "; and the special vdev's " + std::to_string(s.disks) + " disks, any " +
                             std::to_string(s.tolerates) + " may fail";
    return out;
}

// "A 500.00 GB disk at 60 % full rebuilds its allocated 300.00 GB in 50 min at ..."
std::string rebuildText(const RiskEstimate& r, bool binary) {
    const RiskGroup& g = r.worst();
    std::string out;
    if (r.rebuild == RebuildKind::WholeMember)
        out = "the md array rebuilds the whole " + formatBytes(g.memberBytes, binary) + " member";
    else
        out = "a " + formatBytes(g.memberBytes, binary) + " disk at " +
              percentText(r.fillFraction) + " full rebuilds its allocated " +
              formatBytes(g.rebuildBytes, binary) +
              (r.rebuild == RebuildKind::DraidSequential
                   ? " onto the distributed spare, sequentially from all " +
                         std::to_string(r.draidChildren) + " children,"
                   : std::string());
    out += " in " + durationText(g.rebuildHours) + " at " +
           (r.rebuildMeasured ? "a measured " + rateText(r.rebuildBytesPerSecond, binary) + " (" +
                                    r.rebuildBasis + ")"
                              : "an assumed " + rateText(r.rebuildBytesPerSecond, binary) +
                                    " (no rebuild measured)");
    if (!r.spare.empty())
        out += ", starting at once (a " + r.spare + " spare)";
    else
        out += ", once the disk is replaced " + durationText(r.replaceAfterHours) +
               " after it fails (" + (r.replaceAfterGiven ? "as given" : "assumed") + ")";
    out += ": a window of " + durationText(g.windowHours) + ".";
    out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
    return out;
}

// "1 in 10^15 bits", "1 in 10^14.5 bits"
std::string ureRateText(double perBit) {
    const double exponent = -std::log10(perBit);
    return "1 in 10^" +
           (std::fabs(exponent - std::round(exponent)) < 1e-9 ? fixed(exponent, 0)
                                                              : fixed(exponent, 1)) +
           " bits";
}

} // namespace

std::string_view figureSourceName(FigureSource s) {
    switch (s) {
    case FigureSource::Given:
        return "given";
    case FigureSource::Catalog:
        return "catalog";
    case FigureSource::Assumed:
        return "assumed";
    }
    return "assumed";
}

std::string_view rebuildKindName(RebuildKind k) {
    switch (k) {
    case RebuildKind::None:
        return "none";
    case RebuildKind::WholeMember:
        return "whole-member";
    case RebuildKind::Allocated:
        return "allocated";
    case RebuildKind::DraidSequential:
        return "draid-sequential";
    }
    return "none";
}

Expected<void> checkRiskSettings(const RiskSettings& s) {
    if (s.afr && !(*s.afr > 0.0 && *s.afr < 1.0))
        return badInput("afr: must be a fraction between 0 and 1 (0.015 or 1.5%), got " +
                        fixed(*s.afr, 4));
    if (s.replaceAfterHours && !(std::isfinite(*s.replaceAfterHours) && *s.replaceAfterHours >= 0))
        return badInput("replace-after: must be 0 or more hours, got " +
                        fixed(*s.replaceAfterHours, 1));
    if (s.rebuildBytesPerSecond &&
        !(std::isfinite(*s.rebuildBytesPerSecond) && *s.rebuildBytesPerSecond > 0))
        return badInput("rebuild-rate: must be above 0 MB/s, got " +
                        fixed(*s.rebuildBytesPerSecond / 1e6, 1));
    return {};
}

const RiskGroup& RiskEstimate::worst() const {
    return *std::max_element(groups.begin(), groups.end(),
                             [](const RiskGroup& a, const RiskGroup& b) {
                                 return a.lossProbability < b.lossProbability;
                             });
}

Expected<RiskEstimate> estimateRisk(const CapacityInput& layout, const std::optional<Drive>& drive,
                                    const RiskSettings& settings, double fillFraction,
                                    unsigned years) {
    LB_TRY_VOID(checkRiskSettings(settings));
    LB_TRY(shapes, groupsOf(layout));
    if (shapes.empty())
        return badInput("disks: no redundancy group can be made of " +
                        std::to_string(layout.diskBytes.size()) + " disks");
    RiskEstimate r;
    r.horizonYears = years;
    r.lost = isZfs(layout.kind) || layout.poolOnArray ? "the pool" : "the array";
    r.fillFraction = std::clamp(fillFraction, 0.0, 1.0);
    setDriveFigures(r, drive, settings);
    setRepair(r, layout, settings, shapes.front().tolerates);
    std::vector<double> losses;
    for (const auto& shape : shapes) {
        r.groups.push_back(groupRisk(shape, r));
        losses.push_back(r.groups.back().lossProbability);
    }
    r.lossProbability = anyOf(losses);
    return r;
}

std::string riskStatement(const RiskEstimate& r, bool binary) {
    std::string out = chanceText(r.lossProbability) + " of losing " + r.lost + " in " +
                      std::to_string(r.horizonYears) +
                      (r.horizonYears == 1 ? " year (" : " years (") + groupsText(r) +
                      ", each failing at " + percentText(r.afr) + " a year, " + afrSourceText(r) +
                      ").";
    const RiskGroup& g = r.worst();
    if (g.tolerates == 0)
        return out + " No redundancy: nothing to rebuild from, and an unrecoverable read loses "
                     "data.";
    out += " " + rebuildText(r, binary);
    out += " A rebuild with no redundancy left reads " + formatBytes(g.exposedReadBytes, binary) +
           ": " + chanceText(g.ureProbability.value_or(0.0)) +
           " of an unrecoverable read error at " + ureRateText(r.urePerBit) + " (" +
           (r.ureFrom == FigureSource::Catalog ? "the catalog's" : "assumed") + ").";
    return out;
}

std::vector<std::pair<std::string, std::string>> riskAssumptions(const RiskEstimate& r,
                                                                 bool binary) {
    std::vector<std::pair<std::string, std::string>> out;
    out.emplace_back("drives fail at", percentText(r.afr) + " a year (" + afrSourceText(r) + ")");
    const RiskGroup& g = r.worst();
    if (g.tolerates == 0) {
        out.emplace_back("window", "none: no redundancy, nothing is rebuilt");
    } else {
        out.emplace_back("detection to replacement",
                         !r.spare.empty()
                             ? "none: the rebuild starts at once (a " + r.spare + " spare)"
                             : durationText(r.replaceAfterHours) +
                                   (r.replaceAfterGiven ? " (as given)" : " (assumed)"));
        out.emplace_back("rebuild rate",
                         r.rebuildMeasured
                             ? rateText(r.rebuildBytesPerSecond, binary) + " (" + r.rebuildBasis +
                                   "), applied to what this layout rebuilds at the projected fill"
                             : rateText(r.rebuildBytesPerSecond, binary) + " (" + r.rebuildBasis +
                                   ")");
        out.emplace_back("rebuild", formatBytes(g.rebuildBytes, binary) + " of a " +
                                        formatBytes(g.memberBytes, binary) + " member in " +
                                        durationText(g.rebuildHours) + " (" +
                                        std::string(rebuildKindName(r.rebuild)) + ")");
        out.emplace_back("window", durationText(g.windowHours) +
                                       ": detection to replacement, then the rebuild");
    }
    out.emplace_back("chance of loss", chanceText(r.lossProbability) + " of losing " + r.lost +
                                           " in " + std::to_string(r.horizonYears) +
                                           (r.horizonYears == 1 ? " year" : " years"));
    return out;
}

std::string chanceText(double p) {
    if (!(p > 0))
        return "no chance";
    if (p >= 1e-4) {
        const std::string percent = percentText(p);
        return (percent == "100 %" && p < 1.0 ? std::string("a more than 99 %") : "a " + percent) +
               " chance";
    }
    // The odds to two significant digits first, so that 999,999 reads "1.0 million".
    const double magnitude = std::pow(10.0, std::floor(std::log10(1.0 / p)) - 1.0);
    const double odds = std::round(1.0 / p / magnitude) * magnitude;
    if (odds >= 1e15)
        return "a less than 1 in a thousand trillion chance";
    static constexpr std::array<std::pair<double, const char*>, 4> scales{
        {{1e12, " trillion"}, {1e9, " billion"}, {1e6, " million"}, {1e3, " thousand"}}};
    for (const auto& scale : scales)
        if (odds >= scale.first)
            return "a 1 in " + wholeOrTwoDigits(odds / scale.first) + scale.second + " chance";
    return "a 1 in " + wholeOrTwoDigits(odds) + " chance";
}

} // namespace lb
