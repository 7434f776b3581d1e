// A database with a fail-rebuild drill, from its captured output (see drill_store.h).
#include "tests/support/drill_store.h"

#include "engine/base/input.h"
#include "engine/build/drill.h"
#include "engine/build/layout_spec.h"
#include "engine/scenario/scenario.h"
#include "probes/registry.h"

#include <map>

namespace lb::test {

namespace {

constexpr std::uint64_t diskBytes = 128ULL << 20;

Expected<std::int64_t> storeLayout(Store& store, const Scenario& s, const ScenarioLayout& l,
                                   const std::string& name, std::int64_t host) {
    std::map<std::string, std::uint64_t> sizes;
    for (const auto& d : s.disks)
        sizes[d.device] = diskBytes;
    ScenarioLayout named = l;
    named.name = name;
    named.baseline = l.baseline && name == l.name;
    return store.ensureLayout(name, std::string(layoutKindName(l.kind)),
                              layoutSpecJson(s, named, sizes), host);
}

} // namespace

std::string drillFixtureScenario() {
    std::string text = "name = \"drill-fixture\"\nwork_dir = \"/srv/lb\"\n";
    for (int i = 0; i < 4; ++i)
        text += "[[disks]]\nname = \"d" + std::to_string(i) + "\"\ndevice = \"/dev/vd" +
                std::string(1, static_cast<char>('a' + i)) + "\"\n";
    return text + R"([[layouts]]
name = "raidz1"
kind = "zfs-raidz1"
baseline = true
disks = ["d0", "d1", "d2"]

[[layouts]]
name = "md5"
kind = "md-raid5"
disks = ["d0", "d1", "d2"]

[[workloads]]
probe = "xz"

[[drills]]
layout = "raidz1"
action = "fail-rebuild"
disk = "d1"
disks = ["d3"]
fill = 0.3
phase_seconds = 5
)";
}

Expected<std::int64_t> storeDrillFixture(Store& store, const std::string& outputFile) {
    const ProbeRegistry probes = standardProbes();
    LB_TRY(scenario, parseScenario(drillFixtureScenario(), "drill-fixture.toml", probes));
    LB_TRY(text, readInput(outputFile, documentLimit()));
    LB_TRY(host, store.ensureHost("lab"));
    const ScenarioLayout& raidz1 = scenario.layouts.at(0);
    const ScenarioDrill& drill = scenario.drills.at(0);
    LB_TRY(layoutId, storeLayout(store, scenario, raidz1, raidz1.name, host));
    LB_TRY_VOID(storeLayout(store, scenario, scenario.layouts.at(1), "md5", host));

    // The drill's run, as runDrills stores it.
    LB_TRY(probe, drillProbe(scenario, raidz1, drill));
    WorkloadContext ctx;
    ctx.workdir = "/srv/lb/raidz1";
    LB_TRY(mc, probe->command(OptionValues{}, ctx));
    ProcessResult out;
    out.exitCode = 0;
    out.stdoutText = text;
    LB_TRY(parsed, probe->parse(out, {}, OptionValues{}));
    Run run;
    run.layout = raidz1.name;
    run.workload = drill.name();
    run.probe = "drill";
    run.argv = mc.command.argvForDisplay();
    run.exitCode = 0;
    run.stdoutText = text;
    run.metrics = parsed.metrics;
    run.caveats = parsed.caveats;
    run.status = parsed.failed ? RunStatus::Failed : RunStatus::Ok;
    run.reason = parsed.failureReason;
    run.startedAt = run.finishedAt = "2026-12-07T18:20:00Z";
    LB_TRY(drillRun, store.insertRun(layoutId, run));

    // Each phase of its load, as storeLoadPhases stores it.
    const Probe* fio = probes.find("fio");
    for (const auto& phase : drillLoadPhases(text)) {
        const std::string name = drillPhaseLayout(raidz1.name, phase.phase);
        LB_TRY(phaseId, storeLayout(store, scenario, raidz1, name, host));
        ProcessResult json;
        json.stdoutText = phase.fioJson;
        std::vector<ProcessResult> logs(1);
        logs.front().stdoutText = phase.fioLogs;
        OptionValues options;
        options.set("log_avg_msec", std::int64_t{1000});
        LB_TRY(p, fio->parse(json, logs, options));
        Run r;
        r.layout = name;
        r.workload = drill.name();
        r.probe = "fio";
        r.stdoutText = phase.fioJson;
        r.metrics = p.metrics;
        r.series = p.series;
        r.toolVersion = p.toolVersion;
        r.caveats = phase.caveats;
        r.caveats.insert(r.caveats.end(), p.caveats.begin(), p.caveats.end());
        r.status = RunStatus::Ok;
        r.startedAt = r.finishedAt = run.startedAt;
        LB_TRY_VOID(store.insertRun(phaseId, r));
    }
    return drillRun;
}

} // namespace lb::test
