// The tool probes (probes/registry.h, probes/xz.h): each probe's options table, the argv every
// fio preset, job file, bonnie++, xz and randfile run builds, and their parsers, on fixed text, on
// golden bonnie++ captures and fio's, and on output captured here from the real dd (read by
// probes/dd.h), xz and fio. Also validateOptions (engine/measure/probe.h) on fio's table, and
// parseXzRobotList on malformed input.
#include "engine/base/size.h"
#include "engine/exec/runner.h"
#include "engine/measure/probe.h"
#include "probes/dd.h"
#include "probes/fio_json.h"
#include "probes/registry.h"
#include "probes/xz.h"
#include "tests/support/metric_note_print.h"
#include "tests/support/run_ok.h"

#include <algorithm>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using namespace lb;

namespace {

using test::runOk;

namespace fs = std::filesystem;

const ProbeRegistry& registry() {
    static const ProbeRegistry r = standardProbes();
    return r;
}

const Probe& probe(const std::string& name) {
    const Probe* p = registry().find(name);
    if (!p)
        throw std::runtime_error("no probe " + name);
    return *p;
}

// Validated options for `p` from raw values, with the table's defaults filled in.
OptionValues options(const Probe& p, const std::map<std::string, RawOption::Value>& values = {}) {
    std::map<std::string, RawOption> raw;
    int line = 1;
    for (const auto& [name, value] : values)
        raw[name] = RawOption{value, line++, 1};
    auto v = validateOptions(p.options(), raw, "test.toml");
    EXPECT_TRUE(v) << (v ? "" : v.error().message);
    return v ? *v : OptionValues{};
}

WorkloadContext context() {
    WorkloadContext ctx;
    ctx.workdir = "/mnt/lb-test/work";
    ctx.ramBytes = 8 * GiB;
    ctx.root = false;
    ctx.directIo = true;
    ctx.layoutName = "under-test";
    return ctx;
}

MeasuredCommand command(const Probe& p, const OptionValues& o, const WorkloadContext& ctx) {
    auto mc = p.command(o, ctx);
    EXPECT_TRUE(mc) << (mc ? "" : mc.error().message);
    return mc ? *mc : MeasuredCommand{};
}

bool contains(const std::vector<std::string>& args, const std::string& arg) {
    return std::find(args.begin(), args.end(), arg) != args.end();
}

// The argument right after `flag`, or nullopt.
std::optional<std::string> after(const std::vector<std::string>& args, const std::string& flag) {
    const auto it = std::find(args.begin(), args.end(), flag);
    if (it == args.end() || it + 1 == args.end())
        return std::nullopt;
    return *(it + 1);
}

// The value of "--key=value" in args, or nullopt.
std::optional<std::string> longOption(const std::vector<std::string>& args,
                                      const std::string& key) {
    const std::string prefix = "--" + key + "=";
    for (const auto& a : args)
        if (a.rfind(prefix, 0) == 0)
            return a.substr(prefix.size());
    return std::nullopt;
}

std::optional<Metric> metric(const ParsedRun& run, const std::string& name) {
    for (const auto& m : run.metrics)
        if (m.name == name)
            return m;
    return std::nullopt;
}

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << "cannot open " << path;
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// A fresh directory under the system's temporary directory, removed with what it holds.
class TempDir {
public:
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "lb-probes-XXXXXX").string();
        if (!mkdtemp(pattern.data()))
            ADD_FAILURE() << "mkdtemp failed for " << pattern;
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const fs::path& path() const { return path_; }
    std::string str() const { return path_.string(); }

private:
    fs::path path_;
};

// Whether the file system under `dir` accepts O_DIRECT (tmpfs does not).
bool acceptsDirectIo(const fs::path& dir) {
    const auto file = dir / "lb-odirect-check";
    const int fd = ::open(file.c_str(), O_CREAT | O_WRONLY | O_DIRECT, 0600);
    if (fd >= 0)
        ::close(fd);
    std::error_code ec;
    fs::remove(file, ec);
    return fd >= 0;
}

const char* const bonnieCsv = LAYOUTBENCH_TEST_DATA_DIR "/bonnie++/2.00a/s512-n16-files.csv";

} // namespace

// --- registry and options tables -----------------------------------------------------------------

TEST(StandardProbes, RegistersEveryProbeByName) {
    EXPECT_EQ(registry().names(),
              (std::vector<std::string>{"fio", "bonnie", "xz", "randfile", "netload"}));
    for (const auto& name : registry().names()) {
        ASSERT_NE(registry().find(name), nullptr) << name;
        EXPECT_EQ(registry().find(name)->name(), name);
    }
    EXPECT_EQ(registry().find("iozone"), nullptr);
}

TEST(ProbeOptions, EveryOptionHasAUniqueNameALabelAndHelp) {
    for (const auto& probeName : registry().names()) {
        const auto& table = probe(probeName).options();
        EXPECT_FALSE(table.empty()) << probeName;
        std::set<std::string> names;
        for (const auto& spec : table) {
            EXPECT_FALSE(spec.name.empty()) << probeName;
            EXPECT_FALSE(spec.label.empty()) << probeName << "." << spec.name;
            EXPECT_FALSE(spec.help.empty()) << probeName << "." << spec.name;
            EXPECT_TRUE(names.insert(spec.name).second) << probeName << "." << spec.name;
        }
    }
}

TEST(ProbeOptions, DefaultsValidateAgainstTheirOwnTable) {
    for (const auto& probeName : registry().names()) {
        const auto& table = probe(probeName).options();
        // Required options have no default: give each a value so the defaults are what is tested.
        std::map<std::string, RawOption> required;
        for (const auto& spec : table)
            if (spec.required)
                required[spec.name] = RawOption{std::string("iscsi://127.0.0.1/iqn.x/1"), 1, 1};
        const auto values = validateOptions(table, required, probeName + ".toml");
        ASSERT_TRUE(values) << probeName << ": " << values.error().message;
        for (const auto& spec : table)
            EXPECT_EQ(values->has(spec.name), spec.required || !spec.defaultValue.empty())
                << probeName << "." << spec.name;
    }
}

TEST(ProbeOptions, ChoicesAreListedAndRangesAreOrdered) {
    for (const auto& probeName : registry().names()) {
        for (const auto& spec : probe(probeName).options()) {
            if (spec.type == OptionType::Choice) {
                EXPECT_FALSE(spec.choices.empty()) << probeName << "." << spec.name;
            } else {
                EXPECT_TRUE(spec.choices.empty()) << probeName << "." << spec.name;
            }
            if (spec.min && spec.max) {
                EXPECT_LE(*spec.min, *spec.max) << probeName << "." << spec.name;
            }
        }
    }
}

TEST(ProbeOptions, ToolSizesAreBinary) {
    const auto fio = options(probe("fio"), {{"preset", "seq-read-1m"}, {"size", "64M"}});
    EXPECT_EQ(fio.bytes("size"), 67108864u);
    EXPECT_FALSE(options(probe("fio"), {{"preset", "seq-read-1m"}}).has("size"))
        << "the probe chooses the size with the target's memory in view";
    EXPECT_EQ(options(probe("randfile")).bytes("size"), 1073741824u); // "1G"
    EXPECT_EQ(options(probe("xz")).bytes("size"), 268435456u);
}

// --- validateOptions on fio's table
// ---------------------------------------------------------------

namespace {

Expected<OptionValues> validateOne(const std::string& name, RawOption::Value value) {
    std::map<std::string, RawOption> raw;
    raw[name] = RawOption{std::move(value), 7, 3};
    return validateOptions(probe("fio").options(), raw, "s.toml");
}

void expectRefused(const std::string& name, RawOption::Value value, const std::string& why) {
    const auto r = validateOne(name, std::move(value));
    ASSERT_FALSE(r) << name << " accepted";
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    const std::string prefix = "s.toml:7:3: " + name + ": ";
    EXPECT_EQ(r.error().message.substr(0, prefix.size()), prefix) << r.error().message;
    EXPECT_NE(r.error().message.find(why), std::string::npos) << r.error().message;
}

} // namespace

