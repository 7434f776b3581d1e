// The wider fail-rebuild grid of the lab target, in one guest boot: a ZFS mirror and md RAID-1
// failed administratively, then a ZFS mirror and md RAID-1 whose member is a device-mapper linear
// device that the drill swaps for dm's error target under the load (fail = "error"); each rebuilt
// onto its spare under the load, its data verified after. (dRAID's drill is in the CI test,
// openzfs_rebuild_test.cpp.)
#include "engine/store/store.h"
#include "tests/openzfs/openzfs_fixture.h"
#include "tests/support/stored_runs.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

using lb::test::briefWrite;
using lb::test::guestDisk;
using lb::test::LabGuest;
using lb::test::MiB;
using lb::test::OpenZfsCampaign;
using nlohmann::json;

// Disks 3 to 7 are used through dm linear devices of the same size, /dev/mapper/lbdmN, which the
// test makes before the campaign and removes after it. The ZFS mirror's spare is one too: ZFS
// uses a dm device as it is, without the partition table it writes on a whole disk, so a whole
// disk of the same size is "too small" to replace it.
constexpr int guestDisks = 9;
const std::vector<int> dmDisks{3, 4, 5, 6, 7};
std::string dmName(int i) {
    return "lbdm" + std::to_string(i);
}

// Runs a shell command in the guest; its stdout, or the failure in the test's output.
std::string guestShell(const LabGuest& guest, const std::string& script) {
    lb::Command c{"sh", {"-c", script}};
    c.timeout = std::chrono::seconds(120);
    const auto r = lb::makeSshRunner(guest.target())->run(c);
    EXPECT_TRUE(r && r->ok()) << script << ": "
                              << (r ? r->exitSummary() + r->stderrText : r.error().message);
    return r ? r->stdoutText : std::string();
}

std::string scenario(const std::string& header) {
    return header + R"(
[[layouts]]
name = "mirror"
kind = "zfs-mirror"
baseline = true
disks = ["d0", "d1"]

[[layouts]]
name = "md1"
kind = "md-raid1"
disks = ["d0", "d1"]

[[layouts]]
name = "mirror-dm"
kind = "zfs-mirror"
disks = ["d3", "d4"]

[[layouts]]
name = "md1-dm"
kind = "md-raid1"
disks = ["d6", "d7"]

[[drills]]
layout = "mirror"
action = "fail-rebuild"
disk = "d0"
disks = ["d2"]
fill = 0.3
phase_seconds = 3
timeout = 900

[[drills]]
layout = "md1"
action = "fail-rebuild"
disk = "d1"
disks = ["d2"]
fill = 0.3
phase_seconds = 3
sync_speed_min = 200000
timeout = 900

[[drills]]
layout = "mirror-dm"
action = "fail-rebuild"
disk = "d4"
disks = ["d5"]
fail = "error"
pull_wait = 120
fill = 0.3
phase_seconds = 3
timeout = 900

[[drills]]
layout = "md1-dm"
action = "fail-rebuild"
disk = "d7"
disks = ["d8"]
fail = "error"
pull_wait = 120
fill = 0.3
phase_seconds = 3
sync_speed_min = 200000
timeout = 900
)" + std::string(briefWrite);
}

