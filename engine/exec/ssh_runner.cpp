// The SSH runner: builds one `ssh -o BatchMode=yes ... user@host -- REMOTE` command per Command
// and runs it through a LocalRunner. The remote command is a single string in which every word
// is quoted for a POSIX shell, so the remote shell splits it back into exactly the argv the
// Command holds. Exit status 255 is ssh's own failure (connection, authentication, host key):
// an error naming the host, not a tool result.

#include "engine/exec/ssh_runner.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <utility>

namespace lb {

namespace {

bool validEnvName(const std::string& name) {
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
        return false;
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return false;
    return true;
}

// A user or host ssh cannot mistake for an option, and that cannot smuggle a second word in.
bool safeHostPart(const std::string& s) {
    if (s.empty() || s.front() == '-')
        return false;
    for (char c : s)
        if (std::iscntrl(static_cast<unsigned char>(c)) || c == ' ' || c == '@' || c == '/')
            return false;
    return true;
}

Expected<void> validateTarget(const SshTarget& t) {
    if (!safeHostPart(t.host))
        return badInput("ssh: invalid host '" + t.host + "'");
    if (!t.user.empty() && !safeHostPart(t.user))
        return badInput("ssh: invalid user '" + t.user + "' for " + t.host);
    if (t.port < 1 || t.port > 65535)
        return badInput("ssh: invalid port " + std::to_string(t.port) + " for " + t.host);
    return {};
}

Expected<void> validateCommand(const Command& cmd) {
    if (cmd.program.empty())
        return badInput("command has no program");
    for (const auto& a : cmd.args)
        if (a.find('\0') != std::string::npos)
            return badInput(cmd.program + ": an argument contains a NUL byte");
    for (const auto& [name, value] : cmd.env)
        if (!validEnvName(name) || value.find('\0') != std::string::npos)
            return badInput(cmd.program + ": invalid environment variable name '" + name + "'");
    if (cmd.cwd.find('\0') != std::string::npos)
        return badInput(cmd.program + ": the working directory contains a NUL byte");
    return {};
}

std::string destination(const SshTarget& t) {
    return t.user.empty() ? t.host : t.user + "@" + t.host;
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
        s.pop_back();
    return s;
}

constexpr std::string_view pidMarker = "lb-remote-pid:";

// Removes the "lb-remote-pid:N" line the tracking wrapper prints; returns N.
std::optional<long> takePidMarker(std::string& text) {
    const auto at = text.find(pidMarker);
    if (at == std::string::npos)
        return std::nullopt;
    const auto end = text.find('\n', at);
    const std::string digits =
        text.substr(at + pidMarker.size(),
                    end == std::string::npos ? std::string::npos : end - at - pidMarker.size());
    text.erase(at, end == std::string::npos ? std::string::npos : end - at + 1);
    long pid = 0;
    const auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
        parsed.ec != std::errc{} || parsed.ptr != digits.data() + digits.size())
        return std::nullopt;
    return pid;
}

// Where a tagged tool's pid is kept while it runs, on the machine that runs it.
constexpr std::string_view toolDir = "${TMPDIR:-/tmp}/layoutbench-tools";

std::string safeTag(std::string_view tag) {
    std::string out;
    for (const char c : tag)
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')
            out += c;
    return out;
}

// A shell function `stop PID`: the process and its children (taken before any signal: fio's
// jobs outlive a main process that dies of SIGPIPE on a closed ssh channel; from /proc's children
// lists, else pgrep -P as on FreeBSD, else /proc/*/stat: BusyBox may have no pgrep and a kernel
// no children lists) get SIGINT, then
// SIGTERM, then SIGKILL, each after the options' wait while any of them still runs.
std::string stopFunction(const RunOptions& opts) {
    const auto seconds = [](std::chrono::milliseconds ms) {
        return std::to_string(std::max<long long>(1, (ms.count() + 999) / 1000));
    };
    const auto waitUpTo = [](const std::string& s) {
        return "i=0; while alive \"$@\" && [ $i -lt " + s + " ]; do sleep 1; i=$((i+1)); done; ";
    };
    return "alive() { for q; do kill -0 \"$q\" 2>/dev/null && return 0; done; return 1; }; "
           "kids() { k=$(cat /proc/\"$1\"/task/*/children 2>/dev/null); [ -n \"$k\" ] || "
           "k=$(pgrep -P \"$1\" 2>/dev/null); [ -n \"$k\" ] || k=$(for f in /proc/[0-9]*/stat; "
           "do read -r l <\"$f\" 2>/dev/null || continue; r=${l##*) }; r=${r#* }; "
           "[ \"${r%% *}\" = \"$1\" ] && d=${f%/stat} && echo ${d#/proc/}; done); echo $k; }; "
           "stop() { set -- \"$1\" $(kids \"$1\"); alive \"$@\" || return 0; "
           "kill -INT \"$@\" 2>/dev/null; " +
           waitUpTo(seconds(opts.graceInterrupt)) +
           "alive \"$@\" || return 0; kill -TERM \"$@\" 2>/dev/null; " +
           waitUpTo(seconds(opts.graceTerminate)) +
           "alive \"$@\" || return 0; kill -KILL \"$@\" 2>/dev/null; return 0; }";
}

class SshRunner : public Runner {
public:
    explicit SshRunner(SshTarget target) : target_(std::move(target)), local_(makeLocalRunner()) {}

