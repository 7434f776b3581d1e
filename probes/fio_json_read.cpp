// Reading fio's JSON document (probes/fio_json_internal.h): typed fields with the JSON path in
// every error, each entry of "jobs" or fio --client's "client_stats" (its directions, options,
// percentiles and json+ histograms), the document read by simdjson where fio 3.x wrote it as it
// is and by nlohmann where fio_json_compat rewrites it or the JSON is malformed.
#include "engine/base/size.h"
#include "probes/fio_json.h"
#include "probes/fio_json_internal.h"
#include "probes/fio_output.h"
#include "probes/json_view.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <system_error>

namespace lb::fio::json_doc {

namespace {

// Ordered, because fio applies a job's options in the order written and "direct" and "buffered"
// set the same flag: the last of them wins.
using json = nlohmann::ordered_json;

using compat::directions;
using compat::percentileKeys;

// Drops nlohmann's "[json.exception.parse_error.101] parse error at line 3, column 7: " prefix:
// its line and column count from the '{', not from the start of fio's output.
std::string withoutPosition(std::string what) {
    if (const auto colon = what.find(": "); colon != std::string::npos)
        what.erase(0, colon + 2);
    return what;
}

// ---- Typed access with the JSON path in every error ----

std::string fieldPath(std::string_view parent, std::string_view key) {
    std::string path;
    path.reserve(parent.size() + 1 + key.size());
    path += parent;
    if (!parent.empty())
        path += '.';
    path += key;
    return path;
}

Unexpected fieldError(std::string_view parent, std::string_view key, std::string_view what) {
    return badInput(fieldPath(parent, key) + ": " + std::string(what));
}

// The functions that read the document are templates over its view (probes/json_view.h): one
// reading, whichever parser made the document.

template <typename V>
Expected<double> numberField(const V& object, std::string_view key, std::string_view path) {
    const auto value = object.member(key);
    if (!value)
        return fieldError(path, key, "missing");
    if (!value->isNumber())
        return fieldError(path, key, "expected a number");
    // Every number read is a measurement (bytes, I/Os, rates, times): none is negative.
    const double number = value->number();
    if (number < 0)
        return fieldError(path, key, "must not be negative, got " + value->text());
    return number;
}

template <typename V>
Expected<std::int64_t> integerField(const V& object, std::string_view key, std::string_view path) {
    const auto value = object.member(key);
    if (!value)
        return fieldError(path, key, "missing");
    if (!value->isInteger())
        return fieldError(path, key, "expected an integer");
    return value->integer();
}

template <typename V>
Expected<std::string> stringField(const V& object, std::string_view key, std::string_view path) {
    const auto value = object.member(key);
    if (!value)
        return fieldError(path, key, "missing");
    if (!value->isString())
        return fieldError(path, key, "expected a string");
    return std::string(value->string());
}

// fio's booleans are integers ("1", "0"); it refuses "true" and a bare "direct".
template <typename V> std::optional<bool> fioBool(const V& value) {
    if (!value.isString())
        return std::nullopt;
    const std::string_view text = value.string();
    long long n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc{} || end != text.data() + text.size())
        return std::nullopt;
    return n != 0;
}

// The O_DIRECT setting an options object makes: "buffered" is "direct" negated and both set the
// same flag, so the last one written wins. Unset: nullopt.
template <typename V> std::optional<bool> directSetting(const V& options) {
    std::optional<bool> direct;
    if (!options.isObject())
        return direct;
    for (const auto& [key, value] : options.members()) {
        const auto flag = fioBool(value);
        if (!flag)
            continue;
        if (key == "direct")
            direct = *flag;
        else if (key == "buffered")
            direct = !*flag;
    }
    return direct;
}

// A job copies the global options, then applies its own; fio's default is buffered I/O.
template <typename V>
std::optional<bool> effectiveDirect(const V& entry, const std::optional<V>& globalOptions) {
    const auto own = entry.member("job options");
    if (!own)
        return std::nullopt;
    if (const auto direct = directSetting(*own))
        return direct;
    if (globalOptions)
        if (const auto direct = directSetting(*globalOptions))
            return direct;
    return false;
}

// The options that define the work a job did, with fio's default where it has one that does not
// depend on the platform (ioengine's does, but Linux's is psync), and what fio also accepts for
// them. Two sides whose jobs differ in one of these did different work (engine/measure/analysis.h).
struct WorkOption {
    std::string_view key;
    std::string_view alias;
    std::string_view fallback; // "" : no default worth assuming
    bool size;                 // a size: "4k", "4K" and "4096" are one value
};
constexpr std::array<WorkOption, 8> workOptions{{{"rw", "readwrite", "read", false},
                                                 {"bs", "blocksize", "4096", true},
                                                 {"iodepth", "", "1", false},
                                                 {"numjobs", "", "1", false},
                                                 {"ioengine", "", "psync", false},
                                                 {"rwmixread", "", "", false},
                                                 {"size", "", "", true},
                                                 {"runtime", "", "", false}}};

using OptionTexts = std::array<std::optional<std::string>, workOptions.size()>;

// The text of each work option `options` sets, in one pass over them (the last written wins, as
// in fio): a pass per option read every job's options eight times.
template <typename V> OptionTexts optionTexts(const V& options) {
    OptionTexts found;
    if (!options.isObject())
        return found;
    for (const auto& [key, value] : options.members()) {
        if (!value.isString())
            continue;
        for (std::size_t i = 0; i < workOptions.size(); ++i)
            if (key == workOptions[i].key ||
                (!workOptions[i].alias.empty() && key == workOptions[i].alias))
                found[i] = std::string(value.string());
    }
    return found;
}

std::string workValue(const WorkOption& o, std::string text) {
    for (auto& c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (o.size) // fio's sizes are binary: 4k = 4096
        if (const auto bytes = parseSize(text, SizeConvention::Binary))
            return formatBytes(*bytes, true);
    return text;
}

template <typename V>
std::vector<std::string> workOf(const V& entry, const std::optional<V>& globalOptions) {
    std::vector<std::string> out;
    const auto own = entry.member("job options");
    if (!own)
        return out;
    const OptionTexts mine = optionTexts(*own);
    const OptionTexts global = globalOptions ? optionTexts(*globalOptions) : OptionTexts{};
    for (std::size_t i = 0; i < workOptions.size(); ++i) {
        const WorkOption& o = workOptions[i];
        auto text = mine[i] ? mine[i] : global[i];
        if (!text && !o.fallback.empty())
            text = std::string(o.fallback);
        if (text)
            out.push_back(std::string(o.key) + "=" + workValue(o, *text));
    }
    return out;
}

// Percentiles are optional: fio omits clat's with clat_percentiles=0 and prints lat's only with
// lat_percentiles=1; neither with a custom percentile_list, nor in "All clients".
template <typename V>
Expected<void> readPercentiles(const V& direction, std::string_view key, const std::string& path,
                               std::array<std::optional<double>, 3>& out) {
    const auto latency = direction.member(key);
    if (!latency || !latency->isObject())
        return {};
    const auto pct = latency->member("percentile");
    if (!pct || !pct->isObject())
        return {};
    for (std::size_t k = 0; k < percentileKeys.size(); ++k) {
        const auto v = pct->member(percentileKeys[k]);
        if (!v)
            continue;
        const auto field = [&] {
            return path + "." + std::string(key) + ".percentile[\"" +
                   std::string(percentileKeys[k]) + "\"]";
        };
        if (!v->isNumber())
            return badInput(field() + ": expected a number");
        if (v->number() < 0)
            return badInput(field() + ": must not be negative, got " + v->text());
        out[k] = v->number();
    }
    return {};
}

template <typename V>
Expected<std::optional<DirectionStats>> parseDirection(const V& entry, std::string_view dir,
                                                       std::string_view entryPath) {
    const auto it = entry.member(dir);
    if (!it)
        return std::optional<DirectionStats>{};
    const std::string path = fieldPath(entryPath, dir);
    if (!it->isObject())
        return badInput(path + ": expected an object");
    const V& d = *it;

    DirectionStats s;
    const auto ios = numberField(d, "total_ios", path);
    if (!ios)
        return fail(ios.error());
    const auto bytes = numberField(d, "io_bytes", path);
    if (!bytes)
        return fail(bytes.error());
    s.totalIos = *ios;
    s.didIo = *ios > 0 || *bytes > 0;
    if (!s.didIo)
        return std::optional<DirectionStats>{s}; // the remaining fields are zeros; not needed

    const auto bw = numberField(d, "bw_bytes", path);
    if (!bw)
        return fail(bw.error());
    const auto iops = numberField(d, "iops", path);
    if (!iops)
        return fail(iops.error());
    const auto runtime = numberField(d, "runtime", path);
    if (!runtime)
        return fail(runtime.error());
    const std::string latPath = fieldPath(path, "lat_ns");
    const auto lat = d.member("lat_ns");
    if (!lat)
        return badInput(latPath + ": missing");
    if (!lat->isObject())
        return badInput(latPath + ": expected an object");
    const auto latMean = numberField(*lat, "mean", latPath);
    if (!latMean)
        return fail(latMean.error());
    s.bwBytes = *bw;
    s.iops = *iops;
    s.runtimeMs = *runtime;
    s.latMeanNs = *latMean;
    if (const auto slat = d.member("slat_ns"); slat && slat->isObject()) {
        const auto mean = numberField(*slat, "mean", fieldPath(path, "slat_ns"));
        if (!mean)
            return fail(mean.error());
        s.slatMeanNs = *mean;
    }
    if (auto r = readPercentiles(d, "clat_ns", path, s.percentiles); !r)
        return fail(r.error());
    if (auto r = readPercentiles(d, "lat_ns", path, s.latPercentiles); !r)
        return fail(r.error());
    return std::optional<DirectionStats>{s};
}

// fio 3.x's "sync": {"total_ios", "lat_ns": {"mean", "N", "percentile"}}: the job's syncs, when
// "N" says it made some (fio prints zeros otherwise, and fio 2.x no "sync" at all).
template <typename V>
Expected<std::optional<SyncStats>> parseSync(const V& entry, std::string_view entryPath) {
    const auto sync = entry.member("sync");
    if (!sync || !sync->isObject())
        return std::optional<SyncStats>{};
    const std::string path = fieldPath(entryPath, "sync");
    const auto lat = sync->member("lat_ns");
    if (!lat || !lat->isObject() || !lat->member("N"))
        return std::optional<SyncStats>{};
    const std::string latPath = fieldPath(path, "lat_ns");
    LB_TRY(count, numberField(*lat, "N", latPath));
    if (count <= 0)
        return std::optional<SyncStats>{};
    LB_TRY(mean, numberField(*lat, "mean", latPath));
    SyncStats s{count, mean, {}};
    LB_TRY_VOID(readPercentiles(*sync, "lat_ns", path, s.percentiles));
    return std::optional<SyncStats>{s};
}

// A direction's json+ bins: total latency's (lat_ns) when printed, else completion latency's
// (clat_ns); none when neither has any. Read from the document the metrics come from, so json+
// output is parsed once.
template <typename V>
std::optional<LatencyBins> readBins(const V& direction, std::string_view dir, const Entry& e,
                                    std::string& error) {
    for (const auto& [kind, total] : {std::pair{"lat_ns", true}, std::pair{"clat_ns", false}}) {
        const auto latency = direction.member(kind);
        const auto bins = latency ? latency->member("bins") : std::nullopt;
        if (!bins || !bins->isObject())
            continue;
        const auto buckets = bins->members();
        if (buckets.empty())
            continue;
        LatencyBins out{e.name, std::string(dir), total, {}};
        out.bins.reserve(buckets.size());
        for (const auto& [key, count] : buckets) {
            double ns = 0;
            const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), ns);
            const double n = count.isNumber() ? count.number() : -1;
            if (ec != std::errc() || end != key.data() + key.size() || !std::isfinite(ns) ||
                ns < 0 || !std::isfinite(n) || n < 0) {
                error = fieldPath(fieldPath(e.path, dir), kind) +
                        ".bins: a bucket that is not a latency and a count";
                return std::nullopt;
            }
            out.bins.emplace_back(ns, n);
        }
        return out;
    }
    return std::nullopt;
}

