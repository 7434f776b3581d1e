// The disk safety checks on FreeBSD: the same questions as on Linux (mounted, swap, a member of
// an imported pool or of a GEOM mirror or RAID, a partition table, a ZFS label, a file system),
// asked of FreeBSD's own sources: mount -p, swapinfo -k, zpool status -P, gmirror and graid
// status, gpart show -p, zdb -l and fstyp. The parsers are tested on outputs captured from
// FreeBSD 14 systems and the Handbook (tests/data/freebsd); this path is not exercised on a live
// FreeBSD host here.
#include "engine/exec/safety.h"

#include <algorithm>
#include <chrono>
#include <sstream>

namespace lb {

namespace {

std::vector<std::string> words(std::string_view line) {
    std::vector<std::string> out;
    std::istringstream in{std::string(line)};
    for (std::string w; in >> w;)
        out.push_back(std::move(w));
    return out;
}

std::vector<std::string_view> lines(std::string_view text) {
    std::vector<std::string_view> out;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        out.push_back(text.substr(0, nl));
        if (nl == std::string_view::npos)
            break;
        text.remove_prefix(nl + 1);
    }
    return out;
}

// "/dev/da0p1" -> "da0p1"; "da0" stays.
std::string withoutDev(std::string_view path) {
    if (path.starts_with("/dev/"))
        path.remove_prefix(5);
    return std::string(path);
}

// da0p1, da0s1a, da0.eli belong to da0; da01 does not.
bool onDisk(std::string_view provider, std::string_view disk) {
    if (!provider.starts_with(disk))
        return false;
    if (provider.size() == disk.size())
        return true;
    const char next = provider[disk.size()];
    return next == 'p' || next == 's' || next == '.';
}

} // namespace

std::vector<FreeBsdMount> parseFreeBsdMountP(std::string_view text) {
    std::vector<FreeBsdMount> out;
    for (const auto line : lines(text)) {
        const auto w = words(line);
        if (w.size() >= 3 && !w[0].starts_with("#"))
            out.push_back({w[0], w[1], w[2]});
    }
    return out;
}

