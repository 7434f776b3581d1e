// Fill levels on the ZFS and md servers run (issue 44, `ctest -R Fill`): the real `layoutbench
// run` in the OpenZFS lab guest, one boot for the suite. An OpenZFS 2.3 mirror (baseline) and
// raidz1 filled and aged to 0 % and 50 % of their usable space, with what zpool says of itself
// stored as numbers (capacity and fragmentation: the figure zfs-fuse never reports); md RAID-1
// with ext4 (baseline) and with xfs aged to 50 %, with e2freefrag's and xfs_db's free-extent
// figures stored. compare --fill all gives each level. The guest runs under TCG: the times are an
// emulator's.
#include "tests/fill/fill_lab_fixture.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <set>

namespace {

using lb::test::LabGuest;
using lb::test::levelSlack;
using lb::test::MiB;
using nlohmann::json;

// vda, vdb: the mirror; vdc..vde: the raidz1; vdf, vdg: md RAID-1 with ext4; vdh, vdi: md
// RAID-1 with xfs, whose mkfs refuses less than 300 MB. 128 MiB is small for ZFS (it keeps up to
// half of such a pool as slop) but the fill is a share of what the pool offers, used + available,
// and a small pool keeps the ageing short under emulation.
const std::vector<std::uint64_t> diskBytes{128 * MiB, 128 * MiB, 128 * MiB, 128 * MiB, 128 * MiB,
                                           128 * MiB, 128 * MiB, 352 * MiB, 352 * MiB};

using lb::test::zfsMirrorAndRaidz1;

class OpenZfsFill : public lb::test::FillLabSuite<diskBytes> {};

TEST_F(OpenZfsFill, FillZfsMirrorAndRaidz1AgedTo0And50) {
    const std::string text = scenario("fill-zfs", 0, 5, 1, "[0.0, 0.5]") + zfsMirrorAndRaidz1;
    json out;
    ASSERT_NO_FATAL_FAILURE(campaign("zfs.toml", text, 0, 5, {0.0, 0.5}, out));
    const auto& comparisons = out.at("comparisons");

    for (std::size_t i = 0; i < 2; ++i) {
        const double level = i == 0 ? 0.0 : 50.0;
        const auto [usedMirror, usedRaidz] = medians(comparisons[i], "fill.level");
        const auto [capMirror, capRaidz] = medians(comparisons[i], "fill.pool_capacity");
        const auto [fragMirror, fragRaidz] = medians(comparisons[i], "fill.pool_fragmentation");
        std::printf("[ info ] aged to %.0f %%: used mirror %.1f %%, raidz1 %.1f %%; zpool "
                    "capacity %.0f %%, %.0f %%; fragmentation %.0f %%, %.0f %%\n",
                    level, usedMirror, usedRaidz, capMirror, capRaidz, fragMirror, fragRaidz);
        expectLevel(usedMirror, level, "mirror");
        expectLevel(usedRaidz, level, "raidz1");
        // zpool's capacity counts the slop the dataset cannot use: at most the level, above 0
        // once aged.
        for (const double cap : {capMirror, capRaidz}) {
            EXPECT_GE(cap, 0.0);
            EXPECT_LE(cap, level + levelSlack);
            if (level > 0) {
                EXPECT_GT(cap, 10.0);
            }
        }
        // OpenZFS 2.3 reports fragmentation: a percentage, stored as a number.
        for (const double frag : {fragMirror, fragRaidz}) {
            EXPECT_GE(frag, 0.0);
            EXPECT_LE(frag, 100.0);
        }
    }
    const auto [wroteMirror, wroteRaidz] = medians(comparisons[1], "fill.written_bytes");
    const auto [deletedMirror, deletedRaidz] = medians(comparisons[1], "fill.deleted_bytes");
    const auto [secondsMirror, secondsRaidz] = medians(comparisons[1], "fill.seconds");
    std::printf("[ info ] the ageing to 50 %% wrote %.1f MB (deleted %.1f MB) in %.0f s on the "
                "mirror, %.1f MB (deleted %.1f MB) in %.0f s on the raidz1\n",
                wroteMirror / 1e6, deletedMirror / 1e6, secondsMirror, wroteRaidz / 1e6,
                deletedRaidz / 1e6, secondsRaidz);
    EXPECT_GT(deletedMirror, 0);
    EXPECT_GT(deletedRaidz, 0);
    EXPECT_LT(deletedMirror, wroteMirror);
    EXPECT_LT(deletedRaidz, wroteRaidz);
    for (const auto& c : comparisons)
        for (const auto& caveat : c.value("caveats", json::array()))
            EXPECT_EQ(caveat.dump().find("reports no fragmentation"), std::string::npos) << caveat;

    const auto levels = storedLevels();
    for (const char* workload : {"fill:age", "fio:rand-write-4k-qd32"})
        for (const double level : {0.0, 0.5})
            EXPECT_TRUE(levels.count({workload, level})) << workload << " at " << level;
    EXPECT_EQ(levels.size(), 4U);

    // compare --fill all: each level, the same verdicts as the campaign's.
    const auto all = layoutbench(
        {"compare", "--baseline", "mirror", "--candidate", "raidz1", "--fill", "all", "--json"});
    ASSERT_EQ(all.exitCode, 0) << all.err;
    const json curve = parsed(all);
    ASSERT_EQ(curve.at("levels").size(), 2U) << curve.dump(1).substr(0, 4000);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(curve.at("levels")[i].at("fill_level"), comparisons[i].at("fill_level"));
        EXPECT_EQ(curve.at("levels")[i].at("verdict"), comparisons[i].at("verdict"));
    }
    ASSERT_EQ(out.at("fill_summaries").size(), 1U);
    EXPECT_EQ(curve.at("fill_summary"), out.at("fill_summaries")[0]);
    std::printf("[ info ] %s\n", curve.at("fill_summary").get<std::string>().c_str());

