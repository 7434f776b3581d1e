// Test fixture support: the lab guest, a small Debian 12 virtual machine under qemu (TCG) that
// runs what this machine's kernel cannot: md RAID, the kernel NFS and iSCSI clients. It builds
// the guest with tests/lab-guest/build.sh (cached), makes throwaway SSH keys with ssh-keygen (the
// guest's host key too, so known_hosts is written before boot), boots qemu with file-backed
// virtio disks and SSH forwarded from a free 127.0.0.1 port, and powers off and stops exactly
// the qemu it started.
#pragma once

#include "engine/exec/ssh_runner.h"
#include "tests/support/qmp.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace lb::test {

struct LabGuestOptions {
    // Small values let a test provoke the OOM killer. The guest's files live in RAM (about
    // 125 MiB); 256 MiB boots with about 65 MiB available, 192 MiB does not boot.
    int memoryMiB = 512;
    int cpus = 1;
    // Disks in guest order: /dev/vda, /dev/vdb, ... First the files named here (kept), then
    // sparse files of these sizes that the fixture makes (and removes).
    std::vector<std::string> diskFiles;
    std::vector<std::uint64_t> newDiskBytes;
    // qemu user networking. Restricted, the guest reaches nothing but what forwards to it (its
    // SSH port). Unrestricted, it also reaches the host's 127.0.0.1 services at 10.0.2.2 (the
    // NFS or iSCSI server a test started) and whatever the host reaches: such a test names
    // 10.0.2.2 only.
    bool restrictNetwork = true;
    std::vector<std::string> netdevOptions; // appended to qemu's -netdev user,...
    std::chrono::seconds bootTimeout{120};
    // The guest with OpenZFS (build.sh --openzfs, built in its own cache folder): spl and zfs
    // loaded at boot, zpool/zfs/zdb, udevd running. The first build on a machine compiles the
    // modules (minutes); later ones find them in the machine's cache.
    bool openzfs = false;
};

class LabGuest {
public:
    explicit LabGuest(LabGuestOptions options = {});
    ~LabGuest();
    LabGuest(const LabGuest&) = delete;
    LabGuest& operator=(const LabGuest&) = delete;

    // available(): qemu and the guest build are there (if not, a test skips, printing why()).
    // running(): the guest booted and answers SSH (if not, why() and consoleLog() say why).
    bool available() const { return available_; }
    bool running() const { return running_; }
    const std::string& why() const { return why_; }

    std::string sshUrl() const; // "ssh://root@127.0.0.1:PORT"
    SshTarget target() const;   // root at 127.0.0.1:PORT with identity() and knownHosts()
    std::string identity() const { return dir_ + "/user_key"; }
    std::string knownHosts() const { return dir_ + "/known_hosts"; }
    int port() const { return port_; }
    std::string consoleLog() const;                                     // the serial console so far
    const std::string& kernelRelease() const { return kernelRelease_; } // e.g. 6.1.0-57-amd64
    const std::string& openzfsVersion() const { return openzfsVersion_; } // e.g. 2.3.2-2~bpo12+2
    const std::vector<std::string>& disks() const { return disks_; }      // host files, vda first
    double bootSeconds() const { return bootSeconds_; } // qemu start to ready marker
    // qemu's QMP monitor: disk i is drive "diskI" on device "dev-diskI" (virtio-blk-pci), so
    // "drive_del disk1" makes every I/O to /dev/vdb fail and "device_del dev-disk1" unplugs it.
    std::string qmpSocket() const;
    QmpReply monitor(const std::string& commandLine) const; // one HMP command line
    double buildSeconds() const { return buildSeconds_; }

    // Powers the guest off (poweroff -f over SSH) and waits for qemu to exit by itself; true if
    // it did. The destructor does this, and stops qemu by its pid if it does not end.
    bool powerOff();

private:
    void start(const LabGuestOptions& options);
    void stopQemu();

    std::string dir_;
    std::string cacheDir_;
    std::string kernelRelease_;
    std::string openzfsVersion_;
    std::vector<std::string> disks_;
    int port_ = 0;
    int pid_ = -1;
    bool available_ = false;
    bool running_ = false;
    double bootSeconds_ = 0;
    double buildSeconds_ = 0;
    std::string why_;
};

// The OpenZFS guest the OpenZfs suites boot: 1 GiB (the ARC and the tools' memory), four minutes
// to boot, `disks` new sparse disks of `diskBytes`.
LabGuestOptions openzfsGuestOptions(std::size_t disks, std::uint64_t diskBytes);

// Where the guest is built: $LAYOUTBENCH_GUEST_CACHE, else the build tree's lab-guest folder;
// the OpenZFS guest in the same path with "-openzfs" appended.
std::string labGuestCacheDir(bool openzfs = false);

} // namespace lb::test
