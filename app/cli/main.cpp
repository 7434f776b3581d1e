// layoutbench: the command line. Runs alone on a headless storage server.
#include "app/cli/commands.h"
#include "app/cli/escaped_output.h"
#include "engine/input.h"
#include "engine/size.h"
#include "engine/sqlite.h"
#include "engine/store.h"

#include <iostream>

namespace lb::cli {

int report(const Error& error) {
    // One line, whatever a value or a parser's own message holds.
    std::cerr << "layoutbench: " << escapeControl(error.message) << '\n';
    return error.kind == ErrorKind::BadInput ? 2 : 1;
}

int report(Error error,
           std::initializer_list<std::pair<std::string_view, std::string_view>> flags) {
    for (const auto& [field, flag] : flags)
        if (error.message.starts_with(std::string(field) + ":")) {
            error.message = std::string(flag) + error.message.substr(field.size());
            break;
        }
    return report(error);
}

void addGlobalOptions(CLI::App& sub, Globals& g) {
    sub.add_option("--db", g.db, "SQLite results database")->default_str(defaultDatabasePath());
    sub.add_flag("--json", g.json, "Machine-readable JSON output, canonical units");
}

} // namespace lb::cli

int main(int argc, char** argv) {
    using namespace lb::cli;
    // Names given on the command line and read back from the store need not be UTF-8.
    const EscapedStandardStreams escaped;
    // A writer waits while another holds the database (an import of millions of lines commits
    // in batches; a campaign writes its runs), and says so instead of seeming to hang.
    lb::sql::setBusyWait({.report = [](const std::string& path, std::chrono::seconds waited) {
        std::cerr << "layoutbench: " << lb::escapeControl(path)
                  << ": another program is writing to the database; waiting (" << waited.count()
                  << " s so far)\n";
    }});
    CLI::App app{"layoutbench: plan, build, benchmark and compare storage layouts"};
    app.require_subcommand(1);
    Globals globals;
    Action action;
    // Every file the command reads (results, scenarios, catalogs, samples) is read within it.
    std::string maxInput;
    app.add_option("--max-input-size", maxInput,
                   "Largest input file read, e.g. 64MiB (default: 16 MiB for scenarios, "
                   "catalogs and samples, 256 GiB for imported results)");
    app.fallthrough(); // given after the command too; set before the commands are added
    addCapacity(app, globals, action);
    addImport(app, globals, action);
    addCompare(app, globals, action);
    addList(app, globals, action);
    addPlan(app, globals, action);
    addRun(app, globals, action);
    addCleanup(app, globals, action);
    addProject(app, globals, action);
    addReport(app, globals, action);
    std::string known;
    bool isCommand = false;
    for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
        known += (known.empty() ? "" : ", ") + sub->get_name();
        isCommand = isCommand || (argc > 1 && sub->get_name() == argv[1]);
    }
    if (argc > 1 && argv[1][0] != '-' && !isCommand) {
        std::cerr << "layoutbench: unknown command '" << lb::escapeControl(argv[1])
                  << "' (commands: " << known << ")\n";
        return 2;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "layoutbench: " << lb::escapeControl(e.what()) << '\n';
        return 2;
    }
    if (globals.db.empty())
        globals.db = lb::defaultDatabasePath();
    if (!maxInput.empty()) {
        const auto bytes = lb::parseSize(maxInput, lb::SizeConvention::Binary);
        if (!bytes || *bytes == 0)
            return report(
                lb::Error::badInput("--max-input-size: " + (bytes ? std::string("must be above 0")
                                                                  : bytes.error().message)));
        lb::setInputLimit(*bytes, "--max-input-size");
    }
    return action ? action() : 2;
}
