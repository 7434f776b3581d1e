// Plans as golden files: every md level, ZFS on md, underprovisioned members and the guest
// layout's two parts, printed the way `layoutbench plan` prints them. md cannot run on these
// machines' kernels; the plans are checked here and run for real inside the lab guest
// (tests/guest). Regenerate after a deliberate change with LAYOUTBENCH_UPDATE_GOLDEN=1 and
// read the diff.
#include "engine/build/drill.h"
#include "engine/build/plan.h"
#include "engine/exec/runner.h"
#include "engine/scenario/scenario.h"
#include "probes/registry.h"
#include "tests/support/plan_golden.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>

namespace lb {
namespace {

const ProbeRegistry& probes() {
    static const ProbeRegistry registry = standardProbes();
    return registry;
}

// Six SSDs and the layouts under test; `layouts` is TOML for [[layouts]] (the baseline dir is
// added).
// `workloadOptions`: a netload workload with these options instead of xz; `baseExtra`: more keys
// (or tables) of the baseline dir layout.
Scenario scenarioWith(const std::string& layouts, const std::string& workloadOptions = {},
                      const std::string& baseExtra = {}) {
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
)" + baseExtra +
            layouts +
            R"(
[[workloads]]
)" +
            (workloadOptions.empty() ? std::string("probe = \"xz\"\n")
                                     : "probe = \"netload\"\nruntime = 1\n" + workloadOptions);
    auto s = parseScenario(text, "/srv/plans.toml", probes());
    EXPECT_TRUE(s) << s.error().message;
    return s ? *s : Scenario{};
}

std::string described(const Scenario& s, const std::string& layout,
                      const std::map<std::string, std::uint64_t>& sizes = {}) {
    return test::describedPlan(s, layout, sizes);
}

using test::expectGolden;

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

// ---- Exports ([layouts.export]): appended to the part the workloads run on, each with its undo.

TEST(PlanGolden, TgtFileLunAndGaneshaOnAZfsLayout) {
    const auto s = scenarioWith(R"([[layouts]]
name = "raidz2"
kind = "zfs-raidz2"
disks = ["ssd-b", "ssd-c", "ssd-d", "ssd-e"]
[layouts.export]
address = "192.0.2.10"
iscsi = "tgt"
lun = "file"
lun_size = "8G"
tgt_control_port = 13260
nfs = "ganesha"
nfs_options = ["rw", "root_squash"]
nfs_versions = [3, 4]
nfs_clients = ["192.0.2.0/24"]
)");
    expectGolden("export-tgt-file-ganesha-zfs", described(s, "raidz2"));
}

TEST(PlanGolden, TgtZvolWithChapPassesTheSecretOnStdinOnly) {
    const auto s = scenarioWith(R"([[layouts]]
name = "mirror"
kind = "zfs-mirror"
disks = ["ssd-b", "ssd-c"]
[layouts.export]
iscsi = "tgt"
lun = "zvol"
lun_size = "16G"
iqn = "iqn.2026-11.com.example:vm-store"
tid = 7
lun_number = 3
chap_user = "xen"
chap_password = "a-long-chap-secret"
initiators = ["192.0.2.21", "192.0.2.22"]
)");
    const std::string text = described(s, "mirror");
    EXPECT_EQ(text.find("a-long-chap-secret"), std::string::npos) << text;
    // tgtadm would take it as an argument: lb-tgt-account reads it on stdin.
    EXPECT_NE(text.find("lb-tgt-account --user xen <<< ****"), std::string::npos) << text;
    EXPECT_EQ(s.text.find("a-long-chap-secret"), std::string::npos) << "stored text: " << s.text;
    auto plan = planLayout(s, s.layouts[1]);
    ASSERT_TRUE(plan) << plan.error().message;
    int carrying = 0;
    for (const auto& step : plan->steps) {
        for (const auto& a : step.command.args)
            EXPECT_EQ(a.find("a-long-chap-secret"), std::string::npos) << step.description;
        if (step.command.secretStdin == "a-long-chap-secret\n")
            ++carrying;
    }
    EXPECT_EQ(carrying, 1);
    expectGolden("export-tgt-zvol-chap", text);
}

