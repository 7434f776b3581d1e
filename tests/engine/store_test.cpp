// The store creates and migrates its schema, survives reopen, keeps runs whole, and stays sound.
#include "engine/base/content_hash.h"
#include "engine/store/store.h"
#include "tests/support/raw_sql.h"

#include <chrono>
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

// A database with one layout "l" of kind dir.
struct OneLayout {
    TempDb tmp;
    Expected<Store> s = Store::open(tmp.path());
    Expected<std::int64_t> layout = s ? s->ensureLayout("l", "dir", "{}", std::nullopt)
                                      : Expected<std::int64_t>(fail(s.error()));
};

// The database opened again after a downgrade, as a newer layoutbench opens it: the schema is
// the latest and the file sound.
Expected<Store> openMigrated(const TempDb& tmp) {
    auto s = Store::open(tmp.path());
    if (s) {
        EXPECT_EQ(s->schemaVersion(), Store::latestSchemaVersion);
        EXPECT_EQ(*s->integrityCheck(), "ok");
    }
    return s;
}

std::string fixedClock() {
    return "2026-11-29T12:00:00Z";
}

} // namespace

// A reader beside the writer (the desktop app compares on one while it loads on the other): it
// sees what the writer commits, and refuses a file no writer has migrated.
TEST(Store, ReaderReadsBesideTheWriter) {
    TempDb tmp;
    auto writer = Store::open(tmp.path(), fixedClock);
    ASSERT_TRUE(writer) << writer.error().message;
    auto reader = Store::openReader(tmp.path(), fixedClock);
    ASSERT_TRUE(reader) << reader.error().message;
    EXPECT_EQ(reader->schemaVersion(), Store::latestSchemaVersion);
    auto host = writer->ensureHost("h1");
    ASSERT_TRUE(host);
    auto layout = writer->ensureLayout("bare", "zfs-raidz2", "{}", *host);
    ASSERT_TRUE(layout);
    ASSERT_TRUE(writer->insertRun(*layout, sampleRun(100)));
    ASSERT_TRUE(writer->insertRun(*layout, sampleRun(110)));
    auto samples = reader->layoutSamples("bare");
    ASSERT_TRUE(samples) << samples.error().message;
    ASSERT_EQ(samples->metrics.size(), 1u);
    EXPECT_EQ(samples->metrics[0].values, (std::vector<double>{100, 110}));

    const std::string empty = (tmp.dir / "empty.db").string();
    auto none = Store::openReader(empty, fixedClock);
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find(empty), std::string::npos) << none.error().message;
}

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
    EXPECT_EQ(test::journalMode(*s), "wal");
    // A run's raw output (10 KB of fio JSON) fits one page of a new database.
    EXPECT_EQ(test::pageSize(*s), 65536);
    // A metric for a run that does not exist is refused.
    EXPECT_FALSE(test::acceptsOrphanMetric(*s));
}

