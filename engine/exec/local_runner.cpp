// The local runner: starts a Command as a child process on this machine with Boost.Process v2,
// captures stdout and stderr (streaming each chunk to the caller), enforces the timeout and the
// cancel flag by stopping the child's whole process group politely (SIGINT, SIGTERM, SIGKILL),
// and records exit status, times and CPU use. Also RecordingRunner, the dry-run runner.

// clang-format off
// These must stay before the Boost.Process headers.
// Boost.Process v2 otherwise uses boost::filesystem, a compiled library we do not link.
#define BOOST_PROCESS_USE_STD_FS 1
// Boost 1.81's config.hpp names boost::optional without including it when
// BOOST_PROCESS_USE_STD_FS is set.
#include <boost/optional.hpp>
// clang-format on

#include "engine/exec/runner.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/readable_pipe.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/start_dir.hpp>
#include <boost/process/v2/stdio.hpp>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace lb {

namespace {

namespace asio = boost::asio;
namespace bp = boost::process::v2;
using Clock = std::chrono::steady_clock;

// How often the cancel flag, the timeout and the escalation deadlines are looked at.
constexpr std::chrono::milliseconds kPollInterval{50};
// After the child exits, how long its output pipes may stay open (held by something it left
// running) before we stop what is left of its process group.
constexpr std::chrono::milliseconds kDrainAfterExit{2000};
// After SIGKILL, how long we keep waiting for the pipes to close. Whatever still holds them
// then has left the process group; we stop reading rather than hang.
constexpr std::chrono::milliseconds kPipeGiveUpAfterKill{2000};
constexpr std::size_t kReadChunk = 64 * 1024;

std::string isoUtc(std::chrono::system_clock::time_point tp) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(tp.time_since_epoch());
    const std::time_t secs = static_cast<std::time_t>(ms.count() / 1000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[40];
    const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    std::snprintf(buf + n, sizeof buf - n, ".%03dZ", static_cast<int>(ms.count() % 1000));
    return buf;
}

double seconds(const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

// A file descriptor that closes itself.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
    Fd& operator=(Fd&& o) noexcept {
        reset(std::exchange(o.fd_, -1));
        return *this;
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() { reset(); }
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }
    void reset(int fd = -1) {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = fd;
    }

private:
    int fd_ = -1;
};

// The environment the child gets: ours, with the command's entries added or replacing ours.
std::vector<std::string> childEnvironment(const Command& cmd) {
    std::map<std::string, std::string> overrides;
    for (const auto& [name, value] : cmd.env)
        overrides[name] = value;
    std::vector<std::string> out;
    for (char** e = environ; e && *e; ++e) {
        const std::string entry(*e);
        const auto eq = entry.find('=');
        if (overrides.count(entry.substr(0, eq)))
            continue;
        out.push_back(entry);
    }
    for (const auto& [name, value] : overrides)
        out.push_back(name + "=" + value);
    return out;
}

std::string lookupEnv(const std::vector<std::string>& env, std::string_view name) {
    for (const auto& entry : env)
        if (entry.size() > name.size() && entry[name.size()] == '=' && entry.starts_with(name))
            return entry.substr(name.size() + 1);
    return {};
}

bool isExecutableFile(const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// execvp's lookup, done here so that "not found" is an error with a clear message rather
// than a failed exec, and so that the child's PATH (which the command may set) is the one used.
Expected<std::filesystem::path> resolveProgram(const Command& cmd,
                                               const std::vector<std::string>& env) {
    if (cmd.program.find('/') != std::string::npos) {
        std::filesystem::path p(cmd.program);
        // A relative path is relative to the directory the child starts in, as for execve.
        if (p.is_relative() && !cmd.cwd.empty())
            p = std::filesystem::path(cmd.cwd) / p;
        std::error_code ec;
        if (!std::filesystem::exists(p, ec))
            return runtimeError(cmd.program + ": program does not exist");
        if (!isExecutableFile(p))
            return runtimeError(cmd.program + ": program is not an executable file");
        return p;
    }
    std::string path = lookupEnv(env, "PATH");
    if (path.empty())
        path = "/usr/local/bin:/usr/bin:/bin";
    std::size_t begin = 0;
    while (begin <= path.size()) {
        auto end = path.find(':', begin);
        if (end == std::string::npos)
            end = path.size();
        // An empty entry means "the current directory" to execvp; we do not search it.
        if (end > begin) {
            const auto candidate =
                std::filesystem::path(path.substr(begin, end - begin)) / cmd.program;
            if (isExecutableFile(candidate))
                return candidate;
        }
        begin = end + 1;
    }
    return runtimeError(cmd.program + ": program not found in PATH");
}

Expected<void> validate(const Command& cmd) {
    if (cmd.program.empty())
        return badInput("command has no program");
    for (const auto& a : cmd.args)
        if (a.find('\0') != std::string::npos)
            return badInput(cmd.program + ": an argument contains a NUL byte");
    for (const auto& [name, value] : cmd.env) {
        if (name.empty() || name.find('=') != std::string::npos ||
            name.find('\0') != std::string::npos || value.find('\0') != std::string::npos)
            return badInput(cmd.program + ": invalid environment variable name '" + name + "'");
    }
    if (!cmd.cwd.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_directory(cmd.cwd, ec))
            return runtimeError(cmd.cwd + ": working directory does not exist");
    }
    return {};
}

// The child's standard input: /dev/null (a benchmark tool must never sit waiting for input), or
// a pipe that already holds the command's secret and is closed behind it, so the secret is read
// once and then end-of-file. A pipe's contents are readable by nobody but the two ends, unlike
// argv and the environment. Written before the child starts, so it must fit in the pipe: a
// secret is short, and up to PIPE_BUF bytes fit whole in every pipe.
Expected<Fd> stdinFor(const Command& cmd) {
    if (cmd.secretStdin.empty()) {
        Fd devNull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
        if (devNull.get() < 0)
            return runtimeError(std::string("/dev/null: cannot open: ") + std::strerror(errno));
        return devNull;
    }
    if (cmd.secretStdin.size() > PIPE_BUF)
        return badInput(cmd.program + ": the secret input is longer than " +
                        std::to_string(PIPE_BUF) + " bytes");
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) == -1)
        return runtimeError(cmd.program + ": cannot create pipe: " + std::strerror(errno));
    Fd readEnd(fds[0]), writeEnd(fds[1]);
    ssize_t n;
    do {
        n = ::write(writeEnd.get(), cmd.secretStdin.data(), cmd.secretStdin.size());
    } while (n == -1 && errno == EINTR);
    if (n != static_cast<ssize_t>(cmd.secretStdin.size()))
        return runtimeError(cmd.program +
                            ": cannot write its input to a pipe: " + std::strerror(errno));
    return readEnd;
}

