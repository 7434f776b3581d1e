// The probes that run tools on a layout: fio (presets and job files), bonnie++, xz and the
// random-file write. Each is an adapter: options table -> argv, pure parser, version command.
#pragma once

#include "engine/measure/probe.h"

#include <cstdint>
#include <memory>
#include <string_view>

namespace lb {

std::unique_ptr<Probe> makeFioProbe();
std::unique_ptr<Probe> makeBonnieProbe();
std::unique_ptr<Probe> makeXzProbe();
std::unique_ptr<Probe> makeRandfileProbe();

// The registry the applications use: every probe above, registered explicitly.
ProbeRegistry standardProbes();

} // namespace lb

namespace lb {

// `xz --robot --list FILE.xz`: the uncompressed and compressed sizes from the "totals" line.
struct XzTotals {
    std::uint64_t compressedBytes = 0;
    std::uint64_t uncompressedBytes = 0;
};
Expected<XzTotals> parseXzRobotList(std::string_view stdoutText);

} // namespace lb
