// Which ZFS a target runs, asked of the target itself: kernel OpenZFS (Linux or FreeBSD) and its
// version, or zfs-fuse (a FUSE port frozen at pool version 23). Behaviour that depends on it --
// dRAID (OpenZFS 2.1), RAIDZ expansion (2.3), what O_DIRECT means (2.3 bypasses the ARC; before,
// reads went through it) -- follows what is found, and every ZFS run records it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lb {

class Runner;

struct ZfsImplementation {
    enum class Kind { None, OpenZfs, ZfsFuse };
    Kind kind = Kind::None;
    // OpenZFS: the kernel module's version ("zfs-kmod-2.3.2-2~bpo12+2" -> 2, 3, 2 and the text
    // after "zfs-kmod-"); the userland's where no module version is printed.
    unsigned major = 0, minor = 0, patch = 0;
    std::string version;
    // zfs-fuse: the pool version it runs (23).
    unsigned poolVersion = 0;

    bool openZfsAtLeast(unsigned wantMajor, unsigned wantMinor) const;
    // "OpenZFS 2.3.2 (module 2.3.2-2~bpo12+2)", "zfs-fuse (FUSE, pool version 23)", "no ZFS".
    std::string describe() const;
    bool operator==(const ZfsImplementation&) const = default;
};

// From the output of `zfs version` (OpenZFS 0.8 and later: "zfs-2.3.2-2~bpo12+2" then
// "zfs-kmod-2.3.2-2~bpo12+2"; FreeBSD's "zfs-2.1.9-FreeBSD_g92e0d9d18") and, where that
// command does not exist, `zpool upgrade -v` ("... currently running ZFS pool version 23.").
ZfsImplementation parseZfsImplementation(std::string_view zfsVersionOutput,
                                         std::string_view zpoolUpgradeOutput);

// Asks the target: `zfs version`, else `zpool upgrade -v`.
ZfsImplementation detectZfs(Runner& runner);

// Why this ZFS cannot build or run a feature, or empty when it can: dRAID needs OpenZFS 2.1, RAIDZ
// expansion OpenZFS 2.3. (The expansion drill also asks the pool itself for the feature flag.)
std::string zfsFeatureProblem(const ZfsImplementation& zfs, std::string_view feature);

// What a workload of `ioBytes` blocks on a dataset of `recordBytes` records really moves, when the
// blocks are smaller: ZFS reads (to checksum) and rewrites whole records, so each small read
// fetches a whole record from the vdevs and each small write rewrites one. Nothing when the
// blocks are at least a record. Measured on OpenZFS 2.3.2 in the lab guest: 4 KiB direct reads on
// 128K records read 131,072 bytes each. A zvol's records are its blocks (volblocksize), and the
// note says so when `zvol`.
std::string zfsPartialRecordNote(std::uint64_t ioBytes, std::uint64_t recordBytes,
                                 bool zvol = false);

} // namespace lb
