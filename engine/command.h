// A command is data: program, argv, environment, working directory, timeout. Never a shell string.
// Secrets are marked masked and shown as "****" wherever a command is logged, stored or reported.
#pragma once

#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lb {

struct Command {
    std::string program;
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> env; // added to the inherited environment
    std::string cwd;                                      // empty: inherit
    std::optional<std::chrono::milliseconds> timeout;     // none: wait as long as it takes
    std::set<std::size_t> maskedArgs;                     // indexes into args

    Command& arg(std::string a) {
        args.push_back(std::move(a));
        return *this;
    }
    Command& maskedArg(std::string a) {
        maskedArgs.insert(args.size());
        args.push_back(std::move(a));
        return *this;
    }
    // A command that must end within `timeout`. With cLocale its messages are in the C locale,
    // for commands whose output is parsed.
    static Command timed(std::string program, std::vector<std::string> args,
                         std::chrono::milliseconds timeout, bool cLocale = false) {
        Command c;
        c.program = std::move(program);
        c.args = std::move(args);
        c.timeout = timeout;
        if (cLocale)
            c.env = {{"LC_ALL", "C"}};
        return c;
    }

    // program followed by args, with masked arguments replaced by "****".
    std::vector<std::string> argvForDisplay() const;
    // One line for people: arguments quoted where needed, masked ones hidden.
    std::string toUserOutput() const;
    bool operator==(const Command&) const = default;
};

// One word quoted for a POSIX shell: 'it'\''s'. Used for display and for remote commands.
std::string shellQuote(std::string_view word);

} // namespace lb
