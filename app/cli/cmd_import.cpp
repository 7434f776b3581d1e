// `layoutbench import`: results from elsewhere (bonnie++ CSV and text tables, fio JSON and terse,
// iozone, dd), from files or standard input ("-"), each file all or nothing.
#include "app/cli/commands.h"
#include "engine/base/utf8.h"
#include "probes/import.h"

#include <iostream>
#include <nlohmann/json.hpp>

namespace lb::cli {

namespace {

int runImport(const Globals& g, const ImportRequest& request) {
    auto store = openStore(g, DbAccess::Create);
    if (!store)
        return report(store.error());
    auto summary = importFiles(*store, request);
    if (!summary)
        return report(summary.error());
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
