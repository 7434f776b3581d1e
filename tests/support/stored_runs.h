// Test fixture support: a campaign's runs and metrics read back from the store, as tests check
// them.
#pragma once

#include "engine/store/store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lb::test {

// One row of the run table, as stored.
struct RunRow {
    std::int64_t id = 0;
    std::string layout;
    std::string workload;
    std::string probe;
    int iteration = 0;
    std::vector<std::string> argv;
    std::optional<std::int64_t> exitCode;
    std::string out;
    std::string err;
    std::string toolVersion;
    std::string status;
    std::string reason;
    std::vector<std::string> caveats;
    std::int64_t metrics = 0; // how many metrics the run has
};

// The campaign's runs in the order they were stored (a failed query is a test failure).
std::vector<RunRow> runRows(Store& store, std::int64_t campaignId);

// One metric of a run, if it has it.
std::optional<double> metricValue(Store& store, std::int64_t runId, const std::string& name);

// Whether one of the run's caveats contains `part`.
bool hasCaveat(const RunRow& r, const std::string& part);

} // namespace lb::test
