// A fleet's report: the JSON of `fleet report --json` (canonical units), an aligned text for
// people, and a document the report's emitters write as HTML, PDF or Markdown. Each layout
// measured on several machines: the hosts that stand apart, worst first, then every deciding
// metric host by host.
#pragma once

#include "engine/measure/fleet.h"
#include "reports/report.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lb {

// What every form shows of one metric: its title ("fio.x.read.bw (higher is better): fleet
// median 1.20 GB/s, hosts 0.62 GB/s to 1.25 GB/s"), and a row a host under fleetHostHeaders:
// host, median, 95 % interval, runs, distance from the fleet's median, whether it stands apart.
std::string fleetMetricTitle(const FleetMetric& m);
extern const std::vector<std::string> fleetHostHeaders;
std::vector<std::vector<std::string>> fleetHostRows(const FleetMetric& m);

nlohmann::json fleetJson(const std::vector<FleetAnalysis>& fleet);
std::string fleetText(const std::vector<FleetAnalysis>& fleet, std::size_t maxWidth = 0);
// `writtenAt`: when, as the document's foot says it (ISO 8601).
ReportDocument fleetDocument(const std::vector<FleetAnalysis>& fleet, std::string writtenAt);

} // namespace lb
