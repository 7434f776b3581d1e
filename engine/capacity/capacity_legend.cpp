// What each figure of the capacity model counts, in words: the legend every capacity table shows
// (the command line's --explain, the report, the GUI's tooltips), written once.
#include "engine/capacity/capacity.h"

#include <array>

namespace lb {

namespace {

constexpr std::array<CapacityColumn, 12> columns{{
    {"raw", "the disks as sold, added up; every other byte column is a part of it"},
    {"usable",
     "what data can fill at the record size: for ZFS what zfs list shows as used + avail of the "
     "new pool, for md the array's size; for a guest, its pool on the inner layout's one device"},
    {"data efficiency",
     "the fraction of allocated raw space that holds data at the record size: parity, padding "
     "and mirror copies taken out, nothing else (so not usable / raw: md-raid0 on 80 % partitions "
     "is 100 %)"},
    {"tolerates", "disks that may fail without losing data, guaranteed (the worst case)"},
    {"mixed sizes", "lost because a larger disk is paired with smaller ones"},
    {"spares", "dRAID's distributed spares"},
    {"special",
     "a ZFS special vdev's space, for metadata and small blocks: in zpool list's SIZE, not in "
     "what zfs list shows as used + avail"},
    {"parity", "raw space holding parity, or the extra copies of a mirror"},
    {"padding",
     "RAIDZ skip sectors (each record rounded up to a multiple of parity + 1 sectors) and the "
     "unfilled end of a sector; none for a record that needs none"},
    {"slop",
     "ZFS's reserve kept from writers: 1/32 of the pool (at least 128 MiB, at most 128 GiB), "
     "with the embedded log metaslab of a vdev of more than 64 metaslabs"},
    {"unpartitioned", "left outside the partitions (underprovisioning), for the SSD's controller"},
    {"reserved",
     "md's superblock, bitmap and data offset; ZFS's labels and boot area, the partial metaslab "
     "at the end of each vdev and, on RAIDZ and dRAID, what the deflate ratio's truncation takes "
     "(0.1-0.4 %); it moves with the metaslab size, so a smaller partition can reserve more"},
}};

} // namespace

std::span<const CapacityColumn> capacityColumns() {
    return columns;
}

} // namespace lb
