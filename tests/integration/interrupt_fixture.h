// The fixture of the interruption tests (interrupt_test.cpp, cleanup_test.cpp): the real
// `layoutbench run` started as a child process on a small scenario (a dir baseline and a
// zfs-raidz1 pool on sparse file vdevs through zfs-fuse, fio and dd as workloads) and stopped
// while it works. The tests poll the SQLite database (read-only) and /proc to know where
// layoutbench is; every wait is bounded. They stop only processes they started: layoutbench, and
// after a kill -9 the tool process groups that layoutbench had created.
#pragma once

#include "tests/cli/process.h"
#include "tests/support/zfs_fuse.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <optional>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace lb::test::interrupt {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;
using Row = std::vector<std::string>;
using Rows = std::vector<Row>;

constexpr auto kBound = 30s;       // any single wait for layoutbench to reach a point
constexpr auto kResumeBound = 90s; // a whole resumed campaign (a few seconds normally)

std::string slurp(const std::string& path);
double secondsSince(SteadyClock::time_point t0);

// ---- /proc ----------------------------------------------------------------------------------

struct ProcInfo {
    pid_t pid = 0;
    pid_t ppid = 0;
    pid_t pgid = 0;
    char state = '?';
    unsigned long long start = 0; // clock ticks after boot: tells a reused pid apart
    std::string comm;
};

std::optional<ProcInfo> procInfo(pid_t pid);
std::vector<ProcInfo> allProcesses();
bool alive(const ProcInfo& p);
std::vector<ProcInfo> childrenOf(pid_t parent);
bool groupAlive(pid_t pgid);
std::string cmdlineOf(pid_t pid);
// Live processes working in `dir`: naming a path inside it on their command line (truncate,
// zpool, dd, layoutbench itself) or running with their working directory inside it (fio gets
// relative file names and the layout's directory as its working directory).
std::vector<std::string> processesUsing(const std::string& dir);

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

// Runs one query on a fresh read-only connection; nullopt when the database or the table does
// not exist yet (layoutbench creates them) or the query fails.
std::optional<Rows> tryQuery(const std::string& db, const std::string& sql,
                             std::string* error = nullptr);
Rows query(const std::string& db, const std::string& sql);
std::string scalar(const std::string& db, const std::string& sql);
// What must hold after any interruption: SQLite finds the file sound, and no metric exists
// without a finished, successful run.
void expectConsistent(const std::string& db);

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

    // What a kill -9 left: the campaign, its runs and its journal then.
    struct Killed {
        std::string campaignId;
        std::string runsSql; // every run: id, started_at, layout, workload, iteration, status,
                             // metrics
        Rows okBefore;
        std::vector<std::string> runningBefore; // run ids
        std::size_t settledBefore = 0;
        std::string maxStepBefore; // the journal's last step id
        std::string pendingBefore; // build steps with an undo due
        bool poolBefore = false;
    };
    // Runs the scenario (baseline first, then the ZFS layout; fio and dd, two iterations: 8
    // runs), kills layoutbench with SIGKILL at `point`, waits for the tools it left to end, and
    // checks the state the kill left. Fatal failures end the test (HasFatalFailure()).
    void killAt(KillPoint point, Killed& killed);
    void killThenResume(KillPoint point);

    static lb::test::ZfsFuse* zfs_;
};

} // namespace lb::test::interrupt