TEST(PlanGolden, LioExportsAnMdArrayRawWithoutAFileSystem) {
    const auto s = scenarioWith(R"([[layouts]]
name = "r10"
kind = "md-raid10"
disks = ["ssd-b", "ssd-c", "ssd-d", "ssd-e"]
[layouts.export]
iscsi = "lio"
lun = "device"
portal_port = 3261
chap_user = "xen"
chap_password = "a-long-chap-secret"
initiators = ["iqn.2026-11.com.example:xen1"]
)",
                                "target = \"iscsi\"\n", "[layouts.export]\niscsi = \"tgt\"\n");
    const std::string text = described(s, "r10");
    EXPECT_EQ(text.find("mkfs"), std::string::npos) << "the LUN must not get a file system";
    EXPECT_EQ(text.find("a-long-chap-secret"), std::string::npos) << text;
    expectGolden("export-lio-md-raw", text);

    // The CHAP step writes the ACL's configfs files, the password from stdin: run for real on a
    // directory standing in for configfs.
    auto plan = planLayout(s, s.layouts[1]);
    ASSERT_TRUE(plan) << plan.error().message;
    const auto auth = std::find_if(plan->steps.begin(), plan->steps.end(), [](const PlanStep& p) {
        return !p.command.secretStdin.empty();
    });
    ASSERT_NE(auth, plan->steps.end());
    Command c = auth->command;
    for (const auto& a : c.args)
        EXPECT_EQ(a.find("a-long-chap-secret"), std::string::npos) << a;
    ASSERT_EQ(c.args.size(), 5u);
    EXPECT_EQ(c.args[3],
              "/sys/kernel/config/target/iscsi/iqn.2026-11.org.layoutbench:r10/tpgt_1/acls/"
              "iqn.2026-11.com.example:xen1");
    const auto dir = std::filesystem::temp_directory_path() / "lb-plan-test-configfs";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "auth");
    c.args[3] = dir.string();
    auto ran = makeLocalRunner()->run(c);
    ASSERT_TRUE(ran) << ran.error().message;
    EXPECT_TRUE(ran->ok()) << ran->exitSummary();
    const auto read = [](const std::filesystem::path& p) {
        std::ifstream in(p);
        std::stringstream t;
        t << in.rdbuf();
        return t.str();
    };
    EXPECT_EQ(read(dir / "auth/userid"), "xen");
    EXPECT_EQ(read(dir / "auth/password"), "a-long-chap-secret");
    std::filesystem::remove_all(dir);
}

TEST(PlanGolden, KernelNfsExportOfADirectory) {
    const auto s = scenarioWith(R"([[layouts]]
name = "plain"
kind = "dir"
path = "/srv/plain"
[layouts.export]
nfs = "kernel"
nfs_options = ["rw", "async", "no_root_squash", "fsid=17"]
nfs_clients = ["192.0.2.0/24", "backup.example"]
)");
    expectGolden("export-kernel-nfs-dir", described(s, "plain"));
}

TEST(PlanGolden, AGuestExportsFromInside) {
    const auto s = scenarioWith(R"([[layouts]]
name = "vm"
kind = "guest"
disks = ["ssd-b"]
[layouts.guest]
hypervisor = "libvirt"
domain = "storage-vm"
target = "ssh://root@storage-vm"
layout = "zfs-stripe"
disk = "/dev/vdb"
[layouts.export]
iscsi = "tgt"
lun = "zvol"
nfs = "ganesha"
)");
    const std::string text = described(s, "vm");
    EXPECT_NE(text.find("-- guest"), std::string::npos);
    EXPECT_LT(text.find("-- guest"), text.find("tgtadm")) << "the guest exports, not the host";
    expectGolden("export-guest-tgt-zvol-ganesha", text);
}