TEST(ValidateOptions, RefusesUnknownNamesWrongTypesAndValuesOutOfRange) {
    expectRefused("blocksize", std::int64_t{4}, "unknown option");
    expectRefused("runtime", std::string("ten"), "whole number");
    expectRefused("runtime", 1.5, "whole number");
    expectRefused("runtime", std::int64_t{0}, "minimum");
    expectRefused("runtime", std::int64_t{86401}, "maximum");
    expectRefused("size", std::int64_t{4095}, "minimum");
    expectRefused("size", std::string("12X"), "12X");
    expectRefused("direct", std::string("yes"), "true or false");
    expectRefused("ioengine", std::string("spdk"), "spdk");
    expectRefused("preset", std::string("seq-read-2m"), "seq-read-2m");
    expectRefused("job_file", std::string(""), "empty");
}

TEST(ValidateOptions, AcceptsValuesAtTheLimitsAndKeepsThem) {
    const auto r = validateOne("runtime", std::int64_t{86400});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->integer("runtime"), 86400);
    const auto size = validateOne("size", std::int64_t{4096});
    ASSERT_TRUE(size) << size.error().message;
    EXPECT_EQ(size->bytes("size"), 4096u);
    const auto direct = validateOne("direct", false);
    ASSERT_TRUE(direct) << direct.error().message;
    EXPECT_TRUE(direct->has("direct"));
    EXPECT_FALSE(direct->flag("direct")); // the table's default is true
    EXPECT_TRUE(direct->given("direct"));
}

// --- fio
// ------------------------------------------------------------------------------------------

namespace {

struct ExpectedPreset {
    std::string rw;
    std::string bs;
    int iodepth; // 0: the queue-depth sweep, one job per depth (fio_log_test.cpp)
    std::vector<std::string> extra; // more options
};

const std::map<std::string, ExpectedPreset> fioPresets = {
    {"seq-read-1m", {"read", "1M", 8, {}}},
    {"seq-write-1m", {"write", "1M", 8, {}}},
    {"rand-read-4k-qd1", {"randread", "4k", 1, {}}},
    {"rand-read-4k-qd32", {"randread", "4k", 32, {}}},
    {"rand-write-4k-qd32", {"randwrite", "4k", 32, {}}},
    {"randrw-70-30-4k", {"randrw", "4k", 16, {"--rwmixread=70"}}},
    {"fsync-write-4k", {"write", "4k", 1, {"--fsync=1"}}},
    {"fsync-randwrite-4k", {"randwrite", "4k", 1, {"--fsync=1"}}},
    {"fdatasync-randwrite-4k", {"randwrite", "4k", 1, {"--fdatasync=1"}}},
    {"osync-randwrite-4k", {"randwrite", "4k", 1, {"--sync=1"}}},
    {"vm-mix",
     {"randrw",
      "4k",
      4,
      {"--rwmixread=30", "--bssplit=4k/40:8k/20:16k/20:32k/10:64k/10", "--sync=1"}}},
    {"qd-sweep", {"randread", "4k", 0, {}}},
};

std::vector<std::string> presetChoices() {
    for (const auto& spec : probe("fio").options())
        if (spec.name == "preset")
            return spec.choices;
    ADD_FAILURE() << "fio has no preset option";
    return {};
}

} // namespace

TEST(FioProbe, OffersTheTwelvePresets) {
    std::set<std::string> offered;
    for (const auto& c : presetChoices())
        offered.insert(c);
    std::set<std::string> expected;
    for (const auto& [name, preset] : fioPresets)
        expected.insert(name);
    EXPECT_EQ(offered, expected);
}

TEST(FioProbe, EveryPresetBuildsItsJobInTheWorkdirAndRemovesItsFile) {
    const auto ctx = context();
    for (const auto& preset : presetChoices()) {
        SCOPED_TRACE(preset);
        const auto it = fioPresets.find(preset);
        ASSERT_NE(it, fioPresets.end());
        const auto mc = command(probe("fio"), options(probe("fio"), {{"preset", preset}}), ctx);
        const auto& args = mc.command.args;
        EXPECT_EQ(mc.command.program, "fio");
        EXPECT_EQ(mc.command.cwd, ctx.workdir);
        ASSERT_FALSE(args.empty());
        EXPECT_EQ(args.front(), "--output-format=json+") << "with histograms";
        if (it->second.iodepth > 0) {
            EXPECT_EQ(longOption(args, "name"), preset);
            EXPECT_EQ(longOption(args, "iodepth"), std::to_string(it->second.iodepth));
        } else {
            EXPECT_EQ(longOption(args, "name"), "qd-sweep-qd1") << "the first depth";
        }
        EXPECT_EQ(longOption(args, "direct"), "1");
        EXPECT_EQ(longOption(args, "rw"), it->second.rw);
        EXPECT_EQ(longOption(args, "bs"), it->second.bs);
        for (const auto& extra : it->second.extra)
            EXPECT_TRUE(contains(args, extra)) << extra;
        EXPECT_EQ(longOption(args, "size"), "268435456");
        EXPECT_EQ(longOption(args, "runtime"), "10");
        EXPECT_EQ(longOption(args, "ioengine"), "libaio");
        EXPECT_EQ(longOption(args, "numjobs"), "1");
        EXPECT_TRUE(contains(args, "--time_based"));
        EXPECT_EQ(longOption(args, "lat_percentiles"), "1") << "total latency decides";
        EXPECT_FALSE(longOption(args, "ramp_time")) << "ramp_time 0 is left out";
        EXPECT_EQ(mc.workingSetBytes, 256 * MiB);
        EXPECT_TRUE(mc.caveats.empty());
        EXPECT_TRUE(mc.prepare.empty());

        // The cleanup removes the very file the job writes (relative to its cwd), then the
        // per-interval logs (fio_log_test.cpp).
        const auto file = longOption(args, "filename");
        ASSERT_TRUE(file);
        EXPECT_FALSE(file->empty());
        ASSERT_EQ(mc.cleanup.size(), 2u);
        EXPECT_EQ(mc.cleanup[0].program, "rm");
        EXPECT_EQ(mc.cleanup[0].args,
                  (std::vector<std::string>{"-f", "--", ctx.workdir + "/" + *file}));
    }
}

TEST(FioProbe, PresetsWriteDistinctFiles) {
    std::set<std::string> files;
    for (const auto& preset : presetChoices()) {
        const auto mc =
            command(probe("fio"), options(probe("fio"), {{"preset", preset}}), context());
        files.insert(longOption(mc.command.args, "filename").value_or(""));
    }
    EXPECT_EQ(files.size(), fioPresets.size());
}

TEST(FioProbe, WithoutODirectTheRunIsBufferedAndSaysSo) {
    auto ctx = context();
    ctx.directIo = false;
    const auto mc = command(probe("fio"), options(probe("fio"), {{"preset", "seq-read-1m"}}), ctx);
    EXPECT_EQ(longOption(mc.command.args, "direct"), "0");
    EXPECT_FALSE(contains(mc.command.args, "--direct=1"));
    ASSERT_EQ(mc.caveats.size(), 1u);
    EXPECT_NE(mc.caveats[0].find("direct=0"), std::string::npos) << mc.caveats[0];
}

