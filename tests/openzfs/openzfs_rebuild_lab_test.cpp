// The wider fail-rebuild grid of the lab target. In one guest boot: a ZFS mirror and md RAID-1
// failed administratively, then a ZFS mirror and md RAID-1 whose member is a device-mapper linear
// device that the drill swaps for dm's error target under the load (fail = "error"); each rebuilt
// onto its spare under the load, its data verified after. In another: raidz2 and md RAID-6
// failed administratively, md RAID-10 and raidz2 on dm devices failed through the error target.
// (dRAID's drill is in the CI test, openzfs_rebuild_test.cpp.) In a third: ZFS on md, a
// zfs-stripe pool on md RAID-1 failed administratively and one on md RAID-10 of dm devices
// failed through the error target: md's member fails and rebuilds under the pool that serves.
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

// Makes the guest's disks `dm` linear device-mapper devices of their size (as an administrator
// would, with dmsetup) and names those in the scenario's header and in the run's --yes-destroy
// arguments instead of the disks.
void useDmDevices(const LabGuest& guest, const std::vector<int>& dm, int disks, std::string& toml,
                  std::vector<std::string>& args) {
    std::string make = "modprobe dm-mod || exit 1\n";
    for (const int i : dm)
        make += "dmsetup create " + dmName(i) + " --table \"0 $(blockdev --getsz " + guestDisk(i) +
                ") linear " + guestDisk(i) + " 0\" || exit 1\n";
    guestShell(guest, make + "dmsetup table");
    for (int i = 0; i < disks; ++i)
        args.insert(args.end(), {"--yes-destroy", guestDisk(i)});
    for (const int i : dm) {
        const std::string from = "\"" + guestDisk(i) + "\"";
        toml.replace(toml.find(from), from.size(), "\"/dev/mapper/" + dmName(i) + "\"");
        std::replace(args.begin(), args.end(), guestDisk(i), "/dev/mapper/" + dmName(i));
    }
}

// After the campaign: what the guest still has (dm tables, pools, arrays), then the dm devices
// removed.
std::string afterDm(const LabGuest& guest, const std::vector<int>& dm) {
    std::string after = guestShell(guest, "dmsetup table; zpool list -H -o name; cat /proc/mdstat");
    std::string remove;
    for (const int i : dm)
        remove += "dmsetup remove " + dmName(i) + "; ";
    guestShell(guest, remove + "true");
    return after;
}

// What afterDm saw: every dm device linear again (none left on the error target), no md array
// active and nothing of the campaign's layouts ("lb-...") left.
void expectDmLinearAndTornDown(const std::string& after, const std::vector<int>& dm) {
    for (const int i : dm)
        EXPECT_NE(after.find(dmName(i) + ": 0 "), std::string::npos) << after;
    EXPECT_EQ(after.find(" error"), std::string::npos) << after;
    EXPECT_EQ(after.find(" : active"), std::string::npos) << after;
    EXPECT_EQ(after.find("lb-"), std::string::npos) << after;
}

// A drill's stored run among `rows`, by its id.
const lb::test::RunRow& drillRow(const std::vector<lb::test::RunRow>& rows, std::int64_t id) {
    const auto run = std::find_if(rows.begin(), rows.end(),
                                  [&](const lb::test::RunRow& one) { return one.id == id; });
    EXPECT_NE(run, rows.end()) << "no run " << id;
    static const lb::test::RunRow none;
    return run == rows.end() ? none : *run;
}

// What a drill said of itself ("lb-drill key=value" lines), printed under the test's figures.
void printDrillLines(const lb::test::RunRow& run) {
    std::istringstream said(run.out);
    for (std::string line; std::getline(said, line);)
        if (line.starts_with("lb-drill "))
            std::printf("             %s\n", line.c_str());
}

// The drills' runs in `list runs --json`, by layout (their load's phase runs left out); each
// expected ok.
std::map<std::string, std::int64_t> drillRuns(const std::string& listed) {
    std::map<std::string, std::int64_t> drills;
    for (const auto& one : json::parse(listed))
        if (one.value("workload", "") == "drill:fail-rebuild" &&
            one.value("layout", "").find('@') == std::string::npos) {
            EXPECT_EQ(one.value("status", ""), "ok") << one.dump();
            drills[one.value("layout", "")] = one.value("id", std::int64_t{0});
        }
    return drills;
}

