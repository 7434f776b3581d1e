// Tests of the local runner against real processes (sh, printf, sleep, head), of the dry-run
// RecordingRunner, and of how a Command is shown to people. Every run is bounded: a command
// that could hang has a timeout, and timing is only checked against generous upper bounds.

#include "engine/exec/command.h"
#include "engine/exec/runner.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace lb {
namespace {

using namespace std::chrono_literals;

// Long enough for a loaded CI machine, short enough that a hang fails the test quickly.
constexpr auto kSafety = std::chrono::milliseconds(20000);
constexpr double kGenerousSeconds = 10.0;

Command shell(std::string script) {
    Command c;
    c.program = "sh";
    c.args = {"-c", std::move(script)};
    c.timeout = kSafety;
    return c;
}

ProcessResult runOk(const Command& cmd, const RunOptions& opts = {}) {
    auto runner = makeLocalRunner();
    auto r = runner->run(cmd, opts);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message);
    return r ? *r : ProcessResult{};
}

// A temporary directory removed at the end of the test.
struct TempDir {
    std::filesystem::path path;
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "lb-runner-XXXXXX").string();
        path = ::mkdtemp(tmpl.data());
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

// "2024-05-01T12:34:56.789Z". (Not std::regex: GCC 12 warns inside it at -O1 with sanitizers.)
bool looksLikeIsoUtcMillis(const std::string& s) {
    const std::string shape = "dddd-dd-ddTdd:dd:dd.dddZ";
    if (s.size() != shape.size())
        return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const bool ok = shape[i] == 'd' ? (s[i] >= '0' && s[i] <= '9') : s[i] == shape[i];
        if (!ok)
            return false;
    }
    return true;
}

bool processGoneOrZombie(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    if (!stat)
        return true;
    std::string line;
    std::getline(stat, line);
    const auto close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z';
}

TEST(LocalRunner, CapturesStdoutAndStderrSeparately) {
    const auto r = runOk(shell("echo to-out; echo to-err >&2"));
    EXPECT_EQ(r.stdoutText, "to-out\n");
    EXPECT_EQ(r.stderrText, "to-err\n");
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_FALSE(r.termSignal);
    EXPECT_TRUE(r.ok());
    EXPECT_TRUE(looksLikeIsoUtcMillis(r.startedAt)) << r.startedAt;
    EXPECT_TRUE(looksLikeIsoUtcMillis(r.finishedAt)) << r.finishedAt;
    EXPECT_LE(r.startedAt, r.finishedAt);
    EXPECT_GT(r.wallSeconds, 0.0);
    EXPECT_LT(r.wallSeconds, kGenerousSeconds);
}

TEST(LocalRunner, NonZeroExitIsAResultNotAnError) {
    const auto r = runOk(shell("exit 3"));
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_FALSE(r.termSignal);
    EXPECT_FALSE(r.ok());
}

TEST(LocalRunner, ArgumentsArriveIntactWithoutAShell) {
    const std::vector<std::string> tricky = {"two words",
                                             "\"double\"",
                                             "'single'",
                                             "$(id)",
                                             "`id`",
                                             "a; rm -rf /tmp/nothing",
                                             "line1\nline2",
                                             "-n",
                                             "--help",
                                             "*",
                                             "~",
                                             "$HOME",
                                             "",
                                             "back\\slash",
                                             "a|b&&c>d",
                                             "  padded  "};
    Command c;
    c.program = "printf";
    c.args = {"[%s]\n"};
    c.args.insert(c.args.end(), tricky.begin(), tricky.end());
    c.timeout = kSafety;
    std::string expected;
    for (const auto& a : tricky)
        expected += "[" + a + "]\n";
    const auto r = runOk(c);
    EXPECT_EQ(r.stdoutText, expected);
    EXPECT_EQ(r.stderrText, "");
    EXPECT_EQ(r.exitCode, 0);
}

TEST(LocalRunner, Argv0IsTheProgramAsNamed) {
    // Not the resolved /usr/bin/sh: tools that look at their own name see what a shell gives.
    const auto r = runOk(shell("head -c 3 /proc/$$/cmdline"));
    EXPECT_EQ(r.stdoutText, std::string("sh\0", 3));
}

