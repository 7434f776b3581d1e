// `layoutbench run` and `layoutbench plan`: run a scenario's campaign, or show every command it
// would run (build steps with their undo, and each workload's command line) without running any.
#include "app/cli/commands.h"
#include "app/cli/progress.h"
#include "app/cli/stop_signals.h"
#include "app/cli/terminal.h"
#include "engine/base/size.h"
#include "engine/base/utf8.h"
#include "engine/build/fill.h"
#include "engine/build/plan.h"
#include "engine/campaign/campaign.h"
#include "engine/campaign/precondition.h"
#include "engine/exec/ssh_runner.h"
#include "engine/workbench.h"
#include "probes/registry.h"
#include "reports/comparison_text.h"

#include <algorithm>
#include <array>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

namespace lb::cli {

namespace {

struct RunOptions {
    std::string scenario;
    std::string layout;
    std::int64_t resume = 0;
    std::vector<std::string> yesDestroy;
    std::string failOn;
    std::string fillMax; // --fill-max SIZE: the most the ageing writes on a layout
};

// The engine's fields, as this command's flags.
constexpr std::array<FieldFlag, 3> runFlags{
    {{"resume", "--resume"}, {"layout", "--layout"}, {"yes-destroy", "--yes-destroy"}}};

nlohmann::json ioJson(const std::optional<CampaignIo>& io) {
    if (!io)
        return nullptr;
    return {{"direct", io->direct},
            {"why", io->why},
            {"cold_cache", io->coldCache},
            {"page_cache_dropped", io->pageCacheDropped}};
}

// The campaign's outcome: its status, runs and problems, the I/O path, and a comparison of each
// candidate against the baseline (JSON, or lines and tables).
void printOutcome(const Globals& g, const Scenario& scenario, const CampaignResult& result,
                  const std::optional<CampaignIo>& io) {
    nlohmann::json comparisons = nlohmann::json::array();
    std::string tables;
    // What was measured, said once before the verdicts.
    if (io)
        tables += "\nmeasured: " + describeCampaignIo(*io) + "\n";
    for (const auto& cmp : result.comparisons) {
        comparisons.push_back(comparisonJson(cmp));
        tables += "\n" + comparisonTable(cmp, outputColumns());
    }
    for (const auto& why : result.notComparable)
        tables += "\n" + why + "\n";
    // Where each candidate's verdict changes as the pools fill, said once after the levels.
    if (!result.fillSummaries.empty())
        tables += "\nacross the fill levels:\n";
    for (const auto& summary : result.fillSummaries)
        tables.append("  ").append(summary).append("\n");
    if (g.json) {
        std::cout << dumpJson(nlohmann::json{{"campaign", result.campaignId},
                                             {"status", enumName(result.status)},
                                             {"runs", result.runs},
                                             {"failed_runs", result.failedRuns},
                                             {"skipped_runs", result.skippedRuns},
                                             {"problems", result.problems},
                                             {"io", ioJson(io)},
                                             {"comparisons", comparisons},
                                             {"fill_summaries", result.fillSummaries}},
                              2)
                  << '\n';
        return;
    }
    std::cout << "campaign " << result.campaignId << " (" << scenario.name
              << "): " << enumName(result.status) << ", " << result.runs << " run(s), "
              << result.failedRuns << " failed";
    if (result.skippedRuns)
        std::cout << ", " << result.skippedRuns << " already done";
    std::cout << '\n';
    for (const auto& p : result.problems)
        std::cout << "  problem: " << p << '\n';
    std::cout << tables;
}

// The exit status: 128 + the signal that stopped it, 1 for a campaign not done, else the worst
// verdict's under --fail-on.
int runExitStatus(const RunOptions& o, const CampaignResult& result) {
    // Ctrl-C (SIGINT) exits 130 and SIGTERM 143, as a shell reports a program the signal ended.
    if (const int signal = interruptedBy.load())
        return 128 + signal;
    if (result.status != CampaignStatus::Done)
        return 1;
    std::optional<Verdict> overall;
    for (const auto& cmp : result.comparisons)
        overall = overall ? worse(*overall, cmp.verdict) : cmp.verdict;
    return overall ? verdictExitStatus(o.failOn, *overall) : 0;
}

int runRun(const Globals& g, const RunOptions& o) {
    const ProbeRegistry probes = standardProbes();
    // A campaign to resume is in a database that exists; a new one may start a database.
    auto store = openStore(g, o.resume ? DbAccess::Existing : DbAccess::Create);
    if (!store)
        return report(store.error());
    const auto only = o.layout.empty() ? std::nullopt : std::optional<std::string>(o.layout);
    const auto resume = o.resume ? std::optional<std::int64_t>(o.resume) : std::nullopt;
    auto scenario = resolveScenario({o.scenario, std::nullopt}, resume, only, &*store, probes);
    if (!scenario)
        return report(scenario.error(), runFlags);
    std::uint64_t fillMax = 0;
    if (!o.fillMax.empty()) {
        auto bytes = parseSize(o.fillMax);
        if (!bytes)
            return report(Error::badInput("--fill-max: " + bytes.error().message));
        fillMax = *bytes;
    }
    catchStopSignals();
    // Progress goes to standard error, with --json too: standard output is the result alone.
    ProgressPrinter printer(std::cerr, terminalColumns(STDERR_FILENO));
    CampaignOptions co;
    if (o.resume)
        co.resume = o.resume;
    if (!o.layout.empty())
        co.onlyLayout = o.layout;
    co.yesDestroy = o.yesDestroy;
    co.fillMaxBytes = fillMax;
    co.cancel = &interrupted;
    co.onProgress = [&printer](const CampaignProgress& p) { printer(p); };
    auto runner =
        makeRunnerFor(scenario->host.target, scenario->host.identity, scenario->host.knownHosts);
    if (!runner)
        return report(runner.error());
    auto result = runCampaign(*store, *scenario, probes, **runner, co);
    printer.finish();
    if (!result)
        return report(result.error(), runFlags);
    auto io = store->campaignIo(result->campaignId);
    if (!io)
        return report(io.error());
    printOutcome(g, *scenario, *result, *io);
    if (result->status == CampaignStatus::Aborted) {
        // The hint names the database, so following it resumes this campaign, not one in the
        // default database. Human output has it on standard output, --json on standard error.
        const Command resumeHint{
            "layoutbench",
            {"run", o.scenario, "--resume", std::to_string(result->campaignId), "--db", g.db}};
        (g.json ? std::cerr : std::cout)
            << (g.json ? "" : "\n") << "resume with: " << resumeHint.toUserOutput() << '\n';
    }
    return runExitStatus(o, *result);
}

// A plan's steps as JSON, each with its undo or why it has none.
nlohmann::json stepsJson(const LayoutPlan& part) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : part.steps)
        steps.push_back(
            {{"description", s.description},
             {"argv", s.command.argvForDisplay()},
             {"optional", s.optional},
             {"runs_on", enumName(part.runsOn)},
             {"undo", s.undo ? nlohmann::json(s.undo->argvForDisplay()) : nlohmann::json(nullptr)},
             {"no_undo", s.undo ? nlohmann::json(nullptr) : nlohmann::json(s.noUndo)}});
    return steps;
}

