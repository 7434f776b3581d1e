// The fill levels of a layout's runs and the comparisons that pair them (engine/store/store.h):
// a candidate at 80 % against the baseline at 80 %, never levels mixed (issue 44).
#include "engine/base/joined.h"
#include "engine/measure/fill_levels.h"
#include "engine/store/store.h"
#include "engine/store/store_internal.h"

#include <algorithm>

namespace lb {

namespace {

std::string levelsText(const std::vector<int>& levels) {
    std::vector<std::string> words;
    for (const int l : levels)
        words.push_back(
            fillLevelText(l == asBuiltPermille ? std::nullopt : std::optional(fillLevelOf(l))));
    return joinedText(words, ", ");
}

std::string levelText(int permille) {
    return levelsText({permille});
}

bool holds(const std::vector<int>& levels, int level) {
    return std::find(levels.begin(), levels.end(), level) != levels.end();
}

} // namespace

Expected<std::vector<int>> Store::layoutFillLevels(const std::string& layout,
                                                   std::optional<std::int64_t> campaignId) {
    // A seek in run_layout_fill a level, the next past the last, as layoutHosts seeks its hosts;
    // whether any run was measured as built, from the layout's first such run in run_layout. The
    // fill lies in each run's row past its raw output: reading every row cost 80 million
    // instructions a layout of 25,000 runs.
    LB_TRY(built, statement("SELECT 1 FROM run WHERE layout_id = (SELECT id FROM layout WHERE "
                            "name = ?1) AND status IN ('ok', 'failed') AND fill_permille IS NULL "
                            "AND (?2 IS NULL OR campaign_id = ?2) LIMIT 1"));
    LB_TRY(next, statement("SELECT fill_permille FROM run WHERE layout_id = (SELECT id FROM "
                           "layout WHERE name = ?1) AND fill_permille > ?3 AND status IN ('ok', "
                           "'failed') AND (?2 IS NULL OR campaign_id = ?2) ORDER BY "
                           "fill_permille LIMIT 1"));
    std::vector<int> out;
    built->bind(1, layout).bind(2, campaignId);
    LB_TRY(isBuilt, built->step());
    built->reset();
    if (isBuilt)
        out.push_back(asBuiltPermille);
    for (std::int64_t after = asBuiltPermille;;) {
        next->bind(1, layout).bind(2, campaignId).bind(3, after);
        LB_TRY(row, next->step());
        if (row)
            after = next->columnInt(0);
        next->reset();
        if (!row)
            return out;
        out.push_back(static_cast<int>(after));
    }
}

Expected<std::optional<int>> comparedFillLevel(Store& store, const std::string& baseline,
                                               const std::string& candidate,
                                               std::optional<std::int64_t> campaignId,
                                               std::optional<int> pick) {
    LB_TRY(b, store.layoutFillLevels(baseline, campaignId));
    LB_TRY(c, store.layoutFillLevels(candidate, campaignId));
    struct Side {
        const char* name;
        const std::string* layout;
        const std::vector<int>* levels;
    };
    const Side sides[] = {{"baseline", &baseline, &b}, {"candidate", &candidate, &c}};
    if (pick) {
        for (const auto& side : sides)
            if (!side.levels->empty() && !holds(*side.levels, *pick))
                return badInput("fill: layout '" + *side.layout + "' has no runs at " +
                                levelText(*pick) + " (its runs are at " + levelsText(*side.levels) +
                                ")");
        return std::optional<int>{*pick};
    }
    for (const auto& side : sides)
        if (side.levels->size() > 1)
            return badInput(std::string("fill: the ") + side.name + " layout '" + *side.layout +
                            "' holds runs at " + std::to_string(side.levels->size()) +
                            " fill levels (" + levelsText(*side.levels) +
                            "): runs at different fill levels are not compared as one; name "
                            "one, or all");
    if (b.size() == 1 && c.size() == 1 && b.front() != c.front())
        return badInput("fill: the baseline '" + baseline + "' was measured at " +
                        levelText(b.front()) + " and the candidate '" + candidate + "' at " +
                        levelText(c.front()) + ": runs at different fill levels are not compared");
    const std::vector<int>& one = b.empty() ? c : b;
    if (one.empty() || one.front() == asBuiltPermille)
        return std::optional<int>{};
    return std::optional<int>{one.front()};
}

Expected<FillCurve> compareAtFillLevels(Store& store, const std::string& baseline,
                                        const std::string& candidate,
                                        const std::optional<ComparePolicy>& policy,
                                        std::optional<std::int64_t> campaignId,
                                        const HostChoice& hosts) {
    LB_TRY(b, store.layoutFillLevels(baseline, campaignId));
    LB_TRY(c, store.layoutFillLevels(candidate, campaignId));
    FillCurve out;
    out.baseline = baseline;
    out.candidate = candidate;
    std::vector<LevelVerdict> verdicts;
    for (const int level : b) {
        if (!holds(c, level)) {
            out.onlyBaseline.push_back(level);
            continue;
        }
        auto cmp =
            compareStoredLayouts(store, baseline, candidate, policy, campaignId, hosts, level);
        if (!cmp)
            return fail(cmp.error());
        const std::optional<double> shown =
            level == asBuiltPermille ? std::nullopt : std::optional(fillLevelOf(level));
        verdicts.push_back(levelVerdict(shown, *cmp));
        out.levels.push_back({level, std::move(*cmp)});
    }
    for (const int level : c)
        if (!holds(b, level))
            out.onlyCandidate.push_back(level);
    if (out.levels.empty())
        return badInput("fill: '" + baseline + "' (" + levelsText(b) + ") and '" + candidate +
                        "' (" + levelsText(c) + ") share no fill level");
    out.summary = fillVerdictSummary(candidate, verdicts);
    return out;
}

} // namespace lb
