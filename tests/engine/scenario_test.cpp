// The scenario loader (engine/scenario/scenario.h): the shipped quick.toml, sizes, paths, defaults
// and default names of a valid scenario, and every kind of bad input: each is ErrorKind::BadInput
// with a message that starts with "FILE:LINE:COL: field" or "FILE:LINE: field" at the exact place.
// Fixtures whose file path matters are under tests/data/scenarios/; the rest are inline.
#include "engine/campaign/precondition.h"
#include "engine/scenario/scenario.h"
#include "probes/registry.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <string>
#include <vector>

using namespace lb;

namespace {

namespace fs = std::filesystem;

const fs::path scenarioData = fs::path(LAYOUTBENCH_TEST_DATA_DIR) / "scenarios";
const std::string inlinePath = "inline.toml";

const ProbeRegistry& probes() {
    static const ProbeRegistry registry = standardProbes();
    return registry;
}

// A valid scenario; each error test breaks one thing in it.
const std::string valid = R"(name = "inline"
description = "a valid scenario the error tests break one line of"
iterations = 3
work_dir = "/srv/layoutbench"

[thresholds]
viable = 1.10
not_viable = 2.0

[[disks]]
name = "d1"
file = "d1.img"
size = "1G"

[[disks]]
name = "d2"
file = "d2.img"
size = "1G"

[[layouts]]
name = "plain"
kind = "dir"
path = "."
baseline = true

[[layouts]]
name = "mirror"
kind = "zfs-mirror"
disks = ["d1", "d2"]
ashift = 12
underprovision = 1.0

[[workloads]]
probe = "fio"
preset = "seq-read-1m"

[[workloads]]
probe = "xz"
)";

// `text` with its only occurrence of `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto pos = text.find(from);
    if (pos == std::string::npos || text.find(from, pos + 1) != std::string::npos) {
        ADD_FAILURE() << "'" << from << "' is not in the fixture exactly once";
        return text;
    }
    return text.replace(pos, from.size(), to);
}

struct Position {
    int line = 0;
    int column = 0;
};

// 1-based line and column of the `occurrence`-th (1-based) `needle` in `text`.
Position positionOf(const std::string& text, const std::string& needle, int occurrence = 1) {
    std::size_t pos = std::string::npos;
    for (int i = 0; i < occurrence; ++i) {
        pos = text.find(needle, pos == std::string::npos ? 0 : pos + 1);
        if (pos == std::string::npos) {
            ADD_FAILURE() << "'" << needle << "' occurs fewer than " << occurrence << " times";
            return {};
        }
    }
    Position p;
    p.line = 1 + static_cast<int>(std::count(
                     text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
    const auto lineStart = text.rfind('\n', pos);
    p.column = static_cast<int>(pos - (lineStart == std::string::npos ? 0 : lineStart + 1)) + 1;
    return p;
}

// "inline.toml:LINE:COL" of the needle.
std::string lineColumn(const std::string& text, const std::string& needle, int occurrence = 1) {
    const auto p = positionOf(text, needle, occurrence);
    return inlinePath + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
}

// "inline.toml:LINE:COL" of the value in an assignment such as "iterations = 0".
std::string valueAt(const std::string& text, const std::string& assignment) {
    auto p = positionOf(text, assignment);
    p.column += static_cast<int>(assignment.find("= ")) + 2;
    return inlinePath + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
}

// "inline.toml:LINE" of the needle.
std::string lineOnly(const std::string& text, const std::string& needle, int occurrence = 1) {
    return inlinePath + ":" + std::to_string(positionOf(text, needle, occurrence).line);
}

Expected<Scenario> parse(const std::string& text) {
    return parseScenario(text, inlinePath, probes());
}

// The scenario is refused as bad input, and the message starts with "<location>: <field>".
void expectBadInputAt(const std::string& text, const std::string& location,
                      const std::string& field) {
    const auto r = parse(text);
    ASSERT_FALSE(r) << "accepted:\n" << text;
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput) << r.error().message;
    const std::string prefix = location + ": " + field;
    EXPECT_EQ(r.error().message.substr(0, prefix.size()), prefix)
        << "message: " << r.error().message;
}

// Refused as bad input with "inline.toml:LINE[:COL]: " first and `field` right after it, where no
// one place in the file is the obvious one.
void expectBadInputOnSomeLine(const std::string& text, const std::string& field) {
    const auto r = parse(text);
    ASSERT_FALSE(r) << "accepted:\n" << text;
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput) << r.error().message;
    static const std::regex located(R"(^inline\.toml:[1-9][0-9]*(:[1-9][0-9]*)?: (.*)$)");
    std::smatch m;
    ASSERT_TRUE(std::regex_match(r.error().message, m, located))
        << "no FILE:LINE: in: " << r.error().message;
    EXPECT_EQ(m[2].str().substr(0, field.size()), field) << r.error().message;
}

const ScenarioWorkload* workload(const Scenario& s, const std::string& name) {
    for (const auto& w : s.workloads)
        if (w.name == name)
            return &w;
    return nullptr;
}

} // namespace

TEST(ScenarioFixture, TheBaseOfTheErrorTestsIsValid) {
    const auto r = parse(valid);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->name, "inline");
    EXPECT_EQ(r->layouts.size(), 2u);
    EXPECT_EQ(r->workloads.size(), 2u);
}

// --- the shipped default -------------------------------------------------------------------------

TEST(ScenarioQuick, LoadsWithItsLayoutsBaselineAndIterations) {
    const auto s = loadScenario(LAYOUTBENCH_SOURCE_DIR "/scenarios/quick.toml", probes());
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->name, "quick");
    EXPECT_EQ(s->path, LAYOUTBENCH_SOURCE_DIR "/scenarios/quick.toml");
    EXPECT_NE(s->text.find("[[layouts]]"), std::string::npos);
    EXPECT_EQ(s->iterations, 3);
    EXPECT_EQ(s->workDir, "/var/tmp/layoutbench/quick");
    EXPECT_EQ(s->host.target, "local");
    EXPECT_DOUBLE_EQ(s->thresholds.viableMax, 1.10);
    EXPECT_DOUBLE_EQ(s->thresholds.notViableMin, 2.0);

    ASSERT_EQ(s->layouts.size(), 2u);
    const auto& dir = s->layouts[0];
    EXPECT_EQ(dir.name, "dir");
    EXPECT_EQ(dir.kind, LayoutKind::Dir);
    EXPECT_TRUE(dir.baseline);
    EXPECT_EQ(dir.path, "/var/tmp/layoutbench/quick"); // "." resolved against work_dir
    EXPECT_TRUE(dir.disks.empty());
    const auto& raidz = s->layouts[1];
    EXPECT_EQ(raidz.name, "raidz1");
    EXPECT_EQ(raidz.kind, LayoutKind::ZfsRaidz1);
    EXPECT_FALSE(raidz.baseline);
    EXPECT_EQ(raidz.disks, (std::vector<std::string>{"vdev1", "vdev2", "vdev3", "vdev4"}));
    EXPECT_EQ(raidz.ashift, 12u);
    EXPECT_EQ(raidz.recordsizeBytes, 131072u);
    EXPECT_EQ(raidz.compression, "off");
    EXPECT_EQ(raidz.pool, "lb-raidz1");
    EXPECT_EQ(s->baseline().name, "dir");
}

TEST(ScenarioQuick, DisksAreFilesOf512MiBUnderWorkDir) {
    const auto s = loadScenario(LAYOUTBENCH_SOURCE_DIR "/scenarios/quick.toml", probes());
    ASSERT_TRUE(s) << s.error().message;
    ASSERT_EQ(s->disks.size(), 4u);
    for (int i = 0; i < 4; ++i) {
        const auto& d = s->disks[static_cast<std::size_t>(i)];
        const std::string n = std::to_string(i + 1);
        EXPECT_EQ(d.name, "vdev" + n);
        EXPECT_EQ(d.file, "/var/tmp/layoutbench/quick/vdev" + n + ".img");
        EXPECT_EQ(d.sizeBytes, 536870912u);
        EXPECT_TRUE(d.device.empty());
        EXPECT_FALSE(d.wipe);
    }
    ASSERT_NE(s->disk("vdev3"), nullptr);
    EXPECT_EQ(s->disk("vdev3")->name, "vdev3");
    EXPECT_EQ(s->disk("vdev5"), nullptr);
}

TEST(ScenarioQuick, WorkloadsHaveDefaultNamesAndBinaryToolSizes) {
    const auto s = loadScenario(LAYOUTBENCH_SOURCE_DIR "/scenarios/quick.toml", probes());
    ASSERT_TRUE(s) << s.error().message;
    std::vector<std::string> names;
    for (const auto& w : s->workloads)
        names.push_back(w.name);
    EXPECT_EQ(names, (std::vector<std::string>{"fio:seq-write-1m", "fio:seq-read-1m",
                                               "fio:rand-read-4k-qd1", "randfile", "xz"}));
    for (const auto& w : s->workloads) {
        if (w.probe != "fio")
            continue;
        EXPECT_EQ(w.options.bytes("size"), 134217728u) << w.name; // 128M, binary
        EXPECT_EQ(w.options.integer("runtime"), 5) << w.name;
    }
    ASSERT_NE(workload(*s, "randfile"), nullptr);
    EXPECT_EQ(workload(*s, "randfile")->probe, "randfile");
    EXPECT_EQ(workload(*s, "randfile")->options.bytes("size"), 134217728u);
    ASSERT_NE(workload(*s, "xz"), nullptr);
    EXPECT_EQ(workload(*s, "xz")->options.bytes("size"), 16777216u);
}

