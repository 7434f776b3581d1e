// Tests of the SSH runner against a real sshd on 127.0.0.1 (tests/support/sshd.h): hostile
// arguments arrive intact and run nothing else, cwd and env reach the remote command, exit
// codes and the two output streams come back apart, timeouts stop the client, and ssh's own
// failures (unknown host key, nothing listening) are errors naming the host. Plus the pure
// parts: URL parsing, quoting and the ssh argv.

#include "engine/exec/ssh_runner.h"
#include "tests/cli/process.h"
#include "tests/support/proc_sampler.h"
#include "tests/support/sshd.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace lb {
namespace {

using namespace std::chrono_literals;

constexpr auto kBound = std::chrono::milliseconds(30000);

// One sshd for the whole suite: starting one takes a moment.
class SshRunnerTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() { sshd_ = new test::Sshd(); }
    static void TearDownTestSuite() {
        delete sshd_;
        sshd_ = nullptr;
    }
    void SetUp() override {
        if (!sshd_->available())
            GTEST_SKIP() << "no sshd: " << sshd_->why();
    }
    static ProcessResult runOk(const Command& cmd) {
        auto runner = makeSshRunner(sshd_->target());
        auto r = runner->run(cmd);
        EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message);
        return r ? *r : ProcessResult{};
    }
    static Command command(std::string program, std::vector<std::string> args) {
        Command c;
        c.program = std::move(program);
        c.args = std::move(args);
        c.timeout = kBound;
        return c;
    }
    static test::Sshd* sshd_;
};

test::Sshd* SshRunnerTest::sshd_ = nullptr;

std::vector<std::string> splitNul(const std::string& s) {
    std::vector<std::string> out;
    std::size_t begin = 0;
    while (begin < s.size()) {
        const auto end = s.find('\0', begin);
        if (end == std::string::npos) {
            out.push_back(s.substr(begin));
            break;
        }
        out.push_back(s.substr(begin, end - begin));
        begin = end + 1;
    }
    return out;
}

TEST_F(SshRunnerTest, HostileArgumentsArriveIntactAndRunNothingElse) {
    const std::string pwned = "/tmp/pwned-xyz-" + std::to_string(::getpid());
    const std::string pwned2 = pwned + "-b";
    std::filesystem::remove(pwned);
    std::filesystem::remove(pwned2);
    const std::vector<std::string> hostile = {
        "two words",
        "it's",
        "say \"hi\"",
        "$(touch " + pwned + ")",
        "`touch " + pwned2 + "`",
        "a; touch " + pwned,
        "a && touch " + pwned,
        "a | touch " + pwned,
        "line1\nline2\n",
        "-n",
        "--help",
        "*",
        "/*",
        "",
        "'",
        "''\\'",
        "\\",
        "$HOME",
        "${PATH}",
        "~",
        "a\tb",
        "#comment",
        "x > " + pwned,
        "ünïcødé ✓ 日本",
        "'; touch " + pwned + "; echo '",
    };
    // printf's format is the first argument: the \0 escape is printf's own, not the shell's.
    std::vector<std::string> args = {"%s\\0"};
    for (const auto& h : hostile)
        args.push_back(h);
    const auto r = runOk(command("printf", args));
    ASSERT_TRUE(r.ok()) << r.exitSummary();
    EXPECT_EQ(splitNul(r.stdoutText), hostile);
    EXPECT_FALSE(std::filesystem::exists(pwned));
    EXPECT_FALSE(std::filesystem::exists(pwned2));
}

