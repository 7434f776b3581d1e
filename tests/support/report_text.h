// The text of a report line as a reader sees it: the report escapes Markdown's punctuation with a
// backslash (put\_block) and HTML's with entities (&lt;), and a test comparing it with names
// takes the escapes out.
#pragma once

#include <string>
#include <utility>
#include <vector>

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

inline std::string unescapeHtml(std::string s) {
    static const std::vector<std::pair<std::string, std::string>> entities = {
        {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}};
    for (const auto& [from, to] : entities)
        for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
            s.replace(at, from.size(), to);
    return s;
}

} // namespace lb::test
