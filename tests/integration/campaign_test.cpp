// Whole campaigns (engine/campaign/campaign.cpp, engine/build/plan.cpp) with real processes: fio,
// dd, xz and bonnie++ on a directory layout and on zfs-fuse RAIDZ1 pools made of sparse file vdevs.
// Each test writes its own scenario, store and work directory (/var/tmp/layoutbench-test-<test>)
// and checks what a user relies on:
//  - a small campaign runs every run, stores argv, exit status, raw output, tool versions and
//    caveats, tears every layout down (pool, vdev files, directories), journals build and undo
//    steps, and compares the layouts with verdicts;
//  - failures are runs, not crashes: a failing fio job file, a tool that is not installed, a
//    timeout, a full pool, and layouts that cannot be built (a vdev file that already exists is
//    refused and left alone; what was applied is undone);
//  - bonnie++ with a timed block write, and the caveat for a file size below twice the RAM;
//  - --resume runs only the runs that are missing.
// ZFS parts skip, saying why, when zfs-fuse cannot be made to answer.
#include "engine/build/plan.h"
#include "engine/campaign/campaign.h"
#include "engine/campaign/schedule.h"
#include "engine/exec/runner.h"
#include "engine/measure/steady_state.h"
#include "engine/scenario/scenario.h"
#include "engine/store/journal.h"
#include "engine/store/store.h"
#include "probes/registry.h"
#include "tests/cli/process.h"
#include "tests/support/raw_sql.h"
#include "tests/support/stored_runs.h"
#include "tests/support/zfs_fuse.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using lb::test::hasCaveat;
using lb::test::metricValue;
using lb::test::RunRow;
using lb::test::runRows;
using nlohmann::json;

// One row of the plan_step journal.
struct StepRow {
    std::string layout;
    std::int64_t seq = 0;
    std::string phase;
    std::vector<std::string> argv;
    std::optional<std::vector<std::string>> undo;
    std::string status;
};

std::vector<StepRow> stepRows(lb::Store& store, std::int64_t campaignId) {
    auto steps = lb::Journal(store).steps(campaignId);
    EXPECT_TRUE(steps) << steps.error().message;
    std::vector<StepRow> out;
    if (!steps)
        return out;
    for (const auto& st : *steps)
        out.push_back({st.layout, st.seq, std::string(lb::enumName(st.phase)), st.argv, st.undo,
                       std::string(lb::enumName(st.status))});
    return out;
}

// What the store keeps of a campaign, one field of it as text.
std::string campaignColumn(lb::Store& store, std::int64_t id, const std::string& column) {
    auto c = store.campaign(id);
    if (!c)
        return "<" + c.error().message + ">";
    if (!*c)
        return "<no campaign>";
    if (column == "status")
        return std::string(lb::enumName((*c)->status));
    if (column == "finished_at")
        return (*c)->finishedAt;
    if (column == "inventory")
        return (*c)->inventory;
    return "<no column " + column + ">";
}

std::vector<RunRow> select(const std::vector<RunRow>& rows, const std::string& layout,
                           const std::string& workload) {
    std::vector<RunRow> out;
    for (const auto& r : rows)
        if (r.layout == layout && r.workload == workload)
            out.push_back(r);
    return out;
}

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v)
        out += (out.empty() ? "" : " | ") + s;
    return out;
}

bool startsWith(const std::string& s, const std::string& prefix) {
    return s.rfind(prefix, 0) == 0;
}

// Processes whose working directory is `dir` or below it (a tool left running there).
std::vector<std::string> processesIn(const std::string& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        const std::string pid = entry.path().filename().string();
        if (pid.empty() || !std::all_of(pid.begin(), pid.end(), ::isdigit))
            continue;
        std::error_code linkEc;
        const auto cwd = fs::read_symlink(entry.path() / "cwd", linkEc).string();
        if (!linkEc && (cwd == dir || startsWith(cwd, dir + "/")))
            out.push_back(pid);
    }
    return out;
}

// Rewrites one program name before delegating to the local runner: a tool that is not installed.
class RenamingRunner : public lb::Runner {
public:
    RenamingRunner(std::string from, std::string to)
        : from_(std::move(from)), to_(std::move(to)), inner_(lb::makeLocalRunner()) {}
    lb::Expected<lb::ProcessResult> run(const lb::Command& cmd,
                                        const lb::RunOptions& opts) override {
        lb::Command c = cmd;
        if (c.program == from_)
            c.program = to_;
        return inner_->run(c, opts);
    }
    std::string target() const override { return inner_->target(); }

private:
    std::string from_, to_;
    std::unique_ptr<lb::Runner> inner_;
};

class Campaign : public ::testing::Test {
protected:
    static void SetUpTestSuite() { zfs_ = std::make_unique<lb::test::ZfsFuse>(); }
    static void TearDownTestSuite() { zfs_.reset(); }

    void SetUp() override {
        name_ = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        std::string lower = name_;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        poolPrefix_ = "lbt-" + lower;
        dir_ = "/var/tmp/layoutbench-test-" + name_;
        // Leftovers of a crashed run of this same test: its pools first (their vdevs are in dir_).
        destroyOurPools();
        std::error_code ec;
        fs::remove_all(dir_, ec);
        fs::create_directories(dir_);
        auto store = lb::Store::open(dir_ + "/results.db");
        ASSERT_TRUE(store) << store.error().message;
        store_ = std::make_unique<lb::Store>(std::move(*store));
        t0_ = std::chrono::steady_clock::now();
    }

