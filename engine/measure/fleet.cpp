#include "engine/measure/fleet.h"

#include "engine/measure/measure_internal.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace lb {

namespace {

// One metric's values per host, in host order.
using HostValues = std::vector<std::pair<std::string, const std::vector<double>*>>;

std::string standoutSentence(const FleetHostFigure& h, const FleetMetric& m, bool worse) {
    std::string s = h.host + ": " + shortMetricName(m.name) + " " + percentText(h.deviation) +
                    " % " + (h.deviation < 0 ? "below" : "above") + " the fleet median, " +
                    (worse ? "worse" : "better");
    if (h.intervalOutside)
        s += " (interval outside the fleet's spread)";
    return s;
}

// Whether h's interval lies outside the other hosts' medians.
bool outsideOthers(const FleetHostFigure& h, const std::vector<FleetHostFigure>& all) {
    if (!h.interval)
        return false;
    double low = INFINITY, high = -INFINITY;
    for (const auto& o : all)
        if (&o != &h) {
            low = std::min(low, o.median);
            high = std::max(high, o.median);
        }
    return h.interval->high < low || h.interval->low > high;
}

FleetMetric fleetMetric(const std::string& name, const MetricInfo& info, const HostValues& values,
                        const Thresholds& thresholds) {
    FleetMetric m;
    m.name = name;
    m.unit = info.unit;
    m.better = info.better;
    std::vector<double> medians;
    for (const auto& [host, v] : values) {
        FleetHostFigure h;
        h.host = host;
        h.runs = v->size();
        h.median = median(*v);
        h.interval = geometricMeanInterval(*v);
        medians.push_back(h.median);
        m.hosts.push_back(std::move(h));
    }
    m.fleetMedian = median(medians);
    const auto [lo, hi] = std::minmax_element(medians.begin(), medians.end());
    m.spread = {*lo, *hi};
    for (const auto& [index, score] :
         outlierIndexes(medians, thresholds.viableMax, minHostsForStandouts)) {
        m.hosts[index].apart = true;
        m.hosts[index].score = score;
    }
    for (auto& h : m.hosts) {
        h.deviation = m.fleetMedian > 0 ? h.median / m.fleetMedian - 1 : 0;
        h.intervalOutside = outsideOthers(h, m.hosts);
    }
    return m;
}

} // namespace

FleetAnalysis analyseFleet(std::string layout,
                           const std::vector<std::pair<std::string, LayoutSamples>>& samples,
                           const ComparePolicy& policy, bool allMetrics) {
    FleetAnalysis out;
    out.layout = std::move(layout);
    out.policy = policy;
    std::map<std::string, HostValues> byMetric;
    for (const auto& [host, side] : samples) {
        out.hosts.push_back(host);
        for (const auto& m : side.metrics)
            if (!m.values.empty() && (allMetrics || decidesUnder(policy, m.name)))
                byMetric[m.name].emplace_back(host, &m.values);
    }
    std::sort(out.hosts.begin(), out.hosts.end());
    for (auto& [name, values] : byMetric) {
        const auto info = describeMetric(name);
        if (values.size() < 2 || !info)
            continue;
        std::sort(values.begin(), values.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        out.metrics.push_back(fleetMetric(name, *info, values, policy.thresholds));
    }
    for (const auto& m : out.metrics)
        for (const auto& h : m.hosts)
            if (h.apart) {
                const bool worse = (h.deviation < 0) == (m.better == Better::Higher);
                out.standouts.push_back({h.host, m.name, h.deviation, worse, h.intervalOutside,
                                         standoutSentence(h, m, worse)});
            }
    std::stable_sort(out.standouts.begin(), out.standouts.end(),
                     [](const FleetStandout& a, const FleetStandout& b) {
                         if (a.worse != b.worse)
                             return a.worse;
                         return std::fabs(std::log1p(a.deviation)) >
                                std::fabs(std::log1p(b.deviation));
                     });
    return out;
}

} // namespace lb
