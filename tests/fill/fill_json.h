// What the fill suites read from the command line's JSON: a document parsed (a failure naming
// the output), and a metric's medians in a comparison.
#pragma once

#include "tests/cli/process.h"

#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace lb::test {

inline nlohmann::json parsedJson(const ProcessResult& r) {
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
    return j;
}

// A metric's medians in a comparison's JSON, {baseline, candidate}; NaN (and a failure) when it
// is not there or a side has none.
inline std::pair<double, double> comparedMedians(const nlohmann::json& cmp,
                                                 const std::string& name) {
    for (const auto& m : cmp.at("metrics"))
        if (m.at("name") == name && m.at("baseline_median").is_number() &&
            m.at("candidate_median").is_number())
            return {m.at("baseline_median").get<double>(), m.at("candidate_median").get<double>()};
    ADD_FAILURE() << name << " not in the comparison at "
                  << cmp.value("fill_level", nlohmann::json()) << ": "
                  << cmp.dump(1).substr(0, 4000);
    return {std::nan(""), std::nan("")};
}

} // namespace lb::test
