// fio: the presets every campaign can name, or a user's own .fio job file used as-is; in the
// layout's directory, on the layout's export through the kernel iSCSI or NFS client
// (target = "iscsi" | "nfs"), and on several client hosts at once through fio's client/server
// mode (the workload's clients).
#include "engine/base/input.h"
#include "engine/base/size.h"
#include "engine/measure/series.h"
#include "probes/data_sample.h"
#include "probes/fio_clients.h"
#include "probes/fio_jobfile.h"
#include "probes/fio_json.h"
#include "probes/fio_log.h"
#include "probes/fio_presets.h"
#include "probes/kernel_clients.h"
#include "probes/registry.h"

#include <algorithm>
#include <array>
#include <utility>

namespace lb {

namespace {

using fio::dataSampleFile;
using fio::dataSampleWriter;
using fio::findPreset;
using fio::mixesBlockSizes;
using fio::Preset;
using fio::presetArgs;
using fio::presetFileBytes;
using fio::presetJobFile;
using fio::presetJobNames;
using fio::presetNames;
using fio::presetRun;

// A job file's total-latency percentiles, asked for on the command line: fio parses its options
// before the job file, as a [global] section that every job of the file copies (tried with fio
// 3.33: "lat_percentiles" appears in the JSON's "global options" and each job prints lat_ns
// percentiles). fio --client does not pass it on to its servers; see onClients.
std::vector<std::string> jobFileArgs(const OptionValues& o) {
    return {"--output-format=json", "--lat_percentiles=1", o.text("job_file")};
}

// The job file as the workbench reads it, for its sizes and for fio --client; nullopt when it
// cannot be read here (fio reads it itself where it runs).
std::optional<std::string> readJobFile(const std::string& path) {
    auto text = readInput(path, documentLimit());
    if (!text)
        return std::nullopt;
    return std::move(*text);
}

// The blocks the run moves, for the note on what a ZFS record makes of them: a preset's one size
// for all its metrics; a job file's by job and direction (fio.<job>.<direction>.*, iscsi.* or
// nfs.* on an export, <job>@<client> on clients), or one for all of them when every job moves
// blocks of one size. Nothing for a job file the workbench cannot read.
std::vector<IoBlockSize> blockSizesOf(const Preset* p, const std::optional<std::string>& jobText,
                                      const OptionValues& o, bool clients) {
    if (p) {
        if (mixesBlockSizes(*p))
            return {};
        const auto bs = parseSize(p->bs, SizeConvention::Binary);
        return bs ? std::vector<IoBlockSize>{{"*", "", *bs}} : std::vector<IoBlockSize>{};
    }
    const auto jobs = jobText ? fio::jobFileBlockSizes(*jobText) : std::nullopt;
    if (!jobs || jobs->empty())
        return {};
    const bool alike = std::all_of(jobs->begin(), jobs->end(),
                                   [&](const auto& j) { return j.bytes == jobs->front().bytes; });
    if (alike)
        return {{"*", "", jobs->front().bytes}};
    const std::string family = o.has("target") ? o.text("target") : "fio";
    std::vector<IoBlockSize> out;
    for (const auto& j : *jobs)
        out.push_back({family + "." + j.job + (clients ? "@*." : ".") + j.direction + ".*",
                       "job " + j.job + ", " + j.direction + "s", j.bytes});
    return out;
}

std::vector<fio::ClientEndpoint> endpointsOf(const WorkloadContext& ctx) {
    std::vector<fio::ClientEndpoint> out;
    for (const auto& c : ctx.clients)
        out.push_back({c.address, c.fioPort});
    return out;
}

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
    for (auto pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
        s.replace(pos, from.size(), to);
}

// fio's options, in the order a form shows them: the one table argv, the scenario's checks and
// the GUI's form all come from.
const std::vector<OptionSpec> fioOptions{
    {.name = "preset",
     .label = "Preset",
     .type = OptionType::Choice,
     .help = "A built-in job",
     .choices = presetNames()},
    {.name = "job_file",
     .label = "Job file",
     .type = OptionType::Path,
     .help = "An existing .fio job file, run as-is in the layout's directory"},
    {.name = "size",
     .label = "File size",
     .type = OptionType::Size,
     .help = "Size of the test file (presets); default 256M through O_DIRECT, else twice "
             "the target's memory, so reads cannot come from the page cache",
     .min = 4096},
    {.name = "runtime",
     .label = "Runtime (s)",
     .type = OptionType::Int,
     .help = "Seconds per run (presets; qd-sweep: per queue depth, 7 of them)",
     .min = 1,
     .max = 86400,
     .defaultValue = "10"},
    {.name = "ramp_time",
     .label = "Ramp (s)",
     .type = OptionType::Int,
     .help = "Seconds before measuring (presets)",
     .min = 0,
     .max = 3600,
     .defaultValue = "0"},
    {.name = "log_avg_msec",
     .label = "Log interval (ms)",
     .type = OptionType::Int,
     .help = "Bandwidth, IOPS and latency over time, averaged per interval of this many "
             "milliseconds and stored with the run (presets in the layout's directory); "
             "0: none",
     .min = 0,
     .max = 60000,
     .defaultValue = "500"},
    {.name = "ioengine",
     .label = "I/O engine",
     .type = OptionType::Choice,
     .help = "fio ioengine (presets)",
     .defaultValue = "libaio",
     .choices = {"libaio", "io_uring", "psync", "sync", "posixaio"}},
    {.name = "direct",
     .label = "O_DIRECT",
     .type = OptionType::Bool,
     .help = "Bypass the page cache where the file system allows it",
     .defaultValue = "true"},
    {.name = "numjobs",
     .label = "Jobs",
     .type = OptionType::Int,
     .help = "Parallel jobs (presets)",
     .min = 1,
     .max = 256,
     .defaultValue = "1"},
    {.name = "rate_iops",
     .label = "Rate (IOPS)",
     .type = OptionType::Int,
     .help = "Cap each job at this many I/Os per second, for latency at a fixed load "
             "(presets)",
     .min = 1,
     .max = 100000000},
    {.name = "buffer_compress_percentage",
     .label = "Compressible (%)",
     .type = OptionType::Int,
     .help = "Write data that compresses by this much (fio's buffer_compress_percentage, "
             "with refill_buffers; presets); unset: random bytes, which do not compress",
     .min = 0,
     .max = 100},
    {.name = "target",
     .label = "Export",
     .type = OptionType::Choice,
     .help = "Run on the layout's export through the kernel client: iscsi (fio on the "
             "LUN's block device; job files name it ${LB_DEVICE}) or nfs (fio in the "
             "mounted export)",
     .choices = {"iscsi", "nfs"}},
    {.name = "nfs_version",
     .label = "NFS version",
     .type = OptionType::Choice,
     .help = "mount -o vers= (target = nfs)",
     .defaultValue = "3",
     .choices = {"3", "4", "4.1", "4.2"}},
    {.name = "rsize",
     .label = "NFS rsize",
     .type = OptionType::Size,
     .help = "Read size (target = nfs)",
     .min = 4096,
     .max = 1 << 20,
     .defaultValue = "1M"},
    {.name = "wsize",
     .label = "NFS wsize",
     .type = OptionType::Size,
     .help = "Write size (target = nfs)",
     .min = 4096,
     .max = 1 << 20,
     .defaultValue = "1M"},
    {.name = "mount_options",
     .label = "Mount options",
     .type = OptionType::String,
     .help = "More NFS mount options, e.g. nconnect=4,hard (target = nfs)"},
    {.name = "net_timeout",
     .label = "Network timeout (s)",
     .type = OptionType::Int,
     .help = "Bound on each discovery, login, logout, mount and unmount",
     .min = 1,
     .max = 3600,
     .defaultValue = "30"},
};

class FioProbe final : public Probe {
public:
    std::string_view name() const override { return "fio"; }
    const std::vector<OptionSpec>& options() const override { return fioOptions; }
    Command versionCommand() const override { return {"fio", {"--version"}}; }