    Expected<ProcessResult> run(const Command& cmd, const RunOptions& opts) override {
        if (auto ok = validateTarget(target_); !ok)
            return fail(ok.error());
        if (auto ok = validateCommand(cmd); !ok)
            return fail(ok.error());
        // The remote shell reports the tool's pid on stderr; it is taken out of the output here
        // and used to stop the tool on the server when the run is stopped here.
        RunOptions local = opts;
        if (opts.onOutput)
            local.onOutput = [&opts](OutputStream stream, std::string_view text) {
                std::string chunk(text);
                if (stream == OutputStream::Stderr)
                    takePidMarker(chunk);
                if (!chunk.empty())
                    opts.onOutput(stream, chunk);
            };
        auto result = local_->run(sshCommand(target_, cmd, /*track=*/true, opts.toolTag), local);
        if (!result)
            return runtimeError(target() +
                                ": cannot run the ssh client: " + result.error().message);
        const auto pid = takePidMarker(result->stderrText);
        if ((result->timedOut || result->cancelled) && pid)
            stopRemote(*pid, opts);
        // 255 is ssh's own failure. (A remote command that itself exits 255 is reported the
        // same way; ssh cannot tell the two apart.)
        if (!result->timedOut && !result->cancelled && !result->termSignal &&
            result->exitCode == 255) {
            const auto why = trimmed(result->stderrText);
            return runtimeError("ssh to " + destination(target_) + " port " +
                                std::to_string(target_.port) + " failed" +
                                (why.empty() ? std::string(" (exit status 255)") : ": " + why));
        }
        return result;
    }

    std::string target() const override { return sshUrl(target_); }

private:
    // Without a terminal the remote tool does not notice that ssh went away, so a stopped run is
    // stopped on the server too: SIGINT, SIGTERM, SIGKILL with the same waits as locally.
    void stopRemote(long pid, const RunOptions& opts) {
        Command stop{"sh", {"-c", stopFunction(opts) + "; stop " + std::to_string(pid)}};
        stop.timeout = opts.graceInterrupt + opts.graceTerminate + std::chrono::seconds(30);
        (void)local_->run(sshCommand(target_, stop));
    }

    SshTarget target_;
    std::unique_ptr<Runner> local_;
};

} // namespace

