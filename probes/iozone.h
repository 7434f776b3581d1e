// Parser for iozone's reports as people paste them: throughput mode (-t N: "Children see
// throughput for N initial writers = X kB/sec"), the automatic mode's table (-a: one row per
// file size and record size) and the -R report after either (its "Excel output"). A pure
// function of text.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/run.h"

#include <string>
#include <string_view>
#include <vector>

namespace lb::iozone {

struct PastedRun {
    int line = 0;    // the run's first line (1-based)
    std::string raw; // the lines it was read from
    ParsedRun run;
};

// One run per iozone invocation in the text (each starts at "Iozone: Performance Test of File
// I/O"; a paste without that banner is one run). Throughput mode gives iozone.<op> from the
// "Children see" line (the sum over the processes), e.g. iozone.write, iozone.random_read;
// the automatic table gives iozone.f<file>-r<record>.<op> per cell, e.g. iozone.f64M-r4k.write.
// The -R report gives the same names; after the normal output it is checked against it (a
// differing number is an error), alone it is read; its 0 cells (record sizes skipped above the
// crossover) are not figures.
// iozone's kB are KiB: values become bytes/s; with -O (operations per second) the metrics are
// <op>_ops in ops/s; with -N (microseconds per operation, which iozone truncates to whole µs)
// <op>_latency in nanoseconds, a 0 (under 1 µs) not stored but counted in a caveat. A line of
// figures no table takes (a row cut short, numbers under no heading) is named in a caveat and
// in origin.spec["lines_not_read"]; a row with a value under no heading is refused.
// The run's origin records the version ("3.465"), the unit converted from, and the spec: mode,
// processes, record and file size in bytes, and the command line. It names no host: iozone
// prints none, not even in -+m cluster mode, where only its client file names the hosts.
// Errors: badInput("<line>: <field>: <message>"); text with no iozone result, or a run iozone
// refused (-N with -t: "Microsecond mode not supported in throughput mode."), is an error.
Expected<std::vector<PastedRun>> parse(std::string_view text);

// True if the text holds an iozone banner, a "Children see throughput" line, the automatic
// table's "kB  reclen" header or the start of a -R report ("Excel output is below:", a quoted
// "Writer report" title, "Throughput report ...").
bool looksLikeIozone(std::string_view text);

// True if the text is the binary spreadsheet iozone -Rb writes (Excel BIFF2): not imported, as
// the same tables are on iozone's standard output with -R.
bool looksLikeSpreadsheet(std::string_view text);

} // namespace lb::iozone
