// Scenario files (TOML): the host, its disks, the candidate layouts (one baseline), the workloads,
// iterations and thresholds. Loading validates everything up front: unknown keys, wrong types and
// out-of-range values are bad input naming FILE:LINE:COLUMN and the field.
#pragma once

#include "engine/base/expected.h"
#include "engine/base/input.h"
#include "engine/base/names.h"
#include "engine/capacity/layout.h"
#include "engine/exec/target_os.h"
#include "engine/measure/analysis.h"
#include "engine/measure/probe.h"

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
    // What the target runs; nothing: a campaign asks it (uname -s) before planning, `plan`
    // (which runs nothing) writes for Linux and says so.
    std::optional<TargetOs> os;
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

// Who runs a guest layout's virtual machine: qemu, started by layoutbench; libvirt or xen,
// which attach the disk to an existing domain; or bhyve on a FreeBSD host, started by
// layoutbench with the disk attached (bhyve cannot attach one to a running guest).
enum class Hypervisor { Qemu, Libvirt, Xen, Bhyve };
template <> struct EnumNames<Hypervisor> {
    static constexpr std::array<std::pair<Hypervisor, std::string_view>, 4> table{{
        {Hypervisor::Qemu, "qemu"},
        {Hypervisor::Libvirt, "libvirt"},
        {Hypervisor::Xen, "xen"},
        {Hypervisor::Bhyve, "bhyve"},
    }};
};

// The iSCSI target that serves an export: tgt (tgtadm) or LIO (targetcli).
enum class IscsiTarget { Tgt, Lio };
template <> struct EnumNames<IscsiTarget> {
    static constexpr std::array<std::pair<IscsiTarget, std::string_view>, 2> table{{
        {IscsiTarget::Tgt, "tgt"},
        {IscsiTarget::Lio, "lio"},
    }};
};

// The NFS server that serves an export: the kernel's (exportfs) or nfs-ganesha.
enum class NfsServer { Kernel, Ganesha };
template <> struct EnumNames<NfsServer> {
    static constexpr std::array<std::pair<NfsServer, std::string_view>, 2> table{{
        {NfsServer::Kernel, "kernel"},
        {NfsServer::Ganesha, "ganesha"},
    }};
};

// What a drill does to its layout: grow it (the expansion drills), or fail a member and rebuild
// onto a spare (fail-rebuild).
enum class DrillAction { MdGrow, MdRaid6, ZfsAddVdev, RaidzExpand, FailRebuild };
template <> struct EnumNames<DrillAction> {
    static constexpr std::array<std::pair<DrillAction, std::string_view>, 5> table{{
        {DrillAction::MdGrow, "md-grow"},
        {DrillAction::MdRaid6, "md-raid6"},
        {DrillAction::ZfsAddVdev, "zfs-add-vdev"},
        {DrillAction::RaidzExpand, "raidz-expand"},
        {DrillAction::FailRebuild, "fail-rebuild"},
    }};
};

// How a fail-rebuild drill's member fails: administratively (mdadm --fail, zpool offline), or
// pulled: the drill runs the scenario's pull_command on this machine (the workbench's, not the
// target's: where an administrator pulls a drive or powers off its bay) and waits until md or
// ZFS sees the member failed, as the kernel reports a dying or vanished disk. error: the member is
// a device-mapper device (/dev/mapper/NAME) whose table the drill swaps for dm's error target
// under the load (every I/O to it fails, as a dying disk's), waits for md or ZFS to see it
// failed, and puts the saved table back once the spare took its place.
enum class DrillFailure { Admin, Pull, Error };
template <> struct EnumNames<DrillFailure> {
    static constexpr std::array<std::pair<DrillFailure, std::string_view>, 3> table{{
        {DrillFailure::Admin, "admin"},
        {DrillFailure::Pull, "pull"},
        {DrillFailure::Error, "error"},
    }};
};