TEST_F(SshRunnerTest, HostileProgramCwdAndEnvAreQuotedToo) {
    const auto dir = std::filesystem::path(sshd_->dir()) / "a dir; with $(x) 'quotes'";
    std::filesystem::create_directories(dir);
    Command c = command("sh", {"-c", "pwd; printf '%s|%s' \"$LB_ONE\" \"$LB_TWO\" >&2"});
    c.cwd = dir.string();
    c.env = {{"LB_ONE", "va'lue $(touch /tmp/pwned-env)"}, {"LB_TWO", "two\nlines"}};
    const auto r = runOk(c);
    ASSERT_TRUE(r.ok()) << r.exitSummary();
    EXPECT_EQ(r.stdoutText, dir.string() + "\n");
    EXPECT_EQ(r.stderrText, "va'lue $(touch /tmp/pwned-env)|two\nlines");
    EXPECT_FALSE(std::filesystem::exists("/tmp/pwned-env"));
}

TEST_F(SshRunnerTest, MissingCwdIsAFailedResult) {
    Command c = command("true", {});
    c.cwd = sshd_->dir() + "/does-not-exist";
    const auto r = runOk(c);
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.stderrText.find("does-not-exist"), std::string::npos) << r.stderrText;
}

TEST_F(SshRunnerTest, ExitCodesPropagateAndStreamsStaySeparate) {
    const auto r = runOk(command("sh", {"-c", "echo out; echo err >&2; exit 7"}));
    EXPECT_EQ(r.exitCode, 7);
    EXPECT_EQ(r.stdoutText, "out\n");
    EXPECT_EQ(r.stderrText, "err\n");
    EXPECT_EQ(runOk(command("false", {})).exitCode, 1);
    EXPECT_EQ(runOk(command("true", {})).exitCode, 0);
}

TEST_F(SshRunnerTest, OutputIsStreamed) {
    auto runner = makeSshRunner(sshd_->target());
    std::string seen;
    RunOptions opts;
    opts.onOutput = [&](OutputStream s, std::string_view chunk) {
        if (s == OutputStream::Stdout)
            seen.append(chunk);
    };
    auto r = runner->run(command("sh", {"-c", "echo one; sleep 0.2; echo two"}), opts);
    ASSERT_TRUE(r.has_value()) << r.error().message;
    EXPECT_EQ(seen, "one\ntwo\n");
}

TEST_F(SshRunnerTest, TimeoutStopsIt) {
    Command c = command("sleep", {"30"});
    c.timeout = 1500ms;
    auto runner = makeSshRunner(sshd_->target());
    RunOptions opts;
    opts.graceInterrupt = 1000ms;
    opts.graceTerminate = 1000ms;
    const auto start = std::chrono::steady_clock::now();
    auto r = runner->run(c, opts);
    const auto took = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(r.has_value()) << r.error().message;
    EXPECT_TRUE(r->timedOut);
    EXPECT_FALSE(r->ok());
    EXPECT_LT(took, 10s);
}

// Without a terminal the server's tool would outlive a stopped ssh client: the runner stops it
// there too, politely first. A shell that traps SIGINT leaves a file to prove it was asked. The
// run is stopped once the shell says it is ready, not after a fixed time: on a loaded machine the
// SSH login alone can take longer than such a time, and a run stopped before the server names
// its tool's pid has nothing there to stop.
TEST_F(SshRunnerTest, StoppedRunIsStoppedOnTheServerToo) {
    const std::string flag = sshd_->dir() + "/got-int";
    std::filesystem::remove(flag);
    // A unique sleep length names the server-side process.
    Command c = command(
        "sh",
        {"-c", "trap 'touch \"$0\"; kill $!; exit 0' INT; sleep 47.25 & echo ready; wait", flag});
    c.timeout = 60s; // a bound only: the run is cancelled long before
    auto runner = makeSshRunner(sshd_->target());
    std::atomic<bool> cancel{false};
    RunOptions opts;
    opts.cancel = &cancel;
    opts.onOutput = [&cancel](OutputStream stream, std::string_view text) {
        if (stream == OutputStream::Stdout && text.find("ready") != std::string_view::npos)
            cancel = true;
    };
    opts.graceInterrupt = 2000ms;
    opts.graceTerminate = 1000ms;
    auto r = runner->run(c, opts);
    ASSERT_TRUE(r.has_value()) << r.error().message;
    EXPECT_TRUE(r->cancelled);
    EXPECT_EQ(r->stderrText.find("lb-remote-pid"), std::string::npos) << r->stderrText;
    EXPECT_TRUE(std::filesystem::exists(flag)) << "the remote shell never got SIGINT";
    // Nothing of it is left on the server.
    bool left = true;
    for (int i = 0; i < 50 && left; ++i) {
        left = lb::test::runProcess({"pgrep", "-f", "sleep 47.25"}).exitCode == 0;
        if (left)
            std::this_thread::sleep_for(100ms);
    }
    EXPECT_FALSE(left);
}

