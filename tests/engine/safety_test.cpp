// Tests of the disk safety inspection against real loop devices that really carry or hold what
// is checked for (a file system, a GPT, a mount, swap, an imported and an exported zfs-fuse pool),
// locally and over a real sshd; and the table of the rule: in use is refused whatever the flags,
// carried things need wipe = true and --yes-destroy. Leftovers of a crashed run (loop devices
// backed by files in this test's directory, its pool) are removed before the tests start.

#include "engine/exec/safety.h"
#include "engine/exec/ssh_runner.h"
#include "tests/cli/process.h"
#include "tests/support/loop_device.h"
#include "tests/support/sshd.h"
#include "tests/support/zfs_fuse.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace lb {
namespace {

const std::string kDir = "/tmp/layoutbench-safety-test";
const std::string kPool = "lbsafetytest";
constexpr std::uint64_t kSize = 128ULL * 1024 * 1024;

std::string all(const DiskState& d) {
    std::string out;
    for (const auto& r : d.inUse)
        out += "in use: " + r + "\n";
    for (const auto& r : d.carries)
        out += "carries: " + r + "\n";
    return out;
}

bool found(const std::vector<std::string>& reasons, const DiskState& d, const std::string& what) {
    for (const auto& r : reasons)
        if (r.find(what) != std::string::npos && r.find(d.path) != std::string::npos)
            return true;
    return false;
}
// A reason of the in-use kind (refused whatever the flags).
bool inUse(const DiskState& d, const std::string& what) {
    return found(d.inUse, d, what);
}
// A reason of the carried kind (wipe = true and --yes-destroy let it through).
bool carries(const DiskState& d, const std::string& what) {
    return found(d.carries, d, what);
}

void sh(const std::vector<std::string>& argv) {
    const auto r = test::runProcess(argv);
    ASSERT_EQ(r.exitCode, 0) << argv.front() << ": " << r.err;
}

class SafetyTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        // A pool from a crashed run holds its loop device open; zpool answers only when a ZFS
        // daemon runs, and then `destroy` of a missing pool is harmless.
        test::runProcess({"zpool", "destroy", "-f", kPool});
        test::detachLoopDevicesUnder(kDir);
        std::error_code ec;
        std::filesystem::remove_all(kDir, ec);
        std::filesystem::create_directories(kDir + "/mnt");
    }

    void SetUp() override {
        if (::geteuid() != 0)
            GTEST_SKIP() << "loop devices need root";
        loop_ = std::make_unique<test::LoopDevice>(
            kDir + "/" + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".img",
            kSize);
        if (!loop_->available())
            GTEST_SKIP() << "no loop device: " << loop_->why();
    }

    void TearDown() override { loop_.reset(); }

    DiskState inspect() {
        auto runner = makeLocalRunner();
        auto d = inspectDisk(*runner, loop_->path());
        EXPECT_TRUE(d.has_value()) << (d ? "" : d.error().message);
        return d ? *d : DiskState{};
    }

    std::unique_ptr<test::LoopDevice> loop_;
};

TEST_F(SafetyTest, BlankLoopDeviceHasNoReasons) {
    const auto d = inspect();
    EXPECT_TRUE(d.blank()) << all(d);
    EXPECT_EQ(d.path, loop_->path());
    EXPECT_EQ(d.resolvedPath, loop_->path());
}

TEST_F(SafetyTest, FileSystemSignature) {
    sh({"mkfs.ext4", "-q", "-F", loop_->path()});
    const auto d = inspect();
    EXPECT_TRUE(carries(d, "ext4 signature")) << all(d);
    EXPECT_TRUE(d.inUse.empty()) << all(d);
}

TEST_F(SafetyTest, PartitionTable) {
    sh({"sgdisk", "-n", "1:0:0", loop_->path()});
    sh({"partx", "-u", loop_->path()});
    const auto d = inspect();
    EXPECT_TRUE(carries(d, "partition table (gpt)")) << all(d);
    EXPECT_TRUE(d.inUse.empty()) << all(d);
}

TEST_F(SafetyTest, Mounted) {
    sh({"mkfs.ext4", "-q", "-F", loop_->path()});
    const auto mnt = kDir + "/mnt";
    sh({"mount", loop_->path(), mnt});
    const auto d = inspect(); // the fixture unmounts in teardown, even when this fails
    EXPECT_TRUE(inUse(d, "is mounted at " + mnt)) << all(d);
    EXPECT_TRUE(carries(d, "ext4 signature")) << all(d);
}

