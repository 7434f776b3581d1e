// Campaigns that need a kernel this machine lacks, or a virtual machine of their own, run in the
// lab guest (tests/lab-guest, qemu under TCG):
//  - the guest layout: the campaign itself starts qemu with a disk backed by a file on the host,
//    builds ext4 inside, runs a fio preset there and compares it with the same preset on the
//    host: a verdict, with the TCG caveat on every guest run;
//  - md RAID-5 built by the layout engine's own plan on the guest's virtio disks, grown by one
//    member and converted to RAID-6 by the expansion drills, and torn down;
//  - bonnie++ in a guest with too little memory is reported as out of memory.
// Each skips, saying why, when qemu or the guest build is unavailable.
#include "engine/build/plan.h"
#include "engine/campaign/campaign.h"
#include "engine/exec/ssh_runner.h"
#include "engine/scenario/scenario.h"
#include "engine/store/journal.h"
#include "engine/store/store.h"
#include "probes/registry.h"
#include "reports/report_data.h"
#include "tests/cli/process.h"
#include "tests/support/lab_guest.h"
#include "tests/support/ports.h"
#include "tests/support/stored_runs.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using lb::test::hasCaveat;
using lb::test::metricValue;
using lb::test::RunRow;
using lb::test::runRows;
using nlohmann::json;

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string dump(const std::vector<RunRow>& rows) {
    std::string out;
    for (const auto& r : rows)
        out += r.layout + " " + r.workload + " " + r.status + " " + r.reason + "\n";
    return out;
}

class GuestCampaign : public ::testing::Test {
protected:
    void SetUp() override {
        name_ = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        dir_ = "/var/tmp/layoutbench-guest-test-" + name_;
        std::error_code ec;
        fs::remove_all(dir_, ec);
        fs::create_directories(dir_);
        auto store = lb::Store::open(dir_ + "/results.db");
        ASSERT_TRUE(store) << store.error().message;
        store_ = std::make_unique<lb::Store>(std::move(*store));
        t0_ = std::chrono::steady_clock::now();
    }
    void TearDown() override {
        std::printf("[   time   ] %s: %.1f s\n", name_.c_str(),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count());
        store_.reset();
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }

    lb::Scenario scenario(const std::string& toml) {
        const std::string path = dir_ + "/scenario.toml";
        std::ofstream(path) << toml;
        auto s = lb::parseScenario(toml, path, probes_);
        EXPECT_TRUE(s) << s.error().message << "\n" << toml;
        return s ? std::move(*s) : lb::Scenario{};
    }

    // A campaign whose [host] is the lab guest itself.
    static std::string guestHost(const lb::test::LabGuest& guest) {
        return "[host]\ntarget = \"" + guest.sshUrl() + "\"\nidentity = \"" + guest.identity() +
               "\"\nknown_hosts = \"" + guest.knownHosts() + "\"\n";
    }

    std::string name_, dir_;
    std::unique_ptr<lb::Store> store_;
    lb::ProbeRegistry probes_ = lb::standardProbes();
    std::chrono::steady_clock::time_point t0_;
};

