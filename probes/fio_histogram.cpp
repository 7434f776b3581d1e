// Percentile curves from fio's json+ bins (see fio_histogram.h).
#include "probes/fio_histogram.h"

#include "probes/fio_output.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

namespace lb::fio {

namespace {

using json = nlohmann::json;

// Adds a bins object ("latency": count) into `into`; false when a key is not a number.
bool addBins(const json& bins, std::map<double, double>& into) {
    for (const auto& [key, count] : bins.items()) {
        double latency = 0;
        const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), latency);
        if (ec != std::errc() || end != key.data() + key.size() || !std::isfinite(latency) ||
            latency < 0 || !count.is_number())
            return false;
        const double n = count.get<double>();
        if (!std::isfinite(n) || n < 0)
            return false;
        into[latency] += n;
    }
    return true;
}

} // namespace

Expected<std::vector<Series>> latencyCurves(std::string_view stdoutText) {
    LB_TRY(span, locateJson(stdoutText, {}));
    const json doc =
        json::parse(stdoutText.substr(span.begin, span.end - span.begin), nullptr, false);
    if (!doc.is_object())
        return badInput("fio json+: the JSON cannot be read");
    const auto jobs = doc.find("jobs");
    if (jobs == doc.end() || !jobs->is_array())
        return std::vector<Series>{}; // fio --client output: per client, no curve
    // (job, direction) -> (total latency?, latency -> count)
    std::map<std::pair<std::string, std::string>, std::pair<bool, std::map<double, double>>> found;
    for (const auto& job : *jobs) {
        if (!job.is_object() || !job.value("jobname", json()).is_string())
            continue;
        const std::string name = job["jobname"].get<std::string>();
        for (const char* dir : {"read", "write", "trim", "mixed"}) {
            const auto d = job.find(dir);
            if (d == job.end() || !d->is_object())
                continue;
            for (const auto& [kind, total] :
                 {std::pair{"lat_ns", true}, std::pair{"clat_ns", false}}) {
                const auto lat = d->find(kind);
                if (lat == d->end() || !lat->is_object() || !lat->contains("bins") ||
                    !(*lat)["bins"].is_object() || (*lat)["bins"].empty())
                    continue;
                auto& [isTotal, bins] = found[{name, dir}];
                if (!bins.empty() && isTotal != total)
                    break; // another entry of the job gave the other latency: keep the first
                isTotal = total;
                if (!addBins((*lat)["bins"], bins))
                    return badInput("jobs: " + name + "." + dir + "." + kind +
                                    ".bins: a bucket that is not a latency and a count");
                break;
            }
        }
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
