// fio job files as text: sections and options as fio's ini parser reads them (init.c,
// parse_jobs_ini), and sizes as its parse.c reads them.
#include "probes/fio_jobfile.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <utility>
#include <vector>

namespace lb::fio {

namespace {

using Options = std::map<std::string, std::string>;

std::string_view trim(std::string_view s) {
    constexpr std::string_view space = " \t\r\n";
    const auto first = s.find_first_not_of(space);
    if (first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(space) - first + 1);
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

struct Job {
    std::string name;
    Options options; // the global options before it, then its own
};

// The jobs of a job file, or nullopt when it includes another file (not followed here).
std::optional<std::vector<Job>> parseJobs(std::string_view text) {
    std::vector<Job> jobs;
    Options global;
    Options* current = &global;
    while (!text.empty()) {
        const auto eol = text.find('\n');
        const auto line = trim(text.substr(0, eol));
        text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
        if (line.empty() || line.front() == ';' || line.front() == '#')
            continue;
        if (line.front() == '[' && line.back() == ']') {
            const auto name = trim(line.substr(1, line.size() - 2));
            if (name == "global") {
                current = &global;
            } else {
                jobs.push_back({std::string(name), global});
                current = &jobs.back().options;
            }
            continue;
        }
        if (line.starts_with("include ") || line.starts_with("include\t"))
            return std::nullopt;
        const auto eq = line.find('=');
        const auto key = lower(trim(line.substr(0, eq)));
        (*current)[key] =
            eq == std::string_view::npos ? "" : std::string(trim(line.substr(eq + 1)));
    }
    return jobs;
}

std::optional<std::uint64_t> integer(std::string_view s) {
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc{} || end != s.data() + s.size())
        return std::nullopt;
    return n;
}

// "4k", "1M", "2gb", "10MiB": the letter's power of kb_base (1024 by default), and of the other
// base for "<letter>ib", as fio 3.33's get_mult_bytes reads them (checked: with kb_base=1024
// 1MB and 1mi are 1048576 bytes, 1MiB is 1000000). Percentages, ranges, variables and
// expressions are not sizes known here.
std::optional<std::uint64_t> fioSize(std::string_view value, std::uint64_t kbBase) {
    const auto text = lower(trim(value));
    const auto digits = text.find_first_not_of("0123456789");
    const auto number = integer(std::string_view(text).substr(0, digits));
    if (!number)
        return std::nullopt;
    if (digits == std::string::npos)
        return number;
    const std::string_view suffix = std::string_view(text).substr(digits);
    constexpr std::string_view letters = "kmgtp";
    const auto power = letters.find(suffix.front());
    if (power == std::string_view::npos)
        return suffix == "b" ? number : std::nullopt;
    const auto rest = suffix.substr(1);
    if (!rest.empty() && rest != "b" && rest != "i" && rest != "ib")
        return std::nullopt;
    const std::uint64_t base = rest == "ib" ? (kbBase == 1024 ? 1000 : 1024) : kbBase;
    std::uint64_t bytes = *number;
    for (std::size_t i = 0; i <= power; ++i)
        bytes *= base;
    return bytes;
}

std::optional<std::uint64_t> option(const Options& o, const std::string& key,
                                    std::uint64_t kbBase) {
    const auto it = o.find(key);
    if (it == o.end())
        return std::nullopt;
    return fioSize(it->second, kbBase);
}

} // namespace

std::optional<std::uint64_t> jobFileWorkingSet(std::string_view text) {
    const auto jobs = parseJobs(text);
    if (!jobs || jobs->empty())
        return std::nullopt;
    std::map<std::string, std::uint64_t> namedFiles; // shared by every job that names them
    std::uint64_t ownFiles = 0;
    for (const auto& job : *jobs) {
        const Options& o = job.options;
        if (o.count("fill_device") || o.count("fill_fs"))
            return std::nullopt;
        const std::uint64_t kbBase = o.count("kb_base") && o.at("kb_base") == "1000" ? 1000 : 1024;
        const auto size = option(o, "size", kbBase);
        const auto fileSize = option(o, "filesize", kbBase);
        if ((o.count("size") && !size) || (o.count("filesize") && !fileSize) ||
            (!size && !fileSize))
            return std::nullopt;
        if (const auto names = o.find("filename"); names != o.end()) {
            std::vector<std::string> files;
            for (std::string_view rest = names->second; !rest.empty();) {
                const auto colon = rest.find(':');
                files.emplace_back(trim(rest.substr(0, colon)));
                rest =
                    colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
            }
            if (files.empty())
                return std::nullopt;
            const std::uint64_t perFile = fileSize ? *fileSize : *size / files.size();
            for (const auto& f : files)
                namedFiles[f] = std::max(namedFiles[f], perFile);
            continue;
        }
        const auto count = [&](const std::string& key) {
            return o.count(key) ? integer(o.at(key)) : std::optional<std::uint64_t>{1};
        };
        const auto numJobs = count("numjobs");
        const auto nrFiles = count("nrfiles");
        if (!numJobs || !nrFiles)
            return std::nullopt;
        // filesize= sizes the files even where size= is given (size= then only bounds the I/O).
        ownFiles += (fileSize ? *fileSize * *nrFiles : *size) * *numJobs;
    }
    for (const auto& [name, bytes] : namedFiles)
        ownFiles += bytes;
    return ownFiles;
}

std::string withTotalLatencyPercentiles(std::string_view text) {
    std::string out = "[global]\nlat_percentiles=1\n\n";
    out += text;
    return out;
}

} // namespace lb::fio
