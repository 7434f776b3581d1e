// fio's presets: the jobs every campaign can name, as fio options (command line or job file).
#include "probes/fio_presets.h"

#include "engine/base/size.h"
#include "engine/measure/series.h"
#include "probes/data_sample.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

namespace lb::fio {

namespace {

// The synchronous-write presets measure what a database or a virtual machine's disk asks of the
// storage: every write acknowledged only once it is on stable storage (on ZFS: through the
// intent log, on its log device where it has one). fsync- and fdatasync- call fsync(2) or
// fdatasync(2) after each write (fio's sync latency is stored as fio.<job>.sync.lat_*);
// osync- opens the file O_SYNC (fio's sync=1), so each write returns when it is stable. vm-mix
// is a virtual machine's disk: random 4-64 KiB blocks, 70 % writes, queue depth 4, O_SYNC.
constexpr std::array<Preset, 12> presets{{
    {"seq-read-1m", "read", "1M", 8, nullptr},
    {"seq-write-1m", "write", "1M", 8, nullptr},
    {"rand-read-4k-qd1", "randread", "4k", 1, nullptr},
    {"rand-read-4k-qd32", "randread", "4k", 32, nullptr},
    {"rand-write-4k-qd32", "randwrite", "4k", 32, nullptr},
    {"randrw-70-30-4k", "randrw", "4k", 16, "--rwmixread=70"},
    {"fsync-write-4k", "write", "4k", 1, "--fsync=1"},
    {"fsync-randwrite-4k", "randwrite", "4k", 1, "--fsync=1"},
    {"fdatasync-randwrite-4k", "randwrite", "4k", 1, "--fdatasync=1"},
    {"osync-randwrite-4k", "randwrite", "4k", 1, "--sync=1"},
    {"vm-mix", "randrw", "4k", 4,
     "--rwmixread=30 --bssplit=4k/40:8k/20:16k/20:32k/10:64k/10 --sync=1"},
    {"qd-sweep", "randread", "4k", 0, nullptr},
}};

// The queue depths of a sweep, one after the other (stonewall) on the same file: each a job
// named qd-sweep-qd<depth> (engine/measure/series.h, which reads the depth back).
constexpr std::array<int, 7> sweepDepths{1, 2, 4, 8, 16, 32, 64};

// A preset's jobs: (name, iodepth).
std::vector<std::pair<std::string, int>> presetJobs(const Preset& p) {
    if (p.iodepth > 0)
        return {{p.name, p.iodepth}};
    std::vector<std::pair<std::string, int>> out;
    for (const int depth : sweepDepths)
        out.emplace_back(std::string(queueDepthSweepJob) + std::to_string(depth), depth);
    return out;
}

} // namespace

std::vector<std::string> presetJobNames(const Preset& p) {
    std::vector<std::string> out;
    for (const auto& [name, depth] : presetJobs(p))
        out.push_back(name);
    return out;
}

const Preset* findPreset(const std::string& name) {
    for (const auto& p : presets)
        if (name == p.name)
            return &p;
    return nullptr;
}

namespace {

// A preset's extra options without their dashes: "fsync=1", "rwmixread=30", ...
std::vector<std::string> extraOptions(const Preset& p) {
    std::vector<std::string> out;
    if (!p.extra)
        return out;
    const std::string_view text(p.extra);
    for (std::size_t at = 0; at < text.size();) {
        const auto end = std::min(text.find(' ', at), text.size());
        out.emplace_back(text.substr(at + 2, end - at - 2)); // "--name=value"
        at = end + 1;
    }
    return out;
}

} // namespace

// Whether a preset's blocks are of several sizes (bssplit): it has no one block size.
bool mixesBlockSizes(const Preset& p) {
    return p.extra && std::string_view(p.extra).find("--bssplit=") != std::string_view::npos;
}

namespace {

// A preset's file when the scenario gives no size. Through O_DIRECT the page cache is not on the
// path (and a cold cache keeps ZFS's ARC to metadata), so a small file measures the layout;
// buffered, the file must be at least twice the memory that could hold it, as bonnie++ sizes its
// own, or the reads come from memory. The target's memory is the host's, or the guest's for a
// layout inside one.
constexpr std::uint64_t presetDefaultBytes = 256 * MiB;

} // namespace

std::uint64_t presetFileBytes(const OptionValues& o, const WorkloadContext& ctx, bool direct) {
    if (o.has("size"))
        return o.bytes("size");
    if (direct)
        return presetDefaultBytes;
    return std::max(presetDefaultBytes, 2 * ctx.ramBytes);
}

namespace {

// The per-interval logs (bandwidth, IOPS, total latency) of a job, averaged over windows of
// log_avg_msec, named after the job (fio_log.h reads them back); none when it is 0.
void addLogOptions(JobOptions& j, const std::string& job, const OptionValues& o) {
    if (o.integer("log_avg_msec") <= 0)
        return;
    for (const char* kind : {"write_bw_log", "write_iops_log", "write_lat_log"})
        j.emplace_back(kind, job);
    j.emplace_back("log_avg_msec", std::to_string(o.integer("log_avg_msec")));
}

} // namespace

// The data a preset writes, written again after the run into a file of its own for its sample
// (dataSampleCommand): its block size and buffer settings, dataSampleBytes of it. Not the run's
// own file, whose never-written parts (a short random-write run touches it here and there) are
// zeros. fio 3.33's default buffers in 4 KiB blocks measured 1.32x with gzip -1 (one random
// buffer reused, scrambled a little per write), in 1 MiB blocks 1.09x.
std::vector<std::string> dataSampleWriter(const Preset& p, const OptionValues& o) {
    std::vector<std::string> args{"fio",
                                  "--output=/dev/null",
                                  "--name=lb-data-sample",
                                  std::string("--filename=") + dataSampleFile,
                                  "--rw=write",
                                  std::string("--bs=") + p.bs,
                                  "--size=" + std::to_string(dataSampleBytes)};
    if (o.has("buffer_compress_percentage")) {
        args.push_back("--buffer_compress_percentage=" +
                       std::to_string(o.integer("buffer_compress_percentage")));
        args.emplace_back("--refill_buffers");
    }
    return args;
}

// A preset's file is named, so its numjobs clones share it: the working set is `bytes`, not
// bytes x numjobs. `logs`: whether the jobs write per-interval logs (in the layout's directory
// only, where the probe collects them after the run).
PresetRun presetRun(const Preset& p, const OptionValues& o, std::uint64_t bytes, bool direct,
                    const std::string& filename, bool logs) {
    JobOptions j = {{"filename", filename},
                    {"rw", p.rw},
                    {"bs", p.bs},
                    {"iodepth", std::to_string(p.iodepth)},
                    {"ioengine", o.text("ioengine")},
                    {"direct", direct ? "1" : "0"},
                    // Total latency (submission + completion) decides; fio prints its
                    // percentiles only when asked.
                    {"lat_percentiles", "1"},
                    {"size", std::to_string(bytes)},
                    {"runtime", std::to_string(o.integer("runtime"))},
                    {"time_based", ""},
                    {"numjobs", std::to_string(o.integer("numjobs"))},
                    {"group_reporting", ""}};
    if (filename.empty())
        j.erase(j.begin());
    if (o.integer("ramp_time") > 0)
        j.emplace_back("ramp_time", std::to_string(o.integer("ramp_time")));
    if (o.has("rate_iops"))
        j.emplace_back("rate_iops", std::to_string(o.integer("rate_iops")));
    // Unset, fio 3.33 fills its buffers with random bytes once (refill_buffers off) and
    // scrambles them a little per write (scramble_buffers=1): data no compressor shrinks.
    if (o.has("buffer_compress_percentage")) {
        j.emplace_back("buffer_compress_percentage",
                       std::to_string(o.integer("buffer_compress_percentage")));
        j.emplace_back("refill_buffers", "");
    }
    for (const auto& extra : extraOptions(p)) {
        const auto eq = extra.find('=');
        j.emplace_back(extra.substr(0, eq), eq == std::string::npos ? "" : extra.substr(eq + 1));
    }
    PresetRun run;
    if (p.iodepth > 0) {
        if (logs)
            addLogOptions(j, p.name, o);
        run.jobs.emplace_back(p.name, std::move(j));
        return run;
    }
    // A sweep: each depth after the one before (stonewall), on the same file.
    j.erase(std::find_if(j.begin(), j.end(), [](const auto& kv) { return kv.first == "iodepth"; }));
    run.global = std::move(j);
    for (const auto& [name, depth] : presetJobs(p)) {
        JobOptions own = {{"iodepth", std::to_string(depth)}, {"stonewall", ""}};
        if (logs)
            addLogOptions(own, name, o);
        run.jobs.emplace_back(name, std::move(own));
    }
    return run;
}

// json+: the JSON with each latency's histogram, for the percentile curves (fio_histogram.h).
std::vector<std::string> presetArgs(const PresetRun& run) {
    std::vector<std::string> args{"--output-format=json+"};
    auto add = [&args](const JobOptions& j) {
        for (const auto& [k, v] : j)
            args.push_back("--" + k + (v.empty() ? "" : "=" + v));
    };
    add(run.global);
    for (const auto& [name, own] : run.jobs) {
        args.push_back("--name=" + name);
        add(own);
    }
    return args;
}

std::string presetJobFile(const PresetRun& run) {
    std::string out;
    auto add = [&out](const JobOptions& j) {
        for (const auto& [k, v] : j)
            out += k + (v.empty() ? "" : "=" + v) + "\n";
    };
    if (!run.global.empty()) {
        out += "[global]\n";
        add(run.global);
    }
    for (const auto& [name, own] : run.jobs) {
        out += (out.empty() ? "[" : "\n[") + name + "]\n";
        add(own);
    }
    return out;
}

std::vector<std::string> presetNames() {
    std::vector<std::string> out;
    for (const auto& p : presets)
        out.emplace_back(p.name);
    return out;
}

} // namespace lb::fio
