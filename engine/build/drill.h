// Expansion drills: the trade-off a layout choice turns on. After a layout's workloads, a drill
// grows it with spare disks — md: add a member and reshape, or convert RAID-5 to RAID-6; ZFS: add
// a vdev of the same shape, or RAIDZ expansion where the installed ZFS has it — and measures how
// long that takes while a read load runs, and whether the file system stayed mounted and its data
// intact. A drill is stored as a run (workload "drill:<action>") with drill.<action>.* metrics.
// The spares are made ready by the layout's own plan (planLayout), so its teardown clears them.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/probe.h"
#include "engine/scenario/scenario.h"

#include <memory>

namespace lb {

// The probe that runs one drill of a layout: its command is the measured reshape, its parse
// reads the drill's report lines ("lb-drill key=value ...").
Expected<std::unique_ptr<Probe>> drillProbe(const Scenario& scenario, const ScenarioLayout& layout,
                                            const ScenarioDrill& drill);

} // namespace lb
