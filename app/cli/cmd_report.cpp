// `layoutbench report`: the decision report as self-contained HTML, PDF or Markdown, chosen by
// the extension of --out. HTML and Markdown (their charts SVG) are written here, with no Qt; a
// PDF is laid out by layoutbench-render (app/cli/pdf_renderer.h).
#include "app/cli/commands.h"
#include "app/cli/pdf_renderer.h"
#include "engine/base/install_paths.h"
#include "engine/base/utf8.h"
#include "engine/capacity/drive_catalog.h"
#include "engine/capacity/projection.h"
#include "engine/store/store.h"
#include "engine/workbench.h"
#include "layoutbench_version.h"
#include "reports/comparison_text.h"
#include "reports/report_file.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace lb::cli {

namespace {

struct ReportOptions {
    std::string out;
    std::string baseline;
    std::string candidate;
    std::int64_t campaign = 0;
    std::optional<std::string> host;
    bool all = false;
    double viable = 0;    // 0: the scenario's, else the default
    double notViable = 0; // 0: the scenario's, else the default
    // The capacity projection section: --used and --growth together turn it on.
    std::string used;
    std::string growth;
    unsigned years = 5;
    std::string drive;
    std::string hostWrites;
    std::string catalog = defaultDriveCatalogPath();
    std::vector<std::string> capacities;         // --capacity LAYOUT=SIZE, for imported layouts
    std::vector<std::string> importedDisks;      // --imported-disks LAYOUT=KIND,DISKS,...
    std::string price;                           // --price 180 or 25/TB
    std::vector<std::string> writeAmplification; // --write-amplification [LAYOUT=]3.0
    RiskOptions risk;                   // --afr, --replace-after, --rebuild-rate, --hot-spare
    std::vector<std::string> riskGiven; // those of them given, for the refusal without --used
    ProjectionSettings riskSettings;    // those given, as the engine takes them
    std::string author;                 // "": user@host
};

// The engine's fields, as this command's flags.
constexpr std::array<FieldFlag, 19> reportFlags{{{"out", "--out"},
                                                 {"afr", "--afr"},
                                                 {"replace-after", "--replace-after"},
                                                 {"rebuild-rate", "--rebuild-rate"},
                                                 {"imported-disks", "--imported-disks"},
                                                 {"price", "--price"},
                                                 {"write-amplification", "--write-amplification"},
                                                 {"capacity", "--capacity"},
                                                 {"baseline", "--baseline"},
                                                 {"candidate", "--candidate"},
                                                 {"campaign", "--campaign"},
                                                 {"host", "--host"},
                                                 {"used", "--used"},
                                                 {"growth", "--growth"},
                                                 {"years", "--years"},
                                                 {"host-writes", "--host-writes"},
                                                 {"drive", "--drive"},
                                                 {"catalog", "--catalog"},
                                                 {"underprovision", "--underprovision"}}};

// --used/--growth and friends -> the projection request; none when neither is given. The drive
// is looked up whenever it is named, and the options only the projection reads are refused
// without it.
Expected<std::optional<ProjectionRequest>> projectionRequest(const ReportOptions& o) {
    std::optional<Drive> drive;
    if (!o.drive.empty()) {
        LB_TRY(catalog, loadDriveCatalog(o.catalog));
        LB_TRY(found, catalog.lookup(o.drive));
        drive = found;
    }
    if (o.used.empty() && o.growth.empty()) {
        for (const auto& [named, flag] :
             {std::pair{!o.capacities.empty(), "--capacity"},
              std::pair{!o.importedDisks.empty(), "--imported-disks"},
              std::pair{drive.has_value(), "--drive"},
              std::pair{!o.hostWrites.empty(), "--host-writes"},
              std::pair{!o.price.empty(), "--price"},
              std::pair{!o.writeAmplification.empty(), "--write-amplification"}})
            if (named)
                return badInput(std::string(flag) +
                                " applies only to the capacity projection: give --used and "
                                "--growth with it");
        if (!o.riskGiven.empty())
            return badInput(o.riskGiven.front() +
                            " applies only to the capacity projection and its risk: give --used "
                            "and --growth with it");
        return std::optional<ProjectionRequest>{};
    }
    ProjectionSettings settings = o.riskSettings;
    settings.used = o.used;
    settings.growth = o.growth;
    settings.years = o.years;
    settings.drive = drive;
    settings.hostWrites = o.hostWrites;
    settings.capacities = o.capacities;
    settings.price = o.price;
    settings.writeAmplification = o.writeAmplification;
    settings.importedDisks = o.importedDisks;
    LB_TRY(request, lb::projectionRequest(settings));
    return std::optional<ProjectionRequest>{request};
}

// What was written, for a script (--json): the file, its format, the runs and every verdict.
void printJson(const ReportData& data, const std::string& out, ReportFormat format,
               std::int64_t failed) {
    nlohmann::json comparisons = nlohmann::json::array();
    for (const auto& c : data.comparisons)
        comparisons.push_back(comparisonJson(c));
    nlohmann::json layouts = nlohmann::json::array();
    for (const auto& l : data.layouts)
        layouts.push_back(l.name);
    nlohmann::json projections = nlohmann::json::array();
    for (const auto& p : data.projections)
        projections.push_back({{"name", p.name},
                               {"usable_bytes", p.capacity.usableBytes},
                               {"capacity_given", p.capacityGiven},
                               {"ceiling_bytes", p.ceilingBytes},
                               {"ceiling_month", p.ceilingMonth ? nlohmann::json(*p.ceilingMonth)
                                                                : nlohmann::json(nullptr)}});
    std::cout << dumpJson(
                     nlohmann::json{{"out", out},
                                    {"format", reportFormatName(format)},
                                    {"baseline", data.baseline},
                                    {"campaign", data.campaignId ? nlohmann::json(*data.campaignId)
                                                                 : nlohmann::json(nullptr)},
                                    {"scope", data.scope},
                                    {"host", data.host.empty() ? nlohmann::json(nullptr)
                                                               : nlohmann::json(data.host)},
                                    {"layouts", layouts},
                                    {"runs", data.runs.size()},
                                    {"failed_runs", failed},
                                    {"comparisons", comparisons},
                                    {"projections", projections}},
                     2)
              << '\n';
}

// What was written, for a person: the file, its format, each candidate's verdict, the runs.
void printSummary(const ReportData& data, const std::string& out, ReportFormat format,
                  std::int64_t failed) {
    std::cout << "wrote " << out << " (" << reportFormatName(format) << "): baseline "
              << data.baseline;
    for (const auto& c : data.comparisons)
        std::cout << "; " << c.candidate << ": "
                  << (c.metrics.empty() ? std::string("nothing to compare")
                                        : std::string(verdictName(c.verdict)));
    std::cout << "; " << data.runs.size() << " runs, " << failed << " failed\n"
              << "scope: " << data.scope
              << (data.scopeHint.empty() ? std::string() : " (" + data.scopeHint + ")") << '\n';
    if (!data.host.empty())
        std::cout << "machine: " << data.host << '\n';
}

int runReport(const Globals& g, const ReportOptions& o) {
    if (!reportFormatOf(o.out))
        return report(Error::badInput("--out: '" + o.out +
                                      "' must end in .html, .pdf or .md (the format follows the "
                                      "extension)"));
    ReportRequest request;
    if (!o.baseline.empty())
        request.baseline = o.baseline;
    if (!o.candidate.empty())
        request.candidate = o.candidate;
    if (o.campaign > 0)
        request.campaignId = o.campaign;
    request.allRuns = o.all;
    request.host = o.host;
    if (o.viable > 0 || o.notViable > 0) {
        request.scenarioThresholds = false;
        if (o.viable > 0)
            request.thresholds.viableMax = o.viable;
        if (o.notViable > 0)
            request.thresholds.notViableMin = o.notViable;
        if (!validThresholds(request.thresholds))
            return report(Error::badInput("--viable/--not-viable: need 1 <= viable < not-viable"));
    }

    auto projection = projectionRequest(o);
    if (!projection)
        return report(projection.error(), reportFlags);
    request.projection = *projection;
    request.author = o.author.empty() ? defaultAuthor() : o.author;
    request.writtenAt = utcNow();
    request.generator = std::string("layoutbench ") + kVersionText;

    auto store = openStore(g, DbAccess::Existing);
    if (!store)
        return report(store.error());
    auto data = gatherReport(*store, request);
    if (!data)
        return report(data.error(), reportFlags);
    if (data->projectionMisfit)
        return report(misfitError(*data->projectionMisfit));

    auto format = writeReportFile(*data, o.out, pdfThroughRenderer);
    if (!format)
        return report(format.error(), reportFlags);

    std::int64_t failed = 0;
    for (const auto& r : data->runs)
        failed += r.status == RunStatus::Ok ? 0 : 1;
    if (g.json)
        printJson(*data, o.out, *format, failed);
    else
        printSummary(*data, o.out, *format, failed);
    return 0;
}

} // namespace

