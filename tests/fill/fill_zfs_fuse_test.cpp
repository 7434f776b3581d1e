// Fill levels on real ZFS (issue 44, `ctest -R Fill`): the real `layoutbench run` on two pools of
// sparse file vdevs through zfs-fuse — a mirror (baseline) and a raidz1 — filled and aged to 0 %
// and 50 % of their usable space with a random-write workload at each level. Every run stores
// its level; the ageing is a run of its own whose metrics are what the pool said of itself; the
// comparisons pair the levels and compare never mixes them; a resume ages again and runs only
// what is missing; --fill-max stops a level it cannot reach and says so. One ZFS daemon for the
// suite; every pool is destroyed by the campaign's teardown (checked), a leftover of a crashed
// earlier run first.
#include "engine/store/store.h"
#include "tests/cli/process.h"
#include "tests/fill/fill_json.h"
#include "tests/support/raw_sql.h"
#include "tests/support/zfs_fuse.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

class FillZfsFuse : public ::testing::Test {
protected:
    static void SetUpTestSuite() { zfs_ = new lb::test::ZfsFuse(); }
    static void TearDownTestSuite() {
        delete zfs_;
        zfs_ = nullptr;
    }

    void SetUp() override {
        if (!zfs_->available())
            GTEST_SKIP() << "ZFS not available: " << zfs_->why();
        if (lb::test::runProcess({"fio", "--version"}).exitCode != 0)
            GTEST_SKIP() << "fio is not installed (apt-get install fio)";
        const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        dir_ = (fs::temp_directory_path() / ("lb-fill-" + name)).string();
        tag_ = std::to_string(::getpid() % 100000);
        destroyPools();
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        db_ = dir_ + "/results.db";
    }
    void TearDown() override {
        if (dir_.empty())
            return;
        destroyPools(); // only when the campaign failed to
        fs::remove_all(dir_);
    }

    std::string pool(const char* layout) const { return "lbfill-" + tag_ + "-" + layout; }
    void destroyPools() const {
        for (const char* l : {"m", "z"})
            if (lb::test::poolExists(pool(l)))
                (void)lb::test::runProcess({"zpool", "destroy", "-f", pool(l)});
    }

    // A mirror of two 128 MiB vdevs (the baseline) and a raidz1 of three 64 MiB ones, fio's
    // 4 KiB random writes on an 8 MiB file for 1 s, twice at each level.
    std::string writeScenario() const {
        std::ostringstream t;
        t << "name = \"fill\"\niterations = 2\ninterleave = false\nbracket = false\n"
          << "fill = [0.0, 0.5]\nfill_seed = 11\nwork_dir = \"" << dir_ << "/work\"\n";
        for (int i = 1; i <= 5; ++i)
            t << "[[disks]]\nname = \"v" << i << "\"\nfile = \"v" << i << ".img\"\nsize = \""
              << (i <= 2 ? "128MiB" : "64MiB") << "\"\n";
        t << "[[layouts]]\nname = \"mirror\"\nkind = \"zfs-mirror\"\ndisks = [\"v1\", \"v2\"]\n"
          << "pool = \"" << pool("m") << "\"\nbaseline = true\n"
          << "[[layouts]]\nname = \"raidz1\"\nkind = \"zfs-raidz1\"\n"
          << "disks = [\"v3\", \"v4\", \"v5\"]\npool = \"" << pool("z") << "\"\n"
          << "[[workloads]]\nprobe = \"fio\"\npreset = \"rand-write-4k-qd32\"\nsize = \"8M\"\n"
          << "runtime = 1\n";
        const std::string path = dir_ + "/fill.toml";
        std::ofstream(path) << t.str();
        return path;
    }

    lb::test::ProcessResult cli(std::vector<std::string> args) const {
        args.insert(args.begin(), LAYOUTBENCH_CLI);
        args.insert(args.end(), {"--db", db_});
        return lb::test::runProcess(args);
    }

    static json parsed(const lb::test::ProcessResult& r) { return lb::test::parsedJson(r); }
    static std::pair<double, double> medians(const json& cmp, const std::string& name) {
        return lb::test::comparedMedians(cmp, name);
    }

    static lb::test::ZfsFuse* zfs_;
    std::string dir_, db_, tag_;
};

lb::test::ZfsFuse* FillZfsFuse::zfs_ = nullptr;

