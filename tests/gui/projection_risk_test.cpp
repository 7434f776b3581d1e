// The Projection tab's risk line (issue 43, item 3): for a layout and its settings it shows the
// statement `layoutbench project --json` gives for the same ones, word for word (the tab computes
// nothing itself), in TiB when the sizes were typed so, and nothing while the inputs are not
// valid.
#include "app/gui/main_window.h"
#include "app/gui/projection_tab.h"
#include "engine/store/store.h"
#include "tests/support/drill_store.h"

#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace lb::gui;

namespace {

// `layoutbench project --json` of one new layout: its risk statement, or why there is none.
QString commandLineStatement(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(LAYOUTBENCH_CLI),
            QStringList{QStringLiteral("project")} + args + QStringList{QStringLiteral("--json")});
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return QStringLiteral("(project failed: %1)")
            .arg(QString::fromUtf8(p.readAllStandardError()));
    const QJsonObject out = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    return out.value(u"layouts")
        .toArray()
        .at(0)
        .toObject()
        .value(u"risk")
        .toObject()
        .value(u"statement")
        .toString();
}

} // namespace

class ProjectionRiskTest : public QObject {
    Q_OBJECT
private slots:
    void riskLineIsTheCommandLinesStatement() {
        ProjectionTab tab;
        struct Case {
            QString kind;
            int disks;
            QString diskSize, used, drive; // drive "": none
        };
        const Case cases[] = {
            {"zfs-raidz2", 10, "500G", "1T", ""},
            {"md-raid6", 10, "500G", "1T", "samsung-870-evo-500gb"},
            {"zfs-raid10", 8, "4TiB", "3TiB", "wd-red-plus-4tb"},
            {"zfs-stripe", 4, "1T", "1T", ""},
        };
        for (const Case& c : cases) {
            tab.chooseNewLayout();
            tab.kindBox()->setCurrentText(c.kind);
            tab.disksBox()->setValue(c.disks);
            tab.diskSizeEdit()->setText(c.diskSize);
            tab.usedEdit()->setText(c.used);
            tab.growthEdit()->setText(QStringLiteral("30%"));
            tab.driveBox()->setCurrentIndex(c.drive.isEmpty() ? 0
                                                              : tab.driveBox()->findData(c.drive));
            QVERIFY2(tab.recompute(), qPrintable(tab.summary()->text()));
            QStringList args{QStringLiteral("--kind"),      c.kind,
                             QStringLiteral("--disks"),     QString::number(c.disks),
                             QStringLiteral("--disk-size"), c.diskSize,
                             QStringLiteral("--used"),      c.used,
                             QStringLiteral("--growth"),    QStringLiteral("30%")};
            if (!c.drive.isEmpty())
                args << QStringLiteral("--drive") << c.drive;
            const QString statement = commandLineStatement(args);
            QVERIFY2(!statement.isEmpty(), qPrintable(c.kind));
            QCOMPARE(tab.riskLabel()->text(), QStringLiteral("Risk: ") + statement);
        }
        // Inputs that are not valid: no projection, and no risk line left from the last one.
        tab.usedEdit()->setText(QStringLiteral("lots"));
        QVERIFY(!tab.recompute());
        QVERIFY(tab.riskLabel()->text().isEmpty());
    }

    // A database with a raidz1's fail-rebuild drill (real fio output, tests/data/drill) and an md
    // RAID-5 without one, opened as the app opens it (the store's thread, its snapshot): the tab's
    // risk of each is `project --layout`'s statement, the raidz1's at the drill's measured rate,
    // the md array's at the assumed one, each saying so.
    void storedLayoutTakesItsDrillsMeasuredRebuild() {
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
        QSignalSpy opened(&w, &MainWindow::databaseOpened);
        w.openDatabase(db);
        QVERIFY(!opened.isEmpty() || opened.wait(20000));
        ProjectionTab& tab = *w.projectionTab();
        const std::pair<QString, QString> layouts[] = {
            {QStringLiteral("raidz1"), QStringLiteral("at a measured 5.6 MB/s (measured: "
                                                      "fail-rebuild drill, run 1, on the layout's "
                                                      "disks under TCG)")},
            {QStringLiteral("md5"), QStringLiteral("at an assumed 100.0 MB/s (no rebuild "
                                                   "measured)")}};
        for (const auto& [layout, rate] : layouts) {
            tab.layoutBox()->setCurrentText(layout);
            QCOMPARE(tab.layoutBox()->currentText(), layout);
            tab.usedEdit()->setText(QStringLiteral("100M"));
            tab.growthEdit()->setText(QStringLiteral("10%"));
            tab.yearsBox()->setValue(5);
            QVERIFY2(tab.recompute(), qPrintable(tab.summary()->text()));
            const QString statement = commandLineStatement(
                {QStringLiteral("--db"), db, QStringLiteral("--layout"), layout,
                 QStringLiteral("--used"), QStringLiteral("100M"), QStringLiteral("--growth"),
                 QStringLiteral("10%"), QStringLiteral("--years"), QStringLiteral("5")});
            QVERIFY2(statement.contains(rate), qPrintable(statement));
            QCOMPARE(tab.riskLabel()->text(), QStringLiteral("Risk: ") + statement);
        }
    }

    void sizesTypedInTiBAreSaidInTiB() {
        ProjectionTab tab;
        tab.chooseNewLayout();
        tab.kindBox()->setCurrentText(QStringLiteral("zfs-raidz2"));
        tab.disksBox()->setValue(6);
        tab.diskSizeEdit()->setText(QStringLiteral("4TiB"));
        tab.usedEdit()->setText(QStringLiteral("2TiB"));
        tab.growthEdit()->setText(QStringLiteral("30%"));
        tab.driveBox()->setCurrentIndex(0);
        QVERIFY2(tab.recompute(), qPrintable(tab.summary()->text()));
        QVERIFY2(tab.riskLabel()->text().contains(QStringLiteral("A 4.00 TiB disk")),
                 qPrintable(tab.riskLabel()->text()));
    }
};

QTEST_MAIN(ProjectionRiskTest)
#include "projection_risk_test.moc"
