// The decision report's renderers. The contents are built once as a list of blocks (headings,
// paragraphs, tables, code, charts) from the ReportData; an HTML emitter and a Markdown emitter
// write them out, and the PDF is Qt's text layout of the same HTML with the charts added as
// document resources. Every string that came from a scenario, a disk or a tool is escaped by the
// emitter, never by the builder, so nothing can slip through unescaped.
#include "reports/report.h"

#include "engine/analysis.h"
#include "engine/command.h"
#include "engine/next_step.h"
#include "engine/projection.h"
#include "engine/series.h"
#include "engine/size.h"
#include "engine/utf8.h"
#include "reports/charts.h"
#include "reports/comparison_text.h"
#include "reports/display.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QByteArray>
#include <QFile>
#include <QFont>
#include <QFontMetricsF>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPixmap>
#include <QSaveFile>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>
#include <QTextTable>
#include <QUrl>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <qcustomplot.h>
#include <set>

namespace lb {

namespace {

using nlohmann::json;

// ---- the document model ----------------------------------------------------------------------

struct Span {
    std::string text;
    bool strong = false;
    std::string color; // background colour of a verdict, "" for none
};

struct Cell {
    std::string text;
    std::string color; // background colour (verdicts), "" for none
    bool numeric = false;
    bool dotted = false; // a dotted name (bonnie.put_block): the PDF wraps it only at its dots
};

struct Block {
    enum class Kind { Heading, Paragraph, Bullets, Table, Code, Chart };
    Kind kind = Kind::Paragraph;
    int level = 2;                        // Heading
    std::vector<Span> spans;              // Paragraph
    std::vector<std::vector<Span>> items; // Bullets
    std::vector<std::string> headers;     // Table
    std::vector<std::vector<Cell>> rows;  // Table
    std::string text;                     // Heading, Code; Chart: the chart id
    std::string caption;                  // Chart
};

class Doc {
public:
    void heading(int level, std::string text) {
        Block b;
        b.kind = Block::Kind::Heading;
        b.level = level;
        b.text = std::move(text);
        blocks.push_back(std::move(b));
    }
    void para(std::vector<Span> spans) {
        Block b;
        b.kind = Block::Kind::Paragraph;
        b.spans = std::move(spans);
        blocks.push_back(std::move(b));
    }
    void para(std::string text) { para(std::vector<Span>{{std::move(text)}}); }
    void bullets(std::vector<std::vector<Span>> items) {
        Block b;
        b.kind = Block::Kind::Bullets;
        b.items = std::move(items);
        blocks.push_back(std::move(b));
    }
    void table(std::vector<std::string> headers, std::vector<std::vector<Cell>> rows) {
        Block b;
        b.kind = Block::Kind::Table;
        b.headers = std::move(headers);
        b.rows = std::move(rows);
        blocks.push_back(std::move(b));
    }
    void code(std::string text) {
        Block b;
        b.kind = Block::Kind::Code;
        b.text = std::move(text);
        blocks.push_back(std::move(b));
    }
    void chart(std::string id, std::string caption) {
        Block b;
        b.kind = Block::Kind::Chart;
        b.text = std::move(id);
        b.caption = std::move(caption);
        blocks.push_back(std::move(b));
    }
    std::vector<Block> blocks;
};

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

std::string joined(const std::vector<std::string>& items, const std::string& sep) {
    std::string out;
    for (const auto& s : items)
        out += (out.empty() ? "" : sep) + s;
    return out;
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

std::string plural(std::int64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// ---- the contents ----------------------------------------------------------------------------

struct ChartRef {
    std::string id;
    std::string caption;
};

// Which charts a report has, and their captions (the same in every format).
std::vector<ChartRef> chartPlan(const ReportData& data) {
    std::vector<ChartRef> out;
    bool bytes = false, ops = false, latency = false;
    for (const QString& m : charts::barMetrics(data)) {
        const auto info = describeMetric(m.toStdString());
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
    for (std::size_t i = 0; i < data.comparisons.size(); ++i) {
        const Comparison& c = data.comparisons[i];
        const bool any = std::any_of(c.metrics.begin(), c.metrics.end(),
                                     [](const MetricComparison& m) { return m.decisive; });
        if (any)
            out.push_back({"overhead-" + std::to_string(i),
                           "Overhead of " + c.candidate + " against " + c.baseline +
                               " per decisive metric (% more time per unit of work), with the "
                               "95 % interval where there are three runs a side or more (an "
                               "arrow where it runs past the top); n: the runs a side; green "
                               "band: viable, red band: not viable."});
    }
    const QStringList series = charts::timeSeriesNames(data);
    for (qsizetype i = 0; i < series.size(); ++i) {
        const std::string name = series[i].toStdString();
        const bool bw = name.ends_with(".bw");
        if (!bw && !name.ends_with(".lat_mean"))
            continue; // IOPS follow the bandwidth at a fixed block size; the app shows them
        const auto stat = name.rfind('.');
        const auto family = name.find('.');
        std::string what = name.substr(family + 1, stat - family - 1);
        std::replace(what.begin(), what.end(), '.', ' ');
        out.push_back({"series-" + std::to_string(i),
                       std::string(bw ? "Bandwidth" : "Mean total latency") + " of " + what +
                           " over time per layout, averaged per interval as fio logged it: the "
                           "median iteration solid, the other iterations faint."});
    }
    const QStringList curves = charts::percentileCurveNames(data);
    for (qsizetype i = 0; i < curves.size(); ++i) {
        const std::string name = curves[i].toStdString();
        const auto stat = name.rfind('.');
        const auto family = name.find('.');
        std::string what = name.substr(family + 1, stat - family - 1);
        std::replace(what.begin(), what.end(), '.', ' ');
        out.push_back({"curve-" + std::to_string(i),
                       std::string(name.ends_with(".lat_curve") ? "Total" : "Completion") +
                           " latency of " + what +
                           " by percentile per layout, from fio's json+ histogram (both axes "
                           "logarithmic): the median iteration solid, the others faint."});
    }
    const auto sweeps = charts::sweepKeys(data);
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
    for (std::size_t i = 0; i < data.projections.size(); ++i) {
        const LayoutProjection& p = data.projections[i];
        const ExpansionPath* drawn = charts::drawnExpansion(p);
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
    return out;
}

std::vector<std::string> barMetricsOfUnit(const ReportData& data, Unit unit) {
    std::vector<std::string> out;
    for (const QString& m : charts::barMetrics(data)) {
        const auto info = describeMetric(m.toStdString());
        if (info && info->unit == unit)
            out.push_back(m.toStdString());
    }
    return out;
}

// A verdict and the headline's reasons, worst deciding metric first ("guest: decision — ...").
std::vector<Span> headlineSpans(const Comparison& c) {
    return {
        {c.candidate, true},
        {": "},
        {verdictText(c.verdict), true, charts::verdictColor(c.verdict).toStdString()},
        {c.headline.substr(c.headline.find(" — ") == std::string::npos ? c.headline.size()
                                                                       : c.headline.find(" — "))}};
}

void addQuestion(Doc& doc, const ReportData& data) {
    doc.heading(2, "The question");
    std::vector<std::string> candidates;
    for (const auto& l : data.layouts)
        if (!l.baseline)
            candidates.push_back(l.name);
    if (candidates.empty())
        doc.para("Only the baseline " + data.baseline +
                 " has results; there is no candidate to "
                 "compare yet.");
    else
        doc.para(std::vector<Span>{
            {"Can "},
            {joined(candidates, ", "), true},
            {" take the place of the baseline "},
            {data.baseline, true},
            {" without costing too much time? Every candidate ran the same workloads as the "
             "baseline, and each metric is compared with the baseline's."}});
    if (!data.scenarioDescription.empty())
        doc.para(std::vector<Span>{{"Scenario: ", true}, {data.scenarioDescription}});
    if (data.io) {
        // Workloads that ask for buffered I/O (direct = false) run buffered on every layout even
        // where the campaign chose direct I/O: said with it, as their command lines show.
        std::vector<std::string> buffered;
        if (data.io->direct)
            for (const auto& r : data.runs)
                if (std::find(r.argv.begin(), r.argv.end(), "--direct=0") != r.argv.end() &&
                    std::find(buffered.begin(), buffered.end(), r.workload) == buffered.end())
                    buffered.push_back(r.workload);
        doc.para(std::vector<Span>{
            {"What was measured: ", true},
            {describeCampaignIo(*data.io) +
             (buffered.empty() ? std::string()
                               : "; buffered I/O where the workload asks for it (direct = "
                                 "false): " +
                                     joined(buffered, ", ")) +
             "."}});
    }
    const Thresholds& t = data.thresholds;
    doc.para("The rule: for every metric the cost ratio is the candidate's time per unit of work "
             "over the baseline's (baseline ÷ candidate for a throughput, candidate ÷ baseline "
             "for a time or a latency).");
    doc.bullets({{{"viable", true, charts::verdictColor(Verdict::Viable).toStdString()},
                  {": ratio ≤ " + display::ratio(t.viableMax) + " (at most " +
                   fixed((t.viableMax - 1) * 100, 0) + " % more time)"}},
                 {{"decision", true, charts::verdictColor(Verdict::Decision).toStdString()},
                  {": between the two: someone has to decide"}},
                 {{"not-viable", true, charts::verdictColor(Verdict::NotViable).toStdString()},
                  {": ratio ≥ " + display::ratio(t.notViableMin) + " (" +
                   fixed((t.notViableMin - 1) * 100, 0) + " % more time or worse)"}}});
    doc.para("Values are medians over the iterations. The 95 % interval of each ratio is a " +
             std::string(intervalMethod) +
             "; it needs at least three runs on each side, and a verdict is confident only when "
             "the whole "
             "interval lies in one band. A layout's verdict is that of its worst deciding "
             "metric: " +
             (data.decide.empty()
                  ? std::string("throughput, IOPS and the p99 total latency of each "
                                "job; single slowest operations, CPU, other "
                                "percentiles and runtimes are shown, not deciding")
                  : "the scenario names them: " + joined(data.decide, ", ")) +
             ". Metrics measured differently on the two sides, or bounded by something other "
             "than the layout, are listed as not compared.");
}

void addVerdicts(Doc& doc, const ReportData& data) {
    doc.heading(2, "Verdicts");
    if (data.comparisons.empty()) {
        doc.para("No candidate to judge.");
        return;
    }
    for (const Comparison& c : data.comparisons) {
        if (c.metrics.empty()) {
            doc.para(std::vector<Span>{
                {c.candidate, true},
                {": no verdict — no metric was measured successfully on both it and the "
                 "baseline."}});
            continue;
        }
        doc.para(headlineSpans(c));
        // The worst first (the metrics are sorted so).
        std::vector<std::vector<Span>> reasons;
        for (const auto& m : c.metrics)
            if (m.decisive && m.verdict != Verdict::Viable)
                reasons.push_back(
                    {{verdictReason(m) + (m.confident ? "" : " (" + m.uncertainty + ")")}});
        if (reasons.empty())
            reasons.push_back(
                {{"every deciding metric is within " +
                  fixed((c.thresholds.viableMax - 1) * 100, 0) + " % of the baseline's time"}});
        doc.bullets(std::move(reasons));
    }
}

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

    if (const auto disks = inv.find("disks"); disks != inv.end() && disks->is_array()) {
        doc.heading(3, "Disks");
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
        for (const auto& d : *disks)
            addDisk(d, 0);
        doc.table({"device", "path", "type", "model", "serial", "size", "rotational"},
                  std::move(drows));
    }
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
        parts.push_back("disks " + joined(names, ", "));
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
    return joined(parts, "; ");
}

// Expansion drills: how long growing each layout took, whether reads went on meanwhile.
void addDrills(Doc& doc, const ReportData& data) {
    std::vector<const ReportRun*> drills;
    for (const auto& r : data.runs)
        if (r.probe == "drill")
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
             "at the record size. A dash: the layout has no capacity model (a directory, a "
             "guest, or imported results).");
}

// What a verdict says, in words for someone who does not know the tools: "takes 58 % more time
// than bare-metal on sequential block writes".
std::string plainVerdict(const Comparison& c) {
    const MetricComparison* worst = nullptr;
    std::size_t deciding = 0;
    for (const auto& m : c.metrics)
        if (m.decisive) {
            ++deciding;
            if (!worst)
                worst = &m; // the metrics are worst first
        }
    if (!worst)
        return "no metric decides: every one measured on both is shown only";
    // No line break between a number and its % (U+00A0).
    const std::string band = fixed((c.thresholds.viableMax - 1) * 100, 0) + "\u00a0%";
    const std::string on = " on " + plainMetricName(worst->name);
    switch (c.verdict) {
    case Verdict::Viable:
        return "can take the place of " + c.baseline + ": on each of its " +
               std::to_string(deciding) + " deciding " + (deciding == 1 ? "metric" : "metrics") +
               " it takes at most " + band +
               " more time (the most: " + display::percent(worst->overhead) + on + ")";
    case Verdict::Decision:
        return "takes " + fixed(worst->overhead * 100, 0) + "\u00a0% more time than " + c.baseline +
               on + ": more than " + band + ", less than twice the time, so someone has to decide";
    case Verdict::NotViable:
        break;
    }
    return "takes " + display::ratio(worst->ratio) + " times the time of " + c.baseline + on +
           ": twice the time or worse, so it cannot take its place";
}

// One candidate for the signer: its verdict in plain words with how sure it is and the next
// step, then its deciding numbers under plain names (the long table comes later).
void addSignerVerdict(Doc& doc, const Comparison& c) {
    if (c.metrics.empty()) {
        doc.para(std::vector<Span>{
            {c.candidate, true},
            {": no verdict — nothing was measured on both it and " + c.baseline + "."}});
        return;
    }
    // "[guest measured on zfs-fuse, file vdevs]" at the end of the headline.
    std::string measured;
    if (const auto at = c.headline.rfind(" ["); at != std::string::npos && c.headline.back() == ']')
        measured = " " + c.headline.substr(at + 1);
    std::vector<Span> spans{
        {c.candidate, true},
        {": "},
        {verdictText(c.verdict), true, charts::verdictColor(c.verdict).toStdString()},
        {" — " + plainVerdict(c) + "." + measured + " "}};
    if (c.confident) {
        spans.push_back({"Settled: every deciding interval lies in one band."});
    } else {
        std::size_t open = 0, deciding = 0;
        std::string why; // the reason, when every metric not confident has the same
        bool same = true;
        for (const auto& m : c.metrics)
            if (m.decisive) {
                ++deciding;
                if (!m.confident) {
                    same = same && (open == 0 || why == m.uncertainty);
                    why = m.uncertainty;
                    ++open;
                }
            }
        if (!same)
            why.clear();
        spans.push_back({"Not settled: " + std::to_string(open) + " of " +
                         std::to_string(deciding) + " deciding metrics are not confident" +
                         (why.empty() ? std::string() : " (" + why + ")") + "."});
    }
    doc.para(std::move(spans));
    // What makes the two sides' figures differ besides the layout, said before the numbers.
    std::vector<std::vector<Span>> differences;
    for (const auto& line : noteLines(c))
        if (line.text.starts_with("the sides "))
            differences.push_back(
                {{line.text + " (on " + std::to_string(line.metrics.size()) + " of the " +
                  std::to_string(c.metrics.size()) + " metrics compared)"}});
    constexpr std::string_view otherWork = "not comparable: ";
    std::size_t other = 0;
    const MetricComparison* first = nullptr;
    for (const auto& m : c.metrics)
        if (m.excluded.starts_with(otherWork)) {
            ++other;
            first = first ? first : &m;
        }
    if (first)
        differences.push_back(
            {{std::to_string(other) + (other == 1 ? " metric is" : " metrics are") +
              " left out of the verdict because the sides did other work (" + first->name + ": " +
              first->excluded.substr(otherWork.size()) + ")"}});
    if (!differences.empty()) {
        doc.para(std::vector<Span>{{"Mind:", true},
                                   {" the figures of the two sides differ in more than the "
                                    "layout."}});
        doc.bullets(std::move(differences));
    }
    if (const auto next = nextStep(c))
        doc.para(std::vector<Span>{{"Next step:", true}, {" " + next->text + "."}});
    // The deciding numbers, worst first, under names a reader knows.
    constexpr std::size_t shown = 12;
    std::vector<std::vector<Cell>> rows;
    std::size_t more = 0;
    for (const auto& m : c.metrics) {
        if (!m.decisive)
            continue;
        if (rows.size() == shown) {
            ++more;
            continue;
        }
        rows.push_back({{plainMetricName(m.name)},
                        {display::value(m.baselineMedian, m.unit), "", true},
                        {display::value(m.candidateMedian, m.unit), "", true},
                        {display::percent(m.overhead), "", true},
                        {verdictText(m.verdict), charts::verdictColor(m.verdict).toStdString()},
                        {m.confident ? "yes" : "not yet"}});
    }
    doc.table({"deciding metric", c.baseline, c.candidate, "more time", "verdict", "settled"},
              std::move(rows));
    if (more > 0)
        doc.para("And " + std::to_string(more) + " more deciding " +
                 (more == 1 ? "metric" : "metrics") + ": see “" + c.candidate + " against " +
                 c.baseline + "”.");
}

// The block for the person who signs: the question, each candidate's verdict headline, what each
// layout holds and costs, and who wrote the report when, with what, about which hosts.
void addSummary(Doc& doc, const ReportData& data) {
    doc.heading(2, "Summary");
    std::vector<std::string> candidates;
    for (const auto& l : data.layouts)
        if (!l.baseline)
            candidates.push_back(l.name);
    std::vector<std::vector<Span>> items;
    if (!candidates.empty())
        items.push_back({{"Question:", true},
                         {" can " + joined(candidates, ", ") + " take the place of the baseline " +
                          data.baseline + " at no more than " +
                          fixed((data.thresholds.viableMax - 1) * 100, 0) + " % more time?"}});
    if (!data.scope.empty())
        items.push_back({{"Runs:", true}, {" " + data.scope}});
    if (!items.empty())
        doc.bullets(std::move(items));
    for (const Comparison& c : data.comparisons)
        addSignerVerdict(doc, c);
    const ProjectionRequest* request = data.projectionRequest ? &*data.projectionRequest : nullptr;
    const std::string priced = !request         ? std::string()
                               : request->price ? "--price " + request->price->text
                               : request->drive ? request->drive->id
                                                : std::string();
    std::vector<std::vector<Cell>> rows;
    for (const auto& l : data.layouts) {
        if (!l.capacity)
            continue;
        std::string perTb = "—", total = "—";
        const auto projection =
            std::find_if(data.projections.begin(), data.projections.end(),
                         [&](const LayoutProjection& p) { return p.name == l.name; });
        if (projection != data.projections.end() && projection->cost) {
            const HorizonCost& cost = *projection->cost;
            if (cost.purchaseUsd > 0 && l.capacity->usableBytes > 0)
                perTb = display::usd(cost.purchaseUsd /
                                     (static_cast<double>(l.capacity->usableBytes) / 1e12));
            // Growth no path keeps up with: the total is a floor.
            total = display::usd(cost.totalUsd) + (cost.expansionShort ? " or more" : "");
        }
        rows.push_back({{l.name},
                        {capacityText(data, l.capacity->usableBytes), "", true},
                        {std::to_string(l.capacity->faultTolerance), "", true},
                        {perTb, "", true},
                        {total, "", true}});
    }
    if (!rows.empty())
        doc.table({"layout", "usable capacity", "disks that may fail",
                   priced.empty() ? std::string("cost per usable TB (no --drive or --price given)")
                                  : "cost per usable TB (" + priced + ")",
                   request ? "cost over " + std::to_string(request->years) +
                                 " years (disks, worn-out disks, expansion)"
                           : std::string("cost over the years (no projection asked for)")},
                  std::move(rows));
    std::string written = "Written";
    if (!data.writtenAt.empty())
        written += " " + data.writtenAt;
    if (!data.author.empty())
        written += " by " + data.author;
    if (!data.generator.empty())
        written += " with " + data.generator;
    if (!data.hosts.empty())
        written += "; measured on " + joined(data.hosts, ", ");
    if (written != "Written")
        doc.para(written + ".");
}

void addProjections(Doc& doc, const ReportData& data, const std::set<std::string>& charts) {
    if ((data.projections.empty() && data.notProjected.empty()) || !data.projectionRequest)
        return;
    const ProjectionRequest& r = *data.projectionRequest;
    doc.heading(2, "Capacity projection");
    std::string intro = "Growth " + describeGrowth(r.growth) + " from " +
                        capacityText(data, r.usedBytes) + " in use, over " +
                        std::to_string(r.years) + (r.years == 1 ? " year" : " years");
    if (r.drive)
        intro +=
            "; drive " + r.drive->model +
            (r.price ? std::string()
                     : " at " + display::usd(r.drive->priceUsd) + " each (illustrative price)");
    if (r.price)
        intro += "; priced at " + display::usd(r.price->usd) +
                 (r.price->perTb ? " per TB" : " per drive") + " (--price)";
    if (r.hostBytesPerDay)
        intro += "; hosts write " + formatBytes(*r.hostBytesPerDay) + " a day";
    doc.para(intro + ".");

    if (!data.notProjected.empty())
        doc.para("Not projected: " + joined(data.notProjected, ", ") +
                 " — imported results whose disks are unknown, and no capacity was given.");
    std::vector<std::vector<Cell>> rows;
    for (const auto& p : data.projections)
        rows.push_back(
            {{p.name},
             {capacityText(data, p.capacity.usableBytes) + (p.capacityGiven ? " (given)" : ""), "",
              true},
             {plainPercent(p.ceilingFraction) + " = " + capacityText(data, p.ceilingBytes), "",
              true},
             {p.ceilingMonth ? "month " + std::to_string(*p.ceilingMonth)
                             : "not within " + std::to_string(r.years) + " years"}});
    if (!rows.empty())
        doc.table({"layout", "usable", "ceiling", "ceiling passed"}, std::move(rows));

    const auto plan = chartPlan(data);
    for (std::size_t i = 0; i < data.projections.size(); ++i) {
        const LayoutProjection& p = data.projections[i];
        doc.heading(3, p.name);
        if (!p.expansions.empty()) {
            std::vector<std::vector<Cell>> paths;
            for (const auto& e : p.expansions) {
                std::string firstStep = "—";
                if (!e.schedule.empty())
                    firstStep = "month " + std::to_string(e.schedule.front().month);
                paths.push_back(
                    {{std::string(expansionKindName(e.kind))},
                     {std::to_string(e.disksPerStep), "", true},
                     {capacityText(data, e.stepUsableBytes) + (e.approximate ? " ~" : ""), "",
                      true},
                     {e.stepCostUsd ? display::usd(*e.stepCostUsd) : "—", "", true},
                     {e.costPerUsableTbUsd ? display::usd(*e.costPerUsableTbUsd) : "—", "", true},
                     {firstStep},
                     {std::to_string(e.disksBought) +
                          (e.keepsUp
                               ? ""
                               : " (limit" +
                                     (e.limitMonth ? " in month " + std::to_string(*e.limitMonth)
                                                   : std::string()) +
                                     ")"),
                      "", true},
                     {e.totalCostUsd ? display::usd(*e.totalCostUsd) : "—", "", true},
                     {capacityText(data, e.finalUsableBytes), "", true}});
            }
            doc.table({"expansion", "disks/step", "step usable", "step cost", "per usable TB",
                       "first step", "disks bought", "total cost", "usable at end"},
                      std::move(paths));
            std::vector<std::vector<Span>> notes;
            for (const auto& e : p.expansions) {
                std::string text = e.description + ". " + e.note;
                if (e.reportedStepUsableBytes)
                    text += " zfs list would show the first step adding " +
                            capacityText(data, *e.reportedStepUsableBytes) + ".";
                notes.push_back({{std::string(expansionKindName(e.kind)), true}, {": " + text}});
            }
            doc.bullets(std::move(notes));
        }
        for (const auto& n : p.notes)
            doc.para(n);
        if (p.wear) {
            const WearEstimate& w = *p.wear;
            std::string text =
                "Wear: write amplification " + display::ratio(w.writeAmplification) + " (" +
                w.layout.basis +
                (w.modelled ? "; the layout's model says " + display::ratio(w.modelled->factor) +
                                  ": " + w.modelled->basis
                            : std::string()) +
                "); " + formatBytes(static_cast<std::uint64_t>(w.hostBytesPerDay)) +
                " a day from the hosts is " +
                formatBytes(static_cast<std::uint64_t>(std::llround(w.deviceBytesPerDay))) +
                " a day per disk";
            if (w.years && w.enduranceBytes)
                text += std::isfinite(*w.years)
                            ? "; rated endurance reached in " + fixed(*w.years, 1) + " years"
                            : "; rated endurance never reached";
            else if (r.drive && r.drive->medium == DriveMedium::Hdd)
                text += "; endurance does not apply (hard disk)";
            else
                text += "; no drive given, so no rated endurance";
            if (w.replacementDisks > 0)
                text += "; " + std::to_string(w.replacementDisks) +
                        " disk(s) bought again within " + std::to_string(r.years) + " years";
            doc.para(text + ".");
        }
        if (p.cost)
            doc.para(display::horizonCost(*p.cost, r.years));
        const std::string id = "projection-" + std::to_string(i);
        if (charts.count(id))
            for (const auto& ref : plan)
                if (ref.id == id)
                    doc.chart(ref.id, ref.caption);
    }
}

void addComparisons(Doc& doc, const ReportData& data, const std::set<std::string>& charts) {
    for (std::size_t i = 0; i < data.comparisons.size(); ++i) {
        const Comparison& c = data.comparisons[i];
        doc.heading(2, c.candidate + " against " + c.baseline);
        if (c.metrics.empty()) {
            doc.para("No metric was measured successfully on both layouts; nothing to compare.");
            continue;
        }
        doc.para(std::vector<Span>{
            {"Verdict: "},
            {verdictText(c.verdict), true, charts::verdictColor(c.verdict).toStdString()},
            {c.confident ? " (confident; the worst deciding metric decides)."
                         : " (not confident; the worst deciding metric decides)."}});
        // The reason a deciding metric is not confident, said once above the table when it is
        // the same for all ("too few runs: 1 and 1" on 32 rows is noise).
        std::string sameUncertainty;
        bool same = true;
        for (const auto& m : c.metrics)
            if (m.decisive && !m.confident) {
                same = same && (sameUncertainty.empty() || sameUncertainty == m.uncertainty);
                sameUncertainty = m.uncertainty;
            }
        if (!same)
            sameUncertainty.clear();
        if (!sameUncertainty.empty())
            doc.para("No deciding metric here is confident: " + sameUncertainty +
                     ". Metrics marked “shown” do not decide and have no verdict.");
        else
            doc.para("Metrics marked “shown” do not decide and have no verdict.");
        std::vector<std::vector<Cell>> rows;
        for (const auto& m : c.metrics)
            rows.push_back(
                {{m.name, "", false, true},
                 {display::value(m.baselineMedian, m.unit), "", true},
                 {display::value(m.candidateMedian, m.unit), "", true},
                 {display::ratio(m.ratio), "", true},
                 {display::percent(m.overhead), "", true},
                 {intervalText(m), "", true},
                 {verdictCell(m),
                  m.decisive ? charts::verdictColor(m.verdict).toStdString() : std::string()},
                 {!m.decisive                ? "—"
                  : m.confident              ? "yes"
                  : !sameUncertainty.empty() ? "no"
                                             : "no: " + m.uncertainty},
                 {std::to_string(m.baselineSamples) + " / " + std::to_string(m.candidateSamples),
                  "", true}});
        doc.table({"metric", "baseline", "candidate", "ratio", "overhead", "95 % interval",
                   "verdict", "confident", "runs"},
                  std::move(rows));
        std::vector<std::vector<Span>> notes;
        for (const auto& line : noteLines(c))
            notes.push_back({{line.text + " — on " + noteMetricsText(line, c, 6)}});
        if (!notes.empty()) {
            doc.para("What qualifies these figures:");
            doc.bullets(std::move(notes));
        }
        std::vector<std::vector<Span>> excluded;
        for (const auto& m : c.metrics)
            if (!m.excluded.empty())
                excluded.push_back({{m.name, true}, {": " + m.excluded}});
        for (const auto& n : c.notCompared)
            excluded.push_back({{n.name, true}, {": " + n.reason}});
        if (!excluded.empty()) {
            doc.para("Not compared (kept out of the verdict):");
            doc.bullets(std::move(excluded));
        }
        const std::string id = "overhead-" + std::to_string(i);
        if (charts.count(id))
            for (const auto& ref : chartPlan(data))
                if (ref.id == id)
                    doc.chart(ref.id, ref.caption);
    }
}

void addCharts(Doc& doc, const ReportData& data, const std::set<std::string>& charts) {
    std::vector<ChartRef> bars;
    for (const auto& ref : chartPlan(data))
        if (ref.id.rfind("bars-", 0) == 0 && charts.count(ref.id))
            bars.push_back(ref);
    if (bars.empty())
        return;
    doc.heading(2, "Results per layout");
    for (const auto& ref : bars)
        doc.chart(ref.id, ref.caption);
}

// The runs' course: series over time, latency percentile curves and queue-depth sweeps, with
// the sweep's figures as a table (which the Markdown report, without charts, keeps too).
void addCourse(Doc& doc, const ReportData& data, const std::set<std::string>& charts) {
    std::vector<ChartRef> refs;
    for (const auto& ref : chartPlan(data))
        if ((ref.id.rfind("series-", 0) == 0 || ref.id.rfind("curve-", 0) == 0 ||
             ref.id.rfind("sweep-", 0) == 0) &&
            charts.count(ref.id))
            refs.push_back(ref);
    std::vector<std::vector<Cell>> rows;
    for (const auto& l : data.layouts) {
        const auto it = data.samples.find(l.name);
        if (it == data.samples.end())
            continue;
        for (const auto& c : queueDepthSweeps(it->second.metrics))
            for (const auto& p : c.points)
                rows.push_back(
                    {{l.name},
                     {c.family + " " + c.direction},
                     {std::to_string(p.depth), "", true},
                     {p.iops ? display::value(*p.iops, Unit::OpsPerSecond) : "—", "", true},
                     {p.p99Ns ? display::value(*p.p99Ns, Unit::Nanoseconds) : "—", "", true},
                     {c.p99Metric}});
    }
    if (refs.empty() && rows.empty())
        return;
    doc.heading(2, "Over time, by latency percentile and by queue depth");
    if (!rows.empty())
        doc.table({"layout", "sweep", "queue depth", "IOPS", "p99 latency", "latency measured"},
                  std::move(rows));
    for (const auto& ref : refs)
        doc.chart(ref.id, ref.caption);
}

void addFailedRuns(Doc& doc, const ReportData& data) {
    doc.heading(2, "Failed runs");
    std::vector<std::vector<Cell>> rows;
    std::vector<const ReportRun*> failed;
    for (const auto& r : data.runs)
        if (r.status != RunStatus::Ok) {
            failed.push_back(&r);
            rows.push_back({{"#" + std::to_string(r.id), "", true},
                            {r.layout},
                            {r.workload},
                            {std::to_string(r.iteration + 1), "", true}, // from 1
                            {std::string(runStatusName(r.status))},
                            {r.exitCode ? std::to_string(*r.exitCode) : "—", "", true},
                            {r.reason.empty() ? "no reason recorded" : r.reason}});
        }
    if (failed.empty()) {
        doc.para("None: every run finished and its output was parsed.");
        return;
    }
    doc.para(plural(static_cast<std::int64_t>(failed.size()), "run", "runs") +
             " did not give results; their metrics take no part in the comparisons.");
    doc.table({"run", "layout", "workload", "iteration", "status", "exit", "why"}, std::move(rows));
    for (const ReportRun* r : failed)
        if (!r->stderrTail.empty()) {
            doc.para(std::vector<Span>{
                {"Run #" + std::to_string(r->id) + " (" + r->layout + ", " + r->workload + ")",
                 true},
                {": the end of its error output"}});
            doc.code(r->stderrTail);
        }
}

void addCaveats(Doc& doc, const ReportData& data) {
    doc.heading(2, "Caveats");
    struct Where {
        std::set<std::string> places;
        std::vector<std::int64_t> runs;
    };
    std::map<std::string, Where> caveats;
    for (const auto& r : data.runs)
        for (const auto& c : r.caveats) {
            Where& w = caveats[c];
            w.places.insert(r.layout + ": " + r.workload);
            w.runs.push_back(r.id);
        }
    if (caveats.empty()) {
        doc.para("No caveats were recorded with the runs.");
        return;
    }
    doc.para("Recorded with the runs: conditions that can make a number less trustworthy than it "
             "looks (caching, O_DIRECT refused, a data set smaller than memory).");
    std::vector<std::vector<Cell>> rows;
    for (const auto& [text, where] : caveats) {
        std::vector<std::string> ids;
        for (auto id : where.runs)
            ids.push_back(std::string(1, '#').append(std::to_string(id)));
        rows.push_back(
            {{text},
             {joined(std::vector<std::string>(where.places.begin(), where.places.end()), ", ")},
             {joined(ids, ", ")}});
    }
    doc.table({"caveat", "where", "runs"}, std::move(rows));
}

// The words of the report a reader may not know: the terms of the metrics compared (put_block,
// lat_p99, ...), each once, and those of the tables.
void addGlossary(Doc& doc, const ReportData& data) {
    std::vector<std::vector<Span>> items;
    std::set<std::string> seen;
    for (const Comparison& c : data.comparisons)
        for (const auto& m : c.metrics)
            if (auto t = metricTerm(m.name); t && seen.insert(t->term).second)
                items.push_back({{t->term, true}, {": " + t->meaning}});
    if (data.comparisons.empty())
        return;
    doc.heading(2, "Glossary");
    for (const auto& [term, meaning] : std::vector<std::pair<std::string, std::string>>{
             {"ratio", "the candidate's time for the same work over the baseline's: 1.58 is 58 % "
                       "more time"},
             {"overhead", "the ratio less 1, as a percentage"},
             {"95 % interval",
              "the range the ratio lies in with 95 % confidence, from the spread of the runs; it "
              "needs at least " +
                  std::to_string(minSamplesForInterval) + " runs on each side"},
             {"confident, settled", "the whole 95 % interval lies in one band: the verdict holds "
                                    "whatever the runs' noise did"},
             {"shown", "a metric shown for the record that does not decide (CPU, the single "
                       "slowest operation, runtimes): it has no verdict"},
             {"not comparable", "the two sides did different work for this metric (another block "
                                "size, queue depth, preset): kept out of the verdict"}})
        items.push_back({{term, true}, {": " + meaning}});
    doc.bullets(std::move(items));
}

void addAppendix(Doc& doc, const ReportData& data) {
    doc.heading(2, "Appendix: every run's command line");
    if (data.runs.empty()) {
        doc.para("No runs.");
        return;
    }
    std::string text;
    for (const auto& r : data.runs) {
        std::string head = "# run " + std::to_string(r.id) + " · " + r.layout + " · " + r.workload +
                           " · iteration " + std::to_string(r.iteration + 1) + " · " +
                           std::string(runStatusName(r.status));
        if (!r.toolVersion.empty())
            head += " · " + r.toolVersion;
        if (r.wallSeconds > 0)
            head += " · " + fixed(r.wallSeconds, 1) + " s";
        text += head + "\n";
        text += r.argv.empty() ? "(no command: imported" +
                                     (r.source.empty() ? std::string() : " from " + r.source) +
                                     (r.origin.empty() ? std::string() : ": " + r.origin) + ")"
                               : commandLine(r.argv);
        text += "\n";
    }
    text.pop_back();
    doc.code(text);
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
    addSummary(doc, data);
    addQuestion(doc, data);
    addVerdicts(doc, data);
    addInventory(doc, data);
    addLayouts(doc, data);
    addProjections(doc, data, charts);
    addComparisons(doc, data, charts);
    addCharts(doc, data, charts);
    addCourse(doc, data, charts);
    addDrills(doc, data);
    addSteadyState(doc, data, charts);
    addFailedRuns(doc, data);
    addCaveats(doc, data);
    addGlossary(doc, data);
    addAppendix(doc, data);
    return doc;
}

// ---- HTML ------------------------------------------------------------------------------------

// What an <img> of a chart points at: a data URI in the HTML file, a resource name in the PDF.
using ImageSource = std::function<std::string(const std::string& id)>;

// Shared by the browser and Qt's rich-text engine (which lays out the PDF): plain CSS 2.1.
const char* const htmlStyleCommon =
    "h1{font-size:18pt}h2{font-size:14pt;margin-top:1.4em}h3{font-size:11pt}"
    "table{border-collapse:collapse;margin:0.4em 0}"
    "th,td{border:1px solid #b0b0b0;padding:3px 6px;text-align:left;vertical-align:top}"
    "th{background-color:#eeeeee}td.num{text-align:right}"
    "span.verdict,td.verdict{color:#ffffff;font-weight:bold}"
    "pre{background-color:#f4f4f4;padding:6px;font-family:'DejaVu Sans Mono',monospace;"
    "font-size:8pt;white-space:pre-wrap}"
    "p.caption{font-style:italic;font-size:9pt}";
// The browser gets a readable column and numbers kept on one line.
const char* const htmlStyleScreen =
    "body{font-family:'DejaVu Sans',sans-serif;font-size:10pt;color:#222;max-width:64em;"
    "margin:1.5em auto;padding:0 1em}td.num{white-space:nowrap}"
    "p.chart img{max-width:100%;height:auto}";
// Qt's table layout starves text columns next to unbreakable ones: let everything wrap, and
// use a smaller type in tables so nine columns fit an A4 page.
const char* const htmlStylePrint = "body{font-family:'DejaVu Sans',sans-serif;color:#222}"
                                   "th,td{font-size:7.5pt;padding:2px 4px}";

struct HtmlFlavor {
    bool print = false; // for Qt's PDF layout rather than a browser
    int imageWidth = 900;
    // Headings and charts, counted together from 0, that start a new page.
    std::set<std::size_t> breakBefore;
    // Table rows, counted from 0 over every table's body rows, that start a new page: the table
    // is closed before the row and opened again, its header first, on the next page.
    std::set<std::size_t> rowBreakBefore;
};

std::string htmlSpans(const std::vector<Span>& spans) {
    std::string out;
    for (const auto& s : spans) {
        std::string t = htmlEscape(s.text);
        if (!s.color.empty())
            t = "<span class=\"verdict\" style=\"background-color:" + htmlEscape(s.color) +
                ";color:#ffffff\">&nbsp;" + t + "&nbsp;</span>";
        if (s.strong)
            t = "<b>" + t + "</b>";
        out += t;
    }
    return out;
}

// ---- tables in Qt's layout --------------------------------------------------------------------
//
// Qt's table layout gives a column what its widest cell would like, then squeezes, and a squeezed
// cell breaks its words anywhere ("bonnie.put_b|lock"). For the PDF the emitter sizes the columns
// as a browser would: each gets at least its widest unbreakable piece, the rest of the page goes
// to the columns whose cells want more, in proportion. Pieces are measured in the PDF's table type
// (htmlStylePrint): a dotted name's pieces are its dot-separated parts, a number with its unit is
// one piece, other text breaks at spaces.

// A cell's text as Qt lays it out in the PDF: a dotted name breaks after its dots only (a zero
// width space after each, a word joiner after each hyphen); a number keeps its unit.
std::string printText(const Cell& cell) {
    static const std::string zeroWidthSpace = "\u200b", wordJoiner = "\u2060",
                             noBreakSpace = "\u00a0";
    std::string out;
    for (const char ch : cell.text) {
        if (cell.numeric && ch == ' ') {
            out += noBreakSpace;
            continue;
        }
        out += ch;
        if (cell.dotted && ch == '.')
            out += zeroWidthSpace;
        else if (cell.dotted && ch == '-')
            out += wordJoiner;
    }
    return out;
}

// The width of a cell's widest unbreakable piece (first) and of its whole text (second), in
// pixels at 96 dpi.
std::pair<double, double> cellWidths(const Cell& cell, const QFontMetricsF& font) {
    const auto width = [&font](std::string_view t) {
        return font.horizontalAdvance(
            QString::fromUtf8(t.data(), static_cast<qsizetype>(t.size())));
    };
    if (cell.numeric)
        return {width(cell.text), width(cell.text)};
    double widest = 0;
    std::size_t start = 0;
    const std::string_view text = cell.text;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] != ' ' && !(cell.dotted && text[i] == '.'))
            continue;
        const std::size_t end = i < text.size() && text[i] == '.' ? i + 1 : i; // keeps its dot
        widest = std::max(widest, width(text.substr(start, end - start)));
        start = i + 1;
    }
    return {widest, width(text)};
}

// Each column's share of the table's width, in percent: at least its widest piece, then the rest
// of the line in proportion to what the column would like beyond that. A column's width holds
// its cells' padding and borders; the shares are rounded down so that they never ask for more
// than the line.
std::vector<std::string> columnPercents(const Block& table) {
    QFont cellFont("DejaVu Sans");
    cellFont.setPointSizeF(7.5);
    QFont headerFont = cellFont;
    headerFont.setBold(true);
    const QFontMetricsF cells(cellFont), headers(headerFont);
    constexpr double lineWidth = 640; // px: A4 inside 2 cm margins, at 96 dpi
    constexpr double cellFrame = 14;  // px per column: padding both sides, border, spacing
    const std::size_t columns = table.headers.size();
    std::vector<double> least(columns), most(columns);
    for (std::size_t c = 0; c < columns; ++c)
        std::tie(least[c], most[c]) = cellWidths(Cell{table.headers[c]}, headers);
    for (const auto& row : table.rows)
        for (std::size_t c = 0; c < std::min(columns, row.size()); ++c) {
            // A verdict's cell is set in bold (class "verdict"), as the header is.
            const auto [cMin, cMax] = cellWidths(row[c], row[c].color.empty() ? cells : headers);
            least[c] = std::max(least[c], cMin);
            most[c] = std::max(most[c], cMax);
        }
    double sumLeast = 0, sumMore = 0;
    for (std::size_t c = 0; c < columns; ++c) {
        least[c] += cellFrame;
        most[c] += cellFrame;
        sumLeast += least[c];
        sumMore += most[c] - least[c];
    }
    const double total = std::max(lineWidth, sumLeast);
    const double spare = std::min(total - sumLeast, sumMore);
    std::vector<std::string> out(columns);
    for (std::size_t c = 0; c < columns; ++c) {
        const double w = least[c] + (sumMore > 0 ? spare * (most[c] - least[c]) / sumMore : 0);
        out[c] = fixed(std::floor(1000 * w / total) / 10, 1) + "%";
    }
    return out;
}

std::string emitHtml(const Doc& doc, const std::string& title, const ImageSource& image,
                     const HtmlFlavor& flavor) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<title>" +
                      htmlEscape(title) + "</title>\n<style>" + htmlStyleCommon +
                      (flavor.print ? htmlStylePrint : htmlStyleScreen) +
                      "</style>\n</head>\n<body>\n";
    std::size_t kept = 0;     // headings and charts, each kept with what follows in a PDF
    std::size_t bodyRows = 0; // table rows below the headers, each kept on one page in a PDF
    const auto breakStyle = [&] {
        return flavor.breakBefore.count(kept++) ? std::string(" style=\"page-break-before:always\"")
                                                : std::string();
    };
    for (const Block& b : doc.blocks) {
        switch (b.kind) {
        case Block::Kind::Heading: {
            const std::string tag = "h" + std::to_string(b.level);
            out += "<" + tag + breakStyle() + ">" + htmlEscape(b.text) + "</" + tag + ">\n";
            break;
        }
        case Block::Kind::Paragraph:
            out += "<p>" + htmlSpans(b.spans) + "</p>\n";
            break;
        case Block::Kind::Bullets:
            out += "<ul>\n";
            for (const auto& item : b.items)
                out += "<li>" + htmlSpans(item) + "</li>\n";
            out += "</ul>\n";
            break;
        case Block::Kind::Table: {
            // The header row in <thead>: a PDF repeats it on each page the table runs onto.
            const auto widths = flavor.print ? columnPercents(b) : std::vector<std::string>{};
            const auto open = [&](bool newPage) {
                out += std::string("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"") +
                       (flavor.print ? " width=\"100%\"" : "") +
                       (newPage ? " style=\"page-break-before:always\"" : "") + ">\n<thead><tr>";
                for (std::size_t c = 0; c < b.headers.size(); ++c)
                    out +=
                        (flavor.print ? "<th width=\"" + widths[c] + "\">" : std::string("<th>")) +
                        htmlEscape(b.headers[c]) + "</th>";
                out += "</tr></thead>\n<tbody>\n";
            };
            open(!b.rows.empty() && flavor.rowBreakBefore.count(bodyRows));
            for (std::size_t r = 0; r < b.rows.size(); ++r, ++bodyRows) {
                const auto& row = b.rows[r];
                // A row that would run from one page onto the next starts the next instead.
                if (r > 0 && flavor.rowBreakBefore.count(bodyRows)) {
                    out += "</tbody></table>\n";
                    open(true);
                }
                out += "<tr>";
                for (const auto& cell : row) {
                    if (!cell.color.empty())
                        out += "<td class=\"verdict\" bgcolor=\"" + htmlEscape(cell.color) +
                               "\" style=\"background-color:" + htmlEscape(cell.color) +
                               ";color:#ffffff\">";
                    else if (cell.numeric)
                        out += "<td class=\"num\" align=\"right\">";
                    else
                        out += "<td>";
                    out += htmlEscape(flavor.print ? printText(cell) : cell.text) + "</td>";
                }
                out += "</tr>\n";
            }
            out += "</tbody></table>\n";
            break;
        }
        case Block::Kind::Code:
            out += "<pre>" + htmlEscape(b.text) + "</pre>\n";
            break;
        case Block::Kind::Chart:
            out += "<p class=\"chart\"" + breakStyle() + "><img src=\"" +
                   htmlEscape(image(b.text)) + "\" width=\"" + std::to_string(flavor.imageWidth) +
                   "\" alt=\"" + htmlEscape(b.caption) + "\"></p>\n<p class=\"caption\">" +
                   htmlEscape(b.caption) + "</p>\n";
            break;
        }
    }
    out += "</body>\n</html>\n";
    return out;
}

// ---- Markdown --------------------------------------------------------------------------------

std::string mdSpans(const std::vector<Span>& spans) {
    std::string out;
    for (const auto& s : spans)
        out += s.strong ? "**" + markdownEscape(s.text) + "**" : markdownEscape(s.text);
    return out;
}

// `chartDir`: where the charts' PNG files are, relative to the Markdown file.
std::string emitMarkdown(const Doc& doc, const std::string& chartDir) {
    std::string out;
    for (const Block& b : doc.blocks) {
        switch (b.kind) {
        case Block::Kind::Heading:
            out += std::string(static_cast<std::size_t>(b.level), '#') + " " +
                   markdownEscape(b.text) + "\n\n";
            break;
        case Block::Kind::Paragraph:
            out += mdSpans(b.spans) + "\n\n";
            break;
        case Block::Kind::Bullets:
            for (const auto& item : b.items)
                out += "- " + mdSpans(item) + "\n";
            out += "\n";
            break;
        case Block::Kind::Table: {
            std::string header = "|", rule = "|";
            for (std::size_t c = 0; c < b.headers.size(); ++c) {
                header += " " + markdownEscape(b.headers[c]) + " |";
                const bool numeric =
                    !b.rows.empty() && b.rows.front().size() > c && b.rows.front()[c].numeric;
                rule += numeric ? " ---: |" : " --- |";
            }
            out += header + "\n" + rule + "\n";
            for (const auto& row : b.rows) {
                out += "|";
                for (const auto& cell : row)
                    out.append(" ").append(markdownEscape(cell.text)).append(" |");
                out += "\n";
            }
            out += "\n";
            break;
        }
        case Block::Kind::Code: {
            // A fence longer than any run of backticks inside, so nothing can close it early.
            std::size_t longest = 0, run = 0;
            for (char ch : b.text) {
                run = ch == '`' ? run + 1 : 0;
                longest = std::max(longest, run);
            }
            const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
            out += fence + "\n" + b.text + "\n" + fence + "\n\n";
            break;
        }
        case Block::Kind::Chart: {
            // A path with spaces or parentheses stays one link target inside <...>.
            const std::string file = (chartDir.empty() ? "" : chartDir + "/") + b.text + ".png";
            out += "![" + markdownEscape(b.caption) + "](<" + file + ">)\n\n*" +
                   markdownEscape(b.caption) + "*\n\n";
            break;
        }
        }
    }
    while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n')
        out.pop_back();
    return out;
}

// ---- charts ----------------------------------------------------------------------------------

std::string pngBytes(QCustomPlot& plot, int width, int height) {
    // Twice the pixels of the layout size: sharp in print and on high-density screens.
    const QPixmap pixmap = plot.toPixmap(width, height, 2.0);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    pixmap.toImage().save(&buffer, "PNG");
    return bytes.toStdString();
}

std::set<std::string> chartIds(const std::vector<ReportChart>& charts) {
    std::set<std::string> ids;
    for (const auto& c : charts)
        ids.insert(c.id);
    return ids;
}

} // namespace