template <typename V> void readHistograms(const V& entry, Entry& e) {
    for (const auto dir : directions) {
        const auto direction = entry.member(dir);
        if (!direction || !direction->isObject())
            continue;
        auto bins = readBins(*direction, dir, e, e.histogramError);
        if (!e.histogramError.empty()) {
            e.histograms.clear();
            return;
        }
        if (bins)
            e.histograms.push_back(std::move(*bins));
    }
}

template <typename V>
Expected<Entry> parseEntry(const V& value, std::string path, bool clientMode,
                           const std::optional<V>& globalOptions) {
    Entry e;
    e.path = std::move(path);
    if (!value.isObject())
        return badInput(e.path + ": expected an object");
    auto name = stringField(value, "jobname", e.path);
    if (!name)
        return fail(name.error());
    // fio writes an empty name for a job given none (fio 3.1 terse and JSON do); its metrics
    // still need one.
    e.name = name->empty() ? std::string(unnamedJob) : std::move(*name);
    const auto error = integerField(value, "error", e.path);
    if (!error)
        return fail(error.error());
    e.error = *error;
    // Absent in lb-netload's JSON; fio has written it since its first JSON.
    if (value.member("groupid")) {
        const auto group = integerField(value, "groupid", e.path);
        if (!group)
            return fail(group.error());
        e.group = *group;
    }

    if (clientMode) {
        e.summary = e.name == allClientsName;
        // The summary carries the host of whichever client reported last; it is not used.
        if (!e.summary) {
            auto host = stringField(value, "hostname", e.path);
            if (!host)
                return fail(host.error());
            e.host = std::move(*host);
            if (value.member("port")) {
                const auto port = integerField(value, "port", e.path);
                if (!port)
                    return fail(port.error());
                e.port = *port;
            }
        }
    }

    if (e.error != 0)
        return e; // a failed job's numbers are not used, so they need not be valid
    e.direct = effectiveDirect(value, globalOptions);
    e.work = workOf(value, globalOptions);

    bool anyDirection = false;
    for (std::size_t d = 0; d < directions.size(); ++d) {
        auto stats = parseDirection(value, directions[d], e.path);
        if (!stats)
            return fail(stats.error());
        anyDirection = anyDirection || stats->has_value();
        e.stats[d] = *stats;
    }
    if (!anyDirection)
        return badInput(e.path + ": no read, write or trim statistics");
    if (!clientMode)
        readHistograms(value, e);
    return e;
}

