// fio terse lines, read by the field tables of fio's HOWTO, turned into the jobs of a fio 3.x
// JSON document so that fio_json.cpp's reading (job grouping, errors, metric names) is the one
// both formats share.
#include "probes/fio_terse.h"

#include "engine/base/utf8.h"
#include "probes/fio_json.h"
#include "probes/text_fields.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lb::fio {

namespace {

using nlohmann::json;

// A direction's block: total I/O KiB, bandwidth KiB/s, IOPS, runtime ms; slat, clat (4 each);
// 20 clat percentiles ("99.000000%=6324", µs); total latency (4); bandwidth (5, v5: 6); v5 adds
// IOPS min, max, mean, stdev, samples.
constexpr std::size_t headerFields = 5; // version; fio version; jobname; groupid; error
constexpr std::size_t percentileCount = 20;
constexpr std::size_t blockFields = 41;
constexpr std::size_t blockFieldsV5 = 47;
constexpr std::size_t percentileAt = 12;
constexpr std::size_t latMeanAt = 34;
constexpr std::array<std::string_view, 12> blockNames{
    "kb",           "bandwidth_kb", "iops",        "runtime_ms",  "slat_min_us",  "slat_max_us",
    "slat_mean_us", "slat_dev_us",  "clat_min_us", "clat_max_us", "clat_mean_us", "clat_dev_us"};
constexpr std::array<std::string_view, 15> tailNames{
    "lat_min_us", "lat_max_us", "lat_mean_us", "lat_dev_us", "bw_min_kb",
    "bw_max_kb",  "bw_agg_pct", "bw_mean_kb",  "bw_dev_kb",  "bw_samples",
    "iops_min",   "iops_max",   "iops_mean",   "iops_dev",   "iops_samples"};

struct Layout {
    std::size_t blockSize = blockFields;
    std::vector<std::string_view> directions;
};

// The HOWTO's short name of a block's i-th field: "read_bandwidth_kb", "write_clat_pct07".
std::string fieldName(std::string_view dir, std::size_t i) {
    std::string name(dir);
    name += '_';
    if (i < blockNames.size())
        return name + std::string(blockNames[i]);
    if (i < percentileAt + percentileCount) {
        const auto n = i - percentileAt + 1;
        return name + "clat_pct" + (n < 10 ? "0" : "") + std::to_string(n);
    }
    const auto tail = i - percentileAt - percentileCount;
    return tail < tailNames.size() ? name + std::string(tailNames[tail]) : name + "extra";
}

struct Reader {
    const std::vector<std::string_view>& fields;
    int line;

