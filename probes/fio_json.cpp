// Parser for fio's JSON output: finds the JSON object among fio's log lines, parses it once
// (simdjson; nlohmann::json where fio_json_compat rewrites the document or the JSON is malformed)
// and turns "jobs" (or fio --client's "client_stats") into canonical metrics.
#include "probes/fio_json.h"

#include "engine/base/size.h"
#include "probes/fio_histogram.h"
#include "probes/fio_json_compat.h"
#include "probes/fio_output.h"
#include "probes/json_view.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace lb::fio {

namespace {

// Ordered, because fio applies a job's options in the order written and "direct" and "buffered"
// set the same flag: the last of them wins.
using json = nlohmann::ordered_json;

using compat::directions;
using compat::percentileKeys;
// Below this a job's figures are mostly start-up and noise.
constexpr int shortRunSeconds = 5;
// Above this share of the total latency, submission is no longer a rounding error: on FUSE
// (zfs-fuse) libaio's io_submit does the whole I/O and completion latency is ~1 µs.
constexpr double slatShareLimit = 0.10;
// fio --client adds a summary entry under this job name (client.c, handle_ts).
constexpr std::string_view allClientsName = "All clients";

// Drops nlohmann's "[json.exception.parse_error.101] parse error at line 3, column 7: " prefix:
// its line and column count from the '{', not from the start of fio's output.
std::string withoutPosition(std::string what) {
    if (const auto colon = what.find(": "); colon != std::string::npos)
        what.erase(0, colon + 2);
    return what;
}

std::string errorText(std::int64_t code) {
    std::string text = "error " + std::to_string(code);
    // fio's job errors are errno values.
    if (code > 0 && code < 4096)
        text += " (" + std::generic_category().message(static_cast<int>(code)) + ")";
    return text;
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

// ---- One entry of "jobs" or "client_stats" ----

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

struct Entry {
    std::string path; // "jobs[0]", for messages
    std::string name;
    std::int64_t error = 0;
    bool summary = false; // fio --client's "All clients"
    std::string host;
    std::optional<std::int64_t> port;
    std::string client; // host, or host:port when several servers share a host name
    std::array<std::optional<DirectionStats>, directions.size()> stats; // absent if not printed
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

template <typename V> std::optional<std::string> optionText(const V& options, const WorkOption& o) {
    if (!options.isObject())
        return std::nullopt;
    std::optional<std::string> found;
    for (const auto& [key, value] : options.members())
        if ((key == o.key || (!o.alias.empty() && key == o.alias)) && value.isString())
            found = std::string(value.string()); // the last written wins, as in fio
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
    for (const auto& o : workOptions) {
        auto text = optionText(*own, o);
        if (!text && globalOptions)
            text = optionText(*globalOptions, o);
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

// ---- Combining entries into metrics ----

// Entries whose numbers become one set of metrics fio.<job>[@<client>].<dir>.*.
struct Group {
    std::string job;
    std::string client; // empty for local jobs and for client-mode aggregates
    std::string prefix; // "fio.<job>" or "fio.<job>@<client>"
    std::vector<const Entry*> members;
    // Where percentiles come from when no member has them ("All clients" has none).
    std::vector<const Entry*> percentileFallback;
    std::string membersNoun; // for the caveat when percentiles are a maximum over members
    std::string fallbackNoun;
    bool failed = false;
};

struct PercentileMax {
    std::array<std::optional<double>, 3> values;
    std::size_t sources = 0;
};

using PercentilesOf = std::array<std::optional<double>, 3> DirectionStats::*;

// Completion latency (clat_ns) or total latency (lat_ns): where its percentiles are kept and the
// metric names they get, as percentileKeys.
struct PercentileKind {
    PercentilesOf values;
    std::array<std::string_view, 3> stats;
    std::string_view family; // for caveats
};
const PercentileKind completionLatency{
    &DirectionStats::percentiles, {"clat_p50", "clat_p99", "clat_p99_9"}, "clat_p*"};
const PercentileKind totalLatency{
    &DirectionStats::latPercentiles, {"lat_p50", "lat_p99", "lat_p99_9"}, "lat_p*"};

PercentileMax maxPercentiles(const std::vector<const Entry*>& entries, std::size_t dir,
                             PercentilesOf which) {
    PercentileMax result;
    for (const Entry* e : entries) {
        const auto& s = e->stats[dir];
        if (!s || !s->didIo)
            continue;
        bool any = false;
        for (std::size_t k = 0; k < result.values.size(); ++k) {
            const auto& v = ((*s).*which)[k];
            if (!v)
                continue;
            result.values[k] = result.values[k] ? std::max(*result.values[k], *v) : *v;
            any = true;
        }
        if (any)
            ++result.sources;
    }
    return result;
}

// Seconds as a person reads them: "2.1" above a second, "0.006" below.
std::string secondsText(double seconds) {
    char buf[32];
    std::snprintf(buf, sizeof buf, seconds >= 1 ? "%.1f" : "%.2g", seconds);
    return buf;
}

// How the group's jobs did their I/O, for the comparison: it refuses to hold direct against
// buffered. The clients of fio's "All clients" entry say it for the entry, which prints no
// options.
std::optional<std::string> ioMethod(const Group& g) {
    std::optional<bool> direct;
    bool mixed = false;
    for (const auto* members : {&g.members, &g.percentileFallback})
        for (const Entry* e : *members) {
            if (!e->direct)
                continue;
            mixed = mixed || (direct && *direct != *e->direct);
            direct = e->direct;
        }
    if (!direct)
        return std::nullopt;
    if (mixed)
        return "direct and buffered I/O mixed";
    return *direct ? "direct I/O" : "buffered I/O";
}

// A metric's name: the prefix and the statistic, in one allocation (a file has dozens).
std::string metricName(const std::string& base, std::string_view stat) {
    std::string name;
    name.reserve(base.size() + stat.size());
    name += base;
    name += stat;
    return name;
}

// The p50/p99/p99.9 of one kind of latency over the group's members (or its fallback), as
// metrics, with a caveat when they are a maximum over several entries.
void emitPercentiles(const Group& g, std::size_t dir, const PercentileKind& kind,
                     const std::string& base, ParsedRun& run) {
    auto pct = maxPercentiles(g.members, dir, kind.values);
    const std::string* noun = &g.membersNoun;
    if (pct.sources == 0 && !g.percentileFallback.empty()) {
        pct = maxPercentiles(g.percentileFallback, dir, kind.values);
        noun = &g.fallbackNoun;
    }
    for (std::size_t k = 0; k < pct.values.size(); ++k)
        if (pct.values[k])
            run.metrics.push_back(
                Metric{metricName(base, kind.stats[k]), *pct.values[k], Unit::Nanoseconds});
    if (pct.sources > 1) {
        const std::string what = "maximum over " + std::to_string(pct.sources) + " " + *noun +
                                 ", not a merged percentile";
        run.caveats.push_back(base + std::string(kind.family) + ": " + what);
        // On the metrics too, so the comparison and the report show it beside the figure.
        run.notes.push_back({MetricNote::Kind::Qualifies, base + std::string(kind.family), what});
    }
}

// The sums over a group's members (jobs of one name) are refused where one member's values make
// them overflow, naming that member's statistics (so the error carries their line), not left as
// an infinity for the store to reject with no place to point at.
Expected<void> emitGroup(const Group& g, ParsedRun& run) {
    const auto metricsBefore = run.metrics.size();
    const auto notesBefore = static_cast<std::ptrdiff_t>(run.notes.size());
    for (std::size_t d = 0; d < directions.size(); ++d) {
        double bw = 0;
        double iops = 0;
        double runtimeMs = 0;
        double ios = 0;
        double latTimesIos = 0;
        double latSum = 0;
        double slatTimesIos = 0;
        double latWithSlatTimesIos = 0; // the total latency of the entries that report slat
        std::size_t withIo = 0;
        for (const Entry* e : g.members) {
            const auto& s = e->stats[d];
            if (!s || !s->didIo)
                continue;
            ++withIo;
            bw += s->bwBytes;
            iops += s->iops;
            // Same-named jobs run side by side, so the longest one is the elapsed time.
            runtimeMs = std::max(runtimeMs, s->runtimeMs);
            ios += s->totalIos;
            latTimesIos += s->latMeanNs * s->totalIos;
            latSum += s->latMeanNs;
            if (s->slatMeanNs) {
                slatTimesIos += *s->slatMeanNs * s->totalIos;
                latWithSlatTimesIos += s->latMeanNs * s->totalIos;
            }
            for (const double sum : {bw, iops, ios, latTimesIos, latSum, slatTimesIos})
                if (!std::isfinite(sum))
                    return badInput(e->path + "." + std::string(directions[d]) +
                                    ": its values overflow when added to those of the other " +
                                    g.membersNoun);
        }
        if (withIo == 0)
            continue;

        const std::string base = g.prefix + "." + std::string(directions[d]) + ".";
        const auto add = [&](std::string_view stat, double value, Unit unit) {
            run.metrics.push_back(Metric{metricName(base, stat), value, unit});
        };
        add("bw", bw, Unit::BytesPerSecond);
        add("iops", iops, Unit::OpsPerSecond);
        emitPercentiles(g, d, completionLatency, base, run);
        emitPercentiles(g, d, totalLatency, base, run);

        const double latMean = ios > 0 ? latTimesIos / ios : latSum / static_cast<double>(withIo);
        add("lat_mean", latMean, Unit::Nanoseconds);
        add("runtime", runtimeMs / 1000.0, Unit::Seconds);

        if (latWithSlatTimesIos > 0 && slatTimesIos > slatShareLimit * latWithSlatTimesIos) {
            const auto share = static_cast<int>(100.0 * slatTimesIos / latWithSlatTimesIos + 0.5);
            run.notes.push_back({MetricNote::Kind::Qualifies, base + "clat_*",
                                 "submission takes " + std::to_string(share) +
                                     " % of the total latency: completion latency alone "
                                     "understates it"});
        }
        if (runtimeMs < shortRunSeconds * 1000.0)
            run.notes.push_back({MetricNote::Kind::Qualifies, base + "*",
                                 "ran " + secondsText(runtimeMs / 1000.0) + " s: under " +
                                     std::to_string(shortRunSeconds) + " s, too short to trust"});
    }
    if (run.metrics.size() == metricsBefore)
        return {};
    if (const auto method = ioMethod(g))
        run.notes.insert(run.notes.begin() + notesBefore,
                         {MetricNote::Kind::Method, g.prefix + ".*", *method});
    // What work the group did, an option a note ("bs=4 KiB"); members that differ give one
    // note each, which the comparison reads as measured both ways.
    std::vector<std::string> work;
    for (const Entry* e : g.members)
        for (const auto& w : e->work)
            if (std::find(work.begin(), work.end(), w) == work.end())
                work.push_back(w);
    for (const auto& w : work)
        run.notes.push_back({MetricNote::Kind::Method, g.prefix + ".*", w});
    return {};
}

Group& groupFor(std::vector<Group>& groups, const std::string& job, const std::string& client) {
    for (auto& g : groups)
        if (g.job == job && g.client == client)
            return g;
    Group& g = groups.emplace_back();
    g.job = job;
    g.client = client;
    g.prefix = "fio." + job;
    if (!client.empty())
        g.prefix += "@" + client;
    g.membersNoun = "jobs named '" + job + "'" + (client.empty() ? "" : " on " + client) +
                    " (numjobs>1 without group_reporting)";
    return g;
}

// Host names repeat when several fio servers run on one host; the port tells them apart then.
void labelClients(std::vector<Entry>& entries) {
    for (auto& e : entries) {
        if (e.summary)
            continue;
        const bool shared = std::any_of(entries.begin(), entries.end(), [&](const Entry& o) {
            return !o.summary && o.host == e.host && o.port != e.port;
        });
        e.client = e.host;
        if (shared && e.port)
            e.client += ":" + std::to_string(*e.port);
    }
}

std::vector<Group> clientGroups(const std::vector<Entry>& entries, ParsedRun& run) {
    std::vector<std::string> jobs;
    std::vector<const Entry*> summaries;
    for (const auto& e : entries) {
        if (e.summary)
            summaries.push_back(&e);
        else if (std::find(jobs.begin(), jobs.end(), e.name) == jobs.end())
            jobs.push_back(e.name);
    }

    std::vector<Group> aggregates;
    for (const auto& job : jobs) {
        Group& g = groupFor(aggregates, job, "");
        for (const auto& e : entries) {
            if (e.summary || e.name != job)
                continue;
            g.members.push_back(&e);
            g.failed = g.failed || e.error != 0;
        }
        g.membersNoun = "client entries of job '" + job + "'";
    }
    if (jobs.size() == 1 && summaries.size() == 1) {
        // fio's own sum over the clients; it has no percentiles, so those come from the clients.
        Group& g = aggregates.front();
        g.percentileFallback = std::move(g.members);
        g.members = {summaries.front()};
        g.fallbackNoun = "clients (fio's \"All clients\" entry has no percentiles)";
        g.failed = g.failed || summaries.front()->error != 0;
    } else if (!summaries.empty()) {
        std::string names;
        for (const auto& job : jobs)
            names += (names.empty() ? "" : ", ") + job;
        run.caveats.push_back("fio's \"All clients\" entry adds up different jobs (" + names +
                              ") and is not imported; fio.<job>.* combine each job's clients");
    }

    std::vector<Group> perClient;
    for (const auto& e : entries) {
        if (e.summary)
            continue;
        Group& g = groupFor(perClient, e.name, e.client);
        g.members.push_back(&e);
        g.failed = g.failed || e.error != 0;
    }
    aggregates.insert(aggregates.end(), std::make_move_iterator(perClient.begin()),
                      std::make_move_iterator(perClient.end()));
    return aggregates;
}

std::vector<Group> localGroups(const std::vector<Entry>& entries) {
    std::vector<Group> groups;
    for (const auto& e : entries) {
        Group& g = groupFor(groups, e.name, "");
        g.members.push_back(&e);
        g.failed = g.failed || e.error != 0;
    }
    return groups;
}

std::string failureReason(const Entry& e, bool anyClientFailed, std::string_view stdoutNoise,
                          std::string_view stderrText) {
    std::string reason;
    if (e.summary) {
        if (anyClientFailed)
            return {}; // fio copies a client's error into the summary; already reported
        reason = "fio's \"All clients\" entry reports " + errorText(e.error);
    } else {
        reason = "fio job '" + e.name + "'";
        if (!e.client.empty())
            reason += " on " + e.client;
        reason += " failed with " + errorText(e.error);
    }
    auto line = findErrorLine(stderrText, e.name, e.error);
    if (line.empty())
        line = findErrorLine(stdoutNoise, e.name, e.error); // fio 3.33 logs some errors there
    if (!line.empty()) {
        reason += ": ";
        reason += line;
    }
    return reason;
}

// What the document says, whichever parser read it.
struct Document {
    std::string toolVersion;
    bool clientMode = false; // fio --client: "client_stats" instead of "jobs"
    std::vector<Entry> entries;
};

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

// fio 3.x output as fio wrote it is read straight from simdjson's DOM. Anything else goes
// through nlohmann's: malformed JSON (its error names the byte), numbers simdjson refuses (an
// integer over 2^64), and documents fio_json_compat rewrites first (fio 1.x/2.x, percentiles
// from json+ bins). `offset`: where the text starts in fio's output, for error positions;
// `simd`: whether simdjson may read it at all.
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

// Most output is one object, perhaps after fio's log lines: from its first fio object to the
// last '}'. When simdjson takes that whole as one value, it is the span locateJson would find
// (no report after it, nothing after it), read without locateJson's walk over every character.
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

// `simd`: whether simdjson may read the document (parseJsonWithoutSimdjson: never).
Expected<ParsedRun> parse(std::string_view stdoutText, std::string_view stderrText, bool simd) {
    auto whole = simd ? readWhole(stdoutText) : std::nullopt;
    if (!whole) {
        LB_TRY(located, locateJson(stdoutText, stderrText));
        whole.emplace(located,
                      readJson(stdoutText.substr(located.begin, located.end - located.begin),
                               located.begin, simd));
    }
    const std::size_t begin = whole->first.begin;
    const std::size_t end = whole->first.end;
    LB_TRY(document, std::move(whole->second));

    ParsedRun run;
    run.workload = "fio";
    run.toolVersion = std::move(document.toolVersion);
    const bool clientMode = document.clientMode;
    std::vector<Entry>& entries = document.entries;
    if (entries.empty()) {
        run.failed = true;
        run.failureReason = "fio reported no jobs";
        return run;
    }
    if (clientMode)
        labelClients(entries);

    const bool anyClientFailed = std::any_of(
        entries.begin(), entries.end(), [](const Entry& e) { return !e.summary && e.error != 0; });
    std::string noise; // fio's log lines around the JSON
    for (const auto& e : entries) {
        if (e.error == 0)
            continue;
        if (!run.failed) {
            noise = stdoutText.substr(0, begin);
            noise += '\n';
            noise += stdoutText.substr(end);
        }
        run.failed = true;
        const auto reason = failureReason(e, anyClientFailed, noise, stderrText);
        if (reason.empty())
            continue;
        if (!run.failureReason.empty())
            run.failureReason += "; ";
        run.failureReason += reason;
    }

    const auto groups = clientMode ? clientGroups(entries, run) : localGroups(entries);
    if (!clientMode && entries.size() > groups.size()) // same-named entries were combined
        run.origin.spec["job_entries"] = std::to_string(entries.size());
    for (const auto& g : groups)
        if (!g.failed)
            LB_TRY_VOID(emitGroup(g, run));
    // json+ histograms: a percentile curve per job and direction.
    std::vector<LatencyBins> histograms;
    for (auto& e : entries) {
        if (!e.histogramError.empty()) {
            run.caveats.push_back("fio's json+ latency histogram is unreadable: " +
                                  e.histogramError);
            histograms.clear();
            break;
        }
        std::move(e.histograms.begin(), e.histograms.end(), std::back_inserter(histograms));
    }
    run.series = latencyCurves(histograms);
    return run;
}

} // namespace

Expected<ParsedRun> parseJson(std::string_view stdoutText, std::string_view stderrText) {
    return parse(stdoutText, stderrText, true);
}

Expected<ParsedRun> parseJsonWithoutSimdjson(std::string_view stdoutText,
                                             std::string_view stderrText) {
    return parse(stdoutText, stderrText, false);
}

bool looksLikeJson(std::string_view text) {
    return findFioObject(text, 0).has_value();
}

} // namespace lb::fio