// Where layoutbench chooses the size: a small file through O_DIRECT, where the page cache is not
// on the path; buffered, twice the target's memory, so the reads cannot come from it.
TEST(FioProbe, ItsOwnSizeIsTwiceTheMemoryWhenThePageCacheIsOnThePath) {
    auto ctx = context();
    const auto seqRead = options(probe("fio"), {{"preset", "seq-read-1m"}});
    const auto direct = command(probe("fio"), seqRead, ctx);
    EXPECT_EQ(longOption(direct.command.args, "size"), std::to_string(256 * MiB));
    EXPECT_EQ(direct.workingSetBytes, 256 * MiB);

    ctx.directIo = false;
    const auto refused = command(probe("fio"), seqRead, ctx);
    EXPECT_EQ(longOption(refused.command.args, "size"), std::to_string(16 * GiB));
    EXPECT_EQ(refused.workingSetBytes, 16 * GiB);

    const auto buffered =
        command(probe("fio"), options(probe("fio"), {{"preset", "seq-read-1m"}, {"direct", false}}),
                context());
    EXPECT_EQ(longOption(buffered.command.args, "size"), std::to_string(16 * GiB));

    ctx.ramBytes = 64 * MiB; // a small guest: never below the direct default
    EXPECT_EQ(longOption(command(probe("fio"), seqRead, ctx).command.args, "size"),
              std::to_string(256 * MiB));

    const auto given = command(
        probe("fio"), options(probe("fio"), {{"preset", "seq-read-1m"}, {"size", "64M"}}), ctx);
    EXPECT_EQ(longOption(given.command.args, "size"), std::to_string(64 * MiB))
        << "a size the scenario gives is used as it is, and the campaign names it if it fits "
           "in memory";
}

TEST(FioProbe, DirectFalseIsBufferedWithoutACaveat) {
    const auto mc =
        command(probe("fio"), options(probe("fio"), {{"preset", "seq-read-1m"}, {"direct", false}}),
                context());
    EXPECT_EQ(longOption(mc.command.args, "direct"), "0");
    EXPECT_TRUE(mc.caveats.empty());
}

TEST(FioProbe, OptionsReachTheArgv) {
    const auto mc = command(probe("fio"),
                            options(probe("fio"), {{"preset", "rand-read-4k-qd32"},
                                                   {"size", "1G"},
                                                   {"runtime", std::int64_t{30}},
                                                   {"ramp_time", std::int64_t{5}},
                                                   {"numjobs", std::int64_t{4}},
                                                   {"ioengine", "io_uring"}}),
                            context());
    const auto& args = mc.command.args;
    EXPECT_EQ(longOption(args, "size"), "1073741824");
    EXPECT_EQ(longOption(args, "runtime"), "30");
    EXPECT_EQ(longOption(args, "ramp_time"), "5");
    EXPECT_EQ(longOption(args, "numjobs"), "4");
    EXPECT_EQ(longOption(args, "ioengine"), "io_uring");
    // The four clones share the preset's one named file.
    EXPECT_EQ(mc.workingSetBytes, GiB);
}

TEST(FioProbe, JobFileRunsAsIsInTheWorkdirWithACaveat) {
    const auto ctx = context();
    const auto mc =
        command(probe("fio"), options(probe("fio"), {{"job_file", "/etc/lb/mixed.fio"}}), ctx);
    EXPECT_EQ(mc.command.program, "fio");
    // A global option before the job file reaches each of its jobs.
    EXPECT_EQ(mc.command.args,
              (std::vector<std::string>{"--output-format=json", "--lat_percentiles=1",
                                        "/etc/lb/mixed.fio"}));
    EXPECT_EQ(mc.command.cwd, ctx.workdir);
    ASSERT_EQ(mc.caveats.size(), 1u);
    EXPECT_NE(mc.caveats[0].find("/etc/lb/mixed.fio"), std::string::npos) << mc.caveats[0];
    EXPECT_FALSE(mc.workingSetBytes) << "the file cannot be read here: its sizes are unknown";
}

TEST(FioProbe, AJobFileReadableHereGivesItsWorkingSet) {
    const TempDir dir;
    const auto job = dir.path() / "two.fio";
    std::ofstream(job) << "[global]\nsize=64M\n[a]\nrw=read\nnumjobs=2\n[b]\nrw=write\n"
                          "filename=/srv/shared.dat\nsize=1G\n";
    const auto mc =
        command(probe("fio"), options(probe("fio"), {{"job_file", job.string()}}), context());
    EXPECT_EQ(mc.workingSetBytes, 2 * 64 * MiB + GiB);
}

// The blocks a run moves, for the campaign's note on ZFS records: a preset's one size for all its
// metrics, a job file's one size when every job moves blocks of it, else each job's directions
// on their own metrics (on an export named as its metrics are: nfs.<job>.<direction>.*).
TEST(FioProbe, ItSaysWhatBlocksThePresetOrTheJobFileMoves) {
    using lb::IoBlockSize;
    const auto preset =
        command(probe("fio"), options(probe("fio"), {{"preset", std::string("rand-read-4k-qd1")}}),
                context());
    EXPECT_EQ(preset.blockSizes, (std::vector<IoBlockSize>{{"*", "", 4 * KiB}}));

    const TempDir dir;
    const auto alike = dir.path() / "alike.fio";
    std::ofstream(alike) << "[global]\nbs=8k\n[a]\nrw=randread\n[b]\nrw=randwrite\n";
    EXPECT_EQ(
        command(probe("fio"), options(probe("fio"), {{"job_file", alike.string()}}), context())
            .blockSizes,
        (std::vector<IoBlockSize>{{"*", "", 8 * KiB}}));

    const auto mixed = dir.path() / "mixed.fio";
    std::ofstream(mixed) << "[oltp]\nrw=randrw\nbs=8k,64k\n[scan]\nrw=read\nbs=1m\n";
    EXPECT_EQ(
        command(probe("fio"), options(probe("fio"), {{"job_file", mixed.string()}}), context())
            .blockSizes,
        (std::vector<IoBlockSize>{{"fio.oltp.read.*", "job oltp, reads", 8 * KiB},
                                  {"fio.oltp.write.*", "job oltp, writes", 64 * KiB},
                                  {"fio.scan.read.*", "job scan, reads", MiB}}));
    auto ctx = context();
    ctx.exported.nfsServer = "192.0.2.1";
    ctx.exported.nfsPath = "/srv/export";
    const auto onNfs = command(
        probe("fio"),
        options(probe("fio"), {{"job_file", mixed.string()}, {"target", std::string("nfs")}}), ctx);
    ASSERT_EQ(onNfs.blockSizes.size(), 3u);
    EXPECT_EQ(onNfs.blockSizes[0].metrics, "nfs.oltp.read.*");
    // A job file the workbench cannot read: its blocks are not known here.
    EXPECT_TRUE(
        command(probe("fio"), options(probe("fio"), {{"job_file", "/etc/lb/mixed.fio"}}), context())
            .blockSizes.empty());
}

// fio 3.33 reports total-latency percentiles for every job of a job file when
// --lat_percentiles=1 comes before it, and its JSON says how each job did its I/O.
TEST(FioProbeReal, AJobFileGetsTotalLatencyPercentilesAndItsIoMethod) {
    const TempDir dir;
    auto runner = makeLocalRunner();
    auto ctx = context();
    ctx.workdir = dir.str();
    const auto job = dir.path() / "mine.fio";
    std::ofstream(job) << "[global]\nioengine=psync\nsize=1M\nruntime=1\n"
                          "[first]\nrw=randread\nbs=4k\n[second]\nrw=write\nbs=64k\n";
    const auto opts = options(probe("fio"), {{"job_file", job.string()}});
    const auto mc = command(probe("fio"), opts, ctx);
    EXPECT_EQ(mc.workingSetBytes, 2 * MiB);
    const auto result = runOk(*runner, mc.command);
    const auto parsed = probe("fio").parse(result, {}, opts);
    ASSERT_TRUE(parsed) << parsed.error().message;
    for (const auto* name : {"fio.first.read.lat_p99", "fio.second.write.lat_p99",
                             "fio.first.read.clat_p99", "fio.second.write.clat_p99"})
        EXPECT_TRUE(metric(*parsed, name)) << name;
    for (const auto* glob : {"fio.first.*", "fio.second.*"})
        EXPECT_NE(std::find(parsed->notes.begin(), parsed->notes.end(),
                            MetricNote{MetricNote::Kind::Method, glob, "buffered I/O"}),
                  parsed->notes.end())
            << glob;
}

