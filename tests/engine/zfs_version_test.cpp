// Which ZFS a target runs, from what its own commands print: zfs-fuse's as it prints them on this
// machine's host; OpenZFS's in the form `zfs version` prints (the lab guest's 2.3.2 is checked
// for real by the OpenZfs suite); FreeBSD's in the form its OpenZFS prints, not captured here.
#include "engine/capacity/zfs_version.h"

#include <gtest/gtest.h>

namespace lb {
namespace {

TEST(ZfsImplementation, KernelOpenZfsOnLinuxTakesTheModuleVersion) {
    const auto z = parseZfsImplementation("zfs-2.3.1-1\nzfs-kmod-2.3.2-2~bpo12+2\n", {});
    EXPECT_EQ(z.kind, ZfsImplementation::Kind::OpenZfs);
    EXPECT_EQ(z.major, 2U);
    EXPECT_EQ(z.minor, 3U);
    EXPECT_EQ(z.patch, 2U);
    EXPECT_EQ(z.describe(), "OpenZFS 2.3.2 (2.3.2-2~bpo12+2)");
    EXPECT_TRUE(z.openZfsAtLeast(2, 3));
    EXPECT_TRUE(z.openZfsAtLeast(2, 1));
    EXPECT_FALSE(z.openZfsAtLeast(2, 4));
    EXPECT_EQ(zfsFeatureProblem(z, "draid"), "");
    EXPECT_EQ(zfsFeatureProblem(z, "raidz-expansion"), "");
}

TEST(ZfsImplementation, FreeBsdAndOlderOpenZfs) {
    const auto z = parseZfsImplementation(
        "zfs-2.2.4-FreeBSD_g256659204\nzfs-kmod-2.2.4-FreeBSD_g256659204\n", {});
    EXPECT_EQ(z.kind, ZfsImplementation::Kind::OpenZfs);
    EXPECT_EQ(z.minor, 2U);
    EXPECT_EQ(zfsFeatureProblem(z, "draid"), "");
    EXPECT_EQ(zfsFeatureProblem(z, "raidz-expansion"),
              "RAIDZ expansion (zpool attach to a raidz vdev) needs OpenZFS 2.3 or later; the "
              "target runs OpenZFS 2.2.4 (2.2.4-FreeBSD_g256659204)");
    // Only the userland line (no module loaded): its version stands in.
    const auto user = parseZfsImplementation("zfs-0.8.3-1ubuntu12\n", {});
    EXPECT_EQ(user.kind, ZfsImplementation::Kind::OpenZfs);
    EXPECT_FALSE(user.openZfsAtLeast(2, 1));
    EXPECT_NE(zfsFeatureProblem(user, "draid").find("dRAID needs OpenZFS 2.1"), std::string::npos);
}

TEST(ZfsImplementation, ZfsFuseIsPoolVersion23) {
    // zfs-fuse has no `zfs version` (it prints its usage): the pool version says what it is.
    const auto z = parseZfsImplementation(
        "unrecognized command 'version'\nusage: zfs command args ...\n",
        "This system is currently running ZFS pool version 23.\n\nThe following versions are "
        "supported:\n");
    EXPECT_EQ(z.kind, ZfsImplementation::Kind::ZfsFuse);
    EXPECT_EQ(z.poolVersion, 23U);
    EXPECT_EQ(z.describe(), "zfs-fuse (FUSE, pool version 23)");
    EXPECT_FALSE(z.openZfsAtLeast(0, 0));
    EXPECT_NE(zfsFeatureProblem(z, "raidz-expansion").find("the target runs zfs-fuse"),
              std::string::npos);
}

TEST(ZfsImplementation, NothingWhenNoZfsAnswers) {
    const auto z = parseZfsImplementation(
        "", "connect: No such file or directory\nPlease make sure that the zfs-fuse daemon is "
            "running.\n");
    EXPECT_EQ(z.kind, ZfsImplementation::Kind::None);
    EXPECT_EQ(z.describe(), "no ZFS");
    EXPECT_FALSE(zfsFeatureProblem(z, "draid").empty());
}

TEST(ZfsPartialRecord, SmallBlocksMoveWholeRecords) {
    EXPECT_EQ(zfsPartialRecordNote(4096, 131072),
              "4.00 KiB blocks on 128.00 KiB records: each read fetches a whole record from the "
              "vdevs and each write rewrites one, 32 times the bytes counted");
    EXPECT_EQ(zfsPartialRecordNote(131072, 131072), "");
    EXPECT_EQ(zfsPartialRecordNote(1048576, 131072), "");
    EXPECT_EQ(zfsPartialRecordNote(0, 131072), "");
    // A zvol's records are its blocks.
    EXPECT_EQ(zfsPartialRecordNote(4096, 16384, true),
              "4.00 KiB blocks on a zvol of 16.00 KiB blocks (volblocksize): each read fetches a "
              "whole block from the vdevs and each write rewrites one, 4 times the bytes counted");
}

} // namespace
} // namespace lb
