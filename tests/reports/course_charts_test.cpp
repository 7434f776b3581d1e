// The charts of a run's course: series over time (fio's per-interval logs) and queue-depth
// sweeps, drawn from hand-made data (what each graph holds, its pen, its axis unit) and from a
// real campaign of the real fio on two directory layouts, through the report. Part of
// report_tests (its main makes the QApplication, offscreen).
#include "engine/campaign/campaign.h"
#include "engine/exec/runner.h"
#include "engine/scenario/scenario.h"
#include "engine/store/store.h"
#include "probes/registry.h"
#include "reports/charts.h"
#include "reports/display.h"
#include "reports/report.h"
#include "reports/report_pdf.h"
#include "tests/support/chart_title.h"
#include "tests/support/drill_store.h"
#include "tests/support/scratch_dir.h"

#include <fstream>
#include <gtest/gtest.h>
#include <qcustomplot.h>
#include <set>

using namespace lb;

namespace {

Series series(const std::string& name, Unit unit, std::vector<double> y) {
    Series s{name, Unit::Seconds, unit, {}, std::move(y)};
    for (std::size_t i = 0; i < s.y.size(); ++i)
        s.x.push_back(0.5 * static_cast<double>(i + 1));
    return s;
}

// Bandwidth around `mbps` MB/s and latency around `us` µs over four windows.
RunSeries run(std::int64_t id, int iteration, double mbps, double us) {
    return {id,
            1,
            "fio:seq",
            iteration,
            {series("fio.seq.read.bw", Unit::BytesPerSecond,
                    {mbps * 1e6, mbps * 1.1e6, mbps * 0.9e6, mbps * 1e6}),
             series("fio.seq.read.lat_mean", Unit::Nanoseconds,
                    {us * 1e3, us * 1e3, us * 1e3, us * 1e3})}};
}

ReportData twoLayouts() {
    ReportData d;
    d.baseline = "base";
    ReportLayout base, cand;
    base.name = "base";
    base.baseline = true;
    cand.name = "cand";
    d.layouts = {base, cand};
    d.series["base"] = {run(1, 0, 300, 800), run(2, 1, 310, 820), run(3, 2, 290, 780)};
    d.series["cand"] = {run(4, 0, 200, 1200), run(5, 1, 220, 1100)};
    d.samples["base"].metrics = {{"fio.seq.read.bw", {300e6, 310e6, 290e6}, "fio:seq"}};
    d.samples["cand"].metrics = {{"fio.seq.read.bw", {200e6, 220e6}, "fio:seq"}};
    return d;
}

QString titleOf(QCustomPlot& plot) {
    return test::chartTitle(plot);
}

QCPGraph* graphNamed(QCustomPlot& plot, const QString& name) {
    for (int i = 0; i < plot.graphCount(); ++i)
        if (plot.graph(i)->name() == name)
            return plot.graph(i);
    return nullptr;
}

std::vector<double> values(const QCPGraph* g) {
    std::vector<double> out;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
        out.push_back(it->value);
    return out;
}

} // namespace

TEST(AxisUnit, ChosenFromTheLargestValue) {
    EXPECT_EQ(display::axisUnit(512, Unit::BytesPerSecond), (display::AxisUnit{1, "B/s"}));
    EXPECT_EQ(display::axisUnit(340e6, Unit::BytesPerSecond), (display::AxisUnit{1e6, "MB/s"}));
    EXPECT_EQ(display::axisUnit(2.1e9, Unit::BytesPerSecond), (display::AxisUnit{1e9, "GB/s"}));
    EXPECT_EQ(display::axisUnit(5e15, Unit::BytesPerSecond), (display::AxisUnit{1e12, "TB/s"}));
    EXPECT_EQ(display::axisUnit(900, Unit::Nanoseconds), (display::AxisUnit{1, "ns"}));
    EXPECT_EQ(display::axisUnit(85e3, Unit::Nanoseconds), (display::AxisUnit{1e3, "µs"}));
    EXPECT_EQ(display::axisUnit(3e6, Unit::Nanoseconds), (display::AxisUnit{1e6, "ms"}));
    EXPECT_EQ(display::axisUnit(2e9, Unit::Nanoseconds), (display::AxisUnit{1e9, "s"}));
    EXPECT_EQ(display::axisUnit(45e3, Unit::OpsPerSecond), (display::AxisUnit{1e3, "k ops/s"}));
    EXPECT_EQ(display::axisUnit(45, Unit::OpsPerSecond), (display::AxisUnit{1, "ops/s"}));
}

