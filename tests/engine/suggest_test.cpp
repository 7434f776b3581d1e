// Did-you-mean: the edit distance worked by hand, and which names are near enough to suggest.
#include "engine/base/suggest.h"
#include "engine/capacity/layout.h"

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

// A kind typed without its family is answered with the kind meant; nothing near lists them all
// (issue 41).
TEST(Suggest, LayoutKindsWithoutTheirFamily) {
    EXPECT_EQ(unknownLayoutKind("raidz2"),
              "unknown layout kind 'raidz2' (did you mean 'zfs-raidz2'?)");
    EXPECT_EQ(unknownLayoutKind("raid6"), "unknown layout kind 'raid6' (did you mean 'md-raid6'?)");
    EXPECT_EQ(unknownLayoutKind("raid10"),
              "unknown layout kind 'raid10' (did you mean 'md-raid10' or 'zfs-raid10'?)");
    EXPECT_EQ(unknownLayoutKind("raidz"), "unknown layout kind 'raidz' (did you mean "
                                          "'zfs-raidz1', 'zfs-raidz2' or 'zfs-raidz3'?)");
    EXPECT_EQ(unknownLayoutKind("zfs-raidz"), "unknown layout kind 'zfs-raidz' (did you mean "
                                              "'zfs-raidz1', 'zfs-raidz2' or 'zfs-raidz3'?)");
    const auto none = unknownLayoutKind("tape");
    EXPECT_NE(none.find("(kinds: dir, md-raid0"), std::string::npos) << none;
    EXPECT_NE(none.find("zfs-draid3, guest)"), std::string::npos) << none;
}

} // namespace
} // namespace lb