// Must show (issue 7): the guest layout against the host, through the campaign's own plan.
TEST_F(GuestCampaign, GuestLayoutAgainstTheHostWithTheTcgCaveat) {
    const std::string cache = lb::test::labGuestCacheDir();
    const auto build = lb::test::runProcess(
        {"bash", std::string(LAYOUTBENCH_SOURCE_DIR) + "/tests/lab-guest/build.sh", cache});
    if (build.exitCode != 0)
        GTEST_SKIP() << "the lab guest cannot be built: " << build.err;
    if (lb::test::runProcess({"sh", "-c", "command -v qemu-system-x86_64"}).exitCode != 0)
        GTEST_SKIP() << "qemu-system-x86_64 is not installed";
    // Keys for the guest the campaign starts: root's login key, and the guest's host key made
    // here so known_hosts can be written before it boots (the guest reads both from fw_cfg).
    for (const char* key : {"user_key", "host_key"})
        ASSERT_EQ(lb::test::runProcess(
                      {"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir_ + "/" + key})
                      .exitCode,
                  0);
    const int port = lb::test::freeLoopbackPort();
    ASSERT_NE(port, 0);
    std::ofstream(dir_ + "/known_hosts")
        << "[127.0.0.1]:" << port << " " << slurp(dir_ + "/host_key.pub");

    const auto s = scenario(R"(name = "guest-vs-host"
iterations = 2
work_dir = ")" + dir_ + R"(/work"

[[disks]]
name = "img"
file = "guest-disk.img"
size = "256M"

[[layouts]]
name = "host"
kind = "dir"
path = ")" + dir_ + R"("
baseline = true

[[layouts]]
name = "vm"
kind = "guest"
disks = ["img"]

[layouts.guest]
kernel = ")" + cache + R"(/vmlinuz"
initrd = ")" + cache + R"(/initrd.gz"
append = "console=ttyS0 panic=1 quiet rootfstype=ramfs"
accel = "tcg"
memory = "512M"
cpus = 1
ssh_port = )" + std::to_string(port) +
                            R"(
identity = ")" + dir_ + R"(/user_key"
known_hosts = ")" + dir_ + R"(/known_hosts"
fw_cfg = ["name=opt/lb/authorized_keys,file=)" +
                            dir_ + R"(/user_key.pub", "name=opt/lb/host_key,file=)" + dir_ +
                            R"(/host_key"]
layout = "ext4"

[[workloads]]
probe = "fio"
preset = "seq-read-1m"
size = "32M"
runtime = 3
)");
    auto local = lb::makeLocalRunner();
    lb::CampaignOptions options;
    options.guestBootTimeout = std::chrono::seconds(180);
    auto result = lb::runCampaign(*store_, s, probes_, *local, options);
    ASSERT_TRUE(result) << result.error().message;
    const auto rows = runRows(*store_, result->campaignId);
    // Two iterations on each layout, one after the other (a VM is built alone), and the host
    // again after the guest: four runs on the host.
    ASSERT_EQ(rows.size(), 6u) << dump(rows);
    for (const auto& r : rows) {
        EXPECT_EQ(r.status, "ok") << r.layout << " " << r.reason << "\n" << r.err;
        if (r.layout == "vm") {
            EXPECT_TRUE(hasCaveat(r, "TCG")) << r.id;
            EXPECT_TRUE(hasCaveat(r, "guest: qemu (tcg, 1 vCPU)")) << r.id;
            EXPECT_TRUE(hasCaveat(r, "swap none")) << r.id;
        } else {
            EXPECT_FALSE(hasCaveat(r, "TCG")) << r.id;
        }
    }
    auto cmp = lb::compareStoredLayouts(*store_, "host", "vm", s.policy(), result->campaignId);
    ASSERT_TRUE(cmp) << cmp.error().message;
    ASSERT_FALSE(cmp->metrics.empty());
    std::printf("  verdict vm (TCG guest) against host: %s\n",
                std::string(lb::verdictName(cmp->verdict)).c_str());
    for (const auto& m : cmp->metrics)
        if (m.name.find(".bw") != std::string::npos)
            std::printf("  %s: host %.0f, guest %.0f bytes/s, ratio %.2f\n", m.name.c_str(),
                        m.baselineMedian, m.candidateMedian, m.ratio);

    // Torn down: qemu stopped (its pid file names no live qemu), the disk file removed, every
    // undo applied, the guest's steps journaled as run in the guest.
    // qemu removes its pid file as it exits; no process named lb-vm is left either.
    EXPECT_FALSE(fs::exists(dir_ + "/work/guest-vm.pid"));
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string cmdline = slurp((entry.path() / "cmdline").string());
        EXPECT_EQ(cmdline.find(std::string("lb-vm\0", 6)), std::string::npos)
            << "still running: " << entry.path();
    }
    EXPECT_FALSE(fs::exists(dir_ + "/work/guest-disk.img"));
    auto steps = lb::Journal(*store_).steps(result->campaignId);
    ASSERT_TRUE(steps);
    int inGuest = 0, qemu = 0;
    for (const auto& step : *steps) {
        if (step.phase != lb::StepPhase::Build)
            continue;
        inGuest += step.runsOn == lb::RunsOn::Guest;
        if (step.argv.front() == "qemu-system-x86_64") {
            ++qemu;
            EXPECT_EQ(step.status, lb::StepStatus::Undone);
        }
        if (step.argv.front() == "mkfs.ext4") {
            EXPECT_EQ(step.runsOn, lb::RunsOn::Guest);
        }
    }
    EXPECT_EQ(qemu, 1);
    EXPECT_EQ(inGuest, 3); // mkfs, mount point, mount
}

