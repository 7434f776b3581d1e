// Fill levels in words (engine/measure/fill_levels.h).
#include "engine/measure/fill_levels.h"

#include "engine/base/joined.h"

#include <cmath>
#include <cstdio>
#include <vector>

namespace lb {

std::string fillLevelText(std::optional<double> level) {
    if (!level)
        return "as built";
    const double percent = *level * 100.0;
    char buf[32];
    if (std::fabs(percent - std::round(percent)) < 1e-6)
        std::snprintf(buf, sizeof buf, "%.0f %%", percent);
    else
        std::snprintf(buf, sizeof buf, "%.1f %%", percent);
    return buf;
}

LevelVerdict levelVerdict(std::optional<double> level, const Comparison& cmp) {
    LevelVerdict out{level, cmp.verdict, {}};
    // Deciding metrics come first, worst first: the first deciding one drove the verdict.
    for (const auto& m : cmp.metrics)
        if (m.decisive) {
            out.drivenBy = m.name;
            break;
        }
    return out;
}

std::string fillVerdictSummary(std::string_view layout, std::span<const LevelVerdict> levels) {
    if (levels.empty())
        return {};
    std::vector<std::string> all;
    for (const auto& l : levels)
        all.push_back(fillLevelText(l.level));
    bool same = true;
    for (const auto& l : levels)
        same = same && l.verdict == levels.front().verdict;
    std::string out(layout);
    out.append(": ");
    if (same)
        return out.append(verdictName(levels.front().verdict))
            .append(" at every measured level (")
            .append(joinedText(all, ", "))
            .append(")");
    // Runs of one verdict, in level order: "viable at 0 % and 50 %", then each change with the
    // metric that drove the verdict where it changed.
    std::size_t i = 0;
    bool first = true;
    while (i < levels.size()) {
        std::size_t j = i;
        std::vector<std::string> at;
        while (j < levels.size() && levels[j].verdict == levels[i].verdict)
            at.push_back(fillLevelText(levels[j++].level));
        std::string joined = at.front();
        for (std::size_t k = 1; k < at.size(); ++k)
            joined.append(k + 1 == at.size() ? " and " : ", ").append(at[k]);
        out.append(first ? "" : ", ")
            .append(verdictName(levels[i].verdict))
            .append(" at ")
            .append(joined);
        if (!first && !levels[i].drivenBy.empty())
            out.append(" on ").append(levels[i].drivenBy);
        first = false;
        i = j;
    }
    return out;
}

} // namespace lb
