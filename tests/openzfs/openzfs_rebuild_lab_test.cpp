// The wider fail-rebuild grid of the lab target: a ZFS mirror and md RAID-1 in one guest boot,
// each failed and rebuilt under the load, its data verified after. (dRAID is not here yet: in
// the lab its degraded load once stood still for minutes, see docs/openzfs-lab.md.)
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

TEST_F(OpenZfsCampaign, RebuildDrillsMirrorAndMdRaid1) {
    LabGuest guest(lb::test::openzfsGuestOptions(3, 128 * MiB));
    if (!guest.available())
        GTEST_SKIP() << "no OpenZFS lab guest: " << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why();

    const std::string toml = oneIteration(header(guest, "openzfs-rebuild-grid", 3) + R"(
[[layouts]]
name = "mirror"
kind = "zfs-mirror"
baseline = true
disks = ["d0", "d1"]

[[layouts]]
name = "md1"
kind = "md-raid1"
disks = ["d0", "d1"]

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
)" + std::string(briefWrite));
    const auto r = runDestroying(write("scenario.toml", toml), 3);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << guest.consoleLog();

    const auto listed = layoutbench({"list", "runs", "--json"});
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    std::map<std::string, std::int64_t> drills;
    const json runs = json::parse(listed.out);
    for (const auto& one : runs)
        if (one.value("workload", "") == "drill:fail-rebuild" &&
            one.value("layout", "").find('@') == std::string::npos) {
            EXPECT_EQ(one.value("status", ""), "ok") << one.dump();
            drills[one.value("layout", "")] = one.value("id", std::int64_t{0});
        }
    ASSERT_EQ(drills.size(), 2U) << listed.out;
    auto store = lb::Store::open(dir_ + "/results.db");
    ASSERT_TRUE(store) << store.error().message;
    const auto metric = [&](const std::string& layout, const char* stat) {
        return lb::test::metricValue(*store, drills[layout],
                                     std::string("drill.fail-rebuild.") + stat);
    };
    for (const char* layout : {"mirror", "md1"}) {
        EXPECT_EQ(metric(layout, "checksum_mismatches"), 0.0) << layout;
        const auto rate = metric(layout, "rebuild_rate");
        const auto seconds = metric(layout, "seconds");
        ASSERT_TRUE(rate && seconds) << layout;
        std::printf("[ rebuild  ] %s (TCG): %.1f s, %.1f MiB/s\n", layout, *seconds, *rate / MiB);
    }
}

} // namespace
