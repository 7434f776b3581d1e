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

namespace {

// The number of the `count` digits at `at`, or -1.
int digitsAt(std::string_view text, std::size_t at, std::size_t count) {
    int n = 0;
    for (std::size_t i = at; i < at + count; ++i) {
        if (text[i] < '0' || text[i] > '9')
            return -1;
        n = n * 10 + (text[i] - '0');
    }
    return n;
}

} // namespace

std::optional<double> isoUtcSeconds(std::string_view t) {
    // "YYYY-MM-DDTHH:MM:SS", a fraction or not, and "Z".
    if (t.size() < 20 || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' ||
        t[16] != ':' || t.back() != 'Z')
        return std::nullopt;
    int Y = digitsAt(t, 0, 4), M = digitsAt(t, 5, 2);
    const int D = digitsAt(t, 8, 2), h = digitsAt(t, 11, 2), m = digitsAt(t, 14, 2),
              sec = digitsAt(t, 17, 2);
    if (Y < 0 || M < 1 || M > 12 || D < 1 || D > 31 || h < 0 || h > 23 || m < 0 || m > 59 ||
        sec < 0 || sec > 59)
        return std::nullopt;
    // The fraction as SQLite reads it (date.c, parseHhMmSs): its digits as a number, divided by
    // ten to the power of their count.
    double fraction = 0;
    if (t.size() > 20) {
        if (t[19] != '.' || t.size() > 30)
            return std::nullopt;
        double scale = 1.0;
        for (std::size_t i = 20; i + 1 < t.size(); ++i) {
            if (t[i] < '0' || t[i] > '9')
                return std::nullopt;
            fraction = fraction * 10.0 + (t[i] - '0');
            scale *= 10.0;
        }
        if (scale == 1.0)
            return std::nullopt;
        fraction /= scale;
    }
    // SQLite's day number in milliseconds (date.c, computeJD), then julianday()'s value and the
    // query's arithmetic on it: the same operations on the same doubles.
    if (M <= 2) {
        --Y;
        M += 12;
    }
    const int A = Y / 100;
    const int B = 2 - A + (A / 4);
    const int X1 = 36525 * (Y + 4716) / 100;
    const int X2 = 306001 * (M + 1) / 10000;
    auto iJD = static_cast<std::int64_t>((X1 + X2 + D + B - 1524.5) * 86400000);
    iJD += h * 3600000 + m * 60000 +
           static_cast<std::int64_t>((static_cast<double>(sec) + fraction) * 1000 + 0.5);
    return (static_cast<double>(iJD) / 86400000.0 - 2440587.5) * 86400.0;
}

Expected<std::string> storedOutput(const sql::Statement& row, int col) {
    if (row.columnIsBlob(col))
        return unpackOutput(row.columnBlob(col));
    return row.columnText(col);
}

} // namespace store

} // namespace lb