    void TearDown() override {
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
        std::printf("[   time   ] %s: %.1f s\n", name_.c_str(), seconds);
        store_.reset();
        destroyOurPools();
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    static bool zfsAvailable() { return zfs_ && zfs_->available(); }
    static std::string zfsWhy() { return zfs_ ? zfs_->why() : "the ZFS fixture was not set up"; }

    // A pool name owned by this test: "lbt-<test>" or "lbt-<test>-<suffix>".
    std::string pool(const std::string& suffix = "") const {
        return suffix.empty() ? poolPrefix_ : poolPrefix_ + "-" + suffix;
    }

    // Destroys only the pools this test names, retrying while zfs-fuse says "busy".
    void destroyOurPools() const {
        const auto list = lb::test::runProcess({"zpool", "list", "-H", "-o", "name"});
        if (list.exitCode != 0)
            return;
        std::istringstream in(list.out);
        std::string name;
        while (std::getline(in, name)) {
            if (name != poolPrefix_ && !startsWith(name, poolPrefix_ + "-"))
                continue;
            for (int i = 0; i < 20 && lb::test::poolExists(name); ++i) {
                if (lb::test::runProcess({"zpool", "destroy", "-f", name}).exitCode == 0)
                    break;
                std::this_thread::sleep_for(std::chrono::milliseconds(500));
            }
        }
    }

    std::string work() const { return dir_ + "/work"; }

    lb::Scenario scenario(const std::string& toml) {
        const std::string path = dir_ + "/scenario.toml";
        std::ofstream(path) << toml;
        auto s = lb::parseScenario(toml, path, probes_);
        EXPECT_TRUE(s) << s.error().message << "\n" << toml;
        if (!s)
            return {};
        return std::move(*s);
    }

    // The scenario head: name, iterations, work_dir (caches are dropped, as by default).
    std::string head(int iterations) const {
        return "name = \"" + name_ + "\"\niterations = " + std::to_string(iterations) +
               "\nwork_dir = \"" + work() + "\"\n";
    }
    static std::string fileDisk(const std::string& name, const std::string& file,
                                const std::string& size) {
        return "[[disks]]\nname = \"" + name + "\"\nfile = \"" + file + "\"\nsize = \"" + size +
               "\"\n";
    }
    std::string dirLayout(const std::string& name, bool baseline) const {
        return "[[layouts]]\nname = \"" + name + "\"\nkind = \"dir\"\npath = \"" + dir_ +
               "\"\nbaseline = " + (baseline ? "true" : "false") + "\n";
    }
    static std::string zfsLayout(const std::string& name, const std::string& kind,
                                 const std::vector<std::string>& disks, const std::string& pool,
                                 bool baseline) {
        std::string list;
        for (const auto& d : disks)
            list += (list.empty() ? "\"" : ", \"") + d + "\"";
        return "[[layouts]]\nname = \"" + name + "\"\nkind = \"" + kind + "\"\ndisks = [" + list +
               "]\npool = \"" + pool + "\"\nbaseline = " + (baseline ? "true" : "false") + "\n";
    }
    // Four file vdevs v1..v4 of `size` and a raidz1 layout on them.
    static std::string raidz1(const std::string& name, const std::string& pool,
                              const std::string& size, bool baseline) {
        std::string out;
        for (int i = 1; i <= 4; ++i)
            out += fileDisk("v" + std::to_string(i), "v" + std::to_string(i) + ".img", size);
        return out + zfsLayout(name, "zfs-raidz1", {"v1", "v2", "v3", "v4"}, pool, baseline);
    }

    lb::Expected<lb::CampaignResult> run(const lb::Scenario& s, lb::CampaignOptions options = {}) {
        auto runner = lb::makeLocalRunner();
        return run(s, *runner, std::move(options));
    }
    lb::Expected<lb::CampaignResult> run(const lb::Scenario& s, lb::Runner& runner,
                                         lb::CampaignOptions options = {}) {
        return lb::runCampaign(*store_, s, probes_, runner, options);
    }

    static std::unique_ptr<lb::test::ZfsFuse> zfs_;
    lb::ProbeRegistry probes_ = lb::standardProbes();
    std::string name_;
    std::string poolPrefix_;
    std::string dir_;
    std::unique_ptr<lb::Store> store_;
    std::chrono::steady_clock::time_point t0_;
};

std::unique_ptr<lb::test::ZfsFuse> Campaign::zfs_;

#define REQUIRE_ZFS()                                                                              \
    do {                                                                                           \
        if (!zfsAvailable())                                                                       \
            GTEST_SKIP() << "ZFS is not available: " << zfsWhy();                                  \
    } while (0)

const std::string kFioWrite = "[[workloads]]\nprobe = \"fio\"\npreset = \"seq-write-1m\"\n"
                              "size = \"16MiB\"\nruntime = 1\n";
const std::string kFioRandRead = "[[workloads]]\nprobe = \"fio\"\npreset = \"rand-read-4k-qd1\"\n"
                                 "size = \"16MiB\"\nruntime = 1\n";
const std::string kRandfile = "[[workloads]]\nprobe = \"randfile\"\nsize = \"16MiB\"\n";
const std::string kXz = "[[workloads]]\nprobe = \"xz\"\nsize = \"4MiB\"\n";

TEST_F(Campaign, WholeCampaign) {
    REQUIRE_ZFS();
    const auto s = scenario(head(2) + raidz1("raidz1", pool(), "128MiB", false) +
                            dirLayout("dir", true) + kFioWrite + kFioRandRead + kRandfile + kXz);
    ASSERT_EQ(s.layouts.size(), 2u);
    auto result = run(s);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, lb::CampaignStatus::Done) << joined(result->problems);
    EXPECT_TRUE(result->problems.empty()) << joined(result->problems);
    // The two layouts coexist: built together, iterations taken in turn, and the baseline runs
    // once more after the last round (bracketing).
    const auto schedule = lb::scheduleCampaign(s, std::nullopt);
    EXPECT_TRUE(schedule.interleaved) << schedule.sequentialWhy;
    EXPECT_TRUE(schedule.bracket);
    const std::size_t expected = 2 * 4 * 2 + 4; // layouts * workloads * iterations + bracketing
    EXPECT_EQ(schedule.runs.size(), expected);
    EXPECT_EQ(result->runs, expected);
    EXPECT_EQ(result->failedRuns, 0u);
    EXPECT_EQ(result->skippedRuns, 0u);
    EXPECT_EQ(campaignColumn(*store_, result->campaignId, "status"), "done");
    EXPECT_FALSE(campaignColumn(*store_, result->campaignId, "finished_at").empty());

    const auto rows = runRows(*store_, result->campaignId);
    ASSERT_EQ(rows.size(), expected);
    std::set<std::tuple<std::string, std::string, int>> keys;
    for (const auto& r : rows) {
        SCOPED_TRACE(r.layout + " " + r.workload + " #" + std::to_string(r.iteration));
        keys.insert({r.layout, r.workload, r.iteration});
        EXPECT_EQ(r.status, "ok") << r.reason << "\nstderr: " << r.err;
        EXPECT_GT(r.metrics, 0);
        ASSERT_FALSE(r.argv.empty());
        ASSERT_TRUE(r.exitCode.has_value());
        EXPECT_EQ(*r.exitCode, 0);
        EXPECT_FALSE(r.toolVersion.empty());
        if (r.probe == "fio") {
            EXPECT_EQ(r.argv.front(), "fio");
            EXPECT_TRUE(startsWith(r.toolVersion, "fio-")) << r.toolVersion;
            // The raw JSON, stored before parsing.
            const auto raw = json::parse(r.out, nullptr, false);
            ASSERT_FALSE(raw.is_discarded()) << r.out.substr(0, 200);
            EXPECT_EQ(raw.value("fio version", ""), r.toolVersion);
        } else if (r.probe == "randfile") {
            // fio's generator writes it; its JSON holds the source's rate and the write's.
            EXPECT_EQ(r.argv.front(), "fio");
            const auto raw = json::parse(r.out, nullptr, false);
            ASSERT_FALSE(raw.is_discarded()) << r.out.substr(0, 200);
            EXPECT_EQ(raw.value("fio version", ""), r.toolVersion);
        } else {
            EXPECT_EQ(r.probe, "xz");
            EXPECT_EQ(r.argv.front(), "xz");
            EXPECT_NE(r.toolVersion.find("XZ Utils"), std::string::npos) << r.toolVersion;
        }
        // Whether the page cache was dropped is recorded either way; ZFS keeps metadata only in
        // its ARC (cache = "cold", the default).
        EXPECT_TRUE(hasCaveat(r, "page cache dropped before the run") ||
                    hasCaveat(r, "page cache not dropped"))
            << joined(r.caveats);
        EXPECT_EQ(hasCaveat(r, "primarycache=metadata"), r.layout == "raidz1") << joined(r.caveats);
    }
    EXPECT_EQ(keys.size(), expected);
    // One I/O path for every layout, as the campaign decided and stored it.
    auto io = store_->campaignIo(result->campaignId);
    ASSERT_TRUE(io && *io);
    std::printf("  I/O path: %s\n", lb::describeCampaignIo(**io).c_str());
    EXPECT_EQ((*io)->why, (*io)->direct ? "every layout accepts O_DIRECT"
                                        : "layout 'raidz1' does not accept O_DIRECT");
    for (const auto& r : rows) {
        if (r.probe != "fio")
            continue;
        EXPECT_EQ(std::find(r.argv.begin(), r.argv.end(), "--direct=1") != r.argv.end(),
                  (*io)->direct)
            << r.layout;
    }
    // In turn: round 1 starts with the baseline, round 2 with the candidate, then the baseline.
    std::vector<std::string> order;
    for (const auto& r : rows)
        if (r.workload == "xz")
            order.push_back(r.layout + "#" + std::to_string(r.iteration));
    EXPECT_EQ(order, (std::vector<std::string>{"dir#0", "raidz1#0", "raidz1#1", "dir#1", "dir#2"}));
    for (const auto& layout : {"dir", "raidz1"}) {
        const auto fio = select(rows, layout, "fio:seq-write-1m");
        ASSERT_FALSE(fio.empty());
        std::printf("  %s: fio caveats: %s\n", layout, joined(fio[0].caveats).c_str());
    }

