// Test fixture support: a userspace NFS server. Starts `rpcbind -f -w` (unless one already
// answers on 127.0.0.1:111) and `ganesha.nfsd -F` with the LAB.md configuration, exporting a
// directory by its path (NFSv3) and as the pseudo path /export (NFSv4). Stops only what it
// started, by process id; stops leftovers of a crashed earlier run at start.
#pragma once

#include "tests/support/tgtd.h"

#include <string>

namespace lb::test {

class Ganesha {
public:
    // `workdir` holds the configuration, logs and pid files; `exportDir` is exported.
    Ganesha(std::string workdir, std::string exportDir);
    ~Ganesha();
    Ganesha(const Ganesha&) = delete;
    Ganesha& operator=(const Ganesha&) = delete;

    bool available() const { return available_; }
    const std::string& why() const { return why_; }

    // nfs://127.0.0.1/<exportDir>/<file> (NFSv3) or nfs://127.0.0.1/export/<file>?version=4.
    std::string url(const std::string& file, int version) const;
    const std::string& exportDir() const { return exportDir_; }

private:
    std::string workdir_;
    std::string exportDir_;
    ChildDaemon rpcbind_;
    ChildDaemon ganesha_;
    bool available_ = false;
    std::string why_;
};

} // namespace lb::test
