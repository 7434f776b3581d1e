// The interruption tests' fixture (see interrupt_fixture.h).
#include "tests/integration/interrupt_fixture.h"

#include "tests/support/raw_sql.h"

#include <fstream>
#include <sstream>

namespace lb::test::interrupt {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

double secondsSince(SteadyClock::time_point t0) {
    return std::chrono::duration<double>(SteadyClock::now() - t0).count();
}

// ---- /proc ----------------------------------------------------------------------------------

std::optional<ProcInfo> procInfo(pid_t pid) {
    const std::string text = slurp("/proc/" + std::to_string(pid) + "/stat");
    const auto open = text.find('(');
    const auto close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open)
        return std::nullopt;
    ProcInfo p;
    p.pid = pid;
    p.comm = text.substr(open + 1, close - open - 1);
    std::istringstream in(text.substr(close + 1));
    std::vector<std::string> f;
    for (std::string field; in >> field;)
        f.push_back(field);
    // After the command: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
    // utime stime cutime cstime priority nice threads itrealvalue starttime ...
    if (f.size() < 20)
        return std::nullopt;
    p.state = f[0].empty() ? '?' : f[0][0];
    p.ppid = static_cast<pid_t>(std::stol(f[1]));
    p.pgid = static_cast<pid_t>(std::stol(f[2]));
    p.start = std::stoull(f[19]);
    return p;
}

std::vector<ProcInfo> allProcesses() {
    std::vector<ProcInfo> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
        const std::string name = e.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        if (auto p = procInfo(static_cast<pid_t>(std::stol(name))); p && p->state != 'Z')
            out.push_back(*p);
    }
    return out;
}

bool alive(const ProcInfo& p) {
    auto now = procInfo(p.pid);
    return now && now->start == p.start && now->state != 'Z';
}

std::vector<ProcInfo> childrenOf(pid_t parent) {
    std::vector<ProcInfo> out;
    for (const auto& p : allProcesses())
        if (p.ppid == parent)
            out.push_back(p);
    return out;
}

bool groupAlive(pid_t pgid) {
    for (const auto& p : allProcesses())
        if (p.pgid == pgid)
            return true;
    return false;
}

std::string cmdlineOf(pid_t pid) {
    std::string s = slurp("/proc/" + std::to_string(pid) + "/cmdline");
    for (auto& c : s)
        if (c == '\0')
            c = ' ';
    return s;
}

std::vector<std::string> processesUsing(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& p : allProcesses()) {
        if (p.pid == getpid())
            continue;
        const std::string cmd = cmdlineOf(p.pid);
        std::error_code ec;
        const std::string cwd =
            fs::read_symlink("/proc/" + std::to_string(p.pid) + "/cwd", ec).string();
        if (cmd.find(dir + "/") != std::string::npos || cwd == dir || cwd.starts_with(dir + "/"))
            out.push_back(std::to_string(p.pid) + " (" + p.comm + ", cwd " + cwd + "): " + cmd);
    }
    return out;
}

// ---- the database, read-only ----------------------------------------------------------------

std::optional<Rows> tryQuery(const std::string& db, const std::string& sql, std::string* error) {
    return lb::test::queryReadOnly(db, sql, error);
}

Rows query(const std::string& db, const std::string& sql) {
    std::string error;
    auto rows = tryQuery(db, sql, &error);
    if (!rows) {
        ADD_FAILURE() << "query failed: " << sql << ": " << error;
        return {};
    }
    return *rows;
}

std::string scalar(const std::string& db, const std::string& sql) {
    auto rows = query(db, sql);
    return rows.empty() || rows[0].empty() ? "<no row>" : rows[0][0];
}

void expectConsistent(const std::string& db) {
    EXPECT_EQ(scalar(db, "PRAGMA integrity_check"), "ok");
    EXPECT_TRUE(query(db, "PRAGMA foreign_key_check").empty());
    EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM run_sample m LEFT JOIN run r ON r.id = m.run_id "
                         "WHERE r.id IS NULL OR r.status <> 'ok'"),
              "0")
        << "metric rows of runs that are missing or not 'ok'";
    // A successful run is written in one transaction with its metrics: none without them.
    EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM run r WHERE r.status = 'ok' AND NOT EXISTS "
                         "(SELECT 1 FROM run_sample m WHERE m.run_id = r.id)"),
              "0")
        << "'ok' runs without metrics (half-written)";
}

lb::test::ZfsFuse* InterruptTest::zfs_ = nullptr;

