// Export plan steps (tgtadm, targetcli, exportfs, nfs-ganesha) with their undos, and the export
// as clients see it. CHAP secrets reach the target through stdin, never an argument.
#include "engine/build/serve.h"

#include "engine/base/joined.h"

#include <algorithm>
#include <chrono>

namespace lb {

namespace {

// Why a check or a wait has no undo, and the settings an LIO target's undo takes with it.
constexpr std::string_view checkChangesNothing = "a check changes nothing";
constexpr std::string_view onlyWaits = "it only waits";
constexpr std::string_view goesWithLioTarget =
    "the target's undo (targetcli /iscsi delete) takes it away";

// A step with no undo, and why.
PlanStep withoutUndo(std::string description, Command command, std::string_view why) {
    return {.description = std::move(description),
            .command = std::move(command),
            .noUndo = std::string(why)};
}

// Administration of a target or an NFS server: short, and never waited on for long.
Command admin(std::string program, std::vector<std::string> args) {
    return Command::timed(std::move(program), std::move(args), std::chrono::seconds(60));
}

std::string bracketed(const std::string& address) {
    return address.find(':') != std::string::npos ? "[" + address + "]" : address;
}

// True (exit 0) when something listens on TCP port 2049 (0x0801), read from /proc/net/tcp{,6}.
constexpr const char* listening2049 =
    "grep -qi ':0801 [0-9A-F]*:[0-9A-F]* 0A ' /proc/net/tcp /proc/net/tcp6 2>/dev/null";

// Stops a daemon the plan started, by the pid in its pid file, only if that process is still the
// named program; waits for it to go (30 s).
Command stopByPidFile(const std::string& pidFile, const std::string& program) {
    return admin("sh", {"-c",
                        "p=$(cat \"$1\" 2>/dev/null) || exit 0; "
                        "grep -q \"$2\" /proc/$p/cmdline 2>/dev/null || exit 0; "
                        "kill $p; i=0; "
                        "while kill -0 $p 2>/dev/null && [ $i -lt 300 ]; do "
                        "sleep 0.1; i=$((i+1)); done; ! kill -0 $p 2>/dev/null",
                        "sh", pidFile, program});
}

// Where the LUN's data lives: a sparse file in the layout's directory, a zvol of its pool, or its
// md array. Returns the path given to the target.
std::string planLunBacking(LayoutPlan& plan, const ScenarioLayout& layout,
                           const ScenarioExport& e) {
    if (e.lun == "device") {
        plan.steps.push_back({"make a scratch directory (" + layout.mdDevice +
                                  " is exported raw as the LUN and has no file system)",
                              admin("mkdir", {"--", plan.workdir}),
                              admin("rmdir", {"--", plan.workdir})});
        return layout.mdDevice;
    }
    const std::string size = std::to_string(e.lunSizeBytes);
    if (e.lun == "zvol") {
        const std::string volume = layout.pool + "/lb-lun";
        const std::string device = "/dev/zvol/" + volume;
        plan.steps.push_back(
            {"create the zvol " + volume + " for the LUN",
             admin("zfs", {"create", "-b", std::to_string(e.volBlockBytes), "-V", size, volume}),
             admin("zfs", {"destroy", volume})});
        // udev makes the device node a moment after zfs returns.
        plan.steps.push_back(withoutUndo("wait for " + device,
                                         admin("sh", {"-c",
                                                      "i=0; while [ ! -b \"$1\" ] && [ $i -lt "
                                                      "300 ]; do sleep 0.1; i=$((i+1)); done; "
                                                      "[ -b \"$1\" ] || { echo \"$1 did not "
                                                      "appear within 30 s\" >&2; exit 1; }",
                                                      "sh", device}),
                                         onlyWaits));
        return device;
    }
    const std::string file = plan.workdir + "/lb-lun-" + layout.name + ".img";
    plan.steps.push_back(withoutUndo("check that " + file + " does not exist yet",
                                     admin("test", {"!", "-e", file}), checkChangesNothing));
    plan.steps.push_back({"create the LUN file (sparse, " + size + " bytes)",
                          admin("truncate", {"-s", size, "--", file}),
                          admin("rm", {"-f", "--", file})});
    return file;
}

Command tgtadmCommand(const ScenarioExport& e, const std::vector<std::string>& args) {
    std::vector<std::string> all;
    if (e.tgtControlPort)
        all = {"-C", std::to_string(e.tgtControlPort)};
    all.insert(all.end(), {"--lld", "iscsi"});
    all.insert(all.end(), args.begin(), args.end());
    return admin("tgtadm", std::move(all));
}

// tgtadm takes an account's password only as an argument, where every local user can read it
// (/proc/PID/cmdline); lb-tgt-account sends tgtd the same request with the password read from
// its standard input.
Command tgtAccountCommand(const ScenarioExport& e) {
    std::vector<std::string> args;
    if (e.tgtControlPort)
        args = {"-C", std::to_string(e.tgtControlPort)};
    args.insert(args.end(), {"--user", e.chapUser});
    Command c = admin("lb-tgt-account", std::move(args));
    c.secretStdin = e.chapPassword + "\n";
    return c;
}

// The first step of an iSCSI export, so that a host without a running target fails before
// anything is made.
PlanStep targetCheck(const ScenarioExport& e) {
    if (e.iscsi == IscsiTarget::Tgt)
        return withoutUndo("check that tgtd answers (start it first: tgtd, or systemctl start tgt)",
                           tgtadmCommand(e, {"--op", "show", "--mode", "sys"}),
                           checkChangesNothing);
    return withoutUndo("check that LIO answers (targetcli; the target_core_mod module)",
                       admin("targetcli", {"/iscsi", "ls"}), checkChangesNothing);
}

// tgt's caching mode page (SCSI page 8) with the write cache enabled (WCE, 0x04 of its third
// byte) or not, the rest as tgt's default page: what tgt-admin's write-cache on/off sets.
std::string tgtCachingModePage(bool writeCache) {
    return std::string("mode_page=8:0:18:") + (writeCache ? "0x14" : "0x10") +
           ":0:0xff:0xff:0:0:0xff:0xff:0xff:0xff:0x80:0x14:0:0:0:0:0:0";
}

void planTgt(LayoutPlan& plan, const ScenarioExport& e, const std::string& backing) {
    auto tgtadm = [&](const std::vector<std::string>& args) { return tgtadmCommand(e, args); };
    const std::string tid = std::to_string(e.tid);
    const std::string lun = std::to_string(e.lunNumber);
    plan.steps.push_back({"create target " + tid + " " + e.iqn,
                          tgtadm({"--op", "new", "--mode", "target", "--tid", tid, "-T", e.iqn}),
                          tgtadm({"--op", "delete", "--force", "--mode", "target", "--tid", tid})});
    plan.steps.push_back(
        {"add LUN " + lun + " on " + backing,
         tgtadm(
             {"--op", "new", "--mode", "logicalunit", "--tid", tid, "--lun", lun, "-b", backing}),
         tgtadm({"--op", "delete", "--mode", "logicalunit", "--tid", tid, "--lun", lun})});
    if (e.writeCache)
        plan.steps.push_back(withoutUndo(
            std::string("turn the write cache of LUN ") + lun + (*e.writeCache ? " on" : " off"),
            tgtadm({"--op", "update", "--mode", "logicalunit", "--tid", tid, "--lun", lun,
                    "--params", tgtCachingModePage(*e.writeCache)}),
            "it goes with the LUN"));
    if (!e.chapUser.empty()) {
        plan.steps.push_back(
            {"create the CHAP account " + e.chapUser, tgtAccountCommand(e),
             tgtadm({"--op", "delete", "--mode", "account", "--user", e.chapUser})});
        plan.steps.push_back(
            {"require CHAP as " + e.chapUser + " on target " + tid,
             tgtadm({"--op", "bind", "--mode", "account", "--tid", tid, "--user", e.chapUser}),
             tgtadm({"--op", "unbind", "--mode", "account", "--tid", tid, "--user", e.chapUser})});
    }
    for (const auto& initiator : e.initiators)
        plan.steps.push_back(
            {"allow initiators " + initiator + " on target " + tid,
             tgtadm({"--op", "bind", "--mode", "target", "--tid", tid, "-I", initiator}),
             tgtadm({"--op", "unbind", "--mode", "target", "--tid", tid, "-I", initiator})});
}

// The configfs directory of a targetcli node: /iscsi/IQN/tpg1[/acls/INITIATOR] is
// /sys/kernel/config/target/iscsi/IQN/tpgt_1[/acls/INITIATOR].
std::string lioConfigfs(const std::string& node) {
    std::string path = "/sys/kernel/config/target" + node;
    if (const auto at = path.find("/tpg"); at != std::string::npos)
        path.replace(at, 4, "/tpgt_");
    return path;
}

// Who may log in to an LIO target: every initiator (demo mode) or the ones named, with CHAP where
// the export has it.
void planLioAccess(LayoutPlan& plan, const ScenarioExport& e, const std::string& tpg) {
    const bool all = e.initiators == std::vector<std::string>{"ALL"};
    const bool chap = !e.chapUser.empty();
    // `targetcli NODE set auth password=...` would put the secret in its argv: the CHAP
    // credentials go straight into the node's configfs files instead (what targetcli writes),
    // the password read from stdin by the shell's built-in read and printf, which start no
    // process.
    auto auth = [&](const std::string& node) {
        Command c = admin("sh", {"-c",
                                 "IFS= read -r p || [ -n \"$p\" ] || exit 1; "
                                 "printf '%s' \"$2\" > \"$1/auth/userid\" && "
                                 "printf '%s' \"$p\" > \"$1/auth/password\"",
                                 "sh", lioConfigfs(node), e.chapUser});
        c.secretStdin = e.chapPassword + "\n";
        return c;
    };
    if (all) {
        plan.steps.push_back(
            withoutUndo("allow every initiator (demo mode, writable)",
                        admin("targetcli", {tpg, "set", "attribute", "generate_node_acls=1",
                                            "cache_dynamic_acls=1", "demo_mode_write_protect=0",
                                            std::string("authentication=") + (chap ? "1" : "0")}),
                        goesWithLioTarget));
        if (chap)
            plan.steps.push_back(
                withoutUndo("require CHAP as " + e.chapUser, auth(tpg), goesWithLioTarget));
        return;
    }
    if (chap)
        plan.steps.push_back(withoutUndo(
            "require CHAP", admin("targetcli", {tpg, "set", "attribute", "authentication=1"}),
            goesWithLioTarget));
    for (const auto& initiator : e.initiators) {
        plan.steps.push_back(withoutUndo("allow initiator " + initiator,
                                         admin("targetcli", {tpg + "/acls", "create", initiator}),
                                         goesWithLioTarget));
        if (chap)
            plan.steps.push_back(withoutUndo("CHAP as " + e.chapUser + " for " + initiator,
                                             auth(tpg + "/acls/" + initiator), goesWithLioTarget));
    }
}

void planLio(LayoutPlan& plan, const ScenarioLayout& layout, const ScenarioExport& e,
             const std::string& backing) {
    const std::string name = "lb-" + layout.name;
    const bool file = e.lun == "file";
    const std::string store = std::string("/backstores/") + (file ? "fileio" : "block");
    const std::string tpg = "/iscsi/" + e.iqn + "/tpg1";
    plan.steps.push_back({"create the backstore " + name + " on " + backing,
                          admin("targetcli", {store, "create", "name=" + name,
                                              (file ? "file_or_dev=" : "dev=") + backing}),
                          admin("targetcli", {store, "delete", name})});
    if (e.writeCache)
        plan.steps.push_back(withoutUndo(
            std::string("turn the write cache of ") + name + (*e.writeCache ? " on" : " off"),
            admin("targetcli", {store + "/" + name, "set", "attribute",
                                std::string("emulate_write_cache=") + (*e.writeCache ? "1" : "0")}),
            "it goes with the backstore"));
    // The target's undo removes what is made inside it: its LUN, portal, ACLs and CHAP settings.
    plan.steps.push_back({"create target " + e.iqn, admin("targetcli", {"/iscsi", "create", e.iqn}),
                          admin("targetcli", {"/iscsi", "delete", e.iqn})});
    plan.steps.push_back(
        withoutUndo("add LUN " + std::to_string(e.lunNumber) + " (" + name + ")",
                    admin("targetcli", {tpg + "/luns", "create", store + "/" + name,
                                        "lun=" + std::to_string(e.lunNumber)}),
                    goesWithLioTarget));
    if (e.portalPort != 3260) {
        plan.steps.push_back(
            withoutUndo("remove the default portal 0.0.0.0:3260",
                        admin("targetcli", {tpg + "/portals", "delete", "0.0.0.0", "3260"}),
                        goesWithLioTarget));
        plan.steps.push_back(withoutUndo("listen on port " + std::to_string(e.portalPort),
                                         admin("targetcli", {tpg + "/portals", "create", "0.0.0.0",
                                                             std::to_string(e.portalPort)}),
                                         goesWithLioTarget));
    }
    planLioAccess(plan, e, tpg);
}

void planKernelNfs(LayoutPlan& plan, const ScenarioExport& e) {
    plan.steps.push_back(
        withoutUndo("check that the kernel NFS server runs (systemctl start nfs-server)",
                    admin("sh", {"-c", "test \"$(cat /proc/fs/nfsd/threads 2>/dev/null)\" "
                                       "-gt 0 2>/dev/null"}),
                    checkChangesNothing));
    const std::string options = joinedText(e.nfsOptions, ",") + ",no_subtree_check";
    for (const auto& client : e.nfsClients) {
        const std::string spec = client + ":" + plan.workdir;
        plan.steps.push_back({"export " + plan.workdir + " to " + client,
                              admin("exportfs", {"-o", options, spec}),
                              admin("exportfs", {"-u", spec})});
    }
}

// nfs-ganesha's configuration for one export: the exported path is also its NFSv4 pseudo path,
// so both versions mount the same path. The CLIENT block is required (without it every mount is
// refused with MNT3ERR_ACCES).
std::string ganeshaConfig(const ScenarioExport& e, const std::string& path) {
    std::vector<std::string> versions;
    for (int v : e.nfsVersions)
        versions.push_back(std::to_string(v));
    const std::string protocols = joinedText(versions, ", ");
    std::string access = "RW", squash = "No_Root_Squash", privileged = "false";
    for (const auto& o : e.nfsOptions) {
        if (o == "ro")
            access = "RO";
        else if (o == "root_squash")
            squash = "Root_Squash";
        else if (o == "all_squash")
            squash = "All_Squash";
        else if (o == "secure")
            privileged = "true";
    }
    return "NFS_CORE_PARAM { Protocols = " + protocols +
           "; NFS_Port = 2049; Enable_RQUOTA = false; }\n"
           "NFSV4 { Graceless = true; }\n"
           "EXPORT {\n"
           "  Export_Id = 1; Path = \"" +
           path + "\"; Pseudo = \"" + path + "\";\n  Access_Type = " + access +
           "; Squash = " + squash + "; Protocols = " + protocols +
           "; Transports = TCP; SecType = sys;\n  PrivilegedPort = " + privileged +
           ";\n  CLIENT { Clients = " + joinedText(e.nfsClients, ", ") +
           "; Access_Type = " + access + "; }\n  FSAL { Name = VFS; }\n}\n";
}

void planGanesha(LayoutPlan& plan, const Scenario& scenario, const ScenarioLayout& layout,
                 const ScenarioExport& e) {
    // Its files stay out of the export: in the work directory, or in /var/tmp inside a guest.
    const std::string dir =
        (plan.runsOn == RunsOn::Guest ? std::string("/var/tmp/layoutbench") : scenario.workDir) +
        "/ganesha-" + layout.name;
    const std::string conf = dir + "/ganesha.conf", pid = dir + "/ganesha.pid",
                      log = dir + "/ganesha.log";
    plan.steps.push_back(withoutUndo("check that rpcbind answers (nfs-ganesha registers with it)",
                                     admin("rpcinfo", {"-p"}), checkChangesNothing));
    // Registrations are no proof: rpcbind -w restores those of servers long gone.
    plan.steps.push_back(withoutUndo("check that no other NFS server listens on port 2049",
                                     admin("sh", {"-c", std::string("! ") + listening2049 +
                                                            " || { echo 'port 2049 is taken: an "
                                                            "NFS server already runs here' >&2; "
                                                            "exit 1; }"}),
                                     checkChangesNothing));
    plan.steps.push_back({"make nfs-ganesha's directory", admin("mkdir", {"-p", "--", dir}),
                          admin("rm", {"-rf", "--", dir})});
    plan.steps.push_back(withoutUndo("write nfs-ganesha's configuration",
                                     admin("sh", {"-c", "printf '%s' \"$2\" > \"$1\"", "sh", conf,
                                                  ganeshaConfig(e, plan.workdir)}),
                                     "the directory's undo (rm -rf) takes it away"));
    plan.steps.push_back({"start nfs-ganesha exporting " + plan.workdir,
                          admin("ganesha.nfsd", {"-f", conf, "-L", log, "-p", pid}),
                          stopByPidFile(pid, "ganesha")});
    // Ready when each version answers an RPC NULL call (and MOUNT for NFSv3): registrations
    // alone may be stale.
    std::string ready;
    for (int v : e.nfsVersions)
        ready += std::string(ready.empty() ? "" : " && ") + "rpcinfo -T tcp 127.0.0.1 nfs " +
                 std::to_string(v) + (v == 3 ? " && rpcinfo -T tcp 127.0.0.1 mountd 3" : "");
    plan.steps.push_back(withoutUndo(
        "wait until nfs-ganesha serves NFS",
        admin("sh",
              {"-c",
               "i=0; while [ $i -lt 300 ]; do "
               "{ " +
                   ready +
                   "; } >/dev/null 2>&1 && exit 0; "
                   "p=$(cat \"$1\" 2>/dev/null) && ! kill -0 \"$p\" 2>/dev/null && "
                   "{ echo \"ganesha.nfsd exited; the end of $2:\" >&2; tail -n 5 \"$2\" >&2; "
                   "exit 1; }; sleep 0.1; i=$((i+1)); done; "
                   "echo \"nfs-ganesha does not answer NFS calls after 30 s; see $2\" >&2; "
                   "exit 1",
               "sh", pid, log}),
        onlyWaits));
}

} // namespace

bool exportsRawDevice(const ScenarioLayout& layout) {
    return layout.exported && layout.exported->iscsi && layout.exported->lun == "device";
}

Expected<void> planExport(LayoutPlan& plan, const Scenario& scenario,
                          const ScenarioLayout& layout) {
    if (!layout.exported)
        return {};
    const ScenarioExport& e = *layout.exported;
    if (e.chapPasswordMasked)
        return badInput((scenario.path.empty() ? std::string("scenario") : scenario.path) + ":" +
                        std::to_string(e.line) + ": chap_password: layout '" + layout.name +
                        "': the CHAP password is masked in this copy of the scenario (the one "
                        "stored with a campaign); give the scenario file that holds it");
    if (exportsRawDevice(layout))
        plan.workdir = scenario.workDir + "/scratch-" + layout.name;
    if (plan.workdir.empty())
        return badInput("layout '" + layout.name + "': nothing to export (no directory)");
    if (e.iscsi) {
        plan.steps.push_back(targetCheck(e));
        const std::string backing = planLunBacking(plan, layout, e);
        if (e.iscsi == IscsiTarget::Tgt)
            planTgt(plan, e, backing);
        else
            planLio(plan, layout, e, backing);
    }
    if (e.nfs == NfsServer::Kernel)
        planKernelNfs(plan, e);
    else if (e.nfs == NfsServer::Ganesha)
        planGanesha(plan, scenario, layout, e);
    return {};
}

ExportTarget exportTarget(const ScenarioLayout& layout, const std::string& workdir) {
    ExportTarget t;
    if (!layout.exported)
        return t;
    const ScenarioExport& e = *layout.exported;
    if (e.iscsi) {
        t.iscsiPortal = bracketed(e.address) + ":" + std::to_string(e.portalPort);
        t.iqn = e.iqn;
        t.lun = e.lunNumber;
        t.chapUser = e.chapUser;
        t.chapPassword = e.chapPassword;
    }
    if (e.nfs) {
        t.nfsServer = e.address;
        t.nfsPath = workdir;
        t.nfsVersions = e.nfsVersions;
    }
    return t;
}

} // namespace lb
