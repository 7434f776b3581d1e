#include "engine/content_hash.h"

#include <cstdio>
#include <cstdlib>
#include <openssl/evp.h>
#include <optional>

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

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

// Whether a line of `text` ends in white space or CR (one before a '\n'). Looked at in blocks of
// 64 bytes, a loop of fixed length that GCC turns into vector compares at -O2 as at -O3: 0.7 µs
// for 10 KB where finding each line end took 2.2.
bool raggedLineEnd(std::string_view text) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    constexpr std::size_t block = 64;
    std::size_t i = 1;
    for (; i + block <= n; i += block) {
        const unsigned char* at = p + i;
        const unsigned char* before = p + i - 1;
        unsigned char ragged = 0;
        for (std::size_t j = 0; j < block; ++j)
            ragged |= static_cast<unsigned char>(
                (at[j] == '\n') & ((before[j] == ' ') | (before[j] == '\t') | (before[j] == '\r')));
        if (ragged)
            return true;
    }
    for (; i < n; ++i)
        if (p[i] == '\n' && isBlank(static_cast<char>(p[i - 1])))
            return true;
    return false;
}

// The text normalise() would make of `text` when all it would do is leave out the line ends at
// either end (most tool output: every fio JSON file), without copying it; nullopt otherwise.
std::optional<std::string_view> alreadyNormal(std::string_view text) {
    const auto first = text.find_first_not_of('\n');
    if (first == std::string_view::npos)
        return std::string_view();
    text = text.substr(first, text.find_last_not_of('\n') + 1 - first);
    if (isBlank(text.back()) || raggedLineEnd(text))
        return std::nullopt;
    return text;
}

// OpenSSL's SHA-1, not Boost's: Boost's takes the text a byte at a time, and hashing was a
// fifth of an import's time. The algorithm is fetched and the context made once per thread:
// EVP_Digest does both for every call, which for a bonnie++ line of 200 bytes cost more than
// the hash itself.
class Sha1 {
public:
    Sha1() : md_(EVP_MD_fetch(nullptr, "SHA1", nullptr)), ctx_(EVP_MD_CTX_new()) {}
    ~Sha1() {
        EVP_MD_CTX_free(ctx_);
        EVP_MD_free(md_);
    }
    Sha1(const Sha1&) = delete;
    Sha1& operator=(const Sha1&) = delete;
    // The digest's length; 0 if OpenSSL failed.
    unsigned int digest(std::string_view bytes, unsigned char* out) {
        unsigned int length = 0;
        if (md_ == nullptr || ctx_ == nullptr || EVP_DigestInit_ex2(ctx_, md_, nullptr) != 1 ||
            EVP_DigestUpdate(ctx_, bytes.data(), bytes.size()) != 1 ||
            EVP_DigestFinal_ex(ctx_, out, &length) != 1)
            return 0;
        return length;
    }

private:
    EVP_MD* md_;
    EVP_MD_CTX* ctx_;
};

} // namespace

std::string contentHash(std::string_view text) {
    thread_local std::string normalised;
    thread_local Sha1 sha1;
    auto bytes = alreadyNormal(text);
    if (!bytes) {
        normalise(text, normalised);
        bytes = normalised;
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    const unsigned int length = sha1.digest(*bytes, digest);
    if (length != 20) {
        // Only an OpenSSL without its default provider gets here; no hash means no import.
        std::fputs("layoutbench: OpenSSL cannot compute SHA-1 (its default provider is "
                   "missing?)\n",
                   stderr);
        std::abort();
    }
    static constexpr char hexDigits[] = "0123456789abcdef";
    std::string hex(2 * length, '0');
    for (unsigned int i = 0; i < length; ++i) {
        hex[2 * i] = hexDigits[digest[i] >> 4];
        hex[2 * i + 1] = hexDigits[digest[i] & 0xf];
    }
    return hex;
}

} // namespace lb