// --- valid scenarios: sizes, paths, defaults, names
// -----------------------------------------------

TEST(ScenarioSizes, DiskSizesAreDecimalAndRecordAndToolSizesBinary) {
    std::string text =
        replaced(valid, "size = \"1G\"\n\n[[disks]]", "size = \"500G\"\n\n[[disks]]");
    text = replaced(text, "name = \"d2\"\nfile = \"d2.img\"\nsize = \"1G\"",
                    "name = \"d2\"\nfile = \"d2.img\"\nsize = \"465GiB\"");
    text = replaced(text, "ashift = 12", "ashift = 12\nrecordsize = \"128K\"");
    text = replaced(text, "preset = \"seq-read-1m\"", "preset = \"seq-read-1m\"\nsize = \"256M\"");
    const auto s = parse(text);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->disks[0].sizeBytes, 500'000'000'000u);
    EXPECT_EQ(s->disks[1].sizeBytes, 465ULL * 1024 * 1024 * 1024);
    EXPECT_EQ(s->layouts[1].recordsizeBytes, 131072u);
    EXPECT_EQ(s->workloads[0].options.bytes("size"), 268435456u);
}

TEST(ScenarioSizes, IntegerSizesAreBytes) {
    std::string text = replaced(valid, "size = \"1G\"\n\n[[disks]]", "size = 4096\n\n[[disks]]");
    text = replaced(text, "preset = \"seq-read-1m\"", "preset = \"seq-read-1m\"\nsize = 2097152");
    const auto s = parse(text);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->disks[0].sizeBytes, 4096u);
    EXPECT_EQ(s->workloads[0].options.bytes("size"), 2097152u);
}

TEST(ScenarioPaths, DiskFilesAndDirPathsResolveAgainstWorkDir) {
    const auto s = parse(replaced(valid, "path = \".\"", "path = \"bench/run\""));
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->workDir, "/srv/layoutbench");
    EXPECT_EQ(s->disks[0].file, "/srv/layoutbench/d1.img");
    EXPECT_EQ(s->disks[1].file, "/srv/layoutbench/d2.img");
    EXPECT_EQ(s->layouts[0].path, "/srv/layoutbench/bench/run");
}

TEST(ScenarioPaths, RelativePathsInAFileResolveAgainstItsDirectory) {
    const std::string path = (scenarioData / "job-file.toml").string();
    const auto s = loadScenario(path, probes());
    ASSERT_TRUE(s) << s.error().message;
    const fs::path dir = fs::absolute(scenarioData).lexically_normal();
    EXPECT_EQ(s->path, path);
    EXPECT_EQ(s->workDir, (dir / "scratch").string());
    EXPECT_EQ(s->disks[0].file, (dir / "scratch" / "f1.img").string());
    EXPECT_EQ(s->disks[1].file, "/srv/vdevs/f2.img"); // absolute paths stay as written
    EXPECT_EQ(s->layouts[0].path, (dir / "scratch" / "sub" / "dir").string());
}

TEST(ScenarioPaths, RelativeJobFileResolvesAgainstTheScenarioFilesDirectory) {
    const auto s = loadScenario((scenarioData / "job-file.toml").string(), probes());
    ASSERT_TRUE(s) << s.error().message;
    ASSERT_EQ(s->workloads.size(), 1u);
    const std::string jobFile = s->workloads[0].options.text("job_file");
    EXPECT_EQ(
        jobFile,
        (fs::absolute(scenarioData).lexically_normal() / "jobs" / "random-70-30.fio").string());
    EXPECT_TRUE(fs::is_regular_file(jobFile)) << jobFile;
}

TEST(ScenarioSizes, DiskSizesInAFileAreExact) {
    const auto s = loadScenario((scenarioData / "job-file.toml").string(), probes());
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->disks[0].sizeBytes, 500'000'000'000u);
    EXPECT_EQ(s->disks[1].sizeBytes, 499'289'948'160u); // 465 * 2^30
}

TEST(ScenarioDefaults, ProbeOptionDefaultsAreFilledIn) {
    const auto s = parse(valid);
    ASSERT_TRUE(s) << s.error().message;
    const auto& fio = s->workloads[0].options;
    EXPECT_EQ(fio.maybeInteger("runtime"), 10);
    EXPECT_EQ(fio.text("ioengine"), "libaio");
    EXPECT_FALSE(fio.has("size")) << "the probe sizes its file by the I/O path it takes";
    EXPECT_EQ(fio.maybeInteger("ramp_time"), 0);
    EXPECT_EQ(fio.maybeInteger("numjobs"), 1);
    EXPECT_TRUE(fio.has("direct"));
    EXPECT_TRUE(fio.flag("direct"));
    EXPECT_FALSE(fio.given("direct")); // the table's default, not the scenario's
    EXPECT_EQ(fio.text("nfs_version"), "3");
    EXPECT_EQ(fio.maybeInteger("net_timeout"), 30);
    EXPECT_FALSE(fio.has("job_file"));
    const auto& xz = s->workloads[1].options;
    EXPECT_EQ(xz.maybeInteger("level"), 6);
    EXPECT_EQ(xz.maybeInteger("threads"), 0);
    EXPECT_EQ(xz.bytes("size"), 268435456u);
    EXPECT_FALSE(xz.has("input"));
    EXPECT_EQ(s->workloads[0].timeoutSeconds, 3600);
}

TEST(ScenarioDefaults, ScenarioAndLayoutDefaultsAreFilledIn) {
    const std::string text = R"(name = "bare"

[[disks]]
name = "d1"
file = "d1.img"
size = "1G"

[[layouts]]
name = "plain"
kind = "dir"
path = "."
baseline = true

[[layouts]]
name = "stripe"
kind = "zfs-stripe"
disks = ["d1"]

[[workloads]]
probe = "randfile"
)";
    const auto s = parse(text);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->iterations, 3);
    EXPECT_TRUE(s->dropCaches);
    EXPECT_EQ(s->workDir, "/var/tmp/layoutbench/bare");
    EXPECT_EQ(s->thresholds, Thresholds{});
    EXPECT_EQ(s->host.target, "local");
    const auto& stripe = s->layouts[1];
    EXPECT_EQ(stripe.pool, "lb-stripe");
    EXPECT_EQ(stripe.ashift, 12u);
    EXPECT_EQ(stripe.recordsizeBytes, 131072u);
    EXPECT_EQ(stripe.compression, "off");
    EXPECT_FALSE(stripe.atime);
    EXPECT_DOUBLE_EQ(stripe.underprovision, 1.0);
    EXPECT_EQ(s->workloads[0].options.bytes("size"), 1073741824u); // randfile default "1G"
}

TEST(ScenarioDefaults, CacheAndIoAreTakenFromTheFile) {
    const auto s = parse(replaced(valid, "iterations = 3",
                                  "iterations = 3\ncache = \"warm\"\n"
                                  "io = \"buffered\""));
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_FALSE(s->coldCache);
    EXPECT_EQ(s->io, Scenario::IoPath::Buffered);
    const auto cold = parse(valid);
    ASSERT_TRUE(cold) << cold.error().message;
    EXPECT_TRUE(cold->coldCache);
    EXPECT_EQ(cold->io, Scenario::IoPath::Auto);
}

TEST(ScenarioNames, WorkloadsAreNamedAfterProbeAndPresetOrJobFileUnlessNamed) {
    std::string text = replaced(valid, "probe = \"xz\"\n", R"(probe = "xz"

[[workloads]]
probe = "fio"
job_file = "/etc/layoutbench/mixed-oltp.fio"

[[workloads]]
name = "big-xz"
probe = "xz"
size = "1G"
)");
    const auto s = parse(text);
    ASSERT_TRUE(s) << s.error().message;
    ASSERT_EQ(s->workloads.size(), 4u);
    EXPECT_EQ(s->workloads[0].name, "fio:seq-read-1m");
    EXPECT_EQ(s->workloads[1].name, "xz");
    EXPECT_EQ(s->workloads[2].name, "fio:mixed-oltp");
    EXPECT_EQ(s->workloads[2].options.text("job_file"), "/etc/layoutbench/mixed-oltp.fio");
    EXPECT_EQ(s->workloads[3].name, "big-xz");
    EXPECT_EQ(s->workloads[3].probe, "xz");
}

TEST(ScenarioNames, JobFileWorkloadIsNamedAfterTheFileStem) {
    const auto s = loadScenario((scenarioData / "job-file.toml").string(), probes());
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->workloads[0].name, "fio:random-70-30");
}

