// Plans as golden files in tests/data/plans, as `layoutbench plan` prints them: compared, or
// written afresh with LAYOUTBENCH_UPDATE_GOLDEN=1 (then read the diff).
#pragma once

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
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

} // namespace lb::test
