// fio JSON from every fio that wrote it, brought to the shape fio 3.x writes before
// fio_json.cpp reads it. Kept apart from fio_json.cpp, which reads fio 3.x's shape only.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/run.h"

#include <array>
#include <nlohmann/json_fwd.hpp>
#include <string_view>

namespace lb::fio::compat {

// fio 3.33's default percentile_list keys for p50, p99 and p99.9.
constexpr std::array<std::string_view, 3> percentileKeys{"50.000000", "99.000000", "99.900000"};
// A job's directions; "mixed" is unified_rw_reporting's reads and writes together.
constexpr std::array<std::string_view, 4> directions{"read", "write", "trim", "mixed"};

// fio 1.x/2.x ("fio version": "fio-2.2.10") wrote bw in KiB/s, "io_bytes" in KiB, latencies in
// µs under slat/clat/lat (percentiles too, with "0.00" keys repeated for unused slots) and json+
// bins keyed by µs or, in some versions, by bucket index; some had no total_ios. fio 2.21 to 3.1
// wrote "io_bytes" in bytes with "io_kbytes" beside it, and 2.99 to 3.1 (the fio of CentOS 7/8
// and Ubuntu 18.04) clat_ns and lat_ns already, but none before 3.2 wrote "bw_bytes". Each
// direction of "jobs" and "client_stats" without bw_bytes gets the 3.x fields (bw_bytes as fio
// 3.2 computes it, io_bytes in bytes, lat_ns, clat_ns with ns percentiles and bins, total_ios)
// from what it holds; fio 3.2+ JSON is left as it is. Then, in any version, a json+ direction
// whose percentile list lacks p50, p99 or p99.9 gets them from its clat bins, as fio computes
// them. Before fio 3.18 a job with lat_percentiles=1 printed total latency's percentiles under
// clat_ns; they are moved to lat_ns. Errors name the old field: "jobs[0].read.bw: missing".
Expected<void> normalize(nlohmann::ordered_json& root);

// True for "fio-1.x" and "fio-2.x" version strings.
bool isLegacyVersion(std::string_view fioVersion);

// True for fio before 3.18 ("fio-3.1", "fio-2.2.10"), which printed lat_percentiles=1's
// total-latency percentiles under clat_ns.
bool printsLatPercentilesAsClat(std::string_view fioVersion);

// Whether normalize fills a direction's percentiles from its json+ bins: its clat_ns has bins
// and its percentile list lacks p50, p99 or p99.9. `V` is a view of the direction
// (probes/json_view.h).
template <typename V> bool fillsPercentilesFromBins(const V& direction) {
    const auto clat = direction.member("clat_ns");
    if (!clat || !clat->isObject() || !clat->member("bins"))
        return false;
    const auto pct = clat->member("percentile");
    if (!pct || !pct->isObject())
        return true;
    for (const auto key : percentileKeys)
        if (!pct->member(key))
            return true;
    return false;
}

// Whether normalize would change the document (one from before fio 3.2, or percentiles to fill
// from bins), so a reader of fio 3.x output can take a document as it is when not.
template <typename V> bool needsNormalizing(const V& root) {
    const auto version = root.member("fio version");
    if (version && version->isString() &&
        (isLegacyVersion(version->string()) || printsLatPercentilesAsClat(version->string())))
        return true;
    for (const auto arrayKey : {"jobs", "client_stats"}) {
        const auto array = root.member(arrayKey);
        if (!array || !array->isArray())
            continue;
        for (const auto& entry : array->elements())
            for (const auto dir : directions)
                if (const auto d = entry.member(dir);
                    d && d->isObject() && (!d->member("bw_bytes") || fillsPercentilesFromBins(*d)))
                    return true;
    }
    return false;
}

} // namespace lb::fio::compat
