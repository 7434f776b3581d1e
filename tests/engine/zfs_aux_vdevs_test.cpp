// A ZFS layout's log, cache and special vdevs and its dataset's sync and logbias: the scenario
// keys and their errors, the disks a campaign may destroy (every one the safety check sees),
// the plans for Linux and FreeBSD as golden files (tests/data/plans; regenerate after a
// deliberate change with LAYOUTBENCH_UPDATE_GOLDEN=1 and read the diff), the caveats of writes
// acknowledged early, and the special class in the capacity model, the stored spec and the risk
// of loss (the model is held against real pools in tests/openzfs/openzfs_slog_test.cpp).
#include "engine/build/layout_spec.h"
#include "engine/build/plan.h"
#include "engine/capacity/risk.h"
#include "engine/scenario/scenario.h"
#include "probes/registry.h"
#include "tests/support/plan_golden.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace lb {
namespace {

const ProbeRegistry& probes() {
    static const ProbeRegistry registry = standardProbes();
    return registry;
}

// Eight disks (sdb..sdi, or da0..da7 on FreeBSD) and one layout of `layoutKeys`.
std::string scenarioText(const std::string& layoutKeys, bool freeBsd = false) {
    std::string text = "name = \"aux\"\nwork_dir = \"/srv/lb\"\n";
    if (freeBsd)
        text += "[host]\ntarget = \"ssh://root@nas\"\nos = \"freebsd\"\n";
    for (int i = 0; i < 8; ++i) {
        const std::string dev = freeBsd ? "/dev/da" + std::to_string(i)
                                        : std::string("/dev/sd") + static_cast<char>('b' + i);
        text += "[[disks]]\nname = \"d" + std::to_string(i) + "\"\ndevice = \"" + dev + "\"\n";
    }
    return text + "[[layouts]]\nname = \"vm\"\nbaseline = true\n" + layoutKeys +
           "\n[[workloads]]\nprobe = \"fio\"\npreset = \"fsync-randwrite-4k\"\n";
}

Expected<Scenario> parsed(const std::string& layoutKeys, bool freeBsd = false) {
    return parseScenario(scenarioText(layoutKeys, freeBsd), "/srv/aux.toml", probes());
}

const std::string raidzWithAll = R"(kind = "zfs-raidz1"
disks = ["d0", "d1", "d2"]
log = ["d3", "d4"]
cache = ["d5"]
special = ["d6", "d7"]
special_small_blocks = "32K"
sync = "always"
logbias = "throughput")";

std::string described(const Scenario& s, const std::map<std::string, std::uint64_t>& sizes = {}) {
    return test::describedPlan(s, s.layouts.front().name, sizes);
}

using test::expectGolden;

TEST(ZfsAuxVdevs, TheKeysAreReadIntoTheLayout) {
    const auto s = parsed(raidzWithAll);
    ASSERT_TRUE(s) << s.error().message;
    const ScenarioZfsAux& aux = s->layouts.front().zfsAux;
    EXPECT_EQ(aux.log, (std::vector<std::string>{"d3", "d4"}));
    EXPECT_EQ(aux.cache, (std::vector<std::string>{"d5"}));
    EXPECT_EQ(aux.special, (std::vector<std::string>{"d6", "d7"}));
    EXPECT_EQ(aux.specialSmallBlocksBytes, 32U * 1024);
    EXPECT_EQ(aux.sync, ZfsSync::Always);
    EXPECT_EQ(aux.logbias, ZfsLogbias::Throughput);
}

TEST(ZfsAuxVdevs, EveryAuxiliaryDiskIsOneTheCampaignMayDestroy) {
    // disksTouchedBy is what the safety check and --yes-destroy are asked about.
    const auto s = parsed(raidzWithAll);
    ASSERT_TRUE(s) << s.error().message;
    auto touched = s->disksTouchedBy(s->layouts.front());
    std::sort(touched.begin(), touched.end());
    EXPECT_EQ(touched, (std::vector<std::string>{"d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7"}));
}

