// Did-you-mean: the edit distance worked by hand, and which names are near enough to suggest.
#include "engine/base/suggest.h"

#include <gtest/gtest.h>

namespace lb {
namespace {

TEST(Suggest, EditDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps) {
    EXPECT_EQ(editDistance("kind", "kind"), 0U);
    EXPECT_EQ(editDistance("kindd", "kind"), 1U); // one deletion
    EXPECT_EQ(editDistance("lits", "list"), 1U);  // a swap of neighbours
    EXPECT_EQ(editDistance("raid", "RAID"), 0U);  // case does not count
    EXPECT_EQ(editDistance("md-raid01", "md-raid10"), 1U);
    EXPECT_EQ(editDistance("kitten", "sitting"), 3U);
    EXPECT_EQ(editDistance("", "abc"), 3U);
}

TEST(Suggest, NamesNearEnoughAndOnlyThose) {
    const std::vector<std::string> kinds{"md-raid10", "zfs-raidz1", "zfs-raidz2", "zfs-raidz3",
                                         "zfs-mirror"};
    EXPECT_EQ(didYouMean("md-raid01", kinds), " (did you mean 'md-raid10'?)");
    EXPECT_EQ(didYouMean("zfs-raidz", kinds),
              " (did you mean 'zfs-raidz1', 'zfs-raidz2' or 'zfs-raidz3'?)");
    EXPECT_EQ(didYouMean("zfs-mirorr", kinds), " (did you mean 'zfs-mirror'?)");
    EXPECT_EQ(didYouMean("btrfs", kinds), "");     // another word, not a slip
    EXPECT_EQ(didYouMean("md-raid10", kinds), ""); // known: nothing to suggest
    // A start of a longer name that is the only one: a flag typed short.
    EXPECT_EQ(nearestNames("--under", {"--underprovision", "--used", "--growth"}),
              (std::vector<std::string>{"--underprovision"}));
    EXPECT_EQ(nearestNames("--u", {"--underprovision", "--used", "--growth"}),
              (std::vector<std::string>{"--underprovision", "--used"}));
    // More than three as near: no guess.
    EXPECT_TRUE(nearestNames("ab", {"aa", "bb", "ac", "cb"}).empty());
}

} // namespace
} // namespace lb
