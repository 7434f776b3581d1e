// The latency distribution of each fio job from its json+ histogram ("bins": the count of I/Os
// per latency bucket), as a percentile curve: a pure function of fio's output.
#pragma once

#include "engine/expected.h"
#include "engine/run.h"

#include <string_view>
#include <vector>

namespace lb::fio {

// For each job and direction whose json+ output has bins: the series fio.<job>.<dir>.lat_curve
// from total latency's bins (lat_ns, printed with lat_percentiles=1), else .clat_curve from
// completion latency's (clat_ns). A point per bucket, in latency order: x the percent of I/Os
// that completed within y (nanoseconds, the bucket's value), so the last point is at 100. Entries
// of one job name (numjobs without group_reporting) are added up. Sorted by name; empty for
// plain JSON (no bins) and for fio --client output. Bad input when the JSON cannot be read.
Expected<std::vector<Series>> latencyCurves(std::string_view stdoutText);

} // namespace lb::fio
