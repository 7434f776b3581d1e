// fio's per-interval logs as series (see fio_log.h).
#include "probes/fio_log.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

namespace lb::fio {

namespace {

// The shell loops take the prefixes as "$@": data never becomes part of the script.
constexpr const char* printLogs =
    "for p; do for f in \"$p\"_bw.*.log \"$p\"_iops.*.log \"$p\"_lat.*.log; do "
    "if [ -f \"$f\" ]; then printf '==> %s <==\\n' \"$f\"; cat -- \"$f\"; fi; done; done";
constexpr const char* removeLogs =
    "for p; do rm -f -- \"$p\"_bw.*.log \"$p\"_iops.*.log \"$p\"_lat.*.log \"$p\"_clat.*.log "
    "\"$p\"_slat.*.log; done";

Command shellOver(const char* script, const std::vector<std::string>& prefixes) {
    Command c{"sh", {"-c", script, "sh"}};
    c.args.insert(c.args.end(), prefixes.begin(), prefixes.end());
    return c;
}

enum class LogKind { Bw, Iops, Lat };

// "seq-read-1m_bw.1.log" -> job "seq-read-1m", kind bw; none for another log (clat, slat).
std::optional<std::pair<std::string, LogKind>> logOf(std::string_view file) {
    file = file.substr(
        file.find_last_of('/') == std::string_view::npos ? 0 : file.find_last_of('/') + 1);
    const auto underscore = file.rfind('_');
    if (underscore == std::string_view::npos)
        return std::nullopt;
    const std::string_view type =
        file.substr(underscore + 1, file.find('.', underscore) - underscore - 1);
    const std::string job(file.substr(0, underscore));
    if (type == "bw")
        return std::pair{job, LogKind::Bw};
    if (type == "iops")
        return std::pair{job, LogKind::Iops};
    if (type == "lat")
        return std::pair{job, LogKind::Lat};
    return std::nullopt;
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::optional<std::int64_t> integerField(std::string_view s) {
    s = trimmed(s);
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
        return std::nullopt;
    return v;
}

struct Window {
    double timeSum = 0; // ms, over the rows
    double valueSum = 0;
    int rows = 0;
};

// Series key: job, direction, kind.
using Key = std::tuple<std::string, int, LogKind>;

std::string seriesName(const Key& k) {
    static const char* const dirs[] = {"read", "write", "trim"};
    const auto& [job, dir, kind] = k;
    const char* stat = kind == LogKind::Bw ? "bw" : kind == LogKind::Iops ? "iops" : "lat_mean";
    return "fio." + job + "." + dirs[dir] + "." + stat;
}

} // namespace

Command logsCommand(const std::vector<std::string>& prefixes) {
    return shellOver(printLogs, prefixes);
}

Command removeLogsCommand(const std::vector<std::string>& prefixes) {
    return shellOver(removeLogs, prefixes);
}

namespace {

// A log row's time, value and direction (time, value, direction, block size, offset[,
// priority]); `where` is FILE:LINE for the message.
Expected<std::array<std::int64_t, 3>> rowFields(std::string_view line, const std::string& where) {
    std::array<std::int64_t, 3> fields{0, 0, 0};
    std::size_t from = 0;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const auto comma = line.find(',', from);
        if (comma == std::string_view::npos && i < 2)
            return badInput(where + ": '" + std::string(line) +
                            "' is not a log row (time, value, direction, ...)");
        const auto field = integerField(line.substr(from, comma - from));
        if (!field)
            return badInput(where + ": field " + std::to_string(i + 1) + " of '" +
                            std::string(line) + "' is not a whole number");
        fields[i] = *field;
        from = comma == std::string_view::npos ? line.size() : comma + 1;
    }
    if (fields[2] < 0 || fields[2] > 2)
        return badInput(where + ": direction " + std::to_string(fields[2]) +
                        " is none of 0 (read), 1 (write), 2 (trim)");
    return fields;
}

// One series of a job's direction and kind: a point per window, at the mean time of its rows.
Series seriesOf(const Key& key, const std::map<std::int64_t, Window>& byWindow) {
    const LogKind kind = std::get<2>(key);
    Series s;
    s.name = seriesName(key);
    s.xUnit = Unit::Seconds;
    s.unit = kind == LogKind::Bw     ? Unit::BytesPerSecond
             : kind == LogKind::Iops ? Unit::OpsPerSecond
                                     : Unit::Nanoseconds;
    s.x.reserve(byWindow.size());
    s.y.reserve(byWindow.size());
    for (const auto& [index, w] : byWindow) {
        s.x.push_back(w.timeSum / w.rows / 1000.0);
        // Clones of a job each write their own file: their rates add up, their latencies
        // are averaged.
        const double value = kind == LogKind::Lat ? w.valueSum / w.rows : w.valueSum;
        s.y.push_back(kind == LogKind::Bw ? value * 1024.0 : value);
    }
    return s;
}

} // namespace

Expected<std::vector<Series>> parseLogs(std::string_view text, int intervalMs) {
    std::map<Key, std::map<std::int64_t, Window>> windows;
    std::optional<std::pair<std::string, LogKind>> current;
    std::string file;
    std::size_t lineNo = 0;
    const double interval = intervalMs > 0 ? intervalMs : 1;
    for (std::size_t pos = 0; pos < text.size();) {
        auto end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNo;
        if (line.starts_with("==> ") && line.ends_with(" <==")) {
            file = std::string(line.substr(4, line.size() - 8));
            current = logOf(file);
            lineNo = 0;
            continue;
        }
        if (trimmed(line).empty() || !current)
            continue;
        LB_TRY(fields, rowFields(line, file + ":" + std::to_string(lineNo)));
        const auto window =
            static_cast<std::int64_t>(std::llround(static_cast<double>(fields[0]) / interval));
        Window& w = windows[{current->first, static_cast<int>(fields[2]), current->second}][window];
        w.timeSum += static_cast<double>(fields[0]);
        w.valueSum += static_cast<double>(fields[1]);
        ++w.rows;
    }
    std::vector<Series> out;
    for (const auto& [key, byWindow] : windows)
        out.push_back(seriesOf(key, byWindow));
    std::sort(out.begin(), out.end(),
              [](const Series& a, const Series& b) { return a.name < b.name; });
    return out;
}

} // namespace lb::fio
