// What the documentation tests read: the definitions on an scdoc manual page, and the options and
// commands a program's help text lists (CLI11's, QCommandLineParser's, or a one-line usage).
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace lb::test {

// An scdoc page, by section. A section is named by its heading: "OPTIONS" for "# OPTIONS",
// "COMMANDS/capacity" for "## capacity" under "# COMMANDS". A definition is a line that starts
// with a bold term and is followed by an indented (tab) description; the names it defines are
// the bold terms before " = " or " (": "*-h*, *--help*" defines -h and --help, "*cache* =
// *"cold"*" defines cache. Code blocks and comments are skipped.
struct ScdPage {
    std::map<std::string, std::set<std::string>> definitions; // section -> names
    std::set<std::string> sections;
    bool defines(const std::string& section, const std::string& name) const;
    // The names defined in a section (none if it has no definitions).
    std::set<std::string> names(const std::string& section) const;
};
ScdPage readScdPage(const std::string& path);

// A program's help: its options (every spelling: -h and --help) and its subcommands.
struct HelpText {
    std::set<std::string> options;
    std::set<std::string> subcommands;
};
// CLI11's --help: "Options:" and "Subcommands:" blocks, an entry per line indented by two.
HelpText parseCli11Help(std::string_view text);
// QCommandLineParser's --help: "  -h, --help   Displays ...", "  --db <PATH>  ...".
HelpText parseQtHelp(std::string_view text);
// The options a one-line usage names: "usage: prog [-C PORT] --user NAME".
std::set<std::string> optionsInUsage(std::string_view text);

std::string readFile(const std::string& path);
std::string join(const std::set<std::string>& names);

} // namespace lb::test