Expected<SshTarget> parseSshUrl(const std::string& url) {
    const std::string scheme = "ssh://";
    const auto bad = [&](const std::string& why) {
        return badInput("'" + url + "': not an ssh://[user@]host[:port] URL: " + why);
    };
    if (!url.starts_with(scheme))
        return bad("it must start with ssh://");
    std::string rest = url.substr(scheme.size());
    if (!rest.empty() && rest.back() == '/')
        rest.pop_back();
    if (rest.find('/') != std::string::npos)
        return bad("a path is not allowed");
    SshTarget t;
    if (const auto at = rest.rfind('@'); at != std::string::npos) {
        t.user = rest.substr(0, at);
        rest = rest.substr(at + 1);
        if (t.user.empty())
            return bad("the user is empty");
    }
    std::string portText;
    if (rest.starts_with("[")) {
        const auto close = rest.find(']');
        if (close == std::string::npos)
            return bad("unclosed [");
        t.host = rest.substr(1, close - 1);
        const auto after = rest.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':')
                return bad("unexpected text after ]");
            portText = after.substr(1);
            if (portText.empty())
                return bad("the port is empty");
        }
    } else if (const auto colon = rest.rfind(':'); colon != std::string::npos) {
        t.host = rest.substr(0, colon);
        portText = rest.substr(colon + 1);
        if (portText.empty())
            return bad("the port is empty");
    } else {
        t.host = rest;
    }
    if (t.host.empty())
        return bad("the host is empty");
    if (!portText.empty()) {
        int port = 0;
        const auto [end, ec] =
            std::from_chars(portText.data(), portText.data() + portText.size(), port);
        if (ec != std::errc{} || end != portText.data() + portText.size() || port < 1 ||
            port > 65535)
            return bad("the port must be a number from 1 to 65535");
        t.port = port;
    }
    if (auto ok = validateTarget(t); !ok)
        return fail(ok.error());
    return t;
}

std::string sshUrl(const SshTarget& t) {
    const bool v6 = t.host.find(':') != std::string::npos;
    return "ssh://" + (t.user.empty() ? std::string() : t.user + "@") +
           (v6 ? "[" + t.host + "]" : t.host) + ":" + std::to_string(t.port);
}

std::string remoteShellCommand(const Command& cmd) {
    std::string out;
    if (!cmd.cwd.empty())
        out.append("cd ").append(shellQuote(cmd.cwd)).append(" && ");
    // exec: the tool replaces the shell, so the pid the shell knows is the tool's.
    out += "exec ";
    if (!cmd.env.empty()) {
        // `--` ends env's options; what follows are NAME=VALUE words, then the program.
        out += "env --";
        for (const auto& [name, value] : cmd.env)
            out.append(" ").append(shellQuote(name + "=" + value));
        out += " ";
    }
    out += shellQuote(cmd.program);
    for (const auto& a : cmd.args)
        out.append(" ").append(shellQuote(a));
    return out;
}

namespace {

// With a tag, the tracking wrapper keeps the tool's pid and program name in TOOLDIR/TAG.PID
// until the tool ends (in a directory only this user owns), so stopLeftTools finds a tool that
// outlived its ssh client; the shell's exit status stays the tool's.
std::string keepPid(const Command& cmd, const std::string& tag) {
    const std::string t = safeTag(tag);
    if (t.empty())
        return {};
    const std::string name = std::filesystem::path(cmd.program).filename().string();
    return "d=" + std::string(toolDir) + "; f=\"$d/" + t +
           ".$p\"; mkdir -p -m 700 \"$d\" 2>/dev/null; if [ -O \"$d\" ]; then printf '%s\\n' " +
           shellQuote(name) + " >\"$f\" 2>/dev/null; wait $p; s=$?; rm -f \"$f\"; exit $s; fi; ";
}

} // namespace

