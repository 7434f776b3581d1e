// The front door's fleet workflows: the same scenario run through Ansible on every host of an
// inventory, each host's database fetched and merged into one, and the fleet's report (each
// host's figures on a layout, and the hosts that stand apart).
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/runner.h"
#include "engine/measure/fleet.h"
#include "engine/store/store.h"
#include "engine/store/store_merge.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

// ---- the fleet's report

// Every layout measured on more than one machine, analysed across its hosts (analyseFleet) by
// the rule stored with its newest campaign; only `layout` when given (bad input on the field
// layout when it does not exist or was measured on one machine).
Expected<std::vector<FleetAnalysis>>
fleetAnalyses(Store& store, const std::optional<std::string>& layout, bool allMetrics = false);

// ---- running a scenario on a fleet

// The hosts of an Ansible inventory (INI or YAML, as `ansible-inventory --list` reads it), in
// inventory order, each once.
Expected<std::vector<std::string>> inventoryHosts(Runner& runner, const std::string& inventory);

struct FleetRunRequest {
    std::string scenario;    // on this machine; a template Ansible fills with each host's variables
    std::string inventory;   // Ansible's INI or YAML
    std::string playbook;    // fleetPlaybookPath() unless given
    std::string fleetDir;    // where each host's database lands (<host>.db) and what was merged
    std::string remoteDir;   // each host's work directory; empty: the playbook's default
    std::string layoutbench; // the program on each host; empty: layoutbench on its PATH
    std::string package;     // a .deb to install on each host first; empty: none
    std::vector<std::string> yesDestroy; // devices `run` may destroy on every host
    int forks = 4;                       // hosts at once
    bool resume = false; // only hosts not merged yet; each resumes its unfinished campaign
};

enum class FleetHostStatus { Ok, Failed, Unreachable, AlreadyMerged };
std::string_view fleetHostStatusName(FleetHostStatus s); // "ok", "failed", ...

struct FleetHostOutcome {
    std::string host;
    FleetHostStatus status = FleetHostStatus::Ok;
    std::string reason;                 // why it failed or was not reached
    std::optional<MergeSummary> merged; // what its database added here, when one came back
};

// Runs the fleet playbook (ansible-playbook through `runner`, each output line to `progress`),
// then merges every database that came back into `store` under its inventory name: a host that
// failed part-way still gives what it measured. Hosts not reached or failed are outcomes, not
// errors; an error is only a fleet that could not start (no ansible-playbook, a bad inventory).
Expected<std::vector<FleetHostOutcome>>
runFleet(Store& store, const FleetRunRequest& request, Runner& runner,
         const std::function<void(std::string_view line)>& progress,
         const std::atomic<bool>* cancel = nullptr);

} // namespace lb
