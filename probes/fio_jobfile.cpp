// fio job files as text: sections and options as fio's ini parser reads them (init.c,
// parse_jobs_ini), and sizes as its parse.c reads them.
#include "probes/fio_jobfile.h"

#include <algorithm>
#include <array>
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
    // Every bs= it was given, [global]'s first: fio applies them in turn, and a field left empty
    // keeps what the one before set.
    std::vector<std::string> bs;
};

// An option by the name fio documents first, so that a job's blocksize= overrides a [global]
// bs= (fio's aliases of one option).
std::string canonicalKey(std::string key) {
    if (key == "blocksize")
        return "bs";
    if (key == "readwrite")
        return "rw";
    if (key == "blocksize_range")
        return "bsrange";
    return key;
}

// The jobs of a job file, or nullopt when it includes another file (not followed here).
std::optional<std::vector<Job>> parseJobs(std::string_view text) {
    std::vector<Job> jobs;
    Job global;
    Job* current = &global;
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
                jobs.push_back({std::string(name), global.options, global.bs});
                current = &jobs.back();
            }
            continue;
        }
        if (line.starts_with("include ") || line.starts_with("include\t"))
            return std::nullopt;
        const auto eq = line.find('=');
        const auto key = canonicalKey(lower(trim(line.substr(0, eq))));
        const std::string value =
            eq == std::string_view::npos ? "" : std::string(trim(line.substr(eq + 1)));
        current->options[key] = value;
        if (key == "bs")
            current->bs.push_back(value);
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

std::uint64_t kbBaseOf(const Options& o) {
    return o.count("kb_base") && o.at("kb_base") == "1000" ? 1000 : 1024;
}

// The directions rw= does I/O in (reads when it is not given): rw=randread:8 is random reads with
// an offset modifier; rw, readwrite and randrw read and write; trimwrite trims then writes.
std::vector<std::string> directionsOf(const Options& o) {
    const auto it = o.find("rw");
    const std::string rw =
        it == o.end() ? "read" : lower(it->second.substr(0, it->second.find(':')));
    const bool both = rw == "rw" || rw == "randrw" || rw == "readwrite";
    std::vector<std::string> out;
    if (both || rw.find("read") != std::string::npos)
        out.emplace_back("read");
    if (both || rw.find("write") != std::string::npos)
        out.emplace_back("write");
    if (rw.find("trim") != std::string::npos)
        out.emplace_back("trim");
    return out;
}

// The read, write and trim block sizes after a job's bs= settings, as fio's split options read
// each: up to three comma-separated values for reads, writes and trims; past the last value the
// last one goes on; an empty one keeps what was there (fio's 4 KiB, or an earlier bs=), so a
// trailing comma leaves trims alone. nullopt when a value is not one size.
std::optional<std::array<std::uint64_t, 3>> blockSizesAfter(const std::vector<std::string>& bs,
                                                            std::uint64_t kbBase) {
    std::array<std::uint64_t, 3> out{4096, 4096, 4096};
    for (const std::string_view value : bs) {
        std::vector<std::string_view> fields;
        for (std::size_t from = 0;;) {
            const auto comma = value.find(',', from);
            fields.push_back(trim(value.substr(from, comma - from)));
            if (comma == std::string_view::npos)
                break;
            from = comma + 1;
        }
        if (fields.size() > 3)
            return std::nullopt;
        for (std::size_t d = 0; d < out.size(); ++d) {
            const auto field = fields[std::min(d, fields.size() - 1)];
            if (field.empty())
                continue;
            const auto bytes = fioSize(field, kbBase);
            if (!bytes || *bytes == 0)
                return std::nullopt;
            out[d] = *bytes;
        }
    }
    return out;
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
        const std::uint64_t kbBase = kbBaseOf(o);
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

std::optional<std::vector<JobBlockSize>> jobFileBlockSizes(std::string_view text) {
    const auto jobs = parseJobs(text);
    if (!jobs)
        return std::nullopt;
    std::vector<JobBlockSize> out;
    for (const auto& job : *jobs) {
        const Options& o = job.options;
        if (o.count("bsrange") || o.count("bssplit"))
            continue;
        const auto sizes = blockSizesAfter(job.bs, kbBaseOf(o));
        if (!sizes)
            continue;
        const auto named = o.find("name");
        const std::string name =
            named != o.end() && !named->second.empty() ? named->second : job.name;
        for (const auto& direction : directionsOf(o)) {
            const std::size_t d = direction == "read" ? 0 : direction == "write" ? 1 : 2;
            out.push_back({name, direction, (*sizes)[d]});
        }
    }
    return out;
}

std::string withTotalLatencyPercentiles(std::string_view text) {
    std::string out = "[global]\nlat_percentiles=1\n\n";
    out += text;
    return out;
}

} // namespace lb::fio
