// ChildDaemon, leftover cleanup and the tgtd fixture (see tgtd.h).
#include "tests/support/tgtd.h"

#include "tests/cli/process.h"

#include <arpa/inet.h>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace lb::test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool ChildDaemon::start(const std::vector<std::string>& argv, const std::string& logFile,
                        const std::string& pidFile, std::string* why, const std::string& cwd) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, logFile.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    if (!cwd.empty())
        posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // Its own process group, so that stop() reaches the children it forks too (fio --server
    // runs each job in a child).
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    const int rc = posix_spawnp(&pid_, argv[0].c_str(), &actions, &attr, args.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        pid_ = -1;
        if (why)
            *why = argv[0] + ": cannot start: " + std::strerror(rc);
        return false;
    }
    reaped_ = false;
    pidFile_ = pidFile;
    if (!pidFile_.empty())
        std::ofstream(pidFile_) << pid_ << "\n";
    return true;
}

bool ChildDaemon::running() {
    if (pid_ <= 0 || reaped_)
        return false;
    if (waitpid(pid_, &status_, WNOHANG) == pid_) {
        reaped_ = true;
        return false;
    }
    return true;
}

std::optional<int> ChildDaemon::waitExit(std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (running()) {
        if (std::chrono::steady_clock::now() > deadline)
            return std::nullopt;
        std::this_thread::sleep_for(20ms);
    }
    if (pid_ <= 0)
        return std::nullopt;
    if (WIFEXITED(status_))
        return WEXITSTATUS(status_);
    return 128 + WTERMSIG(status_);
}

void ChildDaemon::stop(std::chrono::milliseconds grace) {
    if (running()) {
        for (const int sig : {SIGINT, SIGTERM}) {
            kill(-pid_, sig);
            if (waitExit(grace))
                break;
        }
        if (running()) {
            kill(-pid_, SIGKILL);
            waitExit(5s);
        }
    }
    // The group outlives its leader while forked children finish; they get the grace too.
    if (pid_ > 0) {
        const auto deadline = std::chrono::steady_clock::now() + grace;
        while (kill(-pid_, 0) == 0 && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(50ms);
        if (kill(-pid_, 0) == 0)
            kill(-pid_, SIGKILL);
        pid_ = -1;
    }
    if (!pidFile_.empty()) {
        std::error_code ec;
        fs::remove(pidFile_, ec);
        pidFile_.clear();
    }
}

void ChildDaemon::killHard() {
    if (running()) {
        kill(pid_, SIGKILL);
        waitExit(5s);
    }
}

void ChildDaemon::signal(int sig) {
    if (running())
        kill(pid_, sig);
}

void stopLeftover(const std::string& pidFile, const std::string& comm) {
    const std::string text = readFile(pidFile);
    std::error_code ec;
    fs::remove(pidFile, ec);
    const pid_t pid = static_cast<pid_t>(std::atol(text.c_str()));
    if (pid <= 1)
        return;
    std::string name = readFile("/proc/" + std::to_string(pid) + "/comm");
    while (!name.empty() && name.back() == '\n')
        name.pop_back();
    // /proc/PID/comm is cut to 15 characters ("ganesha.nfsd" fits).
    if (name.empty() || name != comm.substr(0, 15))
        return;
    for (const int sig : {SIGINT, SIGTERM, SIGKILL}) {
        kill(pid, sig);
        for (int i = 0; i < 50 && kill(pid, 0) == 0; ++i)
            std::this_thread::sleep_for(100ms);
        if (kill(pid, 0) != 0)
            return;
    }
}

bool tcpListening(const std::string& host, int port) {
    const int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
        return false;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    inet_pton(AF_INET, host.c_str(), &a.sin_addr);
    const bool ok = connect(s, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0;
    close(s);
    return ok;
}

bool waitForTcp(const std::string& host, int port, std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!tcpListening(host, port)) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(50ms);
    }
    return true;
}