// One layout of the dry run: its plan's parts, text and JSON.
// What the layout's plan warns of, every part's.
nlohmann::json planWarnings(const DryRunLayout& l) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& part : l.parts)
        for (const auto& w : part.warnings)
            out.push_back(w);
    return out;
}

nlohmann::json planSteps(const DryRunLayout& l, std::ostringstream& text) {
    nlohmann::json steps = nlohmann::json::array();
    text << "== layout " << l.layout->name << " (" << layoutKindName(l.layout->kind)
         << (l.layout->baseline ? ", baseline" : "") << ")\n";
    for (const auto& part : l.parts) {
        if (l.parts.size() > 1)
            text << "  -- on the "
                 << (part.runsOn == RunsOn::Guest
                         ? "guest (" + l.layout->guest->target + ", " +
                               std::string(enumName(l.layout->guest->os)) + ")"
                         : std::string("host"))
                 << "\n";
        for (auto& s : stepsJson(part))
            steps.push_back(std::move(s));
        text << describePlan(part);
    }
    return steps;
}

// One workload of the dry run on its layout, text and JSON.
nlohmann::json planWorkload(const Scenario& scenario, const DryRunWorkload& dw,
                            std::ostringstream& text) {
    const ScenarioWorkload& w = *dw.workload;
    const MeasuredCommand& mc = dw.command;
    const std::string where =
        dw.where == DryRunWorkload::Where::Workbench ? "   (from this machine to its clients)"
        : dw.where == DryRunWorkload::Where::Client  ? "   (on client " + w.clients.front() + ")"
                                                     : std::string();
    if (dw.rounds)
        text << "  run " << w.name << " " << describeSteadyStateRounds(*dw.rounds) << "\n";
    else if (!dw.notPreconditioned.empty())
        text << "  run " << w.name << " not preconditioned: " << dw.notPreconditioned << "\n";
    nlohmann::json prepare = nlohmann::json::array(), cleanup = nlohmann::json::array();
    for (const auto& c : mc.clientPrepare) {
        prepare.push_back({{"client", c.client}, {"argv", c.command.argvForDisplay()}});
        text << "  run " << w.name << " prepare on " << c.client << ": " << c.command.toUserOutput()
             << "\n";
    }
    for (const auto& c : mc.prepare) {
        prepare.push_back(c.argvForDisplay());
        text << "  run " << w.name << " prepare: " << c.toUserOutput() << "\n";
    }
    text << "  run " << w.name << " x"
         << (scenario.adaptive() ? std::to_string(scenario.iterations) + "-" +
                                       std::to_string(*scenario.maxIterations)
                                 : std::to_string(scenario.iterations))
         << ": " << mc.command.toUserOutput()
         << (mc.command.cwd.empty() ? "" : "   (in " + mc.command.cwd + ")") << where << "\n";
    for (const auto& c : mc.cleanup) {
        cleanup.push_back(c.argvForDisplay());
        text << "  run " << w.name << " cleanup: " << c.toUserOutput() << "\n";
    }
    for (const auto& c : mc.clientCleanup) {
        cleanup.push_back({{"client", c.client}, {"argv", c.command.argvForDisplay()}});
        text << "  run " << w.name << " cleanup on " << c.client << ": " << c.command.toUserOutput()
             << "\n";
    }
    return {{"name", w.name},
            {"iterations", scenario.iterations},
            {"clients", w.clients},
            {"prepare", prepare},
            {"argv", mc.command.argvForDisplay()},
            {"cwd", mc.command.cwd},
            {"cleanup", cleanup},
            {"steady_state", dw.rounds ? nlohmann::json{{"max_rounds", dw.rounds->maxRounds},
                                                        {"round_seconds", dw.rounds->roundSeconds}}
                                       : nlohmann::json(nullptr)}};
}

