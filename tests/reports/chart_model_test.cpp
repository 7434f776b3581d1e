// The charts as values (reports/chart_model.h) and the two renderers that draw them: for the same
// data, the series a QCustomPlot holds (the app's charts, the PDF's images) are the model's, and
// so are the shapes of the SVG (the HTML and Markdown reports), read back through its axes; the
// SVG is the same bytes for the same data, escapes its text, and grows where long names need
// room; the document the command line hands to layoutbench-render survives its JSON whole, and
// the renderer writes the PDF the app writes (its text and images). Part of report_tests (its
// main makes the QApplication, offscreen).
#include "reports/chart_model.h"
#include "reports/charts.h"
#include "reports/report.h"
#include "reports/report_json.h"
#include "reports/report_pdf.h"
#include "reports/svg_chart.h"
#include "tests/cli/process.h"
#include "tests/support/chart_figures.h"
#include "tests/support/scratch_dir.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <qcustomplot.h>
#include <set>

using namespace lb;

namespace {

lb::Series timeline(const std::string& name, Unit unit, std::vector<double> y) {
    lb::Series s{name, Unit::Seconds, unit, {}, std::move(y)};
    for (std::size_t i = 0; i < s.y.size(); ++i)
        s.x.push_back(0.5 * static_cast<double>(i + 1));
    return s;
}

RunSeries run(std::int64_t id, int iteration, double mbps) {
    const double scale = 1.0 + 0.1 * iteration;
    return {id,
            1,
            "fio:seq",
            iteration,
            {timeline("fio.seq.read.bw", Unit::BytesPerSecond,
                      {mbps * 1e6, mbps * 1.1e6, mbps * 0.9e6, mbps * 1e6}),
             {"fio.seq.read.lat_curve",
              Unit::Percent,
              Unit::Nanoseconds,
              {10, 50, 90, 99, 99.9, 100},
              {1e5 * scale, 2e5 * scale, 3e5 * scale, 5e5 * scale, 1e6 * scale, 2e6 * scale}},
             timeline("fio.seq.read.lat_mean", Unit::Nanoseconds, {8e5, 8.2e5, 7.9e5, 8e5})}};
}

std::vector<MetricSamples> samplesOf(double scale, std::size_t runs) {
    std::vector<MetricSamples> out;
    const auto values = [&](double v) {
        std::vector<double> vs;
        for (std::size_t i = 0; i < runs; ++i)
            vs.push_back(v * scale * (1.0 + 0.02 * static_cast<double>(i)));
        return vs;
    };
    out.push_back({"fio.seq.read.bw", values(300e6), "fio:seq"});
    out.push_back({"fio.seq.read.iops", values(300), "fio:seq"});
    out.push_back({"fio.seq.read.lat_p99", values(2e6 / scale), "fio:seq"});
    for (const int depth : {1, 2, 4, 8, 16}) {
        const std::string job = "fio.qd-sweep-qd" + std::to_string(depth) + ".read.";
        out.push_back({job + "iops", values(5000.0 * depth), "fio:qd-sweep"});
        out.push_back({job + "lat_p99", values(1e5 * depth / scale), "fio:qd-sweep"});
    }
    std::sort(out.begin(), out.end(),
              [](const MetricSamples& a, const MetricSamples& b) { return a.name < b.name; });
    return out;
}

// Two layouts (one with a name to escape), a comparison, series over time, percentile curves,
// a queue-depth sweep and a steady state: every kind of chart but the projection's.
ReportData richData() {
    ReportData d;
    d.title = "charts";
    d.baseline = "base";
    ReportLayout base, cand;
    base.name = "base";
    base.baseline = true;
    cand.name = "cand <b>&\"'";
    d.layouts = {base, cand};
    d.samples["base"].metrics = samplesOf(1.0, 5);
    d.samples[cand.name].metrics = samplesOf(0.55, 2);
    d.comparisons.push_back(
        compareLayouts("base", d.samples["base"], cand.name, d.samples[cand.name]));
    d.series["base"] = {run(1, 0, 300), run(2, 1, 310), run(3, 2, 290)};
    d.series[cand.name] = {run(4, 0, 200), run(5, 1, 220)};
    SteadyStateSeries steady;
    steady.layout = "base";
    steady.workload = "fio:seq";
    steady.tracked = "fio.*.iops";
    steady.rounds = {900, 1000, 980, 1010, 995, 1002, 998};
    steady.check = checkSteadyState(steady.rounds);
    d.steadyState.push_back(steady);
    return d;
}

} // namespace