    // The drive-wear projection says what the ageing wrote on the layout (issue 44, item 5): the
    // one ageing to 50 % here.
    const auto project = layoutbench({"project", "--layout", "raidz1", "--used", "10M", "--growth",
                                      "30%", "--host-writes", "1G/d", "--json"});
    ASSERT_EQ(project.exitCode, 0) << project.err;
    const json projected = parsed(project).at("layouts").at(0);
    EXPECT_NEAR(projected.at("fill_levels").at("ageing_written_bytes").get<double>(), wroteRaidz,
                1.0);
    EXPECT_GT(projected.at("wear").at("fill_ageing_device_bytes_per_disk").get<double>(),
              wroteRaidz / 3);

    // Torn down: no pool left in the guest.
    auto runner = lb::makeRunnerFor(guest_->sshUrl(), guest_->identity(), guest_->knownHosts());
    ASSERT_TRUE(runner);
    const auto pools = (*runner)->run(lb::Command{"zpool", {"list", "-H", "-o", "name"}});
    ASSERT_TRUE(pools);
    EXPECT_EQ(pools->stdoutText, "");
}

TEST_F(OpenZfsFill, FillMdRaid1Ext4AndXfsAgedTo50) {
    const std::string text = scenario("fill-md", 5, 4, 1, "[0.5]") + R"(
[[layouts]]
name = "md-ext4"
kind = "md-raid1"
disks = ["d5", "d6"]
filesystem = "ext4"
assume_clean = true
baseline = true
[[layouts]]
name = "md-xfs"
kind = "md-raid1"
disks = ["d7", "d8"]
filesystem = "xfs"
assume_clean = true
)";
    json out;
    ASSERT_NO_FATAL_FAILURE(campaign("md.toml", text, 5, 4, {0.5}, out));
    const auto& comparisons = out.at("comparisons");

    const auto [usedExt4, usedXfs] = medians(comparisons[0], "fill.level");
    const auto [extentsExt4, extentsXfs] = medians(comparisons[0], "fill.free_extents");
    const auto [avgExt4, avgXfs] = medians(comparisons[0], "fill.free_extent_avg_bytes");
    const auto [secondsExt4, secondsXfs] = medians(comparisons[0], "fill.seconds");
    std::printf("[ info ] aged to 50 %%: used ext4 %.1f %%, xfs %.1f %%; free extents %.0f "
                "(average %.0f KiB), %.0f (average %.0f KiB); ageing %.0f s, %.0f s\n",
                usedExt4, usedXfs, extentsExt4, avgExt4 / 1024, extentsXfs, avgXfs / 1024,
                secondsExt4, secondsXfs);
    expectLevel(usedExt4, 50.0, "ext4");
    expectLevel(usedXfs, 50.0, "xfs");
    // Plausible: at least one free extent, at most one per free 4 KiB block of the half left
    // free; the average a block or more and no more than that free half (the arrays are 128 and
    // 352 MiB).
    EXPECT_GE(extentsExt4, 1.0);
    EXPECT_GE(extentsXfs, 1.0);
    EXPECT_LE(extentsExt4, 64.0 * MiB / 4096);
    EXPECT_LE(extentsXfs, 176.0 * MiB / 4096);
    EXPECT_GE(avgExt4, 4096.0);
    EXPECT_GE(avgXfs, 4096.0);
    EXPECT_LE(avgExt4, 64.0 * MiB);
    EXPECT_LE(avgXfs, 176.0 * MiB);

    const auto levels = storedLevels();
    EXPECT_EQ(levels, (std::set<std::pair<std::string, double>>{{"fill:age", 0.5},
                                                                {"fio:rand-write-4k-qd32", 0.5}}));
}

} // namespace
