// The report's first page, for the person who signs: the summary (the question, each candidate's
// verdict in plain words with the next step and its deciding numbers, capacity and cost), then
// the question and its rule, and the verdicts.
#include "engine/base/joined.h"
#include "engine/base/size.h"
#include "engine/base/utf8.h"
#include "engine/capacity/projection.h"
#include "engine/exec/command.h"
#include "engine/measure/analysis.h"
#include "engine/measure/fill_levels.h"
#include "engine/measure/series.h"
#include "reports/chart_model.h"
#include "reports/comparison_text.h"
#include "reports/display.h"
#include "reports/report_doc.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace lb::report_detail {

// A verdict and the headline's reasons, worst deciding metric first ("guest: decision — ...").
std::vector<Span> headlineSpans(const Comparison& c) {
    return {
        {c.candidate, true},
        {": "},
        {verdictText(c.verdict), true, chart::verdictColour(c.verdict)},
        {c.headline.substr(c.headline.find(" — ") == std::string::npos ? c.headline.size()
                                                                       : c.headline.find(" — "))}};
}

// The layouts compared with the baseline, in the report's order.
std::vector<std::string> candidateNames(const ReportData& data) {
    std::vector<std::string> out;
    for (const auto& l : data.layouts)
        if (!l.baseline)
            out.push_back(l.name);
    return out;
}

void addQuestion(Doc& doc, const ReportData& data) {
    doc.heading(2, "The question");
    const std::vector<std::string> candidates = candidateNames(data);
    if (candidates.empty())
        doc.para("Only the baseline " + data.baseline +
                 " has results; there is no candidate to "
                 "compare yet.");
    else
        doc.para(std::vector<Span>{
            {"Can "},
            {joinedText(candidates, ", "), true},
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
                                     joinedText(buffered, ", ")) +
             "."}});
    }
    const Thresholds& t = data.thresholds;
    doc.para("The rule: for every metric the cost ratio is the candidate's time per unit of work "
             "over the baseline's (baseline ÷ candidate for a throughput, candidate ÷ baseline "
             "for a time or a latency).");
    doc.bullets({{{"viable", true, chart::verdictColour(Verdict::Viable)},
                  {": ratio ≤ " + display::ratio(t.viableMax) + " (at most " +
                   fixed((t.viableMax - 1) * 100, 0) + " % more time)"}},
                 {{"decision", true, chart::verdictColour(Verdict::Decision)},
                  {": between the two: someone has to decide"}},
                 {{"not-viable", true, chart::verdictColour(Verdict::NotViable)},
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
                  : "the scenario names them: " + joinedText(data.decide, ", ")) +
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
        if (c.verdict == Verdict::NoVerdict) {
            doc.para(
                std::vector<Span>{{c.candidate, true},
                                  {": "},
                                  {verdictText(c.verdict), true, chart::verdictColour(c.verdict)},
                                  {" — " + c.confidence + "."}});
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
    if (!worst || c.verdict == Verdict::NoVerdict)
        return c.confidence;
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
    case Verdict::NoVerdict:
        break;
    }
    return "takes " + display::ratio(worst->ratio) + " times the time of " + c.baseline + on +
           ": twice the time or worse, so it cannot take its place";
}

// The caveats on the deciding figures, each with the metrics it is on, as compare lists them (the
// sides' differences are said under "Mind" above; the drift is in the headline).
void addDecidingCaveats(Doc& doc, const Comparison& c) {
    std::vector<std::vector<Span>> caveats;
    for (const auto& line : decidingCaveats(c))
        caveats.push_back({{line.text}, {" — on " + noteMetricsText(line, c)}});
    if (caveats.empty())
        return;
    doc.para(std::vector<Span>{{"Caveats on these figures:", true}});
    doc.bullets(std::move(caveats));
}

// One candidate for the signer: its verdict in plain words with how sure it is and the next
// step, then its deciding numbers under plain names (the long table comes later).
void addSignerVerdict(Doc& doc, const Comparison& c) {
    std::vector<Span> spans{{c.candidate, true},
                            {": "},
                            {verdictText(c.verdict), true, chart::verdictColour(c.verdict)},
                            {" — " + plainVerdict(c) + "." + emulationLabel(c)}};
    if (c.verdict != Verdict::NoVerdict)
        spans.push_back({" " + display::sentence(c.confidence) + "."});
    doc.para(std::move(spans));
    // What makes the two sides' figures differ besides the layout, said before the numbers.
    std::vector<std::vector<Span>> differences;
    for (auto& line : figuresDiffer(c))
        differences.push_back({{std::move(line)}});
    if (!differences.empty()) {
        doc.para(std::vector<Span>{{"Mind:", true},
                                   {" the figures of the two sides differ in more than the "
                                    "layout."}});
        doc.bullets(std::move(differences));
    }
    if (c.next)
        doc.para(std::vector<Span>{{"Next step:", true}, {" " + c.next->text + "."}});
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
                        {verdictText(m.verdict), chart::verdictColour(m.verdict)},
                        {m.confident ? "yes" : "not yet"}});
    }
    doc.table({"deciding metric", c.baseline, c.candidate, "more time", "verdict", "settled"},
              std::move(rows));
    if (more > 0)
        doc.para("And " + std::to_string(more) + " more deciding " +
                 (more == 1 ? "metric" : "metrics") + ": see “" + c.candidate + " against " +
                 c.baseline + "”.");
    addDecidingCaveats(doc, c);
}

