// "When a disk fails": each fail-rebuild drill's course as a chart (healthy, failed, rebuilding,
// whole again), the rebuild table, and the risk of loss over the projection's horizon with the
// figures behind it. The sentences are the engine's (engine/capacity/risk.h,
// engine/workbench/failure_drills.h); this file lays them out.
#include "engine/base/size.h"
#include "engine/capacity/risk.h"
#include "reports/chart_model.h"
#include "reports/display.h"
#include "reports/report_doc.h"

#include <algorithm>

namespace lb::report_detail {

namespace {

// A figure of the drill as a cell, "—" where it has none.
Cell figureCell(const FailureDrill& d, const char* stat, Unit unit) {
    const auto v = d.figure(stat);
    return {v ? display::value(*v, unit) : "—", "", true};
}

Cell bytesCell(const FailureDrill& d, const char* stat) {
    const auto v = d.figure(stat);
    return {v && *v >= 0 ? formatBytes(static_cast<std::uint64_t>(*v)) : "—", "", true};
}

void addRebuildTable(Doc& doc, const ReportData& data) {
    std::vector<std::vector<Cell>> rows;
    for (const auto& d : data.failureDrills) {
        const auto fill = d.figure("fill");
        rows.push_back({{d.layout},
                        {d.failedDisk.empty() ? "—" : d.failedDisk},
                        {d.spare.empty() ? "—" : d.spare},
                        {fill ? fixed(*fill, 0) + " %" : "—", "", true},
                        bytesCell(d, "rebuild_bytes"),
                        figureCell(d, "seconds", Unit::Seconds),
                        figureCell(d, "rebuild_rate", Unit::BytesPerSecond),
                        figureCell(d, "window_seconds", Unit::Seconds),
                        {drillIntegrityText(d),
                         d.status == RunStatus::Ok ? "" : chart::verdictColour(Verdict::NotViable)},
                        {d.underEmulation ? "TCG emulation" : "—"}});
    }
    doc.table({"layout", "disk failed", "rebuilt onto", "fill", "rebuilt", "rebuild time", "rate",
               "failure to whole", "data after", "measured on"},
              std::move(rows));
}

// The risk of each projected layout, the statement first, then the figures it rests on; a
// layout without a drill says its rebuild is assumed.
void addRiskFigures(Doc& doc, const ReportData& data) {
    const bool binary = data.projectionRequest && data.projectionRequest->binaryUnits;
    bool any = false;
    for (const auto& p : data.projections) {
        if (!p.risk)
            continue;
        if (!any)
            doc.para(std::vector<Span>{
                {"Risk of losing the data", true},
                {" over the projection's " + std::to_string(p.risk->horizonYears) +
                 " years, each layout's rebuild at the rate its drill measured where it has one "
                 "(the model: layoutbench(1), project):"}});
        any = true;
        doc.para(std::vector<Span>{{p.name, true}, {": " + riskStatement(*p.risk, binary)}});
        const bool drilled =
            std::any_of(data.failureDrills.begin(), data.failureDrills.end(),
                        [&p](const FailureDrill& d) { return d.layout == p.name; });
        if (!drilled && p.risk->rebuild != RebuildKind::None && !p.risk->rebuildMeasured)
            doc.para(noDrillStatement(p.name));
        std::vector<std::vector<Cell>> rows;
        for (const auto& [what, value] : riskAssumptions(*p.risk, binary))
            rows.push_back({{what}, {value}});
        doc.table({"figure", "value and basis"}, std::move(rows));
    }
    if (!any)
        doc.para("No capacity projection was asked for with this report, so it states no risk of "
                 "loss over a horizon.");
}

} // namespace

void planFailureCharts(const ReportData& data, std::vector<ChartRef>& out) {
    for (std::size_t i = 0; i < data.failureDrills.size(); ++i)
        out.push_back({"failure-" + std::to_string(i),
                       data.failureDrills[i].layout +
                           ": the load (fio's drill-randrw, 4 KiB random reads and writes) "
                           "through healthy, failed, rebuilding and whole again, its read and "
                           "write bandwidth each second from fio's logs; the dashed lines mark "
                           "the failure, the spare added and the layout whole again."});
}

void addDiskFailure(Doc& doc, const ReportData& data, const std::set<std::string>& charts) {
    // Without a drill the first page's risk lines say the rebuild rate is assumed, and there is
    // nothing more to show.
    if (data.failureDrills.empty())
        return;
    doc.heading(2, "When a disk fails");
    doc.para("Each layout with a fail-rebuild drill was filled with random data, then one "
             "member was failed under a random read/write load; the load ran degraded, then "
             "while the layout rebuilt onto a spare, then once more whole, and the data was "
             "checked after. Drills take no part in the verdicts.");
    std::vector<ChartRef> refs;
    planFailureCharts(data, refs);
    for (const auto& ref : refs)
        if (charts.count(ref.id))
            doc.chart(ref.id, ref.caption);
    addRebuildTable(doc, data);
    addRiskFigures(doc, data);
}

} // namespace lb::report_detail