template <typename V> Expected<Document> readDocument(const V& root) {
    Document doc;
    LB_TRY(version, stringField(root, "fio version", ""));
    doc.toolVersion = std::move(version);
    doc.clientMode = !root.member("jobs") && root.member("client_stats");
    const std::string_view arrayKey = doc.clientMode ? "client_stats" : "jobs";
    const auto array = root.member(arrayKey);
    if (!array)
        return badInput("jobs: missing (the fio JSON has neither \"jobs\" nor \"client_stats\")");
    if (!array->isArray())
        return badInput(std::string(arrayKey) + ": expected an array");
    // Options from the job file's [global] sections and from the command line before it.
    const auto globalOptions = root.member("global options");
    const auto items = array->elements();
    doc.entries.reserve(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        LB_TRY(entry, parseEntry(items[i], std::string(arrayKey) + "[" + std::to_string(i) + "]",
                                 doc.clientMode, globalOptions));
        if (entry.error == 0) { // a failed job's numbers are not used
            LB_TRY(sync, parseSync(items[i], entry.path));
            entry.sync = sync;
        }
        doc.entries.push_back(std::move(entry));
    }
    return doc;
}

// simdjson's reading of `text` when it is one JSON object that fio 3.x wrote as it is
// (fio_json_compat has nothing to rewrite); none otherwise. Valid until the next call.
std::optional<simdjson::dom::element> simdRoot(std::string_view text) {
    thread_local simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(text.data(), text.size(), true).get(root) != simdjson::SUCCESS ||
        !root.is_object() || compat::needsNormalizing(json_view::Simd(root)))
        return std::nullopt;
    return root;
}

} // namespace