    Expected<void> validate(const OptionValues& o, const std::string& where) const override {
        if (o.has("preset") == o.has("job_file"))
            return badInput(where + ": workloads.preset: give exactly one of preset or job_file");
        for (const char* nfsOnly : {"nfs_version", "rsize", "wsize", "mount_options"})
            if (o.given(nfsOnly) && o.text("target") != "nfs")
                return badInput(where + ": workloads." + nfsOnly +
                                ": only a workload with target = \"nfs\" mounts NFS");
        if (o.given("buffer_compress_percentage") && !o.has("preset"))
            return badInput(where + ": workloads.buffer_compress_percentage: a job file says "
                                    "what data it writes");
        if (o.given("rate_iops") && !o.has("preset"))
            return badInput(where + ": workloads.rate_iops: a job file sets its own rate");
        if (o.given("log_avg_msec") && (!o.has("preset") || o.has("target")))
            return badInput(where + ": workloads.log_avg_msec: only a preset in the layout's "
                                    "directory writes per-interval logs");
        if (o.given("net_timeout") && !o.has("target"))
            return badInput(where + ": workloads.net_timeout: only a workload with a target "
                                    "logs in or mounts");
        if (const Preset* p = findPreset(o.text("preset"))) {
            const auto bs = parseSize(p->bs, SizeConvention::Binary);
            if (bs && o.has("size") && o.bytes("size") < *bs)
                return badInput(where + ": workloads.size: " + std::to_string(o.bytes("size")) +
                                " bytes is smaller than the " + p->bs + " blocks of preset " +
                                p->name + " (fio refuses it)");
        }
        return {};
    }

