// Ctrl-C and SIGTERM for the commands that drive long work (run, fleet run): the signal raises a
// cancel flag the engine polls, so the work stops politely (tools stopped, what was measured
// kept) instead of the process dying mid-write.
#pragma once

#include <atomic>

namespace lb::cli {

// Raised by SIGINT or SIGTERM once catchStopSignals() was called.
extern std::atomic<bool> interrupted;
// The signal that raised it, 0 when none did.
extern std::atomic<int> interruptedBy;

void catchStopSignals();

} // namespace lb::cli