// Each layout's median iteration solid and in the legend, the others faint below it, in the
// colour the grouped bars give the layout; values in the unit the axis names.
TEST(CourseCharts, TimeSeriesHaveTheMedianIterationAndTheOthersFaint) {
    ReportData data = twoLayouts();
    EXPECT_EQ(charts::timeSeriesNames(data),
              (QStringList{"fio.seq.read.bw", "fio.seq.read.lat_mean"}));
    QCustomPlot plot;
    charts::buildTimeSeriesChart(plot, data, "fio.seq.read.bw");
    ASSERT_EQ(plot.graphCount(), 5) << "five runs";
    EXPECT_EQ(plot.yAxis->label(), "bandwidth (MB/s)");
    EXPECT_EQ(plot.xAxis->label(), "seconds since the job started");
    // The medians come last, over the faint iterations.
    EXPECT_EQ(plot.graph(3)->name(), "base");
    EXPECT_EQ(plot.graph(4)->name(), "cand");
    QCPGraph* base = graphNamed(plot, "base");
    ASSERT_TRUE(base);
    EXPECT_EQ(values(base), (std::vector<double>{300, 330, 270, 300})) << "iteration 0: 300 MB/s";
    EXPECT_EQ(base->data()->size(), 4);
    EXPECT_EQ(base->pen().widthF(), 2);
    EXPECT_EQ(base->pen().color().alpha(), 255);
    EXPECT_TRUE(plot.legend->hasItemWithPlottable(base));
    QCPGraph* cand = graphNamed(plot, "cand");
    ASSERT_TRUE(cand);
    EXPECT_EQ(values(cand)[0], 200) << "the lower middle of two";
    for (const char* faint : {"base iteration 1", "base iteration 2", "cand iteration 1"}) {
        QCPGraph* g = graphNamed(plot, faint);
        ASSERT_TRUE(g) << faint;
        EXPECT_EQ(g->pen().color().alpha(), 70) << faint;
        EXPECT_FALSE(plot.legend->hasItemWithPlottable(g)) << faint;
        EXPECT_EQ(g->data()->size(), 4) << faint;
    }
    EXPECT_TRUE(titleOf(plot).contains("median iteration")) << titleOf(plot).toStdString();

    // The grouped bars give each layout the same colour.
    QCustomPlot bars;
    charts::buildGroupedBars(bars, data, {"fio.seq.read.bw"}, false);
    for (int i = 0; i < bars.plottableCount(); ++i)
        if (auto* b = qobject_cast<QCPBars*>(bars.plottable(i))) {
            EXPECT_EQ(b->brush().color().rgb(), graphNamed(plot, b->name())->pen().color().rgb())
                << b->name().toStdString();
        }

    // Latency in ms (cand's 1.2 ms is the largest), from the same data; rebuilt in place,
    // nothing of the bandwidth is left.
    charts::buildTimeSeriesChart(plot, data, "fio.seq.read.lat_mean");
    EXPECT_EQ(plot.graphCount(), 5);
    EXPECT_EQ(plot.yAxis->label(), "mean total latency (ms)");
    EXPECT_DOUBLE_EQ(values(graphNamed(plot, "base"))[0], 0.8);
    data.series.erase("cand");
    charts::buildTimeSeriesChart(plot, data, "fio.seq.read.lat_mean");
    EXPECT_EQ(plot.yAxis->label(), "mean total latency (µs)") << "base alone: 820 µs at most";
    EXPECT_EQ(values(graphNamed(plot, "base"))[0], 800);
}

