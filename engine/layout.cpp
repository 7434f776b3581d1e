#include "engine/layout.h"

#include <array>
#include <utility>

namespace lb {

namespace {
constexpr std::array<std::pair<LayoutKind, std::string_view>, 13> kindNames{{
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
        return true;
    default:
        return false;
    }
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
    case LayoutKind::MdRaid5:
        return 1;
    case LayoutKind::ZfsRaidz2:
    case LayoutKind::MdRaid6:
        return 2;
    case LayoutKind::ZfsRaidz3:
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
    default:
        return 0;
    }
}

std::optional<std::string> diskCountProblem(LayoutKind k, std::size_t disks) {
    const std::string made =
        std::string(layoutKindName(k)) + " cannot be made of " + std::to_string(disks) + " disks";
    if (disks < minimumDisks(k))
        return made + ": it needs at least " + std::to_string(minimumDisks(k));
    if (k == LayoutKind::ZfsRaid10 && disks % 2 != 0)
        return made + ": its mirrors are pairs";
    return std::nullopt;
}

} // namespace lb