    bool drivesClients() const override { return true; }

    std::vector<std::string> metricNames(const std::string&, const OptionValues& o) const override {
        const Preset* p = findPreset(o.text("preset"));
        if (!p)
            return {}; // a job file's jobs are known when fio reports them
        const std::string rw = p->rw;
        std::vector<std::string> dirs;
        if (rw.find("read") != std::string::npos || rw == "randrw")
            dirs.push_back("read");
        if (rw.find("write") != std::string::npos || rw == "randrw")
            dirs.push_back("write");
        const std::string target = o.text("target");
        std::vector<std::string> out;
        for (const auto& job : presetJobNames(*p)) {
            auto names = jobMetricNames(target.empty() ? "fio" : target, job, dirs);
            out.insert(out.end(), names.begin(), names.end());
        }
        return out;
    }

    Expected<MeasuredCommand> command(const OptionValues& o,
                                      const WorkloadContext& ctx) const override {
        if (!ctx.clients.empty())
            return onClients(o, ctx);
        if (o.has("target"))
            return onExport(o, ctx);
        MeasuredCommand mc;
        Command& c = mc.command;
        c.program = "fio";
        c.cwd = ctx.workdir;
        c.env = {{"LC_ALL", "C"}};
        if (o.has("job_file")) {
            const auto text = readJobFile(o.text("job_file"));
            mc.workingSetBytes = text ? fio::jobFileWorkingSet(*text) : std::nullopt;
            mc.blockSizes = blockSizesOf(nullptr, text, o, false);
            c.args = jobFileArgs(o);
            mc.caveats.push_back("fio job file " + o.text("job_file") +
                                 " used as-is: its own direct= and size settings apply");
            return mc;
        }
        const Preset* p = findPreset(o.text("preset"));
        if (!p)
            return badInput("fio: unknown preset '" + o.text("preset") + "'");
        // The campaign sets directIo alike on every layout it compares; fio's JSON then says
        // direct=0, and the parser's Method note ("buffered I/O") tells the comparison.
        bool direct = o.flag("direct");
        if (direct && !ctx.directIo) {
            direct = false;
            mc.caveats.push_back("direct=0: the file system does not accept O_DIRECT, so the "
                                 "page cache takes part");
        }
        const std::string file = "lb-fio-" + std::string(p->name) + ".dat";
        const std::uint64_t bytes = presetFileBytes(o, ctx, direct);
        mc.workingSetBytes = bytes;
        mc.blockSizes = blockSizesOf(p, std::nullopt, o, false);
        const bool logs = o.integer("log_avg_msec") > 0;
        c.args = presetArgs(presetRun(*p, o, bytes, direct, file, logs));
        mc.cleanup.push_back({"rm", {"-f", "--", ctx.workdir + "/" + file}});
        if (logs) {
            // Read back after the run, wherever it ran, then removed with the file.
            Command print = fio::logsCommand(presetJobNames(*p));
            print.cwd = ctx.workdir;
            mc.inspect.push_back(std::move(print));
            Command remove = fio::removeLogsCommand(presetJobNames(*p));
            remove.cwd = ctx.workdir;
            mc.cleanup.push_back(std::move(remove));
        }
        // Last of the inspected commands (parse reads it there): how much the data compresses.
        Command sample = dataSampleCommand(dataSampleFile, dataSampleWriter(*p, o));
        sample.cwd = ctx.workdir;
        mc.inspect.push_back(std::move(sample));
        return mc;
    }

