// Disk safety checks and the --yes-destroy rule. Every check runs as a Command through the
// Runner. Without udev (containers, minimal hosts) lsblk knows no partition-table or file-system
// types, so those come from the on-disk probes (blkid -p, wipefs) instead; lsblk supplies the
// device tree and mount points, which it reads from the kernel. What uses a disk (mounts, swap,
// holders in /sys, imported pools, / and /boot) is sorted from what it merely carries (labels,
// tables, signatures): only the latter can be wiped on purpose.

#include "engine/exec/safety.h"

#include "engine/base/joined.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace lb {

namespace {

using Json = nlohmann::json;

constexpr std::chrono::seconds kCheckTimeout{60};

Command tool(std::string program, std::vector<std::string> args) {
    return Command::timed(std::move(program), std::move(args), kCheckTimeout, true);
}

std::string lastLine(const ProcessResult& r) {
    return r.exitSummary();
}

std::string text(const Json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_string())
        return {};
    return j[key].get<std::string>();
}

// A block device and everything lsblk lists below it (partitions, md, dm, LVM).
struct Node {
    std::string name;  // lsblk's name: loop0p1, or a device-mapper device's own (lbdm0)
    std::string kname; // the kernel's name, as /sys has it: loop0p1, dm-0
    std::string path;  // /dev/loop0p1
    std::string type;  // disk, part, loop, lvm, crypt, dm, raid1, md ...
    std::vector<std::string> mountpoints;
    int depth = 0; // 0: the disk itself
};

void flatten(const Json& j, int depth, std::vector<Node>& out) {
    Node n;
    n.name = text(j, "name");
    n.kname = text(j, "kname");
    if (n.kname.empty())
        n.kname = n.name;
    n.path = text(j, "path");
    n.type = text(j, "type");
    n.depth = depth;
    if (j.contains("mountpoints") && j["mountpoints"].is_array())
        for (const auto& m : j["mountpoints"])
            if (m.is_string())
                n.mountpoints.push_back(m.get<std::string>());
    out.push_back(n);
    if (j.contains("children") && j["children"].is_array())
        for (const auto& c : j["children"])
            flatten(c, depth + 1, out);
}

bool isHolderType(const std::string& type) {
    return type == "md" || type == "lvm" || type == "crypt" || type == "dm" || type == "mpath" ||
           type.starts_with("raid") || type == "linear" || type == "multipath";
}

// How a holder of this lsblk TYPE is named in a reason.
std::string holderKind(const std::string& type) {
    if (type == "md" || type.starts_with("raid") || type == "linear")
        return "md array";
    if (type == "lvm")
        return "LVM volume";
    if (type == "crypt")
        return "dm-crypt device";
    if (type == "mpath" || type == "multipath")
        return "multipath device";
    return "device-mapper device";
}

struct ZfsLabel {
    std::string pool; // the pool's name, when the label says
    std::string guid; // the pool's guid in decimal, when the label says
};

// The pool's name and guid from `zdb -l`: "name: 'tank'" and "pool_guid: 1234".
ZfsLabel zdbLabel(const std::string& out) {
    ZfsLabel label;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        const auto key = line.find_first_not_of(' ');
        if (key == std::string::npos)
            continue;
        const std::string_view l = std::string_view(line).substr(key);
        if (label.pool.empty() && l.starts_with("name: '") && l.ends_with("'"))
            label.pool = std::string(l.substr(7, l.size() - 8));
        else if (label.guid.empty() && l.starts_with("pool_guid: "))
            label.guid = std::string(l.substr(11));
    }
    return label;
}

std::vector<std::string> splitLines(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            out.push_back(line);
    return out;
}

class Inspector {
public:
    Inspector(Runner& runner, std::string device) : runner_(runner), device_(std::move(device)) {}

    Expected<DiskState> inspect() {
        state_.path = device_;
        if (auto r = tree(); !r)
            return fail(r.error());
        using Check = Expected<void> (Inspector::*)();
        // What the kernel knows first, then what is on the disk.
        for (Check check :
             {&Inspector::mounts, &Inspector::swap, &Inspector::holders, &Inspector::systemDisks,
              &Inspector::zfs, &Inspector::partitionTable, &Inspector::signatures})
            if (auto r = (this->*check)(); !r)
                return fail(r.error());
        return state_;
    }

private:
    Expected<ProcessResult> run(Command c) {
        auto r = runner_.run(c);
        if (!r)
            return runtimeError(device_ + ": cannot check the disk: " + r.error().message);
        return r;
    }

