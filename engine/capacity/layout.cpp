#include "engine/capacity/layout.h"

#include "engine/base/joined.h"
#include "engine/base/suggest.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace lb {

namespace {
constexpr std::array<std::pair<LayoutKind, std::string_view>, 16> kindNames{{
    {LayoutKind::Dir, "dir"},
    {LayoutKind::MdRaid0, "md-raid0"},
    {LayoutKind::MdRaid1, "md-raid1"},
    {LayoutKind::MdRaid10, "md-raid10"},
    {LayoutKind::MdRaid5, "md-raid5"},
    {LayoutKind::MdRaid6, "md-raid6"},
    {LayoutKind::ZfsStripe, "zfs-stripe"},
    {LayoutKind::ZfsMirror, "zfs-mirror"},
    {LayoutKind::ZfsRaid10, "zfs-raid10"},
    {LayoutKind::ZfsRaidz1, "zfs-raidz1"},
    {LayoutKind::ZfsRaidz2, "zfs-raidz2"},
    {LayoutKind::ZfsRaidz3, "zfs-raidz3"},
    {LayoutKind::ZfsDraid1, "zfs-draid1"},
    {LayoutKind::ZfsDraid2, "zfs-draid2"},
    {LayoutKind::ZfsDraid3, "zfs-draid3"},
    {LayoutKind::Guest, "guest"},
}};
} // namespace

std::string_view layoutKindName(LayoutKind k) {
    for (const auto& [kind, name] : kindNames)
        if (kind == k)
            return name;
    return "dir";
}

std::optional<LayoutKind> parseLayoutKind(std::string_view name) {
    for (const auto& [kind, n] : kindNames)
        if (n == name)
            return kind;
    return std::nullopt;
}

std::vector<LayoutKind> allLayoutKinds() {
    std::vector<LayoutKind> out;
    for (const auto& entry : kindNames)
        out.push_back(entry.first);
    return out;
}

std::string unknownLayoutKind(std::string_view typed) {
    std::vector<std::string> names;
    for (const auto& entry : kindNames)
        names.emplace_back(entry.second);
    const std::string head = "unknown layout kind '" + std::string(typed) + "'";
    if (auto near = didYouMean(typed, names); !near.empty())
        return head + near;
    // The name without its family: "raidz2" for zfs-raidz2, "raid6" for md-raid6, "raid10" for
    // both raid10s.
    std::vector<std::string> rests, family;
    for (const auto& name : names)
        rests.push_back(name.substr(name.find('-') + 1)); // npos + 1: the whole name
    auto near = nearestNames(typed, rests);
    if (std::find(rests.begin(), rests.end(), typed) != rests.end())
        near = {std::string(typed)}; // exact, as raid10 for both raid10s
    for (std::size_t i = 0; i < names.size(); ++i)
        if (rests[i] != names[i] && std::find(near.begin(), near.end(), rests[i]) != near.end())
            family.push_back(names[i]);
    if (!family.empty() && family.size() <= 3)
        return head + didYouMeanOf(family);
    return head + " (kinds: " + joinedText(names, ", ") + ")";
}

std::vector<LayoutKind> diskLayoutKinds() {
    std::vector<LayoutKind> out;
    for (const auto& entry : kindNames)
        if (entry.first != LayoutKind::Dir && entry.first != LayoutKind::Guest)
            out.push_back(entry.first);
    return out;
}

bool isZfs(LayoutKind k) {
    switch (k) {
    case LayoutKind::ZfsStripe:
    case LayoutKind::ZfsMirror:
    case LayoutKind::ZfsRaid10:
    case LayoutKind::ZfsRaidz1:
    case LayoutKind::ZfsRaidz2:
    case LayoutKind::ZfsRaidz3:
    case LayoutKind::ZfsDraid1:
    case LayoutKind::ZfsDraid2:
    case LayoutKind::ZfsDraid3:
        return true;
    default:
        return false;
    }
}

bool isRaidz(LayoutKind k) {
    return k == LayoutKind::ZfsRaidz1 || k == LayoutKind::ZfsRaidz2 || k == LayoutKind::ZfsRaidz3;
}

bool isDraid(LayoutKind k) {
    return k == LayoutKind::ZfsDraid1 || k == LayoutKind::ZfsDraid2 || k == LayoutKind::ZfsDraid3;
}

bool isMd(LayoutKind k) {
    switch (k) {
    case LayoutKind::MdRaid0:
    case LayoutKind::MdRaid1:
    case LayoutKind::MdRaid10:
    case LayoutKind::MdRaid5:
    case LayoutKind::MdRaid6:
        return true;
    default:
        return false;
    }
}

unsigned parityOf(LayoutKind k) {
    switch (k) {
    case LayoutKind::ZfsRaidz1:
    case LayoutKind::ZfsDraid1:
    case LayoutKind::MdRaid5:
        return 1;
    case LayoutKind::ZfsRaidz2:
    case LayoutKind::ZfsDraid2:
    case LayoutKind::MdRaid6:
        return 2;
    case LayoutKind::ZfsRaidz3:
    case LayoutKind::ZfsDraid3:
        return 3;
    default:
        return 0;
    }
}

