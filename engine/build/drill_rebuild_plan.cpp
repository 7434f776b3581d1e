// The fail-rebuild drill's steps as `plan` shows them (drill.h): the fill, the load's phases, the
// member failed (by mdadm or zpool, pulled, or given dm's error target), the rebuild onto the
// spare and the checks after, each with its undo or why it has none. Shown, never run: the
// drill's own shell (drill_rebuild.cpp) runs them.
#include "engine/build/drill.h"
#include "engine/build/drill_internal.h"
#include "engine/build/plan.h"

#include <sstream>

namespace lb {

namespace {

Command shown(std::string program, std::vector<std::string> args) {
    Command c;
    c.program = std::move(program);
    c.args = std::move(args);
    return c;
}

// A pulled member's steps: the pull on this machine (or dm's error target swapped under the
// member), then the wait for md or ZFS to see it.
void addPullSteps(LayoutPlan& plan, const ScenarioDrill& drill, bool md, const std::string& target,
                  const std::string& failed) {
    const std::string member = failed.substr(failed.rfind('/') + 1);
    if (drill.failure == DrillFailure::Error)
        plan.steps.push_back(
            {"give " + failed + " device-mapper's error target (every I/O to it fails)",
             shown("sh", {"-c",
                          "dmsetup suspend \"$1\" && dmsetup load \"$1\" --table \"0 "
                          "$(blockdev --getsz \"/dev/mapper/$1\") error\" && dmsetup resume \"$1\"",
                          "sh", member}),
             shown("sh", {"-c", "dmsetup load \"$1\" --table \"$2\" && dmsetup resume \"$1\"", "sh",
                          member,
                          "<what dmsetup table " + member +
                              " printed before; the drill loads it "
                              "back itself once the spare took its place, or when it fails>"}),
             false, ""});
    else
        plan.steps.push_back({"pull " + failed + " (run on this machine, not on the target)",
                              rebuildPullCommand(drill, failed), std::nullopt, false,
                              "a pulled disk goes back by hand; the spare takes its place"});
    plan.steps.push_back(
        {std::string("wait up to ") + std::to_string(drill.pullWaitSeconds) + " s until " +
             (md ? "md marks " + failed + " faulty"
                 : "ZFS reports " + failed + " FAULTED, REMOVED or UNAVAIL"),
         md ? shown("cat", {"/sys/block/mdN/md/dev-" +
                            (drill.failure == DrillFailure::Error ? "dm-N" : member) + "/state"})
            : shown("zpool", {"status", target}),
         std::nullopt, false, "it only waits"});
}

} // namespace

namespace {

// One phase of the drill's load as `plan` shows it: fio's job with its per-second logs.
void addLoadStep(LayoutPlan& plan, const std::string& phase, const std::string& what,
                 const std::string& seconds) {
    const std::string log = plan.workdir + "/.lb-drill-" + phase;
    plan.steps.push_back(
        {"the load " + what,
         shown("fio", {"--name=drill-randrw", "--directory=" + plan.workdir,
                       "--filename=.lb-drill-randrw", "--rw=randrw", "--bs=4k", "--size=32M",
                       "--ioengine=psync", "--direct=1", "--time_based", "--runtime=" + seconds,
                       "--write_bw_log=" + log, "--write_iops_log=" + log, "--log_avg_msec=1000"}),
         std::nullopt, false, "it only reads and writes its own file and logs"});
}

// From the healthy load to the member out of the layout: md's rebuild floor, then the member
// failed by mdadm or zpool, or pulled under the load and waited for.
void addFailSteps(LayoutPlan& plan, const ScenarioDrill& drill, bool md, const std::string& target,
                  const std::string& failed) {
    const bool pulled = drill.failure != DrillFailure::Admin; // pulled or errored under the load
    if (md && drill.syncSpeedMinKiB > 0)
        plan.steps.push_back(
            {"the array's rebuild floor while it serves the load",
             shown("sh", {"-c", std::string("echo ") + std::to_string(drill.syncSpeedMinKiB) +
                                    " > /sys/block/mdN/md/sync_speed_min"}),
             std::nullopt, false, "the setting goes with the array when the layout is torn down"});
    if (pulled) {
        addLoadStep(plan, "pulled",
                    std::string("while the disk ") +
                        (drill.failure == DrillFailure::Pull ? "is pulled" : "errors") +
                        " (until " + (md ? "md" : "ZFS") + " sees it failed)",
                    "86400");
        addPullSteps(plan, drill, md, target, failed);
    }
    if (md && pulled) {
        plan.steps.push_back({"remove the failed member " + failed,
                              shown("mdadm", {target, "--remove", "failed"}), std::nullopt, false,
                              "the spare takes its place"});
    } else if (md) {
        plan.steps.push_back({"fail " + failed, shown("mdadm", {target, "--fail", failed}),
                              std::nullopt, false,
                              "the spare takes its place; the layout's teardown wipes both"});
        plan.steps.push_back({"remove " + failed, shown("mdadm", {target, "--remove", failed}),
                              std::nullopt, false, "the spare takes its place"});
    } else if (!pulled) {
        plan.steps.push_back({"take " + failed + " offline",
                              shown("zpool", {"offline", target, failed}), std::nullopt, false,
                              "the spare replaces it; the layout's teardown destroys the pool"});
    }
}

} // namespace

Expected<LayoutPlan> planRebuildDrill(const Scenario& scenario, const ScenarioLayout& layout,
                                      const ScenarioDrill& drill, const std::string& workdir) {
    LayoutPlan scratch;
    LB_TRY(paths, planDisks(scratch, scenario, layout, {drill.failDisk, drill.disks.front()}, {}));
    const std::string& failed = paths[0];
    const std::string& spare = paths[1];
    const RebuildTarget on = rebuildTarget(layout);
    const bool md = on.onMd();
    const std::string target = md ? on.array : on.pool; // what fails and rebuilds
    const std::string fill = workdir + "/.lb-drill-fill";

    LayoutPlan plan;
    plan.layout = layout.name;
    plan.workdir = workdir;
    plan.runsOn = RunsOn::Host;
    std::ostringstream share;
    share << drill.fill * 100;
    plan.steps.push_back({"fill " + share.str() + " % of the usable space with random data",
                          shown("dd", {"if=/dev/urandom", "of=" + fill + "/N", "bs=1M"}),
                          shown("rm", {"-rf", "--", fill}), false, ""});
    addLoadStep(plan, "healthy", "healthy", std::to_string(drill.phaseSeconds));
    addFailSteps(plan, drill, md, target, failed);
    addLoadStep(plan, "degraded", "degraded", std::to_string(drill.phaseSeconds));
    addLoadStep(plan, "rebuilding", "while it rebuilds (until the layout is whole)", "86400");
    if (md) {
        plan.steps.push_back(
            {"rebuild onto the spare " + spare +
                 (on.pool.empty() ? std::string()
                                  : " (md rebuilds its whole member under the pool " + on.pool +
                                        ", which sees nothing of it)"),
             shown("mdadm", {target, "--add", spare}), std::nullopt, false,
             "the layout's teardown stops the array and wipes the spare"});
        addLoadStep(plan, "rebuilt", "whole again", std::to_string(drill.phaseSeconds));
        plan.steps.push_back({"check the array (mismatch_cnt)",
                              shown("sh", {"-c", "echo check > /sys/block/mdN/md/sync_action"}),
                              std::nullopt, false, "it only reads"});
        if (!on.pool.empty()) // ZFS on md: the pool's own check too
            plan.steps.push_back({"scrub the pool on the array",
                                  shown("zpool", {"scrub", "-w", on.pool}), std::nullopt, false,
                                  "it only reads (and repairs)"});
    } else {
        if (isDraid(layout.kind))
            plan.steps.push_back(
                {"rebuild onto the distributed spare (sequential)",
                 shown("zpool", {"replace", "-s", target, failed, "draidP-0-0"}), std::nullopt,
                 false, "the spare disk replaces it next, freeing the distributed spare"});
        plan.steps.push_back({"resilver onto the spare " + spare,
                              shown("zpool", {"replace", "-f", target, failed, spare}),
                              std::nullopt, false,
                              "the layout's teardown destroys the pool, the spare with it"});
        addLoadStep(plan, "rebuilt", "whole again", std::to_string(drill.phaseSeconds));
        plan.steps.push_back({"scrub the pool", shown("zpool", {"scrub", "-w", target}),
                              std::nullopt, false, "it only reads (and repairs)"});
    }
    plan.steps.push_back({"compare the filled files' sums", shown("cksum", {fill + "/*"}),
                          std::nullopt, false, "it only reads"});
    return plan;
}

} // namespace lb
