#include "engine/scenario.h"

#include "engine/size.h"
#include "engine/ssh_runner.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
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

const ScenarioClient* Scenario::client(std::string_view clientName) const {
    for (const auto& c : clients)
        if (c.name == clientName)
            return &c;
    return nullptr;
}

const ScenarioDisk* Scenario::disk(std::string_view diskName) const {
    for (const auto& d : disks)
        if (d.name == diskName)
            return &d;
    return nullptr;
}

bool hasMaskedSecrets(const Scenario& scenario) {
    return std::any_of(
        scenario.layouts.begin(), scenario.layouts.end(),
        [](const ScenarioLayout& l) { return l.exported && l.exported->chapPasswordMasked; });
}

Expected<void> restoreMaskedSecrets(Scenario& stored, const Scenario& source,
                                    const std::string& sourceName) {
    for (auto& layout : stored.layouts) {
        if (!layout.exported || !layout.exported->chapPasswordMasked)
            continue;
        const auto same =
            std::find_if(source.layouts.begin(), source.layouts.end(),
                         [&](const ScenarioLayout& l) { return l.name == layout.name; });
        if (same == source.layouts.end() || !same->exported || same->exported->chapPassword.empty())
            return badInput(sourceName + ": layout '" + layout.name +
                            "': the campaign stored its CHAP secret masked, and this scenario "
                            "gives none for the layout to resume with");
        layout.exported->chapPassword = same->exported->chapPassword;
        layout.exported->chapPasswordMasked = false;
    }
    return {};
}

