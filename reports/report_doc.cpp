// The report's frame (buildDoc: the title, then every section in order), its formatting helpers,
// its chart plan, and the sections on the host and disks, the layouts, drills and steady state.
#include "reports/report_doc.h"

#include "engine/base/joined.h"
#include "engine/base/size.h"
#include "engine/base/utf8.h"
#include "engine/capacity/projection.h"
#include "engine/exec/command.h"
#include "engine/measure/analysis.h"
#include "engine/measure/series.h"
#include "reports/chart_model.h"
#include "reports/comparison_text.h"
#include "reports/display.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace lb::report_detail {

// ---- formatting helpers ----------------------------------------------------------------------

std::string plainPercent(double fraction) {
    return fixed(fraction * 100.0, 1) + " %";
}

// A size of capacity or use, in the unit the projection's sizes were typed in (TiB in, TiB out);
// decimal, as drives are sold, otherwise.
std::string capacityText(const ReportData& data, std::uint64_t bytes) {
    return formatBytes(bytes, data.projectionRequest && data.projectionRequest->binaryUnits);
}

std::string verdictText(Verdict v) {
    return std::string(verdictName(v));
}

std::string commandLine(const std::vector<std::string>& argv) {
    if (argv.empty())
        return "";
    Command c;
    c.program = argv.front();
    c.args.assign(argv.begin() + 1, argv.end());
    return c.toUserOutput();
}

std::string jsonScalar(const json& v) {
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_null())
        return "";
    return dumpJson(v);
}

std::string sharedUncertainty(const Comparison& c) {
    std::string shared;
    for (const auto& m : c.metrics)
        if (m.decisive && !m.confident) {
            if (!shared.empty() && shared != m.uncertainty)
                return {};
            shared = m.uncertainty;
        }
    return shared;
}

