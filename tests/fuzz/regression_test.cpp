// The inputs the fuzzers once crashed on (tests/data/fuzz/<target>/), run through the same fuzz
// targets in every build, so a fixed parser stays fixed without clang or libFuzzer. And the seed
// scenarios the scenario fuzzer starts from still load: a seed that no longer does would only
// teach the fuzzer the error path.
#include "engine/scenario/scenario.h"
#include "probes/registry.h"
#include "tests/fuzz/targets.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace {

namespace fs = std::filesystem;

const fs::path dataDir = fs::path(LAYOUTBENCH_TEST_DATA_DIR) / "fuzz";
const std::string seedsDir = "scenario-seeds";

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(FuzzRegression, EveryKeptInputRunsThroughItsTarget) {
    int inputs = 0;
    for (const auto& dir : fs::directory_iterator(dataDir)) {
        const std::string name = dir.path().filename().string();
        if (!dir.is_directory() || name == seedsDir)
            continue;
        const auto* target = lb::fuzz::findTarget(name);
        ASSERT_NE(target, nullptr) << dir.path() << " names no fuzz target";
        for (const auto& file : fs::directory_iterator(dir.path())) {
            SCOPED_TRACE(file.path().string());
            target->run(slurp(file.path())); // returns: no crash, no exception
            ++inputs;
        }
    }
    EXPECT_GT(inputs, 0);
}

TEST(FuzzRegression, SeedScenariosLoad) {
    const lb::ProbeRegistry probes = lb::standardProbes();
    int seeds = 0;
    for (const auto& file : fs::directory_iterator(dataDir / seedsDir)) {
        if (file.path().extension() != ".toml")
            continue;
        auto s = lb::parseScenario(slurp(file.path()), file.path().string(), probes);
        EXPECT_TRUE(s) << s.error().message;
        ++seeds;
    }
    EXPECT_GT(seeds, 0);
}

} // namespace