// A killed layoutbench takes its ssh client with it, and the server's tool runs on (no terminal,
// no hang-up). The tool of a tagged run is found again by its tag and stopped; another tag's
// tool is left alone, and a tag with nothing left stops nothing.
TEST_F(SshRunnerTest, ToolsLeftByAKilledClientAreStoppedByTheirTag) {
    const auto running = [](const std::string& pattern) {
        return lb::test::runProcess({"pgrep", "-f", pattern}).exitCode == 0;
    };
    const auto leave = [&](const Command& tool, const std::string& tag) {
        // The ssh client is stopped here as SIGKILL would: the server is not told.
        Command ssh = sshCommand(sshd_->target(), tool, true, tag);
        ssh.timeout = 1500ms;
        RunOptions opts;
        opts.graceInterrupt = 100ms;
        opts.graceTerminate = 100ms;
        auto r = makeLocalRunner()->run(ssh, opts);
        ASSERT_TRUE(r.has_value()) << r.error().message;
        EXPECT_TRUE(r->timedOut);
    };
    leave({"sleep", {"48.25"}}, "campaign-a");
    leave({"sleep", {"48.75"}}, "campaign-b");
    // A tool whose child goes on when it is gone (a background job of sh ignores SIGINT).
    leave({"sh", {"-c", "sleep 49.25 & wait"}}, "campaign-a");
    ASSERT_TRUE(running("sleep 48.25")) << "the server's tool did not outlive its client";
    ASSERT_TRUE(running("sleep 48.75"));
    ASSERT_TRUE(running("sleep 49.25"));

    auto runner = makeSshRunner(sshd_->target());
    RunOptions waits;
    waits.graceInterrupt = 1000ms;
    waits.graceTerminate = 1000ms;
    auto stopped = stopLeftTools(*runner, "campaign-a", waits);
    ASSERT_TRUE(stopped.has_value()) << stopped.error().message;
    ASSERT_EQ(stopped->size(), 2u);
    EXPECT_TRUE(stopped->front().starts_with("sleep (pid ") ||
                stopped->back().starts_with("sleep (pid "))
        << stopped->front() << "; " << stopped->back();
    EXPECT_FALSE(running("sleep 48.25"));
    EXPECT_FALSE(running("sleep 49.25")) << "the tool's child was left";
    EXPECT_TRUE(running("sleep 48.75")) << "another campaign's tool was stopped";

    auto again = stopLeftTools(*runner, "campaign-a", waits);
    ASSERT_TRUE(again.has_value()) << again.error().message;
    EXPECT_TRUE(again->empty());
    auto other = stopLeftTools(*runner, "campaign-b", waits);
    ASSERT_TRUE(other.has_value()) << other.error().message;
    EXPECT_EQ(other->size(), 1u);
    EXPECT_FALSE(running("sleep 48.75"));
}

