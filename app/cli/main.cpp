// layoutbench: the command line. Runs alone on a headless storage server.
#include "app/cli/commands.h"
#include "app/cli/escaped_output.h"
#include "engine/base/input.h"
#include "engine/base/size.h"
#include "engine/base/suggest.h"
#include "engine/store/sqlite.h"
#include "engine/store/store.h"
#include "layoutbench_version.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <iostream>
#include <optional>

namespace lb::cli {

int report(const Error& error) {
    // One line, whatever a value or a parser's own message holds.
    std::cerr << "layoutbench: " << escapeControl(error.message) << '\n';
    return error.kind == ErrorKind::BadInput ? 2 : 1;
}

int report(Error error, std::span<const FieldFlag> flags) {
    // Each line of the message may name its field (one refusal per device, say).
    std::string mapped;
    std::size_t begin = 0;
    while (begin <= error.message.size()) {
        auto end = error.message.find('\n', begin);
        if (end == std::string::npos)
            end = error.message.size();
        std::string line = error.message.substr(begin, end - begin);
        for (const auto& [field, flag] : flags)
            if (line.starts_with(std::string(field) + ":")) {
                line = std::string(flag) + line.substr(field.size());
                break;
            }
        mapped += (begin == 0 ? "" : "\n") + line;
        begin = end + 1;
    }
    error.message = std::move(mapped);
    return report(error);
}

namespace {

// 'nas', 'old'
std::string quotedList(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "'" : ", '") + n + "'";
    return out;
}

} // namespace

Error noCapacityModel(std::string_view flag, const std::vector<std::string>& layouts) {
    return Error::badInput(std::string(flag) +
                           " applies to no capacity model for imported layout(s) " +
                           quotedList(layouts) +
                           "; give --capacity LAYOUT=SIZE, or their disks with --imported-disks "
                           "LAYOUT=KIND,DISKS[,SIZE][,PARTITIONED]");
}

Error noDisksKnown(std::string_view flag, const std::vector<std::string>& layouts) {
    return Error::badInput(std::string(flag) +
                           " applies to no layout whose disks are known: imported layout(s) " +
                           quotedList(layouts) +
                           " have only the capacity given; give their disks instead with "
                           "--imported-disks LAYOUT=KIND,DISKS[,SIZE][,PARTITIONED]");
}

Error misfitError(const ProjectionMisfit& m) {
    const std::string flag = "--" + m.field;
    return m.why == ProjectionMisfit::Why::NoCapacityModel ? noCapacityModel(flag, m.layouts)
                                                           : noDisksKnown(flag, m.layouts);
}

void addGlobalOptions(CLI::App& app, Globals& g) {
    app.add_option("--db", g.db,
                   "SQLite results database (default: $LAYOUTBENCH_DB, else "
                   "$XDG_DATA_HOME/layoutbench/results.db)")
        ->default_str(defaultDatabasePath());
    app.add_flag("--json", g.json, "Machine-readable JSON output, canonical units");
}

Expected<Store> openStore(const Globals& g, DbAccess access) {
    std::error_code ec;
    if (access == DbAccess::Existing && g.db != ":memory:" &&
        !std::filesystem::is_regular_file(g.db, ec))
        return badInput("--db " + g.db +
                        ": no such database (this command only reads one; import, run and "
                        "merge create it)");
    return Store::open(g.db);
}

void addGuestOptions(CLI::App& sub, std::string& inner, std::string& guestPool) {
    sub.add_option("--inner", inner,
                   "--kind guest: the md layout of the disks passed to the guest as one disk, "
                   "e.g. md-raid6");
    sub.add_option("--guest-pool", guestPool,
                   "--kind guest: the ZFS pool the guest makes of that one disk")
        ->capture_default_str();
}

CLI::Validator fractionOrPercent() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            auto fraction = parseFraction(text);
            if (!fraction)
                return fraction.error().message;
            std::array<char, 32> buf{};
            const auto end = std::to_chars(buf.data(), buf.data() + buf.size(), *fraction).ptr;
            text.assign(buf.data(), end); // shortest text that reads back as the same double
            return {};
        },
        "FRACTION|PERCENT", "fraction or percentage");
}

