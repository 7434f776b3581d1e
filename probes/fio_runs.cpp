// fio's output cut where one invocation ends and the next begins (see fio_runs.h): by the lines
// fio prints once per invocation in its normal output, by document in its JSON, by the disk
// statistics that end each terse line.
#include "probes/fio_runs.h"

#include "probes/fio_output.h"
#include "probes/text_fields.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

namespace lb::fio {

namespace {

using text::trim;

std::size_t offsetOf(std::string_view text, std::string_view part) {
    return static_cast<std::size_t>(part.data() - text.data());
}

// The parts between the cuts (byte offsets at line starts, ascending): one part when none.
std::vector<Invocation> partsAt(std::string_view text, const std::vector<std::size_t>& cuts) {
    std::vector<Invocation> parts;
    std::size_t begin = 0;
    for (const auto cut : cuts) {
        if (cut <= begin || cut >= text.size())
            continue;
        parts.push_back({text::lineAt(text, begin), begin, cut});
        begin = cut;
    }
    parts.push_back({text::lineAt(text, begin), begin, text.size()});
    return parts;
}

// ---- Normal output ----

bool isJobDescription(std::string_view t) {
    return t.find(": (g=") != std::string_view::npos && t.find("rw=") != std::string_view::npos;
}
bool isVersionLine(std::string_view t) {
    return t.starts_with("fio-") && t.find(' ') == std::string_view::npos;
}
bool isStarting(std::string_view t) {
    return t.starts_with("Starting ") && t.find(" process") != std::string_view::npos;
}
bool isResultHead(std::string_view t) {
    const auto mark = t.find(": (groupid=");
    return mark != std::string_view::npos && !t.starts_with("fio") &&
           t.find("err=", mark) != std::string_view::npos;
}
// "<job>: (groupid=0, jobs=1): err= 0: pid=27710: ...": the pid, empty when not there.
std::string_view pidOf(std::string_view head) {
    const auto at = head.find(" pid=");
    if (at == std::string_view::npos)
        return {};
    const auto pid = head.substr(at + 5);
    return pid.substr(0, std::min(pid.find_first_not_of("0123456789"), pid.size()));
}
bool isClientServerLine(std::string_view t) {
    return t.starts_with("hostname=") && t.find(", fio=") != std::string_view::npos;
}

// fio's complaints before it gives up ("Error: maximum number of jobs reached.", "fio: ..."):
// they belong to the invocation whose banner follows them.
bool isComplaint(std::string_view t) {
    return t.starts_with("fio: ") || t.starts_with("Error: ") || t.starts_with("error: ");
}

// The state of the part being read.
struct NormalPart {
    bool results = false; // it holds a job's results
    bool summary = false; // and a "Run status group" summary after them
    // Its "fio-3.33" line, which fio prints after every job's description: a description after
    // it is the next invocation's (this one gave up after its banner), whatever came between.
    bool version = false;
    // Where the complaints just before this line start, or npos (not an optional: GCC 12 at -O3
    // takes a reset optional of a part assigned anew for uninitialized, -Wmaybe-uninitialized).
    std::size_t complaints = std::string_view::npos;
    // fio describes each job once ("..." for its clones): the same description again is the
    // next invocation's, after one that gave up without results.
    std::vector<std::string_view> described;
    // Its jobs' pids: results of the same pid after a summary are a later report of the same
    // invocation (--status-interval), not the next invocation's.
    std::vector<std::string_view> pids;
};

// Whether the line starts another invocation than the part's.
bool startsAnother(const NormalPart& p, std::string_view t) {
    const bool description = isJobDescription(t);
    const bool banner = description || isVersionLine(t) || isStarting(t);
    const bool again =
        description && std::find(p.described.begin(), p.described.end(), t) != p.described.end();
    const auto pid = isResultHead(t) ? pidOf(t) : std::string_view();
    const bool laterReport =
        !pid.empty() && std::find(p.pids.begin(), p.pids.end(), pid) != p.pids.end();
    return (banner && p.results) || (isResultHead(t) && p.summary && !laterReport) ||
           (isVersionLine(t) && p.version) || (description && p.version) || again;
}

} // namespace

std::vector<Invocation> normalInvocations(std::string_view text) {
    std::vector<std::size_t> cuts;
    NormalPart p;
    for (const auto& line : text::lines(text)) {
        const auto t = trim(line.text);
        if (t.empty())
            continue;
        if (isClientServerLine(t))
            return partsAt(text, {}); // fio --client: every server prints its own summary
        if (startsAnother(p, t)) {
            cuts.push_back(p.complaints != std::string_view::npos ? p.complaints
                                                                  : offsetOf(text, line.text));
            p = {};
        }
        if (isJobDescription(t))
            p.described.push_back(t);
        p.version = p.version || isVersionLine(t);
        if (isResultHead(t))
            p.pids.push_back(pidOf(t));
        p.results = p.results || isResultHead(t);
        p.summary = p.summary || (p.results && t.starts_with("Run status group "));
        if (!isComplaint(t))
            p.complaints = std::string_view::npos;
        else if (p.complaints == std::string_view::npos)
            p.complaints = offsetOf(text, line.text);
    }
    return partsAt(text, cuts);
}

std::optional<std::pair<std::size_t, std::size_t>> intervalReports(std::string_view part) {
    std::optional<std::size_t> first, last;
    bool summary = false;
    std::vector<std::string_view> pids;
    for (const auto& line : text::lines(part)) {
        const auto t = trim(line.text);
        if (isResultHead(t)) {
            const auto pid = pidOf(t);
            if (!first)
                first = offsetOf(part, line.text);
            // fio --client's servers each print results and a summary, with pids of their own.
            if (summary && !pid.empty() && std::find(pids.begin(), pids.end(), pid) != pids.end())
                last = offsetOf(part, line.text);
            pids.push_back(pid);
            summary = false;
        }
        summary = summary || (first && t.starts_with("Run status group "));
    }
    if (!last)
        return std::nullopt;
    return std::pair{*first, *last};
}

// ---- JSON ----

namespace {

// The number after `"key"` and its colon, from `from` on; nullopt when the key is not there.
std::optional<double> numberAfter(std::string_view doc, std::string_view key, std::size_t& from) {
    // Appended part by part: "literal" + string&& is GCC 12's -Wrestrict false alarm at -O3
    // (GCC bug 105329).
    std::string quotedKey(1, '"');
    quotedKey.append(key).push_back('"');
    const auto at = doc.find(quotedKey, from);
    if (at == std::string_view::npos)
        return std::nullopt;
    auto i = at + quotedKey.size();
    while (i < doc.size() && (doc[i] == ' ' || doc[i] == ':' || doc[i] == '\t'))
        ++i;
    from = i;
    const std::string digits(doc.substr(i, std::min<std::size_t>(32, doc.size() - i)));
    char* end = nullptr;
    const double v = std::strtod(digits.c_str(), &end);
    if (end == digits.c_str())
        return std::nullopt;
    return v;
}

// What tells a status-interval report from the next invocation's: its jobs, how long each had
// run, and when the report was written (seconds).
struct Report {
    std::size_t end = 0;
    std::vector<std::string> jobs;
    std::vector<double> elapsed;
    std::optional<double> timestamp;
    bool milliseconds = false;
};

Report reportOf(std::string_view doc, std::size_t end) {
    Report r;
    r.end = end;
    std::size_t at = 0;
    if (const auto ms = numberAfter(doc, "timestamp_ms", at)) {
        r.timestamp = *ms / 1000.0;
        r.milliseconds = true;
    } else if (at = 0; const auto s = numberAfter(doc, "timestamp", at)) {
        r.timestamp = *s;
    }
    for (auto name = doc.find("\"jobname\""); name != std::string_view::npos;
         name = doc.find("\"jobname\"", name + 1)) {
        const auto open = doc.find('"', doc.find(':', name) + 1);
        const auto close = doc.find('"', open + 1);
        if (open == std::string_view::npos || close == std::string_view::npos)
            break;
        r.jobs.emplace_back(doc.substr(open + 1, close - open - 1));
    }
    at = 0;
    while (const auto e = numberAfter(doc, "elapsed", at))
        r.elapsed.push_back(*e);
    return r;
}

double latest(const std::vector<double>& values) {
    double m = 0;
    for (const double v : values)
        m = std::max(m, v);
    return m;
}

// `next` is a later report of the invocation that wrote `prev` (fio --status-interval).
bool continues(const Report& prev, const Report& next) {
    if (prev.jobs.empty() || prev.jobs != next.jobs || prev.elapsed.size() != next.elapsed.size())
        return false;
    for (std::size_t i = 0; i < prev.elapsed.size(); ++i)
        if (!(next.elapsed[i] > prev.elapsed[i]))
            return false;
    if (!prev.timestamp || !next.timestamp)
        return true;
    // "elapsed" is in whole seconds, rounded up; the timestamp in seconds or milliseconds.
    const double slack = prev.milliseconds && next.milliseconds ? 1.0 : 2.0;
    const double prevStart = *prev.timestamp - latest(prev.elapsed);
    const double nextStart = *next.timestamp - latest(next.elapsed);
    return std::abs(nextStart - prevStart) < slack;
}

// One past the line end after byte `at`: where the next part starts.
std::size_t afterLine(std::string_view text, std::size_t at) {
    const auto eol = text.find('\n', at);
    return eol == std::string_view::npos ? text.size() : eol + 1;
}

} // namespace

std::vector<Invocation> jsonInvocations(std::string_view text) {
    // Most files hold one document: found without the walk over every character below. The
    // key is looked for from its "f", which fio's JSON holds a few times; from its quote, that
    // was a search from each of some 800 quotes a file, 4 % of an import's time. A job named
    // "...fio version" only costs the walk, which finds the documents as they are.
    constexpr std::string_view versionKey = "fio version\"";
    const auto first = text.find(versionKey);
    if (first == std::string_view::npos ||
        text.find(versionKey, first + 1) == std::string_view::npos)
        return partsAt(text, {});
    std::vector<Report> reports;
    for (auto begin = findFioObject(text, 0); begin;) {
        const auto end = jsonObjectEnd(text, *begin);
        if (!end)
            break; // cut short: the last part's, as the parser's error will say
        reports.push_back(reportOf(text.substr(*begin, *end - *begin), *end));
        begin = findFioObject(text, *end);
    }
    std::vector<std::size_t> cuts;
    for (std::size_t i = 0; i + 1 < reports.size(); ++i)
        if (!continues(reports[i], reports[i + 1]))
            cuts.push_back(afterLine(text, reports[i].end));
    return partsAt(text, cuts);
}

// ---- Terse ----

namespace {

// "vda;25715;0;0;0;1063;0;1063;62.59%": a disk's statistics, nine fields, the last a percentage.
constexpr std::size_t diskFields = 9;

// The fio version and the last disk's statistics at the end of a terse line (empty when the
// line has none), which every line of one invocation repeats.
std::pair<std::string_view, std::string_view> invocationKey(std::string_view line) {
    const auto fields = text::split(line, ';');
    if (fields.size() < 2)
        return {};
    const std::string_view version = fields[1];
    if (fields.size() < diskFields + 5 || !fields.back().ends_with('%'))
        return {version, {}};
    const auto device = fields[fields.size() - diskFields];
    if (device.empty() || device.find_first_not_of("0123456789.") == std::string_view::npos)
        return {version, {}};
    const auto start = offsetOf(line, device);
    return {version, line.substr(start)};
}

bool isTerse(std::string_view t) {
    return t.size() > 2 && t[0] >= '3' && t[0] <= '5' && t[1] == ';';
}

} // namespace

std::vector<Invocation> terseInvocations(std::string_view text) {
    std::vector<std::size_t> cuts;
    std::optional<std::pair<std::string_view, std::string_view>> previous;
    std::size_t previousEnd = 0;
    for (const auto& line : text::lines(text)) {
        const auto t = trim(line.text);
        if (!isTerse(t))
            continue;
        const auto key = invocationKey(t);
        if (previous &&
            (key.first != previous->first ||
             (!key.second.empty() && !previous->second.empty() && key.second != previous->second)))
            cuts.push_back(previousEnd);
        previous = key;
        previousEnd = afterLine(text, offsetOf(text, line.text));
    }
    return partsAt(text, cuts);
}

} // namespace lb::fio
