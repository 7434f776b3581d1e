// A user's fio job file as text: the bytes its jobs lay out (the working set the campaign holds
// against memory), and the same file asking fio for total-latency percentiles. Pure functions
// of the text; reading the file is the caller's business.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lb::fio {

// The bytes of the files the job file's jobs use, as fio sizes them: a job with filename= uses
// those files (shared by its clones and by other jobs naming them; filesize=, else size= split
// over them), a job without one lays out nrfiles files per clone (filesize= times nrfiles, else
// size=; times numjobs). [global] sections apply to the jobs after them; kb_base=1000 and fio's
// "MiB"-style suffixes are honoured. nullopt when that cannot be known from the text: a job without
// size= or filesize= (fio then uses the existing file or device), a size in percent, a range,
// a variable, fill_device, or an include directive.
std::optional<std::uint64_t> jobFileWorkingSet(std::string_view text);

// The job file with a [global] section in front asking for total-latency percentiles
// (lat_percentiles=1). fio applies the global sections of a file in order, so the file's own
// settings still win. For fio --client, which sends the job file to its servers and does not pass
// command-line options on; a local fio takes --lat_percentiles=1 before the job file instead.
std::string withTotalLatencyPercentiles(std::string_view text);

} // namespace lb::fio
