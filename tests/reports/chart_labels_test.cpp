// Charts that read at print size (issue 41, item 3): the SVG a report shows read back as a reader
// sees it — every label's box from its text, DejaVu Sans's widths and its turn — and held to what
// a reader needs: no label on another, none cut off at the plot's edge, one label a bar, and a bar
// cut at the top ending in an arrow with its one label; and the plot most of the picture, in the
// SVG and in the PDF's images, however long the metric names under it. Part of report_tests (its
// main makes the QApplication, offscreen).
#include "reports/chart_model.h"
#include "reports/charts.h"
#include "reports/font_metrics.h"
#include "reports/report_pdf.h"
#include "reports/svg_chart.h"

#include <QImage>
#include <algorithm>
#include <gtest/gtest.h>
#include <qcustomplot.h>
#include <regex>
#include <sstream>

using namespace lb;

namespace {

// A box in the picture's pixels.
struct Box {
    double left = 0, top = 0, right = 0, bottom = 0;
    double centreX() const { return (left + right) / 2; }
};

struct DrawnLabel {
    std::string name, text;
    Box box; // of its text's glyphs
};

struct DrawnBar {
    Box box;
};

struct DrawnArrow {
    std::string name;
    double tailX = 0, tailY = 0, headX = 0, headY = 0;
};

std::string unescaped(std::string s) {
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"&lt;", "<"},
                                   {"&gt;", ">"},
                                   {"&quot;", "\""},
                                   {"&#39;", "'"},
                                   {"&amp;", "&"}})
        for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at))
            s.replace(at, from.size(), to);
    return s;
}

// Every label of an SVG chart with the box its text covers: each line's width in DejaVu Sans at
// its size around its middle, from its ascent above the baseline to its descent below, turned
// a quarter clockwise where the label is, and moved to where it stands.
std::vector<DrawnLabel> labelsOf(const std::string& svg) {
    static const std::regex label(
        R"re(<g class="label"(?: data-name="([^"]*)")? )re"
        R"re(transform="translate\(([-0-9.]+) ([-0-9.]+)\)( rotate\(90\))?">)re"
        R"re(.*?<text font-size="([0-9.]+)"[^>]*>(.*?)</text></g>)re");
    static const std::regex line(R"re(<tspan x="([-0-9.]+)" y="([-0-9.]+)">([^<]*)</tspan>)re");
    std::vector<DrawnLabel> out;
    for (std::sregex_iterator it(svg.begin(), svg.end(), label), end; it != end; ++it) {
        const auto& m = *it;
        const double x = std::stod(m[2]), y = std::stod(m[3]), pixels = std::stod(m[5]);
        const bool turned = m[4].matched;
        DrawnLabel l;
        l.name = m[1];
        Box local{1e9, 1e9, -1e9, -1e9};
        const std::string lines = m[6];
        for (std::sregex_iterator t(lines.begin(), lines.end(), line); t != end; ++t) {
            const std::string text = unescaped((*t)[3]);
            const double middle = std::stod((*t)[1]), baseline = std::stod((*t)[2]);
            const double half = font::textWidth(text, pixels) / 2;
            local.left = std::min(local.left, middle - half);
            local.right = std::max(local.right, middle + half);
            local.top = std::min(local.top, baseline - font::ascent * pixels);
            local.bottom = std::max(local.bottom, baseline + font::descent * pixels);
            l.text += (l.text.empty() ? "" : "\n") + text;
        }
        // rotate(90) takes (u, v) to (-v, u).
        l.box = turned ? Box{x - local.bottom, y + local.left, x - local.top, y + local.right}
                       : Box{x + local.left, y + local.top, x + local.right, y + local.bottom};
        out.push_back(l);
    }
    return out;
}

std::vector<DrawnBar> barsOf(const std::string& svg) {
    static const std::regex bar(R"re(<rect x="([-0-9.]+)" y="([-0-9.]+)" width="([-0-9.]+)" )re"
                                R"re(height="([-0-9.]+)"><title>)re");
    std::vector<DrawnBar> out;
    for (std::sregex_iterator it(svg.begin(), svg.end(), bar), end; it != end; ++it) {
        const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
        out.push_back({{x, y, x + std::stod((*it)[3]), y + std::stod((*it)[4])}});
    }
    return out;
}

