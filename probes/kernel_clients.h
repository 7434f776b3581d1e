// The kernel's own iSCSI and NFS clients, as production clients use them: the commands that put a
// layout's export on a client before fio runs there and take it away after, whatever happened.
//   iSCSI: iscsiadm discovery (sendtargets) at the portal, the node recorded at that portal
//          (a target behind NAT reports an address the client cannot reach), CHAP settings on
//          the node record when the export has CHAP (the secret a masked argument), login, then
//          wait until the LUN's block device appears (found by target name and LUN in sysfs);
//          afterwards logout and delete the node and discovery records (they hold the secret).
//   NFS:   mkdir and mount -t nfs -o vers=,proto=tcp,rsize=,wsize=,noatime,retry=0 SERVER:/PATH;
//          afterwards umount (lazily if it is busy) and rmdir.
// Every command has a timeout, so an unreachable portal or server, a wrong IQN or LUN and a
// refused mount end the run as failed with the tool's message instead of hanging.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/command.h"
#include "engine/measure/probe.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lb::kernel {

struct Attach {
    std::vector<Command> prepare;
    std::vector<Command> cleanup; // in order; each runs whatever the others did
};

Expected<Attach> iscsiLogin(const ExportTarget& target, int timeoutSeconds);

// `fio` (program and arguments, no --filename) run on the LUN's block device: a shell finds the
// device in sysfs by target name and LUN, exports it as LB_DEVICE (for job files:
// filename=${LB_DEVICE}) and runs fio with --filename=DEVICE appended unless `jobFile` is set.
Command onIscsiDevice(const ExportTarget& target, const Command& fio, bool jobFile);

struct NfsMount {
    std::string version = "3"; // 3, 4, 4.1, 4.2
    std::uint64_t rsizeBytes = 1 << 20;
    std::uint64_t wsizeBytes = 1 << 20;
    std::string extraOptions; // appended to -o as given, e.g. "nconnect=4,hard"
    int timeoutSeconds = 30;
};

Expected<Attach> nfsMount(const ExportTarget& target, const NfsMount& options,
                          const std::string& mountPoint);

} // namespace lb::kernel
