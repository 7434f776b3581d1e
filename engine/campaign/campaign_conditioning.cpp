// SSD preconditioning and steady state before a layout's measured runs (SNIA PTS): the
// workload-independent sequential writes, then each workload's own rounds until the tracked
// variable holds, every step stored with its raw output and none of them a run.
#include "engine/base/size.h"
#include "engine/campaign/campaign_internal.h"
#include "engine/campaign/precondition.h"
#include "engine/measure/steady_state.h"

namespace lb::campaign {

// One preconditioning step (round 0) or steady-state round, run in the layout's directory and
// recorded with its raw output; its tracked value is none when it failed (`error` says why).
Expected<ConditioningStep> CampaignRunner::conditioningStep(const BuiltLayout& built,
                                                            const Probe& probe,
                                                            const ScenarioWorkload& w,
                                                            MeasuredCommand mc, int round) {
    Runner& where = *built.where;
    ConditioningStep step;
    step.campaignId = result_.campaignId;
    step.layoutId = built.id;
    step.workload = round == 0 ? "" : w.name;
    step.round = round;
    step.tracked = mc.steadyStateMetrics;
    step.bytes = round == 0 ? mc.workingSetBytes : std::nullopt;
    step.argv = mc.command.argvForDisplay();
    step.startedAt = store_.now();
    mc.command.timeout = std::chrono::seconds(w.timeoutSeconds);
    auto finish = [&](std::string error) -> Expected<ConditioningStep> {
        for (const auto& c : mc.cleanup)
            (void)where.run(c);
        step.error = std::move(error);
        if (step.finishedAt.empty())
            step.finishedAt = store_.now();
        LB_TRY(id, store_.addConditioningStep(step));
        step.id = id;
        return step;
    };
    for (const auto& prep : mc.prepare) {
        auto r = where.run(prep);
        if (!r || !r->ok())
            return finish("preparing (" + prep.toUserOutput() +
                          "): " + (r ? failureReason(*r, w.timeoutSeconds) : r.error().message));
    }
    auto result = where.run(mc.command, toolRunOptions());
    if (!result)
        return finish(result.error().message);
    keepOutput(step, *result);
    if (result->cancelled)
        return finish("stopped by the user");
    if (!result->ok())
        return finish(failureReason(*result, w.timeoutSeconds));
    WorkloadContext ctx = built.ctx;
    ctx.layoutName = built.layout->name;
    auto parsed = probe.parseFor(*result, {}, w.options, ctx);
    if (!parsed)
        return finish("unreadable output: " + parsed.error().message);
    step.value = trackedValue(parsed->metrics, mc.steadyStateMetrics);
    if (!step.value)
        return finish("no metric matches " + mc.steadyStateMetrics);
    return finish("");
}

namespace {

struct Conditioned {
    const ScenarioWorkload* workload;
    const Probe* probe;
    Preconditioning p;
};

} // namespace

// SSD preconditioning before the layout's first measured run, for the workloads that ask for it:
// the workload-independent sequential writes once, then each workload's rounds until steady
// state or its round limit. A failed step leaves a note on the workload's runs, which are then
// measured without it; only the store failing stops the campaign.
Expected<void> CampaignRunner::condition(const BuiltLayout& built) {
    const ScenarioLayout& layout = *built.layout;
    std::vector<Conditioned> items;
    std::vector<Preconditioning> asked;
    for (const auto& w : scenario_.workloads) {
        auto& notes = conditioningNotes_[{layout.name, w.name}];
        notes.clear();
        const Probe* probe = probes_.find(w.probe);
        std::string skipped;
        if (auto p = preconditioningFor(layout, w, *probe, &skipped)) {
            items.push_back({&w, probe, *p});
            asked.push_back(*p);
        } else if (!skipped.empty()) {
            notes.push_back({MetricNote::Kind::Method, "", "not preconditioned: " + skipped});
        }
    }
    if (items.empty() || cancelled())
        return {};
    auto noteAll = [&](MetricNote::Kind kind, const std::string& text) {
        for (const auto& item : items)
            conditioningNotes_[{layout.name, item.workload->name}].push_back({kind, "", text});
    };

    std::uint64_t freeBytes = 0;
    if (auto df = capture(*built.where, simple("df", {"-B1", "--output=avail", built.ctx.workdir})))
        freeBytes = parseDfAvailable(*df).value_or(0);
    const std::uint64_t bytes = preconditionBytes(asked, layout, freeBytes);
    const Conditioned& first = items.front();
    auto mc = first.probe->preconditionCommand(first.workload->options, built.ctx, bytes);
    if (!mc) {
        noteAll(MetricNote::Kind::Qualifies, "not preconditioned: " + mc.error().message + " (" +
                                                 formatBytes(freeBytes, true) + " free)");
        return {};
    }
    CampaignProgress p{CampaignProgress::Kind::Message, layout.name};
    p.message = "preconditioning '" + layout.name + "': sequential 128 KiB writes, twice " +
                formatBytes(bytes, true);
    progress(p);
    LB_TRY(step, conditioningStep(built, *first.probe, *first.workload, std::move(*mc), 0));
    if (!step.error.empty()) {
        noteAll(MetricNote::Kind::Qualifies,
                "SNIA preconditioning failed, measured without it: " + step.error);
        return {};
    }
    for (const auto& item : items)
        LB_TRY_VOID(steadyRounds(built, item.workload, item.probe, item.p, bytes));
    return {};
}

// A workload's steady-state rounds after the preconditioning writes, and the note they leave on
// its runs.
Expected<void> CampaignRunner::steadyRounds(const BuiltLayout& built, const ScenarioWorkload* w,
                                            const Probe* probe, const Preconditioning& p,
                                            std::uint64_t bytes) {
    const ScenarioLayout& layout = *built.layout;
    auto& notes = conditioningNotes_[{layout.name, w->name}];
    std::vector<double> values;
    SteadyStateCheck check;
    std::string tracked;
    for (int round = 1; round <= p.maxRounds && !cancelled(); ++round) {
        WorkloadContext ctx = built.ctx;
        ctx.layoutName = layout.name;
        auto rmc = probe->steadyStateRound(w->options, ctx, p.roundSeconds);
        if (!rmc) {
            notes.push_back({MetricNote::Kind::Qualifies, "",
                             "no steady-state rounds: " + rmc.error().message});
            break;
        }
        tracked = rmc->steadyStateMetrics;
        LB_TRY(r, conditioningStep(built, *probe, *w, std::move(*rmc), round));
        if (!r.error.empty()) {
            notes.push_back({MetricNote::Kind::Qualifies, "",
                             "steady-state round " + std::to_string(round) +
                                 " failed, measured without steady state: " + r.error});
            values.clear();
            break;
        }
        values.push_back(*r.value);
        check = checkSteadyState(values);
        CampaignProgress rp{CampaignProgress::Kind::Message, layout.name, w->name};
        rp.message = "steady state of " + w->name + " on '" + layout.name + "': round " +
                     std::to_string(round) + ", " + tracked + " = " + std::to_string(*r.value) +
                     (check.reached ? ", steady" : "");
        progress(rp);
        if (check.reached)
            break;
    }
    if (!values.empty() && !cancelled())
        notes.push_back(steadyStateNote(check, values, p, bytes, tracked));
    return {};
}

} // namespace lb::campaign
