// The fail-rebuild drill without a machine to fail: its scenario keys and their errors, how its
// probe reads a drill's report (a drill that lost data is a failed run), the load's phases in
// its output, and the measured rate handed to the risk model. The drill itself runs in the lab
// guest (tests/openzfs/openzfs_rebuild_test.cpp).
#include "engine/base/input.h"
#include "engine/build/drill.h"
#include "engine/exec/ssh_runner.h"
#include "engine/scenario/scenario.h"
#include "engine/scenario/scenario_keys.h"
#include "engine/workbench/failure_drills.h"
#include "engine/workbench/projections.h"
#include "probes/registry.h"
#include "tests/support/drill_store.h"
#include "tests/support/plan_golden.h"
#include "tests/support/scratch_dir.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace lb {
namespace {

const ProbeRegistry& probes() {
    static const ProbeRegistry registry = standardProbes();
    return registry;
}

// Four disks, an md-raid5 of three and a zfs-stripe; `drill` is the [[drills]] table's body.
Expected<Scenario> withDrill(const std::string& drill) {
    std::string text = "name = \"drills\"\nwork_dir = \"/srv/lb\"\n";
    for (char c = 'b'; c <= 'e'; ++c)
        text += std::string("[[disks]]\nname = \"d") + c + "\"\ndevice = \"/dev/sd" + c + "\"\n";
    text += R"([[layouts]]
name = "r5"
kind = "md-raid5"
baseline = true
disks = ["db", "dc", "dd"]
[[layouts]]
name = "stripe"
kind = "zfs-stripe"
disks = ["db", "dc"]
[[workloads]]
probe = "xz"
[[drills]]
)" + drill;
    return parseScenario(text, "drills.toml", probes());
}

std::string errorOf(const std::string& drill) {
    const auto s = withDrill(drill);
    return s ? "parsed" : s.error().message;
}

TEST(FailRebuildDrill, ItsKeysParseWithTheirDefaults) {
    const auto s = withDrill("layout = \"r5\"\naction = \"fail-rebuild\"\ndisk = \"dc\"\n"
                             "disks = [\"de\"]\n");
    ASSERT_TRUE(s) << s.error().message;
    const ScenarioDrill& d = s->drills.front();
    EXPECT_EQ(d.action, DrillAction::FailRebuild);
    EXPECT_EQ(d.failDisk, "dc");
    EXPECT_EQ(d.disks, std::vector<std::string>{"de"});
    EXPECT_EQ(d.failure, DrillFailure::Admin);
    EXPECT_DOUBLE_EQ(d.fill, 0.25);
    EXPECT_EQ(d.phaseSeconds, 10);
    EXPECT_EQ(d.syncSpeedMinKiB, 0);
    EXPECT_EQ(d.name(), "drill:fail-rebuild");
}

TEST(FailRebuildDrill, BadInputNamesTheField) {
    const std::string head = "layout = \"r5\"\naction = \"fail-rebuild\"\n";
    EXPECT_EQ(errorOf(head + "disk = \"de\"\ndisks = [\"dd\"]\n"),
              "drills.toml:26: drills.disks: 'dd' is already in layout 'r5'; a drill adds spares");
    EXPECT_EQ(errorOf(head + "disk = \"de\"\ndisks = [\"db\"]\n"),
              "drills.toml:26: drills.disks: 'db' is already in layout 'r5'; a drill adds spares");
    EXPECT_EQ(errorOf(head + "disk = \"dx\"\ndisks = [\"de\"]\n"),
              "drills.toml:26: drills.disk: 'dx' is not a member of layout 'r5'; a fail-rebuild "
              "drill fails one of its disks");
    EXPECT_NE(errorOf(head + "disks = [\"de\"]\n")
                  .find("drills[0].disk: a fail-rebuild drill names the member it fails"),
              std::string::npos);
    EXPECT_NE(errorOf(head + "disk = \"dc\"\ndisks = [\"de\"]\nfill = 0.99\n")
                  .find("drills[0].fill: must be in [0, 0.95]"),
              std::string::npos);
    EXPECT_NE(errorOf(head + "disk = \"dc\"\ndisks = [\"de\"]\nfill = -0.1\n")
                  .find("drills[0].fill: must be in [0, 0.95]"),
              std::string::npos);
    EXPECT_NE(errorOf(head + "disk = \"dc\"\ndisks = [\"de\"]\nfail = \"unplug\"\n")
                  .find("drills[0].fail: 'unplug' is not one of"),
              std::string::npos);
    EXPECT_EQ(errorOf(head + "disk = \"dc\"\ndisks = [\"dd\", \"de\"]\n"),
              "drills.toml:26: drills.disks: fail-rebuild adds exactly 1 disk here, got 2");
    EXPECT_EQ(errorOf("layout = \"stripe\"\naction = \"fail-rebuild\"\ndisk = \"db\"\n"
                      "disks = [\"de\"]\n"),
              "drills.toml:26: drills.action: fail-rebuild does not apply to a zfs-stripe layout: "
              "a zfs-stripe layout has no redundancy: nothing rebuilds a failed member (a "
              "zfs-stripe on an inner md array with redundancy is drilled: md's member fails)");
    // The expansion drills take none of its keys.
    EXPECT_NE(errorOf("layout = \"r5\"\naction = \"md-grow\"\ndisks = [\"de\"]\nfill = 0.5\n")
                  .find("drills[0].fill: only a fail-rebuild drill takes it (this one is md-grow)"),
              std::string::npos);
}

