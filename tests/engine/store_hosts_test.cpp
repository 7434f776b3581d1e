// Each run names the machine it ran on (its own, else its campaign's, else its layout's), a
// database of schema 15 gives its runs theirs, merging keeps them, and a comparison never mixes
// the runs of several machines: it refuses, naming them, unless one host is picked.
#include "engine/store/store.h"
#include "engine/store/store_merge.h"
#include "tests/support/raw_sql.h"
#include "tests/support/scratch_dir.h"

#include <gtest/gtest.h>

using namespace lb;

namespace {

// A directory of the test's own, with the database results.db and others by name.
struct TempDir {
    test::ScratchDir scratch{"hosts"};
    std::string path(const std::string& name = "results.db") const { return scratch.path(name); }
};

lb::Run bonnieRun(double putBlock, std::string host = "") {
    lb::Run r;
    r.workload = "bonnie";
    r.probe = "bonnie";
    r.stdoutText = "raw " + std::to_string(putBlock);
    r.status = RunStatus::Ok;
    r.host = std::move(host);
    r.metrics = {{"bonnie.put_block", putBlock, Unit::BytesPerSecond}};
    return r;
}

std::vector<std::string> hostsOfRuns(Store& s) {
    std::vector<std::string> out;
    const auto runs = s.runs();
    EXPECT_TRUE(runs) << runs.error().message;
    for (const auto& r : runs ? *runs : std::vector<RunSummary>{})
        out.push_back(r.host);
    return out;
}

// Runs of layouts "a" and "b" on machines m1 (put_block 100, 110, 120 on a; 200, 210, 220 on b)
// and m2 (ten times those).
void storeTwoMachines(Store& s) {
    for (const auto& [layout, base] : {std::pair{"a", 100.0}, std::pair{"b", 200.0}}) {
        auto id = s.ensureLayout(layout, "imported", "{}", std::nullopt);
        ASSERT_TRUE(id) << id.error().message;
        for (int i = 0; i < 3; ++i) {
            ASSERT_TRUE(s.insertRun(*id, bonnieRun(base + 10 * i, "m1")));
            ASSERT_TRUE(s.insertRun(*id, bonnieRun(10 * (base + 10 * i), "m2")));
        }
    }
}

} // namespace

TEST(StoreHosts, RunTakesItsOwnHostElseItsCampaignsElseItsLayouts) {
    TempDir tmp;
    auto s = Store::open(tmp.path());
    ASSERT_TRUE(s) << s.error().message;
    auto layoutHost = s->ensureHost("srv-layout");
    auto campaignHost = s->ensureHost("srv-campaign");
    ASSERT_TRUE(layoutHost && campaignHost);
    auto layout = s->ensureLayout("l", "dir", "{}", *layoutHost);
    ASSERT_TRUE(layout);
    auto campaign = s->createCampaign({"c", "", "", *campaignHost});
    ASSERT_TRUE(campaign) << campaign.error().message;

    ASSERT_TRUE(s->insertRun(*layout, bonnieRun(1, "virtiotest")));
    ASSERT_TRUE(s->insertRun(*layout, bonnieRun(2)));
    lb::Run inCampaign = bonnieRun(3);
    inCampaign.campaignId = *campaign;
    ASSERT_TRUE(s->insertRun(*layout, inCampaign));

    EXPECT_EQ(hostsOfRuns(*s),
              (std::vector<std::string>{"virtiotest", "srv-layout", "srv-campaign"}));
    const auto stored = s->storedRuns();
    ASSERT_TRUE(stored);
    ASSERT_EQ(stored->size(), 3U);
    EXPECT_EQ(stored->front().host, "virtiotest");
    const auto hosts = s->layoutHosts("l");
    ASSERT_TRUE(hosts);
    EXPECT_EQ(*hosts, (std::vector<std::string>{"srv-campaign", "srv-layout", "virtiotest"}));
}

// Schema 15 kept no host per run: migrating gives each its campaign's host, else its layout's.
TEST(StoreHosts, MigratesSchemaFifteenGivingRunsTheirCampaignsOrLayoutsHost) {
    TempDir tmp;
    {
        auto s = Store::open(tmp.path());
        ASSERT_TRUE(s);
        auto layoutHost = s->ensureHost("srv-layout");
        auto campaignHost = s->ensureHost("srv-campaign");
        ASSERT_TRUE(layoutHost && campaignHost);
        auto withHost = s->ensureLayout("l", "dir", "{}", *layoutHost);
        auto withoutHost = s->ensureLayout("bare", "dir", "{}", std::nullopt);
        auto campaign = s->createCampaign({"c", "", "", *campaignHost});
        ASSERT_TRUE(withHost && withoutHost && campaign);
        lb::Run inCampaign = bonnieRun(1);
        inCampaign.campaignId = *campaign;
        ASSERT_TRUE(s->insertRun(*withHost, inCampaign));
        ASSERT_TRUE(s->insertRun(*withHost, bonnieRun(2)));
        ASSERT_TRUE(s->insertRun(*withoutHost, bonnieRun(3)));
        test::downgradeToSchema15(*s);
        EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM pragma_table_info('run') WHERE name = "
                                     "'host_id'"),
                  0);
    }
    auto s = Store::open(tmp.path());
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->schemaVersion(), Store::latestSchemaVersion);
    EXPECT_EQ(*s->integrityCheck(), "ok");
    EXPECT_EQ(hostsOfRuns(*s), (std::vector<std::string>{"srv-campaign", "srv-layout", ""}));
}

