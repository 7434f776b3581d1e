// Commands this machine runs when a command running elsewhere prints a line: a fail-rebuild
// drill on the target says "ready for the disk to be pulled", and the workbench runs the
// scenario's pull_command here, where the administrator's tools are (a bay's power through
// sg_ses, a hypervisor's monitor), while the drill goes on waiting for the kernel to see it.
#pragma once

#include "engine/exec/command.h"
#include "engine/exec/runner.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace lb {

// A command run on this machine once, when the watched output has a line that begins with `line`.
struct LineTrigger {
    std::string line;
    Command command;
    bool operator==(const LineTrigger&) const = default;
};

// What one trigger's command did: it ran (with its result), could not start, or never fired.
struct TriggerOutcome {
    LineTrigger trigger;
    bool fired = false;
    std::optional<ProcessResult> result; // when it ran
    std::string error;                   // when it could not start
    // "pull_command (lb-qmp ...) exit status 0 in 0.2 s", or why not.
    std::string describe() const;
    bool ok() const { return fired && result && result->ok(); }
};

// Watches stdout chunks as a Runner hands them over (RunOptions::onOutput, which runs on the
// runner's thread) and starts each trigger's command on its own thread, through `local`, so
// the watched command's output keeps flowing. finish() waits for them.
class LineTriggers {
public:
    LineTriggers(std::vector<LineTrigger> triggers, std::unique_ptr<Runner> local);
    ~LineTriggers();
    LineTriggers(const LineTriggers&) = delete;
    LineTriggers& operator=(const LineTriggers&) = delete;

    bool empty() const { return outcomes_.empty(); }
    void feed(std::string_view stdoutChunk);
    // Waits for the started commands; the outcome of each trigger, in the order given.
    std::vector<TriggerOutcome> finish();

private:
    std::unique_ptr<Runner> local_;
    std::mutex mutex_;
    std::string partial_; // the line not yet ended
    std::vector<TriggerOutcome> outcomes_;
    std::vector<std::thread> threads_;
};

} // namespace lb
