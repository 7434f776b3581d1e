#include "engine/capacity/zfs_version.h"

#include "engine/base/size.h"
#include "engine/exec/runner.h"

#include <charconv>
#include <chrono>

namespace lb {

namespace {

// "2.3.2-2~bpo12+2" -> 2, 3, 2; false if it does not start with a dotted number.
bool parseDotted(std::string_view text, ZfsImplementation& z) {
    unsigned* parts[] = {&z.major, &z.minor, &z.patch};
    const char* at = text.data();
    const char* end = text.data() + text.size();
    for (int i = 0; i < 3; ++i) {
        const auto [next, ec] = std::from_chars(at, end, *parts[i]);
        if (ec != std::errc{})
            return i >= 2; // major.minor is enough
        at = next;
        if (i < 2) {
            if (at == end || *at != '.')
                return i >= 1;
            ++at;
        }
    }
    return true;
}

// The line of `text` that starts with `prefix`, without it.
std::string_view lineAfter(std::string_view text, std::string_view prefix) {
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t nl = text.find('\n', at);
        if (nl == std::string_view::npos)
            nl = text.size();
        std::string_view line = text.substr(at, nl - at);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.remove_suffix(1);
        if (line.starts_with(prefix))
            return line.substr(prefix.size());
        at = nl + 1;
    }
    return {};
}

} // namespace

bool ZfsImplementation::openZfsAtLeast(unsigned wantMajor, unsigned wantMinor) const {
    return kind == Kind::OpenZfs &&
           (major > wantMajor || (major == wantMajor && minor >= wantMinor));
}

std::string ZfsImplementation::describe() const {
    switch (kind) {
    case Kind::OpenZfs:
        return "OpenZFS " + std::to_string(major) + "." + std::to_string(minor) + "." +
               std::to_string(patch) + " (" + version + ")";
    case Kind::ZfsFuse:
        return "zfs-fuse (FUSE, pool version " + std::to_string(poolVersion) + ")";
    case Kind::None:
        break;
    }
    return "no ZFS";
}

ZfsImplementation parseZfsImplementation(std::string_view zfsVersionOutput,
                                         std::string_view zpoolUpgradeOutput) {
    ZfsImplementation z;
    // The module is what runs the pool; the userland may be another version.
    std::string_view v = lineAfter(zfsVersionOutput, "zfs-kmod-");
    if (v.empty())
        v = lineAfter(zfsVersionOutput, "zfs-");
    if (!v.empty() && parseDotted(v, z)) {
        z.kind = ZfsImplementation::Kind::OpenZfs;
        z.version = std::string(v);
        return z;
    }
    z = {};
    const std::string_view marker = "running ZFS pool version ";
    const auto at = zpoolUpgradeOutput.find(marker);
    if (at != std::string_view::npos) {
        const auto rest = zpoolUpgradeOutput.substr(at + marker.size());
        unsigned pool = 0;
        const auto [next, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), pool);
        if (ec == std::errc{}) {
            // Pool versions stop at 28 (then feature flags): a system that reports one runs a
            // ZFS from before OpenZFS; on Linux that is zfs-fuse.
            z.kind = ZfsImplementation::Kind::ZfsFuse;
            z.poolVersion = pool;
            z.version = "pool version " + std::to_string(pool);
        }
    }
    return z;
}

ZfsImplementation detectZfs(Runner& runner) {
    const auto ask = [&runner](std::string program, std::vector<std::string> args) {
        auto r = runner.run(
            Command::timed(std::move(program), std::move(args), std::chrono::seconds(30), true));
        return r && r->ok() ? r->stdoutText : std::string();
    };
    const auto version = ask("zfs", {"version"});
    if (auto z = parseZfsImplementation(version, {}); z.kind != ZfsImplementation::Kind::None)
        return z;
    return parseZfsImplementation({}, ask("zpool", {"upgrade", "-v"}));
}

std::string zfsPartialRecordNote(std::uint64_t ioBytes, std::uint64_t recordBytes, bool zvol) {
    if (ioBytes == 0 || ioBytes >= recordBytes)
        return {};
    const std::string record = zvol ? "block" : "record";
    return formatBytes(ioBytes, true) + " blocks on " +
           (zvol ? "a zvol of " + formatBytes(recordBytes, true) + " blocks (volblocksize)"
                 : formatBytes(recordBytes, true) + " records") +
           ": each read fetches a whole " + record +
           " from the vdevs and each write rewrites one, " + std::to_string(recordBytes / ioBytes) +
           " times the bytes counted";
}

std::string zfsFeatureProblem(const ZfsImplementation& zfs, std::string_view feature) {
    const bool draid = feature == "draid";
    const unsigned minor = draid ? 1 : 3;
    if (zfs.openZfsAtLeast(2, minor))
        return {};
    const std::string what = draid ? "dRAID" : "RAIDZ expansion (zpool attach to a raidz vdev)";
    return what + " needs OpenZFS 2." + std::to_string(minor) + " or later; the target runs " +
           zfs.describe();
}

} // namespace lb
