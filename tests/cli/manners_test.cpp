// The command line's manners, through the real binary: global options before or after the
// command, LAYOUTBENCH_DB, the help and its program name, read-only commands that refuse a
// database that does not exist, --fail-on, tables that fit COLUMNS, iterations counted from 1,
// progress on standard error, duplicate imports, and merge.
#include "tests/cli/process.h"
#include "tests/support/scratch_dir.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lb::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string samples = std::string(LAYOUTBENCH_SOURCE_DIR) + "/data/samples/";
const std::string bare = samples + "bare-metal-bonnie.csv";
const std::string guest = samples + "guest-bonnie.csv";

class Manners : public ::testing::Test {
protected:
    std::string path(const std::string& name) const { return dir_.path(name); }
    // layoutbench ARGS..., with extra environment.
    static ProcessResult lb(std::vector<std::string> args, std::vector<std::string> env = {}) {
        args.insert(args.begin(), LAYOUTBENCH_CLI);
        return runProcess(args, env);
    }
    // The two bonnie++ samples imported into `db`: a "decision" between them.
    void importSamples(const std::string& db) {
        for (const auto& [layout, file] : {std::pair{"bare-metal", bare}, {"guest", guest}}) {
            const auto r = lb({"import", "--db", db, "--layout", layout, file});
            ASSERT_EQ(r.exitCode, 0) << r.err;
        }
    }

    ScratchDir dir_{"manners"};
};

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

std::size_t displayWidth(const std::string& s) {
    std::size_t n = 0;
    for (char c : s)
        n += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
    return n;
}

void expectOneLineError(const ProcessResult& r, const std::string& mustName) {
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(mustName), std::string::npos) << r.err;
}

TEST_F(Manners, GlobalOptionsGoBeforeOrAfterTheCommand) {
    importSamples(path("r.db"));
    const auto before = lb({"--db", path("r.db"), "--json", "list", "runs"});
    const auto after = lb({"list", "runs", "--db", path("r.db"), "--json"});
    ASSERT_EQ(before.exitCode, 0) << before.err;
    ASSERT_EQ(after.exitCode, 0) << after.err;
    EXPECT_EQ(before.out, after.out);
    EXPECT_EQ(json::parse(before.out).size(), 2U);
    // An unknown command is named after the global options too.
    expectOneLineError(lb({"--db", path("r.db"), "lits"}), "unknown command 'lits'");
}

TEST_F(Manners, LayoutbenchDbIsTheDatabaseWhenDbIsNotGiven) {
    const std::string env = "LAYOUTBENCH_DB=" + path("env.db");
    const auto imported = lb({"import", "--layout", "bare-metal", bare}, {env});
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    EXPECT_TRUE(fs::exists(path("env.db")));
    const auto listed = lb({"list", "--json"}, {env});
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    EXPECT_EQ(json::parse(listed.out).at(0).at("name"), "bare-metal");
    // --db wins over it.
    importSamples(path("flag.db"));
    const auto flag = lb({"list", "--json", "--db", path("flag.db")}, {env});
    EXPECT_EQ(json::parse(flag.out).size(), 2U);
}

