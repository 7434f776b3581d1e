// Series of runs and queue-depth sweeps (see series.h).
#include "engine/measure/series.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>
#include <tuple>

namespace lb {

double seriesMean(const Series& s) {
    if (s.y.empty())
        return 0;
    return std::accumulate(s.y.begin(), s.y.end(), 0.0) / static_cast<double>(s.y.size());
}

std::optional<std::size_t> medianRun(const std::vector<const Series*>& runs) {
    std::vector<std::pair<double, std::size_t>> means;
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (runs[i] && !runs[i]->y.empty())
            means.emplace_back(seriesMean(*runs[i]), i);
    if (means.empty())
        return std::nullopt;
    std::sort(means.begin(), means.end());
    return means[(means.size() - 1) / 2].second;
}

std::vector<std::string> seriesNames(const std::vector<RunSeries>& runs) {
    std::vector<std::string> out;
    for (const auto& r : runs)
        for (const auto& s : r.series)
            out.push_back(s.name);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::optional<int> queueDepthOfJob(std::string_view job) {
    if (!job.starts_with(queueDepthSweepJob))
        return std::nullopt;
    const std::string_view digits = job.substr(queueDepthSweepJob.size());
    int depth = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), depth);
    if (ec != std::errc() || end != digits.data() + digits.size() || depth < 1)
        return std::nullopt;
    return depth;
}

std::vector<SweepCurve> queueDepthSweeps(const std::vector<MetricSamples>& metrics) {
    // <family>.<job>.<dir>.<stat>: the job may hold dots (a client's host), the rest may not.
    struct Medians {
        std::optional<double> iops, lat, clat;
    };
    std::map<std::tuple<std::string, std::string>, std::map<int, Medians>> found;
    for (const auto& m : metrics) {
        if (m.values.empty())
            continue;
        const auto first = m.name.find('.');
        const auto last = m.name.rfind('.');
        const auto dirDot = last == std::string::npos || last == 0 ? std::string::npos
                                                                   : m.name.rfind('.', last - 1);
        if (first == std::string::npos || dirDot == std::string::npos || dirDot <= first)
            continue;
        const auto depth =
            queueDepthOfJob(std::string_view(m.name).substr(first + 1, dirDot - first - 1));
        if (!depth)
            continue;
        const std::string stat = m.name.substr(last + 1);
        if (stat != "iops" && stat != "lat_p99" && stat != "clat_p99")
            continue;
        Medians& at =
            found[{m.name.substr(0, first), m.name.substr(dirDot + 1, last - dirDot - 1)}][*depth];
        if (stat == "iops")
            at.iops = median(m.values);
        else if (stat == "lat_p99")
            at.lat = median(m.values);
        else if (stat == "clat_p99")
            at.clat = median(m.values);
    }
    std::vector<SweepCurve> out;
    for (const auto& [key, byDepth] : found) {
        SweepCurve c;
        std::tie(c.family, c.direction) = key;
        // One latency for the whole curve: total latency when every depth has it.
        const bool total = std::all_of(byDepth.begin(), byDepth.end(),
                                       [](const auto& d) { return d.second.lat.has_value(); });
        c.p99Metric = total ? "lat_p99" : "clat_p99";
        for (const auto& [depth, m] : byDepth)
            c.points.push_back({depth, m.iops, total ? m.lat : m.clat});
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace lb