// Runs in the forked child just before execve (so only async-signal-safe calls).
struct ChildSetup {
    bp::error_code on_exec_setup(bp::posix::default_launcher&, const bp::filesystem::path&,
                                 const char* const*) {
        // Own process group, so stopping the command reaches the processes it starts too, and
        // a Ctrl-C in our terminal is ours to turn into a polite stop, not the child's.
        // Because this runs before execve and the launcher returns only after execve, the
        // group exists by the time the parent can signal it.
        if (::setpgid(0, 0) == -1)
            return {errno, bp::system_category()};
        // Blocked or ignored signals survive execve; a tool must be stoppable and must see
        // SIGPIPE, whatever our own process does with them.
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        for (int sig : {SIGINT, SIGTERM, SIGPIPE, SIGQUIT, SIGXFSZ})
            ::sigaction(sig, &dfl, nullptr);
        // If layoutbench dies (kill -9), the tool is told to stop and clean up rather than run
        // on unwatched and race a --resume. The runner's thread waits for the child for its
        // whole life, so the thread-scoped death signal is the process's in practice.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
#ifdef CLOSE_RANGE_CLOEXEC
        // Boost 1.81's close_all_fds skips the descriptors between stderr and its own error
        // pipe (a typo in close_handles.ipp), so mark everything above stderr close-on-exec.
        // Close-on-exec rather than close: the launcher's error pipe must survive until exec.
        // Failure (kernel < 5.11) leaves Boost's partial closing, which is all we can do.
        ::close_range(3U, ~0U, CLOSE_RANGE_CLOEXEC);
#endif
        return {};
    }

    // Boost 1.81 calls exit() in the child when execve fails, which runs our process's atexit
    // handlers and static destructors in the child. Leave with _exit instead. (The variadic
    // signature matches both the arity Boost tests for and the one it calls.)
    template <typename... Ignored> void on_exec_error(Ignored&&...) {
        ::_exit(127);
    }
};

