// `layoutbench run` and `layoutbench plan`: run a scenario's campaign, or show every command it
// would run (build steps with their undo, and each workload's command line) without running any.
#include "app/cli/commands.h"
#include "engine/campaign.h"
#include "engine/export.h"
#include "engine/plan.h"
#include "engine/schedule.h"
#include "engine/ssh_runner.h"
#include "engine/utf8.h"
#include "probes/tools.h"
#include "reports/comparison_text.h"
#include "reports/display.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace lb::cli {

namespace {

std::atomic<bool> interrupted{false};

extern "C" void onSignal(int) {
    interrupted.store(true);
}

struct RunOptions {
    std::string scenario;
    std::string layout;
    std::int64_t resume = 0;
    std::vector<std::string> yesDestroy;
};

// Sizes of the scenario's block devices on this machine, from sysfs: `plan` runs nothing.
std::map<std::string, std::uint64_t> localDeviceBytes(const Scenario& scenario) {
    std::map<std::string, std::uint64_t> out;
    for (const auto& d : scenario.disks) {
        if (d.device.empty())
            continue;
        std::error_code ec;
        const auto real = std::filesystem::canonical(d.device, ec);
        if (ec)
            continue;
        std::ifstream sectors("/sys/class/block/" + real.filename().string() + "/size");
        std::uint64_t n = 0;
        if (sectors >> n)
            out[d.device] = n * 512;
    }
    return out;
}

std::string duration(double seconds) {
    const auto s = static_cast<long>(seconds + 0.5);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
    else
        std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
    return buf;
}

// Terminal progress: one rewritten line on a terminal, plain lines otherwise.
class ProgressPrinter {
public:
    explicit ProgressPrinter(bool tty) : tty_(tty) {}
    void operator()(const CampaignProgress& p) {
        std::string line =
            "[" + std::to_string(p.done) + "/" + std::to_string(p.total) +
            (p.maxTotal > p.total ? " (up to " + std::to_string(p.maxTotal) + ")" : std::string()) +
            "] ";
        switch (p.kind) {
        case CampaignProgress::Kind::Building:
            line += p.layout + ": building";
            break;
        case CampaignProgress::Kind::TearingDown:
            line += p.layout + ": tearing down";
            break;
        case CampaignProgress::Kind::Running:
            line +=
                p.layout + " · " + p.workload + " · iteration " + std::to_string(p.iteration + 1) +
                (p.bracket
                     ? " (after the candidates)"
                     : "/" + std::to_string(p.iterations) +
                           (p.maxIterations > p.iterations ? "–" + std::to_string(p.maxIterations)
                                                           : std::string()));
            break;
        case CampaignProgress::Kind::RunFinished:
            line += p.layout + " · " + p.workload + " · iteration " +
                    std::to_string(p.iteration + 1) + ": " + std::string(runStatusName(p.status));
            if (!p.message.empty())
                line += " (" + p.message + ")";
            break;
        case CampaignProgress::Kind::Message:
            line += p.message;
            break;
        }
        if (p.etaSeconds)
            line += " · ETA " + duration(*p.etaSeconds);
        if (tty_) {
            // A finished run that failed stays on screen; the rest is rewritten in place.
            const bool keep =
                p.kind == CampaignProgress::Kind::RunFinished && p.status != RunStatus::Ok;
            std::cout << "\r\033[K" << line << (keep ? "\n" : "") << std::flush;
        } else {
            std::cout << line << '\n' << std::flush;
        }
    }
    void finish() {
        if (tty_)
            std::cout << "\r\033[K" << std::flush;
    }

private:
    bool tty_;
};

Expected<Scenario> scenarioFor(const RunOptions& o, Store* store, const ProbeRegistry& probes) {
    if (o.resume == 0 || !store)
        return loadScenario(o.scenario, probes);
    // A resumed campaign runs the scenario it started with, whatever the file says now.
    auto stored = storedScenario(*store, o.resume);
    if (!stored)
        return fail(stored.error());
    auto scenario = parseScenario(stored->second, o.scenario, probes);
    if (!scenario)
        return scenario;
    // The stored copy has its CHAP secrets masked: they come from the file, for the same layout.
    if (!hasMaskedSecrets(*scenario))
        return scenario;
    auto file = loadScenario(o.scenario, probes);
    if (!file)
        return fail(file.error());
    if (auto r = restoreMaskedSecrets(*scenario, *file, o.scenario); !r)
        return fail(r.error());
    return scenario;
}

int runRun(const Globals& g, const RunOptions& o) {
    const ProbeRegistry probes = standardProbes();
    auto store = Store::open(g.db);
    if (!store)
        return report(store.error());
    auto scenario = scenarioFor(o, &*store, probes);
    if (!scenario)
        return report(scenario.error());
    if (!o.layout.empty()) {
        bool found = false;
        for (const auto& l : scenario->layouts)
            found = found || l.name == o.layout;
        if (!found)
            return report(
                Error::badInput("--layout: no layout named '" + o.layout + "' in " + o.scenario));
    }

    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);

