// The lab guest: a Debian 12 kernel and initramfs booted under qemu (TCG) and driven over SSH
// through the engine's SSH runner, as campaigns will drive it. It runs what this machine's kernel
// cannot: md RAID 5 created and grown on virtio disks, the kernel NFS and iSCSI clients, which
// reach servers on the host at 10.0.2.2; and the tools a campaign needs: fio, bonnie++, xz.
#include "engine/exec/ssh_runner.h"
#include "probes/fio_json.h"
#include "tests/support/lab_guest.h"

#include <algorithm>
#include <arpa/inet.h>
#include <atomic>
#include <gtest/gtest.h>
#include <iostream>
#include <netinet/in.h>
#include <poll.h>
#include <regex>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace {

using lb::test::LabGuest;
using lb::test::LabGuestOptions;
using namespace std::chrono_literals;

constexpr std::uint64_t MiB = 1024 * 1024;

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

// Runs a command in the guest through the runner a scenario's [host] would get.
lb::ProcessResult run(const LabGuest& guest, lb::Command cmd,
                      std::chrono::seconds timeout = std::chrono::seconds(60)) {
    auto runner = lb::makeRunnerFor(guest.sshUrl(), guest.identity(), guest.knownHosts());
    EXPECT_TRUE(runner) << runner.error().message;
    if (!runner)
        return {};
    cmd.timeout = timeout;
    auto result = (*runner)->run(cmd);
    EXPECT_TRUE(result) << cmd.toUserOutput() << ": " << result.error().message;
    return result ? *result : lb::ProcessResult{};
}

std::string lastLine(const std::string& text) {
    const auto t = trimmed(text);
    const auto at = t.rfind('\n');
    return at == std::string::npos ? t : t.substr(at + 1);
}

lb::ProcessResult shell(const LabGuest& guest, const std::string& script,
                        std::chrono::seconds timeout = std::chrono::seconds(60)) {
    return run(guest, lb::Command{"sh", {"-c", script}}, timeout);
}

// A TCP server on the host's 127.0.0.1 that greets each client it accepts, for a while.
class HostGreeter {
public:
    HostGreeter() {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
            ::listen(fd_, 4) != 0 ||
            ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
            return;
        port_ = ntohs(addr.sin_port);
        server_ = std::thread([this] {
            while (!stop_) {
                pollfd p{fd_, POLLIN, 0};
                if (::poll(&p, 1, 100) != 1)
                    continue;
                const int client = ::accept(fd_, nullptr, nullptr);
                if (client < 0)
                    continue;
                ++accepted_;
                const std::string hello = "hello from the host\n";
                (void)!::write(client, hello.data(), hello.size());
                ::close(client);
            }
        });
    }
    ~HostGreeter() {
        stop_ = true;
        if (server_.joinable())
            server_.join();
        if (fd_ >= 0)
            ::close(fd_);
    }
    HostGreeter(const HostGreeter&) = delete;
    HostGreeter& operator=(const HostGreeter&) = delete;
    int port() const { return port_; }
    int accepted() const { return accepted_; }

private:
    int fd_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::atomic<int> accepted_{0};
    std::thread server_;
};

#define BOOT_OR_SKIP(guest)                                                                        \
    if (!(guest).available())                                                                      \
        GTEST_SKIP() << "no lab guest: " << (guest).why();                                         \
    ASSERT_TRUE((guest).running()) << (guest).why();                                               \
    std::cout << "[ guest    ] booted in " << (guest).bootSeconds() << " s (build check "          \
              << (guest).buildSeconds() << " s), " << (guest).sshUrl() << "\n"

} // namespace

