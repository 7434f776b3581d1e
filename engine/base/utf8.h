// Text that may not be UTF-8 — a file name or a layout name typed on a command line, a tool's
// output — made safe to print and to write as JSON: every byte that is not part of a valid UTF-8
// sequence becomes the four characters \xHH. JSON libraries refuse such bytes (nlohmann throws
// type_error.316), terminals garble them; escaped, they stay readable and say what the bytes were.
// And text made to stay on one line in a message: control characters escaped too.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace lb {

// True when `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
// above U+10FFFF).
bool isValidUtf8(std::string_view text);

// `text` with each byte outside a valid UTF-8 sequence written as \xHH (lowercase hex); valid text
// comes back unchanged.
std::string escapeInvalidUtf8(std::string_view text);

// Control characters as escapes (\n, \r, \t, \xHH; DEL too), so that a value, a key or a
// parser's own message (toml++'s can hold newlines) cannot make a message span lines.
std::string escapeControl(std::string_view text);

// The same for text that arrives in pieces (a stream): appends the escaped form of `text` to
// `out` and returns how many bytes of `text` it consumed. Unless `final`, a sequence cut off at
// the end is left unconsumed, to be passed again with what follows.
std::size_t escapeInvalidUtf8(std::string_view text, std::string& out, bool final);

// `text` as a JSON string, quotes included, appended to `out`: byte for byte what dumpJson writes
// for it (the escapes of nlohmann's dump, bytes that are not UTF-8 as \xHH), without building a
// JSON value first. For the store's small documents, written once per run.
void appendJsonString(std::string& out, std::string_view text);

namespace detail {
template <typename Json> bool hasInvalidUtf8(const Json& j) {
    if (j.is_string())
        return !isValidUtf8(j.template get_ref<const typename Json::string_t&>());
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            if (!isValidUtf8(it.key()) || hasInvalidUtf8(it.value()))
                return true;
        return false;
    }
    if (j.is_array())
        for (const auto& v : j)
            if (hasInvalidUtf8(v))
                return true;
    return false;
}

template <typename Json> Json escapedCopy(const Json& j) {
    if (j.is_string())
        return escapeInvalidUtf8(j.template get_ref<const typename Json::string_t&>());
    if (j.is_object()) {
        Json out = Json::object();
        for (auto it = j.begin(); it != j.end(); ++it)
            out[escapeInvalidUtf8(it.key())] = escapedCopy(it.value());
        return out;
    }
    if (j.is_array()) {
        Json out = Json::array();
        for (const auto& v : j)
            out.push_back(escapedCopy(v));
        return out;
    }
    return j;
}
} // namespace detail

// j.dump(indent) that never throws on text that is not UTF-8: such strings and keys are written
// escaped as above. Everything that prints or stores JSON goes through here.
template <typename Json> std::string dumpJson(const Json& j, int indent = -1) {
    if (!detail::hasInvalidUtf8(j))
        return j.dump(indent);
    return detail::escapedCopy(j).dump(indent);
}

} // namespace lb
