// Unit tests for the capacity model: the RAIDZ allocation rule, each ZFS and md rule on its own,
// worked examples checked against values computed by hand, bad input, and the invariant that
// every raw byte is accounted for exactly once.
#include "engine/capacity/capacity.h"
#include "reports/report_data.h"

#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lb {
namespace {

constexpr std::uint64_t GB = 1000ULL * 1000 * 1000; // drives are sold in decimal units
constexpr std::uint64_t TB = 1000 * GB;

// The devices as ZFS takes them (no whole-disk partitioning), so the worked examples show the
// vdev rules alone; the tests of the whole-disk partition say so.
CapacityInput input(LayoutKind kind, std::vector<std::uint64_t> disks) {
    CapacityInput in;
    in.kind = kind;
    in.diskBytes = std::move(disks);
    in.zfsWholeDiskLabel = false;
    return in;
}

Capacity compute(const CapacityInput& in) {
    auto result = computeCapacity(in);
    EXPECT_TRUE(result.has_value()) << result.error().message;
    return result ? *result : Capacity{};
}

std::uint64_t sumOfParts(const Capacity& c) {
    return c.usableBytes + c.slopBytes + c.parityBytes + c.paddingBytes + c.reservedBytes +
           c.underprovisionedBytes + c.mixedSizeWasteBytes + c.spareBytes;
}

// ---------------------------------------------------------------------------------------------
// RAIDZ: d = ceil(block / sector); parity = p * ceil(d / (width - p));
// total = roundup(d + parity, p + 1); padding = total - d - parity; efficiency = block / total.

struct RaidzRow {
    const char* what;
    std::uint64_t block;
    unsigned width, parity, ashift;
    RaidzAllocation expected;
    double efficiency;
};

const RaidzRow raidzRows[] = {
    // d = 1; parity = 1 * ceil(1/2) = 1; 2 is even: no padding. 4K of 8K.
    {"raidz1 w3 4K", 4 * KiB, 3, 1, 12, {1, 1, 0}, 1.0 / 2.0},
    // d = 32; parity = ceil(32/2) = 16; 48 is even: no padding. 32/48.
    {"raidz1 w3 128K", 128 * KiB, 3, 1, 12, {32, 16, 0}, 32.0 / 48.0},
    // d = 2; parity = ceil(2/2) = 1; 3 -> 4: one padding sector. 2/4.
    {"raidz1 w3 8K", 8 * KiB, 3, 1, 12, {2, 1, 1}, 2.0 / 4.0},
    // Record smaller than a sector: d = 1, parity 1, total 2; 512 bytes of 8192 allocated.
    {"raidz1 w3 512 on 4K sectors", 512, 3, 1, 12, {1, 1, 0}, 512.0 / 8192.0},
    // d = 32; parity = ceil(32/3) = 11; 43 -> 44: one padding sector. 32/44.
    {"raidz1 w4 128K", 128 * KiB, 4, 1, 12, {32, 11, 1}, 32.0 / 44.0},
    // d = 32; parity = ceil(32/4) = 8; 40 is even. 32/40.
    {"raidz1 w5 128K", 128 * KiB, 5, 1, 12, {32, 8, 0}, 32.0 / 40.0},
    // d = 32; parity = 2 * ceil(32/3) = 22; 54 is a multiple of 3. 32/54.
    {"raidz2 w5 128K", 128 * KiB, 5, 2, 12, {32, 22, 0}, 32.0 / 54.0},
    // d = 4; parity = 2 * ceil(4/4) = 2; 6 is a multiple of 3. 4/6.
    {"raidz2 w6 16K", 16 * KiB, 6, 2, 12, {4, 2, 0}, 4.0 / 6.0},
    // d = 32; parity = 2 * ceil(32/4) = 16; 48 is a multiple of 3. 32/48.
    {"raidz2 w6 128K", 128 * KiB, 6, 2, 12, {32, 16, 0}, 32.0 / 48.0},
    // 512-byte sectors: d = 256; parity = 2 * ceil(256/4) = 128; 384 = 3 * 128. 256/384.
    {"raidz2 w6 128K ashift 9", 128 * KiB, 6, 2, 9, {256, 128, 0}, 256.0 / 384.0},
    // d = 32; parity = 2 * ceil(32/8) = 8; 40 -> 42: two padding sectors. 32/42.
    {"raidz2 w10 128K", 128 * KiB, 10, 2, 12, {32, 8, 2}, 32.0 / 42.0},
    // d = 256; parity = 2 * ceil(256/8) = 64; 320 -> 321: one padding sector. 256/321.
    {"raidz2 w10 1M", MiB, 10, 2, 12, {256, 64, 1}, 256.0 / 321.0},
    // d = 1; parity = 3 * ceil(1/5) = 3; 4 is a multiple of 4. 1/4.
    {"raidz3 w8 4K", 4 * KiB, 8, 3, 12, {1, 3, 0}, 1.0 / 4.0},
    // d = 32; parity = 3 * ceil(32/5) = 21; 53 -> 56: three padding sectors. 32/56.
    {"raidz3 w8 128K", 128 * KiB, 8, 3, 12, {32, 21, 3}, 32.0 / 56.0},
};

TEST(RaidzAllocation, MatchesTheRuleWorkedByHand) {
    for (const auto& row : raidzRows) {
        SCOPED_TRACE(row.what);
        EXPECT_EQ(raidzAllocate(row.block, row.width, row.parity, row.ashift), row.expected);
        EXPECT_DOUBLE_EQ(raidzEfficiency(row.block, row.width, row.parity, row.ashift),
                         row.efficiency);
    }
}

TEST(RaidzAllocation, TableHasRowsWithAndWithoutPadding) {
    bool padded = false, unpadded = false;
    for (const auto& row : raidzRows)
        (row.expected.paddingSectors > 0 ? padded : unpadded) = true;
    EXPECT_TRUE(padded);
    EXPECT_TRUE(unpadded);
}

// ---------------------------------------------------------------------------------------------
// ZFS pieces

TEST(ZfsLeaf, LabelsAndAlignment) {
    // 500 GB: 500e9 / 256 KiB = 1907348.63 -> 1907348 * 262144 = 499999834112; less 4.5 MiB.
    EXPECT_EQ(zfsLeafAsize(500 * GB), 499999834112ULL - 4718592);
    EXPECT_EQ(zfsLeafAsize(64 * MiB), 64 * MiB - 4 * MiB - 512 * KiB);
    EXPECT_EQ(zfsLeafAsize(64 * MiB + 256 * KiB - 1), 64 * MiB - 4 * MiB - 512 * KiB);
    EXPECT_EQ(zfsLeafAsize(64 * MiB - 1), 0U); // below SPA_MINDEVSIZE once aligned
}

TEST(ZfsMetaslab, ShiftFollowsVdevMetaslabSetSize) {
    struct Row {
        std::uint64_t asize;
        unsigned shift;
    };
    const Row rows[] = {
        // Under 16 metaslabs of 512 MiB: highbit(59.5M / 16 = 3.7M) = 22, raised to 24 (16 MiB).
        {64 * MiB - 4 * MiB - 512 * KiB, 24},
        // 1019.5 MiB: highbit(63.7 MiB) = 26, 64 MiB metaslabs.
        {GiB - 4 * MiB - 512 * KiB, 26},
        // 16 to 200 metaslabs of 512 MiB: keep 512 MiB.
        {20 * GiB - 4 * MiB - 512 * KiB, 29},
        {100 * GiB, 29}, // exactly 200
        // 200 GiB: 400 > 200, highbit(1 GiB) = 31.
        {200 * GiB, 31},
        // The seed raidz2 (10 x 499995115520): highbit(25 GB) = 35, capped to 34 (16 GiB).
        {4999951155200ULL, 34},
        // 3 PiB: capped to 34 would give 196608 > 2^17 metaslabs: highbit(3 * 2^33) = 35.
        {3 * 1024 * TiB, 35},
    };
    for (const auto& row : rows)
        EXPECT_EQ(zfsMetaslabShift(row.asize), row.shift) << row.asize;
}

TEST(ZfsSlop, EachClamp) {
    // Floor: 960 MiB / 32 = 30 MiB < 128 MiB, and half the pool (480 MiB) allows 128 MiB.
    EXPECT_EQ(zfsSlopSpace(960 * MiB), 128 * MiB);
    // Half-pool cap: 192 MiB / 32 = 6 MiB; the floor would be 128 MiB but half is 96 MiB.
    EXPECT_EQ(zfsSlopSpace(192 * MiB), 96 * MiB);
    // In between: 19.5 GiB / 32 = 624 MiB.
    EXPECT_EQ(zfsSlopSpace(19 * GiB + 512 * MiB), 624 * MiB);
    // Ceiling: 8 TiB / 32 = 256 GiB, capped at 128 GiB.
    EXPECT_EQ(zfsSlopSpace(8 * TiB), 128 * GiB);
    // Embedded log below half the slop comes off whole: 128 GiB - 16 GiB.
    EXPECT_EQ(zfsSlopSpace(8 * TiB, 16 * GiB), 112 * GiB);
    // ... above half comes off by half: 640 GiB / 32 = 20 GiB, less min(16, 10) GiB.
    EXPECT_EQ(zfsSlopSpace(640 * GiB, 16 * GiB), 10 * GiB);
    // ... and the floor still applies after: 160 MiB - 80 MiB, raised to 128 MiB.
    EXPECT_EQ(zfsSlopSpace(5 * GiB, 100 * MiB), 128 * MiB);
}

// A single-disk stripe makes the slop arithmetic visible: efficiency 1, one vdev.
TEST(ZfsSlop, ThroughComputeCapacity) {
    {
        // 1 GiB: leaf 1019.5 MiB; 64 MiB metaslabs, 15 of them = 960 MiB. Slop at the
        // 128 MiB floor. Reserved: 4.5 MiB labels + 59.5 MiB partial metaslab = 64 MiB.
        const auto c = compute(input(LayoutKind::ZfsStripe, {GiB}));
        EXPECT_EQ(c.slopBytes, 128 * MiB);
        EXPECT_EQ(c.usableBytes, 832 * MiB);
        EXPECT_EQ(c.reservedBytes, 64 * MiB);
    }
    {
        // 200 MiB: leaf 195.5 MiB; 16 MiB metaslabs, 12 = 192 MiB. Half-pool cap: 96 MiB.
        const auto c = compute(input(LayoutKind::ZfsStripe, {200 * MiB}));
        EXPECT_EQ(c.slopBytes, 96 * MiB);
        EXPECT_EQ(c.usableBytes, 96 * MiB);
        EXPECT_EQ(c.reservedBytes, 8 * MiB);
    }
    {
        // 20 GiB: leaf 20 GiB - 4.5 MiB; 39 metaslabs of 512 MiB = 19.5 GiB, no embedded log
        // (39 <= 64). Slop 1/32 = 624 MiB.
        const auto c = compute(input(LayoutKind::ZfsStripe, {20 * GiB}));
        EXPECT_EQ(c.slopBytes, 624 * MiB);
        EXPECT_EQ(c.usableBytes, 19 * GiB + 512 * MiB - 624 * MiB);
        EXPECT_EQ(c.reservedBytes, 512 * MiB);
    }
    {
        // 10 TB: 16 GiB metaslabs, 582 of them, one the embedded log.
        // Slop proper min(581 * 16 GiB / 32, 128 GiB) - 16 GiB = 112 GiB; with the log
        // metaslab that makes the 128 GiB ceiling.
        const auto c = compute(input(LayoutKind::ZfsStripe, {10 * TB}));
        EXPECT_EQ(c.slopBytes, 128 * GiB);
        EXPECT_EQ(c.rawBytes, sumOfParts(c));
    }
}

// ---------------------------------------------------------------------------------------------
// The seed example: zfs-raidz2, 10 x 500 GB, recordsize 128K, ashift 12, whole disks.

TEST(Capacity, SeedExampleRaidz2TenByFiveHundredGB) {
    // Whole disks on Linux: zpool writes a GPT and uses partition 1. 500e9 bytes = 976562500
    // sectors, less the backup GPT (33), partition 9 (16384) and the 2048-sector start:
    // 976544035, aligned down to 2048: 976543744 sectors = 499990396928 bytes. Aligned down to
    // 256 KiB = 499990265856; less 4 MiB front labels and boot area and 512 KiB back labels:
    // leaf asize 499985547264.
    // Vdev asize = 10 * 499985547264 = 4999855472640. Metaslabs: asize >> 29 = 9313 > 200,
    // highbit(asize / 200) = 35, capped to 34: 16 GiB metaslabs, asize >> 34 = 291 of them.
    // Allocatable = 291 * 2^34 = 4999341932544; everything before it on the disks (GPT,
    // partition 9, labels, the metaslab tail) is 658067456 bytes.
    //
    // A 128K record: d = 32, parity = 2 * ceil(32/8) = 8, 40 -> 42, padding 2 sectors.
    // data = 4999341932544 * 32/42 = 3809022424795 (floor)
    // parity = 4999341932544 * 8/42 = 952255606198 (floor)
    // padding = the rest = 238063901551
    //
    // What zfs list shows: deflate ratio = 131072 / (42 * 4096 / 512 = 336) = 390 (truncated
    // from 390.1). 291 > 64 metaslabs, so one goes to the embedded log: normal dspace =
    // 290 * 2^25 * 390 = 3795006259200. Slop proper = min(3795006259200 >> 5 = 118593945600,
    // 128 GiB) - min(log dspace 13086228480, half) = 105507717120.
    // usable = 3795006259200 - 105507717120 = 3689498542080 (about 3.36 TiB): a 128K record is
    // charged 336 * 390 = 131040 deflated bytes, less than its size, so the pool shows (and
    // promises) the deflated figure. slopBytes = 105507717120 + the log metaslab's records,
    // 2^34 * 32/42 = 13089424140: 118597141260. The truncated ratio's share of the data,
    // 3809022424795 - 3689498542080 - 118597141260 = 926741455, joins reserved: 1584808911.
    Capacity expected;
    expected.rawBytes = 5000 * GB;
    expected.usableBytes = 3689498542080ULL;
    expected.dataEfficiency = 32.0 / 42.0;
    expected.faultTolerance = 2;
    expected.faultToleranceBest = 2;
    expected.parityBytes = 952255606198ULL;
    expected.paddingBytes = 238063901551ULL;
    expected.slopBytes = 118597141260ULL;
    expected.underprovisionedBytes = 0;
    expected.mixedSizeWasteBytes = 0;
    expected.reservedBytes = 1584808911ULL;
    expected.poolSizeBytes = 291 * (1ULL << 34);

    CapacityInput in = input(LayoutKind::ZfsRaidz2, std::vector<std::uint64_t>(10, 500 * GB));
    in.zfsWholeDiskLabel = true;
    in.recordsizeBytes = 128 * KiB;
    in.ashift = 12;
    EXPECT_EQ(compute(in), expected);
    EXPECT_EQ(sumOfParts(expected), expected.rawBytes);
}

TEST(Capacity, MdRaid6TenByFiveHundredGB) {
    // 500e9 bytes = 976562500 sectors. mdadm: bitmap room 128 KiB (256 sectors, > 200 GiB);
    // headroom 128 MiB (262144 sectors; 262144 << 10 is below the device size); data offset
    // 24 + 256 + 262144 = 262424, rounded up to 1 MiB: 264192 sectors (129 MiB).
    // Free: (976562500 - 264192) / 2 = 488149154 KiB, down to the 512 KiB chunk: 488148992 KiB
    // = 499864567808 bytes per member. Array = 8 members' worth = 3998916542464; parity 2.
    // Reserved per disk 500e9 - 499864567808 = 135432192.
    Capacity expected;
    expected.rawBytes = 5000 * GB;
    expected.usableBytes = 3998916542464ULL;
    expected.dataEfficiency = 8.0 / 10.0;
    expected.faultTolerance = 2;
    expected.faultToleranceBest = 2;
    expected.parityBytes = 999729135616ULL;
    expected.reservedBytes = 1354321920ULL;
    EXPECT_EQ(compute(input(LayoutKind::MdRaid6, std::vector<std::uint64_t>(10, 500 * GB))),
              expected);
}

TEST(MdDataOffset, FollowsMdadmSuper1) {
    // 500 GB, 512 KiB chunk: 24 + 256 + 262144 -> 264192 (see above).
    EXPECT_EQ(mdDataOffsetSectors(976562500, 1024), 264192U);
    // 300 GB is past 200 GiB too: the same.
    EXPECT_EQ(mdDataOffsetSectors(585937500, 1024), 264192U);
    // 10 GB (19531250 sectors): bitmap 64 KiB (128); headroom halves while above 0.1 %:
    // 262144 -> 16384 (16384 << 10 = 16.7M < 19.5M). 24 + 128 + 16384 = 16536 -> 18432.
    EXPECT_EQ(mdDataOffsetSectors(19531250, 1024), 18432U);
    // 1 GiB raid1 (no chunk): bitmap 4 KiB (8); headroom down to 2048. 2080 -> 4096.
    EXPECT_EQ(mdDataOffsetSectors(2097152, 0), 4096U);
    // 1 GiB with a 4 MiB chunk: headroom stops at 16384, two chunks. 16416 -> 18432.
    EXPECT_EQ(mdDataOffsetSectors(2097152, 8192), 18432U);
}

// ---------------------------------------------------------------------------------------------
// Mixed sizes and underprovisioning

TEST(Capacity, MixedSizesWaste) {
    // Leaf asizes: 1 TB -> 999999930368 - 4.5 MiB, 2 TB -> 1999999860736 - 4.5 MiB.
    const std::uint64_t diff = 1999999860736ULL - 999999930368ULL;
    {
        const auto c = compute(input(LayoutKind::ZfsRaidz1, {1 * TB, 1 * TB, 2 * TB}));
        EXPECT_EQ(c.mixedSizeWasteBytes, diff);
        EXPECT_EQ(c.rawBytes, sumOfParts(c));
    }
    {
        // Pairs in order: (1 TB, 2 TB) wastes the difference, (1 TB, 1 TB) nothing.
        const auto c = compute(input(LayoutKind::ZfsRaid10, {1 * TB, 2 * TB, 1 * TB, 1 * TB}));
        EXPECT_EQ(c.mixedSizeWasteBytes, diff);
        EXPECT_EQ(c.rawBytes, sumOfParts(c));
    }
    {
        // Paired the other way the 2 TB disk sits with a 1 TB disk all the same.
        const auto c = compute(input(LayoutKind::ZfsRaid10, {1 * TB, 1 * TB, 2 * TB, 2 * TB}));
        EXPECT_EQ(c.mixedSizeWasteBytes, 0U);
    }
    // Each stripe disk is its own vdev; md raid0 uses every member whole (zones).
    EXPECT_EQ(compute(input(LayoutKind::ZfsStripe, {1 * TB, 2 * TB})).mixedSizeWasteBytes, 0U);
    EXPECT_EQ(compute(input(LayoutKind::MdRaid0, {1 * TB, 2 * TB})).mixedSizeWasteBytes, 0U);
    {
        // md raid1 {500 GB, 600 GB}: the same data offset on both, so the free sizes differ by
        // exactly 100e9 bytes (195312500 sectors). Component: 488149154 KiB down to 64 KiB =
        // 488149120 KiB.
        const auto c = compute(input(LayoutKind::MdRaid1, {500 * GB, 600 * GB}));
        EXPECT_EQ(c.mixedSizeWasteBytes, 100 * GB);
        EXPECT_EQ(c.usableBytes, 488149120ULL * KiB);
        EXPECT_DOUBLE_EQ(c.dataEfficiency, 0.5);
        EXPECT_EQ(c.rawBytes, sumOfParts(c));
    }
}

TEST(Capacity, UnderprovisionEightyPercentOfFiveHundredGB) {
    // floor(500e9 * 0.8) = 400e9, down to 1 MiB: 381469 MiB = 399999238144 bytes partitioned;
    // 100000761856 left per disk.
    CapacityInput in = input(LayoutKind::ZfsRaidz2, std::vector<std::uint64_t>(10, 500 * GB));
    in.underprovision = 0.8;
    const auto c = compute(in);
    EXPECT_EQ(c.underprovisionedBytes, 10 * 100000761856ULL);
    EXPECT_EQ(c.rawBytes, 5000 * GB);
    EXPECT_EQ(c.rawBytes, sumOfParts(c));
    EXPECT_DOUBLE_EQ(c.dataEfficiency, 32.0 / 42.0); // underprovisioning is not efficiency

    // The same pool built on partitions of exactly that size holds exactly as much.
    const auto onPartitions =
        compute(input(LayoutKind::ZfsRaidz2, std::vector<std::uint64_t>(10, 399999238144ULL)));
    EXPECT_EQ(c.usableBytes, onPartitions.usableBytes);

    in.kind = LayoutKind::MdRaid6;
    EXPECT_EQ(compute(in).underprovisionedBytes, 10 * 100000761856ULL);
}

// ---------------------------------------------------------------------------------------------
// Fault tolerance

TEST(Capacity, FaultToleranceForEveryKind) {
    struct Row {
        LayoutKind kind;
        std::size_t disks;
        unsigned worst, best;
    };
    const Row rows[] = {
        {LayoutKind::MdRaid0, 4, 0, 0},
        {LayoutKind::MdRaid1, 3, 2, 2},
        {LayoutKind::MdRaid10, 6, 1, 3},
        {LayoutKind::MdRaid5, 4, 1, 1},
        {LayoutKind::MdRaid6, 6, 2, 2},
        {LayoutKind::ZfsStripe, 3, 0, 0},
        {LayoutKind::ZfsMirror, 3, 2, 2},
        {LayoutKind::ZfsRaid10, 8, 1, 4},
        {LayoutKind::ZfsRaidz1, 4, 1, 1},
        {LayoutKind::ZfsRaidz2, 6, 2, 2},
        {LayoutKind::ZfsRaidz3, 8, 3, 3},
        // dRAID without spares: its parity, whatever happens.
        {LayoutKind::ZfsDraid1, 5, 1, 1},
        {LayoutKind::ZfsDraid2, 8, 2, 2},
        {LayoutKind::ZfsDraid3, 9, 3, 3},
    };
    EXPECT_EQ(std::size(rows), diskLayoutKinds().size());
    for (const auto& row : rows) {
        SCOPED_TRACE(std::string(layoutKindName(row.kind)));
        const auto c = compute(input(row.kind, std::vector<std::uint64_t>(row.disks, 500 * GB)));
        EXPECT_EQ(c.faultTolerance, row.worst);
        EXPECT_EQ(c.faultToleranceBest, row.best);
    }
}

TEST(Capacity, EfficiencyPerKind) {
    const auto eff = [](LayoutKind k, std::size_t n) {
        return compute(input(k, std::vector<std::uint64_t>(n, 500 * GB))).dataEfficiency;
    };
    EXPECT_DOUBLE_EQ(eff(LayoutKind::MdRaid0, 3), 1.0);
    EXPECT_DOUBLE_EQ(eff(LayoutKind::MdRaid1, 3), 1.0 / 3.0);
    EXPECT_DOUBLE_EQ(eff(LayoutKind::MdRaid10, 6), 0.5);
    EXPECT_DOUBLE_EQ(eff(LayoutKind::MdRaid5, 5), 4.0 / 5.0);
    EXPECT_DOUBLE_EQ(eff(LayoutKind::MdRaid6, 6), 4.0 / 6.0);
    EXPECT_DOUBLE_EQ(eff(LayoutKind::ZfsStripe, 3), 1.0);
    EXPECT_DOUBLE_EQ(eff(LayoutKind::ZfsMirror, 3), 1.0 / 3.0);
    EXPECT_DOUBLE_EQ(eff(LayoutKind::ZfsRaid10, 4), 0.5);
    EXPECT_DOUBLE_EQ(eff(LayoutKind::ZfsRaidz1, 3), 32.0 / 48.0);
}

// ---------------------------------------------------------------------------------------------
// Bad input: each names the field at the start of the message.

TEST(Capacity, SeedBadInputMessage) {
    const auto r = computeCapacity(input(LayoutKind::ZfsRaidz2, {500 * GB, 500 * GB}));
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(r.error().message, "disks: zfs-raidz2 needs at least 3 disks, got 2");
}

TEST(Capacity, BadInputNamesTheField) {
    struct Row {
        const char* what;
        std::function<void(CapacityInput&)> change;
        const char* field;
    };
    const Row rows[] = {
        {"dir", [](CapacityInput& in) { in.kind = LayoutKind::Dir; }, "kind: "},
        {"guest", [](CapacityInput& in) { in.kind = LayoutKind::Guest; }, "kind: "},
        {"no disks", [](CapacityInput& in) { in.diskBytes.clear(); }, "disks: "},
        {"raidz3 of 3",
         [](CapacityInput& in) {
             in.kind = LayoutKind::ZfsRaidz3;
             in.diskBytes.resize(3);
         },
         "disks: "},
        {"md raid6 of 3",
         [](CapacityInput& in) {
             in.kind = LayoutKind::MdRaid6;
             in.diskBytes.resize(3);
         },
         "disks: "},
        {"md raid10 odd",
         [](CapacityInput& in) {
             in.kind = LayoutKind::MdRaid10;
             in.diskBytes.resize(5);
         },
         "disks: "},
        {"zfs raid10 odd",
         [](CapacityInput& in) {
             in.kind = LayoutKind::ZfsRaid10;
             in.diskBytes.resize(5);
         },
         "disks: "},
        {"zfs mirror of 1",
         [](CapacityInput& in) {
             in.kind = LayoutKind::ZfsMirror;
             in.diskBytes.resize(1);
         },
         "disks: "},
        {"ashift 8", [](CapacityInput& in) { in.ashift = 8; }, "ashift: "},
        {"ashift 17", [](CapacityInput& in) { in.ashift = 17; }, "ashift: "},
        {"underprovision 0", [](CapacityInput& in) { in.underprovision = 0.0; },
         "underprovision: "},
        {"underprovision negative", [](CapacityInput& in) { in.underprovision = -0.5; },
         "underprovision: "},
        {"underprovision above 1", [](CapacityInput& in) { in.underprovision = 1.01; },
         "underprovision: "},
        {"underprovision NaN", [](CapacityInput& in) { in.underprovision = std::nan(""); },
         "underprovision: "},
        {"recordsize 0", [](CapacityInput& in) { in.recordsizeBytes = 0; }, "recordsize: "},
        {"recordsize 256", [](CapacityInput& in) { in.recordsizeBytes = 256; }, "recordsize: "},
        {"recordsize 1000", [](CapacityInput& in) { in.recordsizeBytes = 1000; }, "recordsize: "},
        {"recordsize 32M", [](CapacityInput& in) { in.recordsizeBytes = 32 * MiB; },
         "recordsize: "},
        {"chunk 2K", [](CapacityInput& in) { in.mdChunkBytes = 2 * KiB; }, "chunk: "},
        {"chunk 3000", [](CapacityInput& in) { in.mdChunkBytes = 3000; }, "chunk: "},
        {"zero-byte disk", [](CapacityInput& in) { in.diskBytes[1] = 0; }, "disk-size: "},
        {"disks overflow", [](CapacityInput& in) { in.diskBytes.assign(10, 1ULL << 62); },
         "disk-size: "},
        {"disk below ZFS minimum", [](CapacityInput& in) { in.diskBytes[2] = 32 * MiB; },
         "disk-size: "},
        {"disk below md data offset",
         [](CapacityInput& in) {
             in.kind = LayoutKind::MdRaid6;
             in.diskBytes[3] = 100 * MiB; // the 129 MiB data offset comes from disk 1
         },
         "disk-size: "},
        {"underprovisioned below ZFS minimum",
         [](CapacityInput& in) {
             in.diskBytes.assign(4, GiB);
             in.underprovision = 0.05; // 51.2 MiB partitions
         },
         "underprovision: "},
    };
    for (const auto& row : rows) {
        SCOPED_TRACE(row.what);
        CapacityInput in = input(LayoutKind::ZfsRaidz2, std::vector<std::uint64_t>(4, 500 * GB));
        row.change(in);
        const auto r = computeCapacity(in);
        ASSERT_FALSE(r.has_value());
        EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
        EXPECT_EQ(r.error().message.rfind(row.field, 0), 0U) << r.error().message;
    }
}

TEST(Capacity, DefaultInputIsRefused) {
    // No kind chosen means dir, which has no capacity model.
    const auto r = computeCapacity(CapacityInput{});
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().message.rfind("kind: ", 0), 0U);
}