// FreeBSD targets ([host] os = "freebsd"): gpart instead of sgdisk and partx, trim instead of
// blkdiscard, FreeBSD's device names; md refused. Written from FreeBSD's manuals (gpart(8),
// trim(8)); not run on a live FreeBSD host here.
Scenario freeBsdScenario(const std::string& layouts) {
    std::string text = R"(name = "freebsd"
work_dir = "/var/tmp/lb"
[host]
target = "ssh://root@nas"
os = "freebsd"
)";
    for (int i = 0; i < 6; ++i)
        text += "[[disks]]\nname = \"da" + std::to_string(i) + "\"\ndevice = \"/dev/da" +
                std::to_string(i) + "\"\n";
    text += layouts + "\n[[workloads]]\nprobe = \"xz\"\n";
    auto sc = parseScenario(text, "/srv/freebsd.toml", probes());
    EXPECT_TRUE(sc) << sc.error().message;
    return sc ? *sc : Scenario{};
}

TEST(PlanGolden, FreeBsdRaidz2OnWholeDisksAndAt80Percent) {
    const std::string disks = R"(disks = ["da0", "da1", "da2", "da3", "da4", "da5"])";
    const auto s = freeBsdScenario("[[layouts]]\nname = \"whole\"\nkind = \"zfs-raidz2\"\n"
                                   "baseline = true\n" +
                                   disks +
                                   "\n[[layouts]]\nname = \"part\"\nkind = \"zfs-raidz2\"\n"
                                   "pool = \"lb-part\"\nunderprovision = 0.8\n" +
                                   disks + "\n");
    std::map<std::string, std::uint64_t> sizes;
    for (int i = 0; i < 6; ++i)
        sizes["/dev/da" + std::to_string(i)] = 500107862016;
    expectGolden("freebsd-raidz2", described(s, "whole", sizes) + described(s, "part", sizes));
}

TEST(PlanGolden, FreeBsdGuestOnMdRaid6RunningZfs) {
    // The seed's second layout: Linux md RAID6 on the host, passed to a FreeBSD guest under Xen
    // that builds its pool on the disk it sees (xbd1 here, as the domain names it).
    const auto s = scenarioWith(R"([[layouts]]
name = "guest"
kind = "guest"
inner = "md-raid6"
disks = ["ssd-b", "ssd-c", "ssd-d", "ssd-e", "ssd-f", "ssd-g"]
[layouts.guest]
hypervisor = "xen"
domain = "freebsd-zfs"
os = "freebsd"
layout = "zfs-stripe"
target = "ssh://root@freebsd-zfs"
disk = "/dev/ada1"
)");
    expectGolden("guest-xen-freebsd-zfs", described(s, "guest"));
}

// bhyve on a FreeBSD host: it cannot attach a disk to a running guest, so the guest starts with
// its disk (bhyveload, then bhyve under daemon(8)), and destroying the virtual machine is the undo.
// A FreeBSD guest loaded by bhyveload on a whole disk, and a Linux guest booted by UEFI firmware
// on a file, its cache mode as bhyve's options. Written from bhyve(8), bhyveload(8) and
// bhyvectl(8); not exercised on a live FreeBSD host here, and the plan's steps say so.
TEST(PlanGolden, FreeBsdHostBhyveGuestsStartWithTheirDisk) {
    const auto s = freeBsdScenario(R"([[disks]]
name = "img"
file = "linux-guest-disk.img"
size = "8G"
[[layouts]]
name = "bsd"
kind = "guest"
baseline = true
disks = ["da0"]
[layouts.guest]
hypervisor = "bhyve"
os = "freebsd"
layout = "zfs-stripe"
image = "/vm/freebsd-14.img"
memory = "8G"
cpus = 4
target = "ssh://root@bsd-guest"
[[layouts]]
name = "linux"
kind = "guest"
disks = ["img"]
[layouts.guest]
hypervisor = "bhyve"
firmware = "/usr/local/share/uefi-firmware/BHYVE_UEFI.fd"
tap = "tap3"
layout = "xfs"
image = "/vm/debian-12.img"
cache = "writeback"
target = "ssh://root@linux-guest"
)");
    ASSERT_EQ(s.layouts.size(), 2u);
    EXPECT_EQ(s.layouts[0].guest->disk, "/dev/vtbd1") << "the image is the first virtio disk";
    EXPECT_EQ(s.layouts[1].guest->disk, "/dev/vdb");
    std::string text;
    for (const auto& layout : s.layouts) {
        auto parts = planParts(s, layout, {});
        ASSERT_TRUE(parts) << parts.error().message;
        const auto& host = parts->front().steps;
        // The start is the last host step; it and bhyveload (which makes the VM) are undone by
        // destroying the VM; each says it is untried here.
        ASSERT_FALSE(host.empty());
        EXPECT_EQ(host.back().command.program, "daemon");
        for (const auto& step : host) {
            if (step.command.program != "bhyveload" && step.command.program != "daemon")
                continue;
            EXPECT_NE(step.description.find("not exercised on a live FreeBSD host here"),
                      std::string::npos)
                << step.description;
            ASSERT_TRUE(step.undo);
            EXPECT_NE(step.undo->toUserOutput().find("bhyvectl --destroy"), std::string::npos);
            text += "# " + step.description + "\n";
        }
        text += described(s, layout.name);
    }
    expectGolden("guest-bhyve-freebsd-host", text);
}

