// Hosts as a dimension: one layout compared host against host, a fleet member's database merged
// under its inventory name (its layout joining the same layout of the other hosts), and the
// fleet's analysis naming the host that stands apart, worst first, and no host in a fleet whose
// differences are its runs' noise.
#include "engine/measure/fleet.h"
#include "engine/store/store.h"
#include "engine/store/store_merge.h"
#include "engine/workbench/fleet.h"
#include "tests/support/scratch_dir.h"

#include <gtest/gtest.h>

using namespace lb;

namespace {

lb::Run fioRun(double bw, double p99, std::string host = "") {
    lb::Run r;
    r.workload = "fio:rand-read-4k-qd1";
    r.probe = "fio";
    r.stdoutText = "raw " + std::to_string(bw) + " " + std::to_string(p99);
    r.status = RunStatus::Ok;
    r.host = std::move(host);
    r.metrics = {{"fio.rand-read-4k-qd1.read.bw", bw, Unit::BytesPerSecond},
                 {"fio.rand-read-4k-qd1.read.lat_p99", p99, Unit::Nanoseconds}};
    return r;
}

MetricSamples samples(std::string name, std::vector<double> values) {
    MetricSamples m;
    m.name = std::move(name);
    m.values = std::move(values);
    return m;
}

// A fleet's LayoutSamples per host: bandwidth around `bw` and p99 latency around `p99`, three
// runs each, spread by a few percent.
std::pair<std::string, LayoutSamples> host(std::string name, double bw, double p99) {
    LayoutSamples s;
    s.metrics = {samples("fio.job.read.bw", {bw * 0.98, bw, bw * 1.02}),
                 samples("fio.job.read.lat_p99", {p99 * 0.97, p99, p99 * 1.03})};
    return {std::move(name), std::move(s)};
}

} // namespace

TEST(FleetAnalysis, NamesTheSlowHostWorstFirstWithItsIntervalOutsideTheSpread) {
    const auto fleet =
        analyseFleet("dir", {host("srv-1", 100e6, 200e3), host("srv-2", 101e6, 205e3),
                             host("srv-3", 99e6, 198e3), host("srv-4", 62e6, 410e3)});
    ASSERT_EQ(fleet.metrics.size(), 2U);
    EXPECT_EQ(fleet.hosts, (std::vector<std::string>{"srv-1", "srv-2", "srv-3", "srv-4"}));
    const auto& bw = fleet.metrics[0];
    EXPECT_EQ(bw.name, "fio.job.read.bw");
    EXPECT_DOUBLE_EQ(bw.fleetMedian, 99.5e6);
    EXPECT_DOUBLE_EQ(bw.spread.low, 62e6);
    EXPECT_DOUBLE_EQ(bw.spread.high, 101e6);
    ASSERT_EQ(bw.hosts.size(), 4U);
    EXPECT_TRUE(bw.hosts[3].apart);
    EXPECT_TRUE(bw.hosts[3].intervalOutside);
    EXPECT_NEAR(bw.hosts[3].deviation, 62.0 / 99.5 - 1, 1e-12);
    EXPECT_FALSE(bw.hosts[0].apart || bw.hosts[1].apart || bw.hosts[2].apart);
    // Both metrics name srv-4; the latency, twice the fleet's, first: the larger deviation.
    ASSERT_EQ(fleet.standouts.size(), 2U);
    EXPECT_EQ(fleet.standouts[0].host, "srv-4");
    EXPECT_EQ(fleet.standouts[0].metric, "fio.job.read.lat_p99");
    EXPECT_TRUE(fleet.standouts[0].worse);
    EXPECT_EQ(fleet.standouts[1].sentence,
              "srv-4: job.read.bw 38 % below the fleet median, worse (interval outside the "
              "fleet's spread)");
}

TEST(FleetAnalysis, AFasterHostStandsApartAsBetterAfterTheWorseOnes) {
    const auto fleet = analyseFleet("dir", {host("a", 100e6, 200e3), host("b", 101e6, 201e3),
                                            host("c", 99e6, 199e3), host("d", 180e6, 201e3),
                                            host("e", 100e6, 500e3)});
    ASSERT_EQ(fleet.standouts.size(), 2U);
    EXPECT_EQ(fleet.standouts[0].host, "e"); // worse comes first, though d is further off
    EXPECT_TRUE(fleet.standouts[0].worse);
    EXPECT_EQ(fleet.standouts[1].host, "d");
    EXPECT_FALSE(fleet.standouts[1].worse);
}

TEST(FleetAnalysis, NoHostStandsApartWithinTheViableBandOrWithTwoHosts) {
    // 6 % off: beyond the others' noise, but within the 10 % viable band.
    const auto close = analyseFleet("dir", {host("a", 100e6, 200e3), host("b", 100.5e6, 200e3),
                                            host("c", 99.5e6, 200e3), host("d", 94e6, 200e3)});
    EXPECT_TRUE(close.standouts.empty());
    const auto two = analyseFleet("dir", {host("a", 100e6, 200e3), host("b", 50e6, 400e3)});
    EXPECT_EQ(two.metrics.size(), 2U);
    EXPECT_TRUE(two.standouts.empty());
}

