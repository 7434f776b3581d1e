#include "engine/scenario.h"

#include "engine/size.h"
#include "engine/ssh_runner.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <toml++/toml.h>

namespace lb {

namespace fs = std::filesystem;

const ScenarioLayout& Scenario::baseline() const {
    const auto it = std::find_if(layouts.begin(), layouts.end(),
                                 [](const ScenarioLayout& l) { return l.baseline; });
    assert(it != layouts.end());
    return *it;
}

std::optional<LayoutKind> ScenarioLayout::mdKind() const {
    if (isMd(kind))
        return kind;
    return inner;
}

const ScenarioDisk* Scenario::disk(std::string_view diskName) const {
    for (const auto& d : disks)
        if (d.name == diskName)
            return &d;
    return nullptr;
}

namespace {

// Builds "FILE:LINE:COL: field: message" for the node a problem is at.
class Reporter {
public:
    explicit Reporter(std::string path) : path_(std::move(path)) {}
    std::string at(const toml::node& node, const std::string& field, const std::string& msg) const {
        const auto& src = node.source();
        return path_ + ":" + std::to_string(src.begin.line) + ":" +
               std::to_string(src.begin.column) + ": " + field + ": " + msg;
    }
    std::string at(const toml::source_region& src, const std::string& field,
                   const std::string& msg) const {
        return path_ + ":" + std::to_string(src.begin.line) + ":" +
               std::to_string(src.begin.column) + ": " + field + ": " + msg;
    }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

Expected<void> rejectUnknown(const toml::table& table, const std::set<std::string>& allowed,
                             const std::string& where, const Reporter& rep) {
    for (const auto& [key, node] : table) {
        const std::string k(key.str());
        if (!allowed.count(k)) {
            std::string list;
            for (const auto& a : allowed)
                list += (list.empty() ? "" : ", ") + a;
            return badInput(rep.at(key.source(), where + k, "unknown key (allowed: " + list + ")"));
        }
    }
    return {};
}

Expected<std::string> getString(const toml::table& t, const char* key, const std::string& where,
                                const Reporter& rep, bool required, std::string fallback = {}) {
    const toml::node* node = t.get(key);
    if (!node) {
        if (required)
            return badInput(rep.at(t, where + key, "is required"));
        return fallback;
    }
    if (const auto* s = node->as_string())
        return s->get();
    return badInput(rep.at(*node, where + key, "expected a string"));
}

Expected<bool> getBool(const toml::table& t, const char* key, const std::string& where,
                       const Reporter& rep, bool fallback) {
    const toml::node* node = t.get(key);
    if (!node)
        return fallback;
    if (const auto* b = node->as_boolean())
        return b->get();
    return badInput(rep.at(*node, where + key, "expected true or false"));
}

Expected<std::int64_t> getInt(const toml::table& t, const char* key, const std::string& where,
                              const Reporter& rep, std::int64_t fallback, std::int64_t min,
                              std::int64_t max) {
    const toml::node* node = t.get(key);
    if (!node)
        return fallback;
    const auto* i = node->as_integer();
    if (!i)
        return badInput(rep.at(*node, where + key, "expected a whole number"));
    if (i->get() < min || i->get() > max)
        return badInput(rep.at(*node, where + key,
                               std::to_string(i->get()) + " is outside " + std::to_string(min) +
                                   ".." + std::to_string(max)));
    return i->get();
}

Expected<double> getDouble(const toml::table& t, const char* key, const std::string& where,
                           const Reporter& rep, double fallback) {
    const toml::node* node = t.get(key);
    if (!node)
        return fallback;
    if (const auto* f = node->as_floating_point())
        return f->get();
    if (const auto* i = node->as_integer())
        return static_cast<double>(i->get());
    return badInput(rep.at(*node, where + key, "expected a number"));
}

Expected<std::uint64_t> getSize(const toml::table& t, const char* key, const std::string& where,
                                const Reporter& rep, std::uint64_t fallback,
                                SizeConvention convention = SizeConvention::Decimal) {
    const toml::node* node = t.get(key);
    if (!node)
        return fallback;
    if (const auto* i = node->as_integer()) {
        if (i->get() < 0)
            return badInput(rep.at(*node, where + key, "must not be negative"));
        return static_cast<std::uint64_t>(i->get());
    }
    if (const auto* s = node->as_string()) {
        auto size = parseSize(s->get(), convention);
        if (!size)
            return badInput(rep.at(*node, where + key, size.error().message));
        return *size;
    }
    return badInput(rep.at(*node, where + key, "expected a size such as \"256M\""));
}

// Paths in a scenario: "~/" is the user's home, absolute paths stay, the rest are relative to
// `base` (the scenario's directory, or its work_dir for disks and dir layouts).
std::string resolve(const std::string& base, const std::string& p) {
    if (p.rfind("~/", 0) == 0) {
        if (const char* home = std::getenv("HOME"); home && *home)
            return resolve(home, p.substr(2));
    }
    if (p.empty() || fs::path(p).is_absolute())
        return p;
    auto out = (fs::path(base) / p).lexically_normal().string();
    while (out.size() > 1 && out.back() == '/')
        out.pop_back();
    return out;
}

bool validName(const std::string& s) {
    return !s.empty() && s.size() <= 64 &&
           std::all_of(s.begin(), s.end(),
                       [](char c) {
                           return std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
                                  c == '_' || c == '.';
                       }) &&
           s.front() != '-' && s.front() != '.';
}

template <typename T> Unexpected propagate(const Expected<T>& e) {
    return fail(e.error());
}

#define LB_TRY(var, expr)                                                                          \
    auto var##_r = (expr);                                                                         \
    if (!var##_r)                                                                                  \
        return propagate(var##_r);                                                                 \
    auto var = std::move(*var##_r)

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
            rep.at(*t.get("name"), where + "name", "use letters, digits, '-', '_' and '.' only"));
    if (device.empty() == file.empty())
        return badInput(rep.at(t, where + "device", "give exactly one of device or file"));
    if (!device.empty() && device.rfind("/dev/", 0) != 0)
        return badInput(rep.at(*t.get("device"), where + "device", "must be a path under /dev/"));
    if (!file.empty() && size == 0)
        return badInput(rep.at(t, where + "size", "a file disk needs a size"));
    if (!device.empty() && size != 0)
        return badInput(rep.at(*t.get("size"), where + "size",
                               "only file disks have a size; a device has its own"));
    d.name = name;
    d.device = device;
    d.file = resolve(baseDir, file);
    d.sizeBytes = size;
    d.wipe = wipe;
    return d;
}

// A string that must be one of a few words.
Expected<std::string> getChoice(const toml::table& t, const char* key, const std::string& where,
                                const Reporter& rep, const std::vector<std::string>& allowed,
                                std::string fallback) {
    LB_TRY(value, getString(t, key, where, rep, false, fallback));
    if (std::find(allowed.begin(), allowed.end(), value) != allowed.end())
        return value;
    std::string list;
    for (const auto& a : allowed)
        list += (list.empty() ? "" : ", ") + a;
    return badInput(rep.at(*t.get(key), where + key, "'" + value + "' is not one of " + list));
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
    LB_TRY(hypervisor, getChoice(t, "hypervisor", where, rep, {"qemu", "libvirt", "xen"}, "qemu"));
    g.hypervisor = hypervisor;
    LB_TRY(layout, getChoice(t, "layout", where, rep, {"ext4", "xfs", "zfs-stripe"}, "ext4"));
    g.layout = layout;
    LB_TRY(sshPort, getInt(t, "ssh_port", where, rep, 0, 0, 65535));
    g.sshPort = static_cast<int>(sshPort);
    if (g.sshPort != 0 && g.hypervisor != "qemu")
        return badInput(rep.at(*t.get("ssh_port"), where + "ssh_port",
                               "only a qemu guest started by layoutbench has a forwarded port"));
    LB_TRY(target, getString(t, "target", where, rep, false,
                             g.sshPort ? "ssh://root@127.0.0.1:" + std::to_string(g.sshPort) : ""));
    if (target.empty())
        return badInput(rep.at(t, where + "target",
                               "how to reach the guest is required: target = "
                               "\"ssh://root@GUEST\" (or ssh_port for a qemu guest)"));
    if (auto url = parseSshUrl(target); !url)
        return badInput(rep.at(*t.get("target"), where + "target", url.error().message));
    g.target = target;
    LB_TRY(identity, getString(t, "identity", where, rep, false));
    g.identity = resolve(baseDir, identity);
    LB_TRY(knownHosts, getString(t, "known_hosts", where, rep, false));
    g.knownHosts = resolve(baseDir, knownHosts);
    LB_TRY(disk, getString(t, "disk", where, rep, false, "/dev/vda"));
    if (disk.rfind("/dev/", 0) != 0)
        return badInput(rep.at(*t.get("disk"), where + "disk", "must be a path under /dev/"));
    g.disk = disk;
    LB_TRY(kernel, getString(t, "kernel", where, rep, false));
    g.kernel = resolve(baseDir, kernel);
    LB_TRY(initrd, getString(t, "initrd", where, rep, false));
    g.initrd = resolve(baseDir, initrd);
    LB_TRY(append, getString(t, "append", where, rep, false, "console=ttyS0"));
    g.append = append;
    LB_TRY(image, getString(t, "image", where, rep, false));
    g.image = resolve(baseDir, image);
    LB_TRY(accel, getChoice(t, "accel", where, rep, {"kvm", "tcg"}, "kvm"));
    g.accel = accel;
    LB_TRY(memory, getSize(t, "memory", where, rep, 4ULL << 30, SizeConvention::Binary));
    if (memory < 64 * 1024 * 1024)
        return badInput(rep.at(*t.get("memory"), where + "memory", "must be at least 64M"));
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
    LB_TRY(attachAs,
           getString(t, "attach_as", where, rep, false, g.hypervisor == "xen" ? "xvdb" : "vdb"));
    g.attachAs = attachAs;
    if (g.hypervisor == "qemu") {
        if (g.kernel.empty() == g.image.empty())
            return badInput(rep.at(t, where + "kernel",
                                   "a qemu guest boots either a kernel (kernel, initrd) or a "
                                   "disk image (image): give exactly one"));
        if (!g.domain.empty())
            return badInput(rep.at(*t.get("domain"), where + "domain",
                                   "only libvirt and xen guests name a domain"));
    } else if (g.domain.empty()) {
        return badInput(
            rep.at(t, where + "domain", "a " + g.hypervisor + " guest names its existing domain"));
    }
    return g;
}

Expected<ScenarioLayout> parseLayout(const toml::table& t, const std::string& where,
                                     const std::string& baseDir, const Reporter& rep) {
    if (auto r =
            rejectUnknown(t,
                          {"name", "kind", "baseline", "disks", "path", "pool", "ashift",
                           "recordsize", "compression", "atime", "underprovision", "inner",
                           "md_device", "chunk", "bitmap", "assume_clean", "filesystem", "guest"},
                          where, rep);
        !r)
        return fail(r.error());
    ScenarioLayout l;
    l.line = static_cast<int>(t.source().begin.line);
    LB_TRY(name, getString(t, "name", where, rep, true));
    if (!validName(name))
        return badInput(
            rep.at(*t.get("name"), where + "name", "use letters, digits, '-', '_' and '.' only"));
    l.name = name;
    LB_TRY(kindText, getString(t, "kind", where, rep, true));
    const auto kind = parseLayoutKind(kindText);
    if (!kind)
        return badInput(
            rep.at(*t.get("kind"), where + "kind", "unknown layout kind '" + kindText + "'"));
    l.kind = *kind;
    LB_TRY(baseline, getBool(t, "baseline", where, rep, false));
    l.baseline = baseline;
    LB_TRY(path, getString(t, "path", where, rep, l.kind == LayoutKind::Dir));
    if (l.kind == LayoutKind::Dir && path.empty())
        return badInput(rep.at(*t.get("path"), where + "path", "must not be empty"));
    l.path = resolve(baseDir, path);
    if (l.kind != LayoutKind::Dir && !path.empty())
        return badInput(rep.at(*t.get("path"), where + "path", "only dir layouts take a path"));
    LB_TRY(pool, getString(t, "pool", where, rep, false, "lb-" + l.name));
    if (!validName(pool))
        return badInput(rep.at(t, where + "pool", "use letters, digits, '-', '_' and '.' only"));
    l.pool = pool;
    LB_TRY(ashift, getInt(t, "ashift", where, rep, 12, 9, 16));
    l.ashift = static_cast<unsigned>(ashift);
    LB_TRY(record, getSize(t, "recordsize", where, rep, 128 * 1024, SizeConvention::Binary));
    if (record < 512 || record > 16 * 1024 * 1024 || (record & (record - 1)) != 0)
        return badInput(rep.at(*t.get("recordsize"), where + "recordsize",
                               "must be a power of two from 512 to 16M"));
    l.recordsizeBytes = record;
    LB_TRY(compression, getString(t, "compression", where, rep, false, "off"));
    l.compression = compression;
    LB_TRY(atime, getBool(t, "atime", where, rep, false));
    l.atime = atime;
    LB_TRY(under, getDouble(t, "underprovision", where, rep, 1.0));
    if (!(under > 0 && under <= 1.0))
        return badInput(rep.at(*t.get("underprovision"), where + "underprovision",
                               "must be a fraction in (0, 1]"));
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
            return badInput(rep.at(*t.get(key), where + key,
                                   "only md layouts (or layouts with an inner md array) take it"));
    if (!isMd(l.kind) && t.get("filesystem"))
        return badInput(rep.at(*t.get("filesystem"), where + "filesystem",
                               "only md layouts are given a file system here"));
    LB_TRY(mdDevice, getString(t, "md_device", where, rep, false, "/dev/md/lb-" + l.name));
    if (mdDevice.rfind("/dev/md", 0) != 0)
        return badInput(
            rep.at(*t.get("md_device"), where + "md_device", "must be /dev/mdN or /dev/md/NAME"));
    l.mdDevice = md ? mdDevice : "";
    LB_TRY(chunk, getSize(t, "chunk", where, rep, 512 * 1024, SizeConvention::Binary));
    if (chunk < 4096 || (chunk & (chunk - 1)) != 0)
        return badInput(
            rep.at(*t.get("chunk"), where + "chunk", "must be a power of two of at least 4K"));
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
    if (l.kind == LayoutKind::Guest && !l.inner && l.disks.size() > 1)
        return badInput(rep.at(*t.get("disks"), where + "disks",
                               "a guest without an inner md array is passed exactly one disk"));
    if (l.kind == LayoutKind::Dir && !l.disks.empty())
        return badInput(rep.at(*t.get("disks"), where + "disks", "a dir layout takes no disks"));
    if (l.kind != LayoutKind::Dir && l.disks.empty())
        return badInput(rep.at(t, where + "disks", "a " + kindText + " layout needs disks"));
    return l;
}

Expected<ScenarioWorkload> parseWorkload(const toml::table& t, const std::string& where,
                                         const std::string& baseDir, const Reporter& rep,
                                         const ProbeRegistry& probes) {
    ScenarioWorkload w;
    w.line = static_cast<int>(t.source().begin.line);
    LB_TRY(probeName, getString(t, "probe", where, rep, true));
    const Probe* probe = probes.find(probeName);
    if (!probe) {
        std::string list;
        for (const auto& n : probes.names())
            list += (list.empty() ? "" : ", ") + n;
        return badInput(rep.at(*t.get("probe"), where + "probe",
                               "unknown probe '" + probeName + "' (known: " + list + ")"));
    }
    w.probe = probeName;
    LB_TRY(timeout, getInt(t, "timeout", where, rep, 3600, 1, 7 * 24 * 3600));
    w.timeoutSeconds = static_cast<int>(timeout);

    std::map<std::string, RawOption> raw;
    for (const auto& [key, node] : t) {
        const std::string k(key.str());
        if (k == "probe" || k == "name" || k == "timeout")
            continue;
        RawOption opt;
        opt.line = static_cast<int>(key.source().begin.line);
        opt.column = static_cast<int>(key.source().begin.column);
        if (const auto* s = node.as_string())
            opt.value = s->get();
        else if (const auto* i = node.as_integer())
            opt.value = i->get();
        else if (const auto* b = node.as_boolean())
            opt.value = b->get();
        else if (const auto* f = node.as_floating_point())
            opt.value = f->get();
        else
            return badInput(rep.at(node, where + k, "expected a string, number or boolean"));
        raw.emplace(k, std::move(opt));
    }
    auto values = validateOptions(probe->options(), raw, rep.path(), where);
    if (!values)
        return fail(values.error());
    if (auto r = probe->validate(*values, rep.path() + ":" + std::to_string(w.line)); !r)
        return fail(r.error());
    // Paths in a scenario are relative to the scenario file.
    for (const auto& spec : probe->options())
        if (spec.type == OptionType::Path && values->has(spec.name))
            values->set(spec.name, resolve(baseDir, values->text(spec.name)));
    w.options = std::move(*values);

    std::string defaultName = probeName;
    if (w.options.has("preset"))
        defaultName += ":" + w.options.text("preset");
    else if (w.options.has("job_file"))
        defaultName += ":" + fs::path(w.options.text("job_file")).stem().string();
    LB_TRY(name, getString(t, "name", where, rep, false, defaultName));
    if (name.empty() || name.size() > 128)
        return badInput(rep.at(*t.get("name"), where + "name", "must be 1 to 128 characters"));
    w.name = name;
    return w;
}

template <typename T, typename F>
Expected<std::vector<T>> parseArray(const toml::table& root, const char* key, const Reporter& rep,
                                    F&& parseOne) {
    std::vector<T> out;
    const toml::node* node = root.get(key);
    if (!node)
        return out;
    const auto* arr = node->as_array();
    if (!arr)
        return badInput(rep.at(*node, key, "expected [[" + std::string(key) + "]] tables"));
    std::size_t index = 0;
    for (const auto& item : *arr) {
        const auto* table = item.as_table();
        const std::string where = std::string(key) + "[" + std::to_string(index++) + "].";
        if (!table)
            return badInput(rep.at(item, where, "expected a table"));
        auto parsed = parseOne(*table, where);
        if (!parsed)
            return fail(parsed.error());
        out.push_back(std::move(*parsed));
    }
    return out;
}

} // namespace

Expected<Scenario> parseScenario(std::string_view text, const std::string& path,
                                 const ProbeRegistry& probes) {
    const Reporter rep(path.empty() ? "<scenario>" : path);
    toml::table root;
    try {
        root = toml::parse(text, path);
    } catch (const toml::parse_error& e) {
        return badInput(rep.at(e.source(), "syntax", std::string(e.description())));
    }
    const std::string baseDir = path.empty() ? fs::current_path().string()
                                             : fs::absolute(fs::path(path)).parent_path().string();

    if (auto r = rejectUnknown(root,
                               {"name", "description", "iterations", "work_dir", "drop_caches",
                                "host", "thresholds", "disks", "layouts", "workloads"},
                               "", rep);
        !r)
        return fail(r.error());

    Scenario s;
    s.path = path;
    s.text = std::string(text);
    LB_TRY(name, getString(root, "name", "", rep, true));
    if (!validName(name))
        return badInput(
            rep.at(*root.get("name"), "name", "use letters, digits, '-', '_' and '.' only"));
    s.name = name;
    LB_TRY(description, getString(root, "description", "", rep, false));
    s.description = description;
    LB_TRY(iterations, getInt(root, "iterations", "", rep, 3, 1, 1000));
    s.iterations = static_cast<int>(iterations);
    LB_TRY(dropCaches, getBool(root, "drop_caches", "", rep, true));
    s.dropCaches = dropCaches;
    LB_TRY(workDir, getString(root, "work_dir", "", rep, false, "/var/tmp/layoutbench/" + name));
    if (workDir.empty())
        return badInput(rep.at(*root.get("work_dir"), "work_dir", "must not be empty"));
    s.workDir = resolve(baseDir, workDir);

    if (const toml::node* host = root.get("host")) {
        const auto* t = host->as_table();
        if (!t)
            return badInput(rep.at(*host, "host", "expected a [host] table"));
        if (auto r = rejectUnknown(*t, {"target", "identity", "known_hosts"}, "host.", rep); !r)
            return fail(r.error());
        LB_TRY(target, getString(*t, "target", "host.", rep, false, "local"));
        if (target != "local") {
            if (auto url = parseSshUrl(target); !url)
                return badInput(rep.at(*t->get("target"), "host.target",
                                       "expected \"local\" or ssh://[user@]host[:port]: " +
                                           url.error().message));
        }
        s.host.target = target;
        LB_TRY(identity, getString(*t, "identity", "host.", rep, false));
        s.host.identity = resolve(baseDir, identity);
        LB_TRY(knownHosts, getString(*t, "known_hosts", "host.", rep, false));
        s.host.knownHosts = resolve(baseDir, knownHosts);
    }
    if (const toml::node* thr = root.get("thresholds")) {
        const auto* t = thr->as_table();
        if (!t)
            return badInput(rep.at(*thr, "thresholds", "expected a [thresholds] table"));
        if (auto r = rejectUnknown(*t, {"viable", "not_viable"}, "thresholds.", rep); !r)
            return fail(r.error());
        LB_TRY(viable, getDouble(*t, "viable", "thresholds.", rep, 1.10));
        LB_TRY(notViable, getDouble(*t, "not_viable", "thresholds.", rep, 2.0));
        if (!(viable >= 1.0 && notViable > viable))
            return badInput(rep.at(*t, "thresholds", "need 1 <= viable < not_viable"));
        s.thresholds = {viable, notViable};
    }

    auto disks = parseArray<ScenarioDisk>(root, "disks", rep, [&](const auto& t, const auto& w) {
        return parseDisk(t, w, s.workDir, rep);
    });
    if (!disks)
        return fail(disks.error());
    s.disks = std::move(*disks);
    auto layouts =
        parseArray<ScenarioLayout>(root, "layouts", rep, [&](const auto& t, const auto& w) {
            return parseLayout(t, w, s.workDir, rep);
        });
    if (!layouts)
        return fail(layouts.error());
    s.layouts = std::move(*layouts);
    auto workloads =
        parseArray<ScenarioWorkload>(root, "workloads", rep, [&](const auto& t, const auto& w) {
            return parseWorkload(t, w, baseDir, rep, probes);
        });
    if (!workloads)
        return fail(workloads.error());
    s.workloads = std::move(*workloads);

    // Cross-checks: unique names, disks exist and are used once per layout, one baseline.
    std::set<std::string> seen, backings;
    for (const auto& d : s.disks) {
        if (!seen.insert(d.name).second)
            return badInput(rep.path() + ":" + std::to_string(d.line) + ": disks.name: '" + d.name +
                            "' is defined twice");
        const std::string& backing = d.file.empty() ? d.device : d.file;
        if (!backings.insert(backing).second)
            return badInput(rep.path() + ":" + std::to_string(d.line) + ": disks: '" + backing +
                            "' backs two disks");
    }
    seen.clear();
    std::set<std::string> pools;
    int baselines = 0;
    for (const auto& l : s.layouts) {
        const std::string at = rep.path() + ":" + std::to_string(l.line) + ": layouts.";
        if (!seen.insert(l.name).second)
            return badInput(at + "name: '" + l.name + "' is defined twice");
        if (isZfs(l.kind) && !pools.insert(l.pool).second)
            return badInput(at + "pool: '" + l.pool + "' is used by two layouts");
        baselines += l.baseline ? 1 : 0;
        std::set<std::string> used;
        for (const auto& d : l.disks) {
            if (!s.disk(d))
                return badInput(at + "disks: '" + d + "' is not in [[disks]]");
            if (!used.insert(d).second)
                return badInput(at + "disks: '" + d + "' is listed twice");
        }
        bool devices = false, files = false;
        for (const auto& d : l.disks)
            (s.disk(d)->device.empty() ? files : devices) = true;
        if (devices && files)
            return badInput(at + "disks: mixes block devices and files; use one or the other");
        if (l.mdKind() && files)
            return badInput(at + "disks: md arrays are built on block devices, not files");
        if (files && l.underprovision < 1.0)
            return badInput(at + "underprovision: only block devices are partitioned");
    }
    if (s.layouts.empty())
        return badInput(rep.at(root, "layouts", "at least one [[layouts]] is required"));
    if (baselines != 1) {
        // Point at the second baseline, or at the first layout when none is marked.
        int line = s.layouts.front().line;
        int seenBaselines = 0;
        for (const auto& l : s.layouts)
            if (l.baseline && ++seenBaselines == 2)
                line = l.line;
        return badInput(rep.path() + ":" + std::to_string(line) +
                        ": layouts.baseline: exactly one layout must be marked baseline = true "
                        "(found " +
                        std::to_string(baselines) + ")");
    }
    if (s.workloads.empty())
        return badInput(rep.at(root, "workloads", "at least one [[workloads]] is required"));
    seen.clear();
    for (const auto& w : s.workloads)
        if (!seen.insert(w.name).second)
            return badInput(rep.path() + ":" + std::to_string(w.line) + ": workloads.name: '" +
                            w.name + "' is used twice; give one of them a name");
    return s;
}

Expected<Scenario> loadScenario(const std::string& path, const ProbeRegistry& probes) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return badInput(path + ": cannot read scenario file");
    std::ostringstream buf;
    buf << in.rdbuf();
    return parseScenario(buf.str(), path, probes);
}

} // namespace lb