TEST(Store, RefusesANewerSchema) {
    TempDb tmp;
    {
        auto s = Store::open(tmp.path());
        ASSERT_TRUE(s);
        test::setSchemaVersion(*s, 99);
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
    OneLayout one;
    auto& [tmp, s, layout] = one;
    ASSERT_TRUE(s && layout);
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

// A layout's record counts its runs and those that did not end ok (failed, aborted or still
// running), each layout its own; a layout with no run counts none.
TEST(Store, LayoutsCountTheirRunsAndTheRunsThatDidNotEndOk) {
    OneLayout one;
    auto& [tmp, s, layout] = one;
    ASSERT_TRUE(s && layout);
    const auto other = s->ensureLayout("m", "dir", "{}", std::nullopt);
    ASSERT_TRUE(other);
    ASSERT_TRUE(s->ensureLayout("empty", "dir", "{}", std::nullopt));
    const std::pair<RunStatus, int> statuses[] = {{RunStatus::Ok, 5},
                                                  {RunStatus::Failed, 2},
                                                  {RunStatus::Aborted, 1},
                                                  {RunStatus::Running, 3}};
    for (const auto& [status, count] : statuses) {
        for (int i = 0; i < count; ++i) {
            lb::Run r = sampleRun(i);
            r.status = status;
            r.stdoutText = "run " + std::to_string(i) + std::string(runStatusName(status));
            ASSERT_TRUE(s->insertRun(*layout, r));
            if (status == RunStatus::Ok || status == RunStatus::Aborted) {
                ASSERT_TRUE(s->insertRun(*other, r));
            }
        }
    }
    const auto layouts = s->layouts();
    ASSERT_TRUE(layouts) << layouts.error().message;
    ASSERT_EQ(layouts->size(), 3U);
    EXPECT_EQ((*layouts)[0].name, "empty"); // in name order
    EXPECT_EQ((*layouts)[0].runs, 0);
    EXPECT_EQ((*layouts)[0].failedRuns, 0);
    EXPECT_EQ((*layouts)[1].name, "l");
    EXPECT_EQ((*layouts)[1].runs, 11);
    EXPECT_EQ((*layouts)[1].failedRuns, 6);
    EXPECT_EQ((*layouts)[2].name, "m");
    EXPECT_EQ((*layouts)[2].runs, 6);
    EXPECT_EQ((*layouts)[2].failedRuns, 1);
}

// argv, caveats, notes and origin are stored as JSON written by hand (engine/store/store.cpp): text
// with quotes, control characters and bytes that are not UTF-8 comes back as written, escaped
// where it is not UTF-8.
TEST(Store, RunDocumentsKeepAwkwardText) {
    OneLayout one;
    auto& [tmp, s, layout] = one;
    ASSERT_TRUE(s && layout);
    lb::Run r = sampleRun(10);
    r.argv = {"fio", "--name=\"q\"\\b", "tab\there", "caf\xC3\xA9"};
    r.caveats = {"line one\nline two", ""};
    r.notes = {{MetricNote::Kind::Excludes, "bonnie.put_block", "too fast \x01 (+++++)"},
               {MetricNote::Kind::Excludes, "fio.\xFF", "not \xE2\x82 UTF-8"}};
    r.origin.format = "bonnie++ 1.97 CSV";
    r.origin.convertedFrom = {"KiB/s", "\"us\""};
    r.origin.spec = {{"machine", "m\\1"}, {"z", ""}};
    ASSERT_TRUE(s->insertRun(*layout, r));
    auto runs = s->storedRuns();
    ASSERT_TRUE(runs);
    ASSERT_EQ(runs->size(), 1U);
    const auto& back = runs->front();
    EXPECT_EQ(back.argv, r.argv);
    EXPECT_EQ(back.caveats, r.caveats);
    ASSERT_EQ(back.notes.size(), 2U);
    EXPECT_EQ(back.notes[0].text, r.notes[0].text);
    EXPECT_EQ(back.notes[1].metrics, "fio.\\xff");
    EXPECT_EQ(back.notes[1].text, "not \\xe2\\x82 UTF-8");
    EXPECT_EQ(back.origin, r.origin);
}

// Output of 1 KiB or more is kept packed with LZ4 (engine/base/output_codec.h), shorter output as
// text; both read back as the text, from insertRun and recordRunOutput alike.
TEST(Store, LargeOutputIsPackedAndReadBackAsText) {
    OneLayout one;
    auto& [tmp, s, layout] = one;
    ASSERT_TRUE(s && layout);
    std::string large;
    for (int i = 0; large.size() < 20000; ++i)
        large += "  \"clat_ns\" : { \"min\" : " + std::to_string(1000 + i) + " },\n";
    lb::Run big = sampleRun(1);
    big.stdoutText = large;
    ASSERT_TRUE(s->insertRun(*layout, big));
    ASSERT_TRUE(s->insertRun(*layout, sampleRun(2)));
    // A campaign's run: its output is recorded once the tool has ended.
    lb::Run later = sampleRun(3);
    later.stdoutText.clear();
    auto id = s->beginRun(*layout, later);
    ASSERT_TRUE(id);
    later.id = *id;
    later.stdoutText = large + "and the end\n";
    ASSERT_TRUE(s->recordRunOutput(later));
    EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM run WHERE typeof(stdout) = 'blob'"), 2);
    EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM run WHERE typeof(stdout) = 'text'"), 1);
    EXPECT_LT(test::queryInt(*s, "SELECT MAX(length(stdout)) FROM run"), 10000);
    const auto runs = s->storedRuns({std::nullopt, RunQuery::Output::All});
    ASSERT_TRUE(runs) << runs.error().message;
    ASSERT_EQ(runs->size(), 3U);
    EXPECT_EQ((*runs)[0].stdoutText, large);
    EXPECT_EQ((*runs)[1].stdoutText, "raw output");
    EXPECT_EQ((*runs)[2].stdoutText, later.stdoutText);
    // Without output asked for, nothing is unpacked.
    const auto bare = s->storedRuns();
    ASSERT_TRUE(bare);
    EXPECT_EQ((*bare)[0].stdoutText, "");
}

// Packed output that does not unpack (a damaged file) is an error naming the run, not text.
TEST(Store, DamagedPackedOutputNamesItsRun) {
    OneLayout one;
    auto& [tmp, s, layout] = one;
    ASSERT_TRUE(s && layout);
    ASSERT_TRUE(s->insertRun(*layout, sampleRun(1)));
    auto id = s->insertRun(*layout, sampleRun(2));
    ASSERT_TRUE(id);
    test::exec(*s, "UPDATE run SET stdout = x'4c5a3401ff00000000000000ffff' WHERE id = " +
                       std::to_string(*id));
    const auto runs = s->storedRuns({std::nullopt, RunQuery::Output::All});
    ASSERT_FALSE(runs);
    EXPECT_NE(runs.error().message.find(": run " + std::to_string(*id) + ": stdout: "),
              std::string::npos)
        << runs.error().message;
}

// Schema 13 kept every output as text: those stay text, and are read as before.
TEST(Store, MigratesSchemaThirteenKeepingOutputAsText) {
    TempDb tmp;
    std::string large(4096, 'x');
    {
        auto s = Store::open(tmp.path());
        ASSERT_TRUE(s);
        auto layout = s->ensureLayout("old", "dir", "{}", std::nullopt);
        ASSERT_TRUE(layout);
        lb::Run r = sampleRun(1);
        r.stdoutText = large;
        ASSERT_TRUE(s->insertRun(*layout, r));
        test::downgradeToSchema13(*s);
        EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM run WHERE typeof(stdout) = 'text'"), 1);
    }
    auto s = openMigrated(tmp);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM run WHERE typeof(stdout) = 'text'"), 1);
    const auto runs = s->storedRuns({std::nullopt, RunQuery::Output::All});
    ASSERT_TRUE(runs);
    ASSERT_EQ(runs->size(), 1U);
    EXPECT_EQ(runs->front().stdoutText, large);
}

// Schema 15 hashes outputs with XXH3 where 14 used SHA-1: every stored hash is taken again from
// the output kept with it (packed or text), and run_hash names the first run of each, so data
// imported before is still recognised.
TEST(Store, MigratesSchemaFourteenHashingEveryOutputAgain) {
    TempDb tmp;
    const std::string packed = std::string(4096, 'x') + "\nend", text = "one line";
    std::vector<std::int64_t> ids;
    {
        auto s = Store::open(tmp.path());
        ASSERT_TRUE(s);
        auto layout = s->ensureLayout("old", "dir", "{}", std::nullopt);
        ASSERT_TRUE(layout);
        for (const auto* output : {&packed, &text, &packed}) {
            lb::Run r = sampleRun(1);
            r.stdoutText = *output;
            r.contentHash = contentHash(*output);
            auto id = s->insertRun(*layout, r);
            ASSERT_TRUE(id);
            ids.push_back(*id);
        }
        ASSERT_TRUE(s->insertRun(*layout, sampleRun(2))) << "a run without a hash";
        test::downgradeToSchema14(*s);
        EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM run WHERE typeof(stdout) = 'blob'"), 2);
        EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM run_hash WHERE length(hash) = 40"), 2);
    }
    auto s = openMigrated(tmp);
    ASSERT_TRUE(s) << s.error().message;
    const auto rows = test::queryReadOnly(tmp.path(), "SELECT id, content_hash FROM run WHERE "
                                                      "content_hash IS NOT NULL ORDER BY id");
    ASSERT_TRUE(rows);
    ASSERT_EQ(rows->size(), 3U);
    EXPECT_EQ(rows->at(0), (std::vector<std::string>{std::to_string(ids[0]), contentHash(packed)}));
    EXPECT_EQ(rows->at(1), (std::vector<std::string>{std::to_string(ids[1]), contentHash(text)}));
    EXPECT_EQ(rows->at(2), (std::vector<std::string>{std::to_string(ids[2]), contentHash(packed)}));
    EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM run_hash"), 2);
    for (const auto& [output, first] : {std::pair{&packed, ids[0]}, std::pair{&text, ids[1]}}) {
        const auto earlier = s->importedRunWithContent(contentHash(*output));
        ASSERT_TRUE(earlier && *earlier);
        EXPECT_EQ((*earlier)->id, first);
    }
}

// A run's uid is 32 lowercase hex digits, unique, and starts with the time in milliseconds, so
// that runs written one after another are appended to the uid index.
TEST(Store, RunUidsAreHexAndInTimeOrder) {
    OneLayout one;
    auto& [tmp, s, layout] = one;
    ASSERT_TRUE(s && layout);
    for (int i = 0; i < 200; ++i)
        ASSERT_TRUE(s->insertRun(*layout, sampleRun(i)));
    EXPECT_EQ(lb::test::queryInt(*s, "SELECT COUNT(DISTINCT uid) FROM run"), 200);
    EXPECT_EQ(lb::test::queryInt(*s, "SELECT COUNT(*) FROM run WHERE length(uid) != 32 OR uid "
                                     "GLOB '*[^0-9a-f]*'"),
              0);
    EXPECT_EQ(lb::test::queryInt(*s, "SELECT COUNT(*) FROM run a JOIN run b ON b.id = a.id + 1 "
                                     "WHERE substr(b.uid, 1, 12) < substr(a.uid, 1, 12)"),
              0);
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    const auto uids = lb::test::queryReadOnly(tmp.path(), "SELECT uid FROM run ORDER BY id");
    ASSERT_TRUE(uids);
    ASSERT_EQ(uids->size(), 200U);
    for (const auto& row : *uids) {
        const auto stamp = std::stoll(row.at(0).substr(0, 12), nullptr, 16);
        EXPECT_LE(now - stamp, 60000) << row.at(0);
        EXPECT_GE(now - stamp, 0) << row.at(0);
    }
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

// Metrics are read back grouped by name (sorted), each metric's values in run order with the
// run's start time and campaign, whatever order the runs stored them in.
TEST(Store, SamplesAreGroupedByNameInRunOrder) {
    OneLayout one;
    auto& [tmp, s, layout] = one;
    ASSERT_TRUE(s && layout);
    for (int i = 0; i < 3; ++i) {
        lb::Run r;
        r.workload = "fio:job";
        r.probe = "fio";
        r.status = RunStatus::Ok;
        r.startedAt = "2026-01-01T00:00:0" + std::to_string(i) + ".000Z";
        r.metrics = {{"fio.job.write.bw", 100.0 + i, Unit::BytesPerSecond},
                     {"fio.job.read.bw", 200.0 + i, Unit::BytesPerSecond}};
        if (i == 1)
            std::swap(r.metrics[0], r.metrics[1]);
        if (i == 2)
            r.metrics.push_back({"fio.job.read.iops", 7, Unit::OpsPerSecond});
        ASSERT_TRUE(s->insertRun(*layout, r));
    }
    auto samples = s->metricSamples("l");
    ASSERT_TRUE(samples) << samples.error().message;
    ASSERT_EQ(samples->size(), 3U);
    EXPECT_EQ((*samples)[0].name, "fio.job.read.bw");
    EXPECT_EQ((*samples)[0].values, (std::vector<double>{200, 201, 202}));
    EXPECT_EQ((*samples)[1].name, "fio.job.read.iops");
    EXPECT_EQ((*samples)[1].values, std::vector<double>{7});
    EXPECT_EQ((*samples)[2].name, "fio.job.write.bw");
    EXPECT_EQ((*samples)[2].values, (std::vector<double>{100, 101, 102}));
    EXPECT_EQ((*samples)[2].workload, "fio:job");
    ASSERT_EQ((*samples)[2].runOf.size(), 3U);
    ASSERT_TRUE((*samples)[2].runAt(0) && (*samples)[2].runAt(2));
    EXPECT_NEAR((*samples)[2].runAt(2)->startedAt - (*samples)[2].runAt(0)->startedAt, 2.0, 1e-3);
    for (std::size_t i = 0; i < 3; ++i)
        EXPECT_EQ((*samples)[2].runAt(i)->campaign, 0);
    // The metrics share one table of the runs; each sample names its own.
    EXPECT_EQ((*samples)[0].runs, (*samples)[2].runs);
    EXPECT_NE((*samples)[2].runAt(0)->id, (*samples)[2].runAt(1)->id);
    auto runs = s->runs();
    ASSERT_TRUE(runs);
    EXPECT_EQ((*runs)[2].metrics, 3);
    auto metrics = s->runMetrics((*runs)[2].id);
    ASSERT_TRUE(metrics);
    ASSERT_EQ(metrics->size(), 3U);
    EXPECT_EQ((*metrics)[1].name, "fio.job.read.iops");
}

// A metric name first met in a transaction that rolled back has no id: the next run that
// measures it gets one again, and its samples are found.
TEST(Store, MetricIdsOfARolledBackTransactionAreForgotten) {
    OneLayout one;
    auto& [tmp, s, layout] = one;
    ASSERT_TRUE(s && layout);
    lb::Run r = sampleRun(5);
    r.metrics = {{"fio.new.read.bw", 5, Unit::BytesPerSecond}};
    {
        auto tx = s->transaction();
        ASSERT_TRUE(tx);
        ASSERT_TRUE(s->insertRun(*layout, r));
    }
    ASSERT_TRUE(s->insertRun(*layout, r));
    auto samples = s->metricSamples("l");
    ASSERT_TRUE(samples) << samples.error().message;
    ASSERT_EQ(samples->size(), 1U);
    EXPECT_EQ((*samples)[0].name, "fio.new.read.bw");
    EXPECT_EQ((*samples)[0].values, std::vector<double>{5});
}

// A text first stored in a transaction that rolled back is stored again by the next run that
// has it: no run names an id that run_text lost.
TEST(Store, TextIdsOfARolledBackTransactionAreForgotten) {
    OneLayout one;
    auto& [tmp, s, layout] = one;
    ASSERT_TRUE(s && layout);
    lb::Run r = sampleRun(5);
    r.caveats = {"first met in a rollback"};
    {
        auto tx = s->transaction();
        ASSERT_TRUE(tx);
        ASSERT_TRUE(s->insertRun(*layout, r));
    }
    ASSERT_TRUE(s->insertRun(*layout, r));
    const auto runs = s->storedRuns();
    ASSERT_TRUE(runs) << runs.error().message;
    ASSERT_EQ(runs->size(), 1U);
    EXPECT_EQ(runs->front().caveats, r.caveats);
}

// Runs whose caveats and notes change from one to the next, and back, each read their own back:
// the store reuses the last run's ids only while they are the same.
TEST(Store, EachRunKeepsItsOwnTextsWhenTheyChangeAndComeBack) {
    OneLayout one;
    auto& [tmp, s, layout] = one;
    ASSERT_TRUE(s && layout);
    const MetricNote slow{MetricNote::Kind::Excludes, "bonnie.putc", "too fast to time"};
    const MetricNote method{MetricNote::Kind::Method, "bonnie.put*", "file_size=16G"};
    std::vector<lb::Run> written;
    for (int i = 0; i < 6; ++i) {
        lb::Run r = sampleRun(i);
        if (i % 3 != 2)
            r.caveats = {i % 2 ? "odd" : "even"};
        r.notes = {slow};
        if (i >= 2 && i <= 3)
            r.notes.push_back(method);
        ASSERT_TRUE(s->insertRun(*layout, r));
        written.push_back(r);
    }
    const auto runs = s->storedRuns();
    ASSERT_TRUE(runs) << runs.error().message;
    ASSERT_EQ(runs->size(), written.size());
    for (std::size_t i = 0; i < written.size(); ++i) {
        EXPECT_EQ((*runs)[i].caveats, written[i].caveats) << "run " << i;
        EXPECT_EQ((*runs)[i].notes, written[i].notes) << "run " << i;
    }
}

// A database of schema 12 (notes and caveats as text in each run) is migrated: each distinct
// text is kept once in run_text, every run reads its own back, and the columns go.
TEST(Store, MigratesSchemaTwelveByKeepingEachTextOnce) {
    TempDb tmp;
    const MetricNote tooFast{MetricNote::Kind::Excludes, "bonnie.putc", "too fast to time"};
    std::vector<lb::Run> written;
    {
        auto s = Store::open(tmp.path());
        ASSERT_TRUE(s);
        auto layout = s->ensureLayout("old", "dir", "{}", std::nullopt);
        ASSERT_TRUE(layout);
        for (int i = 0; i < 4; ++i) {
            lb::Run r = sampleRun(i);
            r.caveats = {i % 2 ? "odd" : "even"};
            if (i == 3)
                r.caveats.push_back("and the last");
            if (i > 0)
                r.notes = {tooFast};
            ASSERT_TRUE(s->insertRun(*layout, r));
            written.push_back(r);
        }
        test::downgradeToSchema12(*s);
        EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM pragma_table_info('run') WHERE name "
                                     "IN ('notes', 'caveats')"),
                  2);
    }
    auto s = openMigrated(tmp);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM pragma_table_info('run') WHERE name IN "
                                 "('notes', 'caveats')"),
              0);
    // ["even"], ["odd"], ["odd","and the last"] and the one note; no run's empty notes.
    EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM run_text"), 4);
    const auto runs = s->storedRuns();
    ASSERT_TRUE(runs) << runs.error().message;
    ASSERT_EQ(runs->size(), written.size());
    for (std::size_t i = 0; i < written.size(); ++i) {
        EXPECT_EQ((*runs)[i].caveats, written[i].caveats) << i;
        EXPECT_EQ((*runs)[i].notes, written[i].notes) << i;
    }
    auto samples = s->layoutSamples("old");
    ASSERT_TRUE(samples) << samples.error().message;
    EXPECT_EQ(samples->notes, std::vector<MetricNote>{tooFast});
    // Runs written after the migration share the texts that are there.
    auto layout = s->findLayout("old");
    ASSERT_TRUE(layout && *layout);
    ASSERT_TRUE(s->insertRun((*layout)->id, written[1]));
    EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM run_text"), 4);
}

