// The dry run (`layoutbench plan`) shows what will run on the target: the commands written for
// the system that runs them (FreeBSD's dd in a FreeBSD host or guest, as the run writes them),
// bonnie++ sized by the memory of the machine it runs on (a guest's own), and a marked
// placeholder where that memory is not known to the plan, never the planning machine's.
#include "engine/workbench.h"
#include "probes/registry.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace lb {
namespace {

const ProbeRegistry& probes() {
    static const ProbeRegistry registry = standardProbes();
    return registry;
}

// A dir baseline, a Xen guest (on one disk) running `guestOs` with `guestMemory` (a TOML line,
// or nothing), bonnie++ and xz; `host` is the [host] table's lines.
Scenario scenarioWith(const std::string& host, const std::string& guestOs,
                      const std::string& guestMemory) {
    const std::string text = R"(name = "dry"
work_dir = "/srv/lb"
[host]
)" + host + R"(
[[disks]]
name = "ssd"
device = "/dev/sdb"
[[layouts]]
name = "base"
kind = "dir"
path = "/srv/base"
baseline = true
[[layouts]]
name = "vm"
kind = "guest"
disks = ["ssd"]
[layouts.guest]
hypervisor = "xen"
domain = "storage"
target = "ssh://root@storage"
os = ")" + guestOs + "\"\nlayout = \"" +
                             (guestOs == "freebsd" ? "zfs-stripe" : "ext4") + "\"\n" + guestMemory +
                             R"(
[[workloads]]
probe = "bonnie"
[[workloads]]
probe = "xz"
size = "4G"
)";
    auto s = parseScenario(text, "/srv/dry.toml", probes());
    EXPECT_TRUE(s) << s.error().message;
    return s ? *s : Scenario{};
}

// The workload's command (or its first preparation) on the named layout, as shown.
std::string shown(const DryRun& run, const std::string& layout, const std::string& workload,
                  bool prepare = false) {
    for (const auto& l : run.layouts) {
        if (l.layout->name != layout)
            continue;
        for (const auto& w : l.workloads)
            if (w.workload->name == workload)
                return prepare ? w.command.prepare.at(0).toUserOutput()
                               : w.command.command.toUserOutput();
    }
    ADD_FAILURE() << "no workload " << workload << " on " << layout;
    return {};
}

DryRunHost hostWith(std::uint64_t ramBytes) {
    DryRunHost host;
    host.ramBytes = ramBytes;
    return host;
}

constexpr std::uint64_t GiBytes = 1ULL << 30;

TEST(DryRun, AFreeBsdHostsXzInputIsWrittenByFreeBsdsDdAsTheRunWritesIt) {
    const auto s = scenarioWith("os = \"freebsd\"", "freebsd", "");
    auto run = dryRun(s, probes(), hostWith(0));
    ASSERT_TRUE(run) << run.error().message;
    const std::string dd = shown(*run, "base", "xz", true);
    EXPECT_EQ(dd, "dd if=/dev/urandom of=/srv/base/layoutbench-base/lb-xz-input bs=1048576 "
                  "count=4096 iflag=fullblock conv=fsync");
    EXPECT_EQ(dd.find("count_bytes"), std::string::npos);
}

TEST(DryRun, AFreeBsdGuestOnALinuxHostGetsFreeBsdsDdAndTheHostLinuxs) {
    const auto s = scenarioWith("os = \"linux\"", "freebsd", "memory = \"28G\"");
    auto run = dryRun(s, probes(), hostWith(0));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(shown(*run, "vm", "xz", true),
              "dd if=/dev/urandom of=/mnt/lb-vm/lb-xz-input bs=1048576 count=4096 "
              "iflag=fullblock conv=fsync");
    EXPECT_NE(shown(*run, "base", "xz", true).find("iflag=count_bytes,fullblock"),
              std::string::npos);
}

// The field report's mistake: bonnie++ in a 28 G guest sized by the 24 G planning machine.
TEST(DryRun, BonnieInAGuestIsSizedByTheGuestsMemoryNotThePlanningMachines) {
    const auto s = scenarioWith("os = \"linux\"", "freebsd", "memory = \"28G\"");
    auto run = dryRun(s, probes(), hostWith(24 * GiBytes));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_NE(shown(*run, "vm", "bonnie").find(" -s 57344 -r 28672 "), std::string::npos)
        << shown(*run, "vm", "bonnie");
    EXPECT_NE(shown(*run, "base", "bonnie").find(" -s 49152 -r 24576 "), std::string::npos)
        << shown(*run, "base", "bonnie");
}

// A Xen or libvirt domain runs with its own memory: without the scenario's figure only the guest
// can tell, and the plan says so in the command's place.
TEST(DryRun, BonnieInADomainOfUnstatedMemoryShowsAMarkedPlaceholder) {
    const auto s = scenarioWith("os = \"linux\"", "linux", "");
    auto run = dryRun(s, probes(), hostWith(24 * GiBytes));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_NE(shown(*run, "vm", "bonnie")
                  .find(" -s '<2 × target memory, MiB>' -r '<target memory, MiB>' "),
              std::string::npos)
        << shown(*run, "vm", "bonnie");
}

TEST(DryRun, BonnieOnAHostWhoseMemoryIsNotKnownShowsAMarkedPlaceholder) {
    const auto s = scenarioWith("target = \"ssh://root@storage-host\"", "linux", "");
    const DryRunHost host = localDryRunHost(s);
    EXPECT_EQ(host.ramBytes, 0U) << "plan asks another machine nothing";
    EXPECT_TRUE(host.root) << "its ssh user is root";
    auto run = dryRun(s, probes(), host);
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_NE(shown(*run, "base", "bonnie").find(" -s '<2 × target memory, MiB>' "),
              std::string::npos)
        << shown(*run, "base", "bonnie");
}

// This machine is the target only when it runs the system the scenario names.
TEST(DryRun, ThisMachinesMemoryCountsOnlyWhenItIsTheTarget) {
    EXPECT_GT(localDryRunHost(scenarioWith("os = \"linux\"", "linux", "")).ramBytes, 0U);
    EXPECT_EQ(localDryRunHost(scenarioWith("os = \"freebsd\"", "linux", "")).ramBytes, 0U);
}

} // namespace
} // namespace lb
