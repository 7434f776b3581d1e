// Shared by the fio JSON parser's modules only: fio_json_read.cpp reads the document (typed
// fields with their JSON path, each entry of "jobs" or fio --client's "client_stats", by simdjson
// or nlohmann) into the entries below; fio_json.cpp combines them into metrics.
#pragma once

#include "engine/base/expected.h"
#include "probes/fio_histogram.h"
#include "probes/fio_json_compat.h"
#include "probes/fio_output.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lb::fio::json_doc {

// fio --client adds a summary entry under this job name (client.c, handle_ts).
inline constexpr std::string_view allClientsName = "All clients";

struct DirectionStats {
    bool didIo = false;
    double bwBytes = 0;
    double iops = 0;
    double runtimeMs = 0;
    double totalIos = 0;
    double latMeanNs = 0;
    std::optional<double> slatMeanNs;                    // absent from lb-netload's JSON
    std::array<std::optional<double>, 3> percentiles;    // clat, as percentileKeys
    std::array<std::optional<double>, 3> latPercentiles; // total latency (lat_percentiles=1)
};

// A job's fsync/fdatasync latency ("sync" in fio 3.x's JSON; "sync (usec):" in its normal
// output), when it synced: how many, their mean and p50/p99/p99.9 (as percentileKeys), in ns.
struct SyncStats {
    double count = 0;
    double meanNs = 0;
    std::array<std::optional<double>, 3> percentiles;
};

// One entry of "jobs" or "client_stats".
struct Entry {
    std::string path; // "jobs[0]", for messages
    std::string name;
    std::int64_t error = 0;
    std::int64_t group = 0; // "groupid": jobs reported together, split by new_group or stonewall
    bool summary = false;   // fio --client's "All clients"
    std::string host;
    std::optional<std::int64_t> port;
    std::string client; // host, or host:port when several servers share a host name
    std::array<std::optional<DirectionStats>, compat::directions.size()> stats; // absent if not
                                                                                // printed
    std::optional<SyncStats> sync; // none when the job did not sync
    // O_DIRECT as the job ran it; unknown when the JSON prints no options ("All clients").
    std::optional<bool> direct;
    // The options that say what work the job did ("bs=4.00 KiB", "iodepth=32"), as it ran them:
    // its own, else the global ones, else fio's default; none without options.
    std::vector<std::string> work;
    // json+ histograms, a direction at a time, for the percentile curves (fio_histogram.h); why
    // they cannot be read, when they cannot (a caveat: the metrics do not depend on them).
    std::vector<LatencyBins> histograms;
    std::string histogramError;
};

// What the document says, whichever parser read it.
struct Document {
    std::string toolVersion;
    bool clientMode = false; // fio --client: "client_stats" instead of "jobs"
    // Whether each client entry says which client it is: fio's normal text output from several
    // servers does not (its JSON does), and then only the sums over clients are metrics.
    bool clientsTold = true;
    std::vector<Entry> entries;
};

// fio 3.x output as fio wrote it is read straight from simdjson's DOM. Anything else goes
// through nlohmann's: malformed JSON (its error names the byte), numbers simdjson refuses (an
// integer over 2^64), and documents fio_json_compat rewrites first (fio 1.x/2.x, percentiles
// from json+ bins). `offset`: where the text starts in fio's output, for error positions;
// `simd`: whether simdjson may read it at all.
Expected<Document> readJson(std::string_view text, std::size_t offset, bool simd);

// Most output is one object, perhaps after fio's log lines: from its first fio object to the
// last '}'. When simdjson takes that whole as one value, it is the span locateJson would find
// (no report after it, nothing after it), read without locateJson's walk over every character.
std::optional<std::pair<Span, Expected<Document>>> readWhole(std::string_view text);

// The document's entries as metrics, grouped by job (and client), with failures and caveats:
// the one reading of fio's figures that its JSON and its normal text output (fio_normal.cpp)
// share. `json`: where the document sits in stdoutText; fio's log lines outside it are searched
// for the "err=" line a failed job's reason quotes.
Expected<ParsedRun> toRun(Document document, std::string_view stdoutText,
                          std::string_view stderrText, Span json);

} // namespace lb::fio::json_doc
