// `layoutbench cleanup --campaign N` (issue 14): after kill -9 of a campaign (interrupt_fixture.h:
// a dir baseline and a zfs-raidz1 pool on file vdevs through zfs-fuse), cleanup undoes what the
// journal shows built — the pool, its vdev files, the dir layout — without resuming: no run,
// no build step after it; the campaign is marked aborted with its interrupted run, the runs done
// before are kept as they were. Cleaning up again does nothing and succeeds. A campaign still
// running is refused (its lock), an unknown one is a usage error.
#include "engine/store/store.h"
#include "tests/integration/interrupt_fixture.h"

#include <nlohmann/json.hpp>

namespace {

using namespace lb::test::interrupt;

class CleanupTest : public InterruptTest {
protected:
    lb::test::ProcessResult cleanup(const std::string& campaign, bool json = true) const {
        std::vector<std::string> argv{LAYOUTBENCH_CLI, "cleanup", "--campaign",
                                      campaign,        "--db",    db_};
        if (json)
            argv.emplace_back("--json");
        return lb::test::runProcess(argv);
    }

    // Nothing of the campaign's layouts is left: pool, vdev files, the dir layout, processes,
    // and nothing in the journal is due for an undo.
    void expectNothingLeft() {
        EXPECT_FALSE(lb::test::poolExists(pool_));
        EXPECT_FALSE(vdevFilesLeft());
        EXPECT_FALSE(fs::exists(dir_ + "/layoutbench-base")) << "the dir layout is left";
        EXPECT_FALSE(fs::exists(dir_ + "/mnt-z")) << "the pool's mount point is left";
        const auto left = processesUsing(dir_);
        EXPECT_TRUE(left.empty()) << left.front();
        EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM plan_step WHERE phase = 'build' AND status "
                              "IN ('applied', 'running') AND undo_argv IS NOT NULL"),
                  "0");
    }

    void killThenCleanUp(KillPoint point);
};

void CleanupTest::killThenCleanUp(KillPoint point) {
    Killed killed;
    killAt(point, killed);
    if (HasFatalFailure())
        return;
    const auto runsBefore = query(db_, killed.runsSql);

    const auto t0 = SteadyClock::now();
    const auto r = cleanup(killed.campaignId);
    std::printf("[ info ] cleanup took %.2f s\n", secondsSince(t0));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const auto out = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(out.is_discarded()) << r.out;
    EXPECT_EQ(out.at("campaign"), std::stoll(killed.campaignId));
    EXPECT_EQ(out.value("status_before", ""), "running");
    EXPECT_EQ(out.value("status", ""), "aborted");
    EXPECT_TRUE(out.at("problems").empty()) << out.dump(2);
    EXPECT_EQ(out.value("aborted_runs", std::size_t{0}), killed.runningBefore.size());
    const auto undone = out.at("undone").get<std::vector<std::string>>();
    EXPECT_GE(undone.size(), static_cast<std::size_t>(std::stoul(killed.pendingBefore)))
        << out.dump(2);
    if (killed.poolBefore) {
        EXPECT_TRUE(std::any_of(undone.begin(), undone.end(), [&](const std::string& u) {
            return u.starts_with("zpool destroy") && u.find(pool_) != std::string::npos;
        })) << out.dump(2);
    }
    expectNothingLeft();

    // Not resumed: no run and no build step after the kill; the runs keep what they had, the
    // interrupted one is aborted and says why.
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM plan_step WHERE phase = 'build' AND id > " +
                              killed.maxStepBefore),
              "0");
    const auto runsAfter = query(db_, killed.runsSql);
    ASSERT_EQ(runsAfter.size(), runsBefore.size());
    for (std::size_t i = 0; i < runsAfter.size(); ++i) {
        if (runsBefore[i][5] != "running") {
            EXPECT_EQ(runsAfter[i], runsBefore[i]);
            continue;
        }
        EXPECT_EQ(runsAfter[i][5], "aborted");
        EXPECT_NE(scalar(db_, "SELECT reason FROM run WHERE id = " + runsAfter[i][0])
                      .find("cleaned up, not resumed"),
                  std::string::npos);
    }
    const auto campaign = query(db_, "SELECT status, finished_at FROM campaign");
    ASSERT_EQ(campaign.size(), 1u);
    EXPECT_EQ(campaign[0][0], "aborted");
    EXPECT_NE(campaign[0][1], "<null>");
    expectConsistent(db_);

    // Twice is harmless: nothing to undo, nothing changes, success.
    const auto steps = scalar(db_, "SELECT COUNT(*) FROM plan_step");
    const auto again = cleanup(killed.campaignId, false);
    EXPECT_EQ(again.exitCode, 0) << again.err;
    EXPECT_EQ(again.out,
              "campaign " + killed.campaignId + ": nothing left to undo; status aborted\n");
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM plan_step"), steps);
    EXPECT_EQ(query(db_, killed.runsSql), runsAfter);
    expectNothingLeft();
    expectConsistent(db_);
}