std::vector<std::string> parseFreeBsdSwapinfo(std::string_view text) {
    std::vector<std::string> out;
    for (const auto line : lines(text)) {
        const auto w = words(line);
        // The header ("Device 1K-blocks ...") and, with several devices, a "Total" line.
        if (w.size() >= 4 && w[0] != "Device" && w[0] != "Total")
            out.push_back(w[0]);
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> parseZpoolStatusLeaves(std::string_view text) {
    std::vector<std::pair<std::string, std::string>> out;
    std::string pool;
    bool inConfig = false;
    for (const auto line : lines(text)) {
        const auto w = words(line);
        if (w.size() >= 2 && w[0] == "pool:") {
            pool = w[1];
            inConfig = false;
            continue;
        }
        if (w.size() >= 1 && w[0] == "config:") {
            inConfig = true;
            continue;
        }
        if (!inConfig || w.empty() || w[0] == "NAME")
            continue;
        if (w[0] == "errors:") {
            inConfig = false;
            continue;
        }
        // Leaves are devices: a path (-P), or a provider name; vdev rows (mirror-0, raidz2-0,
        // draid..., spares, logs, cache, special) and the pool's own row are not.
        const std::string& name = w[0];
        const bool grouping = name == pool || name.starts_with("mirror-") ||
                              name.starts_with("raidz") || name.starts_with("draid") ||
                              name == "spares" || name == "logs" || name == "cache" ||
                              name == "special" || name == "dedup" ||
                              name.starts_with("replacing-") || name.starts_with("spare-");
        if (!grouping)
            out.emplace_back(pool, name);
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> parseGeomStatus(std::string_view text) {
    std::vector<std::pair<std::string, std::string>> out;
    std::string name;
    for (const auto line : lines(text)) {
        const auto w = words(line);
        if (w.empty() || (w[0] == "Name" && w.size() >= 3 && w[1] == "Status"))
            continue;
        // "mirror/gm0  COMPLETE  ada1 (ACTIVE)" then "  ada0 (ACTIVE)" for each more component.
        const bool first = !line.empty() && line.front() != ' ' && line.front() != '\t';
        if (first && w.size() >= 3) {
            name = w[0];
            out.emplace_back(name, w[2]);
        } else if (!first && !name.empty()) {
            out.emplace_back(name, w[0]);
        }
    }
    return out;
}

std::vector<std::string> parseGpartShowProviders(std::string_view text) {
    std::vector<std::string> out;
    for (const auto line : lines(text)) {
        const auto w = words(line);
        // "=>  40  937703008  da1  GPT  (447G)" is the table; "40  532480  da1p1  efi  (260M)"
        // a partition (with -p), "- free -" rows have no provider.
        if (w.size() >= 4 && w[0] != "=>" && w[2] != "-")
            out.push_back(w[2]);
    }
    return out;
}

namespace {

// A FreeBSD tool asked about the disk, as root, for a minute at most.
Expected<ProcessResult> ask(Runner& runner, std::string program, std::vector<std::string> args) {
    return runner.run(
        Command::timed(std::move(program), std::move(args), std::chrono::seconds(60), true));
}

// What uses the disk now: a mounted file system, active swap, an imported pool, a gmirror or
// graid.
void noteUses(Runner& runner, const std::string& device, const std::string& disk, DiskState& s) {
    if (auto r = ask(runner, "mount", {"-p"}); r && r->ok()) {
        for (const auto& m : parseFreeBsdMountP(r->stdoutText))
            if (m.device.starts_with("/dev/") && onDisk(withoutDev(m.device), disk))
                s.inUse.push_back(device + ": " + m.device + " is mounted on " + m.mountPoint +
                                  " (" + m.fsType + ")");
    } else {
        s.inUse.push_back(device + ": mount -p could not be read, so it cannot be shown unmounted");
    }
    if (auto r = ask(runner, "swapinfo", {"-k"}); r && r->ok())
        for (const auto& dev : parseFreeBsdSwapinfo(r->stdoutText))
            if (onDisk(withoutDev(dev), disk))
                s.inUse.push_back(device + ": " + dev + " is active swap");
    if (auto r = ask(runner, "zpool", {"status", "-P"}); r && r->ok())
        for (const auto& [pool, leaf] : parseZpoolStatusLeaves(r->stdoutText))
            if (onDisk(withoutDev(leaf), disk))
                s.inUse.push_back(device + ": " + leaf + " is in the imported ZFS pool " + pool);
    for (const char* geom : {"gmirror", "graid"})
        if (auto r = ask(runner, geom, {"status"}); r && r->ok())
            for (const auto& [name, component] : parseGeomStatus(r->stdoutText))
                if (onDisk(component, disk))
                    s.inUse.push_back(device + ": a component of " + name + " (" + geom + ")");
}

// What the disk carries though nothing uses it: a partition table, a ZFS label, a file system.
void noteContents(Runner& runner, const std::string& device, const std::string& disk,
                  DiskState& s) {
    if (auto r = ask(runner, "gpart", {"show", "-p", disk}); r && r->ok()) {
        const auto parts = parseGpartShowProviders(r->stdoutText);
        s.carries.push_back(
            device + " carries a partition table" +
            (parts.empty() ? std::string() : " (" + std::to_string(parts.size()) + " partitions)"));
    }
    if (auto r = ask(runner, "zdb", {"-l", device});
        r && r->ok() && r->stdoutText.find("name:") != std::string::npos)
        s.carries.push_back(device + " carries a ZFS label");
    if (auto r = ask(runner, "fstyp", {device}); r && r->ok() && !r->stdoutText.empty())
        s.carries.push_back(device + " carries a " +
                            r->stdoutText.substr(0, r->stdoutText.find('\n')) + " file system");
}

} // namespace

Expected<DiskState> inspectDiskFreeBsd(Runner& runner, const std::string& device) {
    if (device.empty())
        return badInput("a disk with an empty device path");
    const std::string disk = withoutDev(device);
    DiskState s;
    s.path = device;
    s.resolvedPath = "/dev/" + disk;
    // diskinfo -v: a disk it cannot open is not one.
    LB_TRY(info, ask(runner, "diskinfo", {"-v", device}));
    if (!info.ok())
        return badInput(device + " is not a disk FreeBSD knows (diskinfo: " + info.exitSummary() +
                        ")");
    for (const auto line : lines(info.stdoutText))
        if (line.find("# Disk ident.") != std::string_view::npos) {
            const auto w = words(line);
            if (!w.empty() && w[0] != "#")
                s.serial = w[0];
        }
    noteUses(runner, device, disk, s);
    noteContents(runner, device, disk, s);
    return s;
}

} // namespace lb
