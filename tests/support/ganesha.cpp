// The nfs-ganesha + rpcbind fixture (see ganesha.h).
#include "tests/support/ganesha.h"

#include "tests/cli/process.h"

#include <filesystem>
#include <fstream>
#include <thread>

namespace lb::test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

Ganesha::Ganesha(std::string workdir, std::string exportDir)
    : workdir_(std::move(workdir)), exportDir_(std::move(exportDir)) {
    fs::create_directories(workdir_);
    fs::create_directories(exportDir_);
    stopLeftover(workdir_ + "/ganesha.nfsd.pid", "ganesha.nfsd");
    stopLeftover(workdir_ + "/rpcbind.pid", "rpcbind");

    if (!tcpListening("127.0.0.1", 111)) {
        // -w: warm start, -f: foreground. rpcbind must run before ganesha, which exits without it.
        if (!rpcbind_.start({"rpcbind", "-f", "-w"}, workdir_ + "/rpcbind.log",
                            workdir_ + "/rpcbind.pid", &why_)) {
            why_ += " (apt-get install rpcbind)";
            return;
        }
        if (!waitForTcp("127.0.0.1", 111, 10s)) {
            why_ = "rpcbind did not listen on 127.0.0.1:111 within 10 s";
            return;
        }
    }
    if (tcpListening("127.0.0.1", 2049)) {
        why_ = "127.0.0.1:2049 is in use by another NFS server";
        return;
    }
    const std::string conf = workdir_ + "/ganesha.conf";
    std::ofstream(conf) << "NFS_CORE_PARAM { Protocols = 3, 4; NFS_Port = 2049; "
                           "Enable_RQUOTA = false; }\n"
                           "NFSV4 { Graceless = true; }\n"
                           "EXPORT { Export_Id = 1; Path = "
                        << exportDir_
                        << "; Pseudo = /export; Access_Type = RW;\n"
                           "  Squash = No_Root_Squash; Protocols = 3, 4; Transports = TCP; "
                           "SecType = sys;\n"
                           "  CLIENT { Clients = 127.0.0.1, localhost, *; Access_Type = RW; }\n"
                           "  FSAL { Name = VFS; } }\n";
    // ganesha.nfsd -p writes its own pid file; ours (ganesha.nfsd.pid) is the one cleanup reads.
    if (!ganesha_.start({"ganesha.nfsd", "-F", "-f", conf, "-L", workdir_ + "/ganesha.log", "-p",
                         workdir_ + "/ganesha.pid"},
                        workdir_ + "/ganesha.out", workdir_ + "/ganesha.nfsd.pid", &why_)) {
        why_ += " (apt-get install nfs-ganesha nfs-ganesha-vfs)";
        return;
    }
    if (!waitForTcp("127.0.0.1", 2049, 20s)) {
        why_ = "ganesha.nfsd did not listen on 127.0.0.1:2049 within 20 s: " +
               readFile(workdir_ + "/ganesha.out");
        return;
    }
    // NFSv3 needs the MOUNT service registered with rpcbind, which comes a moment later.
    for (int i = 0; i < 100; ++i) {
        const auto r = runProcess({"rpcinfo", "-p", "127.0.0.1"});
        if (r.exitCode == 0 && r.out.find("mountd") != std::string::npos) {
            available_ = true;
            return;
        }
        std::this_thread::sleep_for(100ms);
    }
    why_ = "ganesha.nfsd did not register mountd with rpcbind within 10 s";
}

Ganesha::~Ganesha() {
    // ganesha first: it unregisters from rpcbind on the way out.
    ganesha_.stop(std::chrono::milliseconds(10000));
    rpcbind_.stop();
}

std::string Ganesha::url(const std::string& file, int version) const {
    if (version == 4)
        return "nfs://127.0.0.1/export/" + file + "?version=4";
    return "nfs://127.0.0.1" + exportDir_ + "/" + file;
}

} // namespace lb::test
