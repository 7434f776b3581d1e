#include "tests/support/stored_runs.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace lb::test {

using nlohmann::json;

std::vector<RunRow> runRows(Store& store, std::int64_t campaignId) {
    auto q = store.database().prepare(
        "SELECT r.id, l.name, r.workload, r.probe, r.iteration, r.argv, r.exit_code, r.stdout, "
        "r.stderr, r.tool_version, r.status, r.reason, r.caveats, (SELECT COUNT(*) FROM metric m "
        "WHERE m.run_id = r.id) FROM run r JOIN layout l ON l.id = r.layout_id WHERE "
        "r.campaign_id = ?1 ORDER BY r.id");
    EXPECT_TRUE(q) << q.error().message;
    std::vector<RunRow> out;
    if (!q)
        return out;
    q->bind(1, campaignId);
    const auto walked = q->forEachRow([&](sql::Statement& row) {
        RunRow r;
        r.id = row.columnInt(0);
        r.layout = row.columnText(1);
        r.workload = row.columnText(2);
        r.probe = row.columnText(3);
        r.iteration = static_cast<int>(row.columnInt(4));
        r.argv = json::parse(row.columnText(5)).get<std::vector<std::string>>();
        if (!row.columnIsNull(6))
            r.exitCode = row.columnInt(6);
        r.out = row.columnText(7);
        r.err = row.columnText(8);
        r.toolVersion = row.columnText(9);
        r.status = row.columnText(10);
        r.reason = row.columnText(11);
        r.caveats = json::parse(row.columnText(12)).get<std::vector<std::string>>();
        r.metrics = row.columnInt(13);
        out.push_back(std::move(r));
    });
    EXPECT_TRUE(walked) << walked.error().message;
    return out;
}

std::optional<double> metricValue(Store& store, std::int64_t runId, const std::string& name) {
    auto q = store.database().prepare("SELECT value FROM metric WHERE run_id = ?1 AND name = ?2");
    if (!q)
        return std::nullopt;
    q->bind(1, runId).bind(2, name);
    auto row = q->step();
    if (!row || !*row)
        return std::nullopt;
    return q->columnDouble(0);
}

bool hasCaveat(const RunRow& r, const std::string& part) {
    return std::any_of(r.caveats.begin(), r.caveats.end(),
                       [&](const std::string& c) { return c.find(part) != std::string::npos; });
}

} // namespace lb::test
