// The command-line front end: each command registers its options on the CLI11 app and leaves the
// action to run. Actions return the exit status: 0 done, 1 runtime failure, 2 bad input or usage.
#pragma once

#include "engine/expected.h"

#include <CLI/CLI.hpp>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>

namespace lb::cli {

struct Globals {
    std::string db;    // --db PATH
    bool json = false; // --json
};

using Action = std::function<int()>;

// Prints "layoutbench: message" on stderr and returns the exit status for the error's kind.
int report(const Error& error);
// The same for an engine error that names a field ("candidate: ..."): the field becomes the
// command's flag ("--candidate: ...").
int report(Error error, std::initializer_list<std::pair<std::string_view, std::string_view>> flags);

// Each registers a subcommand whose callback stores the action to run into `action`.
void addCapacity(CLI::App& app, Globals& g, Action& action);
void addImport(CLI::App& app, Globals& g, Action& action);
void addCompare(CLI::App& app, Globals& g, Action& action);
void addList(CLI::App& app, Globals& g, Action& action);
void addRun(CLI::App& app, Globals& g, Action& action);
void addProject(CLI::App& app, Globals& g, Action& action);
void addReport(CLI::App& app, Globals& g, Action& action);
void addPlan(CLI::App& app, Globals& g, Action& action);
void addCleanup(CLI::App& app, Globals& g, Action& action);

// Adds --db and --json to a subcommand.
void addGlobalOptions(CLI::App& sub, Globals& g);

} // namespace lb::cli
