// `layoutbench cleanup --campaign N`: undo what an interrupted campaign left built (pools,
// arrays, mounts, exports, partitions, VMs), from its journal, without resuming it.
#include "app/cli/commands.h"
#include "engine/base/joined.h"
#include "engine/base/utf8.h"
#include "engine/campaign/cleanup.h"
#include "probes/registry.h"

#include <iostream>
#include <nlohmann/json.hpp>

namespace lb::cli {

namespace {

int runCleanup(const Globals& g, std::int64_t campaignId) {
    auto store = Store::open(g.db);
    if (!store)
        return report(store.error());
    CleanupOptions options;
    if (!g.json)
        options.onCommand = [](const std::string& command) {
            std::cout << "undo: " << command << '\n' << std::flush;
        };
    auto result = cleanupCampaign(*store, campaignId, standardProbes(), options);
    if (!result)
        return report(result.error(), {{"campaign", "--campaign"}});
    const auto& r = *result;
    if (g.json) {
        std::cout << dumpJson(nlohmann::json{{"campaign", r.campaignId},
                                             {"status_before", enumName(r.statusBefore)},
                                             {"status", enumName(r.status)},
                                             {"undone", r.undone},
                                             {"problems", r.problems},
                                             {"stopped_tools", r.stoppedTools},
                                             {"aborted_runs", r.abortedRuns}},
                              2)
                  << '\n';
    } else {
        for (const auto& tool : r.stoppedTools)
            std::cout << "stopped, left running by the killed campaign: " << tool << '\n';
        std::cout << "campaign " << r.campaignId << ": "
                  << (r.undone.empty() ? std::string("nothing left to undo")
                                       : std::to_string(r.undone.size()) + " undo command(s) run");
        if (r.status != r.statusBefore)
            std::cout << "; it was " << enumName(r.statusBefore) << ", now " << enumName(r.status);
        else
            std::cout << "; status " << enumName(r.status);
        if (r.abortedRuns)
            std::cout << "; " << r.abortedRuns << " interrupted run(s) marked aborted";
        std::cout << '\n';
    }
    if (r.problems.empty())
        return 0;
    return report(Error::runtime(
        "campaign " + std::to_string(r.campaignId) + ": " + std::to_string(r.problems.size()) +
        " undo(s) failed, what they undo may still be there (cleanup again retries them): " +
        joinedText(r.problems, "; ")));
}

} // namespace

void addCleanup(CLI::App& app, Globals& g, Action& action) {
    auto campaign = std::make_shared<std::int64_t>(0);
    auto* sub = app.add_subcommand(
        "cleanup", "Undo what an interrupted campaign left built (pools, arrays, mounts, exports, "
                   "partitions, VMs), from its journal, without resuming it");
    sub->add_option("--campaign", *campaign,
                    "The campaign to clean up (layoutbench list campaigns)")
        ->required()
        ->check(CLI::PositiveNumber);
    addGlobalOptions(*sub, g);
    sub->callback(
        [&g, &action, campaign] { action = [&g, campaign] { return runCleanup(g, *campaign); }; });
}

} // namespace lb::cli
