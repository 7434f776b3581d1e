#include "tests/packaging/docs_support.h"

#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

namespace lb::test {

namespace {

std::vector<std::string> lines(std::string_view text) {
    std::vector<std::string> out;
    std::istringstream in{std::string(text)};
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

// Option spellings in a piece of text: -x or --word, at the start or after a space, comma or
// bracket (so that "wt-packaging" in a default path is none).
std::set<std::string> optionTokens(const std::string& text) {
    static const std::regex token(R"((?:^|[\s,\[(])(--?[A-Za-z][-A-Za-z0-9]*))");
    std::set<std::string> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), token);
         it != std::sregex_iterator(); ++it)
        out.insert((*it)[1].str());
    return out;
}

// The names a definition line defines: its bold terms before " = " or " (".
std::set<std::string> definedNames(const std::string& line) {
    std::string head = line;
    for (const char* end : {" = ", " ("})
        if (const auto at = head.find(end); at != std::string::npos)
            head.erase(at);
    static const std::regex bold(R"(\*([^*\s]+)\*)");
    std::set<std::string> out;
    for (auto it = std::sregex_iterator(head.begin(), head.end(), bold);
         it != std::sregex_iterator(); ++it)
        out.insert((*it)[1].str());
    return out;
}

} // namespace

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string join(const std::set<std::string>& names) {
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : " ") + n;
    return out;
}

bool ScdPage::defines(const std::string& section, const std::string& name) const {
    const auto it = definitions.find(section);
    return it != definitions.end() && it->second.count(name) != 0;
}

std::set<std::string> ScdPage::names(const std::string& section) const {
    const auto it = definitions.find(section);
    return it == definitions.end() ? std::set<std::string>{} : it->second;
}

ScdPage readScdPage(const std::string& path) {
    ScdPage page;
    const auto all = lines(readFile(path));
    std::string h1, section;
    bool code = false;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const std::string& line = all[i];
        if (line.rfind("```", 0) == 0 || line.rfind("\t```", 0) == 0) {
            code = !code;
            continue;
        }
        if (code || line.rfind("; ", 0) == 0 || line == ";")
            continue;
        if (line.rfind("# ", 0) == 0) {
            h1 = section = line.substr(2);
            page.sections.insert(section);
        } else if (line.rfind("## ", 0) == 0) {
            section = h1 + "/" + line.substr(3);
            page.sections.insert(section);
        } else if (line.rfind('*', 0) == 0 && i + 1 < all.size() &&
                   all[i + 1].rfind('\t', 0) == 0) {
            for (const auto& name : definedNames(line))
                page.definitions[section].insert(name);
        }
    }
    return page;
}

HelpText parseCli11Help(std::string_view text) {
    HelpText help;
    enum class Block { None, Options, Subcommands, Other } block = Block::None;
    for (const auto& line : lines(text)) {
        if (line.empty())
            continue;
        if (line[0] != ' ') {
            block = line == "Options:"       ? Block::Options
                    : line == "Subcommands:" ? Block::Subcommands
                                             : Block::Other;
            continue;
        }
        // An entry is indented by two; its description's continuation lines by more.
        if (line.size() < 3 || line.rfind("  ", 0) != 0 || line[2] == ' ')
            continue;
        const std::string entry = line.substr(2, line.find("  ", 2) - 2);
        if (block == Block::Options)
            for (const auto& o : optionTokens(entry))
                help.options.insert(o);
        else if (block == Block::Subcommands)
            help.subcommands.insert(entry.substr(0, entry.find(' ')));
    }
    return help;
}

HelpText parseQtHelp(std::string_view text) {
    HelpText help;
    for (const auto& line : lines(text))
        if (line.rfind("  -", 0) == 0)
            for (const auto& o : optionTokens(line.substr(2, line.find("  ", 2) - 2)))
                help.options.insert(o);
    return help;
}

std::set<std::string> optionsInUsage(std::string_view text) {
    const auto at = text.find("usage:");
    return optionTokens(std::string(at == std::string_view::npos ? text : text.substr(at)));
}

} // namespace lb::test
