// The RAIDZ expansion drill on OpenZFS 2.3 in the lab guest, through the campaign: attach, the
// reflow, the new size and the scrub, against the capacity model of the same disks.
#include "engine/store/store.h"
#include "tests/openzfs/openzfs_fixture.h"
#include "tests/support/stored_runs.h"

#include <nlohmann/json.hpp>

namespace {

using lb::test::LabGuest;
using lb::test::MiB;
using lb::test::OpenZfsCampaign;
using lb::test::runProcess;
using nlohmann::json;

// The RAIDZ expansion drill for real: a raidz1 of four whole disks, a fifth attached after the
// workloads; the drill waits for the reflow, the new size and the scrub that follows. What zfs
// list shows afterwards is what the capacity model says of a raidz1 expanded from 4 to 5.
TEST_F(OpenZfsCampaign, RaidzExpansionDrillAsTheCapacityModelSays) {
    LabGuest guest(lb::test::openzfsGuestOptions(5, 256 * MiB));
    if (!guest.available())
        GTEST_SKIP() << "no OpenZFS lab guest: " << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why();

    std::string toml = header(guest, "openzfs-expansion", 5) + R"(
[[layouts]]
name = "raidz1"
kind = "zfs-raidz1"
baseline = true
disks = )" + diskList(0, 4) +
                       R"(

[[drills]]
layout = "raidz1"
action = "raidz-expand"
disks = ["d4"]

[[workloads]]
probe = "fio"
preset = "seq-write-1m"
size = "32M"
runtime = 2
)";
    // One iteration is enough here: the drill runs once, after the workloads.
    const auto at = toml.find("iterations = 2");
    ASSERT_NE(at, std::string::npos);
    toml.replace(at, 14, "iterations = 1");
    const auto scenario = write("scenario.toml", toml);
    const auto r = runDestroying(scenario, 5);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << guest.consoleLog();

    const auto listed = layoutbench({"list", "runs", "--json"});
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    std::int64_t drill = 0;
    for (const auto& one : json::parse(listed.out))
        if (one.value("workload", "") == "drill:raidz-expand") {
            EXPECT_EQ(one.value("status", ""), "ok") << one.dump();
            drill = one.value("id", std::int64_t{0});
        }
    ASSERT_NE(drill, 0) << listed.out;

    // The drill's figures, against the model of the same disks before and after.
    const auto capacity = [&](std::vector<std::string> extra) {
        std::vector<std::string> argv{LAYOUTBENCH_CLI, "capacity",    "--json", "--kind",
                                      "zfs-raidz1",    "--disk-size", "256MiB"};
        argv.insert(argv.end(), extra.begin(), extra.end());
        const auto c = runProcess(argv);
        EXPECT_EQ(c.exitCode, 0) << c.err;
        return json::parse(c.out);
    };
    const auto before = capacity({"--disks", "4"});
    const auto after = capacity({"--disks", "5", "--raidz-expanded-from", "4"});
    auto store = lb::Store::open(dir_ + "/results.db");
    ASSERT_TRUE(store) << store.error().message;
    const auto metric = [&](const char* stat) {
        return lb::test::metricValue(*store, drill, std::string("drill.raidz-expand.") + stat);
    };
    const auto usableGrowth = metric("usable_growth");
    const auto growth = metric("growth");
    const auto seconds = metric("seconds");
    const auto scrub = metric("scrub_seconds");
    ASSERT_TRUE(usableGrowth && growth && seconds && scrub);
    const auto ratio = [](const json& a, const json& b, const char* key) {
        return (b.at(key).get<double>() / a.at(key).get<double>() - 1) * 100.0;
    };
    // zpool list SIZE grows by the metaslabs of the original size that fit; zfs list by what the
    // original deflate ratio makes of them, less the same slop.
    EXPECT_NEAR(*growth, ratio(before, after, "pool_size_bytes"), 0.01);
    EXPECT_NEAR(*usableGrowth, ratio(before, after, "usable_bytes"), 0.1);
    std::printf("[ expand   ] raidz1 4 -> 5: %.1f s, scrub %.1f s; zpool SIZE %+.2f %%, zfs list "
                "%+.2f %% (model %+.2f %%)\n",
                *seconds, *scrub, *growth, *usableGrowth, ratio(before, after, "usable_bytes"));
}

} // namespace