// ---------------------------------------------------------------------------------------------
// Measured on OpenZFS 2.3.2 (the lab guest, 256 MiB virtio disks, whole disks, ashift 12; the
// OpenZfsCapacity suite creates these pools and compares every cell): `zfs list -p` used +
// avail of the new pool's root dataset and `zpool list -p` SIZE.

CapacityInput wholeDisks(LayoutKind kind, std::size_t n) {
    CapacityInput in = input(kind, std::vector<std::uint64_t>(n, 256 * MiB));
    in.zfsWholeDiskLabel = true;
    return in;
}

TEST(Capacity, WholeDiskPartitionAsOpenZfsWritesIt) {
    // 524288 sectors less 33 + 16384 + 2048 = 505823, aligned down to 2048: 503808 sectors
    // (246 MiB); the leaf is that less 4.5 MiB of labels. As the device is, 251.5 MiB.
    const auto whole = compute(wholeDisks(LayoutKind::ZfsStripe, 1));
    const auto asIs = compute(input(LayoutKind::ZfsStripe, {256 * MiB}));
    // 241.5 MiB / 16: 16 MiB metaslabs either way, 15 of them: the partition costs nothing here.
    EXPECT_EQ(whole.poolSizeBytes, 15 * 16 * MiB);
    EXPECT_EQ(asIs.poolSizeBytes, 15 * 16 * MiB);
    // 4 -> 5 disks of raidz1 tells them apart: 5 * 241.5 MiB holds 18 metaslabs of 64 MiB where
    // 5 * 251.5 MiB would hold 19.
    auto expanded = wholeDisks(LayoutKind::ZfsRaidz1, 5);
    expanded.raidzExpandedFrom = 4;
    EXPECT_EQ(compute(expanded).poolSizeBytes, 18 * 64 * MiB);
}

