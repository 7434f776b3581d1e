// Layouts on block devices: ZFS on real loop devices, each partitioned to 80 % (the rest left
// unpartitioned, the SSD workaround), built and torn down by `layoutbench run`; and the guard
// that refuses to touch a device the user did not name again, or one that holds data unless the
// scenario marks it wipe = true.
#include "engine/plan.h"
#include "engine/store.h"
#include "tests/cli/process.h"
#include "tests/support/loop_device.h"
#include "tests/support/zfs_fuse.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string work = "/var/tmp/layoutbench-test-devices";
const std::string pool = "lbd-devices";

void cleanup() {
    if (lb::test::poolExists(pool))
        lb::test::runProcess({"zpool", "destroy", "-f", pool});
    lb::test::detachLoopDevicesUnder(work);
    fs::remove_all(work);
}

class DeviceCampaign : public ::testing::Test {
protected:
    void SetUp() override {
        cleanup();
        fs::create_directories(work + "/images");
        a_ = std::make_unique<lb::test::LoopDevice>(work + "/images/a.img", 256ULL << 20);
        b_ = std::make_unique<lb::test::LoopDevice>(work + "/images/b.img", 256ULL << 20);
    }
    void TearDown() override {
        a_.reset();
        b_.reset();
        cleanup();
    }

    std::string scenario(bool wipeA) const {
        const std::string path = work + "/devices.toml";
        std::ofstream(path) << "name = \"devices\"\niterations = 1\nwork_dir = \"" << work
                            << "\"\ndrop_caches = false\n\n[[disks]]\nname = \"a\"\ndevice = \""
                            << a_->path() << "\"\nwipe = " << (wipeA ? "true" : "false")
                            << "\n\n[[disks]]\nname = \"b\"\ndevice = \"" << b_->path() << "\"\n"
                            << R"(
[[layouts]]
name = "dir"
kind = "dir"
path = "."
baseline = true

[[layouts]]
name = "mirror80"
kind = "zfs-mirror"
pool = "lbd-devices"
disks = ["a", "b"]
underprovision = 0.8

[[workloads]]
probe = "randfile"
size = "8M"
)";
        return path;
    }
    lb::test::ProcessResult run(const std::string& scenarioPath,
                                const std::vector<std::string>& yesDestroy) const {
        std::vector<std::string> argv{LAYOUTBENCH_CLI, "run",  scenarioPath,
                                      "--json",        "--db", work + "/results.db"};
        for (const auto& d : yesDestroy) {
            argv.push_back("--yes-destroy");
            argv.push_back(d);
        }
        return lb::test::runProcess(argv);
    }
    std::int64_t journalRows() const {
        auto store = lb::Store::open(work + "/results.db");
        auto q = store->database().prepare("SELECT COUNT(*) FROM plan_step");
        EXPECT_TRUE(q && *q->step());
        return q->columnInt(0);
    }

    std::unique_ptr<lb::test::LoopDevice> a_, b_;
};

std::string partitionTable(const std::string& device) {
    return lb::test::runProcess({"blkid", "-p", "-o", "value", "-s", "PTTYPE", device}).out;
}

} // namespace

TEST_F(DeviceCampaign, UnderprovisionedMirrorIsBuiltOnPartitionsAndTornDown) {
    ASSERT_TRUE(a_->available() && b_->available()) << a_->why() << b_->why();
    lb::test::ZfsFuse zfs;
    if (!zfs.available())
        GTEST_SKIP() << zfs.why();
    const auto r = run(scenario(false), {a_->path(), b_->path()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto result = json::parse(r.out);
    EXPECT_EQ(result["status"], "done");
    EXPECT_EQ(result["failed_runs"], 0);

    auto store = lb::Store::open(work + "/results.db");
    ASSERT_TRUE(store);
    // The pool sat on the first partitions, each 80 % of its 256 MiB device.
    auto q = store->database().prepare(
        "SELECT argv, status FROM plan_step WHERE phase = 'build' ORDER BY seq");
    ASSERT_TRUE(q);
    std::string zpool, sgdisk;
    ASSERT_TRUE(q->forEachRow([&](lb::sql::Statement& row) {
        const auto argv = json::parse(row.columnText(0));
        if (argv[0] == "zpool")
            zpool = argv.dump();
        if (argv[0] == "sgdisk" && argv.dump().find(a_->path()) != std::string::npos)
            sgdisk = argv.dump();
    }));
    EXPECT_NE(zpool.find(lb::firstPartition(a_->path())), std::string::npos) << zpool;
    EXPECT_NE(zpool.find(lb::firstPartition(b_->path())), std::string::npos) << zpool;
    // floor(256 MiB * 0.8 / 1 MiB) MiB = 204 MiB = 208896 KiB.
    EXPECT_NE(sgdisk.find("--new=1:1M:+208896K"), std::string::npos) << sgdisk;
    // Torn down: no pool, the partition tables zapped, the kernel's partitions gone.
    EXPECT_FALSE(lb::test::poolExists(pool));
    EXPECT_EQ(partitionTable(a_->path()), "");
    EXPECT_FALSE(fs::exists(lb::firstPartition(a_->path())));
    EXPECT_EQ(*store->integrityCheck(), "ok");
}

TEST_F(DeviceCampaign, DevicesNotNamedAgainAreRefusedBeforeAnythingRuns) {
    ASSERT_TRUE(a_->available() && b_->available()) << a_->why() << b_->why();
    const auto r = run(scenario(false), {a_->path()});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(b_->path()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--yes-destroy"), std::string::npos) << r.err;
    EXPECT_EQ(journalRows(), 0);
    EXPECT_EQ(partitionTable(b_->path()), "");
}

TEST_F(DeviceCampaign, ADeviceWithAFileSystemNeedsWipeTrueToo) {
    ASSERT_TRUE(a_->available() && b_->available()) << a_->why() << b_->why();
    ASSERT_EQ(lb::test::runProcess({"mkfs.ext4", "-q", "-F", a_->path()}).exitCode, 0);
    // Named again, but not marked wipe = true: refused, and the file system is still there.
    const auto refused = run(scenario(false), {a_->path(), b_->path()});
    EXPECT_EQ(refused.exitCode, 2) << refused.out << refused.err;
    EXPECT_NE(refused.err.find(a_->path()), std::string::npos) << refused.err;
    EXPECT_EQ(journalRows(), 0);
    EXPECT_EQ(lb::test::runProcess({"blkid", "-p", "-o", "value", "-s", "TYPE", a_->path()}).out,
              "ext4\n");
}