struct ProcessGroupSignaller {
    pid_t pgid;
    void send(int sig) const { ::kill(-pgid, sig); }
};

// One execution of one command: the asio objects and the state of the stop escalation.
class Execution {
public:
    Execution(asio::io_context& ctx, pid_t pid, const Command& cmd, const RunOptions& opts,
              ProcessResult& result, Fd outRead, Fd errRead)
        : ctx_(ctx), pid_(pid), group_{pid}, opts_(opts), result_(result), out_(ctx), err_(ctx),
          pidfd_(ctx), tick_(ctx) {
        out_.assign(outRead.release());
        err_.assign(errRead.release());
        if (cmd.timeout)
            deadline_ = Clock::now() + *cmd.timeout;
    }

    void run() {
        read(out_, outBuf_, result_.stdoutText, OutputStream::Stdout, outOpen_);
        read(err_, errBuf_, result_.stderrText, OutputStream::Stderr, errOpen_);
        // A pidfd becomes readable when the child exits; without one (kernel < 5.3) the poll
        // below notices the exit instead.
        const long pidfd = ::syscall(SYS_pidfd_open, pid_, 0);
        if (pidfd >= 0) {
            pidfd_.assign(static_cast<int>(pidfd));
            pidfd_.async_wait(asio::posix::stream_descriptor::wait_read,
                              [this](const bp::error_code& ec) {
                                  if (!ec)
                                      checkExited();
                              });
        }
        tick();
        ctx_.run();
    }

private:
    enum class Stage { Running, Interrupted, Terminated, Killed };

    void read(asio::readable_pipe& pipe, std::vector<char>& buf, std::string& sink,
              OutputStream which, bool& open) {
        pipe.async_read_some(asio::buffer(buf), [this, &pipe, &buf, &sink, which,
                                                 &open](const bp::error_code& ec, std::size_t n) {
            if (n > 0) {
                sink.append(buf.data(), n);
                if (opts_.onOutput)
                    opts_.onOutput(which, std::string_view(buf.data(), n));
            }
            if (ec) {
                open = false;
                finishIfDone();
                return;
            }
            read(pipe, buf, sink, which, open);
        });
    }

    // The child is waited for with WNOWAIT: it stays a zombie until Runner::run reaps it, so
    // its pid, which is also the process group id, cannot be reused while we may still signal
    // the group.
    void checkExited() {
        if (exited_)
            return;
        siginfo_t info{};
        const int r = ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT);
        // ECHILD: someone set SIGCHLD to SIG_IGN and the kernel reaped it; it is gone all the
        // same, and run() reports that it could not get the status.
        if ((r == 0 && info.si_pid == pid_) || (r == -1 && errno == ECHILD)) {
            exited_ = true;
            exitedAt_ = Clock::now();
            finishIfDone();
        }
    }

    void finishIfDone() {
        if (exited_ && !outOpen_ && !errOpen_)
            ctx_.stop();
    }

    void tick() {
        tick_.expires_after(kPollInterval);
        tick_.async_wait([this](const bp::error_code& ec) {
            if (ec)
                return;
            checkExited();
            escalate(Clock::now());
            tick();
        });
    }

    void escalate(Clock::time_point now) {
        switch (stage_) {
        case Stage::Running:
            if (opts_.cancel && opts_.cancel->load()) {
                result_.cancelled = true;
                stopGroup(now);
            } else if (deadline_ && now >= *deadline_) {
                result_.timedOut = true;
                stopGroup(now);
            } else if (exited_ && now - exitedAt_ >= kDrainAfterExit) {
                // The child is gone but something it started still holds its output: a
                // stray fio or bonnie++ would skew the next measurement, so stop it too.
                stopGroup(now);
            }
            break;
        case Stage::Interrupted:
            if (now >= stageDeadline_) {
                group_.send(SIGTERM);
                stage_ = Stage::Terminated;
                stageDeadline_ = now + opts_.graceTerminate;
            }
            break;
        case Stage::Terminated:
            if (now >= stageDeadline_) {
                group_.send(SIGKILL);
                stage_ = Stage::Killed;
                stageDeadline_ = now + kPipeGiveUpAfterKill;
            }
            break;
        case Stage::Killed:
            // A child in uninterruptible I/O (a hung NFS or iSCSI target) dies only when the
            // I/O ends; its status is part of the record, so we wait for it.
            if (exited_ && now >= stageDeadline_) {
                bp::error_code ignored;
                out_.close(ignored);
                err_.close(ignored);
                outOpen_ = errOpen_ = false;
                finishIfDone();
            }
            break;
        }
    }

    void stopGroup(Clock::time_point now) {
        group_.send(SIGINT);
        stage_ = Stage::Interrupted;
        stageDeadline_ = now + opts_.graceInterrupt;
    }

    asio::io_context& ctx_;
    pid_t pid_;
    ProcessGroupSignaller group_;
    const RunOptions& opts_;
    ProcessResult& result_;
    asio::readable_pipe out_;
    asio::readable_pipe err_;
    asio::posix::stream_descriptor pidfd_;
    asio::steady_timer tick_;
    std::vector<char> outBuf_ = std::vector<char>(kReadChunk);
    std::vector<char> errBuf_ = std::vector<char>(kReadChunk);
    bool outOpen_ = true;
    bool errOpen_ = true;
    bool exited_ = false;
    Clock::time_point exitedAt_{};
    std::optional<Clock::time_point> deadline_;
    Stage stage_ = Stage::Running;
    Clock::time_point stageDeadline_{};
};

