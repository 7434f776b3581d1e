// fio's text around its JSON (see fio_output.h).
#include "probes/fio_output.h"

#include <array>
#include <string>

namespace lb::fio {

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

// fio's top-level object starts with "fio version"; "jobs" and "client_stats" are accepted as
// well so that a file trimmed by hand is still recognised.
bool opensFioObject(std::string_view text, std::size_t brace) {
    std::size_t i = brace + 1;
    while (i < text.size() && isSpace(text[i]))
        ++i;
    const auto rest = text.substr(i);
    return rest.starts_with("\"fio version\"") || rest.starts_with("\"jobs\"") ||
           rest.starts_with("\"client_stats\"");
}

// A '{' inside a log line (a file name, say) must not be taken for the start of the JSON, so a
// brace that opens fio's object wins, then one at the start of a line, then any brace; the last
// two let truncated or mangled output reach the JSON parser and get a precise error.
std::optional<std::size_t> findJsonStart(std::string_view text) {
    if (const auto pos = findFioObject(text, 0))
        return pos;
    std::optional<std::size_t> first;
    for (auto pos = text.find('{'); pos != std::string_view::npos; pos = text.find('{', pos + 1)) {
        if (pos == 0 || text[pos - 1] == '\n')
            return pos;
        if (!first)
            first = pos;
    }
    return first;
}

// The characters the scan below acts on; it skips the rest of fio's 10 KB of JSON in a tight
// loop.
constexpr auto structural = [] {
    std::array<bool, 256> table{};
    for (const char c : std::string_view("\"\\{}[]"))
        table[static_cast<unsigned char>(c)] = true;
    return table;
}();

// One string-aware pass to the brace that closes the object: lets the text after it
// (--output-format=json,normal) be ignored, and tells a truncated file from a syntax error.
std::optional<std::size_t> findJsonEnd(std::string_view text, std::size_t begin) {
    long depth = 0;
    bool inString = false;
    for (std::size_t i = begin; i < text.size(); ++i) {
        const char c = text[i];
        if (!structural[static_cast<unsigned char>(c)])
            continue;
        if (inString) {
            if (c == '\\')
                ++i; // the escaped character, whatever it is
            else if (c == '"')
                inString = false;
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            break;
        case '{':
        case '[':
            ++depth;
            break;
        case '}':
        case ']':
            if (--depth <= 0)
                return i + 1;
            break;
        default:
            break;
        }
    }
    return std::nullopt;
}

std::string noJsonMessage(std::string_view stderrText) {
    std::string msg = "no JSON object found in fio output";
    // When fio rejects its options it prints no JSON; its stderr says why.
    std::size_t pos = 0;
    while (pos < stderrText.size()) {
        auto eol = stderrText.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = stderrText.size();
        const auto line = trim(stderrText.substr(pos, eol - pos));
        if (!line.empty()) {
            msg += " (stderr: ";
            msg += line;
            msg += ')';
            break;
        }
        pos = eol + 1;
    }
    return msg;
}

} // namespace

std::optional<std::size_t> jsonObjectEnd(std::string_view text, std::size_t begin) {
    return findJsonEnd(text, begin);
}

std::optional<std::size_t> findFioObject(std::string_view text, std::size_t from) {
    for (auto pos = text.find('{', from); pos != std::string_view::npos;
         pos = text.find('{', pos + 1))
        if (opensFioObject(text, pos))
            return pos;
    return std::nullopt;
}

// With --status-interval fio prints a complete report every interval, the final one last.
Expected<Span> locateJson(std::string_view text, std::string_view stderrText) {
    const auto begin = findJsonStart(text);
    if (!begin)
        return badInput(noJsonMessage(stderrText));
    Span span{*begin, 0};
    for (;;) {
        const auto end = findJsonEnd(text, span.begin);
        if (!end)
            return badInput("truncated JSON at byte " + std::to_string(text.size()) +
                            ": fio output ends inside the object that starts at byte " +
                            std::to_string(span.begin));
        span.end = *end;
        const auto next = findFioObject(text, span.end);
        if (!next)
            return span;
        span.begin = *next;
    }
}

// fio logs a job error as "err=<code>": "fio: pid=1, err=20/file:..." and, in normal output,
// "<job>: (groupid=0, jobs=1): err=20 (file:...)". A line that also names the job is preferred.
std::string_view findErrorLine(std::string_view text, std::string_view job, std::int64_t code) {
    const std::string needle = "err=" + std::to_string(code);
    std::string_view fallback;
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = text.size();
        const auto line = trim(text.substr(pos, eol - pos));
        for (auto at = line.find(needle); at != std::string_view::npos;
             at = line.find(needle, at + 1)) {
            const auto after = at + needle.size();
            if (after < line.size() && line[after] >= '0' && line[after] <= '9')
                continue; // err=5 must not match err=55
            if (line.find(job) != std::string_view::npos)
                return line;
            if (fallback.empty())
                fallback = line;
            break;
        }
        pos = eol + 1;
    }
    return fallback;
}

} // namespace lb::fio
