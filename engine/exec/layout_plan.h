// The plan of a layout as data: ordered steps, each a command with the command that undoes it
// or the reason it has none, and where the steps run. Built by engine/build/plan.h (and
// engine/build/serve.h for its export), applied and journaled by engine/store/journal.h.
#pragma once

#include "engine/base/names.h"
#include "engine/exec/command.h"

#include <optional>
#include <string>
#include <vector>

namespace lb {

// Where a part of a layout's plan runs: on the scenario's host, or inside the layout's virtual
// machine (a guest layout's file system or pool).
enum class RunsOn { Host, Guest };
template <> struct EnumNames<RunsOn> {
    static constexpr std::array<std::pair<RunsOn, std::string_view>, 2> table{{
        {RunsOn::Host, "host"},
        {RunsOn::Guest, "guest"},
    }};
};

struct PlanStep {
    std::string description;
    Command command;
    std::optional<Command> undo;
    bool optional = false; // a failure is journaled and the build goes on (TRIM where supported)
    // Why a step without an undo has none ("wiped signatures cannot be restored"), shown where its
    // undo would be: a step never pretends to be undone by running it again.
    std::string noUndo;
    bool operator==(const PlanStep&) const = default;
};

struct LayoutPlan {
    std::string layout;
    std::string workdir; // where workloads run once the layout is built
    RunsOn runsOn = RunsOn::Host;
    std::vector<PlanStep> steps;
    // What the layout risks as planned (a special vdev of one device), said before its steps by
    // every output of the plan.
    std::vector<std::string> warnings;
};

// A guest layout is built in two parts: on the host (the inner array or disk, the virtual
// machine or the disk attached to it), then inside the guest (a file system or a pool on the
// passed disk), where the workloads run.
struct GuestPlans {
    LayoutPlan host;
    LayoutPlan guest;
};

} // namespace lb