TEST(CourseCharts, LargerValuesChooseALargerUnit) {
    ReportData data = twoLayouts();
    data.series.erase("cand");
    data.series["base"] = {run(1, 0, 2500, 3000)};
    QCustomPlot plot;
    charts::buildTimeSeriesChart(plot, data, "fio.seq.read.bw");
    EXPECT_EQ(plot.yAxis->label(), "bandwidth (GB/s)");
    EXPECT_DOUBLE_EQ(values(graphNamed(plot, "base"))[0], 2.5);
    charts::buildTimeSeriesChart(plot, data, "fio.seq.read.lat_mean");
    EXPECT_EQ(plot.yAxis->label(), "mean total latency (ms)");
}

// Imported results and job files have no per-interval logs: the chart says so instead of
// drawing empty axes.
TEST(CourseCharts, WithoutLogsTheChartSaysSo) {
    ReportData data = twoLayouts();
    data.series.clear();
    EXPECT_TRUE(charts::timeSeriesNames(data).isEmpty());
    QCustomPlot plot;
    charts::buildTimeSeriesChart(plot, data, "fio.seq.read.bw");
    EXPECT_EQ(plot.graphCount(), 0);
    EXPECT_TRUE(titleOf(plot).contains("no per-interval logs")) << titleOf(plot).toStdString();
}

// A latency percentile curve (fio json+ bins): percentiles on the nines scale, latency on a
// logarithmic axis in the unit of the slowest bucket.
TEST(CourseCharts, PercentileCurveOnLogarithmicAxes) {
    ReportData data = twoLayouts();
    const std::vector<double> percent = {10, 50, 90, 99, 99.9, 100};
    for (auto& r : data.series["base"]) {
        const double scale = 1.0 + 0.1 * r.iteration;
        r.series.push_back(
            {"fio.seq.read.lat_curve",
             Unit::Percent,
             Unit::Nanoseconds,
             percent,
             {1e5 * scale, 2e5 * scale, 3e5 * scale, 5e5 * scale, 1e6 * scale, 2e6 * scale}});
    }
    EXPECT_EQ(charts::percentileCurveNames(data), QStringList{"fio.seq.read.lat_curve"});
    EXPECT_FALSE(charts::timeSeriesNames(data).contains("fio.seq.read.lat_curve"));
    QCustomPlot plot;
    charts::buildPercentileChart(plot, data, "fio.seq.read.lat_curve");
    ASSERT_EQ(plot.graphCount(), 3) << "base's three runs; cand has no histogram";
    QCPGraph* median = graphNamed(plot, "base");
    ASSERT_TRUE(median);
    EXPECT_EQ(median->data()->size(), 6);
    EXPECT_DOUBLE_EQ(median->data()->at(1)->key, 2) << "50 % on the nines scale";
    EXPECT_NEAR(median->data()->at(3)->key, 100, 1e-9) << "99 %";
    EXPECT_DOUBLE_EQ(median->data()->at(5)->value, 2.2) << "iteration 1 in ms";
    EXPECT_EQ(plot.xAxis->scaleType(), QCPAxis::stLogarithmic);
    EXPECT_EQ(plot.yAxis->scaleType(), QCPAxis::stLogarithmic);
    EXPECT_EQ(plot.yAxis->label(), "total latency (ms), logarithmic");
    auto ticks = qSharedPointerDynamicCast<QCPAxisTickerText>(plot.xAxis->ticker());
    ASSERT_TRUE(ticks);
    EXPECT_TRUE(ticks->ticks().values().contains("99.9"));
    EXPECT_TRUE(ticks->ticks().values().contains("100"));

    data.series.clear();
    charts::buildPercentileChart(plot, data, "fio.seq.read.lat_curve");
    EXPECT_EQ(plot.graphCount(), 0);
    EXPECT_TRUE(titleOf(plot).contains("no latency histogram")) << titleOf(plot).toStdString();
}