// Makes sure a started child never outlives run() unreaped, even if a callback throws.
class Reaper {
public:
    explicit Reaper(pid_t pid) : pid_(pid) {}
    Reaper(const Reaper&) = delete;
    Reaper& operator=(const Reaper&) = delete;
    ~Reaper() { killAndReap(); }
    void killAndReap() {
        if (pid_ <= 0)
            return;
        // The group, and the child itself in case it failed before setpgid.
        ::kill(-pid_, SIGKILL);
        ::kill(pid_, SIGKILL);
        int status = 0;
        rusage usage{};
        reap(status, usage);
    }
    // wait4 rather than Boost's wait() or getrusage(RUSAGE_CHILDREN): wait4 gives the CPU
    // time of exactly this child (including the children it waited for), while
    // RUSAGE_CHILDREN is process-wide and would mix in children that runners on other
    // threads reaped meanwhile.
    bool reap(int& status, rusage& usage) {
        pid_t r;
        do {
            r = ::wait4(pid_, &status, 0, &usage);
        } while (r == -1 && errno == EINTR);
        pid_ = -1;
        return r > 0;
    }

private:
    pid_t pid_;
};

// The child's ends of its pipes and ours. Our ends are close-on-exec so no other child (from
// this or another runner) inherits them and keeps our pipes from reaching end-of-file.
struct ChildPipes {
    Fd outRead, outWrite, errRead, errWrite, stdinRead;
};

Expected<ChildPipes> childPipes(const Command& cmd) {
    ChildPipes p;
    int outFds[2], errFds[2];
    if (::pipe2(outFds, O_CLOEXEC) == -1)
        return runtimeError(cmd.program + ": cannot create pipe: " + std::strerror(errno));
    p.outRead.reset(outFds[0]);
    p.outWrite.reset(outFds[1]);
    if (::pipe2(errFds, O_CLOEXEC) == -1)
        return runtimeError(cmd.program + ": cannot create pipe: " + std::strerror(errno));
    p.errRead.reset(errFds[0]);
    p.errWrite.reset(errFds[1]);
    LB_TRY(input, stdinFor(cmd));
    p.stdinRead = std::move(input);
    return p;
}

// Strings as execve takes them: pointers, then a null.
std::vector<const char*> cStrings(const std::vector<std::string>& strings) {
    std::vector<const char*> out;
    for (const auto& s : strings)
        out.push_back(s.c_str());
    out.push_back(nullptr);
    return out;
}

// The child's ends of its pipes as its standard input, output and error, passed to the launcher
// as a temporary: Boost 1.81 calls an initializer's on_exec_setup only where it fits the
// initializer's constness, and process_stdio's is not const, so a const one is skipped in silence
// and the child writes to our own output.
bp::process_stdio stdioOf(const ChildPipes& pipes) {
    return bp::process_stdio{pipes.stdinRead.get(), pipes.outWrite.get(), pipes.errWrite.get()};
}