TEST(LocalRunner, AbsoluteProgramPathWorks) {
    Command c{"/bin/sh", {"-c", "echo absolute"}, {}, {}, kSafety, {}};
    EXPECT_EQ(runOk(c).stdoutText, "absolute\n");
}

TEST(LocalRunner, EnvironmentIsInheritedWithCommandEntriesAdded) {
    auto c = shell(R"(printf '%s|%s|%s' "$LB_RUNNER_TEST" "$HOME" "$PATH")");
    c.env = {{"LB_RUNNER_TEST", "hello world; $(id)"}, {"HOME", "/overridden"}};
    const char* path = std::getenv("PATH");
    ASSERT_NE(path, nullptr);
    EXPECT_EQ(runOk(c).stdoutText, std::string("hello world; $(id)|/overridden|") + path);
}

TEST(LocalRunner, CommandPathIsUsedToFindTheProgram) {
    TempDir dir;
    const auto tool = dir.path / "lb-only-here";
    {
        std::ofstream f(tool);
        f << "#!/bin/sh\necho found-via-command-path\n";
    }
    std::filesystem::permissions(tool, std::filesystem::perms::owner_all);
    Command c{"lb-only-here", {}, {{"PATH", dir.path.string() + ":/usr/bin:/bin"}}, {},
              kSafety,        {}};
    EXPECT_EQ(runOk(c).stdoutText, "found-via-command-path\n");
}

TEST(LocalRunner, WorkingDirectoryIsHonoured) {
    TempDir dir;
    auto c = shell("pwd -P");
    c.cwd = dir.path.string();
    EXPECT_EQ(runOk(c).stdoutText, std::filesystem::canonical(dir.path).string() + "\n");
}

TEST(LocalRunner, StdinIsDevNull) {
    // cat would wait forever on an inherited terminal or pipe.
    const auto r = runOk(shell("cat; echo after-cat"));
    EXPECT_EQ(r.stdoutText, "after-cat\n");
    EXPECT_FALSE(r.timedOut);
}

TEST(LocalRunner, MissingProgramIsAnError) {
    auto runner = makeLocalRunner();
    auto r = runner->run(Command{"lb-no-such-program-xyz", {"--version"}, {}, {}, kSafety, {}});
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().kind, ErrorKind::Runtime);
    EXPECT_EQ(r.error().message, "lb-no-such-program-xyz: program not found in PATH");

    auto abs = runner->run(Command{"/nonexistent/lb-prog", {}, {}, {}, kSafety, {}});
    ASSERT_FALSE(abs.has_value());
    EXPECT_NE(abs.error().message.find("/nonexistent/lb-prog"), std::string::npos);
}

TEST(LocalRunner, FailedExecIsAnErrorAndLeavesNoZombie) {
    TempDir dir;
    const auto bogus = dir.path / "not-a-program";
    {
        std::ofstream f(bogus);
        f << "neither ELF nor #!\n";
    }
    std::filesystem::permissions(bogus, std::filesystem::perms::owner_all);
    auto r = makeLocalRunner()->run(Command{bogus.string(), {}, {}, {}, kSafety, {}});
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().kind, ErrorKind::Runtime);
    EXPECT_NE(r.error().message.find("cannot start"), std::string::npos) << r.error().message;
    // Every child of this test process has been reaped.
    errno = 0;
    EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1);
    EXPECT_EQ(errno, ECHILD);
}

TEST(LocalRunner, MissingWorkingDirectoryIsAnError) {
    auto c = shell("true");
    c.cwd = "/nonexistent/lb/dir";
    auto r = makeLocalRunner()->run(c);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().kind, ErrorKind::Runtime);
    EXPECT_EQ(r.error().message, "/nonexistent/lb/dir: working directory does not exist");
}

TEST(LocalRunner, FiveMegabytesOnBothStreamsDoNotDeadlock) {
    const auto r =
        runOk(shell("head -c 5000000 /dev/zero; head -c 5000000 /dev/zero >&2; echo done >&2"));
    EXPECT_FALSE(r.timedOut);
    EXPECT_EQ(r.exitCode, 0);
    ASSERT_EQ(r.stdoutText.size(), 5000000u);
    ASSERT_EQ(r.stderrText.size(), 5000005u);
    EXPECT_EQ(r.stdoutText.find_first_not_of('\0'), std::string::npos);
    EXPECT_EQ(r.stderrText.substr(5000000), "done\n");
}

