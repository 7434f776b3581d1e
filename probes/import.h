// Import of results produced outside layoutbench: bonnie++ CSV lines (one run per line) and fio
// JSON files (one run per file). A file is imported whole or not at all.
#pragma once

#include "engine/expected.h"
#include "engine/store.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lb {

enum class ImportFormat { BonnieCsv, FioJson };

struct ImportRequest {
    std::string layout;
    std::string host = "imported";
    std::string kind = "imported"; // layout kind to record when the layout is new
    std::vector<std::string> files;
};

struct ImportedFile {
    std::string path;
    ImportFormat format = ImportFormat::FioJson;
    std::vector<Run> runs;
};

struct ImportSummary {
    std::string layout;
    std::int64_t runs = 0;
    std::int64_t failedRuns = 0;
    std::int64_t metrics = 0;
    std::vector<std::string> files;
};

// Parses one file's text: every run it holds, or a bad-input error naming the file, the line
// and the field. Pure: no file system, no database.
Expected<ImportedFile> parseResultFile(const std::string& path, const std::string& text);

// Reads and parses every file first; only when all parse are they stored, in one transaction.
Expected<ImportSummary> importFiles(Store& store, const ImportRequest& request);

} // namespace lb
