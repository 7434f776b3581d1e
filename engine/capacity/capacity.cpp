// The capacity model. Every rule below names the OpenZFS or mdadm source it reproduces, so a
// disagreement with a real pool or array can be traced to the rule (or the version) that differs.
// Byte counts are exact: 64-bit integers, with a 128-bit intermediate where a product could
// overflow. Floating point only produces dataEfficiency, never a byte count.
#include "engine/capacity/capacity.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>

namespace lb {

namespace {

// ---------------------------------------------------------------------------------------------
// Exact arithmetic

// floor(a * b / c) for any 64-bit a, b, c whose quotient fits in 64 bits. The product is formed in
// 128 bits from 32-bit halves (portable; -Wpedantic rejects __int128) and divided one bit at a
// time, so proportions of multi-terabyte pools stay exact to the byte.
std::uint64_t mulDiv(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    assert(c != 0);
    constexpr std::uint64_t low32 = 0xffffffffULL;
    const std::uint64_t ll = (a & low32) * (b & low32);
    const std::uint64_t lh = (a & low32) * (b >> 32);
    const std::uint64_t hl = (a >> 32) * (b & low32);
    const std::uint64_t hh = (a >> 32) * (b >> 32);
    const std::uint64_t mid = (ll >> 32) + (lh & low32) + (hl & low32);
    const std::uint64_t lo = (ll & low32) | (mid << 32);
    const std::uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    if (hi == 0)
        return lo / c;
    assert(hi < c && "mulDiv quotient does not fit in 64 bits");
    std::uint64_t quotient = 0;
    std::uint64_t rem = hi; // invariant: rem < c
    for (int bit = 63; bit >= 0; --bit) {
        const bool carry = (rem >> 63) != 0; // the shifted remainder needs a 65th bit
        rem = (rem << 1) | ((lo >> bit) & 1U);
        quotient <<= 1;
        if (carry || rem >= c) {
            rem -= c; // wraps correctly when carry is set: the true value is below 2c
            quotient |= 1U;
        }
    }
    return quotient;
}

std::uint64_t roundDown(std::uint64_t v, std::uint64_t align) {
    return v - v % align;
}
std::uint64_t roundUp(std::uint64_t v, std::uint64_t align) {
    return (v + align - 1) / align * align;
}
std::uint64_t divRoundUp(std::uint64_t v, std::uint64_t d) {
    return (v + d - 1) / d;
}

// OpenZFS highbit64(): 1-based index of the highest set bit, 0 for 0.
unsigned highbit64(std::uint64_t v) {
    return static_cast<unsigned>(std::bit_width(v));
}

// ---------------------------------------------------------------------------------------------
// OpenZFS constants (openzfs/zfs, read in the 2.2/2.3-era sources; defaults of the tunables)

// include/sys/vdev_impl.h: sizeof(vdev_label_t) is 256 KiB; VDEV_LABEL_START_SIZE is two labels
// plus VDEV_BOOT_SIZE (3.5 MiB) = 4 MiB; VDEV_LABEL_END_SIZE is two labels = 512 KiB.
constexpr std::uint64_t zfsLabelSize = 256 * KiB;
constexpr std::uint64_t zfsLabelStartSize = 2 * zfsLabelSize + 7 * (MiB / 2);
constexpr std::uint64_t zfsLabelEndSize = 2 * zfsLabelSize;
// include/sys/fs/zfs.h: SPA_MINDEVSIZE, the smallest device vdev_open() accepts.
constexpr std::uint64_t zfsMinDevSize = 64 * MiB;
// include/sys/spa.h: SPA_MINBLOCKSHIFT (the 512-byte unit of deflated space), SPA_MAXBLOCKSHIFT
// (16 MiB, the largest block and the smallest metaslab).
constexpr unsigned zfsMinBlockShift = 9;
constexpr unsigned zfsMaxBlockShift = 24;
// module/zfs/vdev.c tunables, defaults: zfs_vdev_default_ms_count, zfs_vdev_min_ms_count,
// zfs_vdev_ms_count_limit, zfs_vdev_default_ms_shift (512 MiB), zfs_vdev_max_ms_shift (16 GiB),
// zfs_embedded_slog_min_ms.
constexpr std::uint64_t zfsDefaultMsCount = 200;
constexpr std::uint64_t zfsMinMsCount = 16;
constexpr std::uint64_t zfsMsCountLimit = 1ULL << 17;
constexpr unsigned zfsDefaultMsShift = 29;
constexpr unsigned zfsMaxMsShift = 34;
constexpr std::uint64_t zfsEmbeddedSlogMinMs = 64;
// module/zfs/spa_misc.c tunables: spa_slop_shift (1/32), spa_min_slop, spa_max_slop.
constexpr unsigned zfsSlopShift = 5;
constexpr std::uint64_t zfsMinSlop = 128 * MiB;
constexpr std::uint64_t zfsMaxSlop = 128 * GiB;
// vdev_set_deflate_ratio() measures every vdev with a 128 KiB block, whatever the recordsize.
constexpr std::uint64_t zfsDeflateBlock = 128 * KiB;
// include/sys/vdev_draid.h: VDEV_DRAID_ROWHEIGHT (SPA_MAXBLOCKSIZE, 16 MiB) and
// VDEV_DRAID_REFLOW_RESERVE (two rows, kept at the end of each child for dRAID expansion).
constexpr std::uint64_t zfsDraidRowHeight = 16 * MiB;
constexpr std::uint64_t zfsDraidReflowReserve = 2 * zfsDraidRowHeight;

// ---------------------------------------------------------------------------------------------
// mdadm constants (md-raid-utilities/mdadm, super1.c and Create.c), in 512-byte sectors

constexpr std::uint64_t sector = 512;
constexpr std::uint64_t mdMaxHeadroom = 128 * 1024 * 2; // 128 MiB of reshape headroom
constexpr std::uint64_t mdSuperblockArea = 12 * 2;      // 4 KiB offset + superblock + bad blocks
constexpr std::uint64_t mdOffsetAlign = 2 * 1024;       // data offset rounded up to 1 MiB

// Underprovisioned partitions end on a 1 MiB boundary, as partitioning tools align them.
constexpr std::uint64_t partitionAlign = MiB;
// The fraction is applied as an exact ratio with this denominator (0.8 -> 800000000/1e9).
constexpr std::uint64_t fractionDenominator = 1000000000;

// ---------------------------------------------------------------------------------------------
// Everything except underprovisioning, computed from the partitioned member sizes.
struct Breakdown {
    std::uint64_t data = 0;     // what the allocatable space holds at the record size
    std::uint64_t parity = 0;   // parity or extra mirror copies
    std::uint64_t padding = 0;  // RAIDZ skip sectors and sector slack
    std::uint64_t slop = 0;     // part of data kept back (ZFS)
    std::uint64_t reserved = 0; // labels, metadata, rounding
    std::uint64_t mixed = 0;    // lost to a smaller member
    std::uint64_t spare = 0;    // dRAID distributed spares
    std::uint64_t poolSize = 0; // ZFS: zpool list's SIZE
    double efficiency = 0;
};

bool isPowerOfTwo(std::uint64_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

std::string diskLabel(std::size_t index, std::uint64_t bytes) {
    return "disk " + std::to_string(index + 1) + " (" + std::to_string(bytes) + " bytes)";
}

// The kind has a model, with enough disks, split into whole vdevs where it has several.
Expected<void> checkDisksAndVdevs(const CapacityInput& in) {
    const std::string kindName(layoutKindName(in.kind));
    if (in.kind == LayoutKind::Dir)
        return badInput("kind: dir has no capacity model (it uses space on an existing "
                        "filesystem); choose a disk layout");
    if (in.kind == LayoutKind::Guest)
        return badInput("kind: a guest is modelled as its inner layout with the guest's pool on "
                        "it (guestCapacityInput): give the inner layout and the guest's pool");
    const auto count = in.diskBytes.size();
    const unsigned needed = minimumDisks(in.kind);
    if (count < needed)
        return badInput("disks: " + kindName + " needs at least " + std::to_string(needed) +
                        " disks, got " + std::to_string(count));
    if (in.vdevs == 0)
        return badInput("vdevs: a pool needs at least one vdev");
    if (in.vdevs > 1) {
        if (!isZfs(in.kind) || in.kind == LayoutKind::ZfsStripe || in.kind == LayoutKind::ZfsRaid10)
            return badInput("vdevs: " + kindName +
                            " has no vdev count (zfs-mirror, zfs-raidz and zfs-draid kinds do)");
        if (count % in.vdevs != 0 || count / in.vdevs < needed)
            return badInput("vdevs: " + std::to_string(count) + " disks do not split into " +
                            std::to_string(in.vdevs) + " " + kindName + " vdevs of at least " +
                            std::to_string(needed) + " disks each");
    }
    return {};
}

// The shape the kind allows: dRAID's data width and spares, a RAIDZ expansion, RAID10's pairs.
Expected<void> checkShape(const CapacityInput& in) {
    const std::string kindName(layoutKindName(in.kind));
    const auto count = in.diskBytes.size();
    const unsigned needed = minimumDisks(in.kind);
    if (isDraid(in.kind)) {
        if (auto problem =
                draidShapeProblem(in.kind, static_cast<unsigned>(count / in.vdevs), in.draid))
            return badInput("draid: " + *problem);
    } else if (in.draid != DraidShape{}) {
        return badInput("draid: data width and spares apply to zfs-draid kinds, not " + kindName);
    }
    if (in.raidzExpandedFrom != 0) {
        if (!isRaidz(in.kind) || in.vdevs != 1)
            return badInput("raidz-expanded-from: expansion is modelled for one RAIDZ vdev, not " +
                            kindName + (in.vdevs != 1 ? " in several vdevs" : ""));
        if (in.raidzExpandedFrom < needed || in.raidzExpandedFrom >= count)
            return badInput("raidz-expanded-from: " + std::to_string(in.raidzExpandedFrom) +
                            " must be at least " + std::to_string(needed) + " and below the " +
                            std::to_string(count) + " disks after the expansion");
    }
    if ((in.kind == LayoutKind::MdRaid10 || in.kind == LayoutKind::ZfsRaid10) && count % 2 != 0)
        return badInput("disks: " + kindName +
                        " needs an even number of disks (pairs of "
                        "mirrors), got " +
                        std::to_string(count));
    return {};
}

// The sizes: each disk's (adding up within 64 bits), ashift, underprovisioning, record size and
// md chunk.
Expected<void> checkSizes(const CapacityInput& in) {
    const auto count = in.diskBytes.size();
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (in.diskBytes[i] == 0)
            return badInput("disk-size: disk " + std::to_string(i + 1) + " has 0 bytes");
        if (in.diskBytes[i] > std::numeric_limits<std::uint64_t>::max() - total)
            return badInput("disk-size: the disks add up to more than 2^64 bytes");
        total += in.diskBytes[i];
    }
    if (in.ashift < 9 || in.ashift > 16)
        return badInput("ashift: must be between 9 (512-byte sectors) and 16 (64 KiB), got " +
                        std::to_string(in.ashift));
    if (!(in.underprovision > 0.0 && in.underprovision <= 1.0)) // also refuses NaN
        return badInput("underprovision: must be a fraction in (0, 1], e.g. 0.8, got " +
                        std::to_string(in.underprovision));
    if (!isPowerOfTwo(in.recordsizeBytes) || in.recordsizeBytes < 512 ||
        in.recordsizeBytes > 16 * MiB)
        return badInput("recordsize: must be a power of two between 512 and 16M, got " +
                        std::to_string(in.recordsizeBytes) + " bytes");
    if (!isPowerOfTwo(in.mdChunkBytes) || in.mdChunkBytes < 4 * KiB)
        return badInput("chunk: must be a power of two of at least 4 KiB, got " +
                        std::to_string(in.mdChunkBytes) + " bytes");
    return {};
}

Expected<void> validate(const CapacityInput& in) {
    LB_TRY_VOID(checkDisksAndVdevs(in));
    LB_TRY_VOID(checkShape(in));
    return checkSizes(in);
}

// Each disk partitioned to floor(size * fraction), rounded down to 1 MiB; 1.0 takes the disk
// whole, unrounded.
std::uint64_t partitionedSize(std::uint64_t diskBytes, double fraction) {
    if (fraction >= 1.0)
        return diskBytes;
    const auto numerator = static_cast<std::uint64_t>(
        std::llround(fraction * static_cast<double>(fractionDenominator)));
    return roundDown(mulDiv(diskBytes, numerator, fractionDenominator), partitionAlign);
}

// ---------------------------------------------------------------------------------------------
// ZFS

// What one record allocates on a top-level vdev, in bytes.
struct BlockShape {
    std::uint64_t data;   // the record itself
    std::uint64_t parity; // parity sectors, or the extra copies on a mirror
    std::uint64_t alloc;  // everything the record allocates
};

BlockShape zfsBlock(LayoutKind kind, std::uint64_t blockBytes, unsigned width, unsigned ashift,
                    unsigned draidData) {
    const std::uint64_t sectorBytes = 1ULL << ashift;
    if (isDraid(kind)) {
        // vdev_draid_asize(): every block takes whole rows of the redundancy group, data + parity
        // sectors each; the unused data sectors of the last row are padding.
        const std::uint64_t rows = divRoundUp(blockBytes, std::uint64_t{draidData} << ashift);
        return {blockBytes, (rows * parityOf(kind)) << ashift,
                (rows * (draidData + parityOf(kind))) << ashift};
    }
    if (parityOf(kind) > 0) {
        const auto a = raidzAllocate(blockBytes, width, parityOf(kind), ashift);
        return {blockBytes, a.paritySectors << ashift,
                (a.dataSectors + a.paritySectors + a.paddingSectors) << ashift};
    }
    // Mirrors and single disks: vdev_default_asize() rounds up to the sector; a mirror writes
    // that on every child.
    const std::uint64_t oneCopy = roundUp(blockBytes, sectorBytes);
    return {blockBytes, oneCopy * (width - 1), oneCopy * width};
}

// The top-level vdevs' members, in the given order: one disk each (stripe), pairs (raid10), or
// the disks split into in.vdevs groups of equal width.
std::vector<std::vector<std::size_t>> zfsVdevMembers(const CapacityInput& in, std::size_t n) {
    std::vector<std::vector<std::size_t>> vdevs;
    const std::size_t width = in.kind == LayoutKind::ZfsStripe   ? 1
                              : in.kind == LayoutKind::ZfsRaid10 ? 2
                                                                 : n / in.vdevs;
    for (std::size_t i = 0; i + width <= n; i += width) {
        vdevs.emplace_back();
        for (std::size_t m = i; m < i + width; ++m)
            vdevs.back().push_back(m);
    }
    return vdevs;
}

// One top-level vdev as OpenZFS lays it out, from its members' leaf sizes.
struct VdevSpace {
    std::uint64_t allocatable = 0;  // raw bytes inside metaslabs (parity and copies included)
    std::uint64_t logRaw = 0;       // raw bytes of the embedded ZIL metaslab
    std::uint64_t normalDspace = 0; // deflated space of the normal class
    std::uint64_t logDspace = 0;    // deflated space of the embedded log class
    std::uint64_t poolSize = 0;     // what it adds to `zpool list` SIZE: its metaslabs' asize
    std::uint64_t spare = 0;        // dRAID: raw bytes kept for the distributed spares
    std::uint64_t mixed = 0;        // lost to its smallest member
    BlockShape block{0, 0, 1};      // one record at the record size, as written now
    std::uint64_t blockDsize = 1;   // and the deflated space it is charged
};

// A vdev's asize, and the width it was created with (RAIDZ expansion keeps that one for the
// metaslab size and the deflate ratio).
struct VdevGeometry {
    std::uint64_t asize = 0;
    std::uint64_t createdAsize = 0;
    unsigned createdWidth = 0;
    std::uint64_t rawFactor = 1; // raw bytes per byte of asize: a mirror's asize is one child
    unsigned draidData = 0;
    std::uint64_t spare = 0; // dRAID: raw bytes kept for the distributed spares
};

Expected<VdevGeometry> vdevGeometry(const CapacityInput& in, std::uint64_t smallest,
                                    unsigned width) {
    const unsigned parity = parityOf(in.kind);
    VdevGeometry g{smallest, smallest, width, width, 0, 0};
    if (isRaidz(in.kind)) {
        // A RAIDZ asize is already raw (parity included).
        g.rawFactor = 1;
        if (in.raidzExpandedFrom != 0)
            g.createdWidth = in.raidzExpandedFrom;
        g.asize = smallest * width;
        g.createdAsize = smallest * g.createdWidth;
    } else if (isDraid(in.kind)) {
        g.rawFactor = 1;
        g.draidData =
            in.draid.data != 0 ? in.draid.data : draidDefaultData(parity, width, in.draid.spares);
        // vdev_draid_open(): each child keeps VDEV_DRAID_REFLOW_RESERVE (32 MiB) for a future
        // expansion and is rounded down to whole 16 MiB rows; the children less the spares hold
        // whole groups of (data + parity) rows. The spares' share of every child is kept free.
        if (smallest < zfsDraidReflowReserve + zfsDraidRowHeight)
            return badInput("a dRAID child of " + std::to_string(smallest) +
                            " bytes leaves no 16 MiB row after the 32 MiB expansion reserve");
        const std::uint64_t child = roundDown(smallest - zfsDraidReflowReserve, zfsDraidRowHeight);
        const std::uint64_t groupSize = (g.draidData + parity) * zfsDraidRowHeight;
        const std::uint64_t ndisks = width - in.draid.spares;
        g.asize = child * ndisks / groupSize * groupSize;
        g.createdAsize = g.asize;
        g.spare = child * in.draid.spares;
    }
    return g;
}

// vdev_metaslab_init(): whole metaslabs only, the tail is lost. dRAID metaslabs start and end on
// whole rows of the group (vdev_draid_metaslab_init), so each loses a little at its ends.
struct Metaslabs {
    std::uint64_t count = 0;
    std::uint64_t total = 0; // the bytes of all of them
    std::uint64_t first = 0; // the bytes of the first
};

Metaslabs metaslabs(const CapacityInput& in, const VdevGeometry& g) {
    const unsigned shift = zfsMetaslabShift(g.createdAsize);
    const std::uint64_t msBytes = 1ULL << shift;
    Metaslabs ms{g.asize >> shift, 0, msBytes};
    ms.total = ms.count * msBytes;
    if (!isDraid(in.kind))
        return ms;
    const std::uint64_t row = std::uint64_t{g.draidData + parityOf(in.kind)} << in.ashift;
    ms.total = 0;
    for (std::uint64_t m = 0; m < ms.count; ++m) {
        const std::uint64_t start = m << shift;
        const std::uint64_t aligned = roundUp(start, row);
        const std::uint64_t size = roundDown(msBytes - (aligned - start), row);
        if (m == 0)
            ms.first = size;
        ms.total += size;
    }
    return ms;
}

Expected<VdevSpace> zfsVdevSpace(const CapacityInput& in, const std::vector<std::uint64_t>& leaf) {
    const auto width = static_cast<unsigned>(leaf.size());
    VdevSpace v;
    // vdev_mirror_open(), vdev_raidz_open() and vdev_draid_calculate_asize() take the smallest
    // child's asize; what larger children hold beyond it is the mixed-size waste.
    const std::uint64_t smallest = *std::min_element(leaf.begin(), leaf.end());
    for (auto l : leaf)
        v.mixed += l - smallest;
    LB_TRY(g, vdevGeometry(in, smallest, width));
    v.spare = g.spare;
    const Metaslabs ms = metaslabs(in, g);
    v.poolSize = ms.total;
    v.allocatable = ms.total * g.rawFactor;

    // vdev_set_deflate_ratio(): 2^17 over the 512-byte units a 128 KiB block allocates at the
    // width the vdev was created with (vdev_psize_to_asize_txg at txg 0), per copy.
    const auto shape128 =
        zfsBlock(in.kind, zfsDeflateBlock, g.createdWidth, in.ashift, g.draidData);
    const std::uint64_t deflateRatio =
        zfsDeflateBlock / ((shape128.alloc / g.rawFactor) >> zfsMinBlockShift);
    // A vdev of more than zfs_embedded_slog_min_ms metaslabs gives its emptiest one (the first,
    // on a new pool) to the embedded log class (the ZIL); it leaves the normal class's space.
    const std::uint64_t logMs = ms.count > zfsEmbeddedSlogMinMs ? ms.first : 0;
    // vdev_deflated_space(): (space >> SPA_MINBLOCKSHIFT) * ratio.
    v.normalDspace = ((ms.total - logMs) >> zfsMinBlockShift) * deflateRatio;
    v.logDspace = (logMs >> zfsMinBlockShift) * deflateRatio;
    v.logRaw = logMs * g.rawFactor;

    v.block = zfsBlock(in.kind, in.recordsizeBytes, width, in.ashift, g.draidData);
    v.blockDsize = ((v.block.alloc / g.rawFactor) >> zfsMinBlockShift) * deflateRatio;
    return v;
}

// Linux OpenZFS given a whole disk (zpool_label_disk, libzfs_pool_os.c) writes a GPT of 128
// entries and uses partition 1: from sector 2048 (NEW_START_BLOCK) to the last usable sector
// less EFI_MIN_RESV_SIZE (16384 sectors, partition 9), aligned down to 2048 sectors
// (PARTITION_END_ALIGNMENT). Sectors are 512-byte logical sectors.
std::uint64_t zfsWholeDiskPartition(std::uint64_t diskBytes) {
    constexpr std::uint64_t gptSectors = 33; // the backup GPT: header + 128 entries of 128 bytes
    constexpr std::uint64_t startSector = 2048;
    constexpr std::uint64_t reservedSectors = 16 * 1024;
    const std::uint64_t sectors = diskBytes / sector;
    if (sectors < gptSectors + reservedSectors + startSector)
        return 0;
    return roundDown(sectors - gptSectors - reservedSectors - startSector, 2048) * sector;
}

// Leaf devices: the whole-disk partition where OpenZFS makes one; vdev_open() refuses devices
// under SPA_MINDEVSIZE and keeps the labels and boot area.
Expected<std::vector<std::uint64_t>> zfsLeaves(const CapacityInput& in,
                                               const std::vector<std::uint64_t>& part) {
    const bool wholeDisk = in.zfsWholeDiskLabel && in.underprovision >= 1.0;
    std::vector<std::uint64_t> leaf(part.size());
    for (std::size_t i = 0; i < part.size(); ++i) {
        leaf[i] = zfsLeafAsize(wholeDisk ? zfsWholeDiskPartition(part[i]) : part[i]);
        if (leaf[i] == 0)
            return badInput(diskLabel(i, part[i]) + " is below the 64 MiB a ZFS device needs" +
                            (wholeDisk && part[i] >= zfsMinDevSize
                                 ? " after the 9 MiB OpenZFS's whole-disk partitioning takes"
                                 : ""));
    }
    return leaf;
}

// The pool's vdevs added up; `last` is any one of them (every vdev of a kind has the same
// width, hence the same record shape).
Expected<VdevSpace> zfsPoolSpace(const CapacityInput& in, const std::vector<std::uint64_t>& leaf,
                                 VdevSpace& last) {
    VdevSpace pool;
    for (const auto& members : zfsVdevMembers(in, leaf.size())) {
        std::vector<std::uint64_t> leaves;
        for (auto m : members)
            leaves.push_back(leaf[m]);
        LB_TRY(v, zfsVdevSpace(in, leaves));
        pool.allocatable += v.allocatable;
        pool.logRaw += v.logRaw;
        pool.normalDspace += v.normalDspace;
        pool.logDspace += v.logDspace;
        pool.spare += v.spare;
        pool.mixed += v.mixed;
        pool.poolSize += v.poolSize;
        last = v;
    }
    return pool;
}

Expected<Breakdown> zfsBreakdown(const CapacityInput& in, const std::vector<std::uint64_t>& part) {
    LB_TRY(leaf, zfsLeaves(in, part));
    VdevSpace last;
    LB_TRY(pool, zfsPoolSpace(in, leaf, last));
    const BlockShape& block = last.block;
    const std::uint64_t allocatable = pool.allocatable;
    Breakdown b;
    b.mixed = pool.mixed;
    b.poolSize = pool.poolSize;
    // The allocatable space filled with records of recordsize: data, parity, padding in the
    // proportions of one record. Padding takes the rounding so the three add up exactly -- but
    // a record with no padding sector has none: the byte or two the floors leave is rounding,
    // counted with the reserve (a "1 B" of padding was an artefact, issue 41).
    b.data = mulDiv(allocatable, block.data, block.alloc);
    b.parity = mulDiv(allocatable, block.parity, block.alloc);
    const std::uint64_t rounding = allocatable - b.data - b.parity;
    const bool padded = block.data + block.parity < block.alloc;
    b.padding = padded ? rounding : 0;
    b.efficiency = static_cast<double>(block.data) / static_cast<double>(block.alloc);
    b.spare = pool.spare;
    // Labels, boot area, GPT, expansion reserve, row and metaslab rounding: the rest.
    std::uint64_t partitioned = 0;
    for (auto p : part)
        partitioned += p;
    b.reserved = partitioned - b.mixed - pool.spare - allocatable + (padded ? 0 : rounding);

    // What the pool offers, as OpenZFS computes it: the normal class's deflated space
    // (spa_dspace, which counts every vdev as if it held 128 KiB blocks, at a deflate ratio
    // truncated to 1/512) less spa_get_slop_space(). `zfs list` shows exactly that as used +
    // avail of a new pool. At another record size each record is charged its deflated size
    // (blockDsize), so the deflated bytes hold blockData / blockDsize bytes of records -- but
    // never more than one byte per deflated byte: where a record is charged less than its size
    // (the truncated ratio, 128K records on RAIDZ, new records after a RAIDZ expansion) the pool
    // still shows, and promises, only the deflated figure. The embedded log metaslabs join the
    // slop, as the records they would hold.
    const std::uint64_t charged = std::max(last.blockDsize, block.data);
    const std::uint64_t slopDspace =
        std::min(zfsSlopSpace(pool.normalDspace, pool.logDspace), pool.normalDspace);
    const std::uint64_t usable = mulDiv(pool.normalDspace - slopDspace, block.data, charged);
    const std::uint64_t slop =
        mulDiv(slopDspace, block.data, charged) + mulDiv(pool.logRaw, block.data, block.alloc);
    // Each floor is at most its share of b.data (the deflated space is the allocatable space
    // times a ratio truncated down), so what is left is the truncation itself: reserved.
    assert(usable + slop <= b.data);
    b.slop = slop;
    b.reserved += b.data - usable - slop;
    b.data = usable + slop;
    return b;
}

// ---------------------------------------------------------------------------------------------
// md (Linux software RAID, v1.2 metadata as mdadm --create writes it by default)

// Create.c: each member's free size in KiB (below the data offset, in sectors), rounded down to
// the chunk for striped levels.
Expected<std::vector<std::uint64_t>> mdFreeKiB(const std::vector<std::uint64_t>& part,
                                               std::uint64_t offset, bool striped,
                                               std::uint64_t chunkKiB) {
    std::vector<std::uint64_t> freeKiB(part.size());
    for (std::size_t i = 0; i < part.size(); ++i) {
        const std::uint64_t sectors = part[i] / sector;
        std::uint64_t kib = sectors > offset ? (sectors - offset) / 2 : 0;
        if (striped)
            kib = roundDown(kib, chunkKiB);
        if (kib == 0)
            return badInput(diskLabel(i, part[i]) + " leaves no room for data after md's " +
                            std::to_string(offset * sector) + "-byte data offset" +
                            (striped ? " and one chunk" : ""));
        freeKiB[i] = kib;
    }
    return freeKiB;
}

// The raw bytes a mirrored or parity array uses on its members, and the size of the array
// device; its efficiency and mixed-size waste in `b`.
std::pair<std::uint64_t, std::uint64_t>
mdRedundantSpace(const CapacityInput& in, const std::vector<std::uint64_t>& freeKiB, Breakdown& b) {
    const std::size_t n = freeKiB.size();
    // Create.c: the component size is the smallest member's free size; raid1 rounds it down to
    // 64 KiB "if this is ever reshaped to RAID5".
    const std::uint64_t minKiB = *std::min_element(freeKiB.begin(), freeKiB.end());
    std::uint64_t componentKiB = minKiB;
    if (in.kind == LayoutKind::MdRaid1)
        componentKiB = roundDown(componentKiB, 64);
    for (auto kib : freeKiB)
        b.mixed += (kib - minKiB) * KiB;
    const std::uint64_t component = componentKiB * KiB;
    const std::uint64_t used = component * n;
    switch (in.kind) {
    case LayoutKind::MdRaid1: // every member a full copy
        b.efficiency = 1.0 / static_cast<double>(n);
        return {used, component};
    case LayoutKind::MdRaid10: // near=2: two copies of every chunk
        b.efficiency = 0.5;
        return {used, component * (n / 2)};
    default: // raid5, raid6: parityOf() members' worth of parity, rotated
        b.efficiency = static_cast<double>(n - parityOf(in.kind)) / static_cast<double>(n);
        return {used, component * (n - parityOf(in.kind))};
    }
}

Expected<Breakdown> mdBreakdown(const CapacityInput& in, const std::vector<std::uint64_t>& part) {
    const bool striped = in.kind != LayoutKind::MdRaid1;
    // Create.c zeroes the chunk for raid1 ("chunk size ignored for this level").
    const std::uint64_t chunkSectors = striped ? in.mdChunkBytes / sector : 0;
    // validate_geometry1() chooses the data offset on the first member and uses it for every
    // member; the internal bitmap, superblock and bad-block log all live inside it.
    const std::uint64_t offset = mdDataOffsetSectors(part[0] / sector, chunkSectors);
    LB_TRY(freeKiB, mdFreeKiB(part, offset, striped, in.mdChunkBytes / KiB));
    Breakdown b;
    std::uint64_t used = 0;  // raw bytes the array uses on its members
    std::uint64_t array = 0; // the array device's size
    if (in.kind == LayoutKind::MdRaid0) {
        // Kernel raid0 (create_strip_zones) uses every member whole, rounded to the chunk, in
        // as many zones as there are distinct sizes: no mixed-size waste.
        for (auto kib : freeKiB)
            used += kib * KiB;
        array = used;
        b.efficiency = 1.0;
    } else {
        std::tie(used, array) = mdRedundantSpace(in, freeKiB, b);
    }
    std::uint64_t partitioned = 0;
    for (auto p : part)
        partitioned += p;
    b.data = array;
    b.parity = used - array;
    b.reserved = partitioned - used - b.mixed;
    return b;
}

void setFaultTolerance(Capacity& c, const CapacityInput& in) {
    const LayoutKind kind = in.kind;
    const auto disks = static_cast<unsigned>(in.diskBytes.size());
    if (isZfs(kind) && kind != LayoutKind::ZfsStripe && kind != LayoutKind::ZfsRaid10 &&
        in.vdevs > 1) {
        // Several vdevs: any one lost loses the pool; at best each loses its own tolerance.
        CapacityInput one = in;
        one.vdevs = 1;
        one.diskBytes.resize(disks / in.vdevs);
        setFaultTolerance(c, one);
        c.faultToleranceBest *= in.vdevs;
        return;
    }
    if (isDraid(kind)) {
        c.faultTolerance = parityOf(kind);
        c.faultToleranceBest = parityOf(kind) + in.draid.spares;
        return;
    }
    switch (kind) {
    case LayoutKind::MdRaid1:
    case LayoutKind::ZfsMirror: // any N-1 of N copies may go
        c.faultTolerance = c.faultToleranceBest = disks - 1;
        break;
    case LayoutKind::MdRaid10:
    case LayoutKind::ZfsRaid10: // both halves of one pair lose data; one per pair survives
        c.faultTolerance = 1;
        c.faultToleranceBest = disks / 2;
        break;
    default: // raid0/stripe 0; raid5/raidz1 1; raid6/raidz2 2; raidz3 3
        c.faultTolerance = c.faultToleranceBest = parityOf(kind);
        break;
    }
}

Expected<Breakdown> breakdown(const CapacityInput& in, const std::vector<std::uint64_t>& part) {
    return isZfs(in.kind) ? zfsBreakdown(in, part) : mdBreakdown(in, part);
}

// The special class (metadata and small blocks): a top-level vdev of its own, a mirror of its
// disks or one device, with its own labels, metaslab size and rounding. `zpool list` counts its
// metaslabs in SIZE; OpenZFS's available space (spa_dspace, hence `zfs list` used + avail and
// the slop taken from it) is the normal class's alone, so its space is said apart, not added to
// usable. The layout tolerates the least of its data vdevs' failures and the special mirror's.
Expected<void> addSpecialClass(Capacity& c, const CapacityInput& in) {
    if (in.specialDiskBytes.empty())
        return {};
    if (!isZfs(in.kind))
        return badInput("special: only a ZFS pool has a special vdev, not " +
                        std::string(layoutKindName(in.kind)));
    CapacityInput special;
    special.kind = in.specialDiskBytes.size() == 1 ? LayoutKind::ZfsStripe : LayoutKind::ZfsMirror;
    special.diskBytes = in.specialDiskBytes;
    special.recordsizeBytes = in.recordsizeBytes;
    special.ashift = in.ashift;
    special.underprovision = in.underprovision;
    special.zfsWholeDiskLabel = in.zfsWholeDiskLabel;
    auto vdev = computeCapacity(special);
    if (!vdev)
        return badInput("special: " + vdev.error().message);
    c.rawBytes += vdev->rawBytes;
    c.underprovisionedBytes += vdev->underprovisionedBytes;
    c.mixedSizeWasteBytes += vdev->mixedSizeWasteBytes;
    c.parityBytes += vdev->parityBytes;
    c.paddingBytes += vdev->paddingBytes;
    c.reservedBytes += vdev->reservedBytes;
    c.specialBytes = vdev->usableBytes + vdev->slopBytes;
    c.specialPoolSizeBytes = vdev->poolSizeBytes;
    c.poolSizeBytes += vdev->poolSizeBytes;
    c.specialFaultTolerance = vdev->faultTolerance;
    c.faultTolerance = std::min(c.faultTolerance, vdev->faultTolerance);
    c.faultToleranceBest += vdev->faultToleranceBest;
    return {};
}

} // namespace

// ---------------------------------------------------------------------------------------------

RaidzAllocation raidzAllocate(std::uint64_t blockBytes, unsigned width, unsigned parity,
                              unsigned ashift) {
    assert(blockBytes > 0 && parity >= 1 && width > parity && ashift < 64);
    // vdev_raidz_asize() (module/zfs/vdev_raidz.c), after Ahrens: the data sectors; parity
    // sectors for each row of (width - parity) data sectors; the total rounded up to a multiple
    // of parity + 1 so no free gap is too small to hold a minimal block. The round-up is padding.
    const std::uint64_t data = divRoundUp(blockBytes, 1ULL << ashift);
    const std::uint64_t paritySectors = parity * divRoundUp(data, width - parity);
    const std::uint64_t total = roundUp(data + paritySectors, parity + 1ULL);
    return {data, paritySectors, total - data - paritySectors};
}

double raidzEfficiency(std::uint64_t blockBytes, unsigned width, unsigned parity, unsigned ashift) {
    const auto a = raidzAllocate(blockBytes, width, parity, ashift);
    const std::uint64_t allocated = (a.dataSectors + a.paritySectors + a.paddingSectors) << ashift;
    return static_cast<double>(blockBytes) / static_cast<double>(allocated);
}

std::uint64_t zfsLeafAsize(std::uint64_t deviceBytes) {
    // vdev_open() (module/zfs/vdev.c): a leaf's size is aligned down to sizeof(vdev_label_t),
    // must be at least SPA_MINDEVSIZE, and loses VDEV_LABEL_START_SIZE + VDEV_LABEL_END_SIZE.
    const std::uint64_t osize = roundDown(deviceBytes, zfsLabelSize);
    if (osize < zfsMinDevSize)
        return 0;
    return osize - zfsLabelStartSize - zfsLabelEndSize;
}

unsigned zfsMetaslabShift(std::uint64_t asize) {
    // vdev_metaslab_set_size() (module/zfs/vdev.c): aim for 200 metaslabs of at least 512 MiB;
    // at least 16 metaslabs on small vdevs; metaslabs between 16 MiB and 16 GiB; and no more than
    // 2^17 metaslabs, which only matters past 2 PiB.
    const std::uint64_t count = asize >> zfsDefaultMsShift;
    unsigned shift = zfsDefaultMsShift;
    if (count < zfsMinMsCount)
        shift = highbit64(asize / zfsMinMsCount);
    else if (count > zfsDefaultMsCount)
        shift = highbit64(asize / zfsDefaultMsCount);
    if (shift < zfsMaxBlockShift) {
        shift = zfsMaxBlockShift;
    } else if (shift > zfsMaxMsShift) {
        shift = zfsMaxMsShift;
        if ((asize >> shift) > zfsMsCountLimit)
            shift = highbit64(asize / zfsMsCountLimit);
    }
    return shift;
}

std::uint64_t zfsSlopSpace(std::uint64_t normalDeflatedBytes,
                           std::uint64_t embeddedLogDeflatedBytes) {
    // spa_get_slop_space() (module/zfs/spa_misc.c, OpenZFS 2.1 and later): 1/32 of the normal
    // class's deflated space, at most spa_max_slop; less the embedded log space, by at most
    // half; then at least spa_min_slop, but never more than half the pool.
    const std::uint64_t space = normalDeflatedBytes;
    std::uint64_t slop = std::min(space >> zfsSlopShift, zfsMaxSlop);
    slop -= std::min(embeddedLogDeflatedBytes, slop >> 1);
    return std::max(slop, std::min(space >> 1, zfsMinSlop));
}

std::uint64_t mdDataOffsetSectors(std::uint64_t deviceSectors, std::uint64_t chunkSectors) {
    // choose_bm_space() (super1.c): room for the internal write-intent bitmap: 128 KiB past
    // 200 GiB, 64 KiB past 8 GiB, else 4 KiB; none below 64 KiB.
    std::uint64_t bitmap = 0;
    if (deviceSectors >= 64 * 2) {
        if (deviceSectors - 64 * 2 >= 200ULL * 1024 * 1024 * 2)
            bitmap = 128 * 2;
        else if (deviceSectors - 4 * 2 > 8ULL * 1024 * 1024 * 2)
            bitmap = 64 * 2;
        else
            bitmap = 4 * 2;
    }
    // validate_geometry1() (super1.c), metadata 1.1/1.2: reshape headroom of 128 MiB, halved
    // while it exceeds about 0.1 % of the device, but (for striped levels) not below two chunks;
    // data offset = 12 KiB + bitmap + headroom, rounded up to 1 MiB.
    std::uint64_t headroom = mdMaxHeadroom;
    while ((headroom << 10) > deviceSectors &&
           (chunkSectors == 0 || headroom / 2 >= chunkSectors * 2))
        headroom >>= 1;
    return roundUp(mdSuperblockArea + bitmap + headroom, mdOffsetAlign);
}

Expected<Capacity> computeCapacity(const CapacityInput& in) {
    if (in.poolOnArray) {
        CapacityInput array = in;
        array.poolOnArray = false;
        return computeZfsOnMdCapacity(array, array);
    }
    if (auto ok = validate(in); !ok)
        return fail(ok.error());

    Capacity c;
    std::vector<std::uint64_t> part;
    for (auto disk : in.diskBytes) {
        c.rawBytes += disk;
        part.push_back(partitionedSize(disk, in.underprovision));
        c.underprovisionedBytes += disk - part.back();
    }

    auto b = breakdown(in, part);
    if (!b) {
        // Blame underprovisioning only when the whole disks would have been big enough.
        const bool wholeDisksFit = in.underprovision < 1.0 && breakdown(in, in.diskBytes);
        return badInput((wholeDisksFit ? "underprovision: " : "disk-size: ") + b.error().message);
    }
    c.usableBytes = b->data - b->slop;
    c.dataEfficiency = b->efficiency;
    c.parityBytes = b->parity;
    c.paddingBytes = b->padding;
    c.slopBytes = b->slop;
    c.mixedSizeWasteBytes = b->mixed;
    c.reservedBytes = b->reserved;
    c.spareBytes = b->spare;
    c.poolSizeBytes = b->poolSize;
    setFaultTolerance(c, in);
    LB_TRY_VOID(addSpecialClass(c, in));

    assert(c.usableBytes + c.slopBytes + c.parityBytes + c.paddingBytes + c.reservedBytes +
               c.underprovisionedBytes + c.mixedSizeWasteBytes + c.spareBytes + c.specialBytes ==
           c.rawBytes);
    return c;
}

} // namespace lb