    Unexpected error(std::size_t at, const std::string& name, const std::string& what) const {
        return badInput(std::to_string(line) + ": field " + std::to_string(at + 1) + " (" + name +
                        "): " + what);
    }
    Expected<double> number(std::size_t at, const std::string& name) const {
        if (at >= fields.size())
            return error(at, name,
                         "missing (the line has " + std::to_string(fields.size()) + " fields)");
        auto v = text::parseNonNegative(fields[at]);
        if (!v)
            return error(at, name, v.error().message);
        return v;
    }
    // A count or code: whole and within what fio writes (an int), so no cast can overflow.
    Expected<std::int64_t> integer(std::size_t at, const std::string& name) const {
        const auto v = number(at, name);
        if (!v)
            return fail(v.error());
        if (*v != std::floor(*v) || *v > static_cast<double>(std::numeric_limits<int>::max()))
            return error(at, name,
                         text::quoted(fields[at]) + " is not a whole number up to " +
                             std::to_string(std::numeric_limits<int>::max()));
        return static_cast<std::int64_t>(*v);
    }
};

// "99.000000%=6324" -> {"99.000000", 6324 µs}; fio writes "0%=0" for unused slots.
Expected<void> addPercentile(const Reader& r, std::size_t at, const std::string& name,
                             json& percentiles) {
    const auto field = r.fields[at];
    const auto pct = field.find("%=");
    if (pct == std::string_view::npos)
        return r.error(at, name, text::quoted(field) + " is not '<percentile>%=<usec>'");
    const auto key = field.substr(0, pct);
    if (key == "0")
        return {};
    auto value = text::parseNonNegative(field.substr(pct + 2), field);
    if (!value)
        return r.error(at, name, value.error().message);
    percentiles[std::string(key)] = *value * text::nsPerUs;
    return {};
}

Expected<json> directionBlock(const Reader& r, std::size_t start, std::string_view dir) {
    std::array<double, 4> head{};
    for (std::size_t i = 0; i < head.size(); ++i) {
        auto v = r.number(start + i, fieldName(dir, i));
        if (!v)
            return fail(v.error());
        head[i] = *v;
    }
    const auto latMean = r.number(start + latMeanAt, fieldName(dir, latMeanAt));
    if (!latMean)
        return fail(latMean.error());
    json percentiles = json::object();
    for (std::size_t i = percentileAt; i < percentileAt + percentileCount; ++i)
        if (auto p = addPercentile(r, start + i, fieldName(dir, i), percentiles); !p)
            return fail(p.error());
    const double iops = head[2];
    const double runtimeMs = head[3];
    return json{{"io_bytes", head[0] * text::bytesPerKiB},
                {"bw_bytes", head[1] * text::bytesPerKiB},
                {"iops", iops},
                {"runtime", runtimeMs},
                // Terse prints no I/O count; only same-named jobs' latency weighting uses it.
                {"total_ios", std::llround(iops * runtimeMs / 1000.0)},
                {"lat_ns", {{"mean", *latMean * text::nsPerUs}}},
                {"clat_ns", {{"percentile", std::move(percentiles)}}}};
}

// With unified_rw_reporting fio prints one block; what follows it is the CPU usage ("1.30%").
Expected<Layout> layoutOf(const Reader& r, int version) {
    Layout layout;
    layout.blockSize = version >= 5 ? blockFieldsV5 : blockFields;
    const std::size_t afterFirst = headerFields + layout.blockSize;
    if (afterFirst >= r.fields.size())
        return r.error(r.fields.size(), "read", "the line ends inside the first I/O block");
    if (r.fields[afterFirst].ends_with("%")) {
        layout.directions = {"mixed"};
        return layout;
    }
    layout.directions = {"read", "write"};
    if (version >= 4)
        layout.directions.push_back("trim");
    return layout;
}

Expected<json> jobOf(std::string_view line, int lineNo, std::string& fioVersion) {
    const auto fields = text::split(line, ';');
    const Reader r{fields, lineNo};
    const auto version = r.integer(0, "terse_version");
    if (!version)
        return fail(version.error());
    if (*version < 3 || *version > 5)
        return r.error(0, "terse_version",
                       text::quoted(fields[0]) + " is not a terse version read here (3, 4, 5)");
    if (fields.size() < headerFields)
        return r.error(fields.size(), "jobname", "missing");
    fioVersion = std::string(fields[1]);
    const auto error = r.integer(4, "error");
    if (!error)
        return fail(error.error());
    const auto group = r.integer(3, "groupid");
    if (!group)
        return fail(group.error());
    json job{{"jobname", std::string(fields[2])}, {"groupid", *group}, {"error", *error}};
    if (*error != 0)
        return job; // a failed job's numbers are not used
    const auto layout = layoutOf(r, static_cast<int>(*version));
    if (!layout)
        return fail(layout.error());
    for (std::size_t d = 0; d < layout->directions.size(); ++d) {
        auto block = directionBlock(r, headerFields + d * layout->blockSize, layout->directions[d]);
        if (!block)
            return fail(block.error());
        job[std::string(layout->directions[d])] = std::move(*block);
    }
    return job;
}

bool isTerseLine(std::string_view line) {
    const auto t = text::trim(line);
    return t.size() > 2 && t[0] >= '2' && t[0] <= '9' && t[1] == ';';
}

} // namespace

Expected<ParsedRun> parseTerse(std::string_view text, int firstLine) {
    json jobs = json::array();
    std::string fioVersion;
    std::string terseVersion;
    std::string logLines; // fio's own lines ("fio: pid=..., err=11/..."), for a job's failure
    for (const auto& line : text::lines(text)) {
        if (!isTerseLine(line.text)) {
            logLines.append(line.text).push_back('\n');
            continue;
        }
        if (terseVersion.empty())
            terseVersion = std::string(1, text::trim(line.text).front());
        auto job = jobOf(text::trim(line.text), line.number + firstLine - 1, fioVersion);
        if (!job)
            return fail(job.error());
        jobs.push_back(std::move(*job));
    }
    if (jobs.empty())
        return badInput(std::to_string(firstLine) +
                        ": terse: no fio terse line (\"3;fio-3.33;<job>;...\")");
    const json root{{"fio version", fioVersion}, {"jobs", std::move(jobs)}};
    // A job name need not be UTF-8; JSON text must be (dump would throw): escaped, it stays.
    auto run = parseJson(dumpJson(root), logLines);
    if (!run)
        return run;
    const std::string version = fioVersion.starts_with("fio-") ? fioVersion.substr(4) : fioVersion;
    run->origin.format = "fio " + version + " terse v" + terseVersion;
    run->origin.convertedFrom = {"KiB", "KiB/s", "us", "ms"};
    return run;
}

bool looksLikeTerse(std::string_view text) {
    // fio's error lines may come first, in any number and shape; a terse line anywhere says it.
    for (const auto& line : text::lines(text)) {
        const auto t = text::trim(line.text);
        if (isTerseLine(t) && t.size() > 6 && t[2] != ';' &&
            (t.substr(2).starts_with("fio-") || t.substr(2).starts_with("fio ")))
            return true;
    }
    return false;
}

} // namespace lb::fio
