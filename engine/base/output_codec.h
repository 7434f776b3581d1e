// A run's raw output as the store keeps it. Output under 1 KiB, and output that LZ4 does not
// shrink by an eighth, is kept as it is (SQLite TEXT). Larger output (a fio JSON+ document is
// 10 KB; LZ4 makes it 3.3 KB in 7 µs) is kept as a BLOB: "LZ4" and a format byte (1), the text's
// length in 8 bytes little-endian, then one LZ4 block. Writing 10 KB to the WAL and again to the
// database cost more than compressing it: an import of 10,000 fio JSON+ files spent a quarter of
// its time storing output. SQLite's typeof(stdout) of a run tells which ('text' or 'blob').
#pragma once

#include "engine/base/expected.h"

#include <optional>
#include <string>
#include <string_view>

namespace lb {

// Outputs shorter than this are kept as text: too little to gain, and most of a campaign's.
inline constexpr std::size_t packedOutputMinBytes = 1024;

// The BLOB for `text`, or nullopt when it is kept as text.
std::optional<std::string> packOutput(std::string_view text);

// The text of a BLOB made by packOutput; an error when it is not one (a damaged database).
Expected<std::string> unpackOutput(std::string_view blob);

} // namespace lb