    bool supportsSteadyState() const override { return true; }

    // SNIA PTS's workload-independent preconditioning: the whole capacity written twice with
    // sequential 128 KiB writes, so the drive's flash translation layer has seen every block
    // before the workload's own rounds. In the layout's directory: one file of `capacityBytes`
    // (for a file system, leave it room), written with the workload's engine and direct setting
    // and random bytes, then removed.
    Expected<MeasuredCommand> preconditionCommand(const OptionValues& o, const WorkloadContext& ctx,
                                                  std::uint64_t capacityBytes) const override {
        if (!ctx.clients.empty() || o.has("target"))
            return badInput("fio: preconditioning runs in the layout's directory, not on an "
                            "export or from clients");
        if (capacityBytes < preconditionBlock)
            return badInput("fio: preconditioning needs at least 128 KiB to write, got " +
                            std::to_string(capacityBytes) + " bytes");
        MeasuredCommand mc;
        const std::string file = "lb-fio-precondition.dat";
        const bool direct = o.flag("direct") && ctx.directIo;
        mc.command = {
            "fio",
            {"--output-format=json", "--name=precondition", "--filename=" + file, "--rw=write",
             "--bs=128k", "--iodepth=32", "--ioengine=" + o.text("ioengine"),
             std::string("--direct=") + (direct ? "1" : "0"),
             "--size=" + std::to_string(capacityBytes - capacityBytes % preconditionBlock),
             "--loops=2", "--refill_buffers", "--buffer_compress_percentage=0", "--end_fsync=1"},
            {{"LC_ALL", "C"}}};
        mc.command.cwd = ctx.workdir;
        mc.cleanup.push_back({"rm", {"-f", "--", ctx.workdir + "/" + file}});
        mc.workingSetBytes = capacityBytes - capacityBytes % preconditionBlock;
        mc.steadyStateMetrics = "fio.*.bw";
        return mc;
    }

    // One steady-state round: the preset as measured, for `seconds` without a ramp, keeping its
    // file for the next round. A job file sets its own runtime, so rounds need a preset.
    Expected<MeasuredCommand> steadyStateRound(const OptionValues& o, const WorkloadContext& ctx,
                                               int seconds) const override {
        if (!o.has("preset"))
            return badInput("fio: steady-state rounds need a preset (a job file sets its own "
                            "runtime)");
        if (!ctx.clients.empty() || o.has("target"))
            return badInput("fio: steady-state rounds run in the layout's directory, not on an "
                            "export or from clients");
        if (seconds < 1)
            return badInput("fio: a steady-state round lasts at least 1 s");
        OptionValues round = o;
        round.set("runtime", std::int64_t{seconds});
        round.set("ramp_time", std::int64_t{0});
        round.set("log_avg_msec", std::int64_t{0}); // a round is judged by its summary alone
        auto mc = command(round, ctx);
        if (!mc)
            return mc;
        mc->cleanup.clear();
        mc->inspect.clear(); // a round is judged by its summary: no logs, no sample of its data
        // SNIA's IOPS test tracks IOPS, its throughput test the bandwidth of 128 KiB and larger
        // transfers; read and write added up for a mixed pattern.
        const Preset* p = findPreset(o.text("preset"));
        const bool large = p != nullptr && std::string_view(p->bs).ends_with("M");
        mc->steadyStateMetrics = large ? "fio.*.bw" : "fio.*.iops";
        return mc;
    }

    // The inspected output of a preset in the layout's directory: the per-interval logs
    // (logsCommand) when it writes them, then the sample of its file (dataSampleCommand).
    Expected<ParsedRun> parse(const ProcessResult& r, const std::vector<ProcessResult>& inspected,
                              const OptionValues& o) const override {
        std::vector<ProcessResult> logs = inspected;
        std::optional<double> ratio;
        const std::size_t expected = o.integer("log_avg_msec") > 0 ? 2 : 1;
        if (o.has("preset") && !o.has("target") && logs.size() == expected) {
            if (logs.back().ok())
                ratio = dataSampleRatio(logs.back().stdoutText);
            logs.pop_back();
        }
        auto run = withLogs(named(fio::parseJson(r.stdoutText, r.stderrText), o, {}), logs, o);
        if (run && ratio)
            run->dataCompressRatio = ratio;
        return run;
    }