// Must show (issue 7): md RAID-5 created, grown by a member and converted to RAID-6 inside the
// lab guest, through the layout engine's own plan and drills, with a read load meanwhile.
TEST_F(GuestCampaign, MdRaid5GrowsAndBecomesRaid6InTheGuest) {
    lb::test::LabGuestOptions o;
    o.memoryMiB = 512;
    o.newDiskBytes = std::vector<std::uint64_t>(5, 64ULL << 20);
    lb::test::LabGuest guest(o);
    if (!guest.available())
        GTEST_SKIP() << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why();

    std::string toml =
        "name = \"md-in-guest\"\niterations = 1\nwork_dir = \"/tmp/lb\"\n" + guestHost(guest);
    for (char c = 'a'; c <= 'e'; ++c)
        toml += std::string("[[disks]]\nname = \"vd") + c + "\"\ndevice = \"/dev/vd" + c + "\"\n";
    toml += R"(
[[layouts]]
name = "tmp"
kind = "dir"
path = "/tmp"
baseline = true

[[layouts]]
name = "r5"
kind = "md-raid5"
disks = ["vda", "vdb", "vdc"]
chunk = "64K"
md_device = "/dev/md0"

# Bounded: a reshape that stalls fails the drill with the array's state rather than waiting
# (the drill itself gives up after 180 s without progress).
[[drills]]
layout = "r5"
action = "md-grow"
disks = ["vdd"]
timeout = 600

[[drills]]
layout = "r5"
action = "md-raid6"
disks = ["vde"]
timeout = 600

[[workloads]]
probe = "fio"
preset = "seq-read-1m"
size = "16M"
runtime = 2
)";
    const auto s = scenario(toml);
    auto runner = lb::makeRunnerFor(guest.sshUrl(), guest.identity(), guest.knownHosts());
    ASSERT_TRUE(runner) << runner.error().message;
    lb::CampaignOptions options;
    for (char c = 'a'; c <= 'e'; ++c)
        options.yesDestroy.push_back(std::string("/dev/vd") + c);
    auto result = lb::runCampaign(*store_, s, probes_, **runner, options);
    ASSERT_TRUE(result) << result.error().message;
    const auto rows = runRows(*store_, result->campaignId);
    EXPECT_EQ(result->status, lb::CampaignStatus::Done) << dump(rows) << guest.consoleLog();

    const RunRow* grow = nullptr;
    const RunRow* raid6 = nullptr;
    for (const auto& r : rows) {
        if (r.workload == "drill:md-grow")
            grow = &r;
        if (r.workload == "drill:md-raid6")
            raid6 = &r;
    }
    ASSERT_TRUE(grow && raid6) << dump(rows);
    ASSERT_EQ(grow->status, "ok") << grow->reason << "\n" << grow->err;
    ASSERT_EQ(raid6->status, "ok") << raid6->reason << "\n" << raid6->err;
    EXPECT_TRUE(hasCaveat(*grow, "md: raid5 of 3 members became raid5 of 4")) << grow->id;
    EXPECT_TRUE(hasCaveat(*raid6, "md: raid5 of 4 members became raid6 of 5")) << raid6->id;
    EXPECT_EQ(metricValue(*store_, grow->id, "drill.md-grow.members"), 4.0);
    EXPECT_EQ(metricValue(*store_, raid6->id, "drill.md-raid6.members"), 5.0);
    EXPECT_EQ(metricValue(*store_, grow->id, "drill.md-grow.read_errors"), 0.0);
    const auto growSeconds = metricValue(*store_, grow->id, "drill.md-grow.seconds");
    const auto raid6Seconds = metricValue(*store_, raid6->id, "drill.md-raid6.seconds");
    ASSERT_TRUE(growSeconds && raid6Seconds);
    EXPECT_GT(*growSeconds, 0.0);
    EXPECT_GT(*raid6Seconds, 0.0);
    // Growing RAID-5 from 3 to 4 members adds a third of its space; RAID-6 of 5 has as much as
    // RAID-5 of 4.
    const auto growth = metricValue(*store_, grow->id, "drill.md-grow.growth");
    ASSERT_TRUE(growth);
    EXPECT_NEAR(*growth, 50.0, 5.0); // 2 data members became 3, ext4 grown online
    EXPECT_NEAR(metricValue(*store_, raid6->id, "drill.md-raid6.growth").value_or(-1), 0.0, 1.0);
    std::printf("  md-grow 3->4: %.2f s; raid5->raid6: %.2f s (TCG)\n", *growSeconds,
                *raid6Seconds);

    // The layout's stored spec has the devices' sizes (from lsblk in the guest), so the report
    // knows its capacity: RAID-5 of three 64 MiB disks keeps one disk's worth for parity.
    auto layouts = store_->layouts();
    ASSERT_TRUE(layouts);
    const auto r5 = std::find_if(layouts->begin(), layouts->end(),
                                 [](const lb::LayoutRecord& l) { return l.name == "r5"; });
    ASSERT_NE(r5, layouts->end());
    EXPECT_EQ(json::parse(r5->spec)["disk_bytes"], json::array({64 << 20, 64 << 20, 64 << 20}));
    const auto capacity = lb::capacityFromSpec(r5->spec, r5->kind);
    ASSERT_TRUE(capacity) << r5->spec;
    EXPECT_EQ(capacity->faultTolerance, 1u);
    EXPECT_GT(capacity->usableBytes, 120ULL << 20);
    EXPECT_LT(capacity->usableBytes, 128ULL << 20);

    // Torn down inside the guest: no array, no md superblock on any disk.
    lb::Command mdstat{"cat", {"/proc/mdstat"}};
    auto stat = (*runner)->run(mdstat);
    ASSERT_TRUE(stat && stat->ok());
    EXPECT_EQ(stat->stdoutText.find("md0"), std::string::npos) << stat->stdoutText;
    for (char c = 'a'; c <= 'e'; ++c) {
        lb::Command examine{"mdadm", {"--examine", std::string("/dev/vd") + c}};
        auto ex = (*runner)->run(examine);
        ASSERT_TRUE(ex);
        EXPECT_NE(ex->exitCode, 0) << "superblock left on /dev/vd" << c << ": " << ex->stdoutText;
    }
}

