// Parser for fio's JSON output: finds the JSON object among fio's log lines, has it read once
// (fio_json_read.cpp: simdjson; nlohmann::json where fio_json_compat rewrites the document or the
// JSON is malformed) and turns its entries, "jobs" (or fio --client's "client_stats"), into
// canonical metrics: grouped by job (and client), with percentiles, caveats and failures.
#include "probes/fio_json.h"

#include "engine/base/size.h"
#include "probes/fio_histogram.h"
#include "probes/fio_json_internal.h"
#include "probes/fio_output.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace lb::fio {

namespace {

using compat::directions;
using compat::percentileKeys;
using json_doc::DirectionStats;
using json_doc::Entry;
// Below this a job's figures are mostly start-up and noise.
constexpr int shortRunSeconds = 5;
// Above this share of the total latency, submission is no longer a rounding error: on FUSE
// (zfs-fuse) libaio's io_submit does the whole I/O and completion latency is ~1 µs.
constexpr double slatShareLimit = 0.10;

std::string errorText(std::int64_t code) {
    std::string text = "error " + std::to_string(code);
    // fio's job errors are errno values.
    if (code > 0 && code < 4096)
        text += " (" + std::generic_category().message(static_cast<int>(code)) + ")";
    return text;
}

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
    std::string membersWho = "jobs"; // "largest of 4 jobs' p99"
    std::string fallbackWho = "clients";
    bool failed = false;
};

struct PercentileMax {
    std::array<std::optional<double>, 3> values;
    std::size_t sources = 0;
    bool merged = false; // from the sources' json+ histograms added up, not their largest
};

using PercentilesOf = std::array<std::optional<double>, 3> DirectionStats::*;

// Completion latency (clat_ns) or total latency (lat_ns): where its percentiles are kept and the
// metric names they get, as percentileKeys.
struct PercentileKind {
    PercentilesOf values;
    std::array<std::string_view, 3> stats;
    std::string_view family; // for caveats
    bool total;              // whose json+ bins: lat_ns's (LatencyBins::total) or clat_ns's
};
const PercentileKind completionLatency{
    &DirectionStats::percentiles, {"clat_p50", "clat_p99", "clat_p99_9"}, "clat_p*", false};
const PercentileKind totalLatency{
    &DirectionStats::latPercentiles, {"lat_p50", "lat_p99", "lat_p99_9"}, "lat_p*", true};
constexpr std::array<double, 3> percentOf{50.0, 99.0, 99.9}; // as percentileKeys
constexpr std::array<std::string_view, 3> percentileLabels{"p50", "p99", "p99.9"};

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

// The percentiles of entries that each printed them, computed again from their json+ histograms
// added up, as fio computes them for group_reporting (fio_histogram.h): only where every entry
// that did I/O has the kind's bins; none otherwise, and the largest of theirs stands.
std::optional<PercentileMax> mergedPercentiles(const std::vector<const Entry*>& entries,
                                               std::size_t dir, const PercentileKind& kind,
                                               const PercentileMax& largest) {
    std::vector<std::pair<double, double>> bins;
    for (const Entry* e : entries) {
        const auto& s = e->stats[dir];
        if (!s || !s->didIo)
            continue;
        const auto h = std::find_if(e->histograms.begin(), e->histograms.end(), [&](const auto& b) {
            return b.direction == directions[dir] && b.total == kind.total && !b.bins.empty();
        });
        if (!e->histogramError.empty() || h == e->histograms.end())
            return std::nullopt;
        bins.insert(bins.end(), h->bins.begin(), h->bins.end());
    }
    bins = mergedBins(std::move(bins));
    PercentileMax merged{{}, largest.sources, true};
    for (std::size_t k = 0; k < merged.values.size(); ++k)
        if (largest.values[k]) // only those fio printed: no value fio did not write
            merged.values[k] = binsPercentile(bins, percentOf[k]);
    return merged;
}

