#include "engine/build/plan.h"

#include "engine/base/size.h"
#include "engine/base/utf8.h"
#include "engine/build/serve.h"
#include "engine/capacity/capacity.h"

#include <algorithm>
#include <cctype>
#include <chrono>

namespace lb {

namespace {

// Why a check has no undo.
constexpr std::string_view checkChangesNothing = "a check changes nothing";

// A build or undo step: ten minutes unless the step says otherwise.
Command cmd(std::string program, std::vector<std::string> args) {
    return Command::timed(std::move(program), std::move(args), std::chrono::minutes(10));
}

// What the host runs: as the scenario says, or as the campaign found out (uname -s) before
// planning; Linux for a plan made without asking.
TargetOs hostOs(const Scenario& scenario) {
    return scenario.host.os.value_or(TargetOs::Linux);
}

// A block device, whole or (underprovisioned) as one GPT partition of a fraction of it, the rest
// left unpartitioned for the SSD to use. Returns the vdev path.
std::string planDevice(LayoutPlan& plan, const ScenarioDisk& d, const ScenarioLayout& layout,
                       const std::map<std::string, std::uint64_t>& deviceBytes, TargetOs os) {
    // The partition type says what will live on it: Linux RAID, ZFS, or a guest's whole disk.
    const std::string typecode = layout.mdKind()                    ? "FD00"
                                 : layout.kind == LayoutKind::Guest ? "8300"
                                                                    : "BF01";
    if (layout.underprovision >= 1.0)
        return d.device;
    // Discard everything first so the drive knows all of it is free: where it is supported.
    PlanStep discard{.description = "discard all of " + d.device,
                     .command = os == TargetOs::FreeBsd ? cmd("trim", {"-f", d.device})
                                                        : cmd("blkdiscard", {d.device}),
                     .optional = true,
                     .noUndo = "discarded blocks cannot be restored"};
    plan.steps.push_back(std::move(discard));
    std::string size;
    if (const auto it = deviceBytes.find(d.device); it != deviceBytes.end()) {
        const auto bytes =
            static_cast<std::uint64_t>(static_cast<double>(it->second) * layout.underprovision) /
            MiB * MiB;
        size = std::to_string(bytes / KiB) + "K";
    } else {
        size = "<" + std::to_string(static_cast<int>(layout.underprovision * 100)) + "% of " +
               d.device + ">";
    }
    const std::string what = "partition " +
                             std::to_string(static_cast<int>(layout.underprovision * 100 + 0.5)) +
                             " % of " + d.device + ", the rest left unpartitioned";
    if (os == TargetOs::FreeBsd) {
        // gpart(8): a GPT, then one partition from 1 MiB, typed for ZFS; GEOM sees it at once
        // (da0 -> da0p1), so there is nothing to tell the kernel.
        plan.steps.push_back({"write a GPT on " + d.device,
                              cmd("gpart", {"create", "-s", "gpt", d.device}),
                              cmd("gpart", {"destroy", "-F", d.device})});
        plan.steps.push_back(
            {.description = what,
             .command = cmd("gpart", {"add", "-t", "freebsd-zfs", "-a", "1m", "-b", "1m", "-s",
                                      size, "-l", "layoutbench", d.device}),
             .noUndo = "the GPT's undo (gpart destroy -F) takes it away"});
        return firstPartition(d.device);
    }
    plan.steps.push_back(
        {what,
         cmd("sgdisk", {"--clear", "--new=1:1M:+" + size, "--typecode=1:" + typecode,
                        "--change-name=1:layoutbench", d.device}),
         cmd("sgdisk", {"--zap-all", d.device})});
    // Without udev the kernel does not learn of new partitions by itself.
    plan.steps.push_back({"tell the kernel about " + d.device + "'s partition",
                          cmd("partx", {"-u", d.device}), cmd("partx", {"-d", d.device})});
    return firstPartition(d.device);
}

// The plan with the layout's export appended (engine/build/serve.h): the workloads' part is the one
// that exports, so the journal tears the export down before the layout under it.
Expected<LayoutPlan> withExport(LayoutPlan plan, const Scenario& scenario,
                                const ScenarioLayout& layout) {
    if (auto r = planExport(plan, scenario, layout); !r)
        return fail(r.error());
    return plan;
}

} // namespace

std::vector<std::string> vdevSpec(LayoutKind kind, const std::vector<std::string>& files,
                                  unsigned vdevs, DraidShape draid) {
    std::vector<std::string> out;
    if (kind == LayoutKind::ZfsMirror || isRaidz(kind) || isDraid(kind)) {
        // Each vdev its keyword and its share of the disks, in order.
        const std::size_t width = files.size() / std::max(vdevs, 1U);
        for (std::size_t i = 0; width > 0 && i + width <= files.size(); i += width) {
            out.push_back(kind == LayoutKind::ZfsMirror ? std::string("mirror")
                          : isRaidz(kind)
                              ? "raidz" + std::to_string(parityOf(kind))
                              : draidVdevName(kind, static_cast<unsigned>(width), draid));
            out.insert(out.end(), files.begin() + static_cast<std::ptrdiff_t>(i),
                       files.begin() + static_cast<std::ptrdiff_t>(i + width));
        }
        return out;
    }
    switch (kind) {
    case LayoutKind::ZfsStripe:
        return files;
    case LayoutKind::ZfsRaid10:
        for (std::size_t i = 0; i + 1 < files.size(); i += 2) {
            out.push_back("mirror");
            out.push_back(files[i]);
            out.push_back(files[i + 1]);
        }
        return out;
    default:
        return out;
    }
}

std::vector<std::string> auxVdevSpec(const AuxVdevPaths& aux) {
    std::vector<std::string> out;
    // A class of several devices is a mirror; the cache never is (its loss loses nothing).
    const auto add = [&out](const char* keyword, const std::vector<std::string>& paths,
                            bool mirrored) {
        if (paths.empty())
            return;
        out.emplace_back(keyword);
        if (mirrored && paths.size() > 1)
            out.emplace_back("mirror");
        out.insert(out.end(), paths.begin(), paths.end());
    };
    add("log", aux.log, true);
    add("cache", aux.cache, false);
    add("special", aux.special, true);
    return out;
}

std::string firstPartition(const std::string& device) {
    return device + (!device.empty() && std::isdigit(static_cast<unsigned char>(device.back()))
                         ? "p1"
                         : "1");
}

namespace {

// The scenario loader refuses these with the file's line; a scenario built another way is
// checked again here.
Expected<void> checkDiskCount(const ScenarioLayout& layout, LayoutKind kind) {
    const bool own = kind == layout.kind; // the vdev split and dRAID shape are the layout's
    if (const auto why = diskCountProblem(kind, layout.disks.size(), own ? layout.vdevs : 1,
                                          own ? &layout.draid : nullptr))
        return badInput("layout '" + layout.name + "': " + *why);
    return {};
}

// Stops an md array, then clears its superblock from `devices` (its members, and the spares a
// drill may have added), so nothing assembles it again: at boot, or when the next layout
// inspects its disks. The devices are left alone while the array will not stop.
Command stopMdArray(const std::string& array, const std::vector<std::string>& devices) {
    std::vector<std::string> args{"-c", "mdadm --stop \"$1\" && shift && wipefs -a \"$@\"", "sh",
                                  array};
    args.insert(args.end(), devices.begin(), devices.end());
    return cmd("sh", std::move(args));
}

// Clearing a device's old signatures (it was authorized for destruction): nothing restores them.
PlanStep wipeSignatures(const std::string& description, const std::string& device) {
    return {.description = description,
            .command = cmd("wipefs", {"-a", device}),
            .noUndo = "wiped signatures cannot be restored"};
}

// An md array of the members; returns its device. The members' old signatures are wiped first;
// the array's undo stops it and wipes them again, and the `spares` too, so nothing of the array
// is left behind.
std::string planMdArray(LayoutPlan& plan, const ScenarioLayout& layout, LayoutKind kind,
                        const std::vector<std::string>& members,
                        const std::vector<std::string>& spares = {}) {
    for (const auto& m : members)
        plan.steps.push_back(wipeSignatures("clear old signatures on " + m, m));
    const std::string level =
        std::string(layoutKindName(kind)).substr(std::string("md-raid").size());
    std::vector<std::string> create{
        "--create",       layout.mdDevice,    "--run",
        "--metadata=1.2", "--level=" + level, "--raid-devices=" + std::to_string(members.size())};
    if (kind != LayoutKind::MdRaid1)
        create.push_back("--chunk=" + std::to_string(layout.chunkBytes / 1024)); // KiB
    if (kind != LayoutKind::MdRaid0)
        create.push_back(std::string("--bitmap=") + (layout.bitmap ? "internal" : "none"));
    if (layout.assumeClean)
        create.push_back("--assume-clean");
    create.insert(create.end(), members.begin(), members.end());
    std::vector<std::string> cleared = members;
    cleared.insert(cleared.end(), spares.begin(), spares.end());
    plan.steps.push_back({"create " + std::string(layoutKindName(kind)) + " array " +
                              layout.mdDevice + " of " + std::to_string(members.size()) +
                              " members",
                          cmd("mdadm", std::move(create)), stopMdArray(layout.mdDevice, cleared)});
    if (kind != LayoutKind::MdRaid0 && !layout.assumeClean) {
        // mdadm --wait fails when there was nothing to wait for; what matters is that the array
        // is idle afterwards, so that is what the step checks.
        Command wait = cmd("sh", {"-c",
                                  "mdadm --wait \"$1\"; "
                                  "md=$(basename \"$(readlink -f \"$1\")\"); "
                                  "test \"$(cat /sys/block/$md/md/sync_action)\" = idle",
                                  "sh", layout.mdDevice});
        wait.timeout = std::chrono::hours(48);
        plan.steps.push_back({.description = "wait for the initial resync of " + layout.mdDevice,
                              .command = std::move(wait),
                              .noUndo = "it only waits"});
    }
    return layout.mdDevice;
}

// A file system made on a device and mounted: the workloads' directory.
// The mount point is ours: made before, removed after. On the host it must not exist yet (its
// parent, the work directory, does); in a guest, /mnt may not exist either.
PlanStep mountPoint(const LayoutPlan& plan, const std::string& mount) {
    std::vector<std::string> args{"--", mount};
    if (plan.runsOn == RunsOn::Guest)
        args.insert(args.begin(), "-p");
    return {"make the mount point", cmd("mkdir", std::move(args)), cmd("rmdir", {"--", mount})};
}

void planFilesystem(LayoutPlan& plan, const std::string& type, const std::string& device,
                    const std::string& mount) {
    // Lazy initialisation would write in the background during the first workloads.
    Command mkfs = type == "xfs"
                       ? cmd("mkfs.xfs", {"-f", "-q", device})
                       : cmd("mkfs.ext4",
                             {"-F", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0", device});
    mkfs.timeout = std::chrono::hours(2);
    plan.steps.push_back({.description = "make an " + type + " file system on " + device,
                          .command = std::move(mkfs),
                          .noUndo = "the file system goes when " + device + " does"});
    plan.steps.push_back(mountPoint(plan, mount));
    plan.steps.push_back({"mount " + device + " on " + mount, cmd("mount", {device, mount}),
                          cmd("umount", {mount})});
    plan.workdir = mount;
}

// The dataset's sync, logbias and special_small_blocks where the layout sets them (zfs set takes
// several at once); they go with the pool.
void planDatasetProperties(LayoutPlan& plan, const ScenarioLayout& layout) {
    const ScenarioZfsAux& aux = layout.zfsAux;
    std::vector<std::string> set{"set"};
    if (aux.sync != ZfsSync::Standard)
        set.push_back("sync=" + std::string(enumName(aux.sync)));
    if (aux.logbias != ZfsLogbias::Latency)
        set.push_back("logbias=" + std::string(enumName(aux.logbias)));
    if (aux.specialSmallBlocksBytes != 0)
        set.push_back("special_small_blocks=" + std::to_string(aux.specialSmallBlocksBytes));
    if (set.size() == 1)
        return;
    set.push_back(layout.pool);
    plan.steps.push_back({.description = "set the dataset's write path on " + layout.pool,
                          .command = cmd("zfs", std::move(set)),
                          .noUndo = "the properties go with the pool"});
}

// A ZFS pool of the vdevs, mounted at `mount`. With a cold cache the ARC keeps metadata only, so
// reads come from the vdevs however small the working set (dropping the page cache does not
// empty the ARC).
void planPool(LayoutPlan& plan, const Scenario& scenario, const ScenarioLayout& layout,
              LayoutKind kind, const std::vector<std::string>& vdevs, const std::string& mount,
              const AuxVdevPaths& aux = {}) {
    plan.steps.push_back(mountPoint(plan, mount));
    std::vector<std::string> create{
        "create",   "-f",
        "-o",       "ashift=" + std::to_string(layout.ashift),
        "-O",       "recordsize=" + std::to_string(layout.recordsizeBytes),
        "-O",       "compression=" + layout.compression,
        "-O",       std::string("atime=") + (layout.atime ? "on" : "off"),
        "-O",       std::string("primarycache=") + (scenario.coldCache ? "metadata" : "all"),
        "-m",       mount,
        layout.pool};
    // Only where asked: zfs-fuse (pool version 23) has no autotrim property at all.
    if (layout.autotrim)
        create.insert(create.begin() + 4, {"-o", "autotrim=on"});
    const bool own = kind == layout.kind; // not the guest's stripe on its one disk
    for (auto& v : vdevSpec(kind, vdevs, own ? layout.vdevs : 1, own ? layout.draid : DraidShape{}))
        create.push_back(std::move(v));
    for (auto& v : auxVdevSpec(aux))
        create.push_back(std::move(v));
    plan.steps.push_back({"create pool " + layout.pool, cmd("zpool", std::move(create)),
                          cmd("zpool", {"destroy", "-f", layout.pool})});
    // A special class of one device is the pool's weakest part.
    if (layout.zfsAux.special.size() == 1)
        plan.warnings.push_back(singleSpecialWarning());
    planDatasetProperties(plan, layout);
    plan.workdir = mount;
}

// What a guest is passed: its inner md array, or its one disk (device or file).
Expected<std::string> planGuestDisk(LayoutPlan& plan, const Scenario& scenario,
                                    const ScenarioLayout& layout,
                                    const std::map<std::string, std::uint64_t>& sizes) {
    if (layout.inner) {
        if (auto r = checkDiskCount(layout, *layout.inner); !r)
            return fail(r.error());
    } else if (layout.disks.size() != 1) {
        return badInput("layout '" + layout.name + "': a guest is passed exactly one disk");
    }
    auto members = planDisks(plan, scenario, layout, layout.disks, sizes);
    if (!members)
        return fail(members.error());
    if (layout.inner)
        return planMdArray(plan, layout, *layout.inner, *members);
    return members->front();
}

// bhyve's virtio-blk options for the guest's disk cache mode: nocache opens the disk with
// O_DIRECT (qemu's cache=none), direct with O_SYNC (writethrough); both for directsync.
std::string bhyveCacheOptions(const std::string& cache) {
    if (cache == "none")
        return ",nocache";
    if (cache == "writethrough")
        return ",direct";
    if (cache == "directsync")
        return ",nocache,direct";
    return "";
}

// bhyve under daemon(8), its console and pid in files at `base`: the host bridge, the guest's
// network on its tap, its boot image and `disk` as virtio-blk devices, a serial console, and the
// UEFI firmware when it boots by one.
std::vector<std::string> bhyveArgs(const ScenarioGuest& g, const std::string& vm,
                                   const std::string& memory, const std::string& base,
                                   const std::string& disk) {
    std::vector<std::string> args{"-o",
                                  base + ".console",
                                  "-p",
                                  base + ".pid",
                                  "bhyve",
                                  "-c",
                                  std::to_string(g.cpus),
                                  "-m",
                                  memory,
                                  "-A",
                                  "-H",
                                  "-P",
                                  "-s",
                                  "0,hostbridge",
                                  "-s",
                                  "2,virtio-net," + g.tap,
                                  "-s",
                                  "3,virtio-blk," + g.image,
                                  "-s",
                                  "4,virtio-blk," + disk + bhyveCacheOptions(g.cache),
                                  "-s",
                                  "31,lpc",
                                  "-l",
                                  "com1,stdio"};
    if (!g.firmware.empty())
        args.insert(args.end(), {"-l", "bootrom," + g.firmware});
    args.push_back(vm);
    return args;
}

// A bhyve guest on a FreeBSD host (bhyve(8), bhyveload(8), bhyvectl(8)). bhyve cannot attach a
// disk to a running guest, so the guest starts with it: bhyveload loads a FreeBSD guest's kernel
// from its image (or UEFI firmware boots the image), then bhyve runs it under daemon(8).
// Destroying the virtual machine stops it and frees the disk; the undo waits for bhyve to exit.
Expected<void> planBhyve(LayoutPlan& plan, const Scenario& scenario, const ScenarioLayout& layout,
                         const std::string& disk) {
    if (hostOs(scenario) != TargetOs::FreeBsd)
        return badInput("layout '" + layout.name +
                        "': bhyve is FreeBSD's hypervisor and this plan is for a " +
                        std::string(enumName(hostOs(scenario))) +
                        " host; use hypervisor = \"qemu\", \"libvirt\" or \"xen\" there, or "
                        "[host] os = \"freebsd\" for a FreeBSD host");
    const ScenarioGuest& g = *layout.guest;
    const std::string vm = "lb-" + layout.name;
    const std::string base = scenario.workDir + "/guest-" + layout.name;
    const std::string memory = std::to_string(g.memoryBytes >> 20) + "M";
    constexpr const char* untried =
        " (written from FreeBSD's manuals; not exercised on a live FreeBSD host here)";
    Command destroy = cmd("sh", {"-c",
                                 "bhyvectl --destroy --vm=\"$1\" 2>/dev/null; "
                                 "p=$(cat \"$2\" 2>/dev/null); i=0; "
                                 "while [ -n \"$p\" ] && kill -0 \"$p\" 2>/dev/null && "
                                 "[ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; "
                                 "! test -e \"/dev/vmm/$1\"",
                                 "sh", vm, base + ".pid"});
    plan.steps.push_back(
        {.description = "load vmm, bhyve's kernel module, where it is not loaded yet",
         .command = cmd("kldload", {"-n", "vmm"}),
         .noUndo = "vmm stays loaded: other virtual machines may use it"});
    plan.steps.push_back({.description = "check that " + g.tap +
                                         ", the guest's network, exists (made and bridged by the "
                                         "host's network setup)",
                          .command = cmd("ifconfig", {g.tap}),
                          .noUndo = std::string(checkChangesNothing)});
    if (g.firmware.empty())
        plan.steps.push_back(
            {"load the guest's FreeBSD kernel from " + g.image + " (bhyveload)" + untried,
             cmd("bhyveload", {"-m", memory, "-d", g.image, vm}), destroy});
    plan.steps.push_back({"start the guest " + vm + " (bhyve) with " + disk +
                              " attached: bhyve cannot attach a disk to a running guest" + untried,
                          cmd("daemon", bhyveArgs(g, vm, memory, base, disk)), std::move(destroy)});
    return {};
}

// A qemu guest started by the plan (daemonized, its pid and console in files), with `disk`
// attached as virtio-blk or virtio-scsi; stopped by that pid, only if it is still that qemu.
void planQemu(LayoutPlan& plan, const Scenario& scenario, const ScenarioLayout& layout,
              const std::string& disk) {
    const ScenarioGuest& g = *layout.guest;
    const std::string base = scenario.workDir + "/guest-" + layout.name;
    std::vector<std::string> args{"-name",
                                  "lb-" + layout.name,
                                  "-daemonize",
                                  "-pidfile",
                                  base + ".pid",
                                  "-display",
                                  "none",
                                  "-serial",
                                  "file:" + base + ".console",
                                  "-accel",
                                  g.accel == "auto" ? "kvm" : g.accel,
                                  "-m",
                                  std::to_string(g.memoryBytes >> 20),
                                  "-smp",
                                  std::to_string(g.cpus)};
    if (g.accel == "kvm")
        args.insert(args.end(), {"-cpu", "host"});
    else if (g.accel == "auto") // qemu tries the accelerators in order; max suits both
        args.insert(args.end(), {"-accel", "tcg", "-cpu", "max"});
    if (!g.kernel.empty()) {
        args.insert(args.end(), {"-kernel", g.kernel, "-append", g.append});
        if (!g.initrd.empty())
            args.insert(args.end(), {"-initrd", g.initrd});
    } else {
        args.insert(args.end(), {"-drive", "file=" + g.image + ",if=virtio,snapshot=on"});
    }
    std::string iothread;
    if (g.iothreads > 0) {
        args.insert(args.end(), {"-object", "iothread,id=lbio0"});
        iothread = ",iothread=lbio0";
    }
    args.insert(args.end(), {"-drive", "file=" + disk + ",if=none,id=lbdisk,format=raw,cache=" +
                                           g.cache + ",aio=" + g.aio});
    if (g.bus == "scsi")
        args.insert(args.end(), {"-device", "virtio-scsi-pci,id=lbscsi" + iothread, "-device",
                                 "scsi-hd,drive=lbdisk,bus=lbscsi.0"});
    else
        args.insert(args.end(), {"-device", "virtio-blk-pci,drive=lbdisk" + iothread});
    std::string netdev = "user,id=lbnet";
    if (g.sshPort)
        netdev += ",hostfwd=tcp:127.0.0.1:" + std::to_string(g.sshPort) + "-:22";
    args.insert(args.end(), {"-netdev", netdev, "-device", "virtio-net-pci,netdev=lbnet"});
    for (const auto& fw : g.fwCfg)
        args.insert(args.end(), {"-fw_cfg", fw});
    // Stopping: the pid from the pid file, only if it is still that qemu, then wait for it to go
    // so the disk it held is free for the next undo.
    Command stop = cmd("sh", {"-c",
                              "p=$(cat \"$1\" 2>/dev/null) || exit 0; "
                              "grep -q qemu /proc/$p/cmdline 2>/dev/null || exit 0; "
                              "kill $p; i=0; "
                              "while kill -0 $p 2>/dev/null && [ $i -lt 300 ]; do "
                              "sleep 0.1; i=$((i+1)); done; ! kill -0 $p 2>/dev/null",
                              "sh", base + ".pid"});
    plan.steps.push_back({"start the guest lb-" + layout.name + " (qemu, " + g.accel + ")",
                          cmd("qemu-system-x86_64", std::move(args)), std::move(stop)});
}

// Starts (qemu, bhyve) or attaches to (libvirt, xen) the guest, passing it `disk`.
Expected<void> planGuestMachine(LayoutPlan& plan, const Scenario& scenario,
                                const ScenarioLayout& layout, const std::string& disk) {
    const ScenarioGuest& g = *layout.guest;
    if (g.hypervisor == Hypervisor::Bhyve)
        return planBhyve(plan, scenario, layout, disk);
    if (g.hypervisor == Hypervisor::Libvirt) {
        plan.steps.push_back(
            {"attach " + disk + " to domain " + g.domain + " as " + g.attachAs,
             cmd("virsh", {"attach-disk", g.domain, disk, g.attachAs, "--targetbus",
                           g.bus == "scsi" ? "scsi" : "virtio", "--cache", g.cache, "--live"}),
             cmd("virsh", {"detach-disk", g.domain, g.attachAs, "--live"})});
        return {};
    }
    if (g.hypervisor == Hypervisor::Xen) {
        plan.steps.push_back(
            {"attach " + disk + " to domain " + g.domain + " as " + g.attachAs,
             cmd("xl", {"block-attach", g.domain,
                        "format=raw, vdev=" + g.attachAs + ", access=rw, target=" + disk}),
             cmd("xl", {"block-detach", g.domain, g.attachAs})});
        return {};
    }
    planQemu(plan, scenario, layout, disk);
    return {};
}

} // namespace

Expected<std::vector<std::string>> planDisks(LayoutPlan& plan, const Scenario& scenario,
                                             const ScenarioLayout& layout,
                                             const std::vector<std::string>& diskNames,
                                             const std::map<std::string, std::uint64_t>& sizes) {
    std::vector<std::string> members;
    for (const auto& name : diskNames) {
        const ScenarioDisk* d = scenario.disk(name);
        if (!d)
            return badInput("layout '" + layout.name + "': disk '" + name + "' is not defined");
        if (!d->device.empty()) {
            members.push_back(planDevice(plan, *d, layout, sizes, hostOs(scenario)));
            continue;
        }
        members.push_back(d->file);
        // Never reuse an existing file: it may be someone's data or another pool's vdev.
        plan.steps.push_back({.description = "check that " + d->file + " does not exist yet",
                              .command = cmd("test", {"!", "-e", d->file}),
                              .noUndo = std::string(checkChangesNothing)});
        plan.steps.push_back({"create sparse file " + d->name,
                              cmd("truncate", {"-s", std::to_string(d->sizeBytes), "--", d->file}),
                              cmd("rm", {"-f", "--", d->file})});
    }
    return members;
}

Expected<LayoutPlan> planLayout(const Scenario& scenario, const ScenarioLayout& layout,
                                const std::map<std::string, std::uint64_t>& deviceBytes) {
    LayoutPlan plan;
    plan.layout = layout.name;
    if (layout.kind == LayoutKind::Dir) {
        plan.workdir = layout.path + "/layoutbench-" + layout.name;
        plan.steps.push_back({"make the work directory", cmd("mkdir", {"--", plan.workdir}),
                              cmd("rm", {"-rf", "--", plan.workdir})});
        return withExport(std::move(plan), scenario, layout);
    }
    if (layout.kind == LayoutKind::Guest)
        return badInput("layout '" + layout.name +
                        "': a guest layout is built in two parts (planGuestLayout)");
    if (auto r = checkDiskCount(layout, layout.mdKind().value_or(layout.kind)); !r)
        return fail(r.error());
    if (hostOs(scenario) == TargetOs::FreeBsd && layout.mdKind())
        return badInput("layout '" + layout.name +
                        "': md RAID (mdadm) is Linux's; on a FreeBSD "
                        "target build a ZFS layout on the disks (gmirror and graid are not "
                        "modelled)");
    auto members = planDisks(plan, scenario, layout, layout.disks, deviceBytes);
    if (!members)
        return fail(members.error());
    // The spares of the layout's drills are made ready with it, so its teardown clears them too.
    std::vector<std::string> spareNames;
    for (const auto& d : scenario.drills)
        if (d.layout == layout.name)
            spareNames.insert(spareNames.end(), d.disks.begin(), d.disks.end());
    auto spares = planDisks(plan, scenario, layout, spareNames, deviceBytes);
    if (!spares)
        return fail(spares.error());
    if (layout.mdKind())
        for (const auto& spare : *spares)
            plan.steps.push_back(wipeSignatures("clear old signatures on spare " + spare, spare));
    const std::string mount = scenario.workDir + "/mnt-" + layout.name;
    if (isMd(layout.kind)) {
        const auto array = planMdArray(plan, layout, layout.kind, *members, *spares);
        if (!exportsRawDevice(layout)) // else the array itself is the LUN
            planFilesystem(plan, layout.filesystem, array, mount);
        return withExport(std::move(plan), scenario, layout);
    }
    if (layout.inner) // a pool on an md array: the array is its one vdev
        *members = {planMdArray(plan, layout, *layout.inner, *members, *spares)};
    AuxVdevPaths aux;
    for (auto [names, paths] :
         {std::pair{&layout.zfsAux.log, &aux.log}, std::pair{&layout.zfsAux.cache, &aux.cache},
          std::pair{&layout.zfsAux.special, &aux.special}}) {
        auto planned = planDisks(plan, scenario, layout, *names, deviceBytes);
        if (!planned)
            return fail(planned.error());
        *paths = std::move(*planned);
    }
    planPool(plan, scenario, layout, layout.kind, *members, mount, aux);
    return withExport(std::move(plan), scenario, layout);
}

Expected<GuestPlans> planGuestLayout(const Scenario& scenario, const ScenarioLayout& layout,
                                     const std::map<std::string, std::uint64_t>& deviceBytes) {
    if (layout.kind != LayoutKind::Guest || !layout.guest)
        return badInput("layout '" + layout.name + "' is not a guest layout");
    GuestPlans plans;
    plans.host.layout = plans.guest.layout = layout.name;
    plans.guest.runsOn = RunsOn::Guest;
    auto disk = planGuestDisk(plans.host, scenario, layout, deviceBytes);
    if (!disk)
        return fail(disk.error());
    if (auto r = planGuestMachine(plans.host, scenario, layout, *disk); !r)
        return fail(r.error());
    const ScenarioGuest& g = *layout.guest;
    const std::string mount = "/mnt/lb-" + layout.name;
    if (g.layout == "zfs-stripe")
        planPool(plans.guest, scenario, layout, LayoutKind::ZfsStripe, {g.disk}, mount);
    else
        planFilesystem(plans.guest, g.layout, g.disk, mount);
    if (auto r = planExport(plans.guest, scenario, layout); !r)
        return fail(r.error());
    return plans;
}

Expected<std::vector<LayoutPlan>>
planParts(const Scenario& scenario, const ScenarioLayout& layout,
          const std::map<std::string, std::uint64_t>& deviceBytes) {
    if (layout.kind == LayoutKind::Guest) {
        auto plans = planGuestLayout(scenario, layout, deviceBytes);
        if (!plans)
            return fail(plans.error());
        return std::vector<LayoutPlan>{std::move(plans->host), std::move(plans->guest)};
    }
    auto plan = planLayout(scenario, layout, deviceBytes);
    if (!plan)
        return fail(plan.error());
    return std::vector<LayoutPlan>{std::move(*plan)};
}

TargetOs workloadOs(const Scenario& scenario, const ScenarioLayout& layout) {
    return layout.guest ? layout.guest->os : hostOs(scenario);
}

std::string undoText(const PlanStep& step) {
    if (step.undo)
        return step.undo->toUserOutput();
    return "no undo" + (step.noUndo.empty() ? std::string() : ": " + step.noUndo);
}

std::string describePlan(const LayoutPlan& plan) {
    std::string out;
    for (const auto& w : plan.warnings)
        out += "  warning: " + w + "\n";
    int n = 0;
    for (const auto& s : plan.steps)
        out += "  " + std::to_string(++n) + ". " + s.command.toUserOutput() +
               (s.optional ? "   (where supported; a failure is skipped)" : "") + "\n     " +
               (s.undo ? "undo: " : "") + undoText(s) + "\n";
    return out;
}

} // namespace lb
