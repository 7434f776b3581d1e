// StagedImport (engine/store/import_stage.h) on real SQLite files: staged runs are committed in
// batches that another connection sees in the file but no listing or comparison shows; publishing
// moves them to the layout at once, iterations following what it holds; discarding, a layout of
// another kind, and what a killed import left all end with nothing of the import visible.
#include "engine/store/import_stage.h"
#include "tests/support/raw_sql.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <random>

using namespace lb;

namespace {

class ImportStage : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("lb-import-stage-" +
                std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        store_.emplace(open());
    }
    void TearDown() override {
        store_.reset();
        std::filesystem::remove_all(dir_);
    }

    Store open() {
        auto s = Store::open((dir_ / "results.db").string());
        EXPECT_TRUE(s) << s.error().message;
        return std::move(*s);
    }

    static lb::Run sampleRun(const std::string& workload, double value) {
        lb::Run r;
        r.workload = workload;
        r.probe = "bonnie";
        r.stdoutText = "a line";
        r.status = RunStatus::Ok;
        r.metrics = {{"bonnie.put_block", value, Unit::BytesPerSecond},
                     {"bonnie.get_block", value * 2, Unit::BytesPerSecond}};
        return r;
    }

    // Counted on a connection of its own, as another process would see the file.
    static std::int64_t count(Store& store, const std::string& table) {
        std::string error;
        const auto rows =
            test::queryReadOnly(store.path(), "SELECT COUNT(*) FROM " + table, &error);
        EXPECT_TRUE(rows && !rows->empty()) << error;
        return rows && !rows->empty() ? std::stoll(rows->front().front()) : -1;
    }

    std::filesystem::path dir_;
    std::optional<Store> store_;
};

TEST_F(ImportStage, StagedRunsAreCommittedInBatchesButShownNowhereUntilPublished) {
    auto stage = StagedImport::begin(*store_, {5000, std::chrono::minutes(1)});
    ASSERT_TRUE(stage) << stage.error().message;
    for (int i = 0; i < 12000; ++i)
        ASSERT_TRUE(stage->add(sampleRun("bonnie", 100 + i)));
    EXPECT_EQ(stage->stagedRuns(), 12000);

    Store other = open();
    // A batch holds fewer than 5000 runs: the others are committed already.
    EXPECT_GT(count(other, "run"), 7000) << "committed in batches, not held to the end";
    EXPECT_TRUE(other.layouts()->empty());
    EXPECT_TRUE(other.runs()->empty());
    EXPECT_TRUE(other.metricSamples("nas")->empty());
    // Another writer gets its turn between batches.
    ASSERT_TRUE(stage->commitBatch());
    auto tx = other.transaction();
    ASSERT_TRUE(tx) << tx.error().message;
    ASSERT_TRUE(other.ensureHost("meanwhile"));
    ASSERT_TRUE(tx->commit());

    ASSERT_TRUE(stage->publish({"nas", "imported", "{}", "box"}));
    const auto layouts = other.layouts();
    ASSERT_EQ(layouts->size(), 1U);
    EXPECT_EQ(layouts->front().name, "nas");
    EXPECT_EQ(layouts->front().host, "box");
    EXPECT_EQ(layouts->front().runs, 12000);
    const auto samples = other.metricSamples("nas");
    ASSERT_EQ(samples->size(), 2U);
    EXPECT_EQ(samples->at(1).values.size(), 12000U);
    EXPECT_EQ(count(other, "layout"), 1);
}

