// A stage's rounds (engine/campaign/campaign_internal.h): which runs of a round are still
// missing, whether a stage adds iterations beyond the minimum, the deciding metrics that keep it
// going, the next round, and what stays undecided when it stops.
#include "engine/campaign/campaign_internal.h"
#include "engine/measure/next_step.h"

#include <algorithm>

namespace lb::campaign {

bool CampaignRunner::missingRuns(const std::vector<const ScenarioLayout*>& stage,
                                 const Round& round) const {
    for (const auto* l : stage)
        for (const auto& w : scenario_.workloads)
            if (round.includes(w.name) && runsAtStageFill(*l) &&
                !settled_.count(keyAt(l->name, w.name, round.iteration, stageFill_)))
                return true;
    return false;
}

// Whether a stage adds iterations beyond the minimum: with iterations = "auto", every stage that
// holds a candidate (its verdict can become confident), and with `until` every stage (a layout's
// own spread). Never the bracketing pass: it measures drift.
bool CampaignRunner::stageAdaptive(const std::vector<const ScenarioLayout*>& stage,
                                   bool bracketPass) const {
    if (!scenario_.adaptive() || bracketPass)
        return false;
    return scenario_.untilCv ||
           std::any_of(stage.begin(), stage.end(), [](const auto* l) { return !l->baseline; });
}

// The deciding metrics that keep a stage going: not confident against the baseline (or, with
// `until`, spread more than it allows on a layout of the stage). No open one: the stage may stop.
// A metric whose interval could not fit in its band even with max_iterations runs of the same
// spread (its ratio too near a band's edge) does not keep the stage going: running to the
// maximum would cost the time and leave it undecided all the same.
Expected<CampaignRunner::Undecided>
CampaignRunner::undecided(const std::vector<const ScenarioLayout*>& stage) {
    Undecided out;
    const ComparePolicy policy = scenario_.policy();
    const std::string& base = scenario_.baseline().name;
    for (const auto* l : stage) {
        if (scenario_.untilCv) {
            auto samples = store_.layoutSamples(l->name, result_.campaignId, std::nullopt,
                                                fillPermille(stageFill_));
            if (!samples)
                return fail(samples.error());
            for (const auto& m : samples->metrics)
                if (decidesUnder(policy, m.name) && m.values.size() >= 2 &&
                    coefficientOfVariation(m.values) > *scenario_.untilCv) {
                    out.open.push_back(l->name + ": " + m.name);
                    out.openWorkloads.insert(m.workload);
                }
            continue;
        }
        if (l->baseline || !runsAtStageFill(*l))
            continue;
        auto cmp = compareStoredLayouts(store_, base, l->name, policy, result_.campaignId, {},
                                        fillPermille(stageFill_));
        if (!cmp) {
            if (cmp.error().kind == ErrorKind::BadInput)
                continue; // nothing measured on both yet (failed runs): more runs will not help
            return fail(cmp.error());
        }
        const auto maxRuns = static_cast<std::size_t>(schedule_.maxIterations);
        out.outlierWorkloads.merge(workloadsToRunAgainForOutliers(
            *cmp, static_cast<std::size_t>(schedule_.minIterations)));
        // A confident verdict is settled whatever the open metrics would show (its next step
        // says "nothing to run"): running on would contradict it.
        if (cmp->confident)
            continue;
        for (const auto& m : cmp->metrics) {
            if (!m.decisive || m.confident)
                continue;
            const bool open = couldBecomeConfident(m, policy.thresholds, maxRuns);
            (open ? out.open : out.beyond).push_back(l->name + ": " + m.name);
            if (open)
                out.openWorkloads.insert(m.workload);
        }
    }
    return out;
}

// The next round a stage runs, counting from `first`: the missing runs of the minimum, then
// (adaptive) one more of the workloads that measure a deciding metric still undecided, up to the
// maximum. A workload whose deciding metrics are all settled is not run again: more of its runs
// would change no verdict, and on a real campaign (bonnie++ for ten minutes beside a short fio
// job that is still undecided) they would be most of the time.
Expected<std::optional<CampaignRunner::Round>>
CampaignRunner::nextRound(const std::vector<const ScenarioLayout*>& stage, int first,
                          bool adaptive) {
    const int minimum = schedule_.minIterations;
    const int maximum = adaptive ? schedule_.maxIterations : minimum;
    for (int n = 0; n < maximum; ++n) {
        if (n < minimum) {
            if (Round every{first + n, std::nullopt}; missingRuns(stage, every))
                return std::optional<Round>{every};
            continue;
        }
        auto open = undecided(stage);
        if (!open)
            return fail(open.error());
        if (open->open.empty()) {
            // Settled, but a run stood apart: that workload runs once more before the stage
            // stops, so a stall is not what the verdict rests on alone.
            if (Round again{first + n, std::move(open->outlierWorkloads)};
                !again.workloads->empty() && missingRuns(stage, again))
                return std::optional<Round>{std::move(again)};
            return std::optional<Round>{};
        }
        Round some{first + n, std::move(open->openWorkloads)};
        if (std::none_of(scenario_.workloads.begin(), scenario_.workloads.end(),
                         [&](const ScenarioWorkload& w) { return some.includes(w.name); }))
            some.workloads.reset(); // measured under names this scenario no longer has
        if (missingRuns(stage, some))
            return std::optional<Round>{std::move(some)};
    }
    return std::optional<Round>{};
}

// An adaptive stage that stopped undecided says so on the metrics it could not settle: at
// max_iterations, or earlier for those no number of runs up to it could settle.
Expected<void> CampaignRunner::noteUndecided(const Undecided& metrics, int iterations) {
    const std::string after = " after " + std::to_string(iterations) + " iterations";
    const std::string open = scenario_.untilCv
                                 ? "still spread more than " + formatPercent(*scenario_.untilCv) +
                                       after + " (max_iterations)"
                                 : "not confident" + after + " (max_iterations)";
    const std::string beyond =
        "not confident" + after + ", and " + std::to_string(schedule_.maxIterations) +
        " (max_iterations) could not make it so: its ratio lies too near a band's edge for "
        "its spread";
    for (const auto* list : {&metrics.open, &metrics.beyond})
        for (const auto& entry : *list) {
            const auto colon = entry.find(": ");
            const auto last = lastRun_.find(entry.substr(0, colon));
            if (last == lastRun_.end())
                continue;
            MetricNote note{MetricNote::Kind::Qualifies, entry.substr(colon + 2),
                            list == &metrics.open ? open : beyond};
            if (auto r = store_.addRunNote(last->second, note); !r)
                return r;
        }
    return {};
}

} // namespace lb::campaign