TEST_F(CleanupTest, Kill9DuringZfsFioRunThenCleanup) {
    killThenCleanUp(KillPoint::ZfsRun);
}

TEST_F(CleanupTest, Kill9WhileZfsPoolIsBuiltThenCleanup) {
    killThenCleanUp(KillPoint::ZfsBuild);
}

TEST_F(CleanupTest, Kill9DuringBaselineThenCleanup) {
    killThenCleanUp(KillPoint::Baseline);
}

// A campaign that still runs holds its lock: cleanup refuses it and undoes nothing under it.
TEST_F(CleanupTest, RunningCampaignIsRefused) {
    writeScenario({.zfsFirst = true, .iterations = 1, .fioRuntime = 20, .randfile = false});
    auto lb = startRun({}, "run");
    ASSERT_TRUE(lb->started());
    ASSERT_TRUE(waitForRow(*lb, runningRunSql("z", 0)));
    ASSERT_TRUE(waitForTool(*lb, "fio"));
    const std::string id = scalar(db_, "SELECT id FROM campaign");
    const auto r = cleanup(id);
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("campaign " + id + " is in use"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
    EXPECT_TRUE(lb::test::poolExists(pool_)) << "the running campaign's pool was left alone";
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM plan_step WHERE phase = 'undo'"), "0");
    EXPECT_TRUE(lb->running());
    // Ctrl-C: the campaign tears down its own layout.
    ASSERT_EQ(::kill(-lb->pid(), SIGINT), 0);
    ASSERT_TRUE(lb->waitFor(kBound));
    expectNothingLeft();
}

using CleanupCliTest = InterruptFixture;

TEST_F(CleanupCliTest, BadCampaignIsUsageError) {
    {
        auto store = lb::Store::open(db_);
        ASSERT_TRUE(store) << store.error().message;
    }
    for (const auto& args : std::vector<std::vector<std::string>>{{"--campaign", "9999", "--json"},
                                                                  {"--campaign", "9999"},
                                                                  {"--campaign", "x"},
                                                                  {"--campaign", "0"},
                                                                  {}}) {
        std::vector<std::string> argv{LAYOUTBENCH_CLI, "cleanup", "--db", db_};
        argv.insert(argv.end(), args.begin(), args.end());
        const auto r = lb::test::runProcess(argv);
        const std::string what = args.empty() ? "(none)" : args[1];
        EXPECT_EQ(r.exitCode, 2) << what << ": " << r.err;
        EXPECT_EQ(r.out, "") << what;
        ASSERT_FALSE(r.err.empty()) << what;
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
        EXPECT_NE(r.err.find("--campaign"), std::string::npos) << r.err;
    }
    const auto r =
        lb::test::runProcess({LAYOUTBENCH_CLI, "cleanup", "--campaign", "9999", "--db", db_});
    EXPECT_EQ(r.err, "layoutbench: --campaign: no campaign 9999 in " + db_ + "\n");
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM campaign"), "0");
}

} // namespace
