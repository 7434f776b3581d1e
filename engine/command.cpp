#include "engine/command.h"

namespace lb {

std::vector<std::string> Command::argvForDisplay() const {
    std::vector<std::string> out{program};
    for (std::size_t i = 0; i < args.size(); ++i)
        out.push_back(maskedArgs.count(i) ? "****" : args[i]);
    return out;
}

std::string Command::toUserOutput() const {
    std::string out;
    for (const auto& a : argvForDisplay()) {
        if (!out.empty())
            out += ' ';
        const bool plain =
            !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789-_./=:,@%+") == std::string::npos;
        if (plain) {
            out += a;
            continue;
        }
        out += shellQuote(a);
    }
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