// A ZFS dataset's sync property: standard (what the application asks for), always (every write
// synchronous), disabled (synchronous requests answered before the data is on disk: a crash or
// power loss loses the last seconds of writes the applications were told were safe).
enum class ZfsSync { Standard, Always, Disabled };
template <> struct EnumNames<ZfsSync> {
    static constexpr std::array<std::pair<ZfsSync, std::string_view>, 3> table{{
        {ZfsSync::Standard, "standard"},
        {ZfsSync::Always, "always"},
        {ZfsSync::Disabled, "disabled"},
    }};
};

// A ZFS dataset's logbias: latency (synchronous writes through the log device, if any) or
// throughput (large synchronous writes straight to the pool's data vdevs).
enum class ZfsLogbias { Latency, Throughput };
template <> struct EnumNames<ZfsLogbias> {
    static constexpr std::array<std::pair<ZfsLogbias, std::string_view>, 2> table{{
        {ZfsLogbias::Latency, "latency"},
        {ZfsLogbias::Throughput, "throughput"},
    }};
};

// A ZFS layout's auxiliary vdevs (names of [[disks]], none of them a data disk) and the dataset's
// write-path properties: the separate intent log (SLOG), the L2ARC cache, the special allocation
// class for metadata and small blocks.
struct ScenarioZfsAux {
    std::vector<std::string> log;     // one device, or several as a mirror
    std::vector<std::string> cache;   // L2ARC devices (never mirrored: its loss loses nothing)
    std::vector<std::string> special; // several as a mirror; one is allowed, and warned about
    std::uint64_t specialSmallBlocksBytes = 0; // blocks up to this size go to the special vdev
    ZfsSync sync = ZfsSync::Standard;
    ZfsLogbias logbias = ZfsLogbias::Latency;
    // Every auxiliary disk, in the order zpool create names them: log, cache, special.
    std::vector<std::string> disks() const;
    bool operator==(const ScenarioZfsAux&) const = default;
};

