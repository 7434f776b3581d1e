// The fuzz targets: each feeds arbitrary bytes to one parser of outside input, the way a hostile
// or damaged file would reach it. A target passes when the parser returns (a result or an error)
// without crashing, leaking, tripping a sanitizer or taking too long; what it returns is not
// judged here. Built as libFuzzer programs by the `fuzz` preset (fuzz_main.cpp) and, in every
// build, run over the inputs the fuzzers once found (tests/data/fuzz/<target>/, regression_test).
#pragma once

#include <span>
#include <string_view>

namespace lb::fuzz {

struct Target {
    std::string_view name; // fuzz_<name> is its program; tests/data/fuzz/<name>/ its regressions
    void (*run)(std::string_view input);
};

std::span<const Target> targets();
const Target* findTarget(std::string_view name);

} // namespace lb::fuzz
