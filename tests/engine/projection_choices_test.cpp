// What the Projection tab is offered (issue 41, item 5): the store's and the scenario's layouts,
// the first whose disks are known, a use the layout can hold, and a layout as a form shows it;
// and a plan made from records projects as one made from the store.
#include "engine/base/size.h"
#include "engine/build/layout_spec.h"
#include "engine/capacity/projection.h"
#include "engine/store/store.h"
#include "engine/workbench.h"
#include "probes/registry.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <unistd.h>

namespace lb {
namespace {

constexpr std::uint64_t GB = 1000ULL * 1000 * 1000;

const ProbeRegistry& probes() {
    static const ProbeRegistry registry = standardProbes();
    return registry;
}

Scenario scenario(const char* name) {
    auto s = loadScenario(std::string(LAYOUTBENCH_SOURCE_DIR "/scenarios/") + name, probes());
    EXPECT_TRUE(s) << (s ? "" : s.error().message);
    return std::move(*s);
}

// The seed scenario's layouts as its campaign records them: ten 500 GB SSDs, as lsblk sized them.
std::vector<LayoutRecord> seedRecords() {
    const Scenario seed = scenario("seed-2019-bare-vs-guest.toml");
    std::map<std::string, std::uint64_t> sizes;
    for (const auto& d : seed.disks)
        sizes[d.device] = 500 * GB;
    std::vector<LayoutRecord> out;
    for (const auto& l : seed.layouts) {
        LayoutRecord r;
        r.name = l.name;
        r.kind = layoutKindName(l.kind);
        r.spec = layoutSpecJson(seed, l, sizes);
        out.push_back(std::move(r));
    }
    return out;
}

LayoutRecord imported(std::string name) {
    LayoutRecord r;
    r.name = std::move(name);
    r.kind = "imported";
    r.spec = importedLayoutSpecJson();
    return r;
}

std::vector<std::string> names(const std::vector<ProjectableLayout>& layouts) {
    std::vector<std::string> out;
    for (const auto& l : layouts)
        out.push_back(l.record.name);
    return out;
}

TEST(SizeText, ReadsBackAsTheSameBytes) {
    EXPECT_EQ(sizeText(500 * GB), "500G");
    EXPECT_EQ(sizeText(512 * MiB), "512MiB");
    EXPECT_EQ(sizeText(4 * TiB), "4TiB");
    EXPECT_EQ(sizeText(1100 * GB), "1.1T");
    EXPECT_EQ(sizeText(530'000'000), "530M");
    EXPECT_EQ(sizeText(500107862016), "500107862016"); // a Samsung 860 EVO 500GB, as lsblk says
    EXPECT_EQ(sizeText(0), "0");
    for (const std::uint64_t b :
         std::initializer_list<std::uint64_t>{1, 999, 1024, 1000, 1536, 1'500'000'000'000,
                                              500107862016, 3 * TiB + 512 * GiB, 123'456'789'000})
        EXPECT_EQ(*parseSize(sizeText(b)), b) << sizeText(b);
}

TEST(FractionText, ReadsBackAsTheSameFraction) {
    EXPECT_EQ(fractionText(0.8), "80%");
    EXPECT_EQ(fractionText(1.0), "100%");
    EXPECT_EQ(fractionText(0.875), "87.5%");
    for (double f : {0.8, 1.0, 0.875, 0.9, 0.05})
        EXPECT_DOUBLE_EQ(*parseFraction(fractionText(f)), f) << fractionText(f);
}

// quick.toml's dir has no capacity model; its raidz1 is four 512 MiB files: known.
TEST(ProjectableLayouts, TheScenariosLayoutsWhoseDisksAreKnown) {
    const auto quick = scenarioLayoutRecords(scenario("quick.toml"));
    ASSERT_EQ(quick.size(), 2U);
    const auto offered = projectableLayouts({}, quick);
    ASSERT_EQ(names(offered), std::vector<std::string>{"raidz1"});
    EXPECT_TRUE(offered[0].disksKnown);
    EXPECT_TRUE(offered[0].fromScenario);
    EXPECT_EQ(firstProjectable(offered), 0U);

    // The seed's disks are block devices: their sizes are unknown until a campaign asks.
    EXPECT_TRUE(
        projectableLayouts({}, scenarioLayoutRecords(scenario("seed-2019-bare-vs-guest.toml")))
            .empty());
    EXPECT_EQ(firstProjectable({}), std::nullopt);
}

// The store's layouts come first, imported ones among them; a scenario's layout the store holds
// by name is the store's (its disks as the campaign found them); the first with known disks is
// opened on.
TEST(ProjectableLayouts, TheStoresFirstThenTheScenariosItDoesNotHold) {
    auto stored = seedRecords();
    LayoutRecord dir;
    dir.name = "dir";
    dir.kind = "dir";
    dir.spec = R"({"kind":"dir","path":"/srv"})";
    stored.insert(stored.begin(), {imported("nas"), dir});
    auto quick = scenarioLayoutRecords(scenario("quick.toml"));
    const auto offered = projectableLayouts(stored, quick);
    EXPECT_EQ(names(offered),
              (std::vector<std::string>{"nas", "bare-raidz2", "md6-guest-zfs", "raidz1"}));
    EXPECT_FALSE(offered[0].disksKnown);
    EXPECT_TRUE(offered[1].disksKnown && offered[2].disksKnown);
    EXPECT_FALSE(offered[1].fromScenario);
    EXPECT_TRUE(offered[3].fromScenario);
    EXPECT_EQ(firstProjectable(offered), 1U);
    // Only imported layouts: the first, which asks for its capacity or disks.
    EXPECT_EQ(firstProjectable(projectableLayouts({imported("a"), imported("b")}, {})), 0U);

    quick[1].name = "bare-raidz2";
    const auto shadowed = projectableLayouts(seedRecords(), quick);
    EXPECT_EQ(names(shadowed), (std::vector<std::string>{"bare-raidz2", "md6-guest-zfs"}));
    EXPECT_FALSE(shadowed[0].fromScenario);
}

// A form shows the layout's own kind, disks, sizes and partitions: the guest's md RAID6 of ten
// 80 % partitions under a pool of one device.
TEST(LayoutFields, EachLayoutsOwnValues) {
    const auto records = seedRecords();
    const auto raidz2 = capacityInputFromSpec(records[0].spec, records[0].kind);
    ASSERT_TRUE(raidz2);
    const LayoutFields bare = layoutFields(*raidz2, records[0].kind);
    EXPECT_EQ(bare.kind, "zfs-raidz2");
    EXPECT_EQ(bare.inner, "");
    EXPECT_EQ(bare.guestPool, "");
    EXPECT_EQ(bare.disks, 10U);
    EXPECT_EQ(bare.diskSize, "500G");
    EXPECT_EQ(bare.underprovision, "80%");

    const auto md6 = capacityInputFromSpec(records[1].spec, records[1].kind);
    ASSERT_TRUE(md6);
    const LayoutFields guest = layoutFields(*md6, records[1].kind);
    EXPECT_EQ(guest.kind, "guest");
    EXPECT_EQ(guest.inner, "md-raid6");
    EXPECT_EQ(guest.guestPool, "zfs-stripe");
    EXPECT_EQ(guest.disks, 10U);
    EXPECT_EQ(guest.diskSize, "500G");
    EXPECT_EQ(guest.underprovision, "80%");

    // Mixed disks, one size each; whole disks.
    CapacityInput mixed;
    mixed.kind = LayoutKind::ZfsMirror;
    mixed.diskBytes = {500 * GB, 500 * GB, TiB};
    const LayoutFields m = layoutFields(mixed, "zfs-mirror");
    EXPECT_EQ(m.diskSize, "500G,500G,1TiB");
    EXPECT_EQ(m.underprovision, "100%");
    // The fields, given to project --kind as typed, model the same layout.
    HypotheticalLayoutSettings typed;
    typed.kinds = {guest.kind};
    typed.disks = guest.disks;
    typed.diskSize = guest.diskSize;
    typed.underprovision = *parseFraction(guest.underprovision);
    typed.inner = guest.inner;
    typed.guestPool = guest.guestPool;
    auto again = hypotheticalLayouts(typed, std::nullopt);
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(*computeCapacity(again->front().layout), *computeCapacity(*md6));
}

// Half the ceiling, two figures: the projection opens below its ceiling and buys nothing in
// month 0, whatever the layout's size (quick's 1.3 GB of files or the seed's 10 SSDs).
TEST(SuggestedUse, HalfTheCeilingSoNothingIsBoughtInMonthZero) {
    auto records = seedRecords();
    for (const auto& r : scenarioLayoutRecords(scenario("quick.toml")))
        records.push_back(r);
    for (const char* name : {"bare-raidz2", "md6-guest-zfs", "raidz1"}) {
        ProjectionAsk ask;
        ask.stored = {name};
        ask.settings.used = "1T"; // not read: the issue's 1T on quick's raidz1 bought 1020 disks
        const auto used = suggestedUse(ask, records);
        ASSERT_TRUE(used) << name << ": " << used.error().message;
        ask.settings.used = *used;
        ask.settings.growth = "30%";
        auto plan = planProjection(ask, records);
        ASSERT_TRUE(plan) << plan.error().message;
        auto projected = projectPlan(*plan);
        ASSERT_TRUE(projected) << projected.error().message;
        const LayoutProjection& p = projected->front();
        const std::uint64_t half = p.ceilingBytes / 2;
        EXPECT_LE(p.months[0].usedBytes, half) << name << " " << *used;
        EXPECT_GE(p.months[0].usedBytes, half / 10 * 9) << name << " " << *used;
        EXPECT_NE(p.ceilingMonth, std::optional<unsigned>(0)) << name;
        for (const auto& e : p.expansions) {
            if (!e.schedule.empty()) {
                EXPECT_GT(e.schedule.front().month, 0U) << name << " " << *used;
            }
        }
    }
    // ZFS's 80 % ceiling of the seed's RAIDZ2, as project computes it.
    ProjectionAsk bare;
    bare.stored = {"bare-raidz2"};
    bare.settings.used = "1T";
    bare.settings.growth = "30%";
    auto plan = planProjection(bare, records);
    ASSERT_TRUE(plan);
    const auto p = projectPlan(*plan);
    ASSERT_TRUE(p);
    EXPECT_DOUBLE_EQ(p->front().ceilingFraction, 0.80);
    const std::uint64_t half = p->front().ceilingBytes / 2;
    ASSERT_GE(half, 1000 * GB); // 1.0 to 9.9 TB: two figures are 100 GB steps
    ASSERT_LT(half, 10000 * GB);
    EXPECT_EQ(parseSize(*suggestedUse(bare, records)).value(), half / (100 * GB) * (100 * GB));

    // An imported layout: nothing until its capacity or disks are given; then theirs.
    ProjectionAsk nas;
    nas.stored = {"nas"};
    const std::vector<LayoutRecord> withNas{imported("nas")};
    const auto nothing = suggestedUse(nas, withNas);
    ASSERT_FALSE(nothing);
    EXPECT_TRUE(nothing.error().message.starts_with("used: applies to none"))
        << nothing.error().message;
    nas.settings.capacities = {"nas=12T"};
    EXPECT_EQ(suggestedUse(nas, withNas).value(), "5.4T"); // kind unknown: 90 % of 12 TB, halved
    nas.settings.capacities.clear();
    nas.settings.importedDisks = {"nas=zfs-raidz2,10,500G,80%"};
    EXPECT_EQ(suggestedUse(nas, withNas).value(),
              suggestedUse(bare, records).value()); // bare metal
    // A layout the disks cannot make: the engine's error, naming the field.
    ProjectionAsk tiny;
    tiny.hypothetical.kinds = {"zfs-raidz2"};
    tiny.hypothetical.disks = 2;
    tiny.hypothetical.diskSize = "1T";
    const auto refused = suggestedUse(tiny, {});
    ASSERT_FALSE(refused);
    EXPECT_TRUE(refused.error().message.starts_with("disks: ")) << refused.error().message;
}

// A plan over records is the plan over the store: the same inputs, projected the same; a name
// not among them is bad input naming the layout.
TEST(PlanProjection, FromRecordsAsFromTheStore) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("lb-projection-choices-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto records = seedRecords();
    {
        auto store = Store::open((dir / "seed.db").string());
        ASSERT_TRUE(store) << store.error().message;
        auto host = store->ensureHost("storage1", "{}");
        ASSERT_TRUE(host);
        for (const auto& r : records)
            ASSERT_TRUE(store->ensureLayout(r.name, r.kind, r.spec, *host));
    }
    auto store = Store::open((dir / "seed.db").string());
    ASSERT_TRUE(store);
    ProjectionAsk ask;
    ask.stored = {"md6-guest-zfs", "bare-raidz2"};
    ask.settings.used = "1T";
    ask.settings.growth = "30%";
    auto fromStore = planProjection(ask, &*store);
    auto fromRecords = planProjection(ask, records);
    ASSERT_TRUE(fromStore && fromRecords);
    ASSERT_EQ(fromRecords->inputs.size(), 2U);
    EXPECT_EQ(fromRecords->inputs[0].name, "md6-guest-zfs");
    EXPECT_EQ(fromRecords->kinds, fromStore->kinds);
    const auto a = projectPlan(*fromStore);
    const auto b = projectPlan(*fromRecords);
    ASSERT_TRUE(a && b);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ((*a)[i].capacity, (*b)[i].capacity);
        EXPECT_EQ((*a)[i].months, (*b)[i].months);
        EXPECT_EQ((*a)[i].ceilingMonth, (*b)[i].ceilingMonth);
    }
    ask.stored = {"nowhere"};
    auto missing = planProjection(ask, records);
    ASSERT_FALSE(missing);
    EXPECT_TRUE(missing.error().message.starts_with("layout: 'nowhere'"))
        << missing.error().message;
    std::filesystem::remove_all(dir);
}

} // namespace
} // namespace lb