// IOPS (left axis) and p99 latency (right axis) against the queue depth, per layout, on a
// base-2 logarithmic depth axis.
TEST(CourseCharts, SweepHasIopsAndP99PerLayoutAgainstQueueDepth) {
    ReportData data = twoLayouts();
    for (const auto& [layout, scale] : {std::pair{"base", 1.0}, std::pair{"cand", 0.5}})
        for (const int depth : {1, 2, 4, 8, 16, 32, 64}) {
            const std::string job = "fio.qd-sweep-qd" + std::to_string(depth) + ".read.";
            data.samples[layout].metrics.push_back(
                {job + "iops", {scale * 5000.0 * depth}, "fio:qd-sweep"});
            data.samples[layout].metrics.push_back(
                {job + "lat_p99", {100e3 * depth / scale}, "fio:qd-sweep"});
        }
    const auto keys = charts::sweepKeys(data);
    ASSERT_EQ(keys.size(), 1u);
    EXPECT_EQ(keys[0], (std::pair<std::string, std::string>{"fio", "read"}));
    QCustomPlot plot;
    charts::buildSweepChart(plot, data, "fio", "read");
    ASSERT_EQ(plot.graphCount(), 4);
    QCPGraph* iops = graphNamed(plot, "base IOPS");
    QCPGraph* p99 = graphNamed(plot, "cand p99 total latency");
    ASSERT_TRUE(iops);
    ASSERT_TRUE(p99);
    EXPECT_EQ(iops->data()->size(), 7);
    EXPECT_EQ(iops->valueAxis(), plot.yAxis);
    EXPECT_EQ(p99->valueAxis(), plot.yAxis2);
    EXPECT_EQ(p99->pen().style(), Qt::DashLine);
    // 320,000 IOPS at depth 64: k ops/s; 12.8 ms p99: ms.
    EXPECT_EQ(plot.yAxis->label(), "IOPS, solid (k ops/s)");
    EXPECT_EQ(plot.yAxis2->label(), "p99 total latency, dashed (ms)");
    EXPECT_TRUE(plot.yAxis2->visible());
    EXPECT_EQ(values(iops).back(), 320);
    EXPECT_DOUBLE_EQ(values(p99).back(), 12.8);
    EXPECT_EQ(plot.xAxis->scaleType(), QCPAxis::stLogarithmic);
    auto ticks = qSharedPointerDynamicCast<QCPAxisTickerText>(plot.xAxis->ticker());
    ASSERT_TRUE(ticks);
    EXPECT_EQ(ticks->ticks().keys(), (QList<double>{1, 2, 4, 8, 16, 32, 64}));

    // Another chart in the same plot afterwards is linear again, without the right axis.
    charts::buildTimeSeriesChart(plot, data, "fio.seq.read.bw");
    EXPECT_EQ(plot.xAxis->scaleType(), QCPAxis::stLinear);
    EXPECT_FALSE(plot.yAxis2->visible());
}

// --- from a real campaign ----------------------------------------------------------------------

