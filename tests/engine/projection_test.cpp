// Tests of the projection: growth models and fits, the month the ceiling is passed, expansion
// steps and their schedule, and SSD wear. Each expected figure is worked by hand in a comment.
#include "engine/build/layout_spec.h"
#include "engine/capacity/projection.h"
#include "engine/workbench.h"
#include "tests/support/capacity_input.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <numeric>

namespace lb {
namespace {

using test::GB;
using test::layout;
using test::TB;

// Samsung 860 EVO 500GB as the catalog lists it: 300 TBW, illustrative $60.
Drive evo860() {
    Drive d;
    d.id = "samsung-860-evo-500gb";
    d.model = "Samsung 860 EVO 500GB";
    d.capacityBytes = 500 * GB;
    d.tbw = 300;
    d.warrantyYears = 5;
    d.priceUsd = 60;
    return d;
}

ProjectionInput projection(CapacityInput l, std::uint64_t used, GrowthModel g) {
    ProjectionInput in;
    in.layout = std::move(l);
    in.usedBytes = used;
    in.growth = g;
    return in;
}

// The engine names the field the error is about, first: "growth: ...".
void expectBadInput(const Error& e, const std::string& field) {
    EXPECT_EQ(e.kind, ErrorKind::BadInput) << e.message;
    EXPECT_EQ(e.message.rfind(field + ": ", 0), 0U) << e.message;
}

const ExpansionPath* findPath(const LayoutProjection& p, ExpansionKind k) {
    for (const auto& e : p.expansions)
        if (e.kind == k)
            return &e;
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Growth models

TEST(Growth, LinearMonthValues) {
    auto g = parseGrowth("2TB/y");
    ASSERT_TRUE(g) << g.error().message;
    EXPECT_EQ(g->kind, GrowthKind::Linear);
    EXPECT_DOUBLE_EQ(g->bytesPerYear, 2e12);
    // 1 TB + 2 TB/year * months/12: month 6 -> 1 + 1 = 2 TB; 12 -> 3 TB; 18 -> 1 + 3 = 4 TB;
    // 60 -> 1 + 10 = 11 TB.
    EXPECT_DOUBLE_EQ(g->usedAfter(1e12, 0), 1e12);
    EXPECT_DOUBLE_EQ(g->usedAfter(1e12, 6), 2e12);
    EXPECT_DOUBLE_EQ(g->usedAfter(1e12, 12), 3e12);
    EXPECT_DOUBLE_EQ(g->usedAfter(1e12, 18), 4e12);
    EXPECT_DOUBLE_EQ(g->usedAfter(1e12, 60), 11e12);

    // The same through a projection: months[m].used_bytes.
    auto p = projectLayout(projection(layout(LayoutKind::MdRaid1, 2, 20 * TB), TB, *g));
    ASSERT_TRUE(p) << p.error().message;
    ASSERT_EQ(p->months.size(), 61U); // months 0..60
    EXPECT_EQ(p->months[6].usedBytes, 2 * TB);
    EXPECT_EQ(p->months[18].usedBytes, 4 * TB);
    EXPECT_EQ(p->months[60].usedBytes, 11 * TB);

    for (const char* spelled : {"2TB/yr", "2T/year", "2000G/y"}) {
        auto same = parseGrowth(spelled);
        ASSERT_TRUE(same) << spelled;
        EXPECT_EQ(*same, *g) << spelled;
    }
}

TEST(Growth, CompoundMonthlyCompounding) {
    auto g = parseGrowth("30%");
    ASSERT_TRUE(g) << g.error().message;
    EXPECT_EQ(g->kind, GrowthKind::Compound);
    EXPECT_DOUBLE_EQ(g->annualRate, 0.30);
    // 1 TB * 1.3^(24/12) = 1 TB * 1.69 = 1.69 TB.
    EXPECT_NEAR(g->usedAfter(1e12, 24), 1.69e12, 1.0);
    // 1 TB * 1.3^(6/12) = sqrt(1.3) TB = 1.140175425 TB.
    EXPECT_NEAR(g->usedAfter(1e12, 6), 1140175425099.138, 1.0);
    auto p = projectLayout(projection(layout(LayoutKind::ZfsMirror, 2, 20 * TB), TB, *g));
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_EQ(p->months[24].usedBytes, 1690000000000ULL);
}

TEST(Growth, ZeroGrowthIsAllowed) {
    auto g = parseGrowth("0%");
    ASSERT_TRUE(g);
    EXPECT_DOUBLE_EQ(g->usedAfter(5e11, 60), 5e11);
}

TEST(Growth, BadRatesNameTheField) {
    for (const char* bad : {"-30%", "-2TB/y", "fast", "30", "2TB", "2TB/month", "x%", ""}) {
        auto g = parseGrowth(bad);
        ASSERT_FALSE(g) << bad;
        expectBadInput(g.error(), "growth");
    }
    EXPECT_NE(parseGrowth("-30%").error().message.find("negative"), std::string::npos);
}

TEST(Growth, HostWrites) {
    auto w = parseDailyWrites("100G/d");
    ASSERT_TRUE(w);
    EXPECT_EQ(*w, 100 * GB);
    EXPECT_EQ(*parseDailyWrites("1TB/day"), TB);
    for (const char* bad : {"100G", "100G/h", "lots/d"}) {
        auto e = parseDailyWrites(bad);
        ASSERT_FALSE(e) << bad;
        expectBadInput(e.error(), "host-writes");
    }
}

// ---------------------------------------------------------------------------------------------
// Fits to dated samples

TEST(Fit, ExactLinearSamplesRecoverTheSlope) {
    // Days 0, 100, 200, 300 from 2024-01-01 (2024 is a leap year: 2024-04-10, 2024-07-19,
    // 2024-10-27), growing 0.5 TB per 100 days = 5e9 bytes/day = 5e9 * 365.25 = 1.82625e12
    // bytes/year. The header line is optional and skipped.
    const std::string csv = "date,bytes\n"
                            "2024-01-01,1000000000000\n"
                            "2024-04-10,1500000000000\n"
                            "2024-07-19,2T\n"
                            "2024-10-27T12:00:00Z,2500000000000\n";
    auto samples = parseUsageSamples(csv, "usage.csv");
    ASSERT_TRUE(samples) << samples.error().message;
    ASSERT_EQ(samples->size(), 4U);
    EXPECT_DOUBLE_EQ((*samples)[1].day - (*samples)[0].day, 100.0);
    // The time of day counts: noon is half a day.
    EXPECT_DOUBLE_EQ((*samples)[3].day - (*samples)[0].day, 300.5);

    // Move the last sample back to midnight so the series is exactly linear.
    (*samples)[3].day -= 0.5;
    auto fit = fitGrowth(*samples);
    ASSERT_TRUE(fit) << fit.error().message;
    EXPECT_FALSE(fit->exponential);
    EXPECT_EQ(fit->model.kind, GrowthKind::Linear);
    EXPECT_NEAR(fit->model.bytesPerYear, 1.82625e12, 1.0);
    EXPECT_LT(fit->linearRmsBytes, 1.0);
    ASSERT_TRUE(fit->exponentialRmsBytes);
    EXPECT_GT(*fit->exponentialRmsBytes, fit->linearRmsBytes);
    EXPECT_EQ(fit->lastBytes, 2500 * GB);
    EXPECT_EQ(fit->samples, 4U);
}

TEST(Fit, ExponentialSamplesPickTheExponentialModel) {
    // 1 TB growing 30 % a year: bytes = 1e12 * 1.3^(t / 365.25), rounded to whole bytes, at
    // t = 0, 182, 366, 547, 731 days from 2020-01-01 (2020 is a leap year).
    const std::string csv = "2020-01-01,1000000000000\n"
                            "2020-07-01,1139663662355\n"
                            "\n"
                            "# a comment\n"
                            "2021-01-01,1300700545040\n"
                            "2021-07-01,1481296728054\n"
                            "2022-01-01,1690607084519\n";
    auto samples = parseUsageSamples(csv, "usage.csv");
    ASSERT_TRUE(samples) << samples.error().message;
    auto fit = fitGrowth(*samples);
    ASSERT_TRUE(fit) << fit.error().message;
    EXPECT_TRUE(fit->exponential);
    EXPECT_EQ(fit->model.kind, GrowthKind::Compound);
    EXPECT_NEAR(fit->model.annualRate, 0.30, 1e-6);
    ASSERT_TRUE(fit->exponentialRmsBytes);
    EXPECT_LT(*fit->exponentialRmsBytes, fit->linearRmsBytes);
}

TEST(Fit, BadSamplesNameFileLineAndField) {
    struct Case {
        const char* csv;
        const char* where;
    };
    const Case cases[] = {
        {"2024-01-01,1T\n2024-02-30,2T\n", "s.csv:2: date"}, // no 30 February
        {"2024-01-01,1T\nyesterday,2T\n", "s.csv:2: date"},
        {"2024-01-01,1T\n2024-02-01,lots\n", "s.csv:2: bytes"},
        {"2024-01-01,1T\n2024-02-01,-5\n", "s.csv:2: bytes"},
        {"date,bytes\n2024-01-01,1T\n2024-03-01,2T\n2024-02-01,3T\n", "s.csv:4: date"},
        {"2024-01-01,1T\n2024-01-01,2T\n", "s.csv:2: date"}, // same date twice
        {"2024-01-01,1T,extra\n", "s.csv:1: line"},
    };
    for (const auto& c : cases) {
        auto s = parseUsageSamples(c.csv, "s.csv");
        ASSERT_FALSE(s) << c.csv;
        expectBadInput(s.error(), c.where);
    }
    auto order = parseUsageSamples("2024-03-01,1T\n2024-02-01,2T\n", "s.csv");
    ASSERT_FALSE(order);
    EXPECT_NE(order.error().message.find("order"), std::string::npos) << order.error().message;
}

TEST(Fit, NeedsTwoSamplesAndGrowth) {
    auto one = parseUsageSamples("2024-01-01,1T\n", "s.csv");
    ASSERT_TRUE(one);
    auto fit = fitGrowth(*one);
    ASSERT_FALSE(fit);
    expectBadInput(fit.error(), "samples");

    auto shrinking = parseUsageSamples("2024-01-01,3T\n2024-06-01,2T\n2024-12-01,1T\n", "s.csv");
    ASSERT_TRUE(shrinking);
    auto down = fitGrowth(*shrinking);
    ASSERT_FALSE(down);
    expectBadInput(down.error(), "samples");
}

TEST(Fit, ZeroBytesSkipsTheExponentialFit) {
    auto s = parseUsageSamples("2024-01-01,0\n2024-01-11,10G\n", "s.csv");
    ASSERT_TRUE(s);
    auto fit = fitGrowth(*s);
    ASSERT_TRUE(fit) << fit.error().message;
    EXPECT_FALSE(fit->exponential);
    EXPECT_FALSE(fit->exponentialRmsBytes);
    // 10 GB in 10 days = 1e9/day = 365.25e9/year.
    EXPECT_NEAR(fit->model.bytesPerYear, 365.25e9, 1.0);
}

// ---------------------------------------------------------------------------------------------
// The ceiling

TEST(Projection, ExhaustionMonthByHand) {
    // md-raid1 of two 1 TB disks. mdadm's data offset for a 1953125000-sector member: bitmap
    // 128 KiB (256 sectors, the member is past 200 GiB), headroom 128 MiB (262144 sectors; it
    // is below 0.1 % of the member, so not halved), 12 KiB of superblock area (24 sectors):
    // 262424 sectors rounded up to 1 MiB = 264192 sectors. Free: (1953125000 - 264192) / 2 =
    // 976430404 KiB, down to 64 KiB for raid1 = 976430400 KiB = 999864729600 bytes usable.
    // Ceiling 90 % (md) = 899878256640 bytes.
    // Use 500 GB growing 100 GB/year: 500e9 + 100e9 * m / 12 > 899878256640 when
    // m > 12 * 399878256640 / 100e9 = 47.985, so month 48 (900 GB); month 47 is 891.67 GB.
    auto p = projectLayout(projection(layout(LayoutKind::MdRaid1, 2, TB), 500 * GB,
                                      GrowthModel{GrowthKind::Linear, 100e9, 0}));
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_EQ(p->capacity.usableBytes, 999864729600ULL);
    EXPECT_DOUBLE_EQ(p->ceilingFraction, 0.90);
    EXPECT_EQ(p->ceilingBytes, 899878256640ULL);
    ASSERT_TRUE(p->ceilingMonth);
    EXPECT_EQ(*p->ceilingMonth, 48U);
    EXPECT_EQ(p->months[47].usedBytes, 891666666667ULL);
    EXPECT_EQ(p->months[48].usedBytes, 900 * GB);
    // md-raid1 has no path that adds space.
    EXPECT_TRUE(p->expansions.empty());
    EXPECT_FALSE(p->notes.empty());
}

TEST(Projection, CeilingNotReachedAndGivenCeiling) {
    // 100 GB/year for 5 years adds 500 GB: 1.0 TB of a 999.86 GB mirror at 90 % is passed in
    // month 48 (above); with a 1-year horizon the series ends at month 12 with 600 GB, under.
    auto in = projection(layout(LayoutKind::MdRaid1, 2, TB), 500 * GB,
                         GrowthModel{GrowthKind::Linear, 100e9, 0});
    in.years = 1;
    auto p = projectLayout(in);
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_EQ(p->months.size(), 13U);
    EXPECT_FALSE(p->ceilingMonth);

    // Ceiling 0.5: 499932364800 bytes; 500 GB is already above at month 0.
    in.ceiling = 0.5;
    auto half = projectLayout(in);
    ASSERT_TRUE(half);
    EXPECT_EQ(half->ceilingBytes, 499932364800ULL);
    EXPECT_EQ(half->ceilingMonth, 0U);
}

TEST(Projection, DefaultCeilings) {
    EXPECT_DOUBLE_EQ(defaultCeiling(LayoutKind::ZfsRaidz2), 0.80);
    EXPECT_DOUBLE_EQ(defaultCeiling(LayoutKind::ZfsRaid10), 0.80);
    EXPECT_DOUBLE_EQ(defaultCeiling(LayoutKind::MdRaid6), 0.90);
}

// A ZFS pool on md (a guest's pool on the array it sees) fills as ZFS does: 80 %, not md's 90 %,
// and the projection says that pool cannot repair what it detects (issue 41).
TEST(Projection, AGuestsPoolOnMdHasZfsCeiling) {
    ProjectionInput in;
    in.layout.kind = LayoutKind::MdRaid6;
    in.layout.diskBytes = std::vector<std::uint64_t>(10, 500'000'000'000ULL);
    in.layout.underprovision = 0.8;
    in.usedBytes = 1'000'000'000'000ULL;
    in.growth.kind = GrowthKind::Compound;
    in.growth.annualRate = 0.30;
    const auto bare = projectLayout(in);
    ASSERT_TRUE(bare) << bare.error().message;
    EXPECT_DOUBLE_EQ(bare->ceilingFraction, 0.90);
    in.layout.poolOnArray = true;
    EXPECT_DOUBLE_EQ(defaultCeiling(in.layout), 0.80);
    const auto guest = projectLayout(in);
    ASSERT_TRUE(guest) << guest.error().message;
    EXPECT_DOUBLE_EQ(guest->ceilingFraction, 0.80);
    EXPECT_LT(guest->capacity.usableBytes, bare->capacity.usableBytes);
    ASSERT_TRUE(guest->ceilingMonth && bare->ceilingMonth);
    EXPECT_LT(*guest->ceilingMonth, *bare->ceilingMonth);
    EXPECT_TRUE(std::any_of(guest->notes.begin(), guest->notes.end(), [](const std::string& n) {
        return n.find("cannot repair") != std::string::npos;
    }));
}

// ---------------------------------------------------------------------------------------------
// Expansion

// A pool of k vdevs, each the one `one` describes (CapacityInput::vdevs).
lb::Expected<Capacity> poolOf(CapacityInput one, unsigned k) {
    const auto disks = one.diskBytes;
    for (unsigned i = 1; i < k; ++i)
        one.diskBytes.insert(one.diskBytes.end(), disks.begin(), disks.end());
    one.vdevs = k;
    return computeCapacity(one);
}

TEST(Expansion, AddingAVdevOfTheSameShapeDoublesUsable) {
    // A pool of one RAIDZ2 vdev of six 500 GB disks. A second identical vdev doubles the data
    // space; the slop reserve is 1/32 of the pool's deflated space (about 62 GB here, under the
    // 128 GiB cap) so it doubles too, and usable doubles. The data of both vdevs is converted
    // to records in one floor() rather than two, so the sum may be one byte less than 2x.
    const auto one = layout(LayoutKind::ZfsRaidz2, 6, 500 * GB);
    auto single = computeCapacity(one);
    ASSERT_TRUE(single);
    auto p = projectLayout(projection(one, 500 * GB, GrowthModel{GrowthKind::Linear, 0, 0}));
    ASSERT_TRUE(p) << p.error().message;
    const auto* add = findPath(*p, ExpansionKind::ZfsAddVdev);
    ASSERT_NE(add, nullptr);
    EXPECT_EQ(add->disksPerStep, 6U);
    EXPECT_NEAR(static_cast<double>(add->stepUsableBytes), static_cast<double>(single->usableBytes),
                1.0);
    EXPECT_FALSE(add->approximate);
    EXPECT_FALSE(add->requiresOpenZfs);

    auto two = poolOf(one, 2);
    ASSERT_TRUE(two);
    EXPECT_NEAR(static_cast<double>(two->usableBytes),
                2.0 * static_cast<double>(single->usableBytes), 1.0);
}

TEST(Expansion, SlopCapMeansBigPoolsMoreThanDouble) {
    // Ten 4 TB disks in RAIDZ2: 1/32 of the deflated space is past spa_max_slop (128 GiB), so
    // the slop stays at the cap when a second vdev is added and usable more than doubles.
    const auto one = layout(LayoutKind::ZfsRaidz2, 10, 4 * TB);
    auto single = computeCapacity(one);
    auto two = poolOf(one, 2);
    ASSERT_TRUE(single && two);
    EXPECT_GT(two->usableBytes, 2 * single->usableBytes);
}

TEST(Expansion, TwoWayMirrorPoolIsRaid10) {
    // A pool of two 2-way mirrors is exactly zfs-raid10 of four disks.
    auto pool = poolOf(layout(LayoutKind::ZfsMirror, 2, 500 * GB), 2);
    auto raid10 = computeCapacity(layout(LayoutKind::ZfsRaid10, 4, 500 * GB));
    ASSERT_TRUE(pool && raid10);
    EXPECT_EQ(pool->usableBytes, raid10->usableBytes);
}

TEST(Expansion, MdGrowByOneDiskWithCost) {
    // md-raid6 of four 1 TB disks grown to five: the step is usable(5) - usable(4) from the
    // capacity model (one more data disk's worth: ~1 TB), costing one disk.
    const auto base = layout(LayoutKind::MdRaid6, 4, TB);
    auto four = computeCapacity(base);
    auto five = computeCapacity(layout(LayoutKind::MdRaid6, 5, TB));
    ASSERT_TRUE(four && five);
    auto in = projection(base, TB, GrowthModel{GrowthKind::Linear, 1e12, 0});
    Drive d = evo860();
    d.capacityBytes = TB;
    d.priceUsd = 90;
    in.drive = d;
    auto p = projectLayout(in);
    ASSERT_TRUE(p) << p.error().message;
    const auto* grow = findPath(*p, ExpansionKind::MdGrow);
    ASSERT_NE(grow, nullptr);
    EXPECT_EQ(grow->disksPerStep, 1U);
    EXPECT_EQ(grow->stepUsableBytes, five->usableBytes - four->usableBytes);
    ASSERT_TRUE(grow->stepCostUsd);
    EXPECT_DOUBLE_EQ(*grow->stepCostUsd, 90.0);
    // $90 per (step usable / 1e12) TB.
    EXPECT_DOUBLE_EQ(*grow->costPerUsableTbUsd,
                     90.0 / (static_cast<double>(grow->stepUsableBytes) / 1e12));
}

TEST(Expansion, RaidzExpansionNeedsOpenZfs23AndReportsLess) {
    // RAIDZ2 five wide -> six wide at 128K records, ashift 12. A record is 32 data sectors:
    // width 5: 32 + 2 * ceil(32 / 3) = 54 sectors, a multiple of 3: efficiency 32/54 = 0.593;
    // width 6: 32 + 2 * ceil(32 / 4) = 48 sectors: 32/48 = 0.667. OpenZFS keeps the old ratio
    // for space reporting, so zfs list shows less than the real step: what the capacity model
    // gives for six disks expanded from five (the ratio and metaslab size of five).
    const auto base = layout(LayoutKind::ZfsRaidz2, 5, 500 * GB);
    auto p = projectLayout(projection(base, 100 * GB, GrowthModel{GrowthKind::Linear, 0, 0}));
    ASSERT_TRUE(p) << p.error().message;
    const auto* expand = findPath(*p, ExpansionKind::RaidzExpand);
    ASSERT_NE(expand, nullptr);
    EXPECT_EQ(expand->disksPerStep, 1U);
    ASSERT_TRUE(expand->requiresOpenZfs);
    EXPECT_EQ(*expand->requiresOpenZfs, "2.3");
    auto five = computeCapacity(base);
    auto six = computeCapacity(layout(LayoutKind::ZfsRaidz2, 6, 500 * GB));
    ASSERT_TRUE(five && six);
    EXPECT_EQ(expand->stepUsableBytes, six->usableBytes - five->usableBytes);
    ASSERT_TRUE(expand->reportedStepUsableBytes);
    EXPECT_LT(*expand->reportedStepUsableBytes, expand->stepUsableBytes);
    auto expandedIn = layout(LayoutKind::ZfsRaidz2, 6, 500 * GB);
    expandedIn.raidzExpandedFrom = 5;
    auto expanded = computeCapacity(expandedIn);
    ASSERT_TRUE(expanded);
    EXPECT_EQ(*expand->reportedStepUsableBytes, expanded->usableBytes - five->usableBytes);
    // The ratio of five wide: about 0.593 / 0.667 of the six-wide figure.
    EXPECT_NEAR(static_cast<double>(expanded->usableBytes) / static_cast<double>(six->usableBytes),
                (32.0 / 54.0) / (32.0 / 48.0), 0.002);
    EXPECT_NE(expand->note.find("2.3"), std::string::npos);
}

TEST(Expansion, ScheduleKeepsUseUnderTheCeiling) {
    // 6 x 500 GB RAIDZ2 (1.93 TB usable, ceiling 80 % = 1.54 TB) from 1 TB at 30 %/year:
    // 1e12 * 1.3^(m/12) passes 1.5448e12 at m = 12 * ln(1.5448) / ln(1.3) = 19.9, month 20.
    // Every path must add its first step in that month, and afterwards keep each month's use
    // under the ceiling of what the layout can then hold.
    auto in = projection(layout(LayoutKind::ZfsRaidz2, 6, 500 * GB), TB,
                         GrowthModel{GrowthKind::Compound, 0, 0.30});
    in.drive = evo860();
    auto p = projectLayout(in);
    ASSERT_TRUE(p) << p.error().message;
    ASSERT_TRUE(p->ceilingMonth);
    EXPECT_EQ(*p->ceilingMonth, 20U);
    ASSERT_EQ(p->expansions.size(), 2U);
    for (const auto& e : p->expansions) {
        SCOPED_TRACE(std::string(expansionKindName(e.kind)));
        ASSERT_FALSE(e.schedule.empty());
        EXPECT_EQ(e.schedule.front().month, 20U);
        EXPECT_TRUE(e.keepsUp);
        EXPECT_EQ(std::accumulate(e.disksPerYear.begin(), e.disksPerYear.end(), 0U), e.disksBought);
        EXPECT_EQ(e.disksBought, e.schedule.size() * e.disksPerStep);
        ASSERT_TRUE(e.totalCostUsd);
        EXPECT_DOUBLE_EQ(*e.totalCostUsd, 60.0 * e.disksBought);
        // Month 20 is in year 2.
        EXPECT_GE(e.disksPerYear[1], e.disksPerStep);
        EXPECT_EQ(e.disksPerYear[0], 0U);
        // At the horizon, 1.3^5 = 3.71 TB in use must sit under the ceiling.
        EXPECT_LE(p->months.back().usedBytes,
                  static_cast<std::uint64_t>(0.8 * static_cast<double>(e.finalUsableBytes)) + 1);
    }
    // RAIDZ expansion buys one disk at a time; adding vdevs buys six.
    EXPECT_GT(findPath(*p, ExpansionKind::RaidzExpand)->schedule.size(),
              findPath(*p, ExpansionKind::ZfsAddVdev)->schedule.size());
}

TEST(Expansion, RaidzExpansionCountsOldDataAtTheOldRatio) {
    // RAIDZ2 of five 500 GB disks: usable 1428462501888 bytes (the capacity model), ceiling 80 %
    // = 1142770001510. Six wide: 1929060024320. Efficiency 32/54 at width 5, 32/48 at width 6.
    auto in = projection(layout(LayoutKind::ZfsRaidz2, 5, 500 * GB), 1200 * GB,
                         GrowthModel{GrowthKind::Linear, 0, 0});
    auto p = projectLayout(in);
    ASSERT_TRUE(p) << p.error().message;
    const auto* expand = findPath(*p, ExpansionKind::RaidzExpand);
    ASSERT_NE(expand, nullptr);
    ASSERT_FALSE(expand->schedule.empty());
    // 1.2 TB is over the ceiling at month 0: the disk goes in before any data is written, so
    // nothing sits at the old ratio and the effective space is the 6-wide usable.
    const auto& first = expand->schedule.front();
    EXPECT_EQ(first.month, 0U);
    EXPECT_EQ(first.usableBytes, 1929060024320ULL);
    EXPECT_EQ(first.effectiveUsableBytes, first.usableBytes);

    // From 900 GB at 600 GB/year (50 GB a month): 900e9 + 50e9 * m passes 1142770001510 at
    // m = 5. The 1.1 TB written by month 4 at width 5 takes (32/48) / (32/54) = 54/48 = 1.125
    // times the room it would at width 6, so 0.125 * 1.1e12 = 137.5 GB less fits:
    // 1929060024320 - 137500000000 = 1791560024320 effective.
    in.usedBytes = 900 * GB;
    in.growth = GrowthModel{GrowthKind::Linear, 600e9, 0};
    auto later = projectLayout(in);
    ASSERT_TRUE(later);
    const auto* e = findPath(*later, ExpansionKind::RaidzExpand);
    ASSERT_NE(e, nullptr);
    ASSERT_FALSE(e->schedule.empty());
    EXPECT_EQ(e->schedule.front().month, 5U);
    EXPECT_EQ(e->schedule.front().usableBytes, 1929060024320ULL);
    EXPECT_NEAR(static_cast<double>(e->schedule.front().effectiveUsableBytes), 1791560024320.0,
                2.0);
}

TEST(Expansion, PathsPerKind) {
    auto paths = [](LayoutKind k, unsigned n) {
        auto p =
            projectLayout(projection(layout(k, n, TB), 0, GrowthModel{GrowthKind::Linear, 0, 0}));
        EXPECT_TRUE(p) << p.error().message;
        std::vector<ExpansionKind> kinds;
        for (const auto& e : p->expansions)
            kinds.push_back(e.kind);
        return kinds;
    };
    using K = ExpansionKind;
    EXPECT_EQ(paths(LayoutKind::MdRaid5, 3), std::vector<K>{K::MdGrow});
    EXPECT_EQ(paths(LayoutKind::MdRaid10, 4), std::vector<K>{K::MdGrow});
    EXPECT_EQ(paths(LayoutKind::MdRaid0, 2), std::vector<K>{K::MdGrow});
    EXPECT_TRUE(paths(LayoutKind::MdRaid1, 2).empty());
    EXPECT_EQ(paths(LayoutKind::ZfsMirror, 2), std::vector<K>{K::ZfsAddVdev});
    EXPECT_EQ(paths(LayoutKind::ZfsRaid10, 4), std::vector<K>{K::ZfsAddVdev});
    EXPECT_EQ(paths(LayoutKind::ZfsStripe, 1), std::vector<K>{K::ZfsAddVdev});
    EXPECT_EQ(paths(LayoutKind::ZfsRaidz1, 3), (std::vector<K>{K::ZfsAddVdev, K::RaidzExpand}));
}

// ---------------------------------------------------------------------------------------------
// Wear

TEST(Wear, EnduranceOfAMirrorAndARaidz2) {
    // 500 GB drives rated 300 TBW; the hosts write 100 GB a day.
    // 2-way mirror: WA 2, spread over 2 disks: 100 GB * 2 / 2 = 100 GB/day per disk;
    // 300e12 / (100e9 * 365) = 8.219 years.
    // RAIDZ2 width 6, 128K records, ashift 12: 32 data sectors, 2 * ceil(32 / 4) = 16 parity,
    // 48 in all (already a multiple of 3, no padding): WA 48 / 32 = 1.5; 100 GB * 1.5 / 6 =
    // 25 GB/day per disk; 300e12 / (25e9 * 365) = 32.877 years.
    struct Case {
        CapacityInput layout;
        double wa, perDisk, years;
    };
    const Case cases[] = {
        {layout(LayoutKind::ZfsMirror, 2, 500 * GB), 2.0, 100e9, 8.219178082191782},
        {layout(LayoutKind::ZfsRaidz2, 6, 500 * GB), 1.5, 25e9, 32.87671232876713},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(std::string(layoutKindName(c.layout.kind)));
        auto in = projection(c.layout, 100 * GB, GrowthModel{GrowthKind::Linear, 0, 0});
        in.drive = evo860();
        in.hostBytesPerDay = 100 * GB;
        auto p = projectLayout(in);
        ASSERT_TRUE(p) << p.error().message;
        ASSERT_TRUE(p->wear);
        EXPECT_DOUBLE_EQ(p->wear->layout.factor, c.wa);
        EXPECT_DOUBLE_EQ(p->wear->deviceBytesPerDay, c.perDisk);
        ASSERT_TRUE(p->wear->enduranceBytes);
        EXPECT_DOUBLE_EQ(*p->wear->enduranceBytes, 300e12);
        ASSERT_TRUE(p->wear->years);
        EXPECT_NEAR(*p->wear->years, c.years, 1e-9);
    }
}

TEST(Wear, WriteAmplificationPerKind) {
    auto wa = [](LayoutKind k, unsigned n) {
        auto w = layoutWriteAmplification(layout(k, n, TB));
        EXPECT_TRUE(w) << w.error().message;
        return w->factor;
    };
    EXPECT_DOUBLE_EQ(wa(LayoutKind::MdRaid1, 3), 3.0); // every write on 3 disks
    EXPECT_DOUBLE_EQ(wa(LayoutKind::ZfsMirror, 3), 3.0);
    EXPECT_DOUBLE_EQ(wa(LayoutKind::MdRaid10, 4), 2.0);
    EXPECT_DOUBLE_EQ(wa(LayoutKind::ZfsRaid10, 8), 2.0);
    EXPECT_DOUBLE_EQ(wa(LayoutKind::MdRaid5, 4), 2.0);  // data + 1 parity chunk
    EXPECT_DOUBLE_EQ(wa(LayoutKind::MdRaid6, 10), 3.0); // data + 2 parity chunks
    EXPECT_DOUBLE_EQ(wa(LayoutKind::MdRaid0, 2), 1.0);
    EXPECT_DOUBLE_EQ(wa(LayoutKind::ZfsStripe, 2), 1.0);
    // RAIDZ2 width 10: 32 + 2 * ceil(32 / 8) = 40 sectors, up to a multiple of 3: 42;
    // 42 / 32 = 1.3125.
    EXPECT_DOUBLE_EQ(wa(LayoutKind::ZfsRaidz2, 10), 1.3125);
    // RAIDZ1 width 3: 32 + ceil(32 / 2) = 48, a multiple of 2: 48 / 32 = 1.5.
    EXPECT_DOUBLE_EQ(wa(LayoutKind::ZfsRaidz1, 3), 1.5);
}

TEST(Wear, UnderprovisioningGainAndCapacity) {
    // 80 % partitions: capacity comes from computeCapacity on the partitions; the user's
    // expected WA factor 0.8 multiplies the layout's: mirror 2 * 0.8 = 1.6, so 100 GB/day is
    // 80 GB/day per disk and 300 TBW lasts 300e12 / (80e9 * 365) = 10.274 years.
    auto l = layout(LayoutKind::ZfsMirror, 2, 500 * GB);
    l.underprovision = 0.8;
    auto in = projection(l, 100 * GB, GrowthModel{GrowthKind::Linear, 0, 0});
    in.drive = evo860();
    in.hostBytesPerDay = 100 * GB;
    in.underprovisionGain = 0.8;
    auto p = projectLayout(in);
    ASSERT_TRUE(p) << p.error().message;
    ASSERT_TRUE(p->wholeDiskCapacity);
    EXPECT_LT(p->capacity.usableBytes, p->wholeDiskCapacity->usableBytes);
    EXPECT_GT(p->capacity.underprovisionedBytes, 0U);
    ASSERT_TRUE(p->wear);
    EXPECT_DOUBLE_EQ(p->wear->writeAmplification, 1.6);
    EXPECT_DOUBLE_EQ(p->wear->deviceBytesPerDay, 80e9);
    EXPECT_NEAR(*p->wear->years, 300e12 / (80e9 * 365), 1e-9);
}

TEST(Wear, AGivenWriteAmplificationReplacesTheModelsAndSaysWhatTheModelSaid) {
    // md-raid6 of 6 x 1 TB, 600 GB a day from the hosts: the model's 3.00 gives
    // 600e9 * 3 / 6 = 300 GB/day per disk; 1.5 given halves it to 150 GB/day.
    auto in =
        projection(layout(LayoutKind::MdRaid6, 6, TB), TB, GrowthModel{GrowthKind::Linear, 0, 0});
    in.hostBytesPerDay = 600 * GB;
    auto modelled = projectLayout(in);
    ASSERT_TRUE(modelled) << modelled.error().message;
    ASSERT_TRUE(modelled->wear);
    EXPECT_FALSE(modelled->wear->modelled);
    EXPECT_DOUBLE_EQ(modelled->wear->deviceBytesPerDay, 300e9);
    in.writeAmplification = 1.5;
    auto given = projectLayout(in);
    ASSERT_TRUE(given) << given.error().message;
    ASSERT_TRUE(given->wear && given->wear->modelled);
    EXPECT_DOUBLE_EQ(given->wear->layout.factor, 1.5);
    EXPECT_DOUBLE_EQ(given->wear->modelled->factor, 3.0);
    EXPECT_EQ(given->wear->modelled->basis, modelled->wear->layout.basis);
    EXPECT_DOUBLE_EQ(given->wear->deviceBytesPerDay, 150e9);
    in.writeAmplification = 0.5;
    auto below = projectLayout(in);
    ASSERT_FALSE(below);
    expectBadInput(below.error(), "write-amplification");
}

TEST(Wear, ParsedForEveryLayoutOrOneByName) {
    auto wa = parseWriteAmplifications({"2.5", "raid6=3.2"});
    ASSERT_TRUE(wa) << wa.error().message;
    EXPECT_EQ(wa->forLayout("raid6"), 3.2);
    EXPECT_EQ(wa->forLayout("raidz2"), 2.5);
    EXPECT_FALSE(parseWriteAmplifications({})->forLayout("raidz2"));
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"lots"}, {"0.9"}, {"=2"}, {"a=2", "a=3"}, {"2", "3"}}) {
        auto r = parseWriteAmplifications(bad);
        ASSERT_FALSE(r) << bad.front();
        expectBadInput(r.error(), "write-amplification");
    }
}

TEST(Price, PerDriveOrPerTerabyte) {
    auto each = parseDrivePrice("$180");
    ASSERT_TRUE(each) << each.error().message;
    EXPECT_FALSE(each->perTb);
    EXPECT_DOUBLE_EQ(diskPriceUsd(*each, 4 * TB), 180.0);
    auto perTb = parseDrivePrice(" 25/TB ");
    ASSERT_TRUE(perTb) << perTb.error().message;
    EXPECT_TRUE(perTb->perTb);
    EXPECT_EQ(perTb->text, "25/TB");
    EXPECT_DOUBLE_EQ(diskPriceUsd(*perTb, 4 * TB), 100.0);
    EXPECT_DOUBLE_EQ(diskPriceUsd(*parseDrivePrice("99.5 USD"), TB), 99.5);
    for (const char* bad : {"", "cheap", "-5", "25/GB", "$"}) {
        auto r = parseDrivePrice(bad);
        ASSERT_FALSE(r) << bad;
        expectBadInput(r.error(), "price");
    }
}

TEST(Price, TheHorizonCostAddsTheDisksTheirReplacementsAndTheCheapestExpansion) {
    // md-raid6 of 6 x 1 TB at $25/TB: $150 of disks. 500 GB drives rated 300 TBW would last
    // 300e12 / (100e9 * 3 / 6 * 365) = 16.4 years at 100 GB/day; at 1 TB/day, 1.64 years: worn
    // out at 1.64, 3.29 and 4.93 years, ceil(5 / 1.64) - 1 = 3 times, 18 disks bought again.
    auto in = projection(layout(LayoutKind::MdRaid6, 6, TB), 3 * TB,
                         GrowthModel{GrowthKind::Linear, 1e12, 0});
    in.drive = evo860();
    in.price = *parseDrivePrice("25/TB");
    in.hostBytesPerDay = TB;
    auto p = projectLayout(in);
    ASSERT_TRUE(p) << p.error().message;
    ASSERT_TRUE(p->wear && p->wear->years);
    EXPECT_NEAR(*p->wear->years, 300e12 / (1e12 * 3 / 6 * 365), 1e-9);
    EXPECT_EQ(p->wear->replacementDisks, 18U);
    ASSERT_TRUE(p->cost);
    const HorizonCost& c = *p->cost;
    EXPECT_FALSE(c.illustrative);
    EXPECT_EQ(c.priceBasis, "price given: 25/TB");
    EXPECT_DOUBLE_EQ(c.purchaseUsd, 150.0);
    EXPECT_DOUBLE_EQ(c.replacementUsd, 18 * 25.0);
    // 4 TB usable, 3 TB used growing 1 TB a year: the ceiling (90 %) is passed, so the
    // cheapest path that keeps up is bought, each of its disks at $25.
    ASSERT_TRUE(p->ceilingMonth);
    ASSERT_TRUE(c.expansion);
    const auto* path = findPath(*p, *c.expansion);
    ASSERT_NE(path, nullptr);
    ASSERT_TRUE(path->totalCostUsd);
    EXPECT_DOUBLE_EQ(c.expansionUsd, 25.0 * path->disksBought);
    for (const auto& e : p->expansions) {
        if (e.keepsUp && e.totalCostUsd) {
            EXPECT_LE(c.expansionUsd, *e.totalCostUsd);
        }
    }
    EXPECT_DOUBLE_EQ(c.totalUsd, c.purchaseUsd + c.replacementUsd + c.expansionUsd);
    // The catalog's price when none is given, said to be illustrative: 6 x $60.
    in.price.reset();
    auto catalog = projectLayout(in);
    ASSERT_TRUE(catalog && catalog->cost);
    EXPECT_TRUE(catalog->cost->illustrative);
    EXPECT_DOUBLE_EQ(catalog->cost->purchaseUsd, 360.0);
    // No price at all: no cost.
    in.drive.reset();
    auto unpriced = projectLayout(in);
    ASSERT_TRUE(unpriced);
    EXPECT_FALSE(unpriced->cost);
}

TEST(Wear, HardDisksHaveNoEndurance) {
    Drive hdd;
    hdd.id = "hdd";
    hdd.medium = DriveMedium::Hdd;
    hdd.capacityBytes = 4 * TB;
    hdd.warrantyYears = 3;
    auto in = projection(layout(LayoutKind::ZfsMirror, 2, 4 * TB), TB,
                         GrowthModel{GrowthKind::Linear, 0, 0});
    in.drive = hdd;
    in.hostBytesPerDay = 100 * GB;
    auto p = projectLayout(in);
    ASSERT_TRUE(p);
    ASSERT_TRUE(p->wear);
    EXPECT_FALSE(p->wear->enduranceBytes);
    EXPECT_FALSE(p->wear->years);
}

// ---------------------------------------------------------------------------------------------
// Bad input

TEST(Projection, BadInputNamesTheField) {
    const auto base = projection(layout(LayoutKind::ZfsRaidz2, 6, 500 * GB), TB,
                                 GrowthModel{GrowthKind::Compound, 0, 0.3});
    auto check = [](ProjectionInput in, const std::string& field) {
        auto p = projectLayout(in);
        ASSERT_FALSE(p) << field;
        expectBadInput(p.error(), field);
    };
    auto in = base;
    in.ceiling = 1.5;
    check(in, "ceiling");
    in = base;
    in.ceiling = 0;
    check(in, "ceiling");
    in = base;
    in.years = 0;
    check(in, "years");
    in = base;
    in.growth = GrowthModel{GrowthKind::Linear, -1e12, 0};
    check(in, "growth");
    in = base;
    in.growth = GrowthModel{GrowthKind::Compound, 0, -0.1};
    check(in, "growth");
    in = base;
    in.underprovisionGain = 1.5;
    check(in, "underprovision-wa-gain");
    in = base;
    in.layout.kind = LayoutKind::Dir;
    check(in, "kind");
    in = base;
    in.layout.diskBytes.resize(2);
    check(in, "disks");
}

// ---------------------------------------------------------------------------------------------
// Imported layouts: a capacity given instead of disks

// 10 TB given, 5 TB used growing 2 TB a year, the 0.90 ceiling of a kind with no model (9 TB):
// 5 + 2m/12 > 9 from m = 25 (9.17 TB); month 24 is exactly 9 TB, not past it.
TEST(GivenCapacity, ProjectsUseAgainstTheCapacityAlone) {
    ProjectionInput in = projection({}, 5 * TB, GrowthModel{GrowthKind::Linear, 2e12, 0});
    in.name = "nas";
    in.givenUsableBytes = 10 * TB;
    in.drive = evo860();
    in.hostBytesPerDay = 100 * GB;
    auto p = projectLayout(in);
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_TRUE(p->capacityGiven);
    EXPECT_EQ(p->capacity.usableBytes, 10 * TB);
    EXPECT_EQ(p->capacity.rawBytes, 0U);
    EXPECT_TRUE(p->diskBytes.empty());
    EXPECT_DOUBLE_EQ(p->ceilingFraction, 0.90);
    EXPECT_EQ(p->ceilingBytes, 9 * TB);
    ASSERT_EQ(p->months.size(), 61U);
    EXPECT_EQ(p->months[0].usableBytes, 10 * TB);
    EXPECT_EQ(p->months[24].usedBytes, 9 * TB);
    EXPECT_EQ(p->ceilingMonth, std::optional<unsigned>(25));
    // Growing it, its price and its wear need disks nobody recorded.
    EXPECT_TRUE(p->expansions.empty());
    EXPECT_FALSE(p->wear);
    ASSERT_EQ(p->notes.size(), 1U);
    EXPECT_NE(p->notes[0].find("disks are unknown"), std::string::npos) << p->notes[0];

    // A recorded ZFS kind keeps ZFS's 80 % ceiling; --ceiling overrides either.
    in.layout.kind = LayoutKind::ZfsRaidz2;
    EXPECT_EQ(projectLayout(in)->ceilingBytes, 8 * TB);
    // At half of 10 TB the 5 TB in use fill the ceiling but do not pass it; a month on they do.
    in.ceiling = 0.5;
    EXPECT_EQ(projectLayout(in)->ceilingMonth, std::optional<unsigned>(1U));
}

TEST(GivenCapacity, ParsedAsLayoutEqualsSize) {
    auto given = parseGivenCapacities({"nas=12T", "old=3.6TiB", "a=b=1G"});
    ASSERT_TRUE(given) << given.error().message;
    EXPECT_EQ(given->at("nas"), 12 * TB);
    EXPECT_EQ(given->at("old"), 3958241859993ULL); // 3.6 * 2^40 = ...993.6, rounded down
    EXPECT_EQ(given->at("a=b"), GB);               // a size never holds '='; a name may
    for (const auto& bad : {"nas", "=12T", "nas=", "nas=12X", "nas=0"}) {
        auto r = parseGivenCapacities({bad});
        ASSERT_FALSE(r) << bad;
        expectBadInput(r.error(), "capacity");
    }
    auto twice = parseGivenCapacities({"nas=1T", "nas=2T"});
    ASSERT_FALSE(twice);
    EXPECT_NE(twice.error().message.find("'nas' is given twice"), std::string::npos);

    // Through the settings both front ends fill.
    auto request = projectionRequest({"1T", "30%", 5, std::nullopt, "", {"nas=12T"}, "", {}});
    ASSERT_TRUE(request) << request.error().message;
    EXPECT_EQ(request->givenCapacity.at("nas"), 12 * TB);
    auto bad = projectionRequest({"1T", "30%", 5, std::nullopt, "", {"nas=lots"}, "", {}});
    ASSERT_FALSE(bad);
    expectBadInput(bad.error(), "capacity");
}

LayoutRecord record(std::string name, std::string kind, std::string spec) {
    LayoutRecord r;
    r.name = std::move(name);
    r.kind = std::move(kind);
    r.spec = std::move(spec);
    return r;
}

TEST(GivenCapacity, CoverageSaysWhatEachStoredLayoutIsProjectedFrom) {
    const std::vector<LayoutRecord> layouts{
        record("raidz2", "zfs-raidz2",
               R"({"kind":"zfs-raidz2","disk_bytes":[500000000000,500000000000,500000000000,)"
               R"(500000000000]})"),
        record("nas", "imported", importedLayoutSpecJson()),
        record("dir", "dir", R"({"kind":"dir","path":"/srv"})"),
        record("old", "zfs-mirror", importedLayoutSpecJson())};
    auto none = projectionCoverage(layouts, {});
    ASSERT_TRUE(none) << none.error().message;
    EXPECT_EQ(none->modelled, std::vector<std::string>{"raidz2"});
    EXPECT_TRUE(none->given.empty());
    EXPECT_EQ(none->missing, (std::vector<std::string>{"nas", "old"}));

    auto some = projectionCoverage(layouts, {{"old", TB}});
    ASSERT_TRUE(some) << some.error().message;
    EXPECT_EQ(some->given, std::vector<std::string>{"old"});
    EXPECT_EQ(some->missing, std::vector<std::string>{"nas"});

    for (const char* wrong : {"raidz2", "dir", "elsewhere"}) {
        auto r = projectionCoverage(layouts, {{wrong, TB}});
        ASSERT_FALSE(r) << wrong;
        expectBadInput(r.error(), "capacity");
        EXPECT_NE(r.error().message.find(std::string("'") + wrong + "'"), std::string::npos)
            << r.error().message;
    }

    // What each is projected from: disks, the capacity given, or nothing (naming the layout).
    ProjectionRequest request;
    request.growth = GrowthModel{GrowthKind::Compound, 0, 0.3};
    request.usedBytes = 500 * GB;
    request.givenCapacity = {{"old", TB}};
    auto old = projectStoredLayout(layouts[3], request);
    ASSERT_TRUE(old && *old);
    EXPECT_TRUE((*old)->capacityGiven);
    EXPECT_EQ((*old)->capacity.usableBytes, TB);
    EXPECT_DOUBLE_EQ((*old)->ceilingFraction, 0.80); // recorded as a zfs-mirror
    auto modelled = projectStoredLayout(layouts[0], request);
    ASSERT_TRUE(modelled && *modelled);
    EXPECT_FALSE((*modelled)->capacityGiven);
    EXPECT_EQ((*modelled)->diskBytes.size(), 4U);
    EXPECT_FALSE(projectStoredLayout(layouts[1], request).has_value());
    auto nas = storedProjectionInput(layouts[1], request);
    ASSERT_FALSE(nas);
    expectBadInput(nas.error(), "layout");
    EXPECT_NE(nas.error().message.find("'nas'"), std::string::npos) << nas.error().message;
}

} // namespace
} // namespace lb
