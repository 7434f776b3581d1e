// Command plans of the kernel iSCSI initiator (open-iscsi) and NFS client (see kernel_clients.h).
#include "probes/kernel_clients.h"

#include <chrono>

namespace lb::kernel {

namespace {

Command timed(std::string program, std::vector<std::string> args, int seconds) {
    Command c;
    c.program = std::move(program);
    c.args = std::move(args);
    c.env = {{"LC_ALL", "C"}};
    c.timeout = std::chrono::seconds(seconds);
    return c;
}

// A shell function: the block device of LUN $2 of the session logged in to target $1, from
// /sys/class/iscsi_session/sessionN/device/targetH:C:T/H:C:T:LUN/block/sdX.
constexpr const char* findDevice =
    "lbdev() { for s in /sys/class/iscsi_session/session*; do "
    "[ \"$(cat \"$s/targetname\" 2>/dev/null)\" = \"$1\" ] || continue; "
    "for b in \"$s\"/device/target*/*:\"$2\"/block/*; do "
    "[ -e \"$b\" ] && { echo \"/dev/${b##*/}\"; return 0; }; done; done; return 1; }; ";

// iscsiadm takes a value only as an argument, where every local user can read it. So the CHAP
// password goes into the node record itself (the file `iscsiadm -o update` writes), read from
// stdin by the shell's built-in read and printf, which start no process; then iscsiadm must show
// the record's password as set (masked, without -S), proof that it reads what was written.
// $1 target, $2 portal as iscsiadm takes it, $3 the portal as record names start (ADDR,PORT):
// NODE_DIR/IQN/ADDR,PORT (a file) or NODE_DIR/IQN/ADDR,PORT,TPGT/IFACE. Debian keeps the
// records in /etc/iscsi/nodes, others in /var/lib/iscsi/nodes.
constexpr const char* setNodePassword =
    "IFS= read -r p || [ -n \"$p\" ] || exit 1; found=0; "
    "for d in /etc/iscsi/nodes /var/lib/iscsi/nodes; do "
    "for e in \"$d/$1/$3\" \"$d/$1/$3\",*; do for f in \"$e\" \"$e\"/*; do "
    "[ -f \"$f\" ] || continue; "
    "sed -i '/^node\\.session\\.auth\\.password[ =]/d' \"$f\" && "
    "printf 'node.session.auth.password = %s\\n' \"$p\" >> \"$f\" || exit 1; found=1; "
    "done; done; done; "
    "[ $found = 1 ] || { echo \"no node record of $1 at $2 in /etc/iscsi/nodes or "
    "/var/lib/iscsi/nodes\" >&2; exit 1; }; "
    "iscsiadm -m node -T \"$1\" -p \"$2\" | grep -q '^node\\.session\\.auth\\.password = \\*' || "
    "{ echo \"iscsiadm does not read the CHAP password written to the node record of $1\" >&2; "
    "exit 1; }";

// "10.0.2.2:3260" -> "10.0.2.2,3260", "[fd00::1]:3260" -> "fd00::1,3260": how a node record's
// name starts.
std::string recordPortal(const std::string& portal) {
    const auto colon = portal.rfind(':');
    std::string host = portal.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    return host + "," + (colon == std::string::npos ? "3260" : portal.substr(colon + 1));
}

} // namespace

Expected<Attach> iscsiLogin(const ExportTarget& t, int timeoutSeconds) {
    if (!t.iscsi())
        return badInput("the layout has no iSCSI export ([layouts.export] iscsi = ...)");
    Attach a;
    const std::string portal = t.iscsiPortal;
    auto node = [&](std::vector<std::string> more) {
        std::vector<std::string> args{"-m", "node", "-T", t.iqn, "-p", portal};
        args.insert(args.end(), more.begin(), more.end());
        return timed("iscsiadm", std::move(args), timeoutSeconds);
    };
    a.prepare.push_back(
        timed("iscsiadm", {"-m", "discovery", "-t", "sendtargets", "-p", portal}, timeoutSeconds));
    // The node at the portal this client reaches: a target behind NAT (or a port forward)
    // reports its own address in the discovery, where the client cannot log in. Made only when
    // the discovery did not record it already: a second record of the same portal (its target
    // portal group unknown) is a second login, which fails with "session exists" (status 15).
    a.prepare.push_back(timed("sh",
                              {"-c",
                               "iscsiadm -m node -T \"$1\" -p \"$2\" >/dev/null 2>&1 || "
                               "iscsiadm -m node -T \"$1\" -p \"$2\" -o new",
                               "sh", t.iqn, portal},
                              timeoutSeconds));
    if (!t.chapUser.empty()) {
        a.prepare.push_back(
            node({"-o", "update", "-n", "node.session.auth.authmethod", "-v", "CHAP"}));
        a.prepare.push_back(
            node({"-o", "update", "-n", "node.session.auth.username", "-v", t.chapUser}));
        Command secret =
            timed("sh", {"-c", setNodePassword, "sh", t.iqn, portal, recordPortal(portal)},
                  timeoutSeconds);
        secret.secretStdin = t.chapPassword + "\n";
        a.prepare.push_back(std::move(secret));
    }
    a.prepare.push_back(node({"--login"}));
    // The SCSI scan after login is asynchronous: the disk appears a moment later.
    a.prepare.push_back(timed("sh",
                              {"-c",
                               std::string(findDevice) +
                                   "i=0; until lbdev \"$1\" \"$2\" >/dev/null; do "
                                   "i=$((i+1)); [ $i -gt $(($3*10)) ] && { echo \"no block device "
                                   "for $1 LUN $2 after $3 s\" >&2; exit 1; }; sleep 0.1; done",
                               "sh", t.iqn, std::to_string(t.lun), std::to_string(timeoutSeconds)},
                              timeoutSeconds + 10));
    a.cleanup.push_back(node({"--logout"}));
    // The node record keeps the CHAP secret; the discovery record would be found again.
    a.cleanup.push_back(node({"-o", "delete"}));
    a.cleanup.push_back(
        timed("iscsiadm", {"-m", "discoverydb", "-t", "sendtargets", "-p", portal, "-o", "delete"},
              timeoutSeconds));
    return a;
}

Command onIscsiDevice(const ExportTarget& t, const Command& fio, bool jobFile) {
    Command c = fio;
    c.program = "sh";
    c.args = {"-c",
              std::string(findDevice) +
                  "dev=$(lbdev \"$1\" \"$2\") || { echo \"no block device for $1 LUN $2\" >&2; "
                  "exit 1; }; export LB_DEVICE=\"$dev\"; shift 2; " +
                  (jobFile ? "exec \"$@\"" : "exec \"$@\" --filename=\"$dev\""),
              "sh",
              t.iqn,
              std::to_string(t.lun),
              fio.program};
    c.args.insert(c.args.end(), fio.args.begin(), fio.args.end());
    return c;
}

Expected<Attach> nfsMount(const ExportTarget& t, const NfsMount& o, const std::string& mountPoint) {
    if (!t.nfs())
        return badInput("the layout has no NFS export ([layouts.export] nfs = ...)");
    if (mountPoint.empty() || mountPoint.front() != '/')
        return badInput("NFS mount point '" + mountPoint + "' is not an absolute path");
    Attach a;
    const std::string server =
        t.nfsServer.find(':') != std::string::npos ? "[" + t.nfsServer + "]" : t.nfsServer;
    // retry=0: one attempt, so an unreachable server fails at once instead of after minutes.
    std::string options = "vers=" + o.version + ",proto=tcp,rsize=" + std::to_string(o.rsizeBytes) +
                          ",wsize=" + std::to_string(o.wsizeBytes) + ",noatime,retry=0";
    if (!o.extraOptions.empty())
        options += "," + o.extraOptions;
    a.prepare.push_back(timed("mkdir", {"-p", "--", mountPoint}, o.timeoutSeconds));
    a.prepare.push_back(timed("mount",
                              {"-t", "nfs", "-o", options, server + ":" + t.nfsPath, mountPoint},
                              o.timeoutSeconds));
    // A server that went away leaves a mount that only a lazy unmount removes.
    a.cleanup.push_back(
        timed("sh",
              {"-c",
               "grep -qF \" $1 \" /proc/mounts || exit 0; umount \"$1\" || umount -f -l "
               "\"$1\"",
               "sh", mountPoint},
              o.timeoutSeconds));
    a.cleanup.push_back(timed("rmdir", {"--", mountPoint}, o.timeoutSeconds));
    return a;
}

} // namespace lb::kernel
