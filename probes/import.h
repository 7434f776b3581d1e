// Import of results produced outside layoutbench, in the forms people have them: bonnie++ CSV
// lines and text tables, fio JSON (any version, json+ too) and terse output, iozone reports and
// dd summaries. A file (or standard input) is imported whole or not at all.
#pragma once

#include "engine/base/expected.h"
#include "engine/base/input.h"
#include "engine/store/store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

enum class ImportFormat { BonnieCsv, BonnieText, FioJson, FioTerse, FioNormal, Iozone, Dd };

// "bonnie++ CSV", "bonnie++ text table", "fio JSON", "fio terse", "iozone", "dd".
std::string_view importFormatName(ImportFormat f);

// The host of imported runs whose output names no machine, when the import names none.
inline constexpr std::string_view defaultImportHost = "imported";

struct ImportRequest {
    std::string layout;
    // The machine every run was measured on. Empty: each run's own, the machine its output
    // names (a bonnie++ line's, a fio client's hostname), else defaultImportHost, which is also
    // the layout's host when it is new.
    std::string host;
    std::string kind = "imported";  // layout kind to record when the layout is new
    std::vector<std::string> files; // "-" is standard input
    // Data already in the store (the same content hash) is refused unless this is set.
    bool allowDuplicate = false;
    std::optional<InputLimit> limit; // resultLimit() when not given
};

struct ImportedFile {
    std::string path;
    ImportFormat format = ImportFormat::FioJson;
    std::string description; // as describeImport: "bonnie++ 1.96 text table, 1 machine, 18 metrics"
    std::vector<Run> runs;
    std::vector<int> lines; // the line of the text each run starts at
};

struct ImportSummary {
    std::string layout;
    std::int64_t runs = 0;
    std::int64_t failedRuns = 0;
    std::int64_t metrics = 0;
    std::vector<std::string> files;
    std::vector<std::string> descriptions; // one per file, in the same order
};

// Parses one file's text: every run it holds, each with its origin (format, units converted
// from, spec), or a bad-input error "PATH:LINE: FIELD: message". A run that is not failed and
// yields no metric is an error naming why (every test too fast to time, say). Pure: no file
// system, no database.
Expected<ImportedFile> parseResultFile(const std::string& path, std::string_view text);

// What a text would import as, for a paste box that detects as the user types: the format and
// a one-line description ("bonnie++ 1.96 text table, 1 machine, 18 metrics"), or the error
// the import would give (without a file name). Pure.
struct ImportPreview {
    bool ok = false;
    ImportFormat format = ImportFormat::FioJson;
    std::string description; // or the error when !ok
    std::size_t runs = 0;
    std::size_t metrics = 0;
};
ImportPreview describeImport(std::string_view text);

// Reads, parses and stores each file in turn ("-" from standard input, at most once), all in one
// transaction: a file that does not parse stores nothing of any. A run whose data the store already
// holds, or that an earlier file of the same import holds, is refused (bad input naming the earlier
// run) unless request.allowDuplicate: each run carries the content hash of the text it was read
// from (the whole file for a one-run file, the line for a bonnie++ CSV line).
Expected<ImportSummary> importFiles(Store& store, const ImportRequest& request);

} // namespace lb