TEST(Capacity, RaidzAsZfsListShowsIt) {
    // 3 x raidz1: 724.5 MiB asize, 64 MiB metaslabs, 11 of them = 738197504 (zpool SIZE).
    // Deflate ratio 131072 / 384 = 341 (not 341.33): 11 * 2^17 * 341 = 491651072 deflated,
    // less the 128 MiB slop floor = 357433344 = used 491040 + avail 356942304 as measured.
    const auto c = compute(wholeDisks(LayoutKind::ZfsRaidz1, 3));
    EXPECT_EQ(c.poolSizeBytes, 738197504U);
    EXPECT_EQ(c.usableBytes, 357433344U);
    EXPECT_EQ(c.rawBytes, sumOfParts(c));
    // 5 x raidz1 (measured 830734336): 128 MiB metaslabs, 9 of them, ratio 409.
    EXPECT_EQ(compute(wholeDisks(LayoutKind::ZfsRaidz1, 5)).usableBytes, 830734336U);
}

TEST(Capacity, RaidzExpansionKeepsTheOriginalRatioAndMetaslabSize) {
    // raidz1 of 4 expanded to 5 (measured 743440384): the metaslab size stays 64 MiB (chosen for
    // 4 disks) and 18 fit; the ratio stays 4-wide's 372: 18 * 2^17 * 372 - 128 MiB.
    auto in = wholeDisks(LayoutKind::ZfsRaidz1, 5);
    in.raidzExpandedFrom = 4;
    const auto c = compute(in);
    EXPECT_EQ(c.usableBytes, 743440384U);
    EXPECT_EQ(c.rawBytes, sumOfParts(c));
    // New records are written 5 wide: the efficiency is the new width's.
    EXPECT_DOUBLE_EQ(c.dataEfficiency, 32.0 / 40.0);
    // Refused where OpenZFS has no such thing.
    for (unsigned from : {1U, 5U, 6U}) {
        in.raidzExpandedFrom = from;
        EXPECT_FALSE(computeCapacity(in)) << from;
    }
    auto mirror = wholeDisks(LayoutKind::ZfsMirror, 3);
    mirror.raidzExpandedFrom = 2;
    EXPECT_FALSE(computeCapacity(mirror));
}