TEST(LocalRunner, InterleavedLargeOutputDoesNotDeadlock) {
    // Both pipes full at once: the child blocks on whichever we are not reading.
    const auto r = runOk(shell("for i in 1 2 3 4 5 6 7 8; do head -c 300000 /dev/zero; "
                               "head -c 300000 /dev/zero >&2; done"));
    EXPECT_FALSE(r.timedOut);
    EXPECT_EQ(r.stdoutText.size(), 2400000u);
    EXPECT_EQ(r.stderrText.size(), 2400000u);
}

TEST(LocalRunner, StreamingCallbackSeesOutputWhileTheProcessRuns) {
    // The child waits for a file that only the callback creates, so it finishes only if
    // output is delivered while it is still running.
    TempDir dir;
    const auto flag = dir.path / "go";
    auto c = shell(R"(echo ready; echo warn >&2; while [ ! -e "$LB_FLAG" ]; do sleep 0.02; done;
                      echo finished)");
    c.env = {{"LB_FLAG", flag.string()}};
    std::string out, err;
    RunOptions opts;
    opts.onOutput = [&](OutputStream s, std::string_view chunk) {
        (s == OutputStream::Stdout ? out : err) += chunk;
        if (out.find("ready\n") != std::string::npos && !std::filesystem::exists(flag))
            std::ofstream(flag).put('x');
    };
    const auto r = runOk(c, opts);
    EXPECT_FALSE(r.timedOut);
    EXPECT_EQ(r.stdoutText, "ready\nfinished\n");
    EXPECT_EQ(out, r.stdoutText);
    EXPECT_EQ(err, "warn\n");
    EXPECT_EQ(err, r.stderrText);
}

TEST(LocalRunner, TimeoutStopsTheProcess) {
    Command c{"sleep", {"30"}, {}, {}, 300ms, {}};
    const auto r = runOk(c);
    EXPECT_TRUE(r.timedOut);
    EXPECT_FALSE(r.cancelled);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.termSignal, SIGINT); // sleep's default action on the first, polite signal
    EXPECT_LT(r.wallSeconds, kGenerousSeconds);
}

TEST(LocalRunner, CancelUsesThePolitePathFirst) {
    // The shell traps SIGINT and exits cleanly: its output proves it got SIGINT, not a kill.
    auto c = shell(R"(trap "echo got-int; exit 0" INT; echo ready; sleep 30 & wait)");
    std::atomic<bool> cancel{false};
    RunOptions opts;
    opts.cancel = &cancel;
    opts.graceInterrupt = 1000ms;
    opts.graceTerminate = 1000ms;
    opts.onOutput = [&](OutputStream, std::string_view chunk) {
        if (chunk.find("ready") != std::string_view::npos)
            cancel = true;
    };
    const auto r = runOk(c, opts);
    EXPECT_TRUE(r.cancelled);
    EXPECT_FALSE(r.timedOut);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.stdoutText, "ready\ngot-int\n");
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_FALSE(r.termSignal);
    EXPECT_LT(r.wallSeconds, kGenerousSeconds);
}