// "p99", or "p50, p99 and p99.9": the percentiles a note is about.
std::string percentileNames(const PercentileMax& pct) {
    std::vector<std::string_view> names;
    for (std::size_t k = 0; k < pct.values.size(); ++k)
        if (pct.values[k])
            names.push_back(percentileLabels[k]);
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
        text += std::string(i == 0                  ? ""
                            : i + 1 == names.size() ? " and "
                                                    : ", ") +
                std::string(names[i]);
    return text;
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
    const std::vector<const Entry*>* sources = &g.members;
    auto pct = maxPercentiles(g.members, dir, kind.values);
    const std::string* noun = &g.membersNoun;
    const std::string* who = &g.membersWho;
    if (pct.sources == 0 && !g.percentileFallback.empty()) {
        sources = &g.percentileFallback;
        pct = maxPercentiles(g.percentileFallback, dir, kind.values);
        noun = &g.fallbackNoun;
        who = &g.fallbackWho;
    }
    if (pct.sources > 1)
        if (auto merged = mergedPercentiles(*sources, dir, kind, pct))
            pct = *merged;
    for (std::size_t k = 0; k < pct.values.size(); ++k)
        if (pct.values[k])
            run.metrics.push_back(
                Metric{metricName(base, kind.stats[k]), *pct.values[k], Unit::Nanoseconds});
    if (pct.sources > 1) {
        const std::string count = std::to_string(pct.sources) + " " + *who + "' ";
        const std::string what = pct.merged ? "merged from " + count + "json+ histograms: " + *noun
                                            : "largest of " + count + percentileNames(pct) +
                                                  ", not a merged percentile: " + *noun;
        run.caveats.push_back(base + std::string(kind.family) + ": " + what);
        // On the metrics too, so the comparison and the report show it beside the figure.
        run.notes.push_back({MetricNote::Kind::Qualifies, base + std::string(kind.family), what});
    }
}

// One direction of a group's members added up: bandwidth and IOPS summed, the longest runtime,
// the I/Os, and latencies weighted by them.
struct DirectionSums {
    double bw = 0;
    double iops = 0;
    double runtimeMs = 0;
    double ios = 0;
    double latTimesIos = 0;
    double latSum = 0;
    double slatTimesIos = 0;
    double latWithSlatTimesIos = 0; // the total latency of the entries that report slat
    std::size_t withIo = 0;
};

Expected<DirectionSums> sumDirection(const Group& g, std::size_t d) {
    DirectionSums t;
    for (const Entry* e : g.members) {
        const auto& s = e->stats[d];
        if (!s || !s->didIo)
            continue;
        ++t.withIo;
        t.bw += s->bwBytes;
        t.iops += s->iops;
        // Same-named jobs run side by side, so the longest one is the elapsed time.
        t.runtimeMs = std::max(t.runtimeMs, s->runtimeMs);
        t.ios += s->totalIos;
        t.latTimesIos += s->latMeanNs * s->totalIos;
        t.latSum += s->latMeanNs;
        if (s->slatMeanNs) {
            t.slatTimesIos += *s->slatMeanNs * s->totalIos;
            t.latWithSlatTimesIos += s->latMeanNs * s->totalIos;
        }
        for (const double sum : {t.bw, t.iops, t.ios, t.latTimesIos, t.latSum, t.slatTimesIos})
            if (!std::isfinite(sum))
                return badInput(e->path + "." + std::string(directions[d]) +
                                ": its values overflow when added to those of the other " +
                                g.membersNoun);
    }
    return t;
}

