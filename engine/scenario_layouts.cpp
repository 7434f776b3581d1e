// The scenario's disks, layouts (with their guests) and drills.
#include "engine/scenario_parse.h"
#include "engine/size.h"
#include "engine/ssh_runner.h"

#include <algorithm>

namespace lb::scenario_parse {

Expected<ScenarioDisk> parseDisk(const toml::table& t, const std::string& where,
                                 const std::string& baseDir, const Reporter& rep) {
    if (auto r = rejectUnknown(t, {"name", "device", "file", "size", "wipe"}, where, rep); !r)
        return fail(r.error());
    ScenarioDisk d;
    d.line = static_cast<int>(t.source().begin.line);
    LB_TRY(name, getString(t, "name", where, rep, true));
    LB_TRY(device, getString(t, "device", where, rep, false));
    LB_TRY(file, getString(t, "file", where, rep, false));
    LB_TRY(size, getSize(t, "size", where, rep, 0));
    LB_TRY(wipe, getBool(t, "wipe", where, rep, false));
    if (!validName(name))
        return badInput(
            rep.at(t, "name", where + "name", "use letters, digits, '-', '_' and '.' only"));
    if (device.empty() == file.empty())
        return badInput(rep.at(t, where + "device", "give exactly one of device or file"));
    if (!device.empty() && device.rfind("/dev/", 0) != 0)
        return badInput(rep.at(t, "device", where + "device", "must be a path under /dev/"));
    if (!file.empty() && size == 0)
        return badInput(rep.at(t, where + "size", "a file disk needs a size"));
    if (!device.empty() && size != 0)
        return badInput(
            rep.at(t, "size", where + "size", "only file disks have a size; a device has its own"));
    d.name = name;
    d.device = device;
    d.file = resolve(baseDir, file);
    d.sizeBytes = size;
    d.wipe = wipe;
    return d;
}

Expected<ScenarioGuest> parseGuest(const toml::table& t, const std::string& where,
                                   const std::string& baseDir, const Reporter& rep) {
    if (auto r = rejectUnknown(
            t,
            {"hypervisor", "layout",    "target", "identity", "known_hosts", "disk",   "kernel",
             "initrd",     "append",    "image",  "accel",    "memory",      "cpus",   "cache",
             "aio",        "iothreads", "bus",    "ssh_port", "fw_cfg",      "domain", "attach_as"},
            where, rep);
        !r)
        return fail(r.error());
    ScenarioGuest g;
    LB_TRY(hypervisor, getEnum<Hypervisor>(t, "hypervisor", where, rep));
    g.hypervisor = hypervisor.value_or(Hypervisor::Qemu);
    LB_TRY(layout, getChoice(t, "layout", where, rep, {"ext4", "xfs", "zfs-stripe"}, "ext4"));
    g.layout = layout;
    LB_TRY(sshPort, getInt(t, "ssh_port", where, rep, 0, 0, 65535));
    g.sshPort = static_cast<int>(sshPort);
    if (g.sshPort != 0 && g.hypervisor != Hypervisor::Qemu)
        return badInput(rep.at(t, "ssh_port", where + "ssh_port",
                               "only a qemu guest started by layoutbench has a forwarded port"));
    LB_TRY(target, getString(t, "target", where, rep, false,
                             g.sshPort ? "ssh://root@127.0.0.1:" + std::to_string(g.sshPort) : ""));
    if (target.empty())
        return badInput(rep.at(t, where + "target",
                               "how to reach the guest is required: target = "
                               "\"ssh://root@GUEST\" (or ssh_port for a qemu guest)"));
    if (auto url = parseSshUrl(target); !url)
        return badInput(rep.at(t, "target", where + "target", url.error().message));
    g.target = target;
    LB_TRY(identity, getString(t, "identity", where, rep, false));
    g.identity = resolve(baseDir, identity);
    LB_TRY(knownHosts, getString(t, "known_hosts", where, rep, false));
    g.knownHosts = resolve(baseDir, knownHosts);
    LB_TRY(kernel, getString(t, "kernel", where, rep, false));
    g.kernel = resolve(baseDir, kernel);
    LB_TRY(initrd, getString(t, "initrd", where, rep, false));
    g.initrd = resolve(baseDir, initrd);
    LB_TRY(append, getString(t, "append", where, rep, false, "console=ttyS0"));
    g.append = append;
    LB_TRY(image, getString(t, "image", where, rep, false));
    g.image = resolve(baseDir, image);
    // A qemu guest booted from an image has that image as its first disk.
    LB_TRY(disk,
           getString(t, "disk", where, rep, false,
                     g.hypervisor == Hypervisor::Qemu && !image.empty() ? "/dev/vdb" : "/dev/vda"));
    if (disk.rfind("/dev/", 0) != 0)
        return badInput(rep.at(t, "disk", where + "disk", "must be a path under /dev/"));
    g.disk = disk;
    LB_TRY(accel, getChoice(t, "accel", where, rep, {"auto", "kvm", "tcg"}, "auto"));
    g.accel = accel;
    LB_TRY(memory, getSize(t, "memory", where, rep, 4ULL << 30, SizeConvention::Binary));
    if (memory < 64 * 1024 * 1024)
        return badInput(rep.at(t, "memory", where + "memory", "must be at least 64M"));
    g.memoryBytes = memory;
    LB_TRY(cpus, getInt(t, "cpus", where, rep, 2, 1, 1024));
    g.cpus = static_cast<int>(cpus);
    LB_TRY(cache, getChoice(t, "cache", where, rep,
                            {"none", "writeback", "writethrough", "directsync", "unsafe"}, "none"));
    g.cache = cache;
    LB_TRY(aio, getChoice(t, "aio", where, rep, {"threads", "native", "io_uring"}, "threads"));
    g.aio = aio;
    LB_TRY(iothreads, getInt(t, "iothreads", where, rep, 0, 0, 64));
    g.iothreads = static_cast<int>(iothreads);
    LB_TRY(bus, getChoice(t, "bus", where, rep, {"virtio", "scsi"}, "virtio"));
    g.bus = bus;
    if (const toml::node* fw = t.get("fw_cfg")) {
        const auto* arr = fw->as_array();
        if (!arr)
            return badInput(rep.at(*fw, where + "fw_cfg", "expected a list of name=…,file=…"));
        for (const auto& item : *arr) {
            const auto* str = item.as_string();
            if (!str)
                return badInput(rep.at(item, where + "fw_cfg", "expected a string"));
            g.fwCfg.push_back(str->get());
        }
    }
    LB_TRY(domain, getString(t, "domain", where, rep, false));
    g.domain = domain;
    LB_TRY(attachAs, getString(t, "attach_as", where, rep, false,
                               g.hypervisor == Hypervisor::Xen ? "xvdb" : "vdb"));
    g.attachAs = attachAs;
    if (g.hypervisor == Hypervisor::Qemu) {
        if (g.kernel.empty() == g.image.empty())
            return badInput(rep.at(t, where + "kernel",
                                   "a qemu guest boots either a kernel (kernel, initrd) or a "
                                   "disk image (image): give exactly one"));
        if (!g.domain.empty())
            return badInput(
                rep.at(t, "domain", where + "domain", "only libvirt and xen guests name a domain"));
    } else if (g.domain.empty()) {
        return badInput(rep.at(t, where + "domain",
                               "a " + std::string(enumName(g.hypervisor)) +
                                   " guest names its existing domain"));
    }
    return g;
}

Expected<ScenarioLayout> parseLayout(const toml::table& t, const std::string& where,
                                     const std::string& baseDir, const Reporter& rep) {
    if (auto r = rejectUnknown(t, {"name",         "kind",           "baseline",
                                   "disks",        "path",           "pool",
                                   "ashift",       "recordsize",     "compression",
                                   "atime",        "underprovision", "inner",
                                   "md_device",    "chunk",          "bitmap",
                                   "assume_clean", "filesystem",     "guest",
                                   "export",       "precondition",   "precondition_size"},
                               where, rep);
        !r)
        return fail(r.error());
    ScenarioLayout l;
    l.line = static_cast<int>(t.source().begin.line);
    LB_TRY(name, getString(t, "name", where, rep, true));
    if (!validName(name))
        return badInput(
            rep.at(t, "name", where + "name", "use letters, digits, '-', '_' and '.' only"));
    l.name = name;
    LB_TRY(kindText, getString(t, "kind", where, rep, true));
    const auto kind = parseLayoutKind(kindText);
    if (!kind)
        return badInput(
            rep.at(t, "kind", where + "kind", "unknown layout kind '" + kindText + "'"));
    l.kind = *kind;
    LB_TRY(baseline, getBool(t, "baseline", where, rep, false));
    l.baseline = baseline;
    LB_TRY(path, getString(t, "path", where, rep, l.kind == LayoutKind::Dir));
    if (l.kind == LayoutKind::Dir && path.empty())
        return badInput(rep.at(t, "path", where + "path", "must not be empty"));
    l.path = resolve(baseDir, path);
    if (l.kind != LayoutKind::Dir && !path.empty())
        return badInput(rep.at(t, "path", where + "path", "only dir layouts take a path"));
    LB_TRY(pool, getString(t, "pool", where, rep, false, "lb-" + l.name));
    if (!validName(pool))
        return badInput(rep.at(t, where + "pool", "use letters, digits, '-', '_' and '.' only"));
    l.pool = pool;
    LB_TRY(ashift, getInt(t, "ashift", where, rep, 12, 9, 16));
    l.ashift = static_cast<unsigned>(ashift);
    LB_TRY(record, getSize(t, "recordsize", where, rep, 128 * 1024, SizeConvention::Binary));
    if (record < 512 || record > 16 * 1024 * 1024 || (record & (record - 1)) != 0)
        return badInput(rep.at(t, "recordsize", where + "recordsize",
                               "must be a power of two from 512 to 16M"));
    l.recordsizeBytes = record;
    LB_TRY(compression, getString(t, "compression", where, rep, false, "off"));
    l.compression = compression;
    LB_TRY(atime, getBool(t, "atime", where, rep, false));
    l.atime = atime;
    LB_TRY(under, getDouble(t, "underprovision", where, rep, 1.0));
    if (!(under > 0 && under <= 1.0))
        return badInput(
            rep.at(t, "underprovision", where + "underprovision", "must be a fraction in (0, 1]"));
    l.underprovision = under;
    if (const toml::node* disks = t.get("disks")) {
        const auto* arr = disks->as_array();
        if (!arr)
            return badInput(rep.at(*disks, where + "disks", "expected a list of disk names"));
        for (const auto& item : *arr) {
            const auto* s = item.as_string();
            if (!s)
                return badInput(rep.at(item, where + "disks", "expected a disk name"));
            l.disks.push_back(s->get());
        }
    }
    if (const toml::node* inner = t.get("inner")) {
        const auto* str = inner->as_string();
        const auto innerKind = str ? parseLayoutKind(str->get()) : std::nullopt;
        if (!innerKind || !isMd(*innerKind))
            return badInput(rep.at(*inner, where + "inner", "expected an md kind (md-raid6, ...)"));
        if (l.kind != LayoutKind::ZfsStripe && l.kind != LayoutKind::Guest)
            return badInput(rep.at(*inner, where + "inner",
                                   "only zfs-stripe (a pool on the array) and guest layouts are "
                                   "built on an inner md array"));
        l.inner = innerKind;
    }
    const auto md = l.mdKind();
    for (const char* key : {"md_device", "chunk", "bitmap", "assume_clean"})
        if (!md && t.get(key))
            return badInput(rep.at(t, key, where + key,
                                   "only md layouts (or layouts with an inner md array) take it"));
    if (!isMd(l.kind) && t.get("filesystem"))
        return badInput(rep.at(t, "filesystem", where + "filesystem",
                               "only md layouts are given a file system here"));
    LB_TRY(mdDevice, getString(t, "md_device", where, rep, false, "/dev/md/lb-" + l.name));
    if (mdDevice.rfind("/dev/md", 0) != 0)
        return badInput(
            rep.at(t, "md_device", where + "md_device", "must be /dev/mdN or /dev/md/NAME"));
    l.mdDevice = md ? mdDevice : "";
    LB_TRY(chunk, getSize(t, "chunk", where, rep, 512 * 1024, SizeConvention::Binary));
    if (chunk < 4096 || (chunk & (chunk - 1)) != 0)
        return badInput(
            rep.at(t, "chunk", where + "chunk", "must be a power of two of at least 4K"));
    l.chunkBytes = chunk;
    LB_TRY(bitmap, getChoice(t, "bitmap", where, rep, {"internal", "none"}, "internal"));
    l.bitmap = bitmap == "internal";
    LB_TRY(assumeClean, getBool(t, "assume_clean", where, rep, false));
    l.assumeClean = assumeClean;
    LB_TRY(filesystem, getChoice(t, "filesystem", where, rep, {"ext4", "xfs"}, "ext4"));
    l.filesystem = filesystem;
    if (const toml::node* guest = t.get("guest")) {
        const auto* gt = guest->as_table();
        if (!gt)
            return badInput(rep.at(*guest, where + "guest", "expected a [layouts.guest] table"));
        if (l.kind != LayoutKind::Guest)
            return badInput(rep.at(*guest, where + "guest", "only guest layouts take it"));
        LB_TRY(g, parseGuest(*gt, where + "guest.", baseDir, rep));
        l.guest = std::move(g);
    } else if (l.kind == LayoutKind::Guest) {
        return badInput(rep.at(t, where + "guest",
                               "a guest layout needs a [layouts.guest] table: how the virtual "
                               "machine is started and reached"));
    }
    if (const toml::node* exported = t.get("export")) {
        const auto* et = exported->as_table();
        if (!et)
            return badInput(
                rep.at(*exported, where + "export", "expected a [layouts.export] table"));
        LB_TRY(e, parseExport(*et, where + "export.", baseDir, rep, l));
        l.exported = std::move(e);
    }
    if (l.kind == LayoutKind::Guest && !l.inner && l.disks.size() > 1)
        return badInput(rep.at(t, "disks", where + "disks",
                               "a guest without an inner md array is passed exactly one disk"));
    if (l.kind == LayoutKind::Dir && !l.disks.empty())
        return badInput(rep.at(t, "disks", where + "disks", "a dir layout takes no disks"));
    if (l.kind != LayoutKind::Dir && l.disks.empty())
        return badInput(rep.at(t, where + "disks", "a " + kindText + " layout needs disks"));
    LB_TRY(precondition, getChoice(t, "precondition", where, rep, {"none", "snia"}, "none"));
    l.precondition = precondition == "snia";
    LB_TRY(bytes, getPreconditionSize(t, where, rep));
    l.preconditionBytes = bytes;
    if (l.precondition && l.kind == LayoutKind::Dir && !bytes)
        return badInput(rep.at(t, "precondition", where + "precondition",
                               "a dir layout is preconditioned only with a precondition_size: "
                               "layoutbench does not fill a directory it did not make"));
    return l;
}

Expected<ScenarioDrill> parseDrill(const toml::table& t, const std::string& where,
                                   const Reporter& rep) {
    if (auto r =
            rejectUnknown(t, {"layout", "action", "disks", "read_load", "timeout"}, where, rep);
        !r)
        return fail(r.error());
    ScenarioDrill d;
    d.line = static_cast<int>(t.source().begin.line);
    LB_TRY(layout, getString(t, "layout", where, rep, true));
    d.layout = layout;
    LB_TRY(action, getEnum<DrillAction>(t, "action", where, rep));
    if (!action)
        return badInput(rep.at(t, where + "action", "is required"));
    d.action = *action;
    if (const toml::node* disks = t.get("disks")) {
        const auto* arr = disks->as_array();
        if (!arr || arr->empty())
            return badInput(rep.at(*disks, where + "disks", "expected a list of spare disk names"));
        for (const auto& item : *arr) {
            const auto* str = item.as_string();
            if (!str)
                return badInput(rep.at(item, where + "disks", "expected a disk name"));
            d.disks.push_back(str->get());
        }
    } else {
        return badInput(rep.at(t, where + "disks", "a drill needs the spare disks it adds"));
    }
    LB_TRY(readLoad, getBool(t, "read_load", where, rep, true));
    d.readLoad = readLoad;
    LB_TRY(timeout, getInt(t, "timeout", where, rep, 24 * 3600, 1, 7 * 24 * 3600));
    d.timeoutSeconds = static_cast<int>(timeout);
    return d;
}

} // namespace lb::scenario_parse
