// Shared by the import's two files only: import_read.cpp reads a file's text into runs (its
// format detected, then each tool's parser); import.cpp checks, counts and stores them.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/run.h"
#include "probes/import.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lb::import_read {

// One run as a parser found it: where it starts, the text it was read from, what it measured.
struct Found {
    std::int64_t line = 1;
    std::string raw;
    ParsedRun run;
    // The tool's format when it is not the file's (a dd summary after an iozone report).
    std::optional<ImportFormat> format;
};

// "PATH:" before a parser's "LINE: FIELD: message"; nothing when there is no file (a paste).
Unexpected located(const std::string& path, const std::string& message);

// The format of a text, from its first lines' shapes; nullopt when it is none imported.
std::optional<ImportFormat> detect(std::string_view text);

// One bonnie++ CSV line as a run; nothing for a blank line. `spare`: bonnie::parseCsvLine's.
Expected<std::optional<Found>> bonnieCsvLine(std::int64_t number, std::string_view line,
                                             std::vector<Metric> spare = {});
inline constexpr std::string_view noCsvLines = "1: no bonnie++ CSV lines";

// A whole text's format and runs, or the error naming `path` (a file parsed whole, or a paste).
Expected<std::pair<ImportFormat, std::vector<Found>>> parseWhole(const std::string& path,
                                                                 std::string text);

// The probe a format's runs are of: "bonnie", "fio", "iozone", "dd".
std::string_view probeOf(ImportFormat f);

} // namespace lb::import_read