TEST(ScenarioLines, LayoutsDisksAndWorkloadsRememberTheirLine) {
    const auto s = parse(valid);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->disks[1].line, positionOf(valid, "[[disks]]", 2).line);
    EXPECT_EQ(s->layouts[1].line, positionOf(valid, "[[layouts]]", 2).line);
    EXPECT_EQ(s->workloads[1].line, positionOf(valid, "[[workloads]]", 2).line);
}

// --- bad input: where and what ------------------------------------------------------------------

TEST(ScenarioErrors, TomlSyntaxErrorNamesItsLine) {
    const std::string text = replaced(valid, "iterations = 3", "iterations = = 3");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    const std::string prefix = lineOnly(text, "iterations = = 3") + ":";
    EXPECT_EQ(r.error().message.substr(0, prefix.size()), prefix) << r.error().message;
    EXPECT_NE(r.error().message.find("syntax"), std::string::npos) << r.error().message;
}

TEST(ScenarioErrors, UnterminatedStringIsASyntaxErrorOnItsLine) {
    const std::string text = replaced(valid, "kind = \"zfs-mirror\"", "kind = \"zfs-mirror");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    const std::string prefix = lineOnly(text, "kind = \"zfs-mirror") + ":";
    EXPECT_EQ(r.error().message.substr(0, prefix.size()), prefix) << r.error().message;
}

TEST(ScenarioErrors, UnknownTopLevelKey) {
    const std::string text = replaced(valid, "iterations = 3", "iteration = 3");
    expectBadInputAt(text, lineColumn(text, "iteration = 3"), "iteration");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("unknown key"), std::string::npos) << r.error().message;
}

TEST(ScenarioErrors, UnknownKeyInALayout) {
    const std::string text = replaced(valid, "ashift = 12", "ashift = 12\nraid_level = 6");
    expectBadInputAt(text, lineColumn(text, "raid_level"), "layouts[1].raid_level");
}

TEST(ScenarioErrors, UnknownKeyInADiskHostAndThresholds) {
    std::string text = replaced(valid, "file = \"d1.img\"", "file = \"d1.img\"\nrpm = 7200");
    expectBadInputAt(text, lineColumn(text, "rpm"), "disks[0].rpm");
    text = replaced(valid, "not_viable = 2.0", "not_viable = 2.0\ndecision = 1.5");
    expectBadInputAt(text, lineColumn(text, "decision"), "thresholds.decision");
    text = replaced(valid, "[thresholds]", "[host]\nport = 22\n\n[thresholds]");
    expectBadInputAt(text, lineColumn(text, "port"), "host.port");
}

TEST(ScenarioErrors, UnknownProbeOptionNamesTheOption) {
    const std::string text =
        replaced(valid, "preset = \"seq-read-1m\"", "preset = \"seq-read-1m\"\n  blocksize = 4");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    const std::string prefix = lineColumn(text, "blocksize") + ": ";
    EXPECT_EQ(r.error().message.substr(0, prefix.size()), prefix) << r.error().message;
    EXPECT_NE(r.error().message.find("blocksize", prefix.size()), std::string::npos)
        << r.error().message;
    EXPECT_NE(r.error().message.find("unknown option"), std::string::npos) << r.error().message;
}

TEST(ScenarioErrors, UnknownProbe) {
    const std::string text = replaced(valid, "probe = \"xz\"", "probe = \"iozone\"");
    expectBadInputAt(text, valueAt(text, "probe = \"iozone\""), "workloads[1].probe");
}

TEST(ScenarioErrors, WrongTypeNamesTheValue) {
    std::string text = replaced(valid, "iterations = 3", "iterations = \"three\"");
    expectBadInputAt(text, valueAt(text, "iterations = \"three\""), "iterations");
    text = replaced(valid, "baseline = true", "baseline = \"yes\"");
    expectBadInputAt(text, valueAt(text, "baseline = \"yes\""), "layouts[0].baseline");
    text = replaced(valid, "disks = [\"d1\", \"d2\"]", "disks = \"d1\"");
    expectBadInputAt(text, valueAt(text, "disks = \"d1\""), "layouts[1].disks");
}

TEST(ScenarioErrors, WrongTypeOfAProbeOption) {
    const std::string text =
        replaced(valid, "preset = \"seq-read-1m\"", "preset = \"seq-read-1m\"\nruntime = \"ten\"");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    const std::string prefix = lineOnly(text, "runtime = \"ten\"") + ":";
    EXPECT_EQ(r.error().message.substr(0, prefix.size()), prefix) << r.error().message;
    EXPECT_NE(r.error().message.find("runtime"), std::string::npos) << r.error().message;
}

TEST(ScenarioErrors, IterationsOutOfRange) {
    std::string text = replaced(valid, "iterations = 3", "iterations = 0");
    expectBadInputAt(text, valueAt(text, "iterations = 0"), "iterations");
    text = replaced(valid, "iterations = 3", "iterations = 1001");
    expectBadInputAt(text, valueAt(text, "iterations = 1001"), "iterations");
}

TEST(ScenarioErrors, AshiftOutOfRange) {
    const std::string text = replaced(valid, "ashift = 12", "ashift = 20");
    expectBadInputAt(text, valueAt(text, "ashift = 20"), "layouts[1].ashift");
}

TEST(ScenarioErrors, ProbeOptionOutOfRange) {
    const std::string text = replaced(valid, "probe = \"xz\"", "probe = \"xz\"\nlevel = 10");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    const std::string prefix = lineOnly(text, "level = 10") + ":";
    EXPECT_EQ(r.error().message.substr(0, prefix.size()), prefix) << r.error().message;
    EXPECT_NE(r.error().message.find("level"), std::string::npos) << r.error().message;
}

TEST(ScenarioErrors, BadDiskSize) {
    const std::string text =
        replaced(valid, "size = \"1G\"\n\n[[disks]]", "size = \"12X\"\n\n[[disks]]");
    expectBadInputAt(text, valueAt(text, "size = \"12X\""), "disks[0].size");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("12X"), std::string::npos) << r.error().message;
}

TEST(ScenarioErrors, BadToolSize) {
    const std::string text =
        replaced(valid, "preset = \"seq-read-1m\"", "preset = \"seq-read-1m\"\nsize = \"12X\"");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    const std::string prefix = lineOnly(text, "size = \"12X\"") + ":";
    EXPECT_EQ(r.error().message.substr(0, prefix.size()), prefix) << r.error().message;
    EXPECT_NE(r.error().message.find("12X"), std::string::npos) << r.error().message;
}

TEST(ScenarioErrors, RecordSizeNotAPowerOfTwo) {
    const std::string text = replaced(valid, "ashift = 12", "ashift = 12\nrecordsize = \"96K\"");
    expectBadInputAt(text, valueAt(text, "recordsize = \"96K\""), "layouts[1].recordsize");
}

TEST(ScenarioErrors, LayoutNamesADiskThatIsNotDefined) {
    const std::string text =
        replaced(valid, "disks = [\"d1\", \"d2\"]", "disks = [\"d1\", \"d3\"]");
    expectBadInputAt(text, lineOnly(text, "[[layouts]]", 2), "layouts.disks");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("'d3'"), std::string::npos) << r.error().message;
}

TEST(ScenarioErrors, LayoutListsTheSameDiskTwice) {
    const std::string text =
        replaced(valid, "disks = [\"d1\", \"d2\"]", "disks = [\"d2\", \"d1\", \"d2\"]");
    expectBadInputAt(text, lineOnly(text, "[[layouts]]", 2), "layouts.disks");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("'d2'"), std::string::npos) << r.error().message;
}

TEST(ScenarioErrors, SameDiskDefinedTwice) {
    const std::string text = replaced(valid, "name = \"d2\"", "name = \"d1\"");
    expectBadInputAt(text, lineOnly(text, "[[disks]]", 2), "disks.name");
}

TEST(ScenarioErrors, TwoBaselinesNameTheSecondOne) {
    const std::string text = replaced(valid, "ashift = 12", "ashift = 12\nbaseline = true");
    expectBadInputAt(text, lineOnly(text, "[[layouts]]", 2), "layouts.baseline");
}

TEST(ScenarioErrors, NoBaselineNamesTheFirstLayout) {
    const std::string text = replaced(valid, "baseline = true\n", "");
    expectBadInputAt(text, lineOnly(text, "[[layouts]]", 1), "layouts.baseline");
}

TEST(ScenarioErrors, DuplicateLayoutNames) {
    const std::string text = replaced(valid, "name = \"mirror\"", "name = \"plain\"");
    expectBadInputAt(text, lineOnly(text, "[[layouts]]", 2), "layouts.name");
}

TEST(ScenarioErrors, DuplicateWorkloadNames) {
    const std::string text =
        replaced(valid, "probe = \"xz\"\n", "probe = \"xz\"\n\n[[workloads]]\nprobe = \"xz\"\n");
    expectBadInputAt(text, lineOnly(text, "[[workloads]]", 3), "workloads.name");
}