TEST(ZfsAuxVdevs, BadInputNamesTheFileLineAndKey) {
    const struct {
        std::string keys, says;
    } cases[] = {
        {"kind = \"md-raid1\"\ndisks = [\"d0\", \"d1\"]\nlog = [\"d3\"]",
         ".log: only ZFS layouts (zfs-*) take it"},
        {"kind = \"md-raid1\"\ndisks = [\"d0\", \"d1\"]\nsync = \"always\"",
         ".sync: only ZFS layouts (zfs-*) take it"},
        {"kind = \"zfs-mirror\"\ndisks = [\"d0\", \"d1\"]\nlog = [\"d1\"]",
         ".log: 'd1' is one of the layout's data disks"},
        {"kind = \"zfs-mirror\"\ndisks = [\"d0\", \"d1\"]\nlog = [\"d2\"]\ncache = [\"d2\"]",
         ".cache: 'd2' is named twice among log, cache and special"},
        {"kind = \"zfs-mirror\"\ndisks = [\"d0\", \"d1\"]\nspecial = [\"nope\"]",
         ".special: 'nope' is not in [[disks]]"},
        {"kind = \"zfs-mirror\"\ndisks = [\"d0\", \"d1\"]\nspecial_small_blocks = \"32K\"",
         ".special_small_blocks: small blocks go to a special vdev"},
        {"kind = \"zfs-mirror\"\ndisks = [\"d0\", \"d1\"]\nspecial = [\"d2\", \"d3\"]\n"
         "special_small_blocks = \"48K\"",
         ".special_small_blocks: must be 0 or a power of two from 512 to 1M"},
        {"kind = \"zfs-mirror\"\ndisks = [\"d0\", \"d1\"]\nsync = \"sometimes\"", ".sync"},
        {"kind = \"zfs-mirror\"\ndisks = [\"d0\", \"d1\"]\nlog = []",
         ".log: expected at least one disk name"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.keys);
        const auto s = parsed(c.keys);
        ASSERT_FALSE(s);
        EXPECT_NE(s.error().message.find(c.says), std::string::npos) << s.error().message;
        EXPECT_EQ(s.error().message.rfind("/srv/aux.toml:", 0), 0U) << s.error().message;
    }
}

