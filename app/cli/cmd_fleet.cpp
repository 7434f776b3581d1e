// `layoutbench fleet run` and `layoutbench fleet report`: one scenario run through Ansible on
// every host of an inventory, the results merged into one database; and each layout's hosts side
// by side, the ones that stand apart named.
#include "app/cli/commands.h"
#include "app/cli/pdf_renderer.h"
#include "app/cli/stop_signals.h"
#include "app/cli/terminal.h"
#include "engine/base/utf8.h"
#include "engine/workbench.h"
#include "reports/display.h"
#include "reports/fleet_text.h"
#include "reports/report_file.h"

#include <iostream>
#include <nlohmann/json.hpp>

namespace lb::cli {

namespace {

struct FleetReportOptions {
    std::optional<std::string> layout;
    bool allMetrics = false;
    std::string out;
};

void printOutcomes(const Globals& g, const std::vector<FleetHostOutcome>& outcomes) {
    if (g.json) {
        auto hosts = nlohmann::json::array();
        for (const auto& o : outcomes)
            hosts.push_back({{"host", o.host},
                             {"status", fleetHostStatusName(o.status)},
                             {"reason", o.reason},
                             {"campaigns", o.merged ? o.merged->campaigns : 0},
                             {"runs", o.merged ? o.merged->runs : 0}});
        std::cout << dumpJson(nlohmann::json{{"db", g.db}, {"hosts", hosts}}, 2) << '\n';
        return;
    }
    display::Table table({"host", "status", "runs merged", "reason"});
    for (const auto& o : outcomes)
        table.addRow({o.host, std::string(fleetHostStatusName(o.status)),
                      o.merged ? std::to_string(o.merged->runs) : "—", o.reason});
    std::cout << table.render(outputColumns());
}

int runFleetRun(const Globals& g, FleetRunRequest request) {
    auto store = openStore(g, DbAccess::Create);
    if (!store)
        return report(store.error());
    if (request.fleetDir.empty())
        request.fleetDir = g.db + ".fleet";
    catchStopSignals();
    auto runner = makeLocalRunner();
    auto outcomes = runFleet(
        *store, request, *runner,
        [](std::string_view line) { std::cerr << "fleet: " << line << '\n'; }, &interrupted);
    if (!outcomes)
        return report(outcomes.error(), {{"scenario", "SCENARIO"}, {"inventory", "--inventory"}});
    printOutcomes(g, *outcomes);
    if (const int signal = interruptedBy.load())
        return 128 + signal;
    for (const auto& o : *outcomes)
        if (o.status == FleetHostStatus::Failed || o.status == FleetHostStatus::Unreachable)
            return 1;
    return 0;
}

int runFleetReport(const Globals& g, const FleetReportOptions& o) {
    auto store = openStore(g, DbAccess::Existing);
    if (!store)
        return report(store.error());
    auto fleet = fleetAnalyses(*store, o.layout, o.allMetrics);
    if (!fleet)
        return report(fleet.error(), {{"layout", "--layout"}});
    std::optional<ReportFormat> written;
    if (!o.out.empty()) {
        auto w = writeReportFile(fleetDocument(*fleet, utcNow()), o.out, pdfThroughRenderer);
        if (!w)
            return report(w.error(), {{"out", "--out"}});
        written = *w;
    }
    if (g.json)
        std::cout << dumpJson(fleetJson(*fleet), 2) << '\n';
    else if (written)
        std::cout << "wrote " << o.out << " (" << reportFormatName(*written)
                  << "): " << fleet->size() << " layout(s) measured on several hosts\n";
    else
        std::cout << fleetText(*fleet, outputColumns());
    return 0;
}

void addFleetRun(CLI::App& fleet, Globals& g, Action& action) {
    auto r = std::make_shared<FleetRunRequest>();
    auto* sub = fleet.add_subcommand(
        "run", "Run a scenario on every host of an Ansible inventory, each against its own "
               "disks, and merge every host's results into this database");
    sub->add_option("scenario", r->scenario,
                    "Scenario file; a template each host's inventory variables fill")
        ->required();
    sub->add_option("--inventory,-i", r->inventory, "Ansible inventory (INI or YAML)")->required();
    sub->add_option("--forks", r->forks, "Hosts at once")->capture_default_str();
    sub->add_flag("--resume", r->resume,
                  "Only the hosts not merged yet, each resuming its unfinished campaign");
    sub->add_option("--yes-destroy", r->yesDestroy,
                    "A device `run` may destroy on every host (repeatable; an inventory's "
                    "layoutbench_yes_destroy adds a host's own)");
    sub->add_option("--fleet-dir", r->fleetDir,
                    "Where each host's database lands (default: the database's path + .fleet)");
    sub->add_option("--remote-dir", r->remoteDir,
                    "Each host's work directory (default /var/tmp/layoutbench-fleet)");
    sub->add_option("--layoutbench", r->layoutbench,
                    "The layoutbench program on each host (default: the one on its PATH)");
    sub->add_option("--package", r->package, "A layoutbench .deb to install on each host first");
    sub->add_option("--playbook", r->playbook, "The playbook (default: the one installed)");
    addGlobalOptions(*sub, g);
    sub->callback([&g, &action, r] { action = [&g, r] { return runFleetRun(g, *r); }; });
}

void addFleetReport(CLI::App& fleet, Globals& g, Action& action) {
    auto o = std::make_shared<FleetReportOptions>();
    auto* sub = fleet.add_subcommand(
        "report", "Each layout's hosts side by side: medians, intervals, and the hosts that "
                  "stand apart, worst first");
    sub->add_option("--layout", o->layout,
                    "Only this layout (default: every layout measured "
                    "on several hosts)");
    sub->add_flag("--all-metrics", o->allMetrics, "Every metric, not only the deciding ones");
    sub->add_option("--out", o->out,
                    "Also write the report: FILE.html, FILE.pdf or FILE.md (by its extension)");
    addGlobalOptions(*sub, g);
    sub->callback([&g, &action, o] { action = [&g, o] { return runFleetReport(g, *o); }; });
}

} // namespace

void addFleet(CLI::App& app, Globals& g, Action& action) {
    auto* fleet = app.add_subcommand(
        "fleet", "The same scenario on many servers through Ansible, and their results side by "
                 "side");
    fleet->require_subcommand(1);
    addGlobalOptions(*fleet, g);
    addFleetRun(*fleet, g, action);
    addFleetReport(*fleet, g, action);
}

} // namespace lb::cli