// A direction's metrics (fio.<job>.<dir>.*), and what qualifies them: submission that is more than
// a rounding error of the latency, a run too short to trust.
void emitDirection(const Group& g, std::size_t d, const DirectionSums& t, ParsedRun& run) {
    const std::string base = g.prefix + "." + std::string(directions[d]) + ".";
    const auto add = [&](std::string_view stat, double value, Unit unit) {
        run.metrics.push_back(Metric{metricName(base, stat), value, unit});
    };
    add("bw", t.bw, Unit::BytesPerSecond);
    add("iops", t.iops, Unit::OpsPerSecond);
    emitPercentiles(g, d, completionLatency, base, run);
    emitPercentiles(g, d, totalLatency, base, run);
    const double latMean =
        t.ios > 0 ? t.latTimesIos / t.ios : t.latSum / static_cast<double>(t.withIo);
    add("lat_mean", latMean, Unit::Nanoseconds);
    add("runtime", t.runtimeMs / 1000.0, Unit::Seconds);
    if (t.latWithSlatTimesIos > 0 && t.slatTimesIos > slatShareLimit * t.latWithSlatTimesIos) {
        const auto share = static_cast<int>(100.0 * t.slatTimesIos / t.latWithSlatTimesIos + 0.5);
        run.notes.push_back({MetricNote::Kind::Qualifies, base + "clat_*",
                             "submission takes " + std::to_string(share) +
                                 " % of the total latency: completion latency alone "
                                 "understates it"});
    }
    if (t.runtimeMs < shortRunSeconds * 1000.0)
        run.notes.push_back({MetricNote::Kind::Qualifies, base + "*",
                             "ran " + secondsText(t.runtimeMs / 1000.0) + " s: under " +
                                 std::to_string(shortRunSeconds) + " s, too short to trust"});
}

// The group's fsync/fdatasync latency: the mean weighted by each member's syncs, the largest
// member's percentiles (said so when there are several), as fio.<job>.sync.lat_*.
void emitSync(const Group& g, ParsedRun& run) {
    double count = 0, weighted = 0;
    std::array<std::optional<double>, 3> largest;
    std::size_t sources = 0;
    for (const Entry* e : g.members) {
        if (!e->sync)
            continue;
        ++sources;
        count += e->sync->count;
        weighted += e->sync->meanNs * e->sync->count;
        for (std::size_t k = 0; k < largest.size(); ++k)
            if (const auto& v = e->sync->percentiles[k])
                largest[k] = std::max(largest[k].value_or(0.0), *v);
    }
    if (sources == 0 || count <= 0)
        return;
    const std::string base = g.prefix + ".sync.";
    run.metrics.push_back({metricName(base, "lat_mean"), weighted / count, Unit::Nanoseconds});
    for (std::size_t k = 0; k < largest.size(); ++k)
        if (largest[k])
            run.metrics.push_back(
                {metricName(base, totalLatency.stats[k]), *largest[k], Unit::Nanoseconds});
    if (sources > 1)
        run.notes.push_back(
            {MetricNote::Kind::Qualifies, base + "lat_p*",
             "largest of " + std::to_string(sources) +
                 " jobs' sync percentiles, not a merged percentile: " + g.membersNoun});
}

