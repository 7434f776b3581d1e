// The capacity model: how many bytes a layout of given disks can hold, and where the rest goes.
// Byte counts are exact integers that add up to the raw size; only dataEfficiency is a ratio.
// The ZFS rules follow OpenZFS (vdev.c, vdev_raidz.c, spa_misc.c), the md rules mdadm 4.x
// (super1.c, Create.c); capacity.cpp says which rule comes from where.
#pragma once

#include "engine/base/expected.h"
#include "engine/base/size.h"
#include "engine/capacity/layout.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

struct CapacityInput {
    LayoutKind kind = LayoutKind::Dir;         // no default layout: dir is refused, name one
    std::vector<std::uint64_t> diskBytes;      // one entry per member disk (mixed sizes allowed)
    std::uint64_t recordsizeBytes = 128 * KiB; // ZFS record size used for efficiency
    unsigned ashift = 12;                      // ZFS sector shift (9..16)
    double underprovision = 1.0; // fraction of each disk partitioned (e.g. 0.8); 1.0 = whole disk
    std::uint64_t mdChunkBytes = 512 * KiB; // md chunk (power of two, at least 4 KiB)
    // md kinds: a one-vdev ZFS pool is made on the array (ZFS on md, a guest running ZFS), and
    // the capacity is what the pool offers (computeZfsOnMdCapacity).
    bool poolOnArray = false;
    // ZFS, whole disks (underprovision 1.0): Linux OpenZFS writes a GPT and uses partition 1,
    // which ends 8 MiB and the backup GPT before the end, on a 1 MiB boundary. false for what
    // ZFS takes as it is: FreeBSD's disks, files (zfs-fuse, file vdevs), partitions made first.
    bool zfsWholeDiskLabel = true;
    // ZFS mirror, RAIDZ and dRAID kinds: the disks, in order, split into this many top-level
    // vdevs of equal width (2 for two raidz2 of 6 from 12 disks).
    unsigned vdevs = 1;
    DraidShape draid; // dRAID kinds: data disks per group (0: zpool's default) and spares
    // RAIDZ, one vdev: created with this many disks and expanded (OpenZFS 2.3, zpool attach) to
    // the disks given; 0 if not. The metaslab size and the deflate ratio stay the original's.
    unsigned raidzExpandedFrom = 0;
    // ZFS: the special allocation class (metadata and small blocks), one device or a mirror of
    // these. Its space is the pool's SIZE too; its fault tolerance bounds the layout's. Log and
    // cache devices add nothing to SIZE or to what data can fill, so the model takes none.
    std::vector<std::uint64_t> specialDiskBytes;
};

// Every byte of rawBytes lands in exactly one of: usable, slop, parity, padding, reserved,
// underprovisioned, mixedSizeWaste, spare, special. They always add up to rawBytes.
struct Capacity {
    std::uint64_t rawBytes = 0;    // sum of the disks as sold
    std::uint64_t usableBytes = 0; // what data can fill, at the given record size, after the rest
    // Fraction of allocated raw space holding data at that record size (parity, padding, mirror
    // copies taken out; nothing else). ZFS: recordsize over the bytes one record allocates.
    double dataEfficiency = 0;
    // Disks that may fail, guaranteed (worst case): the least of the data vdevs' and, with a
    // special class, of its mirror's (a single special device: 0).
    unsigned faultTolerance = 0;
    // Best case (RAID10: one per mirror; dRAID: one more per distributed spare, each failure
    // after the rebuild onto a spare has finished).
    unsigned faultToleranceBest = 0;
    std::uint64_t parityBytes = 0; // raw space holding parity or mirror copies
    // RAIDZ skip-sector padding, plus the unfilled end of the last sector when the record size is
    // smaller than a sector (ZFS kinds only).
    std::uint64_t paddingBytes = 0;
    // ZFS slop reserve (spa_get_slop_space), as the bytes of records at the given record size it
    // keeps out, including the embedded ZIL metaslab of each vdev with more than 64 metaslabs:
    // OpenZFS counts those as part of the same ~3 % kept from writers.
    std::uint64_t slopBytes = 0;
    std::uint64_t underprovisionedBytes = 0; // left unpartitioned
    std::uint64_t mixedSizeWasteBytes = 0; // lost because a larger disk is paired with smaller ones
    // md superblock/bitmap/data offset and size rounding; ZFS labels, boot area, 256 KiB label
    // alignment, the partial metaslab at the end of each vdev, and what the deflate ratio's
    // truncation to 1/512 takes from RAIDZ (about 0.1-0.4 %: `zfs list` shows the pool without it).
    std::uint64_t reservedBytes = 0;
    std::uint64_t spareBytes = 0; // dRAID: the distributed spares' share of every child
    // ZFS: what `zpool list` shows as SIZE (the metaslabs' space, parity included, one copy of a
    // mirror); not one of the categories above. 0 for md.
    std::uint64_t poolSizeBytes = 0;
    // ZFS with a special class: the space its vdev offers, which holds metadata and small
    // blocks and is not in what `zfs list` shows as used + avail (OpenZFS counts only the normal
    // class there); the raw disks it comes from are in rawBytes, their parity, labels and
    // rounding in the categories above. Its share of poolSizeBytes (`zpool list` SIZE counts
    // it), and the failures of its devices it tolerates, beside the data vdevs'.
    std::uint64_t specialBytes = 0;
    std::uint64_t specialPoolSizeBytes = 0;
    std::optional<unsigned> specialFaultTolerance;
    bool operator==(const Capacity&) const = default;
};