Command sshCommand(const SshTarget& t, const Command& cmd, bool track, const std::string& tag) {
    Command ssh;
    ssh.program = t.sshProgram;
    ssh.timeout = cmd.timeout;
    for (const char* opt : {"BatchMode=yes", "ConnectTimeout=10", "ServerAliveInterval=15",
                            "StrictHostKeyChecking=yes", "LogLevel=ERROR"})
        ssh.arg("-o").arg(opt);
    ssh.arg("-T").arg("-p").arg(std::to_string(t.port));
    if (!t.identityFile.empty())
        ssh.arg("-i").arg(t.identityFile).arg("-o").arg("IdentitiesOnly=yes");
    if (!t.knownHostsFile.empty())
        ssh.arg("-o").arg("UserKnownHostsFile=" + t.knownHostsFile);
    for (const auto& o : t.extraOptions)
        ssh.arg("-o").arg(o);
    ssh.arg(destination(t)).arg("--");
    std::string remote = remoteShellCommand(cmd);
    if (track)
        // The tool runs as a child whose pid is reported, so it can be stopped by pid later;
        // the shell's exit status is the tool's. A background job's stdin is /dev/null before
        // its own redirections, so the tool gets ssh's stdin (its secret) through fd 3.
        remote = "exec 3<&0; (" + remote + ") <&3 3<&- & p=$!; exec 3<&-; echo " +
                 std::string(pidMarker) + "$p >&2; " + keepPid(cmd, tag) + "wait $p";
    ssh.arg(remote);
    // ssh forwards its stdin to the remote command: the secret crosses in the encrypted
    // channel, never in the remote command line.
    ssh.secretStdin = cmd.secretStdin;
    return ssh;
}

std::unique_ptr<Runner> makeSshRunner(SshTarget target) {
    return std::make_unique<SshRunner>(std::move(target));
}

Expected<std::unique_ptr<Runner>> makeRunnerFor(const std::string& target,
                                                const std::string& identity,
                                                const std::string& knownHosts) {
    if (target.empty() || target == "local")
        return makeLocalRunner();
    auto ssh = parseSshUrl(target);
    if (!ssh)
        return fail(ssh.error());
    ssh->identityFile = identity;
    ssh->knownHostsFile = knownHosts;
    return makeSshRunner(std::move(*ssh));
}

Expected<std::vector<std::string>> stopLeftTools(Runner& runner, const std::string& tag,
                                                 const RunOptions& waits) {
    const std::string t = safeTag(tag);
    if (t.empty())
        return std::vector<std::string>{};
    // Each kept pid is forgotten; one that still runs the program it was kept for is stopped.
    // Its name comes from /proc on Linux (BusyBox's ps has no -p), from ps elsewhere; either
    // may be cut short (15 characters on Linux, 19 on FreeBSD).
    const std::string script =
        stopFunction(waits) + "; d=" + std::string(toolDir) +
        "; [ -d \"$d\" ] && [ -O \"$d\" ] || exit 0; for f in \"$d\"/" + t +
        ".*; do [ -f \"$f\" ] && [ -O \"$f\" ] || continue; p=${f##*.}; n=$(cat \"$f\"); "
        "rm -f \"$f\"; case \"$p\" in ''|*[!0-9]*) continue;; esac; "
        "if [ -r \"/proc/$p/comm\" ]; then c=$(cat \"/proc/$p/comm\" 2>/dev/null); "
        "else c=$(ps -o comm= -p \"$p\" 2>/dev/null); fi; c=$(echo $c); [ -n \"$c\" ] || "
        "continue; "
        "case \"$n\" in \"$c\"*) ;; *) continue;; esac; stop \"$p\"; "
        "echo \"stopped $n (pid $p)\"; done; exit 0";
    Command cmd{"sh", {"-c", script}};
    cmd.timeout = 8 * (waits.graceInterrupt + waits.graceTerminate) + std::chrono::seconds(60);
    auto result = runner.run(cmd);
    if (!result)
        return fail(result.error());
    if (!result->ok())
        return runtimeError(runner.target() +
                            ": cannot stop the tools left running: " + trimmed(result->stderrText));
    std::vector<std::string> stopped;
    std::istringstream lines(result->stdoutText);
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with("stopped "))
            stopped.push_back(line.substr(8));
    return stopped;
}

} // namespace lb
