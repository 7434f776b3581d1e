// Plans: the ordered commands that build a layout, each with the command that undoes it
// (the types are in layout_plan.h). Applying a plan journals every step (journal.h); a failed
// step undoes those before it, in reverse. Nothing here decides whether a disk may be touched:
// the scenario loader and the safety check did.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/layout_plan.h"
#include "engine/exec/runner.h"
#include "engine/scenario/scenario.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lb {

class Store;

// The build plan of one layout of a scenario. `deviceBytes` gives the size of each block device
// (by path), needed to partition a fraction of it; a device missing there is planned with a
// placeholder that names it, which `plan` shows and a real apply refuses.
Expected<LayoutPlan> planLayout(const Scenario& scenario, const ScenarioLayout& layout,
                                const std::map<std::string, std::uint64_t>& deviceBytes = {});

// Both parts of a guest layout's plan.
Expected<GuestPlans> planGuestLayout(const Scenario& scenario, const ScenarioLayout& layout,
                                     const std::map<std::string, std::uint64_t>& deviceBytes = {});

// Every part of a layout's plan in the order it is applied: the one plan, or for a guest layout
// the host's part and then the guest's.
Expected<std::vector<LayoutPlan>>
planParts(const Scenario& scenario, const ScenarioLayout& layout,
          const std::map<std::string, std::uint64_t>& deviceBytes = {});

// What undoes a step, as every output shows it: its undo command (masked arguments masked), or
// "no undo: <why>" for a step that has none.
std::string undoText(const PlanStep& step);

// A plan as text, its warnings first, then one numbered line per step and its undo (or why it
// has none) under it: what `layoutbench plan` prints. Masked arguments stay masked.
std::string describePlan(const LayoutPlan& plan);

// What runs a layout's workloads, whose command lines are written for it: the guest's system in a
// guest layout, else the host's (Linux where nothing said, as for the plans). The campaign and the
// dry run both give it to the probes.
TargetOs workloadOs(const Scenario& scenario, const ScenarioLayout& layout);

// Steps that make the named disks of a layout ready and their paths, in order: block devices
// (whole, or their underprovisioned partition) or sparse files created for the purpose.
Expected<std::vector<std::string>> planDisks(LayoutPlan& plan, const Scenario& scenario,
                                             const ScenarioLayout& layout,
                                             const std::vector<std::string>& diskNames,
                                             const std::map<std::string, std::uint64_t>& sizes);

// The vdev words of `zpool create`/`zpool add` for a kind: "mirror a b", "raidz2 a b c d", ...,
// the disks split into `vdevs` top-level vdevs of equal width
// (mirror, raidz, draid kinds), dRAID vdevs spelled with their shape (draid2:4d:8c:1s).
std::vector<std::string> vdevSpec(LayoutKind kind, const std::vector<std::string>& disks,
                                  unsigned vdevs = 1, DraidShape draid = {});

// The paths of a pool's auxiliary vdevs as planned (devices, their partitions, or files).
struct AuxVdevPaths {
    std::vector<std::string> log, cache, special;
};
// Their words of `zpool create`, after the data vdevs: "log mirror A B cache C special mirror D
// E" (a log or special class of one device is that device alone).
std::vector<std::string> auxVdevSpec(const AuxVdevPaths& aux);

// The first partition of a device as the kernel names it: /dev/sdb1, /dev/nvme0n1p1, /dev/loop3p1.
std::string firstPartition(const std::string& device);

// Applies a plan through a runner, journaling each step (and each undo) in the store under the
// campaign and layout. On a failed step, undoes the applied steps in reverse and returns the
// failure (for a guest plan the caller undoes, since it holds both the guest's and the host's
// runner). Returns the number of steps applied.
Expected<std::size_t> applyPlan(Store& store, Runner& runner, std::int64_t campaignId,
                                std::int64_t layoutId, const LayoutPlan& plan);

// Undoes, newest first, every step of the campaign (optionally one layout) that the journal shows
// applied and not yet undone: the teardown after a layout's workloads, and the recovery after a
// crash. Every undo is journaled; failures are collected, not fatal, so teardown goes as far as
// it can.
//
// Steps that ran inside a guest are undone through `guestRunner(layoutId)`; where it gives none
// (the guest is gone), they are left to the host's undo, which stops the VM or detaches its disk.
// A failed guest undo is reported but does not hold back the host's undos.
using GuestRunnerFor = std::function<Runner*(std::int64_t layoutId)>;
Expected<std::vector<std::string>> undoApplied(Store& store, Runner& runner,
                                               std::int64_t campaignId,
                                               std::optional<std::int64_t> layoutId,
                                               const GuestRunnerFor& guestRunner = {});

} // namespace lb
