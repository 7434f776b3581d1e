// Percentile curves from fio's json+ bins (see fio_histogram.h).
#include "probes/fio_histogram.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

namespace lb::fio {

std::vector<std::pair<double, double>> mergedBins(std::vector<std::pair<double, double>> bins) {
    // In latency order, a bucket's counts added up in the order the entries came (a vector
    // sorted once: a map node per bucket took 8 % of a json+ import, this 2 %).
    const auto byLatency = [](const auto& a, const auto& b) { return a.first < b.first; };
    if (!std::is_sorted(bins.begin(), bins.end(), byLatency))
        std::stable_sort(bins.begin(), bins.end(), byLatency);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < bins.size(); ++i) {
        if (kept > 0 && bins[kept - 1].first == bins[i].first)
            bins[kept - 1].second += bins[i].second;
        else
            bins[kept++] = bins[i];
    }
    bins.resize(kept);
    return bins;
}

std::optional<double> binsPercentile(const std::vector<std::pair<double, double>>& sortedBins,
                                     double percent) {
    long double total = 0;
    for (const auto& [latency, count] : sortedBins)
        total += count;
    if (!(total > 0))
        return std::nullopt;
    // fio compares the running count with the wanted share in long double
    // ("sum >= (long double) plist[j].u.f / 100.0 * nr"), so p99 of 1024 I/Os is the bucket
    // holding the 1014th: followed here to the same type, or a bucket edge could differ.
    const long double wanted = static_cast<long double>(percent) / 100.0L * total;
    long double seen = 0;
    for (const auto& [latency, count] : sortedBins) {
        seen += count;
        if (seen >= wanted)
            return latency;
    }
    return sortedBins.back().first;
}

std::vector<Series> latencyCurves(const std::vector<LatencyBins>& histograms) {
    // (job, direction) -> (total latency?, the bins of its entries, in the order given)
    std::map<std::pair<std::string, std::string>,
             std::pair<bool, std::vector<std::pair<double, double>>>>
        found;
    for (const auto& h : histograms) {
        if (h.bins.empty())
            continue;
        auto& [isTotal, bins] = found[{h.job, h.direction}];
        if (!bins.empty() && isTotal != h.total)
            continue; // another entry of the job gave the other latency: keep the first
        isTotal = h.total;
        bins.insert(bins.end(), h.bins.begin(), h.bins.end());
    }
    std::vector<Series> out;
    for (auto& [key, value] : found) {
        auto& [isTotal, bins] = value;
        bins = mergedBins(std::move(bins));
        double all = 0;
        for (const auto& [latency, count] : bins)
            all += count;
        if (!(all > 0) || !std::isfinite(all))
            continue;
        Series s;
        s.name = "fio." + key.first + "." + key.second + (isTotal ? ".lat_curve" : ".clat_curve");
        s.xUnit = Unit::Percent;
        s.unit = Unit::Nanoseconds;
        s.x.reserve(bins.size());
        s.y.reserve(bins.size());
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