    // The inventory stored with the campaign.
    const auto inventory = json::parse(campaignColumn(*store_, result->campaignId, "inventory"));
    EXPECT_GT(inventory.value("ram_bytes", std::uint64_t{0}), 0u) << inventory.dump();
    EXPECT_FALSE(inventory.value("kernel", "").empty()) << inventory.dump();
    ASSERT_TRUE(inventory.contains("tools")) << inventory.dump();
    EXPECT_TRUE(startsWith(inventory["tools"].value("fio", ""), "fio-")) << inventory.dump();
    EXPECT_FALSE(inventory["tools"].value("zpool", "").empty()) << inventory.dump();

    // Torn down: pool, vdev files, the dir layout's directory.
    EXPECT_FALSE(lb::test::poolExists(pool()));
    for (int i = 1; i <= 4; ++i)
        EXPECT_FALSE(fs::exists(work() + "/v" + std::to_string(i) + ".img")) << i;
    EXPECT_FALSE(fs::exists(dir_ + "/layoutbench-dir"));
    EXPECT_FALSE(fs::exists(work() + "/mnt-raidz1"));

    // The journal: every build step with an undo was undone, every undo applied. The
    // "test ! -e" checks have no undo and stay 'applied'.
    const auto steps = stepRows(*store_, result->campaignId);
    std::size_t withUndo = 0, undos = 0, creates = 0;
    for (const auto& st : steps) {
        SCOPED_TRACE(st.phase + " " + json(st.argv).dump() + " -> " + st.status);
        if (st.phase == "build") {
            if (st.undo) {
                ++withUndo;
                EXPECT_EQ(st.status, "undone");
            } else {
                EXPECT_EQ(st.argv.front(), "test");
                EXPECT_EQ(st.status, "applied");
            }
            if (st.argv.size() > 1 && st.argv[0] == "zpool" && st.argv[1] == "create")
                ++creates;
        } else {
            EXPECT_EQ(st.phase, "undo");
            EXPECT_EQ(st.status, "applied");
            ++undos;
        }
    }
    EXPECT_EQ(creates, 1u);
    // As many as the plans have steps with an undo (mkdir; truncates, mount point, pool).
    std::size_t planned = 0;
    for (const auto& layout : s.layouts) {
        auto plan = lb::planLayout(s, layout);
        ASSERT_TRUE(plan) << plan.error().message;
        planned += static_cast<std::size_t>(std::count_if(
            plan->steps.begin(), plan->steps.end(), [](const lb::PlanStep& p) { return p.undo; }));
    }
    EXPECT_EQ(withUndo, planned);
    EXPECT_EQ(undos, withUndo);

    auto cmp = lb::compareStoredLayouts(*store_, "dir", "raidz1", s.policy(), result->campaignId);
    ASSERT_TRUE(cmp) << cmp.error().message;
    std::set<std::string> names;
    std::printf("  overall verdict raidz1 vs dir: %s\n",
                std::string(lb::verdictName(cmp->verdict)).c_str());
    for (const auto& m : cmp->metrics) {
        names.insert(m.name);
        EXPECT_EQ(m.baselineSamples, 3u) << m.name; // two iterations and the bracketing run
        EXPECT_EQ(m.candidateSamples, 2u) << m.name;
        EXPECT_GT(m.baselineMedian, 0) << m.name;
        EXPECT_GT(m.candidateMedian, 0) << m.name;
        EXPECT_GT(m.ratio, 0) << m.name;
        const std::string verdict(lb::verdictName(m.verdict));
        EXPECT_TRUE(verdict == "viable" || verdict == "decision" || verdict == "not-viable");
        std::printf("  %-40s dir %14.1f  raidz1 %14.1f  ratio %6.2f  %s\n", m.name.c_str(),
                    m.baselineMedian, m.candidateMedian, m.ratio, verdict.c_str());
    }
    for (const char* n : {"fio.seq-write-1m.write.bw", "fio.rand-read-4k-qd1.read.iops",
                          "randfile.throughput", "xz.throughput", "xz.wall"})
        EXPECT_TRUE(names.count(n)) << n;

    // fio's per-interval logs and json+ histograms, stored with every fio run.
    for (const auto& layout : {"dir", "raidz1"}) {
        const auto series = store_->layoutSeries(layout, result->campaignId);
        ASSERT_TRUE(series) << series.error().message;
        const auto stored = lb::seriesNames(*series);
        for (const char* n : {"fio.seq-write-1m.write.bw", "fio.rand-read-4k-qd1.read.lat_mean",
                              "fio.rand-read-4k-qd1.read.lat_curve"})
            EXPECT_TRUE(std::find(stored.begin(), stored.end(), n) != stored.end())
                << layout << ": " << n;
    }

    auto integrity = store_->integrityCheck();
    ASSERT_TRUE(integrity) << integrity.error().message;
    EXPECT_EQ(*integrity, "ok");
}

// cache = "warm" keeps the page cache: no run drops it, each says so, and the campaign's own
// statement (the report's header) says the same, never "dropped before each run".
TEST_F(Campaign, AWarmCacheCampaignKeepsThePageCacheAndEveryStatementSaysSo) {
    const auto s = scenario(head(1) + "cache = \"warm\"\n" + dirLayout("a", true) +
                            dirLayout("b", false) + kRandfile);
    auto result = run(s);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->failedRuns, 0u) << joined(result->problems);
    const auto rows = runRows(*store_, result->campaignId);
    ASSERT_FALSE(rows.empty());
    for (const auto& r : rows) {
        SCOPED_TRACE(r.layout + " #" + std::to_string(r.iteration));
        EXPECT_TRUE(hasCaveat(r, "page cache not dropped: cache = \"warm\"")) << joined(r.caveats);
        EXPECT_FALSE(hasCaveat(r, "page cache dropped before the run")) << joined(r.caveats);
    }
    auto io = store_->campaignIo(result->campaignId);
    ASSERT_TRUE(io && *io);
    EXPECT_FALSE((*io)->coldCache);
    EXPECT_FALSE((*io)->pageCacheDropped);
    const auto said = lb::describeCampaignIo(**io);
    EXPECT_NE(said.find("page cache kept between runs"), std::string::npos) << said;
    EXPECT_EQ(said.find("dropped"), std::string::npos) << said;
}