// Beside what each layout holds and costs, its chance of losing the data over the horizon, as the
// projection states it (engine/capacity/risk.h); nothing without a projection.
void addRiskLines(Doc& doc, const ReportData& data) {
    std::vector<std::vector<Span>> lines;
    unsigned years = 0;
    for (const auto& p : data.projections)
        if (p.risk) {
            lines.push_back(
                {{p.name, true},
                 {": " + riskStatement(*p.risk, data.projectionRequest &&
                                                    data.projectionRequest->binaryUnits)}});
            years = p.risk->horizonYears;
        }
    if (lines.empty())
        return;
    doc.para(std::vector<Span>{{"Risk of losing the data", true},
                               {" over the projection's " + std::to_string(years) +
                                " years (the model: layoutbench(1), project):"}});
    doc.bullets(std::move(lines));
}

// With fill levels (issue 44): the level the verdicts above were taken at, where each
// candidate's verdict changes as the pools fill, and the month each layout's projected use
// reaches each measured level with what was measured there, as the engine said it.
void addFillLines(Doc& doc, const ReportData& data) {
    if (!data.fillPermille)
        return;
    const std::optional<double> level = *data.fillPermille == asBuiltPermille
                                            ? std::nullopt
                                            : std::optional(fillLevelOf(*data.fillPermille));
    doc.para(std::vector<Span>{
        {"Filled and aged:", true},
        {std::string(" the verdicts above compare the layouts at ")
             .append(fillLevelText(level))
             .append(" full, the lowest level every layout was measured at; across the levels:")}});
    std::vector<std::vector<Span>> lines;
    for (const auto& s : data.fillSummaries)
        lines.push_back({{s}});
    for (const auto& f : data.fillProjections)
        for (const auto& line : f.lines)
            lines.push_back({{f.layout, true}, {": " + line}});
    if (!lines.empty())
        doc.bullets(std::move(lines));
}

// The block for the person who signs: the question, each candidate's verdict headline, what each
// layout holds and costs and its risk of loss, and who wrote the report when, with what, about
// which hosts.
void addSummary(Doc& doc, const ReportData& data) {
    doc.heading(2, "Summary");
    const std::vector<std::string> candidates = candidateNames(data);
    std::vector<std::vector<Span>> items;
    if (!candidates.empty())
        items.push_back({{"Question:", true},
                         {" can " + joinedText(candidates, ", ") +
                          " take the place of the baseline " + data.baseline + " at no more than " +
                          fixed((data.thresholds.viableMax - 1) * 100, 0) + " % more time?"}});
    if (!data.scope.empty())
        items.push_back({{"Runs:", true}, {" " + data.scope}});
    if (!items.empty())
        doc.bullets(std::move(items));
    for (const Comparison& c : data.comparisons)
        addSignerVerdict(doc, c);
    const ProjectionRequest* request = data.projectionRequest ? &*data.projectionRequest : nullptr;
    // In words: a page for a reader carries no command-line flags (issue 41, item 6).
    const std::string priced = !request         ? std::string()
                               : request->price ? "price given: " + request->price->text
                               : request->drive ? request->drive->model
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
                   priced.empty() ? std::string("cost per usable TB (no drive or price given)")
                                  : "cost per usable TB (" + priced + ")",
                   request ? "cost over " + std::to_string(request->years) +
                                 " years (disks, worn-out disks, expansion)"
                           : std::string("cost over the years (no projection asked for)")},
                  std::move(rows));
    addRiskLines(doc, data);
    addFillLines(doc, data);
    std::string written = "Written";
    if (!data.writtenAt.empty())
        written += " " + data.writtenAt;
    if (!data.author.empty())
        written += " by " + data.author;
    if (!data.generator.empty())
        written += " with " + data.generator;
    if (!data.hosts.empty())
        written += "; measured on " + joinedText(data.hosts, ", ");
    if (written != "Written")
        doc.para(written + ".");
}

} // namespace lb::report_detail
