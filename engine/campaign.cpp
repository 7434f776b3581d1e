#include "engine/campaign.h"

#include "engine/campaign_lock.h"
#include "engine/clients.h"
#include "engine/drill.h"
#include "engine/export.h"
#include "engine/plan.h"
#include "engine/precondition.h"
#include "engine/safety.h"
#include "engine/schedule.h"
#include "engine/size.h"
#include "engine/ssh_runner.h"
#include "engine/utf8.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

namespace lb {

namespace {

using nlohmann::json;

Command simple(std::string program, std::vector<std::string> args, int timeoutSeconds = 60) {
    return Command::timed(std::move(program), std::move(args), std::chrono::seconds(timeoutSeconds),
                          true);
}

// Runs a small helper command; its stdout on success, nullopt otherwise.
std::optional<std::string> capture(Runner& runner, Command c) {
    auto r = runner.run(c);
    if (!r || !r->ok())
        return std::nullopt;
    return r->stdoutText;
}

std::string formatPercent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%g %%", fraction * 100.0);
    return text;
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
        s.pop_back();
    return s;
}

struct Target {
    std::uint64_t ramBytes = 0;
    bool root = false;
    json inventory;
};

// What the target is: CPU, memory, kernel, disks (lsblk), tool versions.
Target inspectTarget(Runner& runner, const Scenario& scenario, const ProbeRegistry& probes) {
    Target t;
    t.inventory["target"] = runner.target();
    if (auto meminfo = capture(runner, simple("cat", {"/proc/meminfo"}))) {
        std::istringstream in(*meminfo);
        std::string key;
        std::uint64_t kib = 0;
        std::string unit;
        while (in >> key >> kib) {
            std::getline(in, unit);
            if (key == "MemTotal:")
                t.ramBytes = kib * 1024;
            if (key == "SwapTotal:")
                t.inventory["swap_bytes"] = kib * 1024;
        }
    }
    t.inventory["ram_bytes"] = t.ramBytes;
    if (auto n = capture(runner, simple("nproc", {})))
        t.inventory["cpus"] = trim(*n);
    if (auto cpuinfo = capture(runner, simple("cat", {"/proc/cpuinfo"}))) {
        const auto pos = cpuinfo->find("model name");
        if (pos != std::string::npos) {
            const auto colon = cpuinfo->find(':', pos);
            const auto nl = cpuinfo->find('\n', colon);
            t.inventory["cpu_model"] = trim(cpuinfo->substr(colon + 2, nl - colon - 2));
        }
    }
    if (auto kernel = capture(runner, simple("uname", {"-srm"})))
        t.inventory["kernel"] = trim(*kernel);
    if (auto host = capture(runner, simple("uname", {"-n"})))
        t.inventory["hostname"] = trim(*host);
    if (auto id = capture(runner, simple("id", {"-u"})))
        t.root = trim(*id) == "0";
    t.inventory["root"] = t.root;
    if (auto lsblk = capture(runner, simple("lsblk", {"--json", "--bytes", "-o",
                                                      "NAME,PATH,MODEL,SERIAL,SIZE,ROTA,TYPE"}))) {
        auto parsed = json::parse(*lsblk, nullptr, false);
        if (!parsed.is_discarded())
            t.inventory["disks"] = parsed.value("blockdevices", json::array());
    }
    json tools = json::object();
    std::set<std::string> used;
    for (const auto& w : scenario.workloads)
        used.insert(w.probe);
    for (const auto& name : used) {
        const Probe* p = probes.find(name);
        auto r = runner.run(p->versionCommand());
        tools[name] = r ? p->parseVersion(*r) : "not installed: " + r.error().message;
    }
    if (auto zfs = capture(runner, simple("zpool", {"upgrade", "-v"})))
        tools["zpool"] = trim(zfs->substr(0, zfs->find('\n')));
    t.inventory["tools"] = tools;
    return t;
}

// What a layout is, stored with it: its kind, disks and sizes (a file's from the scenario, a
// device's as lsblk reported it), and its settings.
json layoutSpec(const Scenario& s, const ScenarioLayout& l,
                const std::map<std::string, std::uint64_t>& deviceBytes) {
    json disks = json::array(), bytes = json::array();
    for (const auto& d : l.disks) {
        disks.push_back(d);
        const ScenarioDisk* disk = s.disk(d);
        const auto it = deviceBytes.find(disk->device);
        bytes.push_back(disk->device.empty() || it == deviceBytes.end() ? disk->sizeBytes
                                                                        : it->second);
    }
    json spec{{"kind", layoutKindName(l.kind)},
              {"baseline", l.baseline},
              {"disks", disks},
              {"disk_bytes", bytes},
              {"underprovision", l.underprovision}};
    if (const auto md = l.mdKind()) {
        spec["md"] = {{"kind", layoutKindName(*md)},
                      {"device", l.mdDevice},
                      {"chunk", l.chunkBytes},
                      {"bitmap", l.bitmap ? "internal" : "none"},
                      {"assume_clean", l.assumeClean}};
        if (isMd(l.kind))
            spec["filesystem"] = l.filesystem;
    }
    if (l.guest) {
        const ScenarioGuest& g = *l.guest;
        spec["guest"] = {{"hypervisor", g.hypervisor},
                         {"layout", g.layout},
                         {"target", g.target},
                         {"accel", g.accel},
                         {"memory_bytes", g.memoryBytes},
                         {"cpus", g.cpus},
                         {"cache", g.cache},
                         {"aio", g.aio},
                         {"iothreads", g.iothreads},
                         {"bus", g.bus},
                         {"disk", g.disk}};
    }
    if (l.exported) {
        // How the layout was served to its clients; the CHAP secret never (only whether one).
        const ScenarioExport& e = *l.exported;
        json ex{{"address", e.address}};
        if (!e.iscsi.empty())
            ex["iscsi"] = {{"target", e.iscsi},           {"lun", e.lun},
                           {"lun_bytes", e.lunSizeBytes}, {"iqn", e.iqn},
                           {"portal_port", e.portalPort}, {"chap", !e.chapUser.empty()}};
        if (!e.nfs.empty())
            ex["nfs"] = {{"server", e.nfs},
                         {"options", e.nfsOptions},
                         {"versions", e.nfsVersions},
                         {"clients", e.nfsClients}};
        spec["export"] = std::move(ex);
    }
    if (l.kind == LayoutKind::Dir) {
        spec["path"] = l.path;
    } else if (isZfs(l.kind) || (l.guest && l.guest->layout.starts_with("zfs"))) {
        spec["pool"] = l.pool;
        spec["ashift"] = l.ashift;
        spec["recordsize"] = l.recordsizeBytes;
        spec["compression"] = l.compression;
        spec["atime"] = l.atime;
    }
    return spec;
}

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

// The kernel's OOM-killer line for a run that just failed, where dmesg is readable: only lines
// from the run's own time count.
std::optional<std::string> kernelOomKill(Runner& where, const std::string& program,
                                         double runSeconds) {
    const auto uptime = capture(where, simple("cat", {"/proc/uptime"}));
    const auto log = capture(where, simple("dmesg", {}));
    if (!uptime || !log)
        return std::nullopt;
    double now = 0;
    try {
        now = std::stod(*uptime);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    const auto slash = program.rfind('/');
    const double since = now - runSeconds - 5;
    if (auto own = oomKillLine(
            *log, slash == std::string::npos ? program : program.substr(slash + 1), since))
        return own;
    // Memory ran out during the run and the killer took another process (the session that ran
    // it, say): the run still died of it.
    return oomKillLine(*log, "", since);
}

struct RunKey {
    std::string layout, workload;
    int iteration;
    bool operator<(const RunKey& o) const {
        return std::tie(layout, workload, iteration) < std::tie(o.layout, o.workload, o.iteration);
    }
};

// Runs already settled (ok or failed) in a campaign; interrupted ones are marked aborted.
Expected<std::set<RunKey>> settledRuns(Store& store, std::int64_t campaignId) {
    auto& db = store.database();
    auto mark = db.prepare("UPDATE run SET status = 'aborted', reason = 'interrupted: "
                           "layoutbench stopped during this run' WHERE campaign_id = ?1 AND "
                           "status = 'running'");
    if (!mark)
        return fail(mark.error());
    if (auto r = mark->bind(1, campaignId).run(); !r)
        return fail(r.error());
    auto q = db.prepare("SELECT l.name, r.workload, r.iteration FROM run r JOIN layout l ON "
                        "l.id = r.layout_id WHERE r.campaign_id = ?1 AND r.status IN ('ok', "
                        "'failed')");
    if (!q)
        return fail(q.error());
    q->bind(1, campaignId);
    std::set<RunKey> out;
    if (auto r = q->forEachRow([&](sql::Statement& row) {
            out.insert({row.columnText(0), row.columnText(1), static_cast<int>(row.columnInt(2))});
        });
        !r)
        return fail(r.error());
    return out;
}

Expected<void> setCampaignStatus(Store& store, std::int64_t id, const std::string& status,
                                 bool finished) {
    auto q =
        store.database().prepare("UPDATE campaign SET status = ?1, finished_at = ?2 WHERE id = ?3");
    if (!q)
        return fail(q.error());
    return q->bind(1, status)
        .bind(2, finished ? std::optional<std::string>(store.now()) : std::nullopt)
        .bind(3, id)
        .run();
}

// A layout built for its runs: where they run and what they carry.
// A tool's raw output and times, kept in a run or a preconditioning step.
template <typename Record> void keepOutput(Record& into, const ProcessResult& r) {
    into.exitCode = r.exitCode;
    into.stdoutText = r.stdoutText;
    into.stderrText = r.stderrText;
    into.startedAt = r.startedAt;
    into.finishedAt = r.finishedAt;
    into.wallSeconds = r.wallSeconds;
}

struct BuiltLayout {
    const ScenarioLayout* layout = nullptr;
    std::int64_t id = 0;
    Runner* where = nullptr;
    WorkloadContext ctx;
    std::vector<std::string> caveats;
    std::vector<MetricNote> notes; // on every metric of its runs (emulation, no resync, ...)
    bool acceptsDirect = true;     // its file system takes O_DIRECT
    bool zfs = false;              // a pool, on the host or in its guest
};

// "fio.seq-read-1m.*", "bonnie.*": globs for the metrics of one run, so a remark about the run
// does not reach other workloads' metrics of the same layout.
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

class CampaignRunner {
public:
    CampaignRunner(Store& store, const Scenario& scenario, const ProbeRegistry& probes,
                   Runner& runner, const CampaignOptions& options)
        : store_(store), scenario_(scenario), probes_(probes), runner_(runner), opt_(options) {}

    Expected<CampaignResult> run();

private:
    bool cancelled() const { return opt_.cancel && opt_.cancel->load(); }
    // How a tool runs: its output to the app, stopped by the app's cancel flag, gently first.
    RunOptions toolRunOptions() const {
        RunOptions ro;
        ro.onOutput = opt_.onToolOutput;
        ro.cancel = opt_.cancel;
        ro.graceInterrupt = opt_.graceInterrupt;
        ro.graceTerminate = opt_.graceTerminate;
        return ro;
    }
    void progress(CampaignProgress p) {
        p.done = done_;
        p.total = total_;
        p.maxTotal = std::max(total_, maxTotal_);
        p.iterations = scenario_.iterations;
        p.maxIterations = schedule_.maxIterations;
        p.bracket = schedule_.bracket && p.iteration >= schedule_.bracketFirst &&
                    p.layout == scenario_.baseline().name &&
                    (p.kind == CampaignProgress::Kind::Running ||
                     p.kind == CampaignProgress::Kind::RunFinished);
        if (sessionRuns_ > 0 && done_ < total_)
            p.etaSeconds = sessionSeconds_ / static_cast<double>(sessionRuns_) *
                           static_cast<double>(total_ - done_);
        if (opt_.onProgress)
            opt_.onProgress(p);
    }
    Expected<std::int64_t> openCampaign(const Target& target);
    Expected<void> recordDisks(const json& inventory);
    Expected<void> guardDevices(const std::vector<const ScenarioLayout*>& layouts);
    Expected<std::optional<BuiltLayout>> build(const ScenarioLayout& layout, const Target& target,
                                               bool bracketPass);
    Expected<void> teardown(BuiltLayout& built);
    Expected<void> runStage(const std::vector<const ScenarioLayout*>& stage, const Target& target,
                            bool bracketPass);
    Expected<void> runIteration(BuiltLayout& built, int iteration);
    Expected<void> runDrills(BuiltLayout& built);
    bool missingRuns(const std::vector<const ScenarioLayout*>& stage, int iteration) const;
    bool stageAdaptive(const std::vector<const ScenarioLayout*>& stage, bool bracketPass) const;
    // Deciding metrics of a stage not settled yet ("layout: metric"): those more runs could still
    // settle (open) and those they could not within max_iterations (beyond).
    struct Undecided {
        std::vector<std::string> open, beyond;
    };
    Expected<Undecided> undecided(const std::vector<const ScenarioLayout*>& stage);
    Expected<std::optional<int>> nextIteration(const std::vector<const ScenarioLayout*>& stage,
                                               int first, bool adaptive);
    Expected<void> noteUndecided(const Undecided& metrics, int iterations);
    Expected<void> decideIo(std::vector<BuiltLayout>& built);
    Expected<void> failLayoutRuns(const ScenarioLayout& layout, std::int64_t layoutId,
                                  const std::string& reason, bool bracketPass);
    Expected<Runner*> guestRunner(const ScenarioLayout& layout);
    GuestRunnerFor guestRunnerFor();
    Expected<void> waitForGuest(const ScenarioLayout& layout, Runner& guest);
    Expected<void> runOne(const BuiltLayout& built, const Probe* probe, const ScenarioWorkload& w,
                          int iteration);
    std::vector<std::string> dropCaches(Runner& where);
    Expected<void> condition(const BuiltLayout& built);
    Expected<ConditioningStep> conditioningStep(const BuiltLayout& built, const Probe& probe,
                                                const ScenarioWorkload& w, MeasuredCommand mc,
                                                int round);

    Store& store_;
    const Scenario& scenario_;
    const ProbeRegistry& probes_;
    Runner& runner_;
    const CampaignOptions& opt_;
    CampaignResult result_;
    std::set<RunKey> settled_;
    std::size_t done_ = 0, total_ = 0, maxTotal_ = 0, sessionRuns_ = 0;
    double sessionSeconds_ = 0;
    std::int64_t hostId_ = 0;
    std::map<std::string, std::string> toolVersions_;      // on the host
    std::map<std::string, std::string> guestToolVersions_; // in the guest of the current layout
    std::map<std::string, std::uint64_t> deviceBytes_;     // block device path -> size (lsblk)
    std::map<std::string, std::unique_ptr<Runner>> guestRunners_; // by layout name
    ClientPlacement clients_{scenario_, runner_};
    CampaignSchedule schedule_;
    std::map<std::string, std::int64_t> lastRun_; // layout -> id of its latest run
    std::optional<CampaignIo> io_;                // decided once, for every layout
    std::vector<const ScenarioLayout*> rerun_;    // measured before the I/O path changed
    // What preconditioning and steady state say about a workload's runs on a layout, by
    // (layout, workload); on every metric of those runs.
    std::map<std::pair<std::string, std::string>, std::vector<MetricNote>> conditioningNotes_;
};

// The host's disks as lsblk reported them, one row each in the disk table.
Expected<void> CampaignRunner::recordDisks(const json& inventory) {
    auto q = store_.database().prepare(
        "INSERT INTO disk(host_id, path, model, serial, size_bytes, rotational) "
        "VALUES(?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(host_id, path) DO UPDATE SET "
        "model = excluded.model, serial = excluded.serial, size_bytes = excluded.size_bytes, "
        "rotational = excluded.rotational");
    if (!q)
        return fail(q.error());
    auto text = [](const json& d, const char* key) {
        const auto it = d.find(key);
        return it != d.end() && it->is_string() ? std::optional(it->get<std::string>())
                                                : std::nullopt;
    };
    for (const auto& d : inventory.value("disks", json::array())) {
        const auto path = text(d, "path");
        if (!path)
            continue;
        std::optional<std::int64_t> size, rota;
        if (d.contains("size") && d["size"].is_number_integer())
            size = d["size"].get<std::int64_t>();
        if (d.contains("rota") && d["rota"].is_boolean())
            rota = d["rota"].get<bool>() ? 1 : 0;
        if (auto r = q->bind(1, hostId_)
                         .bind(2, *path)
                         .bind(3, text(d, "model"))
                         .bind(4, text(d, "serial"))
                         .bind(5, size)
                         .bind(6, rota)
                         .run();
            !r)
            return r;
    }
    return {};
}

// Nothing is built on a block device unless the user named it again, and a device that holds
// anything (mounted, swap, a label, a partition table, a signature, / or /boot) also needs
// wipe = true in the scenario. Checked for every layout before the first command runs.
Expected<void> CampaignRunner::guardDevices(const std::vector<const ScenarioLayout*>& layouts) {
    std::vector<DiskDecision> decisions;
    std::set<std::string> seen;
    for (const auto* l : layouts)
        for (const auto& name : scenario_.disksTouchedBy(*l)) {
            const ScenarioDisk* d = scenario_.disk(name);
            if (d->device.empty() || !seen.insert(d->device).second)
                continue;
            auto state = inspectDisk(runner_, d->device);
            if (!state)
                return fail(state.error());
            decisions.push_back({std::move(*state), d->wipe});
        }
    if (auto r = authorizeDestruction(decisions, opt_.yesDestroy); !r)
        return r;
    std::string refused;
    for (const auto& dd : decisions) {
        const auto named = [&](const std::string& n) {
            return !n.empty() && (n == dd.disk.path || n == dd.disk.resolvedPath ||
                                  (!dd.disk.serial.empty() && n == dd.disk.serial));
        };
        if (std::none_of(opt_.yesDestroy.begin(), opt_.yesDestroy.end(), named))
            refused += (refused.empty() ? "" : "\n") + dd.disk.path +
                       ": building the layout destroys its data; name it again with "
                       "--yes-destroy " +
                       dd.disk.path;
    }
    if (!refused.empty())
        return badInput(refused);
    return {};
}

Expected<std::int64_t> CampaignRunner::openCampaign(const Target& target) {
    auto host = store_.ensureHost(target.inventory.value("hostname", std::string("local")),
                                  dumpJson(target.inventory));
    if (!host)
        return fail(host.error());
    hostId_ = *host;
    if (auto r = recordDisks(target.inventory); !r)
        return fail(r.error());
    if (opt_.resume) {
        if (auto r = setCampaignStatus(store_, *opt_.resume, "running", false); !r)
            return fail(r.error());
        return *opt_.resume;
    }
    auto q = store_.database().prepare(
        "INSERT INTO campaign(name, scenario_path, scenario, host_id, inventory, started_at, "
        "status) VALUES(?1, ?2, ?3, ?4, ?5, ?6, 'running')");
    if (!q)
        return fail(q.error());
    if (auto r = q->bind(1, scenario_.name)
                     .bind(2, scenario_.path)
                     .bind(3, scenario_.text)
                     .bind(4, hostId_)
                     .bind(5, dumpJson(target.inventory))
                     .bind(6, store_.now())
                     .run();
        !r)
        return fail(r.error());
    return store_.database().lastInsertId();
}

std::vector<std::string> CampaignRunner::dropCaches(Runner& where) {
    if (!scenario_.dropCaches)
        return {"page cache not dropped: drop_caches = false in the scenario"};
    (void)where.run(simple("sync", {}, 600));
    auto r = where.run(simple("sysctl", {"-q", "-w", "vm.drop_caches=3"}));
    if (r && r->ok())
        return {"page cache dropped before the run"};
    return {"page cache not dropped: " + (r ? trim(r->stderrText).empty()
                                                  ? "exit status " + std::to_string(r->exitCode)
                                                  : trim(r->stderrText)
                                            : r.error().message)};
}

// One preconditioning step (round 0) or steady-state round, run in the layout's directory and
// recorded with its raw output; its tracked value is none when it failed (`error` says why).
Expected<ConditioningStep> CampaignRunner::conditioningStep(const BuiltLayout& built,
                                                            const Probe& probe,
                                                            const ScenarioWorkload& w,
                                                            MeasuredCommand mc, int round) {
    Runner& where = *built.where;
    ConditioningStep step;
    step.campaignId = result_.campaignId;
    step.layoutId = built.id;
    step.workload = round == 0 ? "" : w.name;
    step.round = round;
    step.tracked = mc.steadyStateMetrics;
    step.bytes = round == 0 ? mc.workingSetBytes : std::nullopt;
    step.argv = mc.command.argvForDisplay();
    step.startedAt = store_.now();
    mc.command.timeout = std::chrono::seconds(w.timeoutSeconds);
    auto finish = [&](std::string error) -> Expected<ConditioningStep> {
        for (const auto& c : mc.cleanup)
            (void)where.run(c);
        step.error = std::move(error);
        if (step.finishedAt.empty())
            step.finishedAt = store_.now();
        auto id = store_.addConditioningStep(step);
        if (!id)
            return fail(id.error());
        step.id = *id;
        return step;
    };
    for (const auto& prep : mc.prepare) {
        auto r = where.run(prep);
        if (!r || !r->ok())
            return finish("preparing (" + prep.toUserOutput() +
                          "): " + (r ? failureReason(*r, w.timeoutSeconds) : r.error().message));
    }
    const RunOptions ro = toolRunOptions();
    auto result = where.run(mc.command, ro);
    if (!result)
        return finish(result.error().message);
    keepOutput(step, *result);
    if (result->cancelled)
        return finish("stopped by the user");
    if (!result->ok())
        return finish(failureReason(*result, w.timeoutSeconds));
    WorkloadContext ctx = built.ctx;
    ctx.layoutName = built.layout->name;
    auto parsed = probe.parseFor(*result, {}, w.options, ctx);
    if (!parsed)
        return finish("unreadable output: " + parsed.error().message);
    step.value = trackedValue(parsed->metrics, mc.steadyStateMetrics);
    if (!step.value)
        return finish("no metric matches " + mc.steadyStateMetrics);
    return finish("");
}

// SSD preconditioning before the layout's first measured run, for the workloads that ask for it
// (SNIA PTS): the workload-independent sequential writes once, then each workload's rounds until
// steady state or its round limit. A failed step leaves a note on the workload's runs, which are
// then measured without it; only the store failing stops the campaign.
Expected<void> CampaignRunner::condition(const BuiltLayout& built) {
    const ScenarioLayout& layout = *built.layout;
    struct Item {
        const ScenarioWorkload* workload;
        const Probe* probe;
        Preconditioning p;
    };
    std::vector<Item> items;
    std::vector<Preconditioning> asked;
    for (const auto& w : scenario_.workloads) {
        auto& notes = conditioningNotes_[{layout.name, w.name}];
        notes.clear();
        const Probe* probe = probes_.find(w.probe);
        std::string skipped;
        if (auto p = preconditioningFor(layout, w, *probe, &skipped)) {
            items.push_back({&w, probe, *p});
            asked.push_back(*p);
        } else if (!skipped.empty()) {
            notes.push_back({MetricNote::Kind::Method, "", "not preconditioned: " + skipped});
        }
    }
    if (items.empty() || cancelled())
        return {};
    auto noteAll = [&](MetricNote::Kind kind, const std::string& text) {
        for (const auto& item : items)
            conditioningNotes_[{layout.name, item.workload->name}].push_back({kind, "", text});
    };

    std::uint64_t freeBytes = 0;
    if (auto df = capture(*built.where, simple("df", {"-B1", "--output=avail", built.ctx.workdir})))
        freeBytes = parseDfAvailable(*df).value_or(0);
    const std::uint64_t bytes = preconditionBytes(asked, layout, freeBytes);
    const Item& first = items.front();
    auto mc = first.probe->preconditionCommand(first.workload->options, built.ctx, bytes);
    if (!mc) {
        noteAll(MetricNote::Kind::Qualifies, "not preconditioned: " + mc.error().message + " (" +
                                                 formatBytes(freeBytes, true) + " free)");
        return {};
    }
    CampaignProgress p{CampaignProgress::Kind::Message, layout.name};
    p.message = "preconditioning '" + layout.name + "': sequential 128 KiB writes, twice " +
                formatBytes(bytes, true);
    progress(p);
    auto step = conditioningStep(built, *first.probe, *first.workload, std::move(*mc), 0);
    if (!step)
        return fail(step.error());
    if (!step->error.empty()) {
        noteAll(MetricNote::Kind::Qualifies,
                "SNIA preconditioning failed, measured without it: " + step->error);
        return {};
    }

    for (const auto& item : items) {
        const ScenarioWorkload& w = *item.workload;
        auto& notes = conditioningNotes_[{layout.name, w.name}];
        std::vector<double> values;
        SteadyStateCheck check;
        std::string tracked;
        for (int round = 1; round <= item.p.maxRounds && !cancelled(); ++round) {
            WorkloadContext ctx = built.ctx;
            ctx.layoutName = layout.name;
            auto rmc = item.probe->steadyStateRound(w.options, ctx, item.p.roundSeconds);
            if (!rmc) {
                notes.push_back({MetricNote::Kind::Qualifies, "",
                                 "no steady-state rounds: " + rmc.error().message});
                break;
            }
            tracked = rmc->steadyStateMetrics;
            auto r = conditioningStep(built, *item.probe, w, std::move(*rmc), round);
            if (!r)
                return fail(r.error());
            if (!r->error.empty()) {
                notes.push_back({MetricNote::Kind::Qualifies, "",
                                 "steady-state round " + std::to_string(round) +
                                     " failed, measured without steady state: " + r->error});
                values.clear();
                break;
            }
            values.push_back(*r->value);
            check = checkSteadyState(values);
            CampaignProgress rp{CampaignProgress::Kind::Message, layout.name, w.name};
            rp.message = "steady state of " + w.name + " on '" + layout.name + "': round " +
                         std::to_string(round) + ", " + tracked + " = " +
                         std::to_string(*r->value) + (check.reached ? ", steady" : "");
            progress(rp);
            if (check.reached)
                break;
        }
        if (!values.empty() && !cancelled())
            notes.push_back(steadyStateNote(check, values, item.p, bytes, tracked));
    }
    return {};
}

Expected<void> CampaignRunner::runOne(const BuiltLayout& built, const Probe* probe,
                                      const ScenarioWorkload& w, int iteration) {
    Runner& layoutRunner = *built.where;
    const ScenarioLayout& layout = *built.layout;
    const std::int64_t layoutId = built.id;
    Runner& where = clients_.runnerFor(w, *probe, layoutRunner); // its client's, if it names one
    WorkloadContext ctx = built.ctx;
    ctx.iteration = iteration;
    ctx.layoutName = layout.name;
    progress({CampaignProgress::Kind::Running, layout.name, w.name, iteration});

    Run run;
    run.campaignId = result_.campaignId;
    run.layout = layout.name;
    run.workload = w.name;
    run.probe = w.probe;
    run.iteration = iteration;
    run.caveats = built.caveats;
    run.notes = built.notes;

    auto mc = clients_.command(*probe, w, ctx);
    if (mc) {
        mc->command.timeout = std::chrono::seconds(w.timeoutSeconds);
        run.argv = mc->command.argvForDisplay();
        run.caveats.insert(run.caveats.end(), mc->caveats.begin(), mc->caveats.end());
        run.notes.insert(run.notes.end(), mc->notes.begin(), mc->notes.end());
    }
    // A working set that fits in memory can be served from it: the page cache for buffered I/O,
    // the ARC when ZFS caches data (cache = "warm").
    std::optional<std::string> cacheNote;
    if (mc && mc->workingSetBytes && ctx.ramBytes > 0 && *mc->workingSetBytes < ctx.ramBytes &&
        (w.probe != "fio" || !ctx.directIo || (built.zfs && !scenario_.coldCache)))
        cacheNote = "working set " + formatBytes(*mc->workingSetBytes, true) + " fits in " +
                    formatBytes(ctx.ramBytes, true) + " of memory: reads may come from cache";
    const auto cacheNotes = dropCaches(layoutRunner);
    run.caveats.insert(run.caveats.end(), cacheNotes.begin(), cacheNotes.end());
    run.startedAt = store_.now();
    auto id = store_.beginRun(layoutId, run);
    if (!id)
        return fail(id.error());
    run.id = *id;

    auto settle = [&](RunStatus status, std::string reason) -> Expected<void> {
        run.status = status;
        run.reason = std::move(reason);
        if (status != RunStatus::Ok)
            run.metrics.clear();
        if (auto r = store_.finishRun(run); !r)
            return r;
        lastRun_[layout.name] = run.id;
        if (status != RunStatus::Aborted) {
            ++done_;
            ++result_.runs;
            if (status == RunStatus::Failed)
                ++result_.failedRuns;
        }
        CampaignProgress p{CampaignProgress::Kind::RunFinished, layout.name, w.name, iteration};
        p.status = status;
        p.message = run.reason;
        progress(p);
        return {};
    };

    if (!mc)
        return settle(RunStatus::Failed, "cannot build the command: " + mc.error().message);
    auto cleanup = [&]() {
        for (const auto& c : mc->cleanup)
            (void)where.run(c);
    };
    for (const auto& prep : mc->prepare) {
        auto r = where.run(prep);
        if (!r || !r->ok()) {
            cleanup();
            run.stderrText = r ? r->stderrText : r.error().message;
            (void)store_.recordRunOutput(run);
            return settle(RunStatus::Failed,
                          "preparing (" + prep.toUserOutput() + "): " +
                              (r ? failureReason(*r, w.timeoutSeconds) : r.error().message));
        }
    }

    const RunOptions ro = toolRunOptions();
    const auto t0 = std::chrono::steady_clock::now();
    auto result = where.run(mc->command, ro);
    sessionSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++sessionRuns_;
    if (!result) {
        cleanup();
        run.stderrText = result.error().message;
        run.finishedAt = store_.now();
        (void)store_.recordRunOutput(run);
        // The connection to a guest can be what the OOM killer took.
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (auto oom = kernelOomKill(where, mc->command.program, seconds))
            return settle(RunStatus::Failed, "out of memory: the kernel's OOM killer ended it (" +
                                                 *oom + "); " + result.error().message);
        return settle(RunStatus::Failed, result.error().message);
    }
    // Record before interpreting: the raw output is safe before any parser looks at it.
    keepOutput(run, *result);
    const auto& versions = &where == &runner_ ? toolVersions_ : guestToolVersions_;
    run.toolVersion = versions.count(w.probe) ? versions.at(w.probe) : "";
    if (auto r = store_.recordRunOutput(run); !r)
        return r;

    if (result->cancelled) {
        cleanup();
        return settle(RunStatus::Aborted, "stopped by the user");
    }
    if (!result->ok()) {
        cleanup();
        std::string reason = failureReason(*result, w.timeoutSeconds);
        if (!reason.starts_with("out of memory") && !result->timedOut) {
            if (auto oom = kernelOomKill(where, mc->command.program, result->wallSeconds))
                reason =
                    "out of memory: the kernel's OOM killer ended it (" + *oom + "); " + reason;
        }
        return settle(RunStatus::Failed, reason);
    }
    std::vector<ProcessResult> inspected;
    for (const auto& c : mc->inspect) {
        auto r = where.run(c);
        if (r)
            inspected.push_back(std::move(*r));
    }
    cleanup();
    auto parsed = probe->parseFor(*result, inspected, w.options, ctx);
    if (!parsed)
        return settle(RunStatus::Failed, "unreadable output: " + parsed.error().message);
    run.metrics = std::move(parsed->metrics);
    run.caveats.insert(run.caveats.end(), parsed->caveats.begin(), parsed->caveats.end());
    run.notes.insert(run.notes.end(), parsed->notes.begin(), parsed->notes.end());
    const auto globs = runMetricGlobs(run.metrics);
    for (const auto& glob : globs) {
        if (cacheNote)
            run.notes.push_back({MetricNote::Kind::Qualifies, glob, *cacheNote});
        const auto conditioned = conditioningNotes_.find({layout.name, w.name});
        if (conditioned != conditioningNotes_.end())
            for (const auto& n : conditioned->second)
                run.notes.push_back({n.kind, glob, n.text});
    }
    if (parsed->failed)
        return settle(RunStatus::Failed, parsed->failureReason);
    return settle(RunStatus::Ok, "");
}

// Records the layout's missing runs as failed, so the report says why they are missing.
Expected<void> CampaignRunner::failLayoutRuns(const ScenarioLayout& layout, std::int64_t layoutId,
                                              const std::string& reason, bool bracketPass) {
    result_.problems.push_back(reason);
    for (const auto& planned : schedule_.runs) {
        if (planned.layout != layout.name || planned.bracket != bracketPass ||
            settled_.count({layout.name, planned.workload, planned.iteration}))
            continue;
        Run run;
        run.campaignId = result_.campaignId;
        run.workload = planned.workload;
        run.probe = "drill";
        for (const auto& w : scenario_.workloads)
            if (w.name == planned.workload)
                run.probe = w.probe;
        run.iteration = planned.iteration;
        run.status = RunStatus::Failed;
        run.reason = "layout not built: " + reason;
        run.startedAt = run.finishedAt = store_.now();
        if (auto r = store_.insertRun(layoutId, run); !r)
            return fail(r.error());
        settled_.insert({layout.name, planned.workload, planned.iteration});
        ++done_;
        ++result_.runs;
        ++result_.failedRuns;
    }
    return {};
}

// The runner inside a guest layout's virtual machine (made once per layout).
Expected<Runner*> CampaignRunner::guestRunner(const ScenarioLayout& layout) {
    if (auto it = guestRunners_.find(layout.name); it != guestRunners_.end())
        return it->second.get();
    const ScenarioGuest& g = *layout.guest;
    auto r = makeRunnerFor(g.target, g.identity, g.knownHosts);
    if (!r)
        return fail(r.error());
    return (guestRunners_[layout.name] = std::move(*r)).get();
}

GuestRunnerFor CampaignRunner::guestRunnerFor() {
    return [this](std::int64_t layoutId) -> Runner* {
        for (const auto& l : scenario_.layouts) {
            if (!l.guest)
                continue;
            auto rec = store_.findLayout(l.name);
            if (rec && *rec && (*rec)->id == layoutId) {
                auto r = guestRunner(l);
                return r ? *r : nullptr;
            }
        }
        return nullptr;
    };
}

// Waits until the guest answers over SSH: a booting VM (TCG emulation takes a while).
Expected<void> CampaignRunner::waitForGuest(const ScenarioLayout& layout, Runner& guest) {
    const auto deadline = std::chrono::steady_clock::now() + opt_.guestBootTimeout;
    std::string last;
    while (!cancelled()) {
        auto r = guest.run(simple("true", {}, 30));
        if (r && r->ok())
            return {};
        last =
            r ? trim(r->stderrText.empty() ? r->exitSummary() : r->stderrText) : r.error().message;
        if (std::chrono::steady_clock::now() >= deadline)
            break;
        std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return runtimeError("guest of layout '" + layout.name + "' (" + layout.guest->target +
                        ") did not answer over SSH within " +
                        std::to_string(opt_.guestBootTimeout.count()) + " s: " + last);
}

// What a guest's runs carry: how the VM was set up, and its memory as the guest sees it.
std::vector<std::string> guestCaveats(const ScenarioLayout& layout, Runner& guest) {
    const ScenarioGuest& g = *layout.guest;
    std::vector<std::string> out;
    bool tcg = g.hypervisor == "qemu" && g.accel == "tcg";
    if (g.hypervisor == "qemu" && g.accel == "auto") {
        // Linux says "Hypervisor detected: KVM" when it runs under KVM; under TCG it does not.
        const auto log = capture(guest, simple("dmesg", {}));
        tcg = !log || log->find("Hypervisor detected: KVM") == std::string::npos;
        if (tcg)
            out.push_back("KVM was not available to qemu: it fell back to TCG");
    }
    if (tcg)
        out.push_back("TCG: the guest ran under qemu's software emulation (no KVM); this measures "
                      "emulation, not virtualization, and says little about a real hypervisor");
    std::string setup = "guest: " + g.hypervisor;
    if (g.hypervisor == "qemu")
        setup += " (" + g.accel + ", " + std::to_string(g.cpus) + " vCPU)";
    setup += ", disk " + std::string(g.bus == "scsi" ? "virtio-scsi" : "virtio-blk") +
             " cache=" + g.cache + " aio=" + g.aio + " iothreads=" + std::to_string(g.iothreads) +
             ", " + g.layout + " inside on " + g.disk;
    if (auto meminfo = capture(guest, simple("cat", {"/proc/meminfo"}))) {
        std::istringstream in(*meminfo);
        std::string key, unit;
        std::uint64_t kib = 0;
        std::uint64_t mem = 0, swap = 0;
        while (in >> key >> kib) {
            std::getline(in, unit);
            if (key == "MemTotal:")
                mem = kib;
            if (key == "SwapTotal:")
                swap = kib;
        }
        setup += "; memory " + std::to_string(mem / 1024) + " MiB, swap " +
                 (swap ? std::to_string(swap / 1024) + " MiB" : std::string("none"));
    }
    out.push_back(setup);
    return out;
}

// Builds a layout (host plan, and for a guest its VM and the inside plan) and works out where and
// how its runs go. None when the build failed: its runs of this pass are then recorded as failed.
Expected<std::optional<BuiltLayout>> CampaignRunner::build(const ScenarioLayout& layout,
                                                           const Target& target, bool bracketPass) {
    auto layoutId =
        store_.ensureLayout(layout.name, std::string(layoutKindName(layout.kind)),
                            dumpJson(layoutSpec(scenario_, layout, deviceBytes_)), hostId_);
    if (!layoutId)
        return fail(layoutId.error());
    BuiltLayout built;
    built.layout = &layout;
    built.id = *layoutId;
    built.where = &runner_;
    progress({CampaignProgress::Kind::Building, layout.name});
    auto notBuilt = [&](const std::string& reason) -> Expected<std::optional<BuiltLayout>> {
        if (auto r = failLayoutRuns(layout, built.id, reason, bracketPass); !r)
            return fail(r.error());
        return std::optional<BuiltLayout>{};
    };
    std::string workdir;
    if (layout.kind == LayoutKind::Guest) {
        auto plans = planGuestLayout(scenario_, layout, deviceBytes_);
        if (!plans)
            return fail(plans.error());
        if (auto applied = applyPlan(store_, runner_, result_.campaignId, built.id, plans->host);
            !applied)
            return notBuilt(applied.error().message);
        auto guest = guestRunner(layout);
        Expected<void> ready = guest ? waitForGuest(layout, **guest) : fail(guest.error());
        if (ready) {
            if (auto applied =
                    applyPlan(store_, **guest, result_.campaignId, built.id, plans->guest);
                !applied)
                ready = fail(applied.error());
        }
        if (!ready) {
            if (auto r = teardown(built); !r)
                return fail(r.error());
            return notBuilt(ready.error().message);
        }
        built.where = *guest;
        workdir = plans->guest.workdir;
        built.caveats = guestCaveats(layout, *built.where);
        for (const auto& c : built.caveats)
            if (c.starts_with("TCG"))
                built.notes.push_back({MetricNote::Kind::Qualifies, "*", c});
    } else {
        auto plan = planLayout(scenario_, layout, deviceBytes_);
        if (!plan)
            return fail(plan.error());
        if (auto applied = applyPlan(store_, runner_, result_.campaignId, built.id, *plan);
            !applied)
            return notBuilt(applied.error().message);
        workdir = plan->workdir;
    }

    WorkloadContext& ctx = built.ctx;
    ctx.workdir = workdir;
    ctx.ramBytes = target.ramBytes;
    ctx.root = target.root;
    ctx.exported = exportTarget(layout, workdir);
    if (built.where != &runner_) {
        // The guest's memory is what bonnie++ must exceed, and its tools are the ones that run.
        const Target inside = inspectTarget(*built.where, scenario_, probes_);
        ctx.ramBytes = inside.ramBytes;
        ctx.root = inside.root;
        guestToolVersions_.clear();
        for (const auto& [name, version] : inside.inventory["tools"].items())
            guestToolVersions_[name] = version.get<std::string>();
    }
    // Whether it takes O_DIRECT; the campaign then picks one path for every layout (decideIo).
    const std::string probeFile = workdir + "/.lb-odirect-probe";
    auto direct = built.where->run(simple("dd", {"if=/dev/zero", "of=" + probeFile, "bs=4096",
                                                 "count=1", "oflag=direct", "status=none"}));
    built.acceptsDirect = direct && direct->ok();
    (void)built.where->run(simple("rm", {"-f", "--", probeFile}));
    built.zfs = isZfs(layout.kind) || (layout.guest && layout.guest->layout.starts_with("zfs"));
    if (built.zfs)
        built.caveats.push_back(scenario_.coldCache
                                    ? "ZFS primarycache=metadata (cache = \"cold\"): the ARC "
                                      "keeps no file data, reads come from the vdevs"
                                    : "ZFS primarycache=all (cache = \"warm\"): reads can come "
                                      "from the ARC; dropping the page cache does not empty it");
    if (built.zfs && !scenario_.coldCache)
        built.notes.push_back({MetricNote::Kind::Qualifies, "*",
                               "cache = \"warm\": ZFS reads can come from the ARC"});
    if (layout.mdKind() && layout.assumeClean) {
        const std::string text = "md array created with --assume-clean: no initial resync, "
                                 "parity not verified before the runs";
        built.caveats.push_back(text);
        built.notes.push_back({MetricNote::Kind::Qualifies, "*", text});
    }
    return std::optional<BuiltLayout>{std::move(built)};
}

Expected<void> CampaignRunner::teardown(BuiltLayout& built) {
    progress({CampaignProgress::Kind::TearingDown, built.layout->name});
    auto undone = undoApplied(store_, runner_, result_.campaignId, built.id, guestRunnerFor());
    if (!undone)
        return fail(undone.error());
    for (const auto& p : *undone)
        result_.problems.push_back("teardown of '" + built.layout->name + "': " + p);
    return {};
}

Expected<void> CampaignRunner::runIteration(BuiltLayout& built, int iteration) {
    for (const auto& w : scenario_.workloads) {
        if (cancelled())
            break;
        if (settled_.count({built.layout->name, w.name, iteration}))
            continue;
        if (auto r = runOne(built, probes_.find(w.probe), w, iteration); !r)
            return r;
        settled_.insert({built.layout->name, w.name, iteration});
    }
    return {};
}

// The drills change the layout, so they come after every workload, once each, in order.
Expected<void> CampaignRunner::runDrills(BuiltLayout& built) {
    const ScenarioLayout& layout = *built.layout;
    for (const auto& d : scenario_.drills) {
        if (d.layout != layout.name || cancelled() || settled_.count({layout.name, d.name(), 0}))
            continue;
        ScenarioWorkload w;
        w.name = d.name();
        w.probe = "drill";
        w.timeoutSeconds = d.timeoutSeconds;
        auto probe = drillProbe(scenario_, layout, d);
        if (!probe)
            return fail(probe.error());
        if (auto r = runOne(built, probe->get(), w, 0); !r)
            return r;
        settled_.insert({layout.name, d.name(), 0});
    }
    return {};
}

bool CampaignRunner::missingRuns(const std::vector<const ScenarioLayout*>& stage,
                                 int iteration) const {
    for (const auto* l : stage)
        for (const auto& w : scenario_.workloads)
            if (!settled_.count({l->name, w.name, iteration}))
                return true;
    return false;
}

// Whether a stage adds iterations beyond the minimum: with iterations = "auto", every stage that
// holds a candidate (its verdict can become confident), and with `until` every stage (a layout's
// own spread). Never the bracketing pass: it measures drift.
bool CampaignRunner::stageAdaptive(const std::vector<const ScenarioLayout*>& stage,
                                   bool bracketPass) const {
    if (!scenario_.adaptive() || bracketPass)
        return false;
    return scenario_.untilCv ||
           std::any_of(stage.begin(), stage.end(), [](const auto* l) { return !l->baseline; });
}

// The deciding metrics that keep a stage going: not confident against the baseline (or, with
// `until`, spread more than it allows on a layout of the stage). No open one: the stage may stop.
// A metric whose interval could not fit in its band even with max_iterations runs of the same
// spread (its ratio too near a band's edge) does not keep the stage going: running to the
// maximum would cost the time and leave it undecided all the same.
Expected<CampaignRunner::Undecided>
CampaignRunner::undecided(const std::vector<const ScenarioLayout*>& stage) {
    Undecided out;
    const ComparePolicy policy = scenario_.policy();
    const std::string& base = scenario_.baseline().name;
    for (const auto* l : stage) {
        if (scenario_.untilCv) {
            auto samples = store_.layoutSamples(l->name, result_.campaignId);
            if (!samples)
                return fail(samples.error());
            for (const auto& m : samples->metrics)
                if (decidesUnder(policy, m.name) && m.values.size() >= 2 &&
                    coefficientOfVariation(m.values) > *scenario_.untilCv)
                    out.open.push_back(l->name + ": " + m.name);
            continue;
        }
        if (l->baseline)
            continue;
        auto cmp = compareStoredLayouts(store_, base, l->name, policy, result_.campaignId);
        if (!cmp) {
            if (cmp.error().kind == ErrorKind::BadInput)
                continue; // nothing measured on both yet (failed runs): more runs will not help
            return fail(cmp.error());
        }
        const auto maxRuns = static_cast<std::size_t>(schedule_.maxIterations);
        for (const auto& m : cmp->metrics)
            if (m.decisive && !m.confident)
                (couldBecomeConfident(m, policy.thresholds, maxRuns) ? out.open : out.beyond)
                    .push_back(l->name + ": " + m.name);
    }
    return out;
}

// The next iteration a stage runs, counting from `first`: the missing runs of the minimum, then
// (adaptive) one more while a deciding metric is undecided, up to the maximum.
Expected<std::optional<int>>
CampaignRunner::nextIteration(const std::vector<const ScenarioLayout*>& stage, int first,
                              bool adaptive) {
    const int minimum = schedule_.minIterations;
    const int maximum = adaptive ? schedule_.maxIterations : minimum;
    for (int n = 0; n < maximum; ++n) {
        if (n < minimum) {
            if (missingRuns(stage, first + n))
                return std::optional<int>{first + n};
            continue;
        }
        auto open = undecided(stage);
        if (!open)
            return fail(open.error());
        if (open->open.empty())
            return std::optional<int>{};
        if (missingRuns(stage, first + n))
            return std::optional<int>{first + n};
    }
    return std::optional<int>{};
}

// An adaptive stage that stopped undecided says so on the metrics it could not settle: at
// max_iterations, or earlier for those no number of runs up to it could settle.
Expected<void> CampaignRunner::noteUndecided(const Undecided& metrics, int iterations) {
    const std::string after = " after " + std::to_string(iterations) + " iterations";
    const std::string open = scenario_.untilCv
                                 ? "still spread more than " + formatPercent(*scenario_.untilCv) +
                                       after + " (max_iterations)"
                                 : "not confident" + after + " (max_iterations)";
    const std::string beyond =
        "not confident" + after + ", and " + std::to_string(schedule_.maxIterations) +
        " (max_iterations) could not make it so: its ratio lies too near a band's edge for "
        "its spread";
    for (const auto* list : {&metrics.open, &metrics.beyond})
        for (const auto& entry : *list) {
            const auto colon = entry.find(": ");
            const auto last = lastRun_.find(entry.substr(0, colon));
            if (last == lastRun_.end())
                continue;
            MetricNote note{MetricNote::Kind::Qualifies, entry.substr(colon + 2),
                            list == &metrics.open ? open : beyond};
            if (auto r = store_.addRunNote(last->second, note); !r)
                return r;
        }
    return {};
}

// One I/O path for every layout: direct where all take O_DIRECT, else buffered on all (with the
// cache defeated by cache = "cold"), so no comparison sets direct against buffered I/O. Layouts
// built one after the other are found out one by one: when a later one refuses O_DIRECT, the fio
// runs measured with direct I/O so far are superseded and run again, buffered.
Expected<void> CampaignRunner::decideIo(std::vector<BuiltLayout>& built) {
    const auto refusing = std::find_if(built.begin(), built.end(),
                                       [](const BuiltLayout& b) { return !b.acceptsDirect; });
    std::optional<CampaignIo> decided;
    if (!io_) {
        if (scenario_.io == Scenario::IoPath::Direct)
            decided = CampaignIo{true, "io = \"direct\" in the scenario", true};
        else if (scenario_.io == Scenario::IoPath::Buffered)
            decided = CampaignIo{false, "io = \"buffered\" in the scenario"};
        else if (refusing != built.end())
            decided = CampaignIo{false, "layout '" + refusing->layout->name +
                                            "' does not accept O_DIRECT"};
        else
            decided = CampaignIo{true, "every layout accepts O_DIRECT"};
    } else if (io_->direct && scenario_.io == Scenario::IoPath::Auto && refusing != built.end()) {
        decided =
            CampaignIo{false, "layout '" + refusing->layout->name + "' does not accept O_DIRECT"};
        auto n = store_.supersedeRuns(result_.campaignId, "fio",
                                      "superseded: measured with direct I/O before " +
                                          decided->why + "; run again buffered");
        if (!n)
            return fail(n.error());
        auto settled = settledRuns(store_, result_.campaignId);
        if (!settled)
            return fail(settled.error());
        done_ -= std::min(done_, *n);
        for (const auto& key : settled_)
            if (!settled->count(key))
                for (const auto& l : scenario_.layouts)
                    if (l.name == key.layout &&
                        std::find(rerun_.begin(), rerun_.end(), &l) == rerun_.end() &&
                        std::none_of(built.begin(), built.end(),
                                     [&](const BuiltLayout& b) { return b.layout == &l; }))
                        rerun_.push_back(&l);
        settled_ = std::move(*settled);
    }
    if (decided) {
        decided->coldCache = scenario_.coldCache;
        io_ = decided;
        if (auto r = store_.setCampaignIo(result_.campaignId, *io_); !r)
            return r;
        CampaignProgress p{CampaignProgress::Kind::Message};
        p.message = "measuring " + describeCampaignIo(*io_);
        progress(p);
    }
    for (auto& b : built)
        b.ctx.directIo = io_->direct;
    return {};
}

// Builds the stage's layouts, runs their iterations in turn (each round starting with another
// layout), the bracketing runs and drills, and tears them down, newest first.
Expected<void> CampaignRunner::runStage(const std::vector<const ScenarioLayout*>& stage,
                                        const Target& target, bool bracketPass) {
    const int first = bracketPass ? schedule_.bracketFirst : 0;
    const bool adaptive = stageAdaptive(stage, bracketPass);
    const bool interleavedBracket = schedule_.interleaved && schedule_.bracket;
    const bool drillsHere = !(schedule_.bracket && !schedule_.interleaved && !bracketPass &&
                              stage.size() == 1 && stage.front()->baseline);
    auto next = nextIteration(stage, first, adaptive);
    if (!next)
        return fail(next.error());
    bool work = next->has_value();
    for (const auto* l : stage) {
        if (drillsHere)
            for (const auto& d : scenario_.drills)
                work = work || (d.layout == l->name && !settled_.count({l->name, d.name(), 0}));
        if (interleavedBracket && l->baseline)
            for (int i = 0; i < schedule_.bracketRuns; ++i)
                work = work || missingRuns({l}, schedule_.bracketFirst + i);
    }
    if (!work)
        return {};

    std::vector<BuiltLayout> built;
    Expected<void> outcome;
    auto tearAll = [&]() -> Expected<void> {
        for (auto it = built.rbegin(); it != built.rend(); ++it)
            if (auto r = teardown(*it); !r)
                return r;
        return {};
    };
    for (const auto* l : stage) {
        if (cancelled())
            break;
        auto b = build(*l, target, bracketPass);
        if (!b) {
            (void)tearAll();
            return fail(b.error());
        }
        if (*b)
            built.push_back(std::move(**b));
    }
    if (auto r = decideIo(built); !r) {
        (void)tearAll();
        return r;
    }
    for (const auto& b : built) {
        if (cancelled())
            break;
        if (auto r = condition(b); !r) {
            (void)tearAll();
            return r;
        }
    }
    int done = 0;
    while (outcome && !cancelled() && *next) {
        const int i = **next;
        if (i - first >= schedule_.minIterations) {
            // An adaptive iteration: the campaign grows by one round of this stage.
            total_ += built.size() * scenario_.workloads.size();
        }
        for (std::size_t k = 0; k < built.size() && outcome; ++k)
            outcome = runIteration(built[(k + static_cast<std::size_t>(i)) % built.size()], i);
        done = i - first + 1;
        if (!outcome)
            break;
        next = nextIteration(stage, first, adaptive);
        if (!next)
            outcome = fail(next.error());
    }
    if (outcome && adaptive && !cancelled()) {
        auto open = undecided(stage);
        if (!open)
            outcome = fail(open.error());
        else if (done < schedule_.maxIterations)
            open->open.clear(); // stopped because every open metric settled
        if (outcome)
            outcome = noteUndecided(*open, done);
    }
    for (auto& b : built) {
        if (!outcome || cancelled())
            break;
        if (interleavedBracket && b.layout->baseline)
            for (int i = 0; i < schedule_.bracketRuns && outcome; ++i)
                outcome = runIteration(b, schedule_.bracketFirst + i);
    }
    for (auto& b : built)
        if (outcome && drillsHere)
            outcome = runDrills(b);
    if (auto r = tearAll(); !r && outcome)
        outcome = r;
    return outcome;
}

Expected<CampaignResult> CampaignRunner::run() {
    const Target target = inspectTarget(runner_, scenario_, probes_);
    // Block device sizes from lsblk (children included): partitions are cut to a fraction.
    std::function<void(const json&)> sizes = [&](const json& devs) {
        for (const auto& dev : devs) {
            if (dev.contains("path") && dev["path"].is_string() && dev.contains("size") &&
                dev["size"].is_number_unsigned())
                deviceBytes_[dev["path"].get<std::string>()] = dev["size"].get<std::uint64_t>();
            if (dev.contains("children"))
                sizes(dev["children"]);
        }
    };
    sizes(target.inventory.value("disks", json::array()));
    for (const auto& [name, version] : target.inventory["tools"].items())
        toolVersions_[name] = version.get<std::string>();
    // One process at a time works on a campaign (a cleanup must not tear down under it); held
    // until the campaign ends. A resume takes it before it marks the campaign running again.
    std::optional<ProcessLock> lock;
    const auto take = [&](std::int64_t campaignId) -> Expected<void> {
        auto l = acquireCampaignLock(store_.path(), campaignId);
        if (!l)
            return fail(l.error());
        lock.emplace(std::move(*l));
        return {};
    };
    if (opt_.resume)
        if (auto r = take(*opt_.resume); !r)
            return fail(r.error());
    auto id = openCampaign(target);
    if (!id)
        return fail(id.error());
    if (!lock)
        if (auto r = take(*id); !r)
            return fail(r.error());
    result_.campaignId = *id;
    if (auto r = store_.setCampaignPolicy(*id, scenario_.policy()); !r)
        return fail(r.error());

    // A crash may have left layouts half-built: undo what the journal shows, newest first.
    auto recovered = undoApplied(store_, runner_, *id, std::nullopt, guestRunnerFor());
    if (!recovered)
        return fail(recovered.error());
    auto settled = settledRuns(store_, *id);
    if (!settled)
        return fail(settled.error());
    settled_ = std::move(*settled);

    schedule_ = scheduleCampaign(scenario_, opt_.onlyLayout);
    const auto layouts = selectedLayouts(scenario_, opt_.onlyLayout);
    if (auto r = guardDevices(layouts); !r) {
        (void)setCampaignStatus(store_, *id, "failed", true);
        return fail(r.error());
    }
    // Runs settled before a resume count as done, adaptive ones included.
    std::set<RunKey> planned;
    for (const auto& p : schedule_.runs)
        planned.insert({p.layout, p.workload, p.iteration});
    for (const auto& key : settled_)
        planned.insert(key);
    total_ = planned.size();
    maxTotal_ = std::max(schedule_.maxRuns, total_);
    done_ = result_.skippedRuns = settled_.size();

    if (auto r = runner_.run(simple("mkdir", {"-p", "--", scenario_.workDir})); !r || !r->ok())
        return runtimeError(scenario_.workDir + ": cannot create the work directory" +
                            (r ? ": " + trim(r->stderrText) : ": " + r.error().message));

    auto io = store_.campaignIo(*id); // a resumed campaign keeps the path it chose
    if (!io)
        return fail(io.error());
    io_ = *io;
    std::vector<std::pair<std::vector<const ScenarioLayout*>, bool>> stages; // layouts, bracket
    for (std::size_t k = 0; k < schedule_.stages.size(); ++k)
        stages.emplace_back(schedule_.stages[k], schedule_.bracket && !schedule_.interleaved &&
                                                     k + 1 == schedule_.stages.size());
    for (std::size_t k = 0; k < stages.size(); ++k) {
        if (cancelled())
            break;
        const auto [stage, bracketPass] = stages[k];
        if (auto r = runStage(stage, target, bracketPass); !r) {
            (void)undoApplied(store_, runner_, *id, std::nullopt, guestRunnerFor());
            (void)setCampaignStatus(store_, *id, "failed", true);
            return fail(r.error());
        }
        // Layouts measured before the I/O path changed run again, right away.
        for (const auto* l : rerun_)
            stages.insert(stages.begin() + static_cast<std::ptrdiff_t>(k) + 1, {{l}, false});
        rerun_.clear();
    }
    result_.status = cancelled() ? "aborted" : result_.problems.empty() ? "done" : "failed";
    if (auto r = setCampaignStatus(store_, *id, result_.status, true); !r)
        return fail(r.error());
    for (const auto* l : layouts) {
        if (l->baseline)
            continue;
        auto cmp = compareStoredLayouts(store_, scenario_.baseline().name, l->name,
                                        scenario_.policy(), *id);
        if (cmp)
            result_.comparisons.push_back(std::move(*cmp));
        else
            result_.notComparable.push_back(l->name + ": no comparison (" + cmp.error().message +
                                            ")");
    }
    return result_;
}

} // namespace

Expected<CampaignResult> runCampaign(Store& store, const Scenario& scenario,
                                     const ProbeRegistry& probes, Runner& runner,
                                     const CampaignOptions& options) {
    CampaignRunner campaign(store, scenario, probes, runner, options);
    return campaign.run();
}

std::optional<std::string> oomKillLine(std::string_view kernelLog, std::string_view program,
                                       double sinceSeconds) {
    const std::string comm(program.substr(0, 15));
    std::optional<std::string> found;
    std::size_t pos = 0;
    while (pos < kernelLog.size()) {
        auto eol = kernelLog.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = kernelLog.size();
        std::string_view line = kernelLog.substr(pos, eol - pos);
        pos = eol + 1;
        const auto killed = line.find("Killed process ");
        if (killed == std::string_view::npos ||
            (!comm.empty() && line.find("(" + comm + ")", killed) == std::string_view::npos))
            continue;
        // "[ 1234.567890] ...": the time since boot the line was logged.
        double at = 0;
        if (line.starts_with("[")) {
            try {
                at = std::stod(std::string(line.substr(1, line.find(']') - 1)));
            } catch (const std::exception&) {
                at = 0;
            }
        }
        if (at + 1e-9 < sinceSeconds)
            continue;
        auto text = line.substr(line.find(']') == std::string_view::npos ? 0 : line.find(']') + 1);
        while (!text.empty() && text.front() == ' ')
            text.remove_prefix(1);
        found = std::string(text.substr(0, text.find(" total-vm")));
    }
    return found;
}

Expected<std::pair<std::string, std::string>> storedScenario(Store& store,
                                                             std::int64_t campaignId) {
    auto q = store.database().prepare(
        "SELECT COALESCE(scenario_path, ''), COALESCE(scenario, ''), status FROM campaign "
        "WHERE id = ?1");
    if (!q)
        return fail(q.error());
    q->bind(1, campaignId);
    auto row = q->step();
    if (!row)
        return fail(row.error());
    if (!*row)
        return badInput("--resume: no campaign " + std::to_string(campaignId) + " in " +
                        store.path());
    return std::pair{q->columnText(0), q->columnText(1)};
}

} // namespace lb
