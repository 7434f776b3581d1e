// Where the command line's output goes: how wide a table may be, and whether progress can be
// drawn in place.
#pragma once

#include <cstddef>

namespace lb::cli {

// The width of the terminal on `fd`, or 0 when it is not a terminal.
std::size_t terminalColumns(int fd);

// The width tables must fit on standard output: COLUMNS when it is a positive number, else the
// terminal's, else 0 (no limit: a pipe or a file gets every column).
std::size_t outputColumns();

} // namespace lb::cli