// The metrics of the campaign's drills by layout and statistic ("drill.fail-rebuild.STAT"),
// from `list runs --json` and the store.
struct DrillMetrics {
    std::map<std::string, std::int64_t> drills; // the drill run of each layout
    std::optional<lb::Store> store;
    std::optional<double> operator()(const std::string& layout, const char* stat) {
        return lb::test::metricValue(*store, drills[layout],
                                     std::string("drill.fail-rebuild.") + stat);
    }
};

void readDrillMetrics(const lb::test::ProcessResult& listed, const std::string& db,
                      DrillMetrics& out, std::size_t drills = 4) {
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    out.drills = drillRuns(listed.out);
    ASSERT_EQ(out.drills.size(), drills) << listed.out;
    auto store = lb::Store::open(db);
    ASSERT_TRUE(store) << store.error().message;
    out.store.emplace(std::move(*store));
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
    // 256 MiB disks: on 128 MiB OpenZFS keeps half of a mirror as slop, and the fill and the
    // load's 32 MiB file take it to 88 %, where (2026-12-07, TCG, a build beside it) the healthy
    // load of the admin mirror's drill did not end in 183 s.
    LabGuest guest(lb::test::openzfsGuestOptions(guestDisks, 256 * MiB));
    if (!guest.available())
        GTEST_SKIP() << "no OpenZFS lab guest: " << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why();

    std::string toml = header(guest, "openzfs-rebuild-grid", guestDisks);
    std::vector<std::string> args{"run", ""};
    useDmDevices(guest, dmDisks, guestDisks, toml, args);
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
    const std::string after = afterDm(guest, dmDisks);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << guest.consoleLog();

    DrillMetrics metric;
    ASSERT_NO_FATAL_FAILURE(
        readDrillMetrics(layoutbench({"list", "runs", "--json"}), dir_ + "/results.db", metric));
    const auto rows = lb::test::runRows(*metric.store, 1);
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
        const auto& run = drillRow(rows, metric.drills[layout]);
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
        printDrillLines(run);
    }
    // Every member has its linear table again, and every layout was torn down.
    expectDmLinearAndTornDown(after, dmDisks);
}

} // namespace

