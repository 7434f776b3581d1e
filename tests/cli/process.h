// Runs a program with an argv (no shell) and captures its exit status, stdout and stderr.
#pragma once

#include <string>
#include <vector>

namespace lb::test {

struct ProcessResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

ProcessResult runProcess(const std::vector<std::string>& argv,
                         const std::vector<std::string>& extraEnv = {});

} // namespace lb::test
