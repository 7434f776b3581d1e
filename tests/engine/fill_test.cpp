// Fill levels (issue 44): the scenario's fill key, read with file, line and field of a mistake;
// the ageing's report read into fill.* metrics; runs storing their level and the bytes the
// ageing wrote; comparisons that pair a candidate at a level with the baseline at the same level
// and never mix levels; the sentence that says where a verdict changes.
#include "engine/build/fill.h"
#include "engine/measure/fill_levels.h"
#include "engine/scenario/scenario.h"
#include "engine/store/store.h"
#include "engine/workbench/projection_fill.h"
#include "probes/registry.h"
#include "tests/support/raw_sql.h"
#include "tests/support/scratch_dir.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace lb;

namespace {

const ProbeRegistry& probes() {
    static const ProbeRegistry registry = standardProbes();
    return registry;
}

std::string scenarioText(const std::string& top, const std::string& layoutExtra = "") {
    return "name = \"f\"\n" + top +
           "\n[[disks]]\nname = \"a\"\nfile = \"a.img\"\nsize = \"64MiB\"\n"
           "[[disks]]\nname = \"b\"\nfile = \"b.img\"\nsize = \"64MiB\"\n"
           "[[layouts]]\nname = \"m\"\nkind = \"zfs-mirror\"\ndisks = [\"a\", \"b\"]\n"
           "baseline = true\n" +
           layoutExtra +
           "\n[[workloads]]\nprobe = \"fio\"\npreset = \"seq-write-1m\"\nsize = \"8M\"\n";
}

Expected<Scenario> parse(const std::string& text) {
    return parseScenario(text, "f.toml", probes());
}

} // namespace

TEST(FillScenario, LevelsAtTheTopAndOnALayout) {
    auto s = parse(scenarioText("fill = [0.0, 0.5, \"80%\"]\nfill_seed = 7\n"));
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->fill, (std::vector<double>{0.0, 0.5, 0.8}));
    EXPECT_EQ(s->fillSeed, 7);
    EXPECT_EQ(s->fillLevels(s->layouts.front()), (std::vector<double>{0.0, 0.5, 0.8}));

    auto own = parse(scenarioText("fill = [0.0, 0.5]\n", "fill = [0.9]\n"));
    ASSERT_TRUE(own) << own.error().message;
    EXPECT_EQ(own->fillLevels(own->layouts.front()), (std::vector<double>{0.9}));

    auto none = parse(scenarioText(""));
    ASSERT_TRUE(none) << none.error().message;
    EXPECT_TRUE(none->fillLevels(none->layouts.front()).empty());
    EXPECT_EQ(none->fillSeed, 1);
}

TEST(FillScenario, BadLevelsNameFileLineAndField) {
    const auto refused = [](const std::string& text) {
        auto s = parse(text);
        EXPECT_FALSE(s);
        return s ? std::string() : s.error().message;
    };
    EXPECT_EQ(refused(scenarioText("fill = [0.0, 0.97]\n")),
              "f.toml:2:14: fill[1]: must be from 0 to 0.95 of the usable space (a full pool "
              "measures only its refusals)");
    EXPECT_EQ(refused(scenarioText("fill = [0.5, 0.5]\n")),
              "f.toml:2:14: fill[1]: levels go up, each once (they are filled lowest first)");
    EXPECT_EQ(refused(scenarioText("fill = [\"lots\"]\n")),
              "f.toml:2:9: fill[0]: expected a share such as 0.8 or \"80%\"");
    EXPECT_EQ(refused(scenarioText("fill = 0.5\n")),
              "f.toml:2:8: fill: expected a list of shares of the usable space, e.g. [0.0, 0.5]");
    EXPECT_NE(refused(scenarioText("", "fill = [-0.1]\n")).find("layouts[0].fill[0]: must be"),
              std::string::npos);
}

TEST(FillScenario, ADirectoryIsNotFilled) {
    const std::string dir = "name = \"f\"\nfill = [0.0, 0.5]\n[[layouts]]\nname = \"d\"\nkind = "
                            "\"dir\"\npath = \".\"\nbaseline = true\n[[workloads]]\nprobe = "
                            "\"fio\"\npreset = \"seq-write-1m\"\n";
    auto s = parse(dir);
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("fill: dir layout 'd' is not filled"), std::string::npos)
        << s.error().message;
    auto asBuilt = parse("name = \"f\"\nfill = [0.0, 0.5]\n[[layouts]]\nname = \"d\"\nkind = "
                         "\"dir\"\npath = \".\"\nbaseline = true\nfill = []\n[[workloads]]\n"
                         "probe = \"fio\"\npreset = \"seq-write-1m\"\n");
    ASSERT_TRUE(asBuilt) << asBuilt.error().message;
    EXPECT_TRUE(asBuilt->fillLevels(asBuilt->layouts.front()).empty());
}