TEST(FioProbe, ValidateRefusesPresetWithJobFileAndNeither) {
    const Probe& fio = probe("fio");
    const auto both =
        fio.validate(options(fio, {{"preset", "seq-read-1m"}, {"job_file", "/a.fio"}}), "s.toml:9");
    ASSERT_FALSE(both);
    EXPECT_EQ(both.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(both.error().message.rfind("s.toml:9: ", 0), 0u) << both.error().message;
    EXPECT_NE(both.error().message.find("job_file"), std::string::npos) << both.error().message;

    const auto neither = fio.validate(options(fio), "s.toml:9");
    ASSERT_FALSE(neither);
    EXPECT_EQ(neither.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(neither.error().message.rfind("s.toml:9: ", 0), 0u) << neither.error().message;

    EXPECT_TRUE(fio.validate(options(fio, {{"preset", "seq-read-1m"}}), "s.toml:9"));
    EXPECT_TRUE(fio.validate(options(fio, {{"job_file", "/a.fio"}}), "s.toml:9"));
}

// Every preset's argv is accepted by the real fio and gives metrics for the job it names.
TEST(FioProbeReal, EveryPresetRunsAndParses) {
    const TempDir dir;
    auto runner = makeLocalRunner();
    auto ctx = context();
    ctx.workdir = dir.str();
    ctx.directIo = acceptsDirectIo(dir.path());
    for (const auto& preset : presetChoices()) {
        SCOPED_TRACE(preset);
        if (fioPresets.at(preset).iodepth == 0)
            continue; // seven jobs, seven seconds: FioProbeReal.TheQueueDepthSweepGivesEveryDepth
        const auto opts = options(
            probe("fio"), {{"preset", preset}, {"size", "1M"}, {"runtime", std::int64_t{1}}});
        const auto mc = command(probe("fio"), opts, ctx);
        const auto result = runOk(*runner, mc.command);
        const auto file = dir.path() / longOption(mc.command.args, "filename").value_or("?");
        EXPECT_TRUE(fs::exists(file)) << file;
        auto parsed = probe("fio").parse(result, {}, opts);
        ASSERT_TRUE(parsed) << parsed.error().message;
        EXPECT_FALSE(parsed->failed) << parsed->failureReason;
        const auto& rw = fioPresets.at(preset).rw;
        if (rw != "write" && rw != "randwrite") {
            EXPECT_TRUE(metric(*parsed, "fio." + preset + ".read.bw")) << "no read bw";
        }
        if (rw != "read" && rw != "randread") {
            EXPECT_TRUE(metric(*parsed, "fio." + preset + ".write.bw")) << "no write bw";
        }
        for (const auto& c : mc.cleanup)
            runOk(*runner, c);
        EXPECT_FALSE(fs::exists(file)) << file << " left behind";
    }
}

// --- SSD preconditioning and steady-state rounds (SNIA PTS)
// -----------------------------------------------------------

TEST(FioProbe, PreconditioningWritesTwiceTheCapacitySequentiallyIn128KiB) {
    const auto ctx = context();
    const auto& fio = probe("fio");
    ASSERT_TRUE(fio.supportsSteadyState());
    const auto mc = fio.preconditionCommand(options(fio, {{"preset", "rand-write-4k-qd32"}}), ctx,
                                            10 * GiB + 1000);
    ASSERT_TRUE(mc) << mc.error().message;
    const auto& args = mc->command.args;
    EXPECT_EQ(mc->command.program, "fio");
    EXPECT_EQ(mc->command.cwd, ctx.workdir);
    EXPECT_EQ(longOption(args, "rw"), "write");
    EXPECT_EQ(longOption(args, "bs"), "128k");
    EXPECT_EQ(longOption(args, "size"), std::to_string(10 * GiB)) << "whole 128 KiB blocks";
    EXPECT_EQ(longOption(args, "loops"), "2");
    EXPECT_EQ(longOption(args, "direct"), "1");
    EXPECT_TRUE(contains(args, "--refill_buffers"));
    ASSERT_EQ(mc->cleanup.size(), 1u);
    EXPECT_EQ(mc->cleanup[0].args,
              (std::vector<std::string>{"-f", "--", ctx.workdir + "/lb-fio-precondition.dat"}));
    EXPECT_EQ(mc->workingSetBytes, 10 * GiB);

    auto buffered = ctx;
    buffered.directIo = false;
    const auto b =
        fio.preconditionCommand(options(fio, {{"preset", "rand-write-4k-qd32"}}), buffered, GiB);
    ASSERT_TRUE(b);
    EXPECT_EQ(longOption(b->command.args, "direct"), "0");
    EXPECT_FALSE(
        fio.preconditionCommand(options(fio, {{"preset", "rand-write-4k-qd32"}}), ctx, 64 * KiB));
}

TEST(FioProbe, ASteadyStateRoundIsThePresetForItsSecondsAndKeepsItsFile) {
    const auto ctx = context();
    const auto& fio = probe("fio");
    const auto opts = options(fio, {{"preset", "rand-write-4k-qd32"},
                                    {"runtime", std::int64_t{600}},
                                    {"ramp_time", std::int64_t{30}}});
    const auto round = fio.steadyStateRound(opts, ctx, 60);
    ASSERT_TRUE(round) << round.error().message;
    const auto measured = command(fio, opts, ctx);
    EXPECT_EQ(longOption(round->command.args, "runtime"), "60");
    EXPECT_FALSE(longOption(round->command.args, "ramp_time"));
    EXPECT_EQ(longOption(round->command.args, "filename"),
              longOption(measured.command.args, "filename"));
    EXPECT_EQ(longOption(round->command.args, "rw"), "randwrite");
    EXPECT_TRUE(round->cleanup.empty()) << "the next round writes the same file";
    EXPECT_FALSE(measured.cleanup.empty());

    EXPECT_FALSE(fio.steadyStateRound(options(fio, {{"job_file", "/a.fio"}}), ctx, 60));
    EXPECT_FALSE(fio.steadyStateRound(opts, ctx, 0));
    EXPECT_FALSE(probe("bonnie").supportsSteadyState());
    EXPECT_FALSE(probe("bonnie").steadyStateRound(options(probe("bonnie")), ctx, 60));
}

TEST(FioProbeReal, PreconditionThenRoundsOnTheSameFile) {
    const TempDir dir;
    auto runner = makeLocalRunner();
    auto ctx = context();
    ctx.workdir = dir.str();
    ctx.directIo = acceptsDirectIo(dir.path());
    const auto& fio = probe("fio");
    const auto opts = options(fio, {{"preset", "rand-write-4k-qd32"}, {"size", "4M"}});
    const auto pre = fio.preconditionCommand(opts, ctx, 8 * MiB);
    ASSERT_TRUE(pre) << pre.error().message;
    const auto written = runOk(*runner, pre->command);
    const auto preRun = lb::fio::parseJson(written.stdoutText, written.stderrText);
    ASSERT_TRUE(preRun) << preRun.error().message;
    const auto bytes = metric(*preRun, "fio.precondition.write.bw");
    ASSERT_TRUE(bytes);
    for (const auto& c : pre->cleanup)
        runOk(*runner, c);
    EXPECT_FALSE(fs::exists(dir.path() / "lb-fio-precondition.dat"));

    std::vector<double> iops;
    for (int i = 0; i < 2; ++i) {
        const auto round = fio.steadyStateRound(opts, ctx, 1);
        ASSERT_TRUE(round) << round.error().message;
        const auto result = runOk(*runner, round->command);
        const auto parsed = fio.parse(result, {}, opts);
        ASSERT_TRUE(parsed) << parsed.error().message;
        const auto v = metric(*parsed, "fio.rand-write-4k-qd32.write.iops");
        ASSERT_TRUE(v);
        iops.push_back(v->value);
        EXPECT_TRUE(fs::exists(dir.path() / "lb-fio-rand-write-4k-qd32.dat"));
    }
    EXPECT_EQ(iops.size(), 2u);
    for (const auto& c : command(fio, opts, ctx).cleanup)
        runOk(*runner, c);
    EXPECT_FALSE(fs::exists(dir.path() / "lb-fio-rand-write-4k-qd32.dat"));
}

// --- bonnie++
// -------------------------------------------------------------------------------------

TEST(BonnieProbe, SizeDefaultsToTwiceTheRamInMiB) {
    const auto ctx = context(); // 8 GiB
    const auto mc = command(probe("bonnie"), options(probe("bonnie")), ctx);
    const auto& args = mc.command.args;
    EXPECT_EQ(mc.command.program, "bonnie++");
    EXPECT_EQ(after(args, "-d"), ctx.workdir);
    EXPECT_EQ(after(args, "-s"), "16384");
    EXPECT_EQ(after(args, "-r"), "8192");
    EXPECT_EQ(after(args, "-n"), "16");
    EXPECT_TRUE(contains(args, "-q"));
    EXPECT_FALSE(contains(args, "-f"));
    EXPECT_TRUE(mc.caveats.empty());
}

// bonnie++ refuses a file size under twice the RAM it is told ("File size should be double RAM
// for good results"): no size the table accepts may build such a command.
TEST(BonnieProbe, EverySizeTheTableAcceptsSatisfiesBonniesRule) {
    const Probe& bonnie = probe("bonnie");
    for (const std::string size : {"1M", "1536K", "2M", "3M", "5M", "1G", "1025M"}) {
        SCOPED_TRACE(size);
        std::map<std::string, RawOption> raw;
        raw["size"] = RawOption{size, 1, 1};
        const auto opts = validateOptions(bonnie.options(), raw, "s.toml");
        if (!opts)
            continue; // refused up front: fine
        const auto mc = command(bonnie, *opts, context());
        const auto s = std::stoull(after(mc.command.args, "-s").value_or("0"));
        const auto r = std::stoull(after(mc.command.args, "-r").value_or("0"));
        EXPECT_GE(s, 1u);
        EXPECT_GE(r, 1u);
        EXPECT_GE(s, 2 * r) << "bonnie++ -s " << s << " -r " << r << " is refused by bonnie++";
    }
}

TEST(BonnieProbe, RunsAsRootOnlyWhenRoot) {
    auto ctx = context();
    ctx.root = false;
    const auto user = command(probe("bonnie"), options(probe("bonnie")), ctx);
    EXPECT_FALSE(contains(user.command.args, "-u"));
    EXPECT_TRUE(contains(user.command.args, "-q"));
    ctx.root = true;
    const auto root = command(probe("bonnie"), options(probe("bonnie")), ctx);
    EXPECT_EQ(after(root.command.args, "-u"), "root");
    EXPECT_TRUE(contains(root.command.args, "-q"));
}

TEST(BonnieProbe, SizeBelowTwiceTheRamAssumesHalfTheSizeAndSaysSo) {
    const auto mc = command(probe("bonnie"), options(probe("bonnie"), {{"size", "1G"}}), context());
    EXPECT_EQ(after(mc.command.args, "-s"), "1024");
    EXPECT_EQ(mc.workingSetBytes, GiB);
    EXPECT_EQ(after(mc.command.args, "-r"), "512");
    ASSERT_EQ(mc.caveats.size(), 1u);
    EXPECT_NE(mc.caveats[0].find("1024 MiB"), std::string::npos) << mc.caveats[0];
    EXPECT_NE(mc.caveats[0].find("8192 MiB"), std::string::npos) << mc.caveats[0];
}

TEST(BonnieProbe, SizeOfTwiceTheRamOrMoreHasNoCaveat) {
    const auto mc =
        command(probe("bonnie"), options(probe("bonnie"), {{"size", "20G"}}), context());
    EXPECT_EQ(after(mc.command.args, "-s"), "20480");
    EXPECT_EQ(after(mc.command.args, "-r"), "8192");
    EXPECT_TRUE(mc.caveats.empty());
}

TEST(BonnieProbe, RamOptionReplacesTheTargetsRam) {
    const auto mc = command(probe("bonnie"), options(probe("bonnie"), {{"ram", "2G"}}), context());
    EXPECT_EQ(after(mc.command.args, "-s"), "4096");
    EXPECT_EQ(after(mc.command.args, "-r"), "2048");
    EXPECT_TRUE(mc.caveats.empty());
}

// Twice a memory nobody asked the target: a plan shows a marked placeholder in the command, a run
// refuses to guess (it used to run bonnie++ -s 2 -r 1).
TEST(BonnieProbe, AnUnknownMemoryIsAPlaceholderInAPlanAndRefusedInARun) {
    auto ctx = context();
    ctx.ramBytes = 0;
    const auto refused = probe("bonnie").command(options(probe("bonnie")), ctx);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("the target's memory is not known"), std::string::npos)
        << refused.error().message;
    ctx.dryRun = true;
    const auto planned = command(probe("bonnie"), options(probe("bonnie")), ctx);
    EXPECT_EQ(after(planned.command.args, "-s"), "<2 × target memory, MiB>");
    EXPECT_EQ(after(planned.command.args, "-r"), "<target memory, MiB>");
    EXPECT_FALSE(planned.workingSetBytes);
}

TEST(BonnieProbe, AGivenSizeNeedsNoMemoryAndSaysTheCacheMayServeReads) {
    auto ctx = context();
    ctx.ramBytes = 0;
    const auto mc = command(probe("bonnie"), options(probe("bonnie"), {{"size", "20G"}}), ctx);
    EXPECT_EQ(after(mc.command.args, "-s"), "20480");
    EXPECT_EQ(after(mc.command.args, "-r"), "10240");
    ASSERT_EQ(mc.caveats.size(), 1u);
    EXPECT_NE(mc.caveats[0].find("a memory nobody asked the target"), std::string::npos)
        << mc.caveats[0];
}

TEST(BonnieProbe, FilesFastAndMachineNameReachTheArgv) {
    const auto mc =
        command(probe("bonnie"),
                options(probe("bonnie"), {{"files", std::int64_t{0}}, {"fast", true}}), context());
    EXPECT_EQ(after(mc.command.args, "-n"), "0");
    EXPECT_TRUE(contains(mc.command.args, "-f"));
    EXPECT_EQ(after(mc.command.args, "-m"), "under-test");
}

TEST(BonnieProbe, ParseTakesTheLastLineOfStdout) {
    ProcessResult r;
    r.exitCode = 0;
    r.stdoutText = "Using uid:0, gid:0.\nWriting intelligently...done\nRewriting...done\n" +
                   readFile(bonnieCsv) + "\n";
    const auto run = probe("bonnie").parse(r, {}, options(probe("bonnie")));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run->toolVersion, "2.00a");
    const auto putBlock = metric(*run, "bonnie.put_block");
    ASSERT_TRUE(putBlock);
    EXPECT_DOUBLE_EQ(putBlock->value, 511098.0 * 1024); // KiB/s in the CSV
    EXPECT_EQ(putBlock->unit, Unit::BytesPerSecond);
}

