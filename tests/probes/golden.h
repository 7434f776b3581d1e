// Reading golden files and finding metrics, for the import parsers' tests.
#pragma once

#include "engine/measure/run.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

namespace lb::test {

inline std::string golden(const std::string& relative) {
    const auto path = std::filesystem::path(LAYOUTBENCH_TEST_DATA_DIR) / relative;
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << "cannot open " << path;
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

inline const Metric* findMetric(const std::vector<Metric>& metrics, const std::string& name) {
    const auto it = std::find_if(metrics.begin(), metrics.end(),
                                 [&](const Metric& m) { return m.name == name; });
    return it == metrics.end() ? nullptr : &*it;
}

inline double metricValue(const ParsedRun& run, const std::string& name) {
    const Metric* m = findMetric(run.metrics, name);
    EXPECT_NE(m, nullptr) << "no metric " << name;
    return m ? m->value : -1;
}

inline bool hasNote(const ParsedRun& run, MetricNote::Kind kind, const std::string& metrics,
                    const std::string& textPart) {
    return std::any_of(run.notes.begin(), run.notes.end(), [&](const MetricNote& n) {
        return n.kind == kind && n.metrics == metrics && n.text.find(textPart) != std::string::npos;
    });
}

inline bool hasCaveat(const ParsedRun& run, const std::string& part) {
    return std::any_of(run.caveats.begin(), run.caveats.end(),
                       [&](const std::string& c) { return c.find(part) != std::string::npos; });
}

inline std::vector<Metric> sortedMetrics(std::vector<Metric> metrics) {
    std::sort(metrics.begin(), metrics.end(),
              [](const Metric& a, const Metric& b) { return a.name < b.name; });
    return metrics;
}

inline std::vector<MetricNote> sortedNotes(std::vector<MetricNote> notes) {
    std::sort(notes.begin(), notes.end(), [](const MetricNote& a, const MetricNote& b) {
        return a.metrics < b.metrics || (a.metrics == b.metrics && a.text < b.text);
    });
    return notes;
}

// Everything before the last non-empty line, and that line: bonnie++'s table and its CSV line.
inline std::pair<std::string, std::string> splitLastLine(const std::string& text) {
    auto end = text.find_last_not_of('\n');
    const auto start = text.rfind('\n', end);
    return {text.substr(0, start + 1), text.substr(start + 1, end - start)};
}

} // namespace lb::test