TEST(FillLevels, InWords) {
    EXPECT_EQ(fillLevelText(std::nullopt), "as built");
    EXPECT_EQ(fillLevelText(0.8), "80 %");
    EXPECT_EQ(fillLevelText(0.0), "0 %");
    EXPECT_EQ(fillLevelText(0.025), "2.5 %");
}

TEST(FillLevels, WhereTheVerdictChanges) {
    const std::vector<LevelVerdict> changing{{0.0, Verdict::Viable, "fio.a.write.bw"},
                                             {0.5, Verdict::Viable, "fio.a.write.bw"},
                                             {0.9, Verdict::NotViable, "fio.rand.write.iops"}};
    EXPECT_EQ(fillVerdictSummary("raidz1", changing),
              "raidz1: viable at 0 % and 50 %, not-viable at 90 % on fio.rand.write.iops");
    const std::vector<LevelVerdict> same{{0.0, Verdict::Decision, "x"},
                                         {0.8, Verdict::Decision, "x"}};
    EXPECT_EQ(fillVerdictSummary("m", same), "m: decision at every measured level (0 %, 80 %)");
    EXPECT_EQ(fillVerdictSummary("m", {}), "");
}

// The ageing's report as the script prints it on zfs-fuse (no fragmentation property).
TEST(FillProbe, ReadsTheAgeingsReport) {
    auto s = parse(scenarioText("fill = [0.5]\nfill_seed = 3\n"));
    ASSERT_TRUE(s) << s.error().message;
    auto probe = fillProbe(*s, s->layouts.front(), 0.5, 0);
    ASSERT_TRUE(probe) << probe.error().message;
    WorkloadContext ctx;
    ctx.workdir = "/mnt/m";
    const auto mc = (*probe)->command({}, ctx);
    ASSERT_TRUE(mc);
    const auto& args = mc->command.args;
    ASSERT_EQ(args.size(), 10U);
    EXPECT_EQ(args[3], "zfs");
    EXPECT_EQ(args[4], s->layouts.front().pool);
    EXPECT_EQ(args[5], "/mnt/m");
    EXPECT_EQ(args[6], "0.5");
    EXPECT_EQ(args[7], "3");
    EXPECT_EQ(args[8], "0");

    ProcessResult r;
    r.stdoutText = "lb-drill usable_bytes=100000000 used_bytes=50500000 goal_bytes=50000000 "
                   "written_bytes=68000000 level_written_bytes=68000000 deleted_bytes=17000000 "
                   "rewritten_bytes=262144 files=40 rounds=9 seconds=4.00\n"
                   "lb-drill pool_capacity=52 pool_fragmentation=-\n";
    const auto parsed = (*probe)->parse(r, {}, {});
    ASSERT_TRUE(parsed) << parsed.error().message;
    std::map<std::string, double> m;
    for (const auto& metric : parsed->metrics)
        m[metric.name] = metric.value;
    EXPECT_DOUBLE_EQ(m.at("fill.level"), 50.5);
    EXPECT_DOUBLE_EQ(m.at("fill.written_bytes"), 68000000);
    EXPECT_DOUBLE_EQ(m.at("fill.write_rate"), 17000000);
    EXPECT_DOUBLE_EQ(m.at("fill.pool_capacity"), 52);
    EXPECT_EQ(m.count("fill.pool_fragmentation"), 0U);
    ASSERT_EQ(parsed->caveats.size(), 2U);
    EXPECT_EQ(parsed->caveats[0],
              "filled and aged to 50 % of the usable space (50.5 % used): 64.85 MiB written by "
              "the ageing so far, not counted in the drive-wear projection");

    ProcessResult empty;
    EXPECT_FALSE((*probe)->parse(empty, {}, {}));
    EXPECT_EQ(fillWriteBytes(0.5, 100000000), 75000000U);
    EXPECT_EQ(describeFill(0.5, 100000000, 1e6),
              "fill and age to 50 % of the usable space: about 71.53 MiB written from empty, "
              "about 75 s at the measured 976.56 KiB/s");
    EXPECT_EQ(describeFill(0.8, 4000000000000, std::nullopt),
              "fill and age to 80 % of the usable space: about 4.37 TiB written from empty (no "
              "write rate measured on this layout yet: time unknown)");
}

