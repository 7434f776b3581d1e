// --version: the command line (--version, -V), the desktop app (--version, -V, -v) and the PDF
// renderer (--version, -V) print the release and the git describe of the build, taken when the
// build was configured.
#include "layoutbench_version.h"
#include "tests/cli/process.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace lb::test {
namespace {

TEST(Version, IsTheReleaseAndTheGitDescribe) {
    EXPECT_STREQ(kVersion, LAYOUTBENCH_PROJECT_VERSION);
    const std::string describe = kGitDescribe;
    EXPECT_EQ(std::string(kVersionText), describe.empty()
                                             ? std::string(kVersion)
                                             : std::string(kVersion) + " (git " + describe + ")");
    // Built from a git checkout, it carries the describe (without git, the release alone).
    if (std::filesystem::exists(std::string(LAYOUTBENCH_SOURCE_DIR) + "/.git")) {
        EXPECT_FALSE(describe.empty());
    }
}

TEST(Version, CommandLinePrintsIt) {
    for (const char* flag : {"--version", "-V"}) {
        const auto r = runProcess({LAYOUTBENCH_CLI, flag});
        EXPECT_EQ(r.exitCode, 0) << flag << ": " << r.err;
        EXPECT_EQ(r.out, std::string("layoutbench ") + kVersionText + "\n") << flag;
        EXPECT_EQ(r.err, "") << flag;
    }
}

TEST(Version, RendererPrintsTheSame) {
    for (const char* flag : {"--version", "-V"}) {
        const auto r = runProcess({LAYOUTBENCH_RENDER, flag});
        EXPECT_EQ(r.exitCode, 0) << flag << ": " << r.err;
        EXPECT_EQ(r.out, std::string("layoutbench-render ") + kVersionText + "\n") << flag;
    }
}

TEST(Version, DesktopAppPrintsTheSameWithoutADisplay) {
    for (const char* flag : {"--version", "-V", "-v"}) {
        const auto r = runProcess({LAYOUTBENCH_GUI, flag}, {"QT_QPA_PLATFORM=xcb"});
        EXPECT_EQ(r.exitCode, 0) << flag << ": " << r.err;
        EXPECT_EQ(r.out, std::string("layoutbench-gui ") + kVersionText + "\n") << flag;
    }
}

} // namespace
} // namespace lb::test