// What the plan is written for. plan runs nothing, so it cannot ask the target what it runs (a
// campaign does); no FreeBSD host answers here, and the text says so.
std::string targetOsLine(const Scenario& scenario) {
    if (!scenario.host.os)
        return "linux (not asked: plan runs nothing; [host] os = \"freebsd\" for FreeBSD)";
    if (*scenario.host.os == TargetOs::FreeBsd)
        return "freebsd (its plans, bhyve's included, are written from FreeBSD's manuals and not "
               "exercised on a live FreeBSD host here)";
    return std::string(enumName(*scenario.host.os));
}

// What the ageing before each fill level of a layout writes and, at the rate it wrote at on this
// layout before (the database's, when there is one), how long that takes; a level more than
// --fill-max would need is said to fail.
nlohmann::json planFill(const Globals& g, const DryRunLayout& l, std::uint64_t fillMax,
                        std::ostringstream& text) {
    nlohmann::json out = nlohmann::json::array();
    if (l.fillLevels.empty())
        return out;
    std::optional<double> rate;
    if (auto store = openStore(g, DbAccess::Existing))
        if (auto measured = measuredFillWriteRate(*store, l.layout->name))
            rate = *measured;
    text << "  fill levels, lowest first, each on the last (workload fill:age):\n";
    for (const double level : l.fillLevels) {
        const std::uint64_t bytes = l.usableBytes ? fillWriteBytes(level, l.usableBytes) : 0;
        std::string line = describeFill(level, l.usableBytes, rate);
        const bool capped = fillMax && bytes > fillMax;
        if (capped)
            line.append("; more than --fill-max ")
                .append(formatBytes(fillMax, true))
                .append(": this level fails and nothing is measured at it");
        text << "    " << line << "\n";
        out.push_back({{"level", level},
                       {"write_bytes", l.usableBytes ? nlohmann::json(bytes) : nullptr},
                       {"seconds", rate && *rate > 0 && l.usableBytes
                                       ? nlohmann::json(static_cast<double>(bytes) / *rate)
                                       : nullptr},
                       {"capped", capped},
                       {"text", line}});
    }
    return out;
}

