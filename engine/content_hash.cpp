#include "engine/content_hash.h"

#include <cassert>
#include <openssl/evp.h>

namespace lb {

namespace {

// The text without trailing white space on its lines, blank lines at its ends, or line ends
// other than '\n', into `out` (reused: a hash is taken for every file of an import).
void normalise(std::string_view text, std::string& out) {
    out.clear();
    std::size_t blank = 0; // blank lines seen since the last line with text
    while (!text.empty()) {
        const auto end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        const auto last = line.find_last_not_of(" \t\r");
        if (last == std::string_view::npos) {
            ++blank;
            continue;
        }
        if (!out.empty())
            out.append(blank + 1, '\n');
        blank = 0;
        out += line.substr(0, last + 1);
    }
}

} // namespace

std::string contentHash(std::string_view text) {
    thread_local std::string bytes;
    normalise(text, bytes);
    // OpenSSL's SHA-1, not Boost's: Boost's takes the text a byte at a time, and hashing was a
    // fifth of an import's time.
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    [[maybe_unused]] const int done =
        EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha1(), nullptr);
    assert(done == 1 && length == 20);
    static constexpr char hexDigits[] = "0123456789abcdef";
    std::string hex(2 * length, '0');
    for (unsigned int i = 0; i < length; ++i) {
        hex[2 * i] = hexDigits[digest[i] >> 4];
        hex[2 * i + 1] = hexDigits[digest[i] & 0xf];
    }
    return hex;
}

} // namespace lb
