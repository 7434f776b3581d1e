// fio's client/server mode: the same job run from N client hosts at once. Each client host runs
// `fio --server=HOST,PORT`; the workbench runs one `fio --client=HOST,PORT JOB ...` that sends
// the job to every server and collects their results. The results are parsed by
// lb::fio::parseJson: the aggregate as fio.<job>.<dir>.<stat>, each client as
// fio.<job>@<client>.<dir>.<stat> (<client> is host:port when servers share a host).
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/command.h"
#include "engine/measure/run.h"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb::fio {

constexpr int defaultServerPort = 8765; // fio's own default (server.h, FIO_NET_PORT)

struct ClientEndpoint {
    std::string host; // a name, an IPv4 address or an IPv6 address without brackets
    int port = defaultServerPort;
    bool operator==(const ClientEndpoint&) const = default;
};

// "host", "host:port", "[v6addr]" or "[v6addr]:port". Bad input names the text.
Expected<ClientEndpoint> parseEndpoint(std::string_view text);

// fio's connect string for an endpoint: "host,port", "ip6:addr,port" for IPv6.
std::string connectString(const ClientEndpoint& e);

// The server a client host runs: `fio --server=HOST,PORT` in `workdir`, where the job's
// relative file names land. It runs until stopped (SIGINT, then SIGTERM).
Command serverCommand(const ClientEndpoint& e, const std::string& workdir);

// The server on a client host as a daemon: `start` runs fio --server=HOST,PORT in the background
// in `cwd` (where the job's relative file names land), writes its pid to `pidFile` and returns
// once it listens (10 s at most, else an error with its log); `stop` ends that process by its pid
// file (SIGTERM, then SIGKILL after 10 s). Both are POSIX sh, for a client reached over SSH.
struct ServerDaemon {
    Command start;
    Command stop;
};
ServerDaemon serverDaemon(const ClientEndpoint& e, const std::string& cwd,
                          const std::string& pidFile);

// `fio --output-format=json --client=H1,P1 --remote-config=PATH1 ...`: each server reads its own
// job file, at a path on its host. `jobFiles` has one path per client. `timeout` bounds the run.
Expected<Command> remoteConfigCommand(const std::vector<ClientEndpoint>& clients,
                                      const std::vector<std::string>& jobFiles,
                                      std::optional<std::chrono::milliseconds> timeout = {});

// `fio --output-format=json --client=H1,P1 JOB --client=H2,P2 JOB ...`: one job file, sent to
// every server. `timeout` bounds the whole run. Empty `clients` is bad input.
Expected<Command> clientsCommand(const std::vector<ClientEndpoint>& clients,
                                 const std::string& jobFile,
                                 std::optional<std::chrono::milliseconds> timeout = {});

// parseJson on the client's output, then checks that every endpoint reported: a server that sent
// nothing makes the run failed, naming it.
Expected<ParsedRun> parseClients(std::string_view stdoutText, std::string_view stderrText,
                                 const std::vector<ClientEndpoint>& clients);

} // namespace lb::fio
