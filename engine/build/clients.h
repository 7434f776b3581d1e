// Workloads on client hosts ([[clients]]): where a workload's commands run and what the probe is
// told about its clients. A workload without clients runs where its layout is. One on a single
// client runs there, through that client's runner (SSH or local), as it would on the layout's
// host. One on several clients needs a probe that drives them itself (fio's client/server mode):
// its command runs on the workbench (this machine), and the commands it wants on each client are
// sent there over SSH.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/runner.h"
#include "engine/measure/probe.h"
#include "engine/scenario/scenario.h"

#include <map>
#include <memory>
#include <string>

namespace lb {

// The clients a probe that drives them is told about (fio's servers): a workload's clients when
// it names several and its probe drives clients; none otherwise.
std::vector<WorkloadClient> drivenClients(const Scenario& scenario, const ScenarioWorkload& w,
                                          const Probe& probe);

class ClientPlacement {
public:
    // `hostRunner` runs on the scenario's [host]; it is the workbench too unless it is SSH.
    ClientPlacement(const Scenario& scenario, Runner& hostRunner);

    // The runner of a workload's commands: `layoutRunner` when it names no clients.
    Runner& runnerFor(const ScenarioWorkload& w, const Probe& probe, Runner& layoutRunner);

    // The probe's command for the workload. For a probe that drives its clients, ctx.clients is
    // filled in and its client commands become workbench commands (prepare before, cleanup after).
    Expected<MeasuredCommand> command(const Probe& probe, const ScenarioWorkload& w,
                                      WorkloadContext& ctx);

private:
    Runner& workbench();
    Runner& clientRunner(const ScenarioClient& client);
    Expected<Command> onClient(const std::string& name, const Command& c) const;

    const Scenario& scenario_;
    Runner& host_;
    std::unique_ptr<Runner> local_;
    std::map<std::string, std::unique_ptr<Runner>> runners_; // by client name
};

} // namespace lb