TEST_F(Campaign, FailingWorkloadDoesNotStopTheCampaign) {
    // A job file whose target path goes through a regular file: fio fails with error 20.
    std::ofstream(dir_ + "/not-a-dir") << "a regular file\n";
    std::ofstream(dir_ + "/bad.fio")
        << "[bad]\nrw=write\nsize=1M\nioengine=psync\nfilename=" + dir_ + "/not-a-dir/file\n";
    const auto s = scenario(head(2) + dirLayout("dir", true) +
                            "[[workloads]]\nprobe = \"fio\"\njob_file = \"bad.fio\"\n" + kRandfile);
    ASSERT_EQ(s.workloads.size(), 2u);
    ASSERT_EQ(s.workloads[0].name, "fio:bad");
    auto result = run(s);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, lb::CampaignStatus::Done) << joined(result->problems);
    EXPECT_EQ(result->runs, 4u);
    EXPECT_EQ(result->failedRuns, 2u);

    const auto rows = runRows(*store_, result->campaignId);
    ASSERT_EQ(rows.size(), 4u);
    const auto bad = select(rows, "dir", "fio:bad");
    ASSERT_EQ(bad.size(), 2u);
    std::printf("  reason: %s\n", bad[0].reason.c_str());
    for (const auto& r : bad) {
        SCOPED_TRACE("fio:bad #" + std::to_string(r.iteration));
        EXPECT_EQ(r.status, "failed");
        EXPECT_TRUE(startsWith(r.reason, "exit status 1")) << r.reason;
        EXPECT_NE(r.reason.find("err=20"), std::string::npos) << r.reason;
        EXPECT_NE(r.reason.find("Not a directory"), std::string::npos) << r.reason;
        EXPECT_NE(r.err.find("Not a directory"), std::string::npos) << r.err;
        EXPECT_NE(r.out.find("\"error\" : 20"), std::string::npos) << r.out.substr(0, 300);
        ASSERT_TRUE(r.exitCode.has_value());
        EXPECT_EQ(*r.exitCode, 1);
        EXPECT_EQ(r.metrics, 0);
        EXPECT_TRUE(hasCaveat(r, "used as-is")) << joined(r.caveats);
    }
    const auto good = select(rows, "dir", "randfile");
    ASSERT_EQ(good.size(), 2u);
    for (const auto& r : good) {
        EXPECT_EQ(r.status, "ok") << r.reason;
        EXPECT_GT(metricValue(*store_, r.id, "randfile.throughput").value_or(0), 0);
    }
    EXPECT_FALSE(fs::exists(dir_ + "/layoutbench-dir"));
    EXPECT_TRUE(fs::exists(dir_ + "/bad.fio")); // the user's job file is not ours to remove
}

TEST_F(Campaign, MissingToolIsAFailedRun) {
    const auto s = scenario(head(1) + dirLayout("dir", true) + kFioWrite + kXz);
    RenamingRunner runner("fio", "fio-not-installed-xyz");
    auto result = run(s, runner);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, lb::CampaignStatus::Done) << joined(result->problems);
    EXPECT_EQ(result->runs, 2u);
    EXPECT_EQ(result->failedRuns, 1u);

    const auto rows = runRows(*store_, result->campaignId);
    const auto fio = select(rows, "dir", "fio:seq-write-1m");
    ASSERT_EQ(fio.size(), 1u);
    std::printf("  reason: %s\n", fio[0].reason.c_str());
    EXPECT_EQ(fio[0].status, "failed");
    EXPECT_NE(fio[0].reason.find("fio-not-installed-xyz"), std::string::npos) << fio[0].reason;
    EXPECT_NE(fio[0].reason.find("not found"), std::string::npos) << fio[0].reason;
    EXPECT_FALSE(fio[0].exitCode.has_value());
    EXPECT_EQ(fio[0].metrics, 0);
    // The other workload, with a tool that is there, still runs.
    const auto xz = select(rows, "dir", "xz");
    ASSERT_EQ(xz.size(), 1u);
    EXPECT_EQ(xz[0].status, "ok") << xz[0].reason;

    // The inventory says so too.
    const auto inventory = json::parse(campaignColumn(*store_, result->campaignId, "inventory"));
    const std::string fioVersion = inventory["tools"].value("fio", "");
    EXPECT_TRUE(startsWith(fioVersion, "not installed")) << inventory.dump();
    EXPECT_FALSE(fs::exists(dir_ + "/layoutbench-dir"));
}

TEST_F(Campaign, TimeoutStopsTheToolAndCleansUp) {
    const auto s = scenario(head(1) + dirLayout("dir", true) +
                            "[[workloads]]\nprobe = \"fio\"\npreset = \"seq-write-1m\"\n"
                            "size = \"16MiB\"\nruntime = 30\ntimeout = 2\n");
    const std::string layoutDir = dir_ + "/layoutbench-dir";
    const std::string testFile = layoutDir + "/lb-fio-seq-write-1m.dat";
    bool sawFinish = false, dirThen = false, fileThen = true;
    std::vector<std::string> leftover;
    lb::CampaignOptions options;
    options.onProgress = [&](const lb::CampaignProgress& p) {
        if (p.kind != lb::CampaignProgress::Kind::RunFinished)
            return;
        // After the run is settled and before teardown: the layout is still there, fio's file
        // and fio itself are gone.
        sawFinish = true;
        dirThen = fs::is_directory(layoutDir);
        fileThen = fs::exists(testFile);
        leftover = processesIn(layoutDir);
    };
    const auto t0 = std::chrono::steady_clock::now();
    auto result = run(s, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_LT(seconds, 15.0);
    EXPECT_EQ(result->runs, 1u);
    EXPECT_EQ(result->failedRuns, 1u);
    const auto rows = runRows(*store_, result->campaignId);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].status, "failed");
    EXPECT_EQ(rows[0].reason, "timed out after 2 s");
    EXPECT_EQ(rows[0].metrics, 0);
    ASSERT_TRUE(sawFinish);
    EXPECT_TRUE(dirThen);
    EXPECT_FALSE(fileThen) << testFile << " was left behind";
    EXPECT_TRUE(leftover.empty()) << "processes still in " << layoutDir << ": " << joined(leftover);
    EXPECT_FALSE(fs::exists(layoutDir));
    std::printf("  campaign with a 2 s timeout on a 30 s fio run took %.1f s\n", seconds);
}

TEST_F(Campaign, DiskFullIsAFailedRunAndThePoolIsTornDown) {
    REQUIRE_ZFS();
    // 64 MiB is zfs-fuse's smallest vdev; four of them in RAIDZ1 hold about 140 MiB.
    const auto s = scenario(head(1) + raidz1("small", pool(), "64MiB", true) +
                            "[[workloads]]\nprobe = \"randfile\"\nsize = \"512MiB\"\n"
                            "timeout = 120\n" +
                            kXz);
    auto result = run(s);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, lb::CampaignStatus::Done) << joined(result->problems);
    EXPECT_EQ(result->runs, 2u);
    EXPECT_EQ(result->failedRuns, 1u);
    const auto rows = runRows(*store_, result->campaignId);
    const auto full = select(rows, "small", "randfile");
    ASSERT_EQ(full.size(), 1u);
    std::printf("  reason: %s\n", full[0].reason.c_str());
    EXPECT_EQ(full[0].status, "failed");
    EXPECT_TRUE(startsWith(full[0].reason, "disk full")) << full[0].reason;
    EXPECT_NE(full[0].err.find("No space left on device"), std::string::npos) << full[0].err;
    EXPECT_EQ(full[0].metrics, 0);
    // The campaign went on: the file was removed and the next workload ran on the same pool.
    const auto xz = select(rows, "small", "xz");
    ASSERT_EQ(xz.size(), 1u);
    EXPECT_EQ(xz[0].status, "ok") << xz[0].reason << "\n" << xz[0].err;
    EXPECT_FALSE(lb::test::poolExists(pool()));
    for (int i = 1; i <= 4; ++i)
        EXPECT_FALSE(fs::exists(work() + "/v" + std::to_string(i) + ".img")) << i;
}