namespace {

struct FilledStore {
    test::ScratchDir scratch{"fill"};
    Expected<Store> store = Store::open(scratch.path("results.db"));

    // Layouts "base" and "cand": put_block 100 on base at every level; cand 105 at 0 %, 104 at
    // 50 % and 300 at 90 % (three times the cost: not viable).
    FilledStore() {
        EXPECT_TRUE(store) << store.error().message;
        for (const auto& [layout, values] :
             {std::pair<std::string, std::vector<double>>{"base", {100, 100, 100}},
              std::pair<std::string, std::vector<double>>{"cand", {105, 104, 34}}}) {
            auto id = store->ensureLayout(layout, "zfs-mirror", "{}", std::nullopt);
            EXPECT_TRUE(id);
            const double levels[] = {0.0, 0.5, 0.9};
            for (std::size_t l = 0; l < 3; ++l)
                for (int i = 0; i < 3; ++i) {
                    lb::Run r;
                    r.workload = "bonnie";
                    r.probe = "bonnie";
                    r.iteration = i;
                    r.status = RunStatus::Ok;
                    r.fillLevel = levels[l];
                    r.fillBytes = static_cast<std::uint64_t>(levels[l] * 1e9);
                    r.metrics = {
                        {"bonnie.put_block", values[l] * (1 + 0.001 * i), Unit::BytesPerSecond}};
                    EXPECT_TRUE(store->insertRun(*id, r));
                }
        }
    }
};

} // namespace

TEST(FillStore, RunsKeepTheirLevelAndTheBytesWritten) {
    FilledStore f;
    auto levels = f.store->layoutFillLevels("cand");
    ASSERT_TRUE(levels);
    EXPECT_EQ(*levels, (std::vector<int>{0, 500, 900}));
    auto runs = f.store->runs();
    ASSERT_TRUE(runs);
    ASSERT_EQ(runs->size(), 18U);
    EXPECT_EQ(runs->at(4).fillLevel, 0.5);
    EXPECT_EQ(runs->at(4).fillBytes, 500000000U);
    auto stored = f.store->storedRuns();
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored->at(8).fillLevel, 0.9);
    auto samples = f.store->layoutSamples("cand", std::nullopt, std::nullopt, 900);
    ASSERT_TRUE(samples);
    ASSERT_EQ(samples->metrics.size(), 1U);
    EXPECT_EQ(samples->metrics[0].values.size(), 3U);
    EXPECT_NEAR(samples->metrics[0].values[0], 34, 0.1);
}

TEST(FillStore, ComparisonsPairLevelsAndNeverMixThem) {
    FilledStore f;
    auto mixed = compareStoredLayouts(*f.store, "base", "cand", std::nullopt);
    ASSERT_FALSE(mixed);
    EXPECT_EQ(mixed.error().message,
              "fill: the baseline layout 'base' holds runs at 3 fill levels (0 %, 50 %, 90 %): "
              "runs at different fill levels are not compared as one; name one, or all");
    auto at90 = compareStoredLayouts(*f.store, "base", "cand", std::nullopt, std::nullopt, {}, 900);
    ASSERT_TRUE(at90) << at90.error().message;
    EXPECT_EQ(at90->verdict, Verdict::NotViable);
    EXPECT_EQ(at90->fillLevel, 0.9);
    ASSERT_EQ(at90->metrics.size(), 1U);
    EXPECT_NEAR(at90->metrics[0].baselineMedian, 100, 0.2);
    EXPECT_NEAR(at90->metrics[0].candidateMedian, 34, 0.1);
    auto missing =
        compareStoredLayouts(*f.store, "base", "cand", std::nullopt, std::nullopt, {}, 800);
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().message,
              "fill: layout 'base' has no runs at 80 % (its runs are at 0 %, 50 %, 90 %)");

    auto curve = compareAtFillLevels(*f.store, "base", "cand", std::nullopt);
    ASSERT_TRUE(curve) << curve.error().message;
    ASSERT_EQ(curve->levels.size(), 3U);
    EXPECT_EQ(curve->levels[1].permille, 500);
    EXPECT_EQ(curve->levels[1].comparison.verdict, Verdict::Viable);
    EXPECT_EQ(curve->summary,
              "cand: viable at 0 % and 50 %, not-viable at 90 % on bonnie.put_block");
}

