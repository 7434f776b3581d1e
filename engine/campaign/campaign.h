// A campaign: build each layout of a scenario, run every workload on it for every iteration,
// store everything as it happens, tear the layout down. Resumable after a crash: a resumed
// campaign first undoes what the journal shows half-built, then runs only the missing runs.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/runner.h"
#include "engine/measure/probe.h"
#include "engine/scenario/scenario.h"
#include "engine/store/store.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

struct CampaignProgress {
    enum class Kind { Building, Running, RunFinished, TearingDown, Message };
    Kind kind = Kind::Message;
    std::string layout;
    std::string workload;
    int iteration = 0;
    int iterations = 0;
    std::size_t done = 0;  // runs finished (this session and before, when resuming)
    std::size_t total = 0; // runs in the campaign as planned so far
    // With iterations = "auto": the most runs it can grow to, and the most iterations.
    std::size_t maxTotal = 0;
    int maxIterations = 0;
    bool bracket = false; // a run of the baseline's pass after the candidates
    std::optional<double> etaSeconds;
    RunStatus status = RunStatus::Running; // for RunFinished
    std::string message;
};

struct CampaignOptions {
    std::optional<std::int64_t> resume;    // campaign id to resume
    std::optional<std::string> onlyLayout; // --layout NAME (the baseline is always included)
    // Block devices the user named again to allow their destruction (path, kernel path or
    // serial). Every device a layout uses must be here; one that holds anything must also be
    // marked wipe = true in the scenario.
    std::vector<std::string> yesDestroy;
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(const CampaignProgress&)> onProgress;
    std::function<void(OutputStream, std::string_view)> onToolOutput;
    std::chrono::milliseconds graceInterrupt{5000};
    std::chrono::milliseconds graceTerminate{5000};
    // How long a guest layout's VM may take to answer over SSH after it was started.
    std::chrono::seconds guestBootTimeout{300};
    // --fill-max: the most the ageing before the fill levels may write on a layout, all its
    // levels together (engine/build/fill.h); 0: no cap. A level the cap stops short of fails.
    std::uint64_t fillMaxBytes = 0;
};

struct CampaignResult {
    std::int64_t campaignId = 0;
    CampaignStatus status = CampaignStatus::Done; // done, failed, aborted
    std::size_t runs = 0;
    std::size_t failedRuns = 0;
    std::size_t skippedRuns = 0;       // already done before a resume
    std::vector<std::string> problems; // layouts that failed to build, teardown problems
    // Each candidate against the baseline over this campaign's runs, by the scenario's policy,
    // in the scenario's order; a candidate with nothing comparable is left out (see notComparable).
    std::vector<Comparison> comparisons;
    std::vector<std::string> notComparable; // "<candidate>: why"
    // With fill levels: `comparisons` holds each candidate at each level both sides have, and
    // this each candidate's sentence of where its verdict changes (compareAtFillLevels).
    std::vector<std::string> fillSummaries;
};

Expected<CampaignResult> runCampaign(Store& store, const Scenario& scenario,
                                     const ProbeRegistry& probes, Runner& runner,
                                     const CampaignOptions& options);

// The kernel's line saying its OOM killer killed `program` ("Out of memory: Killed process 321
// (bonnie++) ..."), from `dmesg` output, at or after `sinceSeconds` of uptime; the last such
// line. The kernel keeps 15 characters of a program's name; an empty `program` matches any.
std::optional<std::string> oomKillLine(std::string_view kernelLog, std::string_view program,
                                       double sinceSeconds);

// The tag a campaign's tools carry (RunOptions::toolTag): its id and its database, so that
// cleaning it up stops only its own tools left running on a server.
std::string campaignToolTag(const std::string& storePath, std::int64_t campaignId);

// The scenario stored with a campaign, for --resume.
Expected<std::pair<std::string, std::string>> storedScenario(Store& store, std::int64_t campaignId);

} // namespace lb
