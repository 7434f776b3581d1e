// The GUI tests' fixture database: two layouts imported from the golden files of the real tools —
// "bare-metal" (bonnie++ seed-bare-metal.csv, fio seq_read.json and rand_write_4k.json) and
// "guest" (seed-guest.csv, the same two fio runs and the failed fio run failed_notdir.json).
// put_block 343719 -> 217553 KiB/s makes bonnie.put_block a "decision".
#pragma once

#include "engine/base/expected.h"

#include <string>

namespace lb::gui::test {

inline constexpr const char* baselineLayout = "bare-metal";
inline constexpr const char* candidateLayout = "guest";

// Creates the database at `path` (which must not exist yet).
Expected<void> createFixtureDatabase(const std::string& path);

} // namespace lb::gui::test
