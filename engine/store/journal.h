// The plan journal (table plan_step): every command applied to a server with its undo, in the
// order it ran, so a teardown, a failed build and a recovery after a crash all know what to undo.
// Journal owns the table's SQL; applying a plan (engine/build/plan.h: applyPlan, undoApplied)
// writes through it.
#pragma once

#include "engine/base/expected.h"
#include "engine/base/names.h"
#include "engine/exec/layout_plan.h"
#include "engine/exec/runner.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lb {

class Store;

enum class StepPhase { Build, Undo };
template <> struct EnumNames<StepPhase> {
    static constexpr std::array<std::pair<StepPhase, std::string_view>, 2> table{{
        {StepPhase::Build, "build"},
        {StepPhase::Undo, "undo"},
    }};
};

// Running: journaled before its command ran and not finished (a crash may have left it half
// done). Undone: its undo applied.
enum class StepStatus { Running, Applied, Skipped, Failed, Undone };
template <> struct EnumNames<StepStatus> {
    static constexpr std::array<std::pair<StepStatus, std::string_view>, 5> table{{
        {StepStatus::Running, "running"},
        {StepStatus::Applied, "applied"},
        {StepStatus::Skipped, "skipped"},
        {StepStatus::Failed, "failed"},
        {StepStatus::Undone, "undone"},
    }};
};

// One row of the journal.
struct JournalStep {
    std::int64_t id = 0;
    std::int64_t campaignId = 0;
    std::int64_t layoutId = 0;
    std::string layout; // its name
    std::int64_t seq = 0;
    StepPhase phase = StepPhase::Build;
    std::vector<std::string> argv; // masked as shown
    std::optional<std::vector<std::string>> undo;
    std::optional<int> exitCode;
    std::string output;
    std::string startedAt;
    std::string finishedAt;
    StepStatus status = StepStatus::Running;
    RunsOn runsOn = RunsOn::Host;
};

// A build step whose undo is due: applied, or running when layoutbench stopped.
struct PendingUndo {
    std::int64_t stepId = 0;
    std::int64_t layoutId = 0;
    std::vector<std::string> undo;
    bool certain = false; // the step finished: its effect is known to exist
    RunsOn runsOn = RunsOn::Host;
};

class Journal {
public:
    explicit Journal(Store& store) : store_(store) {}

    // Journals a build step before its command runs; its id.
    Expected<std::int64_t> beginBuild(std::int64_t campaignId, std::int64_t layoutId,
                                      const PlanStep& step, RunsOn runsOn);
    // The outcome of a build step begun with beginBuild.
    Expected<void> finishBuild(std::int64_t stepId, const Expected<ProcessResult>& result,
                               StepStatus status);
    // Build steps of the campaign (one layout, or all) whose undo is due, newest first.
    Expected<std::vector<PendingUndo>> pendingUndos(std::int64_t campaignId,
                                                    std::optional<std::int64_t> layoutId);
    // Journals an undo that ran.
    Expected<void> recordUndo(std::int64_t campaignId, const PendingUndo& undo,
                              const std::string& startedAt, const Expected<ProcessResult>& result);
    // The build step's undo applied (or its effect is known to be gone).
    Expected<void> markUndone(std::int64_t stepId);
    // The steps of a campaign (every campaign when none), in the order they ran.
    Expected<std::vector<JournalStep>> steps(std::optional<std::int64_t> campaignId = {});

private:
    Store& store_;
};

// What a step printed, stdout then stderr, as the journal keeps it.
std::string stepOutput(const ProcessResult& r);

} // namespace lb