// A tagged run that ends by itself leaves nothing to stop, and keeps its tool's exit status.
TEST_F(SshRunnerTest, ATaggedRunThatEndsLeavesNothingBehind) {
    auto runner = makeSshRunner(sshd_->target());
    RunOptions opts;
    opts.toolTag = "campaign-ends";
    auto r = runner->run(command("sh", {"-c", "echo out; exit 7"}), opts);
    ASSERT_TRUE(r.has_value()) << r.error().message;
    EXPECT_EQ(r->exitCode, 7);
    EXPECT_EQ(r->stdoutText, "out\n");
    // The test server is this machine, as root, without TMPDIR.
    for (const auto& kept : std::filesystem::directory_iterator("/tmp/layoutbench-tools"))
        EXPECT_FALSE(kept.path().filename().string().starts_with("campaign-ends."))
            << kept.path() << " was left";
    auto stopped = stopLeftTools(*runner, "campaign-ends");
    ASSERT_TRUE(stopped.has_value()) << stopped.error().message;
    EXPECT_TRUE(stopped->empty());
}

TEST_F(SshRunnerTest, UnknownHostKeyFailsWithAClearError) {
    auto target = sshd_->target();
    target.knownHostsFile = sshd_->dir() + "/empty_known_hosts";
    std::ofstream(target.knownHostsFile).close();
    auto r = makeSshRunner(target)->run(command("true", {}));
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().kind, ErrorKind::Runtime);
    EXPECT_NE(r.error().message.find("127.0.0.1"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("Host key verification failed"), std::string::npos)
        << r.error().message;
}

TEST_F(SshRunnerTest, WrongPortFailsFastNamingTheHost) {
    auto target = sshd_->target();
    // The port of a socket nobody listens on: the connection is refused at once.
    target.port = 1;
    const auto start = std::chrono::steady_clock::now();
    auto r = makeSshRunner(target)->run(command("true", {}));
    EXPECT_LT(std::chrono::steady_clock::now() - start, 15s);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().kind, ErrorKind::Runtime);
    EXPECT_NE(r.error().message.find("127.0.0.1"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("port 1"), std::string::npos) << r.error().message;
}

TEST_F(SshRunnerTest, WrongKeyIsRefused) {
    auto target = sshd_->target();
    target.identityFile = sshd_->dir() + "/host_key"; // a key the server does not authorize
    auto r = makeSshRunner(target)->run(command("true", {}));
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().message.find("Permission denied"), std::string::npos) << r.error().message;
}

// A secret crosses on ssh's stdin into the remote program (behind the pid-tracking wrapper),
// while no process on this machine, ssh, sshd and the remote shell included, holds it in its argv
// or environment.
TEST_F(SshRunnerTest, SecretStdinReachesTheRemoteProgramAndNoArgv) {
    const std::string secret = "ssh-stdin-secret-" + std::to_string(::getpid());
    test::ProcSampler sampler({secret});
    Command c = command("sh", {"-c", "IFS= read -r p; sleep 1; printf '%s' \"$p\" | tr a-z A-Z"});
    c.secretStdin = secret + "\n";
    const auto r = runOk(c);
    sampler.stop();
    EXPECT_EQ(r.exitCode, 0) << r.stderrText;
    std::string upper = secret;
    for (auto& ch : upper)
        ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    EXPECT_EQ(r.stdoutText, upper);
    EXPECT_TRUE(sampler.leaks().empty()) << sampler.leaks().front();
    EXPECT_TRUE(sampler.saw("ssh"));
    EXPECT_GT(sampler.rounds(), 10u);
}

TEST_F(SshRunnerTest, TargetIsTheUrl) {
    auto runner = makeSshRunner(sshd_->target());
    EXPECT_EQ(runner->target(),
              "ssh://" + sshd_->target().user + "@127.0.0.1:" + std::to_string(sshd_->port()));
}