TEST(Capacity, DraidByItsOwnRule) {
    // draid1:2d:5c:0s: 241.5 MiB children less the 32 MiB reflow reserve, down to 16 MiB rows:
    // 208 MiB; 5 data-bearing children hold groups of 3 rows of 16 MiB: asize
    // 1040 MiB / 48 MiB = 21 groups = 1008 MiB. 64 MiB metaslabs (asize / 16 = 63 MiB), 15 of
    // them, each trimmed to whole 3-sector rows at both ends: 1006510080 in all. Ratio: a 128K
    // block takes 16 rows of 3 sectors = 384 units: 341. 1006510080 / 512 * 341 - 128 MiB.
    auto in = wholeDisks(LayoutKind::ZfsDraid1, 5);
    in.draid = {2, 0};
    auto c = compute(in);
    EXPECT_EQ(c.poolSizeBytes, 1006510080U);
    EXPECT_EQ(c.usableBytes, 1006510080U / 512 * 341 - 128 * MiB);
    EXPECT_EQ(c.spareBytes, 0U);
    EXPECT_DOUBLE_EQ(c.dataEfficiency, 2.0 / 3.0);
    EXPECT_EQ(c.rawBytes, sumOfParts(c));
    // One distributed spare: 4 children's worth of groups, 208 MiB of each child kept for it.
    in.draid.spares = 1;
    c = compute(in);
    EXPECT_EQ(c.spareBytes, 208 * MiB);
    EXPECT_EQ(c.faultTolerance, 1U);
    EXPECT_EQ(c.faultToleranceBest, 2U); // after the rebuild onto the spare, one more
    EXPECT_EQ(c.rawBytes, sumOfParts(c));
    // Small records pay whole rows: 4K on 2 data sectors per row takes 1 data + 1 empty + 1
    // parity sector.
    in.recordsizeBytes = 4 * KiB;
    EXPECT_DOUBLE_EQ(compute(in).dataEfficiency, 1.0 / 3.0);
    // zpool's refusals.
    in.draid = {5, 0};
    EXPECT_FALSE(computeCapacity(in));
    in.draid = {0, 4};
    EXPECT_FALSE(computeCapacity(in));
}