    static void add(std::vector<std::string>& to, std::string why) {
        if (std::find(to.begin(), to.end(), why) == to.end())
            to.push_back(std::move(why));
    }
    void inUse(std::string why) { add(state_.inUse, std::move(why)); }
    void carries(std::string why) { add(state_.carries, std::move(why)); }

    // "/dev/loop0" or "/dev/loop0 (through /dev/loop0p1)" for a path of the disk.
    std::string through(const std::string& path) const {
        return device_ + (path == state_.resolvedPath ? "" : " (through " + path + ")");
    }

    // The tool ran but could not read the device (permissions, I/O error): refuse the disk,
    // saying why, rather than call it blank.
    void unprobed(const std::string& path, const std::string& toolName, const ProcessResult& r) {
        carries(through(path) + " could not be probed for signatures (" + toolName + ": " +
                lastLine(r) + ")");
    }

    // "/dev/loop0" or "/dev/loop0 (partition /dev/loop0p1)".
    std::string who(const Node& n) const {
        return n.depth == 0 ? device_ : device_ + " (through " + n.path + ")";
    }

    Expected<void> tree() {
        auto r = run(tool("lsblk", {"--json", "--bytes", "--output",
                                    "NAME,KNAME,PATH,TYPE,MOUNTPOINTS,SERIAL", "--", device_}));
        if (!r)
            return fail(r.error());
        if (!r->ok())
            return badInput(device_ + ": not a block device (lsblk: " + lastLine(*r) + ")");
        Json j;
        try {
            j = Json::parse(r->stdoutText);
        } catch (const Json::exception& e) {
            return runtimeError(device_ + ": cannot read lsblk's output: " + e.what());
        }
        if (!j.contains("blockdevices") || !j["blockdevices"].is_array() ||
            j["blockdevices"].size() != 1)
            return runtimeError(device_ + ": lsblk did not list exactly one device");
        const auto& dev = j["blockdevices"][0];
        flatten(dev, 0, nodes_);
        state_.resolvedPath = nodes_.front().path;
        state_.serial = text(dev, "serial");
        for (const auto& n : nodes_)
            if (n.depth == 0 || n.type == "part")
                own_.insert(n.path);
        return {};
    }

    Expected<void> mounts() {
        for (const auto& n : nodes_)
            for (const auto& m : n.mountpoints)
                if (m != "[SWAP]")
                    inUse(who(n) + " is mounted at " + m);
        return {};
    }

    Expected<void> swap() {
        auto r = run(tool("cat", {"/proc/swaps"}));
        if (!r)
            return fail(r.error());
        if (!r->ok())
            return runtimeError(device_ + ": cannot read /proc/swaps: " + lastLine(*r));
        const auto lines = splitLines(r->stdoutText);
        for (std::size_t i = 1; i < lines.size(); ++i) {
            const auto dev = lines[i].substr(0, lines[i].find_first_of(" \t"));
            swaps_.push_back(dev);
            for (const auto& n : nodes_)
                if (n.path == dev)
                    inUse(who(n) + " is used as swap");
        }
        for (const auto& n : nodes_)
            for (const auto& m : n.mountpoints)
                if (m == "[SWAP]")
                    inUse(who(n) + " is used as swap");
        return {};
    }

    // md arrays, device-mapper (LVM, dm-crypt, multipath) and the like that hold the disk or a
    // partition: what lsblk lists below it, and the holders the kernel lists in /sys (which
    // lsblk may not show on a minimal host). Each holder is named once, by its device path.
    Expected<void> holders() {
        std::map<std::string, std::pair<std::string, std::string>> held; // path -> (who, what)
        for (const auto& n : nodes_)
            if (n.depth > 0 && isHolderType(n.type) && !held.count(n.path))
                held[n.path] = {device_, holderKind(n.type)};
        // One line per holder: the holder directory's entry and, for device-mapper, its name;
        // plain sh, ls and cat, so it works on a minimal server (busybox find has no -printf).
        std::vector<std::string> args{
            "-c",
            "for d in \"$@\"; do ls -1 \"$d\" >/dev/null || exit 1; for h in \"$d\"/*; do "
            "[ -e \"$h\" ] || continue; echo \"${d%/holders} ${h##*/} "
            "$(cat \"$h/dm/name\" 2>/dev/null)\"; done; done",
            "sh"};
        for (const auto& n : nodes_)
            if (n.depth == 0 || n.type == "part")
                args.push_back("/sys/class/block/" + n.kname + "/holders");
        auto r = run(tool("sh", args));
        if (!r)
            return fail(r.error());
        if (!r->ok())
            return runtimeError(device_ + ": cannot read its holders in /sys: " + lastLine(*r));
        for (const auto& line : splitLines(r->stdoutText)) {
            std::istringstream words(line);
            std::string dir, name, dmName;
            words >> dir >> name >> dmName;
            const std::string member = "/dev/" + dir.substr(dir.rfind('/') + 1);
            const std::string path = dmName.empty() ? "/dev/" + name : "/dev/mapper/" + dmName;
            if (!held.count(path))
                held[path] = {through(member),
                              name.starts_with("md") ? "md array" : "device-mapper device"};
        }
        for (const auto& [path, holder] : held)
            inUse(holder.first + " is held by " + holder.second + " " + path);
        return {};
    }