TEST_F(FillZfsFuse, EveryLevelMeasuredPairedAndReported) {
    const auto run = cli({"run", writeScenario(), "--json"});
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    const json out = parsed(run);
    EXPECT_EQ(out.at("status"), "done");
    EXPECT_TRUE(out.at("problems").empty()) << out.dump(1);
    // The candidate against the baseline at each level, like with like, and the one sentence.
    const auto& comparisons = out.at("comparisons");
    ASSERT_EQ(comparisons.size(), 2U) << out.dump(1);
    EXPECT_EQ(comparisons[0].at("fill_level"), 0.0);
    EXPECT_EQ(comparisons[1].at("fill_level"), 0.5);
    ASSERT_EQ(out.at("fill_summaries").size(), 1U);
    EXPECT_EQ(out.at("fill_summaries")[0].get<std::string>().rfind("raidz1: ", 0), 0U);

    // What the pools said of themselves after each level, and what the ageing wrote.
    const auto [levelBase0, levelCand0] = medians(comparisons[0], "fill.level");
    EXPECT_LT(levelBase0, 5.0);
    EXPECT_LT(levelCand0, 5.0);
    const auto [levelBase, levelCand] = medians(comparisons[1], "fill.level");
    std::printf("[ info ] used after ageing to 50 %%: mirror %.1f %%, raidz1 %.1f %%\n", levelBase,
                levelCand);
    EXPECT_GE(levelBase, 50.0);
    EXPECT_LT(levelBase, 60.0);
    EXPECT_GE(levelCand, 50.0);
    EXPECT_LT(levelCand, 60.0);
    const auto [capBase, capCand] = medians(comparisons[1], "fill.pool_capacity");
    std::printf("[ info ] zpool capacity at 50 %%: mirror %.0f %%, raidz1 %.0f %%\n", capBase,
                capCand);
    EXPECT_GT(capBase, 20.0);
    EXPECT_GT(capCand, 20.0);
    const auto [wroteBase, wroteCand] = medians(comparisons[1], "fill.written_bytes");
    std::printf("[ info ] the ageing wrote %.1f MB on the mirror, %.1f MB on the raidz1\n",
                wroteBase / 1e6, wroteCand / 1e6);
    // At least half of the mirror's ~95 MB usable (2 x 128 MiB mirrored, less ZFS's reserve),
    // and of the raidz1's ~85 MB (3 x 64 MiB, a third parity, zfs-fuse's overheads).
    EXPECT_GT(wroteBase, 0.5 * 90e6);
    EXPECT_GT(wroteCand, 0.5 * 70e6);
    const auto [deletedBase, deletedCand] = medians(comparisons[1], "fill.deleted_bytes");
    EXPECT_GT(deletedBase, 0);
    EXPECT_GT(deletedCand, 0);
    EXPECT_LT(deletedBase, wroteBase);

    // Every run stores its level; those at 50 % the bytes the ageing wrote before them.
    const json runs = parsed(cli({"list", "runs", "--json"}));
    std::set<std::pair<std::string, double>> ageings;
    std::size_t measured = 0;
    for (const auto& r : runs) {
        ASSERT_TRUE(r.at("fill_level").is_number()) << r.dump();
        const double level = r.at("fill_level").get<double>();
        EXPECT_TRUE(level == 0.0 || level == 0.5) << r.dump();
        if (r.at("workload") == "fill:age") {
            ageings.insert({r.at("layout").get<std::string>(), level});
            continue;
        }
        ++measured;
        EXPECT_EQ(r.at("status"), "ok") << r.dump();
        if (level == 0.5)
            EXPECT_GT(r.at("fill_bytes").get<double>(), 0) << r.dump();
        else
            EXPECT_EQ(r.at("fill_bytes").get<double>(), 0) << r.dump();
    }
    EXPECT_EQ(measured, 8U);
    EXPECT_EQ(ageings.size(), 4U);

    // compare never mixes levels: refused without --fill, naming them; a level picked; all.
    const auto mixed = cli({"compare", "--baseline", "mirror", "--candidate", "raidz1"});
    EXPECT_EQ(mixed.exitCode, 2);
    EXPECT_NE(mixed.err.find("--fill: the baseline layout 'mirror' holds runs at 2 fill levels "
                             "(0 %, 50 %)"),
              std::string::npos)
        << mixed.err;
    const auto at50 = cli(
        {"compare", "--baseline", "mirror", "--candidate", "raidz1", "--fill", "50%", "--json"});
    ASSERT_EQ(at50.exitCode, 0) << at50.err;
    EXPECT_EQ(parsed(at50).at("fill_level"), 0.5);
    EXPECT_EQ(parsed(at50).at("verdict"), comparisons[1].at("verdict"));
    const auto all = cli(
        {"compare", "--baseline", "mirror", "--candidate", "raidz1", "--fill", "all", "--json"});
    ASSERT_EQ(all.exitCode, 0) << all.err;
    EXPECT_EQ(parsed(all).at("fill_summary"), out.at("fill_summaries")[0]);
    const auto missing =
        cli({"compare", "--baseline", "mirror", "--candidate", "raidz1", "--fill", "0.8"});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("has no runs at 80 %"), std::string::npos) << missing.err;

    // The report: the level-by-level sentence as compare says it, and each deciding metric drawn
    // against fill level (rand-write-4k-qd32's write bw, iops and p99 latency).
    const std::string html = dir_ + "/report.html";
    const auto report = cli({"report", "--out", html});
    ASSERT_EQ(report.exitCode, 0) << report.err;
    std::ifstream in(html);
    const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto section = page.find("As the pools fill");
    ASSERT_NE(section, std::string::npos);
    EXPECT_NE(page.find(parsed(all).at("fill_summary").get<std::string>(), section),
              std::string::npos);
    for (const char* metric : {"fio.rand-write-4k-qd32.write.bw at each fill level",
                               "fio.rand-write-4k-qd32.write.iops at each fill level",
                               "fio.rand-write-4k-qd32.write.lat_p99 at each fill level"})
        EXPECT_NE(page.find(metric, section), std::string::npos) << metric;

    // The drive-wear projection says what the ageing wrote on the layout (issue 44, item 5): in
    // the text beside the wear, in the JSON under the fill levels and the wear.
    const std::vector<std::string> project{"project",  "--layout", "mirror",        "--used", "10M",
                                           "--growth", "30%",      "--host-writes", "1G/d"};
    const auto text = cli(project);
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("ageing: wrote "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("not counted in the wear projection"), std::string::npos) << text.out;
    auto withJson = project;
    withJson.push_back("--json");
    const auto projected = cli(withJson);
    ASSERT_EQ(projected.exitCode, 0) << projected.err;
    const json layout = parsed(projected).at("layouts").at(0);
    EXPECT_NEAR(layout.at("fill_levels").at("ageing_written_bytes").get<double>(), wroteBase, 1.0);
    // A two-way mirror writes everything twice, once on each of its two disks.
    EXPECT_NEAR(layout.at("wear").at("fill_ageing_device_bytes_per_disk").get<double>(), wroteBase,
                1.0);

    // Torn down: no pool left.
    EXPECT_FALSE(lb::test::poolExists(pool("m")));
    EXPECT_FALSE(lb::test::poolExists(pool("z")));
}