TEST(Capacity, SeveralVdevsShareOneSlop) {
    // Two raidz2 of 6: twice one vdev's space, and one slop reserve for the pool. Past the
    // 128 GiB cap (6 x 4 TB: 1/32 of ~14.5 TB) the slop does not grow with the second vdev.
    auto one = input(LayoutKind::ZfsRaidz2, std::vector<std::uint64_t>(6, 4 * TB));
    auto two = input(LayoutKind::ZfsRaidz2, std::vector<std::uint64_t>(12, 4 * TB));
    two.vdevs = 2;
    const auto c1 = compute(one);
    const auto c2 = compute(two);
    EXPECT_EQ(c2.poolSizeBytes, 2 * c1.poolSizeBytes);
    // The embedded log metaslabs' records are one floor() for the pool, two for two pools.
    EXPECT_NEAR(static_cast<double>(c2.usableBytes + c2.slopBytes),
                2.0 * static_cast<double>(c1.usableBytes + c1.slopBytes), 1.0);
    EXPECT_LT(c2.slopBytes, 2 * c1.slopBytes);
    EXPECT_GT(c2.usableBytes, 2 * c1.usableBytes);
    EXPECT_EQ(c2.faultTolerance, 2U);
    EXPECT_EQ(c2.faultToleranceBest, 4U);
    EXPECT_EQ(c2.rawBytes, sumOfParts(c2));
    two.vdevs = 5; // 12 disks do not split into 5
    EXPECT_FALSE(computeCapacity(two));
    two.vdevs = 4; // 3 disks per raidz2 vdev are enough, 4 vdevs of 3
    EXPECT_TRUE(computeCapacity(two));
    two.vdevs = 6; // 2 are not
    EXPECT_FALSE(computeCapacity(two));
}

