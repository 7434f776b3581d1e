// Parser for the summary dd prints when it finishes, in the GNU, BSD and BusyBox forms, with
// the dd command line when it was pasted too. A pure function of text.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/run.h"

#include <string>
#include <string_view>
#include <vector>

namespace lb::dd {

struct PastedRun {
    int line = 0;    // the summary's line (1-based)
    std::string raw; // the command line (if any), the records lines and the summary
    ParsedRun run;
};

// One run per summary line, each with dd.throughput in bytes/s computed from the bytes and
// seconds dd printed (not from its rounded "101 MB/s"):
//   GNU      "1048576000 bytes (1.0 GB, 1000 MiB) copied, 10.4203 s, 101 MB/s"
//            (coreutils before 8.24: "1048576000 bytes (1.0 GB) copied, ..."; the seconds may
//            be printed as 8.5683e-05, or with a decimal comma)
//   BSD      "1048576000 bytes transferred in 10.420047 secs (100630640 bytes/sec)"
//   GNU, old "33554432 bytes transferred in 3.203750 seconds (10473487 bytes/sec)"
//   FreeBSD 12+ "1048576000 bytes (1049 MB, 1000 MiB) transferred 10.420s, 101 MB/s"
//   BusyBox  "1048576000 bytes (1000.0MB) copied, 10.420047 seconds, 96.0MB/s"
// GNU's status=progress lines are not summaries and are skipped. A "dd if=... of=... bs=..."
// line before a summary (after a shell prompt or "time", say) gives the run's spec: the command,
// direction (read: of=/dev/null; write: if=/dev/zero or /dev/urandom; copy: otherwise), block
// size, count, and a Method note (direct I/O with iflag/oflag=direct, else buffered I/O).
// Errors: badInput("<line>: <field>: <message>"); text with no summary is an error.
Expected<std::vector<PastedRun>> parse(std::string_view text);

// True if some line is a dd summary in one of the forms above.
bool looksLikeDd(std::string_view text);

} // namespace lb::dd
