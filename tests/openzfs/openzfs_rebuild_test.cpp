// The fail-rebuild drill on md and OpenZFS 2.3 in the lab guest, through the campaign: a member
// failed administratively under a running fio load, the spare rebuilt, the data verified, the
// load's phases stored as runs that compare puts against each other, and the measured rate
// handed to the risk model of `project`.
#include "engine/store/store.h"
#include "tests/openzfs/openzfs_fixture.h"
#include "tests/support/stored_runs.h"

#include <nlohmann/json.hpp>

namespace {

using lb::test::briefWrite;
using lb::test::LabGuest;
using lb::test::MiB;
using lb::test::OpenZfsCampaign;
using nlohmann::json;

constexpr std::uint64_t diskBytes = 128 * MiB;

// md RAID-5 and a raidz1 on the same three disks, one after the other in one guest boot, each
// with a fail-rebuild drill of d1 onto the spare d3.
std::string rebuildScenario(const std::string& header) {
    return header + R"(
[[layouts]]
name = "md5"
kind = "md-raid5"
baseline = true
disks = ["d0", "d1", "d2"]

[[layouts]]
name = "raidz1"
kind = "zfs-raidz1"
disks = ["d0", "d1", "d2"]

[[drills]]
layout = "md5"
action = "fail-rebuild"
disk = "d1"
disks = ["d3"]
fill = 0.3
phase_seconds = 3
sync_speed_min = 200000
timeout = 600

[[drills]]
layout = "raidz1"
action = "fail-rebuild"
disk = "d1"
disks = ["d3"]
fill = 0.3
phase_seconds = 3
timeout = 600
)" + std::string(briefWrite);
}

TEST_F(OpenZfsCampaign, RebuildDrillsMdRaid5AndRaidz1UnderLoad) {
    LabGuest guest(lb::test::openzfsGuestOptions(4, diskBytes));
    if (!guest.available())
        GTEST_SKIP() << "no OpenZFS lab guest: " << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why();

    const std::string toml = oneIteration(rebuildScenario(header(guest, "openzfs-rebuild", 4)));
    const auto scenario = write("scenario.toml", toml);
    const auto r = runDestroying(scenario, 4);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << guest.consoleLog();

    const auto listed = layoutbench({"list", "runs", "--json"});
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    std::map<std::string, std::int64_t> drills; // layout -> the drill's run
    std::map<std::string, std::string> phases;  // "md5@degraded" -> status
    for (const auto& one : json::parse(listed.out)) {
        if (one.value("workload", "") != "drill:fail-rebuild")
            continue;
        const std::string layout = one.value("layout", "");
        if (layout.find('@') == std::string::npos) {
            EXPECT_EQ(one.value("status", ""), "ok") << one.dump();
            drills[layout] = one.value("id", std::int64_t{0});
        } else {
            phases[layout] = one.value("status", "");
        }
    }
    ASSERT_EQ(drills.size(), 2U) << listed.out;
    for (const char* layout : {"md5", "raidz1"})
        for (const char* phase : {"@healthy", "@degraded", "@rebuilding", "@rebuilt"})
            EXPECT_EQ(phases[std::string(layout) + phase], "ok") << layout << phase << "\n"
                                                                 << listed.out;

    auto store = lb::Store::open(dir_ + "/results.db");
    ASSERT_TRUE(store) << store.error().message;
    const auto metric = [&](const std::string& layout, const char* stat) {
        return lb::test::metricValue(*store, drills[layout],
                                     std::string("drill.fail-rebuild.") + stat);
    };
    // md rebuilds the whole member: the component size, a little under the disk.
    const auto mdBytes = metric("md5", "rebuild_bytes");
    ASSERT_TRUE(mdBytes);
    EXPECT_GT(*mdBytes, 0.9 * static_cast<double>(diskBytes));
    EXPECT_LE(*mdBytes, static_cast<double>(diskBytes));
    EXPECT_EQ(metric("md5", "mismatch_cnt"), 0.0);
    // ZFS resilvers what is allocated: about a third of the filled 30 % of three disks, far less
    // than the member.
    const auto zfsBytes = metric("raidz1", "rebuild_bytes");
    ASSERT_TRUE(zfsBytes);
    EXPECT_GT(*zfsBytes, 0.0);
    EXPECT_LT(*zfsBytes, *mdBytes);
    EXPECT_EQ(metric("raidz1", "scrub_errors"), 0.0);
    for (const char* layout : {"md5", "raidz1"}) {
        EXPECT_EQ(metric(layout, "checksum_mismatches"), 0.0) << layout;
        const auto fill = metric(layout, "fill");
        ASSERT_TRUE(fill) << layout;
        // What df says is used against what the layout held free before: the asked 30 %, less
        // the part MiB of the whole-MiB files and what ZFS has not yet counted of the last
        // transaction group (28.6 % seen on the raidz1), more the file system's own blocks.
        EXPECT_NEAR(*fill, 30.0, 2.0) << layout;
        const auto seconds = metric(layout, "seconds");
        const auto rate = metric(layout, "rebuild_rate");
        ASSERT_TRUE(seconds && rate) << layout;
        std::printf("[ rebuild  ] %s (TCG): %.0f MiB rebuilt in %.1f s, %.1f MiB/s, fill %.0f %%\n",
                    layout, *(layout == std::string("md5") ? mdBytes : zfsBytes) / MiB, *seconds,
                    *rate / MiB, *fill);
    }

    // The load degraded against healthy, with compare's own statistics.
    const auto cmp = layoutbench(
        {"compare", "--baseline", "md5@healthy", "--candidate", "md5@degraded", "--json"});
    ASSERT_EQ(cmp.exitCode, 0) << cmp.out << cmp.err;
    bool iops = false;
    const json compared = json::parse(cmp.out);
    EXPECT_NE(compared.at("measured_on").at("candidate").dump().find("TCG"), std::string::npos)
        << cmp.out;
    for (const auto& m : compared.at("metrics"))
        iops = iops || m.value("name", "") == "fio.drill-randrw.read.iops";
    EXPECT_TRUE(iops) << cmp.out;

    // The measured rate is the risk model's for that layout.
    const auto projected = layoutbench({"project", "--layout", "raidz1", "--used", "10M",
                                        "--growth", "10%", "--years", "5", "--json"});
    ASSERT_EQ(projected.exitCode, 0) << projected.out << projected.err;
    const json risk = json::parse(projected.out).at("layouts").at(0).at("risk");
    EXPECT_EQ(risk.value("rebuild_rate_bytes_per_s", 0.0), *metric("raidz1", "rebuild_rate"));
    EXPECT_NE(risk.value("rebuild_rate_basis", "")
                  .find("measured: fail-rebuild drill, run " + std::to_string(drills["raidz1"])),
              std::string::npos)
        << risk.dump();
    // The lab guest runs under TCG, and the basis says so.
    EXPECT_NE(risk.value("rebuild_rate_basis", "").find("under TCG"), std::string::npos)
        << risk.dump();
}

} // namespace
