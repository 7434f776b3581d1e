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
    ZfsDraid1, // dRAID (OpenZFS 2.1+): fixed-width redundancy groups, distributed spares
    ZfsDraid2,
    ZfsDraid3,
    Guest,
};

std::string_view layoutKindName(LayoutKind k); // "md-raid10", "zfs-raidz2", ...
std::optional<LayoutKind> parseLayoutKind(std::string_view name);
std::vector<LayoutKind> allLayoutKinds();
// "unknown layout kind 'zfs-raidz' (did you mean 'zfs-raidz1', 'zfs-raidz2' or 'zfs-raidz3'?)"
std::string unknownLayoutKind(std::string_view typed);
// Kinds that have a capacity model (every kind except dir and guest).
std::vector<LayoutKind> diskLayoutKinds();

bool isZfs(LayoutKind k);
bool isMd(LayoutKind k);
bool isRaidz(LayoutKind k); // zfs-raidz1..3
bool isDraid(LayoutKind k); // zfs-draid1..3
// Parity disks of a RAIDZ/dRAID/RAID5/6 kind (0 for the others).
unsigned parityOf(LayoutKind k);
// The fewest disks a kind can be built from (0 for dir and guest).
unsigned minimumDisks(LayoutKind k);
struct DraidShape;
// Why `disks` disks cannot be built into a layout of kind `k` ("md-raid6 cannot be made of 2
// disks: it needs at least 4"), split into `vdevs` top-level vdevs of the dRAID shape `draid`,
// or nothing when they can.
std::optional<std::string> diskCountProblem(LayoutKind k, std::size_t disks, unsigned vdevs = 1,
                                            const DraidShape* draid = nullptr);

// A dRAID vdev's shape beyond its parity: data disks per redundancy group (0: OpenZFS's default,
// 8 or what fits) and distributed spares.
struct DraidShape {
    unsigned data = 0;
    unsigned spares = 0;
    bool operator==(const DraidShape&) const = default;
};
// The data width zpool takes for `draidP` of `children` with `spares` when none is given:
// 8, or children - spares - parity if that is smaller.
unsigned draidDefaultData(unsigned parity, unsigned children, unsigned spares);
// Why this shape cannot be built of `children` disks (zpool's own checks: at least one data
// disk, data + parity + spares within the children, spares below children - parity), or nothing.
std::optional<std::string> draidShapeProblem(LayoutKind k, unsigned children, DraidShape shape);
// OpenZFS's spelling of the vdev, "draid2:4d:8c:1s" (the data width resolved).
std::string draidVdevName(LayoutKind k, unsigned children, DraidShape shape);
// "draid[P][:Dd][:Cc][:Ss]" as zpool takes it: the kind (draid alone is draid1), the shape, and
// the children when given (0 if not). Nothing for anything else.
struct DraidSpec {
    LayoutKind kind = LayoutKind::ZfsDraid1;
    DraidShape shape;
    unsigned children = 0;
};
std::optional<DraidSpec> parseDraidSpec(std::string_view text);

} // namespace lb
