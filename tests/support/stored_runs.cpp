#include "tests/support/stored_runs.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace lb::test {

std::vector<RunRow> runRows(Store& store, std::int64_t campaignId) {
    auto runs = store.storedRuns({campaignId, RunQuery::Output::All});
    EXPECT_TRUE(runs) << runs.error().message;
    std::vector<RunRow> out;
    if (!runs)
        return out;
    for (auto& s : *runs) {
        RunRow r;
        r.id = s.id;
        r.layout = std::move(s.layout);
        r.workload = std::move(s.workload);
        r.probe = std::move(s.probe);
        r.iteration = s.iteration;
        r.argv = std::move(s.argv);
        if (s.exitCode)
            r.exitCode = *s.exitCode;
        r.out = std::move(s.stdoutText);
        r.err = std::move(s.stderrText);
        r.toolVersion = std::move(s.toolVersion);
        r.status = std::string(runStatusName(s.status));
        r.reason = std::move(s.reason);
        r.caveats = std::move(s.caveats);
        r.metrics = s.metrics;
        out.push_back(std::move(r));
    }
    return out;
}

std::optional<double> metricValue(Store& store, std::int64_t runId, const std::string& name) {
    auto metrics = store.runMetrics(runId);
    if (!metrics)
        return std::nullopt;
    for (const auto& m : *metrics)
        if (m.name == name)
            return m.value;
    return std::nullopt;
}

bool hasCaveat(const RunRow& r, const std::string& part) {
    return std::any_of(r.caveats.begin(), r.caveats.end(),
                       [&](const std::string& c) { return c.find(part) != std::string::npos; });
}

} // namespace lb::test
