// Shared by the store's modules only (store*.cpp, journal.cpp): the statement cache's lease, the
// JSON forms of the columns that hold lists, and the packed samples and series of a run.
#pragma once

#include "engine/store/store.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace lb {

// A statement from the store's cache, reset (bindings cleared, read lock released) when the lease
// ends, so the next use starts afresh.
class StatementLease {
public:
    explicit StatementLease(sql::Statement* s) : s_(s) {}
    StatementLease(StatementLease&& o) noexcept : s_(o.s_) { o.s_ = nullptr; }
    StatementLease& operator=(StatementLease&&) = delete;
    StatementLease(const StatementLease&) = delete;
    ~StatementLease() {
        if (s_)
            s_->reset();
    }
    sql::Statement* operator->() const { return s_; }
    sql::Statement& operator*() const { return *s_; }

private:
    sql::Statement* s_;
};

namespace store {

// What the last run stored named, with its id (Store::Cache).
template <typename Items> struct Last {
    Items items;
    std::optional<std::int64_t> id;
};

} // namespace store

struct Store::Cache {
    std::unordered_map<const char*, sql::Statement> statements; // by the literal's address
    // Ids of metrics by name, one per unit the name was stored with (in practice one).
    std::unordered_map<std::string, std::vector<std::pair<Unit, std::int64_t>>> metricIds;
    std::vector<MetricKind> metricKinds;                   // by id; loaded on demand
    std::unordered_map<std::string, std::int64_t> textIds; // run_text ids by text, the first met
    // The last run's metrics, in its order, with their ids (0: none yet).
    std::vector<std::tuple<std::string, Unit, std::int64_t>> previousMetricIds;
    // The last run's caveats, notes and host with their ids. The runs of an import carry the same
    // ones as a rule: comparing them with the last costs less than writing them as JSON (30
    // strings for a bonnie++ line) to look the text up, or asking host for the name's id.
    std::optional<store::Last<std::vector<std::string>>> lastCaveats;
    std::optional<store::Last<std::vector<MetricNote>>> lastNotes;
    std::optional<store::Last<std::string>> lastHost;

    // Every id known, forgotten: what they name was rolled back or deleted.
    void forget() {
        metricIds.clear();
        metricKinds.clear();
        textIds.clear();
        previousMetricIds.clear();
        lastCaveats.reset();
        lastNotes.reset();
        lastHost.reset();
    }
};

namespace store {

std::string stringsJson(const std::vector<std::string>& items);
std::vector<std::string> stringsFromJson(const std::string& text);
std::string notesJson(const std::vector<MetricNote>& notes);
std::vector<MetricNote> notesFromJson(const std::string& text);
std::string originJson(const RunOrigin& origin);
RunOrigin originFromJson(const std::string& text);

// A run's started_at as seconds since 1970, as SQLite's (julianday(t) - 2440587.5) * 86400.0
// gives them, bit for bit, for the forms layoutbench writes ("2026-11-29T12:00:00Z", with a
// fraction of a second or without); nullopt for any other form, which SQLite is left to read.
std::optional<double> isoUtcSeconds(std::string_view text);

// The output stored in column `col` of a row of run: its text, or the text of the BLOB packOutput
// made of it (an error when that is damaged).
Expected<std::string> storedOutput(const sql::Statement& row, int col);

// A run's metrics as run_sample keeps them: (metric id, value) pairs of 12 bytes, little-endian
// (a 32-bit id of metric_name, a double), in the order the run measured them; a comparison
// reads one row per run instead of one per metric.
constexpr std::size_t sampleBytes = 12;
void appendSample(std::string& packed, std::int64_t metricId, double value);

// The `bytes` (up to 8) at `p` as a little-endian number.
inline std::uint64_t littleEndian(const char* p, std::size_t bytes) {
    std::uint64_t v = 0;
    if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(&v, p, bytes);
    } else {
        for (std::size_t i = 0; i < bytes; ++i)
            v |= static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
    }
    return v;
}

// The metric id and the value of sample `index` of a packed run; inline, as a comparison reads
// a million of them.
inline std::int64_t sampleId(std::string_view packed, std::size_t index) {
    return static_cast<std::int64_t>(littleEndian(packed.data() + index * sampleBytes, 4));
}
inline double sampleValue(std::string_view packed, std::size_t index) {
    return std::bit_cast<double>(littleEndian(packed.data() + index * sampleBytes + 4, 8));
}

// A series' points as run_series keeps them: (x, y) pairs of little-endian doubles, 16 bytes a
// point, in order.
constexpr std::size_t pointBytes = 16;
std::string packPoints(const Series& s);
void unpackPoints(std::string_view packed, Series& s); // sets s.x and s.y

} // namespace store

} // namespace lb
