// Cleaning up after an interrupted campaign: everything its journal shows built and not torn down
// (pools, md arrays, mounts, exports, partitions, virtual machines, file vdevs) is undone, newest
// first, through the runners of the scenario stored with it (steps that ran inside a guest go to
// the guest's runner), and nothing else of the campaign runs: it is not resumed.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/runner.h"
#include "engine/measure/probe.h"
#include "engine/store/store.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace lb {

// Makes the runner for a target ("local", "ssh://user@host:port") with its identity and
// known_hosts, as makeRunnerFor does.
using RunnerMaker = std::function<Expected<std::unique_ptr<Runner>>(
    const std::string& target, const std::string& identity, const std::string& knownHosts)>;

struct CleanupOptions {
    // For the stored scenario's [host] and each guest's target; makeRunnerFor unless replaced.
    RunnerMaker makeRunner;
    // Told each undo command (as users see it, secrets masked) before it runs.
    std::function<void(const std::string& command)> onCommand;
};

struct CleanupResult {
    std::int64_t campaignId = 0;
    CampaignStatus statusBefore = CampaignStatus::Running; // Running: it was interrupted
    CampaignStatus status = CampaignStatus::Running; // after: an interrupted campaign is aborted
    std::vector<std::string> undone;                 // the undo commands that ran, in order
    // Undos that failed (what may still be there), and servers that could not be asked for the
    // campaign's left tools.
    std::vector<std::string> problems;
    // Tools of the campaign that outlived it on a server, stopped before anything was undone:
    // "[ssh://root@host:22] fio (pid 4242)".
    std::vector<std::string> stoppedTools;
    std::size_t abortedRuns = 0; // runs it left 'running', now aborted
};

// First stops the campaign's tools still running on an SSH target or guest (a killed layoutbench
// takes its ssh clients with it, not the tools they started; they would keep the datasets
// busy). Then undoes what the campaign's journal shows applied and not undone, and marks a campaign
// that was left 'running' (its process killed) aborted, with its unfinished runs; a campaign that
// had ended keeps its status. It can be resumed afterwards. Undo failures are collected in
// `problems`, not fatal: the journal keeps those steps, so cleaning up again retries them;
// cleaning up a campaign with nothing left to undo does nothing.
// Errors: bad input "campaign: no campaign N in DB"; a runtime error when the campaign is in use
// by another process (acquireCampaignLock) or its stored scenario no longer says where it ran.
Expected<CleanupResult> cleanupCampaign(Store& store, std::int64_t campaignId,
                                        const ProbeRegistry& probes,
                                        const CleanupOptions& options = {});

} // namespace lb