void addReport(CLI::App& app, Globals& g, Action& action) {
    auto opts = std::make_shared<ReportOptions>();
    auto* sub = app.add_subcommand("report", "Write the decision report (HTML, PDF or Markdown)");
    sub->add_option("--out", opts->out, "Report file: FILE.html, FILE.pdf or FILE.md")->required();
    sub->add_option("--baseline", opts->baseline,
                    "Baseline layout (default: the one the scenario marks, else the first)");
    sub->add_option("--candidate", opts->candidate,
                    "Only this candidate (default: every other layout)");
    sub->add_option("--campaign", opts->campaign,
                    "Only the runs of this campaign id (default: the newest campaign of the "
                    "compared layouts, and the runs of layouts that were only imported)")
        ->check(CLI::PositiveNumber);
    sub->add_flag("--all", opts->all, "Every run in the database, of every campaign")
        ->excludes("--campaign");
    sub->add_option("--host", opts->host,
                    "Only the runs measured on this machine (required when a layout holds runs "
                    "of several hosts)");
    sub->add_option("--viable", opts->viable,
                    "Cost ratio at or below which a metric is viable (default: the scenario's, "
                    "else 1.10)");
    sub->add_option("--not-viable", opts->notViable,
                    "Cost ratio at or above which a metric is not viable (default: the "
                    "scenario's, else 2.0)");
    sub->add_option("--used", opts->used,
                    "Bytes in use now, for the capacity projection (with --growth)");
    sub->add_option("--growth", opts->growth,
                    "Yearly growth for the capacity projection: 30% (compound) or 2TB/y (linear)");
    sub->add_option("--years", opts->years, "Projection horizon in years")->capture_default_str();
    sub->add_option("--drive", opts->drive, "Drive id from the catalog, for price and endurance");
    sub->add_option("--host-writes", opts->hostWrites, "What the hosts write per day, e.g. 100G/d");
    sub->add_option("--catalog", opts->catalog, "Drive catalog (TOML)")->capture_default_str();
    sub->add_option("--capacity", opts->capacities,
                    "Usable capacity of an imported layout for the projection, whose disks are "
                    "unknown: LAYOUT=SIZE, e.g. nas=12T (repeatable)");
    sub->add_option("--imported-disks", opts->importedDisks,
                    "The disks an imported layout was built on, for its capacity, cost and wear: "
                    "LAYOUT=KIND,DISKS[,SIZE][,PARTITIONED], e.g. "
                    "bare-metal=zfs-raidz2,10,500G,80% or guest=guest:md-raid6,10,,80% (the "
                    "size left out: the --drive's) (repeatable)");
    addPurchaseOptions(*sub, opts->price, opts->writeAmplification);
    addRiskOptions(*sub, opts->risk);
    sub->add_option("--author", opts->author,
                    "Who the report says wrote it (default: user@host of this process)");
    addGlobalOptions(*sub, g);
    sub->callback([&g, &action, opts, sub] {
        applyRiskOptions(*sub, opts->risk, opts->riskSettings);
        opts->riskGiven = givenRiskOptions(*sub);
        action = [&g, opts] { return runReport(g, *opts); };
    });
}

} // namespace lb::cli
