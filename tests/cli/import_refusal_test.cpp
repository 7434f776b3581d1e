// A refused import writes nothing (issue 40): every refusal path through the real `layoutbench
// import` leaves the database's tables as they were (no host, run_text or metric_name row), and
// a refused import into a new --db leaves no database file behind.
#include "tests/cli/cli_fixture.h"
#include "tests/support/raw_sql.h"

namespace {

using lb::test::data;
using lb::test::expectOneLineError;

class ImportRefusal : public lb::test::Cli {
protected:
    // Every table's row count, as the database file holds it.
    std::vector<std::vector<std::string>> counts() {
        const auto rows = lb::test::queryReadOnly(
            db_, "SELECT (SELECT COUNT(*) FROM host), (SELECT COUNT(*) FROM run_text), "
                 "(SELECT COUNT(*) FROM metric_name), (SELECT COUNT(*) FROM run), (SELECT "
                 "COUNT(*) FROM layout), (SELECT COUNT(*) FROM run_hash)");
        EXPECT_TRUE(rows);
        return rows ? *rows : std::vector<std::vector<std::string>>{};
    }

    // A database holding one import, its counts taken.
    std::vector<std::vector<std::string>> seeded() {
        const auto r = lb({"import", "--layout", "first", data + "/fio/3.33/seq_read.json"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return counts();
    }

    // A file whose first lines import and whose last is broken: the runs before it were staged
    // (with their machine as a new host and their caveats as run texts) when it was refused.
    std::string goodThenBroken() {
        std::ifstream in(data + "/bonnie++/1.97/seed-guest.csv");
        std::string line;
        std::getline(in, line);
        std::ifstream broken(data + "/bonnie++/broken/non-numeric.csv");
        std::string bad;
        std::getline(broken, bad);
        return write("good-then-broken.csv", line + "\n" + bad + "\n");
    }
};

TEST_F(ImportRefusal, ABrokenLineAfterGoodOnesWritesNothing) {
    const auto before = seeded();
    const auto r = lb({"import", "--layout", "second", goodThenBroken()});
    expectOneLineError(r, "good-then-broken.csv:2:");
    EXPECT_EQ(counts(), before);
}

TEST_F(ImportRefusal, AnUnknownFormatWritesNothing) {
    const auto before = seeded();
    const auto r =
        lb({"import", "--layout", "second", "--host", "new-host", write("x.txt", "hello\n")});
    expectOneLineError(r, "x.txt:1:");
    EXPECT_EQ(counts(), before);
}

TEST_F(ImportRefusal, AFileImportedAgainWritesNothing) {
    const auto before = seeded();
    const auto r = lb(
        {"import", "--layout", "second", "--host", "new-host", data + "/fio/3.33/seq_read.json"});
    expectOneLineError(r, "already imported");
    EXPECT_EQ(counts(), before);
}

TEST_F(ImportRefusal, TwoFilesWithTheSameDataWriteNothing) {
    const auto before = seeded();
    const auto file = data + "/dd/coreutils-9.1/five-fdatasync.txt";
    const auto copy = write("copy.txt", [&] {
        std::ifstream in(file);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }());
    const auto r = lb({"import", "--layout", "second", "--host", "new-host", file, copy});
    expectOneLineError(r, "the same data as");
    EXPECT_EQ(counts(), before);
}

TEST_F(ImportRefusal, ALayoutOfAnotherKindWritesNothing) {
    const auto before = seeded();
    const auto r = lb({"import", "--layout", "first", "--kind", "zfs-raidz2",
                       data + "/dd/coreutils-9.1/five-fdatasync.txt"});
    expectOneLineError(r, "already exists with kind");
    EXPECT_EQ(counts(), before);
}

// Into a --db that did not exist: no file, no WAL, no lock file left.
TEST_F(ImportRefusal, IntoANewDatabaseLeavesNoFile) {
    for (const auto& file : {goodThenBroken(), write("x.txt", "hello\n")}) {
        const auto r = lb({"import", "--layout", "l", file});
        EXPECT_EQ(r.exitCode, 2) << r.err;
        for (const char* suffix : {"", "-wal", "-shm", "-imports.lock"})
            EXPECT_FALSE(std::filesystem::exists(db_ + suffix)) << db_ + suffix;
    }
    // An import that succeeds still makes it.
    const auto ok = lb({"import", "--layout", "l", data + "/fio/3.33/seq_read.json"});
    EXPECT_EQ(ok.exitCode, 0) << ok.err;
    EXPECT_TRUE(std::filesystem::exists(db_));
}

} // namespace