TEST_F(Campaign, Bonnie) {
    // bonnie++ prints +++++ for a test that took under half a second: a 64 MiB block write to
    // the page cache does here, so the timed run writes 1 GiB.
    const auto s = scenario(head(1) + dirLayout("dir", true) +
                            "[[workloads]]\nprobe = \"bonnie\"\nname = \"bonnie-timed\"\n"
                            "size = \"1GiB\"\nram = \"512MiB\"\nfiles = 0\nfast = true\n"
                            "[[workloads]]\nprobe = \"bonnie\"\nname = \"bonnie-small\"\n"
                            "size = \"16MiB\"\nram = \"32MiB\"\nfiles = 0\nfast = true\n");
    auto result = run(s);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, lb::CampaignStatus::Done) << joined(result->problems);
    const auto rows = runRows(*store_, result->campaignId);
    ASSERT_EQ(rows.size(), 2u);

    const auto timed = select(rows, "dir", "bonnie-timed");
    ASSERT_EQ(timed.size(), 1u);
    EXPECT_EQ(timed[0].status, "ok") << timed[0].reason << "\n" << timed[0].err;
    const auto putBlock = metricValue(*store_, timed[0].id, "bonnie.put_block");
    ASSERT_TRUE(putBlock) << "caveats: " << joined(timed[0].caveats) << "\n" << timed[0].out;
    EXPECT_GT(*putBlock, 0);
    EXPECT_FALSE(hasCaveat(timed[0], "below twice the RAM")) << joined(timed[0].caveats);
    EXPECT_TRUE(startsWith(timed[0].toolVersion, "bonnie++ 2.")) << timed[0].toolVersion;
    const auto& argv = timed[0].argv;
    EXPECT_EQ(argv.front(), "bonnie++");
    EXPECT_NE(std::find(argv.begin(), argv.end(), "-f"), argv.end());
    if (geteuid() == 0) {
        EXPECT_NE(std::find(argv.begin(), argv.end(), "-u"), argv.end()) << json(argv).dump();
    }
    std::printf("  bonnie++ put_block on dir: %.0f KiB/s\n", *putBlock / 1024);

    const auto small = select(rows, "dir", "bonnie-small");
    ASSERT_EQ(small.size(), 1u);
    EXPECT_EQ(small[0].status, "ok") << small[0].reason << "\n" << small[0].err;
    EXPECT_TRUE(hasCaveat(small[0], "below twice the RAM")) << joined(small[0].caveats);
}

// A directory on ramfs refuses O_DIRECT. Measured one after the other, the
// baseline's fio runs were direct until the candidate refused: they are superseded and run again
// buffered, so both sides of every comparison did the same I/O.
TEST_F(Campaign, OneIoPathForEveryLayoutWhenOneRefusesODirect) {
    const std::string ramfs = work() + "/ramfs";
    fs::create_directories(ramfs);
    const auto mounted = lb::test::runProcess({"mount", "-t", "ramfs", "ramfs", ramfs});
    if (mounted.exitCode != 0)
        GTEST_SKIP() << "cannot mount a ramfs here (the kernel lacks it?): " << mounted.err;
    struct Unmount {
        std::string path;
        ~Unmount() { (void)lb::test::runProcess({"umount", path}); }
    } unmount{ramfs};
    const auto s = scenario(head(1) + "interleave = false\n" + dirLayout("dir", true) +
                            "[[layouts]]\nname = \"ram\"\nkind = \"dir\"\npath = \"" + ramfs +
                            "\"\n" + kFioWrite + kXz);
    std::vector<std::string> messages;
    lb::CampaignOptions options;
    options.onProgress = [&](const lb::CampaignProgress& p) {
        if (p.kind == lb::CampaignProgress::Kind::Message)
            messages.push_back(p.message);
    };
    auto result = run(s, options);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, lb::CampaignStatus::Done) << joined(result->problems);
    auto io = store_->campaignIo(result->campaignId);
    ASSERT_TRUE(io && *io);
    EXPECT_FALSE((*io)->direct);
    EXPECT_EQ((*io)->why, "layout 'ram' does not accept O_DIRECT");
    ASSERT_GE(messages.size(), 2U);
    EXPECT_NE(messages.front().find("direct I/O on every layout"), std::string::npos);
    EXPECT_NE(messages.back().find("buffered I/O on every layout"), std::string::npos);
    const auto rows = runRows(*store_, result->campaignId);
    std::size_t superseded = 0, buffered = 0;
    for (const auto& r : rows) {
        if (r.probe != "fio")
            continue;
        const bool direct = std::find(r.argv.begin(), r.argv.end(), "--direct=1") != r.argv.end();
        if (r.status == "aborted") {
            ++superseded;
            EXPECT_TRUE(direct);
            EXPECT_TRUE(startsWith(r.reason, "superseded")) << r.reason;
        } else {
            EXPECT_EQ(r.status, "ok") << r.reason;
            EXPECT_FALSE(direct) << r.layout;
            ++buffered;
        }
    }
    // dir's direct run superseded; dir again, ram, and dir's bracketing run, all buffered.
    EXPECT_EQ(superseded, 1U);
    EXPECT_EQ(buffered, 3U);
    auto cmp = lb::compareStoredLayouts(*store_, "dir", "ram", s.policy(), result->campaignId);
    ASSERT_TRUE(cmp) << cmp.error().message;
    for (const auto& m : cmp->metrics)
        EXPECT_EQ(m.excluded.find("not comparable"), std::string::npos) << m.name;
}

// The runs a campaign's progress last counted: planned so far, and the most it may grow to.
struct ProgressTotals {
    std::size_t last = 0, max = 0;
    lb::CampaignOptions options() {
        lb::CampaignOptions o;
        o.onProgress = [this](const lb::CampaignProgress& p) {
            last = p.total;
            max = p.maxTotal;
        };
        return o;
    }
};

// iterations = "auto" with a rule no run can meet: every layout runs to max_iterations, the
// campaign grows its plan as it goes, and the metrics still undecided carry a note saying so.
TEST_F(Campaign, AutoIterationsStopAtTheMaximumAndSaySo) {
    const auto s =
        scenario("name = \"" + name_ +
                 "\"\niterations = \"auto\"\nmin_iterations = 2\nmax_iterations = 3\n"
                 "until = \"cv<0.0001%\"\nbracket = false\nwork_dir = \"" +
                 work() + "\"\n" + dirLayout("dir", true) +
                 "[[layouts]]\nname = \"other\"\nkind = \"dir\"\npath = \"" + dir_ + "\"\n" + kXz);
    ProgressTotals totals;
    auto result = run(s, totals.options());
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, lb::CampaignStatus::Done) << joined(result->problems);
    EXPECT_EQ(result->runs, 6U); // 3 iterations of xz on each layout
    EXPECT_EQ(totals.last, 6U);  // planned 4, grown by one round
    EXPECT_EQ(totals.max, 6U);
    auto samples = store_->layoutSamples("other", result->campaignId);
    ASSERT_TRUE(samples) << samples.error().message;
    const auto note =
        std::find_if(samples->notes.begin(), samples->notes.end(), [](const lb::MetricNote& n) {
            return n.text.find("after 3 iterations (max_iterations)") != std::string::npos;
        });
    ASSERT_NE(note, samples->notes.end());
    EXPECT_EQ(note->kind, lb::MetricNote::Kind::Qualifies);
    EXPECT_EQ(note->metrics, "xz.throughput");
    auto cmp = lb::compareStoredLayouts(*store_, "dir", "other", s.policy(), result->campaignId);
    ASSERT_TRUE(cmp) << cmp.error().message;
    const auto xz =
        std::find_if(cmp->metrics.begin(), cmp->metrics.end(),
                     [](const lb::MetricComparison& m) { return m.name == "xz.throughput"; });
    ASSERT_NE(xz, cmp->metrics.end());
    EXPECT_NE(std::find(xz->notes.begin(), xz->notes.end(), note->text), xz->notes.end());
}

