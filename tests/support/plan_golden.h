// Plans as golden files in tests/data/plans, as `layoutbench plan` prints them: compared, or
// written afresh with LAYOUTBENCH_UPDATE_GOLDEN=1 (then read the diff).
#pragma once

#include "engine/build/plan.h"
#include "engine/scenario/scenario.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>

namespace lb::test {

inline void expectGolden(const std::string& name, const std::string& actual) {
    const std::string path = std::string(LAYOUTBENCH_TEST_DATA_DIR) + "/plans/" + name + ".txt";
    if (const char* update = std::getenv("LAYOUTBENCH_UPDATE_GOLDEN"); update && *update == '1') {
        std::ofstream(path) << actual;
        return;
    }
    std::ifstream in(path);
    ASSERT_TRUE(in) << path << " is missing; run with LAYOUTBENCH_UPDATE_GOLDEN=1";
    std::stringstream expected;
    expected << in.rdbuf();
    EXPECT_EQ(actual, expected.str()) << "golden file " << path;
}

// A layout's plan as `layoutbench plan` prints it, each part under its "-- runs-on (workdir)"
// line; the error, or "no layout", in its place.
inline std::string describedPlan(const Scenario& s, const std::string& layout,
                                 const std::map<std::string, std::uint64_t>& sizes = {}) {
    for (const auto& l : s.layouts)
        if (l.name == layout) {
            auto parts = planParts(s, l, sizes);
            if (!parts)
                return "error: " + parts.error().message + "\n";
            std::string out;
            for (const auto& p : *parts)
                out += "-- " + std::string(enumName(p.runsOn)) + " (workdir " + p.workdir + ")\n" +
                       describePlan(p);
            return out;
        }
    return "no layout " + layout + "\n";
}

} // namespace lb::test