std::vector<DrawnArrow> arrowsOf(const std::string& svg) {
    static const std::regex arrow(R"re(<g class="arrow" data-name="([^"]*)"[^>]*><path d="M)re"
                                  R"re(([-0-9.]+) ([-0-9.]+)L[^"]*"/><path d="M([-0-9.]+) )re"
                                  R"re(([-0-9.]+)L)re");
    std::vector<DrawnArrow> out;
    for (std::sregex_iterator it(svg.begin(), svg.end(), arrow), end; it != end; ++it)
        out.push_back({(*it)[1], std::stod((*it)[2]), std::stod((*it)[3]), std::stod((*it)[4]),
                       std::stod((*it)[5])});
    return out;
}

bool overlap(const Box& a, const Box& b) {
    constexpr double slack = 0.5; // touching is not overlapping
    return a.left + slack < b.right && b.left + slack < a.right && a.top + slack < b.bottom &&
           b.top + slack < a.bottom;
}

std::string said(const DrawnLabel& l) {
    std::ostringstream out;
    std::string text = l.text;
    std::replace(text.begin(), text.end(), '\n', '|');
    out << "\"" << text << "\" (" << l.box.left << "," << l.box.top << ")-(" << l.box.right << ","
        << l.box.bottom << ")";
    return out.str();
}

// "" when no two labels of the SVG overlap and each lies inside the plot; else the first that
// does not.
std::string labelsLegible(const std::string& svg, const svg::Frame& f) {
    const auto labels = labelsOf(svg);
    if (labels.empty())
        return "no labels read";
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const Box& b = labels[i].box;
        if (b.left < f.left - 0.5 || b.right > f.right + 0.5 || b.top < f.top - 0.5 ||
            b.bottom > f.bottom + 0.5)
            return said(labels[i]) + " leaves the plot";
        for (std::size_t k = i + 1; k < labels.size(); ++k)
            if (overlap(b, labels[k].box))
                return said(labels[i]) + " overlaps " + said(labels[k]);
    }
    return {};
}

// "" when every bar has one label at most, and every bar that ends in a "bar-cut" arrow (its head
// at the bar's top) has exactly one, named "bar-cut-value", inside the bar's reach; else why not.
// `cut` counts the cut bars.
std::string oneLabelABar(const std::string& svg, std::size_t& cut) {
    const auto labels = labelsOf(svg);
    const auto arrows = arrowsOf(svg);
    cut = 0;
    for (const DrawnBar& bar : barsOf(svg)) {
        std::vector<const DrawnLabel*> own;
        for (const auto& l : labels)
            if (l.box.centreX() > bar.box.left && l.box.centreX() < bar.box.right)
                own.push_back(&l);
        if (own.size() > 1)
            return said(*own[0]) + " and " + said(*own[1]) + " on one bar";
        const bool ends = std::any_of(arrows.begin(), arrows.end(), [&bar](const DrawnArrow& a) {
            return a.name == "bar-cut" && a.headX > bar.box.left && a.headX < bar.box.right &&
                   std::abs(a.headY - bar.box.top) < 0.5 && a.tailY > a.headY;
        });
        if (!ends)
            continue;
        ++cut;
        if (own.size() != 1 || own.front()->name != "bar-cut-value")
            return "a cut bar at x " + std::to_string(bar.box.left) + " has " +
                   std::to_string(own.size()) + " labels, none of them its value";
        if (own.front()->box.bottom > bar.box.bottom)
            return said(*own.front()) + " runs past its bar";
    }
    return {};
}

MetricComparison metric(const std::string& name, double ratio, std::size_t runs,
                        std::optional<Interval> interval) {
    MetricComparison m;
    m.name = name;
    m.unit = Unit::BytesPerSecond;
    m.baselineSamples = m.candidateSamples = runs;
    m.ratio = ratio;
    m.overhead = ratio - 1;
    m.interval = interval;
    m.verdict = verdictFor(ratio, Thresholds{});
    return m;
}

Comparison comparisonOf(std::vector<MetricComparison> metrics) {
    Comparison c;
    c.baseline = "bare-metal";
    c.candidate = "bad-guest";
    c.verdict = Verdict::NotViable;
    c.metrics = std::move(metrics);
    return c;
}