Expected<Document> readJson(std::string_view text, std::size_t offset, bool simd) {
    if (simd)
        if (const auto root = simdRoot(text))
            return readDocument(json_view::Simd(*root));
    json document;
    try {
        document = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        const std::size_t at = offset + (e.byte > 0 ? e.byte - 1 : 0);
        return badInput("invalid JSON at byte " + std::to_string(at) + ": " +
                        withoutPosition(e.what()));
    } catch (const json::out_of_range& e) {
        // "number overflow parsing '1e999'" names no position: the number's place gives it.
        std::string what = e.what(); // "[json.exception.out_of_range.406] number overflow ..."
        if (const auto tag = what.find("] "); what.starts_with('[') && tag != std::string::npos)
            what.erase(0, tag + 2);
        const auto quote = what.find('\'');
        const auto number = quote == std::string::npos
                                ? std::string_view()
                                : std::string_view(what).substr(quote + 1, what.size() - quote - 2);
        const auto at = number.empty() ? std::string_view::npos : text.find(number);
        if (at != std::string_view::npos)
            return badInput("invalid JSON at byte " + std::to_string(offset + at) + ": " + what);
        return badInput("invalid JSON: " + what);
    } catch (const json::exception& e) {
        return badInput("invalid JSON: " + withoutPosition(e.what()));
    }
    LB_TRY_VOID(compat::normalize(document));
    return readDocument(json_view::Nlohmann(document));
}

std::optional<std::pair<Span, Expected<Document>>> readWhole(std::string_view text) {
    const auto first = findFioObject(text, 0);
    const auto last = text.rfind('}');
    if (!first || last == std::string_view::npos || last < *first || findFioObject(text, last + 1))
        return std::nullopt;
    const auto root = simdRoot(text.substr(*first, last + 1 - *first));
    if (!root)
        return std::nullopt;
    return std::pair{Span{*first, last + 1}, readDocument(json_view::Simd(*root))};
}

} // namespace lb::fio::json_doc
