// Parser for fio's normal (human) output, --output-format=normal, the form most often pasted in
// documentation and tickets: a pure function of the captured text, read into the same metrics as
// fio's JSON (fio_json.h) where the text carries them.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/run.h"

#include <string_view>

namespace lb::fio {

// Parses each job's block ("<job>: (groupid=0, jobs=1): err= 0: ...") of fio's normal output,
// local runs of fio 2.0-3.x, in both forms fio's stat.c wrote:
//   fio <= 2.16: "  read : io=32768KB, bw=2462.5MB/s, iops=19700, runt=    13msec" (K, M, G
//     powers of 1024 with fio's default kb_base; IOPS in powers of 1000)
//   fio >= 2.17: "  read: IOPS=19.7k, BW=2462MiB/s (2581MB/s)(32.0MiB/13msec)" (Ki/Mi/Gi and
//     k/M/G as printed)
// with slat/clat/lat means in the unit printed (nsec, usec, msec) and the clat (or lat, with
// lat_percentiles=1) percentiles p50/p99/p99.9. The entries become metrics through the JSON
// parser's own reading (job grouping, same-named jobs combined, failures, caveats), so
// fio.<job>.<dir>.bw, iops, clat_p50/p99/p99_9 or lat_p*, lat_mean and runtime match the JSON
// of the same run within the text's rounding. I/O counts for weighting come from the "issued"
// line. fio --client's text output is read too: the servers' "hostname=" lines name the run's
// machine, "All clients" is fio's sum as in its JSON (fio_clients.h); the job blocks name no
// client, so per-client metrics (fio.<job>@<host>.*) come only from one server, or from a
// "<host> " before a block's head. A line the parser cannot place is a caveat
// quoting it with its number; a job's figures that cannot be read are badInput("<line>: <field>:
// <message>"), e.g. "5: read: BW: 'x' is not a number".
// `firstLine`: the line of a larger text the text starts at (one invocation of several,
// fio_runs.h), for the line numbers of errors and caveats.
Expected<ParsedRun> parseNormal(std::string_view text, int firstLine = 1);

// True if a line looks like the head of a job's block in fio's normal output:
// "<job>: (groupid=<n>, jobs=<n>): err=".
bool looksLikeNormal(std::string_view text);

} // namespace lb::fio
