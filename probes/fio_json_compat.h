// fio JSON from every fio that wrote it, brought to the shape fio 3.x writes before
// fio_json.cpp reads it. Kept apart from fio_json.cpp, which reads fio 3.x's shape only.
#pragma once

#include "engine/expected.h"
#include "engine/run.h"

#include <nlohmann/json_fwd.hpp>

namespace lb::fio::compat {

// fio 1.x/2.x ("fio version": "fio-2.2.10") wrote bw in KiB/s, "io_bytes" in KiB, latencies in
// µs under slat/clat/lat (percentiles too, with "0.00" keys repeated for unused slots) and json+
// bins keyed by µs or, in some versions, by bucket index; some had no total_ios. Each direction
// of "jobs" and "client_stats" gets the 3.x fields (bw_bytes, io_bytes in bytes, lat_ns,
// clat_ns with ns percentiles and bins, total_ios) converted from them; fio 3.x JSON is left as
// it is. Then, in any version, a json+ direction whose percentile list lacks p50, p99 or p99.9
// gets them from its clat bins, as fio computes them. Errors name the 2.x field: "jobs[0].read.
// bw: missing".
Expected<void> normalize(nlohmann::ordered_json& root);

// True for "fio-1.x" and "fio-2.x" version strings.
bool isLegacyVersion(std::string_view fioVersion);

} // namespace lb::fio::compat