std::string htmlEscape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string markdownEscape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '\n' || c == '\r') {
            out += ' ';
            continue;
        }
        if (std::string_view("\\`*_[]<>|&#~").find(c) != std::string_view::npos)
            out += '\\';
        out += c;
    }
    return out;
}

std::vector<ReportChart> renderCharts(const ReportData& data, int width, int height) {
    std::vector<ReportChart> out;
    QCustomPlot plot;
    plot.setFont(QFont("DejaVu Sans", 9));
    for (const ChartRef& ref : chartPlan(data)) {
        if (ref.id == "bars-throughput" || ref.id == "bars-ops" || ref.id == "bars-latency") {
            QStringList metrics;
            const Unit unit = ref.id == "bars-throughput" ? Unit::BytesPerSecond
                              : ref.id == "bars-ops"      ? Unit::OpsPerSecond
                                                          : Unit::Nanoseconds;
            for (const auto& m : barMetricsOfUnit(data, unit))
                metrics << QString::fromStdString(m);
            charts::buildGroupedBars(plot, data, metrics, false);
        } else if (ref.id.rfind("series-", 0) == 0) {
            const auto index = std::stoll(ref.id.substr(std::string("series-").size()));
            charts::buildTimeSeriesChart(plot, data,
                                         charts::timeSeriesNames(data)[index].toStdString());
        } else if (ref.id.rfind("curve-", 0) == 0) {
            const auto index = std::stoll(ref.id.substr(std::string("curve-").size()));
            charts::buildPercentileChart(plot, data,
                                         charts::percentileCurveNames(data)[index].toStdString());
        } else if (ref.id.rfind("sweep-", 0) == 0) {
            const auto index = std::stoul(ref.id.substr(std::string("sweep-").size()));
            const auto key = charts::sweepKeys(data)[index];
            charts::buildSweepChart(plot, data, key.first, key.second);
        } else if (ref.id.rfind("steady-", 0) == 0) {
            const auto index = std::stoul(ref.id.substr(std::string("steady-").size()));
            charts::buildSteadyStateChart(plot, data.steadyState[index]);
        } else if (ref.id.rfind("projection-", 0) == 0) {
            const auto index = std::stoul(ref.id.substr(std::string("projection-").size()));
            charts::buildProjectionChart(plot, data.projections[index],
                                         data.projectionRequest &&
                                             data.projectionRequest->binaryUnits);
        } else {
            const auto index = std::stoul(ref.id.substr(std::string("overhead-").size()));
            charts::buildOverheadChart(plot, data.comparisons[index]);
        }
        out.push_back({ref.id, ref.caption, pngBytes(plot, width, height)});
    }
    return out;
}