TEST(SshUrl, Parses) {
    auto t = parseSshUrl("ssh://bench@server.example:2222");
    ASSERT_TRUE(t.has_value()) << t.error().message;
    EXPECT_EQ(t->user, "bench");
    EXPECT_EQ(t->host, "server.example");
    EXPECT_EQ(t->port, 2222);
    EXPECT_EQ(sshUrl(*t), "ssh://bench@server.example:2222");

    t = parseSshUrl("ssh://root@10.0.0.5");
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->port, 22);
    EXPECT_EQ(sshUrl(*t), "ssh://root@10.0.0.5:22");

    t = parseSshUrl("ssh://host");
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->user, "");
    EXPECT_EQ(sshUrl(*t), "ssh://host:22");

    t = parseSshUrl("ssh://me@[fe80::1]:2200");
    ASSERT_TRUE(t.has_value()) << t.error().message;
    EXPECT_EQ(t->host, "fe80::1");
    EXPECT_EQ(t->port, 2200);
    EXPECT_EQ(sshUrl(*t), "ssh://me@[fe80::1]:2200");
}

TEST(SshUrl, RejectsBadUrls) {
    for (const char* bad : {"host", "http://host", "ssh://", "ssh://user@", "ssh://@host",
                            "ssh://host:", "ssh://host:0", "ssh://host:65536", "ssh://host:22x",
                            "ssh://-oProxyCommand=touch%20x", "ssh://-x@host", "ssh://host/path",
                            "ssh://[::1", "ssh://a b@host"}) {
        auto t = parseSshUrl(bad);
        EXPECT_FALSE(t.has_value()) << bad;
        if (!t) {
            EXPECT_EQ(t.error().kind, ErrorKind::BadInput) << bad;
        }
    }
}

TEST(SshCommand, QuotesEveryWordAndMasksSecrets) {
    EXPECT_EQ(shellQuote(""), "''");
    EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
    Command c;
    c.program = "lb-tgt-account";
    c.arg("--user").arg("it's");
    c.secretStdin = "s3cret'x\n";
    c.cwd = "/srv/a b";
    c.env = {{"LANG", "C"}};
    // The secret is not in the remote command: ssh forwards it on stdin.
    EXPECT_EQ(remoteShellCommand(c),
              "cd '/srv/a b' && exec env -- 'LANG=C' 'lb-tgt-account' '--user' 'it'\\''s'");

    SshTarget t;
    t.user = "bench";
    t.host = "srv";
    t.port = 2222;
    t.identityFile = "/k";
    t.knownHostsFile = "/kh";
    const auto ssh = sshCommand(t, c);
    EXPECT_EQ(ssh.program, "ssh");
    // The secret is passed on ssh's stdin, never in its argv, and never shown.
    EXPECT_EQ(ssh.args.back(), remoteShellCommand(c));
    EXPECT_EQ(ssh.secretStdin, c.secretStdin);
    for (const auto& a : ssh.args)
        EXPECT_EQ(a.find("s3cret"), std::string::npos) << a;
    EXPECT_EQ(ssh.argvForDisplay().back(), "****");
    EXPECT_EQ(ssh.toUserOutput().find("s3cret"), std::string::npos);
    EXPECT_EQ(c.toUserOutput().find("s3cret"), std::string::npos);
    const auto& a = ssh.args;
    const auto has = [&](const std::string& s) {
        return std::find(a.begin(), a.end(), s) != a.end();
    };
    EXPECT_TRUE(has("BatchMode=yes"));
    EXPECT_TRUE(has("StrictHostKeyChecking=yes"));
    EXPECT_TRUE(has("UserKnownHostsFile=/kh"));
    EXPECT_TRUE(has("2222"));
    EXPECT_TRUE(has("/k"));
    ASSERT_GE(a.size(), 3U);
    EXPECT_EQ(a[a.size() - 3], "bench@srv");
    EXPECT_EQ(a[a.size() - 2], "--");
}

TEST(SshCommand, InvalidEnvNameIsBadInput) {
    SshTarget t;
    t.host = "127.0.0.1";
    t.port = 1;
    Command c;
    c.program = "true";
    c.env = {{"A;B", "x"}};
    auto r = makeSshRunner(t)->run(c);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
}

} // namespace
} // namespace lb