TEST(DraidSpec, OpenZfsSpelling) {
    const auto s = parseDraidSpec("draid2:4d:8c:1s");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->kind, LayoutKind::ZfsDraid2);
    EXPECT_EQ(s->shape, (DraidShape{4, 1}));
    EXPECT_EQ(s->children, 8U);
    const auto plain = parseDraidSpec("draid");
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->kind, LayoutKind::ZfsDraid1);
    EXPECT_EQ(plain->shape, DraidShape{});
    EXPECT_EQ(draidVdevName(LayoutKind::ZfsDraid2, 12, {}), "draid2:8d:12c:0s");
    EXPECT_EQ(draidVdevName(LayoutKind::ZfsDraid1, 5, {0, 1}), "draid1:3d:5c:1s");
    for (const char* bad : {"draid4", "draid1:", "draid1:2x", "draid1:d", "raidz1", "draid1:0d"})
        EXPECT_FALSE(parseDraidSpec(bad)) << bad;
}

// ---------------------------------------------------------------------------------------------
// Exactness on large pools: products of pool size and record size pass 2^64 here.

TEST(Capacity, LargePoolStaysExact) {
    // 10 x 20 TB raidz2 at 16M records: d = 4096, parity = 2 * 512 = 1024, 5120 -> 5121.
    // Leaf 19999999918080 - 4.5 MiB = 19999995199488; vdev asize 199999951994880; 16 GiB
    // metaslabs, 11641 of them: allocatable 199990857170944. data = allocatable * 4096/5121 =
    // 159961443267367, parity = allocatable * 1024/5121; both products pass 2^64; padding the
    // rest. Deflated: ratio 390, 11640 normal metaslabs: 11640 * 2^25 * 390 = 152323699507200,
    // less the slop (128 GiB less the log metaslab's 2^25 * 390) = 152199346782208 usable: a
    // 16M record is charged 40968 * 390 bytes, less than its size, so zfs list's figure holds.
    CapacityInput in = input(LayoutKind::ZfsRaidz2, std::vector<std::uint64_t>(10, 20 * TB));
    in.recordsizeBytes = 16 * MiB;
    const auto c = compute(in);
    EXPECT_EQ(c.parityBytes, 39990360816841ULL); // floor(allocatable * 1024 / 5121)
    EXPECT_EQ(c.paddingBytes, (11641ULL << 34) - 159961443267367ULL - 39990360816841ULL);
    EXPECT_EQ(c.usableBytes, 152199346782208ULL);
    EXPECT_DOUBLE_EQ(c.dataEfficiency, 4096.0 / 5121.0);
    EXPECT_EQ(c.rawBytes, sumOfParts(c));
}

