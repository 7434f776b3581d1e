#include "probes/import.h"

#include "probes/bonnie_csv.h"
#include "probes/fio_json.h"

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lb {

namespace {

Run runFrom(ParsedRun parsed, const std::string& path, std::string raw, const std::string& probe) {
    Run run;
    run.workload = parsed.workload.empty() ? probe : parsed.workload;
    run.probe = probe;
    run.toolVersion = parsed.toolVersion;
    run.stdoutText = std::move(raw);
    run.caveats = std::move(parsed.caveats);
    run.notes = std::move(parsed.notes);
    run.metrics = std::move(parsed.metrics);
    run.status = parsed.failed ? RunStatus::Failed : RunStatus::Ok;
    run.reason = parsed.failureReason;
    run.source = path;
    return run;
}

Expected<std::string> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return badInput(path + ": cannot read file");
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

} // namespace

Expected<ImportedFile> parseResultFile(const std::string& path, const std::string& text) {
    ImportedFile file;
    file.path = path;
    if (fio::looksLikeJson(text)) {
        file.format = ImportFormat::FioJson;
        auto parsed = fio::parseJson(text);
        if (!parsed)
            return badInput(path + ":1: " + parsed.error().message);
        file.runs.push_back(runFrom(std::move(*parsed), path, text, "fio"));
        return file;
    }
    if (!bonnie::looksLikeCsv(text))
        return badInput(path + ":1: neither bonnie++ CSV nor fio JSON output");
    file.format = ImportFormat::BonnieCsv;
    std::istringstream lines(text);
    std::string line;
    int lineNo = 0;
    while (std::getline(lines, line)) {
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        auto parsed = bonnie::parseCsvLine(line);
        if (!parsed)
            return badInput(path + ":" + std::to_string(lineNo) + ": " + parsed.error().message);
        file.runs.push_back(runFrom(std::move(*parsed), path, line, "bonnie"));
    }
    if (file.runs.empty())
        return badInput(path + ":1: no bonnie++ CSV lines");
    return file;
}

Expected<ImportSummary> importFiles(Store& store, const ImportRequest& request) {
    if (request.files.empty())
        return badInput("import: no files given");
    std::vector<ImportedFile> parsed;
    for (const auto& path : request.files) {
        auto text = readFile(path);
        if (!text)
            return fail(text.error());
        auto file = parseResultFile(path, *text);
        if (!file)
            return fail(file.error());
        parsed.push_back(std::move(*file));
    }

    auto tx = store.transaction();
    if (!tx)
        return fail(tx.error());
    auto hostId = store.ensureHost(request.host);
    if (!hostId)
        return fail(hostId.error());
    const nlohmann::json spec{{"imported", true}};
    auto layoutId = store.ensureLayout(request.layout, request.kind, spec.dump(), *hostId);
    if (!layoutId)
        return fail(layoutId.error());

    // Iterations continue from what the layout already holds: counted once per workload here,
    // then in memory (counting per run would rescan the layout's runs for every file).
    auto countQ = store.database().prepare(
        "SELECT workload, COUNT(*) FROM run WHERE layout_id = ?1 GROUP BY workload");
    if (!countQ)
        return fail(countQ.error());
    std::map<std::string, int> nextIteration;
    countQ->bind(1, *layoutId);
    if (auto r = countQ->forEachRow([&](sql::Statement& row) {
            nextIteration[row.columnText(0)] = static_cast<int>(row.columnInt(1));
        });
        !r)
        return fail(r.error());
    ImportSummary summary;
    summary.layout = request.layout;
    const std::string importedAt = store.now();
    for (auto& file : parsed) {
        summary.files.push_back(file.path);
        for (auto& run : file.runs) {
            run.iteration = nextIteration[run.workload]++;
            run.finishedAt = importedAt;
            auto id = store.insertRun(*layoutId, run);
            if (!id)
                return fail(id.error());
            ++summary.runs;
            if (run.status != RunStatus::Ok)
                ++summary.failedRuns;
            summary.metrics += static_cast<std::int64_t>(run.metrics.size());
        }
    }
    if (auto r = tx->commit(); !r)
        return fail(r.error());
    return summary;
}

} // namespace lb
