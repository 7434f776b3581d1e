// How compressible the data a workload writes is, measured rather than assumed: a bounded sample
// of it (dataSampleBytes) compressed where the workload ran, by gzip -1, after the run. The ratio
// goes to ParsedRun::dataCompressRatio; the campaign makes its notes (compressionNotes).
#pragma once

#include "engine/exec/command.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lb {

inline constexpr std::uint64_t dataSampleBytes = 4 << 20;

// Prints "<sample bytes> <compressed bytes>" of the first dataSampleBytes of `path`. With a
// `writer` (a command writing `path` the way the workload writes), runs it first and removes
// `path` after: the sample is then the data the workload writes, not what else its file holds
// (the never-written, zero-filled parts of a file a short random-write run touched here and
// there, which compress to nothing).
Command dataSampleCommand(const std::string& path, const std::vector<std::string>& writer = {});

// sample bytes / compressed bytes; none for output that is not two positive counts.
std::optional<double> dataSampleRatio(const std::string& stdoutText);

} // namespace lb