TEST(Plan, BhyveIsRefusedOnALinuxHostAndNeedsItsBootDisk) {
    const auto guest = [](const std::string& host, const std::string& guestKeys) {
        return "name = \"b\"\nwork_dir = \"/srv\"\n" + host +
               "[[disks]]\nname = \"d\"\ndevice = \"/dev/sdb\"\n"
               "[[layouts]]\nname = \"vm\"\nkind = \"guest\"\nbaseline = true\n"
               "disks = [\"d\"]\n[layouts.guest]\nhypervisor = \"bhyve\"\n"
               "target = \"ssh://root@vm\"\n" +
               guestKeys + "[[workloads]]\nprobe = \"xz\"\n";
    };
    const std::string bsd = "os = \"freebsd\"\nlayout = \"zfs-stripe\"\nimage = \"/vm/b.img\"\n";
    auto onLinux = parseScenario(guest("", bsd), "/srv/b.toml", probes());
    ASSERT_TRUE(onLinux) << onLinux.error().message;
    const auto refused = planParts(*onLinux, onLinux->layouts[0], {});
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("bhyve is FreeBSD's hypervisor and this plan is for a "
                                           "linux host"),
              std::string::npos)
        << refused.error().message;
    const std::string freeBsdHost = "[host]\ntarget = \"ssh://root@nas\"\nos = \"freebsd\"\n";
    for (const auto& [keys, why] : std::vector<std::pair<std::string, std::string>>{
             {"os = \"freebsd\"\nlayout = \"zfs-stripe\"\n", "a bhyve guest boots a disk image"},
             {"image = \"/vm/l.img\"\n", "bhyveload boots only FreeBSD guests"},
             {bsd + "kernel = \"/vm/vmlinuz\"\n", "kernel: a bhyve guest does not take it"},
             {bsd + "domain = \"vm\"\n", "domain: a bhyve guest does not take it"},
             {bsd + "tap = \"tap 0\"\n", "expected an interface name"},
         }) {
        const auto bad = parseScenario(guest(freeBsdHost, keys), "/srv/b.toml", probes());
        ASSERT_FALSE(bad) << keys;
        EXPECT_NE(bad.error().message.find(why), std::string::npos) << bad.error().message;
        EXPECT_NE(bad.error().message.find("/srv/b.toml:"), std::string::npos)
            << "names the file and line: " << bad.error().message;
    }
    // The keys of bhyve alone are refused for another hypervisor.
    const auto qemu = parseScenario(
        "name = \"q\"\nwork_dir = \"/srv\"\n[[disks]]\nname = \"d\"\ndevice = \"/dev/sdb\"\n"
        "[[layouts]]\nname = \"vm\"\nkind = \"guest\"\nbaseline = true\ndisks = [\"d\"]\n"
        "[layouts.guest]\nimage = \"/vm/q.img\"\nssh_port = 2222\ntap = \"tap0\"\n"
        "[[workloads]]\nprobe = \"xz\"\n",
        "/srv/q.toml", probes());
    ASSERT_FALSE(qemu);
    EXPECT_NE(qemu.error().message.find("tap: only a bhyve guest takes it"), std::string::npos)
        << qemu.error().message;
}

