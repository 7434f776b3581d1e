// fio's per-interval logs (write_bw_log, write_iops_log, write_lat_log with log_avg_msec) as
// series over the run: a pure function of the logs' text, which the fio probe collects after the
// run with one command (logsCommand) that prints each file after a header line.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/command.h"
#include "engine/measure/run.h"

#include <string>
#include <string_view>
#include <vector>

namespace lb::fio {

// The command that prints the bandwidth, IOPS and total-latency logs of the jobs whose log
// prefix is in `prefixes` (fio names them <prefix>_<bw|iops|lat>.<job index>.log), each after a
// line "==> <file> <==", in its working directory; nothing for a prefix without logs.
Command logsCommand(const std::vector<std::string>& prefixes);

// The command that removes every log those jobs wrote (clat and slat logs too: write_lat_log
// writes all three).
Command removeLogsCommand(const std::vector<std::string>& prefixes);

// Reads logsCommand's output. Each file is one log of one clone of a job (index 1..numjobs): its
// prefix is the job's name, its type (bw, iops, lat) the series. A line is
// "time_ms, value, direction, block size, offset[, priority]"; direction 0 read, 1 write,
// 2 trim. Windowed logging (log_avg_msec = `intervalMs`) gives one row per direction and window;
// the clones of a job are added up window by window (bandwidth, IOPS) or averaged (latency). The
// result, sorted by name: fio.<job>.<dir>.bw (bytes/s, from KiB/s), .iops (ops/s) and .lat_mean
// (nanoseconds), x in seconds since the job started (each window at the mean time of its rows).
// Other files (clat, slat) are skipped. Errors: badInput("<file>:<line>: ...") for a line that is
// not a log row.
Expected<std::vector<Series>> parseLogs(std::string_view text, int intervalMs);

} // namespace lb::fio
