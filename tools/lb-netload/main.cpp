// lb-netload: a userspace load generator on libiscsi and libnfs. Runs one job (sequential or
// random, read or write, block size, queue depth, for a time or a number of bytes) against an
// iSCSI LUN or an NFS file with the libraries' async APIs and one poll loop, and prints one JSON
// object shaped like fio's per-job JSON, so layoutbench's fio parser reads it. Every network
// step has a timeout: an unreachable portal, a wrong IQN or LUN, a refused export or a server
// that dies mid-run ends with exit status 1 and one line on stderr, never a hang.
//
//   lb-netload URL --rw read|write|randread|randwrite --bs 4k --iodepth 32
//              (--runtime SEC [--size BYTES] | --size BYTES) [--name JOB] [--timeout SEC]
//              [--chap-user NAME --chap-secret-fd FD]
//   URL: iscsi://HOST[:PORT]/IQN/LUN or nfs://HOST/EXPORT/FILE[?version=4]
// A CHAP secret is read from file descriptor FD (0: stdin, its first line), never taken from the
// command line, where every local user could read it (/proc/PID/cmdline): an iSCSI URL with
// user%secret@ is refused. Nothing this program prints contains the secret.
//
// Its parts: options.cpp (the command line, the secret), driver.cpp (the measured job and its
// report), iscsi.cpp and nfs.cpp (the transports), transport.cpp (what they share), netload.h.
#include "netload.h"

#include <cstdio>
#include <memory>

using namespace lbnetload;

const char* const lbnetload::toolVersion =
    "lb-netload-" LB_NETLOAD_VERSION " (libiscsi " LB_LIBISCSI_VERSION ", libnfs " LB_LIBNFS_VERSION
    ")";

int main(int argc, char** argv) {
    // The secret, once read, so that messages can be scrubbed of it.
    std::string secret;
    try {
        Options o = parseArgs(argc, argv);
        if (o.chapSecretFd)
            secret = o.chapSecret = readSecret(*o.chapSecretFd);
        std::unique_ptr<Transport> t;
        if (o.url.starts_with("iscsi://"))
            t = connectIscsi(o);
        else if (o.url.starts_with("nfs://"))
            t = connectNfs(o);
        else
            usage(o.url + ": not an iscsi:// or nfs:// URL");
        Driver d(o, *t);
        d.run();
        std::printf("%s\n", scrubbed(d.report().dump(2), secret).c_str());
        return 0;
    } catch (const Failure& f) {
        std::fprintf(stderr, "lb-netload: %s\n", scrubbed(oneLine(f.what()), secret).c_str());
        return f.status;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lb-netload: %s\n", scrubbed(oneLine(e.what()), secret).c_str());
        return 1;
    }
}