std::string renderMarkdown(const ReportData& data) {
    return emitMarkdown(buildDoc(data, {}), {});
}

std::string renderMarkdown(const ReportData& data, const std::vector<ReportChart>& charts,
                           const std::string& chartDir) {
    return emitMarkdown(buildDoc(data, chartIds(charts)), chartDir);
}

std::string renderHtml(const ReportData& data) {
    const std::vector<ReportChart> charts = renderCharts(data);
    std::map<std::string, std::string> uris;
    for (const auto& c : charts)
        uris[c.id] =
            "data:image/png;base64," + QByteArray::fromStdString(c.png).toBase64().toStdString();
    return emitHtml(
        buildDoc(data, chartIds(charts)), data.title,
        [&uris](const std::string& id) { return uris.at(id); }, HtmlFlavor{false, 900});
}

namespace {

// The PDF's /CreationDate is the report's own date (when it was written, as its summary says),
// not the clock of the rendering, so the same request gives the same bytes. Qt stamps its clock
// as D:YYYYMMDDHHmmSS then Z or +HH'mm'; the stamp is replaced in place by one of the same length,
// so the cross-reference offsets stay valid. No date asked for: 1970, as fixed as any.
QByteArray pdfDate(const std::string& isoUtc, qsizetype length) {
    std::string digits;
    for (const char ch : isoUtc.substr(0, 19))
        if (ch >= '0' && ch <= '9')
            digits += ch;
    if (digits.size() != 14)
        digits = "19700101000000";
    const std::string zone = length == 15 ? "Z" : "+00'00'";
    const std::string stamp = digits + zone;
    return stamp.size() == static_cast<std::size_t>(length) ? QByteArray::fromStdString(stamp)
                                                            : QByteArray();
}

bool holdsImage(const QTextBlock& b) {
    for (auto it = b.begin(); !it.atEnd(); ++it)
        if (it.fragment().charFormat().isImageFormat())
            return true;
    return false;
}

// The first heading or chart, counted together from 0 as emitHtml counts them, that ends its page
// while what follows it (a heading's text, a chart's caption) starts on the next; none when each
// stands with what follows.
std::optional<std::size_t> blockLeftAlone(QTextDocument& doc, qreal pageHeight) {
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    std::size_t kept = 0;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
        if (b.blockFormat().headingLevel() == 0 && !holdsImage(b))
            continue;
        const std::size_t index = kept++;
        const QTextBlock next = b.next();
        if (!next.isValid() ||
            b.blockFormat().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore)
            continue;
        const QRectF at = layout->blockBoundingRect(b);
        const QRectF following = layout->blockBoundingRect(next);
        const QTextLayout* lines = next.layout();
        const qreal firstLine =
            lines && lines->lineCount() > 0 ? lines->lineAt(0).rect().bottom() : following.height();
        const auto pageOf = [pageHeight](qreal y) { return static_cast<int>(y / pageHeight); };
        if (pageOf(following.top() + firstLine - 1) > pageOf(at.top()))
            return index;
    }
    return std::nullopt;
}

