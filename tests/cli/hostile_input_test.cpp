// What a hostile or unlucky user meets (issue 14): names that are not UTF-8 on the command line,
// a damaged schema version, a read-only database, or one another process is writing to. Nothing
// aborts; output stays valid UTF-8 and valid JSON, with the odd bytes escaped as \xHH; database
// errors name the file.
#include "engine/base/utf8.h"
#include "tests/cli/cli_fixture.h"
#include "tests/support/raw_sql.h"

#include <chrono>
#include <thread>

namespace {

using lb::test::data;
using lb::test::runProcess;
using nlohmann::json;
using namespace std::chrono_literals;

using HostileInput = lb::test::Cli;

// The exit status of a process killed by a signal (an abort, a crash) is 128 + signal here: never
// one of the contract's 0, 1, 2.
void expectContractStatus(const lb::test::ProcessResult& r) {
    EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 1 || r.exitCode == 2)
        << "exit " << r.exitCode << ": " << r.err;
}

bool validUtf8(const std::string& s) {
    return lb::isValidUtf8(s);
}

// Latin-1 bytes, as a file or layout named on an old system arrives.
const std::string latin1Layout = "caf\xE9";
const std::string latin1File = "r\xE9sultats.csv";

TEST_F(HostileInput, NamesThatAreNotUtf8AreEscapedEverywhere) {
    const auto file = (dir_ / latin1File).string();
    std::filesystem::copy_file(data + "/bonnie++/1.97/seed-guest.csv", file);
    const auto imported =
        lb({"import", "--layout", latin1Layout, "--host", "h\xFF", "--json", file});
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    const auto j = json::parse(imported.out); // valid JSON: it would throw otherwise
    EXPECT_EQ(j["layout"], "caf\\xe9");
    EXPECT_NE(j["files"][0].get<std::string>().find("r\\xe9sultats.csv"), std::string::npos);
    EXPECT_EQ(storedRuns(), 1U) << "imported once";

    // Stored as given; every listing of the database works, in JSON and as text.
    for (const char* what : {"layouts", "runs", "campaigns"}) {
        const auto listed = lb({"list", what, "--json"});
        expectContractStatus(listed);
        EXPECT_EQ(listed.exitCode, 0) << what << ": " << listed.err;
        EXPECT_FALSE(json::parse(listed.out, nullptr, false).is_discarded()) << listed.out;
        const auto text = lb({"list", what});
        EXPECT_EQ(text.exitCode, 0) << text.err;
        EXPECT_TRUE(validUtf8(text.out)) << text.out;
    }
    const auto layouts = json::parse(lb({"list", "layouts", "--json"}).out);
    ASSERT_EQ(layouts.size(), 1U);
    EXPECT_EQ(layouts[0]["name"], "caf\\xe9");
    EXPECT_EQ(layouts[0]["host"], "h\\xff");
    EXPECT_NE(lb({"list", "layouts"}).out.find("caf\\xe9"), std::string::npos);

    // The human import output and a comparison against it.
    const auto again = lb({"import", "--layout", "other", "--allow-duplicate", file});
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_NE(again.out.find("r\\xe9sultats.csv: bonnie++"), std::string::npos) << again.out;
    EXPECT_TRUE(validUtf8(again.out));
    for (const bool asJson : {true, false}) {
        std::vector<std::string> args{"compare", "--baseline", latin1Layout, "--candidate",
                                      "other"};
        if (asJson)
            args.emplace_back("--json");
        const auto cmp = lb(args);
        EXPECT_EQ(cmp.exitCode, 0) << cmp.err;
        EXPECT_TRUE(validUtf8(cmp.out)) << cmp.out;
        if (asJson) {
            EXPECT_EQ(json::parse(cmp.out)["baseline"], "caf\\xe9");
        }
    }
    // An error naming it: escaped, one line.
    const auto missing = lb({"compare", "--baseline", "x\xFFy", "--candidate", "other"});
    lb::test::expectOneLineError(missing, "x\\xffy");
}

// Every command refuses a damaged schema version, naming the database and the value.
TEST_F(HostileInput, UnknownSchemaVersionIsRefused) {
    // creates the database
    ASSERT_EQ(lb({"import", "--layout", "a", data + "/bonnie++/1.97/seed-guest.csv"}).exitCode, 0);
    for (const std::string version : {"-1", "-2147483648", "abc", "", "3x", " 4", "99999999999"}) {
        lb::test::writeSchemaVersionText(db_, version);
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{"list", "layouts", "--json"},
              {"import", "--layout", "x", data + "/bonnie++/1.97/seed-guest.csv"},
              {"cleanup", "--campaign", "1"}}) {
            const auto r = lb(args);
            EXPECT_EQ(r.exitCode, 1) << "'" << version << "' " << args[0] << ": " << r.err;
            EXPECT_EQ(r.out, "");
            EXPECT_NE(r.err.find(db_ + ": meta.schema_version is '" + version + "'"),
                      std::string::npos)
                << r.err;
            EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
        }
    }
}

// The database file made immutable (chattr +i: root writes through file permissions): writes
// fail naming it.
TEST_F(HostileInput, ReadOnlyDatabaseIsNamed) {
    ASSERT_EQ(lb({"import", "--layout", "a", data + "/bonnie++/1.97/seed-guest.csv"}).exitCode, 0);
    if (runProcess({"chattr", "+i", db_}).exitCode != 0)
        GTEST_SKIP() << "chattr +i is not supported on " << dir_ << "'s file system";
    struct Mutable {
        std::string path;
        ~Mutable() { (void)runProcess({"chattr", "-i", path}); }
    } restore{db_};
    const auto r = lb({"import", "--layout", "b", data + "/bonnie++/1.97/seed-guest.csv"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find(db_ + ": attempt to write a readonly database"), std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_EQ(lb({"list", "layouts"}).exitCode, 0) << "reading still works";
}

// Another process holds the write lock for 7 s: the import waits for it instead of failing
// after 5 s, says every 5 s that it waits, naming the database, and then imports.
TEST_F(HostileInput, ABusyDatabaseIsWaitedForAndSaysSo) {
    ASSERT_EQ(lb({"import", "--layout", "b", data + "/bonnie++/1.97/seed-bare-metal.csv"}).exitCode,
              0);
    lb::test::WriteLockHolder other(db_);
    ASSERT_TRUE(other.holding());
    std::thread release([&other] {
        std::this_thread::sleep_for(7s);
        other.release();
    });
    const auto r = lb({"import", "--layout", "a", data + "/bonnie++/1.97/seed-guest.csv"});
    release.join();
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("layoutbench: " + db_ +
                         ": another program is writing to the database; waiting (5 s so far)\n"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(storedRuns(), 2U);
}

} // namespace
