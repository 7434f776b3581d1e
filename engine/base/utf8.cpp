#include "engine/base/utf8.h"

namespace lb {

namespace {

// The length of the valid UTF-8 sequence at the start of `text`: 1-4, 0 when the first byte does
// not start a valid sequence, or -1 when it starts one that `text` cuts off (it may be valid once
// the rest arrives).
int sequenceLength(std::string_view text) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char b0 = byte(0);
    if (b0 < 0x80)
        return 1;
    int n = 0;
    unsigned char lo = 0x80, hi = 0xBF; // the range of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        n = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        n = 3;
        if (b0 == 0xE0)
            lo = 0xA0; // no overlong forms
        if (b0 == 0xED)
            hi = 0x9F; // no surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        n = 4;
        if (b0 == 0xF0)
            lo = 0x90; // no overlong forms
        if (b0 == 0xF4)
            hi = 0x8F; // nothing above U+10FFFF
    } else {
        return 0;
    }
    for (std::size_t i = 1; i < static_cast<std::size_t>(n); ++i) {
        if (i >= text.size())
            return -1;
        const unsigned char first = i == 1 ? lo : 0x80, last = i == 1 ? hi : 0xBF;
        if (byte(i) < first || byte(i) > last)
            return 0;
    }
    return n;
}

void appendHexEscape(std::string& out, unsigned char byte) {
    static constexpr char hex[] = "0123456789abcdef";
    out += "\\x";
    out += hex[byte >> 4];
    out += hex[byte & 0xF];
}

} // namespace

bool isValidUtf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const int n = sequenceLength(text.substr(i));
        if (n <= 0)
            return false;
        i += static_cast<std::size_t>(n);
    }
    return true;
}

std::size_t escapeInvalidUtf8(std::string_view text, std::string& out, bool final) {
    std::size_t i = 0;
    while (i < text.size()) {
        // ASCII, nearly all of any output, appended in one piece.
        std::size_t end = i;
        while (end < text.size() && static_cast<unsigned char>(text[end]) < 0x80)
            ++end;
        out.append(text.substr(i, end - i));
        if ((i = end) == text.size())
            break;
        const int n = sequenceLength(text.substr(i));
        if (n < 0 && !final)
            break; // the rest of the sequence may come with the next piece
        if (n > 0) {
            out.append(text.substr(i, static_cast<std::size_t>(n)));
            i += static_cast<std::size_t>(n);
            continue;
        }
        appendHexEscape(out, static_cast<unsigned char>(text[i++]));
    }
    return i;
}

std::string escapeInvalidUtf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    escapeInvalidUtf8(text, out, true);
    return out;
}

void appendJsonString(std::string& out, std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    out += '"';
    const auto plain = [](unsigned char u) {
        return u >= 0x20 && u < 0x80 && u != '"' && u != '\\';
    };
    for (std::size_t i = 0; i < text.size();) {
        // The characters written as they are, appended in one piece.
        std::size_t end = i;
        while (end < text.size() && plain(static_cast<unsigned char>(text[end])))
            ++end;
        out.append(text.substr(i, end - i));
        if (end == text.size())
            break;
        i = end;
        const auto u = static_cast<unsigned char>(text[i]);
        if (u >= 0x80) {
            const int n = sequenceLength(text.substr(i));
            if (n > 0) {
                out.append(text.substr(i, static_cast<std::size_t>(n)));
                i += static_cast<std::size_t>(n);
            } else {
                out += '\\'; // the escape's own backslash, escaped for JSON
                appendHexEscape(out, u);
                ++i;
            }
            continue;
        }
        ++i;
        switch (u) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default: // a control character: every other one was appended with its run
            out += "\\u00";
            out += hex[u >> 4];
            out += hex[u & 0xF];
        }
    }
    out += '"';
}

std::string escapeControl(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u != 0x7f)
            out += c;
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else
            appendHexEscape(out, u);
    }
    return out;
}

} // namespace lb
