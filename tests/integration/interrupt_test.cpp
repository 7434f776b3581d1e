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
// The tests poll the SQLite database (read-only) and /proc to know where layoutbench is; every
// wait is bounded. They stop only processes they started: layoutbench, and after a kill -9 the
// tool process groups that layoutbench had created.
#include "engine/store.h"
#include "tests/cli/process.h"
#include "tests/support/raw_sql.h"
#include "tests/support/zfs_fuse.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;
using Row = std::vector<std::string>;
using Rows = std::vector<Row>;

constexpr auto kBound = 30s;       // any single wait for layoutbench to reach a point
constexpr auto kResumeBound = 90s; // a whole resumed campaign (a few seconds normally)

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

struct ProcInfo {
    pid_t pid = 0;
    pid_t ppid = 0;
    pid_t pgid = 0;
    char state = '?';
    unsigned long long start = 0; // clock ticks after boot: tells a reused pid apart
    std::string comm;
};

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

// Live processes working in `dir`: naming a path inside it on their command line (truncate,
// zpool, dd, layoutbench itself) or running with their working directory inside it (fio gets
// relative file names and the layout's directory as its working directory).
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

// ---- the layoutbench child ------------------------------------------------------------------

// `layoutbench` started with posix_spawn in its own process group (as a shell starts a job),
// stdin from /dev/null, stdout and stderr to files. If a test ends while it still runs, it is
// killed together with the tool process groups it had started.
class CliProcess {
public:
    CliProcess(const std::vector<std::string>& argv, std::string outPath, std::string errPath)
        : outPath_(std::move(outPath)), errPath_(std::move(errPath)) {
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, outPath_.c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&actions, 2, errPath_.c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        sigset_t none;
        sigemptyset(&none);
        sigset_t defaults;
        sigemptyset(&defaults);
        for (int sig : {SIGINT, SIGTERM, SIGPIPE})
            sigaddset(&defaults, sig);
        posix_spawnattr_setsigmask(&attr, &none);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        posix_spawnattr_setpgroup(&attr, 0);
        posix_spawnattr_setflags(&attr,
                                 static_cast<short>(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                                    POSIX_SPAWN_SETSIGDEF));
        std::vector<char*> args;
        for (const auto& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        if (posix_spawn(&pid_, args[0], &actions, &attr, args.data(), environ) != 0)
            pid_ = -1;
        posix_spawnattr_destroy(&attr);
        posix_spawn_file_actions_destroy(&actions);
    }
    CliProcess(const CliProcess&) = delete;
    CliProcess& operator=(const CliProcess&) = delete;

    ~CliProcess() {
        if (pid_ <= 0 || reaped_)
            return;
        const auto tools = childrenOf(pid_);
        ::kill(pid_, SIGKILL);
        (void)waitFor(10s);
        for (const auto& t : tools)
            if (t.pgid == t.pid && alive(t)) // a tool group the runner created
                ::kill(-t.pgid, SIGKILL);
    }

    pid_t pid() const { return pid_; }
    bool started() const { return pid_ > 0; }

    // The exit status (128 + signal when killed), or nullopt if it still runs after `bound`.
    std::optional<int> waitFor(SteadyClock::duration bound) {
        const auto deadline = SteadyClock::now() + bound;
        while (!reaped_) {
            int status = 0;
            const pid_t r = ::waitpid(pid_, &status, WNOHANG);
            if (r == pid_) {
                reaped_ = true;
                exitCode_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
                break;
            }
            if (r == -1 || SteadyClock::now() >= deadline)
                return std::nullopt;
            std::this_thread::sleep_for(5ms);
        }
        return exitCode_;
    }

    bool running() { return started() && !waitFor(0s); }

    // kill -9 of layoutbench alone (its tools are in process groups of their own).
    std::optional<int> kill9() {
        ::kill(pid_, SIGKILL);
        return waitFor(10s);
    }

    std::string out() const { return slurp(outPath_); }
    std::string err() const { return slurp(errPath_); }

private:
    pid_t pid_ = -1;
    bool reaped_ = false;
    int exitCode_ = -1;
    std::string outPath_, errPath_;
};

// ---- the database, read-only ----------------------------------------------------------------

// Runs one query on a fresh read-only connection (layoutbench, another process, is writing the
// database); nullopt when the database or the table does not exist yet or the query fails.
std::optional<Rows> tryQuery(const std::string& db, const std::string& sql,
                             std::string* error = nullptr) {
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

// What must hold after any interruption: SQLite finds the file sound, and no metric exists
// without a finished, successful run.
void expectConsistent(const std::string& db) {
    EXPECT_EQ(scalar(db, "PRAGMA integrity_check"), "ok");
    EXPECT_TRUE(query(db, "PRAGMA foreign_key_check").empty());
    EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM run_sample m LEFT JOIN run r ON r.id = m.run_id "
                         "WHERE r.id IS NULL OR r.status <> 'ok'"),
              "0")
        << "metrics of runs that are missing or not 'ok'";
    // A successful run is written in one transaction with its metrics: none without them.
    EXPECT_EQ(scalar(db, "SELECT COUNT(*) FROM run r WHERE r.status = 'ok' AND NOT EXISTS "
                         "(SELECT 1 FROM run_sample m WHERE m.run_id = r.id)"),
              "0")
        << "'ok' runs without metrics (half-written)";
}

