// The fail-rebuild drill on md and OpenZFS 2.3 in the lab guest, through the campaign: a member
// failed administratively, or pulled from the running guest through qemu's monitor (the disk
// fails as the guest's kernel sees it), under a running fio load; the spare rebuilt, the data
// verified, the load's phases stored as runs that compare puts against each other, and the
// measured rate handed to the risk model of `project`. One guest boot for all five drills.
#include "engine/store/store.h"
#include "tests/openzfs/openzfs_fixture.h"
#include "tests/support/stored_runs.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

using lb::test::briefWrite;
using lb::test::LabGuest;
using lb::test::MiB;
using lb::test::OpenZfsCampaign;
using nlohmann::json;

constexpr std::uint64_t diskBytes = 128 * MiB;
// The mirror's and the dRAID's disks: on 128 MiB a mirror holds 56 MiB and a dRAID1 of four
// children 83 MB (OpenZFS keeps at least 128 MiB of a pool as slop, up to half of it), which the
// fill and the load's 32 MiB file would take to 70-90 %.
constexpr std::uint64_t mirrorDiskBytes = 256 * MiB;
constexpr int guestDisks = 15;

// md RAID-5 and a raidz1 on the same three disks, one after the other in one guest boot, each
// with a fail-rebuild drill of d1 onto the spare d3, failed administratively. Then two drills
// whose member is pulled through qemu's monitor (lb-qmp, run by the workbench on this machine),
// each on disks of its own since a pulled disk does not come back: a ZFS mirror on d7 and d8
// whose d8 is unplugged with device_del (the guest's kernel sees the disk vanish), and an md
// RAID-1 on d4 and d5 whose d5 gets drive_del (every I/O to it fails, as a dying disk's); spares
// d9 and d6. Before them, a dRAID1 with a distributed spare on d10-d13, d11 failed
// administratively: the distributed spare takes it (a sequential rebuild), then the spare disk
// d14 (the healing resilver). The drive_del drill comes last: after it, in four of five runs,
// writes to another of the guest's disks stalled in qemu (two writes in flight on /dev/vdh for
// minutes, txg_sync hung), which held the mirror's next load for 80 s or for good.
std::string rebuildScenario(const std::string& header, const std::string& qmpSocket) {
    const auto pull = [&](const std::string& monitorCommand, const std::string& device) {
        return "fail = \"pull\"\npull_command = [\"" + std::string(LAYOUTBENCH_QMP) + "\", \"" +
               qmpSocket + "\", \"" + monitorCommand + "\", \"" + device + "\"]\npull_wait = 120\n";
    };
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

[[layouts]]
name = "draid"
kind = "zfs-draid1"
disks = ["d10", "d11", "d12", "d13"]
draid_spares = 1

[[drills]]
layout = "draid"
action = "fail-rebuild"
disk = "d11"
disks = ["d14"]
fill = 0.3
phase_seconds = 3
timeout = 600

[[layouts]]
name = "mirror"
kind = "zfs-mirror"
disks = ["d7", "d8"]

[[layouts]]
name = "md1"
kind = "md-raid1"
disks = ["d4", "d5"]

[[drills]]
layout = "md1"
action = "fail-rebuild"
disk = "d5"
disks = ["d6"]
fill = 0.3
phase_seconds = 3
sync_speed_min = 200000
timeout = 600
)" + pull("drive_del", "disk5") +
           R"(
[[drills]]
layout = "mirror"
action = "fail-rebuild"
disk = "d8"
disks = ["d9"]
fill = 0.3
phase_seconds = 3
timeout = 600
)" + pull("device_del", "dev-disk8") +
           std::string(briefWrite);
}