namespace {

// Runs `workloads` on two directory layouts (base, cand) with the real fio; the report's data.
ReportData campaignOf(const test::ScratchDir& dir, int iterations, const std::string& workloads,
                      bool candidate = true) {
    const auto probes = standardProbes();
    std::string toml = "name = \"course\"\niterations = " + std::to_string(iterations) +
                       "\nwork_dir = \"" + dir.path("work") +
                       "\"\n[[layouts]]\nname = \"base\"\nkind = \"dir\"\npath = \"" +
                       dir.path("") + "\"\nbaseline = true\n";
    if (candidate)
        toml += "[[layouts]]\nname = \"cand\"\nkind = \"dir\"\npath = \"" + dir.path("") + "\"\n";
    toml += workloads;
    auto scenario = parseScenario(toml, dir.path("scenario.toml"), probes);
    EXPECT_TRUE(scenario) << (scenario ? "" : scenario.error().message);
    if (!scenario)
        return {};
    auto store = Store::open(dir.path("results.db"));
    EXPECT_TRUE(store);
    if (!store)
        return {};
    auto runner = makeLocalRunner();
    auto result = runCampaign(*store, *scenario, probes, *runner, {});
    EXPECT_TRUE(result) << (result ? "" : result.error().message);
    if (!result)
        return {};
    EXPECT_EQ(result->failedRuns, 0u);
    ReportRequest request;
    request.campaignId = result->campaignId;
    auto data = gatherReport(*store, request);
    EXPECT_TRUE(data) << (data ? "" : data.error().message);
    return data ? *data : ReportData{};
}

} // namespace

// Two layouts, one iteration of a two-second sequential read each and the baseline's bracketing
// run: every run stores its series, the chart has every run, and the report draws bandwidth and
// latency over time and the latency percentiles.
TEST(CourseChartsReal, ACampaignsLogsAreStoredChartedAndReported) {
    const test::ScratchDir dir("course");
    const ReportData data =
        campaignOf(dir, 1,
                   "[[workloads]]\nprobe = \"fio\"\npreset = \"seq-read-1m\"\nsize = \"4MiB\"\n"
                   "runtime = 2\ndirect = false\nioengine = \"psync\"\n");
    ASSERT_EQ(data.series.size(), 2u);
    // One iteration, and the baseline once more after it (bracketing).
    EXPECT_EQ(data.series.at("base").size(), 2u);
    EXPECT_EQ(data.series.at("cand").size(), 1u);
    for (const auto& [layout, runs] : data.series)
        for (const auto& r : runs) {
            // bw, iops, the json+ curve, lat_mean
            ASSERT_EQ(r.series.size(), 4u) << layout;
            EXPECT_EQ(r.series[0].name, "fio.seq-read-1m.read.bw");
            EXPECT_GE(r.series[0].x.size(), 3u) << layout;
            EXPECT_EQ(r.series[2].name, "fio.seq-read-1m.read.lat_curve");
        }
    QCustomPlot plot;
    charts::buildTimeSeriesChart(plot, data, "fio.seq-read-1m.read.bw");
    EXPECT_EQ(plot.graphCount(), 3);
    EXPECT_TRUE(graphNamed(plot, "base"));
    EXPECT_TRUE(graphNamed(plot, "cand"));
    EXPECT_TRUE(plot.yAxis->label().startsWith("bandwidth (")) << plot.yAxis->label().toStdString();

    std::set<std::string> ids;
    for (const auto& c : renderCharts(data, 600, 300))
        ids.insert(c.id);
    const auto names = charts::timeSeriesNames(data);
    const auto bw = names.indexOf("fio.seq-read-1m.read.bw");
    const auto lat = names.indexOf("fio.seq-read-1m.read.lat_mean");
    ASSERT_GE(bw, 0);
    ASSERT_GE(lat, 0);
    EXPECT_TRUE(ids.count("series-" + std::to_string(bw)));
    EXPECT_TRUE(ids.count("series-" + std::to_string(lat)));
    EXPECT_FALSE(ids.count("series-" + std::to_string(names.indexOf("fio.seq-read-1m.read.iops"))))
        << "the report leaves IOPS over time to the app";
    EXPECT_TRUE(ids.count("curve-0"));
    const std::string html = renderHtml(data);
    EXPECT_NE(html.find("Over time, by latency percentile and by queue depth"), std::string::npos);
    EXPECT_NE(html.find("Bandwidth of seq-read-1m read over time"), std::string::npos);
}

