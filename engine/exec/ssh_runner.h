// The SSH runner: runs a Command on a remote host through the system OpenSSH client in batch
// mode. Every argument is quoted for the remote POSIX shell, so hostile names arrive intact and
// run nothing else; known hosts are always checked. The ssh client itself runs through a
// LocalRunner, which gives streaming, timeouts and polite cancelling of the client.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/command.h"
#include "engine/exec/runner.h"

#include <memory>
#include <string>
#include <vector>

namespace lb {

struct SshTarget {
    std::string user; // empty: ssh's default (the local user or ~/.ssh/config)
    std::string host; // a name, an IPv4 address or an IPv6 address (without brackets)
    int port = 22;
    std::string identityFile;              // empty: ssh's default keys and agent
    std::string knownHostsFile;            // empty: the user's ~/.ssh/known_hosts
    std::vector<std::string> extraOptions; // each passed as "-o OPTION"
    std::string sshProgram = "ssh";
    bool operator==(const SshTarget&) const = default;
};

// "ssh://[user@]host[:port]", host may be "[v6addr]". Bad input when it is not such a URL or
// a part could be taken for an ssh option.
Expected<SshTarget> parseSshUrl(const std::string& url);
// "ssh://user@host:port" (the port always shown).
std::string sshUrl(const SshTarget& target);

// The one string the remote shell runs: [cd DIR &&] exec [env -- NAME=VALUE...] PROGRAM ARGS...,
// every word quoted. It never holds a secret: a command's secret stdin is not part of it.
std::string remoteShellCommand(const Command& cmd);
// The local `ssh ...` command that runs `cmd` on the target; its secret stdin becomes ssh's,
// which ssh forwards to the remote command.
// With track = true the remote shell also reports the tool's pid on stderr (the SSH runner
// takes that line out again), so a stopped run can be stopped on the server too; with a tag
// (RunOptions::toolTag) it keeps the pid in ${TMPDIR:-/tmp}/layoutbench-tools/TAG.PID until
// the tool ends.
Command sshCommand(const SshTarget& target, const Command& cmd, bool track = false,
                   const std::string& tag = {});

// Stops, on the runner's machine, the tools that an SSH runner started with this tag and that
// are still running (their layoutbench was killed, the ssh client with it): SIGINT, SIGTERM,
// SIGKILL with the options' waits, as a stopped run. A pid whose process is gone or is another
// program now is only forgotten. Returns what it stopped, e.g. "fio (pid 4242)". Harmless where
// nothing was tagged (a local target).
Expected<std::vector<std::string>> stopLeftTools(Runner& runner, const std::string& tag,
                                                 const RunOptions& waits = {});

std::unique_ptr<Runner> makeSshRunner(SshTarget target);

// The runner a scenario's [host] asks for: local, or SSH with its identity and known_hosts.
Expected<std::unique_ptr<Runner>> makeRunnerFor(const std::string& target,
                                                const std::string& identity,
                                                const std::string& knownHosts);

} // namespace lb