TEST(FillStore, DifferentSingleLevelsAreNotCompared) {
    test::ScratchDir scratch{"fill-single"};
    auto s = Store::open(scratch.path("results.db"));
    ASSERT_TRUE(s);
    for (const auto& [layout, level] : {std::pair{"a", 0.5}, std::pair{"b", 0.8}}) {
        auto id = s->ensureLayout(layout, "zfs-mirror", "{}", std::nullopt);
        ASSERT_TRUE(id);
        lb::Run r;
        r.workload = "bonnie";
        r.probe = "bonnie";
        r.status = RunStatus::Ok;
        r.fillLevel = level;
        r.metrics = {{"bonnie.put_block", 100, Unit::BytesPerSecond}};
        ASSERT_TRUE(s->insertRun(*id, r));
    }
    auto cmp = compareStoredLayouts(*s, "a", "b", std::nullopt);
    ASSERT_FALSE(cmp);
    EXPECT_EQ(cmp.error().message, "fill: the baseline 'a' was measured at 50 % and the "
                                   "candidate 'b' at 80 %: runs at different fill levels are "
                                   "not compared");
}

// The measured levels set on a projection: the month each is reached, the figure measured
// there, between two levels said to be between, nothing extrapolated past the last.
TEST(FillProjection, MonthsOfTheMeasuredLevels) {
    LayoutProjection p;
    for (unsigned m = 0; m <= 10; ++m)
        p.months.push_back({m, 100, 10ULL * m + (m == 0 ? 12 : 0)});
    FillMeasured measured;
    measured.layout = "raidz1";
    measured.lowest = 0.0;
    measured.above = {{0.5, "fio.r.write.iops", 1.2}, {0.8, "fio.r.write.iops", 1.9}};
    const FillProjection f = tieFillLevels(measured, p);
    EXPECT_EQ(f.today, "month 0: 12 % full, between the levels measured at 0 % and 50 %");
    ASSERT_EQ(f.milestones.size(), 2U);
    EXPECT_EQ(f.milestones[0].month, 5U);
    EXPECT_EQ(f.milestones[1].text, "month 8: 80 % full; fio.r.write.iops takes 1.90× the time "
                                    "it takes at 0 % (measured at 80 %)");
    EXPECT_EQ(f.between,
              (std::vector<std::string>{
                  "months 1–4: between 0 % and 50 % full, between the figures measured at "
                  "those levels",
                  "months 6–7: between 50 % and 80 % full, between the figures measured at "
                  "those levels"}));
    EXPECT_EQ(f.beyond, "from month 9 the pool is fuller than 80 %, the last level measured: "
                        "nothing was measured there and nothing is extrapolated");
    // In the order of the months.
    EXPECT_EQ(f.lines, (std::vector<std::string>{f.today, f.between[0], f.milestones[0].text,
                                                 f.between[1], f.milestones[1].text, f.beyond}));

    measured.above = {{0.95, "", std::nullopt}};
    for (auto& m : p.months)
        m.usedBytes = 9ULL * m.month; // 90 % at the horizon
    const FillProjection g = tieFillLevels(measured, p);
    ASSERT_EQ(g.milestones.size(), 1U);
    EXPECT_EQ(g.milestones[0].text, "beyond month 10: 95 % full; no deciding metric measured both "
                                    "there and at 0 % (measured at 95 %)");
    EXPECT_EQ(g.beyond, "within the horizon the pool stays at or below 95 %, the last level "
                        "measured");
}