// The first table row, counted over every table's body rows from 0 as emitHtml counts them, that
// starts on one page and ends on the next (Qt's layout moves a cell's lines, not its row, past a
// page's end: "fio.qd-sweep-qd1." under one page's rows, "read.runtime" under the next page's
// header); none when every row stands on one page. Rows already moved are not asked for again.
std::optional<std::size_t> rowAcrossPages(QTextDocument& doc, qreal pageHeight,
                                          const std::set<std::size_t>& moved) {
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    const auto pageOf = [pageHeight](qreal y) { return static_cast<int>(y / pageHeight); };
    // A cell's lines, top and bottom, in the document's coordinates.
    const auto extent = [&](const QTextTableCell& cell) {
        qreal top = std::numeric_limits<qreal>::max(), bottom = 0;
        for (QTextBlock b = cell.firstCursorPosition().block(); b.isValid(); b = b.next()) {
            const QRectF at = layout->blockBoundingRect(b);
            if (const QTextLayout* lines = b.layout(); lines && lines->lineCount() > 0) {
                top = std::min(top, at.top() + lines->lineAt(0).rect().top());
                bottom = std::max(bottom,
                                  at.top() + lines->lineAt(lines->lineCount() - 1).rect().bottom());
            }
            if (b == cell.lastCursorPosition().block())
                break;
        }
        return std::pair{top, bottom};
    };
    std::size_t bodyRow = 0;
    std::vector<QTextTable*> tables;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
        QTextTable* table = QTextCursor(b).currentTable();
        if (!table || std::find(tables.begin(), tables.end(), table) != tables.end())
            continue;
        tables.push_back(table);
        const int headers = table->format().headerRowCount();
        for (int r = headers; r < table->rows(); ++r, ++bodyRow) {
            qreal top = std::numeric_limits<qreal>::max(), bottom = 0;
            for (int c = 0; c < table->columns(); ++c) {
                const auto [cellTop, cellBottom] = extent(table->cellAt(r, c));
                top = std::min(top, cellTop);
                bottom = std::max(bottom, cellBottom);
            }
            if (bottom > top && pageOf(bottom - 1) > pageOf(top) && !moved.count(bodyRow))
                return bodyRow;
        }
    }
    return std::nullopt;
}

} // namespace

