// The report's results: the capacity projection, each comparison's table and notes, the charts,
// the failed runs, the caveats, the glossary and the appendix of command lines.
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
#include "reports/report_doc.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace lb::report_detail {

namespace {

// What the projection assumes, in one paragraph: growth, use, horizon, drive and prices.
std::string projectionIntro(const ReportData& data, const ProjectionRequest& r) {
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
                 (r.price->perTb ? " per TB" : " per drive") + " (the price given)";
    if (r.hostBytesPerDay)
        intro += "; hosts write " + formatBytes(*r.hostBytesPerDay) + " a day";
    return intro + ".";
}

// Each layout projected: what it holds, its ceiling, and when use passes the ceiling.
void addCeilingTable(Doc& doc, const ReportData& data, const ProjectionRequest& r) {
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
}

// A layout's expansion paths: a row each (disks per step, cost, when, how many, at what end),
// then what each path does and what zfs list would show of it.
void addExpansionPaths(Doc& doc, const ReportData& data, const LayoutProjection& p) {
    if (p.expansions.empty())
        return;
    std::vector<std::vector<Cell>> paths;
    for (const auto& e : p.expansions) {
        std::string firstStep = "—";
        if (!e.schedule.empty())
            firstStep = "month " + std::to_string(e.schedule.front().month);
        paths.push_back(
            {{std::string(expansionKindName(e.kind))},
             {std::to_string(e.disksPerStep), "", true},
             {capacityText(data, e.stepUsableBytes) + (e.approximate ? " ~" : ""), "", true},
             {e.stepCostUsd ? display::usd(*e.stepCostUsd) : "—", "", true},
             {e.costPerUsableTbUsd ? display::usd(*e.costPerUsableTbUsd) : "—", "", true},
             {firstStep},
             {std::to_string(e.disksBought) +
                  (e.keepsUp ? ""
                             : " (limit" +
                                   (e.limitMonth ? " in month " + std::to_string(*e.limitMonth)
                                                 : std::string()) +
                                   ")"),
              "", true},
             {e.totalCostUsd ? display::usd(*e.totalCostUsd) : "—", "", true},
             {capacityText(data, e.finalUsableBytes), "", true}});
    }
    doc.table({"expansion", "disks/step", "step usable", "step cost", "per usable TB", "first step",
               "disks bought", "total cost", "usable at end"},
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

// A layout's wear in words: write amplification and its basis, the bytes a day per disk, and
// when the rated endurance is reached.
std::string wearText(const WearEstimate& w, const ProjectionRequest& r) {
    std::string text =
        "Wear: write amplification " + display::ratio(w.writeAmplification) + " (" +
        w.layout.basis +
        (w.modelled ? "; the layout's model says " + display::ratio(w.modelled->factor) + ": " +
                          w.modelled->basis
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
        text += "; " + std::to_string(w.replacementDisks) + " disk(s) bought again within " +
                std::to_string(r.years) + " years";
    return text + ".";
}

} // namespace

void addProjections(Doc& doc, const ReportData& data, const std::set<std::string>& charts) {
    if ((data.projections.empty() && data.notProjected.empty()) || !data.projectionRequest)
        return;
    const ProjectionRequest& r = *data.projectionRequest;
    doc.heading(2, "Capacity projection");
    doc.para(projectionIntro(data, r));
    if (!data.notProjected.empty())
        doc.para("Not projected: " + joinedText(data.notProjected, ", ") +
                 " — imported results whose disks are unknown, and no capacity was given.");
    addCeilingTable(doc, data, r);
    const auto plan = chartPlan(data);
    for (std::size_t i = 0; i < data.projections.size(); ++i) {
        const LayoutProjection& p = data.projections[i];
        doc.heading(3, p.name);
        addExpansionPaths(doc, data, p);
        for (const auto& n : p.notes)
            doc.para(n);
        if (p.wear)
            doc.para(wearText(*p.wear, r));
        for (const auto& f : data.fillProjections)
            if (f.layout == p.name && f.ageing.hostBytes > 0)
                doc.para("A" + f.ageing.text.substr(1) + ".");
        if (p.cost)
            doc.para(display::horizonCost(*p.cost, r.years));
        const std::string id = "projection-" + std::to_string(i);
        if (charts.count(id))
            for (const auto& ref : plan)
                if (ref.id == id)
                    doc.chart(ref.id, ref.caption);
    }
}

namespace {

// A comparison's table, a row per metric; a metric not confident for the reason all share says
// only "no" (the reason stands once above the table).
std::vector<std::vector<Cell>> metricRows(const Comparison& c, const std::string& sameUncertainty) {
    std::vector<std::vector<Cell>> rows;
    for (const auto& m : c.metrics)
        rows.push_back(
            {{m.name, "", false, true},
             {display::value(m.baselineMedian, m.unit), "", true},
             {display::value(m.candidateMedian, m.unit), "", true},
             {display::ratio(m.ratio), "", true},
             {display::percent(m.overhead), "", true},
             {intervalText(m), "", true},
             {verdictCell(m), m.decisive ? chart::verdictColour(m.verdict) : std::string()},
             {!m.decisive                ? "—"
              : m.confident              ? "yes"
              : !sameUncertainty.empty() ? "no"
                                         : "no: " + m.uncertainty},
             {std::to_string(m.baselineSamples) + " / " + std::to_string(m.candidateSamples), "",
              true}});
    return rows;
}

// What qualifies a comparison's figures, and the metrics kept out of its verdict.
void addComparisonNotes(Doc& doc, const Comparison& c) {
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
}

} // namespace

void addComparisons(Doc& doc, const ReportData& data, const std::set<std::string>& charts) {
    for (std::size_t i = 0; i < data.comparisons.size(); ++i) {
        const Comparison& c = data.comparisons[i];
        doc.heading(2, c.candidate + " against " + c.baseline);
        if (c.metrics.empty()) {
            doc.para("No metric was measured successfully on both layouts; nothing to compare.");
            continue;
        }
        doc.para(
            std::vector<Span>{{"Verdict: "},
                              {verdictText(c.verdict), true, chart::verdictColour(c.verdict)},
                              {(c.verdict == Verdict::NoVerdict ? std::string(" — ")
                                : c.confident ? std::string(" (confident; the worst deciding "
                                                            "metric decides): ")
                                              : std::string(" (not confident; the worst deciding "
                                                            "metric decides): ")) +
                               c.confidence + "."}});
        // The reason the deciding metrics that are not confident are not, said once above the
        // table when it is the same for all ("too few runs: 1 and 1" on 32 rows is noise).
        const std::string sameUncertainty = sharedUncertainty(c);
        if (!sameUncertainty.empty())
            doc.para("Every deciding metric marked “no” is not confident for one reason: " +
                     sameUncertainty +
                     ". Metrics marked “shown” do not decide and have no verdict.");
        else
            doc.para("Metrics marked “shown” do not decide and have no verdict.");
        doc.table({"metric", "baseline", "candidate", "ratio", "overhead", "95 % interval",
                   "verdict", "confident", "runs"},
                  metricRows(c, sameUncertainty));
        addComparisonNotes(doc, c);
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

namespace {

// A caveat's text with each number taken out ("data from fio's random generator, # MB/s here"),
// and its numbers as written: notes that differ only in their figures are one row.
std::pair<std::string, std::vector<std::string>> caveatShape(const std::string& text) {
    std::string shape;
    std::vector<std::string> numbers;
    for (std::size_t i = 0; i < text.size();) {
        const auto digit = [&](std::size_t at) {
            return at < text.size() && text[at] >= '0' && text[at] <= '9';
        };
        if (!digit(i)) {
            shape += text[i++];
            continue;
        }
        std::size_t end = i;
        while (digit(end) || (text[end] == '.' && digit(end + 1)))
            ++end;
        numbers.push_back(text.substr(i, end - i));
        shape += '#';
        i = end;
    }
    return {shape, numbers};
}

// Near-identical caveats as one: the shape with each number that differs given as its range,
// and how many notes it stands for.
std::string collapsedCaveat(const std::string& shape,
                            const std::vector<std::vector<std::string>>& numbers) {
    std::string out;
    std::size_t n = 0;
    for (const char ch : shape) {
        if (ch != '#') {
            out += ch;
            continue;
        }
        double low = std::numeric_limits<double>::max(), high = -low;
        std::string lowText, highText;
        for (const auto& figures : numbers) {
            double v = 0; // from_chars: whatever the process's locale (the GUI sets one)
            std::from_chars(figures[n].data(), figures[n].data() + figures[n].size(), v);
            if (v < low)
                low = v, lowText = figures[n];
            if (v > high)
                high = v, highText = figures[n];
        }
        out += lowText == highText ? lowText : lowText + "–" + highText;
        ++n;
    }
    return out + " (" + std::to_string(numbers.size()) + " similar notes)";
}

} // namespace

void addCaveats(Doc& doc, const ReportData& data) {
    doc.heading(2, "Caveats");
    struct Where {
        std::set<std::string> places;
        std::vector<std::int64_t> runs;
        std::map<std::string, std::vector<std::string>> texts; // each text, with its numbers
    };
    std::map<std::string, Where> caveats; // by shape
    for (const auto& r : data.runs)
        for (const auto& c : r.caveats) {
            auto [shape, numbers] = caveatShape(c);
            Where& w = caveats[shape];
            w.places.insert(r.layout + ": " + r.workload);
            w.runs.push_back(r.id);
            w.texts.emplace(c, std::move(numbers));
        }
    if (caveats.empty()) {
        doc.para("No caveats were recorded with the runs.");
        return;
    }
    doc.para("Recorded with the runs: conditions that can make a number less trustworthy than it "
             "looks (caching, O_DIRECT refused, a data set smaller than memory). Notes that "
             "differ only in their figures are one row, with the figures' range.");
    std::vector<std::vector<Cell>> rows;
    for (const auto& [shape, where] : caveats) {
        std::vector<std::string> ids;
        for (auto id : where.runs)
            ids.push_back(std::string(1, '#').append(std::to_string(id)));
        std::vector<std::vector<std::string>> numbers;
        for (const auto& entry : where.texts)
            numbers.push_back(entry.second);
        rows.push_back(
            {{where.texts.size() == 1 ? where.texts.begin()->first
                                      : collapsedCaveat(shape, numbers)},
             {joinedText(std::vector<std::string>(where.places.begin(), where.places.end()), ", ")},
             {joinedText(ids, ", ")}});
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
        text += r.argv.empty()
                    ? "(no command: imported" +
                          (r.source.empty() ? std::string() : " from " + r.source) +
                          (r.originText.empty() ? std::string() : ": " + r.originText) + ")"
                    : commandLine(r.argv);
        text += "\n";
    }
    text.pop_back();
    doc.code(text);
}

} // namespace lb::report_detail