// What the ageing wrote is said beside the wear projection, never counted there silently
// (issue 44, item 5): summed over the layout's ageing runs at every level; per disk at the
// layout's write amplification and as a share of the rated endurance when the wear is known.
TEST(FillProjection, TheAgeingsBytesBesideTheWear) {
    test::ScratchDir scratch{"fill-ageing"};
    auto s = Store::open(scratch.path("results.db"));
    ASSERT_TRUE(s);
    auto id = s->ensureLayout("raidz1", "zfs-raidz1", "{}", std::nullopt);
    ASSERT_TRUE(id);
    // Two sessions aged to 0 % and 50 % (a resume ages again): 2 x 40 MB at 50 %, nothing at 0 %.
    for (int session = 0; session < 2; ++session)
        for (const double level : {0.0, 0.5}) {
            lb::Run r;
            r.workload = fillWorkload;
            r.probe = "fill";
            r.iteration = session;
            r.status = RunStatus::Ok;
            r.fillLevel = level;
            r.metrics = {{"fill.level", level * 100 + 0.2, Unit::Percent},
                         {"fill.level_written_bytes", level * 80e6, Unit::Count},
                         {"fill.written_bytes", level * 80e6, Unit::Count}};
            ASSERT_TRUE(s->insertRun(*id, r));
        }
    auto measured = measuredFillLevels(*s, "raidz1");
    ASSERT_TRUE(measured) << measured.error().message;
    ASSERT_TRUE(*measured);
    EXPECT_EQ((*measured)->ageingBytes, 80000000U);

    LayoutProjection p;
    p.diskBytes = {500000000000, 500000000000, 500000000000, 500000000000};
    for (unsigned m = 0; m <= 10; ++m)
        p.months.push_back({m, 100, 10ULL * m});
    const FillProjection bare = tieFillLevels(**measured, p);
    EXPECT_EQ(bare.ageing.hostBytes, 80000000U);
    EXPECT_FALSE(bare.ageing.deviceBytesPerDisk);
    EXPECT_EQ(bare.ageing.text,
              "ageing: wrote 80.00 MB on this layout to reach the measured levels, "
              "which the drive-wear projection does not count (it counts the "
              "hosts' writes alone)");
    EXPECT_EQ(bare.lines.back(), bare.ageing.text);

    WearEstimate wear;
    wear.writeAmplification = 1.5;
    wear.enduranceBytes = 300e12;
    p.wear = wear;
    const FillProjection worn = tieFillLevels(**measured, p);
    ASSERT_TRUE(worn.ageing.deviceBytesPerDisk);
    EXPECT_DOUBLE_EQ(*worn.ageing.deviceBytesPerDisk, 30e6); // 80 MB x 1.5 over 4 disks
    ASSERT_TRUE(worn.ageing.enduranceShare);
    EXPECT_DOUBLE_EQ(*worn.ageing.enduranceShare, 1e-7);
    EXPECT_EQ(worn.ageing.text,
              "ageing: wrote 80.00 MB on this layout to reach the measured levels "
              "(30.00 MB per disk at write amplification 1.50, 1e-05 % of its "
              "rated endurance), not counted in the wear projection, which "
              "counts the hosts' writes alone");
    EXPECT_EQ(worn.lines.back(), worn.ageing.text);

    // Nothing aged above 0 %: nothing written, nothing said.
    FillMeasured flat;
    flat.layout = "raidz1";
    const FillProjection none = tieFillLevels(flat, p);
    EXPECT_EQ(none.ageing.hostBytes, 0U);
    EXPECT_EQ(std::count(none.lines.begin(), none.lines.end(), none.ageing.text), 0);
}

// A database of schema 17 opens at the latest: its runs were measured as built (no fill level, no
// bytes), compare them as before, and new runs store their level beside them.
TEST(FillStore, MigratesSchemaSeventeenRunsAsBuilt) {
    test::ScratchDir scratch{"fill-migrate"};
    const std::string path = scratch.path("results.db");
    {
        auto s = Store::open(path);
        ASSERT_TRUE(s) << s.error().message;
        auto id = s->ensureLayout("a", "zfs-mirror", "{}", std::nullopt);
        ASSERT_TRUE(id);
        lb::Run r;
        r.workload = "bonnie";
        r.probe = "bonnie";
        r.status = RunStatus::Ok;
        r.metrics = {{"bonnie.put_block", 100, Unit::BytesPerSecond}};
        ASSERT_TRUE(s->insertRun(*id, r));
        test::downgradeToSchema17(*s);
    }
    auto s = Store::open(path);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(test::queryInt(*s, "SELECT value FROM meta WHERE key = 'schema_version'"),
              Store::latestSchemaVersion);
    auto levels = s->layoutFillLevels("a");
    ASSERT_TRUE(levels);
    EXPECT_EQ(*levels, (std::vector<int>{asBuiltPermille}));
    auto runs = s->runs();
    ASSERT_TRUE(runs);
    ASSERT_EQ(runs->size(), 1U);
    EXPECT_FALSE(runs->front().fillLevel);
    EXPECT_FALSE(runs->front().fillBytes);
}

