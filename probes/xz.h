// What xz says of the file it compressed: `xz --robot --list FILE.xz`, whose "totals" line holds
// the compressed and uncompressed sizes the xz probe turns into a ratio. A pure function of text.
#pragma once

#include "engine/base/expected.h"

#include <cstdint>
#include <string_view>

namespace lb {

struct XzTotals {
    std::uint64_t compressedBytes = 0;
    std::uint64_t uncompressedBytes = 0;
};
Expected<XzTotals> parseXzRobotList(std::string_view stdoutText);

} // namespace lb
