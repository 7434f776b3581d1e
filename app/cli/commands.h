// The command-line front end: each command registers its options on the CLI11 app and leaves the
// action to run. Actions return the exit status: 0 done, 1 runtime failure, 2 bad input or usage.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/analysis.h"
#include "engine/store/store.h"
#include "engine/workbench.h"

#include <CLI/CLI.hpp>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lb::cli {

// Options every command takes, before or after the command's name.
struct Globals {
    std::string db;    // --db PATH; after parsing, defaultDatabasePath() when not given
    bool json = false; // --json
};

// Exit statuses besides 0, 1 and 2 (the contract's): a verdict at or past --fail-on.
inline constexpr int kExitVerdict = 3;

using Action = std::function<int()>;

// Prints "layoutbench: message" on stderr and returns the exit status for the error's kind.
int report(const Error& error);
// The same for an engine error that names a field ("candidate: ..."): the field becomes the
// command's flag ("--candidate: ..."), on every line of the message that starts with one.
using FieldFlag = std::pair<std::string_view, std::string_view>; // engine field, its flag
int report(Error error, std::span<const FieldFlag> flags);
inline int report(Error error, std::initializer_list<FieldFlag> flags) {
    return report(std::move(error), std::span<const FieldFlag>(flags.begin(), flags.size()));
}

// The capacity projection's refusals for imported layouts (results from elsewhere, disks
// unknown), naming them: `flag` (--used) asked for a projection they have no capacity model for
// and no --capacity was given; `flag` (--drive, --host-writes) needs disks, and every layout
// projected is imported with only its capacity given.
Error noCapacityModel(std::string_view flag, const std::vector<std::string>& layouts);
Error noDisksKnown(std::string_view flag, const std::vector<std::string>& layouts);
// A projection's setting that applies to none of its layouts, said with its flag (--used,
// --drive, ...): noCapacityModel or noDisksKnown.
Error misfitError(const ProjectionMisfit& misfit);

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

void addMerge(CLI::App& app, Globals& g, Action& action);
void addFleet(CLI::App& app, Globals& g, Action& action);

// Adds --db and --json to the program (before the command) or to a command (after it).
void addGlobalOptions(CLI::App& app, Globals& g);

// How a command uses the database: Existing for one that only reads it (a mistyped --db is
// refused, naming it, rather than created empty), Create for one that may start it.
enum class DbAccess { Existing, Create };
Expected<Store> openStore(const Globals& g, DbAccess access);

// --inner and --guest-pool: the layout of the disks a guest is given as one disk, and the pool
// the guest makes of it (capacity, project).
void addGuestOptions(CLI::App& sub, std::string& inner, std::string& guestPool);

// For a fraction option: takes 0.8 or a percentage, 80% (engine/base/size.h, parseFraction).
CLI::Validator fractionOrPercent();

// --price and --write-amplification, the projection's figures a buyer sets (project, report).
void addPurchaseOptions(CLI::App& sub, std::string& price, std::vector<std::string>& wa);

// --afr, --replace-after, --rebuild-rate and --hot-spare: the risk model's figures (project,
// report), bound here and put into the settings, those given only, by applyRiskOptions.
struct RiskOptions {
    double afr = 0;          // fraction
    double replaceAfter = 0; // hours
    double rebuildRate = 0;  // MB/s
    bool hotSpare = false;
};
void addRiskOptions(CLI::App& sub, RiskOptions& risk);
void applyRiskOptions(const CLI::App& sub, const RiskOptions& risk, ProjectionSettings& settings);
// The risk flags given on `sub`, by name ("--afr"), for a refusal.
std::vector<std::string> givenRiskOptions(const CLI::App& sub);

// --fail-on not-viable|decision, for CI pipelines: the command exits kExitVerdict when the
// overall verdict is that bad or worse.
void addFailOn(CLI::App& sub, std::string& failOn);
// kExitVerdict when `overall` is as bad as `failOn` ("not-viable" or "decision") or worse, else 0.
int verdictExitStatus(const std::string& failOn, Verdict overall);

} // namespace lb::cli