TEST(Plan, FreeBsdRefusesMdAndLinuxFileSystems) {
    const auto md =
        freeBsdScenario("[[layouts]]\nname = \"r6\"\nkind = \"md-raid6\"\nbaseline = true\n"
                        "disks = [\"da0\", \"da1\", \"da2\", \"da3\"]\n");
    EXPECT_NE(described(md, "r6").find("md RAID (mdadm) is Linux's"), std::string::npos)
        << described(md, "r6");
    const auto bad = parseScenario(R"(name = "g"
work_dir = "/srv"
[[disks]]
name = "img"
file = "g.img"
size = "1G"
[[layouts]]
name = "g"
kind = "guest"
baseline = true
disks = ["img"]
[layouts.guest]
os = "freebsd"
layout = "ext4"
[[workloads]]
probe = "xz"
)",
                                   "/srv/g.toml", probes());
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("a FreeBSD guest builds ZFS"), std::string::npos)
        << bad.error().message;
}

TEST(Plan, EveryExportStepThatMakesSomethingHasItsUndo) {
    const auto s = scenarioWith(R"([[layouts]]
name = "raidz2"
kind = "zfs-raidz2"
disks = ["ssd-b", "ssd-c", "ssd-d", "ssd-e"]
[layouts.export]
iscsi = "tgt"
lun = "zvol"
chap_user = "xen"
chap_password = "a-long-chap-secret"
nfs = "ganesha"
)");
    auto plan = planLayout(s, s.layouts[1]);
    ASSERT_TRUE(plan) << plan.error().message;
    for (const auto& step : plan->steps) {
        const auto& args = step.command.args;
        const bool makes = std::find(args.begin(), args.end(), "new") != args.end() ||
                           std::find(args.begin(), args.end(), "bind") != args.end() ||
                           step.command.program == "ganesha.nfsd" ||
                           (step.command.program == "zfs" && args.front() == "create");
        if (makes) {
            EXPECT_TRUE(step.undo) << step.description;
        }
        // Undo commands are stored and replayed as they are: never a secret in them.
        if (step.undo) {
            EXPECT_TRUE(step.undo->secretStdin.empty()) << step.description;
            for (const auto& a : step.undo->args)
                EXPECT_EQ(a.find("a-long-chap-secret"), std::string::npos) << step.description;
        }
    }
    // The check that tgtd answers comes before the zvol is made.
    const auto first = [&](const std::string& program) {
        return std::find_if(plan->steps.begin(), plan->steps.end(),
                            [&](const PlanStep& step) { return step.command.program == program; }) -
               plan->steps.begin();
    };
    EXPECT_LT(first("tgtadm"), first("zfs"));
}

TEST(Plan, AMaskedChapSecretCannotBePlanned) {
    const auto s = scenarioWith(R"([[layouts]]
name = "d"
kind = "dir"
path = "/srv/d"
[layouts.export]
iscsi = "tgt"
chap_user = "xen"
chap_password = "****"
)");
    auto plan = planLayout(s, s.layouts[1]);
    ASSERT_FALSE(plan);
    EXPECT_NE(plan.error().message.find("the CHAP password is masked in this copy"),
              std::string::npos)
        << plan.error().message;
    // Where: the file and the line of the layout's export table, as every bad input says it.
    EXPECT_TRUE(std::regex_search(plan.error().message,
                                  std::regex("^/srv/plans\\.toml:[1-9][0-9]*: chap_password: "
                                             "layout 'd': ")))
        << plan.error().message;
}

