// Test fixture support for the network tests: a daemon the test starts and stops by its process
// id (ChildDaemon), the cleanup of daemons a crashed earlier run left behind (by the pid file it
// wrote), and Tgtd: the tgt iSCSI target daemon in the foreground on a 127.0.0.1 portal, with
// targets and file-backed LUNs made through tgtadm and every initiator bound.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace lb::test {

// A process this test started. Its stdout and stderr go to a log file; its pid is written to a
// pid file so that a later run can stop it if this one crashed.
class ChildDaemon {
public:
    ChildDaemon() = default;
    ~ChildDaemon() { stop(); }
    ChildDaemon(const ChildDaemon&) = delete;
    ChildDaemon& operator=(const ChildDaemon&) = delete;

    // Spawns argv (no shell; argv[0] searched in PATH). False with *why set on failure.
    bool start(const std::vector<std::string>& argv, const std::string& logFile,
               const std::string& pidFile, std::string* why, const std::string& cwd = {});
    bool running();
    // SIGINT, then SIGTERM, then SIGKILL, with waits between; removes the pid file.
    void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(3000));
    void killHard(); // SIGKILL now, as a crash would
    void signal(int sig);
    // Waits up to `limit` for the process to exit: its exit status, or nothing if it runs on.
    std::optional<int> waitExit(std::chrono::milliseconds limit);
    pid_t pid() const { return pid_; }

private:
    pid_t pid_ = -1;
    bool reaped_ = false;
    int status_ = 0;
    std::string pidFile_;
};

// Stops a daemon an earlier, crashed test run started: the pid in `pidFile`, only if that process
// still runs the program `comm` (/proc/PID/comm). Removes the pid file.
void stopLeftover(const std::string& pidFile, const std::string& comm);

// True once a TCP connect to host:port succeeds, polling until `limit`.
bool waitForTcp(const std::string& host, int port, std::chrono::milliseconds limit);
// True while something accepts connections on host:port.
bool tcpListening(const std::string& host, int port);

// The whole file, or empty.
std::string readFile(const std::string& path);

class Tgtd {
public:
    // Starts `tgtd -f` with its portal on 127.0.0.1:portalPort and its management socket
    // /var/run/tgtd/socket.<controlPort>; state files under `workdir` (created). available()
    // says whether it answers; why() says what failed otherwise.
    Tgtd(std::string workdir, int portalPort, int controlPort);
    ~Tgtd();
    Tgtd(const Tgtd&) = delete;
    Tgtd& operator=(const Tgtd&) = delete;

    bool available() const { return available_; }
    const std::string& why() const { return why_; }

    // Target `tid` named `iqn` with LUN `lun` on `backing` (a file or block device), bound to
    // every initiator. False with *why set when a tgtadm step fails.
    bool addLun(int tid, const std::string& iqn, int lun, const std::string& backing,
                std::string* why);
    std::string url(const std::string& iqn, int lun) const;
    int portalPort() const { return portalPort_; }
    void killHard() { daemon_.killHard(); }
    // SIGSTOP / SIGCONT: a target that keeps its connections open but stops answering.
    void freeze(bool frozen);
    bool running() { return daemon_.running(); }

private:
    bool tgtadm(const std::vector<std::string>& args, std::string* why);

    std::string workdir_;
    int portalPort_;
    int controlPort_;
    ChildDaemon daemon_;
    std::vector<int> tids_;
    bool available_ = false;
    std::string why_;
};

} // namespace lb::test