// Bad input (too few disks for the kind, raid10 with an odd count, ashift out of range,
// underprovision not in (0,1], recordsize not a power of two between 512 and 16M, md chunk not a
// power of two of at least 4 KiB, disks too small for the kind, kind dir/guest) -> badInput naming
// the field, e.g. "--disks: zfs-raidz2 needs at least 3 disks, got 2".
Expected<Capacity> computeCapacity(const CapacityInput& in);

// A ZFS pool of one vdev on an md array (the array of `md`, its kind an md kind): the array's
// capacity, then the pool's labels, metaslab rounding and slop on the array's usable bytes, at
// `zfs`'s record size and ashift. Raw, parity, underprovisioning and fault tolerance are the
// array's; the categories still add up to rawBytes.
Expected<Capacity> computeZfsOnMdCapacity(const CapacityInput& md, const CapacityInput& zfs);

// A guest layout as the model takes it: `inner` (an md kind, its disks, partitions and chunk)
// passed to a VM as one device, and the guest's pool on that device (`guestPool`: zfs-stripe, the
// one pool one device makes) at inner's record size and ashift: inner with poolOnArray set. Bad
// input naming the field: inner (not an md kind), guest-pool (not zfs-stripe).
Expected<CapacityInput> guestCapacityInput(CapacityInput inner, LayoutKind guestPool);
// The same from the names typed: `disks` (their sizes and settings) made into the `inner` kind,
// and the `guestPool` kind. Bad input naming the field: inner (none given, unknown, not md),
// guest-pool (unknown, not zfs-stripe).
Expected<CapacityInput> guestCapacityInput(CapacityInput disks, std::string_view inner,
                                           std::string_view guestPool);

// A layout's name in a table: its kind, dRAID's as OpenZFS names the vdev (draid2:8d:10c:0s), a
// guest's as its inner layout and pool ("guest: md-raid6 + zfs-stripe").
std::string layoutLabel(const CapacityInput& in);

// What the fault tolerance leaves unsaid: a ZFS pool on one md device detects corruption but
// cannot repair it, having no redundancy of its own; a pool whose special class is one device is
// lost with that device. Nothing for other layouts.
std::optional<std::string> redundancyNote(const CapacityInput& in);

// What is said of a special class of one device, wherever it is said (plans, capacity).
std::string singleSpecialWarning();

// A column of a capacity table and what it counts, for a legend (capacity_legend.cpp).
struct CapacityColumn {
    std::string_view name;    // "data efficiency"
    std::string_view meaning; // "the fraction of allocated raw space that holds data ..."
};
// Every figure of a Capacity a table shows, in the order tables show them.
std::span<const CapacityColumn> capacityColumns();

// Ahrens' RAIDZ allocation rule for one block: returns sectors {data, parity, padding}.
struct RaidzAllocation {
    std::uint64_t dataSectors, paritySectors, paddingSectors;
    bool operator==(const RaidzAllocation&) const = default;
};
RaidzAllocation raidzAllocate(std::uint64_t blockBytes, unsigned width, unsigned parity,
                              unsigned ashift);
// blockBytes over the bytes the block allocates (data + parity + padding sectors).
double raidzEfficiency(std::uint64_t blockBytes, unsigned width, unsigned parity, unsigned ashift);

// The pieces of the ZFS and md rules, exposed so each can be tested on its own.

// Allocatable size of a ZFS leaf device of deviceBytes: rounded down to the 256 KiB label size,
// less the front labels and boot area (4 MiB) and the back labels (512 KiB). 0 if the device is
// below the 64 MiB minimum.
std::uint64_t zfsLeafAsize(std::uint64_t deviceBytes);
// log2 of the metaslab size OpenZFS picks for a top-level vdev of asize bytes.
unsigned zfsMetaslabShift(std::uint64_t asize);
// spa_get_slop_space: from the pool's deflated space in the normal class and the deflated space
// of the embedded ZIL metaslabs. Returns the slop proper (without the embedded log space).
std::uint64_t zfsSlopSpace(std::uint64_t normalDeflatedBytes,
                           std::uint64_t embeddedLogDeflatedBytes = 0);
// mdadm's v1.2 data offset, in 512-byte sectors, for a first member of deviceSectors and a chunk
// of chunkSectors (0 for raid1, which has no chunk).
std::uint64_t mdDataOffsetSectors(std::uint64_t deviceSectors, std::uint64_t chunkSectors);

} // namespace lb