TEST(ScenarioErrors, DuplicateDefaultWorkloadNamesAskForAName) {
    const std::string text = replaced(valid, "probe = \"xz\"\n",
                                      "probe = \"fio\"\npreset = \"seq-read-1m\"\nsize = \"1G\"\n");
    expectBadInputAt(text, lineOnly(text, "[[workloads]]", 2), "workloads.name");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("fio:seq-read-1m"), std::string::npos) << r.error().message;
}

// Found by the scenario fuzz target (tests/data/fuzz/scenario): a name made from a job file's
// stem may be too long while no `name` key exists to point at; the message points at the table.
TEST(ScenarioErrors, DefaultWorkloadNameTooLongPointsAtTheWorkload) {
    const std::string stem(140, 'j');
    const std::string text =
        replaced(valid, "probe = \"xz\"\n",
                 "probe = \"fio\"\njob_file = \"/etc/layoutbench/" + stem + ".fio\"\n");
    expectBadInputAt(text, lineOnly(text, "[[workloads]]", 2) + ":1",
                     "workloads[1].name: must be 1 to 128 characters");
}

TEST(ScenarioErrors, FioWorkloadWithPresetAndJobFile) {
    const std::string text = replaced(valid, "preset = \"seq-read-1m\"",
                                      "preset = \"seq-read-1m\"\njob_file = \"mine.fio\"");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    const std::string prefix = lineOnly(text, "[[workloads]]") + ": ";
    EXPECT_EQ(r.error().message.substr(0, prefix.size()), prefix) << r.error().message;
    EXPECT_NE(r.error().message.find("preset"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("job_file"), std::string::npos) << r.error().message;
}

TEST(ScenarioErrors, FioWorkloadWithNeitherPresetNorJobFile) {
    const std::string text = replaced(valid, "preset = \"seq-read-1m\"", "runtime = 5");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    const std::string prefix = lineOnly(text, "[[workloads]]") + ": ";
    EXPECT_EQ(r.error().message.substr(0, prefix.size()), prefix) << r.error().message;
    EXPECT_NE(r.error().message.find("preset"), std::string::npos) << r.error().message;
}

TEST(ScenarioErrors, UnknownFioPreset) {
    const std::string text = replaced(valid, "\"seq-read-1m\"", "\"seq-read-2m\"");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    const std::string prefix = lineColumn(text, "preset") + ": ";
    EXPECT_EQ(r.error().message.substr(0, prefix.size()), prefix) << r.error().message;
    EXPECT_NE(r.error().message.find("seq-read-2m"), std::string::npos) << r.error().message;
}

TEST(ScenarioErrors, DirLayoutWithoutPath) {
    const std::string text = replaced(valid, "path = \".\"\n", "");
    expectBadInputAt(text, lineColumn(text, "[[layouts]]"), "layouts[0].path");
}

TEST(ScenarioErrors, ZfsLayoutWithPath) {
    const std::string text = replaced(valid, "ashift = 12", "ashift = 12\npath = \"/tank\"");
    expectBadInputAt(text, valueAt(text, "path = \"/tank\""), "layouts[1].path");
}

TEST(ScenarioErrors, ZfsLayoutWithoutDisks) {
    const std::string text = replaced(valid, "disks = [\"d1\", \"d2\"]\n", "");
    expectBadInputAt(text, lineColumn(text, "[[layouts]]", 2), "layouts[1].disks");
}

TEST(ScenarioErrors, UnknownLayoutKind) {
    const std::string text = replaced(valid, "\"zfs-mirror\"", "\"raid7\"");
    expectBadInputAt(text, valueAt(text, "kind = \"raid7\""), "layouts[1].kind");
}

TEST(ScenarioErrors, FileDiskWithoutSize) {
    const std::string text = replaced(valid, "size = \"1G\"\n\n[[disks]]", "\n[[disks]]");
    expectBadInputAt(text, lineColumn(text, "[[disks]]"), "disks[0].size");
}

TEST(ScenarioErrors, DiskWithBothDeviceAndFile) {
    const std::string text =
        replaced(valid, "file = \"d2.img\"", "file = \"d2.img\"\ndevice = \"/dev/sdb\"");
    expectBadInputAt(text, lineColumn(text, "[[disks]]", 2), "disks[1].device");
}

TEST(ScenarioErrors, UnderprovisionAboveOne) {
    const std::string text = replaced(valid, "underprovision = 1.0", "underprovision = 1.5");
    expectBadInputAt(text, valueAt(text, "underprovision = 1.5"), "layouts[1].underprovision");
}

TEST(ScenarioErrors, ThresholdsViableNotBelowNotViable) {
    for (const std::string viable : {"2.0", "2.5"}) {
        const std::string text = replaced(valid, "viable = 1.10", "viable = " + viable);
        expectBadInputAt(text, lineColumn(text, "[thresholds]"), "thresholds");
    }
}

TEST(ScenarioErrors, SshTargetMustBeAnSshUrl) {
    const std::string text =
        replaced(valid, "[thresholds]", "[host]\ntarget = \"telnet://nas\"\n\n[thresholds]");
    expectBadInputAt(text, valueAt(text, "target = \"telnet://nas\""), "host.target");
    const std::string hostile = replaced(
        valid, "[thresholds]", "[host]\ntarget = \"ssh://-oProxyCommand=x\"\n\n[thresholds]");
    expectBadInputAt(hostile, valueAt(hostile, "target = \"ssh://-oProxyCommand=x\""),
                     "host.target");
}

TEST(Scenario, SshTargetWithIdentityAndKnownHosts) {
    const std::string text =
        replaced(valid, "[thresholds]",
                 "[host]\ntarget = \"ssh://root@nas:2222\"\nidentity = \"keys/id\"\n"
                 "known_hosts = \"/etc/lb/known_hosts\"\n\n[thresholds]");
    const auto s = parse(text);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->host.target, "ssh://root@nas:2222");
    EXPECT_TRUE(s->host.identity.ends_with("/keys/id")) << s->host.identity;
    EXPECT_TRUE(fs::path(s->host.identity).is_absolute());
    EXPECT_EQ(s->host.knownHosts, "/etc/lb/known_hosts");
}

TEST(Scenario, TildeIsTheHomeDirectory) {
    const std::string text =
        replaced(valid, "[thresholds]",
                 "[host]\ntarget = \"ssh://root@nas\"\nidentity = \"~/.ssh/id_ed25519\"\n\n"
                 "[thresholds]");
    const auto s = parse(text);
    ASSERT_TRUE(s) << s.error().message;
    const char* home = std::getenv("HOME");
    ASSERT_NE(home, nullptr);
    EXPECT_EQ(s->host.identity, (fs::path(home) / ".ssh/id_ed25519").lexically_normal().string());
}

TEST(ScenarioErrors, MdArraysOnFilesAreRefused) {
    const std::string text = replaced(valid, "\"zfs-mirror\"", "\"md-raid1\"");
    expectBadInputAt(text, lineOnly(text, "[[layouts]]", 2), "layouts.disks");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("block devices"), std::string::npos) << r.error().message;
}

// The valid fixture with its disks turned into block devices (md needs them).
std::string onDevices(std::string text) {
    text = replaced(text, "file = \"d1.img\"\nsize = \"1G\"", "device = \"/dev/sdb\"");
    return replaced(text, "file = \"d2.img\"\nsize = \"1G\"", "device = \"/dev/sdc\"");
}

TEST(Scenario, MdLayoutTakesArrayAndFileSystemOptions) {
    const std::string text = replaced(onDevices(valid), "kind = \"zfs-mirror\"",
                                      "kind = \"md-raid1\"\nfilesystem = \"xfs\"\nbitmap = "
                                      "\"none\"\nassume_clean = true\nmd_device = \"/dev/md7\"");
    const auto r = parse(replaced(text, "ashift = 12\n", ""));
    ASSERT_TRUE(r) << r.error().message;
    const auto& l = r->layouts[1];
    EXPECT_EQ(l.kind, LayoutKind::MdRaid1);
    EXPECT_EQ(l.filesystem, "xfs");
    EXPECT_FALSE(l.bitmap);
    EXPECT_TRUE(l.assumeClean);
    EXPECT_EQ(l.mdDevice, "/dev/md7");
    EXPECT_EQ(l.mdKind(), LayoutKind::MdRaid1);
}

TEST(ScenarioErrors, ChunkOnAZfsLayoutIsRefused) {
    const std::string text = replaced(valid, "ashift = 12", "chunk = \"64K\"");
    expectBadInputAt(text, valueAt(text, "chunk = \"64K\""), "layouts[1].chunk");
}

TEST(ScenarioErrors, ChunkMustBeAPowerOfTwo) {
    const std::string text =
        replaced(replaced(onDevices(valid), "kind = \"zfs-mirror\"", "kind = \"md-raid0\""),
                 "ashift = 12", "chunk = \"48K\"");
    expectBadInputAt(text, valueAt(text, "chunk = \"48K\""), "layouts[1].chunk");
}

