// The OOM killer's line in the kernel log, as Linux 6.1 prints it: a run that died of memory
// exhaustion is reported as such, not as a generic SIGKILL.
#include "engine/campaign/campaign.h"

#include <gtest/gtest.h>

namespace lb {
namespace {

const std::string kernelLog =
    "[    2.100000] virtio_blk virtio1: [vda] 131072 512-byte logical blocks\n"
    "[   40.512345] bonnie++ invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|"
    "__GFP_COMP), order=0, oom_score_adj=0\n"
    "[   40.512400] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,"
    "global_oom,task_memcg=/,task=bonnie++,pid=321,uid=0\n"
    "[   40.512455] Out of memory: Killed process 321 (bonnie++) total-vm:270004kB, "
    "anon-rss:241000kB, file-rss:4kB, shmem-rss:0kB, UID:0 pgtables:520kB oom_score_adj:0\n"
    "[   90.000001] Out of memory: Killed process 400 (fio) total-vm:100kB, anon-rss:90kB\n";

TEST(OomKillLine, FindsTheProgramsLineWithoutTheMemoryFigures) {
    const auto line = oomKillLine(kernelLog, "bonnie++", 30.0);
    ASSERT_TRUE(line);
    EXPECT_EQ(*line, "Out of memory: Killed process 321 (bonnie++)");
}

TEST(OomKillLine, IgnoresOtherProgramsAndOlderLines) {
    EXPECT_FALSE(oomKillLine(kernelLog, "xz", 0.0));
    // The bonnie++ kill happened before this run started.
    EXPECT_FALSE(oomKillLine(kernelLog, "bonnie++", 60.0));
    EXPECT_EQ(oomKillLine(kernelLog, "fio", 60.0).value_or(""),
              "Out of memory: Killed process 400 (fio)");
}

TEST(OomKillLine, AnyProgramWhenNoneIsNamed) {
    EXPECT_EQ(oomKillLine(kernelLog, "", 0.0).value_or(""),
              "Out of memory: Killed process 400 (fio)");
    EXPECT_FALSE(oomKillLine(kernelLog, "", 95.0));
}

TEST(OomKillLine, MatchesTheKernelsFifteenCharacterName) {
    const std::string log =
        "[ 5.0] Out of memory: Killed process 9 (a-very-long-nam) total-vm:1kB\n";
    EXPECT_TRUE(oomKillLine(log, "a-very-long-name-of-a-tool", 0.0));
    EXPECT_FALSE(oomKillLine(log, "a-very-long", 0.0));
}

} // namespace
} // namespace lb
