// Commands run on this machine when a watched command prints a line: the line may come in pieces,
// each trigger fires once, and one whose line never came says so.
#include "engine/exec/line_trigger.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

namespace lb {
namespace {

TEST(LineTriggers, ACommandRunsOnceWhenItsLineComesEvenInPieces) {
    const std::string mark = std::filesystem::temp_directory_path().string() + "/lb-line-trigger-" +
                             std::to_string(::getpid());
    std::filesystem::remove(mark);
    Command append{"sh", {"-c", "echo pulled >> \"$1\"", "sh", mark}};
    LineTriggers triggers({{"lb-drill pull=now", append}, {"never", Command{"false"}}},
                          makeLocalRunner());
    ASSERT_FALSE(triggers.empty());
    triggers.feed("lb-drill fill=1\nlb-drill pu");
    triggers.feed("ll=now\nlb-drill pull=now\n"); // a second time: not run again
    const auto outcomes = triggers.finish();
    ASSERT_EQ(outcomes.size(), 2U);
    EXPECT_TRUE(outcomes[0].ok()) << outcomes[0].describe();
    EXPECT_NE(outcomes[0].describe().find(": exit status 0 in "), std::string::npos)
        << outcomes[0].describe();
    std::ifstream in(mark);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), "pulled\n");
    EXPECT_FALSE(outcomes[1].ok());
    EXPECT_EQ(outcomes[1].describe(), "false: not run (the line \"never\" never came)");
    std::filesystem::remove(mark);

    // A command that fails says how.
    LineTriggers failing({{"go", Command{"sh", {"-c", "echo no such slot >&2; exit 3"}}}},
                         makeLocalRunner());
    failing.feed("go\n");
    const auto failed = failing.finish();
    ASSERT_EQ(failed.size(), 1U);
    EXPECT_FALSE(failed[0].ok());
    EXPECT_NE(failed[0].describe().find("exit status 3"), std::string::npos)
        << failed[0].describe();
}

} // namespace
} // namespace lb