// Each batch is copied into the database file by another connection while the next is staged;
// past the WAL size the stager was given, a commit waits for that copy, so the WAL starts over
// instead of growing with everything imported.
TEST_F(ImportStage, BatchesAreCheckpointedInTheBackgroundAndTheWalStartsOver) {
    constexpr int walPages = 16; // 1 MiB at the store's 64 KiB pages
    auto stage = StagedImport::begin(*store_, {1, std::chrono::minutes(1), walPages});
    ASSERT_TRUE(stage) << stage.error().message;
    // The WAL file keeps the largest size it had; creating the database took it to 73 pages.
    const std::string db = (dir_ / "results.db").string();
    const auto walBefore = std::filesystem::file_size(db + "-wal");
    // 150 runs of 100 KB that LZ4 cannot shrink (letters drawn at random): 15 MB in all.
    std::mt19937 random(7);
    std::uniform_int_distribution<int> letter('a', 'z');
    std::vector<std::string> outputs;
    for (int i = 0; i < 150; ++i) {
        auto run = sampleRun("bonnie", i);
        run.stdoutText.resize(100000);
        for (auto& c : run.stdoutText)
            c = static_cast<char>(letter(random));
        outputs.push_back(run.stdoutText);
        ASSERT_TRUE(stage->add(run));
    }
    const auto rounds = stage->checkpointRounds();
    ASSERT_TRUE(rounds);
    EXPECT_GT(rounds->done, 0);
    EXPECT_GT(rounds->complete, 0) << "some checkpoint copied the whole WAL";
    EXPECT_GT(std::filesystem::file_size(db), 10'000'000U) << "the batches are in the file";
    // Started over every few batches: it grew by a few pages past the limit, not by 15 MB.
    EXPECT_LT(std::filesystem::file_size(db + "-wal"), walBefore + 2'000'000U);

    ASSERT_TRUE(stage->publish({"nas", "imported", "{}", "box"}));
    EXPECT_FALSE(stage->checkpointRounds()) << "checkpoints end with the import";
    Store other = open();
    auto runs = other.storedRuns({std::nullopt, RunQuery::Output::All});
    ASSERT_TRUE(runs) << runs.error().message;
    ASSERT_EQ(runs->size(), outputs.size());
    for (std::size_t i = 0; i < outputs.size(); ++i)
        EXPECT_EQ(runs->at(i).stdoutText, outputs[i]) << "run " << i;
}

TEST_F(ImportStage, PublishingIntoALayoutWithRunsContinuesItsIterations) {
    for (int round = 0; round < 2; ++round) {
        auto stage = StagedImport::begin(*store_);
        ASSERT_TRUE(stage) << stage.error().message;
        ASSERT_TRUE(stage->add(sampleRun("bonnie", 1)));
        ASSERT_TRUE(stage->add(sampleRun("fio", 2)));
        ASSERT_TRUE(stage->add(sampleRun("bonnie", 3)));
        ASSERT_TRUE(stage->publish({"nas", "imported", "{}", "box"}));
    }
    const auto rows = test::queryReadOnly(
        store_->path(),
        "SELECT workload, GROUP_CONCAT(iteration) FROM (SELECT workload, iteration FROM run "
        "ORDER BY id) GROUP BY workload ORDER BY workload");
    ASSERT_TRUE(rows);
    std::vector<std::string> seen;
    for (const auto& row : *rows)
        seen.push_back(row[0] + ":" + row[1]);
    EXPECT_EQ(seen, (std::vector<std::string>{"bonnie:0,1,2,3", "fio:0,1"}));
    EXPECT_EQ(count(*store_, "layout"), 1);
}

TEST_F(ImportStage, DiscardedOrRefusedImportsLeaveNothing) {
    {
        auto stage = StagedImport::begin(*store_);
        ASSERT_TRUE(stage);
        for (int i = 0; i < 7000; ++i)
            ASSERT_TRUE(stage->add(sampleRun("bonnie", i)));
        // Not published: discarded when it goes.
    }
    EXPECT_EQ(count(*store_, "run"), 0);
    EXPECT_EQ(count(*store_, "run_sample"), 0);
    EXPECT_EQ(count(*store_, "layout"), 0);

    ASSERT_TRUE(store_->ensureLayout("nas", "zfs-raidz2", "{}", std::nullopt));
    auto stage = StagedImport::begin(*store_);
    ASSERT_TRUE(stage);
    ASSERT_TRUE(stage->add(sampleRun("bonnie", 1)));
    auto refused = stage->publish({"nas", "imported", "{}", "box"});
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(refused.error().message,
              "layout 'nas' already exists with kind 'zfs-raidz2', not 'imported'");
    stage->discard();
    EXPECT_EQ(count(*store_, "run"), 0);
    EXPECT_EQ(count(*store_, "layout"), 1);
}

