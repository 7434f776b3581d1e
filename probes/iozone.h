// Parser for iozone's reports as people paste them: throughput mode (-t N: "Children see
// throughput for N initial writers = X kB/sec") and the automatic mode's table (-a: one row per
// file size and record size). A pure function of text.
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
// iozone's kB are KiB: values become bytes/s; with -O (operations per second) the metrics are
// <op>_ops in ops/s. The run's origin records the version ("3.506"), the unit converted from,
// and the spec: mode, processes, record and file size in bytes, and the command line.
// Errors: badInput("<line>: <field>: <message>"); text with no iozone result is an error.
Expected<std::vector<PastedRun>> parse(std::string_view text);

// True if the text holds an iozone banner, a "Children see throughput" line or the automatic
// table's "kB  reclen" header.
bool looksLikeIozone(std::string_view text);

} // namespace lb::iozone