// Beyond the minimum only the workloads whose deciding metrics are still open run again: with
// xz.throughput the only deciding metric and a spread no run can meet, xz runs to the maximum on
// both layouts while randfile, which decides nothing, stays at min_iterations.
TEST_F(Campaign, AutoIterationsRepeatOnlyTheWorkloadsStillUndecided) {
    const auto s = scenario("name = \"" + name_ +
                            "\"\niterations = \"auto\"\nmin_iterations = 2\nmax_iterations = 3\n"
                            "until = \"cv<0.0001%\"\nbracket = false\nwork_dir = \"" +
                            work() + "\"\n" + dirLayout("dir", true) +
                            "[[layouts]]\nname = \"other\"\nkind = \"dir\"\npath = \"" + dir_ +
                            "\"\n" + kXz + kRandfile + "[decide]\nmetrics = [\"xz.throughput\"]\n");
    ProgressTotals totals;
    auto result = run(s, totals.options());
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, lb::CampaignStatus::Done) << joined(result->problems);
    std::map<std::pair<std::string, std::string>, std::set<int>> iterations;
    for (const auto& r : runRows(*store_, result->campaignId)) {
        EXPECT_EQ(r.status, "ok") << r.layout << " " << r.workload << ": " << r.reason;
        iterations[{r.layout, r.workload}].insert(r.iteration);
    }
    const std::set<int> all{0, 1, 2}, minimum{0, 1};
    for (const std::string layout : {"dir", "other"}) {
        EXPECT_EQ(iterations[std::pair(layout, std::string("xz"))], all) << layout;
        EXPECT_EQ(iterations[std::pair(layout, std::string("randfile"))], minimum) << layout;
    }
    EXPECT_EQ(result->runs, 10U); // 2 rounds of both workloads, then 1 of xz, on 2 layouts
    EXPECT_EQ(totals.last, 10U);  // planned 8, grown by the 2 runs of the third round
    EXPECT_EQ(totals.max, 12U);   // the bound: 3 rounds of everything
}

// The notes on `layout`'s stored metrics that contain `text`.
std::vector<lb::MetricNote> notesWith(lb::Store& store, const std::string& layout,
                                      std::int64_t campaignId, const std::string& text) {
    std::vector<lb::MetricNote> out;
    auto samples = store.layoutSamples(layout, campaignId);
    EXPECT_TRUE(samples) << samples.error().message;
    if (samples)
        for (const auto& n : samples->notes)
            if (n.text.find(text) != std::string::npos)
                out.push_back(n);
    return out;
}

// precondition = "snia" on a raidz1 of file vdevs: the workload-independent sequential writes
// (twice 90 % of the pool's free space, found with df), then 1 s rounds of the workload's own
// pattern until the SNIA window holds. The rate cap keeps the rounds' IOPS flat, so the window
// of 5 rounds is reached; the rule itself is tested on numbers in steady_state_test.
TEST_F(Campaign, SniaPreconditioningRunsRoundsUntilSteadyState) {
    REQUIRE_ZFS();
    std::string toml = head(1) + "bracket = false\n" + dirLayout("dir", true) +
                       raidz1("raidz1", pool(), "64MiB", false) +
                       "precondition = \"snia\"\n"
                       "[[workloads]]\nprobe = \"fio\"\npreset = \"rand-read-4k-qd1\"\n"
                       "size = \"8MiB\"\nruntime = 1\nrate_iops = 200\n"
                       "steady_round_seconds = 1\n";
    const auto s = scenario(toml);
    std::vector<std::string> messages;
    lb::CampaignOptions options;
    options.onProgress = [&](const lb::CampaignProgress& p) {
        if (p.kind == lb::CampaignProgress::Kind::Message)
            messages.push_back(p.message);
    };
    auto result = run(s, options);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, lb::CampaignStatus::Done) << joined(result->problems);
    auto steps = store_->conditioningSteps(result->campaignId);
    ASSERT_TRUE(steps) << steps.error().message;
    ASSERT_GE(steps->size(), 6U); // the preconditioning and at least the window's 5 rounds
    const auto& pre = steps->front();
    EXPECT_EQ(pre.layout, "raidz1"); // the dir baseline did not ask for it
    EXPECT_EQ(pre.round, 0);
    EXPECT_EQ(pre.workload, "");
    EXPECT_TRUE(pre.error.empty()) << pre.error << pre.stderrText;
    ASSERT_TRUE(pre.bytes);
    EXPECT_GT(*pre.bytes, 64ULL << 20); // most of ~180 MiB of usable space
    EXPECT_LT(*pre.bytes, 256ULL << 20);
    EXPECT_EQ(*pre.bytes % (128 * 1024), 0U);
    EXPECT_NE(std::find(pre.argv.begin(), pre.argv.end(), "--loops=2"), pre.argv.end());
    ASSERT_TRUE(pre.value);
    EXPECT_GT(*pre.value, 0);
    std::vector<double> rounds;
    for (std::size_t i = 1; i < steps->size(); ++i) {
        const auto& r = (*steps)[i];
        EXPECT_EQ(r.round, static_cast<int>(i));
        EXPECT_EQ(r.workload, "fio:rand-read-4k-qd1");
        EXPECT_EQ(r.tracked, "fio.*.iops");
        EXPECT_TRUE(r.error.empty()) << r.error;
        EXPECT_NE(r.stdoutText.find("\"jobs\""), std::string::npos); // the raw fio JSON
        if (r.value)
            rounds.push_back(*r.value);
    }
    std::printf("[ steady   ] preconditioning wrote 2 x %.0f MiB at %.0f MiB/s in %.1f s; IOPS "
                "per round:",
                static_cast<double>(*pre.bytes) / (1 << 20), *pre.value / (1 << 20),
                pre.wallSeconds);
    for (const double v : rounds)
        std::printf(" %.0f", v);
    std::printf("\n");
    const auto check = lb::checkSteadyState(rounds);
    EXPECT_TRUE(check.reached) << "the rounds stopped before the window held";
    EXPECT_LE(rounds.size(), 25U);
    EXPECT_NEAR(check.average, 200, 40);
    // The measured runs say how they were prepared; the baseline's say nothing of it.
    const auto steady = notesWith(*store_, "raidz1", result->campaignId, "at steady state");
    ASSERT_FALSE(steady.empty());
    EXPECT_EQ(steady.front().kind, lb::MetricNote::Kind::Method);
    EXPECT_NE(steady.front().text.find("after SNIA preconditioning"), std::string::npos);
    EXPECT_TRUE(notesWith(*store_, "dir", result->campaignId, "precondition").empty());
    EXPECT_NE(std::find_if(messages.begin(), messages.end(),
                           [](const std::string& m) {
                               return m.find("preconditioning 'raidz1'") != std::string::npos;
                           }),
              messages.end());
    // Steady-state rounds are not runs: one measured run per layout.
    EXPECT_EQ(result->runs, 2U);
}