TEST(LocalRunner, CancelFromAnotherThreadEscalatesToSigkillForTheWholeGroup) {
    // Both the shell and its sleep ignore SIGINT and SIGTERM (ignored signals are inherited);
    // only SIGKILL to the process group stops the sleep too.
    auto c = shell(R"(trap "" INT TERM; sleep 30 & echo $!; wait)");
    std::atomic<bool> started{false};
    std::atomic<bool> cancel{false};
    RunOptions opts;
    opts.cancel = &cancel;
    opts.graceInterrupt = 200ms;
    opts.graceTerminate = 200ms;
    opts.onOutput = [&](OutputStream, std::string_view) { started = true; };
    std::thread stopper([&] {
        const auto until = std::chrono::steady_clock::now() + kSafety;
        while (!started && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(10ms);
        cancel = true;
    });
    const auto r = runOk(c, opts);
    stopper.join();
    EXPECT_TRUE(r.cancelled);
    EXPECT_EQ(r.termSignal, SIGKILL);
    EXPECT_EQ(r.exitCode, -1);
    EXPECT_LT(r.wallSeconds, kGenerousSeconds);
    const pid_t sleepPid = std::stoi(r.stdoutText);
    ASSERT_GT(sleepPid, 1);
    // The group kill has been delivered; give the kernel a moment to tear the sleep down.
    const auto until = std::chrono::steady_clock::now() + 5s;
    while (!processGoneOrZombie(sleepPid) && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(20ms);
    EXPECT_TRUE(processGoneOrZombie(sleepPid));
    if (!processGoneOrZombie(sleepPid))
        ::kill(sleepPid, SIGKILL); // ours: do not leave it behind if the runner failed
}

TEST(LocalRunner, CancelRaisedBeforeStartRunsNothing) {
    std::atomic<bool> cancel{true};
    RunOptions opts;
    opts.cancel = &cancel;
    const auto r = runOk(shell("echo should-not-run"), opts);
    EXPECT_TRUE(r.cancelled);
    EXPECT_EQ(r.stdoutText, "");
}

TEST(LocalRunner, LeftoverChildHoldingTheOutputIsStopped) {
    // The shell exits at once but its background sleep keeps stdout open; run() must not wait
    // the 30 s for it.
    const auto r =
        runOk(shell("sleep 30 & echo leader-done"), RunOptions{{}, nullptr, 200ms, 200ms});
    EXPECT_EQ(r.stdoutText, "leader-done\n");
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_FALSE(r.timedOut);
    EXPECT_LT(r.wallSeconds, kGenerousSeconds);
}

TEST(LocalRunner, DeathBySignalIsReported) {
    const auto r = runOk(shell("kill -TERM $$"));
    EXPECT_EQ(r.termSignal, SIGTERM);
    EXPECT_EQ(r.exitCode, -1);
    EXPECT_FALSE(r.ok());
}

TEST(LocalRunner, ChildRunsInItsOwnProcessGroup) {
    // Field 5 of /proc/PID/stat is the process group; the shell's name "(sh)" has no spaces.
    const auto r = runOk(shell(R"(echo $$; cut -d' ' -f5 /proc/$$/stat)"));
    std::istringstream lines(r.stdoutText);
    std::string pid, pgid;
    lines >> pid >> pgid;
    EXPECT_FALSE(pid.empty());
    EXPECT_EQ(pid, pgid);
    EXPECT_NE(pgid, std::to_string(::getpgrp()));
}

TEST(LocalRunner, OurFileDescriptorsAreNotInherited) {
    const int leaky = ::open("/dev/null", O_RDONLY); // deliberately not close-on-exec
    ASSERT_GE(leaky, 0);
    const auto r = runOk(shell("ls /proc/$$/fd"));
    ::close(leaky);
    std::istringstream fds(r.stdoutText);
    std::string fd;
    while (fds >> fd)
        EXPECT_NE(fd, std::to_string(leaky)) << r.stdoutText;
}

TEST(LocalRunner, CpuTimeOfABusyChildIsMeasured) {
    const auto r = runOk(shell("i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"));
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_GT(r.cpuUserSeconds + r.cpuSystemSeconds, 0.0);
    EXPECT_LT(r.cpuUserSeconds + r.cpuSystemSeconds, 60.0);
}

TEST(LocalRunner, RunnersOnSeveralThreadsDoNotMixUp) {
    constexpr int kThreads = 4;
    std::vector<ProcessResult> results(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([t, &results] {
            auto runner = makeLocalRunner();
            for (int i = 0; i < 5; ++i) {
                auto r = runner->run(shell("head -c 200000 /dev/zero; echo id-" +
                                           std::to_string(t) + " >&2; exit " + std::to_string(t)));
                if (r)
                    results[static_cast<std::size_t>(t)] = *r;
            }
        });
    for (auto& th : threads)
        th.join();
    for (int t = 0; t < kThreads; ++t) {
        const auto& r = results[static_cast<std::size_t>(t)];
        EXPECT_EQ(r.exitCode, t);
        EXPECT_EQ(r.stdoutText.size(), 200000u);
        EXPECT_EQ(r.stderrText, "id-" + std::to_string(t) + "\n");
    }
}

TEST(LocalRunner, TargetIsLocal) {
    EXPECT_EQ(makeLocalRunner()->target(), "local");
}

TEST(RecordingRunner, RecordsCommandsAndRunsNothing) {
    TempDir dir;
    const auto marker = dir.path / "must-not-exist";
    RecordingRunner runner;
    const Command touch{"touch", {marker.string()}, {}, {}, {}, {}};
    const Command fio = Command{"fio", {"--name=x"}, {{"A", "b"}}, "/tmp", 5s, {}};
    auto a = runner.run(touch);
    auto b = runner.run(fio);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->exitCode, 0);
    EXPECT_TRUE(a->ok());
    EXPECT_EQ(a->stdoutText, "");
    EXPECT_EQ(a->stderrText, "");
    EXPECT_FALSE(std::filesystem::exists(marker));
    ASSERT_EQ(runner.commands().size(), 2u);
    EXPECT_EQ(runner.commands()[0], touch);
    EXPECT_EQ(runner.commands()[1], fio);
    EXPECT_EQ(runner.target(), "dry-run");
}

TEST(Command, SecretStdinIsHiddenAndArgumentsQuoted) {
    Command c;
    c.program = "lb-tgt-account";
    c.arg("--user").arg("xen");
    c.arg("it's").arg("two words").arg("").arg("plain-1.0_x/y=z:a,b@c%d+e");
    c.secretStdin = "s3cret pass\n";
    EXPECT_EQ(c.argvForDisplay(),
              (std::vector<std::string>{"lb-tgt-account", "--user", "xen", "it's", "two words", "",
                                        "plain-1.0_x/y=z:a,b@c%d+e", "<<<", "****"}));
    const auto line = c.toUserOutput();
    EXPECT_EQ(line, "lb-tgt-account --user xen 'it'\\''s' 'two words' '' "
                    "plain-1.0_x/y=z:a,b@c%d+e <<< ****");
    EXPECT_EQ(line.find("s3cret"), std::string::npos);
    c.secretStdin.clear();
    EXPECT_EQ(c.argvForDisplay().back(), "plain-1.0_x/y=z:a,b@c%d+e");
}

// The secret reaches the program on its stdin, once, then end-of-file; without one, stdin is
// /dev/null.
TEST(LocalRunner, SecretStdinReachesTheProgramAndNothingElse) {
    Command c = shell("IFS= read -r p; printf '%s|' \"$p\"; cat; printf 'eof|'; "
                      "tr '\\0' ' ' < /proc/$$/cmdline; env | grep -c s3cre[t] || true");
    c.secretStdin = "s3cret pass\nsecond line\n";
    const auto r = runOk(c);
    EXPECT_EQ(r.exitCode, 0) << r.stderrText;
    EXPECT_TRUE(r.stdoutText.starts_with("s3cret pass|second line\neof|sh -c ")) << r.stdoutText;
    EXPECT_TRUE(r.stdoutText.ends_with(" 0\n")) << r.stdoutText; // not in the environment
    EXPECT_EQ(r.stdoutText.find("s3cret", 1), std::string::npos) << r.stdoutText;

    const auto none = runOk(shell("cat; echo done"));
    EXPECT_EQ(none.stdoutText, "done\n");

    Command big = shell("cat >/dev/null");
    big.secretStdin.assign(PIPE_BUF + 1, 'x');
    auto runner = makeLocalRunner();
    const auto refused = runner->run(big);
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().kind, ErrorKind::BadInput);
}

TEST(RecordingRunner, RecordsTheSecretStdinAndShowsItMasked) {
    RecordingRunner runner;
    Command c = Command::timed("lb-tgt-account", {"--user", "xen"}, 5s);
    c.secretStdin = "s3cret\n";
    ASSERT_TRUE(runner.run(c));
    ASSERT_EQ(runner.commands().size(), 1u);
    EXPECT_EQ(runner.commands()[0].secretStdin, "s3cret\n");
    EXPECT_EQ(runner.commands()[0].toUserOutput(), "lb-tgt-account --user xen <<< ****");
}

} // namespace
} // namespace lb