// A database of schema 4 (metrics one row each, nothing packed) is migrated: its runs' metrics
// are packed, and comparisons read them as before.
TEST(Store, MigratesSchemaFourByPackingExistingMetrics) {
    TempDb tmp;
    {
        auto s = Store::open(tmp.path());
        ASSERT_TRUE(s);
        auto layout = s->ensureLayout("old", "dir", "{}", std::nullopt);
        ASSERT_TRUE(layout);
        for (double v : {3.0, 1.0, 2.0}) {
            lb::Run r = sampleRun(v);
            r.metrics.push_back({"bonnie.get_block", v * 10, Unit::BytesPerSecond});
            ASSERT_TRUE(s->insertRun(*layout, r));
        }
        // Back to schema 4, as a database written before packed samples existed.
        test::downgradeToSchema4(*s);
    }
    auto s = openMigrated(tmp);
    ASSERT_TRUE(s) << s.error().message;
    auto samples = s->metricSamples("old");
    ASSERT_TRUE(samples) << samples.error().message;
    ASSERT_EQ(samples->size(), 2U);
    EXPECT_EQ((*samples)[0].name, "bonnie.get_block");
    EXPECT_EQ((*samples)[0].values, (std::vector<double>{30, 10, 20}));
    EXPECT_EQ((*samples)[1].name, "bonnie.put_block");
    EXPECT_EQ((*samples)[1].values, (std::vector<double>{3, 1, 2}));
    auto runs = s->runs();
    ASSERT_TRUE(runs);
    EXPECT_EQ((*runs)[0].metrics, 2);
    // New runs after the migration join the same metrics.
    auto layout = s->findLayout("old");
    ASSERT_TRUE(layout && *layout);
    ASSERT_TRUE(s->insertRun((*layout)->id, sampleRun(4)));
    samples = s->metricSamples("old");
    ASSERT_TRUE(samples);
    EXPECT_EQ((*samples)[1].values, (std::vector<double>{3, 1, 2, 4}));
}

