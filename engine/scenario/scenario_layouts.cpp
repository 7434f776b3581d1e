// The scenario's disks, layouts (with their guests) and drills.
#include "engine/base/size.h"
#include "engine/exec/ssh_runner.h"
#include "engine/scenario/scenario_internal.h"

#include <algorithm>

namespace lb::scenario_parse {

Expected<ScenarioDisk> parseDisk(const toml::table& t, const std::string& where,
                                 const std::string& baseDir, const Reporter& rep) {
    if (auto r = rejectUnknown(t, ScenarioTable::Disk, where, rep); !r)
        return fail(r.error());
    const auto keyOf = [](std::string_view n) -> const OptionSpec& {
        return scenarioKey(ScenarioTable::Disk, n);
    };
    ScenarioDisk d;
    d.line = static_cast<int>(t.source().begin.line);
    LB_TRY(name, getString(t, keyOf("name"), where, rep));
    LB_TRY(device, getString(t, keyOf("device"), where, rep));
    LB_TRY(file, getString(t, keyOf("file"), where, rep));
    LB_TRY(size, getSize(t, keyOf("size"), where, rep));
    LB_TRY(wipe, getBool(t, keyOf("wipe"), where, rep));
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

namespace {

// bhyve boots a disk image, by bhyveload (FreeBSD guests only) or UEFI firmware, and runs on
// the host's own network through a tap interface.
Expected<ScenarioGuest> checkBhyveGuest(const toml::table& t, const std::string& where,
                                        const Reporter& rep, ScenarioGuest g) {
    if (g.image.empty())
        return badInput(rep.at(t, where + "image",
                               "a bhyve guest boots a disk image (image): bhyveload loads a "
                               "FreeBSD guest's kernel from it, or UEFI firmware (firmware) boots "
                               "it"));
    for (const char* qemuOnly : {"kernel", "initrd", "fw_cfg", "domain"})
        if (t.get(qemuOnly))
            return badInput(
                rep.at(t, qemuOnly, where + qemuOnly, "a bhyve guest does not take it"));
    if (g.firmware.empty() && g.os != TargetOs::FreeBsd)
        return badInput(rep.at(t, where + "firmware",
                               "bhyveload boots only FreeBSD guests: give os = \"freebsd\", or "
                               "UEFI firmware (firmware) for another guest"));
    if (g.tap.empty() || hasSpace(g.tap))
        return badInput(rep.at(t, "tap", where + "tap", "expected an interface name (tap0)"));
    return g;
}

// What each hypervisor needs of the guest's keys, and the keys it does not take.
Expected<ScenarioGuest> checkHypervisor(const toml::table& t, const std::string& where,
                                        const Reporter& rep, ScenarioGuest g) {
    if (g.hypervisor != Hypervisor::Bhyve)
        for (const char* bhyveOnly : {"firmware", "tap"})
            if (t.get(bhyveOnly))
                return badInput(
                    rep.at(t, bhyveOnly, where + bhyveOnly, "only a bhyve guest takes it"));
    if (g.hypervisor == Hypervisor::Bhyve)
        return checkBhyveGuest(t, where, rep, std::move(g));
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

const OptionSpec& guestKey(std::string_view n) {
    return scenarioKey(ScenarioTable::Guest, n);
}
const OptionSpec& layoutKey(std::string_view n) {
    return scenarioKey(ScenarioTable::Layout, n);
}

// A list of strings, as the disks and fw_cfg keys take it: absent is empty, and a message says
// what the list holds (`list`) and what each item is (`item`).
Expected<std::vector<std::string>> stringArray(const toml::table& t, const OptionSpec& key,
                                               const std::string& where, const Reporter& rep,
                                               const std::string& list, const std::string& item) {
    std::vector<std::string> out;
    const toml::node* node = t.get(key.name);
    if (!node)
        return out;
    const auto* arr = node->as_array();
    if (!arr)
        return badInput(rep.at(*node, where + key.name, "expected a list of " + list));
    for (const auto& entry : *arr) {
        const auto* s = entry.as_string();
        if (!s)
            return badInput(rep.at(entry, where + key.name, "expected " + item));
        out.push_back(s->get());
    }
    return out;
}

// Which hypervisor runs the guest, what the guest runs, and how layoutbench reaches it.
Expected<void> parseGuestReach(const toml::table& t, const std::string& where,
                               const std::string& baseDir, const Reporter& rep, ScenarioGuest& g) {
    LB_TRY(hypervisorName, getChoice(t, guestKey("hypervisor"), where, rep));
    g.hypervisor = *enumFromName<Hypervisor>(hypervisorName);
    LB_TRY(layout, getChoice(t, guestKey("layout"), where, rep));
    g.layout = layout;
    LB_TRY(guestOs, getChoice(t, guestKey("os"), where, rep));
    g.os = *enumFromName<TargetOs>(guestOs);
    if (g.os == TargetOs::FreeBsd && !g.layout.starts_with("zfs"))
        return badInput(
            rep.at(t, "layout", where + "layout",
                   "a FreeBSD guest builds ZFS (zfs-stripe); ext4 and xfs are Linux's"));
    LB_TRY(sshPort, getInt(t, guestKey("ssh_port"), where, rep));
    g.sshPort = static_cast<int>(sshPort);
    if (g.sshPort != 0 && g.hypervisor != Hypervisor::Qemu)
        return badInput(rep.at(t, "ssh_port", where + "ssh_port",
                               "only a qemu guest started by layoutbench has a forwarded port"));
    LB_TRY(target, getString(t, guestKey("target").name.c_str(), where, rep, false,
                             g.sshPort ? "ssh://root@127.0.0.1:" + std::to_string(g.sshPort) : ""));
    if (target.empty())
        return badInput(rep.at(t, where + "target",
                               "how to reach the guest is required: target = "
                               "\"ssh://root@GUEST\" (or ssh_port for a qemu guest)"));
    if (auto url = parseSshUrl(target); !url)
        return badInput(rep.at(t, "target", where + "target", url.error().message));
    g.target = target;
    LB_TRY(identity, getString(t, guestKey("identity"), where, rep));
    g.identity = resolve(baseDir, identity);
    LB_TRY(knownHosts, getString(t, guestKey("known_hosts"), where, rep));
    g.knownHosts = resolve(baseDir, knownHosts);
    return {};
}

// What the guest boots (a kernel, an image, firmware) and the disk it is given.
Expected<void> parseGuestBoot(const toml::table& t, const std::string& where,
                              const std::string& baseDir, const Reporter& rep, ScenarioGuest& g) {
    LB_TRY(kernel, getString(t, guestKey("kernel"), where, rep));
    g.kernel = resolve(baseDir, kernel);
    LB_TRY(initrd, getString(t, guestKey("initrd"), where, rep));
    g.initrd = resolve(baseDir, initrd);
    LB_TRY(append, getString(t, guestKey("append"), where, rep));
    g.append = append;
    LB_TRY(image, getString(t, guestKey("image"), where, rep));
    g.image = resolve(baseDir, image);
    LB_TRY(firmware, getString(t, guestKey("firmware"), where, rep));
    g.firmware = resolve(baseDir, firmware);
    // A qemu guest booted from an image, and every bhyve guest, has that image as its first
    // disk. FreeBSD names virtio disks vtbd0, vtbd1, ...
    const bool second =
        (g.hypervisor == Hypervisor::Qemu || g.hypervisor == Hypervisor::Bhyve) && !image.empty();
    const std::string defaultDisk = g.os == TargetOs::FreeBsd
                                        ? (second ? "/dev/vtbd1" : "/dev/vtbd0")
                                        : (second ? "/dev/vdb" : "/dev/vda");
    LB_TRY(disk, getString(t, guestKey("disk").name.c_str(), where, rep, false, defaultDisk));
    if (disk.rfind("/dev/", 0) != 0)
        return badInput(rep.at(t, "disk", where + "disk", "must be a path under /dev/"));
    g.disk = disk;
    LB_TRY(attachAs, getString(t, guestKey("attach_as").name.c_str(), where, rep, false,
                               g.hypervisor == Hypervisor::Xen ? "xvdb" : "vdb"));
    g.attachAs = attachAs;
    return {};
}

// The virtual machine itself: accelerator, memory, processors, the disk's cache and I/O, its
// bus, qemu's fw_cfg entries, bhyve's tap interface and libvirt's or Xen's domain.
Expected<void> parseGuestMachine(const toml::table& t, const std::string& where,
                                 const Reporter& rep, ScenarioGuest& g) {
    LB_TRY(accel, getChoice(t, guestKey("accel"), where, rep));
    g.accel = accel;
    LB_TRY(memory, getSize(t, guestKey("memory"), where, rep, SizeConvention::Binary));
    if (memory < 64 * 1024 * 1024)
        return badInput(rep.at(t, "memory", where + "memory", "must be at least 64M"));
    g.memoryBytes = memory;
    g.memoryStated = t.contains("memory");
    LB_TRY(cpus, getInt(t, guestKey("cpus"), where, rep));
    g.cpus = static_cast<int>(cpus);
    LB_TRY(cache, getChoice(t, guestKey("cache"), where, rep));
    g.cache = cache;
    LB_TRY(aio, getChoice(t, guestKey("aio"), where, rep));
    g.aio = aio;
    LB_TRY(iothreads, getInt(t, guestKey("iothreads"), where, rep));
    g.iothreads = static_cast<int>(iothreads);
    LB_TRY(bus, getChoice(t, guestKey("bus"), where, rep));
    g.bus = bus;
    LB_TRY(fwCfg, stringArray(t, guestKey("fw_cfg"), where, rep, "name=…,file=…", "a string"));
    g.fwCfg = std::move(fwCfg);
    LB_TRY(tap, getString(t, guestKey("tap").name.c_str(), where, rep, false, "tap0"));
    g.tap = tap;
    LB_TRY(domain, getString(t, guestKey("domain"), where, rep));
    g.domain = domain;
    return {};
}

} // namespace

Expected<ScenarioGuest> parseGuest(const toml::table& t, const std::string& where,
                                   const std::string& baseDir, const Reporter& rep) {
    if (auto r = rejectUnknown(t, ScenarioTable::Guest, where, rep); !r)
        return fail(r.error());
    ScenarioGuest g;
    LB_TRY_VOID(parseGuestReach(t, where, baseDir, rep, g));
    LB_TRY_VOID(parseGuestBoot(t, where, baseDir, rep, g));
    LB_TRY_VOID(parseGuestMachine(t, where, rep, g));
    return checkHypervisor(t, where, rep, std::move(g));
}

namespace {

// The layout's name, kind and role, and where it is built: a directory, or a pool's name.
Expected<void> parseLayoutIdentity(const toml::table& t, const std::string& where,
                                   const std::string& baseDir, const Reporter& rep,
                                   ScenarioLayout& l) {
    LB_TRY(name, getString(t, layoutKey("name"), where, rep));
    if (!validName(name))
        return badInput(
            rep.at(t, "name", where + "name", "use letters, digits, '-', '_' and '.' only"));
    l.name = name;
    LB_TRY(kindText, getString(t, layoutKey("kind"), where, rep));
    const auto kind = parseLayoutKind(kindText);
    if (!kind)
        return badInput(rep.at(t, "kind", where + "kind", unknownLayoutKind(kindText)));
    l.kind = *kind;
    LB_TRY(baseline, getBool(t, layoutKey("baseline"), where, rep));
    l.baseline = baseline;
    // Required where it applies: dir layouts only.
    LB_TRY(path,
           getString(t, layoutKey("path").name.c_str(), where, rep, l.kind == LayoutKind::Dir));
    if (l.kind == LayoutKind::Dir && path.empty())
        return badInput(rep.at(t, "path", where + "path", "must not be empty"));
    l.path = resolve(baseDir, path);
    if (l.kind != LayoutKind::Dir && !path.empty())
        return badInput(rep.at(t, "path", where + "path", "only dir layouts take a path"));
    LB_TRY(pool, getString(t, layoutKey("pool").name.c_str(), where, rep, false, "lb-" + l.name));
    if (!validName(pool))
        return badInput(rep.at(t, where + "pool", "use letters, digits, '-', '_' and '.' only"));
    l.pool = pool;
    return {};
}

// The pool's shape and properties: ashift, recordsize, vdevs, dRAID's groups and spares,
// compression, atime and autotrim.
Expected<void> parseZfsProperties(const toml::table& t, const std::string& where,
                                  const Reporter& rep, ScenarioLayout& l) {
    LB_TRY(ashift, getInt(t, layoutKey("ashift"), where, rep));
    l.ashift = static_cast<unsigned>(ashift);
    LB_TRY(record, getSize(t, layoutKey("recordsize"), where, rep, SizeConvention::Binary));
    if (record < 512 || record > 16 * 1024 * 1024 || (record & (record - 1)) != 0)
        return badInput(rep.at(t, "recordsize", where + "recordsize",
                               "must be a power of two from 512 to 16M"));
    l.recordsizeBytes = record;
    if (l.kind == LayoutKind::ZfsMirror || isRaidz(l.kind) || isDraid(l.kind)) {
        LB_TRY(vdevs, getInt(t, layoutKey("vdevs"), where, rep));
        l.vdevs = static_cast<unsigned>(vdevs);
    }
    if (isDraid(l.kind)) {
        LB_TRY(data, getInt(t, layoutKey("draid_data"), where, rep));
        LB_TRY(spares, getInt(t, layoutKey("draid_spares"), where, rep));
        l.draid = {static_cast<unsigned>(data), static_cast<unsigned>(spares)};
    }
    LB_TRY(compression, getString(t, layoutKey("compression"), where, rep));
    l.compression = compression;
    LB_TRY(atime, getBool(t, layoutKey("atime"), where, rep));
    l.atime = atime;
    LB_TRY(autotrim, getBool(t, layoutKey("autotrim"), where, rep));
    l.autotrim = autotrim;
    return {};
}

// A fraction as a number (0.8) or, as on the command line, a percentage in a string ("80%").
Expected<double> getFraction(const toml::table& t, const OptionSpec& key, const std::string& where,
                             const Reporter& rep) {
    const toml::node* node = t.get(key.name);
    const auto* text = node ? node->as_string() : nullptr;
    if (!text)
        return getDouble(t, key, where, rep);
    auto fraction = parseFraction(text->get());
    if (!fraction)
        return badInput(rep.at(*node, where + key.name, fraction.error().message));
    return *fraction;
}

// The disks the layout is built on, the share of each it uses, and an md array under it.
Expected<void> parseLayoutDisks(const toml::table& t, const std::string& where, const Reporter& rep,
                                ScenarioLayout& l) {
    LB_TRY(under, getFraction(t, layoutKey("underprovision"), where, rep));
    if (!(under > 0 && under <= 1.0))
        return badInput(
            rep.at(t, "underprovision", where + "underprovision", "must be a fraction in (0, 1]"));
    l.underprovision = under;
    LB_TRY(disks, stringArray(t, layoutKey("disks"), where, rep, "disk names", "a disk name"));
    l.disks = std::move(disks);
    if (const toml::node* inner = t.get(layoutKey("inner").name)) {
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
    return {};
}

// A ZFS layout's auxiliary vdevs (log, cache, special), special_small_blocks, and the dataset's
// sync and logbias: refused, naming the key, on any layout that is not a pool of its own disks.
Expected<void> parseZfsAux(const toml::table& t, const std::string& where, const Reporter& rep,
                           ScenarioLayout& l) {
    static constexpr const char* keys[] = {"log",  "cache",  "special", "special_small_blocks",
                                           "sync", "logbias"};
    if (!isZfs(l.kind)) {
        for (const char* key : keys)
            if (t.get(key))
                return badInput(rep.at(t, key, where + key,
                                       "only ZFS layouts (zfs-*) take it: a " +
                                           std::string(layoutKindName(l.kind)) +
                                           " layout has no pool of its own"));
        return {};
    }
    ScenarioZfsAux& aux = l.zfsAux;
    for (auto [key, list] : {std::pair{"log", &aux.log}, std::pair{"cache", &aux.cache},
                             std::pair{"special", &aux.special}}) {
        LB_TRY(disks, stringArray(t, layoutKey(key), where, rep, "disk names", "a disk name"));
        if (t.get(key) && disks.empty())
            return badInput(rep.at(t, key, where + key, "expected at least one disk name"));
        *list = std::move(disks);
    }
    LB_TRY(small,
           getSize(t, layoutKey("special_small_blocks"), where, rep, SizeConvention::Binary));
    if (small != 0 && (small < 512 || small > 1024 * 1024 || (small & (small - 1)) != 0))
        return badInput(rep.at(t, "special_small_blocks", where + "special_small_blocks",
                               "must be 0 or a power of two from 512 to 1M"));
    if (small != 0 && aux.special.empty())
        return badInput(rep.at(t, "special_small_blocks", where + "special_small_blocks",
                               "small blocks go to a special vdev: give special = [...] too"));
    aux.specialSmallBlocksBytes = small;
    LB_TRY(sync, getChoice(t, layoutKey("sync"), where, rep));
    aux.sync = *enumFromName<ZfsSync>(sync);
    LB_TRY(logbias, getChoice(t, layoutKey("logbias"), where, rep));
    aux.logbias = *enumFromName<ZfsLogbias>(logbias);
    return {};
}

// The md array's keys, taken only by md layouts and layouts on an inner md array.
Expected<void> parseMdProperties(const toml::table& t, const std::string& where,
                                 const Reporter& rep, ScenarioLayout& l) {
    const auto md = l.mdKind();
    for (const char* key : {"md_device", "chunk", "bitmap", "assume_clean"})
        if (!md && t.get(key))
            return badInput(rep.at(t, key, where + key,
                                   "only md layouts (or layouts with an inner md array) take it"));
    if (!isMd(l.kind) && t.get("filesystem"))
        return badInput(rep.at(t, "filesystem", where + "filesystem",
                               "only md layouts are given a file system here"));
    LB_TRY(mdDevice, getString(t, layoutKey("md_device").name.c_str(), where, rep, false,
                               "/dev/md/lb-" + l.name));
    if (mdDevice.rfind("/dev/md", 0) != 0)
        return badInput(
            rep.at(t, "md_device", where + "md_device", "must be /dev/mdN or /dev/md/NAME"));
    l.mdDevice = md ? mdDevice : "";
    LB_TRY(chunk, getSize(t, layoutKey("chunk"), where, rep, SizeConvention::Binary));
    if (chunk < 4096 || (chunk & (chunk - 1)) != 0)
        return badInput(
            rep.at(t, "chunk", where + "chunk", "must be a power of two of at least 4K"));
    l.chunkBytes = chunk;
    LB_TRY(bitmap, getChoice(t, layoutKey("bitmap"), where, rep));
    l.bitmap = bitmap == "internal";
    LB_TRY(assumeClean, getBool(t, layoutKey("assume_clean"), where, rep));
    l.assumeClean = assumeClean;
    LB_TRY(filesystem, getChoice(t, layoutKey("filesystem"), where, rep));
    l.filesystem = filesystem;
    return {};
}

// The layout's [layouts.guest] (required of a guest layout, refused elsewhere) and
// [layouts.export] tables.
Expected<void> parseGuestAndExport(const toml::table& t, const std::string& where,
                                   const std::string& baseDir, const Reporter& rep,
                                   ScenarioLayout& l) {
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
    return {};
}

// The disks each kind needs, and SSD preconditioning, which a directory takes only with a size.
Expected<void> parsePrecondition(const toml::table& t, const std::string& where,
                                 const Reporter& rep, ScenarioLayout& l) {
    if (l.kind == LayoutKind::Guest && !l.inner && l.disks.size() > 1)
        return badInput(rep.at(t, "disks", where + "disks",
                               "a guest without an inner md array is passed exactly one disk"));
    if (l.kind == LayoutKind::Dir && !l.disks.empty())
        return badInput(rep.at(t, "disks", where + "disks", "a dir layout takes no disks"));
    if (l.kind != LayoutKind::Dir && l.disks.empty())
        return badInput(rep.at(t, where + "disks",
                               "a " + std::string(layoutKindName(l.kind)) + " layout needs disks"));
    // Read in place, not moved out by LB_TRY: GCC 12 at -O3 took the moved string's SSO buffer
    // for uninitialised (-Wmaybe-uninitialized, a false alarm) and only the comparison is needed.
    const auto precondition = getChoice(t, layoutKey("precondition"), where, rep);
    if (!precondition)
        return fail(precondition.error());
    l.precondition = *precondition == "snia";
    LB_TRY(bytes, getPreconditionSize(t, where, rep));
    l.preconditionBytes = bytes;
    if (l.precondition && l.kind == LayoutKind::Dir && !bytes)
        return badInput(rep.at(t, "precondition", where + "precondition",
                               "a dir layout is preconditioned only with a precondition_size: "
                               "layoutbench does not fill a directory it did not make"));
    LB_TRY(fill, getFillLevels(t, where, rep));
    l.fill = std::move(fill);
    if (l.kind == LayoutKind::Dir && l.fill &&
        std::any_of(l.fill->begin(), l.fill->end(), [](double f) { return f > 0; }))
        return badInput(rep.at(t, "fill", where + "fill",
                               "a dir layout is not filled: layoutbench does not fill a "
                               "directory it did not make"));
    return {};
}

} // namespace

Expected<ScenarioLayout> parseLayout(const toml::table& t, const std::string& where,
                                     const std::string& baseDir, const Reporter& rep) {
    if (auto r = rejectUnknown(t, ScenarioTable::Layout, where, rep); !r)
        return fail(r.error());
    ScenarioLayout l;
    l.line = static_cast<int>(t.source().begin.line);
    LB_TRY_VOID(parseLayoutIdentity(t, where, baseDir, rep, l));
    LB_TRY_VOID(parseZfsProperties(t, where, rep, l));
    LB_TRY_VOID(parseLayoutDisks(t, where, rep, l));
    LB_TRY_VOID(parseZfsAux(t, where, rep, l));
    LB_TRY_VOID(parseMdProperties(t, where, rep, l));
    LB_TRY_VOID(parseGuestAndExport(t, where, baseDir, rep, l));
    LB_TRY_VOID(parsePrecondition(t, where, rep, l));
    return l;
}

// A pulled member's keys: the command that pulls it, required with fail = "pull" and refused
// otherwise, and how long the drill waits for md or ZFS to see it (also for fail = "error").
static Expected<void> parsePull(const toml::table& t, const std::string& where, const Reporter& rep,
                                ScenarioDrill& d) {
    const auto keyOf = [](std::string_view n) -> const OptionSpec& {
        return scenarioKey(ScenarioTable::Drill, n);
    };
    if (d.failure != DrillFailure::Pull) {
        const bool waits = d.failure == DrillFailure::Error;
        if (const toml::node* node = t.get("pull_command"))
            return badInput(rep.at(*node, where + "pull_command", "only fail = \"pull\" takes it"));
        if (const toml::node* node = t.get("pull_wait"); node && !waits)
            return badInput(
                rep.at(*node, where + "pull_wait", "only fail = \"pull\" or \"error\" takes it"));
        if (waits) {
            LB_TRY(wait, getInt(t, keyOf("pull_wait"), where, rep));
            d.pullWaitSeconds = static_cast<int>(wait);
        }
        return {};
    }
    LB_TRY(command, getStringList(t, keyOf("pull_command"), where, rep));
    if (command.empty() || command.front().empty())
        return badInput(rep.at(t, where + "pull_command",
                               "fail = \"pull\" needs the command that pulls the disk, "
                               "[\"program\", \"argument\", ...]"));
    d.pullCommand = command;
    LB_TRY(wait, getInt(t, keyOf("pull_wait"), where, rep));
    d.pullWaitSeconds = static_cast<int>(wait);
    return {};
}

// A fail-rebuild drill's keys: the member it fails, how, the fill and the load's phases. The
// other drills take none of them.
Expected<void> parseFailRebuild(const toml::table& t, const std::string& where, const Reporter& rep,
                                ScenarioDrill& d) {
    const auto keyOf = [](std::string_view n) -> const OptionSpec& {
        return scenarioKey(ScenarioTable::Drill, n);
    };
    if (d.action != DrillAction::FailRebuild) {
        for (const auto& [key, node] : t)
            if (isFailRebuildKey(key.str()))
                return badInput(rep.at(node, where + std::string(key.str()),
                                       "only a fail-rebuild drill takes it (this one is " +
                                           std::string(enumName(d.action)) + ")"));
        return {};
    }
    LB_TRY(disk, getString(t, keyOf("disk"), where, rep));
    if (disk.empty())
        return badInput(
            rep.at(t, where + "disk", "a fail-rebuild drill names the member it fails"));
    d.failDisk = disk;
    LB_TRY(failure, getEnum<DrillFailure>(t, keyOf("fail").name.c_str(), where, rep));
    d.failure = failure.value_or(DrillFailure::Admin);
    LB_TRY_VOID(parsePull(t, where, rep, d));
    LB_TRY(fill, getFraction(t, keyOf("fill"), where, rep));
    if (!(fill >= 0 && fill <= 0.95)) {
        const toml::node* node = t.get("fill");
        return badInput(rep.at(*node, where + "fill", "must be in [0, 0.95]"));
    }
    d.fill = fill;
    LB_TRY(phase, getInt(t, keyOf("phase_seconds"), where, rep));
    d.phaseSeconds = static_cast<int>(phase);
    LB_TRY(speed, getInt(t, keyOf("sync_speed_min"), where, rep));
    d.syncSpeedMinKiB = static_cast<int>(speed);
    return {};
}

Expected<ScenarioDrill> parseDrill(const toml::table& t, const std::string& where,
                                   const Reporter& rep) {
    if (auto r = rejectUnknown(t, ScenarioTable::Drill, where, rep); !r)
        return fail(r.error());
    const auto keyOf = [](std::string_view n) -> const OptionSpec& {
        return scenarioKey(ScenarioTable::Drill, n);
    };
    ScenarioDrill d;
    d.line = static_cast<int>(t.source().begin.line);
    LB_TRY(layout, getString(t, keyOf("layout"), where, rep));
    d.layout = layout;
    LB_TRY(action, getEnum<DrillAction>(t, keyOf("action").name.c_str(), where, rep));
    if (!action)
        return badInput(rep.at(t, where + "action", "is required"));
    d.action = *action;
    if (const toml::node* disks = t.get(keyOf("disks").name)) {
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
    LB_TRY_VOID(parseFailRebuild(t, where, rep, d));
    LB_TRY(readLoad, getBool(t, keyOf("read_load"), where, rep));
    d.readLoad = readLoad;
    LB_TRY(timeout, getInt(t, keyOf("timeout"), where, rep));
    d.timeoutSeconds = static_cast<int>(timeout);
    return d;
}

} // namespace lb::scenario_parse
