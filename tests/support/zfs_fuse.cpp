#include "tests/support/zfs_fuse.h"

#include "tests/cli/process.h"

#include <chrono>
#include <signal.h>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace lb::test {

namespace {
bool zpoolAnswers() {
    return runProcess({"zpool", "list", "-H"}).exitCode == 0;
}
// zfs-fuse imports at start what its cache file (/var/lib/zfs/zpool.cache) lists, and a pool
// destroyed just before the daemon was stopped can still be listed there: the daemon we start
// then holds a FAULTED pool of that name (its loop device and image are gone), and the next
// `zpool create` of the name fails with "pool already exists". Exporting such pools forgets them
// without touching any device.
void forgetPoolsWhoseDevicesAreGone() {
    const auto r = runProcess({"zpool", "list", "-H", "-o", "name,health"});
    std::istringstream rows(r.out);
    std::string name, health;
    while (rows >> name >> health)
        if (health == "FAULTED" || health == "UNAVAIL")
            runProcess({"zpool", "export", "-f", name});
}
} // namespace

ZfsFuse::ZfsFuse() {
    if (zpoolAnswers()) {
        available_ = true;
        return;
    }
    // --no-daemon keeps it our child, so we know its pid and stop exactly it.
    const char* argv[] = {"zfs-fuse", "--no-daemon", nullptr};
    pid_t pid = 0;
    if (posix_spawnp(&pid, "zfs-fuse", nullptr, nullptr, const_cast<char**>(argv), environ) != 0) {
        why_ = "zfs-fuse is not installed (apt-get install zfs-fuse)";
        return;
    }
    startedPid_ = pid;
    for (int i = 0; i < 100 && !available_; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        available_ = zpoolAnswers();
    }
    if (!available_)
        why_ = "zfs-fuse started but zpool does not answer within 10 s";
    else
        forgetPoolsWhoseDevicesAreGone();
}

ZfsFuse::~ZfsFuse() {
    if (startedPid_ <= 0)
        return;
    kill(startedPid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
        if (waitpid(startedPid_, nullptr, WNOHANG) == startedPid_)
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    kill(startedPid_, SIGKILL);
    waitpid(startedPid_, nullptr, 0);
}

bool poolExists(const std::string& name) {
    return runProcess({"zpool", "list", "-H", "-o", "name", name}).exitCode == 0;
}

} // namespace lb::test
