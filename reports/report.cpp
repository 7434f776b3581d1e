// The decision report as a document (its blocks and charts) and its HTML and Markdown files; the
// contents and emitters are report_doc.h's, the charts chart_model.h's, drawn by svg_chart.h.
#include "reports/report.h"

#include "reports/svg_chart.h"

#include <map>
#include <set>
#include <stdexcept>

namespace lb {

using namespace report_detail;

namespace {

// The index at the end of a chart id ("series-3" -> 3).
std::size_t chartIndex(const std::string& id, const std::string& prefix) {
    return static_cast<std::size_t>(std::stoul(id.substr(prefix.size())));
}

chart::Chart plannedChart(const ReportData& data, const std::string& id) {
    if (id == "bars-throughput" || id == "bars-ops" || id == "bars-latency") {
        const Unit unit = id == "bars-throughput" ? Unit::BytesPerSecond
                          : id == "bars-ops"      ? Unit::OpsPerSecond
                                                  : Unit::Nanoseconds;
        return chart::groupedBars(data, barMetricsOfUnit(data, unit), false);
    }
    if (id.rfind("series-", 0) == 0)
        return chart::timeSeries(data, chart::timeSeriesNames(data).at(chartIndex(id, "series-")));
    if (id.rfind("curve-", 0) == 0)
        return chart::percentiles(data,
                                  chart::percentileCurveNames(data).at(chartIndex(id, "curve-")));
    if (id.rfind("sweep-", 0) == 0) {
        const auto key = chart::sweepKeys(data).at(chartIndex(id, "sweep-"));
        return chart::sweep(data, key.first, key.second);
    }
    if (id.rfind("steady-", 0) == 0)
        return chart::steadyState(data.steadyState.at(chartIndex(id, "steady-")));
    if (id.rfind("projection-", 0) == 0)
        return chart::projection(data.projections.at(chartIndex(id, "projection-")),
                                 data.projectionRequest && data.projectionRequest->binaryUnits);
    if (id.rfind("fill-", 0) == 0)
        return chart::fillLevels(data, chart::fillChartMetrics(data).at(chartIndex(id, "fill-")));
    if (id.rfind("failure-", 0) == 0)
        return chart::diskFailure(data.failureDrills.at(chartIndex(id, "failure-")));
    if (id.rfind("overhead-", 0) == 0)
        return chart::overhead(data.comparisons.at(chartIndex(id, "overhead-")));
    throw std::logic_error("chartPlan names an unknown chart: " + id);
}

std::set<std::string> chartIds(const std::vector<chart::ReportChart>& charts) {
    std::set<std::string> ids;
    for (const auto& c : charts)
        ids.insert(c.id);
    return ids;
}

} // namespace

namespace chart {

std::vector<ReportChart> reportCharts(const ReportData& data) {
    std::vector<ReportChart> out;
    for (const ChartRef& ref : chartPlan(data))
        out.push_back({ref.id, ref.caption, plannedChart(data, ref.id)});
    return out;
}

} // namespace chart

ReportDocument reportDocument(const ReportData& data) {
    ReportDocument d;
    d.title = data.title;
    d.writtenAt = data.writtenAt;
    d.charts = chart::reportCharts(data);
    d.doc = buildDoc(data, chartIds(d.charts));
    return d;
}

std::string reportChartSvg(const chart::ReportChart& c) {
    return svg::chartSvg(c.chart, c.id);
}

std::string renderMarkdown(const ReportData& data) {
    return emitMarkdown(buildDoc(data, {}), {});
}

std::string renderMarkdown(const ReportDocument& document, const std::string& chartDir) {
    return emitMarkdown(document.doc, chartDir);
}

std::string renderHtml(const ReportData& data) {
    return renderHtml(reportDocument(data));
}

std::string renderHtml(const ReportDocument& document) {
    std::map<std::string, const chart::ReportChart*> byId;
    for (const auto& c : document.charts)
        byId[c.id] = &c;
    return emitHtml(
        document.doc, document.title,
        [&byId](const std::string& id, const std::string&) {
            const chart::ReportChart& c = *byId.at(id);
            return svg::chartSvg(c.chart, c.id, 900, 420, svg::SvgUse::Inline);
        },
        HtmlFlavor{});
}

} // namespace lb
