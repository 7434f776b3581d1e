// The libFuzzer entry point of one fuzz target, chosen when it is built (LAYOUTBENCH_FUZZ_TARGET).
#include "tests/fuzz/targets.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const lb::fuzz::Target* target = [] {
        const auto* t = lb::fuzz::findTarget(LAYOUTBENCH_FUZZ_TARGET);
        if (!t) {
            std::fprintf(stderr, "no fuzz target named %s\n", LAYOUTBENCH_FUZZ_TARGET);
            std::abort();
        }
        return t;
    }();
    target->run(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
