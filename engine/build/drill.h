// Expansion drills: the trade-off a layout choice turns on. After a layout's workloads, a drill
// grows it with spare disks — md: add a member and reshape, or convert RAID-5 to RAID-6; ZFS: add
// a vdev of the same shape, or RAIDZ expansion where the installed ZFS has it — and measures how
// long that takes while a read load runs, and whether the file system stayed mounted and its data
// intact. A drill is stored as a run (workload "drill:<action>") with drill.<action>.* metrics.
// The spares are made ready by the layout's own plan (planLayout), so its teardown clears them.
//
// The fail-rebuild drill (action "fail-rebuild") fills the layout to the drill's `fill` with random
// data, runs a random read/write fio job ("drill-randrw", 4 KiB, 32 MiB file) healthy for
// phase_seconds, fails the member `disk` (mdadm --fail and --remove; zpool offline; or, with fail =
// "pull", the job runs while the workbench runs the scenario's pull_command on its own machine and
// the drill waits until md or ZFS sees the member failed, then mdadm --remove failed), runs the job
// degraded, then adds the spare (mdadm --add; zpool replace; dRAID: onto the distributed spare,
// then onto the spare disk) with the job running until the layout is whole again, runs the job
// once more whole (rebuilt), and checks the data: md's check and mismatch_cnt, or a scrub, and the
// filled files' sums read from disk. Its run (workload "drill:fail-rebuild") holds
// drill.fail-rebuild.* metrics: seconds (the spare added to full redundancy), window_seconds (the
// failure to full redundancy), detect_seconds (a pull to the failure seen), rebuild_bytes,
// rebuild_rate (bytes/s), heal_seconds and heal_bytes (dRAID's second phase), check_seconds or
// scrub_seconds, mismatch_cnt, scrub_errors, checksum_mismatches, fill (percent), and the drill's
// course in seconds since the healthy load began: healthy_at, failed_at, degraded_at,
// rebuilding_at, rebuild_at (the spare added), whole_at and rebuilt_at. A drill that finds a
// changed file, a mismatch, a scrub error or a layout not whole afterwards is a failed run saying
// so. The job's four phases, each with fio's per-second logs, are what drillLoadPhases reads from
// its output. On ZFS on md (a zfs-stripe pool on an md array) the member and the spare are md's:
// md fails and rebuilds under the pool while the load runs on the pool, and both md's check and
// the pool's scrub judge the data; the run says what the pool said of itself meanwhile.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/layout_plan.h"
#include "engine/measure/probe.h"
#include "engine/scenario/scenario.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lb {

// The probe that runs one drill of a layout: its command is the measured reshape, its parse
// reads the drill's report lines ("lb-drill key=value ...").
Expected<std::unique_ptr<Probe>> drillProbe(const Scenario& scenario, const ScenarioLayout& layout,
                                            const ScenarioDrill& drill);

// Every step of a drill as `plan` shows it, each with its undo or why it has none; `workdir`
// is the layout's mounted directory. Shown, never run: the drill's own shell runs them.
Expected<LayoutPlan> planDrill(const Scenario& scenario, const ScenarioLayout& layout,
                               const ScenarioDrill& drill, const std::string& workdir);

// The fio JSON of each phase of a fail-rebuild drill's load ("healthy", "degraded",
// "rebuilding", "rebuilt": whole again), in the order printed, with its per-second bandwidth and
// IOPS logs (as fio::logsCommand prints them, for the fio probe's parse; "" where the drill kept
// none) and the TCG caveat where the drill ran under it; none for the other drills.
struct DrillLoadPhase {
    std::string phase;
    std::string fioJson;
    std::string fioLogs;
    std::vector<std::string> caveats; // what the drill said of where it ran (TCG)
};
std::vector<DrillLoadPhase> drillLoadPhases(std::string_view stdoutText);

// The member a fail-rebuild drill's run failed and the spare it rebuilt onto, read back from the
// run's stored argv (the drill's shell takes them as arguments); none for another argv.
struct FailRebuildDisks {
    std::string failed, spare;
};
std::optional<FailRebuildDisks> failRebuildDisks(const std::vector<std::string>& argv);

// The stored layout a phase's run goes under, "r5@degraded", and whether a stored layout is one:
// a report leaves them out of its candidates unless named.
std::string drillPhaseLayout(const std::string& layout, const std::string& phase);
bool isDrillPhaseLayout(std::string_view name);

} // namespace lb