// A database of schema 11 (content hashes in an index of run) is migrated: the hashes of its
// published runs move to run_hash, those of an import still staging do not (its publishing adds
// them), and the index goes.
TEST(Store, MigratesSchemaElevenByMovingPublishedContentHashes) {
    TempDb tmp;
    const auto imported = [](const std::string& output) {
        lb::Run r = sampleRun(1);
        r.stdoutText = output;
        r.contentHash = contentHash(output);
        r.source = "old.csv";
        r.sourceLine = 1;
        return r;
    };
    {
        auto s = Store::open(tmp.path());
        ASSERT_TRUE(s);
        auto layout = s->ensureLayout("old", "imported", "{}", std::nullopt);
        auto staged = s->ensureLayout("staged import 1", std::string(stagedImportKind), "{}", {});
        ASSERT_TRUE(layout && staged);
        ASSERT_TRUE(s->insertRun(*layout, imported("bb")));
        ASSERT_TRUE(s->insertRun(*layout, imported("aa")));
        ASSERT_TRUE(s->insertRun(*layout, sampleRun(2))); // measured, not imported: no hash
        ASSERT_TRUE(s->stageRun(*staged, imported("cc")));
        test::downgradeToSchema11(*s);
        EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM sqlite_master WHERE name = "
                                     "'run_content_hash'"),
                  1);
    }
    auto s = openMigrated(tmp);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM run_hash"), 2);
    EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM sqlite_master WHERE name = "
                                 "'run_content_hash'"),
              0);
    const auto bb = s->importedRunWithContent(contentHash("bb"));
    ASSERT_TRUE(bb && *bb);
    EXPECT_EQ((*bb)->layout, "old");
    EXPECT_EQ((*bb)->source, "old.csv");
    EXPECT_TRUE(*s->importedRunWithContent(contentHash("aa")));
    EXPECT_FALSE(*s->importedRunWithContent(contentHash("cc"))) << "still staging";
    // The status check is the same, written as comparisons.
    EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'run' AND sql "
                                 "LIKE '%CHECK(status = ''ok'' OR%'"),
              1);
    for (const char* status : {"ok", "failed", "aborted", "running"})
        EXPECT_TRUE(test::acceptsRunStatus(*s, status)) << status;
    EXPECT_FALSE(test::acceptsRunStatus(*s, "done"));
    EXPECT_FALSE(test::acceptsRunStatus(*s, "OK"));
}

