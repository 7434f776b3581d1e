// The two file tests from the seed report: write a large file of random bytes (randfile), and
// compress a file with xz on all processors (xz). Both measure what a user feels: the rate of
// one big write, and wall time.
#include "engine/base/size.h"
#include "probes/fio_json.h"
#include "probes/netload.h"
#include "probes/registry.h"
#include "probes/xz.h"

#include <charconv>
#include <filesystem>
#include <sstream>

namespace lb {

namespace {

std::vector<std::string_view> splitFields(std::string_view line, char sep) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        const auto pos = line.find(sep, start);
        out.push_back(line.substr(start, pos - start));
        if (pos == std::string_view::npos)
            break;
        start = pos + 1;
    }
    return out;
}

bool toU64(std::string_view s, std::uint64_t& out) {
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Writes `bytes` random bytes to `path` with dd (fsync'd, so the bytes are on the layout).
// `bytes` random bytes into `path`, synced. GNU dd counts bytes (iflag=count_bytes); FreeBSD's
// dd has no count_bytes (dd(1): iflag takes fullblock, direct, ...), so it counts blocks of the
// largest size that divides the count.
Command ddRandom(const std::string& path, std::uint64_t bytes, TargetOs os) {
    if (os == TargetOs::FreeBsd) {
        std::uint64_t block = MiB;
        while (block > 1 && bytes % block != 0)
            block /= 2;
        return {"dd",
                {"if=/dev/urandom", "of=" + path, "bs=" + std::to_string(block),
                 "count=" + std::to_string(bytes / block), "iflag=fullblock", "conv=fsync"},
                {{"LC_ALL", "C"}}};
    }
    return {"dd",
            {"if=/dev/urandom", "of=" + path, "bs=1M", "count=" + std::to_string(bytes),
             "iflag=count_bytes,fullblock", "conv=fsync"},
            {{"LC_ALL", "C"}}};
}

// The random-file write must measure the layout, not its data source: /dev/urandom gave 379 MB/s
// here (101 MB/s on a busy day) where a plain directory took 291 MB/s. fio's own generator
// refills every buffer with fresh random bytes (refill_buffers; buffer_compress_percentage=0
// leaves no compressible part) in the writing process, at memory speed (2.6-3.6 GB/s here), with
// no pipe or second process. The bytes are incompressible to what file systems compress with:
// gzip gains 0.5 % and zstd -19 --long 0.6 % on them, and ZFS keeps a block compressed only when
// it saves 12.5 % (xz's LZMA squeezes 6 % out, so the xz probe's input still comes from
// /dev/urandom). A first job on the null engine generates the same way and writes nothing: it
// measures the source's own rate in the same run, so the parser can tell a figure the source
// bounded.
constexpr const char* randfileJob = "randfile";
constexpr const char* sourceJob = "source";
constexpr std::uint64_t sourceSampleBytes = GiB;
// A throughput within this fraction of its source's rate says more about the source.
constexpr double sourceBoundFraction = 0.8;

std::string mbPerSecond(double bytesPerSecond) {
    return std::to_string(static_cast<long long>(bytesPerSecond / 1e6 + 0.5)) + " MB/s";
}

class RandfileProbe final : public Probe {
public:
    RandfileProbe() {
        options_ = {{.name = "size",
                     .label = "File size",
                     .type = OptionType::Size,
                     .help = "Bytes of random data to write (the seed's 100 G file test)",
                     .min = MiB,
                     .defaultValue = "1G"}};
    }
    std::string_view name() const override { return "randfile"; }
    std::vector<std::string> metricNames(const std::string&, const OptionValues&) const override {
        return {"randfile.throughput"};
    }
    const std::vector<OptionSpec>& options() const override { return options_; }
    Command versionCommand() const override { return {"fio", {"--version"}}; }

    Expected<MeasuredCommand> command(const OptionValues& o,
                                      const WorkloadContext& ctx) const override {
        MeasuredCommand mc;
        const std::string file = "lb-randfile.dat";
        const std::uint64_t bytes = o.bytes("size");
        // Options before the first --name apply to both jobs. Written through the page cache
        // and fsync'd at the end (counted in fio's runtime), as a user writes a big file;
        // fallocate=none, as a program writing a file does not reserve it first. The file
        // name is relative to the working directory: fio splits names at ':'.
        mc.command = {"fio",
                      {"--output-format=json", "--rw=write", "--bs=1M", "--refill_buffers",
                       "--buffer_compress_percentage=0", "--name=" + std::string(sourceJob),
                       "--ioengine=null", "--size=" + std::to_string(sourceSampleBytes),
                       "--name=" + std::string(randfileJob), "--stonewall", "--filename=" + file,
                       "--ioengine=sync", "--direct=0", "--fallocate=none", "--end_fsync=1",
                       "--size=" + std::to_string(bytes)},
                      {{"LC_ALL", "C"}}};
        mc.command.cwd = ctx.workdir;
        mc.cleanup.push_back({"rm", {"-f", "--", ctx.workdir + "/" + file}});
        mc.workingSetBytes = bytes;
        return mc;
    }

    Expected<ParsedRun> parse(const ProcessResult& r, const std::vector<ProcessResult>&,
                              const OptionValues&) const override {
        auto fio = fio::parseJson(r.stdoutText, r.stderrText);
        if (!fio)
            return fail(fio.error());
        ParsedRun run;
        run.workload = "randfile";
        run.toolVersion = fio->toolVersion;
        if (fio->failed) {
            run.failed = true;
            run.failureReason = fio->failureReason;
            return run;
        }
        const auto rate = [&](const char* job) -> std::optional<double> {
            const std::string name = "fio." + std::string(job) + ".write.bw";
            for (const auto& m : fio->metrics)
                if (m.name == name)
                    return m.value;
            return std::nullopt;
        };
        const auto written = rate(randfileJob);
        const auto source = rate(sourceJob);
        if (!written || !source)
            return badInput("randfile: fio reported no write rate for the " +
                            std::string(!written ? randfileJob : sourceJob) + " job");
        run.metrics.push_back({"randfile.throughput", *written, Unit::BytesPerSecond});
        // How the file was written (buffered) and whether it ran long enough, as fio's parser
        // says it of the job.
        const std::string jobNotes = "fio." + std::string(randfileJob) + ".";
        for (const auto& n : fio->notes)
            if (n.metrics.starts_with(jobNotes) && n.metrics.ends_with(".*"))
                run.notes.push_back({n.kind, "randfile.*", n.text});
        run.caveats.push_back("data from fio's random generator, " + mbPerSecond(*source) +
                              " here (refill_buffers, buffer_compress_percentage=0)");
        if (*written >= sourceBoundFraction * *source)
            run.notes.push_back({MetricNote::Kind::Excludes, "randfile.throughput",
                                 "bounded by the data source (source " + mbPerSecond(*source) +
                                     ", measured " + mbPerSecond(*written) + ")"});
        return run;
    }

private:
    std::vector<OptionSpec> options_;
};

class XzProbe final : public Probe {
public:
    XzProbe() {
        options_ = {
            {.name = "size",
             .label = "Input size",
             .type = OptionType::Size,
             .help = "Random input written before each run",
             .min = MiB,
             .defaultValue = "256M"},
            {.name = "input",
             .label = "Input file",
             .type = OptionType::Path,
             .help = "Compress a copy of this file instead of random bytes"},
            {.name = "threads",
             .label = "Threads",
             .type = OptionType::Int,
             .help = "xz -T; 0 means every processor",
             .min = 0,
             .max = 1024,
             .defaultValue = "0"},
            {.name = "level",
             .label = "Level",
             .type = OptionType::Int,
             .help = "Compression preset 0-9",
             .min = 0,
             .max = 9,
             .defaultValue = "6"},
        };
    }
    std::string_view name() const override { return "xz"; }
    std::vector<std::string> metricNames(const std::string&, const OptionValues&) const override {
        return {"xz.throughput", "xz.wall", "xz.cpu"};
    }
    const std::vector<OptionSpec>& options() const override { return options_; }
    Command versionCommand() const override { return {"xz", {"--version"}}; }

    Expected<MeasuredCommand> command(const OptionValues& o,
                                      const WorkloadContext& ctx) const override {
        MeasuredCommand mc;
        const std::string input = ctx.workdir + "/lb-xz-input";
        // The input is made before the timed run, so its source cannot bound xz.throughput;
        // what xz reads during the run is the copy on the layout.
        if (o.has("input")) {
            mc.prepare.push_back({"cp", {"--", o.text("input"), input}});
            std::error_code ec;
            if (const auto bytes = std::filesystem::file_size(o.text("input"), ec); !ec)
                mc.workingSetBytes = 2 * bytes; // where the workbench sees the file
        } else {
            mc.prepare.push_back(ddRandom(input, o.bytes("size"), ctx.os));
            // The input and its compressed copy, about as large: random bytes do not compress.
            mc.workingSetBytes = 2 * o.bytes("size");
        }
        mc.command = {"xz",
                      {"-T" + std::to_string(o.integer("threads")),
                       "-" + std::to_string(o.integer("level")), "-k", "-f", "--", input},
                      {{"LC_ALL", "C"}}};
        mc.inspect.push_back({"xz", {"--robot", "--list", "--", input + ".xz"}});
        mc.cleanup.push_back({"rm", {"-f", "--", input, input + ".xz"}});
        return mc;
    }

    Expected<ParsedRun> parse(const ProcessResult& r, const std::vector<ProcessResult>& inspected,
                              const OptionValues& o) const override {
        if (inspected.empty())
            return badInput("xz: no size listing after the run");
        auto totals = parseXzRobotList(inspected.front().stdoutText);
        if (!totals)
            return fail(totals.error());
        if (r.wallSeconds <= 0)
            return badInput("xz: no wall time measured");
        ParsedRun run;
        run.workload = "xz";
        run.metrics = {
            {"xz.wall", r.wallSeconds, Unit::Seconds},
            {"xz.cpu", r.cpuUserSeconds + r.cpuSystemSeconds, Unit::Seconds},
            {"xz.throughput", static_cast<double>(totals->uncompressedBytes) / r.wallSeconds,
             Unit::BytesPerSecond},
        };
        // What the run did, compared before its figures are (engine/measure/analysis.h): another
        // preset or thread count is other work; another input size only more of it.
        run.notes.push_back(
            {MetricNote::Kind::Method, "xz.*", "level=" + std::to_string(o.integer("level"))});
        const auto threads = o.integer("threads");
        run.notes.push_back({MetricNote::Kind::Method, "xz.*",
                             "threads=" + (threads == 0 ? std::string("every processor")
                                                        : std::to_string(threads))});
        run.notes.push_back({MetricNote::Kind::Method, "xz.*",
                             "size=" + formatBytes(totals->uncompressedBytes, true)});
        return run;
    }

private:
    std::vector<OptionSpec> options_;
};

} // namespace

Expected<XzTotals> parseXzRobotList(std::string_view text) {
    std::istringstream lines{std::string(text)};
    std::string line;
    while (std::getline(lines, line)) {
        const auto f = splitFields(line, '\t');
        if (f.empty() || f[0] != "totals")
            continue;
        XzTotals t;
        if (f.size() < 5 || !toU64(f[3], t.compressedBytes) || !toU64(f[4], t.uncompressedBytes))
            return badInput("xz --robot --list: malformed totals line '" + line + "'");
        return t;
    }
    return badInput("xz --robot --list: no totals line");
}

std::unique_ptr<Probe> makeXzProbe() {
    return std::make_unique<XzProbe>();
}
std::unique_ptr<Probe> makeRandfileProbe() {
    return std::make_unique<RandfileProbe>();
}

} // namespace lb
