#include "engine/content_hash.h"

#include <boost/uuid/detail/sha1.hpp>
#include <cstdio>

namespace lb {

namespace {

std::string normalised(std::string_view text) {
    std::string out;
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
    return out;
}

} // namespace

std::string contentHash(std::string_view text) {
    const std::string bytes = normalised(text);
    boost::uuids::detail::sha1 sha;
    sha.process_bytes(bytes.data(), bytes.size());
    boost::uuids::detail::sha1::digest_type digest;
    sha.get_digest(digest);
    std::string hex;
    char word[9];
    for (const unsigned int part : digest) {
        std::snprintf(word, sizeof word, "%08x", part);
        hex += word;
    }
    return hex;
}

} // namespace lb
