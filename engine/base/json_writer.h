// JSON written as it is made, byte for byte what nlohmann's dump(indent) writes for the same
// document (dumpJson in utf8.h, with its \xHH for bytes that are not UTF-8), without building the
// document first. For the large documents of the command line: a comparison of 1,000 metrics
// built as nlohmann values and then dumped spent a quarter of `compare --json`'s time in
// allocating, sorting and freeing the values.
//
// nlohmann keeps an object's keys sorted (std::map), so a writer gives each object's keys in
// that order (std::string's <); a debug build checks it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

class JsonWriter {
public:
    // Appends to `out`; indent < 0 writes everything on one line, as dump(-1) does.
    explicit JsonWriter(std::string& out, int indent = -1) : out_(out), indent_(indent) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    // The next member's key, in an object.
    JsonWriter& key(std::string_view k);

    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(bool b);
    // Not finite: null, as nlohmann writes it.
    JsonWriter& value(double d);
    JsonWriter& value(std::int64_t i);
    JsonWriter& value(std::uint64_t u);
    JsonWriter& null();
    // An array of strings.
    JsonWriter& value(const std::vector<std::string>& strings);

    // key(k).value(v)
    template <typename T> JsonWriter& member(std::string_view k, const T& v) {
        key(k);
        return value(v);
    }

private:
    struct Level {
        bool object = false;
        std::size_t members = 0;
        std::string lastKey; // debug builds: the keys' order
    };
    void beforeValue();
    void newline(std::size_t depth);

    std::string& out_;
    int indent_;
    std::vector<Level> levels_;
    bool afterKey_ = false;
};

} // namespace lb
