// `layoutbench project`: when the data outgrows each layout, what growing it costs, and when its
// SSDs reach their rated endurance, month by month over the horizon (five years by default).
#include "app/cli/commands.h"
#include "app/cli/terminal.h"
#include "engine/base/install_paths.h"
#include "engine/base/size.h"
#include "engine/base/utf8.h"
#include "engine/capacity/drive_catalog.h"
#include "engine/capacity/layout.h"
#include "engine/capacity/projection.h"
#include "engine/store/store.h"
#include "engine/workbench.h"
#include "reports/display.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lb::cli {

namespace {

struct ProjectOptions {
    std::vector<std::string> layouts; // --layout, from the database
    // --kind (several to compare side by side), --disks, --disk-size, --recordsize, --ashift,
    // --underprovision
    HypotheticalLayoutSettings hypothetical;
    // --used, --growth, --samples, --years, --host-writes, --capacity, --price,
    // --write-amplification and --underprovision-wa-gain, bound as the engine takes them; the
    // drive and the ceiling are set from the two below.
    ProjectionSettings settings;
    double ceiling = 0; // --ceiling, when given
    RiskOptions risk;   // --afr, --replace-after, --rebuild-rate, --hot-spare
    std::string drive;
    std::string catalog = defaultDriveCatalogPath();
};

// The years a wear estimate's endurance lasts, where it is a finite number.
std::optional<double> finiteYears(const std::optional<WearEstimate>& wear) {
    if (wear && wear->years && std::isfinite(*wear->years))
        return wear->years;
    return std::nullopt;
}

nlohmann::json optionalJson(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

std::string years1(double y) {
    if (std::isinf(y))
        return "never";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f years", y);
    return buf;
}

// The engine's fields, as this command's flags.
constexpr std::array<FieldFlag, 27> projectFlags{
    {{"kind/layout", "--kind/--layout"},
     {"afr", "--afr"},
     {"replace-after", "--replace-after"},
     {"rebuild-rate", "--rebuild-rate"},
     {"imported-disks", "--imported-disks"},
     {"inner", "--inner"},
     {"guest-pool", "--guest-pool"},
     {"growth/samples", "--growth/--samples"},
     {"layout", "--layout"},
     {"used", "--used"},
     {"price", "--price"},
     {"write-amplification", "--write-amplification"},
     {"capacity", "--capacity"},
     {"kind", "--kind"},
     {"disks", "--disks"},
     {"disk-size", "--disk-size"},
     {"recordsize", "--recordsize"},
     {"ashift", "--ashift"},
     {"underprovision", "--underprovision"},
     {"growth", "--growth"},
     {"samples", "--samples"},
     {"host-writes", "--host-writes"},
     {"years", "--years"},
     {"ceiling", "--ceiling"},
     {"underprovision-wa-gain", "--underprovision-wa-gain"},
     {"drive", "--drive"},
     {"catalog", "--catalog"}}};

nlohmann::json expansionJson(const ExpansionPath& e) {
    nlohmann::json schedule = nlohmann::json::array();
    for (const auto& s : e.schedule)
        schedule.push_back({{"month", s.month},
                            {"disks", s.disks},
                            {"total_disks", s.totalDisks},
                            {"usable_bytes", s.usableBytes},
                            {"effective_usable_bytes", s.effectiveUsableBytes}});
    return {{"path", expansionKindName(e.kind)},
            {"description", e.description},
            {"disks_per_step", e.disksPerStep},
            {"disk_bytes", e.diskBytes},
            {"step_usable_bytes", e.stepUsableBytes},
            {"step_cost_usd", optionalJson(e.stepCostUsd)},
            {"cost_per_usable_tb_usd", optionalJson(e.costPerUsableTbUsd)},
            {"requires_openzfs",
             e.requiresOpenZfs ? nlohmann::json(*e.requiresOpenZfs) : nlohmann::json(nullptr)},
            {"reported_step_usable_bytes", e.reportedStepUsableBytes
                                               ? nlohmann::json(*e.reportedStepUsableBytes)
                                               : nlohmann::json(nullptr)},
            {"approximate", e.approximate},
            {"note", e.note},
            {"schedule", schedule},
            {"disks_per_year", e.disksPerYear},
            {"disks_bought", e.disksBought},
            {"total_cost_usd", optionalJson(e.totalCostUsd)},
            {"keeps_up", e.keepsUp},
            {"limit_month", e.limitMonth ? nlohmann::json(*e.limitMonth) : nlohmann::json(nullptr)},
            {"final_usable_bytes", e.finalUsableBytes}};
}

// `recordedKind`: an imported layout's kind as recorded ("imported"), for one whose capacity was
// given; the others are named by the kind their capacity was modelled as.
// The SSDs' wear in JSON, null without host writes; endurance years only where finite.
nlohmann::json wearJson(const std::optional<WearEstimate>& wear) {
    if (!wear)
        return nullptr;
    const auto& w = *wear;
    return {{"write_amplification_layout", w.layout.factor},
            {"write_amplification_basis", w.layout.basis},
            {"underprovision_wa_gain", w.underprovisionGain},
            {"write_amplification", w.writeAmplification},
            {"host_writes_bytes_per_day", w.hostBytesPerDay},
            {"device_writes_bytes_per_day", w.deviceBytesPerDay},
            {"endurance_bytes", optionalJson(w.enduranceBytes)},
            {"endurance_years", optionalJson(finiteYears(wear))},
            {"write_amplification_given", w.modelled.has_value()},
            {"write_amplification_modelled",
             w.modelled ? nlohmann::json(w.modelled->factor) : nlohmann::json(nullptr)},
            {"replacement_disks", w.replacementDisks}};
}

nlohmann::json costJson(const std::optional<HorizonCost>& cost) {
    if (!cost)
        return nullptr;
    const auto& c = *cost;
    return {{"price_basis", c.priceBasis},
            {"price_is_illustrative", c.illustrative},
            {"purchase_usd", c.purchaseUsd},
            {"replacement_usd", c.replacementUsd},
            {"expansion", c.expansion ? nlohmann::json(expansionKindName(*c.expansion))
                                      : nlohmann::json(nullptr)},
            {"expansion_usd", c.expansionUsd},
            {"expansion_short", c.expansionShort},
            {"total_usd", c.totalUsd}};
}

// The chance of losing the data over the horizon, with what it was computed from; null when the
// capacity was given (no disks known). window_hours and window_source are null when nothing is
// rebuilt (no redundancy).
nlohmann::json riskJson(const std::optional<RiskEstimate>& risk, bool binary) {
    if (!risk)
        return nullptr;
    const auto& r = *risk;
    const RiskGroup& worst = r.worst();
    const bool rebuilt = r.rebuild != RebuildKind::None;
    nlohmann::json groups = nlohmann::json::array();
    for (const auto& g : r.groups)
        groups.push_back({{"disks", g.disks},
                          {"special", g.special},
                          {"tolerates", g.tolerates},
                          {"member_bytes", g.memberBytes},
                          {"rebuild_bytes", g.rebuildBytes},
                          {"window_hours", rebuilt ? nlohmann::json(g.windowHours) : nullptr},
                          {"loss_probability", g.lossProbability},
                          {"exposed_read_bytes", g.exposedReadBytes},
                          {"ure_probability", optionalJson(g.ureProbability)}});
    return {{"loss_probability", r.lossProbability},
            {"horizon_years", r.horizonYears},
            {"window_hours", rebuilt ? nlohmann::json(worst.windowHours) : nullptr},
            {"window_source",
             rebuilt ? nlohmann::json(r.rebuildMeasured ? "measured" : "assumed") : nullptr},
            {"ure_probability", optionalJson(worst.ureProbability)},
            {"afr", r.afr},
            {"afr_source", r.afrSource},
            {"afr_from", figureSourceName(r.afrFrom)},
            {"failures_per_year", r.failuresPerYear},
            {"replace_after_hours", r.replaceAfterHours},
            {"spare", r.spare.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.spare)},
            {"rebuild", rebuildKindName(r.rebuild)},
            {"rebuild_bytes", worst.rebuildBytes},
            {"rebuild_hours", worst.rebuildHours},
            {"rebuild_rate_bytes_per_s", r.rebuildBytesPerSecond},
            {"rebuild_rate_basis", r.rebuildBasis},
            {"fill_fraction", r.fillFraction},
            {"ure_per_bit", r.urePerBit},
            {"ure_source", r.ureSource},
            {"ure_from", figureSourceName(r.ureFrom)},
            {"groups", groups},
            {"statement", riskStatement(r, binary)}};
}

nlohmann::json layoutJson(const LayoutProjection& p, const std::string& recordedKind, bool binary) {
    nlohmann::json months = nlohmann::json::array();
    for (const auto& m : p.months)
        months.push_back(
            {{"month", m.month}, {"usable_bytes", m.usableBytes}, {"used_bytes", m.usedBytes}});
    nlohmann::json expansions = nlohmann::json::array();
    for (const auto& e : p.expansions)
        expansions.push_back(expansionJson(e));
    nlohmann::json out = {
        {"name", p.name},
        {"kind", p.capacityGiven ? recordedKind : std::string(layoutKindName(p.kind))},
        {"disks", p.diskBytes.size()},
        {"disk_bytes", p.diskBytes},
        {"raw_bytes",
         p.capacityGiven ? nlohmann::json(nullptr) : nlohmann::json(p.capacity.rawBytes)},
        {"capacity_given", p.capacityGiven},
        {"usable_bytes", p.capacity.usableBytes},
        {"ceiling_fraction", p.ceilingFraction},
        {"ceiling_bytes", p.ceilingBytes},
        {"ceiling_month",
         p.ceilingMonth ? nlohmann::json(*p.ceilingMonth) : nlohmann::json(nullptr)},
        {"months", months},
        {"expansions", expansions},
        {"endurance_years", optionalJson(finiteYears(p.wear))},
        {"wear", wearJson(p.wear)},
        {"cost", costJson(p.cost)},
        {"risk", riskJson(p.risk, binary)},
        {"notes", p.notes}};
    if (p.wholeDiskCapacity)
        out["underprovision"] = {
            {"usable_bytes_whole_disks", p.wholeDiskCapacity->usableBytes},
            {"underprovisioned_bytes", p.capacity.underprovisionedBytes},
            {"usable_bytes_given_up",
             p.wholeDiskCapacity->usableBytes -
                 std::min(p.wholeDiskCapacity->usableBytes, p.capacity.usableBytes)}};
    return out;
}

nlohmann::json growthJson(const ProjectionRequest& g) {
    nlohmann::json out = {
        {"model", g.growth.kind == GrowthKind::Linear ? "linear" : "compound"},
        {"bytes_per_year",
         g.growth.kind == GrowthKind::Linear ? nlohmann::json(g.growth.bytesPerYear) : nullptr},
        {"annual_rate",
         g.growth.kind == GrowthKind::Compound ? nlohmann::json(g.growth.annualRate) : nullptr},
        {"source", g.fit ? "samples" : "--growth"}};
    if (g.fit) {
        const auto& f = *g.fit;
        out["fit"] = {{"file", g.samplesPath},
                      {"samples", f.samples},
                      {"first_date", f.firstDate},
                      {"last_date", f.lastDate},
                      {"chosen", f.exponential ? "exponential" : "linear"},
                      {"linear_bytes_per_year", f.linear.bytesPerYear},
                      {"linear_rms_bytes", f.linearRmsBytes},
                      {"exponential_annual_rate",
                       f.compound ? nlohmann::json(f.compound->annualRate) : nullptr},
                      {"exponential_rms_bytes", optionalJson(f.exponentialRmsBytes)}};
    }
    return out;
}

// "raidz2: 6 x 500 GB zfs-raidz2, usable 1.9 TB"; "nas: imported, usable 12 TB (given)".
std::string describeLayout(const LayoutProjection& p, const std::string& kind, bool binary) {
    const auto formatBytes = [binary](std::uint64_t b) { return lb::formatBytes(b, binary); };
    std::ostringstream out;
    out << p.name << ": ";
    if (p.capacityGiven) {
        out << kind << ", usable " << formatBytes(p.capacity.usableBytes) << " (given)";
        return out.str();
    }
    std::uint64_t smallest = p.diskBytes.front(), largest = p.diskBytes.front();
    for (auto d : p.diskBytes) {
        smallest = std::min(smallest, d);
        largest = std::max(largest, d);
    }
    out << p.diskBytes.size() << " x "
        << (smallest == largest ? formatBytes(smallest) : "mixed disks");
    if (p.name != layoutKindName(p.kind))
        out << " " << layoutKindName(p.kind);
    out << ", usable " << formatBytes(p.capacity.usableBytes);
    return out.str();
}

// Year by year: the usable space, the use, how full, and the disks each expansion path buys.
std::string yearsTable(const LayoutProjection& p, unsigned years, bool binary) {
    const auto formatBytes = [binary](std::uint64_t b) { return lb::formatBytes(b, binary); };
    std::vector<std::string> headers{"year", "month", "usable", "used", "full"};
    for (const auto& e : p.expansions)
        headers.push_back(std::string(expansionKindName(e.kind)) + " disks");
    display::Table table(headers);
    for (unsigned y = 0; y <= years; ++y) {
        const auto& m = p.months[y * 12];
        std::vector<std::string> row{
            std::to_string(y), std::to_string(m.month), formatBytes(m.usableBytes),
            formatBytes(m.usedBytes),
            display::share(static_cast<double>(m.usedBytes) / static_cast<double>(m.usableBytes))};
        for (const auto& e : p.expansions)
            row.push_back(y == 0 || e.disksPerYear[y - 1] == 0
                              ? ""
                              : "+" + std::to_string(e.disksPerYear[y - 1]));
        table.addRow(row);
    }
    return table.render(outputColumns());
}

// The expansion paths: a table of their steps and costs, then what each does.
std::string pathsText(const LayoutProjection& p, bool binary) {
    const auto formatBytes = [binary](std::uint64_t b) { return lb::formatBytes(b, binary); };
    std::ostringstream out;
    display::Table paths({"path", "disks/step", "step usable", "step cost", "per usable TB",
                          "disks bought", "total cost", "usable at end"});
    for (const auto& e : p.expansions)
        paths.addRow({std::string(expansionKindName(e.kind)), std::to_string(e.disksPerStep),
                      formatBytes(e.stepUsableBytes) + (e.approximate ? " ~" : ""),
                      e.stepCostUsd ? display::usd(*e.stepCostUsd) : "-",
                      e.costPerUsableTbUsd ? display::usd(*e.costPerUsableTbUsd) : "-",
                      std::to_string(e.disksBought) + (e.keepsUp ? "" : " (limit)"),
                      e.totalCostUsd ? display::usd(*e.totalCostUsd) : "-",
                      formatBytes(e.finalUsableBytes)});
    out << "\n" << paths.render(outputColumns());
    for (const auto& e : p.expansions) {
        out << "  " << expansionKindName(e.kind) << ": " << e.description << ". " << e.note;
        if (e.reportedStepUsableBytes)
            out << " zfs list would show the first step adding "
                << formatBytes(*e.reportedStepUsableBytes) << ".";
        if (!e.keepsUp && e.limitMonth)
            out << " Reaches its limit in month " << *e.limitMonth << ".";
        out << "\n";
    }
    return out.str();
}

// "Wear: write amplification ...; ... reached in 4.2 years; ...": the SSDs' wear in a line.
std::string wearLine(const WearEstimate& w, unsigned years, const std::optional<Drive>& drive,
                     bool binary) {
    const auto formatBytes = [binary](std::uint64_t b) { return lb::formatBytes(b, binary); };
    std::ostringstream out;
    out << "Wear: write amplification " << display::ratio(w.layout.factor) << " ("
        << w.layout.basis;
    if (w.modelled)
        out << "; the layout's model says " << display::ratio(w.modelled->factor) << ": "
            << w.modelled->basis;
    out << ")";
    if (w.underprovisionGain != 1.0)
        out << " x " << display::ratio(w.underprovisionGain) << " (given for underprovisioning)";
    out << "; " << formatBytes(static_cast<std::uint64_t>(w.hostBytesPerDay))
        << "/day from the hosts is "
        << formatBytes(static_cast<std::uint64_t>(std::llround(w.deviceBytesPerDay)))
        << "/day per disk";
    if (w.years)
        out << "; rated endurance "
            << formatBytes(static_cast<std::uint64_t>(std::llround(*w.enduranceBytes)))
            << " written per disk, reached in " << years1(*w.years);
    else if (drive && drive->medium == DriveMedium::Hdd)
        out << "; endurance not applicable (hard disk)";
    else
        out << "; give --drive for the rated endurance";
    if (w.replacementDisks > 0)
        out << "; " << w.replacementDisks << " disk(s) bought again within " << years << " years";
    out << ".\n";
    return out.str();
}

// `binary`: sizes as the user gave them, in TiB rather than TB.
std::string renderLayout(const LayoutProjection& p, const std::string& kind, unsigned years,
                         const std::optional<Drive>& drive, bool binary) {
    const auto formatBytes = [binary](std::uint64_t b) { return lb::formatBytes(b, binary); };
    std::ostringstream out;
    out << describeLayout(p, kind, binary) << ", ceiling " << display::share(p.ceilingFraction)
        << " = " << formatBytes(p.ceilingBytes) << ", ";
    if (p.ceilingMonth)
        out << "passed in month " << *p.ceilingMonth << " without expansion\n";
    else
        out << "not passed within " << years << " years\n";
    out << yearsTable(p, years, binary);
    if (!p.expansions.empty())
        out << pathsText(p, binary);
    for (const auto& n : p.notes)
        out << "  " << n << "\n";
    if (p.wholeDiskCapacity)
        out << display::underprovisioned(p, binary) << "\n";
    if (p.wear)
        out << wearLine(*p.wear, years, drive, binary);
    if (p.cost)
        out << display::horizonCost(*p.cost, years) << "\n";
    if (p.risk)
        out << "Risk: " << riskStatement(*p.risk, binary) << "\n";
    return out.str();
}

// A stored layout's measured fill levels tied to its projection (issue 44), as JSON.
nlohmann::json fillJson(const FillProjection& f) {
    nlohmann::json milestones = nlohmann::json::array();
    for (const auto& m : f.milestones)
        milestones.push_back(
            {{"level", m.level},
             {"month", m.month ? nlohmann::json(*m.month) : nlohmann::json(nullptr)},
             {"metric", m.metric.empty() ? nlohmann::json(nullptr) : nlohmann::json(m.metric)},
             {"ratio", m.ratio ? nlohmann::json(*m.ratio) : nlohmann::json(nullptr)},
             {"text", m.text}});
    return {{"today", f.today},
            {"milestones", milestones},
            {"between", f.between},
            {"beyond", f.beyond},
            {"ageing_written_bytes", f.ageing.hostBytes},
            {"ageing_device_bytes_per_disk", optionalJson(f.ageing.deviceBytesPerDisk)},
            {"ageing_endurance_share", optionalJson(f.ageing.enduranceShare)},
            {"ageing_text", f.ageing.text}};
}

void printJson(const ProjectionPlan& plan, const std::vector<LayoutProjection>& projections,
               const std::optional<DrivePrice>& price,
               const std::vector<std::optional<FillProjection>>& fills) {
    const ProjectionRequest& r = plan.request;
    nlohmann::json layouts = nlohmann::json::array();
    for (std::size_t i = 0; i < projections.size(); ++i) {
        layouts.push_back(layoutJson(projections[i], plan.kinds[i], plan.binaryUnits));
        if (i >= fills.size() || !fills[i])
            continue;
        auto& layout = layouts.back();
        layout["fill_levels"] = fillJson(*fills[i]);
        // Beside the wear the hosts cause, what the ageing wrote (never counted there silently).
        if (layout["wear"].is_object()) {
            layout["wear"]["fill_ageing_written_bytes"] = fills[i]->ageing.hostBytes;
            layout["wear"]["fill_ageing_device_bytes_per_disk"] =
                optionalJson(fills[i]->ageing.deviceBytesPerDisk);
        }
    }
    nlohmann::json out = {{"growth", growthJson(r)},
                          {"used_bytes", r.usedBytes},
                          {"horizon_years", r.years},
                          {"host_writes_bytes_per_day", r.hostBytesPerDay
                                                            ? nlohmann::json(*r.hostBytesPerDay)
                                                            : nlohmann::json(nullptr)},
                          {"drive", nullptr},
                          {"layouts", layouts}};
    if (const auto& drive = r.drive)
        out["drive"] = {{"id", drive->id},
                        {"model", drive->model},
                        {"medium", driveMediumName(drive->medium)},
                        {"capacity_bytes", drive->capacityBytes},
                        {"tbw", optionalJson(drive->tbw)},
                        {"dwpd", optionalJson(drive->dwpd)},
                        {"warranty_years", optionalJson(drive->warrantyYears)},
                        {"endurance_bytes", optionalJson(drive->enduranceBytes())},
                        {"price_usd", drive->priceUsd},
                        {"price_is_illustrative", !price}};
    if (price)
        out["price"] = {{"text", price->text}, {"usd", price->usd}, {"per_tb", price->perTb}};
    std::cout << dumpJson(out, 2) << '\n';
}

// "Growth: 30 % a year from 1.00 TB in use, over 5 years", with the fit it came from, the drive
// and the price.
void printHeader(const ProjectionRequest& r, bool binary) {
    std::cout << "Growth: " << describeGrowth(r.growth) << " from "
              << formatBytes(r.usedBytes, binary) << " in use, over " << r.years << " years";
    if (r.fit) {
        const auto& f = *r.fit;
        std::cout << "\n  fitted to " << f.samples << " samples in " << r.samplesPath << " ("
                  << f.firstDate << " to " << f.lastDate
                  << "): " << (f.exponential ? "exponential" : "linear")
                  << " fits better; residual "
                  << formatBytes(static_cast<std::uint64_t>(f.linearRmsBytes)) << " linear ("
                  << describeGrowth(f.linear) << ")";
        if (f.exponentialRmsBytes)
            std::cout << ", " << formatBytes(static_cast<std::uint64_t>(*f.exponentialRmsBytes))
                      << " exponential (" << describeGrowth(*f.compound) << ")";
    }
    std::cout << "\n";
    if (const auto& drive = r.drive) {
        std::cout << "Drive: " << drive->model;
        if (drive->tbw)
            std::cout << ", " << *drive->tbw << " TBW";
        if (drive->dwpd)
            std::cout << ", " << *drive->dwpd << " DWPD";
        if (drive->warrantyYears)
            std::cout << ", " << *drive->warrantyYears << "-year warranty";
        if (!r.price)
            std::cout << ", " << display::usd(drive->priceUsd) << " each (illustrative price)";
        std::cout << "\n";
    }
    if (r.price)
        std::cout << "Price: " << display::usd(r.price->usd)
                  << (r.price->perTb ? " per TB" : " per drive") << " (--price)\n";
}

// --layout, --kind and the settings, as the engine's ask; the drive looked up in the catalog.
Expected<ProjectionAsk> askOf(const ProjectOptions& o) {
    ProjectionAsk ask;
    ask.stored = o.layouts;
    ask.hypothetical = o.hypothetical;
    ask.settings = o.settings;
    if (!o.drive.empty()) {
        LB_TRY(catalog, loadDriveCatalog(o.catalog));
        LB_TRY(drive, catalog.lookup(o.drive));
        ask.settings.drive = drive;
    }
    return ask;
}

int runProject(const Globals& g, const ProjectOptions& o) {
    auto ask = askOf(o);
    if (!ask)
        return report(ask.error(), projectFlags);
    std::optional<Store> store;
    if (!o.layouts.empty()) {
        auto opened = openStore(g, DbAccess::Existing);
        if (!opened)
            return report(opened.error());
        store = std::move(*opened);
    }
    auto plan = planProjection(*ask, store ? &*store : nullptr);
    if (!plan)
        return report(plan.error(), projectFlags);
    if (plan->misfit)
        return report(misfitError(*plan->misfit));
    auto projections = projectPlan(*plan);
    if (!projections)
        return report(projections.error(), projectFlags);

    // The stored layouts come first: each one's measured fill levels tied to its projection.
    std::vector<std::optional<FillProjection>> fills;
    for (std::size_t i = 0; store && i < o.layouts.size() && i < projections->size(); ++i) {
        auto fill = fillProjection(*store, o.layouts[i], (*projections)[i]);
        if (!fill)
            return report(fill.error());
        fills.push_back(std::move(*fill));
    }
    const ProjectionRequest& r = plan->request;
    if (g.json) {
        printJson(*plan, *projections, r.price, fills);
        return 0;
    }
    printHeader(r, plan->binaryUnits);
    for (std::size_t i = 0; i < projections->size(); ++i) {
        std::cout << "\n"
                  << renderLayout((*projections)[i], plan->kinds[i], r.years, r.drive,
                                  plan->binaryUnits);
        if (i >= fills.size() || !fills[i])
            continue;
        std::cout << "Filled and aged (measured):\n";
        for (const auto& line : fills[i]->lines)
            std::cout << "  " << line << "\n";
    }
    return 0;
}

} // namespace