TEST(BonnieProbe, ParseTakesTheCsvAfterTheTextTable) {
    ProcessResult r;
    r.exitCode = 0;
    r.stdoutText = readFile(LAYOUTBENCH_TEST_DATA_DIR "/bonnie++/2.00a/s64-n1-without-q.stdout");
    const auto run = probe("bonnie").parse(r, {}, options(probe("bonnie")));
    ASSERT_TRUE(run) << run.error().message;
    const auto putc = metric(*run, "bonnie.putc");
    ASSERT_TRUE(putc);
    EXPECT_DOUBLE_EQ(putc->value, 1959.0 * 1024);
}

TEST(BonnieProbe, ParseToleratesCrLfAndTrailingBlankLines) {
    std::string csv = readFile(bonnieCsv);
    while (!csv.empty() && csv.back() == '\n')
        csv.pop_back();
    ProcessResult r;
    r.stdoutText = "Using uid:0, gid:0.\r\n" + csv + "\r\n\r\n";
    const auto run = probe("bonnie").parse(r, {}, options(probe("bonnie")));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_TRUE(metric(*run, "bonnie.put_block"));
}

TEST(BonnieProbe, ParseRefusesOutputWithoutACsvLine) {
    ProcessResult r;
    r.stdoutText = "Using uid:0, gid:0.\nCan't write block.: No space left on device\n";
    const auto run = probe("bonnie").parse(r, {}, options(probe("bonnie")));
    ASSERT_FALSE(run);
    EXPECT_EQ(run.error().kind, ErrorKind::BadInput);
}

