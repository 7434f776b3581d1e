// Fill levels in a campaign (issue 44; engine/campaign/campaign_internal.h): a stage's layouts
// filled and aged level by level, lowest first, on the same build, with the stage's rounds run at
// each; every run stores the level and what the ageing wrote, and the campaign's comparisons pair
// a candidate at a level with the baseline at the same level.
#include "engine/build/fill.h"
#include "engine/campaign/campaign_internal.h"
#include "engine/measure/fill_levels.h"

#include <algorithm>

namespace lb::campaign {

std::vector<std::optional<double>>
CampaignRunner::stageFillLevels(const std::vector<const ScenarioLayout*>& stage) const {
    std::vector<std::optional<double>> out;
    for (const auto* l : stage)
        for (const double level : scenario_.fillLevels(*l))
            out.emplace_back(level);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    if (out.empty())
        out.emplace_back(); // as built
    return out;
}

bool CampaignRunner::runsAtStageFill(const ScenarioLayout& layout) const {
    const auto& levels = scenario_.fillLevels(layout);
    if (!stageFill_)
        return levels.empty();
    return std::find(levels.begin(), levels.end(), *stageFill_) != levels.end();
}

std::optional<double> CampaignRunner::lastFillLevel(const ScenarioLayout& layout) const {
    const auto& levels = scenario_.fillLevels(layout);
    if (levels.empty())
        return std::nullopt;
    return levels.back();
}

// One layout filled and aged to `level`: the ageing is a run of its own (workload fill:age,
// probe fill) at that level, with the pool's figures as its metrics. False when it failed: the
// layout's runs at this level and above would not be at the level they claim.
Expected<bool> CampaignRunner::fillOne(BuiltLayout& built, double level) {
    const ScenarioLayout& layout = *built.layout;
    auto probe = fillProbe(scenario_, layout, level, opt_.fillMaxBytes);
    if (!probe)
        return fail(probe.error());
    ScenarioWorkload w;
    w.name = fillWorkload;
    w.probe = "fill";
    w.timeoutSeconds = 48 * 3600;
    int iteration = 0; // each ageing to the level in this campaign (a resume ages again)
    while (settled_.count(keyAt(layout.name, w.name, iteration, level)))
        ++iteration;
    CampaignProgress p{CampaignProgress::Kind::Message, layout.name};
    p.message = "filling and ageing '" + layout.name + "' to " + fillLevelText(level) +
                " of its usable space (seed " + std::to_string(scenario_.fillSeed) + ")";
    progress(p);
    built.fillLevel = level;
    ++total_; // the ageing is a run of its own, counted as it comes
    LB_TRY_VOID(runOne(built, probe->get(), w, iteration));
    settled_.insert(keyAt(layout.name, w.name, iteration, level));
    LB_TRY(metrics, store_.runMetrics(lastRun_[layout.name]));
    const auto find = [&](std::string_view name) -> std::optional<double> {
        for (const auto& m : metrics)
            if (m.name == name)
                return m.value;
        return std::nullopt;
    };
    if (!find("fill.level")) {
        result_.problems.push_back("layout '" + layout.name + "' could not be filled to " +
                                   fillLevelText(level) +
                                   ": its runs at this level and above are not measured (see "
                                   "its fill:age run)");
        return false;
    }
    built.fillBytes = static_cast<std::uint64_t>(find("fill.written_bytes").value_or(0));
    return true;
}

// The stage's layouts that run at its level, filled and aged to it; false when one could not be.
Expected<bool> CampaignRunner::fillStage(std::vector<BuiltLayout>& built) {
    if (!stageFill_)
        return true;
    for (auto& b : built) {
        if (cancelled() || !runsAtStageFill(*b.layout))
            continue;
        LB_TRY(filled, fillOne(b, *stageFill_));
        if (!filled)
            return false;
    }
    return true;
}

// A candidate against the baseline at every level both were measured at in this campaign, and
// the sentence that says where its verdict changes.
Expected<void> CampaignRunner::compareByFillLevel(const ScenarioLayout& candidate) {
    auto curve = compareAtFillLevels(store_, scenario_.baseline().name, candidate.name,
                                     scenario_.policy(), result_.campaignId);
    if (!curve) {
        if (curve.error().kind != ErrorKind::BadInput)
            return fail(curve.error());
        result_.notComparable.push_back(candidate.name + ": no comparison (" +
                                        curve.error().message + ")");
        return {};
    }
    for (auto& level : curve->levels)
        result_.comparisons.push_back(std::move(level.comparison));
    result_.fillSummaries.push_back(curve->summary);
    return {};
}

} // namespace lb::campaign