TEST_F(Manners, HelpNamesTheProgramTheGlobalOptionsAndTheEnvironment) {
    const auto r = lb({"--help"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(lines(r.out).at(1).rfind("Usage: layoutbench ", 0), 0U) << r.out;
    for (const char* word : {"--db", "--json", "-V,--version", "LAYOUTBENCH_DB", "merge"})
        EXPECT_NE(r.out.find(word), std::string::npos) << word << " not in:\n" << r.out;
    const auto sub = lb({"list", "--help"});
    EXPECT_EQ(lines(sub.out).at(1).rfind("Usage: layoutbench list ", 0), 0U) << sub.out;
}

TEST_F(Manners, ReadOnlyCommandsRefuseADatabaseThatDoesNotExist) {
    const std::string missing = path("typo/results.db");
    const std::vector<std::vector<std::string>> commands{
        {"list", "runs"},
        {"compare", "--baseline", "a", "--candidate", "b"},
        {"report", "--out", path("r.md")},
        {"project", "--layout", "a", "--used", "1T", "--growth", "30%"},
        {"run", samples + "../../scenarios/quick.toml", "--resume", "1"}};
    for (auto args : commands) {
        args.insert(args.end(), {"--db", missing});
        expectOneLineError(lb(args), missing);
    }
    EXPECT_FALSE(fs::exists(path("typo"))) << "a read-only command created the directory";
}

TEST_F(Manners, FailOnExitsThreeAtThatVerdictOrWorse) {
    importSamples(path("r.db"));
    const std::vector<std::string> compare{"compare",    "--db",        path("r.db"), "--baseline",
                                           "bare-metal", "--candidate", "guest",      "--json"};
    auto with = [&](std::vector<std::string> extra) {
        auto args = compare;
        args.insert(args.end(), extra.begin(), extra.end());
        return lb(args);
    };
    const auto plain = with({});
    ASSERT_EQ(plain.exitCode, 0) << plain.err;
    ASSERT_EQ(json::parse(plain.out).at("verdict"), "decision");
    const auto decision = with({"--fail-on", "decision"});
    EXPECT_EQ(decision.exitCode, 3) << decision.err;
    EXPECT_EQ(decision.out, plain.out) << "the result is printed all the same";
    EXPECT_EQ(with({"--fail-on", "not-viable"}).exitCode, 0);
    expectOneLineError(with({"--fail-on", "maybe"}), "--fail-on");
}

TEST_F(Manners, TablesFitColumns) {
    importSamples(path("r.db"));
    const std::vector<std::string> compare{"compare",    "--db",        path("r.db"), "--baseline",
                                           "bare-metal", "--candidate", "guest"};
    const auto wide = lb(compare);
    ASSERT_EQ(wide.exitCode, 0) << wide.err;
    EXPECT_NE(wide.out.find("95% interval"), std::string::npos) << "a pipe gets every column";
    for (const std::size_t columns : {100U, 80U, 60U}) {
        const auto r = lb(compare, {"COLUMNS=" + std::to_string(columns)});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        bool inTable = false;
        std::size_t rows = 0;
        for (const auto& line : lines(r.out)) {
            inTable = inTable || line.rfind("metric ", 0) == 0;
            inTable = inTable && !line.empty() && line.rfind("overall:", 0) != 0;
            if (inTable) {
                ++rows;
                EXPECT_LE(displayWidth(line), columns) << line;
            }
        }
        EXPECT_GE(rows, 10U) << r.out;
        EXPECT_NE(r.out.find("not shown to fit: 95% interval"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("decision"), std::string::npos) << "the verdict stays";
    }
}

// A slip of the fingers gets the name it was probably meant to be: a command, an option (even
// when it was a required one, which CLI11 would report missing), a layout kind.
TEST_F(Manners, MistypedNamesGetADidYouMean) {
    expectOneLineError(
        lb({"capacity", "--kindd", "zfs-raidz1", "--disks", "3", "--disk-size", "1T"}),
        "unknown option '--kindd' for capacity (did you mean '--kind'?)");
    expectOneLineError(lb({"project", "--kind", "md-raid6", "--disks", "6", "--disk-size", "1T",
                           "--used", "1T", "--growht", "30%"}),
                       "unknown option '--growht' for project (did you mean '--growth'?)");
    expectOneLineError(lb({"capacity", "--kind", "zfs-raidz", "--disks", "3", "--disk-size", "1T"}),
                       "unknown layout kind 'zfs-raidz' (did you mean 'zfs-raidz1', 'zfs-raidz2' "
                       "or 'zfs-raidz3'?)");
    expectOneLineError(lb({"project", "--kind", "md-riad6", "--disks", "4", "--disk-size", "1T",
                           "--used", "1T", "--growth", "30%"}),
                       "--kind: unknown layout kind 'md-riad6' (did you mean 'md-raid6'?)");
    expectOneLineError(lb({"--db", path("r.db"), "lits"}), "(did you mean 'list'?)");
    // A scenario's kind: the file and line, and the name.
    const std::string file = path("typo.toml");
    std::ofstream(file) << "name = \"typo\"\n\n[[layouts]]\nname = \"a\"\nkind = \"zfs-mirorr\"\n";
    expectOneLineError(lb({"plan", file}), "typo.toml:5");
    expectOneLineError(lb({"plan", file}), "(did you mean 'zfs-mirror'?)");
}

// The catalog's drives, without a database: the ids --drive takes.
TEST_F(Manners, ListDrivesShowsTheCatalog) {
    const auto table = lb({"list", "drives"});
    ASSERT_EQ(table.exitCode, 0) << table.err;
    const auto listed = lb({"list", "drives", "--json"});
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    const auto drives = json::parse(listed.out);
    ASSERT_GE(drives.size(), 3U);
    for (const auto& d : drives) {
        EXPECT_NE(table.out.find(d.at("id").get<std::string>()), std::string::npos) << table.out;
        EXPECT_EQ(d.at("price_is_illustrative"), true);
        EXPECT_GT(d.at("capacity_bytes").get<std::uint64_t>(), 0U);
    }
    EXPECT_NE(table.out.find("samsung-860-evo-500gb"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("--price"), std::string::npos) << table.out;
    expectOneLineError(lb({"list", "drives", "--catalog", path("none.toml")}), "--catalog");
}

// The kind column is never shortened, and mixed-size waste has its column, kept at 80 columns,
// so that a row adds up.
TEST_F(Manners, TheCapacityTableKeepsItsKindsWholeAndItsMixedSizeWaste) {
    const auto r = lb({"capacity", "--kind", "all", "--disks", "10", "--disk-size",
                       "500G,500G,500G,500G,500G,500G,500G,500G,1T,1T"},
                      {"COLUMNS=80"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char* kind : {"md-raid10", "zfs-stripe", "zfs-mirror", "zfs-raidz2", "draid2:"})
        EXPECT_NE(r.out.find(kind), std::string::npos) << kind << "\n" << r.out;
    const auto table = lines(r.out);
    ASSERT_FALSE(table.empty());
    EXPECT_NE(table.front().find("mixed sizes"), std::string::npos) << r.out;
    for (const auto& line : table) {
        EXPECT_LE(displayWidth(line), 80U) << line;
        if (!line.starts_with("(not shown")) { // no cell shortened with "…"
            EXPECT_EQ(line.find("\u2026"), std::string::npos) << line;
        }
    }
}

TEST_F(Manners, IterationsCountFromOne) {
    importSamples(path("r.db"));
    ASSERT_EQ(lb({"import", "--db", path("r.db"), "--layout", "guest", "--allow-duplicate", guest})
                  .exitCode,
              0);
    const auto listed = lb({"list", "runs", "--json", "--db", path("r.db")});
    std::vector<int> iterations;
    for (const auto& run : json::parse(listed.out))
        iterations.push_back(run.at("iteration").get<int>());
    EXPECT_EQ(iterations, (std::vector<int>{1, 1, 2}));
    const auto table = lines(lb({"list", "runs", "--db", path("r.db")}).out);
    ASSERT_EQ(table.size(), 5U);
    EXPECT_NE(table[4].find(" guest "), std::string::npos);
    EXPECT_NE(table[4].find(" 2 "), std::string::npos) << table[4];
}

// Two directory layouts, a small random-file write, two iterations: a campaign of seconds.
std::string writeScenario(const std::string& dir) {
    fs::create_directories(dir + "/a");
    fs::create_directories(dir + "/b");
    const std::string file = dir + "/scenario.toml";
    std::ofstream(file) << "name = \"manners\"\niterations = 2\nwork_dir = \"" << dir
                        << "\"\ncache = \"warm\"\n\n"
                           "[[layouts]]\nname = \"a\"\nkind = \"dir\"\npath = \"a\"\n"
                           "baseline = true\n\n"
                           "[[layouts]]\nname = \"b\"\nkind = \"dir\"\npath = \"b\"\n\n"
                           "[[workloads]]\nprobe = \"randfile\"\nsize = \"4M\"\n";
    return file;
}

// Not on a terminal: one line per finished run on standard error, with --json too; standard
// output is the JSON alone.
TEST_F(Manners, RunShowsProgressOnStandardError) {
    const auto scenario = writeScenario(path("w"));
    const auto r = lb({"run", scenario, "--db", path("r.db"), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto result = json::parse(r.out);
    const std::size_t runs = result.at("runs").get<std::size_t>();
    ASSERT_GE(runs, 4U);
    std::size_t finished = 0;
    for (const auto& line : lines(r.err)) {
        EXPECT_EQ(line.find('\r'), std::string::npos) << "nothing drawn in place";
        if (line.find(": ok") != std::string::npos) {
            ++finished;
            EXPECT_NE(line.find("iteration "), std::string::npos) << line;
        }
    }
    EXPECT_EQ(finished, runs) << r.err;
    EXPECT_NE(r.err.find("[1/"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("· ETA "), std::string::npos) << r.err;
    // The iterations of the progress lines are those `list runs` shows.
    const auto listed = json::parse(lb({"list", "runs", "--json", "--db", path("r.db")}).out);
    EXPECT_EQ(listed.at(0).at("iteration"), 1);
    EXPECT_NE(r.err.find("a · randfile · iteration 1/2: ok"), std::string::npos) << r.err;
}

TEST_F(Manners, ImportRefusesDataItHoldsAlready) {
    const std::string db = path("r.db");
    ASSERT_EQ(lb({"import", "--db", db, "--layout", "bare-metal", bare}).exitCode, 0);
    // The same file again, under another layout too.
    const auto again = lb({"import", "--db", db, "--layout", "other", bare});
    expectOneLineError(again, bare + ":1: already imported as run 1 of layout 'bare-metal'");
    EXPECT_NE(again.err.find("--allow-duplicate"), std::string::npos);
    // Line by line: a file that holds the imported line (with CRLF ends) after a new one.
    std::ifstream in(bare);
    std::string line;
    std::getline(in, line);
    std::ifstream other(guest);
    std::string newLine;
    std::getline(other, newLine);
    std::ofstream(path("both.csv")) << newLine << "\r\n" << line << "\r\n";
    expectOneLineError(lb({"import", "--db", db, "--layout", "bare-metal", path("both.csv")}),
                       path("both.csv") + ":2: already imported as run 1");
    // The same data twice in one import.
    expectOneLineError(lb({"import", "--db", db, "--layout", "guest", guest, guest}),
                       guest + ":1: the same data as " + guest + ":1");
    const auto runs = json::parse(lb({"list", "runs", "--json", "--db", db}).out);
    EXPECT_EQ(runs.size(), 1U) << "nothing of a refused import is stored";
    // Unless asked for.
    const auto allowed =
        lb({"import", "--db", db, "--layout", "bare-metal", "--allow-duplicate", bare});
    EXPECT_EQ(allowed.exitCode, 0) << allowed.err;
}

TEST_F(Manners, MergeTwiceIsMergeOnce) {
    importSamples(path("b.db"));
    const auto scenario = writeScenario(path("w"));
    ASSERT_EQ(lb({"run", scenario, "--db", path("b.db"), "--json"}).exitCode, 0);
    ASSERT_EQ(lb({"import", "--db", path("a.db"), "--layout", "old-nas",
                  std::string(LAYOUTBENCH_TEST_DATA_DIR) + "/fio/3.33/direct_randread.json"})
                  .exitCode,
              0);
    auto snapshot = [&] {
        std::string out;
        for (const char* what : {"layouts", "runs", "campaigns"})
            out += lb({"list", what, "--json", "--db", path("a.db")}).out;
        return out + lb({"compare", "--db", path("a.db"), "--baseline", "bare-metal", "--candidate",
                         "guest", "--json"})
                         .out;
    };
    const auto first = lb({"merge", path("b.db"), "--db", path("a.db"), "--json"});
    ASSERT_EQ(first.exitCode, 0) << first.err;
    const auto added = json::parse(first.out);
    EXPECT_EQ(added.at("layouts"), 4);
    EXPECT_EQ(added.at("campaigns"), 1);
    EXPECT_GE(added.at("runs").get<int>(), 6);
    const std::string once = snapshot();
    const auto second = lb({"merge", path("b.db"), "--db", path("a.db"), "--json"});
    ASSERT_EQ(second.exitCode, 0) << second.err;
    for (const char* key : {"hosts", "disks", "layouts", "campaigns", "runs", "metrics"})
        EXPECT_EQ(json::parse(second.out).at(key), 0) << key;
    EXPECT_EQ(snapshot(), once);
    expectOneLineError(lb({"merge", path("none.db"), "--db", path("a.db")}), path("none.db"));
}

} // namespace
} // namespace lb::test
