// Layouts stacked on a layout: a ZFS pool of one vdev on an md array, as ZFS on md on the host or
// as the pool a guest builds on the one device the array is passed to it as. The array is
// modelled by capacity.cpp's md rules, the pool by its ZFS rules for one device of the array's
// usable size: no rule of its own here.
#include "engine/capacity/capacity.h"

#include <string>

namespace lb {

Expected<Capacity> computeZfsOnMdCapacity(const CapacityInput& md, const CapacityInput& zfs) {
    if (!isMd(md.kind))
        return badInput("kind: " + std::string(layoutKindName(md.kind)) +
                        " is not an md kind to put a pool on");
    CapacityInput bare = md;
    bare.poolOnArray = false;
    auto array = computeCapacity(bare);
    if (!array)
        return array;
    CapacityInput pool = zfs;
    pool.poolOnArray = false;
    pool.kind = LayoutKind::ZfsStripe;
    pool.diskBytes = {array->usableBytes};
    pool.underprovision = 1.0;
    // The array as the pool's one vdev, used as it is (whether libzfs labels an md device as a
    // whole disk has not been checked against a real pool).
    pool.zfsWholeDiskLabel = false;
    pool.vdevs = 1;
    pool.raidzExpandedFrom = 0;
    auto top = computeCapacity(pool);
    if (!top)
        return top;
    Capacity c = *array;
    c.usableBytes = top->usableBytes;
    c.slopBytes = top->slopBytes;
    c.poolSizeBytes = top->poolSizeBytes;
    c.paddingBytes = top->paddingBytes;
    c.reservedBytes = array->reservedBytes + top->reservedBytes;
    c.dataEfficiency = array->dataEfficiency * top->dataEfficiency;
    return c;
}

Expected<CapacityInput> guestCapacityInput(CapacityInput inner, LayoutKind guestPool) {
    if (!isMd(inner.kind))
        return badInput("inner: a guest's disk is modelled as an md array (md-raid0, md-raid1, "
                        "md-raid10, md-raid5 or md-raid6), not " +
                        std::string(layoutKindName(inner.kind)));
    if (guestPool != LayoutKind::ZfsStripe)
        return badInput("guest-pool: the guest sees one device, so its pool is zfs-stripe (one "
                        "vdev of that device), not " +
                        std::string(layoutKindName(guestPool)));
    inner.poolOnArray = true;
    return inner;
}

Expected<CapacityInput> guestCapacityInput(CapacityInput disks, std::string_view inner,
                                           std::string_view guestPool) {
    if (inner.empty())
        return badInput("inner: required with the kind guest: the layout passed to the guest as "
                        "one disk, e.g. md-raid6");
    const auto innerKind = parseLayoutKind(inner);
    if (!innerKind)
        return badInput("inner: " + unknownLayoutKind(inner));
    const auto pool = parseLayoutKind(guestPool);
    if (!pool)
        return badInput("guest-pool: " + unknownLayoutKind(guestPool));
    disks.kind = *innerKind;
    return guestCapacityInput(std::move(disks), *pool);
}

std::string layoutLabel(const CapacityInput& in) {
    if (in.poolOnArray)
        return "guest: " + std::string(layoutKindName(in.kind)) + " + zfs-stripe";
    return isDraid(in.kind)
               ? draidVdevName(in.kind, static_cast<unsigned>(in.diskBytes.size() / in.vdevs),
                               in.draid)
               : std::string(layoutKindName(in.kind));
}

std::string singleSpecialWarning() {
    return "the special vdev is one device, not a mirror: the pool keeps its metadata there and "
           "tolerates 0 failures of it (it is lost with that device, whatever the data vdevs "
           "tolerate)";
}

std::optional<std::string> redundancyNote(const CapacityInput& in) {
    if (in.specialDiskBytes.size() == 1 && isZfs(in.kind)) {
        std::string note = singleSpecialWarning();
        note[0] = 'T';
        return note;
    }
    if (!in.poolOnArray || !isMd(in.kind))
        return std::nullopt;
    const std::string array(layoutKindName(in.kind));
    return "The ZFS pool sees one device (the " + array +
           " array): it detects corruption by its checksums but cannot repair it, having no "
           "redundancy of its own (copies=1); failed disks are the array's to tolerate";
}

} // namespace lb
