#include "engine/campaign/schedule.h"

#include <algorithm>
#include <map>
#include <set>

namespace lb {

std::vector<const ScenarioLayout*> selectedLayouts(const Scenario& s,
                                                   const std::optional<std::string>& onlyLayout) {
    // The baseline first: every candidate is measured against it, and with bracketing it runs
    // before and after them.
    std::vector<const ScenarioLayout*> out{&s.baseline()};
    for (const auto& l : s.layouts)
        if (!l.baseline && (!onlyLayout || l.name == *onlyLayout))
            out.push_back(&l);
    return out;
}

namespace {

// Why these layouts cannot all be built at once, or "" when they can.
std::string whyNotTogether(const Scenario& s, const std::vector<const ScenarioLayout*>& layouts) {
    std::map<std::string, std::string> diskOwner;
    std::map<std::string, std::string> mdOwner;
    for (const auto* l : layouts) {
        if (l->guest)
            return "layout '" + l->name + "' runs in a virtual machine";
        if (l->exported)
            return "layout '" + l->name + "' is exported to clients";
        for (const auto& d : s.disksTouchedBy(*l)) {
            const auto [it, fresh] = diskOwner.emplace(d, l->name);
            if (!fresh)
                return "layouts '" + it->second + "' and '" + l->name + "' share disk '" + d + "'";
        }
        if (l->mdKind()) {
            const auto [it, fresh] = mdOwner.emplace(l->mdDevice, l->name);
            if (!fresh)
                return "layouts '" + it->second + "' and '" + l->name + "' use the same md device";
        }
    }
    return {};
}

// The baseline can run again after the candidates without destroying anything they need: it is
// a directory, or it has disks of its own.
bool canBracket(const Scenario& s, const std::vector<const ScenarioLayout*>& layouts) {
    const ScenarioLayout& base = *layouts.front();
    if (base.kind == LayoutKind::Dir)
        return true;
    const auto own = s.disksTouchedBy(base);
    for (std::size_t i = 1; i < layouts.size(); ++i)
        for (const auto& d : s.disksTouchedBy(*layouts[i]))
            if (std::find(own.begin(), own.end(), d) != own.end())
                return false;
    return true;
}

void addIteration(std::vector<PlannedRun>& runs, const Scenario& s, const ScenarioLayout& l,
                  int iteration, bool bracket) {
    for (const auto& w : s.workloads)
        runs.push_back({l.name, w.name, iteration, bracket});
}

void addDrills(std::vector<PlannedRun>& runs, const Scenario& s, const ScenarioLayout& l) {
    for (const auto& d : s.drills)
        if (d.layout == l.name)
            runs.push_back({l.name, d.name(), 0, false});
}

// The layouts together: one stage, each round starting with another layout so none is always
// measured first; the baseline's bracketing runs, then the drills.
void scheduleInterleaved(CampaignSchedule& out, const Scenario& s,
                         const std::vector<const ScenarioLayout*>& layouts, std::size_t drills) {
    const ScenarioLayout& base = *layouts.front();
    out.stages.push_back(layouts);
    for (int i = 0; i < out.minIterations; ++i)
        for (std::size_t k = 0; k < layouts.size(); ++k)
            addIteration(out.runs, s, *layouts[(k + static_cast<std::size_t>(i)) % layouts.size()],
                         i, false);
    for (int i = 0; i < out.bracketRuns; ++i)
        addIteration(out.runs, s, base, out.bracketFirst + i, true);
    for (const auto* l : layouts)
        addDrills(out.runs, s, *l);
    out.maxRuns =
        static_cast<std::size_t>(out.maxIterations) * layouts.size() * s.workloads.size() +
        static_cast<std::size_t>(out.bracketRuns) * s.workloads.size() + drills;
}

// One layout a stage: in the scenario's order without bracketing, the baseline first with it and
// again last for the bracketing runs (its drills then).
void scheduleSequential(CampaignSchedule& out, const Scenario& s,
                        const std::vector<const ScenarioLayout*>& layouts, std::size_t drills) {
    const ScenarioLayout& base = *layouts.front();
    const auto workloads = s.workloads.size();
    const bool baseAdaptive = s.untilCv.has_value();
    auto ordered = layouts;
    if (!out.bracket) {
        ordered.clear();
        for (const auto& l : s.layouts)
            if (std::find(layouts.begin(), layouts.end(), &l) != layouts.end())
                ordered.push_back(&l);
    }
    for (const auto* l : ordered) {
        out.stages.push_back({l});
        for (int i = 0; i < out.minIterations; ++i)
            addIteration(out.runs, s, *l, i, false);
        if (!(l == &base && out.bracket))
            addDrills(out.runs, s, *l);
        const bool adaptive = l != &base || baseAdaptive;
        out.maxRuns +=
            static_cast<std::size_t>(adaptive ? out.maxIterations : out.minIterations) * workloads;
    }
    if (out.bracket) {
        out.stages.push_back({&base});
        for (int i = 0; i < out.bracketRuns; ++i)
            addIteration(out.runs, s, base, out.bracketFirst + i, true);
        addDrills(out.runs, s, base);
        out.maxRuns += static_cast<std::size_t>(out.bracketRuns) * workloads;
    }
    out.maxRuns += drills;
}

} // namespace

CampaignSchedule scheduleCampaign(const Scenario& s, const std::optional<std::string>& onlyLayout) {
    CampaignSchedule out;
    const auto layouts = selectedLayouts(s, onlyLayout);
    out.minIterations = s.iterations;
    out.maxIterations = s.maxIterations.value_or(s.iterations);
    out.sequentialWhy =
        s.interleave == false ? "interleave = false in the scenario" : whyNotTogether(s, layouts);
    out.interleaved = out.sequentialWhy.empty() && layouts.size() > 1;
    if (layouts.size() == 1 && out.sequentialWhy.empty())
        out.sequentialWhy = "one layout only";
    const bool candidates = layouts.size() > 1;
    out.bracket = candidates && s.bracket.value_or(canBracket(s, layouts));
    out.bracketFirst = out.maxIterations;
    out.bracketRuns = out.bracket ? (out.interleaved ? 1 : out.minIterations) : 0;
    std::size_t drills = 0;
    for (const auto* l : layouts)
        for (const auto& d : s.drills)
            drills += d.layout == l->name ? 1U : 0U;
    if (out.interleaved)
        scheduleInterleaved(out, s, layouts, drills);
    else
        scheduleSequential(out, s, layouts, drills);
    return out;
}

std::string describeSchedule(const Scenario& s, const CampaignSchedule& c) {
    std::string out = "iterations: ";
    if (s.adaptive())
        out += "auto, " + std::to_string(c.minIterations) + " to " +
               std::to_string(c.maxIterations) + " per layout" +
               (s.untilCv ? ", until every deciding metric's CV is below " +
                                std::to_string(static_cast<int>(*s.untilCv * 100 + 0.5)) + " %"
                          : ", until every deciding metric's verdict is confident") +
               "\n";
    else
        out += std::to_string(c.minIterations) + " per layout\n";
    out += c.interleaved ? "order: the layouts are built together and take turns, one iteration "
                           "of every workload each\n"
                         : "order: one layout after the other (" + c.sequentialWhy + ")\n";
    if (c.bracket)
        out += "bracketing: the baseline runs " + std::to_string(c.bracketRuns) +
               " more iteration(s) after the candidates, to measure the machine's drift\n";
    return out + "runs: " + describeRunCount(s, c) + "\n";
}

std::string describeRunCount(const Scenario& s, const CampaignSchedule& c) {
    // A layout with fill levels runs what the schedule gives it at each level, each level after
    // the ageing to it (a run of its own, workload fill:age), as the campaign counts them.
    std::size_t runs = 0, ageing = 0, mostLevels = 1;
    std::set<std::string> aged;
    for (const auto& p : c.runs) {
        const auto l =
            std::find_if(s.layouts.begin(), s.layouts.end(),
                         [&](const ScenarioLayout& one) { return one.name == p.layout; });
        const std::size_t levels = l == s.layouts.end() ? 0 : s.fillLevels(*l).size();
        runs += std::max<std::size_t>(levels, 1);
        mostLevels = std::max(mostLevels, levels);
        if (levels > 0 && aged.insert(p.layout).second)
            ageing += levels;
    }
    std::string out = std::to_string(runs);
    if (ageing > 0)
        out += " at their fill levels, and " + std::to_string(ageing) + " ageing run" +
               (ageing == 1 ? "" : "s") + " (fill:age)";
    if (c.maxRuns > c.runs.size())
        out += ", up to " + std::to_string(c.maxRuns * mostLevels);
    return out;
}

} // namespace lb
