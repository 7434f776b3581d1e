// Applying a plan and undoing it, every step journaled (see plan.h and journal.h).
#include "engine/build/plan.h"
#include "engine/store/journal.h"
#include "engine/store/store.h"

#include <chrono>
#include <set>
#include <thread>

namespace lb {

namespace {

// An undo step as replayed from the journal: ten minutes, as every build step.
Command undoCommand(const std::vector<std::string>& argv) {
    return Command::timed(argv.at(0), std::vector<std::string>(argv.begin() + 1, argv.end()),
                          std::chrono::minutes(10));
}

std::string failureOf(const ProcessResult& r) {
    if (r.timedOut)
        return "timed out";
    if (r.cancelled)
        return "cancelled";
    return r.exitSummary();
}

} // namespace

Expected<std::size_t> applyPlan(Store& store, Runner& runner, std::int64_t campaignId,
                                std::int64_t layoutId, const LayoutPlan& plan) {
    Journal journal(store);
    std::size_t applied = 0;
    for (const auto& step : plan.steps) {
        // Journal first: if we die while the command runs, recovery knows it may have applied.
        LB_TRY(stepId, journal.beginBuild(campaignId, layoutId, step, plan.runsOn));
        auto result = runner.run(step.command);
        const bool ok = result && result->ok();
        LB_TRY_VOID(journal.finishBuild(stepId, result,
                                        ok              ? StepStatus::Applied
                                        : step.optional ? StepStatus::Skipped
                                                        : StepStatus::Failed));
        if (!ok && !step.optional) {
            const std::string why = result ? failureOf(*result) : result.error().message;
            std::string msg = "building layout '" + plan.layout + "': step '" + step.description +
                              "' (" + step.command.toUserOutput() + ") failed: " + why;
            // A guest's steps and the host's are undone together by the caller, which has both
            // runners.
            if (plan.runsOn == RunsOn::Guest)
                return runtimeError(msg + " (in the guest)");
            auto undone = undoApplied(store, runner, campaignId, layoutId);
            if (undone && !undone->empty())
                msg += "; undo problems: " + undone->front();
            return runtimeError(msg);
        }
        ++applied;
    }
    return applied;
}

Expected<std::vector<std::string>> undoApplied(Store& store, Runner& hostRunner,
                                               std::int64_t campaignId,
                                               std::optional<std::int64_t> layoutId,
                                               const GuestRunnerFor& guestRunner) {
    Journal journal(store);
    LB_TRY(pending, journal.pendingUndos(campaignId, layoutId));
    std::vector<std::string> problems;
    // A layout whose teardown stopped at a failed undo keeps its older steps applied: removing
    // the vdev files under a pool that could not be destroyed would be worse than leaving both,
    // and a later recovery (--resume) retries from the failed step.
    std::set<std::pair<std::int64_t, RunsOn>> stopped; // (layout, where)
    for (const auto& p : pending) {
        if (stopped.count({p.layoutId, p.runsOn}))
            continue;
        const bool inGuest = p.runsOn == RunsOn::Guest;
        Runner* where = &hostRunner;
        if (inGuest) {
            where = guestRunner ? guestRunner(p.layoutId) : nullptr;
            if (!where)
                continue; // the guest is gone; the host's undo stops it or takes its disk away
        }
        const Command undo = undoCommand(p.undo);
        const auto started = store.now();
        auto result = where->run(undo);
        // zfs-fuse releases the last files of a pool asynchronously: "pool is busy" for a moment
        // after the workload ended. Wait a little and try again.
        for (int attempt = 1; attempt < 20 && result && !result->ok() &&
                              stepOutput(*result).find("busy") != std::string::npos;
             ++attempt) {
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
            result = where->run(undo);
        }
        const bool ok = result && result->ok();
        // A step interrupted by a crash may never have taken effect; its undo failing says so.
        // A guest's state goes with its disk when the host's undo stops the VM or detaches the
        // disk, so a failed guest undo is reported and not retried.
        const bool settled = ok || !p.certain || inGuest;
        if (!ok && p.certain) {
            problems.push_back(undo.toUserOutput() + ": " +
                               (result ? failureOf(*result) : result.error().message));
            stopped.insert({p.layoutId, p.runsOn});
        }
        LB_TRY_VOID(journal.recordUndo(campaignId, p, started, result));
        if (settled) // else it stays 'applied': the next recovery tries this undo again
            LB_TRY_VOID(journal.markUndone(p.stepId));
    }
    return problems;
}

} // namespace lb
