// One measured run of a campaign: its command built, the caches dropped, the tool run and its raw
// output stored before anything reads it, then parsed, settled and counted; and the runs a layout
// that could not be built is charged with.
#include "engine/base/size.h"
#include "engine/build/drill.h"
#include "engine/build/layout_spec.h"
#include "engine/campaign/campaign_internal.h"

#include <algorithm>
#include <chrono>
#include <sstream>

namespace lb::campaign {

std::string failureReason(const ProcessResult& r, int timeoutSeconds) {
    if (r.timedOut)
        return "timed out after " + std::to_string(timeoutSeconds) + " s";
    if (r.cancelled)
        return "stopped by the user";
    const std::string err = r.stderrText + r.stdoutText;
    const bool oom = err.find("Cannot allocate memory") != std::string::npos ||
                     err.find("Can't allocate") != std::string::npos ||
                     err.find("out of memory") != std::string::npos ||
                     err.find("Out of memory") != std::string::npos;
    const bool full = err.find("No space left on device") != std::string::npos ||
                      err.find("disk full") != std::string::npos;
    // Name the tool's own line about it, not whatever it printed last.
    auto lineWith = [&](std::initializer_list<const char*> phrases) {
        std::istringstream lines(err);
        std::string line;
        while (std::getline(lines, line))
            for (const char* phrase : phrases)
                if (line.find(phrase) != std::string::npos)
                    return line;
        return r.exitSummary();
    };
    if (oom)
        return "out of memory: " + lineWith({"allocate", "memory"});
    if (full)
        return "disk full: " + lineWith({"No space left", "disk full"});
    return r.exitSummary();
}

std::vector<std::string> runMetricGlobs(const std::vector<Metric>& metrics) {
    std::vector<std::string> out;
    for (const auto& m : metrics) {
        const auto first = m.name.find('.');
        if (first == std::string::npos)
            continue;
        const std::string family = m.name.substr(0, first);
        const bool perJob = family == "fio" || family == "iscsi" || family == "nfs";
        const auto second = perJob ? m.name.find('.', first + 1) : first;
        std::string glob = m.name.substr(0, second == std::string::npos ? first : second) + ".*";
        if (std::find(out.begin(), out.end(), glob) == out.end())
            out.push_back(std::move(glob));
    }
    return out;
}

namespace {

// Blocks smaller than the pool's records (a zvol LUN's: its volblocksize) move whole records:
// said beside the figures of the metrics each block size concerns.
void noteWholeRecords(Run& run, const ScenarioLayout& layout, const ScenarioWorkload& w,
                      const std::vector<IoBlockSize>& blocks) {
    const bool onZvol =
        w.options.text("target") == "iscsi" && layout.exported && layout.exported->lun == "zvol";
    const std::uint64_t record = onZvol ? layout.exported->volBlockBytes : layout.recordsizeBytes;
    for (const auto& block : blocks)
        if (auto note = zfsPartialRecordNote(block.bytes, record, onZvol); !note.empty()) {
            if (!block.what.empty())
                note = block.what + ": " + note;
            run.caveats.push_back(note);
            run.notes.push_back({MetricNote::Kind::Qualifies, block.metrics, note});
        }
}

} // namespace

std::vector<std::string> CampaignRunner::dropCaches(Runner& where, TargetOs os) {
    if (!scenario_.coldCache)
        return {"page cache not dropped: cache = \"warm\" in the scenario"};
    if (!scenario_.dropCaches)
        return {"page cache not dropped: drop_caches = false in the scenario"};
    (void)where.run(simple("sync", {}, 600));
    if (os == TargetOs::FreeBsd) // the host's, or a FreeBSD guest's
        return {"page cache not dropped: FreeBSD has no drop_caches; ZFS's primarycache=metadata "
                "(cache = \"cold\") keeps file data out of the ARC"};
    auto r = where.run(simple("sysctl", {"-q", "-w", "vm.drop_caches=3"}));
    if (r && r->ok())
        return {"page cache dropped before the run"};
    return {"page cache not dropped: " + (r ? trim(r->stderrText).empty()
                                                  ? "exit status " + std::to_string(r->exitCode)
                                                  : trim(r->stderrText)
                                            : r.error().message)};
}

namespace {

// A run of a layout as it begins: what it is, and what the layout's build puts on every run.
Run startingRun(std::int64_t campaignId, const BuiltLayout& built, const ScenarioWorkload& w,
                int iteration) {
    Run run;
    run.campaignId = campaignId;
    run.layout = built.layout->name;
    run.workload = w.name;
    run.probe = w.probe;
    run.iteration = iteration;
    run.caveats = built.caveats;
    run.notes = built.notes;
    run.fillLevel = built.fillLevel;
    if (built.fillLevel)
        run.fillBytes = built.fillBytes;
    return run;
}

// The run's command, as it is shown, with what the probe says of it; and, on a pool, blocks
// smaller than its records moving whole records, that beside the figures.
void addCommand(Run& run, MeasuredCommand& mc, const BuiltLayout& built,
                const ScenarioWorkload& w) {
    mc.command.timeout = std::chrono::seconds(w.timeoutSeconds);
    run.argv = mc.command.argvForDisplay();
    run.caveats.insert(run.caveats.end(), mc.caveats.begin(), mc.caveats.end());
    run.notes.insert(run.notes.end(), mc.notes.begin(), mc.notes.end());
    if (built.zfs)
        noteWholeRecords(run, *built.layout, w, mc.blockSizes);
}

// A working set that fits in memory can be served from it: the page cache for buffered I/O, the
// ARC when ZFS caches data (cache = "warm"). Said on the run's metrics.
std::optional<std::string> cacheNoteFor(const MeasuredCommand& mc, const WorkloadContext& ctx,
                                        const ScenarioWorkload& w, const BuiltLayout& built,
                                        bool coldCache) {
    if (mc.workingSetBytes && ctx.ramBytes > 0 && *mc.workingSetBytes < ctx.ramBytes &&
        (w.probe != "fio" || !ctx.directIo || (built.zfs && !coldCache)))
        return "working set " + formatBytes(*mc.workingSetBytes, true) + " fits in " +
               formatBytes(ctx.ramBytes, true) + " of memory: reads may come from cache";
    return std::nullopt;
}

void runCleanup(Runner& where, const MeasuredCommand& mc) {
    for (const auto& c : mc.cleanup)
        (void)where.run(c);
}

// Why a run whose tool did not finish well failed: in the tool's words, and the kernel's OOM
// killer where it ended the tool.
std::string failedToolReason(Runner& where, const MeasuredCommand& mc, const ProcessResult& result,
                             int timeoutSeconds) {
    std::string reason = failureReason(result, timeoutSeconds);
    if (!reason.starts_with("out of memory") && !result.timedOut) {
        if (auto oom = kernelOomKill(where, mc.command.program, result.wallSeconds))
            reason = "out of memory: the kernel's OOM killer ended it (" + *oom + "); " + reason;
    }
    return reason;
}

// On a compressing ZFS layout, what the pool made of the run's data: its dataset's compressratio
// while the run's files are still there (before the cleanup), as a note on every metric. None
// where the layout does not compress or zfs cannot say.
std::optional<MetricNote> zfsCompressRatioNote(Runner& where, const ScenarioLayout& layout) {
    if (!isZfs(layout.kind) || layout.compression.empty() || layout.compression == "off" ||
        layout.pool.empty())
        return std::nullopt;
    auto r = where.run(simple("zfs", {"get", "-Hp", "-o", "value", "compressratio", layout.pool}));
    if (!r || !r->ok())
        return std::nullopt;
    std::istringstream in(r->stdoutText);
    double ratio = 0;
    if (!(in >> ratio) || ratio <= 0)
        return std::nullopt;
    std::ostringstream text;
    text.precision(2);
    text << std::fixed << "ZFS compressratio of " << layout.pool << " after the run: " << ratio
         << "x (compression=" << layout.compression << ")";
    return MetricNote{MetricNote::Kind::Qualifies, "*", text.str()};
}

} // namespace

// The run's status and reason stored with its output, counted, and told to the app. A run that
// is not ok keeps no metrics.
Expected<void> CampaignRunner::settle(Run& run, RunStatus status, std::string reason) {
    run.status = status;
    run.reason = std::move(reason);
    if (status != RunStatus::Ok) {
        run.metrics.clear();
        run.series.clear();
    }
    LB_TRY_VOID(store_.finishRun(run));
    lastRun_[run.layout] = run.id;
    if (status != RunStatus::Aborted) {
        ++done_;
        ++result_.runs;
        if (status == RunStatus::Failed)
            ++result_.failedRuns;
    }
    CampaignProgress p{CampaignProgress::Kind::RunFinished, run.layout, run.workload,
                       run.iteration};
    p.status = status;
    p.message = run.reason;
    progress(p);
    return {};
}

// The probe's reading of a finished run: its metrics, series, caveats and notes, with the cache
// and conditioning notes on each of its metrics.
Expected<CampaignRunner::Outcome>
CampaignRunner::interpret(Run& run, const ProcessResult& result, Runner& where,
                          const MeasuredCommand& mc, const Probe& probe, const ScenarioWorkload& w,
                          const WorkloadContext& ctx, const std::optional<std::string>& cacheNote) {
    std::vector<ProcessResult> inspected;
    for (const auto& c : mc.inspect) {
        auto r = where.run(c);
        if (r)
            inspected.push_back(std::move(*r));
    }
    const auto layout = std::find_if(scenario_.layouts.begin(), scenario_.layouts.end(),
                                     [&](const ScenarioLayout& l) { return l.name == run.layout; });
    const bool known = layout != scenario_.layouts.end();
    const auto compressRatio = known ? zfsCompressRatioNote(where, *layout) : std::nullopt;
    runCleanup(where, mc);
    auto parsed = probe.parseFor(result, inspected, w.options, ctx);
    if (!parsed)
        return Outcome{RunStatus::Failed, "unreadable output: " + parsed.error().message};
    run.metrics = std::move(parsed->metrics);
    run.series = std::move(parsed->series);
    run.caveats.insert(run.caveats.end(), parsed->caveats.begin(), parsed->caveats.end());
    run.notes.insert(run.notes.end(), parsed->notes.begin(), parsed->notes.end());
    if (compressRatio)
        run.notes.push_back(*compressRatio);
    if (known)
        for (auto& n : compressionNotes(scenario_, *layout, parsed->dataCompressRatio)) {
            if (n.kind == MetricNote::Kind::Qualifies)
                run.caveats.push_back(n.text);
            run.notes.push_back(std::move(n));
        }
    const auto conditioned = conditioningNotes_.find({run.layout, w.name});
    // Reads may come from cache; writes are not served by it. One glob a job's reads
    // ("fio.job.read.*"), else the metric itself.
    if (cacheNote)
        for (const auto& m : run.metrics) {
            if (!readsData(m.name))
                continue;
            const auto read = m.name.find(".read.");
            MetricNote note{MetricNote::Kind::Qualifies,
                            read == std::string::npos ? m.name : m.name.substr(0, read) + ".read.*",
                            *cacheNote};
            if (std::find(run.notes.begin(), run.notes.end(), note) == run.notes.end())
                run.notes.push_back(std::move(note));
        }
    for (const auto& glob : runMetricGlobs(run.metrics)) {
        if (conditioned != conditioningNotes_.end())
            for (const auto& n : conditioned->second)
                run.notes.push_back({n.kind, glob, n.text});
    }
    if (parsed->failed)
        return Outcome{RunStatus::Failed, parsed->failureReason};
    return Outcome{RunStatus::Ok, ""};
}

// The run itself: its preparation, the measured command (timed for the campaign's estimate), its
// raw output stored before anything reads it, then read. The cleanup runs whatever happens.
Expected<CampaignRunner::Outcome>
CampaignRunner::execute(Run& run, Runner& where, const MeasuredCommand& mc, const Probe& probe,
                        const ScenarioWorkload& w, const WorkloadContext& ctx,
                        const std::optional<std::string>& cacheNote) {
    for (const auto& prep : mc.prepare) {
        auto r = where.run(prep);
        if (!r || !r->ok()) {
            runCleanup(where, mc);
            run.stderrText = r ? r->stderrText : r.error().message;
            (void)store_.recordRunOutput(run);
            return Outcome{RunStatus::Failed,
                           "preparing (" + prep.toUserOutput() + "): " +
                               (r ? failureReason(*r, w.timeoutSeconds) : r.error().message)};
        }
    }
    RunOptions ro = toolRunOptions();
    LineTriggers triggers(mc.localTriggers, makeLocalRunner());
    if (!triggers.empty())
        ro.onOutput = [&triggers, inner = ro.onOutput](OutputStream s, std::string_view chunk) {
            if (inner)
                inner(s, chunk);
            if (s == OutputStream::Stdout)
                triggers.feed(chunk);
        };
    const auto t0 = std::chrono::steady_clock::now();
    auto result = where.run(mc.command, ro);
    // What the commands run here on the run's lines did (a drill's pull): said with the run, and
    // with its failure where one of them did not work.
    std::string triggerTrouble;
    for (const auto& t : triggers.finish()) {
        const std::string said = t.describe();
        run.caveats.push_back("run on the workbench's machine during the run: " + said);
        if (!t.ok())
            triggerTrouble += "; " + said;
    }
    sessionSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++sessionRuns_;
    if (!result) {
        runCleanup(where, mc);
        run.stderrText = result.error().message;
        run.finishedAt = store_.now();
        (void)store_.recordRunOutput(run);
        // The connection to a guest can be what the OOM killer took.
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (auto oom = kernelOomKill(where, mc.command.program, seconds))
            return Outcome{RunStatus::Failed, "out of memory: the kernel's OOM killer ended it (" +
                                                  *oom + "); " + result.error().message};
        return Outcome{RunStatus::Failed, result.error().message + triggerTrouble};
    }
    // Record before interpreting: the raw output is safe before any parser looks at it.
    keepOutput(run, *result);
    if (w.probe == "drill")
        drillOutput_ = result->stdoutText;
    const auto& versions = &where == &runner_ ? toolVersions_ : guestToolVersions_;
    run.toolVersion = versions.count(w.probe) ? versions.at(w.probe) : "";
    LB_TRY_VOID(store_.recordRunOutput(run));
    if (result->cancelled) {
        runCleanup(where, mc);
        return Outcome{RunStatus::Aborted, "stopped by the user"};
    }
    if (!result->ok()) {
        runCleanup(where, mc);
        return Outcome{RunStatus::Failed,
                       failedToolReason(where, mc, *result, w.timeoutSeconds) + triggerTrouble};
    }
    return interpret(run, *result, where, mc, probe, w, ctx, cacheNote);
}

Expected<void> CampaignRunner::runOne(const BuiltLayout& built, const Probe* probe,
                                      const ScenarioWorkload& w, int iteration) {
    Runner& where = clients_.runnerFor(w, *probe, *built.where); // its client's, if it names one
    WorkloadContext ctx = built.ctx;
    ctx.iteration = iteration;
    ctx.layoutName = built.layout->name;
    progress({CampaignProgress::Kind::Running, built.layout->name, w.name, iteration});
    Run run = startingRun(result_.campaignId, built, w, iteration);
    auto mc = clients_.command(*probe, w, ctx);
    std::optional<std::string> cacheNote;
    if (mc) {
        addCommand(run, *mc, built, w);
        cacheNote = cacheNoteFor(*mc, ctx, w, built, scenario_.coldCache);
    }
    const auto cacheNotes = dropCaches(*built.where, ctx.os);
    run.caveats.insert(run.caveats.end(), cacheNotes.begin(), cacheNotes.end());
    run.startedAt = store_.now();
    LB_TRY(id, store_.beginRun(built.id, run));
    run.id = id;
    if (!mc)
        return settle(run, RunStatus::Failed, "cannot build the command: " + mc.error().message);
    LB_TRY(outcome, execute(run, where, *mc, *probe, w, ctx, cacheNote));
    return settle(run, outcome.status, std::move(outcome.reason));
}

// Records the layout's missing runs as failed, so the report says why they are missing.
Expected<void> CampaignRunner::failLayoutRuns(const ScenarioLayout& layout, std::int64_t layoutId,
                                              const std::string& reason, bool bracketPass) {
    result_.problems.push_back(reason);
    std::vector<std::optional<double>> levels(scenario_.fillLevels(layout).begin(),
                                              scenario_.fillLevels(layout).end());
    if (levels.empty())
        levels.emplace_back();
    for (const auto& planned : schedule_.runs)
        for (const auto& level : levels) {
            const RunKey key = keyAt(layout.name, planned.workload, planned.iteration, level);
            if (planned.layout != layout.name || planned.bracket != bracketPass ||
                settled_.count(key))
                continue;
            Run run;
            run.campaignId = result_.campaignId;
            run.workload = planned.workload;
            run.probe = "drill";
            for (const auto& w : scenario_.workloads)
                if (w.name == planned.workload)
                    run.probe = w.probe;
            run.iteration = planned.iteration;
            run.fillLevel = level;
            run.status = RunStatus::Failed;
            run.reason = "layout not built: " + reason;
            run.startedAt = run.finishedAt = store_.now();
            if (auto r = store_.insertRun(layoutId, run); !r)
                return fail(r.error());
            settled_.insert(key);
            ++done_;
            ++result_.runs;
            ++result_.failedRuns;
        }
    return {};
}

Expected<void> CampaignRunner::runIteration(BuiltLayout& built, const Round& round) {
    const int iteration = round.iteration;
    for (const auto& w : scenario_.workloads) {
        if (cancelled())
            break;
        const RunKey key = keyAt(built.layout->name, w.name, iteration, stageFill_);
        if (!round.includes(w.name) || settled_.count(key) || !runsAtStageFill(*built.layout))
            continue;
        if (auto r = runOne(built, probes_.find(w.probe), w, iteration); !r)
            return r;
        settled_.insert(key);
    }
    return {};
}

// The drills change the layout, so they come after every workload, once each, in order.
Expected<void> CampaignRunner::runDrills(BuiltLayout& built) {
    const ScenarioLayout& layout = *built.layout;
    // With fill levels, on the layout as the last level left it, and stored at that level.
    const RunKey key0 = keyAt(layout.name, "", 0, lastFillLevel(layout));
    for (const auto& d : scenario_.drills) {
        RunKey key = key0;
        key.workload = d.name();
        if (d.layout != layout.name || cancelled() || settled_.count(key))
            continue;
        ScenarioWorkload w;
        w.name = d.name();
        w.probe = "drill";
        w.timeoutSeconds = d.timeoutSeconds;
        auto probe = drillProbe(scenario_, layout, d);
        if (!probe)
            return fail(probe.error());
        drillOutput_.clear();
        if (auto r = runOne(built, probe->get(), w, 0); !r)
            return r;
        settled_.insert(key);
        LB_TRY_VOID(storeLoadPhases(built, d));
    }
    return {};
}

// A fail-rebuild drill's load, healthy, degraded, rebuilding and rebuilt: each phase a run of the
// fio probe under the layout "<layout>@<phase>", workload "drill:fail-rebuild", so `compare
// --baseline L@healthy --candidate L@degraded` puts them side by side with fio's statistics; its
// per-second logs stored as the run's series, as a preset's are, for the report's chart.
// Kept out of the layout's own name so the campaign's verdicts between layouts stay as they were.
Expected<void> CampaignRunner::storeLoadPhases(const BuiltLayout& built, const ScenarioDrill& d) {
    const Probe* fio = probes_.find("fio");
    if (d.action != DrillAction::FailRebuild || fio == nullptr)
        return {};
    const ScenarioLayout& layout = *built.layout;
    for (const auto& phase : drillLoadPhases(drillOutput_)) {
        // The layout as it was built, under the phase's name, never the baseline.
        ScenarioLayout phased = layout;
        phased.name = drillPhaseLayout(layout.name, phase.phase);
        phased.baseline = false;
        const std::string& name = phased.name;
        LB_TRY(layoutId,
               store_.ensureLayout(name, std::string(layoutKindName(layout.kind)),
                                   layoutSpecJson(scenario_, phased, deviceBytes_), hostId_));
        Run run = startingRun(result_.campaignId, built, ScenarioWorkload{}, 0);
        run.layout = name;
        run.workload = d.name();
        run.probe = "fio";
        run.stdoutText = phase.fioJson;
        run.startedAt = run.finishedAt = store_.now();
        run.caveats.push_back("fail-rebuild drill: the load " + phase.phase +
                              (phase.phase == "rebuilding" ? ", while the layout rebuilt" : "") +
                              ", one run of fio's drill-randrw job");
        run.caveats.insert(run.caveats.end(), phase.caveats.begin(), phase.caveats.end());
        ProcessResult result;
        result.stdoutText = phase.fioJson;
        std::vector<ProcessResult> logs;
        OptionValues options;
        if (!phase.fioLogs.empty()) {
            logs.push_back(ProcessResult{});
            logs.back().stdoutText = phase.fioLogs;
            options.set("log_avg_msec", std::int64_t{1000}); // the drill's script logs each second
        }
        auto parsed = fio->parse(result, logs, options);
        run.status = parsed && !parsed->failed ? RunStatus::Ok : RunStatus::Failed;
        if (!parsed) {
            run.reason = "the drill's fio output does not parse: " + parsed.error().message;
        } else {
            run.reason = parsed->failureReason;
            run.metrics = std::move(parsed->metrics);
            run.series = std::move(parsed->series);
            run.toolVersion = parsed->toolVersion;
            run.caveats.insert(run.caveats.end(), parsed->caveats.begin(), parsed->caveats.end());
            run.notes.insert(run.notes.end(), parsed->notes.begin(), parsed->notes.end());
        }
        if (run.status != RunStatus::Ok)
            run.metrics.clear();
        LB_TRY_VOID(store_.insertRun(layoutId, run));
    }
    return {};
}

} // namespace lb::campaign
