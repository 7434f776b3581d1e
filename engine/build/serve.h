// Exports: a layout served to clients over iSCSI (tgt or LIO) and NFS (the kernel server or
// nfs-ganesha) while its workloads run. Every export is a plan step with its undo, appended to the
// part of the layout's plan the workloads run on, so the journal that tears the layout down also
// removes its targets, LUNs and exports, newest first: after the campaign, when a later step
// fails, and on --resume after a crash. CHAP secrets are never arguments: the commands that set
// them read them on stdin (Command::secretStdin), and plans, the journal and logs show "****".
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/layout_plan.h"
#include "engine/measure/probe.h"
#include "engine/scenario/scenario.h"

#include <string>

namespace lb {

// Appends the steps that export `layout` to `plan` (its part whose workdir the workloads use);
// nothing when the layout has no [layouts.export]. For an md layout exported raw
// (lun = "device") the plan has no file system, and this makes its workdir a scratch directory.
Expected<void> planExport(LayoutPlan& plan, const Scenario& scenario, const ScenarioLayout& layout);

// True when the layout's md array itself is its LUN, so it is given no file system.
bool exportsRawDevice(const ScenarioLayout& layout);

// The export as the workloads' clients reach it; `workdir` is the directory the plan built (the
// exported path). Empty when the layout has no export.
ExportTarget exportTarget(const ScenarioLayout& layout, const std::string& workdir);

} // namespace lb