TEST(ScenarioErrors, InnerMustBeAnMdKind) {
    const std::string text = replaced(onDevices(valid), "kind = \"zfs-mirror\"",
                                      "kind = \"zfs-stripe\"\ninner = \"zfs-mirror\"");
    expectBadInputAt(text, valueAt(text, "inner = \"zfs-mirror\""), "layouts[1].inner");
}

const std::string guestTable = R"(
[layouts.guest]
hypervisor = "qemu"
kernel = "/boot/vmlinuz"
initrd = "/boot/initrd.gz"
accel = "tcg"
memory = "512M"
ssh_port = 2299
layout = "zfs-stripe"
)";

TEST(Scenario, GuestLayoutOnAnInnerArray) {
    std::string text = replaced(onDevices(valid), "kind = \"zfs-mirror\"",
                                "kind = \"guest\"\ninner = \"md-raid1\"");
    text = replaced(text, "underprovision = 1.0\n", "underprovision = 1.0\n" + guestTable);
    const auto r = parse(replaced(text, "ashift = 12\n", ""));
    ASSERT_TRUE(r) << r.error().message;
    const auto& l = r->layouts[1];
    ASSERT_TRUE(l.guest);
    EXPECT_EQ(l.kind, LayoutKind::Guest);
    EXPECT_EQ(l.inner, LayoutKind::MdRaid1);
    EXPECT_EQ(l.guest->target, "ssh://root@127.0.0.1:2299");
    EXPECT_EQ(l.guest->memoryBytes, 512ULL << 20);
    EXPECT_EQ(l.guest->accel, "tcg");
    EXPECT_EQ(l.guest->layout, "zfs-stripe");
    EXPECT_EQ(l.mdDevice, "/dev/md/lb-mirror");
}

TEST(Scenario, QemuGuestBootedFromAnImageIsPassedItsDiskSecond) {
    std::string text = replaced(valid, "kind = \"zfs-mirror\"", "kind = \"guest\"");
    text = replaced(text, "disks = [\"d1\", \"d2\"]", "disks = [\"d1\"]");
    text = replaced(text, "underprovision = 1.0\n",
                    "underprovision = 1.0\n" +
                        replaced(replaced(guestTable, "kernel = \"/boot/vmlinuz\"\n",
                                          "image = \"/srv/vm/debian.qcow2\"\n"),
                                 "initrd = \"/boot/initrd.gz\"\n", ""));
    const auto r = parse(replaced(text, "ashift = 12\n", ""));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->layouts[1].guest->image, "/srv/vm/debian.qcow2");
    EXPECT_EQ(r->layouts[1].guest->disk, "/dev/vdb");
}

TEST(ScenarioErrors, GuestWithoutGuestTableIsRefused) {
    const std::string text = replaced(valid, "kind = \"zfs-mirror\"", "kind = \"guest\"");
    expectBadInputAt(text, lineColumn(text, "[[layouts]]", 2), "layouts[1].guest");
}

TEST(ScenarioErrors, GuestOfTwoDisksNeedsAnInnerArray) {
    std::string text = replaced(valid, "kind = \"zfs-mirror\"", "kind = \"guest\"");
    text = replaced(text, "underprovision = 1.0\n", "underprovision = 1.0\n" + guestTable);
    expectBadInputAt(text, valueAt(text, "disks = [\"d1\", \"d2\"]"), "layouts[1].disks");
}

TEST(ScenarioErrors, QemuGuestBootsAKernelOrAnImage) {
    std::string text = replaced(valid, "kind = \"zfs-mirror\"", "kind = \"guest\"");
    text = replaced(text, "disks = [\"d1\", \"d2\"]", "disks = [\"d1\"]");
    text = replaced(text, "underprovision = 1.0\n",
                    "underprovision = 1.0\n" +
                        replaced(guestTable, "kernel = \"/boot/vmlinuz\"\n", ""));
    expectBadInputAt(text, lineColumn(text, "[layouts.guest]"), "layouts[1].guest.kernel");
}

TEST(ScenarioErrors, GuestNeedsATarget) {
    std::string text = replaced(valid, "kind = \"zfs-mirror\"", "kind = \"guest\"");
    text = replaced(text, "disks = [\"d1\", \"d2\"]", "disks = [\"d1\"]");
    text = replaced(text, "underprovision = 1.0\n",
                    "underprovision = 1.0\n" + replaced(guestTable, "ssh_port = 2299\n", ""));
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("layouts[1].guest.target"), std::string::npos)
        << r.error().message;
}

TEST(ScenarioErrors, UnknownGuestKeyIsRefused) {
    std::string text = replaced(valid, "kind = \"zfs-mirror\"", "kind = \"guest\"");
    text = replaced(text, "disks = [\"d1\", \"d2\"]", "disks = [\"d1\"]");
    text = replaced(text, "underprovision = 1.0\n",
                    "underprovision = 1.0\n" + guestTable + "memroy = \"1G\"\n");
    expectBadInputAt(text, lineColumn(text, "memroy"), "layouts[1].guest.memroy");
}

TEST(ScenarioErrors, EmptyDirPathIsRefused) {
    const std::string text = replaced(valid, "path = \".\"", "path = \"\"");
    expectBadInputAt(text, valueAt(text, "path = \"\""), "layouts[0].path");
}

TEST(ScenarioErrors, EmptyWorkDirIsRefused) {
    const std::string text = replaced(valid, "work_dir = \"/srv/layoutbench\"", "work_dir = \"\"");
    expectBadInputAt(text, valueAt(text, "work_dir = \"\""), "work_dir");
}

TEST(ScenarioErrors, NoLayoutsNamesALineAndTheField) {
    const std::string text = R"(name = "no-layouts"

[[workloads]]
probe = "xz"
)";
    expectBadInputOnSomeLine(text, "layouts");
}

TEST(ScenarioErrors, NoWorkloadsNamesALineAndTheField) {
    const std::string text = R"(name = "no-workloads"

[[layouts]]
name = "plain"
kind = "dir"
path = "."
baseline = true
)";
    expectBadInputOnSomeLine(text, "workloads");
}

// fio refuses a file smaller than the block size ("size too small, must not be less than
// minimum block size"); the scenario should be refused before anything runs.
TEST(ScenarioErrors, FioSizeBelowThePresetsBlockSize) {
    const std::string text =
        replaced(valid, "preset = \"seq-read-1m\"", "preset = \"seq-read-1m\"\nsize = \"64K\"");
    const auto r = parse(text);
    ASSERT_FALSE(r) << "a 64 KiB file for 1 MiB blocks was accepted";
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    const auto sizeLine = std::to_string(positionOf(text, "size = \"64K\"").line);
    const auto tableLine = std::to_string(positionOf(text, "[[workloads]]").line);
    const auto& msg = r.error().message;
    EXPECT_TRUE(msg.rfind(inlinePath + ":" + sizeLine + ":", 0) == 0 ||
                msg.rfind(inlinePath + ":" + tableLine + ":", 0) == 0)
        << msg;
    EXPECT_NE(msg.find("size"), std::string::npos) << msg;
}

TEST(ScenarioErrors, MissingNameIsReportedAtTheTopOfTheFile) {
    const std::string text = replaced(valid, "name = \"inline\"\n", "");
    expectBadInputAt(text, inlinePath + ":1:1", "name");
}

TEST(ScenarioErrors, LoadedFileErrorsNameThatFile) {
    const std::string path = (scenarioData / "unknown-layout-key.toml").string();
    const auto r = loadScenario(path, probes());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    const std::string prefix = path + ":12:1: layouts[0].raid_level";
    EXPECT_EQ(r.error().message.substr(0, prefix.size()), prefix) << r.error().message;
}

TEST(ScenarioErrors, MissingFileIsBadInputNamingIt) {
    const std::string path = (scenarioData / "no-such-scenario.toml").string();
    const auto r = loadScenario(path, probes());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(r.error().message.substr(0, path.size() + 1), path + ":") << r.error().message;
}

TEST(Scenario, BlockDevicesCanBePartitionedToAFraction) {
    std::string text = replaced(valid, "file = \"d1.img\"\nsize = \"1G\"", "device = \"/dev/sdb\"");
    text = replaced(text, "file = \"d2.img\"\nsize = \"1G\"", "device = \"/dev/sdc\"\nwipe = true");
    text = replaced(text, "underprovision = 1.0", "underprovision = 0.8");
    const auto s = parse(text);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->disks[0].device, "/dev/sdb");
    EXPECT_TRUE(s->disks[1].wipe);
    EXPECT_DOUBLE_EQ(s->layouts[1].underprovision, 0.8);
}

// As on the command line, the fraction may be a percentage (issue 41); what is neither is refused
// at its value.
TEST(Scenario, UnderprovisionMayBeAPercentage) {
    std::string text = replaced(valid, "file = \"d1.img\"\nsize = \"1G\"", "device = \"/dev/sdb\"");
    text = replaced(text, "file = \"d2.img\"\nsize = \"1G\"", "device = \"/dev/sdc\"\nwipe = true");
    const auto s = parse(replaced(text, "underprovision = 1.0", "underprovision = \"80%\""));
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_DOUBLE_EQ(s->layouts[1].underprovision, 0.8);
    const std::string bad = replaced(text, "underprovision = 1.0", "underprovision = \"most\"");
    expectBadInputAt(bad, valueAt(bad, "underprovision = \"most\""), "layouts[1].underprovision");
}

