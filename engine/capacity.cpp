// The capacity model. Every rule below names the OpenZFS or mdadm source it reproduces, so a
// disagreement with a real pool or array can be traced to the rule (or the version) that differs.
// Byte counts are exact: 64-bit integers, with a 128-bit intermediate where a product could
// overflow. Floating point only produces dataEfficiency, never a byte count.
#include "engine/capacity.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>
#include <string>

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
    double efficiency = 0;
};

bool isPowerOfTwo(std::uint64_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

std::string diskLabel(std::size_t index, std::uint64_t bytes) {
    return "disk " + std::to_string(index + 1) + " (" + std::to_string(bytes) + " bytes)";
}

Expected<void> validate(const CapacityInput& in) {
    const std::string kindName(layoutKindName(in.kind));
    if (in.kind == LayoutKind::Dir)
        return badInput("kind: dir has no capacity model (it uses space on an existing "
                        "filesystem); choose a disk layout");
    if (in.kind == LayoutKind::Guest)
        return badInput("kind: guest has no capacity model of its own; compute the capacity "
                        "of its inner layout");
    const auto count = in.diskBytes.size();
    const unsigned needed = minimumDisks(in.kind);
    if (count < needed)
        return badInput("disks: " + kindName + " needs at least " + std::to_string(needed) +
                        " disks, got " + std::to_string(count));
    if ((in.kind == LayoutKind::MdRaid10 || in.kind == LayoutKind::ZfsRaid10) && count % 2 != 0)
        return badInput("disks: " + kindName +
                        " needs an even number of disks (pairs of "
                        "mirrors), got " +
                        std::to_string(count));
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

BlockShape zfsBlock(LayoutKind kind, std::uint64_t blockBytes, unsigned width, unsigned ashift) {
    const std::uint64_t sectorBytes = 1ULL << ashift;
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

Expected<Breakdown> zfsBreakdown(const CapacityInput& in, const std::vector<std::uint64_t>& part) {
    const std::size_t n = part.size();

    // Leaf devices: vdev_open() refuses devices under SPA_MINDEVSIZE and keeps the labels.
    std::vector<std::uint64_t> leaf(n);
    Breakdown b;
    for (std::size_t i = 0; i < n; ++i) {
        leaf[i] = zfsLeafAsize(part[i]);
        if (leaf[i] == 0)
            return badInput(diskLabel(i, part[i]) + " is below the 64 MiB a ZFS device needs");
        b.reserved += part[i] - leaf[i];
    }

    // Top-level vdevs, with the members of each in the given order.
    std::vector<std::vector<std::size_t>> vdevs;
    switch (in.kind) {
    case LayoutKind::ZfsStripe:
        for (std::size_t i = 0; i < n; ++i)
            vdevs.push_back({i});
        break;
    case LayoutKind::ZfsRaid10:
        for (std::size_t i = 0; i + 1 < n; i += 2)
            vdevs.push_back({i, i + 1});
        break;
    default: // one mirror or one RAIDZ vdev of every disk
        vdevs.emplace_back();
        for (std::size_t i = 0; i < n; ++i)
            vdevs.back().push_back(i);
        break;
    }

    const bool raidz = parityOf(in.kind) > 0;
    std::uint64_t allocatable = 0;  // raw bytes inside whole metaslabs
    std::uint64_t logRaw = 0;       // raw bytes of the embedded ZIL metaslabs
    std::uint64_t normalDspace = 0; // deflated space of the normal class
    std::uint64_t logDspace = 0;    // deflated space of the embedded log class
    std::uint64_t blockData = 0;    // one record: data bytes ...
    std::uint64_t blockParity = 0;  // ... parity bytes ...
    std::uint64_t blockAlloc = 1;   // ... and all bytes it allocates ...
    std::uint64_t blockDsize = 1;   // ... and the deflated space it is charged
    for (const auto& members : vdevs) {
        const auto width = static_cast<unsigned>(members.size());
        // vdev_mirror_open() and vdev_raidz_open() take the smallest child's asize; a RAIDZ
        // vdev's asize is that times the number of children. Whatever larger children hold
        // beyond it is the mixed-size waste.
        std::uint64_t smallest = leaf[members.front()];
        for (auto m : members)
            smallest = std::min(smallest, leaf[m]);
        for (auto m : members)
            b.mixed += leaf[m] - smallest;
        const std::uint64_t asize = raidz ? smallest * width : smallest;
        // Raw bytes per byte of vdev asize: a mirror's asize is one child, a RAIDZ asize is
        // already raw (parity included), a single disk is itself.
        const std::uint64_t rawFactor = raidz ? 1 : width;

        // vdev_metaslab_init(): only whole metaslabs are allocatable; the tail is lost.
        const unsigned shift = zfsMetaslabShift(asize);
        const std::uint64_t msCount = asize >> shift;
        const std::uint64_t msBytes = 1ULL << shift;
        allocatable += msCount * msBytes * rawFactor;
        b.reserved += (asize - msCount * msBytes) * rawFactor;

        // vdev_set_deflate_ratio(): 2^17 over the 512-byte units a 128 KiB block allocates.
        // vdev_psize_to_asize() is per vdev: one copy on a mirror, hence the division.
        const auto shape128 = zfsBlock(in.kind, zfsDeflateBlock, width, in.ashift);
        const std::uint64_t deflateRatio =
            zfsDeflateBlock / ((shape128.alloc / rawFactor) >> zfsMinBlockShift);
        // vdev_deflated_space(): (space >> SPA_MINBLOCKSHIFT) * ratio, metaslab by metaslab.
        const std::uint64_t msDspace = (msBytes >> zfsMinBlockShift) * deflateRatio;
        // vdev_metaslab_init(): a vdev with more than zfs_embedded_slog_min_ms metaslabs gives
        // one to the embedded log class (the ZIL); it leaves the normal class's space.
        const std::uint64_t logMs = msCount > zfsEmbeddedSlogMinMs ? 1 : 0;
        normalDspace += (msCount - logMs) * msDspace;
        logDspace += logMs * msDspace;
        logRaw += logMs * msBytes * rawFactor;

        const auto shape = zfsBlock(in.kind, in.recordsizeBytes, width, in.ashift);
        blockData = shape.data; // the same for every vdev of a kind
        blockParity = shape.parity;
        blockAlloc = shape.alloc;
        blockDsize = ((shape.alloc / rawFactor) >> zfsMinBlockShift) * deflateRatio;
    }

    // The allocatable space filled with records of recordsize: data, parity, padding in the
    // proportions of one record. Padding takes the rounding so the three add up exactly.
    b.data = mulDiv(allocatable, blockData, blockAlloc);
    b.parity = mulDiv(allocatable, blockParity, blockAlloc);
    b.padding = allocatable - b.data - b.parity;
    b.efficiency = static_cast<double>(blockData) / static_cast<double>(blockAlloc);

    // usable = allocatable * efficiency - slop, with the slop computed as OpenZFS does: from
    // the deflated space of the normal class (spa_dspace, which counts every vdev as if it held
    // 128 KiB blocks) by spa_get_slop_space(). It is then converted to data at the chosen record
    // size the way ZFS charges writes: each record costs its deflated size (blockDsize), so a
    // deflated byte of slop keeps blockData / blockDsize bytes of records out. At 128K records
    // that is 1:1 up to the deflate ratio's rounding; at small records on wide sectors it keeps
    // the slop in proportion instead of letting it swallow the pool. The embedded log
    // metaslabs join the slop, as the data they would hold at this record size.
    const std::uint64_t slop =
        mulDiv(zfsSlopSpace(normalDspace, logDspace), blockData, blockDsize) +
        mulDiv(logRaw, blockData, blockAlloc);
    b.slop = std::min(slop, b.data); // cannot bind: the slop is at most the normal class
    return b;
}

// ---------------------------------------------------------------------------------------------
// md (Linux software RAID, v1.2 metadata as mdadm --create writes it by default)

Expected<Breakdown> mdBreakdown(const CapacityInput& in, const std::vector<std::uint64_t>& part) {
    const std::size_t n = part.size();
    const bool striped = in.kind != LayoutKind::MdRaid1;
    // Create.c zeroes the chunk for raid1 ("chunk size ignored for this level").
    const std::uint64_t chunkSectors = striped ? in.mdChunkBytes / sector : 0;
    const std::uint64_t chunkKiB = in.mdChunkBytes / KiB;

    // validate_geometry1() chooses the data offset on the first member and uses it for every
    // member; the internal bitmap, superblock and bad-block log all live inside it.
    const std::uint64_t offset = mdDataOffsetSectors(part[0] / sector, chunkSectors);

    // Create.c: each member's free size in KiB (below the data offset), rounded down to the
    // chunk for striped levels.
    std::vector<std::uint64_t> freeKiB(n);
    for (std::size_t i = 0; i < n; ++i) {
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
        // Create.c: the component size is the smallest member's free size; raid1 rounds it
        // down to 64 KiB "if this is ever reshaped to RAID5".
        const std::uint64_t minKiB = *std::min_element(freeKiB.begin(), freeKiB.end());
        std::uint64_t componentKiB = minKiB;
        if (in.kind == LayoutKind::MdRaid1)
            componentKiB = roundDown(componentKiB, 64);
        for (auto kib : freeKiB)
            b.mixed += (kib - minKiB) * KiB;
        const std::uint64_t component = componentKiB * KiB;
        used = component * n;
        switch (in.kind) {
        case LayoutKind::MdRaid1: // every member a full copy
            array = component;
            b.efficiency = 1.0 / static_cast<double>(n);
            break;
        case LayoutKind::MdRaid10: // near=2: two copies of every chunk
            array = component * (n / 2);
            b.efficiency = 0.5;
            break;
        default: // raid5, raid6: parityOf() members' worth of parity, rotated
            array = component * (n - parityOf(in.kind));
            b.efficiency = static_cast<double>(n - parityOf(in.kind)) / static_cast<double>(n);
            break;
        }
    }
    std::uint64_t partitioned = 0;
    for (auto p : part)
        partitioned += p;
    b.data = array;
    b.parity = used - array;
    b.reserved = partitioned - used - b.mixed;
    return b;
}

void setFaultTolerance(Capacity& c, LayoutKind kind, unsigned disks) {
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
    setFaultTolerance(c, in.kind, static_cast<unsigned>(in.diskBytes.size()));

    assert(c.usableBytes + c.slopBytes + c.parityBytes + c.paddingBytes + c.reservedBytes +
               c.underprovisionedBytes + c.mixedSizeWasteBytes ==
           c.rawBytes);
    return c;
}

Expected<Capacity> computeZfsOnMdCapacity(const CapacityInput& md, const CapacityInput& zfs) {
    if (!isMd(md.kind))
        return badInput("kind: " + std::string(layoutKindName(md.kind)) +
                        " is not an md kind to put a pool on");
    CapacityInput bare = md;
    bare.poolOnArray = false;
    auto array = computeCapacity(bare);
    if (!array)
        return array;
    CapacityInput pool = zfs;
    pool.poolOnArray = false;
    pool.kind = LayoutKind::ZfsStripe;
    pool.diskBytes = {array->usableBytes};
    pool.underprovision = 1.0;
    auto top = computeCapacity(pool);
    if (!top)
        return top;
    Capacity c = *array;
    c.usableBytes = top->usableBytes;
    c.slopBytes = top->slopBytes;
    c.paddingBytes = top->paddingBytes;
    c.reservedBytes = array->reservedBytes + top->reservedBytes;
    c.dataEfficiency = array->dataEfficiency * top->dataEfficiency;
    return c;
}

} // namespace lb