TEST_F(SafetyTest, MountedPartition) {
    sh({"sgdisk", "-n", "1:0:0", loop_->path()});
    sh({"partx", "-u", loop_->path()});
    const auto part = loop_->path() + "p1";
    sh({"mkfs.ext4", "-q", "-F", part});
    const auto mnt = kDir + "/mnt";
    sh({"mount", part, mnt});
    const auto d = inspect();
    EXPECT_TRUE(inUse(d, "(through " + part + ") is mounted at " + mnt)) << all(d);
    EXPECT_TRUE(carries(d, "(through " + part + ") carries a ext4 signature")) << all(d);
    EXPECT_TRUE(carries(d, "partition table")) << all(d);
}

TEST_F(SafetyTest, Swap) {
    sh({"mkswap", loop_->path()});
    sh({"swapon", loop_->path()}); // the fixture swapoffs in teardown
    const auto d = inspect();
    EXPECT_TRUE(inUse(d, "is used as swap")) << all(d);
    EXPECT_TRUE(inUse(d, "holds swap")) << all(d);
}

TEST_F(SafetyTest, ZfsLabel) {
    test::ZfsFuse zfs;
    if (!zfs.available())
        GTEST_SKIP() << "no ZFS: " << zfs.why();
    struct PoolGuard {
        ~PoolGuard() { test::runProcess({"zpool", "destroy", "-f", kPool}); }
    } guard;
    sh({"zpool", "create", "-f", "-m", "none", kPool, loop_->path()});
    const auto imported = inspect();
    EXPECT_TRUE(inUse(imported, "is a member of the imported ZFS pool " + kPool)) << all(imported);
    EXPECT_FALSE(carries(imported, "ZFS label")) << all(imported);
    // Exported, the pool is only a label on the disk.
    sh({"zpool", "export", kPool});
    const auto exported = inspect();
    EXPECT_TRUE(exported.inUse.empty()) << all(exported);
    EXPECT_TRUE(carries(exported, "carries a ZFS label (pool " + kPool + ", not imported)"))
        << all(exported);
}

TEST_F(SafetyTest, NotABlockDeviceIsBadInput) {
    auto runner = makeLocalRunner();
    auto d = inspectDisk(*runner, loop_->file());
    ASSERT_FALSE(d.has_value());
    EXPECT_EQ(d.error().kind, ErrorKind::BadInput);
    EXPECT_NE(d.error().message.find(loop_->file()), std::string::npos) << d.error().message;
}

TEST_F(SafetyTest, OverSsh) {
    test::Sshd sshd;
    if (!sshd.available())
        GTEST_SKIP() << "no sshd: " << sshd.why();
    sh({"mkfs.ext4", "-q", "-F", loop_->path()});
    auto runner = makeSshRunner(sshd.target());
    auto d = inspectDisk(*runner, loop_->path());
    ASSERT_TRUE(d.has_value()) << d.error().message;
    const auto local = inspect();
    EXPECT_EQ(d->carries, local.carries);
    EXPECT_EQ(d->inUse, local.inUse);
    EXPECT_TRUE(carries(*d, "ext4 signature")) << all(*d);
}

// Read-only: inspects the disk this machine runs from.
TEST(SafetySystemDisk, RootDiskIsRefused) {
    const auto src = test::runProcess({"findmnt", "-n", "-o", "SOURCE", "--target", "/"});
    std::string root = src.out.substr(0, src.out.find('\n'));
    if (!root.starts_with("/dev/"))
        GTEST_SKIP() << "/ is not on a block device here (" << root << ")";
    const auto disk = test::runProcess({"lsblk", "-n", "-d", "-o", "PKNAME", root});
    std::string parent = disk.out.substr(0, disk.out.find('\n'));
    const std::string device = parent.empty() ? root : "/dev/" + parent;
    auto runner = makeLocalRunner();
    auto d = inspectDisk(*runner, device);
    ASSERT_TRUE(d.has_value()) << d.error().message;
    EXPECT_TRUE(inUse(*d, "holds / (")) << all(*d);
}

DiskDecision decision(bool wipe, std::string serial = "") {
    DiskDecision d;
    d.disk.path = "/dev/disk/by-id/ata-SSD_1";
    d.disk.resolvedPath = "/dev/sdb";
    d.disk.serial = std::move(serial);
    d.disk.carries = {"/dev/disk/by-id/ata-SSD_1 carries a partition table (gpt)"};
    d.wipe = wipe;
    return d;
}