    // ZFS labels: blkid on the disk and its partitions, and zdb, which reads labels blkid may
    // miss (it looks at all four). A label of a pool that is imported now is a pool in use.
    Expected<void> zfs() {
        std::vector<std::pair<std::string, ZfsLabel>> labels; // (path, label)
        for (const auto& path : own_) {
            auto probe = run(tool("blkid", {"-p", "-o", "export", "--", path}));
            if (!probe)
                return fail(probe.error());
            // 2 with nothing on stderr: nothing found. blkid also exits 2 when it cannot open
            // the device; a disk that cannot be probed is not blank.
            if (probe->exitCode != 0 && (probe->exitCode != 2 || !probe->stderrText.empty())) {
                unprobed(path, "blkid", *probe);
                continue;
            }
            std::map<std::string, std::string> values;
            for (const auto& line : splitLines(probe->stdoutText))
                if (const auto eq = line.find('='); eq != std::string::npos)
                    values[line.substr(0, eq)] = line.substr(eq + 1);
            probes_[path] = values;
            if (values["TYPE"] == "zfs_member")
                labels.push_back({path, {values["LABEL"], values["UUID"]}});
        }
        // zdb is optional: not every server has it.
        auto zdb = runner_.run(tool("zdb", {"-l", state_.resolvedPath}));
        if (zdb && zdb->exitCode == 0 && zdb->stdoutText.find("pool_guid") != std::string::npos)
            labels.push_back({state_.resolvedPath, zdbLabel(zdb->stdoutText)});
        if (labels.empty())
            return {};
        const auto imported = importedPools();
        for (const auto& [path, label] : labels) {
            const auto pool = label.pool.empty() ? std::string() : " " + label.pool;
            const bool live =
                std::any_of(imported.begin(), imported.end(), [&l = label](const auto& p) {
                    return l.guid.empty() ? p.first == l.pool : p.second == l.guid;
                });
            if (live)
                inUse(through(path) + " is a member of the imported ZFS pool" + pool);
            else
                carries(through(path) + " carries a ZFS label" +
                        (label.pool.empty() ? "" : " (pool " + label.pool + ", not imported)"));
        }
        return {};
    }

    // The imported pools, (name, guid): none where zpool is missing or no ZFS runs (zfs-fuse's
    // daemon stopped), since then no pool can be imported.
    std::vector<std::pair<std::string, std::string>> importedPools() {
        std::vector<std::pair<std::string, std::string>> out;
        auto r = runner_.run(tool("zpool", {"list", "-H", "-o", "name,guid"}));
        if (!r || !r->ok())
            return out;
        for (const auto& line : splitLines(r->stdoutText)) {
            const auto tab = line.find('\t');
            out.emplace_back(line.substr(0, tab),
                             tab == std::string::npos ? std::string() : line.substr(tab + 1));
        }
        return out;
    }

    Expected<void> partitionTable() {
        const auto& values = probes_[state_.resolvedPath];
        if (const auto it = values.find("PTTYPE"); it != values.end())
            carries(device_ + " carries a partition table (" + it->second + ")");
        for (const auto& n : nodes_)
            if (n.type == "part" && n.depth == 1) {
                carries(device_ + " carries a partition table (it has partition " + n.path + ")");
                break;
            }
        return {};
    }

