// The screenshot of the main window for the README, taken under Xvfb (`xvfb-run -a`, the xcb
// platform, so fonts and styles render as on a desktop): the fixture database open, the guest
// compared against the bare metal on the Results tab, the window grabbed to
// screenshot-main-window.png in the build directory (and the two charts to screenshot-charts.png
// and screenshot-overhead.png; the Projection tab as it opens to screenshot-projection-opened.png
// and a new layout projected to screenshot-projection.png; a finished
// campaign to screenshot-campaign.png; from a database with a fail-rebuild drill, the Projection
// tab at the drill's measured rebuild rate to screenshot-projection-drill.png and the Drills form
// to screenshot-drill-form.png).
#include "app/gui/campaign_controller.h"
#include "app/gui/campaign_tab.h"
#include "app/gui/charts_tab.h"
#include "app/gui/main_window.h"
#include "app/gui/projection_tab.h"
#include "app/gui/results_tab.h"
#include "app/gui/scenario_forms.h"
#include "app/gui/scenario_tab.h"
#include "engine/store/store.h"
#include "tests/gui/fixture.h"
#include "tests/support/drill_store.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace lb::gui;

namespace {

// Distinct colours in a sample of the image: a blank or half-drawn window has very few.
int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

} // namespace

class ScreenshotTest : public QObject {
    Q_OBJECT

private slots:
    void mainWindowScreenshot() {
        QVERIFY2(QGuiApplication::platformName() == QStringLiteral("xcb"),
                 "run under xvfb-run -a with QT_QPA_PLATFORM unset or xcb");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        qputenv("XDG_CONFIG_HOME", dir.filePath(QStringLiteral("config")).toUtf8());
        qputenv("LAYOUTBENCH_GUI_NO_DIALOGS", "1");
        QCoreApplication::setOrganizationName(QStringLiteral("layoutbench-tests"));
        const QString db = dir.filePath(QStringLiteral("results.db"));
        auto created = lb::gui::test::createFixtureDatabase(db.toStdString());
        QVERIFY2(created, created ? "" : created.error().message.c_str());

        MainWindow w;
        w.resize(MainWindow::defaultWidth, MainWindow::defaultHeight);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy opened(&w, &MainWindow::databaseOpened);
        QSignalSpy shown(&w, &MainWindow::comparisonShown);
        QSignalSpy drawn(&w, &MainWindow::chartsShown);
        w.openDatabase(db);
        for (QSignalSpy* spy : {&opened, &shown, &drawn})
            QVERIFY(!spy->isEmpty() || spy->wait(20000));
        QCOMPARE(w.tabs()->currentWidget(), static_cast<QWidget*>(w.resultsTab()));
        // Let the views lay out and paint.
        QTest::qWait(300);

        const QString dirOut = QStringLiteral(LAYOUTBENCH_SCREENSHOT_DIR);
        const QPixmap main = w.grab();
        QCOMPARE(main.size(), w.size());
        const QString mainPath = dirOut + QStringLiteral("/screenshot-main-window.png");
        QVERIFY(main.save(mainPath));
        QVERIFY2(distinctColours(main.toImage()) > 20, "the window looks blank");

        // The other tabs, to look at (not for the README).
        for (int i : {0, 1}) {
            w.tabs()->setCurrentIndex(i);
            QTest::qWait(200);
            QVERIFY(w.grab().save(dirOut + QStringLiteral("/screenshot-tab-%1.png").arg(i)));
        }
        w.tabs()->setCurrentWidget(w.chartsTab());
        QTest::qWait(300);
        const QPixmap charts = w.grab();
        QVERIFY(charts.save(dirOut + QStringLiteral("/screenshot-charts.png")));
        QVERIFY2(distinctColours(charts.toImage()) > 20, "the charts look blank");
        w.chartsTab()->plotTabs()->setCurrentIndex(1);
        QTest::qWait(300);
        const QPixmap overhead = w.grab();
        QVERIFY(overhead.save(dirOut + QStringLiteral("/screenshot-overhead.png")));
        QVERIFY2(distinctColours(overhead.toImage()) > 20, "the overhead chart looks blank");
        // The Projection tab as it opens: the first layout whose disks are known (the embedded
        // scenario's raidz1; the fixture's are imported), its own fields and a use it can hold.
        ProjectionTab* projection = w.projectionTab();
        w.tabs()->setCurrentWidget(projection);
        QTest::qWait(300);
        QVERIFY2(projection->projection(), qPrintable(projection->summary()->text()));
        QVERIFY(w.grab().save(dirOut + QStringLiteral("/screenshot-projection-opened.png")));
        // A layout that does not exist yet, projected: ten 4 TiB disks in RAIDZ2, 10 TiB used.
        projection->chooseNewLayout();
        projection->kindBox()->setCurrentText(QStringLiteral("zfs-raidz2"));
        projection->disksBox()->setValue(10);
        projection->diskSizeEdit()->setText(QStringLiteral("4TiB"));
        projection->usedEdit()->setText(QStringLiteral("10TiB"));
        projection->hostWritesEdit()->setText(QStringLiteral("200G/d"));
        QVERIFY2(projection->recompute(), qPrintable(projection->summary()->text()));
        QTest::qWait(300);
        const QPixmap projected = w.grab();
        QVERIFY(projected.save(dirOut + QStringLiteral("/screenshot-projection.png")));
        QVERIFY2(distinctColours(projected.toImage()) > 20, "the projection looks blank");
        QCOMPARE(projected.size(), w.size());
        // A finished campaign on the Campaign tab: real dd and fio on a dir layout, one fio job
        // failing (it writes below a regular file) so the queue shows a reason.
        QFile notADir(dir.filePath(QStringLiteral("a-file")));
        QVERIFY(notADir.open(QIODevice::WriteOnly));
        notADir.close();
        QFile job(dir.filePath(QStringLiteral("bad.fio")));
        QVERIFY(job.open(QIODevice::WriteOnly));
        job.write(QStringLiteral("[bad]\nrw=write\nsize=1M\nioengine=psync\nfilename=%1/file\n")
                      .arg(notADir.fileName())
                      .toUtf8());
        job.close();
        QDir().mkpath(dir.filePath(QStringLiteral("layout")));
        w.scenarioTab()->setScenario(
            QStringLiteral(
                "name = \"screenshot\"\niterations = 2\nwork_dir = \"%1\"\n"
                "drop_caches = false\n\n[[layouts]]\nname = \"dir\"\nkind = \"dir\"\n"
                "path = \"%2\"\nbaseline = true\n\n[[workloads]]\nprobe = \"randfile\"\n"
                "size = \"4MiB\"\n\n[[workloads]]\nprobe = \"fio\"\n"
                "preset = \"seq-write-1m\"\nsize = \"8MiB\"\nruntime = 1\n"
                "ioengine = \"psync\"\n\n[[workloads]]\nprobe = \"fio\"\njob_file = \"%3\"\n")
                .arg(dir.filePath(QStringLiteral("work")), dir.filePath(QStringLiteral("layout")),
                     job.fileName()),
            dir.filePath(QStringLiteral("screenshot.toml")));
        QVERIFY(w.scenarioTab()->lastCheck().ok());
        QSignalSpy stopped(w.campaignController(), &CampaignController::stopped);
        emit w.campaignTab()->runRequested();
        QVERIFY(stopped.wait(60000));
        QTest::qWait(300);
        QVERIFY(w.grab().save(dirOut + QStringLiteral("/screenshot-campaign.png")));
        qInfo("screenshot: %s (%dx%d)", qPrintable(mainPath), main.width(), main.height());
    }

