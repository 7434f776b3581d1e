// Charts that look no surer than the data: no whisker where there is no interval or no spread,
// the runs behind every bar, an interval that runs past the top ending in an arrow, its reach in
// the bar's label, every deciding metric drawn, and titles that wrap rather than lose their ends.
// Part of report_tests (its main makes the QApplication, offscreen).
#include "reports/charts.h"
#include "reports/report_data.h"
#include "tests/support/chart_title.h"

#include <QFontMetricsF>
#include <cmath>
#include <gtest/gtest.h>
#include <qcustomplot.h>

using namespace lb;

namespace {

MetricComparison metric(const std::string& name, double overhead, std::size_t runs,
                        std::optional<Interval> interval) {
    MetricComparison m;
    m.name = name;
    m.unit = Unit::BytesPerSecond;
    m.baselineSamples = runs;
    m.candidateSamples = runs;
    m.ratio = 1 + overhead;
    m.overhead = overhead;
    m.interval = interval;
    m.verdict = m.ratio <= 1.1 ? Verdict::Viable
                : m.ratio >= 2 ? Verdict::NotViable
                               : Verdict::Decision;
    return m;
}

std::vector<QCPErrorBars*> errorBars(QCustomPlot& plot) {
    std::vector<QCPErrorBars*> out;
    for (int i = 0; i < plot.plottableCount(); ++i)
        if (auto* e = qobject_cast<QCPErrorBars*>(plot.plottable(i)))
            out.push_back(e);
    return out;
}

std::vector<QCPItemText*> textsNamed(QCustomPlot& plot, const QString& name) {
    std::vector<QCPItemText*> out;
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot.item(i)); t && t->objectName() == name)
            out.push_back(t);
    return out;
}

QString allTexts(QCustomPlot& plot) {
    QString out;
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot.item(i)))
            out += t->text() + "|";
    return out;
}

} // namespace

TEST(HonestCharts, OverheadBarsWithoutAnIntervalHaveNoWhiskerAndSaySo) {
    Comparison c;
    c.baseline = "base";
    c.candidate = "cand";
    // One bar of two runs a side (no interval), one of five with an interval reaching +40 %,
    // one whose interval runs far past the axis' top (3 x the not-viable start: +300 %).
    c.metrics = {metric("fio.a.read.bw", 0.36, 2, std::nullopt),
                 metric("fio.b.read.bw", 0.20, 5, Interval{1.05, 1.40}),
                 metric("fio.c.read.bw", 0.50, 5, Interval{1.10, 9.0})};
    QCustomPlot plot;
    charts::buildOverheadChart(plot, c);
    bool sawNoInterval = false, sawInterval = false, sawCut = false;
    for (QCPErrorBars* e : errorBars(plot)) {
        auto* bars = qobject_cast<QCPBars*>(e->dataPlottable());
        ASSERT_NE(bars, nullptr);
        ASSERT_EQ(bars->data()->size(), e->data()->size());
        for (int i = 0; i < e->data()->size(); ++i) {
            const double key = (bars->data()->constBegin() + i)->key;
            const auto& err = e->data()->at(i);
            if (key == 1) { // no interval: nothing drawn either way
                sawNoInterval = true;
                EXPECT_TRUE(std::isnan(err.errorMinus));
                EXPECT_TRUE(std::isnan(err.errorPlus));
            } else if (key == 2) {
                sawInterval = true;
                EXPECT_NEAR(err.errorMinus, 15.0, 1e-9); // 20 % down to 5 %
                EXPECT_NEAR(err.errorPlus, 20.0, 1e-9);  // up to 40 %
            } else { // cut at the top: the arrow stands for the upper whisker
                sawCut = true;
                EXPECT_NEAR(err.errorMinus, 40.0, 1e-9);
                EXPECT_TRUE(std::isnan(err.errorPlus));
            }
        }
    }
    EXPECT_TRUE(sawNoInterval && sawInterval && sawCut);
    const QString texts = allTexts(plot);
    EXPECT_TRUE(texts.contains("n=2/2\nno interval")) << texts.toStdString();
    EXPECT_TRUE(texts.contains("n=5/5")) << texts.toStdString();
    // The reach of the cut interval is a line of its bar's one label, not a label of its own.
    EXPECT_TRUE(textsNamed(plot, "interval-cut-value").empty()) << texts.toStdString();
    EXPECT_TRUE(texts.contains("+50 %\nn=5/5\nto +800 %|")) << texts.toStdString();
    int arrows = 0;
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto* l = qobject_cast<QCPItemLine*>(plot.item(i));
            l && l->objectName() == "interval-cut") {
            ++arrows;
            EXPECT_EQ(l->head().style(), QCPLineEnding::esSpikeArrow);
            EXPECT_DOUBLE_EQ(l->end->coords().y(), plot.yAxis->range().upper);
        }
    EXPECT_EQ(arrows, 1);
}

