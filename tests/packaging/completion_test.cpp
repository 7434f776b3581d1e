// The shell completions, run as the shells run them (bash with bash-completion, zsh with
// compinit under a pseudo-terminal): they offer exactly the commands of `layoutbench --help` and
// exactly the options of each `layoutbench COMMAND --help`, and complete values: layout kinds,
// list targets, drive ids from the catalog installed beside the program, layout names from the
// database.
#include "tests/cli/process.h"
#include "tests/packaging/docs_support.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

namespace lb::test {
namespace {

namespace fs = std::filesystem;

const std::string source = LAYOUTBENCH_SOURCE_DIR;
const std::string cliDir = fs::path(LAYOUTBENCH_CLI).parent_path().string();

HelpText cliHelp(const std::vector<std::string>& args) {
    std::vector<std::string> argv{LAYOUTBENCH_CLI};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back("--help");
    return parseCli11Help(runProcess(argv).out);
}

std::set<std::string> words(const std::string& text) {
    std::set<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;)
        out.insert(w);
    return out;
}

// Candidates for each line, from the harness's "LINE<TAB>CANDIDATES" output.
std::map<std::string, std::set<std::string>> parseCompletions(const ProcessResult& r) {
    std::map<std::string, std::set<std::string>> out;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
        const auto tab = line.find('\t');
        if (tab != std::string::npos)
            out[line.substr(0, tab)] = words(line.substr(tab + 1));
    }
    return out;
}

enum class Shell { Bash, Zsh };

std::map<std::string, std::set<std::string>>
complete(Shell shell, const std::vector<std::string>& lines, const std::string& binDir = cliDir) {
    std::vector<std::string> argv =
        shell == Shell::Bash
            ? std::vector<std::string>{"bash", source + "/tests/packaging/bash_complete.sh",
                                       source + "/packaging/completions/layoutbench.bash", binDir}
            : std::vector<std::string>{"zsh", source + "/tests/packaging/zsh_complete.zsh",
                                       source + "/packaging/completions", binDir,
                                       LAYOUTBENCH_ZSH_DUMP};
    argv.insert(argv.end(), lines.begin(), lines.end());
    const auto r = runProcess(argv);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    auto out = parseCompletions(r);
    EXPECT_EQ(out.size(), lines.size()) << r.out << r.err;
    return out;
}

void PrintTo(Shell shell, std::ostream* out) {
    *out << (shell == Shell::Bash ? "bash" : "zsh");
}

class Completion : public ::testing::TestWithParam<Shell> {};

TEST_P(Completion, OffersEveryCommand) {
    const auto commands = cliHelp({}).subcommands;
    ASSERT_GE(commands.size(), 8U);
    const auto got = complete(GetParam(), {"layoutbench "});
    EXPECT_EQ(join(got.at("layoutbench ")), join(commands));
}

TEST_P(Completion, OffersExactlyTheOptionsOfEveryCommand) {
    const auto commands = cliHelp({}).subcommands;
    // bash offers every option after "-"; zsh's _arguments offers the long ones after "--".
    const std::string dash = GetParam() == Shell::Bash ? "-" : "--";
    std::vector<std::string> lines;
    for (const auto& command : commands)
        lines.push_back("layoutbench " + command + " " + dash);
    const auto got = complete(GetParam(), lines);
    for (const auto& command : commands) {
        std::set<std::string> expected;
        for (const auto& option : cliHelp({command}).options)
            if (option.rfind(dash, 0) == 0)
                expected.insert(option);
        EXPECT_EQ(join(got.at("layoutbench " + command + " " + dash)), join(expected))
            << "completion of layoutbench " << command << " against its --help";
    }
}

TEST_P(Completion, CompletesKindsAndListTargets) {
    const auto got =
        complete(GetParam(), {"layoutbench capacity --kind zfs-raidz",
                              "layoutbench project --kind md-raid1", "layoutbench list "});
    EXPECT_EQ(join(got.at("layoutbench capacity --kind zfs-raidz")),
              "zfs-raidz1 zfs-raidz2 zfs-raidz3");
    EXPECT_EQ(join(got.at("layoutbench project --kind md-raid1")), "md-raid1 md-raid10");
    EXPECT_EQ(join(got.at("layoutbench list ")), "campaigns drives layouts runs");
}

// As installed: the catalog is share/layoutbench/drives.toml beside bin/layoutbench (here a stub
// program: the completion only reads the catalog).
TEST_P(Completion, CompletesDriveIdsFromTheInstalledCatalog) {
    const fs::path prefix = fs::temp_directory_path() /
                            ("lb-completion-" + std::to_string(static_cast<int>(GetParam())));
    fs::remove_all(prefix);
    fs::create_directories(prefix / "bin");
    fs::create_directories(prefix / "share/layoutbench");
    fs::copy_file(source + "/data/drives.toml", prefix / "share/layoutbench/drives.toml");
    std::ofstream(prefix / "bin/layoutbench") << "#!/bin/sh\nexit 0\n";
    fs::permissions(prefix / "bin/layoutbench", fs::perms::owner_all);
    const auto got = complete(GetParam(), {"layoutbench project --drive samsung-860"},
                              (prefix / "bin").string());
    fs::remove_all(prefix);
    EXPECT_TRUE(got.at("layoutbench project --drive samsung-860").count("samsung-860-evo-500gb"))
        << join(got.at("layoutbench project --drive samsung-860"));
}

std::string shellName(const ::testing::TestParamInfo<Shell>& shell) {
    return shell.param == Shell::Bash ? "Bash" : "Zsh";
}

INSTANTIATE_TEST_SUITE_P(Shells, Completion, ::testing::Values(Shell::Bash, Shell::Zsh), shellName);

// bash only: layout names come from the database named by --db (never created by completing).
TEST(BashCompletion, CompletesLayoutNamesFromTheDatabase) {
    const fs::path dir = fs::temp_directory_path() / "lb-completion-layouts";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string db = (dir / "results.db").string();
    const auto imported = runProcess({LAYOUTBENCH_CLI, "import", "--layout", "bare-metal", "--db",
                                      db, source + "/data/samples/bare-metal-bonnie.csv"});
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    const std::string missing = (dir / "missing.db").string();
    const auto got =
        complete(Shell::Bash, {"layoutbench compare --db " + db + " --baseline bare",
                               "layoutbench compare --db " + missing + " --baseline "});
    EXPECT_EQ(join(got.at("layoutbench compare --db " + db + " --baseline bare")), "bare-metal");
    EXPECT_TRUE(got.at("layoutbench compare --db " + missing + " --baseline ").empty());
    EXPECT_FALSE(fs::exists(missing));
    fs::remove_all(dir);
}

} // namespace
} // namespace lb::test