TEST(ScenarioErrors, DeviceMustBeUnderDev) {
    const std::string text =
        replaced(valid, "file = \"d1.img\"\nsize = \"1G\"", "device = \"sdb\"");
    expectBadInputAt(text, valueAt(text, "device = \"sdb\""), "disks[0].device");
}

// Too few disks for what is built of them is refused when the file is read, at the layout, as
// every other layout error; it used to surface only when planning, naming the layout alone.
TEST(ScenarioErrors, TooFewDisksForTheKindAreRefusedAtTheLayout) {
    std::string text = replaced(valid, "\"zfs-mirror\"", "\"zfs-raidz2\"");
    expectBadInputAt(text, lineOnly(text, "[[layouts]]", 2), "layouts.disks");
    EXPECT_EQ(parse(text).error().message,
              lineOnly(text, "[[layouts]]", 2) +
                  ": layouts.disks: zfs-raidz2 cannot be made of 2 disks: it needs at least 3");
    text = replaced(valid, "disks = [\"d1\", \"d2\"]", "disks = [\"d1\"]");
    expectBadInputAt(text, lineOnly(text, "[[layouts]]", 2), "layouts.disks");
}

TEST(ScenarioErrors, ALayoutMixingDevicesAndFilesIsRefused) {
    const std::string text =
        replaced(valid, "file = \"d1.img\"\nsize = \"1G\"", "device = \"/dev/sdb\"");
    expectBadInputAt(text, lineOnly(text, "[[layouts]]", 2), "layouts.disks");
}

TEST(ScenarioErrors, FileDisksAreNotPartitioned) {
    const std::string text = replaced(valid, "underprovision = 1.0", "underprovision = 0.8");
    expectBadInputAt(text, lineOnly(text, "[[layouts]]", 2), "layouts.underprovision");
}

// ---- [layouts.export], [[clients]] and workloads that use them ----

namespace {

// `valid` with an export on both layouts (so workloads may target it) and `more` after.
std::string exported(const std::string& exportKeys, const std::string& more = {}) {
    std::string text = replaced(valid, "baseline = true\n",
                                "baseline = true\n[layouts.export]\niscsi = \"tgt\"\nnfs = "
                                "\"ganesha\"\n");
    text = replaced(text, "underprovision = 1.0\n",
                    "underprovision = 1.0\n[layouts.export]\n" + exportKeys);
    return text + more;
}

} // namespace

TEST(ScenarioExport, DefaultsFilledIn) {
    const auto r = parse(exported("iscsi = \"tgt\"\nnfs = \"kernel\"\n"));
    ASSERT_TRUE(r) << r.error().message;
    const auto& e = *r->layouts[1].exported;
    EXPECT_EQ(e.address, "127.0.0.1");
    EXPECT_EQ(e.iqn, "iqn.2026-11.org.layoutbench:mirror");
    EXPECT_EQ(e.lun, "file");
    EXPECT_EQ(e.lunSizeBytes, 1ULL << 30);
    EXPECT_EQ(e.volBlockBytes, 16U * 1024);
    EXPECT_EQ(e.tid, 1);
    EXPECT_EQ(e.lunNumber, 1);
    EXPECT_EQ(e.portalPort, 3260);
    EXPECT_EQ(e.initiators, std::vector<std::string>{"ALL"});
    EXPECT_EQ(e.nfsOptions, (std::vector<std::string>{"rw", "sync", "no_root_squash"}));
    EXPECT_EQ(e.nfsVersions, (std::vector<int>{3, 4}));
    EXPECT_EQ(e.nfsClients, std::vector<std::string>{"*"});
    EXPECT_TRUE(r->layouts[0].exported->nfs.has_value());
}

TEST(ScenarioExport, AddressDefaultsToTheSshHost) {
    const auto r = parse(replaced(exported("iscsi = \"lio\"\n"), "[thresholds]",
                                  "[host]\ntarget = \"ssh://root@nas.example:2222\"\n"
                                  "[thresholds]"));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->layouts[1].exported->address, "nas.example");
}

TEST(ScenarioExport, ChapSecretIsMaskedInTheStoredText) {
    const std::string text =
        exported("iscsi = \"tgt\"\nchap_user = \"xen\"\nchap_password = 'twelve+chars'\n");
    const auto r = parse(text);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->layouts[1].exported->chapPassword, "twelve+chars");
    EXPECT_EQ(r->text.find("twelve+chars"), std::string::npos);
    EXPECT_NE(r->text.find("chap_password = \"****\""), std::string::npos) << r->text;
    // The stored copy parses, and says that its secret is masked.
    const auto stored = parse(r->text);
    ASSERT_TRUE(stored) << stored.error().message;
    EXPECT_TRUE(stored->layouts[1].exported->chapPasswordMasked);
    EXPECT_TRUE(stored->layouts[1].exported->chapPassword.empty());
}

// The stored text never holds the secret and says "****" where it was, whatever the file's
// encoding quirks: a UTF-8 byte order mark, CRLF line endings, the secret on line 1, a multi-byte
// character before it, a copy of it in a comment.
TEST(ScenarioExport, ChapSecretIsMaskedWhateverTheEncoding) {
    const std::string secret = "line-one-secret";
    const std::string lineOne =
        "layouts = [{ name = \"plain\", kind = \"dir\", path = \".\", baseline = true }, "
        "{ name = \"exp\", kind = \"dir\", path = \"/srv/é\", export = { iscsi = \"tgt\", "
        "chap_user = \"xen\", chap_password = \"" +
        secret + "\" } }]\n";
    const std::string rest = "name = \"quirks\"\n[[workloads]]\nprobe = \"xz\"\n";
    const std::string bom = "\xEF\xBB\xBF";
    const auto crlf = [](std::string t) {
        for (auto at = t.find('\n'); at != std::string::npos; at = t.find('\n', at + 2))
            t.replace(at, 1, "\r\n");
        return t;
    };
    const std::string multiLine = exported("iscsi = \"tgt\"\nchap_user = \"xen\"\n"
                                           "# the password is " +
                                           secret + "\nchap_password = '''" + secret + "'''\n");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"line 1", lineOne + rest},
        {"BOM, line 1", bom + lineOne + rest},
        {"CRLF, line 1", crlf(lineOne + rest)},
        {"BOM, CRLF, line 1", bom + crlf(lineOne + rest)},
        {"BOM, CRLF, a later line, a comment", bom + crlf(multiLine)},
    };
    for (const auto& [what, text] : cases) {
        const auto r = parse(text);
        ASSERT_TRUE(r) << what << ": " << r.error().message;
        EXPECT_EQ(r->layouts[1].exported->chapPassword, secret) << what;
        EXPECT_EQ(r->text.find(secret), std::string::npos) << what << ":\n" << r->text;
        EXPECT_NE(r->text.find("chap_password = \"****\""), std::string::npos) << what << ":\n"
                                                                               << r->text;
        // In place: the rest of the file as written, BOM, comments and line endings included.
        const auto count = [](const std::string& t, const std::string& needle) {
            std::size_t n = 0;
            for (auto at = t.find(needle); at != std::string::npos; at = t.find(needle, at + 1))
                ++n;
            return n;
        };
        EXPECT_EQ(r->text.starts_with(bom), text.starts_with(bom)) << what;
        EXPECT_EQ(count(r->text, "\r\n"), count(text, "\r\n")) << what;
        EXPECT_EQ(count(r->text, "\n"), count(text, "\n")) << what;
        EXPECT_EQ(count(r->text, "# "), count(text, "# ")) << what;
        const auto stored = parse(r->text);
        ASSERT_TRUE(stored) << what << ": " << stored.error().message;
        EXPECT_TRUE(hasMaskedSecrets(*stored)) << what;
        EXPECT_TRUE(stored->layouts[1].exported->chapPassword.empty()) << what;
    }
}

// Found by the scenario fuzz target: a secret that is part of the mask ("**") was found again in
// each "****" written for it, and the text grew until memory ran out. The text is masked (before
// the scenario is checked), and the secret refused as too short, as any other.
TEST(ScenarioExport, ASecretInsideTheMaskIsMaskedOnce) {
    const auto r = parse(exported("iscsi = \"tgt\"\nchap_user = \"xen\"\n# not ** here\n"
                                  "chap_password = \"**\"\n"));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("layouts[1].export.chap_password: use at least 12 characters"),
              std::string::npos)
        << r.error().message;
}