// The issue's chart: a guest 24 times slower at block writes, whose interval reaches 49 times,
// another bar cut whose interval starts below the top, a bar just under the top whose interval
// runs past it, and seven others down to one within the viable band.
Comparison badGuest() {
    return comparisonOf({metric("bonnie.put_block", 24.10, 3, Interval{11.68, 49.28}),
                         metric("bonnie.ran_create", 6.0, 3, Interval{2.0, 19.3}),
                         metric("bonnie.rewrite", 3.76, 3, Interval{3.42, 4.11}),
                         metric("bonnie.seq_create", 2.40, 3, Interval{2.24, 2.57}),
                         metric("bonnie.seq_del", 1.90, 3, Interval{1.78, 2.03}),
                         metric("bonnie.seeks", 1.60, 3, Interval{1.49, 1.71}),
                         metric("bonnie.putc", 1.30, 3, Interval{1.21, 1.39}),
                         metric("bonnie.ran_del", 1.20, 3, Interval{1.12, 1.28}),
                         metric("bonnie.get_block", 1.12, 3, Interval{1.05, 1.20}),
                         metric("bonnie.getc", 1.05, 3, Interval{0.98, 1.12})});
}

struct Drawn {
    std::string svg;
    svg::Frame frame;
};

Drawn drawn(const chart::Chart& chart) {
    const int height = svg::chartHeight(chart, 900, 420);
    return {svg::chartSvg(chart, "t", 900, 420), svg::frameOf(chart, 900, height)};
}

} // namespace

TEST(ChartLabels, TheIssuesOverheadChartHasOneLabelABarAndNoneOnAnother) {
    const chart::Chart chart = chart::overhead(badGuest());
    const Drawn d = drawn(chart);
    EXPECT_EQ(labelsLegible(d.svg, d.frame), "");
    std::size_t cut = 0;
    EXPECT_EQ(oneLabelABar(d.svg, cut), "");
    EXPECT_EQ(cut, 2U) << "put_block and ran_create run past +300 %";
    // The cut bar's one label gives its value, runs and how far its interval reaches.
    const auto labels = labelsOf(d.svg);
    EXPECT_TRUE(std::any_of(labels.begin(), labels.end(), [](const DrawnLabel& l) {
        return l.name == "bar-cut-value" && l.text == "+2310 %  n=3/3\nto +4828 %";
    })) << d.svg;
    // rewrite's +276 % sits inside its bar, under the top, with its interval's reach.
    EXPECT_TRUE(std::any_of(labels.begin(), labels.end(), [](const DrawnLabel& l) {
        return l.text == "+276 %\nn=3/3\nto +311 %";
    }));
}

TEST(ChartLabels, FewBarsBarsBelowZeroAndBarsWithoutAnIntervalKeepTheirLabelsInside) {
    const chart::Chart chart =
        chart::overhead(comparisonOf({metric("fio.a.write.bw", 31.0, 5, Interval{20.0, 45.0}),
                                      metric("fio.b.write.bw", 3.9, 5, Interval{3.5, 4.6}),
                                      metric("fio.c.read.bw", 3.6, 2, std::nullopt),
                                      metric("fio.d.read.bw", 0.62, 5, Interval{0.5, 0.8}),
                                      metric("fio.e.read.lat_p99", 0.9, 1, std::nullopt)}));
    const Drawn d = drawn(chart);
    EXPECT_EQ(labelsLegible(d.svg, d.frame), "");
    std::size_t cut = 0;
    EXPECT_EQ(oneLabelABar(d.svg, cut), "");
    EXPECT_EQ(cut, 1U);
}

// Sixteen bars side by side, the most that carry their values: neighbours at the same height
// with three lines each, as a few runs of many fio jobs give.
TEST(ChartLabels, SixteenBarsAtOneHeightStayApart) {
    std::vector<MetricComparison> metrics;
    for (int i = 0; i < 16; ++i)
        metrics.push_back(
            metric("fio.job-" + std::to_string(i) + ".read.bw", 1.0 + 0.001 * i, 1, std::nullopt));
    metrics[3] = metric("fio.job-3.read.bw", 1.8, 5, Interval{1.5, 4.7});
    metrics[4] = metric("fio.job-4.read.bw", 9.0, 5, Interval{5.0, 14.0});
    const Drawn d = drawn(chart::overhead(comparisonOf(metrics)));
    EXPECT_EQ(labelsLegible(d.svg, d.frame), "");
    std::size_t cut = 0;
    EXPECT_EQ(oneLabelABar(d.svg, cut), "");
    EXPECT_EQ(cut, 1U);
}