// ---------------------------------------------------------------------------------------------
// The invariant: usable + slop + parity + padding + reserved + underprovisioned +
// mixedSizeWaste == raw, for every kind, across disk counts, sizes, record sizes, ashifts and
// underprovisioning.

TEST(Capacity, EveryRawByteIsAccountedFor) {
    const std::uint64_t recordsizes[] = {512, 4 * KiB, 128 * KiB, MiB, 16 * MiB};
    const unsigned ashifts[] = {9, 12, 16};
    const double fractions[] = {1.0, 0.8, 0.333};
    int checked = 0;
    for (const auto kind : diskLayoutKinds()) {
        const bool pairs = kind == LayoutKind::MdRaid10 || kind == LayoutKind::ZfsRaid10;
        const std::size_t counts[] = {pairs ? 4U : (kind == LayoutKind::ZfsStripe ? 1U : 4U), 6,
                                      12};
        for (const auto count : counts) {
            // Uniform consumer SSDs, odd mixed sizes that exercise every alignment, small disks,
            // and large ones whose proportions need the 128-bit intermediate.
            std::vector<std::vector<std::uint64_t>> sizeSets;
            sizeSets.emplace_back(count, 500 * GB);
            sizeSets.emplace_back();
            for (std::size_t i = 0; i < count; ++i)
                sizeSets.back().push_back(480 * GB + i * 37 * GB + i * 12345 + 7);
            sizeSets.emplace_back(count, 3 * GiB + 4097);
            sizeSets.emplace_back(count, 22 * TB);
            for (const auto& sizes : sizeSets)
                for (const auto rs : recordsizes)
                    for (const auto ashift : ashifts)
                        for (const auto fraction : fractions) {
                            CapacityInput in = input(kind, sizes);
                            in.recordsizeBytes = rs;
                            in.ashift = ashift;
                            in.underprovision = fraction;
                            auto r = computeCapacity(in);
                            ASSERT_TRUE(r.has_value()) << r.error().message;
                            const auto& c = *r;
                            SCOPED_TRACE(std::string(layoutKindName(kind)) + " x" +
                                         std::to_string(count));
                            EXPECT_EQ(sumOfParts(c), c.rawBytes);
                            EXPECT_GT(c.usableBytes, 0U);
                            EXPECT_GT(c.dataEfficiency, 0.0);
                            EXPECT_LE(c.dataEfficiency, 1.0);
                            if (!isZfs(kind)) {
                                EXPECT_EQ(c.slopBytes, 0U);
                                EXPECT_EQ(c.paddingBytes, 0U);
                            }
                            ++checked;
                        }
        }
    }
    EXPECT_EQ(checked, 14 * 3 * 4 * 5 * 3 * 3);
}

