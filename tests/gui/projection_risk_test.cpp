// The Projection tab's risk line (issue 43, item 3): for a layout and its settings it shows the
// statement `layoutbench project --json` gives for the same ones, word for word (the tab computes
// nothing itself), in TiB when the sizes were typed so, and nothing while the inputs are not
// valid.
#include "app/gui/projection_tab.h"

#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QSpinBox>
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
