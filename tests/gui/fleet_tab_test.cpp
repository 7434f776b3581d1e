// The Fleet tab against a database of one layout measured on four machines, one of them slow:
// opening the database fills the tab, the layout is offered with its hosts, the slow host is
// named first (in bold, as worse), and every deciding metric lists each host with the slow one
// marked. A database of one machine says there is no fleet. The tab is saved as
// screenshot-fleet.png in the build directory, to look at.
#include "app/gui/fleet_tab.h"
#include "app/gui/main_window.h"
#include "engine/store/store.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace lb;
using namespace lb::gui;

namespace {

// Three runs of layout "dir" on each host, bandwidth around `bw`.
void addHost(Store& store, const std::string& host, double bw) {
    auto layout = store.ensureLayout("dir", "dir", "{}", std::nullopt);
    QVERIFY(layout);
    for (const double f : {0.98, 1.0, 1.02}) {
        lb::Run r;
        r.workload = "fio:rand-read-4k-qd1";
        r.probe = "fio";
        r.stdoutText = host + " " + std::to_string(bw * f);
        r.status = RunStatus::Ok;
        r.host = host;
        r.metrics = {{"fio.rand-read-4k-qd1.read.bw", bw * f, Unit::BytesPerSecond},
                     {"fio.rand-read-4k-qd1.read.iops", bw * f / 4096, Unit::OpsPerSecond}};
        QVERIFY(store.insertRun(*layout, r));
    }
}

} // namespace

class FleetTabTest : public QObject {
    Q_OBJECT
private slots:
    void opensAFleetAndNamesTheSlowHost() {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("fleet.db"));
        {
            auto store = Store::open(db.toStdString());
            QVERIFY(store);
            addHost(*store, "srv-1", 410e6);
            addHost(*store, "srv-2", 400e6);
            addHost(*store, "srv-3", 405e6);
            addHost(*store, "srv-4", 150e6);
        }
        MainWindow w;
        w.resize(1280, 720);
        QSignalSpy shown(&w, &MainWindow::fleetShown);
        w.openDatabase(db);
        QVERIFY(shown.wait(20000));
        FleetTab* tab = w.fleetTab();
        QCOMPARE(tab->layoutBox()->count(), 1);
        QCOMPARE(tab->layoutBox()->currentText(), QStringLiteral("dir (4 hosts)"));
        const QString standouts = tab->standouts()->text();
        QVERIFY2(standouts.startsWith(QStringLiteral("<b>srv-4: rand-read-4k-qd1.read.")),
                 qPrintable(standouts));
        QVERIFY2(standouts.contains(QStringLiteral("below the fleet median, worse")),
                 qPrintable(standouts));
        QVERIFY(!standouts.contains(QStringLiteral("srv-1")));
        // Two deciding metrics, each a title and four hosts.
        QTreeWidget* tree = tab->metrics();
        QCOMPARE(tree->topLevelItemCount(), 10);
        QVERIFY(tree->topLevelItem(0)->text(0).startsWith(QStringLiteral("fio.rand-read-4k-qd1.")));
        int apart = 0;
        for (int i = 0; i < tree->topLevelItemCount(); ++i) {
            const auto* item = tree->topLevelItem(i);
            if (item->text(5).startsWith(QStringLiteral("apart"))) {
                ++apart;
                QCOMPARE(item->text(0), QStringLiteral("srv-4"));
                QVERIFY(item->font(0).bold());
                QCOMPARE(item->text(4), QStringLiteral("-63 %"));
            }
        }
        QCOMPARE(apart, 2);

        auto* tabs = w.findChild<QTabWidget*>();
        QVERIFY(tabs);
        tabs->setCurrentWidget(tab);
        QVERIFY(w.grab().save(QStringLiteral(LAYOUTBENCH_SCREENSHOT_DIR "/screenshot-fleet.png")));
    }

    void aDatabaseOfOneMachineHasNoFleet() {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("one.db"));
        {
            auto store = Store::open(db.toStdString());
            QVERIFY(store);
            addHost(*store, "srv-1", 400e6);
        }
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::fleetShown);
        w.openDatabase(db);
        QVERIFY(shown.wait(20000));
        QVERIFY(!w.fleetTab()->layoutBox()->isEnabled());
        QVERIFY(w.fleetTab()->standouts()->text().startsWith(
            QStringLiteral("No layout holds runs of more than one machine")));
        QCOMPARE(w.fleetTab()->metrics()->topLevelItemCount(), 0);
    }
};

QTEST_MAIN(FleetTabTest)
#include "fleet_tab_test.moc"