// How a guest layout's virtual machine is started and reached (kind = "guest").
struct ScenarioGuest {
    Hypervisor hypervisor = Hypervisor::Qemu;
    std::string layout = "ext4";   // built inside the guest on the passed disk: ext4, xfs, zfs-*
    std::string target;            // ssh://root@host:port of the guest
    std::string identity;          // ssh key for the guest
    std::string knownHosts;        // known_hosts for the guest
    std::string disk = "/dev/vda"; // the passed disk as the guest names it (vdb after an image)
    TargetOs os = TargetOs::Linux; // what the guest runs: its plan is written for it
    // qemu
    std::string kernel, initrd, append; // direct kernel boot, or
    std::string image; // a bootable disk image (then the passed disk is vdb); bhyve's boot disk
    // bhyve: UEFI firmware to boot the image with (empty: bhyveload loads a FreeBSD guest's
    // kernel from it), and the tap interface of the guest's network (made and bridged by the
    // host's own network setup)
    std::string firmware;
    std::string tap = "tap0";
    // kvm, tcg (emulation: every result gets a caveat), or auto: KVM where qemu can use it,
    // else TCG, found out from the guest's kernel and said with every result.
    std::string accel = "auto";
    std::uint64_t memoryBytes = 4ULL << 30;
    bool memoryStated = false; // the scenario gave `memory` (else memoryBytes is the default)
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

// The guest's memory where the scenario knows it: what a qemu or bhyve guest is started with, or
// what the scenario states of a libvirt or Xen domain, which runs with its own; nothing where only
// asking the guest can tell (as a campaign does).
std::optional<std::uint64_t> knownMemoryBytes(const ScenarioGuest& g);

// A layout served to clients over iSCSI and/or NFS while its workloads run ([layouts.export]).
// The export is built by plan steps with their undos, after the layout, so the journal tears it
// down with the layout: after the campaign, on failure, and on --resume.
struct ScenarioExport {
    // How clients reach the server; default: the host of [host] (of the guest for a guest
    // layout), 127.0.0.1 when local.
    std::string address;
    std::optional<IscsiTarget> iscsi; // none: not exported over iSCSI
    std::string lun = "file"; // file (in the layout's directory), zvol (ZFS), device (md, raw)
    std::uint64_t lunSizeBytes = 1ULL << 30; // file and zvol
    // zvol: its block size, given to zfs create -b (16K, OpenZFS 2.2's default; 2.1 made 8K)
    std::uint64_t volBlockBytes = 16 * 1024;
    std::string iqn; // default iqn.2026-11.org.layoutbench:<layout>
    int tid = 1;     // tgt target id
    int lunNumber = 1;
    int portalPort = 3260;  // where the target listens (tgtd's or LIO's portal)
    int tgtControlPort = 0; // tgtadm -C N, for a tgtd started with -C N; 0: its default
    std::string chapUser;
    std::string chapPassword; // a secret: masked in plans, logs, the store and the stored text
    bool chapPasswordMasked = false;            // read from a stored copy, where it is "****"
    std::vector<std::string> initiators{"ALL"}; // tgt: addresses or ALL; lio: initiator IQNs
    // The LUN's write cache as the initiator sees it (SCSI WCE): on, off, or unset for the
    // target's own default (tgt: on; LIO fileio: write-through).
    std::optional<bool> writeCache;
    std::optional<NfsServer> nfs;        // none: not exported over NFS
    std::vector<std::string> nfsOptions; // exportfs words: rw, ro, sync, async, root_squash, ...
    std::vector<int> nfsVersions{3, 4};
    std::vector<std::string> nfsClients{"*"};
    int line = 0;
    bool operator==(const ScenarioExport&) const = default;
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
    unsigned vdevs = 1; // zfs-mirror, -raidz, -draid: top-level vdevs the disks are split into
    DraidShape draid;   // zfs-draid: data disks per group (0: zpool's default), spares
    std::string compression = "off";
    bool atime = false;
    bool autotrim = false; // ZFS: the pool's autotrim property (TRIM freed blocks as they go)
    ScenarioZfsAux zfsAux; // ZFS: log, cache and special vdevs; sync and logbias
    double underprovision = 1.0;
    // precondition = "snia" and precondition_size on the layout: for each workload that can.
    bool precondition = false;
    std::optional<std::uint64_t> preconditionBytes;
    // fill = [0.0, 0.5, 0.8] on the layout: the fill levels its workloads run at, in place of
    // the scenario's (engine/build/fill.h); none: the scenario's.
    std::optional<std::vector<double>> fill;
    // md arrays: the layout's own (md-*), or the one its disks are first assembled into (inner,
    // for a ZFS pool on md and for a guest's disk).
    std::optional<LayoutKind> inner; // zfs-stripe and guest: build on this md array
    std::string mdDevice;            // default /dev/md/lb-<name>
    std::uint64_t chunkBytes = 512 * 1024;
    bool bitmap = true;              // internal write-intent bitmap
    bool assumeClean = false;        // skip the initial resync (the report says so)
    std::string filesystem = "ext4"; // md-*: ext4 or xfs, made and mounted
    std::optional<ScenarioGuest> guest;
    std::optional<ScenarioExport> exported; // [layouts.export]
    int line = 0;
    // The md kind that is built on the host for this layout, if any.
    std::optional<LayoutKind> mdKind() const;
    bool operator==(const ScenarioLayout&) const = default;
};

// A client host workloads can run on ([[clients]]): this machine or one reached over SSH.
struct ScenarioClient {
    std::string name;
    std::string target = "local"; // "local" or "ssh://user@host[:port]"
    std::string identity;
    std::string knownHosts;
    std::string address; // where the workbench reaches it; default: the target's host
    int fioPort = 8765;  // its fio --server, for workloads run on several clients
    std::string workDir = "/var/tmp/layoutbench-client"; // on the client
    int line = 0;
    bool operator==(const ScenarioClient&) const = default;
};

// SSD preconditioning before a layout's measured runs (SNIA SSS PTS): sequential 128 KiB writes
// of twice `bytes`, then rounds of the workload's own pattern, `roundSeconds` each, until the
// tracked variable is steady (engine/measure/steady_state.h) or `maxRounds` ran. `precondition =
// "snia"` on a workload, or on a layout for each of its workloads that can (a fio preset in the
// layout's directory).
struct Preconditioning {
    bool snia = false;
    int maxRounds = 25;
    int roundSeconds = 60;
    // What to write, twice; by default 90 % of the space free in the layout when it starts. A
    // dir layout is preconditioned only with a size given: it is not layoutbench's to fill.
    std::optional<std::uint64_t> bytes;
    bool operator==(const Preconditioning&) const = default;
};

struct ScenarioWorkload {
    std::string name; // unique; default "<probe>" or "<probe>:<preset>"
    std::string probe;
    OptionValues options;
    int timeoutSeconds = 3600;
    std::vector<std::string> clients; // [[clients]] names it runs on; empty: the layout's host
    Preconditioning precondition;     // precondition, steady_rounds, steady_round_seconds, ...
    int line = 0;
    bool operator==(const ScenarioWorkload&) const = default;
};

// A drill after a layout's workloads. An expansion drill grows it with spare disks and measures
// how long that takes while a read load runs and the file system stays mounted. A fail-rebuild
// drill fills the layout to `fill`, fails the member `disk`, rebuilds onto the spare in `disks`
// and measures a random read/write load healthy, degraded and while it rebuilds, the time and
// bytes of the rebuild and the data's integrity afterwards (engine/build/drill.h).
struct ScenarioDrill {
    std::string layout;
    DrillAction action = DrillAction::MdGrow;
    std::vector<std::string> disks; // spares ([[disks]] names not in the layout)
    std::string failDisk;           // fail-rebuild: the member it fails (key `disk`)
    DrillFailure failure = DrillFailure::Admin;
    std::vector<std::string> pullCommand; // fail = "pull": its argv, run on this machine
    int pullWaitSeconds = 120; // fail = "pull" or "error": how long md or ZFS has to see it
    double fill = 0.25;        // fail-rebuild: share of the usable space filled first
    int phaseSeconds = 10;     // fail-rebuild: the load's seconds healthy and degraded
    int syncSpeedMinKiB = 0;   // fail-rebuild on md: the array's sync_speed_min; 0: the system's
    bool readLoad = true;
    int timeoutSeconds = 24 * 3600;
    int line = 0;
    std::string name() const { return "drill:" + std::string(enumName(action)); }
    bool operator==(const ScenarioDrill&) const = default;
};

struct Scenario {
    std::string name;
    std::string description;
    std::string path;    // the file it came from ("" for text)
    std::string text;    // the whole file, stored with the campaign
    std::string workDir; // where file vdevs and scratch files go
    int iterations = 3;  // a fixed count; with iterations = "auto", the minimum
    // iterations = "auto": add iterations of every workload on every layout while a deciding
    // metric is not confident (or, with `until`, while a layout's runs spread more), up to this.
    std::optional<int> maxIterations;
    std::optional<double> untilCv; // until = "cv<3%": 0.03
    // Run the baseline again after the candidates to measure drift (default: where it can run
    // again without destroying anything); run the layouts' iterations in turn where they can
    // coexist. Unset: the campaign decides.
    std::optional<bool> bracket;
    std::optional<bool> interleave;
    bool dropCaches = true;
    // cache = "cold" (default): every run starts from disk: the page cache dropped before each
    // run, ZFS keeps only metadata in its ARC (primarycache=metadata). "warm": neither, and the
    // report names it.
    bool coldCache = true;
    // io = "auto" (default): direct I/O where every layout takes O_DIRECT, else buffered on all
    // of them; "direct" or "buffered" to choose. One path for every layout of a campaign.
    enum class IoPath { Auto, Direct, Buffered };
    IoPath io = IoPath::Auto;
    // data_compressibility = 0.5: the workloads write data that compresses like the users' own
    // (to half its size), so a compressing layout is compared with others on it (compressionNotes).
    std::optional<double> dataCompressibility;
    // fill = [0.0, 0.5, 0.8]: every layout's workloads run at each of these shares of its usable
    // space, filled and aged lowest first (engine/build/fill.h); empty: as built, no fill level
    // stored. fill_seed fixes the ageing's file sizes, deletions and rewrites.
    std::vector<double> fill;
    std::int64_t fillSeed = 1;
    Thresholds thresholds;
    std::vector<std::string> decide; // [decide] metrics: globs; empty: the default set
    ScenarioHost host;
    std::vector<ScenarioDisk> disks;
    std::vector<ScenarioLayout> layouts;
    std::vector<ScenarioWorkload> workloads;
    std::vector<ScenarioClient> clients;
    std::vector<ScenarioDrill> drills; // in the order they run, per layout

