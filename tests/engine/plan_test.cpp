// Plans as golden files: every md level, ZFS on md, underprovisioned members and the guest
// layout's two parts, printed the way `layoutbench plan` prints them. md cannot run on these
// machines' kernels; the plans are checked here and run for real inside the lab guest
// (tests/guest). Regenerate after a deliberate change with LAYOUTBENCH_UPDATE_GOLDEN=1 and
// read the diff.
#include "engine/plan.h"
#include "engine/scenario.h"
#include "probes/tools.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace lb {
namespace {

const ProbeRegistry& probes() {
    static const ProbeRegistry registry = standardProbes();
    return registry;
}

// Six SSDs and the layouts under test; `layouts` is TOML for [[layouts]] (the baseline dir is
// added).
Scenario scenarioWith(const std::string& layouts) {
    std::string text = R"(name = "plans"
work_dir = "/srv/lb"
)";
    for (char c = 'b'; c <= 'g'; ++c)
        text += std::string("[[disks]]\nname = \"ssd-") + c + "\"\ndevice = \"/dev/sd" + c + "\"\n";
    text += "[[disks]]\nname = \"img\"\nfile = \"guest-disk.img\"\nsize = \"1G\"\n";
    text += R"(
[[layouts]]
name = "base"
kind = "dir"
path = "/srv/base"
baseline = true
)" + layouts +
            R"(
[[workloads]]
probe = "xz"
)";
    auto s = parseScenario(text, "/srv/plans.toml", probes());
    EXPECT_TRUE(s) << s.error().message;
    return s ? *s : Scenario{};
}

std::string described(const Scenario& s, const std::string& layout,
                      const std::map<std::string, std::uint64_t>& sizes = {}) {
    for (const auto& l : s.layouts)
        if (l.name == layout) {
            auto parts = planParts(s, l, sizes);
            if (!parts)
                return "error: " + parts.error().message + "\n";
            std::string out;
            for (const auto& p : *parts)
                out += "-- " + p.runsOn + " (workdir " + p.workdir + ")\n" + describePlan(p);
            return out;
        }
    return "no layout " + layout + "\n";
}

void expectGolden(const std::string& name, const std::string& actual) {
    const std::string path = std::string(LAYOUTBENCH_TEST_DATA_DIR) + "/plans/" + name + ".txt";
    if (const char* update = std::getenv("LAYOUTBENCH_UPDATE_GOLDEN"); update && *update == '1') {
        std::ofstream(path) << actual;
        return;
    }
    std::ifstream in(path);
    ASSERT_TRUE(in) << path << " is missing; run with LAYOUTBENCH_UPDATE_GOLDEN=1";
    std::stringstream expected;
    expected << in.rdbuf();
    EXPECT_EQ(actual, expected.str()) << "golden file " << path;
}

const std::string ssds4 = R"(disks = ["ssd-b", "ssd-c", "ssd-d", "ssd-e"])";

TEST(PlanGolden, EveryMdLevel) {
    for (const char* level : {"md-raid0", "md-raid1", "md-raid10", "md-raid5", "md-raid6"}) {
        const auto s = scenarioWith("[[layouts]]\nname = \"arr\"\nkind = \"" + std::string(level) +
                                    "\"\n" + ssds4 + "\n");
        expectGolden(level, described(s, "arr"));
    }
}

TEST(PlanGolden, MdOptionsXfsNoBitmapAssumeClean) {
    const auto s = scenarioWith(R"([[layouts]]
name = "fast"
kind = "md-raid5"
disks = ["ssd-b", "ssd-c", "ssd-d"]
chunk = "64K"
bitmap = "none"
assume_clean = true
filesystem = "xfs"
md_device = "/dev/md9"
)");
    expectGolden("md-options", described(s, "fast"));
}

TEST(PlanGolden, UnderprovisionedMdRaid10) {
    const auto s = scenarioWith(R"([[layouts]]
name = "r10"
kind = "md-raid10"
disks = ["ssd-b", "ssd-c", "ssd-d", "ssd-e"]
underprovision = 0.8
)");
    std::map<std::string, std::uint64_t> sizes;
    for (char c = 'b'; c <= 'e'; ++c)
        sizes[std::string("/dev/sd") + c] = 500107862016; // a 500 GB SSD
    expectGolden("md-raid10-underprovisioned", described(s, "r10", sizes));
}

