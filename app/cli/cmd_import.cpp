// `layoutbench import`: results from elsewhere (bonnie++ CSV and text tables, fio JSON and terse,
// iozone, dd), from files or standard input ("-"), each file all or nothing.
#include "app/cli/commands.h"
#include "engine/base/utf8.h"
#include "probes/import.h"

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

namespace lb::cli {

namespace {

// A database the import made and then refused: removed, with SQLite's and the import's files
// beside it, so that a refused import leaves nothing behind.
void removeNewDatabase(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal", "-imports.lock"}) {
        std::error_code ec;
        std::filesystem::remove(path + suffix, ec);
    }
}

int runImport(const Globals& g, const ImportRequest& request) {
    std::error_code ec;
    const bool fresh = g.db != ":memory:" && !std::filesystem::exists(g.db, ec) && !ec;
    auto summary = [&]() -> Expected<ImportSummary> {
        LB_TRY(store, openStore(g, DbAccess::Create));
        return importFiles(store, request); // the store is closed on return
    }();
    if (!summary) {
        if (fresh)
            removeNewDatabase(g.db);
        return report(summary.error());
    }
    if (g.json) {
        std::cout << dumpJson(nlohmann::json{{"layout", summary->layout},
                                             {"runs", summary->runs},
                                             {"failed_runs", summary->failedRuns},
                                             {"metrics", summary->metrics},
                                             {"files", summary->files},
                                             {"detected", summary->descriptions}},
                              2)
                  << '\n';
    } else {
        for (std::size_t i = 0; i < summary->files.size(); ++i)
            std::cout << summary->files[i] << ": " << summary->descriptions[i] << '\n';
        std::cout << "imported " << summary->runs << " run(s) with " << summary->metrics
                  << " metric(s) into layout '" << summary->layout << "'";
        if (summary->failedRuns)
            std::cout << " (" << summary->failedRuns << " failed run(s) recorded)";
        std::cout << '\n';
    }
    return 0;
}

} // namespace

void addImport(CLI::App& app, Globals& g, Action& action) {
    auto req = std::make_shared<ImportRequest>();
    auto* sub = app.add_subcommand(
        "import", "Import results from elsewhere: bonnie++ CSV lines and text tables, fio JSON and "
                  "terse output, iozone reports, dd summaries");
    sub->add_option("--layout", req->layout, "Layout the results belong to")->required();
    sub->add_option("--host", req->host,
                    "Host the results were measured on (default: the machine each result names, "
                    "a bonnie++ line's or a fio client's, else 'imported')");
    sub->add_option("--kind", req->kind, "Layout kind, recorded when the layout is new")
        ->capture_default_str();
    sub->add_option("files", req->files, "Result files; - reads standard input")->required();
    sub->add_flag("--allow-duplicate", req->allowDuplicate,
                  "Import data the database already holds (the same file or bonnie++ line) "
                  "again, as more runs");
    addGlobalOptions(*sub, g);
    sub->callback([&g, &action, req] { action = [&g, req] { return runImport(g, *req); }; });
}

} // namespace lb::cli
