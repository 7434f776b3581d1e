// Parser for fio's JSON output (--output-format=json or json+, local or fio --client): a pure
// function of the captured text, so imports and parser fixes never need to rerun fio.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/run.h"

#include <string_view>

namespace lb::fio {

// Parses fio --output-format=json or json+ output. Tolerates log lines before the first '{' (fio
// prints warnings and "fio: pid=..., err=..." lines there) and text after the closing brace
// (--output-format=json,normal). With --status-interval fio prints one report per interval; the
// last, final one is used. fio 1.x/2.x JSON (KiB and µs) is converted to 3.x's fields first
// (fio_json_compat.h). Returns workload "fio", toolVersion from "fio version", and per job and
// direction (read/write/trim, or "mixed" with unified_rw_reporting) that did I/O the metrics
//   fio.<job>.<dir>.bw, iops, clat_p50, clat_p99, clat_p99_9, lat_p50, lat_p99, lat_p99_9,
//   lat_mean, runtime
// in canonical units (lat_p* = total latency, only when fio ran with lat_percentiles=1; clat_p*
// when fio printed them). Several entries with the same job name (numjobs>1 without
// group_reporting) are combined: bw and iops summed, lat_mean weighted by total_ios, runtime the
// longest, percentiles merged from the entries' json+ histograms where every entry has them (as
// fio's group_reporting computes them; a caveat and a Qualifies note on fio.<job>.<dir>.clat_p*
// say "merged from 4 jobs' json+ histograms"), else the largest entry's, said the same way
// ("largest of 4 jobs' p50, p99 and p99.9"). origin.spec["job_entries"] says how many entries
// the file has when there are more than jobs (same-named entries, fio --client's entries), and
// origin.spec["job_groups"] how many groups ("groupid") when more than one.
// Notes on the metrics (ParsedRun::notes): for each job a Method note "direct I/O" or "buffered
// I/O" on fio.<job>.* from its effective direct/buffered option (job options over global
// options, the last written winning; fio's default is buffered), none when the JSON prints no
// options; for each direction a Qualifies note on fio.<job>.<dir>.* when it ran under 5 s ("ran
// 2.1 s: under 5 s, too short to trust"), and one on fio.<job>.<dir>.clat_* when mean submission
// latency is over 10 % of mean total latency ("submission takes 96 % of the total latency:
// completion latency alone understates it"). fio --client output ("client_stats") gives the
// aggregate as fio.<job>.<dir>.* and each client as fio.<job>@<host>.<dir>.* (<host>:<port> when
// several servers share a host name).
// json+ output (histogram "bins") also gives each job and direction its percentile curve
// (fio_histogram.h) as ParsedRun::series; a histogram that cannot be read is a caveat.
// A job with "error" != 0 makes the run failed, with a reason naming the job, the error and the
// matching "err=<code>" log line; no metrics come from that job. A job whose options fio printed
// gets a Method note: direct or buffered I/O.
// Malformed or truncated JSON and missing or mistyped fields give a BadInput error naming the
// byte offset or the JSON path, e.g. "jobs[0].read.bw_bytes: expected a number".
Expected<ParsedRun> parseJson(std::string_view stdoutText, std::string_view stderrText = {});

// The name a job gets when fio wrote an empty "jobname" (fio 3.1 does for a job given none):
// fio.unnamed.read.bw.
constexpr std::string_view unnamedJob = "unnamed";

// The same through nlohmann's DOM alone, the reading parseJson falls back to for what it does
// not take from simdjson's; tests hold the two to one result.
Expected<ParsedRun> parseJsonWithoutSimdjson(std::string_view stdoutText,
                                             std::string_view stderrText = {});

// True if the text contains a '{' whose first key is "fio version", "jobs" or "client_stats",
// i.e. it looks like fio JSON output (possibly truncated) rather than fio's normal text output.
bool looksLikeJson(std::string_view text);

} // namespace lb::fio
