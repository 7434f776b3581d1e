// Scenario files (TOML): the host, its disks, the candidate layouts (one baseline), the workloads,
// iterations and thresholds. Loading validates everything up front: unknown keys, wrong types and
// out-of-range values are bad input naming FILE:LINE:COLUMN and the field.
#pragma once

#include "engine/analysis.h"
#include "engine/expected.h"
#include "engine/layout.h"
#include "engine/probe.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

struct ScenarioHost {
    std::string target = "local"; // "local" or "ssh://user@host[:port]"
    std::string identity;         // ssh key file
    std::string knownHosts;       // ssh known_hosts file; empty: the user's own
    bool operator==(const ScenarioHost&) const = default;
};

struct ScenarioDisk {
    std::string name;
    std::string device;          // a block device, or
    std::string file;            // a file (made sparse, of sizeBytes) for file-backed layouts
    std::uint64_t sizeBytes = 0; // files only
    bool wipe = false;
    int line = 0;
    bool operator==(const ScenarioDisk&) const = default;
};

// How a guest layout's virtual machine is started and reached (kind = "guest").
struct ScenarioGuest {
    std::string hypervisor = "qemu"; // qemu (started here), libvirt or xen (an existing domain)
    std::string layout = "ext4";     // built inside the guest on the passed disk: ext4, xfs, zfs-*
    std::string target;              // ssh://root@host:port of the guest
    std::string identity;            // ssh key for the guest
    std::string knownHosts;          // known_hosts for the guest
    std::string disk = "/dev/vda";   // the passed disk as the guest names it
    // qemu
    std::string kernel, initrd, append; // direct kernel boot, or
    std::string image;                  // a bootable disk image (then the passed disk is vdb)
    std::string accel = "kvm";          // kvm or tcg (emulation: every result gets a caveat)
    std::uint64_t memoryBytes = 4ULL << 30;
    int cpus = 2;
    std::string cache = "none"; // qemu/libvirt disk cache mode
    std::string aio = "threads";
    int iothreads = 0;
    std::string bus = "virtio";     // virtio (virtio-blk) or scsi (virtio-scsi)
    int sshPort = 0;                // qemu: forward 127.0.0.1:PORT to the guest's port 22
    std::vector<std::string> fwCfg; // qemu: extra -fw_cfg name=…,file=… (keys, config)
    // libvirt / xen
    std::string domain;
    std::string attachAs = "vdb"; // target device name given to attach-disk / block-attach
    bool operator==(const ScenarioGuest&) const = default;
};

struct ScenarioLayout {
    std::string name;
    LayoutKind kind = LayoutKind::Dir;
    bool baseline = false;
    std::vector<std::string> disks; // names of [[disks]]
    std::string path;               // dir: the directory to work in
    std::string pool;               // zfs: pool name (default lb-<name>)
    unsigned ashift = 12;
    std::uint64_t recordsizeBytes = 128 * 1024;
    std::string compression = "off";
    bool atime = false;
    double underprovision = 1.0;
    // md arrays: the layout's own (md-*), or the one its disks are first assembled into (inner,
    // for a ZFS pool on md and for a guest's disk).
    std::optional<LayoutKind> inner; // zfs-stripe and guest: build on this md array
    std::string mdDevice;            // default /dev/md/lb-<name>
    std::uint64_t chunkBytes = 512 * 1024;
    bool bitmap = true;              // internal write-intent bitmap
    bool assumeClean = false;        // skip the initial resync (the report says so)
    std::string filesystem = "ext4"; // md-*: ext4 or xfs, made and mounted
    std::optional<ScenarioGuest> guest;
    int line = 0;
    // The md kind that is built on the host for this layout, if any.
    std::optional<LayoutKind> mdKind() const;
    bool operator==(const ScenarioLayout&) const = default;
};

struct ScenarioWorkload {
    std::string name; // unique; default "<probe>" or "<probe>:<preset>"
    std::string probe;
    OptionValues options;
    int timeoutSeconds = 3600;
    int line = 0;
    bool operator==(const ScenarioWorkload&) const = default;
};

struct Scenario {
    std::string name;
    std::string description;
    std::string path;    // the file it came from ("" for text)
    std::string text;    // the whole file, stored with the campaign
    std::string workDir; // where file vdevs and scratch files go
    int iterations = 3;
    bool dropCaches = true;
    Thresholds thresholds;
    ScenarioHost host;
    std::vector<ScenarioDisk> disks;
    std::vector<ScenarioLayout> layouts;
    std::vector<ScenarioWorkload> workloads;

    const ScenarioLayout& baseline() const; // exactly one is marked
    const ScenarioDisk* disk(std::string_view diskName) const;
};

// `path` names the file in messages and anchors relative paths (work_dir, job files, disks).
Expected<Scenario> parseScenario(std::string_view text, const std::string& path,
                                 const ProbeRegistry& probes);
Expected<Scenario> loadScenario(const std::string& path, const ProbeRegistry& probes);

} // namespace lb