ProcessResult drillOutput(const std::string& report) {
    ProcessResult r;
    r.exitCode = 0;
    r.stdoutText = report;
    return r;
}

std::optional<double> metricOf(const ParsedRun& run, const std::string& name) {
    for (const auto& m : run.metrics)
        if (m.name == name)
            return m.value;
    return std::nullopt;
}

const std::string mdReport = "lb-drill hypervisor=tcg\n"
                             "lb-drill usable_bytes=200000000 used_bytes=61000000 fill_files=1\n"
                             "lb-drill direct=1\nlb-drill state_degraded=clean,degraded\n"
                             "lb-drill rebuild_bytes=133169152\n"
                             "lb-drill seconds=4.00 window_seconds=9.50\n"
                             "lb-drill check_seconds=3.10 mismatch_cnt=0\n"
                             "lb-drill state_after=clean level=raid5\n";

TEST(FailRebuildDrill, ItsProbeReadsTheRebuildAndTheChecks) {
    const auto s = withDrill("layout = \"r5\"\naction = \"fail-rebuild\"\ndisk = \"dc\"\n"
                             "disks = [\"de\"]\n");
    ASSERT_TRUE(s) << s.error().message;
    auto probe = drillProbe(*s, s->layouts.front(), s->drills.front());
    ASSERT_TRUE(probe) << probe.error().message;
    const auto ok = (*probe)->parse(drillOutput(mdReport + "lb-drill checksum_mismatches=0\n"), {},
                                    OptionValues{});
    ASSERT_TRUE(ok) << ok.error().message;
    EXPECT_FALSE(ok->failed) << ok->failureReason;
    EXPECT_EQ(ok->workload, "drill:fail-rebuild");
    EXPECT_EQ(metricOf(*ok, "drill.fail-rebuild.rebuild_bytes"), 133169152.0);
    EXPECT_EQ(metricOf(*ok, "drill.fail-rebuild.rebuild_rate"), 133169152.0 / 4.0);
    EXPECT_EQ(metricOf(*ok, "drill.fail-rebuild.window_seconds"), 9.5);
    EXPECT_EQ(metricOf(*ok, "drill.fail-rebuild.fill"), 30.5);
    for (const auto& m : ok->metrics)
        EXPECT_TRUE(describeMetric(m.name)) << m.name << " has no description";
    EXPECT_TRUE(std::any_of(ok->caveats.begin(), ok->caveats.end(),
                            [](const std::string& c) { return c.starts_with("TCG: "); }));

    // A changed file is lost data: the run fails, saying so.
    const auto lost = (*probe)->parse(drillOutput(mdReport + "lb-drill checksum_mismatches=2\n"),
                                      {}, OptionValues{});
    ASSERT_TRUE(lost) << lost.error().message;
    EXPECT_TRUE(lost->failed);
    EXPECT_EQ(lost->failureReason,
              "the fail-rebuild drill lost data or redundancy: 2 filled files changed");
    // zpool's rounded sizes, whatever bytes they make.
    const auto zfs = (*probe)->parse(
        drillOutput(mdReport + "lb-drill checksum_mismatches=0\nlb-drill rebuild_bytes=32.3M\n"),
        {}, OptionValues{});
    ASSERT_TRUE(zfs) << zfs.error().message;
    EXPECT_DOUBLE_EQ(*metricOf(*zfs, "drill.fail-rebuild.rebuild_bytes"), 32.3 * 1048576);
    // No rebuild reported: bad output, not a measurement.
    EXPECT_FALSE((*probe)->parse(drillOutput("lb-drill hypervisor=tcg\n"), {}, OptionValues{}));
}