// A round limit below what the SNIA window needs: the rounds stop there and every metric of the
// workload on that layout says it was not at steady state, next to the verdict. A dir layout is
// not preconditioned without a size (it is not layoutbench's to fill) and its runs say so.
TEST_F(Campaign, SteadyStateRoundLimitIsANoteNextToTheVerdict) {
    REQUIRE_ZFS();
    std::string toml = head(1) + "bracket = false\n" + dirLayout("dir", true) +
                       raidz1("raidz1", pool(), "64MiB", false) +
                       "[[workloads]]\nprobe = \"fio\"\npreset = \"seq-write-1m\"\n"
                       "size = \"8MiB\"\nruntime = 1\nprecondition = \"snia\"\n"
                       "steady_rounds = 3\nsteady_round_seconds = 1\n";
    const auto s = scenario(toml);
    auto result = run(s);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, lb::CampaignStatus::Done) << joined(result->problems);
    auto steps = store_->conditioningSteps(result->campaignId);
    ASSERT_TRUE(steps) << steps.error().message;
    ASSERT_EQ(steps->size(), 4U); // the preconditioning and 3 rounds, on raidz1 only
    for (const auto& st : *steps) {
        EXPECT_EQ(st.layout, "raidz1");
        EXPECT_TRUE(st.error.empty()) << st.error;
    }
    EXPECT_EQ(steps->back().round, 3);
    EXPECT_EQ(steps->back().tracked, "fio.*.bw"); // 1 MiB transfers: throughput is tracked
    const auto limit = notesWith(*store_, "raidz1", result->campaignId, "not at steady state");
    ASSERT_FALSE(limit.empty());
    EXPECT_EQ(limit.front().kind, lb::MetricNote::Kind::Qualifies);
    EXPECT_NE(limit.front().text.find("after 3 round(s) of 1 s (the limit is 3)"),
              std::string::npos)
        << limit.front().text;
    const auto skipped = notesWith(*store_, "dir", result->campaignId, "not preconditioned");
    ASSERT_FALSE(skipped.empty());
    EXPECT_NE(skipped.front().text.find("precondition_size"), std::string::npos);
    auto cmp = lb::compareStoredLayouts(*store_, "dir", "raidz1", s.policy(), result->campaignId);
    ASSERT_TRUE(cmp) << cmp.error().message;
    const auto bw =
        std::find_if(cmp->metrics.begin(), cmp->metrics.end(), [](const lb::MetricComparison& m) {
            return m.name == "fio.seq-write-1m.write.bw";
        });
    ASSERT_NE(bw, cmp->metrics.end());
    EXPECT_NE(std::find(bw->notes.begin(), bw->notes.end(), limit.front().text), bw->notes.end());
}

TEST_F(Campaign, LayoutNotBuilt) {
    // "exists": its third vdev file is already there (someone's data); "nodir": its vdev is in a
    // directory that does not exist. Neither can be built; the dir layout still runs.
    fs::create_directories(work());
    const std::string precious = work() + "/e3.img";
    std::ofstream(precious) << "precious\n";
    std::string toml = head(2) + dirLayout("dir", true);
    for (int i = 1; i <= 4; ++i)
        toml += fileDisk("e" + std::to_string(i), "e" + std::to_string(i) + ".img", "64MiB");
    toml += zfsLayout("exists", "zfs-raidz1", {"e1", "e2", "e3", "e4"}, pool("exists"), false);
    toml += fileDisk("n1", "missing-dir/n1.img", "64MiB");
    toml += zfsLayout("nodir", "zfs-stripe", {"n1"}, pool("nodir"), false);
    toml += kRandfile;
    const auto s = scenario(toml);
    auto result = run(s);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, lb::CampaignStatus::Failed);
    EXPECT_EQ(result->problems.size(), 2u) << joined(result->problems);
    EXPECT_EQ(campaignColumn(*store_, result->campaignId, "status"), "failed");
    EXPECT_EQ(result->runs, 7u); // dir: two iterations and the bracketing run
    EXPECT_EQ(result->failedRuns, 4u);

    const auto rows = runRows(*store_, result->campaignId);
    ASSERT_EQ(rows.size(), 7u);
    for (const auto& r : select(rows, "dir", "randfile"))
        EXPECT_EQ(r.status, "ok") << r.reason;
    const auto exists = select(rows, "exists", "randfile");
    ASSERT_EQ(exists.size(), 2u);
    std::printf("  reason: %s\n", exists[0].reason.c_str());
    for (const auto& r : exists) {
        EXPECT_EQ(r.status, "failed");
        EXPECT_TRUE(startsWith(r.reason, "layout not built")) << r.reason;
        EXPECT_NE(r.reason.find("e3.img"), std::string::npos) << r.reason;
    }
    const auto nodir = select(rows, "nodir", "randfile");
    ASSERT_EQ(nodir.size(), 2u);
    std::printf("  reason: %s\n", nodir[0].reason.c_str());
    for (const auto& r : nodir) {
        EXPECT_EQ(r.status, "failed");
        EXPECT_TRUE(startsWith(r.reason, "layout not built")) << r.reason;
        EXPECT_NE(r.reason.find("missing-dir"), std::string::npos) << r.reason;
    }

    // What was applied was undone; the existing file was refused, not touched.
    EXPECT_FALSE(fs::exists(work() + "/e1.img"));
    EXPECT_FALSE(fs::exists(work() + "/e2.img"));
    EXPECT_FALSE(fs::exists(work() + "/e4.img"));
    ASSERT_TRUE(fs::exists(precious));
    std::ifstream in(precious);
    std::string content;
    std::getline(in, content);
    EXPECT_EQ(content, "precious");
    EXPECT_FALSE(fs::exists(work() + "/missing-dir"));
    EXPECT_FALSE(fs::exists(dir_ + "/layoutbench-dir"));
    if (zfsAvailable()) {
        EXPECT_FALSE(lb::test::poolExists(pool("exists")));
        EXPECT_FALSE(lb::test::poolExists(pool("nodir")));
    }

    const auto steps = stepRows(*store_, result->campaignId);
    std::vector<std::string> existsBuild, existsUndo, nodirBuild, nodirUndo;
    for (const auto& st : steps) {
        const std::string line = st.argv.front() + ":" + st.status;
        if (st.layout == "exists")
            (st.phase == "build" ? existsBuild : existsUndo).push_back(line);
        if (st.layout == "nodir")
            (st.phase == "build" ? nodirBuild : nodirUndo).push_back(line);
        EXPECT_FALSE(st.argv.front() == "zpool") << json(st.argv).dump();
    }
    EXPECT_EQ(existsBuild,
              (std::vector<std::string>{"test:applied", "truncate:undone", "test:applied",
                                        "truncate:undone", "test:failed"}));
    EXPECT_EQ(existsUndo, (std::vector<std::string>{"rm:applied", "rm:applied"}));
    EXPECT_EQ(nodirBuild, (std::vector<std::string>{"test:applied", "truncate:failed"}));
    EXPECT_TRUE(nodirUndo.empty()) << joined(nodirUndo);
}