    Expected<ParsedRun> parseFor(const ProcessResult& r,
                                 const std::vector<ProcessResult>& inspected, const OptionValues& o,
                                 const WorkloadContext& ctx) const override {
        if (ctx.clients.empty())
            return parse(r, inspected, o);
        return named(fio::parseClients(r.stdoutText, r.stderrText, endpointsOf(ctx)), o,
                     ctx.clients);
    }

private:
    // Logs that cannot be read cost the run its series, not its metrics: a caveat says so.
    static Expected<ParsedRun> withLogs(Expected<ParsedRun> run,
                                        const std::vector<ProcessResult>& inspected,
                                        const OptionValues& o) {
        if (!run || inspected.empty() || run->failed)
            return run;
        auto series = fio::parseLogs(inspected.front().stdoutText,
                                     static_cast<int>(o.integer("log_avg_msec")));
        if (series) {
            // After the percentile curves the JSON gave (fio_json.h), in name order.
            run->series.insert(run->series.end(), series->begin(), series->end());
            std::sort(run->series.begin(), run->series.end(),
                      [](const Series& a, const Series& b) { return a.name < b.name; });
        } else {
            run->caveats.push_back("fio's per-interval logs are unreadable: " +
                                   series.error().message);
        }
        return run;
    }

    static int netTimeout(const OptionValues& o) {
        return static_cast<int>(o.integer("net_timeout"));
    }

    static kernel::NfsMount mountOptions(const OptionValues& o) {
        kernel::NfsMount m;
        m.version = o.text("nfs_version");
        m.rsizeBytes = o.bytes("rsize");
        m.wsizeBytes = o.bytes("wsize");
        m.extraOptions = o.text("mount_options");
        m.timeoutSeconds = netTimeout(o);
        return m;
    }

    static std::string jobName(const OptionValues& o) {
        return o.has("preset") ? o.text("preset") : stemOf(o.text("job_file"));
    }

    static std::string stemOf(const std::string& path) {
        auto name = path.substr(path.find_last_of('/') + 1);
        return name.substr(0, name.rfind('.'));
    }

    // fio on the export from where the layout is (or its one client): log in or mount first,
    // log out or unmount after, whatever happened.
    Expected<MeasuredCommand> onExport(const OptionValues& o, const WorkloadContext& ctx) const {
        MeasuredCommand mc;
        Command fio;
        fio.program = "fio";
        fio.env = {{"LC_ALL", "C"}};
        const Preset* p = findPreset(o.text("preset"));
        if (o.has("preset") && !p)
            return badInput("fio: unknown preset '" + o.text("preset") + "'");
        const bool direct = o.flag("direct");
        const std::uint64_t bytes = presetFileBytes(o, ctx, direct);
        const auto text = p ? std::nullopt : readJobFile(o.text("job_file"));
        mc.workingSetBytes = p      ? std::optional<std::uint64_t>{bytes}
                             : text ? fio::jobFileWorkingSet(*text)
                                    : std::nullopt;
        mc.blockSizes = blockSizesOf(p, text, o, false);
        if (o.text("target") == "iscsi") {
            auto attach = kernel::iscsiLogin(ctx.exported, netTimeout(o));
            if (!attach)
                return fail(attach.error());
            fio.args = p ? presetArgs(presetRun(*p, o, bytes, direct, "", false)) : jobFileArgs(o);
            mc.command = kernel::onIscsiDevice(ctx.exported, fio, !p);
            mc.prepare = std::move(attach->prepare);
            mc.cleanup = std::move(attach->cleanup);
            mc.caveats.push_back("iscsi: fio on the LUN's block device through the kernel "
                                 "initiator (open-iscsi), portal " +
                                 ctx.exported.iscsiPortal);
            return mc;
        }
        const std::string mount = "/mnt/layoutbench/" + jobName(o);
        auto attach = kernel::nfsMount(ctx.exported, mountOptions(o), mount);
        if (!attach)
            return fail(attach.error());
        mc.prepare = std::move(attach->prepare);
        fio.cwd = mount;
        const std::string file = p ? "lb-fio-" + std::string(p->name) + ".dat" : "";
        fio.args = p ? presetArgs(presetRun(*p, o, bytes, direct, file, false)) : jobFileArgs(o);
        mc.command = std::move(fio);
        if (p)
            mc.cleanup.push_back({"rm", {"-f", "--", mount + "/" + file}});
        mc.cleanup.insert(mc.cleanup.end(), attach->cleanup.begin(), attach->cleanup.end());
        mc.caveats.push_back("nfs: fio in " + ctx.exported.nfsServer + ":" + ctx.exported.nfsPath +
                             " mounted with the kernel client (vers=" + o.text("nfs_version") +
                             ")");
        return mc;
    }