std::string plural(std::int64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Which charts a report has, and their captions (the same in every format).
namespace {

// What a series or curve is of, in words: "fio.rand-read.read.bw" is "rand-read read".
std::string seriesSubject(const std::string& name) {
    const auto stat = name.rfind('.');
    const auto family = name.find('.');
    std::string what = name.substr(family + 1, stat - family - 1);
    std::replace(what.begin(), what.end(), '.', ' ');
    return what;
}

// The results per layout, a chart for each unit the deciding metrics come in.
void planBarCharts(const ReportData& data, std::vector<ChartRef>& out) {
    bool bytes = false, ops = false, latency = false;
    for (const std::string& m : chart::barMetrics(data)) {
        const auto info = describeMetric(m);
        bytes = bytes || (info && info->unit == Unit::BytesPerSecond);
        ops = ops || (info && info->unit == Unit::OpsPerSecond);
        latency = latency || (info && info->unit == Unit::Nanoseconds);
    }
    const std::string whiskers = "the whiskers span the slowest to the fastest run (none for a "
                                 "single run); n: the runs behind each bar.";
    if (bytes)
        out.push_back({"bars-throughput",
                       "Throughput per layout: median over iterations in MB/s; " + whiskers});
    if (ops)
        out.push_back(
            {"bars-ops", "Operations per second per layout: median over iterations; " + whiskers});
    if (latency)
        out.push_back({"bars-latency", "Deciding latencies per layout (lower is better): median "
                                       "over iterations in ms; " +
                                           whiskers});
}

// The overhead of each comparison that has a deciding metric.
void planOverheadCharts(const ReportData& data, std::vector<ChartRef>& out) {
    for (std::size_t i = 0; i < data.comparisons.size(); ++i) {
        const Comparison& c = data.comparisons[i];
        const bool any = std::any_of(c.metrics.begin(), c.metrics.end(),
                                     [](const MetricComparison& m) { return m.decisive; });
        if (any)
            out.push_back({"overhead-" + std::to_string(i),
                           "Overhead of " + c.candidate + " against " + c.baseline +
                               " per decisive metric (% more time per unit of work), with the "
                               "95 % interval where there are three runs a side or more; a bar "
                               "or interval that runs past the top ends there in an arrow, its "
                               "label saying how far it reaches; n: the runs a side; green "
                               "band: viable, red band: not viable."});
    }
}

// The runs' course: bandwidth and latency over time, percentile curves, queue-depth sweeps and
// steady-state rounds.
void planCourseCharts(const ReportData& data, std::vector<ChartRef>& out) {
    const std::vector<std::string> series = chart::timeSeriesNames(data);
    for (std::size_t i = 0; i < series.size(); ++i) {
        const std::string& name = series[i];
        const bool bw = name.ends_with(".bw");
        if (!bw && !name.ends_with(".lat_mean"))
            continue; // IOPS follow the bandwidth at a fixed block size; the app shows them
        const std::string what = seriesSubject(name);
        out.push_back({"series-" + std::to_string(i),
                       std::string(bw ? "Bandwidth" : "Mean total latency") + " of " + what +
                           " over time per layout, averaged per interval as fio logged it: the "
                           "median iteration solid, the other iterations faint."});
    }
    const std::vector<std::string> curves = chart::percentileCurveNames(data);
    for (std::size_t i = 0; i < curves.size(); ++i) {
        const std::string& name = curves[i];
        const std::string what = seriesSubject(name);
        out.push_back({"curve-" + std::to_string(i),
                       std::string(name.ends_with(".lat_curve") ? "Total" : "Completion") +
                           " latency of " + what +
                           " by percentile per layout, from fio's json+ histogram (both axes "
                           "logarithmic): the median iteration solid, the others faint."});
    }
    const auto sweeps = chart::sweepKeys(data);
    for (std::size_t i = 0; i < sweeps.size(); ++i)
        out.push_back({"sweep-" + std::to_string(i),
                       "Queue-depth sweep (" + sweeps[i].first + ", " + sweeps[i].second +
                           "): IOPS (solid, left axis) and p99 latency (dashed, right axis) "
                           "against the queue depth, medians over iterations, per layout."});
    for (std::size_t i = 0; i < data.steadyState.size(); ++i)
        out.push_back({"steady-" + std::to_string(i),
                       "Steady state of " + data.steadyState[i].workload + " on " +
                           data.steadyState[i].layout +
                           " (SNIA PTS): the tracked value per round; over the last 5 rounds "
                           "their average, 90 % and 110 % of it (dotted) and the fitted line "
                           "(dashed). Steady: range within 20 % and slope within 10 % of the "
                           "average."});
}

// Each layout's capacity projection, with the expansion path drawn.
void planProjectionCharts(const ReportData& data, std::vector<ChartRef>& out) {
    for (std::size_t i = 0; i < data.projections.size(); ++i) {
        const LayoutProjection& p = data.projections[i];
        const ExpansionPath* drawn = chart::drawnExpansion(p);
        const std::string years = data.projectionRequest
                                      ? std::to_string(data.projectionRequest->years) + " years"
                                      : std::string("the horizon");
        out.push_back(
            {"projection-" + std::to_string(i),
             "Capacity projection of " + p.name +
                 ": usable capacity without expansion, projected use and the fill ceiling "
                 "(dashed) by month; " +
                 (drawn ? "grown by " + std::string(expansionKindName(drawn->kind)) +
                              (p.cost && p.cost->expansion == drawn->kind ? ", the cheapest path"
                                                                          : "") +
                              " that keeps up, its usable capacity (green, dash-dot) and its "
                              "steps (green, dotted)."
                  : p.ceilingMonth
                      ? std::string("no expansion path keeps up with the growth.")
                      : "the ceiling is not passed within " + years + ": no expansion needed.")});
    }
}

} // namespace

std::vector<ChartRef> chartPlan(const ReportData& data) {
    std::vector<ChartRef> out;
    planBarCharts(data, out);
    planOverheadCharts(data, out);
    planCourseCharts(data, out);
    planProjectionCharts(data, out);
    planFillCharts(data, out);
    planFailureCharts(data, out);
    return out;
}

std::vector<std::string> barMetricsOfUnit(const ReportData& data, Unit unit) {
    std::vector<std::string> out;
    for (const std::string& m : chart::barMetrics(data)) {
        const auto info = describeMetric(m);
        if (info && info->unit == unit)
            out.push_back(m);
    }
    return out;
}

namespace {

// The disks of the inventory: those the scenario named, with their partitions, when it is known
// (gatherReport kept those); the machine's others are named as left out, untested.
void addInventoryDisks(Doc& doc, const ReportData& data, const json& disks) {
    doc.heading(3, data.scenarioDevices ? "Disks the scenario named" : "Disks");
    std::vector<std::vector<Cell>> drows;
    std::function<void(const json&, int)> addDisk = [&](const json& d, int depth) {
        if (!d.is_object())
            return;
        std::string size;
        if (auto s = d.find("size"); s != d.end() && s->is_number_unsigned())
            size = formatBytes(s->get<std::uint64_t>());
        std::string rota;
        if (auto r = d.find("rota"); r != d.end() && r->is_boolean())
            rota = r->get<bool>() ? "yes" : "no";
        const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
        drows.push_back({{(depth ? indent + "└ " : "") + jsonScalar(d.value("name", json()))},
                         {jsonScalar(d.value("path", json()))},
                         {jsonScalar(d.value("type", json()))},
                         {jsonScalar(d.value("model", json()))},
                         {jsonScalar(d.value("serial", json()))},
                         {size, "", true},
                         {rota}});
        if (auto ch = d.find("children"); ch != d.end() && ch->is_array())
            for (const auto& c : *ch)
                addDisk(c, depth + 1);
    };
    for (const auto& d : disks)
        addDisk(d, 0);
    if (drows.empty())
        doc.para("The scenario named no block device: its disks are files, or it has none.");
    else
        doc.table({"device", "path", "type", "model", "serial", "size", "rotational"},
                  std::move(drows));
    if (!data.disksLeftOut.empty())
        doc.para("Left out, not named by the scenario and not tested: " +
                 joinedText(data.disksLeftOut, ", ") + ".");
}

} // namespace

void addInventory(Doc& doc, const ReportData& data) {
    doc.heading(2, "Host and disks");
    const json inv = json::parse(data.inventoryJson, nullptr, false);
    if (!inv.is_object() || inv.empty()) {
        doc.para("No inventory was recorded for these runs (results imported from files).");
        return;
    }
    static const std::pair<const char*, const char*> known[] = {
        {"hostname", "host name"}, {"target", "target"},   {"kernel", "kernel"},
        {"cpu_model", "CPU"},      {"cpus", "CPUs"},       {"ram_bytes", "memory"},
        {"swap_bytes", "swap"},    {"root", "ran as root"}};
    std::vector<std::vector<Cell>> rows;
    std::set<std::string> shown{"disks", "tools"};
    for (const auto& [key, label] : known) {
        const auto it = inv.find(key);
        if (it == inv.end())
            continue;
        shown.insert(key);
        std::string value = jsonScalar(*it);
        if ((std::string(key) == "ram_bytes" || std::string(key) == "swap_bytes") &&
            it->is_number_unsigned())
            value = formatBytes(it->get<std::uint64_t>(), true);
        if (it->is_boolean())
            value = it->get<bool>() ? "yes" : "no";
        rows.push_back({{label}, {value}});
    }
    for (const auto& [key, value] : inv.items())
        if (!shown.count(key))
            rows.push_back({{key}, {jsonScalar(value)}});
    doc.table({"", "value"}, std::move(rows));

    if (const auto disks = inv.find("disks"); disks != inv.end() && disks->is_array())
        addInventoryDisks(doc, data, *disks);
    if (const auto tools = inv.find("tools"); tools != inv.end() && tools->is_object()) {
        doc.heading(3, "Tools");
        std::vector<std::vector<Cell>> trows;
        for (const auto& [name, version] : tools->items())
            trows.push_back({{name}, {jsonScalar(version)}});
        doc.table({"tool", "version"}, std::move(trows));
    }
}

std::string layoutOptions(const ReportLayout& l) {
    const json spec = json::parse(l.specJson, nullptr, false);
    if (!spec.is_object())
        return "";
    std::vector<std::string> parts;
    if (spec.value("imported", false))
        parts.push_back("imported results");
    if (auto d = spec.find("disks"); d != spec.end() && d->is_array() && !d->empty()) {
        std::vector<std::string> names;
        for (const auto& n : *d)
            names.push_back(jsonScalar(n));
        parts.push_back("disks " + joinedText(names, ", "));
    }
    if (auto p = spec.find("path"); p != spec.end() && p->is_string())
        parts.push_back("path " + p->get<std::string>());
    if (auto a = spec.find("ashift"); a != spec.end() && a->is_number())
        parts.push_back("ashift " + a->dump());
    if (auto r = spec.find("recordsize"); r != spec.end() && r->is_number_unsigned())
        parts.push_back("recordsize " + formatBytes(r->get<std::uint64_t>(), true));
    if (auto c = spec.find("compression"); c != spec.end() && c->is_string())
        parts.push_back("compression " + c->get<std::string>());
    if (auto u = spec.find("underprovision"); u != spec.end() && u->is_number()) {
        const double f = u->get<double>();
        if (f < 1.0)
            parts.push_back(fixed(f * 100, 0) + " % of each disk partitioned");
    }
    if (auto md = spec.find("md"); md != spec.end() && md->is_object()) {
        std::string text = md->value("kind", std::string("md")) + " " +
                           md->value("device", std::string()) + ", chunk " +
                           formatBytes(md->value("chunk", std::uint64_t{0}), true) + ", bitmap " +
                           md->value("bitmap", std::string("?"));
        if (md->value("assume_clean", false))
            text += ", created with --assume-clean: no initial resync";
        parts.push_back(text);
    }
    if (auto fs = spec.find("filesystem"); fs != spec.end() && fs->is_string())
        parts.push_back(fs->get<std::string>());
    if (auto g = spec.find("guest"); g != spec.end() && g->is_object()) {
        std::string text = "guest: " + g->value("hypervisor", std::string("?"));
        if (g->value("hypervisor", std::string()) == "qemu")
            text += " " + g->value("accel", std::string("?")) + ", " +
                    formatBytes(g->value("memory_bytes", std::uint64_t{0}), true) + ", " +
                    std::to_string(g->value("cpus", 0)) + " vCPU";
        text += ", " + g->value("bus", std::string("virtio")) +
                " cache=" + g->value("cache", std::string("?")) +
                " aio=" + g->value("aio", std::string("?")) + ", " +
                g->value("layout", std::string("?")) + " inside";
        parts.push_back(text);
    }
    return joinedText(parts, "; ");
}

// Expansion drills: how long growing each layout took, whether reads went on meanwhile.
void addDrills(Doc& doc, const ReportData& data) {
    std::vector<const ReportRun*> drills;
    for (const auto& r : data.runs)
        if (r.probe == "drill" && r.workload != "drill:fail-rebuild") // "When a disk fails"
            drills.push_back(&r);
    if (drills.empty())
        return;
    doc.heading(2, "Expansion drills");
    doc.para("Each layout grown after its workloads with spare disks, while a reader read a file "
             "on it over and over: how long the reshape took, how fast reads went meanwhile, "
             "how much usable space it added. Drills are layout-specific and take no part in the "
             "verdicts.");
    auto median = [&](const std::string& layout, const std::string& name) -> std::optional<double> {
        const auto it = data.samples.find(layout);
        if (it == data.samples.end())
            return std::nullopt;
        for (const auto& m : it->second.metrics)
            if (m.name == name && !m.values.empty()) {
                auto v = m.values;
                std::sort(v.begin(), v.end());
                return v[v.size() / 2];
            }
        return std::nullopt;
    };
    std::vector<std::vector<Cell>> rows;
    for (const ReportRun* r : drills) {
        const std::string action = r->workload.substr(r->workload.find(':') + 1);
        const std::string prefix = "drill." + action + ".";
        auto cell = [&](const char* stat, Unit unit) -> Cell {
            const auto v =
                r->status == RunStatus::Ok ? median(r->layout, prefix + stat) : std::nullopt;
            return {v ? display::value(*v, unit) : "—", "", true};
        };
        std::string growth = "—";
        if (const auto g =
                r->status == RunStatus::Ok ? median(r->layout, prefix + "growth") : std::nullopt)
            growth = display::percent(*g / 100.0);
        rows.push_back({{r->layout},
                        {action},
                        {std::string(runStatusName(r->status))},
                        cell("seconds", Unit::Seconds),
                        cell("read_throughput", Unit::BytesPerSecond),
                        {growth, "", true},
                        {r->status == RunStatus::Ok ? "" : r->reason}});
    }
    doc.table({"layout", "drill", "status", "duration", "reads meanwhile", "usable space",
               "why it failed"},
              std::move(rows));
}

// SSD preconditioning and the steady-state rounds before the measured runs (SNIA PTS).
void addSteadyState(Doc& doc, const ReportData& data, const std::set<std::string>& charts) {
    if (data.steadyState.empty())
        return;
    doc.heading(2, "SSD preconditioning and steady state");
    doc.para("Before its first measured run, each layout that asked for it was written "
             "sequentially in 128 KiB blocks, twice over, and each workload then ran rounds of its "
             "own pattern until steady state by the SNIA PTS rule: over the last 5 rounds the "
             "tracked value stays within 20 % of its average and its fitted line within 10 %. "
             "The rounds are not measured runs and take no part in the verdicts.");
    std::vector<std::vector<Cell>> rows;
    for (const auto& s : data.steadyState) {
        const auto& c = s.check;
        std::string written = "—";
        if (s.written)
            written = "2 × " + formatBytes(*s.written, true) +
                      (s.writeRate ? " at " + display::value(*s.writeRate, Unit::BytesPerSecond)
                                   : std::string());
        std::string outcome;
        if (!s.failed.empty())
            outcome = "failed: " + s.failed;
        else if (c.reached)
            outcome = "steady over rounds " + std::to_string(c.windowStart + 1) + "–" +
                      std::to_string(c.windowStart + c.windowRounds);
        else
            outcome = "not at steady state";
        const bool window = c.windowRounds > 0 && c.average > 0;
        rows.push_back({{s.layout},
                        {s.workload},
                        {written},
                        {std::to_string(s.rounds.size()), "", true},
                        {s.tracked},
                        {window ? fixed(c.average, c.average >= 100 ? 0 : 2) : "—", "", true},
                        {window ? plainPercent(c.excursion / c.average) : "—", "", true},
                        {window ? plainPercent(c.slopeExcursion / c.average) : "—", "", true},
                        {outcome}});
    }
    doc.table({"layout", "workload", "preconditioning", "rounds", "tracked", "window average",
               "range", "slope", "outcome"},
              std::move(rows));
    for (const auto& ref : chartPlan(data))
        if (ref.id.rfind("steady-", 0) == 0 && charts.count(ref.id))
            doc.chart(ref.id, ref.caption);
}

void addLayouts(Doc& doc, const ReportData& data) {
    doc.heading(2, "Layouts and capacity");
    std::vector<std::vector<Cell>> rows;
    for (const auto& l : data.layouts) {
        std::vector<Cell> row{{l.name}, {l.baseline ? "baseline" : "candidate"}, {l.kind}};
        if (l.capacity) {
            const Capacity& c = *l.capacity;
            std::string tolerance = std::to_string(c.faultTolerance);
            if (c.faultToleranceBest > c.faultTolerance)
                tolerance += "–" + std::to_string(c.faultToleranceBest);
            tolerance += c.faultToleranceBest == 1 ? " disk" : " disks";
            row.push_back({capacityText(data, c.rawBytes), "", true});
            row.push_back({capacityText(data, c.usableBytes), "", true});
            row.push_back({plainPercent(c.dataEfficiency), "", true});
            row.push_back({tolerance});
        } else {
            for (int i = 0; i < 4; ++i)
                row.push_back({"—"});
        }
        row.push_back({std::to_string(l.runs), "", true});
        row.push_back({std::to_string(l.failedRuns), "", true});
        row.push_back({layoutOptions(l)});
        rows.push_back(std::move(row));
    }
    doc.table({"layout", "role", "kind", "raw", "usable", "data efficiency", "fault tolerance",
               "runs", "failed", "options"},
              std::move(rows));
    doc.para("Usable space is what data can fill after parity, padding, reserves and "
             "underprovisioning; data efficiency is the share of allocated space that holds data "
             "at the record size. A guest's capacity is its pool's on the one device the inner "
             "layout makes; its fault tolerance is the inner layout's. A dash: the layout has no "
             "capacity model (a directory, or imported results whose disks are not given).");
    for (const auto& l : data.layouts)
        if (l.redundancyNote)
            doc.para(l.name + ": " + *l.redundancyNote + ".");
}

Doc buildDoc(const ReportData& data, const std::set<std::string>& charts) {
    Doc doc;
    doc.heading(1, data.title);
    if (data.campaignId)
        doc.para("Campaign #" + std::to_string(*data.campaignId) +
                 (data.campaign.empty() ? "" : " “" + data.campaign + "”") +
                 (data.scenarioPath.empty() ? "" : ", scenario " + data.scenarioPath) + ".");
    else if (data.scope.empty()) // else the summary says which runs
        doc.para("Every run in the database.");
    // The machine it is about, where one is: runs of several machines are never compared as one.
    if (!data.host.empty())
        doc.para("Machine: " + data.host +
                 (data.hostPicked ? " (picked; the runs of other machines are left out)."
                                  : " (every run compared was measured there)."));
    addSummary(doc, data);
    addQuestion(doc, data);
    addVerdicts(doc, data);
    addInventory(doc, data);
    addLayouts(doc, data);
    addProjections(doc, data, charts);
    addComparisons(doc, data, charts);
    addFillLevels(doc, data, charts);
    addCharts(doc, data, charts);
    addCourse(doc, data, charts);
    addDrills(doc, data);
    addDiskFailure(doc, data, charts);
    addSteadyState(doc, data, charts);
    addFailedRuns(doc, data);
    addCaveats(doc, data);
    addGlossary(doc, data);
    addAppendix(doc, data);
    return doc;
}

} // namespace lb::report_detail
