// Parser for fio's terse output (--output-format=terse, --minimal): one semicolon-separated
// line per job, in the field order fio's HOWTO documents ("Terse output"). A pure function of
// text.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/run.h"

#include <string_view>

namespace lb::fio {

// Parses every terse line of the text as the jobs of one fio run (other lines, such as the disk
// utilisation line of client/server mode, are skipped). Terse versions 3 (read and write), 4
// (with trim) and 5 (with bandwidth samples and IOPS statistics) are read; with
// unified_rw_reporting fio prints one "mixed" block instead. The jobs become the same metrics
// as fio's JSON (fio.<job>.<dir>.bw, iops, clat_p50/p99/p99_9 when fio's percentile list has
// them, lat_mean, runtime), converted from KiB, KiB/s, µs and ms; a job with a non-zero error
// makes the run failed, its reason quoting fio's "err=<code>" line among the other lines. Errors:
// badInput("<line>: field <n> (<name>): <message>"), e.g. "3: field 7 (read_bandwidth_kb): 'x' is
// not a number".
// `firstLine`: the line of a larger text the text starts at (one invocation of several,
// fio_runs.h), for the line numbers of errors.
Expected<ParsedRun> parseTerse(std::string_view text, int firstLine = 1);

// True if some line starts like a terse line: "<3|4|5>;fio-" (fio's error lines, of any shape,
// may come before it).
bool looksLikeTerse(std::string_view text);

} // namespace lb::fio