// ---- fixtures -------------------------------------------------------------------------------

// A per-test directory /var/tmp/layoutbench-test-interrupt-<test> holding the scenario, its
// work_dir (file vdevs, the dir layout, the pool's mount point), the database and the captured
// output; a pool lbi-intr-<test>. Both are removed before and after the test.
class InterruptFixture : public ::testing::Test {
protected:
    void SetUp() override {
        const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        dir_ = "/var/tmp/layoutbench-test-interrupt-" + test;
        pool_ = "lbi-intr-" + test;
        db_ = dir_ + "/results.db";
        scenario_ = dir_ + "/scenario.toml";
        cleanUp();
        fs::create_directories(dir_);
    }

    void TearDown() override {
        if (HasFailure() && fs::exists(db_)) {
            // What layoutbench did, for the reader of a failure.
            std::string journal;
            for (const auto& r : tryQuery(db_, "SELECT id, phase, status, argv, exit_code, output "
                                               "FROM plan_step ORDER BY id")
                                     .value_or(Rows{}))
                journal += "  " + r[0] + " " + r[1] + " " + r[2] + " " + r[3] + " exit " + r[4] +
                           (r[5].empty() ? "" : ": " + r[5]) + "\n";
            for (const auto& r : tryQuery(db_, "SELECT id, workload, iteration, status, reason "
                                               "FROM run ORDER BY id")
                                     .value_or(Rows{}))
                journal +=
                    "  run " + r[0] + " " + r[1] + " #" + r[2] + " " + r[3] + " " + r[4] + "\n";
            std::printf("[ info ] journal and runs of %s:\n%s", db_.c_str(), journal.c_str());
        }
        // Orphans of a killed layoutbench that a failed test left behind: only the tool process
        // groups our layoutbench had created.
        for (const auto& o : orphans_)
            if (alive(o) && o.pgid == o.pid)
                ::kill(-o.pgid, SIGKILL);
        cleanUp();
    }

    void cleanUp() {
        // zfs-fuse can answer "pool is busy" for a moment after the pool was used: retry.
        for (int i = 0; i < 10 && zfsChecked_ && lb::test::poolExists(pool_); ++i) {
            if (lb::test::runProcess({"zpool", "destroy", "-f", pool_}).exitCode != 0)
                std::this_thread::sleep_for(300ms);
        }
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    std::vector<std::string> cliArgs(std::vector<std::string> extra) const {
        std::vector<std::string> argv{LAYOUTBENCH_CLI, "run", scenario_};
        argv.insert(argv.end(), extra.begin(), extra.end());
        for (const char* a : {"--json", "--db"})
            argv.emplace_back(a);
        argv.push_back(db_);
        return argv;
    }

    std::unique_ptr<CliProcess> startRun(std::vector<std::string> extra, const std::string& tag) {
        return std::make_unique<CliProcess>(cliArgs(std::move(extra)), dir_ + "/" + tag + ".out",
                                            dir_ + "/" + tag + ".err");
    }

    std::string dir_, pool_, db_, scenario_;
    bool zfsChecked_ = false;
    std::vector<ProcInfo> orphans_;
};

// Tests that build a ZFS layout and run fio.
class InterruptTest : public InterruptFixture {
protected:
    static void SetUpTestSuite() { zfs_ = new lb::test::ZfsFuse(); }
    static void TearDownTestSuite() {
        delete zfs_;
        zfs_ = nullptr;
    }

