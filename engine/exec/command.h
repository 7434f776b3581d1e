// A command is data: program, argv, environment, working directory, timeout. Never a shell string.
// A secret (a CHAP password) never travels in argv or the environment, which any local user can
// read in /proc/PID/cmdline and (for the same user) /proc/PID/environ: it is the command's secret
// standard input, delivered through a pipe and shown as "****" wherever a command is logged,
// stored or reported.
#pragma once

#include <chrono>
#include <optional>
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
    // What the program reads on its standard input: a secret, never shown. Empty: stdin is
    // /dev/null (a benchmark tool must never sit waiting for input).
    std::string secretStdin;

    Command& arg(std::string a) {
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

    // program followed by args; a secret stdin adds "<<<" "****".
    std::vector<std::string> argvForDisplay() const;
    // One line for people: arguments quoted where needed, a secret stdin as "<<< ****".
    std::string toUserOutput() const;
    bool operator==(const Command&) const = default;
};

// What a display shows for a secret.
inline constexpr std::string_view kMasked = "****";

// One word quoted for a POSIX shell: 'it'\''s'. Used for display and for remote commands.
std::string shellQuote(std::string_view word);

} // namespace lb