TEST(ScenarioExport, ResumingPutsTheSecretBackFromTheScenario) {
    const std::string text =
        exported("iscsi = \"tgt\"\nchap_user = \"xen\"\nchap_password = 'twelve+chars'\n");
    const auto file = parse(text);
    ASSERT_TRUE(file) << file.error().message;
    auto stored = parse(file->text);
    ASSERT_TRUE(stored) << stored.error().message;
    EXPECT_TRUE(hasMaskedSecrets(*stored));
    EXPECT_FALSE(hasMaskedSecrets(*file));
    ASSERT_TRUE(restoreMaskedSecrets(*stored, *file, "nas.toml"));
    EXPECT_FALSE(hasMaskedSecrets(*stored));
    EXPECT_EQ(stored->layouts[1].exported->chapPassword, "twelve+chars");

    // A scenario that gives no secret for the layout cannot resume it: bad input naming both.
    auto again = parse(file->text);
    ASSERT_TRUE(again);
    const auto none = parse(valid);
    ASSERT_TRUE(none);
    const auto r = restoreMaskedSecrets(*again, *none, "other.toml");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(r.error().message.rfind("other.toml: layout 'mirror'", 0), 0u) << r.error().message;
    EXPECT_TRUE(again->layouts[1].exported->chapPasswordMasked);
}

TEST(ScenarioExport, ChapSecretFromAFile) {
    const fs::path file = fs::temp_directory_path() / "lb-scenario-test-chap";
    { std::ofstream(file) << "from-a-file-secret\n"; }
    const auto r = parse(exported("iscsi = \"tgt\"\nchap_user = \"xen\"\nchap_password_file = \"" +
                                  file.string() + "\"\n"));
    fs::remove(file);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->layouts[1].exported->chapPassword, "from-a-file-secret");
}

TEST(ScenarioExportErrors, EachNamesItsField) {
    std::string t = exported("iscsi = \"tgt\"\nportal = 3260\n");
    expectBadInputAt(t, lineColumn(t, "portal = "), "layouts[1].export.portal");
    t = exported("lun = \"file\"\n");
    expectBadInputOnSomeLine(t, "layouts[1].export.iscsi: an export needs");
    t = exported("iscsi = \"tgt\"\nlun = \"zvol\"\n");
    t = replaced(t, "kind = \"zfs-mirror\"", "kind = \"dir\"\npath = \"m\"");
    t = replaced(t, "disks = [\"d1\", \"d2\"]\n", "");
    t = replaced(t, "ashift = 12\n", "");
    t = replaced(t, "underprovision = 1.0\n", "");
    expectBadInputAt(t, valueAt(t, "lun = \"zvol\""), "layouts[1].export.lun: a zvol needs a ZFS");
    t = exported("iscsi = \"tgt\"\nlun = \"device\"\n");
    expectBadInputAt(t, valueAt(t, "lun = \"device\""), "layouts[1].export.lun: only an md");
    t = exported("iscsi = \"tgt\"\nvolblocksize = \"16K\"\n");
    expectBadInputAt(t, valueAt(t, "volblocksize = \"16K\""),
                     "layouts[1].export.volblocksize: only a zvol LUN");
    t = exported("iscsi = \"tgt\"\nlun = \"zvol\"\nvolblocksize = \"24K\"\n");
    expectBadInputAt(t, valueAt(t, "volblocksize = \"24K\""),
                     "layouts[1].export.volblocksize: must be a power of two from 4K to 128K");
    // OpenZFS before 2.2 refuses a volume size that is not a multiple of its block size.
    t = exported("iscsi = \"tgt\"\nlun = \"zvol\"\nlun_size = \"1028K\"\n");
    expectBadInputAt(t, valueAt(t, "lun_size = \"1028K\""),
                     "layouts[1].export.lun_size: a zvol's size must be a multiple of its "
                     "volblocksize (16K)");
    t = exported("nfs = \"ganesha\"\nnfs_options = [\"rw\", \"async\"]\n");
    expectBadInputAt(t, valueAt(t, "nfs_options = [\"rw\", \"async\"]"),
                     "layouts[1].export.nfs_options: 'async' is an option of the kernel server");
    t = exported("nfs = \"kernel\"\nnfs_options = [\"sync\", \"async\"]\n");
    expectBadInputOnSomeLine(t, "layouts[1].export.nfs_options: contradicting");
    t = exported("nfs = \"kernel\"\nnfs_versions = [2]\n");
    expectBadInputOnSomeLine(t, "layouts[1].export.nfs_versions: expected 3 or 4");
    t = exported("nfs = \"kernel\"\ntid = 2\n");
    expectBadInputAt(t, lineColumn(t, "tid = 2"), "layouts[1].export.tid: only an iSCSI export");
    t = exported("iscsi = \"tgt\"\nrsize = 2\n");
    expectBadInputAt(t, lineColumn(t, "rsize = 2"), "layouts[1].export.rsize: unknown key");
    t = exported("iscsi = \"tgt\"\niqn = \"iqn.2026-11.Example:Upper\"\n");
    expectBadInputAt(t, valueAt(t, "iqn = \"iqn.2026-11.Example:Upper\""),
                     "layouts[1].export.iqn: 'iqn.2026-11.Example:Upper' is not an IQN");
    t = exported("iscsi = \"tgt\"\nlun_number = 0\n");
    expectBadInputAt(t, valueAt(t, "lun_number = 0"), "layouts[1].export.lun_number: 0 is outside");
    t = exported("iscsi = \"tgt\"\nchap_user = \"xen\"\n");
    expectBadInputAt(t, valueAt(t, "chap_user = \"xen\""),
                     "layouts[1].export.chap_password: CHAP needs");
    t = exported("iscsi = \"tgt\"\nchap_user = \"xen\"\nchap_password = \"short\"\n");
    expectBadInputAt(t, valueAt(t, "chap_password = \"short\""),
                     "layouts[1].export.chap_password: use at least 12 characters");
    t = exported("iscsi = \"tgt\"\nchap_user = \"xen\"\nchap_password = \"has@an-at-sign\"\n");
    expectBadInputAt(t, valueAt(t, "chap_password = \"has@an-at-sign\""),
                     "layouts[1].export.chap_password: use printable characters other than");
    // A bad key's error never repeats the secret.
    const auto r = parse(exported("iscsi = \"tgt\"\nchap_user = \"xen\"\nchap_password = "
                                  "\"visible-secret-1\"\nbogus = 1\n"));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message.find("visible-secret-1"), std::string::npos);
}

TEST(ScenarioClients, ParsedWithDefaultsAndAllExpanded) {
    const auto r =
        parse(replaced(exported("iscsi = \"tgt\"\nnfs = \"ganesha\"\naddress = \"192.0.2.10\"\n",
                                R"(
[[workloads]]
name = "from-all"
probe = "fio"
preset = "rand-read-4k-qd1"
target = "nfs"
clients = "all"

[[workloads]]
name = "from-vm2"
probe = "netload"
target = "iscsi"
runtime = 5
clients = "vm2"

[[clients]]
name = "vm1"
target = "local"
fio_port = 8766

[[clients]]
name = "vm2"
target = "ssh://root@vm2.example"
identity = "~/.ssh/lb"
)"),
                       "baseline = true\n[layouts.export]\n",
                       "baseline = true\n[layouts.export]\naddress = \"192.0.2.10\"\n"));
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->clients.size(), 2u);
    EXPECT_EQ(r->clients[0].address, "127.0.0.1");
    EXPECT_EQ(r->clients[0].fioPort, 8766);
    EXPECT_EQ(r->clients[1].address, "vm2.example");
    EXPECT_EQ(r->clients[1].fioPort, 8765);
    EXPECT_EQ(r->clients[1].workDir, "/var/tmp/layoutbench-client");
    EXPECT_EQ(workload(*r, "from-all")->clients, (std::vector<std::string>{"vm1", "vm2"}));
    EXPECT_EQ(workload(*r, "from-vm2")->clients, std::vector<std::string>{"vm2"});
    EXPECT_TRUE(workload(*r, "fio:seq-read-1m")->clients.empty());
}

TEST(ScenarioClientsErrors, EachNamesItsLine) {
    const std::string clients = "\n[[clients]]\nname = \"vm1\"\n\n[[clients]]\nname = \"vm2\"\n"
                                "fio_port = 8766\n";
    const std::string netloadOnTwo =
        "\n[[workloads]]\nname = \"n\"\nprobe = \"netload\"\n"
        "target = \"nfs\"\nruntime = 1\nclients = [\"vm1\", \"vm2\"]\n";
    std::string t = exported("iscsi = \"tgt\"\n", netloadOnTwo + clients);
    expectBadInputAt(t, lineOnly(t, "[[workloads]]", 3),
                     "workloads.clients: the netload probe runs on one client at a time");
    t = exported("iscsi = \"tgt\"\n", "\n[[workloads]]\nname = \"f\"\nprobe = \"fio\"\npreset = "
                                      "\"seq-read-1m\"\nclients = \"nobody\"\n" +
                                          clients);
    expectBadInputAt(t, lineOnly(t, "[[workloads]]", 3), "workloads.clients: 'nobody' is not in");
    t = exported("iscsi = \"tgt\"\n", "\n[[workloads]]\nname = \"f\"\nprobe = \"fio\"\npreset = "
                                      "\"seq-read-1m\"\nclients = \"all\"\n");
    expectBadInputAt(t, lineOnly(t, "[[workloads]]", 3), "workloads.clients: \"all\" names no");
    t = exported("iscsi = \"tgt\"\n", clients + "\n[[clients]]\nname = \"vm3\"\n");
    expectBadInputAt(t, lineOnly(t, "[[clients]]", 3), "clients.fio_port: 127.0.0.1:8765 is used");
    t = exported("iscsi = \"tgt\"\n", "\n[[clients]]\nname = \"vm1\"\nwork_dir = \"tmp\"\n");
    expectBadInputAt(t, valueAt(t, "work_dir = \"tmp\""),
                     "clients[0].work_dir: must be an absolute path");
}