// The scenario loader refuses too few disks, naming the line; a scenario changed after it was
// loaded is checked again when planned.
TEST(Plan, MdArrayOfTooFewDisksIsBadInput) {
    auto s = scenarioWith(R"([[layouts]]
name = "r6"
kind = "md-raid6"
disks = ["ssd-b", "ssd-c", "ssd-d", "ssd-e"]
)");
    s.layouts[1].disks.pop_back();
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
        if (p == "mount" || p == "mkdir") {
            EXPECT_TRUE(step.undo) << step.description;
        }
    }
    EXPECT_EQ(plan->workdir, "/srv/lb/mnt-arr");
}

// Running wipefs again does not bring the signatures back: the step says it has no undo, and the
// array's own undo stops it and clears its superblock from every member (so nothing assembles it
// again), where the members' wipefs used to be "undone" by itself.
TEST(Plan, WipingSignaturesHasNoUndoAndTheArraysUndoClearsItsMembers) {
    const auto s = scenarioWith(R"([[layouts]]
name = "r5"
kind = "md-raid5"
disks = ["ssd-b", "ssd-c", "ssd-d", "ssd-e"]
underprovision = 0.8
[[drills]]
layout = "r5"
action = "md-grow"
disks = ["ssd-f"]
)");
    auto plan = planLayout(s, s.layouts[1]);
    ASSERT_TRUE(plan) << plan.error().message;
    int wipes = 0;
    for (const auto& step : plan->steps) {
        if (step.command.program == "wipefs") {
            ++wipes;
            EXPECT_FALSE(step.undo) << step.description;
            EXPECT_EQ(step.noUndo, "wiped signatures cannot be restored");
            EXPECT_EQ(undoText(step), "no undo: wiped signatures cannot be restored");
        }
        if (step.command.program == "mdadm") {
            ASSERT_TRUE(step.undo);
            EXPECT_EQ(step.undo->toUserOutput(),
                      "sh -c 'mdadm --stop \"$1\" && shift && wipefs -a \"$@\"' sh /dev/md/lb-r5 "
                      "/dev/sdb1 /dev/sdc1 /dev/sdd1 /dev/sde1 /dev/sdf1");
        }
    }
    EXPECT_EQ(wipes, 5) << "four members and the drill's spare";
    EXPECT_NE(describePlan(*plan).find(". wipefs -a /dev/sdb1\n"
                                       "     no undo: wiped signatures cannot be restored\n"),
              std::string::npos)
        << describePlan(*plan);
}

// A drill's steps as `plan` shows them after the layout's: the fail-rebuild drill's fill, load,
// failure, rebuild and checks on md and on a raidz1, dRAID's two rebuilds, an expansion drill,
// and a member pulled by the scenario's command from md RAID-1 and a ZFS mirror, each step with
// its undo or why it has none.
TEST(PlanGolden, DrillStepsWithTheirUndos) {
    const auto s = scenarioWith(R"([[layouts]]
name = "r5"
kind = "md-raid5"
disks = ["ssd-b", "ssd-c", "ssd-d"]
[[layouts]]
name = "z1"
kind = "zfs-raidz1"
disks = ["ssd-b", "ssd-c", "ssd-d"]
[[layouts]]
name = "dr"
kind = "zfs-draid1"
disks = ["ssd-b", "ssd-c", "ssd-d", "ssd-e"]
draid_spares = 1
[[drills]]
layout = "r5"
action = "fail-rebuild"
disk = "ssd-c"
disks = ["ssd-e"]
fill = 0.5
sync_speed_min = 50000
[[drills]]
layout = "r5"
action = "md-grow"
disks = ["ssd-f"]
[[drills]]
layout = "z1"
action = "fail-rebuild"
disk = "ssd-b"
disks = ["ssd-e"]
[[drills]]
layout = "dr"
action = "fail-rebuild"
disk = "ssd-b"
disks = ["ssd-f"]
[[layouts]]
name = "m1"
kind = "md-raid1"
disks = ["ssd-b", "ssd-c"]
[[drills]]
layout = "m1"
action = "fail-rebuild"
disk = "ssd-c"
disks = ["ssd-d"]
fail = "pull"
pull_command = ["sg_ses", "--dev-slot-num=3", "--set=devoff", "/dev/sg4"]
[[layouts]]
name = "zm"
kind = "zfs-mirror"
disks = ["ssd-b", "ssd-c"]
[[drills]]
layout = "zm"
action = "fail-rebuild"
disk = "ssd-c"
disks = ["ssd-d"]
fail = "pull"
pull_command = ["sg_ses", "--dev-slot-num=3", "--set=devoff", "/dev/sg4"]
pull_wait = 300
)");
    std::string out;
    for (const auto& l : s.layouts)
        for (const auto& d : s.drills)
            if (d.layout == l.name) {
                const auto plan = planDrill(s, l, d, "/srv/lb/mnt-" + l.name);
                ASSERT_TRUE(plan) << plan.error().message;
                out += "-- " + l.name + ": " + d.name() + "\n" + describePlan(*plan);
            }
    expectGolden("drills", out);
}