// --- xz
// -------------------------------------------------------------------------------------------

TEST(XzProbe, PreparesRandomInputOfTheGivenSizeWithDd) {
    const auto ctx = context();
    const auto mc = command(probe("xz"), options(probe("xz"), {{"size", "64M"}}), ctx);
    ASSERT_EQ(mc.prepare.size(), 1u);
    EXPECT_EQ(mc.prepare[0].program, "dd");
    EXPECT_EQ(
        mc.prepare[0].args,
        (std::vector<std::string>{"if=/dev/urandom", "of=" + ctx.workdir + "/lb-xz-input", "bs=1M",
                                  "count=67108864", "iflag=count_bytes,fullblock", "conv=fsync"}));
    // The input and its compressed copy, as large for random bytes.
    EXPECT_EQ(mc.workingSetBytes, 2 * 64 * MiB);
}

TEST(XzProbe, CompressesOnEveryProcessorAtLevel6KeepingTheInput) {
    const auto ctx = context();
    const auto mc = command(probe("xz"), options(probe("xz")), ctx);
    EXPECT_EQ(mc.command.program, "xz");
    EXPECT_EQ(mc.command.args, (std::vector<std::string>{"-T0", "-6", "-k", "-f", "--",
                                                         ctx.workdir + "/lb-xz-input"}));
}

TEST(XzProbe, InspectListsTheCompressedFileAndCleanupRemovesBoth) {
    const auto ctx = context();
    const auto mc = command(probe("xz"), options(probe("xz")), ctx);
    const std::string input = ctx.workdir + "/lb-xz-input";
    ASSERT_EQ(mc.inspect.size(), 1u);
    EXPECT_EQ(mc.inspect[0].program, "xz");
    EXPECT_EQ(mc.inspect[0].args,
              (std::vector<std::string>{"--robot", "--list", "--", input + ".xz"}));
    ASSERT_EQ(mc.cleanup.size(), 1u);
    EXPECT_EQ(mc.cleanup[0].program, "rm");
    EXPECT_EQ(mc.cleanup[0].args, (std::vector<std::string>{"-f", "--", input, input + ".xz"}));
}

TEST(XzProbe, InputOptionCopiesThatFileAndThreadsAndLevelReachTheArgv) {
    const auto ctx = context();
    const auto mc = command(probe("xz"),
                            options(probe("xz"), {{"input", "/data/sample.tar"},
                                                  {"threads", std::int64_t{2}},
                                                  {"level", std::int64_t{9}}}),
                            ctx);
    ASSERT_EQ(mc.prepare.size(), 1u);
    EXPECT_EQ(mc.prepare[0].program, "cp");
    EXPECT_EQ(mc.prepare[0].args,
              (std::vector<std::string>{"--", "/data/sample.tar", ctx.workdir + "/lb-xz-input"}));
    EXPECT_EQ(mc.command.args, (std::vector<std::string>{"-T2", "-9", "-k", "-f", "--",
                                                         ctx.workdir + "/lb-xz-input"}));
    EXPECT_FALSE(mc.workingSetBytes) << "the input is not on this machine: its size is unknown";
}

TEST(XzProbe, ParseComputesThroughputFromUncompressedBytesAndWallTime) {
    ProcessResult r;
    r.exitCode = 0;
    r.wallSeconds = 2.0;
    r.cpuUserSeconds = 3.25;
    r.cpuSystemSeconds = 0.5;
    ProcessResult listing;
    listing.exitCode = 0;
    listing.stdoutText = "name\t/w/lb-xz-input.xz\n"
                         "file\t1\t1\t268500000\t268435456\t1.000\tCRC64\t0\n"
                         "totals\t1\t1\t268500000\t268435456\t1.000\tCRC64\t0\t1\n";
    const auto run = probe("xz").parse(r, {listing}, options(probe("xz")));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run->workload, "xz");
    const auto throughput = metric(*run, "xz.throughput");
    ASSERT_TRUE(throughput);
    EXPECT_DOUBLE_EQ(throughput->value, 134217728.0);
    EXPECT_EQ(throughput->unit, Unit::BytesPerSecond);
    const auto wall = metric(*run, "xz.wall");
    ASSERT_TRUE(wall);
    EXPECT_DOUBLE_EQ(wall->value, 2.0);
    EXPECT_EQ(wall->unit, Unit::Seconds);
    const auto cpu = metric(*run, "xz.cpu");
    ASSERT_TRUE(cpu);
    EXPECT_DOUBLE_EQ(cpu->value, 3.75);
    EXPECT_EQ(cpu->unit, Unit::Seconds);
}

// What the run did, for the comparison to hold against the other side's: the preset and the
// threads (other work), the input's size (more of it).
TEST(XzProbe, ParseNotesTheLevelTheThreadsAndTheSize) {
    ProcessResult r;
    r.wallSeconds = 2.0;
    ProcessResult listing;
    listing.stdoutText = "totals\t1\t1\t268500000\t268435456\t1.000\tCRC64\t0\t1\n";
    const auto run = probe("xz").parse(
        r, {listing},
        options(probe("xz"), {{"level", std::int64_t{9}}, {"threads", std::int64_t{2}}}));
    ASSERT_TRUE(run) << run.error().message;
    std::vector<std::string> method;
    for (const auto& n : run->notes)
        if (n.kind == MetricNote::Kind::Method && n.metrics == "xz.*")
            method.push_back(n.text);
    EXPECT_EQ(method, (std::vector<std::string>{"level=9", "threads=2", "size=256.00 MiB"}));
    const auto every = probe("xz").parse(r, {listing}, options(probe("xz")));
    ASSERT_TRUE(every);
    EXPECT_EQ(every->notes[1].text, "threads=every processor");
}