// Schema 16 had no index of runs by layout and host: migrating adds it, and a layout's hosts are
// read from it alone (the query plan names it as covering), the same hosts as before.
TEST(StoreHosts, MigratesSchemaSixteenAndReadsALayoutsHostsFromItsIndex) {
    TempDir tmp;
    {
        auto s = Store::open(tmp.path());
        ASSERT_TRUE(s);
        storeTwoMachines(*s);
        test::downgradeToSchema16(*s);
        EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM sqlite_schema WHERE name = "
                                     "'run_layout_host'"),
                  0);
        const auto before = s->layoutHosts("b");
        ASSERT_TRUE(before);
        EXPECT_EQ(*before, (std::vector<std::string>{"m1", "m2"}));
    }
    auto s = Store::open(tmp.path());
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->schemaVersion(), Store::latestSchemaVersion);
    EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM sqlite_schema WHERE name = "
                                 "'run_layout_host'"),
              1);
    const auto hosts = s->layoutHosts("b");
    ASSERT_TRUE(hosts);
    EXPECT_EQ(*hosts, (std::vector<std::string>{"m1", "m2"}));
    const std::string details = test::queryPlanText(
        tmp.path(), "SELECT r.host_id FROM run r WHERE r.layout_id = 1 AND r.status IN ('ok', "
                    "'failed') AND (NULL IS NULL OR r.campaign_id = NULL)");
    EXPECT_NE(details.find("COVERING INDEX run_layout_host"), std::string::npos) << details;
}

// A host first made in a transaction that rolled back is made again by the next run that names
// it, and runs whose host changes and comes back each name their own.
TEST(StoreHosts, HostOfARolledBackTransactionIsMadeAgain) {
    TempDir tmp;
    auto s = Store::open(tmp.path());
    ASSERT_TRUE(s) << s.error().message;
    auto layout = s->ensureLayout("a", "imported", "{}", std::nullopt);
    ASSERT_TRUE(layout) << layout.error().message;
    {
        auto tx = s->transaction();
        ASSERT_TRUE(tx);
        ASSERT_TRUE(s->insertRun(*layout, bonnieRun(100, "rolled-back")));
    }
    for (const char* host : {"rolled-back", "m1", "m1", "rolled-back", ""})
        ASSERT_TRUE(s->insertRun(*layout, bonnieRun(100, host)));
    EXPECT_EQ(hostsOfRuns(*s),
              (std::vector<std::string>{"rolled-back", "m1", "m1", "rolled-back", ""}));
    EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM host WHERE name = 'rolled-back'"), 1);
    EXPECT_EQ(test::queryInt(*s, "SELECT COUNT(*) FROM run r WHERE r.host_id IS NOT NULL AND NOT "
                                 "EXISTS (SELECT 1 FROM host h WHERE h.id = r.host_id)"),
              0);
}

// Merged runs keep their machine, found by its name in the database they are merged into.
TEST(StoreHosts, MergeKeepsEachRunsHost) {
    TempDir tmp;
    {
        auto other = Store::open(tmp.path("other.db"));
        ASSERT_TRUE(other);
        storeTwoMachines(*other);
    }
    auto s = Store::open(tmp.path());
    ASSERT_TRUE(s);
    ASSERT_TRUE(s->ensureHost("first-here")); // host ids differ between the two databases
    const auto merged = mergeDatabase(*s, {tmp.path("other.db"), ""});
    ASSERT_TRUE(merged) << merged.error().message;
    const auto hosts = s->layoutHosts("b");
    ASSERT_TRUE(hosts);
    EXPECT_EQ(*hosts, (std::vector<std::string>{"m1", "m2"}));
    EXPECT_EQ(hostsOfRuns(*s).front(), "m1");
}

TEST(StoreHosts, CompareRefusesALayoutOfSeveralHostsNamingThem) {
    TempDir tmp;
    auto s = Store::open(tmp.path());
    ASSERT_TRUE(s);
    storeTwoMachines(*s);
    const auto mixed = compareStoredLayouts(*s, "a", "b", std::nullopt);
    ASSERT_FALSE(mixed);
    EXPECT_EQ(mixed.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(mixed.error().message,
              "host: the baseline layout 'a' holds runs of 2 hosts (m1, m2): runs of different "
              "machines are not compared as one; name one");

    const auto unknown =
        compareStoredLayouts(*s, "a", "b", std::nullopt, std::nullopt, HostChoice{"m3", "m3"});
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.error().message,
              "host: layout 'a' has no runs on host 'm3' (its runs are on m1, m2)");
}

// One host picked, each side is that machine's runs alone: the medians are m1's (110 and 210)
// or m2's (1100 and 2100), never a mix.
TEST(StoreHosts, CompareOfOneHostReadsThatMachinesRunsAlone) {
    TempDir tmp;
    auto s = Store::open(tmp.path());
    ASSERT_TRUE(s);
    storeTwoMachines(*s);
    for (const auto& [host, baseline, candidate] :
         {std::tuple{"m1", 110.0, 210.0}, std::tuple{"m2", 1100.0, 2100.0}}) {
        const auto cmp = compareStoredLayouts(*s, "a", "b", std::nullopt, std::nullopt,
                                              HostChoice{std::string(host), std::string(host)});
        ASSERT_TRUE(cmp) << cmp.error().message;
        ASSERT_EQ(cmp->metrics.size(), 1U);
        const auto& m = cmp->metrics.front();
        EXPECT_EQ(m.baselineSamples, 3U) << host;
        EXPECT_EQ(m.candidateSamples, 3U) << host;
        EXPECT_DOUBLE_EQ(m.baselineMedian, baseline) << host;
        EXPECT_DOUBLE_EQ(m.candidateMedian, candidate) << host;
    }
}
