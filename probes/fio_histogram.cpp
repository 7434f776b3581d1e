// Percentile curves from fio's json+ bins (see fio_histogram.h).
#include "probes/fio_histogram.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace lb::fio {

std::vector<Series> latencyCurves(const std::vector<LatencyBins>& histograms) {
    // (job, direction) -> (total latency?, latency -> count)
    std::map<std::pair<std::string, std::string>, std::pair<bool, std::map<double, double>>> found;
    for (const auto& h : histograms) {
        if (h.bins.empty())
            continue;
        auto& [isTotal, bins] = found[{h.job, h.direction}];
        if (!bins.empty() && isTotal != h.total)
            continue; // another entry of the job gave the other latency: keep the first
        isTotal = h.total;
        for (const auto& [latency, count] : h.bins)
            bins[latency] += count;
    }
    std::vector<Series> out;
    for (const auto& [key, value] : found) {
        const auto& [isTotal, bins] = value;
        double all = 0;
        for (const auto& [latency, count] : bins)
            all += count;
        if (!(all > 0) || !std::isfinite(all))
            continue;
        Series s;
        s.name = "fio." + key.first + "." + key.second + (isTotal ? ".lat_curve" : ".clat_curve");
        s.xUnit = Unit::Percent;
        s.unit = Unit::Nanoseconds;
        double below = 0;
        for (const auto& [latency, count] : bins) {
            below += count;
            s.x.push_back(100.0 * below / all);
            s.y.push_back(latency);
        }
        out.push_back(std::move(s));
    }
    std::sort(out.begin(), out.end(),
              [](const Series& a, const Series& b) { return a.name < b.name; });
    return out;
}

} // namespace lb::fio