TEST(FleetAnalysis, LooksOnlyAtDecidingMetricsUnlessAskedForAll) {
    auto [name, s] = host("a", 100e6, 200e3);
    s.metrics.push_back(samples("fio.job.read.lat_p50", {1e3, 1e3, 1e3}));
    auto b = host("b", 100e6, 200e3);
    b.second.metrics.push_back(samples("fio.job.read.lat_p50", {1e3, 1e3, 1e3}));
    const std::vector<std::pair<std::string, LayoutSamples>> hosts{{name, s}, b};
    EXPECT_EQ(analyseFleet("dir", hosts).metrics.size(), 2U);
    EXPECT_EQ(analyseFleet("dir", hosts, {}, true).metrics.size(), 3U);
}

// A fleet member's database, merged under the name the inventory gives it: its one machine takes
// that name, and its layout "dir" joins the "dir" measured on another machine here.
TEST(FleetMerge, AHostsDatabaseJoinsTheFleetsLayoutUnderItsInventoryName) {
    test::ScratchDir tmp("fleet-merge");
    for (const auto& [file, machine, bw] :
         {std::tuple{"srv-1.db", "debian", 100e6}, std::tuple{"srv-2.db", "debian", 60e6}}) {
        auto s = Store::open(tmp.path(file));
        ASSERT_TRUE(s) << s.error().message;
        auto h = s->ensureHost(machine);
        ASSERT_TRUE(h);
        auto layout = s->ensureLayout("dir", "dir", "{}", *h);
        ASSERT_TRUE(layout);
        for (double f : {0.99, 1.0, 1.01})
            ASSERT_TRUE(s->insertRun(*layout, fioRun(bw * f, 2e5 / f)));
    }
    auto s = Store::open(tmp.path("fleet.db"));
    ASSERT_TRUE(s);
    // Without a name, the second "dir" of the same machine name would simply join; two machines
    // both called debian are what a fleet of clones looks like, hence the inventory's names.
    auto first = mergeDatabase(*s, {tmp.path("srv-1.db"), "", "srv-1"});
    ASSERT_TRUE(first) << first.error().message;
    auto second = mergeDatabase(*s, {tmp.path("srv-2.db"), "", "srv-2"});
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_EQ(second->runs, 3);
    EXPECT_EQ(second->layouts, 0); // joined the one here
    auto again = mergeDatabase(*s, {tmp.path("srv-2.db"), "", "srv-2"});
    ASSERT_TRUE(again);
    EXPECT_EQ(again->runs, 0);
    const auto hosts = s->layoutHosts("dir");
    ASSERT_TRUE(hosts);
    EXPECT_EQ(*hosts, (std::vector<std::string>{"srv-1", "srv-2"}));

    // Host against host, one layout on both sides.
    const auto refused = compareStoredLayouts(*s, "dir", "dir", std::nullopt);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("host: the baseline layout 'dir' holds runs of 2 hosts"),
              std::string::npos)
        << refused.error().message;
    const auto cmp = compareStoredLayouts(*s, "dir", "dir", std::nullopt, std::nullopt,
                                          HostChoice{"srv-1", "srv-2"});
    ASSERT_TRUE(cmp) << cmp.error().message;
    EXPECT_EQ(cmp->verdict, Verdict::Decision) << cmp->headline; // 100/60 MB/s: 1.67× the time
    const auto unknown = compareStoredLayouts(*s, "dir", "dir", std::nullopt, std::nullopt,
                                              HostChoice{"srv-1", "srv-9"});
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("candidate_host: layout 'dir' has no runs on host "
                                           "'srv-9' (its runs are on srv-1, srv-2)"),
              std::string::npos)
        << unknown.error().message;

    const auto fleet = fleetAnalyses(*s, std::nullopt);
    ASSERT_TRUE(fleet) << fleet.error().message;
    ASSERT_EQ(fleet->size(), 1U);
    EXPECT_EQ(fleet->front().hosts, (std::vector<std::string>{"srv-1", "srv-2"}));
    const auto one = fleetAnalyses(*s, std::string("nope"));
    ASSERT_FALSE(one);
    EXPECT_NE(one.error().message.find("layout: no layout named 'nope'"), std::string::npos);
}

TEST(FleetMerge, ADatabaseOfSeveralMachinesCannotTakeOneName) {
    test::ScratchDir tmp("fleet-merge-many");
    {
        auto s = Store::open(tmp.path("other.db"));
        ASSERT_TRUE(s);
        auto layout = s->ensureLayout("dir", "dir", "{}", std::nullopt);
        ASSERT_TRUE(layout);
        ASSERT_TRUE(s->insertRun(*layout, fioRun(1e6, 1e5, "m1")));
        ASSERT_TRUE(s->insertRun(*layout, fioRun(1e6, 1e5, "m2")));
    }
    auto s = Store::open(tmp.path("fleet.db"));
    ASSERT_TRUE(s);
    const auto merged = mergeDatabase(*s, {tmp.path("other.db"), "", "srv-1"});
    ASSERT_FALSE(merged);
    EXPECT_EQ(merged.error().kind, ErrorKind::BadInput);
    EXPECT_NE(merged.error().message.find("holds the results of 2 machines (m1, m2)"),
              std::string::npos)
        << merged.error().message;
    const auto runs = s->runs();
    ASSERT_TRUE(runs);
    EXPECT_TRUE(runs->empty()); // nothing half-merged
}
