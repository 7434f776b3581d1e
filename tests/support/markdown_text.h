// The text of a Markdown line as a reader sees it: the report escapes Markdown's punctuation
// with a backslash (put\_block), and a test comparing it with names takes the escapes out.
#pragma once

#include <string>

namespace lb::test {

inline std::string unescapeMarkdown(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size())
            ++i;
        out += s[i];
    }
    return out;
}

} // namespace lb::test