// For the same data, the app's plot holds the model's figures, and so does the report's SVG.
TEST(ChartModel, TheGuiPlotAndTheSvgShowTheModelsFigures) {
    const ReportData data = richData();
    const auto charts = chart::reportCharts(data);
    std::set<std::string> kinds;
    for (const auto& c : charts)
        kinds.insert(c.id.substr(0, c.id.find('-')));
    EXPECT_EQ(kinds,
              (std::set<std::string>{"bars", "overhead", "series", "curve", "sweep", "steady"}));
    for (const auto& c : charts) {
        ASSERT_FALSE(c.chart.series.empty()) << c.id;
        QCustomPlot plot;
        charts::draw(plot, c.chart);
        EXPECT_EQ(test::plotDiffers(plot, c.chart), "") << c.id;
        const std::string text = reportChartSvg(c);
        const int height = svg::chartHeight(c.chart, 900, 420);
        EXPECT_NE(text.find("height=\"" + std::to_string(height) + "\""), std::string::npos);
        EXPECT_EQ(test::svgDiffers(text, c.chart, svg::frameOf(c.chart, 900, height)), "") << c.id;
    }
    // The builders the app calls draw what the report's model holds.
    QCustomPlot bars;
    charts::buildGroupedBars(bars, data, charts::barMetrics(data), true);
    EXPECT_EQ(test::plotDiffers(bars, chart::groupedBars(data, chart::barMetrics(data), true)), "");
}

// The comparisons above can fail: a figure changed after drawing is found, in the plot and in
// the SVG.
TEST(ChartModel, ADifferentFigureIsFound) {
    const chart::Chart drawn = chart::timeSeries(richData(), "fio.seq.read.bw");
    chart::Chart other = drawn;
    other.series.back().y[1] *= 1.01;
    QCustomPlot plot;
    charts::draw(plot, drawn);
    EXPECT_EQ(test::plotDiffers(plot, drawn), "");
    EXPECT_NE(test::plotDiffers(plot, other), "");
    const std::string svg = svg::chartSvg(drawn, "t");
    const svg::Frame frame = svg::frameOf(drawn, 900, svg::chartHeight(drawn, 900, 420));
    EXPECT_EQ(test::svgDiffers(svg, drawn, frame), "");
    EXPECT_NE(test::svgDiffers(svg, other, frame), "");
}

// Whiskers: none for a single run or below three runs a side (NaN), the spread otherwise.
TEST(ChartModel, AWhiskerOnlyWhereThereIsASpreadOrAnInterval) {
    const ReportData data = richData();
    const chart::Chart bars = chart::groupedBars(data, {"fio.seq.read.bw"}, false);
    ASSERT_EQ(bars.series.size(), 2U);
    EXPECT_NEAR(bars.series[0].errorPlus[0], 300 * 1.08 - 300 * 1.04, 1e-9)
        << "5 runs: max - median";
    const chart::Chart overhead = chart::overhead(data.comparisons.front());
    for (const auto& s : overhead.series)
        for (std::size_t i = 0; i < s.errorMinus.size(); ++i)
            EXPECT_TRUE(std::isnan(s.errorMinus[i])) << "2 runs a side: no interval";
    const std::string svg = svg::chartSvg(overhead, "o");
    EXPECT_EQ(svg.find("class=\"whiskers\""), std::string::npos);
    EXPECT_NE(svg.find("no interval"), std::string::npos);
}

TEST(ChartModel, TheSvgIsTheSameBytesForTheSameDataAndEscapesItsText) {
    const auto a = chart::reportCharts(richData());
    const auto b = chart::reportCharts(richData());
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::string svg = reportChartSvg(a[i]);
        EXPECT_EQ(svg, reportChartSvg(b[i])) << a[i].id;
        EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0U);
        EXPECT_NE(svg.find("font-family=\"'DejaVu Sans', sans-serif\""), std::string::npos);
        EXPECT_EQ(svg.find("<b>"), std::string::npos) << a[i].id;
        EXPECT_EQ(svg.find("&\""), std::string::npos) << a[i].id;
    }
    const std::string bars = reportChartSvg(a.front());
    EXPECT_NE(bars.find("cand &lt;b&gt;&amp;&quot;&#39;"), std::string::npos) << bars;
}

// Thirty long metric names stand upright under the bars: the picture grows so the plot keeps most
// of it, and a y label longer than the plot is high breaks onto lines.
TEST(ChartModel, LongNamesMakeTheSvgTallerRatherThanThePlotFlat) {
    Comparison c;
    c.baseline = "base";
    c.candidate = "cand";
    for (int i = 0; i < 30; ++i) {
        MetricComparison m;
        m.name = "fio.a-rather-long-job-name-" + std::to_string(i) + ".read.lat_p99";
        m.baselineSamples = m.candidateSamples = 3;
        m.overhead = 0.05 * i;
        m.ratio = 1 + m.overhead;
        m.interval = Interval{1.0 + m.overhead / 2, 1.0 + m.overhead * 20};
        c.metrics.push_back(m);
    }
    chart::Chart chart = chart::overhead(c);
    const int height = svg::chartHeight(chart, 900, 420);
    EXPECT_GT(height, 420);
    const svg::Frame f = svg::frameOf(chart, 900, height);
    EXPECT_GE(f.bottom - f.top, 219.0);
    EXPECT_GE((f.bottom - f.top) / height, chart::leastPlotShare - 0.005) << height;
    EXPECT_GT(std::count_if(chart.labels.begin(), chart.labels.end(),
                            [](const chart::Label& l) {
                                return l.name == "interval-cut-value" && l.upright;
                            }),
              0)
        << "crowded: the values of cut intervals run down their arrows";
    chart.y.label = "a label of the value axis that is a good deal longer than the plot is high, "
                    "so that it has to break onto a second line somewhere along it";
    const std::string svg = svg::chartSvg(chart, "long");
    EXPECT_NE(svg.find("<tspan x=\"0\" y=\"14.04\">"), std::string::npos)
        << "the y label's second line";
}