// Must show (issue 7): bonnie++ in a guest with too little memory is a memory failure. The
// guest's sessions get 48 MiB each (a memory cgroup, no swap) and bonnie++'s data set lives on a
// tmpfs, so it is memory too: the kernel's OOM killer ends bonnie++, the guest lives on, and the
// campaign reads the kernel's line. (The SSH daemon in the lab guest is protected from the OOM
// killer, as Debian protects sshd; sessions are not.)
TEST_F(GuestCampaign, BonnieInAGuestWithTooLittleMemoryIsAMemoryFailure) {
    lb::test::LabGuest guest;
    if (!guest.available())
        GTEST_SKIP() << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why();
    auto runner = lb::makeRunnerFor(guest.sshUrl(), guest.identity(), guest.knownHosts());
    ASSERT_TRUE(runner) << runner.error().message;
    lb::Command limit{"sh",
                      {"-c", "mkdir -p /mnt/ram && mount -t tmpfs -o size=1g tmpfs /mnt/ram && "
                             "echo 48M >/etc/lb/session-memory-max"}};
    auto limited = (*runner)->run(limit);
    ASSERT_TRUE(limited && limited->ok()) << (limited ? limited->stderrText : "");

    const auto s = scenario("name = \"small-guest\"\niterations = 1\nwork_dir = \"/tmp/lb\"\n" +
                            guestHost(guest) + R"(
[[layouts]]
name = "ram"
kind = "dir"
path = "/mnt/ram"
baseline = true

[[workloads]]
probe = "bonnie"
fast = true
size = "256M"
ram = "128M"
files = 0
timeout = 300
)");
    auto result = lb::runCampaign(*store_, s, probes_, **runner, {});
    ASSERT_TRUE(result) << result.error().message;
    const auto rows = runRows(*store_, result->campaignId);
    ASSERT_EQ(rows.size(), 1u) << dump(rows);
    EXPECT_EQ(rows[0].status, "failed");
    lb::Command dmesg{"sh", {"-c", "dmesg | grep -i -A2 -B2 'kill' | tail -n 40"}};
    const auto kernel = (*runner)->run(dmesg);
    const std::string console = guest.consoleLog();
    EXPECT_EQ(rows[0].reason.rfind("out of memory", 0), 0u)
        << rows[0].reason << "\nthe guest's kernel says:\n"
        << (kernel ? kernel->stdoutText + kernel->stderrText : kernel.error().message)
        << "\nconsole:\n"
        << console.substr(console.size() > 4000 ? console.size() - 4000 : 0);
    EXPECT_NE(rows[0].reason.find("(bonnie++)"), std::string::npos) << rows[0].reason;
    std::printf("  reason: %s\n  stderr: %s\n", rows[0].reason.c_str(), rows[0].err.c_str());
}

} // namespace
