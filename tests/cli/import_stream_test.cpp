// Import in constant memory, all or nothing (issue 14, item 5), through the real binary: a
// bonnie++ CSV of a hundred thousand lines is read line by line (its peak memory stays far
// below what holding it would take), a bad line at its very end imports nothing, a short import
// next to a long one waits its turn instead of failing, and what an import killed on the way
// staged is never seen and is deleted by the next import.
#include "tests/cli/cli_fixture.h"
#include "tests/support/raw_sql.h"

#include <chrono>
#include <csignal>
#include <thread>

namespace {

using lb::test::ChildProcess;
using lb::test::data;
using lb::test::expectOneLineError;
using namespace std::chrono_literals;

class ImportStream : public lb::test::Cli {
protected:
    // A real bonnie++ 1.97 CSV line from `lines` machines (the same line would be refused as
    // data imported already), and `tail` after them.
    std::string csv(const std::string& name, std::size_t lines, const std::string& tail = "") {
        std::ifstream in(data + "/bonnie++/1.97/seed-guest.csv");
        std::string line;
        std::getline(in, line);
        const auto machine = line.find("guest-vm");
        const auto path = (dir_ / name).string();
        std::ofstream out(path);
        for (std::size_t i = 0; i < lines; ++i)
            out << line.substr(0, machine) << name << '-' << i
                << line.substr(machine + std::string_view("guest-vm").size()) << '\n';
        out << tail;
        return path;
    }

    std::vector<std::string> importArgs(const std::string& layout, const std::string& file) {
        return {LAYOUTBENCH_CLI, "import", "--layout", layout, file, "--db", db_};
    }

    // What the database file holds, whatever the listings show.
    std::int64_t rows(const std::string& sql) {
        // -1 while the table does not exist yet (the import under way has not made it).
        const auto r = lb::test::queryReadOnly(db_, sql);
        return r && !r->empty() ? std::stoll(r->front().front()) : -1;
    }

    // Waits (bounded) until the database holds at least `n` runs, staged or not.
    bool waitForRuns(std::int64_t n) {
        for (auto until = std::chrono::steady_clock::now() + 120s;
             std::chrono::steady_clock::now() < until; std::this_thread::sleep_for(50ms))
            if (std::filesystem::exists(db_) && rows("SELECT COUNT(*) FROM run") >= n)
                return true;
        return false;
    }
};

constexpr std::size_t manyLines = 100000;

#if defined(__SANITIZE_ADDRESS__) // GCC
constexpr bool addressSanitized = true;
#elif defined(__has_feature) // clang
constexpr bool addressSanitized = __has_feature(address_sanitizer);
#else
constexpr bool addressSanitized = false;
#endif

TEST_F(ImportStream, ALargeCsvIsReadInConstantMemory) {
    const auto file = csv("large.csv", manyLines);
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = ChildProcess(importArgs("large", file)).wait();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::printf("[ info ] %zu lines (%.0f MB) in %.1f s (%.0f lines/s), peak RSS %ld MiB\n",
                manyLines, static_cast<double>(std::filesystem::file_size(file)) / 1e6, seconds,
                static_cast<double>(manyLines) / seconds, r.maxRssKiB / 1024);
    EXPECT_NE(r.out.find("imported " + std::to_string(manyLines) + " run(s)"), std::string::npos)
        << r.out;
    EXPECT_EQ(rows("SELECT COUNT(*) FROM run"), static_cast<std::int64_t>(manyLines));
    // Holding 100,000 parsed runs took about 400 MiB; read line by line, the process stays at
    // the size of its code, SQLite's cache and one batch. Not under AddressSanitizer
    // (scripts/sanitized-tests.sh, the sanitize preset), whose quarantine of freed memory and
    // shadow bytes are no size of ours: 707 MiB there.
    if (addressSanitized) {
        std::printf("[ info ] peak RSS not checked: built with AddressSanitizer\n");
        return;
    }
    EXPECT_LT(r.maxRssKiB, 100 * 1024);
}

// Into a database that holds an earlier import: the refused one's staged batches are gone and
// the earlier runs are all there is.
TEST_F(ImportStream, ABadLastLineImportsNothing) {
    ASSERT_EQ(lb({"import", "--layout", "first", csv("first.csv", 10)}).exitCode, 0);
    const auto hosts = rows("SELECT COUNT(*) FROM host");
    const auto good = csv("good.csv", 10);
    const auto file = csv("bad-end.csv", 20000, "1.97,1.97,x,1,1,15G,,903,96,abc\n");
    const auto r = lb({"import", "--layout", "nas", good, file});
    expectOneLineError(r, file + ":20001: ");
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(rows("SELECT COUNT(*) FROM run"), 10);
    EXPECT_EQ(rows("SELECT COUNT(*) FROM run_sample"), 10);
    EXPECT_EQ(rows("SELECT COUNT(*) FROM layout"), 1);
    EXPECT_EQ(rows("SELECT COUNT(*) FROM host"), hosts); // none of the refused files' machines
    EXPECT_EQ(storedRuns(), 10U);
}

TEST_F(ImportStream, AShortImportNextToALongOneWaitsItsTurn) {
    const auto large = csv("large.csv", manyLines);
    ChildProcess longImport(importArgs("long", large));
    ASSERT_TRUE(longImport.started());
    ASSERT_TRUE(waitForRuns(5000)) << "the long import stored nothing";
    const auto shortImport = lb({"import", "--layout", "short", csv("short.csv", 3)});
    EXPECT_EQ(shortImport.exitCode, 0) << shortImport.err;
    const auto r = longImport.wait();
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto layouts = nlohmann::json::parse(lb({"list", "layouts", "--json"}).out);
    ASSERT_EQ(layouts.size(), 2U);
    EXPECT_EQ(layouts[0]["name"], "long");
    EXPECT_EQ(layouts[0]["runs"], manyLines);
    EXPECT_EQ(layouts[1]["name"], "short");
    EXPECT_EQ(layouts[1]["runs"], 3);
}

TEST_F(ImportStream, AKilledImportLeavesNothingSeenAndTheNextDeletesIt) {
    const auto large = csv("large.csv", manyLines);
    ChildProcess killed(importArgs("killed", large));
    ASSERT_TRUE(killed.started());
    ASSERT_TRUE(waitForRuns(5000)) << "the import stored nothing";
    ::kill(killed.pid(), SIGKILL);
    EXPECT_EQ(killed.wait().exitCode, 128 + SIGKILL);
    EXPECT_GT(rows("SELECT COUNT(*) FROM run"), 0) << "staged runs are in the file";
    EXPECT_EQ(storedRuns(), 0U) << "but nowhere to be seen";
    EXPECT_EQ(lb({"list", "layouts", "--json"}).out, "[]\n");

    const auto next = lb({"import", "--layout", "next", csv("short.csv", 3)});
    ASSERT_EQ(next.exitCode, 0) << next.err;
    EXPECT_EQ(rows("SELECT COUNT(*) FROM run"), 3);
    EXPECT_EQ(rows("SELECT COUNT(*) FROM layout"), 1);
}

} // namespace
