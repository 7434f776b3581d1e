// Campaigns on OpenZFS 2.3 in the lab guest, driven over SSH as a real server is: the layout
// engine's own plans build striped mirrors, a raidz1, a dRAID with a distributed spare, a stripe,
// a three-way mirror, raidz2 and raidz3 on the guest's whole virtio disks (OpenZFS partitions
// them itself, udev labels them), the workloads run on each, and the verdicts come out; a disk of
// an imported pool is refused and a killed campaign is cleaned up. These take about a quarter of
// an hour under TCG: they are the `lab` label (cmake --workflow --preset lab), not CI's run.
#include "engine/exec/ssh_runner.h"
#include "tests/openzfs/openzfs_fixture.h"

#include <algorithm>
#include <csignal>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

namespace {

using lb::test::LabGuest;
using lb::test::MiB;
using lb::test::OpenZfsCampaign;
using nlohmann::json;

TEST_F(OpenZfsCampaign, StripedMirrorsRaidzAndDraidToVerdicts) {
    LabGuest guest(lb::test::openzfsGuestOptions(12, 256 * MiB));
    if (!guest.available())
        GTEST_SKIP() << "no OpenZFS lab guest: " << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why();

    // Properties the plan sets on every pool, different from OpenZFS's defaults.
    std::string toml = header(guest, "openzfs-layouts", 12) + R"(
[[layouts]]
name = "mirrors"
kind = "zfs-raid10"
baseline = true
disks = )" + diskList(0, 4) +
                       R"(
compression = "lz4"
recordsize = "64K"

[[layouts]]
name = "raidz1"
kind = "zfs-raidz1"
disks = )" + diskList(4, 3) +
                       R"(
compression = "lz4"
recordsize = "64K"
atime = true

[[layouts]]
name = "draid"
kind = "zfs-draid1"
draid_data = 2
draid_spares = 1
autotrim = true
disks = )" + diskList(7, 5) +
                       R"(
compression = "lz4"
recordsize = "64K"

[[workloads]]
probe = "fio"
preset = "rand-read-4k-qd1"
size = "32M"
runtime = 3

[[workloads]]
probe = "randfile"
size = "16M"

[[workloads]]
probe = "xz"
size = "4M"

[[workloads]]
probe = "bonnie"
fast = true
size = "64M"
ram = "32M"
files = 0
timeout = 600
)";
    const auto scenario = write("scenario.toml", toml);
    const auto r = runDestroying(scenario, 12, true);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << guest.consoleLog();

    // Every run ok: each workload twice on each layout (three times on the baseline, which
    // brackets the candidates).
    const auto listed = layoutbench({"list", "runs", "--json"});
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    std::map<std::string, int> ok;
    for (const auto& one : json::parse(listed.out)) {
        SCOPED_TRACE(one.dump());
        EXPECT_EQ(one.value("status", ""), "ok");
        ok[one.value("layout", "") + " " + one.value("workload", "")] +=
            one.value("status", "") == "ok";
    }
    EXPECT_EQ(ok.size(), 3U * 4U);
    for (const auto& [what, n] : ok)
        EXPECT_GE(n, 2) << what;

    // The verdicts, each candidate against the striped mirrors, and the ZFS they were measured on.
    for (const char* candidate : {"raidz1", "draid"}) {
        SCOPED_TRACE(candidate);
        const auto compared =
            layoutbench({"compare", "--baseline", "mirrors", "--candidate", candidate, "--json"});
        ASSERT_EQ(compared.exitCode, 0) << compared.err;
        const auto j = json::parse(compared.out);
        EXPECT_TRUE(j.at("verdict").is_string()) << compared.out;
        for (const char* side : {"baseline", "candidate"}) {
            const auto on = j.at("measured_on").at(side);
            ASSERT_EQ(on.size(), 1U) << compared.out;
            EXPECT_TRUE(on.at(0).get<std::string>().starts_with("OpenZFS 2.3.")) << on;
        }
        // Kernel ZFS on (virtual) disks: nothing to flag beside the verdict.
        EXPECT_EQ(j.at("headline").get<std::string>().find(" measured on "), std::string::npos);
        const auto text =
            layoutbench({"compare", "--baseline", "mirrors", "--candidate", candidate});
        ASSERT_EQ(text.exitCode, 0) << text.err;
        std::printf("%s\n", text.out.c_str());
    }
}