// A resumed campaign ages the pool again through the levels it had measured (the same seed), and
// runs only what is missing at each level: here the second iteration at both levels, as if the
// campaign had died before them.
TEST_F(FillZfsFuse, ResumeAgesAgainAndRunsOnlyWhatIsMissing) {
    const std::string scenario = writeScenario();
    const auto first = cli({"run", scenario, "--layout", "mirror"});
    ASSERT_EQ(first.exitCode, 0) << first.out << first.err;
    {
        auto s = lb::Store::open(db_);
        ASSERT_TRUE(s) << s.error().message;
        EXPECT_EQ(lb::test::deleteRuns(*s, 1, "fio:rand-write-4k-qd32", 1), 2);
    }
    const auto resumed = cli({"run", scenario, "--layout", "mirror", "--resume", "1", "--json"});
    ASSERT_EQ(resumed.exitCode, 0) << resumed.out << resumed.err;
    const json out = parsed(resumed);
    EXPECT_EQ(out.at("skipped_runs"), 4) << "2 fio runs and 2 ageings were done already";
    std::map<std::pair<std::string, double>, int> count; // (workload, level) -> runs
    for (const auto& r : parsed(cli({"list", "runs", "--json"}))) {
        EXPECT_EQ(r.at("status"), "ok") << r.dump();
        ++count[{r.at("workload").get<std::string>(), r.at("fill_level").get<double>()}];
    }
    EXPECT_EQ((count[{"fio:rand-write-4k-qd32", 0.0}]), 2);
    EXPECT_EQ((count[{"fio:rand-write-4k-qd32", 0.5}]), 2);
    // Aged once in each session, at each level.
    EXPECT_EQ((count[{"fill:age", 0.0}]), 2);
    EXPECT_EQ((count[{"fill:age", 0.5}]), 2);
    EXPECT_FALSE(lb::test::poolExists(pool("m")));
}

// --fill-max caps what the ageing writes: the level it cannot reach fails, saying so, and
// nothing is measured at it.
TEST_F(FillZfsFuse, FillMaxStopsALevelAndSaysSo) {
    const auto run = cli({"run", writeScenario(), "--layout", "mirror", "--fill-max", "8MiB"});
    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    EXPECT_NE(run.out.find("could not be filled to 50 %"), std::string::npos) << run.out;
    const json runs = parsed(cli({"list", "runs", "--json"}));
    bool refused = false;
    for (const auto& r : runs) {
        if (r.at("workload") == "fill:age" && r.at("fill_level") == 0.5) {
            EXPECT_EQ(r.at("status"), "failed");
            refused = r.at("reason").get<std::string>().find("fill-max: stopped after writing") !=
                      std::string::npos;
            EXPECT_TRUE(refused) << r.dump();
        }
        if (r.at("workload") != "fill:age") {
            EXPECT_EQ(r.at("fill_level"), 0.0) << "measured above the cap: " << r.dump();
        }
    }
    EXPECT_TRUE(refused) << runs.dump(1);
    EXPECT_FALSE(lb::test::poolExists(pool("m")));
}

} // namespace
