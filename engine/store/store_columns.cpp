// The forms of the store's columns that hold more than one value (engine/store/store_internal.h):
// lists of strings, notes and a run's origin as JSON, a run's samples packed as (metric id,
// value) pairs, a series' points packed, and a run's output stored as text or a packed BLOB.
#include "engine/base/output_codec.h"
#include "engine/base/utf8.h"
#include "engine/store/store_internal.h"

#include <bit>
#include <cstring>
#include <nlohmann/json.hpp>

namespace lb {

namespace store {

// The documents a run row holds are written directly (appendJsonString), not built as JSON
// values and dumped: an import writes them for every run, and building them was a tenth of its
// time. The text is what dumpJson would write: keys in its (sorted) order, no spaces.
namespace {

void appendStrings(std::string& out, const std::vector<std::string>& items) {
    out += '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i)
            out += ',';
        appendJsonString(out, items[i]);
    }
    out += ']';
}

} // namespace

std::string stringsJson(const std::vector<std::string>& items) {
    std::string out;
    appendStrings(out, items);
    return out;
}

std::vector<std::string> stringsFromJson(const std::string& text) {
    std::vector<std::string> out;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_array())
        return out;
    for (const auto& item : j)
        out.push_back(item.is_string() ? item.get<std::string>() : item.dump());
    return out;
}

std::vector<MetricNote> notesFromJson(const std::string& text) {
    std::vector<MetricNote> out;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_array())
        return out;
    for (const auto& n : j) {
        if (!n.is_object())
            continue;
        const auto kind = metricNoteKindFromName(n.value("kind", std::string()));
        if (kind)
            out.push_back(
                {*kind, n.value("metrics", std::string()), n.value("text", std::string())});
    }
    return out;
}

std::string notesJson(const std::vector<MetricNote>& notes) {
    std::string out = "[";
    for (const auto& n : notes) {
        if (out.size() > 1)
            out += ',';
        out += "{\"kind\":";
        appendJsonString(out, metricNoteKindName(n.kind));
        out += ",\"metrics\":";
        appendJsonString(out, n.metrics);
        out += ",\"text\":";
        appendJsonString(out, n.text);
        out += '}';
    }
    out += ']';
    return out;
}

std::string originJson(const RunOrigin& origin) {
    if (origin.empty())
        return "{}";
    std::string out = "{\"converted_from\":";
    appendStrings(out, origin.convertedFrom);
    out += ",\"format\":";
    appendJsonString(out, origin.format);
    out += ",\"spec\":{";
    bool first = true;
    for (const auto& [key, value] : origin.spec) {
        if (!std::exchange(first, false))
            out += ',';
        appendJsonString(out, key);
        out += ':';
        appendJsonString(out, value);
    }
    out += "}}";
    return out;
}

RunOrigin originFromJson(const std::string& text) {
    RunOrigin out;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object())
        return out;
    if (const auto f = j.find("format"); f != j.end() && f->is_string())
        out.format = f->get<std::string>();
    if (const auto c = j.find("converted_from"); c != j.end() && c->is_array())
        for (const auto& u : *c)
            if (u.is_string())
                out.convertedFrom.push_back(u.get<std::string>());
    if (const auto s = j.find("spec"); s != j.end() && s->is_object())
        for (const auto& [key, value] : s->items())
            out.spec[key] = value.is_string() ? value.get<std::string>() : value.dump();
    return out;
}

void appendSample(std::string& packed, std::int64_t metricId, double value) {
    char bytes[sampleBytes];
    const auto id = static_cast<std::uint32_t>(metricId);
    const auto bits = std::bit_cast<std::uint64_t>(value);
    for (std::size_t i = 0; i < 4; ++i)
        bytes[i] = static_cast<char>((id >> (8 * i)) & 0xff);
    for (std::size_t i = 0; i < 8; ++i)
        bytes[4 + i] = static_cast<char>((bits >> (8 * i)) & 0xff);
    packed.append(bytes, sampleBytes);
}

std::string packPoints(const Series& s) {
    const std::size_t n = std::min(s.x.size(), s.y.size());
    std::string packed(n * pointBytes, '\0');
    char* out = packed.data();
    for (std::size_t i = 0; i < n; ++i)
        for (const double v : {s.x[i], s.y[i]}) {
            auto bits = std::bit_cast<std::uint64_t>(v);
            if constexpr (std::endian::native != std::endian::little)
                bits = __builtin_bswap64(bits);
            std::memcpy(out, &bits, 8);
            out += 8;
        }
    return packed;
}

void unpackPoints(std::string_view packed, Series& s) {
    const std::size_t n = packed.size() / pointBytes;
    s.x.resize(n);
    s.y.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        s.x[i] = std::bit_cast<double>(littleEndian(packed.data() + i * pointBytes, 8));
        s.y[i] = std::bit_cast<double>(littleEndian(packed.data() + i * pointBytes + 8, 8));
    }
}

Expected<std::string> storedOutput(const sql::Statement& row, int col) {
    if (row.columnIsBlob(col))
        return unpackOutput(row.columnBlob(col));
    return row.columnText(col);
}

} // namespace store

} // namespace lb
