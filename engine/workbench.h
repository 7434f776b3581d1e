// The front door: what both front ends do with the engine, done once, in engine/workbench/. The
// command line and the desktop app parse their input (flags, widgets), call these, and present
// what comes back; neither holds a workflow of its own. Errors name the field they are about
// ("resume: ...", "growth: ..."), and each front end says it in its own terms (a flag, a widget).
//
// engine/workbench/scenario_runs.h
//   resolveScenario          the scenario a run or a resume runs, secrets restored
//   reviewCampaign           what a campaign builds and destroys, for the safety review
//   inspectReviewedDevices   the safety inspection of each reviewed device
//   localDryRunHost          what a dry run assumes of this machine
//   dryRun                   every command a scenario would run, nothing run
// engine/workbench/projections.h
//   projectionRequest        a projection's settings as typed, checked (growth or samples)
//   hypotheticalLayouts      the layouts of a projection that do not exist yet: kind, disks, size
//   planProjection           stored (from the store or given records) and hypothetical layouts,
//                            every check in one call; projectPlan projects them
//   projectionInBinaryUnits  whether a projection answers in TiB, as its sizes were typed
//   projectionCoverage       which stored layouts a projection covers, and how
//   projectStoredLayout      a stored layout's projection
// engine/workbench/projection_choices.h
//   scenarioLayoutRecords    a scenario's layouts as a campaign records them
//   projectableLayouts       the store's and the scenario's layouts a projection can be asked of
//   firstProjectable         the one to open on: the first whose disks are known
//   suggestedUse             a use to open on: half the layout's ceiling
//   layoutFields             a layout as a form shows it (kind, disks, sizes, partitioned)
// engine/workbench/fleet.h
//   fleetAnalyses            each layout's hosts side by side, the ones that stand apart named
//   inventoryHosts           the hosts of an Ansible inventory
//   runFleet                 a scenario run through Ansible on a fleet, every host's results merged
// Elsewhere in the engine, called directly by both: scheduleCampaign (campaign/schedule.h),
// compareStoredLayouts and comparedHost, the one machine a comparison's side is measured on
// (store/store.h), validThresholds (measure/analysis.h).
#pragma once

#include "engine/workbench/failure_drills.h"
#include "engine/workbench/fleet.h"
#include "engine/workbench/projection_choices.h"
#include "engine/workbench/projection_fill.h"
#include "engine/workbench/projections.h"
#include "engine/workbench/scenario_runs.h"
