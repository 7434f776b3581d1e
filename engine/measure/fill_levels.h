// Fill levels in words (issue 44): a level as people read it, and the one sentence that says
// where a layout's verdict changes as its pool fills, which every output renders as it is.
#pragma once

#include "engine/measure/analysis.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace lb {

// "80 %", "2.5 %"; "as built" for none.
std::string fillLevelText(std::optional<double> level);

// A candidate's verdict at one fill level, and the deciding metric that drove it (its worst).
struct LevelVerdict {
    std::optional<double> level; // none: as built
    Verdict verdict = Verdict::NoVerdict;
    std::string drivenBy; // empty when no deciding metric was compared
};

// Where a layout's verdict changes across its fill levels (ascending), in one sentence:
// "raidz1: viable at 0 % and 50 %, not-viable at 90 % on fio.rand-write-4k.write.iops"; the
// same verdict at every level says so: "raidz1: viable at every measured level (0 %, 50 %)".
// Empty for no level.
std::string fillVerdictSummary(std::string_view layout, std::span<const LevelVerdict> levels);

// The verdict at each level of `levels` as fillVerdictSummary reads it.
LevelVerdict levelVerdict(std::optional<double> level, const Comparison& cmp);

} // namespace lb
