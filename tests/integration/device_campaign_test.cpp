// Layouts on block devices: ZFS on real loop devices, each partitioned to 80 % (the rest left
// unpartitioned, the SSD workaround), built and torn down by `layoutbench run`; and the guard
// that refuses to touch a device the user did not name again, or one that holds data unless the
// scenario marks it wipe = true, or one in use (a mounted partition, active swap, a member of an
// imported zfs-fuse pool) whatever the scenario and the command line say. Leftovers of a crashed
// run (pools, mounts, swap, loop devices under the work directory) are removed before each test
// and after it.
#include "engine/build/plan.h"
#include "engine/store/journal.h"
#include "engine/store/store.h"
#include "tests/cli/process.h"
#include "tests/support/loop_device.h"
#include "tests/support/zfs_fuse.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string work = "/var/tmp/layoutbench-test-devices";
const std::string pool = "lbd-devices";
const std::string holderPool = "lbd-holder"; // a pool that holds a device while a run is refused

void destroyPools() {
    for (const auto& p : {pool, holderPool})
        if (lb::test::poolExists(p))
            lb::test::runProcess({"zpool", "destroy", "-f", p});
}

void cleanup() {
    destroyPools();
    lb::test::detachLoopDevicesUnder(work); // unmounts and swapoffs first
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
        EXPECT_TRUE(store);
        auto steps = lb::Journal(*store).steps();
        EXPECT_TRUE(steps);
        return steps ? static_cast<std::int64_t>(steps->size()) : -1;
    }

    std::unique_ptr<lb::test::LoopDevice> a_, b_;
};

std::string partitionTable(const std::string& device) {
    return lb::test::runProcess({"blkid", "-p", "-o", "value", "-s", "PTTYPE", device}).out;
}

void sh(const std::vector<std::string>& argv) {
    const auto r = lb::test::runProcess(argv);
    ASSERT_EQ(r.exitCode, 0) << argv.front() << ": " << r.err;
}

// The SHA-256 of the first `bytes` of a file or device.
std::string sha256(const std::string& path, std::uint64_t bytes) {
    return lb::test::runProcess(
               {"sh", "-c", "head -c \"$2\" \"$1\" | sha256sum", "sh", path, std::to_string(bytes)})
        .out;
}

bool listed(const std::string& file, const std::string& what) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str().find(what) != std::string::npos;
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
    auto steps = lb::Journal(*store).steps();
    ASSERT_TRUE(steps);
    std::string zpool, sgdisk;
    for (const auto& step : *steps) {
        if (step.phase != lb::StepPhase::Build)
            continue;
        const auto argv = json(step.argv);
        if (argv[0] == "zpool")
            zpool = argv.dump();
        if (argv[0] == "sgdisk" && argv.dump().find(a_->path()) != std::string::npos)
            sgdisk = argv.dump();
    }
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

// A device in use is refused although the scenario marks it wipe = true and --yes-destroy names
// it, before anything runs, with the holder named.
void expectRefusedInUse(const lb::test::ProcessResult& r, const std::string& device,
                        const std::string& holder) {
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("refusing to destroy " + device + ": it is in use: "), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(holder), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("no flag destroys a disk in use"), std::string::npos) << r.err;
}

TEST_F(DeviceCampaign, AMountedPartitionIsRefusedWhateverTheFlags) {
    ASSERT_TRUE(a_->available() && b_->available()) << a_->why() << b_->why();
    const std::string part = lb::firstPartition(a_->path());
    const std::string mnt = work + "/mnt-a";
    sh({"sgdisk", "-n", "1:0:0", a_->path()});
    sh({"partx", "-u", a_->path()});
    sh({"mkfs.ext4", "-q", "-F", part});
    fs::create_directories(mnt);
    sh({"mount", part, mnt}); // the fixture unmounts it, even when this test fails
    sh({"sh", "-c", "head -c 1048576 /dev/urandom > \"$1\" && sync", "sh", mnt + "/data"});
    const auto before = sha256(mnt + "/data", 1 << 20);

    const auto r = run(scenario(true), {a_->path(), b_->path()});
    expectRefusedInUse(r, a_->path(), "(through " + part + ") is mounted at " + mnt);
    EXPECT_EQ(journalRows(), 0);
    // Untouched: still mounted, the same data, the same table; the blank disk named with it too.
    EXPECT_TRUE(listed("/proc/self/mounts", part + " " + mnt + " ext4")) << part;
    EXPECT_EQ(sha256(mnt + "/data", 1 << 20), before);
    EXPECT_EQ(partitionTable(a_->path()), "gpt\n");
    EXPECT_EQ(partitionTable(b_->path()), "");
}

TEST_F(DeviceCampaign, ActiveSwapIsRefusedWhateverTheFlags) {
    ASSERT_TRUE(a_->available() && b_->available()) << a_->why() << b_->why();
    sh({"mkswap", a_->path()});
    sh({"swapon", a_->path()}); // the fixture swapoffs it, even when this test fails
    const auto header = sha256(a_->path(), 4096);

    const auto r = run(scenario(true), {a_->path(), b_->path()});
    expectRefusedInUse(r, a_->path(), a_->path() + " is used as swap");
    EXPECT_EQ(journalRows(), 0);
    EXPECT_TRUE(listed("/proc/swaps", a_->path() + " ")) << a_->path();
    EXPECT_EQ(sha256(a_->path(), 4096), header);
    EXPECT_EQ(partitionTable(b_->path()), "");
}

TEST_F(DeviceCampaign, AMemberOfAnImportedPoolIsRefusedWhateverTheFlags) {
    ASSERT_TRUE(a_->available() && b_->available()) << a_->why() << b_->why();
    lb::test::ZfsFuse zfs; // started only if no ZFS answers; stopped only if started here
    if (!zfs.available())
        GTEST_SKIP() << zfs.why();
    struct PoolGuard { // before zfs-fuse stops, even when this test fails
        ~PoolGuard() { destroyPools(); }
    } guard;
    const std::string mnt = work + "/holder";
    sh({"zpool", "create", "-f", "-m", mnt, holderPool, a_->path()});
    sh({"sh", "-c", "head -c 1048576 /dev/urandom > \"$1\" && sync", "sh", mnt + "/data"});
    const auto before = sha256(mnt + "/data", 1 << 20);

    const auto r = run(scenario(true), {a_->path(), b_->path()});
    expectRefusedInUse(r, a_->path(), "is a member of the imported ZFS pool " + holderPool);
    EXPECT_EQ(journalRows(), 0);
    const auto status = lb::test::runProcess({"zpool", "status", holderPool});
    EXPECT_NE(status.out.find("state: ONLINE"), std::string::npos) << status.out;
    EXPECT_NE(status.out.find("No known data errors"), std::string::npos) << status.out;
    EXPECT_EQ(sha256(mnt + "/data", 1 << 20), before);
    EXPECT_FALSE(lb::test::poolExists(pool));
    EXPECT_EQ(partitionTable(b_->path()), "");
}