TEST(LabGuest, BootsAndRunsCommandsThroughTheSshRunner) {
    LabGuestOptions options;
    options.memoryMiB = 256; // the least that boots: what a test that wants an OOM uses
    LabGuest guest(options);
    BOOT_OR_SKIP(guest);
    EXPECT_EQ(guest.sshUrl(), "ssh://root@127.0.0.1:" + std::to_string(guest.port()));
    ASSERT_FALSE(guest.kernelRelease().empty());

    const auto uname = run(guest, {"uname", {"-r"}});
    EXPECT_EQ(uname.exitCode, 0) << uname.stderrText;
    EXPECT_EQ(trimmed(uname.stdoutText), guest.kernelRelease());

    // Every word arrives as it was sent through the guest's shell, and none of it runs.
    const std::string hostile = "it's \"quoted\" $(touch /tmp/pwned) ; `touch /tmp/pwned` *";
    const auto echoed = run(guest, {"printf", {"%s", hostile}});
    EXPECT_EQ(echoed.stdoutText, hostile);
    lb::Command withEnv{"sh", {"-c", "printf '%s|%s' \"$LB_VALUE\" \"$(pwd)\""}};
    withEnv.env = {{"LB_VALUE", "a b $HOME"}};
    withEnv.cwd = "/tmp";
    EXPECT_EQ(run(guest, withEnv).stdoutText, "a b $HOME|/tmp");
    EXPECT_EQ(trimmed(shell(guest, "test -e /tmp/pwned && echo pwned || echo clean").stdoutText),
              "clean");

    // A run that times out is stopped in the guest too (the runner's remote pid and kill).
    lb::Command sleeper{"sleep", {"1234"}};
    const auto stopped = run(guest, sleeper, std::chrono::seconds(2));
    EXPECT_TRUE(stopped.timedOut);
    const auto left = shell(guest, "ps | grep -c '[s]leep 1234' || true");
    EXPECT_EQ(trimmed(left.stdoutText), "0");

    // What campaigns use: dropping caches, /proc/mdstat, dmesg; the memory the test asked for.
    const auto proc = shell(guest, "sync && echo 3 > /proc/sys/vm/drop_caches && "
                                   "cat /proc/mdstat && dmesg | grep -c . && "
                                   "sed -n 's/^MemTotal: *\\([0-9]*\\) kB/\\1/p' /proc/meminfo");
    ASSERT_EQ(proc.exitCode, 0) << proc.stderrText;
    EXPECT_NE(proc.stdoutText.find("Personalities : "), std::string::npos) << proc.stdoutText;
    const auto memTotalKiB = std::stol(lastLine(proc.stdoutText));
    EXPECT_GT(memTotalKiB, 160 * 1024);
    EXPECT_LE(memTotalKiB, 256 * 1024);

    // Restricted networking (the default): the host's 127.0.0.1 is out of the guest's reach.
    HostGreeter greeter;
    ASSERT_NE(greeter.port(), 0);
    const auto reach =
        shell(guest, "nc -w 3 10.0.2.2 " + std::to_string(greeter.port()) + " </dev/null");
    EXPECT_EQ(reach.stdoutText.find("hello"), std::string::npos) << reach.stdoutText;
    EXPECT_EQ(greeter.accepted(), 0);

    EXPECT_TRUE(guest.powerOff()) << "qemu did not end by itself after poweroff -f";
}

TEST(LabGuest, CreatesAndGrowsAnMdRaid5) {
    LabGuestOptions options;
    options.newDiskBytes = {64 * MiB, 64 * MiB, 64 * MiB, 64 * MiB};
    LabGuest guest(options);
    BOOT_OR_SKIP(guest);

    const auto create = run(guest, {"mdadm",
                                    {"--create", "/dev/md0", "--run", "--level=5",
                                     "--raid-devices=3", "/dev/vda", "/dev/vdb", "/dev/vdc"}});
    ASSERT_EQ(create.exitCode, 0) << create.stderrText;
    // mdadm --wait exits 1 when there was nothing (left) to wait for.
    const auto built = shell(guest, "mdadm --wait /dev/md0; cat /proc/mdstat", 120s);
    EXPECT_NE(built.stdoutText.find("md0 : active raid5"), std::string::npos) << built.stdoutText;
    EXPECT_NE(built.stdoutText.find("[3/3] [UUU]"), std::string::npos) << built.stdoutText;

    const auto written = shell(guest, "mkfs.ext4 -q /dev/md0 && mkdir -p /mnt/md && "
                                      "mount /dev/md0 /mnt/md && "
                                      "head -c 8388608 /dev/urandom > /mnt/md/data && sync && "
                                      "sha256sum /mnt/md/data");
    ASSERT_EQ(written.exitCode, 0) << written.stderrText;
    const auto checksum = written.stdoutText.substr(0, 64);

    const auto add = run(guest, {"mdadm", {"--add", "/dev/md0", "/dev/vdd"}});
    ASSERT_EQ(add.exitCode, 0) << add.stderrText;
    const auto grow = run(guest, {"mdadm", {"--grow", "/dev/md0", "--raid-devices=4"}});
    ASSERT_EQ(grow.exitCode, 0) << grow.stderrText;
    const auto grown = shell(guest,
                             "mdadm --wait /dev/md0; cat /proc/mdstat; mdadm --detail /dev/md0; "
                             "echo 3 > /proc/sys/vm/drop_caches; sha256sum /mnt/md/data",
                             120s);
    ASSERT_EQ(grown.exitCode, 0) << grown.stderrText;
    const auto& out = grown.stdoutText;
    EXPECT_NE(out.find("[4/4] [UUUU]"), std::string::npos) << out;
    EXPECT_NE(out.find("vdd["), std::string::npos) << out;
    EXPECT_TRUE(std::regex_search(out, std::regex(R"(Raid Devices : 4\n)"))) << out;
    // Three data disks' worth of 64 MiB members (less md's metadata), no longer two.
    std::smatch size;
    ASSERT_TRUE(std::regex_search(out, size, std::regex(R"(Array Size : (\d+) )"))) << out;
    EXPECT_GT(std::stol(size[1]), 2 * 64 * 1024);
    EXPECT_NE(out.find(checksum + "  /mnt/md/data"), std::string::npos)
        << "the file written before the grow reads back differently:\n"
        << out;
}

