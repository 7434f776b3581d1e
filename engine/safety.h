// Disk safety: before a layout destroys a disk, find every reason that disk must not be touched
// (mounted, swap, held by md/dm/LVM, a ZFS label, a partition table, a file-system signature,
// holding / or /boot), through a Runner so it works on this machine and over SSH; and the rule
// that lets a destructive apply through only when the scenario marks the disk wipe = true AND
// the command line names it again with --yes-destroy.
#pragma once

#include "engine/expected.h"
#include "engine/runner.h"

#include <string>
#include <vector>

namespace lb {

struct DiskState {
    std::string path;   // as the scenario names it
    std::string serial; // empty when the device reports none (loop devices)
    // Every reason the disk must not be destroyed, each a sentence naming the disk. Empty: a
    // blank disk, free to use.
    std::vector<std::string> holdsReasons;
    std::string resolvedPath; // the kernel's name for it (/dev/sdb for /dev/disk/by-id/...)
    bool operator==(const DiskState&) const = default;
};

// Inspects `device` with lsblk, /proc/swaps, /sys/class/block/*/holders, zdb or blkid, wipefs
// and findmnt, run through `runner`. Bad input when it is not a block device; a runtime error
// when a check cannot be made at all (a tool missing). A disk the probes cannot read gets a
// reason saying so: a disk that cannot be checked is never reported as blank.
Expected<DiskState> inspectDisk(Runner& runner, const std::string& device);

struct DiskDecision {
    DiskState disk;
    bool wipe = false; // the scenario marks the disk `wipe = true`
};

// The rule: a disk with reasons is refused unless it is marked wipe = true AND `yesDestroy`
// names it (by path, kernel path or serial). A refusal is bad input with one line per refused
// disk naming the disk, its reasons and what would let it through.
Expected<void> authorizeDestruction(const std::vector<DiskDecision>& decisions,
                                    const std::vector<std::string>& yesDestroy);

} // namespace lb