TEST_F(OpenZfsCampaign, RebuildDrillsFailedByAdminAndPulledUnderLoad) {
    auto options = lb::test::openzfsGuestOptions(guestDisks, diskBytes);
    for (std::size_t i = 7; i < options.newDiskBytes.size(); ++i) // the mirror's and dRAID's
        options.newDiskBytes[i] = mirrorDiskBytes;
    LabGuest guest(options);
    if (!guest.available())
        GTEST_SKIP() << "no OpenZFS lab guest: " << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why();

    const std::string toml = oneIteration(
        rebuildScenario(header(guest, "openzfs-rebuild", guestDisks), guest.qmpSocket()));
    const auto scenario = write("scenario.toml", toml);
    const auto r = runDestroying(scenario, guestDisks);
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
            std::printf("[ drill    ] %s: %.1f s (TCG)\n", layout.c_str(),
                        one.value("wall_seconds", 0.0));
        } else {
            phases[layout] = one.value("status", "");
        }
    }
    ASSERT_EQ(drills.size(), 5U) << listed.out;
    for (const char* layout : {"md5", "raidz1", "draid", "md1", "mirror"})
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

    // dRAID: the distributed spare took the failed child (the sequential rebuild), then the
    // spare disk took it from the distributed spare (the healing resilver); both timed, both
    // restored less than the child, the data intact.
    const auto rows = lb::test::runRows(*store, 1);
    const auto row = [&](const std::string& layout) {
        const auto it = std::find_if(rows.begin(), rows.end(), [&](const lb::test::RunRow& one) {
            return one.id == drills[layout];
        });
        return it == rows.end() ? lb::test::RunRow{} : *it;
    };
    {
        const auto seq = metric("draid", "seconds");
        const auto heal = metric("draid", "heal_seconds");
        const auto bytes = metric("draid", "rebuild_bytes");
        const auto healBytes = metric("draid", "heal_bytes");
        ASSERT_TRUE(seq && heal && bytes && healBytes);
        EXPECT_GT(*seq, 0.0);
        EXPECT_GT(*heal, 0.0);
        EXPECT_GT(*bytes, 0.0);
        EXPECT_LT(*bytes, static_cast<double>(mirrorDiskBytes));
        EXPECT_GT(*healBytes, 0.0);
        EXPECT_LT(*healBytes, static_cast<double>(mirrorDiskBytes));
        EXPECT_EQ(metric("draid", "scrub_errors"), 0.0);
        EXPECT_EQ(metric("draid", "checksum_mismatches"), 0.0);
        // The sequential rebuild's own bytes: exact, from the rebuild_stats of `zpool status -j`
        // (a healing resilver has none), not the rounded "resilvered (draid1:...) 10.4M" line.
        const auto run = row("draid");
        const auto at = run.out.find(" rebuild_bytes=");
        ASSERT_NE(at, std::string::npos) << run.out;
        const std::string exact =
            run.out.substr(at + 15, run.out.find_first_of(" \n", at + 1) - at - 15);
        EXPECT_TRUE(!exact.empty() && exact.find_first_not_of("0123456789") == std::string::npos)
            << exact;
        std::printf("[ dRAID    ] (TCG) sequential rebuild onto the distributed spare: %.1f MiB in "
                    "%.1f s; healing resilver onto the disk: %.1f MiB in %.1f s\n",
                    *bytes / MiB, *seq, *healBytes / MiB, *heal);
        std::istringstream said(run.out);
        for (std::string line; std::getline(said, line);)
            if (line.starts_with("lb-drill "))
                std::printf("             %s\n", line.c_str());
    }

    // The pulled members: md saw the drive_del'd disk faulty, ZFS the unplugged one REMOVED, each
    // under the load; rebuilt onto the spare, the data intact.
    for (const char* layout : {"md1", "mirror"}) {
        const auto run = row(layout);
        EXPECT_TRUE(lb::test::hasCaveat(run, "the member was pulled (" LAYOUTBENCH_QMP))
            << layout << ::testing::PrintToString(run.caveats);
        EXPECT_TRUE(lb::test::hasCaveat(run, "during the run: " LAYOUTBENCH_QMP))
            << layout << ::testing::PrintToString(run.caveats);
        EXPECT_TRUE(lb::test::hasCaveat(run, ": exit status 0 in "))
            << layout << ::testing::PrintToString(run.caveats);
        EXPECT_EQ(metric(layout, "checksum_mismatches"), 0.0) << layout;
        const auto detect = metric(layout, "detect_seconds");
        const auto bytes = metric(layout, "rebuild_bytes");
        const auto seconds = metric(layout, "seconds");
        ASSERT_TRUE(detect && bytes && seconds) << layout;
        EXPECT_GT(*bytes, 0.0) << layout;
        std::printf("[ pulled   ] %s (TCG): seen failed %.2f s after the pull, %.0f MiB rebuilt "
                    "in %.1f s\n",
                    layout, *detect, *bytes / MiB, *seconds);
        std::istringstream said(run.out); // what the drill reported, its load's JSON left out
        for (std::string line; std::getline(said, line);)
            if (line.starts_with("lb-drill "))
                std::printf("             %s\n", line.c_str());
    }
    EXPECT_TRUE(lb::test::hasCaveat(row("md1"), "md saw it faulty"))
        << ::testing::PrintToString(row("md1").caveats);
    EXPECT_TRUE(lb::test::hasCaveat(row("mirror"), "ZFS saw it REMOVED"))
        << ::testing::PrintToString(row("mirror").caveats);
    EXPECT_EQ(metric("md1", "mismatch_cnt"), 0.0);
    EXPECT_EQ(metric("mirror", "scrub_errors"), 0.0);
    // md rebuilt the whole member; the mirror only what was allocated (the fill and the load's
    // file, under half of its member).
    EXPECT_GT(*metric("md1", "rebuild_bytes"), 0.9 * static_cast<double>(diskBytes));
    EXPECT_LT(*metric("mirror", "rebuild_bytes"), 0.5 * static_cast<double>(mirrorDiskBytes));
    // The unplugged disk is gone from the guest, and every layout was torn down.
    lb::Command look{"sh",
                     {"-c", "test ! -e /dev/vdi && echo gone; cat /proc/mdstat; "
                            "zpool list -H -o name"}};
    look.timeout = std::chrono::seconds(60);
    const auto after = lb::makeSshRunner(guest.target())->run(look);
    ASSERT_TRUE(after && after->ok()) << (after ? after->exitSummary() : after.error().message);
    EXPECT_NE(after->stdoutText.find("gone"), std::string::npos) << after->stdoutText;
    EXPECT_EQ(after->stdoutText.find(" : active"), std::string::npos) << after->stdoutText;
    EXPECT_EQ(after->stdoutText.find("lb-"), std::string::npos) << after->stdoutText;
    std::printf("%s", r.out.substr(0, r.out.find('\n') + 1).c_str());
    for (std::size_t at = r.out.find("problem:"); at != std::string::npos;
         at = r.out.find("problem:", at + 1))
        std::printf("  %s\n", r.out.substr(at, r.out.find('\n', at) - at).c_str());

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
