// `layoutbench list`: what the database holds (layouts, runs or campaigns), and the drives of
// the catalog that project and report price and wear.
#include "app/cli/commands.h"
#include "app/cli/terminal.h"
#include "engine/base/install_paths.h"
#include "engine/base/size.h"
#include "engine/base/utf8.h"
#include "engine/capacity/drive_catalog.h"
#include "engine/store/store.h"
#include "reports/display.h"

#include <iostream>
#include <nlohmann/json.hpp>

namespace lb::cli {

namespace {

int listLayouts(const Globals& g, Store& store) {
    auto rows = store.layouts();
    if (!rows)
        return report(rows.error());
    nlohmann::json out = nlohmann::json::array();
    display::Table table({"layout", "kind", "host", "runs", "failed"});
    for (const auto& l : *rows) {
        auto spec = nlohmann::json::parse(l.spec, nullptr, false);
        out.push_back({{"name", l.name},
                       {"kind", l.kind},
                       {"host", l.host},
                       {"runs", l.runs},
                       {"failed_runs", l.failedRuns},
                       {"spec", spec.is_discarded() ? nlohmann::json(nullptr) : std::move(spec)}});
        table.addRow(
            {l.name, l.kind, l.host, std::to_string(l.runs), std::to_string(l.failedRuns)});
    }
    std::cout << (g.json ? dumpJson(out, 2) + "\n" : table.render(outputColumns()));
    return 0;
}

int listRuns(const Globals& g, Store& store) {
    auto rows = store.runs();
    if (!rows)
        return report(rows.error());
    nlohmann::json out = nlohmann::json::array();
    display::Table table({"id", "campaign", "layout", "host", "workload", "iter", "status",
                          "seconds", "metrics", "reason"});
    for (const auto& r : *rows) {
        out.push_back({{"id", r.id},
                       {"campaign", r.campaignId ? nlohmann::json(r.campaignId) : nullptr},
                       {"layout", r.layout},
                       {"host", r.host.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.host)},
                       {"workload", r.workload},
                       {"probe", r.probe},
                       {"iteration", r.iteration + 1}, // counted from 1, as everywhere shown
                       {"status", runStatusName(r.status)},
                       {"reason", r.reason},
                       {"started_at", r.startedAt},
                       {"wall_seconds", r.wallSeconds},
                       {"metrics", r.metrics},
                       // The fill level it ran at and what the ageing wrote to reach it, which
                       // the drive-wear projection does not count (issue 44).
                       {"fill_level", r.fillLevel ? nlohmann::json(*r.fillLevel) : nullptr},
                       {"fill_bytes", r.fillBytes ? nlohmann::json(*r.fillBytes) : nullptr}});
        table.addRow({std::to_string(r.id), r.campaignId ? std::to_string(r.campaignId) : "-",
                      r.layout, r.host.empty() ? "-" : r.host, r.workload,
                      std::to_string(r.iteration + 1), std::string(runStatusName(r.status)),
                      display::value(r.wallSeconds, Unit::Seconds), std::to_string(r.metrics),
                      r.reason});
    }
    std::cout << (g.json ? dumpJson(out, 2) + "\n" : table.render(outputColumns()));
    return 0;
}

int listCampaigns(const Globals& g, Store& store) {
    auto rows = store.campaigns();
    if (!rows)
        return report(rows.error());
    nlohmann::json out = nlohmann::json::array();
    display::Table table({"id", "name", "status", "started", "finished", "runs", "scenario"});
    for (const auto& c : *rows) {
        out.push_back({{"id", c.id},
                       {"name", c.name},
                       {"status", enumName(c.status)},
                       {"started_at", c.startedAt},
                       {"finished_at", c.finishedAt},
                       {"runs", c.runs},
                       {"scenario", c.scenarioPath}});
        table.addRow({std::to_string(c.id), c.name, std::string(enumName(c.status)), c.startedAt,
                      c.finishedAt, std::to_string(c.runs), c.scenarioPath});
    }
    std::cout << (g.json ? dumpJson(out, 2) + "\n" : table.render(outputColumns()));
    return 0;
}

// The drives --drive takes, as the catalog gives them.
int listDrives(const Globals& g, const std::string& path) {
    auto catalog = loadDriveCatalog(path);
    if (!catalog)
        return report(catalog.error(), {{"catalog", "--catalog"}});
    nlohmann::json out = nlohmann::json::array();
    display::Table table({"drive", "model", "medium", "capacity", "endurance", "warranty", "AFR",
                          "price (illustrative)"});
    const auto optional = [](const std::optional<double>& v) {
        return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
    };
    for (const auto& d : catalog->drives) {
        out.push_back({{"id", d.id},
                       {"model", d.model},
                       {"medium", driveMediumName(d.medium)},
                       {"capacity_bytes", d.capacityBytes},
                       {"tbw", optional(d.tbw)},
                       {"dwpd", optional(d.dwpd)},
                       {"warranty_years", optional(d.warrantyYears)},
                       {"endurance_bytes", optional(d.enduranceBytes())},
                       {"price_usd", d.priceUsd},
                       {"price_is_illustrative", true},
                       {"afr", optional(d.afr)},
                       {"ure_per_bit", optional(d.urePerBit)},
                       {"reliability_source", d.reliabilitySource}});
        std::string endurance = "-";
        if (d.tbw)
            endurance = fixed(*d.tbw, 0) + " TBW";
        else if (d.dwpd)
            endurance = fixed(*d.dwpd, 2) + " DWPD";
        table.addRow({d.id, d.model, std::string(driveMediumName(d.medium)),
                      formatBytes(d.capacityBytes), endurance,
                      d.warrantyYears ? fixed(*d.warrantyYears, 0) + " years" : "-",
                      d.afr ? display::share(*d.afr, 2) : "-", display::usd(d.priceUsd)});
    }
    if (g.json) {
        std::cout << dumpJson(out, 2) << "\n";
    } else {
        std::cout << table.render(outputColumns());
        std::cout << "(" << catalog->source
                  << "; prices are illustrative: give yours to project and report with --price)\n";
    }
    return 0;
}

} // namespace

void addList(CLI::App& app, Globals& g, Action& action) {
    auto what = std::make_shared<std::string>("layouts");
    auto catalog = std::make_shared<std::string>(defaultDriveCatalogPath());
    auto* sub = app.add_subcommand(
        "list", "List layouts, runs or campaigns in the database, or the catalog's drives");
    sub->add_option("what", *what, "layouts, runs, campaigns or drives")
        ->check(CLI::IsMember({"layouts", "runs", "campaigns", "drives"}))
        ->capture_default_str();
    sub->add_option("--catalog", *catalog, "Drive catalog (TOML), for list drives")
        ->capture_default_str();
    addGlobalOptions(*sub, g);
    sub->callback([&g, &action, what, catalog] {
        action = [&g, what, catalog]() -> int {
            if (*what == "drives")
                return listDrives(g, *catalog);
            auto store = openStore(g, DbAccess::Existing);
            if (!store)
                return report(store.error());
            if (*what == "runs")
                return listRuns(g, *store);
            if (*what == "campaigns")
                return listCampaigns(g, *store);
            return listLayouts(g, *store);
        };
    });
}

} // namespace lb::cli
