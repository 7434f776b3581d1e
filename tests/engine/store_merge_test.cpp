// Data that arrives from elsewhere: content hashes that recognise an import seen before (kept
// across the migration from schema 4), and merges of one database into another that add
// nothing the second time, bring campaigns, journal steps and the end of a run that was still
// running, and refuse to join two different layouts of one name.
#include "engine/base/content_hash.h"
#include "engine/store/journal.h"
#include "engine/store/store_merge.h"
#include "tests/support/raw_sql.h"
#include "tests/support/scratch_dir.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>

namespace lb {
namespace {

class MergeTest : public ::testing::Test {
protected:
    std::string path(const std::string& name) const { return dir_.path(name); }
    Store open(const std::string& name) {
        auto s = Store::open(path(name));
        EXPECT_TRUE(s) << s.error().message;
        return std::move(*s);
    }
    test::ScratchDir dir_{"merge"};
};

Run importedRun(const std::string& text, double value) {
    Run r;
    r.workload = "bonnie";
    r.probe = "bonnie";
    r.stdoutText = text;
    r.source = "results.csv";
    r.contentHash = contentHash(text);
    r.status = RunStatus::Ok;
    r.metrics = {{"bonnie.put_block", value, Unit::BytesPerSecond}};
    return r;
}

// A run imported from `text` into the layout (created if new, of kind "imported").
void importInto(Store& s, const std::string& layout, const std::string& text, double value) {
    auto id = s.ensureLayout(layout, "imported", "{}", std::nullopt);
    ASSERT_TRUE(id) << id.error().message;
    ASSERT_TRUE(s.insertRun(*id, importedRun(text, value)));
}

std::int64_t countOf(Store& s, const std::string& sql) {
    return test::queryInt(s, sql);
}

// Every row of the tables a merge writes, ids and uids included, in a stable order.
std::string contents(Store& s) {
    return test::tableRows(s,
                           {"host", "disk", "layout", "campaign", "run", "metric_name",
                            "run_sample", "run_series", "run_text", "plan_step", "conditioning"});
}

// A campaign of one layout with one finished run, one running run, two journal steps and a
// preconditioning step.
std::int64_t addCampaign(Store& s, const std::string& layout) {
    auto host = s.ensureHost("srv-b", R"({"hostname": "srv-b"})");
    auto layoutId = s.ensureLayout(layout, "zfs-raidz2", "{}", *host);
    const auto created = s.createCampaign({"quick", "", "", *host});
    EXPECT_TRUE(created);
    const std::int64_t campaign = *created;
    Journal journal(s);
    for (int seq : {1, 2}) {
        const PlanStep zpool{"step " + std::to_string(seq), Command{"zpool", {}}, std::nullopt};
        const auto step = journal.beginBuild(campaign, *layoutId, zpool, RunsOn::Host);
        EXPECT_TRUE(step);
        ProcessResult ran;
        ran.exitCode = 0;
        EXPECT_TRUE(journal.finishBuild(*step, ran, StepStatus::Applied));
    }
    ConditioningStep conditioning;
    conditioning.campaignId = campaign;
    conditioning.layoutId = *layoutId;
    conditioning.stdoutText = "{}";
    conditioning.bytes = 1U << 30;
    EXPECT_TRUE(s.addConditioningStep(conditioning));
    Run done;
    done.campaignId = campaign;
    done.workload = done.probe = "fio";
    done.status = RunStatus::Ok;
    done.stdoutText = "{}";
    done.metrics = {{"fio.seq.read.bw", 5e8, Unit::BytesPerSecond}};
    done.series = {{"fio.seq.read.bw", Unit::Seconds, Unit::BytesPerSecond, {0.5, 1}, {4e8, 6e8}}};
    EXPECT_TRUE(s.insertRun(*layoutId, done));
    Run running = done;
    running.iteration = 1;
    EXPECT_TRUE(s.beginRun(*layoutId, running));
    return campaign;
}

TEST(ContentHash, IgnoresLineEndsAndTrailingSpaceNotContent) {
    const std::string unix = "a,b,c\nd,e,f\n";
    EXPECT_EQ(contentHash(unix), contentHash("a,b,c\r\nd,e,f\r\n"));
    EXPECT_EQ(contentHash(unix), contentHash("\n\na,b,c  \nd,e,f\t\n\n\n"));
    EXPECT_NE(contentHash(unix), contentHash("a,b,c\n\nd,e,f\n"));
    EXPECT_NE(contentHash(unix), contentHash("a,b,c\nd,e,g\n"));
    EXPECT_EQ(contentHash(unix).size(), 32U);
    // XXH3-128 as xxhsum -H2 computes it: hashes stored by one build match those of another.
    EXPECT_EQ(contentHash("abc\n"), "06b05ab6733a618578af5f94892f3950");
}

TEST_F(MergeTest, ImportedRunsAreFoundByTheirContent) {
    auto s = open("a.db");
    auto layout = s.ensureLayout("bare", "imported", "{}", std::nullopt);
    const auto id = s.insertRun(*layout, importedRun("line one", 1e8));
    ASSERT_TRUE(id);
    const auto found = s.importedRunWithContent(contentHash("line one\r\n"));
    ASSERT_TRUE(found);
    ASSERT_TRUE(*found);
    EXPECT_EQ((*found)->id, *id);
    EXPECT_EQ((*found)->layout, "bare");
    EXPECT_EQ((*found)->source, "results.csv");
    EXPECT_FALSE(*s.importedRunWithContent(contentHash("line two")));
}

// A database of schema 4 (no hashes, no uids) is merged through a migrated copy, left as it
// was; opened, it is migrated: its imported runs get their hash from the output stored with
// them, and every row an identity.
TEST_F(MergeTest, MigrationHashesTheRunsImportedBefore) {
    {
        auto s = open("old.db");
        importInto(s, "bare", "line one", 1e8);
        test::downgradeToSchema4(s);
    }
    {
        auto a = open("a.db");
        const auto merged = mergeDatabase(a, {path("old.db"), ""});
        ASSERT_TRUE(merged) << merged.error().message;
        EXPECT_EQ(merged->runs, 1);
        EXPECT_TRUE(*a.importedRunWithContent(contentHash("line one")));
        const auto version =
            test::queryReadOnly(path("old.db"), "SELECT value FROM meta WHERE key = "
                                                "'schema_version'");
        ASSERT_TRUE(version && version->size() == 1);
        EXPECT_EQ((*version)[0][0], "4") << "the merged database is only read";
    }
    auto s = open("old.db");
    EXPECT_EQ(s.schemaVersion(), Store::latestSchemaVersion);
    const auto found = s.importedRunWithContent(contentHash("line one"));
    ASSERT_TRUE(found && *found);
    EXPECT_EQ(countOf(s, "SELECT COUNT(*) FROM run WHERE length(uid) = 32"), 1);
}

TEST_F(MergeTest, TwiceIsOnce) {
    {
        auto b = open("b.db");
        addCampaign(b, "raidz2");
        importInto(b, "old-nas", "b's line", 2e8);
    }
    auto a = open("a.db");
    importInto(a, "bare", "a's line", 3e8);

    const auto first = mergeDatabase(a, {path("b.db"), ""});
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_EQ(first->hosts, 1);
    EXPECT_EQ(first->layouts, 2);
    EXPECT_EQ(first->campaigns, 1);
    EXPECT_EQ(first->runs, 3);
    EXPECT_EQ(first->metrics, 2);
    EXPECT_EQ(first->planSteps, 2);
    EXPECT_EQ(first->conditioningSteps, 1);
    EXPECT_EQ(first->duplicateRuns, 0);
    EXPECT_EQ(countOf(a, "SELECT COUNT(*) FROM run_series"), 1) << "the finished run's series";
    const std::string once = contents(a);

    const auto second = mergeDatabase(a, {path("b.db"), ""});
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_EQ(*second, MergeSummary{});
    EXPECT_EQ(contents(a), once);

    // Merging back: b takes a's layout and run; then a takes nothing more from b.
    {
        auto b = open("b.db");
        const auto back = mergeDatabase(b, {path("a.db"), ""});
        ASSERT_TRUE(back) << back.error().message;
        EXPECT_EQ(back->runs, 1);
        EXPECT_EQ(back->layouts, 1);
    }
    EXPECT_EQ(*mergeDatabase(a, {path("b.db"), ""}), MergeSummary{});
    EXPECT_EQ(contents(a), once);
    EXPECT_EQ(*a.integrityCheck(), "ok");
}

// A run still running when it was merged, and its campaign, take their end from a later merge.
TEST_F(MergeTest, ARunStillRunningTakesItsEndLater) {
    std::int64_t campaign = 0;
    {
        auto b = open("b.db");
        campaign = addCampaign(b, "raidz2");
    }
    auto a = open("a.db");
    ASSERT_TRUE(mergeDatabase(a, {path("b.db"), ""}));
    {
        auto b = open("b.db");
        ASSERT_TRUE(b.setCampaignStatus(campaign, CampaignStatus::Done, true));
        const auto runs = b.runs();
        ASSERT_TRUE(runs);
        const auto running = std::find_if(runs->begin(), runs->end(), [](const RunSummary& r) {
            return r.status == RunStatus::Running;
        });
        ASSERT_NE(running, runs->end());
        lb::Run r;
        r.id = running->id;
        r.stdoutText = "finished";
        ASSERT_TRUE(b.recordRunOutput(r));
        r.status = RunStatus::Ok;
        r.metrics = {{"fio.seq.read.bw", 4e8, Unit::BytesPerSecond}};
        r.series = {{"fio.seq.read.bw", Unit::Seconds, Unit::BytesPerSecond, {0.5}, {4e8}}};
        r.caveats = {"finished after the first merge"};
        ASSERT_TRUE(b.finishRun(r));
    }
    const auto later = mergeDatabase(a, {path("b.db"), ""});
    ASSERT_TRUE(later) << later.error().message;
    EXPECT_EQ(later->runs, 0);
    EXPECT_EQ(later->metrics, 1);
    EXPECT_EQ(countOf(a, "SELECT COUNT(*) FROM run_series"), 2) << "and its series";
    EXPECT_EQ(countOf(a, "SELECT COUNT(*) FROM run WHERE status = 'ok' AND stdout = 'finished'"),
              1);
    EXPECT_EQ(countOf(a, "SELECT COUNT(*) FROM campaign WHERE status = 'done'"), 1);
    const auto runs = a.storedRuns();
    ASSERT_TRUE(runs);
    const auto finished = std::find_if(runs->begin(), runs->end(),
                                       [](const StoredRun& r) { return r.iteration == 1; });
    ASSERT_NE(finished, runs->end());
    EXPECT_EQ(finished->caveats, std::vector<std::string>{"finished after the first merge"});
}

// Notes and caveats are kept once per database (run_text) and named by id: a merge brings each
// run's own, whatever ids they had there, and a text both databases hold is not added twice.
TEST_F(MergeTest, RunsKeepTheirNotesAndCaveats) {
    const MetricNote buffered{MetricNote::Kind::Method, "fio.*", "buffered I/O"};
    const MetricNote tooFast{MetricNote::Kind::Excludes, "bonnie.putc", "too fast to time"};
    const auto add = [](Store& s, const std::string& text, std::vector<std::string> caveats,
                        std::vector<MetricNote> notes) {
        auto id = s.ensureLayout("nas", "imported", "{}", std::nullopt);
        ASSERT_TRUE(id) << id.error().message;
        lb::Run r = importedRun(text, 1e8);
        r.caveats = std::move(caveats);
        r.notes = std::move(notes);
        ASSERT_TRUE(s.insertRun(*id, r));
    };
    {
        auto b = open("b.db");
        add(b, "b1", {"only in b"}, {tooFast});
        add(b, "b2", {"in both"}, {buffered});
        add(b, "b3", {}, {});
    }
    auto a = open("a.db");
    add(a, "a1", {"in both"}, {buffered, tooFast});
    ASSERT_TRUE(mergeDatabase(a, {path("b.db"), ""}));
    const auto runs = a.storedRuns({std::nullopt, RunQuery::Output::All});
    ASSERT_TRUE(runs);
    ASSERT_EQ(runs->size(), 4U);
    std::map<std::string, const StoredRun*> byText;
    for (const auto& r : *runs)
        byText[r.stdoutText] = &r;
    EXPECT_EQ(byText["a1"]->caveats, std::vector<std::string>{"in both"});
    EXPECT_EQ(byText["a1"]->notes, (std::vector<MetricNote>{buffered, tooFast}));
    EXPECT_EQ(byText["b1"]->caveats, std::vector<std::string>{"only in b"});
    EXPECT_EQ(byText["b1"]->notes, std::vector<MetricNote>{tooFast});
    EXPECT_EQ(byText["b2"]->caveats, std::vector<std::string>{"in both"});
    EXPECT_EQ(byText["b2"]->notes, std::vector<MetricNote>{buffered});
    EXPECT_TRUE(byText["b3"]->caveats.empty());
    EXPECT_TRUE(byText["b3"]->notes.empty());
    // a's two texts, b's four less the one a holds already.
    EXPECT_EQ(countOf(a, "SELECT COUNT(*) FROM run_text"), 5);
    EXPECT_EQ(*a.integrityCheck(), "ok");
}

TEST_F(MergeTest, ALayoutOfTheSameNameOnAnotherHostNeedsAPrefix) {
    {
        auto b = open("b.db");
        addCampaign(b, "raidz2");
    }
    auto a = open("a.db");
    auto host = a.ensureHost("srv-a");
    auto layout = a.ensureLayout("raidz2", "zfs-raidz2", "{}", *host);
    ASSERT_TRUE(a.insertRun(*layout, importedRun("a's line", 3e8)));
    const std::string before = contents(a);
    const auto refused = mergeDatabase(a, {path("b.db"), ""});
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, ErrorKind::BadInput);
    EXPECT_TRUE(refused.error().message.starts_with("prefix: ")) << refused.error().message;
    EXPECT_NE(refused.error().message.find("'raidz2'"), std::string::npos);
    EXPECT_NE(refused.error().message.find("srv-b"), std::string::npos);
    EXPECT_EQ(contents(a), before) << "nothing is merged";

