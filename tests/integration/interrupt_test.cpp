// "Nothing lost" (issue 3): the real `layoutbench run` is started as a child process on a small
// scenario (a dir baseline and a zfs-raidz1 pool on sparse file vdevs through zfs-fuse, fio and
// dd as workloads) and interrupted while it works:
//  - Ctrl-C (SIGINT to its process group) during a fio run on the ZFS layout: the tool is
//    stopped politely, the run is 'aborted' ("stopped by the user"), the pool and its vdev files
//    are gone, the campaign is 'aborted', exit status 1, the database is consistent.
//  - kill -9 during a fio run on the ZFS layout, while the pool is being created, and during the
//    baseline: the database passes integrity_check and has no metric of an unfinished run; then
//    `run --resume` undoes the half-built layout from the journal, rebuilds it, runs only the
//    missing runs (exactly one ok run per layout, workload and iteration; the earlier ok runs are
//    kept as they were) and keeps the interrupted run as 'aborted'.
//  - `--resume` of a campaign that does not exist is a usage error (exit 2, one line).
// The fixture is in interrupt_fixture.h.
#include "engine/store/store.h"
#include "tests/integration/interrupt_fixture.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace {

using namespace lb::test::interrupt;

// ---- Ctrl-C ---------------------------------------------------------------------------------

TEST_F(InterruptTest, CtrlCDuringZfsFioRunStopsPolitelyAndTearsDown) {
    // The ZFS layout comes first so the test does not wait for the baseline's 20 s run.
    writeScenario({.zfsFirst = true, .iterations = 1, .fioRuntime = 20, .randfile = false});
    auto lb = startRun({}, "run");
    ASSERT_TRUE(lb->started());

    auto runRow = waitForRow(*lb, runningRunSql("z", 0));
    ASSERT_TRUE(runRow);
    const std::string runId = (*runRow)[0];
    auto fio = waitForTool(*lb, "fio");
    ASSERT_TRUE(fio);
    ASSERT_TRUE(lb::test::poolExists(pool_));
    // Wait until fio is writing (its file on the pool has data): a SIGINT during fio's own
    // start-up, before it installs its handler, kills it without output, which tells nothing
    // about the polite stop.
    ASSERT_TRUE(waitForFile(*lb, dir_ + "/mnt-z/lb-fio-seq-write-1m.dat", 1 << 20));
    std::vector<ProcInfo> fioProcs; // fio and the job processes it forked
    for (const auto& p : allProcesses())
        if (p.pgid == fio->pgid)
            fioProcs.push_back(p);

    // What a terminal's Ctrl-C does: SIGINT to the foreground job's process group. The tools
    // are in groups of their own, so only layoutbench receives it.
    const auto t0 = SteadyClock::now();
    ASSERT_EQ(::kill(-lb->pid(), SIGINT), 0);
    const auto status = lb->waitFor(kBound);
    const double stopSeconds = secondsSince(t0);
    ASSERT_TRUE(status) << "layoutbench still runs " << kBound.count() << " s after SIGINT";
    std::printf("[ info ] SIGINT to exit of layoutbench: %.2f s\n", stopSeconds);
    RecordProperty("sigint_to_exit_ms", static_cast<int>(stopSeconds * 1000));
    EXPECT_EQ(*status, 130) << "128 + SIGINT, as a shell reports it: " << lb->err();
    EXPECT_LT(stopSeconds, 30.0);

    // stdout is only the final JSON.
    const auto out = nlohmann::json::parse(lb->out(), nullptr, false);
    ASSERT_FALSE(out.is_discarded()) << lb->out();
    EXPECT_EQ(out.value("status", ""), "aborted");

    const auto run =
        query(db_, "SELECT status, reason, finished_at, exit_code FROM run WHERE id = " + runId);
    ASSERT_EQ(run.size(), 1u);
    EXPECT_EQ(run[0][0], "aborted");
    EXPECT_EQ(run[0][1], "stopped by the user");
    EXPECT_NE(run[0][2], "<null>") << "the stopped tool's output and times are recorded";
    // Politely: fio saw SIGINT and exited by itself (no SIGTERM or SIGKILL was needed). fio 3.33
    // says so on stdout, before its JSON (read through the store: output of 1 KiB or more is
    // kept packed).
    {
        auto store = lb::Store::open(db_);
        ASSERT_TRUE(store) << store.error().message;
        const auto runs = store->storedRuns({std::nullopt, lb::RunQuery::Output::All});
        ASSERT_TRUE(runs) << runs.error().message;
        const auto stopped = std::find_if(runs->begin(), runs->end(), [&](const auto& r) {
            return std::to_string(r.id) == runId;
        });
        ASSERT_NE(stopped, runs->end());
        const std::string output = stopped->stdoutText + stopped->stderrText;
        EXPECT_NE(output.find("terminating on signal 2"), std::string::npos) << output;
    }
    EXPECT_NE(run[0][3], "-1") << "fio exited by itself, it was not killed";
    EXPECT_LT(stopSeconds, 5.0) << "stopped within the SIGINT grace period";
    // Nothing started after the stop: the baseline was not built.
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM run"), "1");
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM plan_step ps JOIN layout l ON l.id = "
                          "ps.layout_id WHERE l.name = 'base'"),
              "0");

    for (const auto& p : fioProcs)
        EXPECT_FALSE(alive(p)) << "fio process " << p.pid << " (" << p.comm << ") remains";
    const auto left = processesUsing(dir_);
    EXPECT_TRUE(left.empty()) << "still working in " << dir_ << ": " << left.front();
    EXPECT_FALSE(lb::test::poolExists(pool_));
    EXPECT_FALSE(vdevFilesLeft());
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM plan_step WHERE phase = 'build' AND status "
                          "NOT IN ('undone') AND undo_argv IS NOT NULL"),
              "0")
        << "every build step with an undo was undone";

    const auto campaign = query(db_, "SELECT status, finished_at FROM campaign");
    ASSERT_EQ(campaign.size(), 1u);
    EXPECT_EQ(campaign[0][0], "aborted");
    EXPECT_NE(campaign[0][1], "<null>");
    expectConsistent(db_);
}

