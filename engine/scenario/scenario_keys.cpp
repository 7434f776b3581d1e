// The option tables of a scenario's TOML tables (see scenario_keys.h).
#include "engine/scenario/scenario_keys.h"

#include "engine/base/size.h"
#include "engine/scenario/scenario.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cstdlib>

namespace lb {

namespace {

using T = OptionType;

template <typename E> std::vector<std::string> choicesOf() {
    std::vector<std::string> out;
    for (const auto& [value, name] : EnumNames<E>::table)
        out.emplace_back(name);
    return out;
}

std::vector<std::string> kindChoices(bool mdKindsOnly) {
    std::vector<std::string> out;
    for (const LayoutKind k : allLayoutKinds())
        if (!mdKindsOnly || isMd(k))
            out.emplace_back(layoutKindName(k));
    return out;
}

const std::vector<OptionSpec> topKeys{
    {.name = "name",
     .label = "Name",
     .help = "The scenario's name: letters, digits, '-', '_' and '.'",
     .required = true},
    {.name = "description", .label = "Description", .help = "What the scenario compares"},
    {.name = "iterations",
     .label = "Iterations",
     .type = T::Int,
     .help = "Runs of each workload on each layout; or \"auto\" with min_iterations and "
             "max_iterations, written in the text",
     .min = 1,
     .max = 1000,
     .defaultValue = "3"},
    {.name = "min_iterations",
     .label = "Minimum iterations",
     .type = T::Int,
     .help = "iterations = \"auto\": runs before the first check",
     .min = 1,
     .max = 1000,
     .defaultValue = "3"},
    {.name = "max_iterations",
     .label = "Maximum iterations",
     .type = T::Int,
     .help = "iterations = \"auto\": at most this many runs",
     .min = 1,
     .max = 1000,
     .defaultValue = "10"},
    {.name = "until",
     .label = "Until",
     .help = "iterations = \"auto\": also run while a layout's runs spread more, e.g. \"cv<3%\""},
    {.name = "bracket",
     .label = "Bracket",
     .type = T::Bool,
     .help = "Run the baseline again after the candidates to measure drift; unset: where it "
             "destroys nothing"},
    {.name = "interleave",
     .label = "Interleave",
     .type = T::Bool,
     .help = "Run the layouts' iterations in turn where they can coexist; unset: the campaign "
             "decides"},
    {.name = "work_dir",
     .label = "Work directory",
     .type = T::Path,
     .help = "Where file vdevs and scratch files go; default /var/tmp/layoutbench/NAME"},
    {.name = "drop_caches",
     .label = "Drop caches",
     .type = T::Bool,
     .help = "Drop the page cache before each run",
     .defaultValue = "true"},
    {.name = "cache",
     .label = "Cache",
     .type = T::Choice,
     .help = "cold: every run starts from disk; warm: neither the page cache nor the ARC is "
             "emptied, and the report says so",
     .defaultValue = "cold",
     .choices = {"cold", "warm"}},
    {.name = "io",
     .label = "I/O path",
     .type = T::Choice,
     .help = "auto: direct I/O where every layout takes O_DIRECT, else buffered on all",
     .defaultValue = "auto",
     .choices = {"auto", "direct", "buffered"}},
};

const std::vector<OptionSpec> hostKeys{
    {.name = "target",
     .label = "Target",
     .help = "\"local\" or ssh://[user@]host[:port]",
     .defaultValue = "local"},
    {.name = "identity", .label = "SSH key", .type = T::Path, .help = "The ssh key file"},
    {.name = "known_hosts",
     .label = "Known hosts",
     .type = T::Path,
     .help = "An ssh known_hosts file; default the user's own"},
    {.name = "os",
     .label = "Operating system",
     .type = T::Choice,
     .help = "What the target runs; auto: a campaign asks it (uname -s), plan assumes linux",
     .defaultValue = "auto",
     .choices = {"auto", "linux", "freebsd"}},
};

const std::vector<OptionSpec> thresholdKeys{
    {.name = "viable",
     .label = "Viable up to ×",
     .type = T::Number,
     .help = "A cost ratio at or below this is viable",
     .defaultValue = "1.10"},
    {.name = "not_viable",
     .label = "Not viable from ×",
     .type = T::Number,
     .help = "A cost ratio at or above this is not viable",
     .defaultValue = "2.0"},
};

const std::vector<OptionSpec> decideKeys{
    {.name = "metrics",
     .label = "Deciding metrics",
     .type = T::List,
     .help = "Metric names or patterns that decide a layout's verdict, e.g. fio.*.read.bw",
     .required = true},
};

const std::vector<OptionSpec> diskKeys{
    {.name = "name",
     .label = "Name",
     .help = "How layouts name the disk: letters, digits, '-', '_' and '.'",
     .required = true},
    {.name = "device",
     .label = "Device",
     .type = T::Path,
     .help = "A block device under /dev/ (give a device or a file)"},
    {.name = "file",
     .label = "File",
     .type = T::Path,
     .help = "A sparse file of the given size, relative to the work directory"},
    {.name = "size",
     .label = "Size",
     .type = T::Size,
     .help = "A file disk's size, e.g. \"512MiB\" (500G = 500·10⁹ bytes)"},
    {.name = "wipe",
     .label = "Wipe",
     .type = T::Bool,
     .help = "The device may carry a label, partition table or file system to destroy",
     .defaultValue = "false"},
};

// Which layout kinds a [[layouts]] key applies to.
bool anyKind(LayoutKind) {
    return true;
}
bool dirOnly(LayoutKind k) {
    return k == LayoutKind::Dir;
}
bool onDisks(LayoutKind k) {
    return k != LayoutKind::Dir;
}
bool poolKind(LayoutKind k) {
    return isZfs(k) || k == LayoutKind::Guest; // a guest may build a pool inside
}
bool multiVdevKind(LayoutKind k) {
    return k == LayoutKind::ZfsMirror || isRaidz(k) || isDraid(k);
}
bool draidKind(LayoutKind k) {
    return isDraid(k);
}
bool onInnerMd(LayoutKind k) {
    return k == LayoutKind::ZfsStripe || k == LayoutKind::Guest;
}
bool mdArray(LayoutKind k) {
    return isMd(k) || onInnerMd(k);
}
bool mdOnly(LayoutKind k) {
    return isMd(k);
}

struct LayoutKey {
    OptionSpec spec;
    bool (*appliesTo)(LayoutKind);
};

const std::vector<LayoutKey>& layoutTable() {
    static const std::vector<LayoutKey> table{
        {{.name = "name",
          .label = "Name",
          .help = "The layout's name: letters, digits, '-', '_' and '.'",
          .required = true},
         anyKind},
        {{.name = "kind",
          .label = "Kind",
          .type = T::Choice,
          .help = "What is built of the disks",
          .choices = kindChoices(false),
          .required = true},
         anyKind},
        {{.name = "baseline",
          .label = "Baseline",
          .type = T::Bool,
          .help = "The layout the others are compared against (exactly one)",
          .defaultValue = "false"},
         anyKind},
        {{.name = "path",
          .label = "Directory",
          .type = T::Path,
          .help = "The existing directory a dir layout works in",
          .required = true},
         dirOnly},
        {{.name = "disks",
          .label = "Disks",
          .type = T::List,
          .help = "Names of [[disks]], comma-separated"},
         onDisks},
        {{.name = "inner",
          .label = "Inner md array",
          .type = T::Choice,
          .help = "Build the pool (zfs-stripe) or the guest's disk on an md array of this kind",
          .choices = kindChoices(true)},
         onInnerMd},
        {{.name = "pool", .label = "Pool", .help = "The ZFS pool's name; default lb-NAME"},
         poolKind},
        {{.name = "ashift",
          .label = "ashift",
          .type = T::Int,
          .help = "Sector size as a power of two (12: 4 KiB)",
          .min = 9,
          .max = 16,
          .defaultValue = "12"},
         poolKind},
        {{.name = "vdevs",
          .label = "vdevs",
          .type = T::Int,
          .help = "Split the disks, in order, into this many top-level vdevs of equal width",
          .min = 1,
          .max = 1024,
          .defaultValue = "1"},
         multiVdevKind},
        {{.name = "draid_data",
          .label = "dRAID data disks",
          .type = T::Int,
          .help = "Data disks per dRAID redundancy group; 0: zpool's default (8, or fewer "
                  "if the disks are fewer)",
          .min = 0,
          .max = 255,
          .defaultValue = "0"},
         draidKind},
        {{.name = "draid_spares",
          .label = "dRAID spares",
          .type = T::Int,
          .help = "Distributed spares of each dRAID vdev",
          .min = 0,
          .max = 100,
          .defaultValue = "0"},
         draidKind},
        {{.name = "recordsize",
          .label = "Record size",
          .type = T::Size,
          .help = "ZFS recordsize: a power of two from 512 to 16M",
          .min = 512,
          .max = 16 << 20,
          .defaultValue = "128K"},
         poolKind},
        {{.name = "compression",
          .label = "Compression",
          .help = "ZFS compression: off, lz4, zstd, gzip, ...",
          .defaultValue = "off"},
         poolKind},
        {{.name = "atime",
          .label = "atime",
          .type = T::Bool,
          .help = "Update access times",
          .defaultValue = "false"},
         poolKind},
        {{.name = "autotrim",
          .label = "autotrim",
          .type = T::Bool,
          .help = "ZFS: TRIM freed space as it goes (the pool's autotrim property)",
          .defaultValue = "false"},
         poolKind},
        {{.name = "md_device",
          .label = "md device",
          .type = T::Path,
          .help = "/dev/mdN or /dev/md/NAME; default /dev/md/lb-NAME"},
         mdArray},
        {{.name = "chunk",
          .label = "Chunk",
          .type = T::Size,
          .help = "md chunk size: a power of two of at least 4K",
          .min = 4096,
          .defaultValue = "512K"},
         mdArray},
        {{.name = "bitmap",
          .label = "Bitmap",
          .type = T::Choice,
          .help = "md write-intent bitmap",
          .defaultValue = "internal",
          .choices = {"internal", "none"}},
         mdArray},
        {{.name = "assume_clean",
          .label = "Assume clean",
          .type = T::Bool,
          .help = "Skip the initial resync (the report says so)",
          .defaultValue = "false"},
         mdArray},
        {{.name = "filesystem",
          .label = "File system",
          .type = T::Choice,
          .help = "Made on the md array and mounted",
          .defaultValue = "ext4",
          .choices = {"ext4", "xfs"}},
         mdOnly},
        {{.name = "underprovision",
          .label = "Underprovision",
          .type = T::Number,
          .help = "Fraction of each SSD partitioned and used, in (0, 1]: 0.8 leaves 20 % to the "
                  "drive",
          .defaultValue = "1.0"},
         onDisks},
        {{.name = "precondition",
          .label = "Precondition",
          .type = T::Choice,
          .help = "snia: SSD preconditioning and steady-state rounds for each workload that can",
          .defaultValue = "none",
          .choices = {"none", "snia"}},
         anyKind},
        {{.name = "precondition_size",
          .label = "Precondition size",
          .type = T::Size,
          .help = "What to write, twice; default 90 % of the space free (a dir layout needs it)",
          .min = 128 * 1024},
         anyKind},
    };
    return table;
}

const std::vector<OptionSpec>& layoutKeyList() {
    static const std::vector<OptionSpec> keys = [] {
        std::vector<OptionSpec> out;
        for (const auto& k : layoutTable())
            out.push_back(k.spec);
        return out;
    }();
    return keys;
}

const std::vector<OptionSpec> guestKeys{
    {.name = "hypervisor",
     .label = "Hypervisor",
     .type = T::Choice,
     .help = "qemu: started by layoutbench; libvirt or xen: the disk is attached to an existing "
             "domain; bhyve (a FreeBSD host): started by layoutbench with the disk attached",
     .defaultValue = "qemu",
     .choices = choicesOf<Hypervisor>()},
    {.name = "layout",
     .label = "Layout inside",
     .type = T::Choice,
     .help = "Built inside the guest on the passed disk",
     .defaultValue = "ext4",
     .choices = {"ext4", "xfs", "zfs-stripe"}},
    {.name = "target",
     .label = "Target",
     .help = "ssh://root@GUEST[:port]; default ssh://root@127.0.0.1:SSH_PORT with ssh_port"},
    {.name = "ssh_port",
     .label = "SSH port",
     .type = T::Int,
     .help = "qemu: forward 127.0.0.1:PORT to the guest's port 22 (0: none)",
     .min = 0,
     .max = 65535,
     .defaultValue = "0"},
    {.name = "identity", .label = "SSH key", .type = T::Path, .help = "The ssh key for the guest"},
    {.name = "known_hosts",
     .label = "Known hosts",
     .type = T::Path,
     .help = "A known_hosts file for the guest"},
    {.name = "os",
     .label = "Guest OS",
     .type = T::Choice,
     .help = "What the guest runs; its plan (device names, partitioning, tools) is written for it",
     .defaultValue = "linux",
     .choices = {"linux", "freebsd"}},
    {.name = "disk",
     .label = "Disk in the guest",
     .type = T::Path,
     .help = "The passed disk as the guest names it; default /dev/vda (/dev/vdb after an image)"},
    {.name = "kernel",
     .label = "Kernel",
     .type = T::Path,
     .help = "qemu: a kernel to boot directly (or give image)"},
    {.name = "initrd", .label = "initrd", .type = T::Path, .help = "qemu: the kernel's initrd"},
    {.name = "append",
     .label = "Kernel command line",
     .help = "qemu: the kernel's command line",
     .defaultValue = "console=ttyS0"},
    {.name = "image",
     .label = "Image",
     .type = T::Path,
     .help = "qemu: a bootable disk image (then the passed disk is vdb); bhyve: the guest's boot "
             "disk"},
    {.name = "firmware",
     .label = "UEFI firmware",
     .type = T::Path,
     .help = "bhyve: UEFI firmware that boots the image (BHYVE_UEFI.fd); without it bhyveload "
             "loads a FreeBSD guest's kernel"},
    {.name = "tap",
     .label = "Network (tap)",
     .help = "bhyve: the tap interface of the guest's network, made and bridged beforehand; "
             "default tap0"},
    {.name = "accel",
     .label = "Acceleration",
     .type = T::Choice,
     .help = "kvm, tcg (emulation: every result gets a caveat), or auto",
     .defaultValue = "auto",
     .choices = {"auto", "kvm", "tcg"}},
    {.name = "memory",
     .label = "Memory",
     .type = T::Size,
     .help = "The guest's memory, at least 64M",
     .min = 64 << 20,
     .defaultValue = "4G"},
    {.name = "cpus",
     .label = "CPUs",
     .type = T::Int,
     .help = "Virtual processors",
     .min = 1,
     .max = 1024,
     .defaultValue = "2"},
    {.name = "cache",
     .label = "Disk cache",
     .type = T::Choice,
     .help = "The disk's cache mode",
     .defaultValue = "none",
     .choices = {"none", "writeback", "writethrough", "directsync", "unsafe"}},
    {.name = "aio",
     .label = "AIO",
     .type = T::Choice,
     .help = "The disk's I/O mode",
     .defaultValue = "threads",
     .choices = {"threads", "native", "io_uring"}},
    {.name = "iothreads",
     .label = "I/O threads",
     .type = T::Int,
     .help = "Dedicated I/O threads (0: none)",
     .min = 0,
     .max = 64,
     .defaultValue = "0"},
    {.name = "bus",
     .label = "Bus",
     .type = T::Choice,
     .help = "virtio (virtio-blk) or scsi (virtio-scsi)",
     .defaultValue = "virtio",
     .choices = {"virtio", "scsi"}},
    {.name = "fw_cfg",
     .label = "fw_cfg",
     .type = T::List,
     .help = "qemu: extra -fw_cfg name=…,file=… (keys, configuration)"},
    {.name = "domain",
     .label = "Domain",
     .help = "libvirt, xen: the existing domain the disk is attached to"},
    {.name = "attach_as",
     .label = "Attach as",
     .help = "libvirt, xen: the target device name; default vdb (xen: xvdb)"},
};

const std::vector<OptionSpec> exportCommonKeys{
    {.name = "iscsi",
     .label = "iSCSI target",
     .type = T::Choice,
     .help = "Serve a LUN over iSCSI with tgt or LIO",
     .choices = choicesOf<IscsiTarget>()},
    {.name = "nfs",
     .label = "NFS server",
     .type = T::Choice,
     .help = "Export over NFS with the kernel's server or nfs-ganesha",
     .choices = choicesOf<NfsServer>()},
    {.name = "address",
     .label = "Address",
     .help = "Where clients reach the export; default the host's (or guest's) address"},
};

const std::vector<OptionSpec> exportIscsiKeys{
    {.name = "lun",
     .label = "LUN",
     .type = T::Choice,
     .help = "file: a file on the layout; zvol: a ZFS volume; device: an md array itself",
     .defaultValue = "file",
     .choices = {"file", "zvol", "device"}},
    {.name = "lun_size",
     .label = "LUN size",
     .type = T::Size,
     .help = "A file or zvol LUN's size: at least 1M, a multiple of 4K",
     .min = 1 << 20,
     .defaultValue = "1G"},
    {.name = "volblocksize",
     .label = "zvol block size",
     .type = T::Size,
     .help = "A zvol LUN's block size (zfs create -b): a power of two from 4K to 128K",
     .min = 4096,
     .defaultValue = "16K"},
    {.name = "iqn",
     .label = "IQN",
     .help = "iqn.YYYY-MM.reversed.domain:name; default iqn.2026-11.org.layoutbench:LAYOUT"},
    {.name = "tid",
     .label = "Target id",
     .type = T::Int,
     .help = "tgt's target number",
     .min = 1,
     .max = 65535,
     .defaultValue = "1"},
    {.name = "lun_number",
     .label = "LUN number",
     .type = T::Int,
     .help = "The LUN's number (tgt keeps 0 for its controller)",
     .min = 0,
     .max = 255,
     .defaultValue = "1"},
    {.name = "portal_port",
     .label = "Portal port",
     .type = T::Int,
     .help = "The iSCSI portal's TCP port",
     .min = 1,
     .max = 65535,
     .defaultValue = "3260"},
    {.name = "tgt_control_port",
     .label = "tgt control port",
     .type = T::Int,
     .help = "tgtd's control port (0: its default)",
     .min = 0,
     .max = 65535,
     .defaultValue = "0"},
    {.name = "chap_user", .label = "CHAP user", .help = "CHAP account; needs a password"},
    {.name = "chap_password",
     .label = "CHAP password",
     .help = "At least 12 characters; stored masked with a campaign"},
    {.name = "chap_password_file",
     .label = "CHAP password file",
     .type = T::Path,
     .help = "A file whose first line is the CHAP secret (instead of chap_password)"},
    {.name = "initiators",
     .label = "Initiators",
     .type = T::List,
     .help = "tgt: initiator addresses; lio: initiator IQNs; or ALL",
     .defaultValue = "ALL"},
};

const std::vector<OptionSpec> exportNfsKeys{
    {.name = "nfs_options",
     .label = "Export options",
     .type = T::List,
     .help = "rw, ro, sync, async, root_squash, no_root_squash, ...; default rw, sync, "
             "no_root_squash (ganesha: rw, no_root_squash)"},
    {.name = "nfs_versions",
     .label = "NFS versions",
     .type = T::IntList,
     .help = "3, 4 or both",
     .defaultValue = "3, 4"},
    {.name = "nfs_clients",
     .label = "NFS clients",
     .type = T::List,
     .help = "Hosts, networks or wildcards allowed to mount",
     .defaultValue = "*"},
};

const std::vector<OptionSpec> workloadCommonKeys{
    {.name = "probe",
     .label = "Probe",
     .type = T::Choice,
     .help = "The tool that runs the workload",
     .required = true},
    {.name = "name",
     .label = "Name",
     .help = "Unique; default PROBE or PROBE:PRESET (PROBE:JOB for a job file)"},
    {.name = "timeout",
     .label = "Timeout (s)",
     .type = T::Int,
     .help = "A run that takes longer is stopped",
     .min = 1,
     .max = 7 * 24 * 3600,
     .defaultValue = "3600"},
    {.name = "clients",
     .label = "Clients",
     .type = T::List,
     .help = "[[clients]] names it runs on, or all; none: the layout's host"},
    {.name = "precondition",
     .label = "Precondition",
     .type = T::Choice,
     .help = "snia: SSD preconditioning, then steady-state rounds (fio presets)",
     .defaultValue = "none",
     .choices = {"none", "snia"}},
    {.name = "steady_rounds",
     .label = "Steady-state rounds",
     .type = T::Int,
     .help = "At most this many rounds",
     .min = 1,
     .max = 1000,
     .defaultValue = "25"},
    {.name = "steady_round_seconds",
     .label = "Round (s)",
     .type = T::Int,
     .help = "Seconds per steady-state round",
     .min = 1,
     .max = 3600,
     .defaultValue = "60"},
    {.name = "precondition_size",
     .label = "Precondition size",
     .type = T::Size,
     .help = "What to write, twice; default 90 % of the space free",
     .min = 128 * 1024},
};

const std::vector<OptionSpec> clientKeys{
    {.name = "name",
     .label = "Name",
     .help = "How workloads name the client (not 'all')",
     .required = true},
    {.name = "target",
     .label = "Target",
     .help = "\"local\" or ssh://[user@]host[:port]",
     .defaultValue = "local"},
    {.name = "identity", .label = "SSH key", .type = T::Path, .help = "The ssh key file"},
    {.name = "known_hosts", .label = "Known hosts", .type = T::Path, .help = "A known_hosts file"},
    {.name = "address",
     .label = "Address",
     .help = "Where the workbench reaches it; default the target's host"},
    {.name = "fio_port",
     .label = "fio port",
     .type = T::Int,
     .help = "Its fio --server port",
     .min = 1,
     .max = 65535,
     .defaultValue = "8765"},
    {.name = "work_dir",
     .label = "Work directory",
     .type = T::Path,
     .help = "An absolute path on the client, without spaces",
     .defaultValue = "/var/tmp/layoutbench-client"},
};

const std::vector<OptionSpec> drillKeys{
    {.name = "layout",
     .label = "Layout",
     .help = "The [[layouts]] name it grows",
     .required = true},
    {.name = "action",
     .label = "Action",
     .type = T::Choice,
     .help = "How the layout grows",
     .choices = choicesOf<DrillAction>(),
     .required = true},
    {.name = "disks",
     .label = "Spare disks",
     .type = T::List,
     .help = "[[disks]] names not in the layout",
     .required = true},
    {.name = "read_load",
     .label = "Read load",
     .type = T::Bool,
     .help = "Read while it grows",
     .defaultValue = "true"},
    {.name = "timeout",
     .label = "Timeout (s)",
     .type = T::Int,
     .help = "The drill is stopped after this long",
     .min = 1,
     .max = 7 * 24 * 3600,
     .defaultValue = "86400"},
};

} // namespace

const std::vector<OptionSpec>& scenarioKeys(ScenarioTable table) {
    switch (table) {
    case ScenarioTable::Top:
        return topKeys;
    case ScenarioTable::Host:
        return hostKeys;
    case ScenarioTable::Thresholds:
        return thresholdKeys;
    case ScenarioTable::Decide:
        return decideKeys;
    case ScenarioTable::Disk:
        return diskKeys;
    case ScenarioTable::Layout:
        return layoutKeyList();
    case ScenarioTable::Guest:
        return guestKeys;
    case ScenarioTable::Export:
        return exportCommonKeys;
    case ScenarioTable::ExportIscsi:
        return exportIscsiKeys;
    case ScenarioTable::ExportNfs:
        return exportNfsKeys;
    case ScenarioTable::Workload:
        return workloadCommonKeys;
    case ScenarioTable::Client:
        return clientKeys;
    case ScenarioTable::Drill:
        return drillKeys;
    }
    assert(false);
    return topKeys;
}

const std::vector<std::string>& scenarioSubtables(ScenarioTable table) {
    static const std::vector<std::string> none;
    static const std::vector<std::string> top{"host",    "thresholds", "decide", "disks",
                                              "layouts", "workloads",  "drills", "clients"};
    static const std::vector<std::string> layout{"guest", "export"};
    if (table == ScenarioTable::Top)
        return top;
    if (table == ScenarioTable::Layout)
        return layout;
    return none;
}

std::set<std::string> acceptedKeys(ScenarioTable table) {
    std::set<std::string> out;
    auto add = [&](ScenarioTable t) {
        for (const auto& spec : scenarioKeys(t))
            out.insert(spec.name);
        for (const auto& sub : scenarioSubtables(t))
            out.insert(sub);
    };
    add(table);
    if (table == ScenarioTable::Export) {
        add(ScenarioTable::ExportIscsi);
        add(ScenarioTable::ExportNfs);
    }
    return out;
}

bool hasScenarioKey(ScenarioTable table, std::string_view name) {
    const auto& keys = scenarioKeys(table);
    return std::any_of(keys.begin(), keys.end(),
                       [&](const OptionSpec& s) { return s.name == name; });
}

const OptionSpec& scenarioKey(ScenarioTable table, std::string_view name) {
    const auto& keys = scenarioKeys(table);
    const auto it =
        std::find_if(keys.begin(), keys.end(), [&](const OptionSpec& s) { return s.name == name; });
    assert(it != keys.end());
    return *it;
}

std::vector<OptionSpec> layoutKeys(LayoutKind kind) {
    std::vector<OptionSpec> out;
    for (const auto& k : layoutTable())
        if (k.appliesTo(kind))
            out.push_back(k.spec);
    return out;
}

std::vector<OptionSpec> exportKeys() {
    std::vector<OptionSpec> out = exportCommonKeys;
    out.insert(out.end(), exportIscsiKeys.begin(), exportIscsiKeys.end());
    out.insert(out.end(), exportNfsKeys.begin(), exportNfsKeys.end());
    return out;
}

std::vector<OptionSpec> workloadKeys(const ProbeRegistry& probes, const Probe* probe) {
    std::vector<OptionSpec> out = workloadCommonKeys;
    out.front().choices = probes.names();
    if (probe)
        out.insert(out.end(), probe->options().begin(), probe->options().end());
    return out;
}

std::int64_t defaultInteger(const OptionSpec& spec) {
    if (spec.defaultValue.empty())
        return 0;
    if (spec.type == OptionType::Size) {
        auto bytes = parseSize(spec.defaultValue, SizeConvention::Binary);
        assert(bytes);
        return static_cast<std::int64_t>(*bytes);
    }
    std::int64_t value = 0;
    const auto* end = spec.defaultValue.data() + spec.defaultValue.size();
    [[maybe_unused]] const auto r = std::from_chars(spec.defaultValue.data(), end, value);
    assert(r.ec == std::errc{} && r.ptr == end);
    return value;
}

double defaultNumber(const OptionSpec& spec) {
    if (spec.defaultValue.empty())
        return 0;
    char* end = nullptr;
    const double value = std::strtod(spec.defaultValue.c_str(), &end);
    assert(end && *end == '\0');
    return value;
}

bool defaultFlag(const OptionSpec& spec) {
    assert(spec.defaultValue.empty() || spec.defaultValue == "true" ||
           spec.defaultValue == "false");
    return spec.defaultValue == "true";
}

std::vector<std::string> splitList(std::string_view text) {
    std::vector<std::string> out;
    while (!text.empty()) {
        const auto comma = text.find(',');
        std::string_view item = text.substr(0, comma);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t'))
            item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t'))
            item.remove_suffix(1);
        if (!item.empty())
            out.emplace_back(item);
        if (comma == std::string_view::npos)
            break;
        text.remove_prefix(comma + 1);
    }
    return out;
}

std::vector<std::string> defaultList(const OptionSpec& spec) {
    return splitList(spec.defaultValue);
}

} // namespace lb