// The levels are found by seeks in run_layout, not by reading every run: they are the same as
// the distinct levels of the layout's settled runs (ok and failed, not aborted or running), in
// and out of a campaign, with and without runs measured as built; and a database of schema 18
// opens with the index of levels, whose plan answers the seek from the index alone.
TEST(FillStore, LevelsAreTheDistinctLevelsOfTheSettledRuns) {
    test::ScratchDir scratch{"fill-levels"};
    const std::string path = scratch.path("results.db");
    {
        auto s = Store::open(path);
        ASSERT_TRUE(s) << s.error().message;
        auto layout = s->ensureLayout("a", "zfs-mirror", "{}", std::nullopt);
        auto other = s->ensureLayout("b", "zfs-mirror", "{}", std::nullopt);
        auto c1 = s->createCampaign({"c1", "", "", std::nullopt});
        auto c2 = s->createCampaign({"c2", "", "", std::nullopt});
        ASSERT_TRUE(layout && other && c1 && c2);
        struct Stored {
            std::optional<double> fill;
            RunStatus status;
            std::int64_t campaign; // 0: none
            std::int64_t layout;
        };
        const Stored runs[] = {
            {0.9, RunStatus::Ok, *c1, *layout},     {std::nullopt, RunStatus::Ok, *c2, *layout},
            {0.5, RunStatus::Failed, *c2, *layout}, {0.8, RunStatus::Aborted, *c1, *layout},
            {0.0, RunStatus::Failed, *c1, *layout}, {0.9, RunStatus::Ok, *c2, *layout},
            {0.7, RunStatus::Ok, 0, *other},        {0.3, RunStatus::Running, *c2, *layout},
        };
        for (const auto& stored : runs) {
            lb::Run r;
            r.workload = "bonnie";
            r.probe = "bonnie";
            r.status = stored.status;
            r.fillLevel = stored.fill;
            r.campaignId = stored.campaign;
            ASSERT_TRUE(s->insertRun(stored.layout, r));
        }
        test::downgradeToSchema18(*s);
    }
    auto s = Store::open(path);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->schemaVersion(), Store::latestSchemaVersion);
    // The old query, a pass over every run's row, is the oracle.
    const auto distinct = [&](const std::string& layout, std::optional<std::int64_t> campaign) {
        const auto rows = test::queryReadOnly(
            path, "SELECT DISTINCT COALESCE(fill_permille, -1) FROM run WHERE layout_id = (SELECT "
                  "id FROM layout WHERE name = '" +
                      layout + "') AND status IN ('ok', 'failed') AND (" +
                      (campaign ? std::to_string(*campaign) : "NULL") +
                      " IS NULL OR campaign_id = " +
                      (campaign ? std::to_string(*campaign) : "NULL") + ") ORDER BY 1");
        std::vector<int> out;
        for (const auto& row : rows.value_or(test::Rows{}))
            out.push_back(std::stoi(row.at(0)));
        return out;
    };
    for (const std::string layout : {"a", "b", "none"})
        for (const auto campaign : {std::optional<std::int64_t>{}, std::optional<std::int64_t>{1},
                                    std::optional<std::int64_t>{2}}) {
            const auto levels = s->layoutFillLevels(layout, campaign);
            ASSERT_TRUE(levels) << levels.error().message;
            EXPECT_EQ(*levels, distinct(layout, campaign))
                << layout << " campaign " << campaign.value_or(0);
        }
    EXPECT_EQ(*s->layoutFillLevels("a"), (std::vector<int>{asBuiltPermille, 0, 500, 900}));
    EXPECT_EQ(*s->layoutFillLevels("a", 1), (std::vector<int>{0, 900}));
    std::string details = test::queryPlanText(
        path, "SELECT fill_permille FROM run WHERE layout_id = 1 AND fill_permille > -1 AND status "
              "IN ('ok', 'failed') AND (NULL IS NULL OR campaign_id = NULL) ORDER BY fill_permille "
              "LIMIT 1");
    EXPECT_NE(details.find("COVERING INDEX run_layout_fill (layout_id=? AND fill_permille>?)"),
              std::string::npos)
        << details;
    // The samples' pass still reads a layout's runs in run order from run_layout, unsorted.
    details = test::queryPlanText(
        path, "SELECT r.id FROM run r WHERE r.layout_id = 1 AND r.status = 'ok' AND (NULL IS NULL "
              "OR r.campaign_id = NULL) AND (500 IS NULL OR COALESCE(r.fill_permille, -1) = 500) "
              "ORDER BY r.id");
    EXPECT_NE(details.find("INDEX run_layout (layout_id=? AND status=?)"), std::string::npos)
        << details;
    EXPECT_EQ(details.find("TEMP B-TREE"), std::string::npos) << details;
}