std::vector<std::string> Scenario::disksTouchedBy(const ScenarioLayout& layout) const {
    std::vector<std::string> out = layout.disks;
    for (const auto& d : drills)
        if (d.layout == layout.name)
            out.insert(out.end(), d.disks.begin(), d.disks.end());
    return out;
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
    LB_TRY(kernel, getString(t, "kernel", where, rep, false));
    g.kernel = resolve(baseDir, kernel);
    LB_TRY(initrd, getString(t, "initrd", where, rep, false));
    g.initrd = resolve(baseDir, initrd);
    LB_TRY(append, getString(t, "append", where, rep, false, "console=ttyS0"));
    g.append = append;
    LB_TRY(image, getString(t, "image", where, rep, false));
    g.image = resolve(baseDir, image);
    // A qemu guest booted from an image has that image as its first disk.
    LB_TRY(disk, getString(t, "disk", where, rep, false,
                           g.hypervisor == "qemu" && !image.empty() ? "/dev/vdb" : "/dev/vda"));
    if (disk.rfind("/dev/", 0) != 0)
        return badInput(rep.at(*t.get("disk"), where + "disk", "must be a path under /dev/"));
    g.disk = disk;
    LB_TRY(accel, getChoice(t, "accel", where, rep, {"auto", "kvm", "tcg"}, "auto"));
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

// A list of strings (a single string counts as a list of one).
Expected<std::vector<std::string>> getStringList(const toml::table& t, const char* key,
                                                 const std::string& where, const Reporter& rep,
                                                 std::vector<std::string> fallback) {
    const toml::node* node = t.get(key);
    if (!node)
        return fallback;
    if (const auto* s = node->as_string())
        return std::vector<std::string>{s->get()};
    const auto* arr = node->as_array();
    if (!arr || arr->empty())
        return badInput(
            rep.at(*node, where + key, "expected a string or a non-empty list of them"));
    std::vector<std::string> out;
    for (const auto& item : *arr) {
        const auto* s = item.as_string();
        if (!s || s->get().empty())
            return badInput(rep.at(item, where + key, "expected a non-empty string"));
        if (std::find(out.begin(), out.end(), s->get()) != out.end())
            return badInput(rep.at(item, where + key, "'" + s->get() + "' is listed twice"));
        out.push_back(s->get());
    }
    return out;
}

bool hasSpace(const std::string& s) {
    return std::any_of(s.begin(), s.end(),
                       [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

// The host part of ssh://[user@]host[:port], or 127.0.0.1 for "local".
std::string hostOfTarget(const std::string& target) {
    if (target.empty() || target == "local")
        return "127.0.0.1";
    auto url = parseSshUrl(target);
    return url ? url->host : "127.0.0.1";
}

bool isLoopback(const std::string& address) {
    return address.rfind("127.", 0) == 0 || address == "localhost" || address == "::1";
}

// An IQN as RFC 3720 writes one: iqn.YYYY-MM.reversed.domain[:name], lower case.
bool validIqn(const std::string& iqn) {
    if (iqn.size() < 12 || iqn.size() > 223 || iqn.rfind("iqn.", 0) != 0)
        return false;
    for (std::size_t i = 4; i < 11; ++i)
        if (i == 8 ? iqn[i] != '-' : !std::isdigit(static_cast<unsigned char>(iqn[i])))
            return false;
    return iqn[11] == '.' && std::all_of(iqn.begin(), iqn.end(), [](char c) {
               return std::islower(static_cast<unsigned char>(c)) ||
                      std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' ||
                      c == ':';
           });
}

// The IQN a layout's export gets unless the scenario names one.
std::string defaultIqn(const std::string& layoutName) {
    std::string name;
    for (char c : layoutName)
        name += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return "iqn.2026-11.org.layoutbench:" + name;
}

// CHAP names and secrets travel in iSCSI URLs (user%secret@host) and iscsiadm arguments.
bool chapSafe(const std::string& s) {
    return !s.empty() && s.size() <= 255 && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isgraph(static_cast<unsigned char>(c)) && c != '@' && c != '%' && c != '/' &&
               c != ':' && c != '"' && c != '\'' && c != '\\';
    });
}

Expected<ScenarioExport> parseExport(const toml::table& t, const std::string& where,
                                     const std::string& baseDir, const Reporter& rep,
                                     const ScenarioLayout& layout) {
    const std::set<std::string> iscsiKeys{"lun",        "lun_size",        "iqn",
                                          "tid",        "lun_number",      "portal_port",
                                          "chap_user",  "chap_password",   "chap_password_file",
                                          "initiators", "tgt_control_port"};
    const std::set<std::string> nfsKeys{"nfs_options", "nfs_versions", "nfs_clients"};
    std::set<std::string> allowed{"address", "iscsi", "nfs"};
    allowed.insert(iscsiKeys.begin(), iscsiKeys.end());
    allowed.insert(nfsKeys.begin(), nfsKeys.end());
    if (auto r = rejectUnknown(t, allowed, where, rep); !r)
        return fail(r.error());
    ScenarioExport e;
    e.line = static_cast<int>(t.source().begin.line);
    LB_TRY(iscsi, getChoice(t, "iscsi", where, rep, {"tgt", "lio", ""}, ""));
    e.iscsi = iscsi;
    LB_TRY(nfs, getChoice(t, "nfs", where, rep, {"kernel", "ganesha", ""}, ""));
    e.nfs = nfs;
    if (e.iscsi.empty() && e.nfs.empty())
        return badInput(rep.at(t, where + "iscsi",
                               "an export needs iscsi = \"tgt\" or \"lio\", or nfs = \"kernel\" "
                               "or \"ganesha\", or both"));
    for (const auto& [key, node] : t) {
        const std::string k(key.str());
        if (e.iscsi.empty() && iscsiKeys.count(k))
            return badInput(rep.at(key.source(), where + k, "only an iSCSI export takes it"));
        if (e.nfs.empty() && nfsKeys.count(k))
            return badInput(rep.at(key.source(), where + k, "only an NFS export takes it"));
    }
    const bool zfs =
        isZfs(layout.kind) || (layout.guest && layout.guest->layout.rfind("zfs", 0) == 0);
    LB_TRY(address, getString(t, "address", where, rep, false));
    if (t.get("address") && (address.empty() || hasSpace(address)))
        return badInput(
            rep.at(*t.get("address"), where + "address", "expected a host name or address"));
    e.address = address;

    LB_TRY(lun, getChoice(t, "lun", where, rep, {"file", "zvol", "device"}, "file"));
    e.lun = lun;
    if (e.lun == "zvol" && !zfs)
        return badInput(rep.at(*t.get("lun"), where + "lun", "a zvol needs a ZFS layout"));
    if (e.lun == "device" && !isMd(layout.kind))
        return badInput(rep.at(*t.get("lun"), where + "lun",
                               "only an md layout exports its array as the LUN (it then gets no "
                               "file system)"));
    if (e.lun == "device" && !e.nfs.empty())
        return badInput(rep.at(*t.get("nfs"), where + "nfs",
                               "the md array is exported raw as the LUN (lun = \"device\"): there "
                               "is no file system to export over NFS"));
    if (e.lun == "device" && t.get("lun_size"))
        return badInput(rep.at(*t.get("lun_size"), where + "lun_size",
                               "a device LUN is the whole array; only file and zvol LUNs take a "
                               "size"));
    LB_TRY(lunSize, getSize(t, "lun_size", where, rep, 1ULL << 30, SizeConvention::Binary));
    if (lunSize < (1ULL << 20) || lunSize % 4096 != 0)
        return badInput(rep.at(*t.get("lun_size"), where + "lun_size",
                               "must be at least 1M and a multiple of 4K"));
    e.lunSizeBytes = lunSize;
    LB_TRY(iqn, getString(t, "iqn", where, rep, false, defaultIqn(layout.name)));
    if (!validIqn(iqn))
        return badInput(rep.at(t.get("iqn") ? *t.get("iqn") : static_cast<const toml::node&>(t),
                               where + "iqn",
                               "'" + iqn +
                                   "' is not an IQN (iqn.YYYY-MM.reversed.domain:name, lower "
                                   "case)"));
    e.iqn = iqn;
    LB_TRY(tid, getInt(t, "tid", where, rep, 1, 1, 65535));
    e.tid = static_cast<int>(tid);
    if (e.iscsi == "lio" && t.get("tid"))
        return badInput(rep.at(*t.get("tid"), where + "tid", "only tgt numbers its targets"));
    // tgt keeps LUN 0 for its own controller.
    LB_TRY(lunNumber, getInt(t, "lun_number", where, rep, 1, e.iscsi == "tgt" ? 1 : 0, 255));
    e.lunNumber = static_cast<int>(lunNumber);
    LB_TRY(portalPort, getInt(t, "portal_port", where, rep, 3260, 1, 65535));
    e.portalPort = static_cast<int>(portalPort);
    LB_TRY(control, getInt(t, "tgt_control_port", where, rep, 0, 0, 65535));
    if (e.iscsi == "lio" && t.get("tgt_control_port"))
        return badInput(rep.at(*t.get("tgt_control_port"), where + "tgt_control_port",
                               "only tgt has a control port"));
    e.tgtControlPort = static_cast<int>(control);

    LB_TRY(chapUser, getString(t, "chap_user", where, rep, false));
    LB_TRY(chapPassword, getString(t, "chap_password", where, rep, false));
    LB_TRY(chapFile, getString(t, "chap_password_file", where, rep, false));
    if (t.get("chap_password") && t.get("chap_password_file"))
        return badInput(rep.at(*t.get("chap_password_file"), where + "chap_password_file",
                               "give chap_password or chap_password_file, not both"));
    if (!chapFile.empty()) {
        const std::string file = resolve(baseDir, chapFile);
        // The secret is its first line; a secret file of more than a page is not one.
        auto secret = readInput(file, {std::uint64_t{4096}, {}});
        if (!secret || secret->empty())
            return badInput(
                rep.at(*t.get("chap_password_file"), where + "chap_password_file",
                       (secret ? escapeControl(file) + ": empty" : secret.error().message) +
                           ": cannot read the CHAP secret (its first line)"));
        chapPassword = secret->substr(0, secret->find('\n'));
        while (!chapPassword.empty() && (chapPassword.back() == '\r' || chapPassword.back() == ' '))
            chapPassword.pop_back();
    }
    const bool withSecret = t.get("chap_password") || t.get("chap_password_file");
    if (t.get("chap_user") && !withSecret)
        return badInput(rep.at(*t.get("chap_user"), where + "chap_password",
                               "CHAP needs chap_password or chap_password_file with chap_user"));
    if (withSecret && !t.get("chap_user"))
        return badInput(rep.at(t, where + "chap_user", "CHAP needs chap_user with the password"));
    if (t.get("chap_user") && !chapSafe(chapUser))
        return badInput(rep.at(*t.get("chap_user"), where + "chap_user",
                               "use printable characters other than @ % / : and quotes"));
    if (withSecret) {
        // The stored copy of a scenario says "****" where the secret was (see maskSecrets).
        e.chapPasswordMasked = chapPassword == "****";
        const toml::node& at =
            t.get("chap_password") ? *t.get("chap_password") : *t.get("chap_password_file");
        if (!e.chapPasswordMasked && !chapSafe(chapPassword))
            return badInput(rep.at(at, where + "chap_password",
                                   "use printable characters other than @ % / : and quotes"));
        if (!e.chapPasswordMasked && chapPassword.size() < 12)
            return badInput(rep.at(at, where + "chap_password",
                                   "use at least 12 characters (initiators refuse shorter CHAP "
                                   "secrets)"));
        e.chapUser = chapUser;
        e.chapPassword = e.chapPasswordMasked ? "" : chapPassword;
    }
    LB_TRY(initiators, getStringList(t, "initiators", where, rep, {"ALL"}));
    for (const auto& i : initiators)
        if (hasSpace(i) || (e.iscsi == "lio" && i != "ALL" && i.rfind("iqn.", 0) != 0))
            return badInput(
                rep.at(*t.get("initiators"), where + "initiators",
                       "'" + i + "': expected ALL or " +
                           (e.iscsi == "lio" ? "an initiator IQN" : "an initiator address")));
    if (initiators.size() > 1 &&
        std::find(initiators.begin(), initiators.end(), "ALL") != initiators.end())
        return badInput(rep.at(*t.get("initiators"), where + "initiators",
                               "ALL already allows every initiator"));
    e.initiators = initiators;

    const std::vector<std::string> defaultOptions =
        e.nfs == "kernel" ? std::vector<std::string>{"rw", "sync", "no_root_squash"}
                          : std::vector<std::string>{"rw", "no_root_squash"};
    LB_TRY(options, getStringList(t, "nfs_options", where, rep, defaultOptions));
    const std::set<std::string> known{
        "rw",         "ro",     "sync",     "async",  "root_squash", "no_root_squash",
        "all_squash", "secure", "insecure", "wdelay", "no_wdelay"};
    const std::set<std::string> kernelOnly{"sync", "async", "wdelay", "no_wdelay"};
    int squash = 0, access = 0, sync = 0;
    for (const auto& o : options) {
        const bool fsid = o.rfind("fsid=", 0) == 0 && o.size() > 5;
        if (!known.count(o) && !fsid)
            return badInput(rep.at(*t.get("nfs_options"), where + "nfs_options",
                                   "'" + o +
                                       "' is not one of rw, ro, sync, async, root_squash, "
                                       "no_root_squash, all_squash, secure, insecure, wdelay, "
                                       "no_wdelay, fsid=N"));
        if (e.nfs == "ganesha" && (kernelOnly.count(o) || fsid))
            return badInput(rep.at(*t.get("nfs_options"), where + "nfs_options",
                                   "'" + o +
                                       "' is an option of the kernel server (exportfs); "
                                       "nfs-ganesha has no such export option"));
        squash += o.find("squash") != std::string::npos;
        access += o == "rw" || o == "ro";
        sync += o == "sync" || o == "async";
    }
    if (squash > 1 || access > 1 || sync > 1)
        return badInput(rep.at(*t.get("nfs_options"), where + "nfs_options",
                               "contradicting options (one of rw/ro, one of sync/async, one "
                               "squash)"));
    e.nfsOptions = options;
    if (const toml::node* versions = t.get("nfs_versions")) {
        const auto* arr = versions->as_array();
        if (!arr || arr->empty())
            return badInput(
                rep.at(*versions, where + "nfs_versions", "expected a list such as [3, 4]"));
        e.nfsVersions.clear();
        for (const auto& item : *arr) {
            const auto* v = item.as_integer();
            if (!v || (v->get() != 3 && v->get() != 4))
                return badInput(rep.at(item, where + "nfs_versions", "expected 3 or 4"));
            if (std::find(e.nfsVersions.begin(), e.nfsVersions.end(), v->get()) !=
                e.nfsVersions.end())
                return badInput(rep.at(item, where + "nfs_versions", "listed twice"));
            e.nfsVersions.push_back(static_cast<int>(v->get()));
        }
    }
    LB_TRY(clients, getStringList(t, "nfs_clients", where, rep, {"*"}));
    for (const auto& c : clients)
        if (hasSpace(c) || c.find_first_of("(){};\"") != std::string::npos)
            return badInput(rep.at(*t.get("nfs_clients"), where + "nfs_clients",
                                   "'" + c + "' is not a host, network or wildcard"));
    e.nfsClients = clients;
    return e;
}

Expected<ScenarioClient> parseClient(const toml::table& t, const std::string& where,
                                     const std::string& baseDir, const Reporter& rep) {
    if (auto r = rejectUnknown(
            t, {"name", "target", "identity", "known_hosts", "address", "fio_port", "work_dir"},
            where, rep);
        !r)
        return fail(r.error());
    ScenarioClient c;
    c.line = static_cast<int>(t.source().begin.line);
    LB_TRY(name, getString(t, "name", where, rep, true));
    if (!validName(name) || name == "all")
        return badInput(rep.at(*t.get("name"), where + "name",
                               "use letters, digits, '-', '_' and '.' only (and not 'all')"));
    c.name = name;
    LB_TRY(target, getString(t, "target", where, rep, false, "local"));
    if (target != "local") {
        if (auto url = parseSshUrl(target); !url)
            return badInput(
                rep.at(*t.get("target"), where + "target",
                       "expected \"local\" or ssh://[user@]host[:port]: " + url.error().message));
    }
    c.target = target;
    LB_TRY(identity, getString(t, "identity", where, rep, false));
    c.identity = resolve(baseDir, identity);
    LB_TRY(knownHosts, getString(t, "known_hosts", where, rep, false));
    c.knownHosts = resolve(baseDir, knownHosts);
    LB_TRY(address, getString(t, "address", where, rep, false, hostOfTarget(target)));
    if (address.empty() || hasSpace(address))
        return badInput(
            rep.at(*t.get("address"), where + "address", "expected a host name or address"));
    c.address = address;
    LB_TRY(port, getInt(t, "fio_port", where, rep, 8765, 1, 65535));
    c.fioPort = static_cast<int>(port);
    LB_TRY(workDir, getString(t, "work_dir", where, rep, false, c.workDir));
    if (workDir.empty() || workDir.front() != '/' || hasSpace(workDir))
        return badInput(rep.at(*t.get("work_dir"), where + "work_dir",
                               "must be an absolute path on the client, without spaces"));
    c.workDir = workDir;
    return c;
}

// The chap_password nodes of a parsed scenario: layouts[*].export.chap_password.
template <typename Table> auto chapPasswordNodes(Table& root) {
    std::vector<decltype(root["x"].node())> out;
    if (auto* layouts = root["layouts"].as_array())
        for (auto& l : *layouts)
            if (auto* node =
                    l.as_table() ? (*l.as_table())["export"]["chap_password"].node() : nullptr)
                out.push_back(node);
    return out;
}

// The text with the string token at each position written as "****", token for token, so the
// rest of the file (comments, layout, line numbers) stays as written. toml++ reports lines counted
// by '\n' (a CRLF file's '\r' ends a line's last column) and columns in code points, counted on
// line 1 after a UTF-8 byte order mark, which it skips.
std::string maskTokens(std::string_view text, const std::vector<toml::source_position>& at) {
    constexpr std::string_view bom = "\xEF\xBB\xBF";
    // Offsets of the string tokens, last first so earlier offsets stay valid.
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    for (const auto& pos : at) {
        std::size_t offset = text.starts_with(bom) ? bom.size() : 0;
        for (std::size_t line = 1; line < pos.line && offset != std::string_view::npos; ++line) {
            offset = text.find('\n', offset);
            if (offset != std::string_view::npos)
                ++offset;
        }
        if (offset == std::string_view::npos)
            continue;
        for (std::size_t col = 1; col < pos.column && offset < text.size(); ++col) {
            ++offset;
            while (offset < text.size() &&
                   (static_cast<unsigned char>(text[offset]) & 0xC0) == 0x80)
                ++offset;
        }
        const std::string_view rest = text.substr(offset);
        const std::string_view quote = rest.starts_with("\"\"\"") ? "\"\"\""
                                       : rest.starts_with("'''")  ? "'''"
                                       : rest.starts_with("\"")   ? "\""
                                       : rest.starts_with("'")    ? "'"
                                                                  : "";
        if (quote.empty())
            continue;
        std::size_t end = quote.size();
        while (end < rest.size() && !rest.substr(end).starts_with(quote))
            end += (quote == "\"" && rest[end] == '\\') ? 2U : 1U;
        spans.emplace_back(offset, std::min(rest.size(), end + quote.size()));
    }
    std::string out(text);
    std::sort(spans.rbegin(), spans.rend());
    for (const auto& [offset, length] : spans)
        out.replace(offset, length, "\"****\"");
    return out;
}

// True when `masked` parses and says "****" for every secret, and no secret's value is left in it
// (say in a comment).
bool fullyMasked(const std::string& masked, const std::vector<std::string>& secrets) {
    for (const auto& secret : secrets)
        if (masked.find(secret) != std::string::npos)
            return false;
    toml::table again;
    try {
        again = toml::parse(masked);
    } catch (const toml::parse_error&) {
        return false;
    }
    const auto nodes = chapPasswordNodes(again);
    return std::all_of(nodes.begin(), nodes.end(),
                       [](const toml::node* n) { return n->value<std::string>() == "****"; });
}

// The text with every CHAP secret written as "****": what is stored with a campaign. Secrets are
// found as the parser found them (layouts[*].export.chap_password) and replaced token for token;
// any copy of a secret's value elsewhere (a comment) goes too. If the result still held a secret
// (an encoding the token search does not foresee), the scenario is stored re-written from its
// parsed form instead: comments and layout lost, the secret never kept.
std::string maskSecrets(std::string_view text, const toml::table& root) {
    std::vector<toml::source_position> at;
    std::vector<std::string> secrets;
    for (const auto* node : chapPasswordNodes(root)) {
        at.push_back(node->source().begin);
        if (const auto value = node->value<std::string>();
            value && !value->empty() && *value != "****")
            secrets.push_back(*value);
    }
    if (at.empty())
        return std::string(text);
    std::string out = maskTokens(text, at);
    for (const auto& secret : secrets)
        for (auto pos = out.find(secret); pos != std::string::npos; pos = out.find(secret, pos))
            out.replace(pos, secret.size(), "****");
    if (fullyMasked(out, secrets))
        return out;
    toml::table copy = root;
    for (auto* node : chapPasswordNodes(copy))
        if (auto* str = node->as_string())
            *str = "****";
    std::ostringstream rewritten;
    rewritten << "# The scenario as layoutbench read it, with its CHAP secrets masked\n" << copy;
    return rewritten.str();
}

// precondition_size: at least one 128 KiB block of fio's sequential writes.
Expected<std::optional<std::uint64_t>>
preconditionSize(const toml::table& t, const std::string& where, const Reporter& rep) {
    if (!t.get("precondition_size"))
        return std::optional<std::uint64_t>{};
    LB_TRY(bytes, getSize(t, "precondition_size", where, rep, 0, SizeConvention::Binary));
    if (bytes < 128 * 1024)
        return badInput(rep.at(*t.get("precondition_size"), where + "precondition_size",
                               "must be at least 128K (one block of the sequential writes)"));
    return std::optional<std::uint64_t>{bytes};
}

// A workload's precondition, steady_rounds, steady_round_seconds and precondition_size. The
// rounds' settings also serve a layout's precondition = "snia".
Expected<Preconditioning> parsePreconditioning(const toml::table& t, const std::string& where,
                                               const Reporter& rep, const Probe& probe,
                                               const OptionValues& options) {
    Preconditioning p;
    LB_TRY(mode, getChoice(t, "precondition", where, rep, {"none", "snia"}, "none"));
    p.snia = mode == "snia";
    LB_TRY(rounds, getInt(t, "steady_rounds", where, rep, p.maxRounds, 1, 1000));
    p.maxRounds = static_cast<int>(rounds);
    LB_TRY(seconds, getInt(t, "steady_round_seconds", where, rep, p.roundSeconds, 1, 3600));
    p.roundSeconds = static_cast<int>(seconds);
    LB_TRY(bytes, preconditionSize(t, where, rep));
    p.bytes = bytes;
    if (!p.snia)
        return p;
    const toml::node& at = *t.get("precondition");
    if (!probe.supportsSteadyState())
        return badInput(rep.at(at, where + "precondition",
                               "the " + std::string(probe.name()) +
                                   " probe has no steady-state rounds (fio presets have)"));
    if (!options.has("preset"))
        return badInput(rep.at(at, where + "precondition",
                               "steady-state rounds need a preset (a job file sets its own "
                               "runtime)"));
    if (options.has("target") || t.get("clients"))
        return badInput(rep.at(at, where + "precondition",
                               "preconditioning runs in the layout's directory, not on an export "
                               "or from clients"));
    return p;
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
    if (const toml::node* exported = t.get("export")) {
        const auto* et = exported->as_table();
        if (!et)
            return badInput(
                rep.at(*exported, where + "export", "expected a [layouts.export] table"));
        LB_TRY(e, parseExport(*et, where + "export.", baseDir, rep, l));
        l.exported = std::move(e);
    }
    if (l.kind == LayoutKind::Guest && !l.inner && l.disks.size() > 1)
        return badInput(rep.at(*t.get("disks"), where + "disks",
                               "a guest without an inner md array is passed exactly one disk"));
    if (l.kind == LayoutKind::Dir && !l.disks.empty())
        return badInput(rep.at(*t.get("disks"), where + "disks", "a dir layout takes no disks"));
    if (l.kind != LayoutKind::Dir && l.disks.empty())
        return badInput(rep.at(t, where + "disks", "a " + kindText + " layout needs disks"));
    LB_TRY(precondition, getChoice(t, "precondition", where, rep, {"none", "snia"}, "none"));
    l.precondition = precondition == "snia";
    LB_TRY(bytes, preconditionSize(t, where, rep));
    l.preconditionBytes = bytes;
    if (l.precondition && l.kind == LayoutKind::Dir && !bytes)
        return badInput(rep.at(*t.get("precondition"), where + "precondition",
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
    LB_TRY(action, getChoice(t, "action", where, rep,
                             {"md-grow", "md-raid6", "zfs-add-vdev", "raidz-expand"}, ""));
    d.action = action;
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
    // "all", one name, or a list; names are checked against [[clients]] with the rest.
    LB_TRY(clients, getStringList(t, "clients", where, rep, {}));
    w.clients = clients;

    std::map<std::string, RawOption> raw;
    for (const auto& [key, node] : t) {
        const std::string k(key.str());
        if (k == "probe" || k == "name" || k == "timeout" || k == "clients" ||
            k == "precondition" || k == "steady_rounds" || k == "steady_round_seconds" ||
            k == "precondition_size")
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
    LB_TRY(precondition, parsePreconditioning(t, where, rep, *probe, w.options));
    w.precondition = precondition;

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

// Cross-checks of exports, clients and the workloads that use them. Fills in the defaults that
// depend on the rest of the scenario (export addresses, "all" clients).
Expected<void> checkExportsAndClients(Scenario& s, const Reporter& rep,
                                      const ProbeRegistry& probes) {
    std::set<std::string> names;
    std::set<std::pair<std::string, int>> servers;
    for (const auto& c : s.clients) {
        const std::string at = rep.path() + ":" + std::to_string(c.line) + ": clients.";
        if (!names.insert(c.name).second)
            return badInput(at + "name: '" + c.name + "' is defined twice");
        if (!servers.insert({c.address, c.fioPort}).second)
            return badInput(at + "fio_port: " + c.address + ":" + std::to_string(c.fioPort) +
                            " is used by two clients; give each its own fio_port");
    }
    bool remoteTargets = false; // a workload that uses an export runs on an SSH client
    for (auto& w : s.workloads) {
        const std::string at = rep.path() + ":" + std::to_string(w.line) + ": workloads.";
        if (w.clients.size() == 1 && w.clients.front() == "all") {
            if (s.clients.empty())
                return badInput(at + "clients: \"all\" names no client: the scenario has no "
                                     "[[clients]]");
            w.clients.clear();
            for (const auto& c : s.clients)
                w.clients.push_back(c.name);
        }
        for (const auto& name : w.clients)
            if (!s.client(name))
                return badInput(at + "clients: '" + name + "' is not in [[clients]]");
        const Probe* probe = probes.find(w.probe);
        if (w.clients.size() > 1 && !probe->drivesClients())
            return badInput(at + "clients: the " + w.probe +
                            " probe runs on one client at a time; several clients at once run "
                            "fio (its client/server mode)");
        const std::string target = w.options.text("target");
        if (target.empty())
            continue;
        if (target == "iscsi" && w.clients.size() > 1)
            return badInput(at + "clients: fio on an iSCSI LUN from several clients at once is "
                                 "not supported (each client names the LUN's disk its own way); "
                                 "use target = \"nfs\", or one client per workload");
        for (const auto& name : w.clients)
            remoteTargets = remoteTargets || s.client(name)->target != "local";
        for (const auto& l : s.layouts) {
            const auto& e = l.exported;
            if (target == "iscsi" && (!e || e->iscsi.empty()))
                return badInput(at + "target: layout '" + l.name +
                                "' has no iSCSI export (give it [layouts.export] iscsi = \"tgt\" "
                                "or \"lio\")");
            if (target == "nfs" && (!e || e->nfs.empty()))
                return badInput(at + "target: layout '" + l.name +
                                "' has no NFS export (give it [layouts.export] nfs = \"kernel\" "
                                "or \"ganesha\")");
            if (target == "nfs" && w.options.has("nfs_version")) {
                const int major = std::atoi(w.options.text("nfs_version").c_str());
                if (std::find(e->nfsVersions.begin(), e->nfsVersions.end(), major) ==
                    e->nfsVersions.end())
                    return badInput(at + "nfs_version: layout '" + l.name + "' exports NFS " + [&] {
                        std::string v;
                        for (int n : e->nfsVersions)
                            v += (v.empty() ? "" : ", ") + std::to_string(n);
                        return v;
                    }() + " only");
            }
        }
    }
    for (auto& l : s.layouts) {
        if (!l.exported)
            continue;
        auto& e = *l.exported;
        const std::string at = rep.path() + ":" + std::to_string(e.line) + ": layouts.export.";
        if (e.address.empty())
            e.address = hostOfTarget(l.guest ? l.guest->target : s.host.target);
        if (remoteTargets && isLoopback(e.address))
            return badInput(at + "address: clients over SSH cannot reach the export at " +
                            e.address + "; give the address they reach the server by");
        if (e.lun == "device")
            for (const auto& w : s.workloads)
                if (!w.options.has("target"))
                    return badInput(at + "lun: layout '" + l.name +
                                    "' exports its md array raw and has no file system for "
                                    "workload '" +
                                    w.name + "'; give the workload target = \"iscsi\"");
    }
    return {};
}

// How often each workload runs: `iterations = N`, or `iterations = "auto"` with
// min_iterations / max_iterations (and optionally the coefficient-of-variation rule `until`);
// and how the runs of the layouts are ordered in time (bracket, interleave).
Expected<void> parseRepetition(const toml::table& root, Scenario& s, const Reporter& rep) {
    const toml::node* it = root.get("iterations");
    const bool automatic = it && it->is_string();
    if (automatic && it->as_string()->get() != "auto")
        return badInput(rep.at(*it, "iterations", "expected a whole number or \"auto\""));
    if (!automatic) {
        LB_TRY(iterations, getInt(root, "iterations", "", rep, 3, 1, 1000));
        s.iterations = static_cast<int>(iterations);
        for (const char* key : {"min_iterations", "max_iterations", "until"})
            if (const toml::node* n = root.get(key))
                return badInput(rep.at(*n, key, "only with iterations = \"auto\""));
    } else {
        LB_TRY(minimum, getInt(root, "min_iterations", "", rep, 3, 1, 1000));
        LB_TRY(maximum, getInt(root, "max_iterations", "", rep, 10, 1, 1000));
        if (maximum < minimum)
            return badInput(rep.at(*(root.get("max_iterations") ? root.get("max_iterations")
                                                                : root.get("min_iterations")),
                                   "max_iterations",
                                   std::to_string(maximum) + " is below min_iterations (" +
                                       std::to_string(minimum) + ")"));
        s.iterations = static_cast<int>(minimum);
        s.maxIterations = static_cast<int>(maximum);
        LB_TRY(until, getString(root, "until", "", rep, false));
        if (!until.empty()) {
            // "cv<3%": the Phoronix Test Suite's rule, the spread of each layout's own runs.
            double cv = 0;
            char percent = 0;
            int used = 0;
            if (std::sscanf(until.c_str(), "cv<%lf%c%n", &cv, &percent, &used) != 2 ||
                percent != '%' || static_cast<std::size_t>(used) != until.size() || !(cv > 0) ||
                cv >= 100)
                return badInput(rep.at(*root.get("until"), "until",
                                       "expected \"cv<N%\" with 0 < N < 100, e.g. \"cv<3%\""));
            s.untilCv = cv / 100.0;
        }
    }
    if (root.get("bracket")) {
        LB_TRY(bracket, getBool(root, "bracket", "", rep, true));
        s.bracket = bracket;
    }
    if (root.get("interleave")) {
        LB_TRY(interleave, getBool(root, "interleave", "", rep, true));
        s.interleave = interleave;
    }
    return {};
}

// [decide] metrics = ["bonnie.put_block", "fio.*.read.bw"]: the metrics that decide a layout's
// verdict. Each glob must name a known family and match a metric the workloads can produce.
Expected<void> parseDecide(const toml::table& root, Scenario& s, const Reporter& rep,
                           const ProbeRegistry& probes) {
    const toml::node* node = root.get("decide");
    if (!node)
        return {};
    const auto* t = node->as_table();
    if (!t)
        return badInput(rep.at(*node, "decide", "expected a [decide] table"));
    if (auto r = rejectUnknown(*t, {"metrics"}, "decide.", rep); !r)
        return r;
    const auto* list = t->get_as<toml::array>("metrics");
    if (!list || list->empty())
        return badInput(rep.at(t->get("metrics") ? *t->get("metrics") : *node, "decide.metrics",
                               "expected a non-empty list of metric names or patterns"));
    std::vector<std::string> produced;
    bool allKnown = true;
    for (const auto& w : s.workloads) {
        auto names = probes.find(w.probe)->metricNames(w.name, w.options);
        allKnown = allKnown && !names.empty();
        produced.insert(produced.end(), names.begin(), names.end());
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        const toml::node& item = *list->get(i);
        const std::string field = "decide.metrics[" + std::to_string(i) + "]";
        const auto* glob = item.as_string();
        if (!glob)
            return badInput(rep.at(item, field, "expected a string"));
        if (auto bad = checkDecideGlob(glob->get()))
            return badInput(rep.at(item, field, *bad));
        const bool matches =
            std::any_of(produced.begin(), produced.end(),
                        [&](const std::string& n) { return metricMatches(glob->get(), n); });
        // A workload whose metric names are only known after it ran (a job file) may match.
        if (!matches && allKnown)
            return badInput(
                rep.at(item, field,
                       "'" + glob->get() + "' matches no metric of this scenario's workloads"));
        s.decide.push_back(glob->get());
    }
    return {};
}

} // namespace

ComparePolicy Scenario::policy() const {
    return {thresholds, decide};
}

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

    if (auto r = rejectUnknown(
            root, {"name",  "description", "iterations", "min_iterations", "max_iterations",
                   "until", "bracket",     "interleave", "work_dir",       "drop_caches",
                   "cache", "io",          "host",       "thresholds",     "decide",
                   "disks", "layouts",     "workloads",  "drills",         "clients"},
            "", rep);
        !r)
        return fail(r.error());

    Scenario s;
    s.path = path;
    s.text = maskSecrets(text, root);
    LB_TRY(name, getString(root, "name", "", rep, true));
    if (!validName(name))
        return badInput(
            rep.at(*root.get("name"), "name", "use letters, digits, '-', '_' and '.' only"));
    s.name = name;
    LB_TRY(description, getString(root, "description", "", rep, false));
    s.description = description;
    if (auto r = parseRepetition(root, s, rep); !r)
        return fail(r.error());
    LB_TRY(dropCaches, getBool(root, "drop_caches", "", rep, true));
    s.dropCaches = dropCaches;
    LB_TRY(cache, getChoice(root, "cache", "", rep, {"cold", "warm"}, "cold"));
    s.coldCache = cache == "cold";
    LB_TRY(io, getChoice(root, "io", "", rep, {"auto", "direct", "buffered"}, "auto"));
    s.io = io == "direct"     ? Scenario::IoPath::Direct
           : io == "buffered" ? Scenario::IoPath::Buffered
                              : Scenario::IoPath::Auto;
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
    auto clients =
        parseArray<ScenarioClient>(root, "clients", rep, [&](const auto& t, const auto& w) {
            return parseClient(t, w, baseDir, rep);
        });
    if (!clients)
        return fail(clients.error());
    s.clients = std::move(*clients);

    auto drills = parseArray<ScenarioDrill>(
        root, "drills", rep, [&](const auto& t, const auto& w) { return parseDrill(t, w, rep); });
    if (!drills)
        return fail(drills.error());
    s.drills = std::move(*drills);

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
        // What is built of the disks: the md array, the pool, or a guest's one disk.
        const auto built = l.kind == LayoutKind::Guest ? l.inner : l.mdKind().value_or(l.kind);
        if (const auto why = built ? diskCountProblem(*built, l.disks.size()) : std::nullopt)
            return badInput(at + "disks: " + *why);
        if (l.kind == LayoutKind::Guest && !l.inner && l.disks.size() != 1)
            return badInput(at + "disks: a guest is passed exactly one disk (or inner = an md "
                                 "kind, built of several)");
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
    std::map<std::string, std::set<std::string>> drillDisks; // layout -> spares used so far
    for (const auto& d : s.drills) {
        const std::string at = rep.path() + ":" + std::to_string(d.line) + ": drills.";
        const auto layout =
            std::find_if(s.layouts.begin(), s.layouts.end(),
                         [&](const ScenarioLayout& l) { return l.name == d.layout; });
        if (layout == s.layouts.end())
            return badInput(at + "layout: '" + d.layout + "' is not in [[layouts]]");
        const LayoutKind k = layout->kind;
        const bool fits = d.action == "md-grow"        ? isMd(k) && k != LayoutKind::MdRaid0
                          : d.action == "md-raid6"     ? k == LayoutKind::MdRaid5
                          : d.action == "zfs-add-vdev" ? isZfs(k)
                                                       : parityOf(k) > 0 && isZfs(k);
        if (!fits)
            return badInput(at + "action: " + d.action + " does not apply to a " +
                            std::string(layoutKindName(k)) + " layout");
        std::size_t width = 1;
        if (d.action == "zfs-add-vdev")
            width = k == LayoutKind::ZfsRaid10   ? 2
                    : k == LayoutKind::ZfsStripe ? 1
                                                 : layout->disks.size();
        if ((d.action == "md-raid6" || d.action == "raidz-expand" || d.action == "zfs-add-vdev") &&
            d.disks.size() != width)
            return badInput(at + "disks: " + d.action + " adds exactly " + std::to_string(width) +
                            " disk" + (width == 1 ? "" : "s") + " here, got " +
                            std::to_string(d.disks.size()));
        const bool layoutOnDevices = !s.disk(layout->disks.front())->device.empty();
        for (const auto& spare : d.disks) {
            const ScenarioDisk* disk = s.disk(spare);
            if (!disk)
                return badInput(at + "disks: '" + spare + "' is not in [[disks]]");
            if (std::find(layout->disks.begin(), layout->disks.end(), spare) != layout->disks.end())
                return badInput(at + "disks: '" + spare + "' is already in layout '" + d.layout +
                                "'; a drill adds spares");
            if (!drillDisks[d.layout].insert(spare).second)
                return badInput(at + "disks: '" + spare + "' is added by an earlier drill");
            if (disk->device.empty() == layoutOnDevices)
                return badInput(at + "disks: '" + spare + "' must be a " +
                                (layoutOnDevices ? "block device" : "file") +
                                " like the layout's disks");
        }
    }
    if (auto r = checkExportsAndClients(s, rep, probes); !r)
        return fail(r.error());
    if (auto r = parseDecide(root, s, rep, probes); !r)
        return fail(r.error());
    return s;
}

Expected<Scenario> loadScenario(const std::string& path, const ProbeRegistry& probes,
                                const InputLimit& limit) {
    auto text = readInput(path, limit);
    if (!text)
        return fail(text.error());
    return parseScenario(*text, path, probes);
}

} // namespace lb