void addPurchaseOptions(CLI::App& sub, std::string& price, std::vector<std::string>& wa) {
    sub.add_option("--price", price,
                   "Price of a drive: per drive (180) or per terabyte (25/TB); over the "
                   "catalog's illustrative price");
    sub.add_option("--write-amplification", wa,
                   "Device writes per host write, over the layout's model: 3.0 for every "
                   "layout, or LAYOUT=3.0 (repeatable)");
}

void addRiskOptions(CLI::App& sub, RiskOptions& risk) {
    sub.add_option("--afr", risk.afr,
                   "The drives' annual failure rate, over the catalog's: 0.015 or 1.5%")
        ->transform(fractionOrPercent());
    sub.add_option("--replace-after", risk.replaceAfter,
                   "Hours from a drive failing to its replacement going in (default 72)")
        ->check(CLI::NonNegativeNumber);
    sub.add_option("--rebuild-rate", risk.rebuildRate,
                   "A measured rebuild rate in MB/s (without it, an assumed 100 MB/s)")
        ->check(CLI::PositiveNumber);
    sub.add_flag("--hot-spare", risk.hotSpare,
                 "A spare waits in the server: a rebuild starts as soon as a drive fails");
}

void applyRiskOptions(const CLI::App& sub, const RiskOptions& risk, ProjectionSettings& settings) {
    if (sub.count("--afr") > 0)
        settings.afr = risk.afr;
    if (sub.count("--replace-after") > 0)
        settings.replaceAfterHours = risk.replaceAfter;
    if (sub.count("--rebuild-rate") > 0)
        settings.rebuildMegabytesPerSecond = risk.rebuildRate;
    settings.hotSpare = risk.hotSpare;
}

std::vector<std::string> givenRiskOptions(const CLI::App& sub) {
    std::vector<std::string> given;
    for (const char* flag : {"--afr", "--replace-after", "--rebuild-rate", "--hot-spare"})
        if (sub.count(flag) > 0)
            given.emplace_back(flag);
    return given;
}

void addFailOn(CLI::App& sub, std::string& failOn) {
    sub.add_option("--fail-on", failOn,
                   "Exit 3 when the overall verdict is this bad or worse: not-viable or decision")
        ->check(CLI::IsMember({"not-viable", "decision"}));
}

int verdictExitStatus(const std::string& failOn, Verdict overall) {
    if (failOn.empty())
        return 0;
    const Verdict bar = failOn == "decision" ? Verdict::Decision : Verdict::NotViable;
    // No verdict settles nothing: as bad as a decision still to make.
    if (overall == Verdict::NoVerdict)
        return bar == Verdict::Decision ? kExitVerdict : 0;
    return worse(overall, bar) == overall ? kExitVerdict : 0;
}

namespace {

// The command a command line names: the first word that is neither an option nor the value of
// the program's own --db or --max-input-size. Empty when there is none.
std::string commandWord(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view word = argv[i];
        if (word == "--db" || word == "--max-input-size") {
            ++i;
            continue;
        }
        if (!word.starts_with("-"))
            return std::string(word);
    }
    return {};
}

// The first --option of the command line that neither the command nor the program has, said
// with the nearest they do have: "unknown option '--kindd' for capacity (did you mean
// '--kind'?)". None when every one is known (the parse failed for another reason).
std::optional<std::string> unknownOption(CLI::App& app, const std::string& command, int argc,
                                         char** argv) {
    std::vector<std::string> names;
    const auto add = [&names](const CLI::App& a) {
        for (const CLI::Option* o : a.get_options())
            for (const auto& name : o->get_lnames())
                names.push_back("--" + name);
    };
    add(app);
    const CLI::App* sub = nullptr;
    for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; }))
        if (s->get_name() == command)
            sub = s;
    if (sub)
        add(*sub);
    for (int i = 1; i < argc; ++i) {
        const std::string_view word = argv[i];
        if (word == "--")
            break;
        if (!word.starts_with("--"))
            continue;
        const std::string name(word.substr(0, word.find('=')));
        if (std::find(names.begin(), names.end(), name) == names.end())
            return "unknown option '" + lb::escapeControl(name) + "'" +
                   (sub ? " for " + command : std::string()) + lb::didYouMean(name, names);
    }
    return std::nullopt;
}

} // namespace

} // namespace lb::cli