TEST_F(OpenZfsCampaign, RebuildDrillsMirrorAndMdRaid1AdminAndDmError) {
    auto options = lb::test::openzfsGuestOptions(guestDisks, 128 * MiB);
    // The dm mirror's disks and spare: on 128 MiB OpenZFS keeps half of a mirror as slop.
    for (const std::size_t i : {3U, 4U, 5U})
        options.newDiskBytes[i] = 256 * MiB;
    LabGuest guest(options);
    if (!guest.available())
        GTEST_SKIP() << "no OpenZFS lab guest: " << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why();

    // The linear devices over the real disks, as an administrator would make them.
    std::string make = "modprobe dm-mod || exit 1\n";
    for (const int i : dmDisks)
        make += "dmsetup create " + dmName(i) + " --table \"0 $(blockdev --getsz " + guestDisk(i) +
                ") linear " + guestDisk(i) + " 0\" || exit 1\n";
    guestShell(guest, make + "dmsetup table");

    std::string toml = header(guest, "openzfs-rebuild-grid", guestDisks);
    std::vector<std::string> args{"run", write("scenario.toml", "")};
    for (int i = 0; i < guestDisks; ++i)
        args.insert(args.end(), {"--yes-destroy", guestDisk(i)});
    for (const int i : dmDisks) {
        const std::string from = "\"" + guestDisk(i) + "\"";
        toml.replace(toml.find(from), from.size(), "\"/dev/mapper/" + dmName(i) + "\"");
        std::replace(args.begin(), args.end(), guestDisk(i), "/dev/mapper/" + dmName(i));
    }
    args[1] = write("scenario.toml", oneIteration(scenario(toml)));

    // plan shows the swap to the error target and its undo.
    const auto planned = layoutbench({"plan", args[1]});
    ASSERT_EQ(planned.exitCode, 0) << planned.out << planned.err;
    EXPECT_NE(planned.out.find("dmsetup load \"$1\" --table \"0 $(blockdev --getsz"),
              std::string::npos)
        << planned.out;
    EXPECT_NE(planned.out.find("undo: sh -c 'dmsetup load \"$1\" --table \"$2\""),
              std::string::npos)
        << planned.out;

    const auto r = layoutbench(args);
    std::string after = guestShell(guest, "dmsetup table; zpool list -H -o name; cat /proc/mdstat");
    std::string remove;
    for (const int i : dmDisks)
        remove += "dmsetup remove " + dmName(i) + "; ";
    guestShell(guest, remove + "true");
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << guest.consoleLog();

    const auto listed = layoutbench({"list", "runs", "--json"});
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    std::map<std::string, std::int64_t> drills;
    for (const auto& one : json::parse(listed.out))
        if (one.value("workload", "") == "drill:fail-rebuild" &&
            one.value("layout", "").find('@') == std::string::npos) {
            EXPECT_EQ(one.value("status", ""), "ok") << one.dump();
            drills[one.value("layout", "")] = one.value("id", std::int64_t{0});
        }
    ASSERT_EQ(drills.size(), 4U) << listed.out;
    auto store = lb::Store::open(dir_ + "/results.db");
    ASSERT_TRUE(store) << store.error().message;
    const auto metric = [&](const std::string& layout, const char* stat) {
        return lb::test::metricValue(*store, drills[layout],
                                     std::string("drill.fail-rebuild.") + stat);
    };
    const auto rows = lb::test::runRows(*store, 1);
    for (const char* layout : {"mirror", "md1", "mirror-dm", "md1-dm"}) {
        EXPECT_EQ(metric(layout, "checksum_mismatches"), 0.0) << layout;
        const auto rate = metric(layout, "rebuild_rate");
        const auto seconds = metric(layout, "seconds");
        const auto bytes = metric(layout, "rebuild_bytes");
        ASSERT_TRUE(rate && seconds && bytes) << layout;
        EXPECT_GT(*bytes, 0.0) << layout;
        std::printf("[ rebuild  ] %s (TCG): %.0f MiB in %.1f s, %.1f MiB/s\n", layout, *bytes / MiB,
                    *seconds, *rate / MiB);
    }
    EXPECT_EQ(metric("md1-dm", "mismatch_cnt"), 0.0);
    EXPECT_EQ(metric("mirror-dm", "scrub_errors"), 0.0);
    // The members under the error target: md saw its member faulty, ZFS its vdev not ONLINE,
    // each under the load; the drill put the linear table back after the rebuild.
    for (const char* layout : {"mirror-dm", "md1-dm"}) {
        const auto run = *std::find_if(rows.begin(), rows.end(), [&](const lb::test::RunRow& one) {
            return one.id == drills[layout];
        });
        EXPECT_TRUE(lb::test::hasCaveat(run, "swapped for the error target under the load"))
            << layout << ::testing::PrintToString(run.caveats);
        EXPECT_TRUE(lb::test::hasCaveat(run, "its table was put back after the rebuild"))
            << layout << ::testing::PrintToString(run.caveats);
        EXPECT_TRUE(lb::test::hasCaveat(run, layout == std::string("md1-dm") ? "md saw it faulty"
                                                                             : "ZFS saw it "))
            << layout << ::testing::PrintToString(run.caveats);
        const auto detect = metric(layout, "detect_seconds");
        ASSERT_TRUE(detect) << layout;
        std::printf("[ dm error ] %s (TCG): seen failed %.2f s after the swap\n", layout, *detect);
        std::istringstream said(run.out);
        for (std::string line; std::getline(said, line);)
            if (line.starts_with("lb-drill "))
                std::printf("             %s\n", line.c_str());
    }
    // Every member has its linear table again, and every layout was torn down.
    for (const int i : dmDisks)
        EXPECT_NE(after.find(dmName(i) + ": 0 "), std::string::npos) << after;
    EXPECT_EQ(after.find(" error"), std::string::npos) << after;
    EXPECT_EQ(after.find(" : active"), std::string::npos) << after;
    EXPECT_EQ(after.find("lb-"), std::string::npos) << after;
}

} // namespace
