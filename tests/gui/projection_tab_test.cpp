// GUI tests of the Projection tab (QtTest, offscreen): the layouts it offers (the database's,
// the open scenario's, "New layout…") and the one it opens on, each layout's own fields, the use
// it suggests, underprovisioning, guests, imported layouts given their capacity or disks, and
// every figure held to `layoutbench project --json` for the same inputs (issue 41, item 5).
#include "app/gui/main_window.h"
#include "app/gui/projection_tab.h"
#include "app/gui/scenario_tab.h"
#include "engine/base/size.h"
#include "engine/build/layout_spec.h"
#include "engine/capacity/drive_catalog.h"
#include "engine/capacity/layout.h"
#include "engine/scenario/scenario.h"
#include "engine/store/store.h"
#include "probes/registry.h"
#include "tests/gui/fixture.h"

#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <qcustomplot.h>

using namespace lb::gui;

namespace {

constexpr int waitMs = 20000;

} // namespace

class ProjectionTabTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString db_;

    // A main window with the database at `path` open (the embedded scenario, quick.toml, in the
    // Scenario tab).
    static std::unique_ptr<MainWindow> openWindow(const QString& path) {
        auto w = std::make_unique<MainWindow>();
        w->show();
        QSignalSpy opened(w.get(), &MainWindow::databaseOpened);
        w->openDatabase(path);
        if (!opened.wait(waitMs))
            qWarning("%s: not opened", qPrintable(path));
        return w;
    }

    std::unique_ptr<MainWindow> openFixture() { return openWindow(db_); }

    // `layoutbench ARGS` as a person runs it: exit code, standard output and error.
    struct CliResult {
        int exitCode = -1;
        QString out, err;
    };
    static CliResult cli(const QStringList& args) {
        QProcess p;
        p.start(QStringLiteral(LAYOUTBENCH_CLI), args);
        CliResult r;
        if (!p.waitForFinished(60000))
            return r;
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    // The first layout of `layoutbench ARGS --json`; empty (and the error said) when it fails.
    static QJsonObject cliLayout(const QStringList& args) {
        const CliResult r = cli(args + QStringList{QStringLiteral("--json")});
        if (r.exitCode != 0) {
            qWarning("layoutbench %s: %s", qPrintable(args.join(' ')), qPrintable(r.err));
            return {};
        }
        return QJsonDocument::fromJson(r.out.toUtf8())
            .object()
            .value(u"layouts")
            .toArray()
            .at(0)
            .toObject();
    }

    static std::uint64_t bytesOf(const QJsonValue& v) {
        return static_cast<std::uint64_t>(v.toInteger());
    }

    // The tab's projection is the command line's, figure for figure: capacity, ceiling, every
    // month, every expansion path, underprovisioning, wear and cost; and its summary and plot say
    // the same.
    static void expectCommandLineFigures(const ProjectionTab& tab, const QJsonObject& json) {
        QVERIFY2(!json.isEmpty(), "the command line gave no projection");
        QVERIFY2(tab.projection(), qPrintable(tab.summary()->text()));
        const lb::LayoutProjection& p = *tab.projection();
        QCOMPARE(p.capacity.usableBytes, bytesOf(json[u"usable_bytes"]));
        QCOMPARE(p.diskBytes.size(), static_cast<std::size_t>(json[u"disks"].toInt()));
        QCOMPARE(p.ceilingFraction, json[u"ceiling_fraction"].toDouble());
        QCOMPARE(p.ceilingBytes, bytesOf(json[u"ceiling_bytes"]));
        QCOMPARE(p.ceilingMonth ? static_cast<int>(*p.ceilingMonth) : -1,
                 json[u"ceiling_month"].toInt(-1));
        const QJsonArray months = json[u"months"].toArray();
        QCOMPARE(p.months.size(), static_cast<std::size_t>(months.size()));
        for (std::size_t m = 0; m < p.months.size(); ++m) {
            const QJsonValue month = months.at(static_cast<qsizetype>(m));
            QCOMPARE(p.months[m].usedBytes, bytesOf(month[u"used_bytes"]));
            QCOMPARE(p.months[m].usableBytes, bytesOf(month[u"usable_bytes"]));
        }
        const QJsonArray expansions = json[u"expansions"].toArray();
        QCOMPARE(p.expansions.size(), static_cast<std::size_t>(expansions.size()));
        const QString text = tab.summary()->text();
        for (std::size_t i = 0; i < p.expansions.size(); ++i) {
            const lb::ExpansionPath& e = p.expansions[i];
            const QJsonValue j = expansions.at(static_cast<qsizetype>(i));
            QCOMPARE(QString::fromUtf8(lb::expansionKindName(e.kind)), j[u"path"].toString());
            QCOMPARE(static_cast<int>(e.disksBought), j[u"disks_bought"].toInt());
            QCOMPARE(static_cast<int>(e.disksPerStep), j[u"disks_per_step"].toInt());
            QCOMPARE(static_cast<int>(e.schedule.size()), j[u"schedule"].toArray().size());
            QVERIFY2(text.contains(QStringLiteral("%1: %2 disk(s) a step, %3 disk(s) bought")
                                       .arg(j[u"path"].toString())
                                       .arg(j[u"disks_per_step"].toInt())
                                       .arg(j[u"disks_bought"].toInt())),
                     qPrintable(text));
        }
        const QJsonValue under = json[u"underprovision"];
        QCOMPARE(p.wholeDiskCapacity.has_value(), under.isObject());
        if (p.wholeDiskCapacity) {
            QCOMPARE(p.wholeDiskCapacity->usableBytes, bytesOf(under[u"usable_bytes_whole_disks"]));
            QVERIFY2(text.contains(QStringLiteral("Underprovisioned: usable ")), qPrintable(text));
        }
        QCOMPARE(p.wear.has_value(), json[u"wear"].isObject());
        if (p.cost)
            QCOMPARE(p.cost->totalUsd, json[u"cost"][u"total_usd"].toDouble());
        QCOMPARE(plottedCeilingMonth(tab.plot()),
                 p.ceilingMonth ? static_cast<int>(*p.ceilingMonth) : -1);
    }

    // The first "usable 15.85 TiB" of `project`'s text: the size as the command line says it.
    static QString cliUsable(const QString& out) {
        static const QRegularExpression usable(QStringLiteral("usable ([0-9.]+ [kMGTPE]i?B)"));
        return usable.match(out).captured(1);
    }

    // "New layout…" chosen and described, as `project --kind --disks --disk-size
    // --underprovision` (a guest's with --inner) takes it.
    static void describeNewLayout(ProjectionTab& tab, const QString& kind, int disks,
                                  const QString& diskSize,
                                  const QString& underprovision = QStringLiteral("100%"),
                                  const QString& inner = {}) {
        tab.chooseNewLayout();
        tab.kindBox()->setCurrentText(kind);
        if (!inner.isEmpty())
            tab.innerBox()->setCurrentText(inner);
        tab.disksBox()->setValue(disks);
        tab.diskSizeEdit()->setText(diskSize);
        tab.underprovisionEdit()->setText(underprovision);
    }

    // The first month the plot's "used" is above its "ceiling", or -1.
    static int plottedCeilingMonth(QCustomPlot* plot) {
        QCPGraph *used = nullptr, *ceiling = nullptr;
        for (int i = 0; i < plot->graphCount(); ++i) {
            if (plot->graph(i)->name() == QStringLiteral("used"))
                used = plot->graph(i);
            if (plot->graph(i)->name() == QStringLiteral("ceiling"))
                ceiling = plot->graph(i);
        }
        if (!used || !ceiling)
            return -2;
        for (int m = 0; m < used->data()->size(); ++m)
            if (used->data()->at(m)->value > ceiling->data()->at(m)->value)
                return static_cast<int>(used->data()->at(m)->key);
        return -1;
    }

    QString writeFile(const QString& name, const QString& text) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
        f.write(text.toUtf8());
        return path;
    }

    // A database holding the seed scenario's two candidates as its campaign records them: ten
    // 500 GB SSDs (lsblk's sizes), each partitioned to 80 %; raidz2 on bare metal, md RAID6 under
    // a guest running ZFS.
    QString seedDatabase() {
        const QString path = dir_.filePath(QStringLiteral("seed.db"));
        if (QFile::exists(path))
            return path;
        const lb::ProbeRegistry probes = lb::standardProbes();
        auto seed = lb::loadScenario(
            LAYOUTBENCH_SOURCE_DIR "/scenarios/seed-2019-bare-vs-guest.toml", probes);
        if (!seed)
            qFatal("%s", seed.error().message.c_str());
        std::map<std::string, std::uint64_t> sizes;
        for (const auto& d : seed->disks)
            sizes[d.device] = 500'000'000'000ULL;
        auto store = lb::Store::open(path.toStdString());
        if (!store)
            qFatal("%s", store.error().message.c_str());
        auto host = store->ensureHost("devuan", "{}");
        for (const auto& l : seed->layouts)
            if (!host || !store->ensureLayout(l.name, std::string(lb::layoutKindName(l.kind)),
                                              lb::layoutSpecJson(*seed, l, sizes), *host))
                qFatal("cannot record %s", l.name.c_str());
        return path;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // Recent files and other settings go to the temporary directory, not the user's.
        qputenv("XDG_CONFIG_HOME", dir_.filePath(QStringLiteral("config")).toUtf8());
        qputenv("XDG_DATA_HOME", dir_.filePath(QStringLiteral("data")).toUtf8());
        qputenv("LAYOUTBENCH_GUI_NO_DIALOGS", "1");
        QCoreApplication::setOrganizationName(QStringLiteral("layoutbench-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("layoutbench-gui-tests"));
        db_ = dir_.filePath(QStringLiteral("fixture.db"));
        auto created = lb::gui::test::createFixtureDatabase(db_.toStdString());
        QVERIFY2(created, created ? "" : created.error().message.c_str());
    }

    // A fresh database and the embedded scenario: the tab opens on quick.toml's raidz1 (its dir
    // has no capacity model), with its own kind, disks and sizes, and a use it can hold — not
    // the 1T that made the issue's "1020 disk(s) bought, first in month 0". A scenario whose
    // disks are block devices has no sizes until a campaign asks: "New layout…".
    void opensOnTheFirstLayoutWhoseDisksAreKnown() {
        auto w = openWindow(dir_.filePath(QStringLiteral("fresh.db")));
        ProjectionTab* tab = w->projectionTab();
        QCOMPARE(tab->layoutBox()->count(), 2);
        QCOMPARE(tab->layoutBox()->currentText(), QStringLiteral("raidz1"));
        QCOMPARE(tab->kindBox()->currentText(), QStringLiteral("zfs-raidz1"));
        QCOMPARE(tab->disksBox()->value(), 4);
        QCOMPARE(tab->diskSizeEdit()->text(), QStringLiteral("512MiB"));
        QCOMPARE(tab->underprovisionEdit()->text(), QStringLiteral("100%"));
        QVERIFY(!tab->kindBox()->isEnabled() && !tab->diskSizeEdit()->isEnabled());
        QVERIFY(!tab->rowShown(tab->capacityEdit()));
        QVERIFY2(tab->projection(), qPrintable(tab->summary()->text()));
        const lb::LayoutProjection& p = *tab->projection();
        const auto used = lb::parseSize(tab->usedEdit()->text().toStdString());
        QVERIFY2(used, qPrintable(tab->usedEdit()->text()));
        QVERIFY2(*used <= p.ceilingBytes / 2 && *used > p.ceilingBytes / 4,
                 qPrintable(tab->usedEdit()->text()));
        QVERIFY(p.ceilingMonth != std::optional<unsigned>(0));
        for (const auto& e : p.expansions)
            QVERIFY2(e.schedule.empty() || e.schedule.front().month > 0,
                     qPrintable(tab->summary()->text()));
        QVERIFY2(!tab->summary()->text().contains(QStringLiteral("first in month 0")),
                 qPrintable(tab->summary()->text()));
        // The same figures as `project` given the same layout (four 512 MiB file vdevs, as the
        // scenario records them: taken as they are, no GPT) and the use shown.
        expectCommandLineFigures(
            *tab,
            cliLayout({QStringLiteral("project"), QStringLiteral("--kind"),
                       QStringLiteral("zfs-raidz1"), QStringLiteral("--disks"), QStringLiteral("4"),
                       QStringLiteral("--disk-size"), QStringLiteral("512MiB"),
                       QStringLiteral("--used"), tab->usedEdit()->text(),
                       QStringLiteral("--growth"), QStringLiteral("30%")}));

        QFile seed(
            QStringLiteral(LAYOUTBENCH_SOURCE_DIR "/scenarios/seed-2019-bare-vs-guest.toml"));
        QVERIFY(seed.open(QIODevice::ReadOnly));
        w->scenarioTab()->setScenario(QString::fromUtf8(seed.readAll()), seed.fileName());
        QVERIFY(w->scenarioTab()->lastCheck().ok());
        QCOMPARE(tab->layoutBox()->count(), 1);
        QVERIFY(tab->newLayoutChosen());
        QVERIFY(tab->kindBox()->isEnabled());
        QVERIFY2(tab->projection(), qPrintable(tab->summary()->text()));
    }

    // The seed's two candidates, as their campaign recorded them: the tab opens on the bare
    // metal's raidz2, each candidate shows its own kind (the guest's inner md RAID6 and pool),
    // disks, sizes and 80 % partitions, and every figure equals `project --layout NAME --json`
    // for the same inputs; "New layout…" described as the guest is projected as it.
    void seedCandidatesEqualTheCommandLine() {
        const QString db = seedDatabase();
        auto w = openWindow(db);
        ProjectionTab* tab = w->projectionTab();
        QCOMPARE(tab->layoutBox()->currentText(), QStringLiteral("bare-raidz2"));
        const int drive = tab->driveBox()->findData(QStringLiteral("samsung-860-evo-500gb"));
        QVERIFY2(drive > 0, "the shipped catalog's 860 EVO");
        struct Candidate {
            QString name, kind, inner;
        };
        for (const Candidate& c : {Candidate{"bare-raidz2", "zfs-raidz2", ""},
                                   Candidate{"md6-guest-zfs", "guest", "md-raid6"}}) {
            tab->layoutBox()->setCurrentText(c.name);
            QCOMPARE(tab->kindBox()->currentText(), c.kind);
            QCOMPARE(tab->rowShown(tab->innerBox()), !c.inner.isEmpty());
            QCOMPARE(tab->rowShown(tab->guestPoolBox()), !c.inner.isEmpty());
            if (!c.inner.isEmpty()) {
                QCOMPARE(tab->innerBox()->currentText(), c.inner);
                QCOMPARE(tab->guestPoolBox()->currentText(), QStringLiteral("zfs-stripe"));
            }
            QCOMPARE(tab->disksBox()->value(), 10);
            QCOMPARE(tab->diskSizeEdit()->text(), QStringLiteral("500G"));
            QCOMPARE(tab->underprovisionEdit()->text(), QStringLiteral("80%"));
            QVERIFY(!tab->underprovisionEdit()->isEnabled());
            // ZFS's 80 % ceiling, the guest's pool on md included.
            QVERIFY2(tab->projection(), qPrintable(tab->summary()->text()));
            QCOMPARE(tab->projection()->ceilingFraction, 0.80);
            QVERIFY2(lb::parseSize(tab->usedEdit()->text().toStdString()).value() <=
                         tab->projection()->ceilingBytes / 2,
                     qPrintable(tab->usedEdit()->text()));
            expectCommandLineFigures(
                *tab, cliLayout({QStringLiteral("--db"), db, QStringLiteral("project"),
                                 QStringLiteral("--layout"), c.name, QStringLiteral("--used"),
                                 tab->usedEdit()->text(), QStringLiteral("--growth"),
                                 QStringLiteral("30%")}));
        }
        // The use, growth, drive and host writes typed, as the README's example types them.
        tab->driveBox()->setCurrentIndex(drive);
        tab->usedEdit()->setText(QStringLiteral("1T"));
        tab->hostWritesEdit()->setText(QStringLiteral("100G/d"));
        QVERIFY2(tab->recompute(), qPrintable(tab->summary()->text()));
        const QStringList settings{
            QStringLiteral("--used"),        QStringLiteral("1T"),
            QStringLiteral("--growth"),      QStringLiteral("30%"),
            QStringLiteral("--drive"),       QStringLiteral("samsung-860-evo-500gb"),
            QStringLiteral("--host-writes"), QStringLiteral("100G/d")};
        const QJsonObject guest =
            cliLayout(QStringList{QStringLiteral("--db"), db, QStringLiteral("project"),
                                  QStringLiteral("--layout"), QStringLiteral("md6-guest-zfs")} +
                      settings);
        expectCommandLineFigures(*tab, guest);
        QVERIFY(tab->projection()->wear && tab->projection()->cost);
        const lb::LayoutProjection stored = *tab->projection();
        w->tabs()->setCurrentWidget(tab);
        QTest::qWait(200);
        QVERIFY(w->grab().save(QStringLiteral(LAYOUTBENCH_SCREENSHOT_DIR) +
                               QStringLiteral("/projection-seed-guest.png")));

        // "New layout…" shows what was typed for it, never the stored layout's; described as the
        // guest, it is projected as `project --kind guest --inner md-raid6 --underprovision 80%`
        // and as the stored guest.
        tab->chooseNewLayout();
        QCOMPARE(tab->kindBox()->currentText(), QStringLiteral("zfs-raidz2"));
        QCOMPARE(tab->diskSizeEdit()->text(), QStringLiteral("4T"));
        QVERIFY(tab->kindBox()->isEnabled() && tab->underprovisionEdit()->isEnabled());
        describeNewLayout(*tab, QStringLiteral("guest"), 10, QStringLiteral("500G"),
                          QStringLiteral("0.8"), QStringLiteral("md-raid6"));
        QVERIFY2(tab->recompute(), qPrintable(tab->summary()->text()));
        expectCommandLineFigures(
            *tab, cliLayout(QStringList{QStringLiteral("project"), QStringLiteral("--kind"),
                                        QStringLiteral("guest"), QStringLiteral("--inner"),
                                        QStringLiteral("md-raid6"), QStringLiteral("--disks"),
                                        QStringLiteral("10"), QStringLiteral("--disk-size"),
                                        QStringLiteral("500G"), QStringLiteral("--underprovision"),
                                        QStringLiteral("80%")} +
                            settings));
        QCOMPARE(tab->projection()->capacity, stored.capacity);
        QCOMPARE(tab->projection()->months, stored.months);
        // Whole disks hold more: the underprovision field changes the projection as the flag.
        tab->underprovisionEdit()->setText(QStringLiteral("100%"));
        QVERIFY(tab->recompute());
        QVERIFY(tab->projection()->capacity.usableBytes > stored.capacity.usableBytes);
        QVERIFY(!tab->projection()->wholeDiskCapacity);
        // Back to the stored guest: its own fields again, the new layout's kept for later.
        tab->layoutBox()->setCurrentText(QStringLiteral("md6-guest-zfs"));
        QCOMPARE(tab->underprovisionEdit()->text(), QStringLiteral("80%"));
        tab->chooseNewLayout();
        QCOMPARE(tab->underprovisionEdit()->text(), QStringLiteral("100%"));
        QCOMPARE(tab->kindBox()->currentText(), QStringLiteral("guest"));
    }

    void projectionTabDrawsCapacityUseAndCeiling() {
        // The fixture's imported layouts record no disks; this one does.
        const QString path = dir_.filePath(QStringLiteral("projection.db"));
        {
            auto store = lb::Store::open(path.toStdString());
            QVERIFY2(store, store ? "" : store.error().message.c_str());
            auto host = store->ensureHost("storage1", "{}");
            QVERIFY(host);
            const std::string spec =
                R"({"kind":"zfs-raidz2","disk_bytes":[500000000000,500000000000,)"
                R"(500000000000,500000000000,500000000000,500000000000]})";
            QVERIFY(store->ensureLayout("raidz2-six", "zfs-raidz2", spec, *host));
            QVERIFY(store->ensureLayout("imported", "imported", R"({"imported":true})", *host));
        }
        MainWindow w;
        w.show();
        QSignalSpy opened(&w, &MainWindow::databaseOpened);
        w.openDatabase(path);
        QVERIFY(opened.wait(waitMs));
        ProjectionTab* tab = w.projectionTab();
        QVERIFY(tab);
        QVERIFY(w.tabs()->indexOf(tab) >= 0);
        QCOMPARE(w.tabs()->tabText(w.tabs()->indexOf(tab)), QStringLiteral("&Projection"));
        // The layout with a capacity model and the imported one are offered, then the open
        // scenario's (quick.toml's raidz1 of four 512 MiB files), then "New layout…".
        QCOMPARE(tab->layoutBox()->count(), 4);
        QCOMPARE(tab->layoutBox()->itemText(2), QStringLiteral("raidz1"));
        // Its first layout whose disks are known is shown when a database is opened.
        QCOMPARE(tab->layoutBox()->currentText(), QStringLiteral("raidz2-six"));
        QVERIFY(!tab->rowShown(tab->capacityEdit()));
        QVERIFY(!tab->rowShown(tab->importedDisksEdit()));
        // What describes a new layout shows the stored one's own, greyed.
        QVERIFY(!tab->newLayoutChosen());
        QVERIFY(!tab->kindBox()->isEnabled());
        QVERIFY(!tab->disksBox()->isEnabled());
        QVERIFY(!tab->diskSizeEdit()->isEnabled());
        QCOMPARE(tab->kindBox()->currentText(), QStringLiteral("zfs-raidz2"));
        QCOMPARE(tab->disksBox()->value(), 6);
        QCOMPARE(tab->diskSizeEdit()->text(), QStringLiteral("500G"));
        QCOMPARE(tab->underprovisionEdit()->text(), QStringLiteral("100%"));
        QVERIFY(!tab->rowShown(tab->innerBox()));
        tab->usedEdit()->setText(QStringLiteral("1T"));
        tab->growthEdit()->setText(QStringLiteral("30%"));
        tab->hostWritesEdit()->setText(QStringLiteral("50G/d"));
        QVERIFY(tab->recompute());
        QStringList names;
        for (int i = 0; i < tab->plot()->graphCount(); ++i)
            names << tab->plot()->graph(i)->name();
        QVERIFY2(names.contains(QStringLiteral("usable")), qPrintable(names.join(',')));
        QVERIFY(names.contains(QStringLiteral("used")));
        QVERIFY(names.contains(QStringLiteral("ceiling")));
        QCOMPARE(tab->plot()->graph(0)->data()->size(), 61); // months 0..60
        QVERIFY2(tab->summary()->text().contains(QStringLiteral("month")),
                 qPrintable(tab->summary()->text()));
        QVERIFY(tab->summary()->text().contains(QStringLiteral("Wear")));
        // The buyer's price and write amplification, as `project --price --write-amplification`
        // takes them: six 500 GB disks at $25 per TB cost $75, and the model's 1.50 is named.
        QVERIFY(!tab->summary()->text().contains(QStringLiteral("Cost over")));
        tab->priceEdit()->setText(QStringLiteral("25/TB"));
        tab->writeAmplificationEdit()->setText(QStringLiteral("2.5"));
        QVERIFY2(tab->recompute(), qPrintable(tab->summary()->text()));
        QVERIFY2(tab->summary()->text().contains(QStringLiteral("Cost over 5 years: $")),
                 qPrintable(tab->summary()->text()));
        QVERIFY2(
            tab->summary()->text().contains(QStringLiteral("the disks $75 (price given: 25/TB)")),
            qPrintable(tab->summary()->text()));
        QVERIFY2(tab->summary()->text().contains(QStringLiteral(
                     "write amplification 2.50 (given; the layout's model says 1.50)")),
                 qPrintable(tab->summary()->text()));
        tab->writeAmplificationEdit()->setText(QStringLiteral("0.5"));
        QVERIFY(!tab->recompute());
        QVERIFY2(tab->summary()->text().startsWith(QStringLiteral("Write amplification: ")),
                 qPrintable(tab->summary()->text()));
        tab->writeAmplificationEdit()->clear();
        tab->priceEdit()->clear();
        // Bad input: the summary names the field by its label, the chart is cleared.
        tab->growthEdit()->setText(QStringLiteral("-5%"));
        QVERIFY(!tab->recompute());
        QVERIFY2(tab->summary()->text().startsWith(QStringLiteral("Growth per year: ")),
                 qPrintable(tab->summary()->text()));
        QCOMPARE(tab->plot()->graphCount(), 0);

        // The use typed in TiB: sizes in TiB, as `project --layout raidz2-six --used 1TiB` says.
        tab->growthEdit()->setText(QStringLiteral("30%"));
        tab->usedEdit()->setText(QStringLiteral("1TiB"));
        QVERIFY2(tab->recompute(), qPrintable(tab->summary()->text()));
        const CliResult projected =
            cli({QStringLiteral("--db"), path, QStringLiteral("project"),
                 QStringLiteral("--layout"), QStringLiteral("raidz2-six"), QStringLiteral("--used"),
                 QStringLiteral("1TiB"), QStringLiteral("--growth"), QStringLiteral("30%")});
        QVERIFY2(projected.exitCode == 0, qPrintable(projected.err));
        const QString usable = cliUsable(projected.out);
        QVERIFY2(usable.endsWith(QStringLiteral(" TiB")), qPrintable(projected.out));
        QVERIFY2(tab->summary()->text().startsWith(QStringLiteral("Usable ") + usable + ", "),
                 qPrintable(tab->summary()->text() + " / " + usable));
    }

    // An imported layout records no disks: the tab asks for its usable capacity rather than
    // draw an empty chart, and projects against it through the same engine path as the
    // command line's --capacity.
    void projectionTabProjectsAnImportedLayoutAgainstItsCapacity() {
        auto w = openFixture();
        ProjectionTab* tab = w->projectionTab();
        // The fixture's two layouts are both imported; then the scenario's raidz1, whose disks
        // are known and which the tab opens on; then "New layout…".
        QCOMPARE(tab->layoutBox()->count(), 4);
        QCOMPARE(tab->layoutBox()->currentText(), QStringLiteral("raidz1"));
        tab->layoutBox()->setCurrentText(QStringLiteral("guest"));
        QVERIFY(tab->rowShown(tab->capacityEdit()));
        QVERIFY(tab->rowShown(tab->importedDisksEdit()));
        // No kind, disks or sizes are known of it: none are shown, another layout's least of all.
        for (QWidget* field : std::initializer_list<QWidget*>{
                 tab->kindBox(), tab->innerBox(), tab->guestPoolBox(), tab->disksBox(),
                 tab->diskSizeEdit(), tab->underprovisionEdit()})
            QVERIFY2(!tab->rowShown(field), qPrintable(field->objectName()));
        // Nothing to suggest a use from: not the last layout's suggestion either.
        QVERIFY(tab->usedEdit()->text().isEmpty());
        QVERIFY(!tab->driveBox()->isEnabled());
        QVERIFY(!tab->hostWritesEdit()->isEnabled());
        tab->usedEdit()->setText(QStringLiteral("5T"));
        tab->growthEdit()->setText(QStringLiteral("2TB/y"));
        QVERIFY(!tab->recompute());
        QVERIFY2(tab->summary()->text().contains(QStringLiteral("guest holds imported results")),
                 qPrintable(tab->summary()->text()));
        QVERIFY(tab->summary()->text().contains(QStringLiteral("usable capacity")));
        QCOMPARE(tab->plot()->graphCount(), 0);

        tab->capacityEdit()->setText(QStringLiteral("12T"));
        QVERIFY2(tab->recompute(), qPrintable(tab->summary()->text()));
        QStringList names;
        for (int i = 0; i < tab->plot()->graphCount(); ++i)
            names << tab->plot()->graph(i)->name();
        QVERIFY2(names.contains(QStringLiteral("usable")), qPrintable(names.join(',')));
        QVERIFY(names.contains(QStringLiteral("used")));
        QVERIFY(names.contains(QStringLiteral("ceiling")));
        QCOMPARE(tab->plot()->graph(0)->data()->size(), 61);
        // 12 TB at the 0.90 ceiling of a layout of no known kind: 10.8 TB, passed in month 35
        // (5 TB growing 2 TB a year), as `layoutbench project --capacity` says.
        const QString text = tab->summary()->text();
        QVERIFY2(text.contains(QStringLiteral("Usable 12.00 TB (given)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("month 35")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("disks are unknown")), qPrintable(text));

        // A bad size names the field by its label.
        tab->capacityEdit()->setText(QStringLiteral("12X"));
        QVERIFY(!tab->recompute());
        QVERIFY2(tab->summary()->text().startsWith(QStringLiteral("Capacity: ")),
                 qPrintable(tab->summary()->text()));
        QCOMPARE(tab->plot()->graphCount(), 0);

        // Each imported layout keeps the capacity typed for it.
        tab->capacityEdit()->setText(QStringLiteral("12T"));
        QVERIFY(tab->recompute());
        tab->layoutBox()->setCurrentText(QStringLiteral("bare-metal"));
        QVERIFY(tab->capacityEdit()->text().isEmpty());
        QVERIFY(!tab->recompute());
        tab->layoutBox()->setCurrentText(QStringLiteral("guest"));
        QCOMPARE(tab->capacityEdit()->text(), QStringLiteral("12T"));
        QVERIFY(tab->recompute());

        // Its disks instead, as `project --imported-disks` takes them: modelled as built ones,
        // priced and worn; the figures are the command line's.
        tab->layoutBox()->setCurrentText(QStringLiteral("bare-metal"));
        tab->usedEdit()->clear(); // a use it can hold, once its disks are known
        tab->importedDisksEdit()->setText(QStringLiteral("zfs-raidz2,10,500G,80%"));
        emit tab->importedDisksEdit()->editingFinished();
        QVERIFY2(tab->projection(), qPrintable(tab->summary()->text()));
        QVERIFY(tab->driveBox()->isEnabled());
        QVERIFY(!tab->usedEdit()->text().isEmpty());
        tab->hostWritesEdit()->setText(QStringLiteral("100G/d"));
        QVERIFY2(tab->recompute(), qPrintable(tab->summary()->text()));
        const QJsonObject json = cliLayout(
            {QStringLiteral("--db"), db_, QStringLiteral("project"), QStringLiteral("--layout"),
             QStringLiteral("bare-metal"), QStringLiteral("--imported-disks"),
             QStringLiteral("bare-metal=zfs-raidz2,10,500G,80%"), QStringLiteral("--used"),
             tab->usedEdit()->text(), QStringLiteral("--growth"), QStringLiteral("2TB/y"),
             QStringLiteral("--host-writes"), QStringLiteral("100G/d")});
        QVERIFY(!json.isEmpty());
        expectCommandLineFigures(*tab, json);
        // Both given: the engine asks for one.
        tab->capacityEdit()->setText(QStringLiteral("3T"));
        QVERIFY(!tab->recompute());
        QVERIFY2(tab->summary()->text().startsWith(QStringLiteral("Its disks: ")),
                 qPrintable(tab->summary()->text()));
    }

    // "New layout…" projects a layout that does not exist yet exactly as `layoutbench project
    // --kind K --disks N --disk-size S` does: the same usable bytes and the same ceiling month in
    // the summary and the plot, the same expansion paths, and sizes in the unit they were typed
    // in (TiB in, TiB out).
    void projectionTabProjectsANewLayoutAsTheCommandLineDoes() {
        ProjectionTab tab;
        // Without a database, "New layout…" is all there is to choose, and it is chosen.
        QCOMPARE(tab.layoutBox()->count(), 1);
        QVERIFY(tab.newLayoutChosen());
        QVERIFY(tab.kindBox()->isEnabled());
        QVERIFY(tab.disksBox()->isEnabled());
        QVERIFY(tab.diskSizeEdit()->isEnabled());
        QVERIFY(!tab.rowShown(tab.capacityEdit()));
        QVERIFY(tab.driveBox()->isEnabled());
        // Every kind the capacity model knows, and a guest; no other.
        QCOMPARE(tab.kindBox()->count(), static_cast<int>(lb::diskLayoutKinds().size()) + 1);
        for (const lb::LayoutKind k : lb::diskLayoutKinds())
            QVERIFY(tab.kindBox()->findText(QString::fromUtf8(lb::layoutKindName(k))) >= 0);
        QVERIFY(tab.kindBox()->findText(QStringLiteral("guest")) >= 0);
        // One drive, for the case without a disk size: the disks are the drive's size.
        const QString catalogPath = writeFile(QStringLiteral("projection-drives.toml"),
                                              QStringLiteral("[[drive]]\nid = \"ssd\"\n"
                                                             "model = \"Test SSD 1TB\"\n"
                                                             "medium = \"ssd\"\n"
                                                             "capacity_bytes = 1_000_000_000_000\n"
                                                             "tbw = 600\nwarranty_years = 5\n"
                                                             "price_usd = 80\n"));
        auto catalog = lb::loadDriveCatalog(catalogPath.toStdString());
        QVERIFY2(catalog, catalog ? "" : catalog.error().message.c_str());
        tab.setCatalog(*catalog);

        struct Case {
            QString kind;
            int disks; // 0: not given (one disk per size)
            QString diskSize, used, growth;
            bool binary;   // sizes said in TiB
            QString drive; // "": none
            QString underprovision = QStringLiteral("100%"), inner = {};
        };
        const Case cases[] = {
            {"zfs-raidz2", 10, "500G", "1T", "30%", false, ""},
            {"md-raid6", 10, "500G", "1T", "30%", false, ""},
            {"md-raid6", 6, "4TiB", "10TiB", "30%", true, ""},
            {"zfs-raidz1", 5, "4T", "3TiB", "2TB/y", true, ""},
            {"zfs-draid2", 12, "4T", "3T", "2TB/y", false, ""},
            {"zfs-mirror", 0, "1T,1T", "200G", "50%", false, ""},
            {"zfs-mirror", 2, "", "200G", "50%", false, "ssd"},
            // The seed's 80 % partitions, as a fraction or a percentage, and its guest.
            {"zfs-raidz2", 10, "500G", "1T", "30%", false, "", "80%"},
            {"zfs-raidz2", 10, "500G", "1T", "30%", false, "", "0.8"},
            {"md-raid6", 10, "500G", "1T", "30%", false, "", "80 %"},
            {"guest", 10, "500G", "1T", "30%", false, "", "80%", "md-raid6"},
            {"guest", 8, "2TiB", "1TiB", "30%", true, "", "90%", "md-raid10"},
        };
        for (const Case& c : cases) {
            const QString name = QStringLiteral("%1 x%2 %3 from %4 at %5")
                                     .arg(c.kind)
                                     .arg(c.disks)
                                     .arg(c.diskSize, c.used, c.growth);
            tab.driveBox()->setCurrentIndex(c.drive.isEmpty() ? 0
                                                              : tab.driveBox()->findData(c.drive));
            describeNewLayout(tab, c.kind, c.disks, c.diskSize, c.underprovision, c.inner);
            QCOMPARE(tab.rowShown(tab.innerBox()), !c.inner.isEmpty());
            QCOMPARE(tab.rowShown(tab.guestPoolBox()), !c.inner.isEmpty());
            tab.usedEdit()->setText(c.used);
            tab.growthEdit()->setText(c.growth);
            QVERIFY2(tab.recompute(), qPrintable(name + ": " + tab.summary()->text()));
            const QString text = tab.summary()->text();

            QStringList args{QStringLiteral("project"),
                             QStringLiteral("--kind"),
                             c.kind,
                             QStringLiteral("--used"),
                             c.used,
                             QStringLiteral("--growth"),
                             c.growth};
            if (c.disks > 0)
                args << QStringLiteral("--disks") << QString::number(c.disks);
            if (!c.diskSize.isEmpty())
                args << QStringLiteral("--disk-size") << c.diskSize;
            if (!c.drive.isEmpty())
                args << QStringLiteral("--drive") << c.drive << QStringLiteral("--catalog")
                     << catalogPath;
            args << QStringLiteral("--underprovision") << c.underprovision;
            if (!c.inner.isEmpty())
                args << QStringLiteral("--inner") << c.inner << QStringLiteral("--guest-pool")
                     << QStringLiteral("zfs-stripe");
            expectCommandLineFigures(tab, cliLayout(args));
            const CliResult json = cli(args + QStringList{QStringLiteral("--json")});
            QVERIFY2(json.exitCode == 0, qPrintable(name + ": " + json.err));
            const QJsonObject layout = QJsonDocument::fromJson(json.out.toUtf8())
                                           .object()
                                           .value(u"layouts")
                                           .toArray()
                                           .at(0)
                                           .toObject();
            const auto usableBytes =
                static_cast<std::uint64_t>(layout.value(u"usable_bytes").toInteger());
            QVERIFY2(usableBytes > 0, qPrintable(name + ": " + json.out));
            QCOMPARE(layout.value(u"disks").toInt(), c.disks > 0 ? c.disks : 2);

            // The usable bytes, said as the command line says them, in the unit typed.
            const CliResult said = cli(args);
            QVERIFY2(said.exitCode == 0, qPrintable(name + ": " + said.err));
            const QString usable = cliUsable(said.out);
            QCOMPARE(usable, QString::fromStdString(lb::formatBytes(usableBytes, c.binary)));
            QVERIFY2(text.startsWith(QStringLiteral("Usable ") + usable + ", "),
                     qPrintable(name + ": " + text + " / " + usable));
            QVERIFY2(text.contains(QStringLiteral("TiB")) == c.binary,
                     qPrintable(name + ": " + text));
            QVERIFY2(text.contains(QRegularExpression(QStringLiteral("[0-9] [kMGTP]B\\b"))) ==
                         !c.binary,
                     qPrintable(name + ": " + text));

            // The ceiling month, in the summary and where the plot's use crosses its ceiling.
            const QJsonValue month = layout.value(u"ceiling_month");
            if (month.isNull()) {
                QVERIFY2(text.contains(QStringLiteral("the ceiling is not passed within 5 years")),
                         qPrintable(name + ": " + text));
                QCOMPARE(plottedCeilingMonth(tab.plot()), -1);
            } else {
                QVERIFY2(
                    text.contains(QStringLiteral("the ceiling is passed in month %1 without")
                                      .arg(month.toInt())),
                    qPrintable(name + ": " + text + " / month " + QString::number(month.toInt())));
                QCOMPARE(plottedCeilingMonth(tab.plot()), month.toInt());
            }
            QCOMPARE(tab.plot()->graph(0)->data()->size(), 61); // months 0..60

            // The same expansion paths, each with the disks it buys.
            const QJsonArray expansions = layout.value(u"expansions").toArray();
            for (const QJsonValue& e : expansions) {
                const QString line = QStringLiteral("%1: %2 disk(s) a step, %3 disk(s) bought")
                                         .arg(e[u"path"].toString())
                                         .arg(e[u"disks_per_step"].toInt())
                                         .arg(e[u"disks_bought"].toInt());
                QVERIFY2(text.contains(line), qPrintable(name + ": " + text + " / " + line));
            }
        }
    }

    // Issue 44: a layout's measured fill levels on its projection, the month each is reached
    // and the figure measured there, as the engine says it (tieFillLevels); nothing for a layout
    // not measured filled.
    void projectionTabTiesMeasuredFillLevels() {
        auto w = openWindow(dir_.filePath(QStringLiteral("fill.db")));
        ProjectionTab* tab = w->projectionTab();
        QCOMPARE(tab->layoutBox()->currentText(), QStringLiteral("raidz1"));
        QVERIFY(tab->recompute());
        QVERIFY(tab->fillLabel()->text().isEmpty());
        lb::FillMeasured measured;
        measured.layout = "raidz1";
        measured.lowest = 0.0;
        measured.above = {{0.5, "fio.rand-write-4k-qd32.write.iops", 1.9}};
        measured.ageingBytes = 60000000;
        tab->setFillLevels({{"raidz1", measured}});
        QVERIFY2(tab->recompute(), qPrintable(tab->summary()->text()));
        const lb::FillProjection expected = lb::tieFillLevels(measured, *tab->projection());
        const QString text = tab->fillLabel()->text();
        QVERIFY2(text.contains(QString::fromStdString(expected.today)), qPrintable(text));
        QVERIFY2(text.contains(QString::fromStdString(expected.milestones.front().text)),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("takes 1.90× the time it takes at 0 %")),
                 qPrintable(text));
        QVERIFY2(text.contains(QString::fromStdString(expected.beyond)), qPrintable(text));
        // What the ageing wrote, beside the wear (issue 44, item 5).
        QVERIFY2(text.contains(QStringLiteral("ageing: wrote 60.00 MB on this layout")),
                 qPrintable(text));
        QVERIFY2(text.contains(QString::fromStdString(expected.ageing.text)), qPrintable(text));
        tab->setFillLevels({});
        QVERIFY(tab->recompute());
        QVERIFY(tab->fillLabel()->text().isEmpty());
    }

    // Bad input in a new layout is said as the engine says it, the field named by its label (the
    // command line names its flag), and the chart is cleared.
    void projectionTabSaysWhatIsWrongWithANewLayout() {
        ProjectionTab tab;
        tab.setCatalog({});
        tab.usedEdit()->setText(QStringLiteral("1T"));
        tab.growthEdit()->setText(QStringLiteral("30%"));
        struct Bad {
            QString kind;
            int disks;
            QString diskSize, label, flag;
        };
        const Bad bad[] = {
            {"md-raid6", 3, "1T", "Disks", "--disks"},                       // too few for the kind
            {"md-raid10", 5, "1T", "Disks", "--disks"},                      // not pairs of mirrors
            {"zfs-raidz2", 6, "5x", "Disk size", "--disk-size"},             // not a size
            {"zfs-raidz2", 6, "10M", "Disk size", "--disk-size"},            // too small for ZFS
            {"zfs-raidz2", 6, "0", "Disk size", "--disk-size"},              // nothing
            {"zfs-raidz2", 3, "1T,1T,1T,1T", "Disk size", "--disk-size"},    // not one a disk
            {"zfs-raidz2", 6, "100M", "Underprovision", "--underprovision"}, // 1 % is too small
        };
        for (const Bad& b : bad) {
            const QString partitioned = b.label == QStringLiteral("Underprovision")
                                            ? QStringLiteral("1%")
                                            : QStringLiteral("100%");
            describeNewLayout(tab, b.kind, b.disks, b.diskSize, partitioned);
            QVERIFY2(!tab.recompute(), qPrintable(b.kind + " " + b.diskSize));
            const CliResult r =
                cli({QStringLiteral("project"), QStringLiteral("--kind"), b.kind,
                     QStringLiteral("--disks"), QString::number(b.disks),
                     QStringLiteral("--disk-size"), b.diskSize, QStringLiteral("--underprovision"),
                     partitioned, QStringLiteral("--used"), QStringLiteral("1T"),
                     QStringLiteral("--growth"), QStringLiteral("30%")});
            QCOMPARE(r.exitCode, 2);
            const QString prefix = QStringLiteral("layoutbench: ") + b.flag + QStringLiteral(": ");
            QVERIFY2(r.err.startsWith(prefix), qPrintable(r.err));
            QCOMPARE(tab.summary()->text(), b.label + ": " + r.err.mid(prefix.size()).trimmed());
            QCOMPARE(tab.plot()->graphCount(), 0);
        }
        // What the command line cannot be given: 0 disks (--disks takes 1 to 1024), no size and
        // no drive (it asks for the flag).
        describeNewLayout(tab, QStringLiteral("zfs-raidz2"), 0, QStringLiteral("1T"));
        QVERIFY(!tab.recompute());
        // No disks is named as missing, as the command line names a missing --disks.
        QVERIFY2(
            tab.summary()->text().startsWith(QStringLiteral("Disks: required (how many disks)")),
            qPrintable(tab.summary()->text()));
        describeNewLayout(tab, QStringLiteral("zfs-raidz2"), 6, QString());
        QVERIFY(!tab.recompute());
        QVERIFY2(tab.summary()->text().startsWith(QStringLiteral("Disk size: required")),
                 qPrintable(tab.summary()->text()));
        QCOMPARE(tab.plot()->graphCount(), 0);
        // Not a fraction: read as the command line's --underprovision reads it (parseFraction).
        describeNewLayout(tab, QStringLiteral("zfs-raidz2"), 6, QStringLiteral("1T"),
                          QStringLiteral("most"));
        QVERIFY(!tab.recompute());
        QVERIFY2(tab.summary()->text().startsWith(QStringLiteral("Underprovision: ")),
                 qPrintable(tab.summary()->text()));
        QCOMPARE(tab.plot()->graphCount(), 0);
        // Put right, it projects again.
        tab.underprovisionEdit()->setText(QStringLiteral("100%"));
        tab.diskSizeEdit()->setText(QStringLiteral("1T"));
        QVERIFY2(tab.recompute(), qPrintable(tab.summary()->text()));
        QVERIFY(tab.plot()->graphCount() >= 3);
    }
};

QTEST_MAIN(ProjectionTabTest)
#include "projection_tab_test.moc"
