// Line and field helpers shared by the parsers of tools' text output (bonnie++ CSV and tables,
// iozone, dd, fio terse): numbered lines, whitespace tokens with their columns, and the number
// and unit forms those tools print. Pure functions of text.
#pragma once

#include "engine/base/expected.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lb::text {

std::string_view trim(std::string_view s);

// "'x'": values are quoted in messages so an empty or blank one is visible.
std::string quoted(std::string_view s);

struct Line {
    int number = 0;        // 1-based
    std::string_view text; // without its line end (\n or \r\n)
};

// Every line of the text, numbered from 1; a last line without a newline counts.
std::vector<Line> lines(std::string_view text);

// The 1-based line that holds byte `offset` of the text.
int lineAt(std::string_view text, std::size_t offset);

// A whitespace-separated token and the columns it occupies, [begin, end), with tabs expanded
// to the next multiple of 8 as a terminal shows them: fixed-width tables are read by column.
struct Token {
    std::string_view text;
    std::size_t begin = 0;
    std::size_t end = 0;
};
std::vector<Token> tokens(std::string_view line);

// Splits on a separator, keeping empty fields and trimming each.
std::vector<std::string_view> split(std::string_view line, char separator);

// Plain decimals as tools print them: digits with at most one '.', no sign, exponent, inf or
// nan. `whole` is what the message quotes (the number may be part of it, "12ms").
Expected<double> parseNonNegative(std::string_view number, std::string_view whole);
inline Expected<double> parseNonNegative(std::string_view number) {
    return parseNonNegative(number, number);
}

// A latency with its unit as bonnie++ prints it: "<n>ns", "<n>us", "<n>ms" or "<n>s".
Expected<double> parseLatencyNs(std::string_view text);

// Canonical-unit factors for the units tools print.
constexpr double bytesPerKiB = 1024.0;
constexpr double nsPerUs = 1e3;
constexpr double nsPerMs = 1e6;
constexpr double secondsPerMs = 1e-3;

} // namespace lb::text