// The checks above see what they should: two labels drawn on one bar, one cut off at the top.
TEST(ChartLabels, TheChecksSeeOverlapsAndLabelsCutOff) {
    chart::Chart chart = chart::overhead(badGuest());
    chart::Label second = chart.labels.front();
    second.text = "to +4828 %";
    second.name = "interval-cut-value";
    chart.labels.push_back(second);
    Drawn d = drawn(chart);
    EXPECT_NE(labelsLegible(d.svg, d.frame), "");
    std::size_t cut = 0;
    EXPECT_NE(oneLabelABar(d.svg, cut), "");
    chart = chart::overhead(badGuest());
    for (auto& l : chart.labels)
        if (l.text.rfind("+276 %", 0) == 0)
            l.vertical = chart::Align::End; // above its bar, as before: past the top
    d = drawn(chart);
    EXPECT_NE(labelsLegible(d.svg, d.frame).find("leaves the plot"), std::string::npos);
}

// The GUI's bars as cost ratios in the report's SVG: a bad layout's cut bars end in their arrows.
TEST(ChartLabels, CostRatioBarsCutAtTheTopEndInAnArrowWithOneLabel) {
    ReportData data;
    data.baseline = "bare-metal";
    for (const char* name : {"bare-metal", "bad-guest"}) {
        ReportLayout l;
        l.name = name;
        l.baseline = std::string(name) == "bare-metal";
        data.layouts.push_back(l);
    }
    const auto runs = [](double v) { return std::vector<double>{v, v * 0.97, v * 1.03}; };
    data.samples["bare-metal"].metrics = {{"fio.w.write.bw", runs(800e6), "fio:w"},
                                          {"fio.w.write.lat_p99", runs(2e6), "fio:w"},
                                          {"fio.r.read.iops", runs(90e3), "fio:r"}};
    data.samples["bad-guest"].metrics = {{"fio.w.write.bw", runs(33e6), "fio:w"},
                                         {"fio.w.write.lat_p99", runs(9e6), "fio:w"},
                                         {"fio.r.read.iops", runs(70e3), "fio:r"}};
    const chart::Chart chart = chart::groupedBars(
        data, {"fio.r.read.iops", "fio.w.write.bw", "fio.w.write.lat_p99"}, true);
    const Drawn d = drawn(chart);
    EXPECT_EQ(labelsLegible(d.svg, d.frame), "");
    std::size_t cut = 0;
    EXPECT_EQ(oneLabelABar(d.svg, cut), "");
    EXPECT_EQ(cut, 2U) << "write bandwidth (24 times the cost) and p99 latency (4.5 times)";
}

// Twelve fio jobs of long names stand upright under the bars: the plot keeps most of the picture
// in the SVG and in the PNG the PDF shows, which grows rather than squeeze the plot.
TEST(ChartLabels, ThePlotIsMostOfThePictureWithLongNamesUnderIt) {
    std::vector<MetricComparison> metrics;
    for (int i = 0; i < 12; ++i)
        metrics.push_back(metric("fio.rand-read-4k-qd32-numjobs4-direct-job" + std::to_string(i) +
                                     ".read.lat_p99",
                                 1.0 + 0.2 * i, 3, Interval{1.0 + 0.15 * i, 1.0 + 0.25 * i}));
    const chart::Chart chart = chart::overhead(comparisonOf(metrics));

    const int height = svg::chartHeight(chart, 900, 420);
    const svg::Frame f = svg::frameOf(chart, 900, height);
    EXPECT_GE((f.bottom - f.top) / height, chart::leastPlotShare - 0.005)
        << "plot " << f.bottom - f.top << " of " << height;

    const std::string png = chartPng(chart, 900, 420);
    QImage image;
    ASSERT_TRUE(image.loadFromData(reinterpret_cast<const uchar*>(png.data()),
                                   static_cast<int>(png.size()), "PNG"));
    EXPECT_EQ(image.width(), 1800); // twice the pixels
    const int picture = image.height() / 2;
    EXPECT_GT(picture, 420) << "the names take more than 40 % of 420 pixels";
    // The same chart laid out at the picture's size, as it was drawn.
    QCustomPlot plot;
    plot.setFont(QFont("DejaVu Sans", 9));
    charts::draw(plot, chart);
    plot.setViewport(QRect(0, 0, 900, picture));
    for (const auto phase :
         {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
        plot.plotLayout()->update(phase);
    EXPECT_GE(static_cast<double>(plot.axisRect()->rect().height()) / picture,
              chart::leastPlotShare - 0.01)
        << "plot " << plot.axisRect()->rect().height() << " of " << picture;
}