// fail = "pull": the command the workbench runs on its own machine, told the disk, once the
// drill on the target prints its line; refused without its command, and its keys elsewhere.
TEST(FailRebuildDrill, APulledMemberIsPulledByTheScenariosCommandOnThisMachine) {
    const std::string head = "layout = \"r5\"\naction = \"fail-rebuild\"\ndisk = \"dc\"\n"
                             "disks = [\"de\"]\n";
    const auto s = withDrill(head + "fail = \"pull\"\npull_command = [\"sg_ses\", "
                                    "\"--dev-slot-num=3\", \"--set=devoff\", \"/dev/sg4\"]\n");
    ASSERT_TRUE(s) << s.error().message;
    const ScenarioDrill& d = s->drills.front();
    EXPECT_EQ(d.failure, DrillFailure::Pull);
    EXPECT_EQ(d.pullCommand,
              (std::vector<std::string>{"sg_ses", "--dev-slot-num=3", "--set=devoff", "/dev/sg4"}));
    EXPECT_EQ(d.pullWaitSeconds, 120);

    auto probe = drillProbe(*s, s->layouts.front(), d);
    ASSERT_TRUE(probe) << probe.error().message;
    WorkloadContext ctx;
    ctx.workdir = "/srv/lb/mnt-r5";
    const auto mc = (*probe)->command(OptionValues{}, ctx);
    ASSERT_TRUE(mc) << mc.error().message;
    ASSERT_EQ(mc->localTriggers.size(), 1U);
    const LineTrigger& pull = mc->localTriggers.front();
    EXPECT_EQ(pull.line, "lb-drill pull=now");
    EXPECT_EQ(pull.command.program, "sg_ses");
    EXPECT_EQ(pull.command.args,
              (std::vector<std::string>{"--dev-slot-num=3", "--set=devoff", "/dev/sg4"}));
    EXPECT_EQ(pull.command.env,
              (std::vector<std::pair<std::string, std::string>>{
                  {"LAYOUTBENCH_PULL_DISK", "dc"}, {"LAYOUTBENCH_PULL_DEVICE", "/dev/sdc"}}));
    // The command fits an SSH server that takes 9,000 bytes at most (dropbear's MAX_CMD_LEN, the
    // lab guest's), quoted for the remote shell.
    EXPECT_LT(remoteShellCommand(mc->command).size(), 8500U);
    // The drill's shell is told to wait for the pull, and for how long.
    ASSERT_GE(mc->command.args.size(), 2U);
    EXPECT_EQ(mc->command.args[mc->command.args.size() - 2], "pull");
    EXPECT_EQ(mc->command.args.back(), "120");

    // What md saw and when, as a metric and a caveat.
    const auto run =
        (*probe)->parse(drillOutput(mdReport + "lb-drill pulled_state=faulty detect_seconds=1.40\n"
                                               "lb-drill checksum_mismatches=0\n"),
                        {}, OptionValues{});
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_FALSE(run->failed) << run->failureReason;
    EXPECT_EQ(metricOf(*run, "drill.fail-rebuild.detect_seconds"), 1.4);
    EXPECT_TRUE(std::any_of(run->caveats.begin(), run->caveats.end(), [](const std::string& c) {
        return c.find("pulled (sg_ses --dev-slot-num=3 --set=devoff /dev/sg4, on the "
                      "workbench's machine) under the load; md saw it faulty after 1.40 s") !=
               std::string::npos;
    })) << ::testing::PrintToString(run->caveats);

    // An administrative failure pulls nothing.
    const auto admin = withDrill(head);
    ASSERT_TRUE(admin) << admin.error().message;
    auto adminProbe = drillProbe(*admin, admin->layouts.front(), admin->drills.front());
    ASSERT_TRUE(adminProbe);
    const auto adminMc = (*adminProbe)->command(OptionValues{}, ctx);
    ASSERT_TRUE(adminMc);
    EXPECT_TRUE(adminMc->localTriggers.empty());

    EXPECT_NE(errorOf(head + "fail = \"pull\"\n")
                  .find("drills[0].pull_command: fail = \"pull\" needs the command that pulls "
                        "the disk"),
              std::string::npos)
        << errorOf(head + "fail = \"pull\"\n");
    EXPECT_NE(errorOf(head + "pull_command = [\"true\"]\n")
                  .find("drills[0].pull_command: only fail = \"pull\" takes it"),
              std::string::npos)
        << errorOf(head + "pull_command = [\"true\"]\n");
    EXPECT_NE(errorOf(head + "fail = \"pull\"\npull_command = [\"true\"]\npull_wait = 0\n")
                  .find("drills[0].pull_wait"),
              std::string::npos);
}