// Starts the child on the pipes, in its own process group (ChildSetup); its pid. A child that
// was forked but could not start is killed and reaped here.
Expected<pid_t> launch(asio::io_context& ctx, const Command& cmd, const std::filesystem::path& exe,
                       const std::vector<std::string>& env, const ChildPipes& pipes) {
    auto envp = cStrings(env);
    // argv[0] is the program as the command names it, as a shell would pass it.
    std::vector<std::string> args{cmd.program};
    args.insert(args.end(), cmd.args.begin(), cmd.args.end());
    auto argvVec = cStrings(args);
    const char** argv = argvVec.data();
    bp::posix::default_launcher launcher;
    launcher.env = envp.data();
    bp::error_code ec;
    pid_t pid = -1;
    try {
        // The executor overload: 1.81's io_context& overload with an error_code drops the
        // error_code and throws.
        auto proc = cmd.cwd.empty()
                        ? launcher(ctx.get_executor(), ec, exe, argv, stdioOf(pipes), ChildSetup{})
                        : launcher(ctx.get_executor(), ec, exe, argv, stdioOf(pipes),
                                   bp::process_start_dir{cmd.cwd}, ChildSetup{});
        // We reap the child ourselves (wait4, for its CPU time); the process object must
        // not wait for or kill that pid later, when it may belong to someone else.
        pid = proc.id();
        proc.detach();
    } catch (const std::exception& e) {
        // Thrown after fork (e.g. no pidfd_open): the child may be running.
        if (launcher.pid > 0)
            Reaper{launcher.pid}.killAndReap();
        return runtimeError(cmd.program + ": cannot start: " + e.what());
    }
    if (ec || pid <= 0) {
        // Boost leaves a child whose exec failed unreaped.
        if (launcher.pid > 0)
            Reaper{launcher.pid}.killAndReap();
        return runtimeError(cmd.program + ": cannot start" +
                            (cmd.cwd.empty() ? "" : " in " + cmd.cwd) + ": " + ec.message());
    }
    return pid;
}

// How the child ended, its CPU time and when: from wait4's status and usage.
void recordExit(ProcessResult& result, bool reaped, int status, const rusage& usage,
                Clock::time_point startedSteady) {
    result.wallSeconds = std::chrono::duration<double>(Clock::now() - startedSteady).count();
    result.finishedAt = isoUtc(std::chrono::system_clock::now());
    result.cpuUserSeconds = seconds(usage.ru_utime);
    result.cpuSystemSeconds = seconds(usage.ru_stime);
    // Boost's exit_code() folds "killed by signal N" into N; decode the raw status.
    if (!reaped)
        return;
    if (WIFEXITED(status))
        result.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        result.termSignal = WTERMSIG(status);
}

class LocalRunner : public Runner {
public:
    Expected<ProcessResult> run(const Command& cmd, const RunOptions& opts) override {
        LB_TRY_VOID(validate(cmd));
        const auto env = childEnvironment(cmd);
        LB_TRY(exe, resolveProgram(cmd, env));
        ProcessResult result;
        if (opts.cancel && opts.cancel->load()) {
            result.cancelled = true;
            result.startedAt = result.finishedAt = isoUtc(std::chrono::system_clock::now());
            return result;
        }
        LB_TRY(pipes, childPipes(cmd));
        asio::io_context ctx;
        const auto startedWall = std::chrono::system_clock::now();
        const auto startedSteady = Clock::now();
        LB_TRY(pid, launch(ctx, cmd, exe, env, pipes));
        Reaper reaper(pid);
        // The child has its copies; ours would keep the pipes open forever.
        pipes.outWrite.reset();
        pipes.errWrite.reset();
        pipes.stdinRead.reset();
        result.startedAt = isoUtc(startedWall);
        Execution(ctx, pid, cmd, opts, result, std::move(pipes.outRead), std::move(pipes.errRead))
            .run();
        int status = 0;
        rusage usage{};
        // Fails only if something else reaped our child (SIGCHLD set to SIG_IGN): the output is
        // still worth recording; exitCode stays -1, "unknown".
        const bool reaped = reaper.reap(status, usage);
        recordExit(result, reaped, status, usage, startedSteady);
        return result;
    }

    std::string target() const override { return "local"; }
};

} // namespace

std::unique_ptr<Runner> makeLocalRunner() {
    return std::make_unique<LocalRunner>();
}

Expected<ProcessResult> RecordingRunner::run(const Command& cmd, const RunOptions&) {
    commands_.push_back(cmd);
    ProcessResult result;
    result.exitCode = 0;
    result.startedAt = result.finishedAt = isoUtc(std::chrono::system_clock::now());
    return result;
}

} // namespace lb