TEST(ScenarioExportErrors, WorkloadsTargetOnlyWhatEveryLayoutExports) {
    std::string t = exported("iscsi = \"tgt\"\n", "\n[[workloads]]\nname = \"n\"\nprobe = "
                                                  "\"netload\"\ntarget = \"nfs\"\nruntime = 1\n");
    expectBadInputAt(t, lineOnly(t, "[[workloads]]", 3),
                     "workloads.target: layout 'mirror' has no NFS export");
    t = exported("iscsi = \"tgt\"\nnfs = \"ganesha\"\nnfs_versions = [3]\n",
                 "\n[[workloads]]\nname = \"f\"\nprobe = \"fio\"\npreset = \"seq-read-1m\"\n"
                 "target = \"nfs\"\nnfs_version = \"4.1\"\n");
    expectBadInputAt(t, lineOnly(t, "[[workloads]]", 3),
                     "workloads.nfs_version: layout 'mirror' exports NFS 3 only");
    // Clients over SSH cannot use an export at 127.0.0.1.
    t = exported(
        "iscsi = \"tgt\"\n",
        "\n[[workloads]]\nname = \"n\"\nprobe = \"netload\"\ntarget = \"iscsi\"\nruntime = "
        "1\nclients = \"far\"\n\n[[clients]]\nname = \"far\"\ntarget = "
        "\"ssh://root@far.example\"\n");
    expectBadInputOnSomeLine(t, "layouts.export.address: clients over SSH cannot reach");
}

TEST(ScenarioRepetition, AutoIterationsWithBoundsAndTheCvRule) {
    auto r = parse(replaced(valid, "iterations = 3", "iterations = \"auto\""));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->adaptive());
    EXPECT_EQ(r->iterations, 3); // min_iterations by default
    EXPECT_EQ(r->maxIterations, 10);
    EXPECT_FALSE(r->untilCv);
    r = parse(replaced(valid, "iterations = 3",
                       "iterations = \"auto\"\nmin_iterations = 4\nmax_iterations = 6\n"
                       "until = \"cv<3%\"\nbracket = false\ninterleave = false"));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->iterations, 4);
    EXPECT_EQ(r->maxIterations, 6);
    ASSERT_TRUE(r->untilCv);
    EXPECT_DOUBLE_EQ(*r->untilCv, 0.03);
    EXPECT_EQ(r->bracket, false);
    EXPECT_EQ(r->interleave, false);
    r = parse(valid);
    ASSERT_TRUE(r);
    EXPECT_FALSE(r->adaptive());
    EXPECT_FALSE(r->bracket); // unset: the campaign decides
}

TEST(ScenarioErrors, AutoIterationsBadInputNamesTheKey) {
    std::string text = replaced(valid, "iterations = 3",
                                "iterations = \"auto\"\nmin_iterations = 5\nmax_iterations = 4");
    expectBadInputAt(text, valueAt(text, "max_iterations = 4"), "max_iterations");
    text = replaced(valid, "iterations = 3", "iterations = 3\nmax_iterations = 4");
    expectBadInputAt(text, valueAt(text, "max_iterations = 4"), "max_iterations");
    text = replaced(valid, "iterations = 3", "iterations = \"many\"");
    expectBadInputAt(text, valueAt(text, "iterations = \"many\""), "iterations");
    text = replaced(valid, "iterations = 3", "iterations = \"auto\"\nuntil = \"sd<3\"");
    expectBadInputAt(text, valueAt(text, "until = \"sd<3\""), "until");
}

TEST(ScenarioDecide, GlobsAreCheckedAgainstTheWorkloadsMetrics) {
    auto r = parse(valid + "\n[decide]\nmetrics = [\"fio.*.read.bw\", \"xz.throughput\"]\n");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->decide, (std::vector<std::string>{"fio.*.read.bw", "xz.throughput"}));
    EXPECT_EQ(r->policy().decide, r->decide);
    std::string text = valid + "\n[decide]\nmetrics = [\"fio.*.read.bw\", \"fi0.*.read.bw\"]\n";
    expectBadInputAt(text, lineColumn(text, "\"fi0.*.read.bw\""), "decide.metrics[1]");
    r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("unknown metric family 'fi0'"), std::string::npos);
    // The scenario has a read job only: a write glob matches nothing.
    text = valid + "\n[decide]\nmetrics = [\"fio.*.write.bw\"]\n";
    expectBadInputAt(text, lineColumn(text, "\"fio.*.write.bw\""), "decide.metrics[0]");
    r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("matches no metric"), std::string::npos);
    text = valid + "\n[decide]\nmetric = [\"xz.throughput\"]\n";
    expectBadInputAt(text, lineColumn(text, "metric ="), "decide.metric");
}

TEST(ScenarioPrecondition, OnAWorkloadOrALayout) {
    auto r = parse(replaced(valid, "preset = \"seq-read-1m\"",
                            "preset = \"seq-read-1m\"\nprecondition = \"snia\"\nsteady_rounds = "
                            "8\nsteady_round_seconds = 5\nprecondition_size = \"64M\""));
    ASSERT_TRUE(r) << r.error().message;
    const auto& p = r->workloads[0].precondition;
    EXPECT_TRUE(p.snia);
    EXPECT_EQ(p.maxRounds, 8);
    EXPECT_EQ(p.roundSeconds, 5);
    EXPECT_EQ(p.bytes, std::optional<std::uint64_t>(64ULL << 20));
    EXPECT_FALSE(r->workloads[1].precondition.snia);
    r = parse(
        replaced(valid, "underprovision = 1.0", "underprovision = 1.0\nprecondition = \"snia\""));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->layouts[1].precondition);
    EXPECT_FALSE(r->layouts[1].preconditionBytes);
    const auto& fio = r->workloads[0];
    const auto& xz = r->workloads[1];
    const auto probes = lb::standardProbes();
    std::string skipped;
    const auto fioRounds =
        lb::preconditioningFor(r->layouts[1], fio, *probes.find("fio"), &skipped);
    ASSERT_TRUE(fioRounds);
    EXPECT_EQ(fioRounds->maxRounds, 25); // the defaults
    EXPECT_EQ(fioRounds->roundSeconds, 60);
    EXPECT_FALSE(lb::preconditioningFor(r->layouts[1], xz, *probes.find("xz"), &skipped));
    EXPECT_EQ(skipped, "the xz probe has no steady-state rounds");
    EXPECT_FALSE(lb::preconditioningFor(r->layouts[0], fio, *probes.find("fio"), &skipped));
    EXPECT_TRUE(skipped.empty()); // the dir layout did not ask
}

// `df -B1 --output=avail`: the header, then the figure; one beyond 64 bits (a corrupt or
// hostile answer) is no figure, and threw std::out_of_range before.
TEST(ScenarioPrecondition, FreeSpaceFromDf) {
    EXPECT_EQ(lb::parseDfAvailable("    Avail\n 1234567\n"), std::optional<std::uint64_t>(1234567));
    EXPECT_EQ(lb::parseDfAvailable("Avail\n"), std::nullopt);
    EXPECT_EQ(lb::parseDfAvailable("Avail\n99999999999999999999999\n"), std::nullopt);
    EXPECT_EQ(lb::parseDfAvailable("Avail\n-5\n"), std::nullopt);
}

TEST(ScenarioErrors, PreconditionWhereItCannotRunNamesTheKey) {
    std::string text = replaced(valid, "probe = \"xz\"", "probe = \"xz\"\nprecondition = \"snia\"");
    expectBadInputAt(text, valueAt(text, "precondition = \"snia\""), "workloads[1].precondition");
    text = replaced(valid, "preset = \"seq-read-1m\"",
                    "preset = \"seq-read-1m\"\nprecondition = \"ssd\"");
    expectBadInputAt(text, valueAt(text, "precondition = \"ssd\""), "workloads[0].precondition");
    text = replaced(valid, "preset = \"seq-read-1m\"",
                    "preset = \"seq-read-1m\"\nprecondition_size = \"4K\"");
    expectBadInputAt(text, valueAt(text, "precondition_size = \"4K\""),
                     "workloads[0].precondition_size");
    text = replaced(valid, "baseline = true", "baseline = true\nprecondition = \"snia\"");
    expectBadInputAt(text, valueAt(text, "precondition = \"snia\""), "layouts[0].precondition");
    const auto r = parse(text);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("does not fill a directory it did not make"),
              std::string::npos)
        << r.error().message;
}
