// The Charts tab's bars against the baseline read as the verdicts do (issue 41, item 3): a layout
// slower at writing is worse on its bandwidth (higher is better) and on its p99 latency (lower is
// better) alike, so both of its bars stand above the baseline's 1 on one cost-ratio axis, each
// the comparison's own ratio or, past the axis' top, cut there in an arrow with one label; the
// hover says the comparison's ratio. The tab is saved as screenshot-cost-bars.png in the build
// directory, to look at.
#include "app/gui/charts_tab.h"
#include "app/gui/main_window.h"
#include "engine/store/store.h"
#include "reports/display.h"

#include <QCheckBox>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

using namespace lb;
using namespace lb::gui;

namespace {

// Three runs of one fio write job on `layout`: its bandwidth and its p99 total latency.
void addLayout(Store& store, const std::string& layout, double bytesPerSecond, double p99) {
    auto id = store.ensureLayout(layout, "dir", "{}", std::nullopt);
    QVERIFY(id);
    for (const double f : {0.97, 1.0, 1.03}) {
        lb::Run r;
        r.workload = "fio:seq-write-1m";
        r.probe = "fio";
        r.stdoutText = layout + " " + std::to_string(f);
        r.status = RunStatus::Ok;
        r.host = "srv";
        r.metrics = {{"fio.seq-write-1m.write.bw", bytesPerSecond * f, Unit::BytesPerSecond},
                     {"fio.seq-write-1m.write.lat_p99", p99 / f, Unit::Nanoseconds}};
        QVERIFY(store.insertRun(*id, r));
    }
}

// A baseline "bare-metal" and "slow-guest": 24 times the time per byte, 1.8 times the p99 latency.
void writeDatabase(const QString& db) {
    auto store = Store::open(db.toStdString());
    QVERIFY(store);
    addLayout(*store, "bare-metal", 800e6, 2e6);
    addLayout(*store, "slow-guest", 800e6 / 24, 3.6e6);
}

QCPBars* barsNamed(QCustomPlot* plot, const QString& name) {
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto* bars = qobject_cast<QCPBars*>(plot->plottable(i)); bars && bars->name() == name)
            return bars;
    return nullptr;
}

double valueAt(QCPBars* bars, double key) {
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        if (it->key == key)
            return it->value;
    return std::nan("");
}

// The plot has one bar cut at `top`: one arrow "bar-cut" ending there, one label "bar-cut-value".
void checkOneCut(QCustomPlot* plot, double top, const QString& label) {
    int cuts = 0;
    QStringList labels;
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto* arrow = qobject_cast<QCPItemLine*>(plot->item(i));
            arrow && arrow->objectName() == QStringLiteral("bar-cut")) {
            ++cuts;
            QCOMPARE(arrow->end->coords().y(), top);
        }
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i));
            text && text->objectName() == QStringLiteral("bar-cut-value"))
            labels << text->text();
    }
    QCOMPARE(cuts, 1);
    QCOMPARE(labels, QStringList{label});
}

} // namespace

class ChartsCostTest : public QObject {
    Q_OBJECT
private slots:
    void aSlowLayoutCostsMoreOnThroughputAndLatencyAlike() {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("cost.db"));
        writeDatabase(db);
        MainWindow w;
        w.resize(1280, 720);
        QSignalSpy charts(&w, &MainWindow::chartsShown);
        w.openDatabase(db);
        QVERIFY(charts.wait(20000));
        ChartsTab* tab = w.chartsTab();
        const ReportData& data = tab->data();
        QCOMPARE(QString::fromStdString(data.baseline), QStringLiteral("bare-metal"));
        QCOMPARE(data.comparisons.size(), std::size_t(1));
        QVERIFY(tab->normaliseBox()->isChecked());

        QCustomPlot* plot = tab->barsPlot();
        QVERIFY2(plot->yAxis->label().startsWith(QStringLiteral("cost ratio")),
                 qPrintable(plot->yAxis->label()));
        QCPBars* baseline = barsNamed(plot, QStringLiteral("bare-metal"));
        QCPBars* slow = barsNamed(plot, QStringLiteral("slow-guest"));
        QVERIFY(baseline && slow);
        // Metrics sorted: bw at 1, lat_p99 at 2.
        const QStringList metrics = {QStringLiteral("fio.seq-write-1m.write.bw"),
                                     QStringLiteral("fio.seq-write-1m.write.lat_p99")};
        for (int k = 0; k < metrics.size(); ++k) {
            const double key = k + 1;
            QCOMPARE(valueAt(baseline, key), 1.0);
            const double value = valueAt(slow, key);
            QVERIFY2(value > 1.0, qPrintable(metrics[k] + QStringLiteral(": %1").arg(value)));
            const MetricComparison* m = nullptr;
            for (const auto& c : data.comparisons.front().metrics)
                if (c.name == metrics[k].toStdString())
                    m = &c;
            QVERIFY(m);
            QVERIFY(m->ratio > 1.0);
            // The comparison's ratio: bandwidth's 24 is cut at the axis' top, below it.
            if (k == 0)
                QVERIFY2(value < m->ratio && m->ratio > plot->yAxis->range().upper,
                         qPrintable(QStringLiteral("%1 of %2").arg(value).arg(m->ratio)));
            else
                QCOMPARE(value, m->ratio);
        }
        checkOneCut(plot, valueAt(slow, 1), QStringLiteral("24.00  n=3"));

        // Hovering the cut bar gives the comparison's ratio, not the bar's height.
        w.tabs()->setCurrentWidget(tab);
        tab->plotTabs()->setCurrentIndex(0);
        plot->replot();
        const QPointF at(plot->xAxis->coordToPixel(1.2), plot->yAxis->coordToPixel(1.0));
        const QString hover = tab->hoverText(plot, at);
        QVERIFY2(hover.contains(QStringLiteral("cost ratio 24.00 against bare-metal")),
                 qPrintable(hover));
        QVERIFY(w.grab().save(QStringLiteral(LAYOUTBENCH_SCREENSHOT_DIR) +
                              QStringLiteral("/screenshot-cost-bars.png")));
    }
};

QTEST_MAIN(ChartsCostTest)
#include "charts_cost_test.moc"