    void SetUp() override {
        InterruptFixture::SetUp();
        if (!zfs_->available())
            GTEST_SKIP() << "ZFS not available: " << zfs_->why();
        zfsChecked_ = true;
        cleanUp(); // a pool left over from a crashed earlier run
        fs::create_directories(dir_);
        if (lb::test::runProcess({"fio", "--version"}).exitCode != 0)
            GTEST_SKIP() << "fio is not installed (apt-get install fio)";
    }

    struct ScenarioShape {
        bool zfsFirst = false;
        int iterations = 1;
        int fioRuntime = 1;
        bool randfile = false;
    };

    // Three 64 MiB sparse vdevs in raidz1 (pool lbi-intr-<test>, layout "z") and a dir
    // baseline ("base"); fio seq-write-1m on a 16 MiB file, optionally dd of 4 MiB.
    void writeScenario(const ScenarioShape& s) {
        std::ostringstream t;
        t << "name = \"intr\"\n"
          << "iterations = " << s.iterations << "\n"
          << "work_dir = \"" << dir_ << "\"\n"
          << "drop_caches = false\n"
          // These tests stop a campaign at chosen points of the sequential order.
          << "interleave = false\nbracket = false\n";
        for (int i = 1; i <= 3; ++i)
            t << "\n[[disks]]\nname = \"v" << i << "\"\nfile = \"v" << i
              << ".img\"\nsize = \"64MiB\"\n";
        const std::string zfs = "\n[[layouts]]\nname = \"z\"\nkind = \"zfs-raidz1\"\n"
                                "disks = [\"v1\", \"v2\", \"v3\"]\npool = \"" +
                                pool_ + "\"\nashift = 12\nrecordsize = \"128K\"\n";
        const std::string base =
            "\n[[layouts]]\nname = \"base\"\nkind = \"dir\"\npath = \".\"\nbaseline = true\n";
        t << (s.zfsFirst ? zfs + base : base + zfs);
        t << "\n[[workloads]]\nprobe = \"fio\"\npreset = \"seq-write-1m\"\nsize = \"16M\"\n"
          << "runtime = " << s.fioRuntime << "\n";
        if (s.randfile)
            t << "\n[[workloads]]\nprobe = \"randfile\"\nsize = \"4M\"\n";
        std::ofstream(scenario_) << t.str();
    }

    bool vdevFilesLeft() const {
        for (int i = 1; i <= 3; ++i)
            if (fs::exists(dir_ + "/v" + std::to_string(i) + ".img"))
                return true;
        return false;
    }

    // Polls the database until `sql` returns a row. Fails (nullopt) after `bound`, or at once
    // when layoutbench exits first.
    std::optional<Row> waitForRow(CliProcess& lb, const std::string& sql,
                                  std::chrono::milliseconds step = 10ms,
                                  SteadyClock::duration bound = kBound) {
        const auto deadline = SteadyClock::now() + bound;
        while (SteadyClock::now() < deadline) {
            if (auto rows = tryQuery(db_, sql); rows && !rows->empty())
                return rows->front();
            if (!lb.running()) {
                ADD_FAILURE() << "layoutbench exited (status " << lb.waitFor(0s).value_or(-1)
                              << ") before: " << sql << "\nstderr: " << lb.err();
                return std::nullopt;
            }
            std::this_thread::sleep_for(step);
        }
        ADD_FAILURE() << "not seen within the bound: " << sql;
        return std::nullopt;
    }