    const auto merged = mergeDatabase(a, {path("b.db"), "srv-b-"});
    ASSERT_TRUE(merged) << merged.error().message;
    EXPECT_EQ(merged->layouts, 1);
    EXPECT_EQ(countOf(a, "SELECT COUNT(*) FROM run r JOIN layout l ON l.id = r.layout_id "
                         "WHERE l.name = 'srv-b-raidz2'"),
              2);
}

// Imported runs whose data is here already are left out, as a second import would be.
TEST_F(MergeTest, LeavesOutImportedDataThatIsHereAlready) {
    {
        auto b = open("b.db");
        importInto(b, "guest", "same line", 2e8);
        importInto(b, "guest", "other line", 2e8);
    }
    auto a = open("a.db");
    importInto(a, "guest", "same line\r\n", 2e8);
    const auto merged = mergeDatabase(a, {path("b.db"), ""});
    ASSERT_TRUE(merged) << merged.error().message;
    EXPECT_EQ(merged->runs, 1);
    EXPECT_EQ(merged->duplicateRuns, 1);
}

TEST_F(MergeTest, RefusesWhatIsNoDatabaseToMerge) {
    auto a = open("a.db");
    for (const auto& other : {path("missing.db"), path("a.db")}) {
        const auto r = mergeDatabase(a, {other, ""});
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
        EXPECT_NE(r.error().message.find(other), std::string::npos) << r.error().message;
    }
    std::ofstream(path("notes.txt")) << "not a database\n";
    const auto r = mergeDatabase(a, {path("notes.txt"), ""});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput) << r.error().message;
}

} // namespace
} // namespace lb