    // A database with a raidz1's fail-rebuild drill (tests/data/drill): the Projection tab on the
    // raidz1, its risk at the drill's measured rate, to screenshot-projection-drill.png; and the
    // scenario's Drills form on a fail-rebuild drill, to screenshot-drill-form.png.
    void drillScreenshots() {
        QVERIFY2(QGuiApplication::platformName() == QStringLiteral("xcb"),
                 "run under xvfb-run -a with QT_QPA_PLATFORM unset or xcb");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        qputenv("XDG_CONFIG_HOME", dir.filePath(QStringLiteral("config")).toUtf8());
        qputenv("LAYOUTBENCH_GUI_NO_DIALOGS", "1");
        const QString db = dir.filePath(QStringLiteral("results.db"));
        {
            auto store = lb::Store::open(db.toStdString());
            QVERIFY2(store, store ? "" : store.error().message.c_str());
            auto stored = lb::test::storeDrillFixture(*store, LAYOUTBENCH_TEST_DATA_DIR
                                                      "/drill/3.33/fail_rebuild_raidz1.out");
            QVERIFY2(stored, stored ? "" : stored.error().message.c_str());
        }
        MainWindow w;
        w.resize(MainWindow::defaultWidth, MainWindow::defaultHeight);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy opened(&w, &MainWindow::databaseOpened);
        w.openDatabase(db);
        QVERIFY(!opened.isEmpty() || opened.wait(20000));
        const QString dirOut = QStringLiteral(LAYOUTBENCH_SCREENSHOT_DIR);
        ProjectionTab* projection = w.projectionTab();
        w.tabs()->setCurrentWidget(projection);
        projection->layoutBox()->setCurrentText(QStringLiteral("raidz1"));
        projection->usedEdit()->setText(QStringLiteral("100M"));
        projection->growthEdit()->setText(QStringLiteral("10%"));
        projection->yearsBox()->setValue(5);
        QVERIFY2(projection->recompute(), qPrintable(projection->summary()->text()));
        QVERIFY2(projection->riskLabel()->text().contains(QStringLiteral("at a measured")),
                 qPrintable(projection->riskLabel()->text()));
        QTest::qWait(300);
        const QPixmap drilled = w.grab();
        QVERIFY(drilled.save(dirOut + QStringLiteral("/screenshot-projection-drill.png")));
        QVERIFY2(distinctColours(drilled.toImage()) > 20, "the projection looks blank");

        ScenarioTab* scenario = w.scenarioTab();
        w.tabs()->setCurrentWidget(scenario);
        scenario->setScenario(QString::fromStdString(lb::test::drillFixtureScenario()), QString());
        scenario->validateNow();
        QVERIFY2(scenario->lastCheck().ok(), qPrintable(scenario->problemLabel()->text()));
        scenario->formTabs()->setCurrentWidget(scenario->drillsEditor());
        scenario->drillsEditor()->select(0);
        QTest::qWait(300);
        QVERIFY(w.grab().save(dirOut + QStringLiteral("/screenshot-drill-form.png")));
    }
};

QTEST_MAIN(ScreenshotTest)
#include "screenshot_test.moc"