// fail = "error": the member is a device-mapper device whose table the drill swaps for the error
// target on the target itself; plan shows the swap and its undo; any other device is refused.
TEST(FailRebuildDrill, AnErroredMemberIsADeviceMapperDeviceSwappedForTheErrorTarget) {
    const std::string head = "layout = \"r5\"\naction = \"fail-rebuild\"\ndisk = \"dc\"\n"
                             "disks = [\"de\"]\nfail = \"error\"\n";
    auto text = [](std::string drill) {
        std::string t = "name = \"drills\"\nwork_dir = \"/srv/lb\"\n";
        for (char c = 'b'; c <= 'e'; ++c)
            t += std::string("[[disks]]\nname = \"d") + c + "\"\ndevice = \"/dev/" +
                 (c == 'c' ? "mapper/lbdc" : std::string("sd") + c) + "\"\n";
        return t +
               "[[layouts]]\nname = \"r5\"\nkind = \"md-raid5\"\nbaseline = true\n"
               "disks = [\"db\", \"dc\", \"dd\"]\n[[workloads]]\nprobe = \"xz\"\n"
               "[[drills]]\n" +
               drill;
    };
    const auto s = parseScenario(text(head + "pull_wait = 30\n"), "drills.toml", probes());
    ASSERT_TRUE(s) << s.error().message;
    const ScenarioDrill& d = s->drills.front();
    EXPECT_EQ(d.failure, DrillFailure::Error);
    EXPECT_EQ(d.pullWaitSeconds, 30);

    auto probe = drillProbe(*s, s->layouts.front(), d);
    ASSERT_TRUE(probe) << probe.error().message;
    WorkloadContext ctx;
    ctx.workdir = "/srv/lb/mnt-r5";
    const auto mc = (*probe)->command(OptionValues{}, ctx);
    ASSERT_TRUE(mc) << mc.error().message;
    EXPECT_TRUE(mc->localTriggers.empty()); // the swap runs on the target, in the drill
    EXPECT_LT(remoteShellCommand(mc->command).size(), 8500U);
    ASSERT_GE(mc->command.args.size(), 2U);
    EXPECT_EQ(mc->command.args[mc->command.args.size() - 2], "error");
    EXPECT_NE(std::find(mc->command.args.begin(), mc->command.args.end(), "/dev/mapper/lbdc"),
              mc->command.args.end());

    // plan: the swap, with the saved table loaded back as its undo.
    const auto plan = planDrill(*s, s->layouts.front(), d, "/srv/lb/mnt-r5");
    ASSERT_TRUE(plan) << plan.error().message;
    const auto swap = std::find_if(plan->steps.begin(), plan->steps.end(), [](const auto& step) {
        return step.description.find("device-mapper's error target") != std::string::npos;
    });
    ASSERT_NE(swap, plan->steps.end());
    ASSERT_TRUE(swap->undo);
    EXPECT_EQ(swap->command.args.back(), "lbdc");
    EXPECT_EQ(swap->undo->args.at(1),
              "dmsetup load \"$1\" --table \"$2\" && dmsetup resume \"$1\"");
    EXPECT_NE(swap->command.args.at(1).find("error\" && dmsetup resume"), std::string::npos);

    // What md saw and that the table came back, said with the run.
    const auto run = (*probe)->parse(
        drillOutput(mdReport + "lb-drill pulled_state=faulty detect_seconds=0.20\n"
                               "lb-drill dm_restored=1\nlb-drill checksum_mismatches=0\n"),
        {}, OptionValues{});
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_FALSE(run->failed) << run->failureReason;
    EXPECT_TRUE(std::any_of(run->caveats.begin(), run->caveats.end(), [](const std::string& c) {
        return c.find("table was swapped for the error target under the load; md saw it faulty "
                      "after 0.20 s; its table was put back after the rebuild") !=
               std::string::npos;
    })) << ::testing::PrintToString(run->caveats);

    // A member that is not a device-mapper device, and a pull command, are refused.
    EXPECT_NE(errorOf(head).find("drills.fail: \"error\" swaps device-mapper's error target under "
                                 "the member, but disk 'dc' (/dev/sdc) is not a device-mapper "
                                 "device"),
              std::string::npos)
        << errorOf(head);
    const auto pulled =
        parseScenario(text(head + "pull_command = [\"true\"]\n"), "d.toml", probes());
    ASSERT_FALSE(pulled);
    EXPECT_NE(pulled.error().message.find("pull_command: only fail = \"pull\" takes it"),
              std::string::npos)
        << pulled.error().message;
    EXPECT_NE(errorOf("layout = \"r5\"\naction = \"fail-rebuild\"\ndisk = \"dc\"\n"
                      "disks = [\"de\"]\npull_wait = 5\n")
                  .find("pull_wait: only fail = \"pull\" or \"error\" takes it"),
              std::string::npos);
}

// ZFS on md (kind = "zfs-stripe", inner = an md kind): `disk` is a member of the md array under
// the pool, the spare joins the array. Six disks; `inner` and `drill` are the layout's inner kind
// and the [[drills]] table's body.
Expected<Scenario> zfsOnMd(const std::string& inner, const std::string& drill,
                           const std::string& failed = "/dev/sdc") {
    std::string text = "name = \"drills\"\nwork_dir = \"/srv/lb\"\n";
    for (char c = 'b'; c <= 'g'; ++c)
        text += std::string("[[disks]]\nname = \"d") + c + "\"\ndevice = \"" +
                (c == 'c' ? failed : std::string("/dev/sd") + c) + "\"\n";
    return parseScenario(text + "[[layouts]]\nname = \"zmd\"\nkind = \"zfs-stripe\"\ninner = \"" +
                             inner +
                             "\"\nbaseline = true\ndisks = [\"db\", \"dc\", \"dd\", \"de\"]\n"
                             "[[workloads]]\nprobe = \"xz\"\n[[drills]]\nlayout = \"zmd\"\n"
                             "action = \"fail-rebuild\"\ndisk = \"dc\"\ndisks = [\"dg\"]\n" +
                             drill,
                         "drills.toml", probes());
}