Expected<void> renderPdf(const ReportData& data, const std::string& path) {
    QBuffer file;
    file.open(QIODevice::WriteOnly);
    const std::vector<ReportChart> charts = renderCharts(data);
    const Doc contents = buildDoc(data, chartIds(charts));

    QPdfWriter writer(&file);
    writer.setTitle(QString::fromStdString(data.title));
    writer.setCreator("layoutbench");
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter);
    const QRectF page(0, 0, writer.width(), writer.height());
    const qreal margin = 2 / 2.54 * writer.logicalDpiY(); // 2 cm, in the writer's units
    // Laid out as QTextDocument::print lays out a copy (the writer's resolution, 2 cm margins,
    // its page size), but here, so that headings can be kept with what follows and each page
    // gets "page N of M" at its foot. The document's own lengths (margins, pixels) are at 96 dpi
    // and scaled to the writer's by the layout; the page size and the painter are in the
    // writer's units.
    const auto laidOut = [&](const std::set<std::size_t>& breaks,
                             const std::set<std::size_t>& rowBreaks) {
        auto doc = std::make_unique<QTextDocument>();
        doc->setDefaultFont(QFont("DejaVu Sans", 9));
        for (const auto& c : charts)
            doc->addResource(QTextDocument::ImageResource,
                             QUrl(QString::fromStdString("chart:" + c.id)),
                             QImage::fromData(QByteArray::fromStdString(c.png), "PNG"));
        doc->setHtml(QString::fromStdString(emitHtml(
            contents, data.title, [](const std::string& id) { return "chart:" + id; },
            HtmlFlavor{true, 620, breaks, rowBreaks})));
        doc->documentLayout()->setPaintDevice(&writer);
        constexpr qreal documentDpi = 96;
        QTextFrameFormat frame = doc->rootFrame()->frameFormat();
        frame.setMargin(2 / 2.54 * documentDpi);
        doc->rootFrame()->setFrameFormat(frame);
        doc->setPageSize(page.size());
        return doc;
    };
    // Headings keep with their text and charts with their captions: one whose next block would
    // start on a later page moves to that page. Qt's layout has no keep-with-next, and changing a
    // laid-out document's formats in place lost what followed from the pages (charts, whole
    // sections), so the document is laid out afresh with each break, the first block left alone
    // first (each break moves what comes after it).
    // Then a table row that runs onto the next page starts it, its table's header above it.
    std::set<std::size_t> breaks, rowBreaks;
    auto doc = laidOut(breaks, rowBreaks);
    for (;;) {
        if (const auto lone = blockLeftAlone(*doc, page.height())) {
            breaks.insert(*lone);
        } else if (const auto row = rowAcrossPages(*doc, page.height(), rowBreaks)) {
            rowBreaks.insert(*row);
        } else {
            break;
        }
        doc = laidOut(breaks, rowBreaks);
    }

    const int pages = doc->pageCount();
    QPainter painter(&writer);
    const QFont footFont("DejaVu Sans", 7);
    for (int i = 0; i < pages; ++i) {
        if (i > 0)
            writer.newPage();
        painter.save();
        const QRectF view(0, i * page.height(), page.width(), page.height());
        painter.translate(0, -view.top());
        painter.setClipRect(view);
        QAbstractTextDocumentLayout::PaintContext ctx;
        ctx.clip = view;
        ctx.palette.setColor(QPalette::Text, Qt::black);
        doc->documentLayout()->draw(&painter, ctx);
        painter.restore();
        painter.setFont(footFont);
        const QRectF foot(margin, page.height() - margin * 0.8, page.width() - 2 * margin,
                          margin * 0.4);
        painter.drawText(
            foot, Qt::AlignLeft | Qt::AlignVCenter,
            QString::fromStdString(
                data.title + (data.writtenAt.empty() ? std::string() : ", " + data.writtenAt)));
        painter.drawText(foot, Qt::AlignRight | Qt::AlignVCenter,
                         QStringLiteral("page %1 of %2").arg(i + 1).arg(pages));
    }
    painter.end();
    file.close();
    QByteArray pdf = file.data();
    static const QByteArray key = "/CreationDate (D:";
    if (const auto at = pdf.indexOf(key); at >= 0) {
        const auto start = at + key.size();
        const auto end = pdf.indexOf(')', start);
        if (const QByteArray stamp = pdfDate(data.writtenAt, end - start);
            end > start && !stamp.isEmpty())
            pdf.replace(start, end - start, stamp);
    }
    QSaveFile out(QString::fromStdString(path));
    if (!out.open(QIODevice::WriteOnly) || out.write(pdf) != pdf.size() || !out.commit())
        return runtimeError(path + ": cannot write: " + out.errorString().toStdString());
    return {};
}

} // namespace lb