    Expected<void> signatures() {
        for (const auto& path : own_) {
            auto r = run(tool("wipefs", {"--no-act", "--json", "--", path}));
            if (!r)
                return fail(r.error());
            if (!r->ok()) {
                unprobed(path, "wipefs", *r);
                continue;
            }
            Json j;
            try {
                j = r->stdoutText.empty() ? Json::object() : Json::parse(r->stdoutText);
            } catch (const Json::exception& e) {
                return runtimeError(path + ": cannot read wipefs's output: " + e.what());
            }
            if (!j.contains("signatures") || !j["signatures"].is_array())
                continue;
            for (const auto& s : j["signatures"]) {
                const auto type = text(s, "type");
                // Partition tables and ZFS labels have their own reasons.
                if (type == "gpt" || type == "PMBR" || type == "dos" || type == "zfs_member" ||
                    type == probes_[path]["PTTYPE"])
                    continue;
                carries(through(path) + " carries a " + type + " signature at offset " +
                        text(s, "offset"));
            }
        }
        return {};
    }

    // The disks under /, /boot and every swap device, through any md, dm or LVM between.
    Expected<void> systemDisks() {
        std::vector<std::pair<std::string, std::string>> roles; // (what, source device)
        for (const char* mount : {"/", "/boot"}) {
            auto r =
                run(tool("findmnt", {"--noheadings", "--output", "SOURCE", "--target", mount}));
            if (!r)
                return fail(r.error());
            if (r->ok())
                for (const auto& src : splitLines(r->stdoutText))
                    roles.emplace_back(mount, src);
        }
        for (const auto& s : swaps_)
            roles.emplace_back("swap", s);
        for (const auto& [what, source] : roles) {
            if (!source.starts_with("/dev/"))
                continue; // overlay, tmpfs, a ZFS dataset, a swap file: no block device to follow
            auto r = run(tool("lsblk", {"--inverse", "--list", "--noheadings", "--output", "PATH",
                                        "--", source}));
            if (!r)
                return fail(r.error());
            if (!r->ok())
                continue;
            for (const auto& dev : splitLines(r->stdoutText))
                if (own_.count(dev))
                    inUse(device_ + " holds " + what + " (" + source + ")");
        }
        return {};
    }

    Runner& runner_;
    std::string device_;
    DiskState state_;
    std::vector<Node> nodes_;
    std::set<std::string> own_; // the disk and its partitions
    std::vector<std::string> swaps_;
    std::map<std::string, std::map<std::string, std::string>> probes_; // blkid -p per path
};

bool named(const DiskState& d, const std::vector<std::string>& yes) {
    return std::any_of(yes.begin(), yes.end(), [&](const std::string& y) {
        return !y.empty() &&
               (y == d.path || y == d.resolvedPath || (!d.serial.empty() && y == d.serial));
    });
}

} // namespace

Expected<DiskState> inspectDisk(Runner& runner, const std::string& device) {
    if (device.empty())
        return badInput("a disk with an empty device path");
    return Inspector(runner, device).inspect();
}

Expected<void> authorizeDestruction(const std::vector<DiskDecision>& decisions,
                                    const std::vector<std::string>& yesDestroy) {
    std::vector<std::string> refusals;
    for (const auto& d : decisions) {
        const std::string disk =
            d.disk.path + (d.disk.serial.empty() ? "" : " (serial " + d.disk.serial + ")");
        if (!d.disk.inUse.empty()) {
            refusals.push_back("refusing to destroy " + disk +
                               ": it is in use: " + joinedText(d.disk.inUse, "; ") +
                               " — no flag destroys a disk in use (neither wipe = true nor "
                               "--yes-destroy); free it first");
            continue;
        }
        if (d.disk.carries.empty())
            continue;
        const bool isNamed = named(d.disk, yesDestroy);
        if (d.wipe && isNamed)
            continue;
        std::string line =
            "refusing to destroy " + disk + ": " + joinedText(d.disk.carries, "; ") + " — ";
        if (!d.wipe && !isNamed)
            line += "to destroy it anyway, mark it wipe = true in the scenario and pass "
                    "--yes-destroy " +
                    d.disk.path;
        else if (!d.wipe)
            line += "--yes-destroy names it, but the scenario does not mark it wipe = true";
        else
            line += "the scenario marks it wipe = true; pass --yes-destroy " + d.disk.path +
                    " to confirm";
        refusals.push_back(std::move(line));
    }
    if (!refusals.empty())
        return badInput(joinedText(refusals, "\n"));
    return {};
}

} // namespace lb
