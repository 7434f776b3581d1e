// The manual pages against the programs, which are the one source of truth for names: every
// option of every command (as CLI11 lists it in --help) is defined on layoutbench(1), every key
// the scenario loader accepts (as it lists them when it refuses an unknown one) and every probe
// option (its table) on layoutbench-scenario(5), the GUI's and the tools' options on theirs;
// and nothing is defined there that the program does not have. The built pages render without
// warnings.
#include "engine/measure/analysis.h"
#include "engine/scenario/scenario.h"
#include "engine/scenario/scenario_keys.h"
#include "probes/registry.h"
#include "tests/cli/process.h"
#include "tests/packaging/docs_support.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>

namespace lb::test {
namespace {

const std::string manSource = std::string(LAYOUTBENCH_SOURCE_DIR) + "/docs/man/";

HelpText cliHelp(const std::vector<std::string>& args) {
    std::vector<std::string> argv{LAYOUTBENCH_CLI};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back("--help");
    const auto r = runProcess(argv);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return parseCli11Help(r.out);
}

// Every command as the words that name it ("compare", "fleet run"), with its help: the
// commands of `layoutbench --help` and the commands of theirs (fleet's run and report).
std::map<std::string, HelpText> everyCommand() {
    std::map<std::string, HelpText> out;
    for (const auto& command : cliHelp({}).subcommands) {
        out[command] = cliHelp({command});
        for (const auto& sub : out[command].subcommands)
            out[command + " " + sub] = cliHelp({command, sub});
    }
    return out;
}

// --- layoutbench(1) ---

TEST(LayoutbenchManPage, DefinesTheProgramsOwnOptions) {
    const auto page = readScdPage(manSource + "layoutbench.1.scd");
    const auto help = cliHelp({});
    ASSERT_FALSE(help.options.empty());
    for (const auto& option : help.options)
        EXPECT_TRUE(page.defines("OPTIONS", option) || page.defines("COMMON OPTIONS", option))
            << option << " (layoutbench --help) is not defined under OPTIONS or COMMON OPTIONS";
    for (const auto& option : page.names("OPTIONS"))
        EXPECT_TRUE(help.options.count(option)) << option << " is on the page, not in --help";
}

TEST(LayoutbenchManPage, HasASectionForEveryCommand) {
    const auto page = readScdPage(manSource + "layoutbench.1.scd");
    const auto commands = everyCommand();
    ASSERT_GE(commands.size(), 8U);
    for (const auto& [command, help] : commands)
        EXPECT_TRUE(page.sections.count("COMMANDS/" + command))
            << "layoutbench " << command << " has no section '## " << command << "' under COMMANDS";
    for (const auto& section : page.sections) {
        if (section.rfind("COMMANDS/", 0) == 0) {
            EXPECT_TRUE(commands.count(section.substr(9)))
                << section << ": no such command in layoutbench --help";
        }
    }
}

// The page names the interval's method in the words the report and the GUI take from the engine.
TEST(LayoutbenchManPage, SaysHowTheIntervalIsComputedAsTheReportDoes) {
    std::string text;
    for (const char c : readFile(manSource + "layoutbench.1.scd"))
        if (c != '\n' || (!text.empty() && text.back() != ' '))
            text += c == '\n' ? ' ' : c;
    EXPECT_NE(text.find(std::string(intervalMethod)), std::string::npos)
        << "layoutbench.1.scd does not say: " << intervalMethod;
    EXPECT_EQ(text.find("ootstrap"), std::string::npos);
}

TEST(LayoutbenchManPage, DefinesEveryOptionOfEveryCommand) {
    const auto page = readScdPage(manSource + "layoutbench.1.scd");
    for (const auto& [command, help] : everyCommand()) {
        ASSERT_FALSE(help.options.empty()) << command;
        for (const auto& option : help.options)
            EXPECT_TRUE(page.defines("COMMANDS/" + command, option) ||
                        page.defines("COMMON OPTIONS", option))
                << "layoutbench " << command << " " << option
                << " is defined neither in its section nor under COMMON OPTIONS";
    }
}

TEST(LayoutbenchManPage, DefinesOnlyOptionsTheCommandsHave) {
    const auto page = readScdPage(manSource + "layoutbench.1.scd");
    const auto top = cliHelp({});
    auto commands = everyCommand();
    for (const auto& [section, names] : page.definitions) {
        if (section.rfind("COMMANDS/", 0) != 0)
            continue;
        const auto command = section.substr(9);
        for (const auto& option : names)
            EXPECT_TRUE(commands[command].options.count(option))
                << "the page defines " << option << " for " << command << ", which layoutbench "
                << command << " --help does not list";
    }
    // A common option is the program's own or every command's.
    for (const auto& option : page.names("COMMON OPTIONS")) {
        bool everywhere = true;
        for (const auto& [command, help] : commands)
            everywhere = everywhere && help.options.count(option) != 0;
        EXPECT_TRUE(top.options.count(option) || everywhere)
            << option << " is under COMMON OPTIONS but not an option of every command";
    }
}

// --- layoutbench-gui(1), lb-netload(1), lb-tgt-account(1) ---

// Every option of a program's --help is defined under OPTIONS of its page, and every option
// defined there is in --help (or among `alsoAccepted`).
void expectPageMatchesHelp(const std::string& pageFile, const std::string& program,
                           const std::set<std::string>& help,
                           const std::set<std::string>& alsoAccepted = {}) {
    const auto page = readScdPage(manSource + pageFile);
    for (const auto& option : help)
        EXPECT_TRUE(page.defines("OPTIONS", option)) << option << " is not on " << pageFile;
    for (const auto& option : page.names("OPTIONS"))
        EXPECT_TRUE(help.count(option) || alsoAccepted.count(option))
            << option << " is on " << pageFile << ", not in " << program << " --help";
}

TEST(GuiManPage, DefinesEveryOptionAndNoOther) {
    const auto r = runProcess({LAYOUTBENCH_GUI, "--help"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto help = parseQtHelp(r.out);
    ASSERT_TRUE(help.options.count("--db")) << r.out;
    expectPageMatchesHelp("layoutbench-gui.1.scd", "layoutbench-gui", help.options, {"-V"});
}

TEST(RenderManPage, DefinesEveryOptionAndNoOther) {
    const auto r = runProcess({LAYOUTBENCH_RENDER, "--help"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto help = parseCli11Help(r.out);
    ASSERT_TRUE(help.options.count("--document")) << r.out;
    expectPageMatchesHelp("layoutbench-render.1.scd", "layoutbench-render", help.options);
}

TEST(ToolManPages, DefineEveryOptionOfTheUsage) {
    struct Tool {
        std::string program, page;
    };
    std::vector<Tool> tools{{LAYOUTBENCH_TGT_ACCOUNT, "lb-tgt-account.1.scd"}};
#ifdef LAYOUTBENCH_NETLOAD
    tools.push_back({LAYOUTBENCH_NETLOAD, "lb-netload.1.scd"});
#endif
    for (const auto& tool : tools) {
        const auto page = readScdPage(manSource + tool.page);
        // Both print their usage, with every option, on bad usage.
        const auto r = runProcess({tool.program, "--no-such-option"});
        EXPECT_EQ(r.exitCode, 2) << tool.program;
        const auto options = optionsInUsage(r.err);
        ASSERT_GE(options.size(), 2U) << r.err;
        for (const auto& option : options)
            EXPECT_TRUE(page.defines("OPTIONS", option))
                << option << " (" << tool.program << " usage) is not on " << tool.page;
    }
}

// --- layoutbench-scenario(5) ---

// A valid scenario, to which each case adds a key the loader does not know, in one table.
const std::string validScenario = R"(name = "keys"
[[disks]]
name = "d1"
file = "d1.img"
size = "1M"
[[layouts]]
name = "base"
kind = "dir"
path = "."
baseline = true
[[workloads]]
probe = "randfile"
)";

struct Table {
    std::string section; // on the page
    std::string text;    // the scenario with "zz_no_such_key" in that table
};

std::vector<Table> tables() {
    const std::string unknown = "zz_no_such_key = 1\n";
    return {
        {"TOP-LEVEL KEYS", unknown + validScenario},
        {"TABLES/[host]", validScenario + "[host]\n" + unknown},
        {"TABLES/[thresholds]", validScenario + "[thresholds]\n" + unknown},
        {"TABLES/[decide]", validScenario + "[decide]\n" + unknown},
        {"TABLES/[[disks]]", validScenario + "[[disks]]\nname = \"d2\"\n" + unknown},
        {"TABLES/[[layouts]]",
         validScenario + "[[layouts]]\nname = \"x\"\nkind = \"dir\"\npath = \"x\"\n" + unknown},
        {"TABLES/[layouts.guest]", validScenario +
                                       "[[layouts]]\nname = \"g\"\nkind = \"guest\"\n"
                                       "disks = [\"d1\"]\n[layouts.guest]\n" +
                                       unknown},
        {"TABLES/[layouts.export]", validScenario +
                                        "[[layouts]]\nname = \"e\"\nkind = \"dir\"\npath = \"e\"\n"
                                        "[layouts.export]\n" +
                                        unknown},
        {"TABLES/[[clients]]", validScenario + "[[clients]]\nname = \"c\"\n" + unknown},
        {"TABLES/[[drills]]", validScenario + "[[drills]]\nlayout = \"base\"\n" + unknown},
    };
}

// The keys the loader accepts in a table, as it lists them when it refuses an unknown one.
std::set<std::string> acceptedKeys(const std::string& text) {
    const auto scenario = parseScenario(text, "keys.toml", standardProbes());
    EXPECT_FALSE(scenario.has_value()) << "the loader took an unknown key:\n" << text;
    if (scenario)
        return {};
    const std::string& message = scenario.error().message;
    const std::string marker = "zz_no_such_key: unknown key (allowed: ";
    const auto open = message.find(marker);
    EXPECT_NE(open, std::string::npos) << message;
    if (open == std::string::npos)
        return {};
    const auto from = open + marker.size();
    const std::string list = message.substr(from, message.find(')', from) - from);
    std::set<std::string> keys;
    for (std::size_t at = 0; at <= list.size();) {
        const auto comma = std::min(list.find(", ", at), list.size());
        keys.insert(list.substr(at, comma - at));
        at = comma + 2;
    }
    return keys;
}

// Keys of a [[workloads]] table that are the workload's own (its table in
// engine/scenario/scenario_keys.h); every other key is an option of its probe.
std::set<std::string> ownWorkloadKeys() {
    std::set<std::string> keys;
    for (const auto& spec : scenarioKeys(ScenarioTable::Workload))
        keys.insert(spec.name);
    return keys;
}

TEST(ScenarioManPage, DefinesEveryKeyTheLoaderAccepts) {
    const auto page = readScdPage(manSource + "layoutbench-scenario.5.scd");
    for (const auto& table : tables()) {
        const auto keys = acceptedKeys(table.text);
        EXPECT_FALSE(keys.empty()) << table.section;
        for (const auto& key : keys)
            EXPECT_TRUE(page.defines(table.section, key))
                << "'" << key << "' (accepted by the loader) is not defined in " << table.section;
    }
    for (const auto& key : ownWorkloadKeys())
        EXPECT_TRUE(page.defines("TABLES/[[workloads]]", key)) << key;
}

TEST(ScenarioManPage, DefinesOnlyKeysTheLoaderAccepts) {
    const auto page = readScdPage(manSource + "layoutbench-scenario.5.scd");
    for (const auto& table : tables()) {
        const auto keys = acceptedKeys(table.text);
        for (const auto& key : page.names(table.section))
            EXPECT_TRUE(keys.count(key)) << table.section << " defines '" << key
                                         << "', which the loader refuses (" << join(keys) << ")";
    }
    for (const auto& key : page.names("TABLES/[[workloads]]"))
        EXPECT_TRUE(ownWorkloadKeys().count(key)) << key;
}

TEST(ScenarioManPage, DefinesEveryOptionOfEveryProbe) {
    const auto page = readScdPage(manSource + "layoutbench-scenario.5.scd");
    const auto probes = standardProbes();
    ASSERT_GE(probes.names().size(), 5U);
    std::set<std::string> sections;
    for (const auto& name : probes.names()) {
        const std::string section = "TABLES/" + name + " workloads";
        sections.insert(section);
        ASSERT_TRUE(page.sections.count(section)) << "no section '## " << name << " workloads'";
        std::set<std::string> options;
        for (const auto& spec : probes.find(name)->options()) {
            options.insert(spec.name);
            EXPECT_TRUE(page.defines(section, spec.name))
                << "probe " << name << ": option '" << spec.name << "' is not on the page";
        }
        for (const auto& key : page.names(section))
            EXPECT_TRUE(options.count(key)) << section << " defines '" << key << "', which the "
                                            << name << " probe does not take";
    }
    for (const auto& section : page.sections) {
        if (section.ends_with(" workloads")) {
            EXPECT_TRUE(sections.count(section)) << section << ": no such probe";
        }
    }
}

// --- the built pages ---

TEST(ManPages, RenderWithoutWarnings) {
    std::vector<std::string> pages{"layoutbench.1", "layoutbench-gui.1", "layoutbench-render.1",
                                   "layoutbench-scenario.5", "lb-tgt-account.1"};
#ifdef LAYOUTBENCH_NETLOAD
    pages.push_back("lb-netload.1");
#endif
    for (const auto& page : pages) {
        const auto r = runProcess(
            {"man", "--warnings", "-l", LAYOUTBENCH_MAN_DIR "/" + page + ".gz"}, {"MANWIDTH=80"});
        EXPECT_EQ(r.exitCode, 0) << page << ": " << r.err;
        EXPECT_EQ(r.err, "") << page;
        EXPECT_NE(r.out.find("SEE ALSO"), std::string::npos) << page;
    }
}

} // namespace
} // namespace lb::test
