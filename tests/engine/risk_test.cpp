// Tests of a layout's risk (engine/capacity/risk.h): the redundancy groups each kind is made of,
// the window a failure leaves open (replacement and rebuild, measured or assumed), where the AFR
// and the error rate come from, the pool's loss as any group's, the unrecoverable-read figure, the
// sentence a signer reads, and the risk a projection carries.
#include "engine/capacity/projection.h"
#include "engine/capacity/risk.h"
#include "engine/capacity/risk_chain.h"
#include "engine/workbench.h"
#include "tests/support/capacity_input.h"

#include <cmath>
#include <gtest/gtest.h>

namespace lb {
namespace {

using test::GB;
using test::layout;
using test::TB;

Drive catalogDrive() {
    Drive d;
    d.id = "ssd";
    d.model = "Test SSD 500GB";
    d.capacityBytes = 500 * GB;
    d.tbw = 300;
    d.warrantyYears = 5;
    d.priceUsd = 60;
    d.afr = 0.0058;
    d.urePerBit = 1e-15;
    d.reliabilitySource = "data sheet MTBF 1.5 million hours, converted";
    return d;
}

RiskEstimate risk(const CapacityInput& in, const RiskSettings& s = {}, double fill = 0.6,
                  const std::optional<Drive>& drive = std::nullopt, unsigned years = 5) {
    auto r = estimateRisk(in, drive, s, fill, years);
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    return r ? *r : RiskEstimate{};
}

double hoursToRebuild(double bytes, double bytesPerSecond) {
    return bytes / bytesPerSecond / 3600.0;
}

// ---- groups --------------------------------------------------------------------------------

TEST(Risk, EachKindIsMadeOfItsRedundancyGroups) {
    struct Case {
        CapacityInput in;
        std::size_t groups;
        unsigned disks, tolerates;
    };
    CapacityInput twoRaidz2 = layout(LayoutKind::ZfsRaidz2, 12, 4 * TB);
    twoRaidz2.vdevs = 2;
    CapacityInput threeMirrors = layout(LayoutKind::ZfsMirror, 9, 4 * TB);
    threeMirrors.vdevs = 3;
    CapacityInput draid = layout(LayoutKind::ZfsDraid2, 12, 4 * TB);
    draid.draid.spares = 1;
    const Case cases[] = {
        {layout(LayoutKind::MdRaid0, 4, TB), 1, 4, 0},
        {layout(LayoutKind::ZfsStripe, 3, TB), 1, 3, 0},
        {layout(LayoutKind::MdRaid1, 3, TB), 1, 3, 2},
        {layout(LayoutKind::MdRaid10, 8, TB), 4, 2, 1},
        {layout(LayoutKind::ZfsRaid10, 6, TB), 3, 2, 1},
        {layout(LayoutKind::MdRaid5, 5, TB), 1, 5, 1},
        {layout(LayoutKind::MdRaid6, 10, TB), 1, 10, 2},
        {layout(LayoutKind::ZfsRaidz1, 4, TB), 1, 4, 1},
        {layout(LayoutKind::ZfsRaidz3, 11, TB), 1, 11, 3},
        {twoRaidz2, 2, 6, 2},
        {threeMirrors, 3, 3, 2},
        {draid, 1, 12, 2},
    };
    for (const Case& c : cases) {
        const RiskEstimate r = risk(c.in);
        ASSERT_EQ(r.groups.size(), c.groups) << layoutLabel(c.in);
        for (const auto& g : r.groups) {
            EXPECT_EQ(g.disks, c.disks) << layoutLabel(c.in);
            EXPECT_EQ(g.tolerates, c.tolerates) << layoutLabel(c.in);
        }
    }
}

// A guest's pool sits on the md array passed to it: the array is what is lost, and md rebuilds
// its whole member (the 80 % partition), whatever the pool's fill.
TEST(Risk, AGuestIsItsInnerArray) {
    CapacityInput disks = layout(LayoutKind::MdRaid6, 10, 500 * GB);
    disks.underprovision = 0.8;
    auto guest = guestCapacityInput(disks, "md-raid6", "zfs-stripe");
    ASSERT_TRUE(guest) << guest.error().message;
    const RiskEstimate r = risk(*guest, {}, 0.3);
    ASSERT_EQ(r.groups.size(), 1U);
    EXPECT_EQ(r.groups[0].disks, 10U);
    EXPECT_EQ(r.groups[0].tolerates, 2U);
    EXPECT_EQ(r.rebuild, RebuildKind::WholeMember);
    EXPECT_EQ(r.groups[0].memberBytes, 400 * GB);
    EXPECT_EQ(r.groups[0].rebuildBytes, 400 * GB);
    EXPECT_EQ(r.lost, "the pool");
    // The same disks as md-raid6 on the host: the same chance of loss.
    EXPECT_DOUBLE_EQ(r.lossProbability, risk(disks, {}, 0.3).lossProbability);
}

// ---- the window ------------------------------------------------------------------------------

TEST(Risk, WindowIsReplacementPlusTheRebuildOfWhatTheLayoutRebuilds) {
    // ZFS resilvers the allocated share: 60 % of a 500 GB disk at the assumed rate, after the
    // assumed replacement time.
    const RiskEstimate z = risk(layout(LayoutKind::ZfsRaidz2, 10, 500 * GB));
    const double zRebuild = hoursToRebuild(0.6 * 500e9, RiskAssumptions::rebuildBytesPerSecond);
    EXPECT_EQ(z.rebuild, RebuildKind::Allocated);
    EXPECT_EQ(z.groups[0].rebuildBytes, 300 * GB);
    EXPECT_NEAR(z.groups[0].rebuildHours, zRebuild, 1e-9);
    EXPECT_NEAR(z.groups[0].windowHours, RiskAssumptions::replaceAfterHours + zRebuild, 1e-9);
    EXPECT_FALSE(z.rebuildMeasured);
    EXPECT_FALSE(z.replaceAfterGiven);
    // md rebuilds the whole member at any fill, at the measured rate given, after the time given.
    RiskSettings measured;
    measured.rebuildBytesPerSecond = 350e6;
    measured.replaceAfterHours = 24;
    const RiskEstimate m = risk(layout(LayoutKind::MdRaid6, 10, 500 * GB), measured, 0.1);
    EXPECT_EQ(m.rebuild, RebuildKind::WholeMember);
    EXPECT_TRUE(m.rebuildMeasured);
    EXPECT_TRUE(m.replaceAfterGiven);
    EXPECT_NEAR(m.groups[0].windowHours, 24 + hoursToRebuild(500e9, 350e6), 1e-9);
    // The window's repair rate is what the chain is given.
    EXPECT_DOUBLE_EQ(m.lossProbability,
                     chainLossProbability({10, 2, failureRateOfAfr(RiskAssumptions::afr),
                                           hoursPerYear / m.groups[0].windowHours},
                                          5));
}

// A hot spare starts the rebuild at once; a dRAID with a distributed spare rebuilds onto it
// sequentially, each sector's d reads and 1 write spread over the c − 1 children left.
TEST(Risk, SparesTakeTheReplacementOutOfTheWindow) {
    RiskSettings hot;
    hot.hotSpare = true;
    const RiskEstimate h = risk(layout(LayoutKind::ZfsRaidz2, 10, 500 * GB), hot);
    EXPECT_EQ(h.spare, "hot");
    EXPECT_EQ(h.replaceAfterHours, 0.0);
    EXPECT_NEAR(h.groups[0].windowHours, h.groups[0].rebuildHours, 1e-12);
    EXPECT_LT(h.lossProbability, risk(layout(LayoutKind::ZfsRaidz2, 10, 500 * GB)).lossProbability);

    CapacityInput draid = layout(LayoutKind::ZfsDraid2, 12, 4 * TB);
    draid.draid.spares = 1; // draid2:8d:12c:1s
    const RiskEstimate d = risk(draid);
    EXPECT_EQ(d.rebuild, RebuildKind::DraidSequential);
    EXPECT_EQ(d.spare, "distributed");
    EXPECT_EQ(d.replaceAfterHours, 0.0);
    EXPECT_NEAR(d.groups[0].rebuildHours,
                hoursToRebuild(0.6 * 4e12, RiskAssumptions::rebuildBytesPerSecond) * 9.0 / 11.0,
                1e-9);
    draid.draid.spares = 0; // no spare: replaced, then resilvered as a RAIDZ is
    const RiskEstimate none = risk(draid);
    EXPECT_EQ(none.rebuild, RebuildKind::Allocated);
    EXPECT_EQ(none.replaceAfterHours, RiskAssumptions::replaceAfterHours);
}

// ---- the figures and where they come from ----------------------------------------------------

TEST(Risk, AfrIsGivenOrTheCatalogsOrAssumed) {
    const CapacityInput in = layout(LayoutKind::ZfsRaidz1, 4, 500 * GB);
    const RiskEstimate assumed = risk(in);
    EXPECT_EQ(assumed.afrFrom, FigureSource::Assumed);
    EXPECT_EQ(assumed.afr, RiskAssumptions::afr);
    EXPECT_EQ(assumed.ureFrom, FigureSource::Assumed);
    EXPECT_EQ(assumed.urePerBit, RiskAssumptions::urePerBit);
    const RiskEstimate catalog = risk(in, {}, 0.6, catalogDrive());
    EXPECT_EQ(catalog.afrFrom, FigureSource::Catalog);
    EXPECT_EQ(catalog.afr, 0.0058);
    EXPECT_EQ(catalog.urePerBit, 1e-15);
    EXPECT_NE(catalog.afrSource.find("data sheet MTBF"), std::string::npos) << catalog.afrSource;
    RiskSettings given;
    given.afr = 0.03;
    const RiskEstimate over = risk(in, given, 0.6, catalogDrive());
    EXPECT_EQ(over.afrFrom, FigureSource::Given);
    EXPECT_EQ(over.afr, 0.03);
    EXPECT_EQ(over.urePerBit, 1e-15); // the error rate is still the drive's
    EXPECT_EQ(over.failuresPerYear, failureRateOfAfr(0.03));
}

TEST(Risk, MoreFailuresLongerWindowsAndMoreDisksAreMoreRisk) {
    const double base = risk(layout(LayoutKind::ZfsRaidz2, 8, 2 * TB)).lossProbability;
    RiskSettings s;
    s.afr = 0.03;
    EXPECT_GT(risk(layout(LayoutKind::ZfsRaidz2, 8, 2 * TB), s).lossProbability, base);
    s = {};
    s.replaceAfterHours = 240;
    EXPECT_GT(risk(layout(LayoutKind::ZfsRaidz2, 8, 2 * TB), s).lossProbability, base);
    s = {};
    s.rebuildBytesPerSecond = 20e6;
    EXPECT_GT(risk(layout(LayoutKind::ZfsRaidz2, 8, 2 * TB), s).lossProbability, base);
    EXPECT_GT(risk(layout(LayoutKind::ZfsRaidz2, 8, 2 * TB), {}, 0.9).lossProbability, base);
    EXPECT_GT(risk(layout(LayoutKind::ZfsRaidz2, 8, 8 * TB)).lossProbability, base);
    EXPECT_GT(risk(layout(LayoutKind::ZfsRaidz2, 12, 2 * TB)).lossProbability, base);
    EXPECT_LT(risk(layout(LayoutKind::ZfsRaidz3, 8, 2 * TB)).lossProbability, base);
    EXPECT_GT(
        risk(layout(LayoutKind::ZfsRaidz2, 8, 2 * TB), {}, 0.6, std::nullopt, 10).lossProbability,
        base);
}

// A pool of several groups is lost when any one is; a stripe with the first failure.
TEST(Risk, APoolOfGroupsIsLostWhenAnyIs) {
    const RiskEstimate r = risk(layout(LayoutKind::MdRaid10, 8, TB));
    ASSERT_EQ(r.groups.size(), 4U);
    // 1 − (1 − p)^4 expanded, so that it keeps the digits of a small p: 4p − 6p² + 4p³ − p⁴.
    const double p = r.groups[0].lossProbability;
    EXPECT_NEAR(r.lossProbability, 4 * p - 6 * p * p + 4 * p * p * p - p * p * p * p,
                1e-12 * r.lossProbability);
    const RiskEstimate stripe = risk(layout(LayoutKind::ZfsStripe, 6, TB));
    EXPECT_NEAR(stripe.lossProbability, -std::expm1(-6 * stripe.failuresPerYear * 5), 1e-14);
    EXPECT_EQ(stripe.rebuild, RebuildKind::None);
    EXPECT_FALSE(stripe.groups[0].ureProbability);
}

// A rebuild with no redundancy left reads every surviving data column: a RAID-5 of four reads
// three whole members, a RAIDZ2 of ten eight allocated shares, a mirror its one other side.
TEST(Risk, UnrecoverableReadIsOverWhatTheLastRebuildReads) {
    const RiskEstimate md = risk(layout(LayoutKind::MdRaid5, 4, 4 * TB));
    EXPECT_EQ(md.groups[0].exposedReadBytes, 3 * 4 * TB);
    EXPECT_NEAR(*md.groups[0].ureProbability,
                unrecoverableReadProbability(12e12, RiskAssumptions::urePerBit), 1e-15);
    const RiskEstimate z =
        risk(layout(LayoutKind::ZfsRaidz2, 10, 500 * GB), {}, 0.5, catalogDrive());
    EXPECT_EQ(z.groups[0].exposedReadBytes, 8 * 250 * GB);
    EXPECT_NEAR(*z.groups[0].ureProbability, unrecoverableReadProbability(2e12, 1e-15), 1e-15);
    const RiskEstimate mirror = risk(layout(LayoutKind::ZfsMirror, 2, TB), {}, 0.5);
    EXPECT_EQ(mirror.groups[0].exposedReadBytes, 500 * GB);
}

TEST(Risk, RefusesFiguresOutOfRangeNamingTheField) {
    const CapacityInput in = layout(LayoutKind::ZfsRaidz2, 6, TB);
    const auto refused = [&](const RiskSettings& s, const std::string& field) {
        auto r = estimateRisk(in, std::nullopt, s, 0.5, 5);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
        EXPECT_EQ(r.error().message.rfind(field + ": ", 0), 0U) << r.error().message;
    };
    for (const double afr : {0.0, 1.0, 1.5, -0.01}) {
        RiskSettings s;
        s.afr = afr;
        refused(s, "afr");
    }
    RiskSettings s;
    s.replaceAfterHours = -1;
    refused(s, "replace-after");
    s = {};
    s.rebuildBytesPerSecond = 0;
    refused(s, "rebuild-rate");
    auto dir = estimateRisk(layout(LayoutKind::Dir, 1, TB), std::nullopt, {}, 0.5, 5);
    ASSERT_FALSE(dir);
    EXPECT_EQ(dir.error().message.rfind("kind: ", 0), 0U) << dir.error().message;
}

// ---- the sentence ------------------------------------------------------------------------------

TEST(Risk, ChanceTextReadsAsPeopleSayIt) {
    EXPECT_EQ(chanceText(0.25), "a 25 % chance");
    EXPECT_EQ(chanceText(0.058), "a 5.8 % chance");
    EXPECT_EQ(chanceText(2.1e-4), "a 0.021 % chance");
    EXPECT_EQ(chanceText(5e-8), "a 1 in 20 million chance");
    EXPECT_EQ(chanceText(1.0 / 999999.0), "a 1 in 1 million chance");
    EXPECT_EQ(chanceText(1.0 / 1.5e6), "a 1 in 1.5 million chance");
    EXPECT_EQ(chanceText(1.4e-5), "a 1 in 71 thousand chance");
    EXPECT_EQ(chanceText(0.99999), "a more than 99 % chance");
    EXPECT_EQ(chanceText(1e-20), "a less than 1 in a thousand trillion chance");
    EXPECT_EQ(chanceText(0), "no chance");
}

// The sentence says the chance as chanceText does, what the window is made of, and which of its
// figures are assumed: an assumed rate says no rebuild was measured, a measured one says so.
TEST(Risk, StatementSaysWhatIsAssumedAndWhatIsMeasured) {
    const CapacityInput in = layout(LayoutKind::ZfsRaidz2, 10, 500 * GB);
    const RiskEstimate assumed = risk(in);
    const std::string a = riskStatement(assumed);
    EXPECT_EQ(a.rfind(chanceText(assumed.lossProbability) + " of losing the pool in 5 years", 0),
              0U)
        << a;
    EXPECT_NE(a.find("10 disks, any 2 may fail"), std::string::npos) << a;
    EXPECT_NE(a.find("an assumed 100.0 MB/s (no rebuild measured)"), std::string::npos) << a;
    EXPECT_NE(a.find("72 h after it fails (assumed)"), std::string::npos) << a;
    EXPECT_NE(a.find(std::string(RiskAssumptions::afrBasis)), std::string::npos) << a;
    EXPECT_NE(a.find("at 60 % full"), std::string::npos) << a;
    EXPECT_NE(a.find(chanceText(*assumed.worst().ureProbability)), std::string::npos) << a;

    RiskSettings measured;
    measured.rebuildBytesPerSecond = 350e6;
    measured.rebuildBasis = "drill on the lab's disks";
    const std::string m = riskStatement(risk(in, measured, 0.6, catalogDrive()));
    EXPECT_NE(m.find("at a measured 350.0 MB/s (drill on the lab's disks)"), std::string::npos)
        << m;
    EXPECT_EQ(m.find("no rebuild measured"), std::string::npos) << m;
    EXPECT_NE(m.find("the catalog's figure for the Test SSD 500GB"), std::string::npos) << m;

    const std::string stripe = riskStatement(risk(layout(LayoutKind::MdRaid0, 2, TB)));
    // TiB in, TiB out.
    EXPECT_NE(riskStatement(assumed, true).find("A 465.66 GiB disk"), std::string::npos)
        << riskStatement(assumed, true);
    EXPECT_NE(riskStatement(assumed, true).find("an assumed 95.4 MiB/s"), std::string::npos)
        << riskStatement(assumed, true);
    EXPECT_NE(stripe.find("of losing the array"), std::string::npos) << stripe;
    EXPECT_NE(stripe.find("none may fail"), std::string::npos) << stripe;
    EXPECT_NE(stripe.find("No redundancy"), std::string::npos) << stripe;
}

// ---- in a projection -------------------------------------------------------------------------

// A projection carries the risk of its layout at the fill its use reaches by the horizon, at
// most the ceiling; a layout whose capacity alone was given has none (its disks are unknown).
TEST(Risk, AProjectionCarriesItsLayoutsRisk) {
    ProjectionInput in;
    in.layout = layout(LayoutKind::ZfsRaidz2, 10, 500 * GB);
    in.usedBytes = TB;
    in.growth = {GrowthKind::Linear, 0.0, 0.0};
    in.risk.afr = 0.01;
    auto p = projectLayout(in);
    ASSERT_TRUE(p) << p.error().message;
    ASSERT_TRUE(p->risk);
    const double fill = static_cast<double>(p->months.back().usedBytes) /
                        static_cast<double>(p->capacity.usableBytes);
    EXPECT_DOUBLE_EQ(p->risk->fillFraction, fill);
    EXPECT_EQ(p->risk->afr, 0.01);
    EXPECT_EQ(p->risk->horizonYears, 5U);
    // Growing past the ceiling: the rebuild is taken at the ceiling, where expansions keep it.
    in.growth = {GrowthKind::Compound, 0.0, 1.0};
    auto grown = projectLayout(in);
    ASSERT_TRUE(grown) << grown.error().message;
    EXPECT_DOUBLE_EQ(grown->risk->fillFraction, grown->ceilingFraction);
    EXPECT_GT(grown->risk->lossProbability, p->risk->lossProbability);

    in.givenUsableBytes = 3 * TB;
    auto given = projectLayout(in);
    ASSERT_TRUE(given) << given.error().message;
    EXPECT_FALSE(given->risk);
    in.givenUsableBytes.reset();
    in.risk.afr = 2.0;
    auto refused = projectLayout(in);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().message.rfind("afr: ", 0), 0U) << refused.error().message;
}

// The settings as typed: the rebuild rate in MB/s becomes bytes a second; a figure out of range
// is refused naming it; a figure for imported layouts whose capacity alone is given applies to
// none of them.
TEST(Risk, ProjectionSettingsCarryTheRiskFigures) {
    ProjectionSettings s;
    s.used = "1T";
    s.growth = "30%";
    s.afr = 0.02;
    s.replaceAfterHours = 12;
    s.rebuildMegabytesPerSecond = 250;
    s.hotSpare = true;
    auto r = projectionRequest(s);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->risk.afr, 0.02);
    EXPECT_EQ(r->risk.replaceAfterHours, 12.0);
    EXPECT_EQ(r->risk.rebuildBytesPerSecond, 250e6);
    EXPECT_TRUE(r->risk.hotSpare);
    EXPECT_EQ(projectionInput("x", layout(LayoutKind::ZfsRaidz2, 6, TB), *r).risk, r->risk);
    s.rebuildMegabytesPerSecond = -5;
    auto bad = projectionRequest(s);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message.rfind("rebuild-rate: ", 0), 0U) << bad.error().message;

    ProjectionRequest onlyCapacity;
    onlyCapacity.risk.hotSpare = true;
    ProjectionCoverage coverage;
    coverage.given = {"nas"};
    auto misfit = projectionMisfit(onlyCapacity, coverage, false);
    ASSERT_TRUE(misfit);
    EXPECT_EQ(misfit->field, "hot-spare");
    EXPECT_EQ(misfit->why, ProjectionMisfit::Why::NoDisksKnown);
}

} // namespace
} // namespace lb