namespace {

Series interval(const std::string& name, Unit unit, std::vector<double> y) {
    Series s{name, Unit::Seconds, unit, {}, std::move(y)};
    for (std::size_t i = 0; i < s.y.size(); ++i)
        s.x.push_back(0.5 * static_cast<double>(i + 1));
    return s;
}

} // namespace

// A run's series are stored with its metrics and read back point for point, per run and per
// layout (successful runs only, in run order).
TEST(Store, SeriesRoundTripWithTheirRun) {
    OneLayout one;
    auto& [tmp, s, layout] = one;
    ASSERT_TRUE(s && layout);
    lb::Run r = sampleRun(1);
    r.workload = "seq";
    r.iteration = 2;
    // Values no decimal text would keep exactly.
    r.series = {interval("fio.seq.read.bw", Unit::BytesPerSecond, {1.0 / 3.0, 2e9, 0.1}),
                interval("fio.seq.read.lat_mean", Unit::Nanoseconds, {123456.789, 1e-300})};
    auto id = s->insertRun(*layout, r);
    ASSERT_TRUE(id) << id.error().message;
    auto back = s->runSeries(*id);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(*back, r.series);

    lb::Run failed = r;
    failed.status = RunStatus::Failed;
    ASSERT_TRUE(s->insertRun(*layout, failed));
    lb::Run plain = sampleRun(2); // no series
    ASSERT_TRUE(s->insertRun(*layout, plain));
    auto all = s->layoutSeries("l");
    ASSERT_TRUE(all) << all.error().message;
    ASSERT_EQ(all->size(), 1U) << "the failed run and the run without series are left out";
    EXPECT_EQ((*all)[0].runId, *id);
    EXPECT_EQ((*all)[0].workload, "seq");
    EXPECT_EQ((*all)[0].iteration, 2);
    EXPECT_EQ((*all)[0].series, r.series);
    EXPECT_EQ(seriesNames(*all),
              (std::vector<std::string>{"fio.seq.read.bw", "fio.seq.read.lat_mean"}));
    auto none = s->layoutSeries("no such layout");
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->empty());
}