TEST(XzProbe, ParseRefusesAMissingListingOrNoWallTime) {
    ProcessResult r;
    r.wallSeconds = 1.0;
    EXPECT_FALSE(probe("xz").parse(r, {}, options(probe("xz"))));
    ProcessResult listing;
    listing.stdoutText = "totals\t1\t1\t100\t1000\t0.100\tCRC64\t0\t1\n";
    r.wallSeconds = 0;
    const auto run = probe("xz").parse(r, {listing}, options(probe("xz")));
    ASSERT_FALSE(run);
    EXPECT_EQ(run.error().kind, ErrorKind::BadInput);
    ProcessResult garbage;
    garbage.stdoutText = "xz: /w/lb-xz-input.xz: No such file or directory\n";
    r.wallSeconds = 1.0;
    EXPECT_FALSE(probe("xz").parse(r, {garbage}, options(probe("xz"))));
}

// prepare, measured run, inspect and cleanup of the xz probe on this machine, at 1 MiB.
TEST(XzProbeReal, MeasuresTheBytesItCompressedAndCleansUp) {
    const TempDir dir;
    auto runner = makeLocalRunner();
    auto ctx = context();
    ctx.workdir = dir.str();
    const auto opts = options(probe("xz"), {{"size", "1M"}});
    const auto mc = command(probe("xz"), opts, ctx);
    for (const auto& c : mc.prepare)
        runOk(*runner, c);
    EXPECT_EQ(fs::file_size(dir.path() / "lb-xz-input"), 1048576u);
    const auto [result, inspected] = test::runMeasured(*runner, mc);
    const auto run = probe("xz").parse(result, inspected, opts);
    ASSERT_TRUE(run) << run.error().message;
    const auto throughput = metric(*run, "xz.throughput");
    ASSERT_TRUE(throughput);
    EXPECT_GT(result.wallSeconds, 0);
    EXPECT_DOUBLE_EQ(throughput->value, 1048576.0 / result.wallSeconds);
    for (const auto& c : mc.cleanup)
        runOk(*runner, c);
    EXPECT_FALSE(fs::exists(dir.path() / "lb-xz-input"));
    EXPECT_FALSE(fs::exists(dir.path() / "lb-xz-input.xz"));
}

// --- randfile
// -------------------------------------------------------------------------------------

TEST(RandfileProbe, WritesFiosRandomBytesThroughTheCacheAndFsyncsAfterMeasuringTheSource) {
    const auto ctx = context();
    const auto mc = command(probe("randfile"), options(probe("randfile"), {{"size", "64M"}}), ctx);
    EXPECT_EQ(mc.command.program, "fio");
    EXPECT_EQ(mc.command.cwd, ctx.workdir);
    EXPECT_EQ(mc.command.args,
              (std::vector<std::string>{
                  "--output-format=json", "--rw=write", "--bs=1M", "--refill_buffers",
                  "--buffer_compress_percentage=0", "--name=source", "--ioengine=null",
                  "--size=1073741824", "--name=randfile", "--stonewall",
                  "--filename=lb-randfile.dat", "--ioengine=sync", "--direct=0", "--fallocate=none",
                  "--end_fsync=1", "--size=67108864"}));
    ASSERT_EQ(mc.cleanup.size(), 1u);
    EXPECT_EQ(mc.cleanup[0].args,
              (std::vector<std::string>{"-f", "--", ctx.workdir + "/lb-randfile.dat"}));
    EXPECT_TRUE(mc.prepare.empty());
    EXPECT_EQ(mc.workingSetBytes, 64 * MiB);
}

ProcessResult randfileGolden() {
    ProcessResult r;
    r.exitCode = 0;
    r.stdoutText = readFile(LAYOUTBENCH_TEST_DATA_DIR "/fio/3.33/randfile_256m.json");
    return r;
}

bool hasNote(const ParsedRun& run, MetricNote::Kind kind, const std::string& metrics,
             const std::string& text) {
    return std::find(run.notes.begin(), run.notes.end(), MetricNote{kind, metrics, text}) !=
           run.notes.end();
}

TEST(RandfileProbe, ParseReadsTheWriteRateAndNamesTheSourcesRate) {
    const auto run = probe("randfile").parse(randfileGolden(), {}, options(probe("randfile")));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run->workload, "randfile");
    EXPECT_EQ(run->toolVersion, "fio-3.33");
    ASSERT_EQ(run->metrics.size(), 1u);
    EXPECT_EQ(run->metrics[0], (Metric{"randfile.throughput", 303316899, Unit::BytesPerSecond}));
    EXPECT_EQ(run->caveats,
              (std::vector<std::string>{"data from fio's random generator, 3862 MB/s here "
                                        "(refill_buffers, buffer_compress_percentage=0)"}));
    // 303 MB/s is far from the source's 3862 MB/s: nothing excluded. The 0.9 s run is short.
    // And the work fio did, which the comparison holds against the other side's.
    using K = MetricNote::Kind;
    EXPECT_EQ(run->notes, (std::vector<MetricNote>{{K::Method, "randfile.*", "buffered I/O"},
                                                   {K::Qualifies, "randfile.*",
                                                    "ran 0.89 s: under 5 s, too short to trust"},
                                                   {K::Method, "randfile.*", "rw=write"},
                                                   {K::Method, "randfile.*", "bs=1.00 MiB"},
                                                   {K::Method, "randfile.*", "iodepth=1"},
                                                   {K::Method, "randfile.*", "numjobs=1"},
                                                   {K::Method, "randfile.*", "ioengine=sync"},
                                                   {K::Method, "randfile.*", "size=256.00 MiB"}}));
}

TEST(RandfileProbe, AThroughputWithin20PercentOfTheSourceIsExcluded) {
    // The same run as if the generator had given 360 MB/s: 303 MB/s is 84 % of it.
    auto r = randfileGolden();
    const std::string sourceRate = "\"bw_bytes\" : 3862380661";
    const auto at = r.stdoutText.find(sourceRate);
    ASSERT_NE(at, std::string::npos);
    r.stdoutText.replace(at, sourceRate.size(), "\"bw_bytes\" : 360000000");
    const auto run = probe("randfile").parse(r, {}, options(probe("randfile")));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_TRUE(hasNote(*run, MetricNote::Kind::Excludes, "randfile.throughput",
                        "bounded by the data source (source 360 MB/s, measured 303 MB/s)"));
}

TEST(RandfileProbe, ParseRefusesOutputWithoutTheSourceOrTheWrite) {
    ProcessResult r;
    r.stderrText = "fio: failed to open lb-randfile.dat: No space left on device\n";
    EXPECT_FALSE(probe("randfile").parse(r, {}, options(probe("randfile"))));

    auto onlyWrite = randfileGolden();
    const auto at = onlyWrite.stdoutText.find("\"jobname\" : \"source\"");
    ASSERT_NE(at, std::string::npos);
    onlyWrite.stdoutText.replace(at, 20, "\"jobname\" : \"other\" ");
    const auto run = probe("randfile").parse(onlyWrite, {}, options(probe("randfile")));
    ASSERT_FALSE(run);
    EXPECT_EQ(run.error().kind, ErrorKind::BadInput);
    EXPECT_NE(run.error().message.find("source"), std::string::npos) << run.error().message;
}

// The randfile probe's command on this machine, at 1 MiB.
TEST(RandfileProbeReal, WritesTheFileParsesItsRateAndCleansUp) {
    const TempDir dir;
    auto runner = makeLocalRunner();
    auto ctx = context();
    ctx.workdir = dir.str();
    const auto opts = options(probe("randfile"), {{"size", "1M"}});
    const auto mc = command(probe("randfile"), opts, ctx);
    const auto result = runOk(*runner, mc.command);
    EXPECT_EQ(fs::file_size(dir.path() / "lb-randfile.dat"), 1048576u);
    const auto run = probe("randfile").parse(result, {}, opts);
    ASSERT_TRUE(run) << run.error().message;
    const auto throughput = metric(*run, "randfile.throughput");
    ASSERT_TRUE(throughput);
    EXPECT_GT(throughput->value, 0);
    for (const auto& c : mc.cleanup)
        runOk(*runner, c);
    EXPECT_FALSE(fs::exists(dir.path() / "lb-randfile.dat"));
}

