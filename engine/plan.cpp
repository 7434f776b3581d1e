#include "engine/plan.h"

#include "engine/size.h"
#include "engine/store.h"

#include <cctype>
#include <chrono>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

namespace lb {

namespace {

Command cmd(std::string program, std::vector<std::string> args) {
    Command c;
    c.program = std::move(program);
    c.args = std::move(args);
    c.timeout = std::chrono::minutes(10);
    return c;
}

std::vector<std::string> vdevSpec(LayoutKind kind, const std::vector<std::string>& files) {
    std::vector<std::string> out;
    switch (kind) {
    case LayoutKind::ZfsStripe:
        return files;
    case LayoutKind::ZfsMirror:
        out.push_back("mirror");
        out.insert(out.end(), files.begin(), files.end());
        return out;
    case LayoutKind::ZfsRaid10:
        for (std::size_t i = 0; i + 1 < files.size(); i += 2) {
            out.push_back("mirror");
            out.push_back(files[i]);
            out.push_back(files[i + 1]);
        }
        return out;
    case LayoutKind::ZfsRaidz1:
    case LayoutKind::ZfsRaidz2:
    case LayoutKind::ZfsRaidz3:
        out.push_back("raidz" + std::to_string(parityOf(kind)));
        out.insert(out.end(), files.begin(), files.end());
        return out;
    default:
        return out;
    }
}

std::size_t minimumDisks(LayoutKind kind) {
    switch (kind) {
    case LayoutKind::ZfsMirror:
    case LayoutKind::ZfsRaid10:
        return 2;
    case LayoutKind::ZfsRaidz1:
    case LayoutKind::ZfsRaidz2:
    case LayoutKind::ZfsRaidz3:
        return parityOf(kind) + 1;
    default:
        return 1;
    }
}

std::string json(const std::vector<std::string>& v) {
    return nlohmann::json(v).dump();
}

std::vector<std::string> argvOf(const Command& c) {
    std::vector<std::string> v{c.program};
    v.insert(v.end(), c.args.begin(), c.args.end());
    return v;
}

Command commandFromJson(const std::string& text) {
    const auto v = nlohmann::json::parse(text).get<std::vector<std::string>>();
    Command c;
    c.program = v.at(0);
    c.args.assign(v.begin() + 1, v.end());
    c.timeout = std::chrono::minutes(10);
    return c;
}

// The journal numbers a campaign's steps in the order they ran, undo steps included.
Expected<std::int64_t> lastStepSeq(sql::Database& db, std::int64_t campaignId) {
    auto q = db.prepare("SELECT COALESCE(MAX(seq), 0) FROM plan_step WHERE campaign_id = ?1");
    if (!q)
        return fail(q.error());
    q->bind(1, campaignId);
    if (auto r = q->step(); !r)
        return fail(r.error());
    return q->columnInt(0);
}

std::string outputOf(const ProcessResult& r) {
    std::string out = r.stdoutText;
    if (!r.stderrText.empty())
        out += (out.empty() ? "" : "\n") + r.stderrText;
    return out;
}

// A block device, whole or (underprovisioned) as one GPT partition of a fraction of it, the rest
// left unpartitioned for the SSD to use. Returns the vdev path.
std::string planDevice(LayoutPlan& plan, const ScenarioDisk& d, const ScenarioLayout& layout,
                       const std::map<std::string, std::uint64_t>& deviceBytes) {
    if (layout.underprovision >= 1.0)
        return d.device;
    // Discard everything first so the drive knows all of it is free: where it is supported.
    PlanStep discard{"discard all of " + d.device, cmd("blkdiscard", {d.device}), std::nullopt};
    discard.optional = true;
    plan.steps.push_back(std::move(discard));
    std::string size;
    if (const auto it = deviceBytes.find(d.device); it != deviceBytes.end()) {
        const auto bytes =
            static_cast<std::uint64_t>(static_cast<double>(it->second) * layout.underprovision) /
            MiB * MiB;
        size = "+" + std::to_string(bytes / KiB) + "K";
    } else {
        size = "+<" + std::to_string(static_cast<int>(layout.underprovision * 100)) + "% of " +
               d.device + ">";
    }
    plan.steps.push_back({"partition " +
                              std::to_string(static_cast<int>(layout.underprovision * 100 + 0.5)) +
                              " % of " + d.device + ", the rest left unpartitioned",
                          cmd("sgdisk", {"--clear", "--new=1:1M:" + size, "--typecode=1:BF01",
                                         "--change-name=1:layoutbench", d.device}),
                          cmd("sgdisk", {"--zap-all", d.device})});
    // Without udev the kernel does not learn of new partitions by itself.
    plan.steps.push_back({"tell the kernel about " + d.device + "'s partition",
                          cmd("partx", {"-u", d.device}), cmd("partx", {"-d", d.device})});
    return firstPartition(d.device);
}

std::string failureOf(const ProcessResult& r) {
    if (r.timedOut)
        return "timed out";
    if (r.cancelled)
        return "cancelled";
    return r.exitSummary();
}

} // namespace

std::string firstPartition(const std::string& device) {
    return device + (!device.empty() && std::isdigit(static_cast<unsigned char>(device.back()))
                         ? "p1"
                         : "1");
}

Expected<LayoutPlan> planLayout(const Scenario& scenario, const ScenarioLayout& layout,
                                const std::map<std::string, std::uint64_t>& deviceBytes) {
    LayoutPlan plan;
    plan.layout = layout.name;
    if (layout.kind == LayoutKind::Dir) {
        plan.workdir = layout.path + "/layoutbench-" + layout.name;
        plan.steps.push_back({"make the work directory", cmd("mkdir", {"--", plan.workdir}),
                              cmd("rm", {"-rf", "--", plan.workdir})});
        return plan;
    }
    if (!isZfs(layout.kind))
        return badInput("layout '" + layout.name +
                        "': " + std::string(layoutKindName(layout.kind)) +
                        " cannot be built by this version");
    if (layout.disks.size() < minimumDisks(layout.kind) ||
        (layout.kind == LayoutKind::ZfsRaid10 && layout.disks.size() % 2 != 0))
        return badInput("layout '" + layout.name +
                        "': " + std::string(layoutKindName(layout.kind)) + " cannot be made of " +
                        std::to_string(layout.disks.size()) + " disks");
    std::vector<std::string> files;
    for (const auto& name : layout.disks) {
        const ScenarioDisk* d = scenario.disk(name);
        if (!d)
            return badInput("layout '" + layout.name + "': disk '" + name + "' is not defined");
        if (!d->device.empty()) {
            files.push_back(planDevice(plan, *d, layout, deviceBytes));
            continue;
        }
        files.push_back(d->file);
        // Never reuse an existing file: it may be someone's data or another pool's vdev.
        plan.steps.push_back({"check that " + d->file + " does not exist yet",
                              cmd("test", {"!", "-e", d->file}), std::nullopt});
        plan.steps.push_back({"create sparse file vdev " + d->name,
                              cmd("truncate", {"-s", std::to_string(d->sizeBytes), "--", d->file}),
                              cmd("rm", {"-f", "--", d->file})});
    }
    const std::string mount = scenario.workDir + "/mnt-" + layout.name;
    // The mount point is ours: made before the pool, removed after it is destroyed.
    plan.steps.push_back(
        {"make the mount point", cmd("mkdir", {"--", mount}), cmd("rmdir", {"--", mount})});
    std::vector<std::string> create{
        "create",   "-f",
        "-o",       "ashift=" + std::to_string(layout.ashift),
        "-O",       "recordsize=" + std::to_string(layout.recordsizeBytes),
        "-O",       "compression=" + layout.compression,
        "-O",       std::string("atime=") + (layout.atime ? "on" : "off"),
        "-m",       mount,
        layout.pool};
    for (auto& v : vdevSpec(layout.kind, files))
        create.push_back(std::move(v));
    plan.steps.push_back({"create pool " + layout.pool, cmd("zpool", std::move(create)),
                          cmd("zpool", {"destroy", "-f", layout.pool})});
    plan.workdir = mount;
    return plan;
}

Expected<std::size_t> applyPlan(Store& store, Runner& runner, std::int64_t campaignId,
                                std::int64_t layoutId, const LayoutPlan& plan) {
    auto& db = store.database();
    auto lastSeq = lastStepSeq(db, campaignId);
    if (!lastSeq)
        return fail(lastSeq.error());
    auto seq = *lastSeq;

    std::size_t applied = 0;
    for (const auto& step : plan.steps) {
        // Journal first: if we die while the command runs, recovery knows it may have applied.
        auto ins = db.prepare("INSERT INTO plan_step(campaign_id, layout_id, seq, phase, argv, "
                              "undo_argv, started_at, status) VALUES(?1, ?2, ?3, 'build', ?4, "
                              "?5, ?6, 'running')");
        if (!ins)
            return fail(ins.error());
        ins->bind(1, campaignId)
            .bind(2, layoutId)
            .bind(3, ++seq)
            .bind(4, json(step.command.argvForDisplay()))
            .bind(5,
                  step.undo ? std::optional<std::string>(json(argvOf(*step.undo))) : std::nullopt)
            .bind(6, store.now());
        if (auto r = ins->run(); !r)
            return fail(r.error());
        const auto stepId = db.lastInsertId();
        auto result = runner.run(step.command);
        const bool ok = result && result->ok();
        auto upd = db.prepare("UPDATE plan_step SET exit_code = ?1, output = ?2, finished_at = "
                              "?3, status = ?4 WHERE id = ?5");
        if (!upd)
            return fail(upd.error());
        upd->bind(1, result ? std::optional<std::int64_t>(result->exitCode) : std::nullopt)
            .bind(2, result ? outputOf(*result) : result.error().message)
            .bind(3, store.now())
            .bind(4, ok              ? "applied"
                     : step.optional ? "skipped"
                                     : "failed")
            .bind(5, stepId);
        if (auto r = upd->run(); !r)
            return fail(r.error());
        if (!ok && !step.optional) {
            const std::string why = result ? failureOf(*result) : result.error().message;
            auto undone = undoApplied(store, runner, campaignId, layoutId);
            std::string msg = "building layout '" + plan.layout + "': step '" + step.description +
                              "' (" + step.command.toUserOutput() + ") failed: " + why;
            if (undone && !undone->empty())
                msg += "; undo problems: " + undone->front();
            return runtimeError(msg);
        }
        ++applied;
    }
    return applied;
}

Expected<std::vector<std::string>> undoApplied(Store& store, Runner& runner,
                                               std::int64_t campaignId,
                                               std::optional<std::int64_t> layoutId) {
    auto& db = store.database();
    // 'running' steps are included: a crash during the command leaves us unsure it applied, and
    // every undo here is safe to run on something that does not exist.
    auto q = db.prepare("SELECT id, layout_id, undo_argv, status FROM plan_step WHERE "
                        "campaign_id = ?1 "
                        "AND phase = 'build' AND status IN ('applied', 'running') AND "
                        "undo_argv IS NOT NULL AND (?2 IS NULL OR layout_id = ?2) "
                        "ORDER BY seq DESC");
    if (!q)
        return fail(q.error());
    q->bind(1, campaignId).bind(2, layoutId);
    struct Pending {
        std::int64_t id, layout;
        std::string undo;
        bool certain; // the step finished: its effect is known to exist
    };
    std::vector<Pending> pending;
    if (auto r = q->forEachRow([&](sql::Statement& row) {
            pending.push_back({row.columnInt(0), row.columnInt(1), row.columnText(2),
                               row.columnText(3) == "applied"});
        });
        !r)
        return fail(r.error());
    std::vector<std::string> problems;
    auto lastSeq = lastStepSeq(db, campaignId);
    if (!lastSeq)
        return fail(lastSeq.error());
    auto seq = *lastSeq;
    // A layout whose teardown stopped at a failed undo keeps its older steps applied: removing
    // the vdev files under a pool that could not be destroyed would be worse than leaving both,
    // and a later recovery (--resume) retries from the failed step.
    std::set<std::int64_t> stopped;
    for (const auto& p : pending) {
        if (stopped.count(p.layout))
            continue;
        const Command undo = commandFromJson(p.undo);
        const auto started = store.now();
        auto result = runner.run(undo);
        // zfs-fuse releases the last files of a pool asynchronously: "pool is busy" for a moment
        // after the workload ended. Wait a little and try again.
        for (int attempt = 1; attempt < 20 && result && !result->ok() &&
                              outputOf(*result).find("busy") != std::string::npos;
             ++attempt) {
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
            result = runner.run(undo);
        }
        const bool ok = result && result->ok();
        // A step interrupted by a crash may never have taken effect; its undo failing says so.
        const bool settled = ok || !p.certain;
        if (!ok && p.certain) {
            problems.push_back(undo.toUserOutput() + ": " +
                               (result ? failureOf(*result) : result.error().message));
            stopped.insert(p.layout);
        }
        auto ins = db.prepare("INSERT INTO plan_step(campaign_id, layout_id, seq, phase, argv, "
                              "exit_code, output, started_at, finished_at, status) VALUES(?1, ?2, "
                              "?3, 'undo', ?4, ?5, ?6, ?7, ?8, ?9)");
        if (!ins)
            return fail(ins.error());
        ins->bind(1, campaignId)
            .bind(2, p.layout)
            .bind(3, ++seq)
            .bind(4, p.undo)
            .bind(5, result ? std::optional<std::int64_t>(result->exitCode) : std::nullopt)
            .bind(6, result ? outputOf(*result) : result.error().message)
            .bind(7, started)
            .bind(8, store.now())
            .bind(9, ok ? "applied" : "failed");
        if (auto r = ins->run(); !r)
            return fail(r.error());
        if (!settled)
            continue; // stays 'applied': the next recovery tries this undo again
        auto upd = db.prepare("UPDATE plan_step SET status = 'undone' WHERE id = ?1");
        if (!upd)
            return fail(upd.error());
        if (auto r = upd->bind(1, p.id).run(); !r)
            return fail(r.error());
    }
    return problems;
}

} // namespace lb