// Ctrl-C with the human output: the command to resume is printed. The baseline comes first and
// is interrupted, so the ZFS layout is never built.
TEST_F(InterruptTest, CtrlCDuringBaselinePrintsResumeCommand) {
    writeScenario({.zfsFirst = false, .iterations = 1, .fioRuntime = 20, .randfile = false});
    std::vector<std::string> argv{LAYOUTBENCH_CLI, "run", scenario_, "--db", db_};
    CliProcess lb(argv, dir_ + "/run.out", dir_ + "/run.err");
    ASSERT_TRUE(lb.started());
    ASSERT_TRUE(waitForRow(lb, runningRunSql("base", 0)));
    ASSERT_TRUE(waitForTool(lb, "fio"));
    ASSERT_EQ(::kill(-lb.pid(), SIGINT), 0);
    const auto status = lb.waitFor(kBound);
    ASSERT_TRUE(status) << "layoutbench still runs " << kBound.count() << " s after SIGINT";
    EXPECT_EQ(*status, 130) << lb.err();
    const std::string out = lb.out();
    const std::string id = scalar(db_, "SELECT id FROM campaign");
    // The database is named: following the line resumes this campaign, not one in the default
    // database.
    EXPECT_NE(out.find("resume with: layoutbench run " + scenario_ + " --resume " + id + " --db " +
                       db_ + "\n"),
              std::string::npos)
        << out;
    EXPECT_EQ(scalar(db_, "SELECT status || ' ' || reason FROM run"),
              "aborted stopped by the user");
    EXPECT_EQ(scalar(db_, "SELECT status FROM campaign"), "aborted");
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM plan_step WHERE argv LIKE '[\"zpool\"%'"), "0");
    EXPECT_FALSE(fs::exists(dir_ + "/layoutbench-base")) << "the dir layout was torn down";
    const auto left = processesUsing(dir_);
    EXPECT_TRUE(left.empty()) << left.front();
    expectConsistent(db_);
}

// ---- kill -9 and --resume -------------------------------------------------------------------

} // namespace

namespace lb::test::interrupt {

void InterruptTest::killThenResume(KillPoint point) {
    constexpr int kExpectedRuns = 2 * 2 * 2;
    Killed killed;
    killAt(point, killed);
    if (HasFatalFailure())
        return;
    const auto& [campaignId, runsSql, okBefore, runningBefore, settledBefore, maxStepBefore,
                 pendingBefore, poolBefore] = killed;

    // Resume.
    const auto t0 = SteadyClock::now();
    auto resumed = startRun({"--resume", campaignId}, "resume");
    const auto status = resumed->waitFor(kResumeBound);
    ASSERT_TRUE(status) << "resume still runs after " << kResumeBound.count() << " s";
    std::printf("[ info ] resume took %.1f s\n", secondsSince(t0));
    EXPECT_EQ(*status, 0) << resumed->err();
    const auto out = nlohmann::json::parse(resumed->out(), nullptr, false);
    ASSERT_FALSE(out.is_discarded()) << resumed->out();
    EXPECT_EQ(out.value("status", ""), "done")
        << out.value("problems", nlohmann::json::array()).dump();
    EXPECT_EQ(out.value("campaign", std::int64_t{0}), std::stoll(campaignId));
    EXPECT_EQ(out.value("skipped_runs", std::size_t{0}), settledBefore);
    EXPECT_EQ(out.value("failed_runs", std::size_t{1}), 0u)
        << out.value("problems", nlohmann::json::array()).dump();
    EXPECT_EQ(scalar(db_, "SELECT status FROM campaign WHERE id = " + campaignId), "done");
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM campaign"), "1");

    // Exactly one ok run per (layout, workload, iteration); nothing failed, nothing left running.
    const auto perKey =
        query(db_, "SELECT l.name, r.workload, r.iteration, COUNT(*) FROM run r JOIN layout l ON "
                   "l.id = r.layout_id WHERE r.status = 'ok' AND r.campaign_id = " +
                       campaignId + " GROUP BY l.name, r.workload, r.iteration");
    EXPECT_EQ(perKey.size(), static_cast<std::size_t>(kExpectedRuns));
    for (const auto& k : perKey)
        EXPECT_EQ(k[3], "1") << k[0] << " " << k[1] << " iteration " << k[2];
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM run WHERE status = 'ok'"),
              std::to_string(kExpectedRuns));
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM run WHERE status IN ('failed', 'running')"), "0");