// fio's generator, as the randfile probe measures it, against /dev/urandom read by dd: the source
// must outrun what it feeds. Measured here: 2.6-3.9 GB/s against 0.1-0.4 GB/s.
TEST(RandfileProbeReal, FiosGeneratorOutrunsDevUrandom) {
    auto runner = makeLocalRunner();
    const auto fio = runOk(*runner, {"fio",
                                     {"--output-format=json", "--rw=write", "--bs=1M",
                                      "--refill_buffers", "--buffer_compress_percentage=0",
                                      "--name=source", "--ioengine=null", "--size=268435456"},
                                     {{"LC_ALL", "C"}}});
    const auto source = lb::fio::parseJson(fio.stdoutText, fio.stderrText);
    ASSERT_TRUE(source) << source.error().message;
    const auto generated = metric(*source, "fio.source.write.bw");
    ASSERT_TRUE(generated);
    const auto dd = runOk(*runner, {"dd",
                                    {"if=/dev/urandom", "of=/dev/null", "bs=1M", "count=67108864",
                                     "iflag=count_bytes,fullblock"},
                                    {{"LC_ALL", "C"}}});
    const auto urandom = dd::parse(dd.stderrText);
    ASSERT_TRUE(urandom) << urandom.error().message;
    ASSERT_EQ(urandom->size(), 1U) << dd.stderrText;
    const auto rate = metric(urandom->front().run, "dd.throughput");
    ASSERT_TRUE(rate);
    const double urandomRate = rate->value;
    std::cout << "fio's generator " << generated->value / 1e6 << " MB/s, /dev/urandom "
              << urandomRate / 1e6 << " MB/s\n";
    EXPECT_GT(generated->value, 2 * urandomRate);
}

// --- dd's summary, from the real dd (probes/dd.h reads every form; its own tests hold the rest)
// -------------------------------------------------------------------------------

namespace {

// dd's stderr, captured once from the real dd in the C locale.
class DdCapture : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        auto runner = makeLocalRunner();
        // With iflag=count_bytes, count counts bytes: this copies 4 bytes, and dd prints its
        // short form ("4 bytes copied, ...").
        shortForm_ =
            runOk(*runner,
                  {"dd",
                   {"if=/dev/zero", "of=/dev/null", "bs=1M", "count=4", "iflag=count_bytes"},
                   {{"LC_ALL", "C"}}})
                .stderrText;
        // 4 MiB: the long form with "(4.2 MB, 4.0 MiB)".
        longForm_ =
            runOk(*runner,
                  {"dd",
                   {"if=/dev/zero", "of=/dev/null", "bs=1M", "count=4194304", "iflag=count_bytes"},
                   {{"LC_ALL", "C"}}})
                .stderrText;
    }
    static std::string shortForm_;
    static std::string longForm_;
};

std::string DdCapture::shortForm_;
std::string DdCapture::longForm_;

} // namespace

// The bytes over the seconds dd printed: the throughput is the one the summary line gives.
void expectThroughputOf(const std::string& text, double bytes) {
    const auto runs = dd::parse(text);
    ASSERT_TRUE(runs) << runs.error().message << "\n" << text;
    ASSERT_EQ(runs->size(), 1U) << text;
    const auto rate = metric(runs->front().run, "dd.throughput");
    ASSERT_TRUE(rate) << text;
    const auto copied = text.find(" copied, ");
    const double seconds = std::stod(text.substr(copied + 9));
    ASSERT_GT(seconds, 0) << text;
    EXPECT_DOUBLE_EQ(rate->value, bytes / seconds) << text;
}

TEST_F(DdCapture, ParsesTheRealShortForm) {
    ASSERT_NE(shortForm_.find("4 bytes copied, "), std::string::npos) << shortForm_;
    expectThroughputOf(shortForm_, 4);
}

TEST_F(DdCapture, ParsesTheRealLongForm) {
    ASSERT_NE(longForm_.find("4194304 bytes (4.2 MB, 4.0 MiB) copied, "), std::string::npos)
        << longForm_;
    expectThroughputOf(longForm_, 4194304);
}

// --- parseXzRobotList
// -----------------------------------------------------------------------------

TEST(ParseXzRobotList, ReadsTheTotalsLine) {
    const auto t = parseXzRobotList("name\tz.xz\n"
                                    "file\t1\t1\t148\t100000\t0.001\tCRC64\t0\n"
                                    "totals\t1\t1\t148\t100000\t0.001\tCRC64\t0\t1\n");
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->compressedBytes, 148u);
    EXPECT_EQ(t->uncompressedBytes, 100000u);
}

TEST(ParseXzRobotList, ParsesARealListingOfAFileCompressedHere) {
    const TempDir dir;
    auto runner = makeLocalRunner();
    const auto input = dir.path() / "sample.txt";
    {
        std::ofstream out(input, std::ios::binary);
        for (int i = 0; i < 5000; ++i)
            out << "line " << i << " of a small file for xz\n";
    }
    const auto inputBytes = fs::file_size(input);
    runOk(*runner, {"xz", {"-k", "-f", "--", input.string()}, {{"LC_ALL", "C"}}});
    const auto compressed = fs::path(input.string() + ".xz");
    ASSERT_TRUE(fs::exists(compressed));
    const auto listing =
        runOk(*runner, {"xz", {"--robot", "--list", "--", compressed.string()}, {{"LC_ALL", "C"}}});
    const auto t = parseXzRobotList(listing.stdoutText);
    ASSERT_TRUE(t) << t.error().message << "\n" << listing.stdoutText;
    EXPECT_EQ(t->uncompressedBytes, inputBytes);
    EXPECT_EQ(t->compressedBytes, fs::file_size(compressed));
    EXPECT_LT(t->compressedBytes, t->uncompressedBytes);
}

TEST(ParseXzRobotList, RejectsMalformedInput) {
    for (const char* bad : {
             "",
             "name\tz.xz\nfile\t1\t1\t148\t100000\t0.001\tCRC64\t0\n", // no totals
             "totals\t1\t1\t148\n",                                    // too few fields
             "totals\t1\t1\tlots\t100000\t0.001\tCRC64\t0\t1\n",       // non-numeric
             "totals\t1\t1\t148\t-100000\t0.001\tCRC64\t0\t1\n",       // negative
             "totals 1 1 148 100000 0.001 CRC64 0 1\n",                // not tab-separated
         }) {
        const auto t = parseXzRobotList(bad);
        EXPECT_FALSE(t) << "accepted: " << bad;
        if (!t) {
            EXPECT_EQ(t.error().kind, ErrorKind::BadInput) << bad;
        }
    }
}

// --- versions from the real tools
// -----------------------------------------------------------------

TEST(ProbeVersionsReal, EachProbeReadsItsToolsVersion) {
    auto runner = makeLocalRunner();
    const std::map<std::string, std::string> expectedStart = {
        {"fio", "fio-"}, {"bonnie", "bonnie++ "}, {"xz", "xz (XZ Utils) "}, {"randfile", "fio-"}};
    for (const auto& [name, start] : expectedStart) {
        SCOPED_TRACE(name);
        const auto r = runner->run(probe(name).versionCommand());
        ASSERT_TRUE(r) << r.error().message;
        const std::string version = probe(name).parseVersion(*r);
        EXPECT_EQ(version.rfind(start, 0), 0u) << version;
        EXPECT_GT(version.size(), start.size()) << version;
        EXPECT_EQ(version.find('\n'), std::string::npos) << version;
    }
}