TEST_F(Campaign, ResumeRunsOnlyWhatIsMissing) {
    REQUIRE_ZFS();
    const auto s = scenario(head(2) + "bracket = false\n" + dirLayout("dir", true) +
                            raidz1("raidz1", pool(), "128MiB", false) + kFioWrite + kRandfile);
    auto first = run(s);
    ASSERT_TRUE(first) << first.error().message;
    ASSERT_EQ(first->status, lb::CampaignStatus::Done) << joined(first->problems);
    ASSERT_EQ(first->runs, 8u);
    const auto before = runRows(*store_, first->campaignId);
    ASSERT_EQ(before.size(), 8u);
    std::map<std::tuple<std::string, std::string, int>, std::int64_t> keptIds;
    for (const auto& r : before)
        if (!(r.workload == "randfile" && r.iteration == 1))
            keptIds[{r.layout, r.workload, r.iteration}] = r.id;
    ASSERT_EQ(keptIds.size(), 6u);

    // As if the campaign had died before randfile's second iteration on either layout.
    ASSERT_EQ(lb::test::deleteRuns(*store_, first->campaignId, "randfile", 1), 2);
    ASSERT_TRUE(store_->setCampaignStatus(first->campaignId, lb::CampaignStatus::Aborted, false));

    lb::CampaignOptions options;
    options.resume = first->campaignId;
    std::vector<std::string> ran;
    std::size_t lastDone = 0, lastTotal = 0;
    options.onProgress = [&](const lb::CampaignProgress& p) {
        if (p.kind == lb::CampaignProgress::Kind::Running)
            ran.push_back(p.layout + "/" + p.workload + "#" + std::to_string(p.iteration));
        if (p.kind == lb::CampaignProgress::Kind::RunFinished) {
            lastDone = p.done;
            lastTotal = p.total;
        }
    };
    auto second = run(s, options);
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_EQ(second->campaignId, first->campaignId);
    EXPECT_EQ(second->status, lb::CampaignStatus::Done) << joined(second->problems);
    EXPECT_EQ(second->skippedRuns, 6u);
    EXPECT_EQ(second->runs, 2u);
    EXPECT_EQ(second->failedRuns, 0u);
    // The layouts coexist and take turns; the second round starts with the candidate.
    EXPECT_EQ(ran, (std::vector<std::string>{"raidz1/randfile#1", "dir/randfile#1"}));
    // Progress counts the runs done before the resume.
    EXPECT_EQ(lastDone, 8u);
    EXPECT_EQ(lastTotal, 8u);
    EXPECT_EQ(campaignColumn(*store_, first->campaignId, "status"), "done");
    EXPECT_EQ(store_->campaigns()->size(), 1u);

    const auto after = runRows(*store_, first->campaignId);
    ASSERT_EQ(after.size(), 8u);
    std::set<std::tuple<std::string, std::string, int>> keys;
    for (const auto& r : after) {
        keys.insert({r.layout, r.workload, r.iteration});
        EXPECT_EQ(r.status, "ok") << r.layout << " " << r.workload << ": " << r.reason;
        EXPECT_GT(r.metrics, 0);
        // The runs that were kept are the same rows, not runs again.
        const auto kept = keptIds.find({r.layout, r.workload, r.iteration});
        if (kept != keptIds.end()) {
            EXPECT_EQ(r.id, kept->second) << r.layout << " " << r.workload << " #" << r.iteration;
        }
    }
    EXPECT_EQ(keys.size(), 8u);

    // The pool was built again for the missing run and torn down again.
    EXPECT_FALSE(lb::test::poolExists(pool()));
    for (int i = 1; i <= 4; ++i)
        EXPECT_FALSE(fs::exists(work() + "/v" + std::to_string(i) + ".img")) << i;
    EXPECT_FALSE(fs::exists(dir_ + "/layoutbench-dir"));
    EXPECT_FALSE(fs::exists(work() + "/mnt-raidz1"));
    std::size_t creates = 0;
    for (const auto& st : stepRows(*store_, first->campaignId)) {
        if (st.phase == "build" && st.undo) {
            EXPECT_EQ(st.status, "undone") << json(st.argv).dump();
        }
        if (st.phase == "undo") {
            EXPECT_EQ(st.status, "applied") << json(st.argv).dump();
        }
        creates += st.argv.size() > 1 && st.argv[0] == "zpool" && st.argv[1] == "create";
    }
    EXPECT_EQ(creates, 2u);
    auto integrity = store_->integrityCheck();
    ASSERT_TRUE(integrity);
    EXPECT_EQ(*integrity, "ok");
}

// Expansion drills on a real pool: a RAIDZ1 of four file vdevs gets a second RAIDZ1 vdev of the
// same shape while a read load runs (usable space doubles, reads keep working, the pool stays
// mounted), and RAIDZ expansion is refused by zfs-fuse's old ZFS with the clear reason. The spare
// files are made by the layout's plan and removed by its teardown.
TEST_F(Campaign, ZfsExpansionDrills) {
    if (!zfsAvailable())
        GTEST_SKIP() << zfsWhy();
    std::string toml = head(1) + dirLayout("dir", true) + raidz1("raidz1", pool(), "128M", false);
    for (int i = 5; i <= 9; ++i)
        toml += fileDisk("s" + std::to_string(i), "s" + std::to_string(i) + ".img", "128M");
    toml += R"(
[[workloads]]
probe = "xz"
size = "1M"

[[drills]]
layout = "raidz1"
action = "zfs-add-vdev"
disks = ["s5", "s6", "s7", "s8"]

[[drills]]
layout = "raidz1"
action = "raidz-expand"
disks = ["s9"]
)";
    const auto s = scenario(toml);
    auto result = run(s);
    ASSERT_TRUE(result) << result.error().message;
    const auto rows = runRows(*store_, result->campaignId);
    const auto add = select(rows, "raidz1", "drill:zfs-add-vdev");
    ASSERT_EQ(add.size(), 1u);
    EXPECT_EQ(add[0].status, "ok") << add[0].reason << "\n" << add[0].err;
    EXPECT_EQ(add[0].probe, "drill");
    const auto seconds = metricValue(*store_, add[0].id, "drill.zfs-add-vdev.seconds");
    ASSERT_TRUE(seconds);
    EXPECT_GE(*seconds, 0.0);
    EXPECT_LT(*seconds, 120.0);
    // Two RAIDZ1 vdevs of four instead of one: the pool's size roughly doubles.
    const auto growth = metricValue(*store_, add[0].id, "drill.zfs-add-vdev.growth");
    ASSERT_TRUE(growth) << add[0].out;
    EXPECT_GT(*growth, 80.0);
    EXPECT_LT(*growth, 120.0);
    EXPECT_EQ(metricValue(*store_, add[0].id, "drill.zfs-add-vdev.read_errors"), 0.0);
    // The command was zpool add with the same shape, raidz1 of the four spares.
    EXPECT_NE(add[0].argv.end(), std::find(add[0].argv.begin(), add[0].argv.end(), "raidz1"));
    EXPECT_NE(add[0].argv.end(),
              std::find(add[0].argv.begin(), add[0].argv.end(), work() + "/s8.img"));

    const auto expand = select(rows, "raidz1", "drill:raidz-expand");
    ASSERT_EQ(expand.size(), 1u);
    EXPECT_EQ(expand[0].status, "failed");
    EXPECT_NE(expand[0].reason.find("not supported by this ZFS version"), std::string::npos)
        << expand[0].reason;
    EXPECT_EQ(expand[0].exitCode, 3);

    // Torn down: the pool and every vdev file, spares included.
    EXPECT_FALSE(lb::test::poolExists(pool()));
    for (int i = 1; i <= 9; ++i) {
        const std::string f = work() + "/" + (i <= 4 ? "v" : "s") + std::to_string(i) + ".img";
        EXPECT_FALSE(fs::exists(f)) << f;
    }
    for (const auto& st : stepRows(*store_, result->campaignId))
        if (st.phase == "build" && st.undo) {
            EXPECT_EQ(st.status, "undone") << json(st.argv).dump();
        }

    // The report has the drills with their durations and the refusal.
    const std::string md = dir_ + "/report.md";
    const auto rep = lb::test::runProcess(
        {LAYOUTBENCH_CLI, "report", "--db", dir_ + "/results.db", "--out", md});
    ASSERT_EQ(rep.exitCode, 0) << rep.err;
    std::ifstream in(md);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto section = text.find("## Expansion drills");
    ASSERT_NE(section, std::string::npos) << text;
    const std::string drills = text.substr(section, text.find("\n## ", section + 5) - section);
    EXPECT_NE(drills.find("| raidz1 | zfs-add-vdev | ok |"), std::string::npos) << drills;
    EXPECT_NE(drills.find("not supported by this ZFS version"), std::string::npos) << drills;
}

} // namespace
