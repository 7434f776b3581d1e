// Running a probe's commands on this machine in a test: each must start and exit 0.
#pragma once

#include "engine/exec/runner.h"
#include "engine/measure/probe.h"

#include <gtest/gtest.h>
#include <vector>

namespace lb::test {

// Runs a command; the test fails if it cannot start or does not exit 0.
inline ProcessResult runOk(Runner& runner, const Command& cmd) {
    auto r = runner.run(cmd);
    EXPECT_TRUE(r) << cmd.toUserOutput() << ": " << (r ? "" : r.error().message);
    if (!r)
        return {};
    EXPECT_TRUE(r->ok()) << cmd.toUserOutput() << " exited " << r->exitCode << "\n"
                         << r->stderrText;
    return *r;
}

// A probe's measured command, then its inspections: what Probe::parse reads.
struct MeasuredOutput {
    ProcessResult result;
    std::vector<ProcessResult> inspected;
};
inline MeasuredOutput runMeasured(Runner& runner, const MeasuredCommand& mc) {
    MeasuredOutput out{runOk(runner, mc.command), {}};
    for (const auto& c : mc.inspect)
        out.inspected.push_back(runOk(runner, c));
    return out;
}

} // namespace lb::test
