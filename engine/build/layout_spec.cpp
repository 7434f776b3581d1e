// The stored layout spec, written and read (see layout_spec.h).
#include "engine/build/layout_spec.h"

#include "engine/base/utf8.h"

#include <nlohmann/json.hpp>

namespace lb {

namespace {

using nlohmann::json;

json guestSpec(const ScenarioGuest& g) {
    return {{"hypervisor", enumName(g.hypervisor)},
            {"layout", g.layout},
            {"target", g.target},
            {"accel", g.accel},
            {"memory_bytes", g.memoryBytes},
            {"cpus", g.cpus},
            {"cache", g.cache},
            {"aio", g.aio},
            {"iothreads", g.iothreads},
            {"bus", g.bus},
            {"disk", g.disk}};
}

// How the layout was served to its clients; the CHAP secret never (only whether one).
json exportSpec(const ScenarioExport& e) {
    json ex{{"address", e.address}};
    if (e.iscsi)
        ex["iscsi"] = {{"target", enumName(*e.iscsi)}, {"lun", e.lun},
                       {"lun_bytes", e.lunSizeBytes},  {"iqn", e.iqn},
                       {"portal_port", e.portalPort},  {"chap", !e.chapUser.empty()}};
    if (e.iscsi && e.writeCache)
        ex["iscsi"]["write_cache"] = *e.writeCache;
    if (e.nfs)
        ex["nfs"] = {{"server", enumName(*e.nfs)},
                     {"options", e.nfsOptions},
                     {"versions", e.nfsVersions},
                     {"clients", e.nfsClients}};
    return ex;
}

// The size of a named disk: a file's from the scenario, a device's as lsblk gave it.
std::uint64_t diskBytesOf(const Scenario& s, const std::string& name,
                          const std::map<std::string, std::uint64_t>& deviceBytes) {
    const ScenarioDisk* disk = s.disk(name);
    const auto it = deviceBytes.find(disk->device);
    return disk->device.empty() || it == deviceBytes.end() ? disk->sizeBytes : it->second;
}

// A ZFS layout's log, cache and special vdevs (the special's sizes, which the capacity model
// takes), and the dataset's write path.
void addZfsAux(json& spec, const Scenario& s, const ScenarioZfsAux& aux,
               const std::map<std::string, std::uint64_t>& deviceBytes) {
    // The defaults are left unsaid, as the specs stored before these keys were.
    if (aux.sync != ZfsSync::Standard)
        spec["sync"] = enumName(aux.sync);
    if (aux.logbias != ZfsLogbias::Latency)
        spec["logbias"] = enumName(aux.logbias);
    if (!aux.log.empty())
        spec["log"] = aux.log;
    if (!aux.cache.empty())
        spec["cache"] = aux.cache;
    if (aux.special.empty())
        return;
    json bytes = json::array();
    for (const auto& d : aux.special)
        bytes.push_back(diskBytesOf(s, d, deviceBytes));
    spec["special"] = aux.special;
    spec["special_disk_bytes"] = bytes;
    spec["special_small_blocks"] = aux.specialSmallBlocksBytes;
}

} // namespace

std::string layoutSpecJson(const Scenario& s, const ScenarioLayout& l,
                           const std::map<std::string, std::uint64_t>& deviceBytes) {
    json disks = json::array(), bytes = json::array();
    for (const auto& d : l.disks) {
        disks.push_back(d);
        bytes.push_back(diskBytesOf(s, d, deviceBytes));
    }
    json spec{{"kind", layoutKindName(l.kind)},
              {"baseline", l.baseline},
              {"disks", disks},
              {"disk_bytes", bytes},
              {"underprovision", l.underprovision}};
    if (const auto md = l.mdKind()) {
        spec["md"] = {{"kind", layoutKindName(*md)},
                      {"device", l.mdDevice},
                      {"chunk", l.chunkBytes},
                      {"bitmap", l.bitmap ? "internal" : "none"},
                      {"assume_clean", l.assumeClean}};
        if (isMd(l.kind))
            spec["filesystem"] = l.filesystem;
    }
    if (l.guest)
        spec["guest"] = guestSpec(*l.guest);
    if (l.exported)
        spec["export"] = exportSpec(*l.exported);
    if (l.kind == LayoutKind::Dir) {
        spec["path"] = l.path;
    } else if (isZfs(l.kind) || (l.guest && l.guest->layout.starts_with("zfs"))) {
        spec["pool"] = l.pool;
        spec["ashift"] = l.ashift;
        spec["recordsize"] = l.recordsizeBytes;
        spec["compression"] = l.compression;
        spec["atime"] = l.atime;
        spec["autotrim"] = l.autotrim;
        if (isZfs(l.kind)) {
            spec["vdevs"] = l.vdevs;
            if (isDraid(l.kind))
                spec["draid"] = {{"data", l.draid.data}, {"spares", l.draid.spares}};
            // Linux OpenZFS partitions a whole block device itself; FreeBSD's uses it as it is,
            // as both do files.
            const ScenarioDisk* first = l.disks.empty() ? nullptr : s.disk(l.disks.front());
            const bool devices = first && !first->device.empty();
            const bool linux = s.host.os.value_or(TargetOs::Linux) == TargetOs::Linux;
            spec["zfs_devices"] = devices && linux ? "whole-disk" : "as-is";
            addZfsAux(spec, s, l.zfsAux, deviceBytes);
        }
    }
    return dumpJson(spec);
}

std::string importedLayoutSpecJson() {
    return json{{"imported", true}}.dump();
}

bool layoutSpecIsImported(const std::string& specJson) {
    const json j = json::parse(specJson, nullptr, false);
    if (!j.is_object())
        return false;
    const auto it = j.find("imported");
    return it != j.end() && it->is_boolean() && it->get<bool>();
}

bool layoutSpecMarksBaseline(const std::string& specJson) {
    const json j = json::parse(specJson, nullptr, false);
    return j.is_object() && j.value("baseline", false) == true;
}

std::optional<CapacityInput> capacityInputFromSpec(const std::string& specJson,
                                                   const std::string& kind) {
    const json spec = json::parse(specJson, nullptr, false);
    if (!spec.is_object())
        return std::nullopt;
    auto k = parseLayoutKind(spec.value("kind", kind));
    // A pool or a guest on an md array: the array is what the disks make.
    const auto md = spec.find("md");
    if (md != spec.end() && md->is_object())
        k = parseLayoutKind(md->value("kind", std::string()));
    const auto disks = spec.find("disk_bytes");
    if (!k || disks == spec.end() || !disks->is_array() || disks->empty())
        return std::nullopt;
    CapacityInput in;
    in.kind = *k;
    for (const auto& d : *disks) {
        if (!d.is_number_unsigned())
            return std::nullopt;
        in.diskBytes.push_back(d.get<std::uint64_t>());
    }
    if (auto it = spec.find("recordsize"); it != spec.end() && it->is_number_unsigned())
        in.recordsizeBytes = it->get<std::uint64_t>();
    if (auto it = spec.find("ashift"); it != spec.end() && it->is_number_unsigned())
        in.ashift = it->get<unsigned>();
    if (auto it = spec.find("underprovision"); it != spec.end() && it->is_number())
        in.underprovision = it->get<double>();
    if (auto it = spec.find("chunk"); it != spec.end() && it->is_number_unsigned())
        in.mdChunkBytes = it->get<std::uint64_t>();
    if (auto it = spec.find("vdevs"); it != spec.end() && it->is_number_unsigned())
        in.vdevs = it->get<unsigned>();
    if (auto it = spec.find("draid"); it != spec.end() && it->is_object()) {
        in.draid.data = it->value("data", 0U);
        in.draid.spares = it->value("spares", 0U);
    }
    if (auto it = spec.find("special_disk_bytes"); it != spec.end() && it->is_array())
        for (const auto& d : *it) {
            if (!d.is_number_unsigned())
                return std::nullopt;
            in.specialDiskBytes.push_back(d.get<std::uint64_t>());
        }
    // Layouts stored before the key was written were modelled with the devices as they are.
    in.zfsWholeDiskLabel = spec.value("zfs_devices", std::string("as-is")) == "whole-disk";
    if (md != spec.end() && md->is_object()) {
        in.mdChunkBytes = md->value("chunk", in.mdChunkBytes);
        // A pool on the array: zfs-stripe with an inner array, or a guest running ZFS on it.
        const auto guest = spec.find("guest");
        in.poolOnArray = spec.value("kind", kind) == "zfs-stripe" ||
                         (guest != spec.end() && guest->is_object() &&
                          guest->value("layout", std::string()).starts_with("zfs"));
    }
    return in;
}

std::optional<Capacity> capacityFromSpec(const std::string& specJson, const std::string& kind) {
    const auto in = capacityInputFromSpec(specJson, kind);
    if (!in)
        return std::nullopt;
    auto cap = computeCapacity(*in);
    if (!cap)
        return std::nullopt;
    return *cap;
}

Expected<CapacityInput> requireCapacityInput(const std::string& name, const std::string& specJson) {
    const auto spec = json::parse(specJson, nullptr, false);
    const std::string where = "layout: layout '" + name + "' ";
    if (!spec.is_object())
        return badInput(where + "has a spec that is not a JSON object");
    if (!spec.contains("kind") || !spec["kind"].is_string() || !spec.contains("disk_bytes") ||
        !spec["disk_bytes"].is_array())
        return badInput(where + "has no \"kind\" and \"disk_bytes\" in its spec (an imported " +
                        "layout records no disks); project its kind and disk sizes instead");
    const auto kindName = spec["kind"].get<std::string>();
    if (!parseLayoutKind(kindName))
        return badInput(where + "has an unknown kind '" + kindName + "'");
    auto layout = capacityInputFromSpec(specJson, kindName);
    if (!layout)
        return badInput(where + "has a disk_bytes entry that is not a positive integer");
    return *layout;
}

} // namespace lb