    // Waits for layoutbench to have a live child running `comm` (the tool, after its exec).
    // A missing tool is a failure only when `required`.
    std::optional<ProcInfo> waitForTool(CliProcess& lb, const std::string& comm,
                                        SteadyClock::duration bound = kBound,
                                        bool required = true) {
        const auto deadline = SteadyClock::now() + bound;
        while (SteadyClock::now() < deadline && lb.running()) {
            for (const auto& c : childrenOf(lb.pid()))
                if (c.comm == comm)
                    return c;
            std::this_thread::sleep_for(1ms);
        }
        if (required)
            ADD_FAILURE() << "no " << comm << " child of layoutbench seen; stderr: " << lb.err();
        return std::nullopt;
    }

    // Waits until `path` holds at least `bytes` (a workload's file growing).
    bool waitForFile(CliProcess& lb, const std::string& path, std::uintmax_t bytes) {
        const auto deadline = SteadyClock::now() + kBound;
        while (SteadyClock::now() < deadline && lb.running()) {
            std::error_code ec;
            if (fs::file_size(path, ec) >= bytes && !ec)
                return true;
            std::this_thread::sleep_for(10ms);
        }
        ADD_FAILURE() << path << " did not reach " << bytes << " bytes; stderr: " << lb.err();
        return false;
    }

    static std::string runningRunSql(const std::string& layout, int iteration) {
        return "SELECT r.id FROM run r JOIN layout l ON l.id = r.layout_id WHERE l.name = '" +
               layout + "' AND r.probe = 'fio' AND r.iteration = " + std::to_string(iteration) +
               " AND r.status = 'running'";
    }

    enum class KillPoint { ZfsRun, ZfsBuild, Baseline };
    void killThenResume(KillPoint point);

    static lb::test::ZfsFuse* zfs_;
};

lb::test::ZfsFuse* InterruptTest::zfs_ = nullptr;

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

    const auto run = query(
        db_,
        "SELECT status, reason, finished_at, exit_code, stdout || stderr FROM run WHERE id = " +
            runId);
    ASSERT_EQ(run.size(), 1u);
    EXPECT_EQ(run[0][0], "aborted");
    EXPECT_EQ(run[0][1], "stopped by the user");
    EXPECT_NE(run[0][2], "<null>") << "the stopped tool's output and times are recorded";
    // Politely: fio saw SIGINT and exited by itself (no SIGTERM or SIGKILL was needed). fio 3.33
    // says so on stdout, before its JSON.
    EXPECT_NE(run[0][4].find("terminating on signal 2"), std::string::npos) << run[0][4];
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
    EXPECT_NE(out.find("resume with: layoutbench run " + scenario_ + " --resume " + id +
                       " --db " + db_ + "\n"),
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

void InterruptTest::killThenResume(KillPoint point) {
    // Baseline first, then the ZFS layout; two workloads, two iterations: 8 runs.
    writeScenario({.zfsFirst = false, .iterations = 2, .fioRuntime = 1, .randfile = true});
    constexpr int kExpectedRuns = 2 * 2 * 2;
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
    const std::string campaignId = campaigns[0][0];
    EXPECT_EQ(campaigns[0][1], "running");
    // A run's metrics are one run_sample row of 12 bytes a metric (engine/store_internal.h).
    const std::string runsSql =
        "SELECT r.id, r.started_at, l.name, r.workload, r.iteration, r.status, "
        "(SELECT COALESCE(SUM(length(m.data) / 12), 0) FROM run_sample m WHERE m.run_id = r.id) "
        "FROM run r JOIN layout l ON "
        "l.id = r.layout_id ORDER BY r.id";
    const Rows before = query(db_, runsSql);
    Rows okBefore;
    std::vector<std::string> runningBefore;
    std::size_t settledBefore = 0;
    for (const auto& r : before) {
        if (r[5] == "ok")
            okBefore.push_back(r);
        if (r[5] == "ok" || r[5] == "failed")
            ++settledBefore;
        if (r[5] == "running")
            runningBefore.push_back(r[0]);
    }
    const auto maxStepBefore = scalar(db_, "SELECT COALESCE(MAX(id), 0) FROM plan_step");
    const auto pendingBefore =
        scalar(db_, "SELECT COUNT(*) FROM plan_step WHERE phase = 'build' AND status IN "
                    "('applied', 'running') AND undo_argv IS NOT NULL");
    const bool poolBefore = lb::test::poolExists(pool_);
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
