#include "engine/base/json_writer.h"

#include "engine/base/utf8.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

namespace lb {

void JsonWriter::newline(std::size_t depth) {
    if (indent_ < 0)
        return;
    out_ += '\n';
    out_.append(depth * static_cast<std::size_t>(indent_), ' ');
}

// Before a value: the separator and indent of an array's element; after a key, nothing.
void JsonWriter::beforeValue() {
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (levels_.empty())
        return;
    Level& level = levels_.back();
    assert(!level.object && "a value in an object needs its key first");
    if (level.members++ > 0)
        out_ += ',';
    newline(levels_.size());
}

JsonWriter& JsonWriter::key(std::string_view k) {
    assert(!levels_.empty() && levels_.back().object && !afterKey_);
    Level& level = levels_.back();
    assert((level.members == 0 || level.lastKey < k) && "keys in nlohmann's (sorted) order");
#ifndef NDEBUG
    level.lastKey = k;
#endif
    if (level.members++ > 0)
        out_ += ',';
    newline(levels_.size());
    appendJsonString(out_, k);
    out_ += indent_ < 0 ? ":" : ": ";
    afterKey_ = true;
    return *this;
}

JsonWriter& JsonWriter::beginObject() {
    beforeValue();
    out_ += '{';
    levels_.push_back({true, 0, {}});
    return *this;
}

JsonWriter& JsonWriter::beginArray() {
    beforeValue();
    out_ += '[';
    levels_.push_back({false, 0, {}});
    return *this;
}

JsonWriter& JsonWriter::endObject() {
    assert(!levels_.empty() && levels_.back().object && !afterKey_);
    const bool empty = levels_.back().members == 0;
    levels_.pop_back();
    if (!empty)
        newline(levels_.size());
    out_ += '}';
    return *this;
}

JsonWriter& JsonWriter::endArray() {
    assert(!levels_.empty() && !levels_.back().object);
    const bool empty = levels_.back().members == 0;
    levels_.pop_back();
    if (!empty)
        newline(levels_.size());
    out_ += ']';
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
    beforeValue();
    appendJsonString(out_, s);
    return *this;
}

JsonWriter& JsonWriter::value(bool b) {
    beforeValue();
    out_ += b ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::value(double d) {
    if (!std::isfinite(d))
        return null();
    beforeValue();
    // nlohmann's own shortest round-trip form (Grisu2, "1.0" for a whole number), so the text
    // is the same as its dump's.
    char buffer[64];
    const char* end = nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, d);
    out_.append(buffer, static_cast<std::size_t>(end - buffer));
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t i) {
    beforeValue();
    char buffer[24];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, i);
    out_.append(buffer, static_cast<std::size_t>(r.ptr - buffer));
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t u) {
    beforeValue();
    char buffer[24];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, u);
    out_.append(buffer, static_cast<std::size_t>(r.ptr - buffer));
    return *this;
}

JsonWriter& JsonWriter::null() {
    beforeValue();
    out_ += "null";
    return *this;
}

JsonWriter& JsonWriter::value(const std::vector<std::string>& strings) {
    beginArray();
    for (const auto& s : strings)
        value(s);
    return endArray();
}

} // namespace lb