TEST(HonestCharts, GroupedBarsSayTheirRunsAndASingleRunHasNoWhisker) {
    ReportData d;
    d.baseline = "base";
    for (const char* name : {"base", "cand"}) {
        ReportLayout l;
        l.name = name;
        l.baseline = std::string(name) == "base";
        d.layouts.push_back(l);
    }
    d.samples["base"].metrics = {{"fio.seq.read.bw", {300e6, 310e6, 290e6}, "fio:seq", {}}};
    d.samples["cand"].metrics = {{"fio.seq.read.bw", {200e6}, "fio:seq", {}}};
    QCustomPlot plot;
    charts::buildGroupedBars(plot, d, {"fio.seq.read.bw"}, false);
    const auto counts = textsNamed(plot, "run-count");
    ASSERT_EQ(counts.size(), 2U);
    QStringList said;
    for (auto* t : counts)
        said << t->text();
    said.sort();
    EXPECT_EQ(said, (QStringList{"n=1", "n=3"}));
    for (QCPErrorBars* e : errorBars(plot)) {
        ASSERT_EQ(e->data()->size(), 1);
        const bool single = e->dataPlottable()->name() == "cand";
        EXPECT_EQ(std::isnan(e->data()->at(0).errorPlus), single) << e->name().toStdString();
    }
}

TEST(HonestCharts, EveryDecidingMetricIsDrawn) {
    ReportData d;
    d.samples["base"].metrics = {{"fio.j.read.lat_p99", {1e6}, "fio:j", {}},
                                 {"fio.j.read.bw", {1e8}, "fio:j", {}},
                                 {"fio.j.read.lat_p50", {5e5}, "fio:j", {}}};
    Comparison c;
    c.metrics = {metric("fio.j.read.lat_p99", 0.1, 1, std::nullopt)};
    MetricComparison shown = metric("fio.j.read.lat_p50", 0.1, 1, std::nullopt);
    shown.decisive = false;
    c.metrics.push_back(shown);
    d.comparisons = {c};
    const QStringList metrics = charts::barMetrics(d);
    EXPECT_TRUE(metrics.contains("fio.j.read.lat_p99")) << metrics.join(",").toStdString();
    EXPECT_TRUE(metrics.contains("fio.j.read.bw"));
    EXPECT_FALSE(metrics.contains("fio.j.read.lat_p50")) << "shown, not deciding: not drawn";
}

TEST(HonestCharts, ALongTitleWrapsRatherThanLosingItsEnds) {
    Comparison c;
    c.baseline = "bare-metal-with-a-very-long-name-that-someone-gave-their-baseline-layout";
    c.candidate = "a-guest-with-zfs-on-md-raid10-passed-through-virtio-with-iothreads-and-more";
    c.metrics = {metric("fio.a.read.bw", 0.05, 3, Interval{1.01, 1.09})};
    c.verdict = Verdict::Viable;
    QCustomPlot plot;
    charts::buildOverheadChart(plot, c);
    const QString text = test::chartTitle(plot);
    ASSERT_TRUE(text.contains('\n')) << text.toStdString();
    QString joined = text;
    EXPECT_EQ(joined.replace('\n', ' '),
              QString::fromStdString(c.candidate + " against " + c.baseline + ": viable"));
    const QFontMetricsF metrics(QFont(plot.font().family(), 11, QFont::Bold));
    for (const QString& line : text.split('\n'))
        EXPECT_LE(metrics.horizontalAdvance(line), 860.0) << line.toStdString();
}