TEST_F(ImportStage, WhatAKilledImportStagedIsDeletedByTheNextOneAndALiveOnesIsNot) {
    // A killed import's staging layout: its rows are there, its lock is free.
    const auto abandoned =
        store_->ensureLayout("staged import 0123", std::string(stagedImportKind), "{}", {});
    ASSERT_TRUE(abandoned);
    ASSERT_TRUE(store_->insertRun(*abandoned, sampleRun("bonnie", 1)));
    // A live import on another connection holds its lock.
    Store other = open();
    auto live = StagedImport::begin(other);
    ASSERT_TRUE(live) << live.error().message;
    EXPECT_EQ(count(*store_, "run"), 0) << "the killed import's run is left";
    for (int i = 0; i < 10; ++i)
        ASSERT_TRUE(live->add(sampleRun("bonnie", 2)));
    ASSERT_TRUE(live->commitBatch());

    auto next = StagedImport::begin(*store_);
    ASSERT_TRUE(next) << next.error().message;
    EXPECT_EQ(count(*store_, "run"), 10) << "the live import's runs were deleted";
    ASSERT_TRUE(next->add(sampleRun("bonnie", 3)));
    ASSERT_TRUE(next->publish({"next", "imported", "{}", "box"}));
    ASSERT_TRUE(live->publish({"live", "imported", "{}", "box"}));
    EXPECT_EQ(count(*store_, "run"), 11);
    EXPECT_EQ(store_->layouts()->size(), 2U);
}

// Content hashes: a staged run's is found by no lookup until its import is published (then it is,
// from any connection). Publishing finds repeats in one sorted pass: within the import, the first
// in the order staged (not in the order of the hashes), and of data published before.
TEST_F(ImportStage, StagedContentIsFoundOncePublishedAndRepeatsRefuseIt) {
    const auto imported = [](const std::string& hash, int line) {
        lb::Run r = sampleRun("bonnie", line);
        r.contentHash = hash;
        r.source = "results.csv";
        r.sourceLine = line;
        return r;
    };
    const auto stageAll = [&](StagedImport& stage,
                              const std::vector<std::pair<std::string, int>>& runs) {
        for (const auto& [hash, line] : runs)
            ASSERT_TRUE(stage.add(imported(hash, line)));
    };
    constexpr auto refuse = StagedImport::Repeats::Refuse;
    auto stage = StagedImport::begin(*store_, {2, std::chrono::minutes(1)});
    ASSERT_TRUE(stage) << stage.error().message;
    // Lines 1 to 5: b at 2 is repeated at 3 before a (1) is at 4.
    stageAll(*stage, {{"aa", 1}, {"bb", 2}, {"bb", 3}, {"aa", 4}, {"cc", 5}});
    Store other = open();
    EXPECT_FALSE(*store_->importedRunWithContent("aa"));
    EXPECT_FALSE(*other.importedRunWithContent("bb"));
    auto refused = stage->publish({"nas", "imported", "{}", "box"}, refuse);
    ASSERT_TRUE(refused) << refused.error().message;
    ASSERT_TRUE(*refused);
    EXPECT_EQ((*refused)->first.sourceLine, 2);
    EXPECT_EQ((*refused)->first.layoutId, stage->layoutId());
    EXPECT_EQ((*refused)->again.sourceLine, 3);
    EXPECT_EQ((*refused)->again.source, "results.csv");
    EXPECT_EQ(count(other, "run_hash"), 0) << "nothing is published";
    EXPECT_TRUE(other.layouts()->empty());

    // Kept, every hash names the first run that has it.
    auto kept = stage->publish({"nas", "imported", "{}", "box"});
    ASSERT_TRUE(kept && !*kept);
    EXPECT_EQ(count(other, "run_hash"), 3);
    const auto found = other.importedRunWithContent("aa");
    ASSERT_TRUE(found && *found);
    EXPECT_EQ((*found)->sourceLine, 1);
    EXPECT_EQ((*found)->layout, "nas");
    EXPECT_FALSE(*other.importedRunWithContent("dd"));

    // Data published before is a repeat too, named as the published run.
    auto again = StagedImport::begin(*store_);
    ASSERT_TRUE(again);
    stageAll(*again, {{"dd", 1}, {"aa", 2}});
    refused = again->publish({"nas", "imported", "{}", "box"}, refuse);
    ASSERT_TRUE(refused && *refused);
    EXPECT_EQ((*refused)->first.layout, "nas");
    EXPECT_EQ((*refused)->first.sourceLine, 1);
    EXPECT_EQ((*refused)->again.sourceLine, 2);
    again->discard();

    auto next = StagedImport::begin(*store_);
    ASSERT_TRUE(next) << next.error().message;
    stageAll(*next, {{"dd", 1}, {"ee", 2}});
    auto published = next->publish({"nas", "imported", "{}", "box"}, refuse);
    ASSERT_TRUE(published && !*published);
    EXPECT_EQ(count(other, "run_hash"), 5);
    EXPECT_EQ((*other.importedRunWithContent("dd"))->layout, "nas");
    EXPECT_EQ(store_->layouts()->front().runs, 7);
}

} // namespace
