// fio client/server mode: argv of the servers and of the one client run, and the check that every
// server reported. Parsing is lb::fio::parseJson's, which reads fio --client's "client_stats".
#include "probes/fio_clients.h"

#include "probes/fio_json.h"

#include <algorithm>
#include <charconv>
#include <functional>

namespace lb::fio {

Expected<ClientEndpoint> parseEndpoint(std::string_view text) {
    ClientEndpoint e;
    std::string_view portText;
    if (text.starts_with('[')) {
        const auto close = text.find(']');
        if (close == std::string_view::npos || close == 1)
            return badInput("fio client '" + std::string(text) + "': unclosed or empty [address]");
        e.host = std::string(text.substr(1, close - 1));
        const auto rest = text.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':')
                return badInput("fio client '" + std::string(text) +
                                "': expected ':PORT' after ']'");
            portText = rest.substr(1);
        }
    } else {
        const auto colon = text.find(':');
        if (colon != std::string_view::npos && text.find(':', colon + 1) != std::string_view::npos)
            return badInput("fio client '" + std::string(text) +
                            "': write an IPv6 address as [ADDRESS]:PORT");
        e.host = std::string(text.substr(0, colon));
        if (colon != std::string_view::npos)
            portText = text.substr(colon + 1);
    }
    if (e.host.empty())
        return badInput("fio client '" + std::string(text) + "': no host");
    if (!portText.empty()) {
        int port = 0;
        const auto [end, ec] =
            std::from_chars(portText.data(), portText.data() + portText.size(), port);
        if (ec != std::errc{} || end != portText.data() + portText.size() || port < 1 ||
            port > 65535)
            return badInput("fio client '" + std::string(text) + "': port '" +
                            std::string(portText) + "' is not a number from 1 to 65535");
        e.port = port;
    }
    return e;
}

std::string connectString(const ClientEndpoint& e) {
    const bool v6 = e.host.find(':') != std::string::npos;
    return (v6 ? "ip6:" : "") + e.host + "," + std::to_string(e.port);
}

Command serverCommand(const ClientEndpoint& e, const std::string& workdir) {
    Command c;
    c.program = "fio";
    c.args = {"--server=" + connectString(e)};
    c.cwd = workdir;
    c.env = {{"LC_ALL", "C"}};
    return c;
}

ServerDaemon serverDaemon(const ClientEndpoint& e, const std::string& cwd,
                          const std::string& pidFile) {
    ServerDaemon d;
    d.start.program = "sh";
    // Listening is read from /proc/net/tcp{,6} (state 0A), which every Linux client has.
    d.start.args = {"-c",
                    "cd \"$1\" || exit 1; fio --server=\"$2\" </dev/null >\"$3.log\" 2>&1 & "
                    "echo $! >\"$3\"; hex=$(printf ':%04X ' \"$4\"); i=0; "
                    "while [ $i -lt 100 ]; do "
                    "grep -qi \"$hex[0-9A-F]*:[0-9A-F]* 0A \" /proc/net/tcp /proc/net/tcp6 "
                    "2>/dev/null && exit 0; "
                    "kill -0 \"$(cat \"$3\")\" 2>/dev/null || "
                    "{ echo \"fio --server=$2 exited:\" >&2; cat \"$3.log\" >&2; exit 1; }; "
                    "sleep 0.1; i=$((i+1)); done; "
                    "echo \"fio --server=$2 did not listen within 10 s\" >&2; exit 1",
                    "sh",
                    cwd,
                    connectString(e),
                    pidFile,
                    std::to_string(e.port)};
    d.start.env = {{"LC_ALL", "C"}};
    d.start.timeout = std::chrono::seconds(30);
    d.stop.program = "sh";
    d.stop.args = {"-c",
                   "p=$(cat \"$1\" 2>/dev/null) || exit 0; rm -f \"$1\" \"$1.log\"; "
                   "grep -q fio /proc/$p/cmdline 2>/dev/null || exit 0; kill $p; i=0; "
                   "while kill -0 $p 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); "
                   "done; kill -9 $p 2>/dev/null; exit 0",
                   "sh", pidFile};
    d.stop.timeout = std::chrono::seconds(30);
    return d;
}

namespace {

// fio --output-format=json, then --client=HOST,PORT and its job argument for each client (local
// options come before the first --client: fio's HOWTO, "Client/Server").
Expected<Command> fioForClients(const std::vector<ClientEndpoint>& clients,
                                const std::function<std::string(std::size_t)>& jobArgument,
                                std::optional<std::chrono::milliseconds> timeout) {
    for (std::size_t i = 0; i < clients.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (clients[i] == clients[j])
                return badInput("fio clients: " + connectString(clients[i]) + " is listed twice");
    Command c;
    c.program = "fio";
    c.env = {{"LC_ALL", "C"}};
    c.timeout = timeout;
    c.args.push_back("--output-format=json");
    for (std::size_t i = 0; i < clients.size(); ++i) {
        c.args.push_back("--client=" + connectString(clients[i]));
        c.args.push_back(jobArgument(i));
    }
    return c;
}

} // namespace

Expected<Command> remoteConfigCommand(const std::vector<ClientEndpoint>& clients,
                                      const std::vector<std::string>& jobFiles,
                                      std::optional<std::chrono::milliseconds> timeout) {
    if (clients.empty())
        return badInput("fio clients: no client hosts given");
    if (jobFiles.size() != clients.size())
        return badInput("fio clients: one job file per client is needed");
    return fioForClients(
        clients, [&](std::size_t i) { return "--remote-config=" + jobFiles[i]; }, timeout);
}

Expected<Command> clientsCommand(const std::vector<ClientEndpoint>& clients,
                                 const std::string& jobFile,
                                 std::optional<std::chrono::milliseconds> timeout) {
    if (clients.empty())
        return badInput("fio clients: no client hosts given");
    if (jobFile.empty())
        return badInput("fio clients: no job file given");
    return fioForClients(
        clients, [&](std::size_t) { return jobFile; }, timeout);
}

Expected<ParsedRun> parseClients(std::string_view stdoutText, std::string_view stderrText,
                                 const std::vector<ClientEndpoint>& clients) {
    auto run = parseJson(stdoutText, stderrText);
    if (!run || run->failed)
        return run;
    // parseJson labels a client host:port when several servers share the host, else host.
    for (const auto& e : clients) {
        const bool shared = std::any_of(clients.begin(), clients.end(), [&](const auto& o) {
            return o.host == e.host && o.port != e.port;
        });
        const std::string label = shared ? e.host + ":" + std::to_string(e.port) : e.host;
        const std::string needle = "@" + label + ".";
        const bool reported =
            std::any_of(run->metrics.begin(), run->metrics.end(),
                        [&](const Metric& m) { return m.name.find(needle) != std::string::npos; });
        if (!reported) {
            run->failed = true;
            if (!run->failureReason.empty())
                run->failureReason += "; ";
            run->failureReason += "fio server " + connectString(e) + " reported no results";
        }
    }
    return run;
}

} // namespace lb::fio
