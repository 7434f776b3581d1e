// fio's text around its JSON: where the JSON object is among fio's log lines (and which of
// several, with --status-interval), and the log line that explains a job's error. Shared by
// the JSON parser's modules (fio_json.cpp).
#pragma once

#include "engine/base/expected.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace lb::fio {

// The first '{' that opens fio's top-level object (its first key "fio version", "jobs" or
// "client_stats") at or after `from`.
std::optional<std::size_t> findFioObject(std::string_view text, std::size_t from);

struct Span {
    std::size_t begin = 0;
    std::size_t end = 0; // one past the closing brace
};

// One past the brace that closes the JSON object opening at `begin` (strings and escapes
// skipped); nullopt when the text ends inside it.
std::optional<std::size_t> jsonObjectEnd(std::string_view text, std::size_t begin);

// The JSON object to read: with --status-interval fio prints a complete report every interval,
// the final one last. Bad input when there is none (naming fio's stderr) or it is cut short.
Expected<Span> locateJson(std::string_view text, std::string_view stderrText);

// The log line that reports a job's error "err=<code>"; one that also names the job preferred.
std::string_view findErrorLine(std::string_view text, std::string_view job, std::int64_t code);

} // namespace lb::fio
