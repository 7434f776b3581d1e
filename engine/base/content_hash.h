// The content hash of a tool's output, by which an import recognises data it already holds: the
// same file or bonnie++ line imported again, from a file or pasted, with CRLF or LF line ends.
#pragma once

#include <string>
#include <string_view>

namespace lb {

// XXH3's 128-bit hash (xxHash), in hex as xxhsum -H2 prints it, of the text with each line's
// trailing white space (and CR) and the blank lines at either end left out. Not for security:
// only to tell copies of one output apart from others. Until schema 15 it was SHA-1, which took
// 5.7 µs for a 10 KB fio JSON+ file where XXH3 takes 0.7: a tenth of what storing one took.
// Schema 15 hashes every stored output again (engine/store/store.cpp).
std::string contentHash(std::string_view text);

} // namespace lb
