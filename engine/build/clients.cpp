// Placing workloads on their clients (see clients.h).
#include "engine/build/clients.h"

#include "engine/exec/ssh_runner.h"

#include <cassert>

namespace lb {

std::vector<WorkloadClient> drivenClients(const Scenario& scenario, const ScenarioWorkload& w,
                                          const Probe& probe) {
    std::vector<WorkloadClient> out;
    if (w.clients.size() > 1 && probe.drivesClients())
        for (const auto& name : w.clients) {
            const ScenarioClient* c = scenario.client(name);
            assert(c);
            out.push_back({c->name, c->address, c->fioPort, c->workDir});
        }
    return out;
}

ClientPlacement::ClientPlacement(const Scenario& scenario, Runner& hostRunner)
    : scenario_(scenario), host_(hostRunner) {}

Runner& ClientPlacement::workbench() {
    // A dry run stays dry; an SSH host is not the workbench.
    if (host_.target().rfind("ssh://", 0) != 0)
        return host_;
    if (!local_)
        local_ = makeLocalRunner();
    return *local_;
}

Runner& ClientPlacement::clientRunner(const ScenarioClient& client) {
    if (client.target == "local" || host_.target() == "dry-run")
        return workbench();
    auto& slot = runners_[client.name];
    if (!slot) {
        // The scenario loader checked the URL.
        auto r = makeRunnerFor(client.target, client.identity, client.knownHosts);
        assert(r);
        slot = std::move(*r);
    }
    return *slot;
}

Runner& ClientPlacement::runnerFor(const ScenarioWorkload& w, const Probe& probe,
                                   Runner& layoutRunner) {
    if (w.clients.empty())
        return layoutRunner;
    if (probe.drivesClients() && w.clients.size() > 1)
        return workbench();
    const ScenarioClient* client = scenario_.client(w.clients.front());
    assert(client && w.clients.size() == 1);
    return clientRunner(*client);
}

Expected<Command> ClientPlacement::onClient(const std::string& name, const Command& c) const {
    const ScenarioClient* client = scenario_.client(name);
    if (!client)
        return badInput("no client named '" + name + "'");
    if (client->target == "local" || host_.target() == "dry-run")
        return c;
    auto ssh = parseSshUrl(client->target);
    if (!ssh)
        return fail(ssh.error());
    ssh->identityFile = client->identity;
    ssh->knownHostsFile = client->knownHosts;
    return sshCommand(*ssh, c);
}

Expected<MeasuredCommand> ClientPlacement::command(const Probe& probe, const ScenarioWorkload& w,
                                                   WorkloadContext& ctx) {
    ctx.clients = drivenClients(scenario_, w, probe);
    auto mc = probe.command(w.options, ctx);
    if (!mc)
        return mc;
    std::vector<Command> before;
    for (const auto& cc : mc->clientPrepare) {
        auto c = onClient(cc.client, cc.command);
        if (!c)
            return fail(c.error());
        before.push_back(std::move(*c));
    }
    mc->prepare.insert(mc->prepare.begin(), before.begin(), before.end());
    for (const auto& cc : mc->clientCleanup) {
        auto c = onClient(cc.client, cc.command);
        if (!c)
            return fail(c.error());
        mc->cleanup.push_back(std::move(*c));
    }
    mc->clientPrepare.clear();
    mc->clientCleanup.clear();
    return mc;
}

} // namespace lb