// The sums over a group's members (jobs of one name) are refused where one member's values make
// them overflow, naming that member's statistics (so the error carries their line), not left as
// an infinity for the store to reject with no place to point at.
Expected<void> emitGroup(const Group& g, ParsedRun& run) {
    const auto metricsBefore = run.metrics.size();
    const auto notesBefore = static_cast<std::ptrdiff_t>(run.notes.size());
    for (std::size_t d = 0; d < directions.size(); ++d) {
        LB_TRY(sums, sumDirection(g, d));
        if (sums.withIo > 0)
            emitDirection(g, d, sums, run);
    }
    emitSync(g, run);
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
                    " in one fio invocation (numjobs>1 without group_reporting)";
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

// The machine fio's client records name (their "hostname"), when they all name one: the run's
// host. Clients on several machines measured them together; their metrics carry each client's
// name (fio.<job>@<client>.*) and the run names no one machine.
void noteClientMachine(const std::vector<Entry>& entries, ParsedRun& run) {
    std::string machine;
    for (const auto& e : entries) {
        if (e.summary || e.host.empty())
            continue;
        if (!machine.empty() && machine != e.host)
            return;
        machine = e.host;
    }
    if (!machine.empty())
        run.origin.spec["machine"] = machine;
}

std::vector<Group> clientGroups(const std::vector<Entry>& entries, bool clientsTold,
                                ParsedRun& run) {
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
        g.membersWho = "clients";
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

    if (!clientsTold) {
        run.caveats.push_back("fio's normal output does not say which client each job block came "
                              "from: only the sums over the clients are imported (fio's JSON "
                              "output names them)");
        return aggregates;
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

// The failed entries: the run failed, with each entry's reason in fio's words and the log lines
// around the JSON (outside `json`).
void noteFailures(const std::vector<Entry>& entries, std::string_view stdoutText,
                  std::string_view stderrText, Span json, ParsedRun& run) {
    const bool anyClientFailed = std::any_of(
        entries.begin(), entries.end(), [](const Entry& e) { return !e.summary && e.error != 0; });
    std::string noise; // fio's log lines around the JSON
    for (const auto& e : entries) {
        if (e.error == 0)
            continue;
        if (!run.failed) {
            noise = stdoutText.substr(0, json.begin);
            noise += '\n';
            noise += stdoutText.substr(json.end);
        }
        run.failed = true;
        const auto reason = failureReason(e, anyClientFailed, noise, stderrText);
        if (reason.empty())
            continue;
        if (!run.failureReason.empty())
            run.failureReason += "; ";
        run.failureReason += reason;
    }
}

// json+ histograms: a percentile curve per job and direction; none, with a caveat, where one is
// unreadable.
std::vector<Series> histogramCurves(std::vector<Entry>& entries, ParsedRun& run) {
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
    return latencyCurves(histograms);
}

// How many job entries and groups the file has, for the import's message ("1 job (8 entries
// combined by name), 2 groups"): the entries when there are more of them than jobs imported
// (same-named jobs, clients: fio's "All clients" not counted), the groups when more than one.
void countEntries(const std::vector<Entry>& entries, const std::vector<Group>& groups,
                  ParsedRun& run) {
    std::size_t jobEntries = 0;
    std::vector<std::int64_t> groupIds;
    std::vector<std::string> jobs;
    for (const auto& e : entries) {
        if (e.summary)
            continue;
        ++jobEntries;
        if (std::find(groupIds.begin(), groupIds.end(), e.group) == groupIds.end())
            groupIds.push_back(e.group);
    }
    for (const auto& g : groups)
        if (g.client.empty() && std::find(jobs.begin(), jobs.end(), g.job) == jobs.end())
            jobs.push_back(g.job);
    if (jobEntries > jobs.size())
        run.origin.spec["job_entries"] = std::to_string(jobEntries);
    if (groupIds.size() > 1)
        run.origin.spec["job_groups"] = std::to_string(groupIds.size());
}

// `simd`: whether simdjson may read the document (parseJsonWithoutSimdjson: never).
Expected<ParsedRun> parse(std::string_view stdoutText, std::string_view stderrText, bool simd) {
    auto whole = simd ? json_doc::readWhole(stdoutText) : std::nullopt;
    if (!whole) {
        LB_TRY(located, locateJson(stdoutText, stderrText));
        whole.emplace(located, json_doc::readJson(
                                   stdoutText.substr(located.begin, located.end - located.begin),
                                   located.begin, simd));
    }
    LB_TRY(document, std::move(whole->second));
    return json_doc::toRun(std::move(document), stdoutText, stderrText, whole->first);
}

} // namespace

Expected<ParsedRun> json_doc::toRun(Document document, std::string_view stdoutText,
                                    std::string_view stderrText, Span json) {
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
    if (clientMode) {
        labelClients(entries);
        noteClientMachine(entries, run);
    }

    noteFailures(entries, stdoutText, stderrText, json, run);
    const auto groups =
        clientMode ? clientGroups(entries, document.clientsTold, run) : localGroups(entries);
    countEntries(entries, groups, run);
    for (const auto& g : groups)
        if (!g.failed)
            LB_TRY_VOID(emitGroup(g, run));
    run.series = histogramCurves(entries, run);
    return run;
}

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