TEST(PlanGolden, RaidzWithLogCacheAndSpecialMirrors) {
    const auto s = parsed(raidzWithAll);
    ASSERT_TRUE(s) << s.error().message;
    const auto text = described(*s);
    EXPECT_NE(text.find(" raidz1 /dev/sdb /dev/sdc /dev/sdd log mirror /dev/sde /dev/sdf cache "
                        "/dev/sdg special mirror /dev/sdh /dev/sdi"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("zfs set sync=always logbias=throughput special_small_blocks=32768 lb-vm"),
              std::string::npos)
        << text;
    expectGolden("zfs-raidz1-log-cache-special", text);
}

TEST(PlanGolden, ASingleSpecialDeviceIsPlannedAndWarnedAbout) {
    const auto s = parsed("kind = \"zfs-mirror\"\ndisks = [\"d0\", \"d1\"]\nlog = [\"d2\"]\n"
                          "special = [\"d3\"]\nsync = \"disabled\"");
    ASSERT_TRUE(s) << s.error().message;
    const auto text = described(*s);
    EXPECT_NE(text.find("mirror /dev/sdb /dev/sdc log /dev/sdd special /dev/sde"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("warning: the special vdev is one device, not a mirror"), std::string::npos)
        << text;
    EXPECT_NE(text.find("zfs set sync=disabled lb-vm"), std::string::npos) << text;
}

TEST(PlanGolden, FreeBsdRaidzWithLogCacheAndSpecialOnPartitions) {
    // Underprovisioned: every device, auxiliary ones too, gets its gpart partition.
    const auto s = parsed(raidzWithAll + "\nunderprovision = 0.8", true);
    ASSERT_TRUE(s) << s.error().message;
    std::map<std::string, std::uint64_t> sizes;
    for (int i = 0; i < 8; ++i)
        sizes["/dev/da" + std::to_string(i)] = 500107862016;
    const auto text = described(*s, sizes);
    EXPECT_NE(text.find("log mirror /dev/da3p1 /dev/da4p1 cache /dev/da5p1 special mirror "
                        "/dev/da6p1 /dev/da7p1"),
              std::string::npos)
        << text;
    expectGolden("freebsd-raidz1-log-cache-special", text);
}

TEST(ZfsAuxVdevs, WritesAcknowledgedEarlyAreCaveats) {
    auto s = parsed("kind = \"zfs-mirror\"\ndisks = [\"d0\", \"d1\"]\nsync = \"disabled\"");
    ASSERT_TRUE(s) << s.error().message;
    const auto caveats = dataLossCaveats(s->layouts.front());
    ASSERT_EQ(caveats.size(), 1U);
    EXPECT_EQ(caveats.front().metrics, "*");
    EXPECT_NE(caveats.front().text.find("sync=disabled"), std::string::npos);
    EXPECT_NE(caveats.front().text.find("loses"), std::string::npos);

    s = parsed("kind = \"zfs-mirror\"\ndisks = [\"d0\", \"d1\"]");
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_TRUE(dataLossCaveats(s->layouts.front()).empty()) << "standard sync loses nothing";
}

TEST(ZfsAuxVdevs, AnAsyncNfsExportAndAnIscsiWriteCacheAreCaveatsOnTheirMetrics) {
    const auto s = parsed(R"(kind = "zfs-mirror"
disks = ["d0", "d1"]
[layouts.export]
iscsi = "tgt"
lun = "zvol"
write_cache = "on"
nfs = "kernel"
nfs_options = ["rw", "async", "no_root_squash"])");
    ASSERT_TRUE(s) << s.error().message;
    const auto caveats = dataLossCaveats(s->layouts.front());
    ASSERT_EQ(caveats.size(), 2U);
    EXPECT_EQ(caveats[0].metrics, "nfs.*");
    EXPECT_NE(caveats[0].text.find("NFS export async"), std::string::npos);
    EXPECT_EQ(caveats[1].metrics, "iscsi.*");
    EXPECT_NE(caveats[1].text.find("write cache on"), std::string::npos);
    // tgt's caching mode page with WCE set, as tgt-admin's write-cache on.
    EXPECT_NE(described(*s).find("tgtadm --lld iscsi --op update --mode logicalunit --tid 1 "
                                 "--lun 1 --params mode_page=8:0:18:0x14:0:0xff:0xff:0:0:0xff:"
                                 "0xff:0xff:0xff:0x80:0x14:0:0:0:0:0:0"),
              std::string::npos)
        << described(*s);

    const auto off = parsed("kind = \"zfs-mirror\"\ndisks = [\"d0\", \"d1\"]\n"
                            "[layouts.export]\niscsi = \"lio\"\nlun = \"zvol\"\n"
                            "write_cache = \"off\"");
    ASSERT_TRUE(off) << off.error().message;
    EXPECT_TRUE(dataLossCaveats(off->layouts.front()).empty()) << "writes go through";
    EXPECT_NE(described(*off).find("set attribute emulate_write_cache=0"), std::string::npos)
        << described(*off);
}

constexpr std::uint64_t GB = 1000ULL * 1000 * 1000;

CapacityInput raidz1(std::vector<std::uint64_t> special = {}) {
    CapacityInput in;
    in.kind = LayoutKind::ZfsRaidz1;
    in.diskBytes.assign(4, 1000 * GB);
    in.specialDiskBytes = std::move(special);
    return in;
}

Capacity compute(const CapacityInput& in) {
    auto c = computeCapacity(in);
    EXPECT_TRUE(c) << c.error().message;
    return c ? *c : Capacity{};
}

TEST(ZfsAuxCapacity, ASpecialMirrorAddsToThePoolSizeNotToUsable) {
    const Capacity plain = compute(raidz1());
    const Capacity with = compute(raidz1({200 * GB, 200 * GB}));
    EXPECT_EQ(with.usableBytes, plain.usableBytes) << "zfs list counts the normal class alone";
    EXPECT_EQ(with.slopBytes, plain.slopBytes) << "the slop is the normal class's";
    EXPECT_EQ(with.rawBytes, plain.rawBytes + 400 * GB);
    EXPECT_GT(with.specialPoolSizeBytes, 190 * GB);
    EXPECT_EQ(with.poolSizeBytes, plain.poolSizeBytes + with.specialPoolSizeBytes);
    EXPECT_GT(with.specialBytes, 180 * GB);
    EXPECT_LE(with.specialBytes, with.specialPoolSizeBytes);
    EXPECT_EQ(with.usableBytes + with.slopBytes + with.parityBytes + with.paddingBytes +
                  with.reservedBytes + with.underprovisionedBytes + with.mixedSizeWasteBytes +
                  with.spareBytes + with.specialBytes,
              with.rawBytes)
        << "every raw byte in one category";
    EXPECT_EQ(with.faultTolerance, 1U);
    EXPECT_EQ(with.specialFaultTolerance, 1U);
    EXPECT_FALSE(redundancyNote(raidz1({200 * GB, 200 * GB})));
}

TEST(ZfsAuxCapacity, ASingleSpecialDeviceMakesThePoolTolerateNothing) {
    const auto in = raidz1({200 * GB});
    const Capacity c = compute(in);
    EXPECT_EQ(c.faultTolerance, 0U) << "the least of the raidz's 1 and the special device's 0";
    EXPECT_EQ(c.specialFaultTolerance, 0U);
    const auto note = redundancyNote(in);
    ASSERT_TRUE(note);
    EXPECT_NE(note->find("tolerates 0 failures"), std::string::npos) << *note;
}

TEST(ZfsAuxCapacity, OnlyAPoolHasASpecialVdev) {
    CapacityInput md = raidz1({200 * GB, 200 * GB});
    md.kind = LayoutKind::MdRaid5;
    const auto c = computeCapacity(md);
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().message.rfind("special: ", 0), 0U) << c.error().message;
}

TEST(ZfsAuxCapacity, TheStoredSpecKeepsTheSpecialDisks) {
    const auto s = parsed(raidzWithAll);
    ASSERT_TRUE(s) << s.error().message;
    std::map<std::string, std::uint64_t> sizes;
    for (char c = 'b'; c <= 'i'; ++c)
        sizes[std::string("/dev/sd") + c] = 500 * GB;
    const auto spec = layoutSpecJson(*s, s->layouts.front(), sizes);
    const auto in = capacityInputFromSpec(spec, "zfs-raidz1");
    ASSERT_TRUE(in) << spec;
    EXPECT_EQ(in->specialDiskBytes, (std::vector<std::uint64_t>{500 * GB, 500 * GB})) << spec;
    EXPECT_NE(spec.find("\"log\":[\"d3\",\"d4\"]"), std::string::npos) << spec;
    EXPECT_NE(spec.find("\"sync\":\"always\""), std::string::npos) << spec;
}

TEST(ZfsAuxRisk, TheSpecialVdevIsAGroupOfItsOwn) {
    auto mirrored = estimateRisk(raidz1({200 * GB, 200 * GB}), std::nullopt, {}, 0.5, 5);
    ASSERT_TRUE(mirrored) << mirrored.error().message;
    ASSERT_EQ(mirrored->groups.size(), 2U);
    EXPECT_FALSE(mirrored->groups[0].special);
    EXPECT_TRUE(mirrored->groups[1].special);
    EXPECT_EQ(mirrored->groups[1].disks, 2U);
    EXPECT_EQ(mirrored->groups[1].tolerates, 1U);
    const auto plain = estimateRisk(raidz1(), std::nullopt, {}, 0.5, 5);
    ASSERT_TRUE(plain) << plain.error().message;
    EXPECT_GT(mirrored->lossProbability, plain->lossProbability) << "two more disks to lose";
    EXPECT_NE(riskStatement(*mirrored).find("the special vdev's 2 disks, any 1 may fail"),
              std::string::npos)
        << riskStatement(*mirrored);

    auto single = estimateRisk(raidz1({200 * GB}), std::nullopt, {}, 0.5, 5);
    ASSERT_TRUE(single) << single.error().message;
    EXPECT_EQ(single->groups.back().tolerates, 0U);
    EXPECT_GT(single->lossProbability, mirrored->lossProbability * 10)
        << "one special device is the pool's weakest part";
    EXPECT_NE(riskStatement(*single).find("the special vdev's one disk, which may not fail"),
              std::string::npos)
        << riskStatement(*single);
}

} // namespace
} // namespace lb
