// What mail, diffs, Markdown and word processors put around a tool's output when people paste
// it, taken away line for line, so that the parsers read the output itself. A pure function of
// text.
#pragma once

#include <string>
#include <string_view>

namespace lb::text {

// Whether the text holds anything plainText changes: a '>' quote, a Markdown fence, a diff's
// '+' lines, or a Unicode space (U+00A0 and the like); most files do not, and are not copied.
bool isWrapped(std::string_view text);

// The text with, on each line, these taken away (a line is never added or removed, so every
// line keeps its number): mail quoting ("> ", "> > "); Markdown fences ("```", "~~~": the line
// left blank); a diff's markup when the text is a diff (a "@@ " hunk line, or most lines
// starting with '+'): '+' before an added line, the space before a context line, removed lines,
// hunk and file headers (left blank); Unicode spaces (U+00A0, U+2000-U+200A, U+202F, U+205F,
// U+3000) as plain spaces, and a byte-order mark at the start left out. Line ends are kept.
std::string plainText(std::string_view text);

} // namespace lb::text
