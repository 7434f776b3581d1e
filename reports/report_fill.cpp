// "As the pools fill" (report_doc.h, addFillLevels): each candidate's verdict across the fill
// levels, as the engine says it, and each deciding metric drawn against fill level.
#include "engine/measure/fill_levels.h"
#include "reports/chart_model.h"
#include "reports/report_doc.h"

namespace lb::report_detail {

void planFillCharts(const ReportData& data, std::vector<ChartRef>& out) {
    const auto metrics = chart::fillChartMetrics(data);
    for (std::size_t i = 0; i < metrics.size(); ++i)
        out.push_back({"fill-" + std::to_string(i),
                       metrics[i] +
                           ": each layout's median at each fill level it was filled and aged "
                           "to, the same runs the comparisons level by level take."});
}

void addFillLevels(Doc& doc, const ReportData& data, const std::set<std::string>& charts) {
    if (data.fillCurves.empty())
        return;
    doc.heading(2, "As the pools fill");
    doc.para("Every layout was filled with incompressible files and aged (files deleted, small "
             "rewrites in large ones) to each fill level before its workloads ran there; each "
             "candidate is compared with the baseline at the same level, never across levels.");
    std::vector<std::vector<Span>> lines;
    for (const auto& curve : data.fillCurves)
        lines.push_back({{curve.summary}});
    doc.bullets(std::move(lines));
    std::vector<ChartRef> refs;
    planFillCharts(data, refs);
    for (const auto& ref : refs)
        if (charts.count(ref.id))
            doc.chart(ref.id, ref.caption);
}

} // namespace lb::report_detail
