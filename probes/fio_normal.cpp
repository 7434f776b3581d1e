// fio's normal output read line by line into the entries of a fio JSON document
// (fio_json_internal.h), so that fio_json.cpp's reading (job grouping, failures, metric names and
// caveats) is the one both forms share. Every form read here is the one fio's stat.c printed at
// the version named (show_thread_status_normal, show_ddir_status, display_lat,
// show_clat_percentiles).
#include "probes/fio_normal.h"

#include "engine/base/utf8.h"
#include "probes/fio_json.h"
#include "probes/fio_json_internal.h"
#include "probes/text_fields.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lb::fio {

namespace {

using json_doc::DirectionStats;
using json_doc::Entry;
using text::quoted;
using text::trim;

// The head of a job's block: "<job>: (groupid=0, jobs=1): err= 0: pid=...".
constexpr std::string_view headMark = ": (groupid=";
// Unplaced lines quoted in the caveat; the rest are counted.
constexpr std::size_t quotedUnplaced = 5;

// Lines that carry nothing the metrics take: per-job distributions and bandwidth samples, the
// group summary, disk statistics, progress and fio's own messages.
constexpr std::array<std::string_view, 22> ignoredPrefixes{"bw (",
                                                           "iops ",
                                                           "iops:",
                                                           "cpu ",
                                                           "IO depths",
                                                           "submit ",
                                                           "complete ",
                                                           "issued ",
                                                           "latency ",
                                                           "Description",
                                                           "Run status group",
                                                           "READ:",
                                                           "WRITE:",
                                                           "TRIM:",
                                                           "MIXED:",
                                                           "Disk stats",
                                                           "Starting ",
                                                           "Jobs:",
                                                           "fio:",
                                                           "note:",
                                                           "clat prio",
                                                           "fsync/fdatasync/sync_file_range:"};

// How fio wrote a direction's line: up to 2.16 "read : io=, bw=, iops=, runt=" with num2str's
// K/M/G; from 2.17 "read: IOPS=, BW= (SI)(io/runtime)" with IEC and SI prefixes.
enum class Form { Old, New };

struct Block {
    int line = 0;
    std::array<int, 4> directionLine{}; // where each direction's figures began; 0 if none
    std::array<bool, 4> hasLat{};
};

// What the percentile rows that follow a header belong to, if anything the metrics take.
struct PercentileTarget {
    std::array<std::optional<double>, 3>* values = nullptr;
    double factor = 1; // to ns
};

struct Reader {
    std::vector<Entry> entries;
    std::vector<Block> blocks;
    std::string toolVersion;
    std::optional<std::size_t> direction; // of the last entry
    PercentileTarget percentiles;
    std::vector<std::string> unplaced;
    std::size_t unplacedCount = 0;
    std::vector<std::string> units; // as printed, for the run's origin: "MiB/s", "usec"
    std::string fioMessages;        // fio's own "fio: ..." lines, where a job's error is told
    // fio --client: each server's "hostname=<name>, be=0, ..., fio=fio-3.33" line, in the order
    // the servers answered; its job blocks name no client, but "<host> " may stand before a line.
    std::vector<std::string> serverHosts;
    std::string linePrefixHost; // the "<host> " before the current line, if any
};

void noteUnit(Reader& r, std::string unit) {
    if (!unit.empty() && std::find(r.units.begin(), r.units.end(), unit) == r.units.end())
        r.units.push_back(std::move(unit));
}

// What follows a figure's number: "MiB/s" of "2462MiB/s".
std::string unitOf(std::optional<std::string_view> figure) {
    const auto v = figure.value_or("");
    return std::string(v.substr(std::min(v.find_first_not_of("0123456789."), v.size())));
}

Unexpected bad(const text::Line& line, std::string_view field, const std::string& message) {
    // Quoted text from the file may be in any encoding; messages and names are UTF-8.
    return badInput(escapeInvalidUtf8(std::to_string(line.number) + ": " + std::string(field) +
                                      ": " + message));
}

bool startsWithAny(std::string_view t, const auto& prefixes) {
    for (const std::string_view p : prefixes)
        if (t.starts_with(p))
            return true;
    return false;
}

// The value after "key=" up to the next ',', ' ' or '(' (spaces right after '=' are fio's
// padding: "runt=    13msec", "avg= 9.10").
std::optional<std::string_view> valueOf(std::string_view t, std::string_view key) {
    const auto at = t.find(key);
    if (at == std::string_view::npos)
        return std::nullopt;
    auto v = t.substr(at + key.size());
    v.remove_prefix(std::min(v.find_first_not_of(' '), v.size()));
    return v.substr(0, std::min(v.find_first_of(", ("), v.size()));
}

// The multiplier of a num2str prefix at the start of `s`, its length in `used`. fio <= 2.16 has
// "K", "M", "G", then "P" and "E" for the 4th and 5th powers (its list has no "T"), in powers of
// 1024 for bytes (kb_base=1024, fio's default) and 1000 for counts.
double prefixFactor(std::string_view s, Form form, bool binary, std::size_t& used) {
    static constexpr std::array<std::string_view, 5> iec{"Ki", "Mi", "Gi", "Ti", "Pi"};
    static constexpr std::array<std::string_view, 5> si{"k", "M", "G", "T", "P"};
    static constexpr std::array<std::string_view, 5> old{"K", "M", "G", "P", "E"};
    const auto power = [](double base, std::size_t i) {
        return std::pow(base, static_cast<double>(i + 1));
    };
    for (std::size_t i = 0; i < iec.size(); ++i) {
        if (form == Form::New && s.starts_with(iec[i])) {
            used = 2;
            return power(1024.0, i);
        }
        if (form == Form::New && s.starts_with(si[i])) {
            used = 1;
            return power(1000.0, i);
        }
        if (form == Form::Old && s.starts_with(old[i])) {
            used = 1;
            return power(binary ? 1024.0 : 1000.0, i);
        }
    }
    used = 0;
    return 1;
}

// A num2str figure such as "2462MiB/s", "19.7k", "32768KB": the number, scaled by its prefix,
// divided by 8 for a unit of bits; the unit after the prefix must be one of `units`.
Expected<double> quantity(std::string_view token, Form form, bool binary,
                          std::initializer_list<std::string_view> units) {
    std::size_t digits = 0;
    while (digits < token.size() &&
           (std::isdigit(static_cast<unsigned char>(token[digits])) || token[digits] == '.'))
        ++digits;
    LB_TRY(number, text::parseNonNegative(token.substr(0, digits), token));
    std::size_t used = 0;
    const double factor = prefixFactor(token.substr(digits), form, binary, used);
    const auto unit = token.substr(digits + used);
    for (const auto u : units)
        if (unit == u)
            return number * factor / (unit.starts_with("bit") ? 8.0 : 1.0);
    return badInput(quoted(token) + " has a unit fio does not print here");
}

Expected<double> msecOf(std::string_view token) {
    if (!token.ends_with("msec"))
        return badInput(quoted(token) + " is not a time in msec");
    return text::parseNonNegative(token.substr(0, token.size() - 4), token);
}

// The direction a line's figures are for: "read: IOPS=..." (fio >= 2.17) or "read : io=..."
// (fio <= 2.16); "mixed" with unified_rw_reporting.
std::optional<std::size_t> directionOf(std::string_view t) {
    const auto colon = t.find(':');
    if (colon == std::string_view::npos || (t.find("IOPS=", colon) == std::string_view::npos &&
                                            t.find(" io=", colon) == std::string_view::npos))
        return std::nullopt;
    const auto name = trim(t.substr(0, colon));
    for (std::size_t d = 0; d < compat::directions.size(); ++d)
        if (name == compat::directions[d])
            return d;
    return std::nullopt;
}

// The raw figures of a direction's line, whichever form.
struct DirectionFigures {
    Form form = Form::New;
    std::optional<std::string_view> iops, bw, runtime;
};

DirectionFigures figuresOf(std::string_view t) {
    DirectionFigures f;
    if (t.find("IOPS=") == std::string_view::npos) {
        f.form = Form::Old;
        f.iops = valueOf(t, "iops=");
        f.bw = valueOf(t, "bw=");
        f.runtime = valueOf(t, "runt=");
        return f;
    }
    f.iops = valueOf(t, "IOPS=");
    f.bw = valueOf(t, "BW=");
    // "(32.0MiB/13msec)": the I/O done and the runtime, the last parenthesis but for 3.x's
    // "; 0 zone resets" after it.
    const auto slash = t.find("msec)");
    const auto open = t.rfind('/', slash);
    if (slash != std::string_view::npos && open != std::string_view::npos)
        f.runtime = t.substr(open + 1, slash + 4 - open - 1);
    return f;
}

Expected<DirectionStats> readDirection(const text::Line& line, std::string_view t,
                                       std::string_view dir) {
    const auto f = figuresOf(t);
    const std::string where(dir);
    const bool old = f.form == Form::Old;
    const std::string_view iopsName = old ? "iops" : "IOPS";
    const std::string_view bwName = old ? "bw" : "BW";
    const std::string_view runtimeName = old ? "runt" : "runtime";
    for (const auto& [value, name] :
         {std::pair{f.iops, iopsName}, std::pair{f.bw, bwName}, std::pair{f.runtime, runtimeName}})
        if (!value)
            return bad(line, where + ": " + std::string(name), "missing");
    DirectionStats s;
    s.didIo = true;
    auto iops = quantity(*f.iops, f.form, false, {""});
    if (!iops)
        return bad(line, where + ": " + std::string(iopsName), iops.error().message);
    // fio --client's "All clients" prints "BW=222Mi (233M)": num2str without a unit (client.c).
    auto bw = quantity(*f.bw, f.form, true, {"B/s", "bit/s", "/s", ""});
    if (!bw)
        return bad(line, where + ": " + std::string(bwName), bw.error().message);
    auto runtime = msecOf(*f.runtime);
    if (!runtime)
        return bad(line, where + ": " + std::string(runtimeName), runtime.error().message);
    s.iops = *iops;
    s.bwBytes = *bw;
    s.runtimeMs = *runtime;
    return s;
}

// "nsec", "usec" or "msec" in "clat (usec):" or "clat percentiles (usec):", as ns.
std::optional<double> unitFactor(std::string_view t) {
    const auto open = t.rfind('(');
    if (open == std::string_view::npos)
        return std::nullopt;
    const auto unit = t.substr(open + 1, 4);
    if (unit == "nsec")
        return 1.0;
    if (unit == "usec")
        return text::nsPerUs;
    if (unit == "msec")
        return text::nsPerMs;
    return std::nullopt;
}

// "<job>: (groupid=0, jobs=1): err= 0: pid=..." or "err=25 (file:..., error=...): pid=...".
Expected<void> readHead(Reader& r, const text::Line& line, std::string_view t) {
    const auto mark = t.find(headMark);
    const std::string name(t.substr(0, mark));
    auto err = valueOf(t.substr(mark), "err=");
    if (err && err->ends_with(':')) // "err= 0: pid=..."
        err->remove_suffix(1);
    std::int64_t code = 0;
    if (!err || err->empty() || err->find_first_not_of("0123456789") != std::string_view::npos ||
        err->size() > 9)
        return bad(line, "err", quoted(err.value_or("")) + " is not an error number");
    for (const char c : *err)
        code = code * 10 + (c - '0');
    const auto group = valueOf(t.substr(mark), "groupid=");
    if (!group || group->empty() || group->size() > 9 ||
        group->find_first_not_of("0123456789") != std::string_view::npos)
        return bad(line, "groupid", quoted(group.value_or("")) + " is not a group number");
    Entry& e = r.entries.emplace_back();
    for (const char c : *group)
        e.group = e.group * 10 + (c - '0');
    e.path = "line " + std::to_string(line.number);
    e.name = name.empty() ? std::string(unnamedJob) : escapeInvalidUtf8(name);
    e.error = code;
    e.summary = name == json_doc::allClientsName;
    e.host = r.linePrefixHost;
    r.blocks.push_back(Block{line.number, {}, {}});
    r.direction.reset();
    r.percentiles = {};
    return {};
}

// "sync (usec): min=130, max=2991, avg=197.27, stdev=125.57" (fio 3.x, under
// "fsync/fdatasync/sync_file_range:"): the mean of the job's syncs; their count comes from the
// "issued" line's fourth number.
Expected<bool> readSync(Reader& r, const text::Line& line, std::string_view t) {
    if (!t.starts_with("sync (") || t.find("min=") == std::string_view::npos || r.entries.empty())
        return false;
    const auto factor = unitFactor(t.substr(0, t.find(':')));
    if (!factor)
        return bad(line, "sync", "no unit (nsec, usec or msec)");
    const auto avg = valueOf(t, "avg=");
    if (!avg)
        return bad(line, "sync avg", "missing");
    auto mean = text::parseNonNegative(*avg);
    if (!mean)
        return bad(line, "sync avg", mean.error().message);
    auto& sync = r.entries.back().sync;
    sync.emplace();
    sync->count = 1; // until the "issued" line says
    sync->meanNs = *mean * *factor;
    return true;
}

// "clat (usec): min=6, max=5231, avg=44.67, stdev=354.18": the mean of slat or total latency.
Expected<bool> readLatency(Reader& r, const text::Line& line, std::string_view t) {
    const auto name = t.substr(0, t.find(" ("));
    if ((name != "slat" && name != "clat" && name != "lat") ||
        t.find("min=") == std::string_view::npos || !r.direction)
        return false;
    const auto factor = unitFactor(t.substr(0, t.find(':')));
    const std::string field =
        std::string(compat::directions[*r.direction]) + ": " + std::string(name);
    if (!factor)
        return bad(line, field, "no unit (nsec, usec or msec)");
    const auto avg = valueOf(t, "avg=");
    if (!avg)
        return bad(line, field + " avg", "missing");
    auto mean = text::parseNonNegative(*avg);
    if (!mean)
        return bad(line, field + " avg", mean.error().message);
    noteUnit(r, std::string(t.substr(t.find('(') + 1, 4)));
    auto& s = *r.entries.back().stats[*r.direction];
    if (name == "slat")
        s.slatMeanNs = *mean * *factor;
    if (name == "lat") {
        s.latMeanNs = *mean * *factor;
        r.blocks.back().hasLat[*r.direction] = true;
    }
    return true;
}

// "clat percentiles (usec):" (fio 3.x also "lat" with lat_percentiles=1, "slat"): where the
// rows that follow go; slat's and the priority classes' are not metrics.
bool readPercentileHeader(Reader& r, std::string_view t) {
    const auto at = t.find(" percentiles (");
    if (at == std::string_view::npos || !t.ends_with("):"))
        return false;
    r.percentiles = {};
    const auto name = t.substr(0, at);
    const auto factor = unitFactor(t);
    if (name == "sync" && factor && !r.entries.empty() && r.entries.back().sync) {
        r.percentiles = {&r.entries.back().sync->percentiles, *factor};
        return true;
    }
    if (!r.direction || !factor)
        return true;
    auto& s = *r.entries.back().stats[*r.direction];
    if (name == "clat")
        r.percentiles = {&s.percentiles, *factor};
    else if (name == "lat")
        r.percentiles = {&s.latPercentiles, *factor};
    return true;
}

// "|  1.00th=[    7],  5.00th=[    8], ...": p50, p99 and p99.9 of the current header's latency.
Expected<void> readPercentileRow(Reader& r, const text::Line& line, std::string_view t) {
    static constexpr std::array<double, 3> wanted{50.0, 99.0, 99.9};
    for (const auto& item : text::split(t.substr(1), ',')) {
        if (item.empty())
            continue;
        const auto mark = item.find("th=[");
        if (mark == std::string_view::npos || !item.ends_with(']'))
            return bad(line, "percentile", quoted(item) + " is not '<p>th=[<value>]'");
        const auto field = "percentile " + std::string(trim(item.substr(0, mark)));
        auto p = text::parseNonNegative(trim(item.substr(0, mark)));
        auto v = text::parseNonNegative(trim(item.substr(mark + 4, item.size() - mark - 5)));
        if (!p || !v)
            return bad(line, field, (p ? v : p).error().message);
        if (!r.percentiles.values)
            continue;
        for (std::size_t k = 0; k < wanted.size(); ++k)
            if (std::abs(*p - wanted[k]) < 1e-6)
                (*r.percentiles.values)[k] = *v * r.percentiles.factor;
    }
    return {};
}

// "issued rwts: total=64,0,0,0 short=..." (fio >= 2.17) or "issued    : total=r=256/w=0/d=0,"
// (fio <= 2.16): each direction's I/O count, for weighting the latency of jobs combined by name.
Expected<void> readIssued(Reader& r, const text::Line& line, std::string_view t) {
    const auto at = t.find("total=");
    if (at == std::string_view::npos || r.entries.empty())
        return {};
    auto list = t.substr(at + 6);
    list = list.substr(0, std::min(list.find(' '), list.size()));
    if (list.ends_with(','))
        list.remove_suffix(1);
    const char separator = list.find('/') != std::string_view::npos ? '/' : ',';
    Entry& e = r.entries.back();
    double all = 0;
    std::size_t d = 0;
    for (auto item : text::split(list, separator)) {
        if (const auto eq = item.find('='); eq != std::string_view::npos)
            item.remove_prefix(eq + 1); // "r=256"
        auto count = text::parseNonNegative(item);
        if (!count)
            return bad(line, "issued total", count.error().message);
        if (d < 3 && e.stats[d])
            e.stats[d]->totalIos = *count;
        if (d < 3) // the fourth is fio 3.x's syncs, not a direction
            all += *count;
        else if (d == 3 && e.sync && *count > 0)
            e.sync->count = *count;
        ++d;
    }
    if (e.stats[3])
        e.stats[3]->totalIos = all;
    return {};
}

// Where a line goes: a figure read, a line of fio's known to carry none, or unplaced.
Expected<bool> place(Reader& r, const text::Line& line, std::string_view t) {
    if (t.find(headMark) != std::string_view::npos && !t.starts_with("fio")) {
        LB_TRY_VOID(readHead(r, line, t));
        return true;
    }
    // fio --client: a server's "hostname=vm, be=0, 64-bit, os=Linux, ..., fio=fio-3.33, flags=1".
    if (t.starts_with("hostname=") && t.find(", fio=") != std::string_view::npos) {
        r.serverHosts.push_back(escapeInvalidUtf8(t.substr(9, t.find(',') - 9)));
        if (auto version = valueOf(t, ", fio="); version && r.toolVersion.empty())
            r.toolVersion = escapeInvalidUtf8(*version);
        return true;
    }
    if (t.starts_with("fio-") && t.find(' ') == std::string_view::npos) {
        r.toolVersion = escapeInvalidUtf8(t);
        return true;
    }
    if (const auto d = directionOf(t); d && !r.entries.empty()) {
        LB_TRY(stats, readDirection(line, t, compat::directions[*d]));
        r.entries.back().stats[*d] = stats;
        const auto figures = figuresOf(t);
        noteUnit(r, unitOf(figures.bw));
        if (const auto iops = unitOf(figures.iops); !iops.empty())
            noteUnit(r, iops + " (IOPS)");
        noteUnit(r, "msec (runtime)");
        r.blocks.back().directionLine[*d] = line.number;
        r.direction = d;
        r.percentiles = {};
        return true;
    }
    LB_TRY(sync, readSync(r, line, t));
    LB_TRY(latency, readLatency(r, line, t));
    if (sync || latency || readPercentileHeader(r, t))
        return true;
    if (t.starts_with('|')) {
        LB_TRY_VOID(readPercentileRow(r, line, t));
        return true;
    }
    if (t.starts_with("issued ")) {
        LB_TRY_VOID(readIssued(r, line, t));
        return true;
    }
    // The latency distribution, "lat (usec)   : 10=68.36%, ...", and the per-disk lines.
    const bool distribution = t.starts_with("lat (") && t.find("%") != std::string_view::npos;
    const bool disk = t.find("ios=") != std::string_view::npos;
    // "..." stands for the further clones of a job with numjobs>1 (init.c).
    const bool jobLine = t == "..." || t.find(": (g=") != std::string_view::npos ||
                         t.find(": Laying out IO file") != std::string_view::npos;
    return distribution || disk || jobLine || startsWithAny(t, ignoredPrefixes);
}

// A line as a terminal left it: progress lines ("Jobs: ...") overwrite themselves with '\r'.
std::string_view lastSegment(std::string_view t) {
    while (!t.empty() && t.back() == '\r')
        t.remove_suffix(1);
    if (const auto cr = t.rfind('\r'); cr != std::string_view::npos)
        t.remove_prefix(cr + 1);
    return trim(t);
}

// fio --client puts "<host> " before the lines a server sent as text ("<vm> Starting 1
// process"); the host, and the line without it.
std::pair<std::string_view, std::string_view> splitHostPrefix(std::string_view t) {
    const auto close = t.find("> ");
    if (!t.starts_with('<') || (close == std::string_view::npos && !t.ends_with('>')))
        return {{}, t};
    const auto end = close == std::string_view::npos ? t.size() - 1 : close;
    if (end <= 1 || t.substr(1, end - 1).find_first_of(" <>") != std::string_view::npos)
        return {{}, t};
    return {t.substr(1, end - 1), trim(t.substr(std::min(end + 1, t.size())))};
}

// fio --client's text names each server in its "hostname=" line but not in its job blocks,
// which come in the order the servers finished. A block with a "<host> " prefix is that host's;
// the others are the one server's, or, when every server named the same machine, that
// machine's, but then which server a block came from is unknown: the document says so and only
// fio's sum over the clients (and each job's over them) is imported.
void assignClients(Reader& r, json_doc::Document& document) {
    const bool anyClient = std::any_of(r.entries.begin(), r.entries.end(),
                                       [](const Entry& e) { return e.summary || !e.host.empty(); });
    if (r.serverHosts.empty() && !anyClient)
        return;
    document.clientMode = true;
    const bool oneMachine =
        !r.serverHosts.empty() &&
        std::all_of(r.serverHosts.begin(), r.serverHosts.end(),
                    [&](const std::string& h) { return h == r.serverHosts.front(); });
    bool allTold = true;
    for (auto& e : r.entries) {
        if (e.summary || !e.host.empty())
            continue;
        allTold = allTold && r.serverHosts.size() == 1;
        if (oneMachine)
            e.host = r.serverHosts.front();
    }
    document.clientsTold = allTold;
}

// Every direction that printed figures printed its total latency ("lat (usec): ...") too, as
// fio does unless told not to measure it: the metric lat_mean comes from there.
Expected<void> checkBlocks(const Reader& r) {
    for (const auto& b : r.blocks)
        for (std::size_t d = 0; d < b.directionLine.size(); ++d)
            if (b.directionLine[d] != 0 && !b.hasLat[d])
                return badInput(std::to_string(b.directionLine[d]) + ": " +
                                std::string(compat::directions[d]) +
                                ": no ' lat (...): min=..., avg=...' line follows (total latency)");
    return {};
}

std::string unplacedCaveat(const Reader& r) {
    std::string text = "lines of fio's normal output not read: ";
    for (std::size_t i = 0; i < r.unplaced.size(); ++i)
        text += (i == 0 ? "" : ", ") + r.unplaced[i];
    if (r.unplacedCount > r.unplaced.size())
        text += " and " + std::to_string(r.unplacedCount - r.unplaced.size()) + " more";
    return text;
}

} // namespace