void addProject(CLI::App& app, Globals& g, Action& action) {
    auto opts = std::make_shared<ProjectOptions>();
    auto* sub = app.add_subcommand("project", "Five-year capacity, expansion cost, SSD endurance "
                                              "and risk of loss of one or more layouts");
    sub->add_option("--layout", opts->layouts, "Layout from the results database (repeatable)");
    sub->add_option("--kind", opts->hypothetical.kinds,
                    "Layout kind to project (repeatable or comma-separated: zfs-raidz2,md-raid6)")
        ->delimiter(',');
    addGuestOptions(*sub, opts->hypothetical.inner, opts->hypothetical.guestPool);
    sub->add_option("--disks", opts->hypothetical.disks, "Number of disks")
        ->check(CLI::Range(1U, 1024U));
    sub->add_option("--disk-size", opts->hypothetical.diskSize,
                    "Size of each disk (500G = 500*10^9 bytes), or one per disk; default: the "
                    "--drive's capacity");
    sub->add_option("--recordsize", opts->hypothetical.recordsize, "ZFS record size")
        ->capture_default_str();
    sub->add_option("--ashift", opts->hypothetical.ashift, "ZFS sector shift")
        ->capture_default_str();
    sub->add_option("--underprovision", opts->hypothetical.underprovision,
                    "Fraction of each disk partitioned, e.g. 0.8 or 80%")
        ->transform(fractionOrPercent())
        ->capture_default_str();
    sub->add_option("--used", opts->settings.used,
                    "Bytes in use now (default with --samples: the last)");
    sub->add_option("--growth", opts->settings.growth,
                    "Yearly growth: 30% (compound) or 2TB/y (linear)");
    sub->add_option("--samples", opts->settings.samples,
                    "CSV of date,bytes usage samples to fit the growth to");
    sub->add_option("--years", opts->settings.years, "Horizon in years")->capture_default_str();
    sub->add_option("--ceiling", opts->ceiling,
                    "Fill ceiling as a fraction or a percentage (default 80% for ZFS, a ZFS "
                    "pool on md included, 90% otherwise)")
        ->transform(fractionOrPercent());
    sub->add_option("--drive", opts->drive, "Drive id from the catalog, for price and endurance");
    sub->add_option("--host-writes", opts->settings.hostWrites,
                    "What the hosts write per day, e.g. 100G/d");
    sub->add_option("--underprovision-wa-gain", opts->settings.underprovisionGain,
                    "Your expected write-amplification factor from underprovisioning, e.g. 0.8 or "
                    "80%")
        ->transform(fractionOrPercent())
        ->capture_default_str();
    sub->add_option("--catalog", opts->catalog, "Drive catalog (TOML)")->capture_default_str();
    sub->add_option("--capacity", opts->settings.capacities,
                    "Usable capacity of an imported layout, whose disks are unknown: "
                    "LAYOUT=SIZE, e.g. nas=12T (repeatable)");
    sub->add_option("--imported-disks", opts->settings.importedDisks,
                    "The disks an imported layout was built on: LAYOUT=KIND,DISKS[,SIZE]"
                    "[,PARTITIONED], e.g. bare-metal=zfs-raidz2,10,500G,80% (repeatable)");
    addPurchaseOptions(*sub, opts->settings.price, opts->settings.writeAmplification);
    addRiskOptions(*sub, opts->risk);
    addGlobalOptions(*sub, g);
    sub->callback([&g, &action, opts, sub] {
        if (sub->count("--ceiling") > 0)
            opts->settings.ceiling = opts->ceiling;
        applyRiskOptions(*sub, opts->risk, opts->settings);
        action = [&g, opts] { return runProject(g, *opts); };
    });
}

} // namespace lb::cli
