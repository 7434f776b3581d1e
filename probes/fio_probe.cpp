// fio: the presets every campaign can name, or a user's own .fio job file used as-is.
#include "engine/size.h"
#include "probes/fio_json.h"
#include "probes/tools.h"

#include <array>

namespace lb {

namespace {

struct Preset {
    const char* name;
    const char* rw;
    const char* bs;
    int iodepth;
    const char* extra; // one more fio option, or nullptr
};

constexpr std::array<Preset, 7> presets{{
    {"seq-read-1m", "read", "1M", 8, nullptr},
    {"seq-write-1m", "write", "1M", 8, nullptr},
    {"rand-read-4k-qd1", "randread", "4k", 1, nullptr},
    {"rand-read-4k-qd32", "randread", "4k", 32, nullptr},
    {"rand-write-4k-qd32", "randwrite", "4k", 32, nullptr},
    {"randrw-70-30-4k", "randrw", "4k", 16, "--rwmixread=70"},
    {"fsync-write-4k", "write", "4k", 1, "--fsync=1"},
}};

const Preset* findPreset(const std::string& name) {
    for (const auto& p : presets)
        if (name == p.name)
            return &p;
    return nullptr;
}

std::vector<std::string> presetNames() {
    std::vector<std::string> out;
    for (const auto& p : presets)
        out.emplace_back(p.name);
    return out;
}

class FioProbe final : public Probe {
public:
    FioProbe() {
        options_ = {
            {"preset", "Preset", OptionType::Choice, "A built-in job", {}, {}, "", presetNames()},
            {"job_file", "Job file", OptionType::Path,
             "An existing .fio job file, run as-is in the layout's directory"},
            {"size",
             "File size",
             OptionType::Size,
             "Size of the test file (presets)",
             4096,
             {},
             "256M"},
            {"runtime", "Runtime (s)", OptionType::Int, "Seconds per run (presets)", 1, 86400,
             "10"},
            {"ramp_time", "Ramp (s)", OptionType::Int, "Seconds before measuring (presets)", 0,
             3600, "0"},
            {"ioengine",
             "I/O engine",
             OptionType::Choice,
             "fio ioengine (presets)",
             {},
             {},
             "libaio",
             {"libaio", "io_uring", "psync", "sync", "posixaio"}},
            {"direct",
             "O_DIRECT",
             OptionType::Bool,
             "Bypass the page cache where the file system allows it",
             {},
             {},
             "true"},
            {"numjobs", "Jobs", OptionType::Int, "Parallel jobs (presets)", 1, 256, "1"},
        };
    }
    std::string_view name() const override { return "fio"; }
    const std::vector<OptionSpec>& options() const override { return options_; }
    Command versionCommand() const override { return {"fio", {"--version"}}; }

    Expected<void> validate(const OptionValues& o, const std::string& where) const override {
        if (o.has("preset") == o.has("job_file"))
            return badInput(where + ": workloads.preset: give exactly one of preset or job_file");
        if (const Preset* p = findPreset(o.text("preset"))) {
            const auto bs = parseSize(p->bs, SizeConvention::Binary);
            if (bs && o.bytes("size") < *bs)
                return badInput(where + ": workloads.size: " + std::to_string(o.bytes("size")) +
                                " bytes is smaller than the " + p->bs + " blocks of preset " +
                                p->name + " (fio refuses it)");
        }
        return {};
    }

    Expected<MeasuredCommand> command(const OptionValues& o,
                                      const WorkloadContext& ctx) const override {
        MeasuredCommand mc;
        Command& c = mc.command;
        c.program = "fio";
        c.cwd = ctx.workdir;
        c.env = {{"LC_ALL", "C"}};
        if (o.has("job_file")) {
            c.args = {"--output-format=json", o.text("job_file")};
            mc.caveats.push_back("fio job file " + o.text("job_file") +
                                 " used as-is: its own direct= and size settings apply");
            return mc;
        }
        const Preset* p = findPreset(o.text("preset"));
        if (!p)
            return badInput("fio: unknown preset '" + o.text("preset") + "'");
        bool direct = o.flag("direct", true);
        if (direct && !ctx.directIo) {
            direct = false;
            mc.caveats.push_back("direct=0: the file system does not accept O_DIRECT, so the "
                                 "page cache takes part");
        }
        const std::string file = "lb-fio-" + std::string(p->name) + ".dat";
        c.args = {"--output-format=json",
                  "--name=" + std::string(p->name),
                  "--filename=" + file,
                  "--rw=" + std::string(p->rw),
                  "--bs=" + std::string(p->bs),
                  "--iodepth=" + std::to_string(p->iodepth),
                  "--ioengine=" + o.text("ioengine", "libaio"),
                  "--direct=" + std::string(direct ? "1" : "0"),
                  "--size=" + std::to_string(o.bytes("size")),
                  "--runtime=" + std::to_string(o.integer("runtime", 10)),
                  "--time_based",
                  "--numjobs=" + std::to_string(o.integer("numjobs", 1)),
                  "--group_reporting"};
        if (o.integer("ramp_time") > 0)
            c.args.push_back("--ramp_time=" + std::to_string(o.integer("ramp_time")));
        if (p->extra)
            c.args.emplace_back(p->extra);
        mc.cleanup.push_back({"rm", {"-f", "--", ctx.workdir + "/" + file}});
        return mc;
    }

    Expected<ParsedRun> parse(const ProcessResult& r, const std::vector<ProcessResult>&,
                              const OptionValues&) const override {
        return fio::parseJson(r.stdoutText, r.stderrText);
    }

private:
    std::vector<OptionSpec> options_;
};

} // namespace

std::unique_ptr<Probe> makeFioProbe() {
    return std::make_unique<FioProbe>();
}

} // namespace lb