TEST(PlanGolden, ZfsPoolOnAnMdArray) {
    const auto s = scenarioWith(R"([[layouts]]
name = "hybrid"
kind = "zfs-stripe"
inner = "md-raid6"
disks = ["ssd-b", "ssd-c", "ssd-d", "ssd-e", "ssd-f", "ssd-g"]
recordsize = "1M"
compression = "lz4"
)");
    expectGolden("zfs-on-md-raid6", described(s, "hybrid"));
}

TEST(PlanGolden, QemuGuestOnAnMdArrayRunningZfs) {
    const auto s = scenarioWith(R"([[layouts]]
name = "vm"
kind = "guest"
inner = "md-raid6"
disks = ["ssd-b", "ssd-c", "ssd-d", "ssd-e", "ssd-f", "ssd-g"]
[layouts.guest]
kernel = "/srv/guest/vmlinuz"
initrd = "/srv/guest/initrd.gz"
memory = "28G"
cpus = 8
iothreads = 1
aio = "native"
ssh_port = 2250
identity = "/root/.ssh/lb-guest"
known_hosts = "/root/.ssh/lb-guest-known"
layout = "zfs-stripe"
)");
    expectGolden("guest-qemu-md-raid6-zfs", described(s, "vm"));
}

TEST(PlanGolden, QemuGuestOnAFileUnderTcg) {
    const auto s = scenarioWith(R"([[layouts]]
name = "lab"
kind = "guest"
disks = ["img"]
[layouts.guest]
kernel = "vmlinuz"
initrd = "initrd.gz"
accel = "tcg"
memory = "512M"
cpus = 1
bus = "scsi"
disk = "/dev/sda"
ssh_port = 2251
fw_cfg = ["name=opt/lb/authorized_keys,file=/srv/lb/key.pub"]
)");
    expectGolden("guest-qemu-file-tcg", described(s, "lab"));
}

TEST(PlanGolden, LibvirtAndXenGuestsAttachTheDisk) {
    const auto s = scenarioWith(R"([[layouts]]
name = "kvm"
kind = "guest"
disks = ["ssd-b"]
[layouts.guest]
hypervisor = "libvirt"
domain = "storage-vm"
target = "ssh://root@storage-vm"
cache = "none"
layout = "xfs"
disk = "/dev/vdb"

[[layouts]]
name = "xen"
kind = "guest"
inner = "md-raid1"
disks = ["ssd-c", "ssd-d"]
[layouts.guest]
hypervisor = "xen"
domain = "freebsd-zfs"
target = "ssh://root@freebsd-zfs"
layout = "zfs-stripe"
disk = "/dev/xvdb"
)");
    expectGolden("guest-libvirt", described(s, "kvm"));
    expectGolden("guest-xen-md-raid1", described(s, "xen"));
}

TEST(Plan, MdArrayOfTooFewDisksIsBadInput) {
    const auto s = scenarioWith(R"([[layouts]]
name = "r6"
kind = "md-raid6"
disks = ["ssd-b", "ssd-c", "ssd-d"]
)");
    auto plan = planLayout(s, s.layouts[1]);
    ASSERT_FALSE(plan);
    EXPECT_EQ(plan.error().kind, ErrorKind::BadInput);
    EXPECT_NE(plan.error().message.find("md-raid6 cannot be made of 3 disks"), std::string::npos)
        << plan.error().message;
}

TEST(Plan, EveryDestructiveStepOnAnArrayHasItsUndo) {
    const auto s =
        scenarioWith("[[layouts]]\nname = \"arr\"\nkind = \"md-raid6\"\n" + ssds4 + "\n");
    auto plan = planLayout(s, s.layouts[1]);
    ASSERT_TRUE(plan) << plan.error().message;
    for (const auto& step : plan->steps) {
        const auto& p = step.command.program;
        if (p == "mdadm" && step.command.args.front() == "--create") {
            ASSERT_TRUE(step.undo) << step.description;
        }
        if (p == "mount" || p == "wipefs" || p == "mkdir") {
            EXPECT_TRUE(step.undo) << step.description;
        }
    }
    EXPECT_EQ(plan->workdir, "/srv/lb/mnt-arr");
}

} // namespace
} // namespace lb
