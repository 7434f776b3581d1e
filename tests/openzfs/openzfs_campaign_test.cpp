// Campaigns on OpenZFS 2.3 in the lab guest, driven over SSH as a real server is: the layout
// engine's own plans build striped mirrors, a raidz1 and a dRAID with a distributed spare on the
// guest's whole virtio disks (OpenZFS partitions them itself, udev labels them), the workloads
// run on each, and the verdicts come out; the RAIDZ expansion drill attaches a disk for real.
// Every ZFS run carries the implementation it ran on.
#include "engine/store.h"
#include "tests/cli/process.h"
#include "tests/support/lab_guest.h"
#include "tests/support/stored_runs.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using lb::test::LabGuest;
using lb::test::runProcess;
using nlohmann::json;

constexpr std::uint64_t MiB = 1024 * 1024;

std::string disk(int i) {
    return "/dev/vd" + std::string(1, static_cast<char>('a' + i));
}

class OpenZfsCampaign : public ::testing::Test {
protected:
    void SetUp() override {
        name_ = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        dir_ = "/var/tmp/layoutbench-openzfs-test-" + name_;
        std::error_code ec;
        fs::remove_all(dir_, ec);
        fs::create_directories(dir_);
        t0_ = std::chrono::steady_clock::now();
    }
    void TearDown() override {
        std::printf("[   time   ] %s: %.1f s\n", name_.c_str(),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count());
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    static std::string header(const LabGuest& guest, const std::string& name, int disks) {
        std::string toml = "name = \"" + name + "\"\niterations = 2\nwork_dir = \"/tmp/lb\"\n" +
                           "[host]\ntarget = \"" + guest.sshUrl() + "\"\nidentity = \"" +
                           guest.identity() + "\"\nknown_hosts = \"" + guest.knownHosts() + "\"\n";
        for (int i = 0; i < disks; ++i)
            toml +=
                "[[disks]]\nname = \"d" + std::to_string(i) + "\"\ndevice = \"" + disk(i) + "\"\n";
        return toml;
    }
    static std::string diskList(int from, int count) {
        std::string out = "[";
        for (int i = from; i < from + count; ++i)
            out += std::string(i == from ? "" : ", ") + "\"d" + std::to_string(i) + "\"";
        return out + "]";
    }

    lb::test::ProcessResult layoutbench(std::vector<std::string> args) {
        args.insert(args.begin(), LAYOUTBENCH_CLI);
        args.insert(args.end(), {"--db", dir_ + "/results.db"});
        return runProcess(args);
    }
    std::string write(const std::string& file, const std::string& text) {
        const auto path = dir_ + "/" + file;
        std::ofstream(path) << text;
        return path;
    }

    std::string name_, dir_;
    std::chrono::steady_clock::time_point t0_;
};

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
    std::vector<std::string> run{"run", scenario, "--json"};
    for (int i = 0; i < 12; ++i)
        run.insert(run.end(), {"--yes-destroy", disk(i)});
    const auto r = layoutbench(run);
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
    std::vector<std::string> run{"run", scenario};
    for (int i = 0; i < 5; ++i)
        run.insert(run.end(), {"--yes-destroy", disk(i)});
    const auto r = layoutbench(run);
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