    // The runs already ok were kept, not run again; the interrupted one stays, as aborted.
    const Rows after = query(db_, runsSql);
    std::map<std::string, Row> afterById;
    for (const auto& r : after)
        afterById[r[0]] = r;
    for (const auto& r : okBefore) {
        ASSERT_TRUE(afterById.count(r[0])) << "ok run " << r[0] << " disappeared";
        EXPECT_EQ(afterById[r[0]], r) << "ok run " << r[0] << " changed";
    }
    for (const auto& id : runningBefore) {
        const auto row =
            query(db_, "SELECT status, reason, (SELECT COUNT(*) FROM run_sample WHERE run_id = "
                       "run.id) FROM run WHERE id = " +
                           id);
        ASSERT_EQ(row.size(), 1u);
        EXPECT_EQ(row[0][0], "aborted");
        EXPECT_NE(row[0][1].find("interrupted"), std::string::npos) << row[0][1];
        EXPECT_EQ(row[0][2], "0");
    }
    EXPECT_EQ(after.size(), static_cast<std::size_t>(kExpectedRuns) + runningBefore.size());

    // Recovery undid the journal's pending steps before anything was built again.
    const auto firstRebuild = scalar(
        db_, "SELECT COALESCE(MIN(id), 1000000000) FROM plan_step WHERE phase = 'build' AND id > " +
                 maxStepBefore);
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM plan_step WHERE phase = 'undo' AND id > " +
                              maxStepBefore + " AND id < " + firstRebuild),
              pendingBefore)
        << "one undo per pending journal step, before the rebuild";
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM plan_step WHERE id <= " + maxStepBefore +
                              " AND phase = 'build' AND status IN ('applied', 'running') AND "
                              "undo_argv IS NOT NULL"),
              "0");
    if (poolBefore) {
        EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM plan_step WHERE phase = 'undo' AND status = "
                              "'applied' AND argv LIKE '[\"zpool\",\"destroy\"%' AND id > " +
                                  maxStepBefore + " AND id < " + firstRebuild),
                  "1")
            << "the leftover pool was destroyed by the recovery";
    }
    if (point != KillPoint::Baseline) {
        EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM plan_step WHERE phase = 'build' AND argv "
                              "LIKE '[\"zpool\",\"create\"%' AND status = 'undone' AND id > " +
                                  maxStepBefore),
                  "1")
            << "the pool was built again, and torn down at the end";
    }
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM plan_step WHERE phase = 'build' AND status IN "
                          "('applied', 'running') AND undo_argv IS NOT NULL"),
              "0");

    EXPECT_FALSE(lb::test::poolExists(pool_));
    EXPECT_FALSE(vdevFilesLeft());
    EXPECT_FALSE(fs::exists(dir_ + "/layoutbench-base"));
    const auto left = processesUsing(dir_);
    EXPECT_TRUE(left.empty()) << left.front();
    expectConsistent(db_);
}

} // namespace lb::test::interrupt

namespace {

using namespace lb::test::interrupt;

TEST_F(InterruptTest, Kill9DuringZfsFioRunThenResume) {
    killThenResume(KillPoint::ZfsRun);
}

TEST_F(InterruptTest, Kill9WhileZfsPoolIsBuiltThenResume) {
    killThenResume(KillPoint::ZfsBuild);
}

TEST_F(InterruptTest, Kill9DuringBaselineThenResume) {
    killThenResume(KillPoint::Baseline);
}

// ---- --resume of nothing --------------------------------------------------------------------

using InterruptCliTest = InterruptFixture;

TEST_F(InterruptCliTest, ResumeOfUnknownCampaignIsUsageError) {
    {
        auto store = lb::Store::open(db_);
        ASSERT_TRUE(store) << store.error().message;
    }
    std::ofstream(scenario_) << "name = \"intr\"\n"; // never read: the campaign is looked up
    for (const bool json : {true, false}) {
        std::vector<std::string> argv{LAYOUTBENCH_CLI, "run",  scenario_, "--resume",
                                      "9999",          "--db", db_};
        if (json)
            argv.emplace_back("--json");
        const auto r = lb::test::runProcess(argv);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_EQ(r.out, "");
        ASSERT_FALSE(r.err.empty());
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
        EXPECT_NE(r.err.find("--resume"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("9999"), std::string::npos) << r.err;
    }
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM campaign"), "0");
    EXPECT_EQ(scalar(db_, "SELECT COUNT(*) FROM run"), "0");
    EXPECT_EQ(scalar(db_, "PRAGMA integrity_check"), "ok");
}

} // namespace