// A campaign run gets its series when it finishes, in the same transaction as its metrics;
// 16 bytes a point.
TEST(Store, FinishRunStoresSeries) {
    OneLayout one;
    auto& [tmp, s, layout] = one;
    ASSERT_TRUE(s && layout);
    lb::Run r = sampleRun(1);
    r.series = {interval("fio.w.write.iops", Unit::OpsPerSecond, std::vector<double>(120, 7.0))};
    auto id = s->beginRun(*layout, r);
    ASSERT_TRUE(id);
    auto early = s->runSeries(*id);
    ASSERT_TRUE(early);
    EXPECT_TRUE(early->empty()) << "nothing before the run ends";
    r.id = *id;
    ASSERT_TRUE(s->finishRun(r));
    auto back = s->runSeries(*id);
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, r.series);
    EXPECT_EQ(test::queryInt(*s, "SELECT length(data) FROM run_series"), 120 * 16);
}

// A database of schema 10 gains the series table; its runs keep their metrics and have no
// series, and new runs store theirs.
TEST(Store, MigratesSchemaTenToSeries) {
    TempDb tmp;
    {
        auto s = Store::open(tmp.path());
        ASSERT_TRUE(s);
        auto layout = s->ensureLayout("old", "dir", "{}", std::nullopt);
        ASSERT_TRUE(layout);
        ASSERT_TRUE(s->insertRun(*layout, sampleRun(3)));
        test::downgradeToSchema10(*s);
    }
    auto s = openMigrated(tmp);
    ASSERT_TRUE(s) << s.error().message;
    auto samples = s->metricSamples("old");
    ASSERT_TRUE(samples);
    ASSERT_EQ(samples->size(), 1U);
    EXPECT_EQ((*samples)[0].values, std::vector<double>{3});
    auto before = s->layoutSeries("old");
    ASSERT_TRUE(before);
    EXPECT_TRUE(before->empty());
    lb::Run r = sampleRun(4);
    r.series = {interval("fio.x.read.bw", Unit::BytesPerSecond, {1, 2})};
    auto layout = s->findLayout("old");
    ASSERT_TRUE(layout && *layout);
    ASSERT_TRUE(s->insertRun((*layout)->id, r));
    auto after = s->layoutSeries("old");
    ASSERT_TRUE(after);
    ASSERT_EQ(after->size(), 1U);
    EXPECT_EQ((*after)[0].series, r.series);
}

// Deleting a run deletes its series (foreign key, cascade): a staged import dropped leaves none.
TEST(Store, SeriesGoWithTheirRuns) {
    TempDb tmp;
    auto s = Store::open(tmp.path());
    ASSERT_TRUE(s);
    auto staging = s->ensureLayout("staging", std::string(stagedImportKind), "{}", std::nullopt);
    ASSERT_TRUE(staging);
    lb::Run r = sampleRun(1);
    r.series = {interval("fio.x.read.bw", Unit::BytesPerSecond, {1, 2})};
    ASSERT_TRUE(s->insertRun(*staging, r));
    ASSERT_TRUE(s->deleteStagedLayout(*staging));
    EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM run_series"), 0);
}
