// Disk safety: before a layout destroys a disk, find every reason that disk must not be touched,
// through a Runner so it works on this machine and over SSH. Two kinds of reasons:
//  - in use: mounted (itself or a partition), active swap, a member of an assembled md array or
//    of an imported ZFS pool, held by device-mapper (LVM, dm-crypt), holding / or /boot. Refused
//    whatever the flags, naming the holder: destroying it corrupts something live.
//  - carries: a ZFS label of a pool not imported, a partition table, a file-system signature, or a
//    probe that could not read it. Let through only when the scenario marks the disk wipe = true
//    AND the command line names it again with --yes-destroy.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/runner.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lb {

struct DiskState {
    std::string path;   // as the scenario names it
    std::string serial; // empty when the device reports none (loop devices)
    // What the disk carries, each a sentence naming the disk: wipe = true and --yes-destroy let
    // it through.
    std::vector<std::string> carries;
    std::string resolvedPath; // the kernel's name for it (/dev/sdb for /dev/disk/by-id/...)
    // What uses the disk now, each a sentence naming the disk and its holder (the mount point,
    // the md array, the pool, the dm device): nothing lets it through.
    std::vector<std::string> inUse;
    // Nothing in use, nothing carried: free to use.
    bool blank() const { return carries.empty() && inUse.empty(); }
    bool operator==(const DiskState&) const = default;
};

// Inspects `device` with lsblk, /proc/swaps, /sys/class/block/*/holders, findmnt, blkid, zdb,
// `zpool list` (which pools are imported) and wipefs, run through `runner`. Bad input when it is
// not a block device; a runtime error when a check cannot be made at all (a tool missing). A disk
// the probes cannot read gets a reason saying so: a disk that cannot be checked is never reported
// as blank.
Expected<DiskState> inspectDisk(Runner& runner, const std::string& device);

// The same checks on FreeBSD (engine/exec/safety_freebsd.cpp): diskinfo, mount -p, swapinfo -k,
// zpool status -P, gmirror/graid status, gpart show -p, zdb -l, fstyp. Written from FreeBSD's
// manuals and captured outputs; not exercised on a live FreeBSD host here.
Expected<DiskState> inspectDiskFreeBsd(Runner& runner, const std::string& device);
// Its parsers, each on its command's output:
struct FreeBsdMount {
    std::string device, mountPoint, fsType;
    bool operator==(const FreeBsdMount&) const = default;
};
std::vector<FreeBsdMount> parseFreeBsdMountP(std::string_view mountP);
std::vector<std::string> parseFreeBsdSwapinfo(std::string_view swapinfo); // swap devices
// (pool, leaf device) for every device of every imported pool in `zpool status` output.
std::vector<std::pair<std::string, std::string>> parseZpoolStatusLeaves(std::string_view status);
// (geom name, component) from `gmirror status` or `graid status`.
std::vector<std::pair<std::string, std::string>> parseGeomStatus(std::string_view status);
// The partitions' providers in `gpart show -p DISK` (da1p1, da1p2, ...).
std::vector<std::string> parseGpartShowProviders(std::string_view gpartShow);

struct DiskDecision {
    DiskState disk;
    bool wipe = false; // the scenario marks the disk `wipe = true`
};

// The rule: a disk in use is refused, whatever the flags; a disk that carries something is
// refused unless it is marked wipe = true AND `yesDestroy` names it (by path, kernel path or
// serial). A refusal is bad input with one line per refused disk naming the disk, its reasons and
// what would let it through.
Expected<void> authorizeDestruction(const std::vector<DiskDecision>& decisions,
                                    const std::vector<std::string>& yesDestroy);

} // namespace lb