TEST(AuthorizeDestruction, RuleTable) {
    struct Row {
        bool wipe;
        std::vector<std::string> yes;
        bool allowed;
    };
    const std::vector<Row> rows = {
        {false, {}, false},
        {false, {"/dev/disk/by-id/ata-SSD_1"}, false},
        {false, {"S123"}, false},
        {true, {}, false},
        {true, {"/dev/sdc"}, false},
        {true, {""}, false},
        {true, {"/dev/disk/by-id/ata-SSD_1"}, true},
        {true, {"/dev/sdb"}, true},
        {true, {"S123"}, true},
        {true, {"/dev/sdc", "S123"}, true},
    };
    for (const auto& row : rows) {
        const auto r = authorizeDestruction({decision(row.wipe, "S123")}, row.yes);
        std::string yes;
        for (const auto& y : row.yes)
            yes += y + " ";
        EXPECT_EQ(r.has_value(), row.allowed) << "wipe=" << row.wipe << " yes=" << yes;
        if (!r) {
            EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
            EXPECT_NE(r.error().message.find("/dev/disk/by-id/ata-SSD_1"), std::string::npos);
            EXPECT_NE(r.error().message.find("partition table (gpt)"), std::string::npos);
        }
    }
}

TEST(AuthorizeDestruction, NoSerialNeverMatchesAnEmptyName) {
    EXPECT_FALSE(authorizeDestruction({decision(true, "")}, {""}).has_value());
}

TEST(AuthorizeDestruction, BlankDisksNeedNothing) {
    DiskDecision blank;
    blank.disk.path = "/dev/sdc";
    EXPECT_TRUE(authorizeDestruction({blank}, {}).has_value());
}

TEST(AuthorizeDestruction, OneLinePerRefusedDisk) {
    auto a = decision(false);
    auto b = decision(true);
    b.disk.path = "/dev/sdd";
    b.disk.resolvedPath = "/dev/sdd";
    b.disk.carries = {"/dev/sdd carries a xfs signature", "/dev/sdd carries a partition table"};
    DiskDecision ok = decision(true);
    ok.disk.path = ok.disk.resolvedPath = "/dev/sde";
    const auto r = authorizeDestruction({a, b, ok}, {"/dev/sde"});
    ASSERT_FALSE(r.has_value());
    const auto& m = r.error().message;
    EXPECT_EQ(std::count(m.begin(), m.end(), '\n'), 1) << m;
    EXPECT_NE(m.find("/dev/disk/by-id/ata-SSD_1"), std::string::npos) << m;
    EXPECT_NE(m.find("/dev/sdd carries a xfs signature; /dev/sdd carries a partition table"),
              std::string::npos)
        << m;
    EXPECT_EQ(m.find("/dev/sde"), std::string::npos) << m;
}

// A disk in use is refused whatever the scenario and the command line say, naming its holder.
TEST(AuthorizeDestruction, InUseIsRefusedWhateverTheFlags) {
    auto d = decision(true, "S123");
    d.disk.inUse = {"/dev/disk/by-id/ata-SSD_1 (through /dev/sdb1) is mounted at /srv/vm",
                    "/dev/disk/by-id/ata-SSD_1 is held by md array /dev/md0"};
    for (const bool wipe : {false, true})
        for (const auto& yes : std::vector<std::vector<std::string>>{
                 {}, {"/dev/disk/by-id/ata-SSD_1"}, {"/dev/sdb"}, {"S123"}}) {
            d.wipe = wipe;
            const auto r = authorizeDestruction({d}, yes);
            ASSERT_FALSE(r.has_value()) << "wipe=" << wipe;
            EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
            const auto& m = r.error().message;
            EXPECT_NE(m.find("it is in use"), std::string::npos) << m;
            EXPECT_NE(m.find("is mounted at /srv/vm"), std::string::npos) << m;
            EXPECT_NE(m.find("md array /dev/md0"), std::string::npos) << m;
            EXPECT_NE(m.find("no flag destroys a disk in use"), std::string::npos) << m;
        }
    // Blank otherwise, still refused.
    d.disk.carries.clear();
    EXPECT_FALSE(authorizeDestruction({d}, {"/dev/sdb"}).has_value());
}

} // namespace
} // namespace lb