    // The same job from every client at once: fio --server on each (in its own directory, or
    // in the export mounted there), one fio --client run from the workbench.
    // What every client of onClients runs: a preset or a job file's text (none where the
    // workbench cannot read it), each client's file size, the I/O path.
    struct ClientJobs {
        const Preset* preset = nullptr;
        std::optional<std::string> userJob;
        std::uint64_t bytes = 0;
        bool direct = true;
        bool nfs = false;
    };

    // The client's copy of the job (written to `job` in the client's directory, `cwd` where it
    // runs), and the command that removes it and what it wrote.
    static std::pair<std::string, Command> clientJob(const ClientJobs& jobs, const OptionValues& o,
                                                     const WorkloadClient& c,
                                                     const std::string& cwd,
                                                     const std::string& job) {
        if (!jobs.preset)
            return {fio::withTotalLatencyPercentiles(*jobs.userJob), {"rm", {"-f", "--", job}}};
        // Clients of one export write files of their own.
        const std::string file = "lb-fio-" + std::string(jobs.preset->name) + "-" + c.name + ".dat";
        return {presetJobFile(presetRun(*jobs.preset, o, jobs.bytes, jobs.direct, file, false)),
                {"rm", {"-f", "--", cwd + "/" + file, job}}};
    }

    // One client: its directory, its NFS mount, its copy of the job, its fio server; what undoes
    // them goes to `after` (in that order), the job's path to `jobFiles`.
    Expected<void> prepareClient(const WorkloadClient& c, const OptionValues& o,
                                 const WorkloadContext& ctx, const ClientJobs& jobs,
                                 MeasuredCommand& mc, std::vector<std::string>& jobFiles,
                                 std::vector<ClientCommand>& after) const {
        const std::string dir = c.workdir + "/" + c.name;
        auto on = [&](Command cmd) {
            if (!cmd.timeout)
                cmd.timeout = std::chrono::seconds(netTimeout(o));
            return ClientCommand{c.name, std::move(cmd)};
        };
        mc.clientPrepare.push_back(on({"mkdir", {"-p", "--", dir}}));
        std::string cwd = dir;
        std::vector<Command> unmount;
        if (jobs.nfs) {
            cwd = dir + "/nfs";
            LB_TRY(attach, kernel::nfsMount(ctx.exported, mountOptions(o), cwd));
            for (auto& cmd : attach.prepare)
                mc.clientPrepare.push_back(on(std::move(cmd)));
            unmount = std::move(attach.cleanup);
        }
        std::vector<Command> remove;
        if (jobs.preset || jobs.userJob) {
            const std::string job = dir + "/" + jobName(o) + ".fio";
            auto [text, removal] = clientJob(jobs, o, c, cwd, job);
            remove.push_back(std::move(removal));
            mc.clientPrepare.push_back(
                on({"sh", {"-c", "printf '%s' \"$2\" > \"$1\"", "sh", job, std::move(text)}}));
            jobFiles.push_back(job);
        }
        const auto daemon = fio::serverDaemon({c.address, c.fioPort}, cwd, dir + "/fio.pid");
        mc.clientPrepare.push_back(on(daemon.start));
        after.push_back(on(daemon.stop));
        for (auto& cmd : remove)
            after.push_back(on(std::move(cmd)));
        for (auto& cmd : unmount)
            after.push_back(on(std::move(cmd)));
        after.push_back(on({"rmdir", {"--", dir}}));
        return {};
    }

