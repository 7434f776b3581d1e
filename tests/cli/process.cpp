#include "tests/cli/process.h"

#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace lb::test {

namespace {
std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}
} // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv,
                           const std::vector<std::string>& extraEnv) {
    char outPath[] = "/tmp/lb-test-out-XXXXXX";
    char errPath[] = "/tmp/lb-test-err-XXXXXX";
    outFd_ = mkstemp(outPath);
    errFd_ = mkstemp(errPath);
    outPath_ = outPath;
    errPath_ = errPath;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, outFd_, 1);
    posix_spawn_file_actions_adddup2(&actions, errFd_, 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);

    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<std::string> envStrings;
    for (char** e = environ; *e; ++e)
        envStrings.emplace_back(*e);
    for (const auto& e : extraEnv)
        envStrings.push_back(e);
    std::vector<char*> env;
    for (auto& e : envStrings)
        env.push_back(e.data());
    env.push_back(nullptr);

    pid_t pid = 0;
    if (posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), env.data()) == 0)
        pid_ = pid;
    posix_spawn_file_actions_destroy(&actions);
}

ChildProcess::~ChildProcess() {
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);
        (void)wait();
    }
    if (outFd_ >= 0) {
        close(outFd_);
        close(errFd_);
        unlink(outPath_.c_str());
        unlink(errPath_.c_str());
    }
}

ProcessResult ChildProcess::wait() {
    ProcessResult result;
    if (pid_ > 0) {
        int status = 0;
        struct rusage usage {};
        wait4(pid_, &status, 0, &usage);
        pid_ = -1;
        result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        result.maxRssKiB = usage.ru_maxrss;
    }
    result.out = slurp(outPath_);
    result.err = slurp(errPath_);
    return result;
}

ProcessResult runProcess(const std::vector<std::string>& argv,
                         const std::vector<std::string>& extraEnv) {
    return ChildProcess(argv, extraEnv).wait();
}

} // namespace lb::test
