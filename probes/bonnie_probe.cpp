// bonnie++: one run per iteration, file size twice the RAM unless the scenario says otherwise
// (then a caveat is recorded, since the page cache then inflates the numbers).
#include "engine/base/size.h"
#include "probes/bonnie_csv.h"
#include "probes/registry.h"

namespace lb {

namespace {

// bonnie++'s -s and -r, in MiB: the file size (twice the RAM unless the workload gives one) and
// the RAM bonnie++ assumes, never over half the size (bonnie++ refuses that; a caveat says the
// cache can then serve reads). The RAM is the workload's, else the target's. Where nobody asked
// the target, a plan shows marked placeholders and a run refuses.
Expected<std::pair<std::string, std::string>>
bonnieSizes(const OptionValues& o, const WorkloadContext& ctx, MeasuredCommand& mc) {
    const std::uint64_t ramMiB = (o.has("ram") ? o.bytes("ram") : ctx.ramBytes) / MiB;
    if (ramMiB == 0 && !o.has("size")) {
        if (!ctx.dryRun)
            return badInput("bonnie: the target's memory is not known, so bonnie++'s file size "
                            "(twice it) cannot be set; give the workload a size");
        return std::pair<std::string, std::string>{"<2 × target memory, MiB>",
                                                   "<target memory, MiB>"};
    }
    const std::uint64_t sizeMiB = o.has("size") ? o.bytes("size") / MiB : 2 * ramMiB;
    std::uint64_t assumedRam = ramMiB;
    if (ramMiB == 0) {
        assumedRam = std::max<std::uint64_t>(1, sizeMiB / 2);
        mc.caveats.push_back("bonnie++ file size " + std::to_string(sizeMiB) +
                             " MiB against a memory nobody asked the target: reads and rewrites "
                             "can come from the cache");
    } else if (sizeMiB < 2 * ramMiB) {
        // bonnie++ refuses a size under twice the RAM it assumes: assume less, and say so.
        assumedRam = std::max<std::uint64_t>(1, sizeMiB / 2);
        mc.caveats.push_back("bonnie++ file size " + std::to_string(sizeMiB) +
                             " MiB is below twice the RAM (" + std::to_string(ramMiB) +
                             " MiB): reads and rewrites can come from the cache");
    }
    // bonnie++ writes and rereads files of -s MiB in all; the file-creation tests' files are
    // empty.
    mc.workingSetBytes = sizeMiB * MiB;
    return std::pair<std::string, std::string>{std::to_string(sizeMiB), std::to_string(assumedRam)};
}

class BonnieProbe final : public Probe {
public:
    BonnieProbe() {
        // size and ram have no default in the table: theirs is the target's RAM, known when the
        // run is made.
        options_ = {
            {.name = "size",
             .label = "File size",
             .type = OptionType::Size,
             .help = "Total file size; default twice the target's RAM as bonnie++ requires",
             .min = 2 * MiB},
            {.name = "ram",
             .label = "RAM",
             .type = OptionType::Size,
             .help = "RAM size bonnie++ assumes; default the target's real RAM",
             .min = MiB},
            {.name = "files",
             .label = "Files (x1024)",
             .type = OptionType::Int,
             .help = "File-creation tests: number of files in multiples of 1024 (-n); 0 skips them",
             .min = 0,
             .max = 1024,
             .defaultValue = "16"},
            {.name = "fast",
             .label = "Skip per-char tests",
             .type = OptionType::Bool,
             .help = "bonnie++ -f",
             .defaultValue = "false"},
        };
    }
    std::string_view name() const override { return "bonnie"; }
    std::vector<std::string> metricNames(const std::string&, const OptionValues&) const override {
        return bonnieMetricNames();
    }
    const std::vector<OptionSpec>& options() const override { return options_; }
    Command versionCommand() const override { return {"bonnie++", {"-V"}}; }
    std::string parseVersion(const ProcessResult& r) const override {
        // "bonnie++: invalid option -- 'V'" then usage ... "Version: 2.00a"
        const std::string all = r.stdoutText + r.stderrText;
        const auto pos = all.find("Version: ");
        if (pos == std::string::npos)
            return "bonnie++";
        const auto end = all.find_first_of("\r\n", pos);
        return "bonnie++ " + all.substr(pos + 9, end - pos - 9);
    }

    Expected<MeasuredCommand> command(const OptionValues& o,
                                      const WorkloadContext& ctx) const override {
        MeasuredCommand mc;
        LB_TRY(sizes, bonnieSizes(o, ctx, mc));
        Command& c = mc.command;
        c.program = "bonnie++";
        c.args = {"-d", ctx.workdir,
                  "-s", sizes.first,
                  "-r", sizes.second,
                  "-n", std::to_string(o.integer("files")),
                  "-m", ctx.layoutName.empty() ? "layoutbench" : ctx.layoutName,
                  "-q"};
        if (o.flag("fast"))
            c.args.push_back("-f");
        if (ctx.root) {
            c.args.push_back("-u");
            c.args.push_back("root");
        }
        c.env = {{"LC_ALL", "C"}};
        return mc;
    }

    Expected<ParsedRun> parse(const ProcessResult& r, const std::vector<ProcessResult>&,
                              const OptionValues&) const override {
        // With -q the CSV line is the last non-empty line of stdout.
        std::string_view out = r.stdoutText;
        while (!out.empty() && (out.back() == '\n' || out.back() == '\r'))
            out.remove_suffix(1);
        const auto nl = out.rfind('\n');
        const std::string_view line = nl == std::string_view::npos ? out : out.substr(nl + 1);
        auto run = bonnie::parseCsvLine(line);
        if (run && !run->failed)
            describeData(*run);
        return run;
    }

    // bonnie++ writes blocks of zeros, each chunk marked with its number in its first byte, and
    // removes its files itself, so they cannot be sampled after a run: the ratio is bonnie++
    // 2.00a's own file, measured once (the first 4 MiB of a 256 MiB Bonnie.* file while it ran,
    // gzip -1: 4194304 -> 21922 bytes; lz4: 19974).
    static constexpr double bonnieDataRatio = 4194304.0 / 21922.0;

    static void describeData(ParsedRun& run) {
        run.notes.push_back({MetricNote::Kind::Qualifies, "bonnie.*",
                             "bonnie++ writes blocks of zeros (measured: its file compresses "
                             "about 190x): on a compressing layout its block figures measure "
                             "the compressor, not the disks"});
        run.dataCompressRatio = bonnieDataRatio;
    }

private:
    std::vector<OptionSpec> options_;
};

} // namespace

std::unique_ptr<Probe> makeBonnieProbe() {
    return std::make_unique<BonnieProbe>();
}

} // namespace lb