namespace lb {
namespace {

// The seed's hybrid: ten 500 GB SSDs at 80 % in md RAID6, one pool on the array. The pool's
// usable space is the array's less what ZFS keeps on a one-vdev pool; raw, parity and fault
// tolerance are the array's; every byte is still in one category.
TEST(ZfsOnMd, PoolOnTheArrayKeepsTheArraysParityAndTolerance) {
    CapacityInput md;
    md.kind = LayoutKind::MdRaid6;
    md.diskBytes = std::vector<std::uint64_t>(10, 500'000'000'000ULL);
    md.underprovision = 0.8;
    const auto array = computeCapacity(md);
    ASSERT_TRUE(array) << array.error().message;
    const auto c = computeZfsOnMdCapacity(md, md);
    ASSERT_TRUE(c) << c.error().message;

    CapacityInput pool;
    pool.kind = LayoutKind::ZfsStripe;
    pool.diskBytes = {array->usableBytes};
    const auto top = computeCapacity(pool);
    ASSERT_TRUE(top) << top.error().message;

    EXPECT_EQ(c->rawBytes, 5'000'000'000'000ULL);
    EXPECT_EQ(c->usableBytes, top->usableBytes);
    EXPECT_LT(c->usableBytes, array->usableBytes);
    EXPECT_EQ(c->parityBytes, array->parityBytes);
    EXPECT_EQ(c->underprovisionedBytes, array->underprovisionedBytes);
    EXPECT_EQ(c->slopBytes, top->slopBytes);
    EXPECT_EQ(c->reservedBytes, array->reservedBytes + top->reservedBytes);
    EXPECT_EQ(c->faultTolerance, 2u);
    EXPECT_EQ(c->rawBytes, sumOfParts(*c));
    EXPECT_DOUBLE_EQ(c->dataEfficiency, array->dataEfficiency * top->dataEfficiency);
}

// The same through the flag a projection and a stored spec use: a guest on md RAID6 running ZFS,
// as the campaign stores it, has the pool-on-array capacity.
TEST(ZfsOnMd, FlaggedInputAndStoredGuestSpecGiveTheSameCapacity) {
    CapacityInput md;
    md.kind = LayoutKind::MdRaid6;
    md.diskBytes = std::vector<std::uint64_t>(10, 500'000'000'000ULL);
    md.underprovision = 0.8;
    const auto direct = computeZfsOnMdCapacity(md, md);
    ASSERT_TRUE(direct);
    md.poolOnArray = true;
    const auto flagged = computeCapacity(md);
    ASSERT_TRUE(flagged) << flagged.error().message;
    EXPECT_EQ(*flagged, *direct);

    nlohmann::json spec{{"kind", "guest"},
                        {"disk_bytes", std::vector<std::uint64_t>(10, 500'000'000'000ULL)},
                        {"underprovision", 0.8},
                        {"md", {{"kind", "md-raid6"}, {"chunk", 524288}}},
                        {"guest", {{"layout", "zfs-stripe"}}}};
    const auto stored = capacityFromSpec(spec.dump(), "guest");
    ASSERT_TRUE(stored);
    EXPECT_EQ(*stored, *direct);
    // With ext4 inside instead, it is the array's own capacity.
    spec["guest"]["layout"] = "ext4";
    const auto plain = capacityFromSpec(spec.dump(), "guest");
    ASSERT_TRUE(plain);
    md.poolOnArray = false;
    EXPECT_EQ(*plain, *computeCapacity(md));
}

TEST(ZfsOnMd, OnlyAnMdKindCarriesAPool) {
    CapacityInput notMd;
    notMd.kind = LayoutKind::ZfsRaidz2;
    notMd.diskBytes = std::vector<std::uint64_t>(4, 1'000'000'000'000ULL);
    const auto c = computeZfsOnMdCapacity(notMd, notMd);
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().kind, ErrorKind::BadInput);
}

} // namespace
} // namespace lb

// A guest (issue 41): md RAID6 of ten 500 GB SSDs at 80 % passed to a guest as one disk, and the
// guest's ZFS pool on it, is the pool on the array as the campaign stores it; the tolerance is
// the array's, and the model says the pool on one device cannot repair what it detects.
TEST(GuestCapacity, IsThePoolOnTheInnerArray) {
    CapacityInput disks;
    disks.kind = LayoutKind::Guest;
    disks.diskBytes = std::vector<std::uint64_t>(10, 500'000'000'000ULL);
    disks.underprovision = 0.8;
    const auto guest = guestCapacityInput(disks, "md-raid6", "zfs-stripe");
    ASSERT_TRUE(guest) << guest.error().message;
    EXPECT_EQ(guest->kind, LayoutKind::MdRaid6);
    EXPECT_TRUE(guest->poolOnArray);
    const auto c = computeCapacity(*guest);
    ASSERT_TRUE(c) << c.error().message;
    CapacityInput md = disks;
    md.kind = LayoutKind::MdRaid6;
    const auto direct = computeZfsOnMdCapacity(md, md);
    ASSERT_TRUE(direct);
    EXPECT_EQ(*c, *direct);
    EXPECT_EQ(c->faultTolerance, 2u);
    EXPECT_LT(c->usableBytes, computeCapacity(md)->usableBytes);
    const auto note = redundancyNote(*guest);
    ASSERT_TRUE(note);
    EXPECT_NE(note->find("cannot repair"), std::string::npos) << *note;
    EXPECT_NE(note->find("md-raid6"), std::string::npos) << *note;
    EXPECT_FALSE(redundancyNote(md)); // the array alone: its own redundancy, nothing to add
}

TEST(GuestCapacity, NamesTheFieldItCannotTake) {
    CapacityInput disks;
    disks.diskBytes = std::vector<std::uint64_t>(4, 1'000'000'000'000ULL);
    const auto expectField = [&](std::string_view inner, std::string_view pool,
                                 std::string_view field) {
        const auto g = guestCapacityInput(disks, inner, pool);
        ASSERT_FALSE(g) << inner << " " << pool;
        EXPECT_EQ(g.error().kind, ErrorKind::BadInput);
        EXPECT_TRUE(g.error().message.starts_with(field)) << g.error().message;
    };
    expectField("", "zfs-stripe", "inner: required");
    expectField("zfs-raidz2", "zfs-stripe", "inner: ");
    expectField("raid9", "zfs-stripe", "inner: unknown");
    expectField("md-raid5", "zfs-raidz1", "guest-pool: ");
    // The kind guest alone has no model: its inner layout and pool are needed.
    disks.kind = LayoutKind::Guest;
    const auto bare = computeCapacity(disks);
    ASSERT_FALSE(bare);
    EXPECT_TRUE(bare.error().message.starts_with("kind: ")) << bare.error().message;
}

} // namespace
} // namespace lb
