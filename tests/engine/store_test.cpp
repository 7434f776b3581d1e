// The store creates and migrates its schema, survives reopen, keeps runs whole, and stays sound.
#include "engine/store.h"

#include <filesystem>
#include <gtest/gtest.h>

using namespace lb;

namespace {

struct TempDb {
    std::filesystem::path dir;
    TempDb() {
        dir = std::filesystem::temp_directory_path() /
              ("lb-store-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
               "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
    }
    ~TempDb() { std::filesystem::remove_all(dir); }
    std::string path() const { return (dir / "results.db").string(); }
};

Run sampleRun(double putBlock) {
    Run r;
    r.workload = "bonnie";
    r.probe = "bonnie";
    r.argv = {"bonnie++", "-d", "/mnt/x"};
    r.exitCode = 0;
    r.stdoutText = "raw output";
    r.status = RunStatus::Ok;
    r.metrics = {{"bonnie.put_block", putBlock, Unit::BytesPerSecond}};
    return r;
}

std::string fixedClock() {
    return "2026-11-29T12:00:00Z";
}

} // namespace

TEST(Store, CreatesMigratesAndReopens) {
    TempDb tmp;
    {
        auto s = Store::open(tmp.path(), fixedClock);
        ASSERT_TRUE(s) << s.error().message;
        EXPECT_EQ(s->schemaVersion(), Store::latestSchemaVersion);
        auto host = s->ensureHost("h1");
        ASSERT_TRUE(host);
        auto layout = s->ensureLayout("bare", "zfs-raidz2", "{}", *host);
        ASSERT_TRUE(layout);
        ASSERT_TRUE(s->insertRun(*layout, sampleRun(100)));
    }
    auto s = Store::open(tmp.path(), fixedClock);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->schemaVersion(), Store::latestSchemaVersion);
    EXPECT_EQ(*s->integrityCheck(), "ok");
    auto samples = s->metricSamples("bare");
    ASSERT_TRUE(samples);
    ASSERT_EQ(samples->size(), 1U);
    EXPECT_EQ((*samples)[0].values, std::vector<double>{100});
    auto layouts = s->layouts();
    ASSERT_EQ(layouts->size(), 1U);
    EXPECT_EQ((*layouts)[0].kind, "zfs-raidz2");
    EXPECT_EQ((*layouts)[0].host, "h1");
    EXPECT_EQ((*layouts)[0].runs, 1);
}

TEST(Store, UsesWalAndForeignKeys) {
    TempDb tmp;
    auto s = Store::open(tmp.path());
    ASSERT_TRUE(s);
    auto q = s->database().prepare("PRAGMA journal_mode");
    ASSERT_TRUE(q);
    ASSERT_TRUE(*q->step());
    EXPECT_EQ(q->columnText(0), "wal");
    // A metric for a run that does not exist is refused.
    auto ins = s->database().prepare(
        "INSERT INTO metric(run_id, name, value, unit) VALUES(999, 'x', 1, 'count')");
    ASSERT_TRUE(ins);
    EXPECT_FALSE(ins->run());
}

TEST(Store, RefusesANewerSchema) {
    TempDb tmp;
    {
        auto s = Store::open(tmp.path());
        ASSERT_TRUE(s);
        ASSERT_TRUE(s->database().exec("UPDATE meta SET value = '99' WHERE key = "
                                       "'schema_version'"));
    }
    auto s = Store::open(tmp.path());
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("newer"), std::string::npos);
}

TEST(Store, TransactionRollsBackUnlessCommitted) {
    TempDb tmp;
    auto s = Store::open(tmp.path());
    ASSERT_TRUE(s);
    {
        auto tx = s->transaction();
        ASSERT_TRUE(tx);
        auto layout = s->ensureLayout("gone", "dir", "{}", std::nullopt);
        ASSERT_TRUE(layout);
        ASSERT_TRUE(s->insertRun(*layout, sampleRun(1)));
        // no commit
    }
    EXPECT_TRUE(s->layouts()->empty());
    EXPECT_TRUE(s->runs()->empty());
}

TEST(Store, OnlySuccessfulRunsFeedComparisons) {
    TempDb tmp;
    auto s = Store::open(tmp.path());
    ASSERT_TRUE(s);
    auto layout = s->ensureLayout("l", "dir", "{}", std::nullopt);
    ASSERT_TRUE(layout);
    ASSERT_TRUE(s->insertRun(*layout, sampleRun(10)));
    lb::Run failed = sampleRun(99999);
    failed.status = RunStatus::Failed;
    failed.reason = "exit status 1";
    failed.stderrText = "bonnie++: out of memory";
    ASSERT_TRUE(s->insertRun(*layout, failed));
    auto samples = s->metricSamples("l");
    ASSERT_EQ(samples->size(), 1U);
    EXPECT_EQ((*samples)[0].values, std::vector<double>{10});
    auto runs = s->runs();
    ASSERT_EQ(runs->size(), 2U);
    EXPECT_EQ((*runs)[1].status, RunStatus::Failed);
    EXPECT_EQ((*runs)[1].reason, "exit status 1");
}

TEST(Store, LayoutKindConflictIsBadInput) {
    TempDb tmp;
    auto s = Store::open(tmp.path());
    ASSERT_TRUE(s->ensureLayout("l", "dir", "{}", std::nullopt));
    auto again = s->ensureLayout("l", "zfs-mirror", "{}", std::nullopt);
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().kind, ErrorKind::BadInput);
}

TEST(Store, CompareStoredLayoutsNamesAMissingLayout) {
    TempDb tmp;
    auto s = Store::open(tmp.path());
    ASSERT_TRUE(s->ensureLayout("a", "dir", "{}", std::nullopt));
    auto c = compareStoredLayouts(*s, "a", "nope", {});
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().kind, ErrorKind::BadInput);
    // The engine names the field; the command line maps it to its flag.
    EXPECT_EQ(c.error().message.rfind("candidate: no layout named 'nope'", 0), 0U);
}
