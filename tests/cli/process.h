// Runs a program with an argv (no shell) and captures its exit status, stdout and stderr; in the
// foreground (runProcess) or in the background (ChildProcess), to be waited for or killed.
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace lb::test {

struct ProcessResult {
    int exitCode = -1; // 128 + the signal for a process killed by one
    std::string out;
    std::string err;
    long maxRssKiB = 0; // the most memory the process had resident at once
};

class ChildProcess {
public:
    explicit ChildProcess(const std::vector<std::string>& argv,
                          const std::vector<std::string>& extraEnv = {});
    ~ChildProcess(); // a child not waited for is killed and reaped
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    bool started() const { return pid_ > 0; }
    pid_t pid() const { return pid_; }
    ProcessResult wait();

private:
    pid_t pid_ = -1;
    int outFd_ = -1;
    int errFd_ = -1;
    std::string outPath_;
    std::string errPath_;
};

ProcessResult runProcess(const std::vector<std::string>& argv,
                         const std::vector<std::string>& extraEnv = {});

} // namespace lb::test