// No step is undone by running it again, and a step without an undo says why, in every plan the
// golden files hold (md, ZFS, guests of every hypervisor, exports, FreeBSD): each numbered step
// (its command may span lines) is followed by "undo: <another command>" or "no undo: <why>".
TEST(Plan, EveryGoldenStepHasAnotherCommandAsItsUndoOrSaysWhyNone) {
    const std::regex step(R"(^  \d+\. (.*?)(   \(where supported; a failure is skipped\))?$)");
    int files = 0, steps = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::string(LAYOUTBENCH_TEST_DATA_DIR) + "/plans")) {
        std::ifstream in(entry.path());
        std::vector<std::string> lines;
        for (std::string line; std::getline(in, line);)
            lines.push_back(line);
        ++files;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            std::smatch m;
            if (!std::regex_match(lines[i], m, step))
                continue;
            SCOPED_TRACE(entry.path().filename().string() + ":" + std::to_string(i + 1));
            ++steps;
            std::size_t j = i + 1;
            while (j < lines.size() && !lines[j].starts_with("     undo: ") &&
                   !lines[j].starts_with("     no undo: ") && !std::regex_match(lines[j], step))
                ++j;
            ASSERT_LT(j, lines.size()) << "the last step says nothing of its undo";
            const std::string& said = lines[j];
            if (said.starts_with("     undo: ")) {
                EXPECT_NE(said.substr(11), m[1].str()) << "a step undone by itself";
            } else {
                EXPECT_TRUE(said.starts_with("     no undo: ")) << "nothing said: " << said;
                EXPECT_GT(said.size(), std::string("     no undo: ").size()) << "no reason";
            }
        }
    }
    EXPECT_GE(files, 20);
    EXPECT_GE(steps, 200);
}

TEST(Plan, WorkloadsRunOnTheGuestsSystemInAGuestElseOnTheHosts) {
    auto s = scenarioWith(R"([[layouts]]
name = "bsd"
kind = "guest"
inner = "md-raid1"
disks = ["ssd-b", "ssd-c"]
[layouts.guest]
hypervisor = "xen"
domain = "freebsd-zfs"
os = "freebsd"
layout = "zfs-stripe"
target = "ssh://root@freebsd-zfs"
)");
    EXPECT_EQ(workloadOs(s, s.layouts[0]), TargetOs::Linux) << "no os said: Linux, as the plans";
    EXPECT_EQ(workloadOs(s, s.layouts[1]), TargetOs::FreeBsd);
    s.host.os = TargetOs::FreeBsd;
    EXPECT_EQ(workloadOs(s, s.layouts[0]), TargetOs::FreeBsd);
    s.layouts[1].guest->os = TargetOs::Linux;
    EXPECT_EQ(workloadOs(s, s.layouts[1]), TargetOs::Linux);
}

} // namespace
} // namespace lb
