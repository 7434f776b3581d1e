// Plans: the ordered commands that build a layout, each with the command that undoes it.
// Applying a plan journals every step in plan_step; a failed step undoes those before it, in
// reverse. Nothing here decides whether a disk may be touched: the scenario loader did.
#pragma once

#include "engine/command.h"
#include "engine/expected.h"
#include "engine/runner.h"
#include "engine/scenario.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lb {

class Store;

struct PlanStep {
    std::string description;
    Command command;
    std::optional<Command> undo;
    bool optional = false; // a failure is journaled and the build goes on (TRIM where supported)
    bool operator==(const PlanStep&) const = default;
};

struct LayoutPlan {
    std::string layout;
    std::string workdir; // where workloads run once the layout is built
    std::vector<PlanStep> steps;
};

// The build plan of one layout of a scenario. `deviceBytes` gives the size of each block device
// (by path), needed to partition a fraction of it; a device missing there is planned with a
// placeholder that names it, which `plan` shows and a real apply refuses.
Expected<LayoutPlan> planLayout(const Scenario& scenario, const ScenarioLayout& layout,
                                const std::map<std::string, std::uint64_t>& deviceBytes = {});

// The first partition of a device as the kernel names it: /dev/sdb1, /dev/nvme0n1p1, /dev/loop3p1.
std::string firstPartition(const std::string& device);

// Applies a plan through a runner, journaling each step (and each undo) in the store under the
// campaign and layout. On a failed step, undoes the applied steps in reverse and returns the
// failure. Returns the number of steps applied.
Expected<std::size_t> applyPlan(Store& store, Runner& runner, std::int64_t campaignId,
                                std::int64_t layoutId, const LayoutPlan& plan);

// Undoes, newest first, every step of the campaign (optionally one layout) that the journal shows
// applied and not yet undone: the teardown after a layout's workloads, and the recovery after a
// crash. Every undo is journaled; failures are collected, not fatal, so teardown goes as far as
// it can.
Expected<std::vector<std::string>> undoApplied(Store& store, Runner& runner,
                                               std::int64_t campaignId,
                                               std::optional<std::int64_t> layoutId);

} // namespace lb
