// The content hash of a tool's output, by which an import recognises data it already holds: the
// same file or bonnie++ line imported again, from a file or pasted, with CRLF or LF line ends.
#pragma once

#include <string>
#include <string_view>

namespace lb {

// SHA-1, in hex, of the text with each line's trailing white space (and CR) and the blank lines
// at either end left out. Not for security: only to tell copies of one output apart from others.
std::string contentHash(std::string_view text);

} // namespace lb