    ProgressPrinter printer(isatty(STDOUT_FILENO) != 0);
    CampaignOptions co;
    if (o.resume)
        co.resume = o.resume;
    if (!o.layout.empty())
        co.onlyLayout = o.layout;
    co.yesDestroy = o.yesDestroy;
    co.cancel = &interrupted;
    if (!g.json)
        co.onProgress = [&printer](const CampaignProgress& p) { printer(p); };
    auto runner =
        makeRunnerFor(scenario->host.target, scenario->host.identity, scenario->host.knownHosts);
    if (!runner)
        return report(runner.error());
    auto result = runCampaign(*store, *scenario, probes, **runner, co);
    printer.finish();
    if (!result)
        return report(result.error());

    nlohmann::json comparisons = nlohmann::json::array();
    std::string tables;
    // What was measured, said once before the verdicts.
    auto io = store->campaignIo(result->campaignId);
    if (!io)
        return report(io.error());
    if (*io)
        tables += "\nmeasured: " + describeCampaignIo(**io) + "\n";
    for (const auto& cmp : result->comparisons) {
        comparisons.push_back(comparisonJson(cmp));
        tables += "\n" + comparisonTable(cmp);
    }
    for (const auto& why : result->notComparable)
        tables += "\n" + why + "\n";
    if (g.json) {
        std::cout << dumpJson(nlohmann::json{{"campaign", result->campaignId},
                                             {"status", result->status},
                                             {"runs", result->runs},
                                             {"failed_runs", result->failedRuns},
                                             {"skipped_runs", result->skippedRuns},
                                             {"problems", result->problems},
                                             {"io",
                                              *io ? nlohmann::json{{"direct", (*io)->direct},
                                                                   {"why", (*io)->why},
                                                                   {"cold_cache", (*io)->coldCache}}
                                                  : nlohmann::json(nullptr)},
                                             {"comparisons", comparisons}},
                              2)
                  << '\n';
    } else {
        std::cout << "campaign " << result->campaignId << " (" << scenario->name
                  << "): " << result->status << ", " << result->runs << " run(s), "
                  << result->failedRuns << " failed";
        if (result->skippedRuns)
            std::cout << ", " << result->skippedRuns << " already done";
        std::cout << '\n';
        for (const auto& p : result->problems)
            std::cout << "  problem: " << p << '\n';
        std::cout << tables;
        if (result->status == "aborted")
            std::cout << "\nresume with: layoutbench run " << o.scenario << " --resume "
                      << result->campaignId << '\n';
    }
    return result->status == "done" ? 0 : 1;
}

