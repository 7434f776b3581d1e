// The FreeBSD in-use parsers on outputs captured from FreeBSD systems and the FreeBSD Handbook
// (tests/data/freebsd, each file naming its source). Each file may hold several captures, each
// after its command line; the lines that are not the command's output are dropped.
#include "engine/exec/safety.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace lb {
namespace {

// The output of the last capture of `command` in a data file (all of it when the file has no
// prompt lines): the source lines, prompts ("# cmd", "$ cmd", "+ cmd", "root@host # cmd") and
// kernel messages out.
std::string captured(const std::string& file, const std::string& command, int which = -1) {
    std::ifstream in(std::string(LAYOUTBENCH_TEST_DATA_DIR) + "/freebsd/" + file);
    EXPECT_TRUE(in) << file;
    std::vector<std::string> captures(1);
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("# source:") || line.starts_with("# system:"))
            continue;
        const bool prompt = line.starts_with("# ") || line.starts_with("$ ") ||
                            line.starts_with("+ ") || line.starts_with("root@");
        if (prompt) {
            if (line.find(command) != std::string::npos)
                captures.emplace_back();
            else
                captures.emplace_back("(other)");
            continue;
        }
        if (line.starts_with("GEOM_"))
            continue;
        captures.back() += line + "\n";
    }
    std::vector<std::string> wanted;
    for (const auto& c : captures)
        if (!c.starts_with("(other)") && !c.empty())
            wanted.push_back(c);
    EXPECT_FALSE(wanted.empty()) << file;
    if (wanted.empty())
        return {};
    return which < 0 ? wanted.back() : wanted.at(static_cast<std::size_t>(which));
}

TEST(FreeBsdInUse, MountP) {
    const auto mounts = parseFreeBsdMountP(captured("mount-p.txt", "mount -p"));
    ASSERT_EQ(mounts.size(), 4U);
    EXPECT_EQ(mounts[0], (FreeBsdMount{"/dev/mirror/root", "/", "ufs"}));
    EXPECT_EQ(mounts[1], (FreeBsdMount{"devfs", "/dev", "devfs"}));
}

TEST(FreeBsdInUse, Swapinfo) {
    EXPECT_EQ(parseFreeBsdSwapinfo(captured("swapinfo-k.txt", "swapinfo")),
              (std::vector<std::string>{"/dev/mirror/swap"}));
    EXPECT_TRUE(parseFreeBsdSwapinfo(captured("swapinfo-k-noswap.txt", "swapinfo")).empty());
}

TEST(FreeBsdInUse, GmirrorAndGraidComponents) {
    using Pairs = std::vector<std::pair<std::string, std::string>>;
    EXPECT_EQ(parseGeomStatus(captured("gmirror-status.txt", "gmirror status")),
              (Pairs{{"mirror/gm0", "ada1"}, {"mirror/gm0", "ada0"}}));
    EXPECT_EQ(parseGeomStatus(captured("graid-status.txt", "graid status", 0)),
              (Pairs{{"raid/r0", "ada0"}, {"raid/r0", "ada1"}}));
    // Rebuilding: the component is a member all the same.
    EXPECT_EQ(parseGeomStatus(captured("graid-status.txt", "graid status", 1)),
              (Pairs{{"raid/r0", "ada0"}, {"raid/r0", "ada1"}}));
}

TEST(FreeBsdInUse, ZpoolStatusLeaves) {
    using Pairs = std::vector<std::pair<std::string, std::string>>;
    EXPECT_EQ(parseZpoolStatusLeaves(captured("zpool-status-nvme.txt", "zpool status")),
              (Pairs{{"cbsd", "nda0p3"}}));
    // A raidz2 of six: the vdev row is not a device.
    const auto raidz =
        parseZpoolStatusLeaves(captured("zpool-status-handbook.txt", "zpool status", 1));
    ASSERT_EQ(raidz.size(), 6U);
    EXPECT_EQ(raidz.front(), (std::pair<std::string, std::string>{"mypool", "ada0p3"}));
    EXPECT_EQ(raidz.back(), (std::pair<std::string, std::string>{"mypool", "ada5p3"}));
}

TEST(FreeBsdInUse, GpartShowCountsPartitionsNotFreeSpace) {
    // Without -p the third column is the index; the free rows have none.
    EXPECT_EQ(parseGpartShowProviders(captured("gpart-show.txt", "gpart show")),
              (std::vector<std::string>{"1", "2", "3", "4"}));
}

} // namespace
} // namespace lb
