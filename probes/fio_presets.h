// fio's presets: the jobs every campaign can name ("seq-read-1m", "fsync-randwrite-4k", a
// queue-depth sweep, ...) as the options of one fio run, for its command line or a job file,
// and the writer of the sample of the data a preset writes (probes/data_sample.h).
#pragma once

#include "engine/measure/probe.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lb::fio {

struct Preset {
    const char* name;
    const char* rw;
    const char* bs;
    int iodepth;       // 0: a queue-depth sweep (sweepDepths), one job per depth
    const char* extra; // more fio options ("--name=value", separated by spaces), or nullptr
};

// A preset as fio job options (name, value; an empty value is a flag), for the command line
// (--name=value) or a job file (name=value).
using JobOptions = std::vector<std::pair<std::string, std::string>>;

// A preset's fio run: options every job shares (before the first --name, or [global]) and its
// jobs, each with its own options. A one-job preset has no global options: its job has them all.
struct PresetRun {
    JobOptions global;
    std::vector<std::pair<std::string, JobOptions>> jobs;
};

// The preset of this name; nullptr when there is none.
const Preset* findPreset(const std::string& name);
// Every preset's name, in the order the form offers them.
std::vector<std::string> presetNames();
// A preset's job names: its own, or one a queue depth of a sweep (qd-sweep-qd<depth>).
std::vector<std::string> presetJobNames(const Preset& p);
// Whether a preset's blocks are of several sizes (bssplit): it has no one block size.
bool mixesBlockSizes(const Preset& p);
// A preset's file: the scenario's size, else the default (fio_presets.cpp says why).
std::uint64_t presetFileBytes(const OptionValues& o, const WorkloadContext& ctx, bool direct);

// The file, in the layout's directory, that the sample of a preset's data is written to, and
// the fio command that writes it as the preset writes its data.
inline constexpr const char* dataSampleFile = "lb-fio-data-sample.dat";
std::vector<std::string> dataSampleWriter(const Preset& p, const OptionValues& o);

// A preset's fio run on `filename` (empty: fio --client's servers name none); `logs`: whether
// its jobs write per-interval logs.
PresetRun presetRun(const Preset& p, const OptionValues& o, std::uint64_t bytes, bool direct,
                    const std::string& filename, bool logs);
// The run as fio's command line (json+ output), and as a job file.
std::vector<std::string> presetArgs(const PresetRun& run);
std::string presetJobFile(const PresetRun& run);

} // namespace lb::fio