// The queue-depth sweep on one layout, 1 s a depth: the report's table has every depth and its
// chart is drawn.
TEST(CourseChartsReal, AQueueDepthSweepIsTabulatedAndCharted) {
    const test::ScratchDir dir("sweep");
    const ReportData data = campaignOf(
        dir, 1,
        "[[workloads]]\nprobe = \"fio\"\npreset = \"qd-sweep\"\nsize = \"4MiB\"\nruntime = 1\n"
        "direct = false\n",
        false);
    ASSERT_EQ(charts::sweepKeys(data).size(), 1u);
    QCustomPlot plot;
    charts::buildSweepChart(plot, data, "fio", "read");
    ASSERT_EQ(plot.graphCount(), 2);
    EXPECT_EQ(graphNamed(plot, "base IOPS")->data()->size(), 7);
    EXPECT_EQ(graphNamed(plot, "base p99 total latency")->data()->size(), 7);
    const std::string md = renderMarkdown(data);
    EXPECT_NE(md.find("Over time, by latency percentile and by queue depth"), std::string::npos);
    for (const char* row : {"| base | fio read | 1 |", "| base | fio read | 64 |"})
        EXPECT_NE(md.find(row), std::string::npos) << row;
    std::set<std::string> ids;
    for (const auto& c : renderCharts(data, 600, 300))
        ids.insert(c.id);
    EXPECT_TRUE(ids.count("sweep-0"));
}

namespace {

// A fail-rebuild drill's chart from a database holding one (real fio 3.33 logs,
// tests/data/drill): each phase's read and write lines where the drill's course puts them, the
// phases and the moments as rules and labels, drawn by QCustomPlot as the PDF draws it; a drill
// without its logs says so.
TEST(DiskFailureChart, EachPhasesLogsWhereTheDrillsCoursePutsThem) {
    test::ScratchDir dir("failure-chart");
    auto store = Store::open(dir.path("results.db"));
    ASSERT_TRUE(store) << store.error().message;
    const auto stored = test::storeDrillFixture(*store, std::string(LAYOUTBENCH_TEST_DATA_DIR) +
                                                            "/drill/3.33/fail_rebuild_raidz1.out");
    ASSERT_TRUE(stored) << stored.error().message;
    const auto drills = failureDrills(*store, {"raidz1"}, std::nullopt);
    ASSERT_TRUE(drills && drills->size() == 1U);
    const chart::Chart c = chart::diskFailure(drills->front());
    ASSERT_EQ(c.series.size(), 8U); // read and write in each of four phases
    std::vector<std::string> legend;
    for (const auto& s : c.series)
        if (s.inLegend)
            legend.push_back(s.name);
    EXPECT_EQ(legend, (std::vector<std::string>{"read", "write"}));
    EXPECT_EQ(c.series[1].name, "read (degraded)");
    // The degraded phase began 6.24 s in; fio's first row of it came 1.0 s later.
    ASSERT_FALSE(c.series[1].x.empty());
    EXPECT_NEAR(c.series[1].x.front(), 6.24 + 1.0, 0.01);
    EXPECT_EQ(c.y.label, "bandwidth (MB/s)");
    std::vector<std::string> marks;
    for (const auto& l : c.labels)
        marks.push_back(l.name + ":" + l.text);
    EXPECT_EQ(marks, (std::vector<std::string>{"phase:healthy", "phase:degraded",
                                               "phase:rebuilding", "phase:rebuilt", "moment:failed",
                                               "moment:spare added", "moment:whole again"}));
    ASSERT_EQ(c.rules.size(), 7U);
    EXPECT_EQ(c.rules[4].x, 6.19);
    QCustomPlot plot;
    charts::draw(plot, c);
    EXPECT_EQ(plot.graphCount(), 8);

    FailureDrill older = drills->front();
    for (auto& p : older.phases) {
        p.at.reset();
        p.series.clear();
    }
    const chart::Chart none = chart::diskFailure(older);
    EXPECT_TRUE(none.series.empty());
    EXPECT_NE(none.title.find("no per-second logs"), std::string::npos) << none.title;
}

} // namespace
