// What the drills share: reading the "lb-drill key=value ..." lines their shell prints.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/layout_plan.h"
#include "engine/measure/probe.h"
#include "engine/scenario/scenario.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace lb::drill_report {

// "lb-drill a=1 b=2" lines into a map; later keys win.
std::map<std::string, std::string> parse(const std::string& out);
// A key's value as a number; none when absent, empty or not wholly a number.
std::optional<double> number(const std::map<std::string, std::string>& kv, const char* key);
// A size as the drill printed it: bytes, or zpool's rounded "1.88G" where it lacks -p.
std::optional<double> size(const std::map<std::string, std::string>& kv, const char* key);
// A key's value, "?" when absent.
std::string valueOr(const std::map<std::string, std::string>& kv, const char* key);

// The shell functions usable() and used(): a layout's usable and used bytes, from $kind, $target
// and $mnt (fill.cpp); the fail-rebuild drill and the ageing before a fill level share them.
extern const char* const spaceShell;

Expected<LayoutPlan> planRebuildDrill(const Scenario& scenario, const ScenarioLayout& layout,
                                      const ScenarioDrill& drill, const std::string& workdir);

} // namespace lb::drill_report

namespace lb {

// The fail-rebuild drill's probe (drill_rebuild.cpp); drillProbe hands it out.
Expected<std::unique_ptr<Probe>> rebuildDrillProbe(const Scenario& scenario,
                                                   const ScenarioLayout& layout,
                                                   const ScenarioDrill& drill);

Expected<LayoutPlan> planRebuildDrill(const Scenario& scenario, const ScenarioLayout& layout,
                                      const ScenarioDrill& drill, const std::string& workdir);

// What a fail-rebuild drill fails and rebuilds on a layout. kind: "md" (an md array), "zfs" (a
// pool's vdev), "draid" (a dRAID pool's child) or "zfs-md" (the md array a zfs-stripe pool is
// built on: md fails and rebuilds, the load and the scrub run on the pool). array: the md
// device where md rebuilds; pool: the pool where there is one.
struct RebuildTarget {
    std::string kind;
    std::string array;
    std::string pool;
    bool onMd() const { return !array.empty(); }
};
RebuildTarget rebuildTarget(const ScenarioLayout& layout);

// The scenario's pull_command as the workbench runs it on its own machine: told the disk's name
// and device, stopped after pull_wait (drill_rebuild.cpp).
Command rebuildPullCommand(const ScenarioDrill& drill, const std::string& device);

} // namespace lb