    const ScenarioLayout& baseline() const; // exactly one is marked
    bool adaptive() const { return maxIterations.has_value(); }
    ComparePolicy policy() const;
    // The fill levels a layout's workloads run at, ascending: its own, else the scenario's.
    const std::vector<double>& fillLevels(const ScenarioLayout& layout) const {
        return layout.fill ? *layout.fill : fill;
    }
    const ScenarioDisk* disk(std::string_view diskName) const;
    const ScenarioClient* client(std::string_view clientName) const;
    // The disks a layout builds on (data and auxiliary vdevs) and the spares its drills add: all
    // that it may destroy.
    std::vector<std::string> disksTouchedBy(const ScenarioLayout& layout) const;
};

// What a layout's settings risk of the writes its workloads were told were safe, one sentence
// each, said beside every figure measured on it: the dataset's sync = disabled, the NFS export's
// async, the iSCSI LUN's write cache. Empty when nothing acknowledges a write early.
struct DataLossCaveat {
    std::string metrics; // the metrics it concerns: "*", "nfs.*", "iscsi.*"
    std::string text;
};
std::vector<DataLossCaveat> dataLossCaveats(const ScenarioLayout& layout);

// What a layout that compresses makes of a run's data, given how much a sample of that data
// compressed (measured, `dataRatio` = sample bytes / compressed bytes): on a compressing layout
// with compressible data (ratio above compressibleRatio: ZFS keeps a block compressed only when
// that saves at least an eighth of it, so 8/7), a caveat beside every metric and, unless
// the scenario says the data is the users' kind (data_compressibility), a method note "data=..."
// that keeps its metrics out of a verdict against a layout that stores the data as written.
// Nothing when the ratio was not measured.
constexpr double compressibleRatio = 8.0 / 7.0;
std::vector<MetricNote> compressionNotes(const Scenario& scenario, const ScenarioLayout& layout,
                                         std::optional<double> dataRatio);

// Whether a scenario holds secrets masked ("****"): the copy stored with a campaign does.
bool hasMaskedSecrets(const Scenario& scenario);

// Puts back into `stored` (the copy kept with a campaign, secrets masked) the CHAP secrets that
// `source` (the scenario file) gives for the same layouts. Bad input naming `sourceName` and the
// layout when the source gives none. Used to resume a campaign.
Expected<void> restoreMaskedSecrets(Scenario& stored, const Scenario& source,
                                    const std::string& sourceName);

// What a report shows of a scenario kept with its campaign, read from the stored text without
// validating it again (it was validated when the campaign ran, and a probe it used may be gone):
// its description, and its [thresholds] when they are valid. Nothing when the text does not
// parse.
struct StoredScenarioSummary {
    std::string description;
    std::optional<Thresholds> thresholds;
    // The block devices its [[disks]] name ("/dev/sdb", "/dev/disk/by-id/ata-..."), in order;
    // none when its disks are files or it has none. Unset when the text does not parse.
    std::optional<std::vector<std::string>> devices;
};
StoredScenarioSummary summarizeStoredScenario(std::string_view text);

// `path` names the file in messages and anchors relative paths (work_dir, job files, disks).
Expected<Scenario> parseScenario(std::string_view text, const std::string& path,
                                 const ProbeRegistry& probes);
// Reads the file through readInput (a regular file, within `limit`).
Expected<Scenario> loadScenario(const std::string& path, const ProbeRegistry& probes,
                                const InputLimit& limit = documentLimit());

} // namespace lb
