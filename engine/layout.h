// Layout kinds and specs: what a candidate layout is, independent of how it is built.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

enum class LayoutKind {
    Dir,
    MdRaid0,
    MdRaid1,
    MdRaid10,
    MdRaid5,
    MdRaid6,
    ZfsStripe,
    ZfsMirror,
    ZfsRaid10,
    ZfsRaidz1,
    ZfsRaidz2,
    ZfsRaidz3,
    Guest,
};

std::string_view layoutKindName(LayoutKind k); // "md-raid10", "zfs-raidz2", ...
std::optional<LayoutKind> parseLayoutKind(std::string_view name);
std::vector<LayoutKind> allLayoutKinds();
// Kinds that have a capacity model (every kind except dir and guest).
std::vector<LayoutKind> diskLayoutKinds();

bool isZfs(LayoutKind k);
bool isMd(LayoutKind k);
// Parity disks of a RAIDZ/RAID5/6 kind (0 for the others).
unsigned parityOf(LayoutKind k);
// The fewest disks a kind can be built from (0 for dir and guest).
unsigned minimumDisks(LayoutKind k);
// Why `disks` disks cannot be built into a layout of kind `k` ("md-raid6 cannot be made of 2
// disks: it needs at least 4"), or nothing when they can.
std::optional<std::string> diskCountProblem(LayoutKind k, std::size_t disks);

} // namespace lb
