// The option tables of a layout (engine/scenario/scenario_keys.h): [[layouts]], each key with the
// layout kinds it applies to, [layouts.guest], and [layouts.export] with the keys only an iSCSI or
// an NFS export takes.
#include "engine/scenario/scenario_internal.h"
#include "engine/scenario/scenario_keys.h"

namespace lb {

namespace scenario_keys {

namespace {

using T = OptionType;

std::vector<std::string> kindChoices(bool mdKindsOnly) {
    std::vector<std::string> out;
    for (const LayoutKind k : allLayoutKinds())
        if (!mdKindsOnly || isMd(k))
            out.emplace_back(layoutKindName(k));
    return out;
}

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
bool zfsKind(LayoutKind k) {
    return isZfs(k); // a pool built on the host of the layout's disks
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

// Every [[layouts]] key, in the order a form shows them, with the kinds it applies to.
const std::vector<LayoutKey> layoutTable{
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
    {{.name = "pool", .label = "Pool", .help = "The ZFS pool's name; default lb-NAME"}, poolKind},
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
    {{.name = "log",
      .label = "Log (SLOG)",
      .type = T::List,
      .help = "ZFS: disks for a separate intent log: one, or two or more as a mirror"},
     zfsKind},
    {{.name = "cache",
      .label = "Cache (L2ARC)",
      .type = T::List,
      .help = "ZFS: disks for the L2ARC read cache"},
     zfsKind},
    {{.name = "special",
      .label = "Special vdev",
      .type = T::List,
      .help = "ZFS: disks for the special class (metadata, small blocks), two or more as a "
              "mirror; a single one makes the pool as fragile as that disk"},
     zfsKind},
    {{.name = "special_small_blocks",
      .label = "Special small blocks",
      .type = T::Size,
      .help = "ZFS: blocks up to this size go to the special vdev: 0 or a power of two up to 1M",
      .min = 0,
      .max = 1 << 20,
      .defaultValue = "0"},
     zfsKind},
    {{.name = "sync",
      .label = "sync",
      .type = T::Choice,
      .help = "ZFS dataset's sync: standard, always, or disabled (acknowledged synchronous "
              "writes are lost in a crash)",
      .defaultValue = "standard",
      .choices = choicesOf<ZfsSync>()},
     zfsKind},
    {{.name = "logbias",
      .label = "logbias",
      .type = T::Choice,
      .help = "ZFS dataset's logbias: latency (through the log device) or throughput",
      .defaultValue = "latency",
      .choices = choicesOf<ZfsLogbias>()},
     zfsKind},
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
    {{.name = "fill",
      .label = "Fill levels",
      .type = T::List,
      .help = "This layout's fill levels in place of the scenario's, e.g. 0.0, 0.8; [] for none",
      .defaultValue = ""},
     anyKind},
};

} // namespace

const std::vector<OptionSpec>& layoutKeyList() {
    static const std::vector<OptionSpec> keys = [] {
        std::vector<OptionSpec> out;
        for (const auto& k : layoutTable)
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
     .help =
         "The guest's memory, at least 64M: qemu and bhyve start the guest with it; for a "
         "libvirt or Xen domain, the memory it has, for plan to size bonnie++ by (a run asks the "
         "guest)",
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
    {.name = "write_cache",
     .label = "Write cache",
     .type = T::Choice,
     .help = "The LUN's write cache (SCSI WCE): on acknowledges writes from the target's memory "
             "until the initiator flushes them; off writes each through; default: the target's "
             "own (tgt: on)",
     .defaultValue = "default",
     .choices = {"default", "on", "off"}},
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

} // namespace scenario_keys

std::vector<OptionSpec> layoutKeys(LayoutKind kind) {
    std::vector<OptionSpec> out;
    for (const auto& k : scenario_keys::layoutTable)
        if (k.appliesTo(kind))
            out.push_back(k.spec);
    return out;
}

std::vector<OptionSpec> exportKeys() {
    using namespace scenario_keys;
    std::vector<OptionSpec> out = exportCommonKeys;
    out.insert(out.end(), exportIscsiKeys.begin(), exportIscsiKeys.end());
    out.insert(out.end(), exportNfsKeys.begin(), exportNfsKeys.end());
    return out;
}

} // namespace lb
