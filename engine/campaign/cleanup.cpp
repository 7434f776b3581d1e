#include "engine/campaign/cleanup.h"

#include "engine/build/plan.h"
#include "engine/campaign/campaign.h"
#include "engine/campaign/campaign_lock.h"
#include "engine/exec/ssh_runner.h"
#include "engine/scenario/scenario.h"

#include <algorithm>
#include <map>

namespace lb {

namespace {

// Passes commands on to the real runner and keeps what ran, once per command even when the undo
// retries one ("pool is busy").
class NotingRunner : public Runner {
public:
    NotingRunner(std::unique_ptr<Runner> inner, std::vector<std::string>& ran,
                 const std::function<void(const std::string&)>& onCommand)
        : inner_(std::move(inner)), ran_(ran), onCommand_(onCommand) {}

    Expected<ProcessResult> run(const Command& cmd, const RunOptions& opts) override {
        // Appended part by part: "[" + string&& makes GCC 12 at -O3 warn -Wrestrict (a false
        // alarm in libstdc++'s operator+, GCC bug 105329).
        std::string shown;
        if (inner_->target() != "local")
            shown.append("[").append(inner_->target()).append("] ");
        shown.append(cmd.toUserOutput());
        if (ran_.empty() || ran_.back() != shown) {
            ran_.push_back(shown);
            if (onCommand_)
                onCommand_(shown);
        }
        return inner_->run(cmd, opts);
    }
    std::string target() const override { return inner_->target(); }
    Runner& inner() { return *inner_; }

private:
    std::unique_ptr<Runner> inner_;
    std::vector<std::string>& ran_;
    const std::function<void(const std::string&)>& onCommand_;
};

Expected<CampaignRecord> findCampaign(Store& store, std::int64_t id) {
    auto all = store.campaigns();
    if (!all)
        return fail(all.error());
    const auto it = std::find_if(all->begin(), all->end(),
                                 [id](const CampaignRecord& c) { return c.id == id; });
    if (it == all->end())
        return badInput("campaign: no campaign " + std::to_string(id) + " in " + store.path());
    return *it;
}

// Stops the campaign's tools left running where `runner` runs. A host that cannot be asked is a
// problem, as an undo that fails (its datasets may stay busy); a guest that does not answer is
// normal (its VM is gone, or the host's undo stops it).
void stopLeftCampaignTools(NotingRunner& runner, const std::string& tag, bool guest,
                           CleanupResult& result) {
    auto stopped = stopLeftTools(runner.inner(), tag);
    if (!stopped) {
        if (!guest)
            result.problems.push_back(stopped.error().message);
        return;
    }
    for (const auto& tool : *stopped)
        result.stoppedTools.push_back(
            std::string("[").append(runner.target()).append("] ").append(tool)); // as above
}

// The scenario stored with the campaign, which says where it ran (secrets masked; no undo
// carries one).
Expected<Scenario> whereItRan(Store& store, std::int64_t campaignId, const ProbeRegistry& probes) {
    LB_TRY(stored, storedScenario(store, campaignId));
    auto scenario = parseScenario(stored.second, stored.first, probes);
    if (!scenario)
        return runtimeError("campaign " + std::to_string(campaignId) +
                            ": the scenario stored with it does not load, so where it ran is not "
                            "known: " +
                            scenario.error().message);
    return scenario;
}

// A campaign killed while it ran ran no further, and will not without --resume: its interrupted
// runs aborted, and the campaign.
Expected<void> abortInterrupted(Store& store, std::int64_t campaignId, CleanupResult& result) {
    LB_TRY(aborted, store.abortInterruptedRuns(campaignId,
                                               "interrupted: layoutbench stopped during this run "
                                               "(cleaned up, not resumed)"));
    result.abortedRuns = aborted;
    LB_TRY_VOID(store.setCampaignStatus(campaignId, CampaignStatus::Aborted, true));
    result.status = CampaignStatus::Aborted;
    return {};
}

} // namespace

Expected<CleanupResult> cleanupCampaign(Store& store, std::int64_t campaignId,
                                        const ProbeRegistry& probes,
                                        const CleanupOptions& options) {
    LB_TRY(campaign, findCampaign(store, campaignId));
    LB_TRY(lock, acquireCampaignLock(store.path(), campaignId));
    LB_TRY(scenario, whereItRan(store, campaignId, probes));
    const RunnerMaker makeRunner =
        options.makeRunner ? options.makeRunner : RunnerMaker(makeRunnerFor);
    CleanupResult result;
    result.campaignId = campaignId;
    result.statusBefore = campaign.status;
    const auto& host = scenario.host;
    LB_TRY(hostRunner, makeRunner(host.target, host.identity, host.knownHosts));
    NotingRunner runner(std::move(hostRunner), result.undone, options.onCommand);
    const std::string tag = campaignToolTag(store.path(), campaignId);
    stopLeftCampaignTools(runner, tag, /*guest=*/false, result);

    // The runner inside each guest layout's VM, made when its first step is undone; none when it
    // cannot be made (the guest is gone: the host's undo stops it or takes its disk away).
    std::map<std::int64_t, std::unique_ptr<Runner>> guests;
    const GuestRunnerFor guestRunner = [&](std::int64_t layoutId) -> Runner* {
        if (auto it = guests.find(layoutId); it != guests.end())
            return it->second.get();
        std::unique_ptr<Runner>& made = guests[layoutId];
        for (const auto& l : scenario.layouts) {
            if (!l.guest)
                continue;
            auto rec = store.findLayout(l.name);
            if (!rec || !*rec || (*rec)->id != layoutId)
                continue;
            if (auto r = makeRunner(l.guest->target, l.guest->identity, l.guest->knownHosts)) {
                auto noting =
                    std::make_unique<NotingRunner>(std::move(*r), result.undone, options.onCommand);
                stopLeftCampaignTools(*noting, tag, /*guest=*/true, result);
                made = std::move(noting);
            }
        }
        return made.get();
    };
    LB_TRY(problems, undoApplied(store, runner, campaignId, std::nullopt, guestRunner));
    result.problems.insert(result.problems.end(), problems.begin(), problems.end());
    result.status = campaign.status;
    if (campaign.status == CampaignStatus::Running)
        LB_TRY_VOID(abortInterrupted(store, campaignId, result));
    return result;
}

} // namespace lb