namespace {

// A grid's layouts and fail-rebuild drills as TOML after its header, the first layout the
// baseline; each drill fills 30 % and loads 3 s a phase, and on md sets md's rebuild floor.
struct DrillGridToml {
    std::string toml;
    bool first = true;
    void layout(const char* name, const char* kind, const char* disks,
                const char* inner = nullptr) {
        toml += std::string("\n[[layouts]]\nname = \"") + name + "\"\nkind = \"" + kind +
                "\"\ndisks = " + disks + "\n" + (first ? "baseline = true\n" : "") +
                (inner ? std::string("inner = \"") + inner + "\"\n" : "");
        first = false;
    }
    void drill(const char* name, const char* disk, const char* spare, bool error, bool md) {
        toml += std::string("\n[[drills]]\nlayout = \"") + name +
                "\"\naction = \"fail-rebuild\"\ndisk = \"" + disk + "\"\ndisks = [\"" + spare +
                "\"]\nfill = 0.3\nphase_seconds = 3\ntimeout = 900\n" +
                (error ? "fail = \"error\"\n" : "") + (md ? "sync_speed_min = 200000\n" : "");
    }
};

// The wider grid: raidz2 and md RAID-6 failed by zpool and mdadm on d0-d3 (spare d4), then md
// RAID-10 and raidz2 on dm linear devices over d5-d8 failed through dm's error target (spare
// d9, a dm device too). 256 MiB disks: a small pool is half slop.
std::string widerScenario(const std::string& header) {
    DrillGridToml grid{header};
    grid.layout("raidz2", "zfs-raidz2", "[\"d0\", \"d1\", \"d2\", \"d3\"]");
    grid.layout("md6", "md-raid6", "[\"d0\", \"d1\", \"d2\", \"d3\"]");
    grid.layout("md10-dm", "md-raid10", "[\"d5\", \"d6\", \"d7\", \"d8\"]");
    grid.layout("raidz2-dm", "zfs-raidz2", "[\"d5\", \"d6\", \"d7\", \"d8\"]");
    grid.drill("raidz2", "d1", "d4", false, false);
    grid.drill("md6", "d2", "d4", false, true);
    grid.drill("md10-dm", "d6", "d9", true, true);
    grid.drill("raidz2-dm", "d7", "d9", true, false);
    return grid.toml + briefWrite;
}

TEST_F(OpenZfsCampaign, RebuildDrillsRaidz2MdRaid6AndRaid10AdminAndDmError) {
    constexpr int disks = 10;
    const std::vector<int> dm{5, 6, 7, 8, 9};
    LabGuest guest(lb::test::openzfsGuestOptions(disks, 256 * MiB));
    if (!guest.available())
        GTEST_SKIP() << "no OpenZFS lab guest: " << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why();
    std::string toml = header(guest, "openzfs-rebuild-wider", disks);
    std::vector<std::string> args{"run", ""};
    useDmDevices(guest, dm, disks, toml, args);
    args[1] = write("scenario.toml", oneIteration(widerScenario(toml)));
    const auto r = layoutbench(args);
    const std::string after = afterDm(guest, dm);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << guest.consoleLog();

    DrillMetrics metric;
    ASSERT_NO_FATAL_FAILURE(
        readDrillMetrics(layoutbench({"list", "runs", "--json"}), dir_ + "/results.db", metric));
    for (const char* layout : {"raidz2", "md6", "md10-dm", "raidz2-dm"}) {
        EXPECT_EQ(metric(layout, "checksum_mismatches"), 0.0) << layout;
        const bool md = layout[0] == 'm';
        EXPECT_EQ(metric(layout, md ? "mismatch_cnt" : "scrub_errors"), 0.0) << layout;
        const auto bytes = metric(layout, "rebuild_bytes");
        const auto seconds = metric(layout, "seconds");
        ASSERT_TRUE(bytes && seconds) << layout;
        // md rebuilds the whole member, ZFS what is allocated of it.
        if (md)
            EXPECT_GT(*bytes, 0.9 * 256 * MiB) << layout;
        else
            EXPECT_LT(*bytes, 0.5 * 256 * MiB) << layout;
        const auto detect = metric(layout, "detect_seconds");
        EXPECT_EQ(detect.has_value(), std::string(layout).ends_with("-dm")) << layout;
        std::printf("[ rebuild  ] %s (TCG): %.0f MiB in %.1f s", layout, *bytes / MiB, *seconds);
        if (detect)
            std::printf(", seen failed %.2f s after the swap", *detect);
        std::printf("\n");
    }
    expectDmLinearAndTornDown(after, dm);
}

} // namespace