Tgtd::Tgtd(std::string workdir, int portalPort, int controlPort)
    : workdir_(std::move(workdir)), portalPort_(portalPort), controlPort_(controlPort) {
    fs::create_directories(workdir_);
    const std::string pidFile = workdir_ + "/tgtd.pid";
    stopLeftover(pidFile, "tgtd");
    // A killed tgtd leaves its management socket and lock behind; a new one cannot bind then.
    std::error_code ec;
    const std::string socket = "/var/run/tgtd/socket." + std::to_string(controlPort_);
    fs::remove(socket, ec);
    fs::remove(socket + ".lock", ec);
    if (tcpListening("127.0.0.1", portalPort_)) {
        why_ = "127.0.0.1:" + std::to_string(portalPort_) + " is in use by another process";
        return;
    }
    if (!daemon_.start({"tgtd", "-f", "-C", std::to_string(controlPort_), "--iscsi",
                        "portal=127.0.0.1:" + std::to_string(portalPort_)},
                       workdir_ + "/tgtd.log", pidFile, &why_)) {
        why_ += " (apt-get install tgt)";
        return;
    }
    if (!waitForTcp("127.0.0.1", portalPort_, 10s)) {
        why_ = "tgtd did not listen on 127.0.0.1:" + std::to_string(portalPort_) +
               " within 10 s: " + readFile(workdir_ + "/tgtd.log");
        return;
    }
    // The portal listens before the management socket answers.
    for (int i = 0; i < 100; ++i) {
        if (runProcess({"tgtadm", "-C", std::to_string(controlPort_), "--lld", "iscsi", "--op",
                        "show", "--mode", "target"})
                .exitCode == 0) {
            available_ = true;
            return;
        }
        std::this_thread::sleep_for(100ms);
    }
    why_ = "tgtadm does not answer on control port " + std::to_string(controlPort_);
}

Tgtd::~Tgtd() {
    if (daemon_.running()) {
        // tgtd ignores SIGTERM while it has targets: remove them, then ask it to exit.
        for (const int tid : tids_)
            tgtadm({"--op", "delete", "--force", "--mode", "target", "--tid", std::to_string(tid)},
                   nullptr);
        tgtadm({"--op", "delete", "--mode", "system"}, nullptr);
    }
    daemon_.stop();
    // tgtd leaves its management socket behind even when it exits cleanly.
    std::error_code ec;
    const std::string socket = "/var/run/tgtd/socket." + std::to_string(controlPort_);
    fs::remove(socket, ec);
    fs::remove(socket + ".lock", ec);
}

bool Tgtd::tgtadm(const std::vector<std::string>& args, std::string* why) {
    std::vector<std::string> argv = {"tgtadm", "-C", std::to_string(controlPort_), "--lld",
                                     "iscsi"};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = runProcess(argv);
    if (r.exitCode != 0 && why) {
        std::string line;
        for (const auto& a : argv)
            line += (line.empty() ? "" : " ") + a;
        *why = line + ": exit " + std::to_string(r.exitCode) + ": " + r.err + r.out;
    }
    return r.exitCode == 0;
}

bool Tgtd::addLun(int tid, const std::string& iqn, int lun, const std::string& backing,
                  std::string* why) {
    const std::string t = std::to_string(tid);
    if (!tgtadm({"--op", "new", "--mode", "target", "--tid", t, "-T", iqn}, why))
        return false;
    tids_.push_back(tid);
    return tgtadm({"--op", "new", "--mode", "logicalunit", "--tid", t, "--lun", std::to_string(lun),
                   "-b", backing},
                  why) &&
           tgtadm({"--op", "bind", "--mode", "target", "--tid", t, "-I", "ALL"}, why);
}

void Tgtd::freeze(bool frozen) {
    daemon_.signal(frozen ? SIGSTOP : SIGCONT);
}

std::string Tgtd::url(const std::string& iqn, int lun) const {
    return "iscsi://127.0.0.1:" + std::to_string(portalPort_) + "/" + iqn + "/" +
           std::to_string(lun);
}

} // namespace lb::test