int runPlan(const Globals& g, const std::string& path, const std::string& fillMaxText) {
    const ProbeRegistry probes = standardProbes();
    auto scenario = loadScenario(path, probes);
    if (!scenario)
        return report(scenario.error());
    std::uint64_t fillMax = 0;
    if (!fillMaxText.empty()) {
        auto bytes = parseSize(fillMaxText);
        if (!bytes)
            return report(Error::badInput("--fill-max: " + bytes.error().message));
        fillMax = *bytes;
    }
    auto plan = dryRun(*scenario, probes, localDryRunHost(*scenario));
    if (!plan)
        return report(plan.error());
    const CampaignSchedule& schedule = plan->schedule;
    nlohmann::json out = nlohmann::json::array();
    std::ostringstream text;
    text << "target os: " << targetOsLine(*scenario) << "\n";
    text << describeSchedule(*scenario, schedule);
    for (const auto& l : plan->layouts) {
        nlohmann::json steps = planSteps(l, text);
        // SSD preconditioning (SNIA PTS) before the layout's first measured run.
        if (l.precondition)
            text << "  " << *l.precondition << "\n";
        nlohmann::json fill = planFill(g, l, fillMax, text);
        nlohmann::json workloads = nlohmann::json::array();
        for (const auto& dw : l.workloads)
            workloads.push_back(planWorkload(*scenario, dw, text));
        nlohmann::json drills = nlohmann::json::array();
        for (const auto& [drill, drillPlan] : l.drills) {
            text << "  drill " << drill->name() << ", after the workloads (shown; its own "
                 << "script runs them):\n"
                 << describePlan(drillPlan);
            drills.push_back({{"name", drill->name()}, {"steps", stepsJson(drillPlan)}});
        }
        text << "  teardown: the undo commands above, newest first\n";
        out.push_back({{"layout", l.layout->name},
                       {"kind", layoutKindName(l.layout->kind)},
                       {"baseline", l.layout->baseline},
                       {"workdir", l.parts.back().workdir},
                       {"steps", steps},
                       {"warnings", planWarnings(l)},
                       {"precondition",
                        l.precondition ? nlohmann::json(*l.precondition) : nlohmann::json(nullptr)},
                       {"workloads", workloads},
                       {"drills", drills},
                       {"fill", fill}});
    }
    if (g.json)
        std::cout << dumpJson(nlohmann::json{{"scenario", scenario->name},
                                             {"os", scenario->host.os ? nlohmann::json(enumName(
                                                                            *scenario->host.os))
                                                                      : nlohmann::json(nullptr)},
                                             {"schedule",
                                              {{"interleaved", schedule.interleaved},
                                               {"sequential_why", schedule.sequentialWhy},
                                               {"bracket", schedule.bracket},
                                               {"min_iterations", schedule.minIterations},
                                               {"max_iterations", schedule.maxIterations},
                                               {"runs", schedule.runs.size()},
                                               {"max_runs", schedule.maxRuns}}},
                                             {"layouts", out}},
                              2)
                  << '\n';
    else
        std::cout << text.str();
    return 0;
}

} // namespace

void addRun(CLI::App& app, Globals& g, Action& action) {
    auto opts = std::make_shared<RunOptions>();
    auto* sub = app.add_subcommand("run", "Run a scenario's campaign: build, benchmark, compare");
    sub->add_option("scenario", opts->scenario, "Scenario file (TOML)")->required();
    sub->add_option("--layout", opts->layout, "Run only this layout (and the baseline)");
    sub->add_option("--resume", opts->resume, "Resume this campaign: run only what is missing")
        ->check(CLI::PositiveNumber);
    sub->add_option("--yes-destroy", opts->yesDestroy,
                    "A block device (path or serial) whose data the layouts may destroy; "
                    "repeat for each")
        ->take_all();
    sub->add_option("--fill-max", opts->fillMax,
                    "The most the ageing before the fill levels may write on a layout, all its "
                    "levels together (500G, 2TiB); a level it stops short of fails, saying so");
    addFailOn(*sub, opts->failOn);
    addGlobalOptions(*sub, g);
    sub->callback([&g, &action, opts] { action = [&g, opts] { return runRun(g, *opts); }; });
}

void addPlan(CLI::App& app, Globals& g, Action& action) {
    auto path = std::make_shared<std::string>();
    auto fillMax = std::make_shared<std::string>();
    auto* sub = app.add_subcommand("plan", "Every command a scenario would run, with its undo");
    sub->add_option("scenario", *path, "Scenario file (TOML)")->required();
    sub->add_option("--fill-max", *fillMax,
                    "As run takes it: the levels the ageing would need more than this for");
    addGlobalOptions(*sub, g);
    sub->callback([&g, &action, path, fillMax] {
        action = [&g, path, fillMax] { return runPlan(g, *path, *fillMax); };
    });
}

} // namespace lb::cli
