// A layout's fail-rebuild drill read back from the store (see failure_drills.h).
#include "engine/workbench/failure_drills.h"

#include "engine/base/size.h"
#include "engine/build/drill.h"
#include "engine/capacity/risk.h"
#include "engine/measure/analysis.h"

#include <algorithm>
#include <array>

namespace lb {

namespace {

constexpr std::string_view drillWorkload = "drill:fail-rebuild";
constexpr std::string_view prefix = "drill.fail-rebuild.";
constexpr std::array<const char*, 4> phaseNames{"healthy", "degraded", "rebuilding", "rebuilt"};

// The per-second series of the phase's run of the drill: the first stored after the drill's own
// run (the campaign stores the phases right after it, and `drill` is the newest drill).
Expected<std::optional<FailureDrillPhase>> phaseOf(Store& store, const FailureDrill& drill,
                                                   const char* phase,
                                                   std::optional<std::int64_t> campaignId) {
    LB_TRY(runs, store.layoutSeries(drillPhaseLayout(drill.layout, phase), campaignId));
    const RunSeries* first = nullptr;
    for (const auto& r : runs)
        if (r.workload == drillWorkload && r.runId > drill.runId &&
            (!first || r.runId < first->runId))
            first = &r;
    FailureDrillPhase out;
    out.phase = phase;
    out.at = drill.figure(std::string(phase) + "_at");
    if (first) {
        out.runId = first->runId;
        for (const auto& s : first->series)
            if (s.xUnit == Unit::Seconds)
                out.series.push_back(s);
    }
    if (out.series.empty() && !out.at)
        return std::optional<FailureDrillPhase>();
    return std::optional<FailureDrillPhase>(std::move(out));
}

std::string countText(double v, const std::string& one, const std::string& many) {
    const auto n = static_cast<long long>(v);
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

} // namespace

std::optional<double> FailureDrill::figure(std::string_view stat) const {
    const auto it = figures.find(std::string(stat));
    return it == figures.end() ? std::nullopt : std::optional<double>(it->second);
}

Expected<std::vector<FailureDrill>> failureDrills(Store& store,
                                                  const std::vector<std::string>& layouts,
                                                  std::optional<std::int64_t> campaignId) {
    RunQuery query;
    query.campaignId = campaignId;
    LB_TRY(runs, store.storedRuns(query));
    std::vector<const StoredRun*> read;
    for (const auto& r : runs)
        read.push_back(&r);
    return failureDrills(store, layouts, read);
}

Expected<std::vector<FailureDrill>> failureDrills(Store& store,
                                                  const std::vector<std::string>& layouts,
                                                  const std::vector<const StoredRun*>& runs) {
    std::vector<FailureDrill> out;
    for (const auto& layout : layouts) {
        const StoredRun* newest = nullptr;
        for (const StoredRun* r : runs)
            if (r->layout == layout && r->workload == drillWorkload && r->probe == "drill" &&
                r->status != RunStatus::Aborted && (!newest || r->id > newest->id))
                newest = r;
        if (!newest)
            continue;
        FailureDrill d;
        d.layout = layout;
        d.runId = newest->id;
        d.status = newest->status;
        d.reason = newest->reason;
        if (const auto disks = failRebuildDisks(newest->argv)) {
            d.failedDisk = disks->failed;
            d.spare = disks->spare;
        }
        LB_TRY(metrics, store.runMetrics(newest->id));
        for (const auto& m : metrics)
            if (m.name.starts_with(prefix))
                d.figures[m.name.substr(prefix.size())] = m.value;
        const auto on = measuredOn(newest->caveats);
        d.underEmulation = std::find(on.begin(), on.end(), "TCG emulation") != on.end();
        // The phases are stored right after the drill's run, in the same campaign.
        const std::optional<std::int64_t> phaseCampaign =
            newest->campaignId != 0 ? std::optional<std::int64_t>(newest->campaignId)
                                    : std::nullopt;
        for (const char* phase : phaseNames) {
            LB_TRY(p, phaseOf(store, d, phase, phaseCampaign));
            if (p)
                d.phases.push_back(std::move(*p));
        }
        out.push_back(std::move(d));
    }
    return out;
}

std::string drillIntegrityText(const FailureDrill& d) {
    std::vector<std::string> parts;
    if (const auto m = d.figure("mismatch_cnt"))
        parts.push_back(std::string("md check: ") +
                        countText(*m, "mismatched sector", "mismatched sectors"));
    if (const auto e = d.figure("scrub_errors"))
        parts.push_back(std::string("scrub: ") + countText(*e, "error", "errors"));
    if (const auto c = d.figure("checksum_mismatches"))
        parts.push_back(std::string("files: ") + countText(*c, "filled file", "filled files") +
                        " changed");
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i ? "; " : "") + parts[i];
    if (d.status == RunStatus::Failed)
        out += std::string(out.empty() ? "" : "; ") + "failed: " + d.reason;
    return out.empty() ? std::string("not checked") : out;
}

std::string noDrillStatement(const std::string& layout) {
    return layout + " has no fail-rebuild drill: its risk uses an assumed rebuild rate (" +
           formatRate(RiskAssumptions::rebuildBytesPerSecond) + ", " +
           std::string(RiskAssumptions::rebuildBasis) + "), not a measured one.";
}

std::vector<std::pair<double, std::string>> drillMoments(const FailureDrill& d) {
    std::vector<std::pair<double, std::string>> out;
    for (const auto& [stat, label] : {std::pair<const char*, const char*>{"failed_at", "failed"},
                                      {"rebuild_at", "spare added"},
                                      {"whole_at", "whole again"}})
        if (const auto at = d.figure(stat))
            out.emplace_back(*at, label);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace lb
