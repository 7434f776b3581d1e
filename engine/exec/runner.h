// Runners execute Commands on a target and stream their output. The engine only sees this
// interface: LocalRunner (Boost.Process v2), RecordingRunner (dry run), later SshRunner.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/command.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

enum class OutputStream { Stdout, Stderr };

struct ProcessResult {
    int exitCode = -1;             // valid when the process exited
    std::optional<int> termSignal; // the signal that ended it, if one did
    std::string stdoutText;
    std::string stderrText;
    std::string startedAt; // ISO 8601 UTC
    std::string finishedAt;
    double wallSeconds = 0;
    double cpuUserSeconds = 0; // of the child (and its waited-for children), where known
    double cpuSystemSeconds = 0;
    bool timedOut = false;  // stopped because Command::timeout passed
    bool cancelled = false; // stopped because the cancel flag was raised
    bool ok() const { return !timedOut && !cancelled && !termSignal && exitCode == 0; }
    // "exit status 1: <last line of stderr>" or "killed by signal 9 (...)": how it ended.
    std::string exitSummary() const;
};

struct RunOptions {
    // Called from the runner's thread with each chunk as it arrives.
    std::function<void(OutputStream, std::string_view)> onOutput;
    // Raised by another thread (Ctrl-C, GUI stop): the runner stops the process politely.
    const std::atomic<bool>* cancel = nullptr;
    // Escalation when stopping: SIGINT, wait, SIGTERM, wait, SIGKILL.
    std::chrono::milliseconds graceInterrupt{5000};
    std::chrono::milliseconds graceTerminate{5000};
    // Letters, digits, '-' and '_' (others are dropped). When set, an SSH runner leaves the
    // remote tool's pid in a file named by it while the tool runs, so that stopLeftTools can stop
    // a tool that outlived a layoutbench killed with SIGKILL (a local tool dies with its parent).
    std::string toolTag;
};

class Runner {
public:
    virtual ~Runner() = default;
    // Runs to completion (or timeout/cancel). An error only when it could not be started at
    // all (program not found, cwd missing); a non-zero exit is a result, not an error.
    virtual Expected<ProcessResult> run(const Command& cmd, const RunOptions& opts = {}) = 0;
    // "local", "ssh://user@host:port", "dry-run".
    virtual std::string target() const = 0;
};

std::unique_ptr<Runner> makeLocalRunner();

// Records every command and runs nothing; each returns exit 0 with empty output.
class RecordingRunner : public Runner {
public:
    Expected<ProcessResult> run(const Command& cmd, const RunOptions& opts = {}) override;
    std::string target() const override { return "dry-run"; }
    const std::vector<Command>& commands() const { return commands_; }

private:
    std::vector<Command> commands_;
};

} // namespace lb