namespace {

// ZFS on md: a zfs-stripe pool on md RAID-1 over d0-d1 (spare d2), failed by mdadm; one on md
// RAID-10 over dm linear devices on d3-d6 (spare d7), its member d4 given dm's error target.
std::string zfsOnMdScenario(const std::string& header) {
    DrillGridToml grid{header};
    grid.layout("zmd1", "zfs-stripe", "[\"d0\", \"d1\"]", "md-raid1");
    grid.layout("zmd10-dm", "zfs-stripe", "[\"d3\", \"d4\", \"d5\", \"d6\"]", "md-raid10");
    grid.drill("zmd1", "d1", "d2", false, true);
    grid.drill("zmd10-dm", "d4", "d7", true, true);
    return grid.toml + briefWrite;
}

// The run id of each drill phase's load ("zmd1@degraded") in `list runs --json`.
std::map<std::string, std::int64_t> phaseRuns(const std::string& listed) {
    std::map<std::string, std::int64_t> out;
    for (const auto& one : json::parse(listed))
        if (one.value("workload", "") == "drill:fail-rebuild" &&
            one.value("layout", "").find('@') != std::string::npos)
            out[one.value("layout", "")] = one.value("id", std::int64_t{0});
    return out;
}

TEST_F(OpenZfsCampaign, RebuildDrillsZfsOnMdRaid1AdminAndMdRaid10DmError) {
    constexpr int disks = 8;
    const std::vector<int> dm{3, 4, 5, 6};
    LabGuest guest(lb::test::openzfsGuestOptions(disks, 256 * MiB));
    if (!guest.available())
        GTEST_SKIP() << "no OpenZFS lab guest: " << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why();
    std::string toml = header(guest, "openzfs-rebuild-zfs-on-md", disks);
    std::vector<std::string> args{"run", ""};
    useDmDevices(guest, dm, disks, toml, args);
    args[1] = write("scenario.toml", oneIteration(zfsOnMdScenario(toml)));

    // plan: md's member failed and rebuilt, then md's check and the pool's scrub.
    const auto planned = layoutbench({"plan", args[1]});
    ASSERT_EQ(planned.exitCode, 0) << planned.out << planned.err;
    for (const char* step : {"mdadm /dev/md/lb-zmd1 --fail /dev/vdb",
                             "mdadm /dev/md/lb-zmd1 "
                             "--add /dev/vdc",
                             "zpool scrub -w lb-zmd1", "mdadm /dev/md/lb-zmd10-dm --remove failed"})
        EXPECT_NE(planned.out.find(step), std::string::npos) << step << "\n" << planned.out;

    const auto r = layoutbench(args);
    const std::string after = afterDm(guest, dm);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << guest.consoleLog();

    const auto listed = layoutbench({"list", "runs", "--json"});
    DrillMetrics metric;
    ASSERT_NO_FATAL_FAILURE(readDrillMetrics(listed, dir_ + "/results.db", metric, 2));
    const auto phases = phaseRuns(listed.out);
    const auto rows = lb::test::runRows(*metric.store, 1);
    for (const char* layout : {"zmd1", "zmd10-dm"}) {
        // Both levels checked: the files, md's check, the pool's scrub.
        EXPECT_EQ(metric(layout, "checksum_mismatches"), 0.0) << layout;
        EXPECT_EQ(metric(layout, "mismatch_cnt"), 0.0) << layout;
        EXPECT_EQ(metric(layout, "scrub_errors"), 0.0) << layout;
        const auto bytes = metric(layout, "rebuild_bytes");
        const auto seconds = metric(layout, "seconds");
        const auto scrub = metric(layout, "scrub_seconds");
        const auto check = metric(layout, "check_seconds");
        ASSERT_TRUE(bytes && seconds && scrub && check) << layout;
        // md rebuilds its whole member whatever the pool holds (30 % of it filled).
        EXPECT_GT(*bytes, 0.9 * 256 * MiB) << layout;
        const auto& run = drillRow(rows, metric.drills[layout]);
        // The pool saw nothing of md's failure and rebuild under it.
        EXPECT_TRUE(lb::test::hasCaveat(run, "the pool said ONLINE while the array was degraded, "
                                             "ONLINE while it rebuilt, ONLINE after its scrub"))
            << layout << ::testing::PrintToString(run.caveats);
        std::map<std::string, double> iops;
        for (const char* phase : {"healthy", "degraded", "rebuilding", "rebuilt"}) {
            const auto id = phases.find(std::string(layout) + "@" + phase);
            ASSERT_NE(id, phases.end()) << layout << "@" << phase << "\n" << listed.out;
            const auto read =
                lb::test::metricValue(*metric.store, id->second, "fio.drill-randrw.read.iops");
            const auto written =
                lb::test::metricValue(*metric.store, id->second, "fio.drill-randrw.write.iops");
            ASSERT_TRUE(read && written) << layout << "@" << phase;
            iops[phase] = *read + *written;
        }
        std::printf("[ zfs-on-md ] %s (TCG): md rebuilt %.0f MiB in %.1f s (%.1f MiB/s); load "
                    "IOPS healthy %.0f, degraded %.0f, rebuilding %.0f, rebuilt %.0f; md check "
                    "%.1f s, mismatch_cnt %.0f; scrub %.1f s, %.0f errors\n",
                    layout, *bytes / MiB, *seconds, *bytes / MiB / *seconds, iops["healthy"],
                    iops["degraded"], iops["rebuilding"], iops["rebuilt"], *check,
                    *metric(layout, "mismatch_cnt"), *scrub, *metric(layout, "scrub_errors"));
        printDrillLines(run);
    }
    // Under the error target md saw its member faulty under the load; the table was put back.
    const auto detect = metric("zmd10-dm", "detect_seconds");
    ASSERT_TRUE(detect);
    std::printf("[ dm error  ] zmd10-dm (TCG): md saw its member failed %.2f s after the swap\n",
                *detect);
    EXPECT_FALSE(metric("zmd1", "detect_seconds").has_value());
    expectDmLinearAndTornDown(after, dm);
}

} // namespace
