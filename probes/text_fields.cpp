// Shared line, token and number helpers for the text parsers; see text_fields.h.
#include "probes/text_fields.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <system_error>

namespace lb::text {

namespace {

constexpr std::size_t tabStop = 8;

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

bool isPlainDecimal(std::string_view s) {
    int digits = 0;
    int dots = 0;
    for (const char c : s) {
        if (c >= '0' && c <= '9')
            ++digits;
        else if (c == '.')
            ++dots;
        else
            return false;
    }
    return digits > 0 && dots <= 1;
}

} // namespace

std::string_view trim(std::string_view s) {
    while (!s.empty() && isBlank(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isBlank(s.back()))
        s.remove_suffix(1);
    return s;
}

std::string quoted(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '\'';
    out += s;
    out += '\'';
    return out;
}

std::vector<Line> lines(std::string_view text) {
    std::vector<Line> out;
    std::size_t pos = 0;
    int number = 0;
    while (pos < text.size()) {
        auto eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = text.size();
        auto line = text.substr(pos, eol - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        out.push_back({++number, line});
        pos = eol + 1;
    }
    return out;
}

int lineAt(std::string_view text, std::size_t offset) {
    int line = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i)
        line += text[i] == '\n' ? 1 : 0;
    return line;
}

std::vector<Token> tokens(std::string_view line) {
    std::vector<Token> out;
    std::size_t column = 0;
    std::size_t i = 0;
    while (i < line.size()) {
        if (isBlank(line[i])) {
            column = line[i] == '\t' ? (column / tabStop + 1) * tabStop : column + 1;
            ++i;
            continue;
        }
        const std::size_t start = i;
        const std::size_t startColumn = column;
        while (i < line.size() && !isBlank(line[i])) {
            ++i;
            ++column;
        }
        out.push_back({line.substr(start, i - start), startColumn, column});
    }
    return out;
}

std::vector<std::string_view> split(std::string_view line, char separator) {
    std::vector<std::string_view> out;
    // Sized once: a bonnie++ CSV line has 84 fields, and growing to them took eight allocations.
    out.reserve(static_cast<std::size_t>(std::count(line.begin(), line.end(), separator)) + 1);
    std::size_t start = 0;
    while (true) {
        const auto at = line.find(separator, start);
        out.push_back(trim(line.substr(start, at - start)));
        if (at == std::string_view::npos)
            return out;
        start = at + 1;
    }
}

Expected<double> parseNonNegative(std::string_view number, std::string_view whole) {
    if (!number.empty() && number.front() == '-' && isPlainDecimal(number.substr(1)))
        return badInput(quoted(whole) + " is negative");
    if (!isPlainDecimal(number))
        return badInput(quoted(whole) + " is not a number");
    double value = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc{} || end != number.data() + number.size())
        return badInput(quoted(whole) + " is not a number");
    return value;
}

Expected<double> parseLatencyNs(std::string_view text) {
    struct Suffix {
        std::string_view unit;
        double ns;
    };
    // bonnie++ 1.96-2.00a print only us, ms and s; ns is accepted in case a later version adds it.
    constexpr std::array<Suffix, 4> suffixes{
        {{"ns", 1.0}, {"us", nsPerUs}, {"ms", nsPerMs}, {"s", 1e9}}};
    const auto unitAt = text.find_first_not_of("-0123456789.");
    if (unitAt == std::string_view::npos) {
        if (auto n = parseNonNegative(text, text); !n)
            return n;
        return badInput(quoted(text) + " has no unit (expected ns, us, ms or s)");
    }
    const auto number = text.substr(0, unitAt);
    const auto unit = text.substr(unitAt);
    auto value = parseNonNegative(number, text);
    if (!value)
        return value;
    for (const auto& s : suffixes)
        if (s.unit == unit)
            return *value * s.ns;
    return badInput(quoted(text) + " has an unknown unit " + quoted(unit) +
                    " (expected ns, us, ms or s)");
}

} // namespace lb::text