void InterruptTest::killAt(KillPoint point, Killed& killed) {
    writeScenario({.zfsFirst = false, .iterations = 2, .fioRuntime = 1, .randfile = true});
    auto lb = startRun({}, "run");
    ASSERT_TRUE(lb->started());

    switch (point) {
    case KillPoint::ZfsRun:
        // The second iteration, so the layout already has an ok run that must not be repeated.
        ASSERT_TRUE(waitForRow(*lb, runningRunSql("z", 1)));
        ASSERT_TRUE(waitForTool(*lb, "fio"));
        break;
    case KillPoint::Baseline:
        ASSERT_TRUE(waitForRow(*lb, runningRunSql("base", 1)));
        ASSERT_TRUE(waitForTool(*lb, "fio"));
        break;
    case KillPoint::ZfsBuild:
        // The journal row of `zpool create` is written before the command starts; the command
        // takes about 0.15 s here. Kill while it runs if we see it, else right after.
        ASSERT_TRUE(waitForRow(*lb,
                               "SELECT ps.status FROM plan_step ps JOIN layout l ON l.id = "
                               "ps.layout_id WHERE l.name = 'z' AND ps.phase = 'build' AND "
                               "ps.argv LIKE '[\"zpool\",\"create\"%'",
                               1ms));
        (void)waitForTool(*lb, "zpool", 500ms, false);
        break;
    }
    // The tools layoutbench runs now; they outlive it.
    const auto tools = childrenOf(lb->pid());
    orphans_ = tools;
    ASSERT_EQ(lb->kill9(), 128 + SIGKILL);
    std::string killedAt;
    for (const auto& t : tools)
        killedAt += " " + t.comm + "[" + std::to_string(t.pid) + "]";
    std::printf("[ info ] killed layoutbench; its tools then:%s\n", killedAt.c_str());

    // Let the orphans finish (fio runs 1 s, zpool create well under that): recovery must not
    // race a zpool create still running. After 15 s, stop the tool process groups layoutbench
    // had created, and only those.
    const auto killedAtTime = SteadyClock::now();
    while (!processesUsing(dir_).empty() && SteadyClock::now() < killedAtTime + 15s)
        std::this_thread::sleep_for(20ms);
    if (!processesUsing(dir_).empty()) {
        for (const auto& t : tools)
            if (t.pgid == t.pid && groupAlive(t.pgid))
                ::kill(-t.pgid, SIGKILL);
        std::this_thread::sleep_for(500ms);
    }
    std::printf("[ info ] the orphaned tools were gone %.2f s after the kill\n",
                secondsSince(killedAtTime));
    const auto orphansLeft = processesUsing(dir_);
    EXPECT_TRUE(orphansLeft.empty()) << orphansLeft.front();

    // The state kill -9 left.
    expectConsistent(db_);
    const auto campaigns = query(db_, "SELECT id, status FROM campaign");
    ASSERT_EQ(campaigns.size(), 1u);
    killed.campaignId = campaigns[0][0];
    EXPECT_EQ(campaigns[0][1], "running");
    killed.runsSql =
        "SELECT r.id, r.started_at, l.name, r.workload, r.iteration, r.status, "
        "(SELECT COALESCE(SUM(length(m.data) / 12), 0) FROM run_sample m WHERE m.run_id = r.id) "
        "FROM run r JOIN layout l ON "
        "l.id = r.layout_id ORDER BY r.id";
    const Rows before = query(db_, killed.runsSql);
    auto& okBefore = killed.okBefore;
    auto& runningBefore = killed.runningBefore;
    for (const auto& r : before) {
        if (r[5] == "ok")
            okBefore.push_back(r);
        if (r[5] == "ok" || r[5] == "failed")
            ++killed.settledBefore;
        if (r[5] == "running")
            runningBefore.push_back(r[0]);
    }
    killed.maxStepBefore = scalar(db_, "SELECT COALESCE(MAX(id), 0) FROM plan_step");
    const auto& pendingBefore = killed.pendingBefore =
        scalar(db_, "SELECT COUNT(*) FROM plan_step WHERE phase = 'build' AND status IN "
                    "('applied', 'running') AND undo_argv IS NOT NULL");
    const bool poolBefore = killed.poolBefore = lb::test::poolExists(pool_);
    switch (point) {
    case KillPoint::ZfsRun:
        EXPECT_TRUE(poolBefore) << "the pool is left behind by the kill";
        EXPECT_EQ(runningBefore.size(), 1u);
        EXPECT_EQ(okBefore.size(), 4u + 2u) << "baseline: 4 runs; z: fio and dd of iteration 0";
        break;
    case KillPoint::Baseline:
        EXPECT_FALSE(poolBefore);
        EXPECT_EQ(runningBefore.size(), 1u);
        EXPECT_EQ(okBefore.size(), 2u) << "baseline iteration 0: fio and dd";
        break;
    case KillPoint::ZfsBuild:
        EXPECT_EQ(okBefore.size(), 4u);
        break;
    }
    std::printf("[ info ] after the kill: %zu ok run(s), %zu running, %s journal step(s) to "
                "undo, pool %s\n",
                okBefore.size(), runningBefore.size(), pendingBefore.c_str(),
                poolBefore ? "left behind" : "absent");
    EXPECT_NE(pendingBefore, "0") << "a layout was half-built or built when killed";
}

} // namespace lb::test::interrupt