TEST(LabGuest, RunsFioBonnieAndXz) {
    LabGuestOptions options;
    options.newDiskBytes = {64 * MiB};
    LabGuest guest(options);
    BOOT_OR_SKIP(guest);
    const auto mounted = shell(guest, "mkfs.ext4 -q /dev/vda && mount /dev/vda /mnt");
    ASSERT_EQ(mounted.exitCode, 0) << mounted.stderrText;

    const auto fio =
        run(guest, {"fio",
                    {"--name=t", "--filename=/mnt/f", "--size=16M", "--rw=randread", "--bs=4k",
                     "--runtime=3", "--time_based", "--output-format=json"}});
    ASSERT_EQ(fio.exitCode, 0) << fio.stderrText;
    const auto parsed = lb::fio::parseJson(fio.stdoutText, fio.stderrText);
    ASSERT_TRUE(parsed) << parsed.error().message << "\n" << fio.stdoutText;
    EXPECT_FALSE(parsed->failed) << parsed->failureReason;
    EXPECT_EQ(parsed->toolVersion, "fio-3.33");
    const auto iops = std::find_if(parsed->metrics.begin(), parsed->metrics.end(),
                                   [](const lb::Metric& m) { return m.name == "fio.t.read.iops"; });
    ASSERT_NE(iops, parsed->metrics.end());
    EXPECT_GT(iops->value, 0);

    const auto bonnie = run(
        guest,
        {"bonnie++", {"-u", "root", "-d", "/mnt", "-s", "0", "-n", "1", "-q", "-m", "lab-guest"}},
        120s);
    ASSERT_EQ(bonnie.exitCode, 0) << bonnie.stderrText;
    EXPECT_NE(bonnie.stdoutText.find(",lab-guest,"), std::string::npos) << bonnie.stdoutText;

    const auto xz = shell(guest, "head -c 1048576 /dev/urandom > /tmp/x && sha256sum < /tmp/x && "
                                 "xz -T1 -3 /tmp/x && xz -d /tmp/x.xz && sha256sum < /tmp/x && "
                                 "xz --version");
    ASSERT_EQ(xz.exitCode, 0) << xz.stderrText;
    const auto sums = xz.stdoutText;
    EXPECT_EQ(sums.substr(0, 64), sums.substr(sums.find('\n') + 1, 64)) << sums;
    EXPECT_NE(sums.find("xz (XZ Utils) 5."), std::string::npos) << sums;
}

TEST(LabGuest, LoadsTheKernelNfsAndIscsiClientsAndReachesHostServers) {
    LabGuestOptions options;
    options.restrictNetwork = false;
    LabGuest guest(options);
    BOOT_OR_SKIP(guest);
    // Unrestricted, a server on the host's 127.0.0.1 (an NFS or iSCSI target) is at 10.0.2.2.
    HostGreeter greeter;
    ASSERT_NE(greeter.port(), 0);
    const auto reach =
        shell(guest, "nc -w 10 10.0.2.2 " + std::to_string(greeter.port()) + " </dev/null");
    EXPECT_EQ(reach.stdoutText, "hello from the host\n") << reach.stderrText;
    EXPECT_EQ(greeter.accepted(), 1);

    const auto loaded = shell(guest, "modprobe nfs && modprobe nfsv3 && modprobe nfsv4 && "
                                     "modprobe iscsi_tcp && lsmod");
    ASSERT_EQ(loaded.exitCode, 0) << loaded.stderrText;
    for (const char* module :
         {"nfs", "nfsv3", "nfsv4", "sunrpc", "iscsi_tcp", "libiscsi", "scsi_transport_iscsi"})
        EXPECT_TRUE(
            std::regex_search(loaded.stdoutText, std::regex("(^|\n)" + std::string(module) + " ")))
            << module << " is not loaded:\n"
            << loaded.stdoutText;

    const auto iscsiadm = run(guest, {"iscsiadm", {"--version"}});
    EXPECT_EQ(iscsiadm.exitCode, 0) << iscsiadm.stderrText;
    EXPECT_NE(iscsiadm.stdoutText.find("iscsiadm version 2."), std::string::npos)
        << iscsiadm.stdoutText;
    const auto iscsid = run(guest, {"iscsid", {"--version"}});
    EXPECT_EQ(iscsid.exitCode, 0) << iscsid.stderrText;
    const auto mountNfs = run(guest, {"mount.nfs", {"-V"}});
    EXPECT_EQ(mountNfs.exitCode, 0) << mountNfs.stderrText;
    EXPECT_NE((mountNfs.stdoutText + mountNfs.stderrText).find("nfs-utils 2."), std::string::npos)
        << mountNfs.stdoutText << mountNfs.stderrText;
    const auto dmesg = run(guest, {"dmesg", {}});
    EXPECT_NE(dmesg.stdoutText.find("iscsi: registered transport (tcp)"), std::string::npos)
        << dmesg.stdoutText;
}