int runPlan(const Globals& g, const std::string& path) {
    const ProbeRegistry probes = standardProbes();
    auto scenario = loadScenario(path, probes);
    if (!scenario)
        return report(scenario.error());
    nlohmann::json out = nlohmann::json::array();
    std::ostringstream text;
    const auto ram = static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                     static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    const auto deviceBytes = localDeviceBytes(*scenario);
    const auto schedule = scheduleCampaign(*scenario, std::nullopt);
    text << describeSchedule(*scenario, schedule);
    for (const auto& layout : scenario->layouts) {
        auto parts = planParts(*scenario, layout, deviceBytes);
        if (!parts)
            return report(parts.error());
        const LayoutPlan* plan = &parts->back(); // the part the workloads run on
        nlohmann::json steps = nlohmann::json::array();
        text << "== layout " << layout.name << " (" << layoutKindName(layout.kind)
             << (layout.baseline ? ", baseline" : "") << ")\n";
        for (const auto& part : *parts) {
            if (parts->size() > 1)
                text << "  -- on the "
                     << (part.runsOn == "guest" ? "guest (" + layout.guest->target + ")"
                                                : std::string("host"))
                     << "\n";
            for (const auto& s : part.steps)
                steps.push_back({{"description", s.description},
                                 {"argv", s.command.argvForDisplay()},
                                 {"optional", s.optional},
                                 {"runs_on", part.runsOn},
                                 {"undo", s.undo ? nlohmann::json(s.undo->argvForDisplay())
                                                 : nlohmann::json(nullptr)}});
            text << describePlan(part);
        }
        WorkloadContext ctx;
        ctx.workdir = plan->workdir;
        // A qemu guest started by the plan has the memory it is given; the campaign reads the
        // real figure from each target when it runs.
        ctx.ramBytes =
            layout.guest && layout.guest->hypervisor == "qemu" ? layout.guest->memoryBytes : ram;
        if (layout.guest) {
            const auto guestTarget = parseSshUrl(layout.guest->target);
            ctx.root = guestTarget && guestTarget->user == "root";
        } else {
            ctx.root = geteuid() == 0;
        }
        ctx.layoutName = layout.name;
        ctx.exported = exportTarget(layout, plan->workdir);
        nlohmann::json workloads = nlohmann::json::array();
        for (const auto& w : scenario->workloads) {
            const Probe* probe = probes.find(w.probe);
            // Where it runs: the layout's host, its one client, or from here to all its clients.
            WorkloadContext wctx = ctx;
            std::string where;
            if (w.clients.size() > 1 && probe->drivesClients()) {
                for (const auto& name : w.clients) {
                    const ScenarioClient& c = *scenario->client(name);
                    wctx.clients.push_back({c.name, c.address, c.fioPort, c.workDir});
                }
                where = "   (from this machine to its clients)";
            } else if (!w.clients.empty()) {
                where = "   (on client " + w.clients.front() + ")";
            }
            auto mc = probe->command(w.options, wctx);
            if (!mc)
                return report(mc.error());
            nlohmann::json prepare = nlohmann::json::array(), cleanup = nlohmann::json::array();
            for (const auto& c : mc->clientPrepare) {
                prepare.push_back({{"client", c.client}, {"argv", c.command.argvForDisplay()}});
                text << "  run " << w.name << " prepare on " << c.client << ": "
                     << c.command.toUserOutput() << "\n";
            }
            for (const auto& c : mc->prepare) {
                prepare.push_back(c.argvForDisplay());
                text << "  run " << w.name << " prepare: " << c.toUserOutput() << "\n";
            }
            text << "  run " << w.name << " x"
                 << (scenario->adaptive() ? std::to_string(scenario->iterations) + "-" +
                                                std::to_string(*scenario->maxIterations)
                                          : std::to_string(scenario->iterations))
                 << ": " << mc->command.toUserOutput()
                 << (mc->command.cwd.empty() ? "" : "   (in " + mc->command.cwd + ")") << where
                 << "\n";
            for (const auto& c : mc->cleanup) {
                cleanup.push_back(c.argvForDisplay());
                text << "  run " << w.name << " cleanup: " << c.toUserOutput() << "\n";
            }
            for (const auto& c : mc->clientCleanup) {
                cleanup.push_back({{"client", c.client}, {"argv", c.command.argvForDisplay()}});
                text << "  run " << w.name << " cleanup on " << c.client << ": "
                     << c.command.toUserOutput() << "\n";
            }
            workloads.push_back({{"name", w.name},
                                 {"iterations", scenario->iterations},
                                 {"clients", w.clients},
                                 {"prepare", prepare},
                                 {"argv", mc->command.argvForDisplay()},
                                 {"cwd", mc->command.cwd},
                                 {"cleanup", cleanup}});
        }
        text << "  teardown: the undo commands above, newest first\n";
        out.push_back({{"layout", layout.name},
                       {"kind", layoutKindName(layout.kind)},
                       {"baseline", layout.baseline},
                       {"workdir", plan->workdir},
                       {"steps", steps},
                       {"workloads", workloads}});
    }
    if (g.json)
        std::cout << dumpJson(nlohmann::json{{"scenario", scenario->name},
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
    addGlobalOptions(*sub, g);
    sub->callback([&g, &action, opts] { action = [&g, opts] { return runRun(g, *opts); }; });
}

void addPlan(CLI::App& app, Globals& g, Action& action) {
    auto path = std::make_shared<std::string>();
    auto* sub = app.add_subcommand("plan", "Every command a scenario would run, with its undo");
    sub->add_option("scenario", *path, "Scenario file (TOML)")->required();
    addGlobalOptions(*sub, g);
    sub->callback([&g, &action, path] { action = [&g, path] { return runPlan(g, *path); }; });
}

} // namespace lb::cli
