#include "engine/exec/command.h"

namespace lb {

namespace {

// The here-string notation of a POSIX shell's cousins: says that the program reads a secret on
// its standard input without showing it.
constexpr std::string_view kStdinMark = "<<<";

bool plainWord(const std::string& a) {
    return !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                             "0123456789-_./=:,@%+") == std::string::npos;
}

} // namespace

std::vector<std::string> Command::argvForDisplay() const {
    std::vector<std::string> out{program};
    out.insert(out.end(), args.begin(), args.end());
    if (!secretStdin.empty()) {
        out.emplace_back(kStdinMark);
        out.emplace_back(kMasked);
    }
    return out;
}

std::string Command::toUserOutput() const {
    std::string out = plainWord(program) ? program : shellQuote(program);
    for (const auto& a : args)
        out.append(" ").append(plainWord(a) ? a : shellQuote(a));
    if (!secretStdin.empty())
        out.append(" ").append(kStdinMark).append(" ").append(kMasked);
    return out;
}

std::string shellQuote(std::string_view word) {
    std::string out = "'";
    for (char c : word) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    out += '\'';
    return out;
}

} // namespace lb