TEST(FailRebuildDrill, FitsAPoolOnAnMdArrayWithRedundancyNotOnRaid0NorAGuestYet) {
    for (const char* inner : {"md-raid1", "md-raid10", "md-raid5", "md-raid6"}) {
        const auto s = zfsOnMd(inner, "");
        EXPECT_TRUE(s) << inner << ": " << s.error().message;
    }
    const auto raid0 = zfsOnMd("md-raid0", "");
    ASSERT_FALSE(raid0);
    EXPECT_NE(raid0.error().message.find("drills.action: fail-rebuild does not apply to a "
                                         "zfs-stripe layout: its inner md-raid0 array has no "
                                         "redundancy"),
              std::string::npos)
        << raid0.error().message;
    // A guest on md: refused, saying what is drilled instead.
    std::string guest = "name = \"drills\"\nwork_dir = \"/srv/lb\"\n";
    for (char c = 'b'; c <= 'd'; ++c)
        guest += std::string("[[disks]]\nname = \"d") + c + "\"\ndevice = \"/dev/sd" + c + "\"\n";
    guest += "[[layouts]]\nname = \"vm\"\nkind = \"guest\"\ninner = \"md-raid1\"\nbaseline = "
             "true\ndisks = [\"db\", \"dc\"]\n[layouts.guest]\nhypervisor = \"xen\"\ndomain = "
             "\"zfs\"\ntarget = \"ssh://root@zfs\"\nlayout = \"zfs-stripe\"\ndisk = "
             "\"/dev/xvdb\"\n[[workloads]]\nprobe = \"xz\"\n[[drills]]\nlayout = \"vm\"\naction "
             "= \"fail-rebuild\"\ndisk = \"dc\"\ndisks = [\"dd\"]\n";
    const auto vm = parseScenario(guest, "drills.toml", probes());
    ASSERT_FALSE(vm);
    EXPECT_NE(vm.error().message.find("fail-rebuild does not apply to a guest layout: a guest "
                                      "layout's drill (the host's md array rebuilding while the "
                                      "guest's pool serves) is not built yet; drill the same "
                                      "array under a pool on the host instead (kind = "
                                      "\"zfs-stripe\", inner = \"md-raid1\""),
              std::string::npos)
        << vm.error().message;
}

