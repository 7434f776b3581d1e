// How compressible the data a workload wrote is, measured rather than assumed: a bounded sample
// of its file (its first dataSampleBytes) compressed where it is, by gzip -1, after the run and
// before the file is removed. The ratio goes to ParsedRun::dataCompressRatio; the campaign makes
// its notes (compressionNotes).
#pragma once

#include "engine/exec/command.h"

#include <cstdint>
#include <optional>
#include <string>

namespace lb {

inline constexpr std::uint64_t dataSampleBytes = 4 << 20;

// Prints "<sample bytes> <compressed bytes>".
Command dataSampleCommand(const std::string& path);

// sample bytes / compressed bytes; none for output that is not two positive counts.
std::optional<double> dataSampleRatio(const std::string& stdoutText);

} // namespace lb
