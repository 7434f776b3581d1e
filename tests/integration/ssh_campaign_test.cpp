// A whole campaign over SSH: `layoutbench run` against a scenario whose [host] is a real sshd on
// 127.0.0.1. Inventory, the ZFS build plan on file vdevs, the workloads and the teardown all go
// through the SSH runner; a directory whose name is hostile to a shell arrives intact.
#include "engine/exec/ssh_runner.h"
#include "engine/store/store.h"
#include "tests/cli/process.h"
#include "tests/support/sshd.h"
#include "tests/support/zfs_fuse.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string work = "/var/tmp/layoutbench-test-ssh-campaign";
const std::string pool = "lbs-ssh-campaign";
// A name a shell would expand, split or execute if any word were left unquoted.
const std::string hostileDir = "dir with 'quotes' \"and\" $(touch pwned) ; `x` *";

void cleanup() {
    if (lb::test::poolExists(pool))
        lb::test::runProcess({"zpool", "destroy", "-f", pool});
    fs::remove_all(work);
}

class SshCampaign : public ::testing::Test {
protected:
    void SetUp() override {
        cleanup();
        fs::create_directories(work + "/" + hostileDir);
    }
    void TearDown() override { cleanup(); }
};

} // namespace

TEST_F(SshCampaign, RunsBuildsAndTearsDownThroughSsh) {
    lb::test::Sshd sshd;
    if (!sshd.available())
        GTEST_SKIP() << "no sshd on 127.0.0.1: " << sshd.why();
    lb::test::ZfsFuse zfs;
    if (!zfs.available())
        GTEST_SKIP() << zfs.why();
    const auto target = sshd.target();
    const std::string scenario = work + "/ssh.toml";
    std::ofstream(scenario) << "name = \"ssh\"\niterations = 1\nwork_dir = \"" << work
                            << "\"\ndrop_caches = false\n\n[host]\ntarget = \"ssh://" << target.user
                            << "@127.0.0.1:" << target.port << "\"\nidentity = \""
                            << target.identityFile << "\"\nknown_hosts = \""
                            << target.knownHostsFile << "\"\n"
                            << R"(
[[disks]]
name = "v1"
file = "v1.img"
size = "64MiB"

[[disks]]
name = "v2"
file = "v2.img"
size = "64MiB"

[[disks]]
name = "v3"
file = "v3.img"
size = "64MiB"

[[layouts]]
name = "dir"
kind = "dir"
path = ''')" << hostileDir << R"('''
baseline = true

[[layouts]]
name = "raidz1"
kind = "zfs-raidz1"
pool = ")" << pool << R"("
disks = ["v1", "v2", "v3"]

[[workloads]]
probe = "fio"
preset = "seq-write-1m"
size = "16M"
runtime = 1

[[workloads]]
probe = "randfile"
size = "8M"
)";
    const std::string db = work + "/results.db";
    const auto r = lb::test::runProcess({LAYOUTBENCH_CLI, "run", scenario, "--json", "--db", db});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto result = json::parse(r.out);
    EXPECT_EQ(result["status"], "done");
    // Two layouts, two workloads, one iteration, and the baseline again after the candidate.
    EXPECT_EQ(result["runs"], 6);
    EXPECT_EQ(result["failed_runs"], 0);

    auto store = lb::Store::open(db);
    ASSERT_TRUE(store);
    const auto runs = store->runs();
    ASSERT_TRUE(runs);
    ASSERT_EQ(runs->size(), 6U);
    for (const auto& run : *runs)
        EXPECT_EQ(run.status, lb::RunStatus::Ok)
            << run.layout << " " << run.workload << ": " << run.reason;
    // The inventory was taken over SSH: the campaign says where it ran.
    const auto campaigns = store->campaigns();
    ASSERT_TRUE(campaigns && !campaigns->empty());
    const auto campaign = store->campaign(campaigns->front().id);
    ASSERT_TRUE(campaign && *campaign);
    const auto inventory = json::parse((*campaign)->inventory);
    EXPECT_EQ(inventory["target"], lb::sshUrl(target));
    EXPECT_FALSE(inventory["tools"]["fio"].get<std::string>().empty());

    // Torn down through SSH: no pool, no vdev files, the work directory inside the hostile
    // directory gone, the hostile directory itself kept, and nothing executed from its name.
    EXPECT_FALSE(lb::test::poolExists(pool));
    for (const char* f : {"v1.img", "v2.img", "v3.img"})
        EXPECT_FALSE(fs::exists(work + "/" + f)) << f;
    EXPECT_TRUE(fs::is_directory(work + "/" + hostileDir));
    EXPECT_FALSE(fs::exists(work + "/" + hostileDir + "/layoutbench-dir"));
    EXPECT_TRUE(fs::is_empty(work + "/" + hostileDir));
    EXPECT_FALSE(fs::exists("pwned"));
    EXPECT_FALSE(fs::exists(work + "/pwned"));
    EXPECT_FALSE(fs::exists(fs::path(getenv("HOME") ? getenv("HOME") : "/root") / "pwned"));
    EXPECT_EQ(*store->integrityCheck(), "ok");
}