TEST(ChartModel, TicksAreRoundNumbersOrPowersOfTen) {
    chart::Axis linear;
    linear.max = 1100;
    std::vector<std::string> labels;
    for (const auto& t : svg::ticksOf(linear, 300))
        labels.push_back(t.label);
    EXPECT_EQ(labels, (std::vector<std::string>{"0", "200", "400", "600", "800", "1000"}));
    linear.max = 1.1;
    labels.clear();
    for (const auto& t : svg::ticksOf(linear, 300))
        labels.push_back(t.label);
    EXPECT_EQ(labels, (std::vector<std::string>{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
    chart::Axis log;
    log.logarithmic = true;
    log.tickKind = chart::Axis::Ticks::Powers;
    log.min = 0.07;
    log.max = 3;
    labels.clear();
    for (const auto& t : svg::ticksOf(log, 300))
        labels.push_back(t.label);
    EXPECT_EQ(labels, (std::vector<std::string>{"0.1", "0.2", "0.5", "1", "2"}));
}

// What the command line hands layoutbench-render: everything the PDF shows, whole.
TEST(ChartModel, TheReportDocumentSurvivesItsJson) {
    const ReportDocument doc = reportDocument(richData());
    ASSERT_FALSE(doc.charts.empty());
    const std::string json = reportDocumentJson(doc);
    auto back = parseReportDocument(json, "doc.json");
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_TRUE(*back == doc);
    EXPECT_EQ(reportDocumentJson(*back), json);

    auto refused = parseReportDocument("{\"title\": 1}", "doc.json");
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, ErrorKind::BadInput);
    EXPECT_NE(refused.error().message.find("doc.json"), std::string::npos);
    std::string other = json;
    other.replace(other.find("\"version\":1"), 11, "\"version\":9");
    auto newer = parseReportDocument(other, "doc.json");
    ASSERT_FALSE(newer);
    EXPECT_NE(newer.error().message.find("version: 9"), std::string::npos) << newer.error().message;
}

// layoutbench-render, as the command line runs it, writes the PDF the app writes in process: the
// same text on the same pages, the same images.
TEST(ChartModel, TheRendererWritesThePdfTheAppWrites) {
    const test::ScratchDir dir("render");
    ReportData data = richData();
    data.writtenAt = "2026-12-05T10:00:00Z";
    const ReportDocument doc = reportDocument(data);
    std::ofstream(dir.path("doc.json"), std::ios::binary) << reportDocumentJson(doc);
    const auto r = test::runProcess(
        {LAYOUTBENCH_RENDER, "--document", dir.path("doc.json"), "--out", dir.path("cli.pdf")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    ASSERT_TRUE(writePdf(doc, dir.path("app.pdf")));
    const auto slurp = [](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    EXPECT_EQ(slurp(dir.path("cli.pdf")).substr(0, 4), "%PDF");
    // Qt writes a process's fonts in the order of its font cache, so two processes' bytes may
    // differ in that order alone: the pages are compared as a reader's tools see them.
    if (std::system("command -v pdftotext >/dev/null 2>&1 && command -v pdfimages >/dev/null "
                    "2>&1") != 0)
        GTEST_SKIP() << "pdftotext/pdfimages (poppler-utils) are not installed";
    // The text as laid out; each image's page, number, type and size.
    for (const std::string command :
         {"pdftotext -layout \"$0\" -",
          "pdfimages -list \"$0\" | awk '{print $1, $2, $3, $4, $5}'"}) {
        const auto read = [&](const std::string& pdf) {
            const auto out = test::runProcess({"sh", "-c", command, dir.path(pdf)});
            EXPECT_EQ(out.exitCode, 0) << command << " " << pdf << ": " << out.err;
            return out.out;
        };
        const std::string cli = read("cli.pdf");
        EXPECT_GT(cli.size(), 100U) << command;
        EXPECT_EQ(cli, read("app.pdf")) << command;
    }

    std::ofstream(dir.path("bad.json")) << "{\"format\": \"something else\"}";
    const auto bad = test::runProcess(
        {LAYOUTBENCH_RENDER, "--document", dir.path("bad.json"), "--out", dir.path("bad.pdf")});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("bad.json"), std::string::npos) << bad.err;
    EXPECT_FALSE(std::ifstream(dir.path("bad.pdf")).good());
}