// Safety on OpenZFS: a disk of an imported pool (whole-disk vdevs, so the label sits on the
// partition OpenZFS made) is refused whatever the flags, naming the pool; and a campaign killed
// with SIGKILL while its pool stands and its fio runs is undone by one `layoutbench cleanup`.
TEST_F(OpenZfsCampaign, AnImportedPoolIsRefusedAndAKilledCampaignIsCleanedUp) {
    LabGuest guest(lb::test::openzfsGuestOptions(3, 256 * MiB));
    if (!guest.available())
        GTEST_SKIP() << "no OpenZFS lab guest: " << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why();
    auto runner = lb::makeRunnerFor(guest.sshUrl(), guest.identity(), guest.knownHosts());
    ASSERT_TRUE(runner) << runner.error().message;
    const auto shell = [&](const std::string& script) {
        lb::Command c{"sh", {"-c", script}};
        c.timeout = std::chrono::seconds(120);
        auto r = (*runner)->run(c);
        return r ? *r : lb::ProcessResult{};
    };
    ASSERT_EQ(shell("zpool create -f held mirror /dev/vda /dev/vdb").exitCode, 0);

    // wipe = true: the disks of the destroyed pool still carry its GPT when the campaign runs.
    const std::string toml = header(guest, "openzfs-safety", 3, true) + R"(
[[layouts]]
name = "stripe"
kind = "zfs-stripe"
baseline = true
disks = ["d0", "d2"]

[[workloads]]
probe = "fio"
preset = "seq-read-1m"
size = "32M"
runtime = 30
)";
    const auto scenario = write("scenario.toml", toml);
    const std::vector<std::string> run{"run",      scenario,        "--yes-destroy",
                                       "/dev/vda", "--yes-destroy", "/dev/vdc"};
    const auto refused = layoutbench(run);
    EXPECT_NE(refused.exitCode, 0);
    EXPECT_NE(refused.err.find("imported ZFS pool held"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("no flag destroys a disk in use"), std::string::npos) << refused.err;
    EXPECT_EQ(shell("zpool list -H -o name held").exitCode, 0) << "the held pool was touched";

    // Freed, then the campaign is killed while its pool stands and its fio runs.
    ASSERT_EQ(shell("zpool destroy held && wipefs -a /dev/vda /dev/vdb >/dev/null").exitCode, 0);
    std::vector<std::string> argv{LAYOUTBENCH_CLI};
    argv.insert(argv.end(), run.begin(), run.end());
    argv.insert(argv.end(), {"--db", dir_ + "/results.db"});
    lb::test::ChildProcess campaign(argv);
    ASSERT_TRUE(campaign.started());
    // Until the pool stands and fio runs, for at most five minutes, and not once the campaign
    // has ended by itself (its process a zombie waiting for wait()).
    const auto ended = [pid = campaign.pid()] {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string all((std::istreambuf_iterator<char>(stat)), {});
        const auto close = all.rfind(')');
        return close == std::string::npos || all.substr(close + 2, 1) == "Z";
    };
    bool built = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
    while (!built && !ended() && std::chrono::steady_clock::now() < deadline) {
        built = shell("zpool list -H -o name lb-stripe && pidof fio").exitCode == 0;
        if (!built)
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    if (!built) {
        const auto gone = campaign.wait();
        FAIL() << "the pool and its fio never appeared: " << gone.out << gone.err;
    }
    ::kill(campaign.pid(), SIGKILL);
    const auto killed = campaign.wait();
    EXPECT_EQ(killed.exitCode, 128 + SIGKILL);
    EXPECT_EQ(shell("zpool list -H -o name lb-stripe").exitCode, 0) << "nothing left to clean up";

    // The newest campaign is the killed one (the refused attempt may have opened one too).
    const auto campaigns = layoutbench({"list", "campaigns", "--json"});
    ASSERT_EQ(campaigns.exitCode, 0) << campaigns.err;
    std::int64_t newest = 0;
    for (const auto& c : json::parse(campaigns.out))
        newest = std::max(newest, c.value("id", std::int64_t{0}));
    ASSERT_GT(newest, 0) << campaigns.out;
    // The killed controller's fio goes on in the guest (its ssh client died with it), holding
    // the pool's mount: cleanup stops it first, by the pid its tracking wrapper kept, and says so.
    ASSERT_EQ(shell("pidof fio").exitCode, 0) << "fio ended before cleanup could be tried";
    const auto cleanup = layoutbench({"cleanup", "--campaign", std::to_string(newest)});
    EXPECT_EQ(cleanup.exitCode, 0) << cleanup.out << cleanup.err;
    EXPECT_NE(cleanup.out.find("stopped, left running by the killed campaign: [" + guest.sshUrl()),
              std::string::npos)
        << cleanup.out;
    EXPECT_NE(cleanup.out.find("] fio (pid "), std::string::npos) << cleanup.out;
    EXPECT_NE(shell("zpool list -H -o name lb-stripe").exitCode, 0)
        << "the pool is still there; cleanup said: " << cleanup.out << cleanup.err;
    EXPECT_NE(shell("pidof fio").exitCode, 0) << "fio still runs";
}

// The kinds the first test does not build, each from its own plan on whole disks, with the
// properties a scenario sets: a stripe, a three-way mirror, raidz2 and raidz3 (ashift 12, 1M
// records, zstd, primarycache from the cold cache, atime on, autotrim on).
TEST_F(OpenZfsCampaign, EveryOtherZfsKindIsBuiltByItsPlan) {
    LabGuest guest(lb::test::openzfsGuestOptions(14, 256 * MiB));
    if (!guest.available())
        GTEST_SKIP() << "no OpenZFS lab guest: " << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why();
    const std::string properties = "\nashift = 12\nrecordsize = \"1M\"\ncompression = \"zstd\"\n"
                                   "atime = true\nautotrim = true\n";
    std::string toml = header(guest, "openzfs-kinds", 14);
    toml.replace(toml.find("iterations = 2"), 14, "iterations = 1");
    toml += "[[layouts]]\nname = \"stripe\"\nkind = \"zfs-stripe\"\nbaseline = true\ndisks = " +
            diskList(0, 2) + properties;
    toml += "[[layouts]]\nname = \"mirror3\"\nkind = \"zfs-mirror\"\ndisks = " + diskList(2, 3) +
            properties;
    toml += "[[layouts]]\nname = \"raidz2\"\nkind = \"zfs-raidz2\"\ndisks = " + diskList(5, 4) +
            properties;
    toml += "[[layouts]]\nname = \"raidz3\"\nkind = \"zfs-raidz3\"\ndisks = " + diskList(9, 5) +
            properties;
    toml += "[[workloads]]\nprobe = \"randfile\"\nsize = \"16M\"\n";
    const auto scenario = write("scenario.toml", toml);
    const auto r = runDestroying(scenario, 14);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << guest.consoleLog();
    const auto listed = layoutbench({"list", "runs", "--json"});
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    std::map<std::string, int> ok;
    for (const auto& one : json::parse(listed.out))
        ok[one.value("layout", "")] += one.value("status", "") == "ok";
    for (const char* layout : {"stripe", "mirror3", "raidz2", "raidz3"})
        EXPECT_GE(ok[layout], 1) << layout << "\n" << listed.out;
}

} // namespace