namespace {

using namespace lb::cli;

// A writer waits while another holds the database (an import of millions of lines commits in
// batches; a campaign writes its runs), and says so instead of seeming to hang.
void sayWhileWaiting() {
    lb::sql::setBusyWait({.report = [](const std::string& path, std::chrono::seconds waited) {
        std::cerr << "layoutbench: " << lb::escapeControl(path)
                  << ": another program is writing to the database; waiting (" << waited.count()
                  << " s so far)\n";
    }});
}

void addCommands(CLI::App& app, Globals& globals, Action& action) {
    addCapacity(app, globals, action);
    addImport(app, globals, action);
    addCompare(app, globals, action);
    addList(app, globals, action);
    addPlan(app, globals, action);
    addRun(app, globals, action);
    addCleanup(app, globals, action);
    addProject(app, globals, action);
    addReport(app, globals, action);
    addMerge(app, globals, action);
    addFleet(app, globals, action);
}

// A command word that is no command: said with the nearest one (or all of them), exit status 2.
std::optional<int> refuseUnknownCommand(CLI::App& app, const std::string& command) {
    std::string known;
    std::vector<std::string> commands;
    for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
        known += (known.empty() ? "" : ", ") + sub->get_name();
        commands.push_back(sub->get_name());
    }
    if (command.empty() || std::find(commands.begin(), commands.end(), command) != commands.end())
        return std::nullopt;
    const std::string near = lb::didYouMean(command, commands);
    std::cerr << "layoutbench: unknown command '" << lb::escapeControl(command) << "'"
              << (near.empty() ? " (commands: " + known + ")" : near) << "\n";
    return 2;
}

// CLI11's parse; the exit status where it ends the program (help, version, a usage error).
std::optional<int> parseArguments(CLI::App& app, const std::string& command, int argc,
                                  char** argv) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // A mistyped option makes CLI11 say what it checked first (often a required option
        // missing, the mistyped one being it): name the mistyped option instead.
        const auto unknown = unknownOption(app, command, argc, argv);
        std::cerr << "layoutbench: " << (unknown ? *unknown : lb::escapeControl(e.what())) << '\n';
        return 2;
    }
    return std::nullopt;
}

// --max-input-size: the largest file any part of the command reads.
std::optional<int> applyInputLimit(const std::string& maxInput) {
    if (maxInput.empty())
        return std::nullopt;
    const auto bytes = lb::parseSize(maxInput, lb::SizeConvention::Binary);
    if (!bytes || *bytes == 0)
        return report(
            lb::Error::badInput("--max-input-size: " +
                                (bytes ? std::string("must be above 0") : bytes.error().message)));
    lb::setInputLimit(*bytes, "--max-input-size");
    return std::nullopt;
}

} // namespace

int main(int argc, char** argv) {
    // Names given on the command line and read back from the store need not be UTF-8.
    const EscapedStandardStreams escaped;
    sayWhileWaiting();
    CLI::App app{"layoutbench: plan, build, benchmark and compare storage layouts", "layoutbench"};
    app.require_subcommand(1);
    app.set_version_flag("-V,--version", std::string("layoutbench ") + lb::kVersionText,
                         "Print the version and the git describe of the build, and exit");
    app.footer("--db and --json go before or after the command. LAYOUTBENCH_DB names the "
               "database when --db does not.\nExit status: 0 done, 1 runtime failure, 2 bad "
               "input, 3 a verdict at or past --fail-on, 128+N stopped by signal N (130: "
               "Ctrl-C).");
    Globals globals;
    addGlobalOptions(app, globals);
    Action action;
    // Every file the command reads (results, scenarios, catalogs, samples) is read within it.
    std::string maxInput;
    app.add_option("--max-input-size", maxInput,
                   "Largest input file read, e.g. 64MiB (default: 16 MiB for scenarios, "
                   "catalogs and samples, 256 GiB for imported results)");
    app.fallthrough(); // given after the command too; set before the commands are added
    addCommands(app, globals, action);
    const std::string command = commandWord(argc, argv);
    if (const auto status = refuseUnknownCommand(app, command))
        return *status;
    if (const auto status = parseArguments(app, command, argc, argv))
        return *status;
    if (globals.db.empty())
        globals.db = lb::defaultDatabasePath();
    if (const auto status = applyInputLimit(maxInput))
        return *status;
    return action ? action() : 2;
}
