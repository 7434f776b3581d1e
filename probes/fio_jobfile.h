// A user's fio job file as text: the bytes its jobs lay out (the working set the campaign holds
// against memory), the block size of each job's reads, writes and trims, and the same file asking
// fio for total-latency percentiles. Pure functions of the text; reading the file is the caller's
// business.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb::fio {

// The bytes of the files the job file's jobs use, as fio sizes them: a job with filename= uses
// those files (shared by its clones and by other jobs naming them; filesize=, else size= split
// over them), a job without one lays out nrfiles files per clone (filesize= times nrfiles, else
// size=; times numjobs). [global] sections apply to the jobs after them; kb_base=1000 and fio's
// "MiB"-style suffixes are honoured. nullopt when that cannot be known from the text: a job without
// size= or filesize= (fio then uses the existing file or device), a size in percent, a range,
// a variable, fill_device, or an include directive.
std::optional<std::uint64_t> jobFileWorkingSet(std::string_view text);

// One direction of one job and the size of its blocks: fio's bs= (alias blocksize=), with the
// [global] sections before the job applied first. A job does I/O in the directions its rw= names
// (read by default): reads, writes or trims. bs=8k applies to all three; bs=8k,32k is 8k for
// reads and 32k for writes and trims; an empty value keeps what was set before (fio's 4 KiB, or
// a [global] bs=), so bs=8k,32k, leaves trims and bs=,8k leaves reads as they were (checked with
// fio 3.33). `job` is the name fio reports (name=, else the section's).
struct JobBlockSize {
    std::string job;
    std::string direction; // "read", "write", "trim"
    std::uint64_t bytes = 0;
    bool operator==(const JobBlockSize&) const = default;
};

// Every job's directions with the size of their blocks, in the file's order. A job whose blocks
// vary (bsrange=, bssplit=, a range or a variable in bs=) has none; nullopt for a file that
// includes another (not followed here).
std::optional<std::vector<JobBlockSize>> jobFileBlockSizes(std::string_view text);

// The job file with a [global] section in front asking for total-latency percentiles
// (lat_percentiles=1). fio applies the global sections of a file in order, so the file's own
// settings still win. For fio --client, which sends the job file to its servers and does not pass
// command-line options on; a local fio takes --lat_percentiles=1 before the job file instead.
std::string withTotalLatencyPercentiles(std::string_view text);

} // namespace lb::fio