// What the drill's shell is told on ZFS on md (the pool, then the array last), what it reports
// of both levels, and a loss at either level failing the run.
TEST(FailRebuildDrill, OnZfsOnMdTheArraysMemberFailsAndBothLevelsAreChecked) {
    const auto s = zfsOnMd("md-raid10", "fail = \"error\"\n", "/dev/mapper/lbdc");
    ASSERT_TRUE(s) << s.error().message;
    auto probe = drillProbe(*s, s->layouts.front(), s->drills.front());
    ASSERT_TRUE(probe) << probe.error().message;
    WorkloadContext ctx;
    ctx.workdir = "/srv/lb/mnt-zmd";
    const auto mc = (*probe)->command(OptionValues{}, ctx);
    ASSERT_TRUE(mc) << mc.error().message;
    const auto& args = mc->command.args;
    ASSERT_EQ(args.size(), 14U);
    EXPECT_EQ(std::vector<std::string>(args.begin() + 2, args.begin() + 8),
              (std::vector<std::string>{"lb-drill", "zfs-md", "lb-zmd", "/srv/lb/mnt-zmd",
                                        "/dev/mapper/lbdc", "/dev/sdg"}));
    EXPECT_EQ(args.back(), "/dev/md/lb-zmd");
    EXPECT_EQ(mc->command.program, "sh");
    EXPECT_LT(remoteShellCommand(mc->command).size(), 8500U);
    EXPECT_EQ((*probe)->versionCommand().program, "mdadm");
    const auto disks = failRebuildDisks(args);
    ASSERT_TRUE(disks);
    EXPECT_EQ(disks->failed, "/dev/mapper/lbdc");

    const std::string report =
        "lb-drill hypervisor=tcg\nlb-drill usable_bytes=200000000 used_bytes=61000000\n"
        "lb-drill direct=1\nlb-drill pulled_state=faulty detect_seconds=0.80\n"
        "lb-drill state_degraded=clean,degraded\nlb-drill pool_degraded=ONLINE\n"
        "lb-drill pool_rebuilding=ONLINE\nlb-drill rebuild_bytes=266338304\n"
        "lb-drill seconds=8.00 window_seconds=14.00\nlb-drill dm_restored=1\n"
        "lb-drill check_seconds=5.00 mismatch_cnt=0\nlb-drill state_after=clean level=raid10\n"
        "lb-drill scrub_seconds=2.50\nlb-drill pool_state_after=ONLINE\n"
        "lb-drill checksum_mismatches=0\n";
    const auto ok = (*probe)->parse(
        drillOutput(report + "lb-drill scrub_errors=0\nlb-drill data_errors=0\n"), {}, {});
    ASSERT_TRUE(ok) << ok.error().message;
    EXPECT_FALSE(ok->failed) << ok->failureReason;
    EXPECT_EQ(metricOf(*ok, "drill.fail-rebuild.rebuild_bytes"), 266338304.0);
    EXPECT_EQ(metricOf(*ok, "drill.fail-rebuild.mismatch_cnt"), 0.0);
    EXPECT_EQ(metricOf(*ok, "drill.fail-rebuild.scrub_errors"), 0.0);
    EXPECT_EQ(metricOf(*ok, "drill.fail-rebuild.check_seconds"), 5.0);
    EXPECT_EQ(metricOf(*ok, "drill.fail-rebuild.scrub_seconds"), 2.5);
    const auto said = [&](const ParsedRun& run, const std::string& text) {
        return std::any_of(run.caveats.begin(), run.caveats.end(),
                           [&](const std::string& c) { return c.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(said(*ok, "the pool said ONLINE while the array was degraded, ONLINE while it "
                          "rebuilt, ONLINE after its scrub: ZFS sees nothing of md's failure or "
                          "rebuild under it, as a guest's pool on a host's md array sees nothing"))
        << ::testing::PrintToString(ok->caveats);
    EXPECT_TRUE(said(*ok, "md saw it faulty after 0.80 s"))
        << ::testing::PrintToString(ok->caveats);

    // A scrub error, a mismatch or a pool not ONLINE afterwards: each a failed run.
    const auto scrubbed = (*probe)->parse(
        drillOutput(report + "lb-drill scrub_errors=3\nlb-drill data_errors=1\n"), {}, {});
    ASSERT_TRUE(scrubbed);
    EXPECT_TRUE(scrubbed->failed);
    EXPECT_EQ(scrubbed->failureReason, "the fail-rebuild drill lost data or redundancy: 3 errors "
                                       "found by the scrub; 1 data errors in zpool status");
    std::string mismatched = report;
    mismatched.replace(mismatched.find("mismatch_cnt=0"), 14, "mismatch_cnt=8");
    mismatched.replace(mismatched.find("pool_state_after=ONLINE"), 23, "pool_state_after=DEGRADED");
    const auto both = (*probe)->parse(
        drillOutput(mismatched + "lb-drill scrub_errors=0\nlb-drill data_errors=0\n"), {}, {});
    ASSERT_TRUE(both);
    EXPECT_EQ(both->failureReason,
              "the fail-rebuild drill lost data or redundancy: 8 sectors mismatched in md's check "
              "(mismatch_cnt); the pool is DEGRADED after the rebuild");
    // No scrub reported at all is not a pass.
    const auto unscrubbed = (*probe)->parse(drillOutput(report), {}, {});
    ASSERT_TRUE(unscrubbed);
    EXPECT_TRUE(unscrubbed->failed);
}

// `plan` on ZFS on md: md's member failed (by mdadm, and under dm's error target), md's rebuild
// under the pool, md's check and the pool's scrub, each step with its undo or why none.
TEST(FailRebuildDrill, OnZfsOnMdThePlanShowsMdsStepsAndThePoolsScrub) {
    std::string out;
    for (const char* how : {"", "fail = \"error\"\n"}) {
        const auto s = zfsOnMd("md-raid1", how, *how ? "/dev/mapper/lbdc" : "/dev/sdc");
        ASSERT_TRUE(s) << s.error().message;
        const auto plan = planDrill(*s, s->layouts.front(), s->drills.front(), "/srv/lb/mnt-zmd");
        ASSERT_TRUE(plan) << plan.error().message;
        out += std::string("-- zmd: ") + (*how ? "error" : "admin") + "\n" + describePlan(*plan);
    }
    test::expectGolden("drill-zfs-on-md", out);
}

TEST(FailRebuildDrill, TheLoadsPhasesAreReadFromItsOutput) {
    const auto phases =
        drillLoadPhases("lb-drill hypervisor=tcg\nlb-drill-fio healthy\n{\"a\": 1}\n"
                        "lb-drill-fio-end\nlb-drill-fio degraded\n{}\n"
                        "lb-drill-fio-end\n");
    ASSERT_EQ(phases.size(), 2U);
    EXPECT_EQ(phases[0].phase, "healthy");
    EXPECT_EQ(phases[0].fioJson, "{\"a\": 1}\n");
    EXPECT_EQ(phases[1].phase, "degraded");
    ASSERT_EQ(phases[1].caveats.size(), 1U);
    EXPECT_TRUE(phases[1].caveats.front().starts_with("TCG: ")) << phases[1].caveats.front();
    EXPECT_TRUE(drillLoadPhases("lb-drill seconds=1\n").empty());
    // Stored under "<layout>@<phase>", which a report leaves out of its candidates.
    EXPECT_EQ(drillPhaseLayout("r5", "degraded"), "r5@degraded");
    EXPECT_TRUE(isDrillPhaseLayout("r5@rebuilding"));
    EXPECT_FALSE(isDrillPhaseLayout("r5"));
    EXPECT_FALSE(isDrillPhaseLayout("@healthy"));
}

TEST(FailRebuildDrill, TheNewestMeasuredRateIsTheRiskModels) {
    LayoutSamples samples;
    samples.metrics.push_back(
        MetricSamples::withRuns("drill.fail-rebuild.rebuild_rate", {30e6, 40e6}, {{7}, {12}}));
    samples.measuredOn = {"TCG emulation"};
    const RiskSettings measured = withMeasuredRebuild({}, samples);
    EXPECT_EQ(measured.rebuildBytesPerSecond, 40e6);
    EXPECT_EQ(measured.rebuildBasis,
              "measured: fail-rebuild drill, run 12, on the layout's disks under TCG");
    // A rate given on the command line stays; no drill, nothing measured.
    RiskSettings given;
    given.rebuildBytesPerSecond = 5e6;
    EXPECT_EQ(withMeasuredRebuild(given, samples).rebuildBytesPerSecond, 5e6);
    EXPECT_FALSE(withMeasuredRebuild({}, LayoutSamples{}).rebuildBytesPerSecond);
}

const std::string capturedDrill =
    std::string(LAYOUTBENCH_TEST_DATA_DIR) + "/drill/3.33/fail_rebuild_raidz1.out";

std::vector<std::string> keyNames(const std::vector<OptionSpec>& specs) {
    std::vector<std::string> out;
    for (const auto& s : specs)
        out.push_back(s.name);
    return out;
}

// The form of a drill offers the keys its action takes, and the parser refuses the others.
TEST(FailRebuildDrill, ItsActionChoosesItsKeys) {
    EXPECT_EQ(keyNames(drillKeys("fail-rebuild")),
              (std::vector<std::string>{"layout", "action", "disks", "disk", "fail", "pull_command",
                                        "pull_wait", "fill", "phase_seconds", "sync_speed_min",
                                        "timeout"}));
    EXPECT_EQ(keyNames(drillKeys("md-grow")),
              (std::vector<std::string>{"layout", "action", "disks", "read_load", "timeout"}));
    EXPECT_EQ(keyNames(drillKeys("")), (std::vector<std::string>{"layout", "action"}));
    EXPECT_EQ(keyNames(drillKeys("grow-it")), (std::vector<std::string>{"layout", "action"}));
    for (const auto& spec : scenarioKeys(ScenarioTable::Drill)) {
        if (!isFailRebuildKey(spec.name))
            continue;
        const bool text = spec.type == OptionType::String || spec.type == OptionType::Choice;
        const std::string value = text ? "\"admin\"" : "1";
        EXPECT_NE(errorOf("layout = \"r5\"\naction = \"md-grow\"\ndisks = [\"de\"]\n" + spec.name +
                          " = " + value + "\n")
                      .find("only a fail-rebuild drill takes it"),
                  std::string::npos)
            << spec.name;
    }
}

// A drill's output as the script prints it (fio 3.33's own JSON and logs, tests/data/drill): the
// four phases each with fio's per-second logs, the drill's course as metrics, the disks back
// from its argv.
TEST(FailRebuildDrill, ItsOutputCarriesEachPhasesLogsAndItsCourse) {
    const auto text = readInput(capturedDrill, documentLimit());
    ASSERT_TRUE(text) << text.error().message;
    const auto phases = drillLoadPhases(*text);
    ASSERT_EQ(phases.size(), 4U);
    const char* names[] = {"healthy", "degraded", "rebuilding", "rebuilt"};
    for (std::size_t i = 0; i < phases.size(); ++i) {
        EXPECT_EQ(phases[i].phase, names[i]);
        // fio stopped with SIGINT (rebuilding) says so before its JSON, in the same file.
        EXPECT_NE(phases[i].fioJson.find("\"fio version\" : \"fio-3.33\""), std::string::npos)
            << names[i];
        EXPECT_TRUE(phases[i].fioLogs.starts_with("==> drill-randrw_bw.1.log <==\n")) << names[i];
        EXPECT_NE(phases[i].fioLogs.find("==> drill-randrw_iops.1.log <=="), std::string::npos);
    }
    EXPECT_TRUE(isDrillPhaseLayout("r5@rebuilt"));

    const auto s = withDrill("layout = \"r5\"\naction = \"fail-rebuild\"\ndisk = \"dc\"\n"
                             "disks = [\"de\"]\n");
    ASSERT_TRUE(s) << s.error().message;
    auto probe = drillProbe(*s, s->layouts.front(), s->drills.front());
    ASSERT_TRUE(probe) << probe.error().message;
    const auto run = (*probe)->parse(drillOutput(*text), {}, OptionValues{});
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(metricOf(*run, "drill.fail-rebuild.failed_at"), 6.19);
    EXPECT_EQ(metricOf(*run, "drill.fail-rebuild.rebuild_at"), 13.31);
    EXPECT_EQ(metricOf(*run, "drill.fail-rebuild.whole_at"), 19.34);
    EXPECT_EQ(metricOf(*run, "drill.fail-rebuild.rebuilt_at"), 19.44);
    for (const auto& m : run->metrics)
        EXPECT_TRUE(describeMetric(m.name)) << m.name << " has no description";

    WorkloadContext ctx;
    ctx.workdir = "/srv/lb/r5";
    const auto mc = (*probe)->command(OptionValues{}, ctx);
    ASSERT_TRUE(mc) << mc.error().message;
    const auto disks = failRebuildDisks(mc->command.argvForDisplay());
    ASSERT_TRUE(disks);
    EXPECT_EQ(disks->failed, "/dev/sdc");
    EXPECT_EQ(disks->spare, "/dev/sde");
    EXPECT_FALSE(failRebuildDisks({"fio", "--name=x"}));
}

// Read back from a database as a campaign stores it: the drill, its phases' per-second series
// where the drill's course puts them, what its checks found, and the rate the projection takes.
TEST(FailRebuildDrill, ItIsReadBackForTheReportAndTheApp) {
    test::ScratchDir dir("drill");
    auto store = Store::open(dir.path("results.db"));
    ASSERT_TRUE(store) << store.error().message;
    const auto runId = test::storeDrillFixture(*store, capturedDrill);
    ASSERT_TRUE(runId) << runId.error().message;
    const auto drills = failureDrills(*store, {"raidz1", "md5"}, std::nullopt);
    ASSERT_TRUE(drills) << drills.error().message;
    ASSERT_EQ(drills->size(), 1U); // md5 has none
    const FailureDrill& d = drills->front();
    EXPECT_EQ(d.layout, "raidz1");
    EXPECT_EQ(d.runId, *runId);
    EXPECT_EQ(d.failedDisk, "/dev/vdb");
    EXPECT_EQ(d.spare, "/dev/vdd");
    EXPECT_TRUE(d.underEmulation);
    EXPECT_DOUBLE_EQ(*d.figure("rebuild_bytes"), 32.3 * 1048576);
    EXPECT_EQ(drillIntegrityText(d), "scrub: 0 errors; files: 0 filled files changed");
    ASSERT_EQ(d.phases.size(), 4U);
    const double starts[] = {0.03, 6.24, 12.26, 19.44};
    for (std::size_t i = 0; i < d.phases.size(); ++i) {
        EXPECT_EQ(d.phases[i].at, starts[i]) << d.phases[i].phase;
        std::vector<std::string> names;
        for (const auto& series : d.phases[i].series)
            names.push_back(series.name);
        EXPECT_EQ(names, (std::vector<std::string>{
                             "fio.drill-randrw.read.bw", "fio.drill-randrw.read.iops",
                             "fio.drill-randrw.write.bw", "fio.drill-randrw.write.iops"}))
            << d.phases[i].phase;
    }
    // fio's first bandwidth row of the healthy phase: 26761 KiB/s at 1.001 s.
    ASSERT_FALSE(d.phases[0].series[0].x.empty());
    EXPECT_DOUBLE_EQ(d.phases[0].series[0].x[0], 1.001);
    EXPECT_DOUBLE_EQ(d.phases[0].series[0].y[0], 26761.0 * 1024);
    const auto moments = drillMoments(d);
    ASSERT_EQ(moments.size(), 3U);
    EXPECT_EQ(moments[0], (std::pair<double, std::string>{6.19, "failed"}));
    EXPECT_EQ(moments[1], (std::pair<double, std::string>{13.31, "spare added"}));
    EXPECT_EQ(moments[2], (std::pair<double, std::string>{19.34, "whole again"}));
    EXPECT_EQ(noDrillStatement("md5"), "md5 has no fail-rebuild drill: its risk uses an assumed "
                                       "rebuild rate (100.0 MB/s, assumed; no rebuild measured), "
                                       "not a measured one.");

    // The app's projection, from the layouts it holds: the same measured rate as the store's.
    const auto layouts = store->layouts();
    ASSERT_TRUE(layouts) << layouts.error().message;
    const auto runs = store->runs();
    ASSERT_TRUE(runs) << runs.error().message;
    const auto rebuilds = measuredRebuilds(*store, *runs);
    ASSERT_TRUE(rebuilds) << rebuilds.error().message;
    ASSERT_EQ(rebuilds->size(), 1U);
    EXPECT_EQ(rebuilds->begin()->first, "raidz1");
    ProjectionAsk ask;
    ask.settings.used = "100M";
    ask.settings.growth = "10%";
    ask.stored = {"raidz1"};
    const auto fromStore = planProjection(ask, &*store);
    const auto fromRecords = planProjection(ask, *layouts, *rebuilds);
    ASSERT_TRUE(fromStore && fromRecords);
    EXPECT_EQ(fromRecords->inputs.front().risk, fromStore->inputs.front().risk);
    EXPECT_DOUBLE_EQ(*fromStore->inputs.front().risk.rebuildBytesPerSecond, 32.3 * 1048576 / 6.03);
    // Without the rebuilds the records' plan assumes the rate.
    const auto assumed = planProjection(ask, *layouts);
    ASSERT_TRUE(assumed);
    EXPECT_FALSE(assumed->inputs.front().risk.rebuildBytesPerSecond);
}

} // namespace
} // namespace lb