    Expected<MeasuredCommand> onClients(const OptionValues& o, const WorkloadContext& ctx) const {
        MeasuredCommand mc;
        ClientJobs jobs;
        jobs.preset = findPreset(o.text("preset"));
        if (o.has("preset") && !jobs.preset)
            return badInput("fio: unknown preset '" + o.text("preset") + "'");
        if (o.text("target") == "iscsi")
            return badInput("fio: an iSCSI LUN from several clients at once is not supported");
        jobs.nfs = o.text("target") == "nfs";
        jobs.direct = o.flag("direct");
        // Each client's file; the clients' memory is not known here, the target's stands in.
        jobs.bytes = presetFileBytes(o, ctx, jobs.direct);
        // fio --client sends a job file to its servers but not the command line's options, so
        // each client gets its own copy asking for total-latency percentiles (--remote-config),
        // as a preset's job file does. A job file the workbench cannot read goes as it is.
        if (!jobs.preset)
            jobs.userJob = readJobFile(o.text("job_file"));
        std::vector<std::string> jobFiles;
        std::vector<ClientCommand> after;
        for (const auto& c : ctx.clients)
            LB_TRY_VOID(prepareClient(c, o, ctx, jobs, mc, jobFiles, after));
        LB_TRY(command, !jobFiles.empty()
                            ? fio::remoteConfigCommand(endpointsOf(ctx), jobFiles)
                            : fio::clientsCommand(endpointsOf(ctx), o.text("job_file")));
        mc.command = std::move(command);
        // Every client's files: on one export for target = nfs, each on its host otherwise.
        if (const auto perClient =
                jobs.preset ? std::optional<std::uint64_t>{jobs.bytes}
                            : (jobs.userJob ? fio::jobFileWorkingSet(*jobs.userJob) : std::nullopt))
            mc.workingSetBytes = *perClient * ctx.clients.size();
        if (!jobs.preset && !jobs.userJob)
            mc.caveats.push_back("fio job file " + o.text("job_file") +
                                 " cannot be read on the workbench: it goes to the clients as it "
                                 "is, without total-latency percentiles");
        mc.blockSizes = blockSizesOf(jobs.preset, jobs.userJob, o, true);
        mc.clientCleanup = std::move(after);
        mc.caveats.push_back("fio client/server mode: " + std::to_string(ctx.clients.size()) +
                             " client" + (ctx.clients.size() == 1 ? "" : "s") +
                             " at once; per-client metrics are named <job>@<client>" +
                             (jobs.nfs ? ", each on the NFS export mounted there" : ""));
        return mc;
    }

    // Metric names: fio.* for the layout's directory, iscsi.* / nfs.* on its export, and
    // @<client name> for each client instead of the address fio reports.
    static Expected<ParsedRun> named(Expected<ParsedRun> run, const OptionValues& o,
                                     const std::vector<WorkloadClient>& clients) {
        if (!run)
            return run;
        for (const auto& c : clients) {
            const bool shared = std::any_of(clients.begin(), clients.end(), [&](const auto& x) {
                return x.address == c.address && x.fioPort != c.fioPort;
            });
            const std::string label =
                "@" + c.address + (shared ? ":" + std::to_string(c.fioPort) : "") + ".";
            for (auto& m : run->metrics)
                replaceAll(m.name, label, "@" + c.name + ".");
            for (auto& caveat : run->caveats)
                replaceAll(caveat, label, "@" + c.name + ".");
            for (auto& note : run->notes)
                replaceAll(note.metrics, label, "@" + c.name + ".");
            replaceAll(run->failureReason, label, "@" + c.name + ".");
        }
        if (const std::string target = o.text("target"); !target.empty()) {
            const auto retarget = [&](std::string& name) {
                if (name.rfind("fio.", 0) == 0)
                    name = target + "." + name.substr(4);
            };
            for (auto& m : run->metrics)
                retarget(m.name);
            for (auto& caveat : run->caveats)
                retarget(caveat);
            for (auto& note : run->notes)
                retarget(note.metrics);
        }
        return run;
    }

    static constexpr std::uint64_t preconditionBlock = 128 * KiB;
};

} // namespace

std::unique_ptr<Probe> makeFioProbe() {
    return std::make_unique<FioProbe>();
}

} // namespace lb
