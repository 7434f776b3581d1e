// Parser for the CSV line bonnie++ writes (the only stdout output with -q, the last stdout line
// without it). A pure function of text: no process, no files.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/run.h"

#include <array>
#include <string>
#include <string_view>

namespace lb::bonnie {

// bonnie++'s tests in the order its CSV lines and text tables print them; a test's metrics are
// bonnie.<test>, bonnie.<test>_cpu and bonnie.<test>_latency.
inline constexpr std::array<std::string_view, 6> ioTestNames{"putc", "put_block", "rewrite",
                                                             "getc", "get_block", "seeks"};
inline constexpr std::array<std::string_view, 6> fileTestNames{"seq_create", "seq_stat", "seq_del",
                                                               "ran_create", "ran_stat", "ran_del"};

// Parses one CSV line as bonnie++ writes it with -q or to its CSV output. Returns ParsedRun with
// workload "bonnie", toolVersion = bonnie++ version field (e.g. "2.00a"), metrics in canonical
// units: block rates in bytes/s, seeks and file tests in ops/s, CPU in percent, latencies in
// nanoseconds. A field printed as +++++ (too fast to time) gives no metric but an Excludes note
// naming it ("too fast to time (+++++)"), and a caveat per test; an empty field (test not run)
// gives none of these.
// Format versions 1.96 and 1.97 have 48 fields, 1.98 (bonnie++ 1.98 and 2.00a) has 50.
// bonnie++ 1.00-1.03e wrote no version: 27 fields from the machine name on, no latencies
// (toolVersion "1.0x"); such a line is told from a 1.96+ one by its first fields.
// On bad input returns badInput(msg) where msg names the field, e.g.
// "field 10 (put_block): 'abc' is not a number" or "expected 48 fields (format 1.97), got 31".
// A trailing newline/CR and surrounding whitespace are ignored.
// `spare` may hold an earlier line's metrics, whose names' memory the line's take over: an
// import of a million lines allocated and freed forty names a line.
Expected<ParsedRun> parseCsvLine(std::string_view line, std::vector<Metric> spare = {});

// True if the text looks like bonnie++ CSV: its first non-blank line has at least three fields,
// the first a format version like 1.96/1.97/1.98 and the second a bonnie++ version ("1.98,2.00a,
// ..."), or it is a bonnie++ 1.0x line. Used to detect the type of an imported file. Unknown
// format versions of that shape are accepted so that parseCsvLine can say what is wrong instead
// of the file going unrecognised.
bool looksLikeCsv(std::string_view text);

// The toolVersion of a 1.0x line, which does not say which 1.0x wrote it.
inline constexpr std::string_view v1Version = "1.0x";

// The machine name a CSV line carries (field 3 from 1.96 on, field 1 in 1.0x); "" if none.
std::string machineOf(std::string_view line);

// Records that bonnie++ printed `marker` (+++++) for `metric`: a caveat and an Excludes note, as
// the CSV and the text table both do.
void noteTooFast(ParsedRun& run, const std::string& metric, std::string_view marker);

// Records how much work the tests did, as Method notes the comparison holds against the other
// side's (engine/measure/analysis.h): the file size of the block tests ("file_size=63G", -s) and
// the file count of the file tests ("files=16", -n, in thousands as bonnie++ prints it; a table's
// "16:4096:1024/2" gives 16). Empty: not said.
void noteWork(ParsedRun& run, std::string_view fileSize, std::string_view files);

} // namespace lb::bonnie