Expected<ParsedRun> parseNormal(std::string_view text, int firstLine) {
    Reader r;
    for (auto line : text::lines(text)) {
        line.number += firstLine - 1;
        const auto [host, t] = splitHostPrefix(lastSegment(line.text));
        r.linePrefixHost = escapeInvalidUtf8(host);
        if (t.empty())
            continue;
        if (t.starts_with("fio: ")) {
            r.fioMessages += escapeInvalidUtf8(t);
            r.fioMessages += '\n';
        }
        LB_TRY(placed, place(r, line, t));
        if (placed)
            continue;
        if (r.unplaced.size() < quotedUnplaced)
            r.unplaced.push_back(std::to_string(line.number) + " " + escapeInvalidUtf8(quoted(t)));
        ++r.unplacedCount;
    }
    if (r.entries.empty())
        return badInput(std::to_string(firstLine) +
                        ": no job in fio's normal output ('<job>: (groupid=0, jobs=1): err=')");
    LB_TRY_VOID(checkBlocks(r));
    json_doc::Document document;
    document.toolVersion = std::move(r.toolVersion);
    assignClients(r, document);
    document.entries = std::move(r.entries);
    LB_TRY(run, json_doc::toRun(std::move(document), {}, r.fioMessages, Span{0, 0}));
    if (r.unplacedCount > 0)
        run.caveats.push_back(unplacedCaveat(r));
    const std::string_view version = run.toolVersion;
    run.origin.format =
        version.empty()
            ? "fio normal output"
            : "fio " + std::string(version.starts_with("fio-") ? version.substr(4) : version) +
                  " normal output";
    run.origin.convertedFrom = std::move(r.units);
    return run;
}

bool looksLikeNormal(std::string_view text) {
    for (const auto& line : text::lines(text)) {
        const auto t = lastSegment(line.text);
        const auto mark = t.find(headMark);
        if (mark != std::string_view::npos && t.find("err=", mark) != std::string_view::npos)
            return true;
    }
    return false;
}

} // namespace lb::fio
