// Test fixture support: makes sure a ZFS daemon answers (starting zfs-fuse when none runs) and
// stops only the daemon it started, by its process id.
#pragma once

#include <string>

namespace lb::test {

class ZfsFuse {
public:
    // Starts zfs-fuse if `zpool list` does not answer. available() says whether ZFS works now;
    // when it does not, why() says what failed.
    ZfsFuse();
    ~ZfsFuse();
    ZfsFuse(const ZfsFuse&) = delete;
    ZfsFuse& operator=(const ZfsFuse&) = delete;

    bool available() const { return available_; }
    const std::string& why() const { return why_; }

private:
    int startedPid_ = -1;
    bool available_ = false;
    std::string why_;
};

// True when `zpool list -H -o name NAME` finds the pool.
bool poolExists(const std::string& name);

} // namespace lb::test