unsigned minimumDisks(LayoutKind k) {
    switch (k) {
    case LayoutKind::ZfsStripe:
        return 1;
    case LayoutKind::MdRaid0:
    case LayoutKind::MdRaid1:
    case LayoutKind::ZfsMirror:
        return 2;
    case LayoutKind::MdRaid5:
        return 3;
    case LayoutKind::MdRaid6:
    case LayoutKind::MdRaid10:
    case LayoutKind::ZfsRaid10: // striped mirrors: at least two mirrors of two
        return 4;
    case LayoutKind::ZfsRaidz1:
    case LayoutKind::ZfsRaidz2:
    case LayoutKind::ZfsRaidz3:
        // vdev_raidz_open() refuses fewer than nparity + 1 children.
        return parityOf(k) + 1;
    case LayoutKind::ZfsDraid1:
    case LayoutKind::ZfsDraid2:
    case LayoutKind::ZfsDraid3:
        // zpool: one data disk and the parity at least (without spares).
        return parityOf(k) + 1;
    default:
        return 0;
    }
}

std::optional<std::string> diskCountProblem(LayoutKind k, std::size_t disks, unsigned vdevs,
                                            const DraidShape* draid) {
    const std::string made =
        std::string(layoutKindName(k)) + " cannot be made of " + std::to_string(disks) + " disks";
    if (vdevs > 1) {
        if (k != LayoutKind::ZfsMirror && !isRaidz(k) && !isDraid(k))
            return std::string(layoutKindName(k)) + " is not split into vdevs";
        if (disks % vdevs != 0)
            return made + ": they do not split into " + std::to_string(vdevs) +
                   " vdevs of equal width";
        disks /= vdevs;
    }
    if (disks < minimumDisks(k))
        return made + (vdevs > 1 ? " per vdev" : "") + ": it needs at least " +
               std::to_string(minimumDisks(k));
    if (k == LayoutKind::ZfsRaid10 && disks % 2 != 0)
        return made + ": its mirrors are pairs";
    if (isDraid(k))
        return draidShapeProblem(k, static_cast<unsigned>(disks), draid ? *draid : DraidShape{});
    return std::nullopt;
}

// The dRAID rules below are zpool's (cmd/zpool/zpool_vdev.c, draid_config_by_type): a data width
// of 8 unless fewer disks are left, at least one data disk, data + parity within the children
// less the spares, at most 100 spares, parity 1 to 3.
unsigned draidDefaultData(unsigned parity, unsigned children, unsigned spares) {
    if (children <= spares + parity)
        return 0;
    return std::min(children - spares - parity, 8U);
}

std::optional<std::string> draidShapeProblem(LayoutKind k, unsigned children, DraidShape shape) {
    const unsigned p = parityOf(k);
    const std::string name(layoutKindName(k));
    if (shape.spares > 100)
        return name + ": at most 100 distributed spares, got " + std::to_string(shape.spares);
    if (children <= shape.spares + p)
        return name + " of " + std::to_string(children) + " disks with " +
               std::to_string(shape.spares) + " spare(s) leaves no disk for data";
    const unsigned data =
        shape.data != 0 ? shape.data : draidDefaultData(p, children, shape.spares);
    if (data + p > children - shape.spares)
        return name + ": " + std::to_string(data) + " data disks per group is too many: at most " +
               std::to_string(children - shape.spares - p) + " of " + std::to_string(children) +
               " disks are left for data after " + std::to_string(p) + " parity and " +
               std::to_string(shape.spares) + " spare(s)";
    return std::nullopt;
}

std::string draidVdevName(LayoutKind k, unsigned children, DraidShape shape) {
    const unsigned data =
        shape.data != 0 ? shape.data : draidDefaultData(parityOf(k), children, shape.spares);
    return "draid" + std::to_string(parityOf(k)) + ":" + std::to_string(data) +
           "d:" + std::to_string(children) + "c:" + std::to_string(shape.spares) + "s";
}

std::optional<DraidSpec> parseDraidSpec(std::string_view text) {
    if (!text.starts_with("draid"))
        return std::nullopt;
    text.remove_prefix(5);
    DraidSpec spec;
    unsigned parity = 1;
    if (!text.empty() && text.front() != ':') {
        if (text.front() < '1' || text.front() > '3')
            return std::nullopt;
        parity = static_cast<unsigned>(text.front() - '0');
        text.remove_prefix(1);
    }
    spec.kind = parity == 1   ? LayoutKind::ZfsDraid1
                : parity == 2 ? LayoutKind::ZfsDraid2
                              : LayoutKind::ZfsDraid3;
    while (!text.empty()) {
        if (text.front() != ':')
            return std::nullopt;
        text.remove_prefix(1);
        unsigned value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc{} || end == text.data() || end == text.data() + text.size())
            return std::nullopt;
        const char suffix = *end;
        text.remove_prefix(static_cast<std::size_t>(end - text.data()) + 1);
        if (suffix == 'd' && value > 0)
            spec.shape.data = value;
        else if (suffix == 'c' && value > 0)
            spec.children = value;
        else if (suffix == 's')
            spec.shape.spares = value;
        else
            return std::nullopt;
    }
    return spec;
}

} // namespace lb
