// GUI tests of layoutbench-gui (QtTest, run under QT_QPA_PLATFORM=offscreen) against a fixture
// database imported from the real tools' golden files: the comparison table's verdicts and
// colours, the charts' series and threshold bands, chart export and hover, the scenario editor's
// live validation and capacity list, the runs model's sorting and filtering, runs of several
// machines kept apart (a host column, a host choice for the comparison), the window's size on
// a 1366×768 screen, recent files, real campaigns (run, stop, resume) on a dir layout, the typed
// confirmation before a campaign destroys block devices, and the plan shown before anything runs.
#include "app/gui/campaign_controller.h"
#include "app/gui/campaign_queue_model.h"
#include "app/gui/campaign_tab.h"
#include "app/gui/capacity_model.h"
#include "app/gui/charts_tab.h"
#include "app/gui/comparison_model.h"
#include "app/gui/destroy_confirm_dialog.h"
#include "app/gui/import_dialog.h"
#include "app/gui/main_window.h"
#include "app/gui/plan_view.h"
#include "app/gui/recent_files.h"
#include "app/gui/report_dialog.h"
#include "app/gui/results_tab.h"
#include "app/gui/runs_model.h"
#include "app/gui/scenario_tab.h"
#include "app/gui/scenario_text.h"
#include "app/gui/store_service.h"
#include "engine/capacity/drive_catalog.h"
#include "engine/capacity/layout.h"
#include "engine/scenario/scenario_edit.h"
#include "engine/store/store.h"
#include "reports/chart_model.h"
#include "reports/charts.h"
#include "reports/report.h"
#include "reports/svg_chart.h"
#include "tests/gui/fixture.h"
#include "tests/support/chart_figures.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <qcustomplot.h>

using namespace lb::gui;

namespace {

constexpr int waitMs = 20000;

// The row of a metric in the comparison model, or -1.
int metricRow(const ComparisonModel& model, const QString& metric) {
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.data(model.index(r, ComparisonModel::Metric)).toString() == metric)
            return r;
    return -1;
}

QColor background(const QAbstractItemModel& model, int row, int column) {
    return model.data(model.index(row, column), Qt::BackgroundRole).value<QBrush>().color();
}

template <typename T> QList<T*> plottables(QCustomPlot* plot) {
    QList<T*> out;
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto* p = qobject_cast<T*>(plot->plottable(i)))
            out << p;
    return out;
}

lb::RunSummary summary(std::int64_t id, const std::string& layout, const std::string& workload,
                       lb::RunStatus status, double seconds, const std::string& reason = {}) {
    lb::RunSummary s;
    s.id = id;
    s.layout = layout;
    s.workload = workload;
    s.status = status;
    s.wallSeconds = seconds;
    s.reason = reason;
    return s;
}

// A review of one zfs-mirror layout on two block devices: the first inspected (serial known,
// blank), the second not inspectable.
lb::CampaignReview mirrorReview() {
    lb::CampaignReview review;
    review.scenario = "destroy";
    lb::PlannedLayout layout;
    layout.name = "mirror";
    layout.kind = "zfs-mirror";
    layout.devices = {"/dev/lbtest-a", "/dev/lbtest-b"};
    lb::PlanStep create;
    create.description = "create pool lb-mirror";
    create.command.program = "zpool";
    create.command.args = {"create", "lb-mirror", "mirror", "/dev/lbtest-a", "/dev/lbtest-b"};
    lb::Command destroy;
    destroy.program = "zpool";
    destroy.args = {"destroy", "-f", "lb-mirror"};
    create.undo = destroy;
    layout.steps.push_back(create);
    review.layouts.push_back(layout);
    lb::DeviceReview a;
    a.path = "/dev/lbtest-a";
    a.disk = "a";
    a.wipe = true;
    a.layouts = {"mirror"};
    a.state = lb::DiskState{"/dev/lbtest-a", "SER-A", {}, "/dev/sdz"};
    lb::DeviceReview b;
    b.path = "/dev/lbtest-b";
    b.disk = "b";
    b.layouts = {"mirror"};
    b.inspectError = "/dev/lbtest-b: not a block device";
    review.devices = {a, b};
    return review;
}

// The rows of a plan model as "command => undo".
QStringList planLines(const PlanModel& model) {
    QStringList out;
    for (int r = 0; r < model.rowCount(); ++r)
        out << model.index(r, PlanModel::Command).data().toString() + QStringLiteral(" => ") +
                   model.index(r, PlanModel::Undo).data().toString();
    return out;
}

// What the engine was given, recorded by the campaign function the tests put in its place.
struct EngineCalls {
    std::mutex mutex;
    int calls = 0;
    std::vector<std::string> yesDestroy;
    std::vector<std::string> inspected;
    bool inspectedOffGuiThread = true;
};

// The controller with the engine's two entry points replaced: block devices are answered for
// (serial SER-<last letter>, blank), the campaign records its options and reports done.
void fakeEngine(CampaignController* controller, const std::shared_ptr<EngineCalls>& calls) {
    controller->setRunnerFactory([] { return std::make_unique<lb::RecordingRunner>(); });
    QThread* gui = QThread::currentThread();
    controller->setDiskInspector(
        [calls, gui](lb::Runner&, const std::string& device) -> lb::Expected<lb::DiskState> {
            std::lock_guard lock(calls->mutex);
            calls->inspected.push_back(device);
            calls->inspectedOffGuiThread =
                calls->inspectedOffGuiThread && QThread::currentThread() != gui;
            return lb::DiskState{device, "SER-" + device.substr(device.size() - 1), {}, device};
        });
    controller->setCampaignFunction(
        [calls](lb::Store&, const lb::Scenario&, const lb::ProbeRegistry&, lb::Runner&,
                const lb::CampaignOptions& options) -> lb::Expected<lb::CampaignResult> {
            std::lock_guard lock(calls->mutex);
            ++calls->calls;
            calls->yesDestroy = options.yesDestroy;
            lb::CampaignResult result;
            result.campaignId = 1;
            result.status = lb::CampaignStatus::Done;
            return result;
        });
}

} // namespace

class GuiTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString db_;

    // A main window with the fixture database open and its first comparison shown.
    // A main window with the fixture database open: its runs, its first comparison and that
    // comparison's charts shown (they arrive in no fixed order).
    std::unique_ptr<MainWindow> openFixture() {
        auto w = std::make_unique<MainWindow>();
        w->show();
        QSignalSpy opened(w.get(), &MainWindow::databaseOpened);
        QSignalSpy shown(w.get(), &MainWindow::comparisonShown);
        QSignalSpy charts(w.get(), &MainWindow::chartsShown);
        w->openDatabase(db_);
        for (QSignalSpy* spy : {&opened, &shown, &charts})
            if (spy->isEmpty() && !spy->wait(waitMs))
                qWarning("%s: no %s", qPrintable(db_), spy->signal().constData());
        return w;
    }

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

    QString writeFile(const QString& name, const QString& text) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
        f.write(text.toUtf8());
        return path;
    }

    // A scenario that runs anywhere: one dir layout in the temporary directory, no cache drop.
    QString dirScenario(const QString& name, const QString& workloads) {
        QDir().mkpath(dir_.filePath(name + QStringLiteral("-dir")));
        return QStringLiteral("name = \"%1\"\niterations = 1\nwork_dir = \"%2\"\n"
                              "drop_caches = false\n\n[[layouts]]\nname = \"dir\"\nkind = \"dir\"\n"
                              "path = \"%3\"\nbaseline = true\n\n")
                   .arg(name, dir_.filePath(name + QStringLiteral("-work")),
                        dir_.filePath(name + QStringLiteral("-dir"))) +
               workloads;
    }

    // A dir baseline and a zfs-mirror of two disks: block devices (the second marked wipe) or
    // sparse files.
    QString mirrorScenario(const QString& name, bool devices) {
        QString disks;
        for (const QString& d : {QStringLiteral("a"), QStringLiteral("b")})
            disks += devices
                         ? QStringLiteral("[[disks]]\nname = \"%1\"\ndevice = \"/dev/lbtest-%1\"\n"
                                          "%2\n")
                               .arg(d, d == QStringLiteral("b") ? QStringLiteral("wipe = true\n")
                                                                : QString())
                         : QStringLiteral("[[disks]]\nname = \"%1\"\nfile = \"%1.img\"\n"
                                          "size = \"64MiB\"\n\n")
                               .arg(d);
        QString text = dirScenario(name, QStringLiteral("[[workloads]]\nprobe = \"randfile\"\n"
                                                        "size = \"1MiB\"\n"));
        return text.replace(QStringLiteral("[[layouts]]"), disks + QStringLiteral("[[layouts]]")) +
               QStringLiteral("\n[[layouts]]\nname = \"mirror\"\nkind = \"zfs-mirror\"\n"
                              "disks = [\"a\", \"b\"]\n");
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

    // --- Results: the comparison table -------------------------------------------------------

    void comparisonShowsDecisionForPutBlock() {
        auto w = openFixture();
        ResultsTab* results = w->resultsTab();
        QCOMPARE(w->tabs()->currentWidget(), static_cast<QWidget*>(results));
        QCOMPARE(results->baselineBox()->currentText(), QStringLiteral("bare-metal"));
        QCOMPARE(results->candidateBox()->currentText(), QStringLiteral("guest"));

        const ComparisonModel& model = *results->comparisonModel();
        const int row = metricRow(model, QStringLiteral("bonnie.put_block"));
        QVERIFY(row >= 0);
        QCOMPARE(model.data(model.index(row, ComparisonModel::Verdict)).toString(),
                 QStringLiteral("decision"));
        QCOMPARE(model.data(model.index(row, ComparisonModel::Ratio)).toString(),
                 QStringLiteral("1.58"));
        QCOMPARE(model.data(model.index(row, ComparisonModel::Overhead)).toString(),
                 QStringLiteral("+58.0 %"));
        QCOMPARE(background(model, row, ComparisonModel::Verdict),
                 QColor(lb::charts::verdictColor(lb::Verdict::Decision)));
        // One sample each cannot estimate its own noise: never confident, and it says why.
        QCOMPARE(model.data(model.index(row, ComparisonModel::Confident)).toString(),
                 QStringLiteral("no: too few runs: 1 and 1"));
        QCOMPARE(model.data(model.index(row, ComparisonModel::Interval)).toString(),
                 QStringLiteral("—"));

        // What the view shows goes through the sort proxy: the same cell, the same colour.
        QAbstractItemModel* shown = results->comparisonView()->model();
        int shownRow = -1;
        for (int r = 0; r < shown->rowCount(); ++r)
            if (shown->index(r, ComparisonModel::Metric).data().toString() ==
                QStringLiteral("bonnie.put_block"))
                shownRow = r;
        QVERIFY(shownRow >= 0);
        QCOMPARE(background(*shown, shownRow, ComparisonModel::Verdict),
                 QColor(lb::charts::verdictColor(lb::Verdict::Decision)));

        // The overall verdict and its reason are spelled out above the table.
        QVERIFY2(results->summaryLabel()->text().contains(QStringLiteral("put_block")),
                 qPrintable(results->summaryLabel()->text()));
        // And what to do next, as the report's first page says: one run a side is too few.
        QVERIFY2(results->summaryLabel()->text().contains(QStringLiteral(
                     "<b>Next step:</b> import 2 more runs of bonnie and fio for both "
                     "layouts (3 a side)")),
                 qPrintable(results->summaryLabel()->text()));
    }

    // The table opens in the verdict's order, as `layoutbench compare` and the report list the
    // metrics: deciding ones first, the worst verdict first, the largest cost first within one.
    // A click on a header still sorts by that column.
    void comparisonOpensWorstFirst() {
        auto w = openFixture();
        ResultsTab* results = w->resultsTab();
        const ComparisonModel& model = *results->comparisonModel();
        QAbstractItemModel* shown = results->comparisonView()->model();
        QCOMPARE(results->comparisonView()->horizontalHeader()->sortIndicatorSection(),
                 static_cast<int>(ComparisonModel::Verdict));
        QVERIFY(shown->rowCount() > 3);
        std::vector<lb::MetricComparison> order;
        for (int r = 0; r < shown->rowCount(); ++r) {
            const QString name = shown->index(r, ComparisonModel::Metric).data().toString();
            const int row = metricRow(model, name);
            QVERIFY(row >= 0);
            order.push_back(model.comparison().metrics[static_cast<std::size_t>(row)]);
        }
        QVERIFY(std::is_sorted(order.begin(), order.end(), lb::worstFirst));
        // put_block, 58 % more time per byte, is the worst deciding metric: the first row.
        QCOMPARE(order.front().name, std::string("bonnie.put_block"));
        QVERIFY(order.front().decisive);
        // Shown-only metrics (put_block's single slowest write, not viable) come after.
        QVERIFY(!order.back().decisive);
        // The order is not the alphabet's.
        QVERIFY(!std::is_sorted(order.begin(), order.end(),
                                [](const auto& a, const auto& b) { return a.name < b.name; }));

        // The user can still sort by name, and back.
        results->comparisonView()->sortByColumn(ComparisonModel::Metric, Qt::AscendingOrder);
        QStringList names;
        for (int r = 0; r < shown->rowCount(); ++r)
            names << shown->index(r, ComparisonModel::Metric).data().toString();
        QStringList sorted = names;
        sorted.sort();
        QCOMPARE(names, sorted);
        results->comparisonView()->sortByColumn(ComparisonModel::Verdict, Qt::DescendingOrder);
        QCOMPARE(shown->index(0, ComparisonModel::Metric).data().toString(),
                 QStringLiteral("bonnie.put_block"));
    }

    void comparisonColoursEveryDecidingVerdict() {
        auto w = openFixture();
        const ComparisonModel& model = *w->resultsTab()->comparisonModel();
        // The same fio runs on both layouts: ratio 1, viable.
        bool sawViable = false, sawNotViable = false;
        for (int r = 0; r < model.rowCount(); ++r) {
            const auto& m = model.comparison().metrics[static_cast<std::size_t>(r)];
            const QColor expected(lb::charts::verdictColor(m.verdict));
            // A metric that only is shown has no verdict: "shown", no verdict colour, as compare
            // and the report say it.
            if (m.decisive) {
                QCOMPARE(background(model, r, ComparisonModel::Verdict), expected);
            } else {
                QCOMPARE(model.data(model.index(r, ComparisonModel::Verdict)).toString(),
                         QStringLiteral("shown"));
                QVERIFY(!model.data(model.index(r, ComparisonModel::Verdict), Qt::BackgroundRole)
                             .isValid());
            }
            sawViable = sawViable || (m.decisive && m.verdict == lb::Verdict::Viable);
            // put_block's single slowest write doubles (31107 us -> 62318 us): not viable, but
            // shown, never deciding.
            sawNotViable = sawNotViable || (!m.decisive && m.verdict == lb::Verdict::NotViable);
            // Only the verdict cell is coloured.
            QVERIFY(
                !model.data(model.index(r, ComparisonModel::Ratio), Qt::BackgroundRole).isValid());
        }
        QVERIFY(sawViable);
        QVERIFY(sawNotViable);
        QCOMPARE(model.comparison().verdict, lb::Verdict::Decision);
    }

    // A store of two layouts imported from one genuine bonnie++ file of two machines (virtiotest
    // twice, eve): the runs table shows each run's host, and the comparison asks which machine
    // instead of mixing them; picked, it compares that machine's runs, as `compare --host` does.
    // The report dialog picks a machine the same way. Screenshots of both states to look at.
    void resultsKeepMachinesApart() {
        const QString db = dir_.filePath(QStringLiteral("hosts.db"));
        const QString kvm = QStringLiteral(LAYOUTBENCH_SOURCE_DIR) +
                            QStringLiteral("/tests/data/bonnie++/1.03/kvm-three-lines.csv");
        for (const QString& layout : {QStringLiteral("kvm-a"), QStringLiteral("kvm-b")}) {
            const auto imported =
                cli({QStringLiteral("import"), QStringLiteral("--db"), db,
                     QStringLiteral("--layout"), layout, QStringLiteral("--allow-duplicate"), kvm});
            QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
        }
        auto w = std::make_unique<MainWindow>();
        w->resize(MainWindow::defaultWidth, MainWindow::defaultHeight);
        w->show();
        QSignalSpy opened(w.get(), &MainWindow::databaseOpened);
        w->openDatabase(db);
        QVERIFY(opened.wait(waitMs));
        ResultsTab* results = w->resultsTab();

        // Each run's host, in its own column.
        const RunsModel* runs = results->runsModel();
        QCOMPARE(runs->headerData(RunsModel::Host, Qt::Horizontal).toString(),
                 QStringLiteral("Host"));
        QStringList hosts;
        for (int r = 0; r < runs->rowCount(); ++r)
            hosts << runs->index(r, RunsModel::Host).data().toString();
        QCOMPARE(hosts, (QStringList{"virtiotest", "virtiotest", "eve", "virtiotest", "virtiotest",
                                     "eve"}));
        // The filter finds a machine by its name.
        results->filterEdit()->setText(QStringLiteral("eve"));
        QTRY_COMPARE_WITH_TIMEOUT(results->runsProxy()->rowCount(), 2, waitMs);
        results->filterEdit()->clear();

        // No machine picked: the comparison asks for one, naming them, and shows nothing mixed.
        QComboBox* host = results->hostBox();
        QVERIFY(host->isEnabled());
        QCOMPARE(host->count(), 3);
        QCOMPARE(host->itemText(1), QStringLiteral("eve"));
        QCOMPARE(host->itemText(2), QStringLiteral("virtiotest"));
        QTRY_VERIFY_WITH_TIMEOUT(
            results->summaryLabel()->text().startsWith(
                QStringLiteral("Host: the baseline layout 'kvm-a' holds runs of 2 hosts (eve, "
                               "virtiotest)")),
            waitMs);
        QCOMPARE(results->comparisonModel()->rowCount(), 0);
        const QString shots = QStringLiteral(LAYOUTBENCH_SCREENSHOT_DIR);
        QTest::qWait(200);
        QVERIFY(w->grab().save(shots + QStringLiteral("/results-hosts-asking.png")));

        // One picked: that machine's runs alone, the medians `compare --host virtiotest` gives.
        QSignalSpy shown(w.get(), &MainWindow::comparisonShown);
        host->setCurrentIndex(host->findData(QStringLiteral("virtiotest")));
        QVERIFY(shown.wait(waitMs));
        const ComparisonModel& model = *results->comparisonModel();
        const int row = metricRow(model, QStringLiteral("bonnie.put_block"));
        QVERIFY(row >= 0);
        const auto& putBlock = model.comparison().metrics[static_cast<std::size_t>(row)];
        QCOMPARE(putBlock.baselineSamples, std::size_t{2});
        QCOMPARE(putBlock.baselineMedian, (29208 + 27448) / 2.0 * 1024);
        QCOMPARE(putBlock.candidateMedian, (29208 + 27448) / 2.0 * 1024);
        QVERIFY2(results->summaryLabel()->text().startsWith(
                     QStringLiteral("<b>kvm-b</b> against <b>kvm-a</b> on <b>virtiotest</b>: ")),
                 qPrintable(results->summaryLabel()->text()));
        QTest::qWait(200);
        QVERIFY(w->grab().save(shots + QStringLiteral("/results-hosts-picked.png")));

        // The report dialog: eve's runs alone, the machine named at the top of the report.
        ReportDialog* dialog = w->openReportDialog();
        QVERIFY(dialog);
        const QString out = dir_.filePath(QStringLiteral("hosts.md"));
        dialog->setOutputPath(out);
        dialog->setOpenWhenWritten(false);
        dialog->hostBox()->setCurrentIndex(dialog->hostBox()->findData(QStringLiteral("eve")));
        QSignalSpy written(dialog, &ReportDialog::written);
        dialog->startWriting();
        QVERIFY2(written.wait(waitMs), qPrintable(dialog->status()));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        QVERIFY2(text.contains(QStringLiteral(
                     "Machine: eve (picked; the runs of other machines are left out).")),
                 qPrintable(text.left(2000)));
    }

    void comparisonFollowsTheComboBoxes() {
        auto w = openFixture();
        ResultsTab* results = w->resultsTab();
        QSignalSpy shown(w.get(), &MainWindow::comparisonShown);
        QVERIFY(results->selectLayouts(QStringLiteral("guest"), QStringLiteral("bare-metal")));
        QVERIFY(shown.wait(waitMs));
        const ComparisonModel& model = *results->comparisonModel();
        QCOMPARE(model.comparison().baseline, std::string("guest"));
        const int row = metricRow(model, QStringLiteral("bonnie.put_block"));
        QVERIFY(row >= 0);
        // The other way round, the bare metal is faster: viable.
        QCOMPARE(model.data(model.index(row, ComparisonModel::Verdict)).toString(),
                 QStringLiteral("viable"));

        // The same layout twice is no comparison.
        results->candidateBox()->setCurrentText(QStringLiteral("guest"));
        QCOMPARE(model.rowCount(), 0);
    }

    // The store service hands out the layouts before the runs, and compares on its own
    // connection while they load: a comparison asked for at the layouts is answered, with what
    // the window shows; only the latest of several requests is answered; after an import the
    // reloaded database is compared, its new layout included.
    void storeServiceComparesBesideTheRunList() {
        const QString path = dir_.filePath(QStringLiteral("service.db"));
        auto created = lb::gui::test::createFixtureDatabase(path.toStdString());
        QVERIFY2(created, created ? "" : created.error().message.c_str());
        StoreService service;
        QStringList order;
        std::vector<DatabaseSnapshot> snapshots;
        std::vector<lb::Comparison> comparisons;
        std::vector<lb::ReportData> charts;
        QStringList errors;
        const QString baseline = QString::fromLatin1(lb::gui::test::baselineLayout);
        const QString candidate = QString::fromLatin1(lb::gui::test::candidateLayout);
        connect(&service, &StoreService::layoutsLoaded, this, [&](const DatabaseSnapshot& s) {
            order << QStringLiteral("layouts");
            snapshots.push_back(s);
            service.compare(baseline, candidate, {}, std::nullopt);
        });
        connect(&service, &StoreService::opened, this, [&](const DatabaseSnapshot& s) {
            order << QStringLiteral("opened");
            snapshots.push_back(s);
        });
        connect(&service, &StoreService::compared, this, [&](const ComparisonResult& r) {
            order << QStringLiteral("compared");
            comparisons.push_back(r.comparison);
        });
        connect(&service, &StoreService::chartsGathered, this, [&](const lb::ReportData& d) {
            order << QStringLiteral("charts");
            charts.push_back(d);
        });
        for (auto signal : {&StoreService::compareFailed, &StoreService::chartsFailed})
            connect(&service, signal, this, [&](const QString& m) { errors << m; });
        connect(&service, &StoreService::openFailed, this,
                [&](const QString&, const QString& m) { errors << m; });

        service.open(path);
        QTRY_COMPARE_WITH_TIMEOUT(order.size(), 4, waitMs);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(order.front(), QStringLiteral("layouts"));
        QVERIFY(order.indexOf(QStringLiteral("compared")) <
                order.indexOf(QStringLiteral("charts")));
        QCOMPARE(snapshots.front().layouts.size(), std::size_t(2));
        QVERIFY(!snapshots.front().runs); // not loaded yet
        QVERIFY(snapshots.back().runs);
        QCOMPARE(snapshots.back().runs->rows.size(), std::size_t(7));
        // The verdict the Results tab shows for this database (comparisonShowsDecisionForPutBlock).
        QCOMPARE(comparisons.size(), std::size_t(1));
        const auto putBlock = std::find_if(
            comparisons[0].metrics.begin(), comparisons[0].metrics.end(),
            [](const lb::MetricComparison& m) { return m.name == "bonnie.put_block"; });
        QVERIFY(putBlock != comparisons[0].metrics.end());
        QCOMPARE(putBlock->verdict, lb::Verdict::Decision);
        // The charts: both layouts, the baseline first, with the comparison they belong to.
        QCOMPARE(charts.size(), std::size_t(1));
        QCOMPARE(charts[0].layouts.size(), std::size_t(2));
        QCOMPARE(charts[0].layouts[0].name, std::string(lb::gui::test::baselineLayout));
        QVERIFY(charts[0].layouts[0].baseline);
        QCOMPARE(charts[0].comparisons.size(), std::size_t(1));
        QCOMPARE(charts[0].comparisons[0].headline, comparisons[0].headline);

        // Three requests at once: the last one's answer comes last, its charts with it, and
        // nothing after them. (An older request is answered only if it was done before the next
        // one was made: on a busy machine that happens, so how many answers come is not fixed.)
        order.clear();
        service.compare(candidate, baseline, {}, std::nullopt);
        service.compare(baseline, candidate, {}, std::nullopt);
        service.compare(candidate, baseline, {}, std::nullopt);
        QTRY_VERIFY_WITH_TIMEOUT(order.size() >= 2 && order.back() == QStringLiteral("charts") &&
                                     charts.back().baseline == lb::gui::test::candidateLayout,
                                 waitMs);
        QTest::qWait(200); // nothing else arrives
        QVERIFY2(order.size() <= 6, qPrintable(order.join(',')));
        QCOMPARE(order.mid(order.size() - 2),
                 (QStringList{QStringLiteral("compared"), QStringLiteral("charts")}));
        QCOMPARE(comparisons.back().baseline, std::string(lb::gui::test::candidateLayout));
        QCOMPARE(charts.back().baseline, std::string(lb::gui::test::candidateLayout));
        QCOMPARE(charts.back().layouts[0].name, std::string(lb::gui::test::candidateLayout));

        // An import reloads the database; its new layout is there to compare.
        order.clear();
        QSignalSpy imported(&service, &StoreService::importFinished);
        service.importFiles(QStringLiteral("nas"), {},
                            {QStringLiteral(LAYOUTBENCH_SOURCE_DIR
                                            "/tests/data/bonnie++/1.97/hdd-slow-seeks.csv")});
        QVERIFY(imported.wait(waitMs));
        QCOMPARE(imported.front().at(0).toInt(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(order.contains(QStringLiteral("opened")), waitMs);
        QCOMPARE(snapshots.back().layouts.size(), std::size_t(3));
        QTRY_VERIFY_WITH_TIMEOUT(order.contains(QStringLiteral("charts")), waitMs);
        order.clear();
        service.compare(baseline, QStringLiteral("nas"), {}, std::nullopt);
        QTRY_VERIFY_WITH_TIMEOUT(order.contains(QStringLiteral("charts")), waitMs);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(comparisons.back().candidate, std::string("nas"));
        QVERIFY(std::any_of(
            comparisons.back().metrics.begin(), comparisons.back().metrics.end(),
            [](const lb::MetricComparison& m) { return m.name == "bonnie.put_block"; }));
        QCOMPARE(charts.back().layouts.size(), std::size_t(3));

        // A layout that is not there: the error reaches the caller.
        service.compare(baseline, QStringLiteral("gone"), {}, std::nullopt);
        QTRY_VERIFY_WITH_TIMEOUT(!errors.isEmpty(), waitMs);
        QVERIFY2(errors.front().startsWith(QStringLiteral("candidate: no layout named 'gone'")),
                 qPrintable(errors.front()));
    }

    // --- Charts -------------------------------------------------------------------------------

    void chartsHaveOneBarSeriesPerLayout() {
        auto w = openFixture();
        QCustomPlot* plot = w->chartsTab()->barsPlot();
        const auto bars = plottables<QCPBars>(plot);
        QCOMPARE(bars.size(), 2);
        QStringList names;
        for (auto* b : bars)
            names << b->name();
        QCOMPARE(names, (QStringList{QStringLiteral("bare-metal"), QStringLiteral("guest")}));
        for (auto* b : bars)
            QVERIFY(b->dataCount() > 0);
        // Zoom and pan.
        QVERIFY(plot->interactions().testFlag(QCP::iRangeDrag));
        QVERIFY(plot->interactions().testFlag(QCP::iRangeZoom));

        // Without normalising, still one series per layout.
        w->chartsTab()->normaliseBox()->setChecked(false);
        QCOMPARE(plottables<QCPBars>(plot).size(), 2);
    }

    // The app's charts show the figures of the report's: for the data the Charts tab holds, its
    // plots hold the chart models the report draws as SVG, and the SVG's shapes read back as them.
    void chartsShowTheReportsFigures() {
        auto w = openFixture();
        const lb::ReportData& data = w->chartsTab()->data();
        QCOMPARE(data.comparisons.size(), std::size_t(1));
        const auto overhead = lb::chart::overhead(data.comparisons.front());
        std::string why = lb::test::plotDiffers(*w->chartsTab()->overheadPlot(), overhead);
        QVERIFY2(why.empty(), why.c_str());
        const auto bars = lb::chart::groupedBars(data, lb::chart::barMetrics(data),
                                                 w->chartsTab()->normaliseBox()->isChecked());
        why = lb::test::plotDiffers(*w->chartsTab()->barsPlot(), bars);
        QVERIFY2(why.empty(), why.c_str());
        const lb::ReportDocument report = lb::reportDocument(data);
        const auto inReport = std::find_if(report.charts.begin(), report.charts.end(),
                                           [](const auto& c) { return c.id == "overhead-0"; });
        QVERIFY(inReport != report.charts.end());
        QVERIFY(inReport->chart == overhead);
        const std::string svg = lb::reportChartSvg(*inReport);
        why = lb::test::svgDiffers(
            svg, overhead,
            lb::svg::frameOf(overhead, 900, lb::svg::chartHeight(overhead, 900, 420)));
        QVERIFY2(why.empty(), why.c_str());
    }

    void overheadChartHasThresholdBands() {
        auto w = openFixture();
        QCustomPlot* plot = w->chartsTab()->overheadPlot();
        QCPItemRect* viable = nullptr;
        QCPItemRect* notViable = nullptr;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* rect = qobject_cast<QCPItemRect*>(plot->item(i))) {
                if (rect->objectName() == QStringLiteral("band-viable"))
                    viable = rect;
                if (rect->objectName() == QStringLiteral("band-not-viable"))
                    notViable = rect;
            }
        QVERIFY(viable);
        QVERIFY(notViable);
        // 10 % and 100 %: the default thresholds.
        QCOMPARE(viable->topLeft->coords().y(), 10.0);
        QCOMPARE(notViable->bottomRight->coords().y(), 100.0);
        QVERIFY(plot->interactions().testFlag(QCP::iRangeZoom));
    }

    void chartsShowValuesOnHover() {
        auto w = openFixture();
        w->tabs()->setCurrentWidget(w->chartsTab());
        QCustomPlot* plot = w->chartsTab()->barsPlot();
        plot->replot();
        auto* bars = plottables<QCPBars>(plot).value(1); // guest
        QVERIFY(bars);
        const auto point = bars->data()->at(0);
        const QPointF pos(bars->keyAxis()->coordToPixel(point->key + bars->width() * 0.5),
                          bars->valueAxis()->coordToPixel(point->value * 0.5));
        const QString text = w->chartsTab()->hoverText(plot, pos);
        QVERIFY2(text.contains(QStringLiteral("guest")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("median")), qPrintable(text));
        // Nothing under the cursor: no tooltip.
        QVERIFY(w->chartsTab()->hoverText(plot, QPointF(2, 2)).isEmpty());
    }

    void chartsExportPngAndPdf() {
        auto w = openFixture();
        ChartsTab* charts = w->chartsTab();
        const QString png = dir_.filePath(QStringLiteral("overhead.png"));
        const QString pdf = dir_.filePath(QStringLiteral("bars.pdf"));
        QVERIFY(charts->exportChart(charts->overheadPlot(), png));
        QVERIFY(charts->exportChart(charts->barsPlot(), pdf));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 100 && image.height() > 100);
        QFile file(pdf);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.read(5) == QByteArray("%PDF-"));
    }

    // A run's course: imported results have no per-interval logs and no sweep, and the tabs
    // say so; runs with logs and a sweep are drawn, every layout's runs, the series chosen.
    void chartsOfARunsCourse() {
        {
            auto w = openFixture();
            ChartsTab* charts = w->chartsTab();
            QCOMPARE(charts->seriesBox()->count(), 0);
            const QString none = charts->placeholderText(charts->timeSeriesPlot());
            QVERIFY2(none.contains(QStringLiteral("No per-interval logs")), qPrintable(none));
            QVERIFY(charts->placeholderText(charts->sweepPlot())
                        .contains(QStringLiteral("No queue-depth sweep")));
        }
        const QString db = dir_.filePath(QStringLiteral("course.db"));
        {
            auto created = lb::gui::test::createFixtureDatabase(db.toStdString());
            QVERIFY2(created, created ? "" : created.error().message.c_str());
            auto store = lb::Store::open(db.toStdString());
            QVERIFY(store);
            for (const char* name : {lb::gui::test::baselineLayout, lb::gui::test::candidateLayout})
                for (int iteration = 0; iteration < 2; ++iteration) {
                    auto layout = store->findLayout(name);
                    QVERIFY(layout && *layout);
                    lb::Run r;
                    r.workload = "fio:seq";
                    r.probe = "fio";
                    r.iteration = iteration;
                    r.status = lb::RunStatus::Ok;
                    const double rate = 300e6 + 10e6 * iteration;
                    r.series = {{"fio.seq.read.bw",
                                 lb::Unit::Seconds,
                                 lb::Unit::BytesPerSecond,
                                 {0.5, 1.0, 1.5},
                                 {rate, rate, rate}},
                                {"fio.seq.read.lat_mean",
                                 lb::Unit::Seconds,
                                 lb::Unit::Nanoseconds,
                                 {0.5, 1.0, 1.5},
                                 {8e5, 9e5, 8e5}}};
                    for (const int depth : {1, 2, 4})
                        for (const auto& [stat, unit] :
                             {std::pair{"iops", lb::Unit::OpsPerSecond},
                              std::pair{"lat_p99", lb::Unit::Nanoseconds}})
                            r.metrics.push_back(
                                {"fio.qd-sweep-qd" + std::to_string(depth) + ".read." + stat,
                                 1000.0 * depth, unit});
                    QVERIFY(store->insertRun((*layout)->id, r));
                }
        }
        auto w = std::make_unique<MainWindow>();
        w->show();
        QSignalSpy shown(w.get(), &MainWindow::chartsShown);
        w->openDatabase(db);
        QVERIFY(shown.wait(waitMs));
        ChartsTab* charts = w->chartsTab();
        QCOMPARE(charts->seriesBox()->count(), 2);
        QCOMPARE(charts->seriesBox()->itemData(0).toString(), QStringLiteral("fio.seq.read.bw"));
        QCOMPARE(charts->seriesBox()->itemText(0), QStringLiteral("seq.read.bw"));
        QCustomPlot* plot = charts->timeSeriesPlot();
        QVERIFY(charts->placeholderText(plot).isEmpty());
        QCOMPARE(plot->graphCount(), 4); // two layouts, two iterations each
        QCOMPARE(plot->yAxis->label(), QStringLiteral("bandwidth (MB/s)"));
        charts->seriesBox()->setCurrentIndex(1);
        QCOMPARE(plot->yAxis->label(), QStringLiteral("mean total latency (µs)"));
        // Hover over a point of the baseline's median run.
        w->tabs()->setCurrentWidget(charts);
        charts->plotTabs()->setCurrentIndex(2);
        plot->replot();
        QCPGraph* median = nullptr;
        for (int i = 0; i < plot->graphCount(); ++i)
            if (plot->graph(i)->name() == QLatin1String(lb::gui::test::baselineLayout))
                median = plot->graph(i);
        QVERIFY(median);
        const auto point = median->data()->at(1);
        const QString text =
            charts->hoverText(plot, QPointF(plot->xAxis->coordToPixel(point->key),
                                            plot->yAxis->coordToPixel(point->value)));
        QVERIFY2(text.contains(QLatin1String(lb::gui::test::baselineLayout)), qPrintable(text));

        QCOMPARE(charts->curveBox()->count(), 0);
        QVERIFY(charts->placeholderText(charts->percentilePlot())
                    .contains(QStringLiteral("No latency histogram")));
        QCOMPARE(charts->sweepBox()->count(), 1);
        QCOMPARE(charts->sweepBox()->itemText(0), QStringLiteral("fio read"));
        QCOMPARE(charts->sweepPlot()->graphCount(), 4); // IOPS and p99 of each layout
        QCOMPARE(charts->sweepPlot()->graph(0)->dataCount(), 3);
    }

    // --- Results: the runs table --------------------------------------------------------------

    void runsModelSortsAndFilters() {
        auto w = openFixture();
        RunsModel* model = w->resultsTab()->runsModel();
        RunsFilterModel* proxy = w->resultsTab()->runsProxy();
        QCOMPARE(model->rowCount(), 7); // 3 + 4 imported runs
        QCOMPARE(proxy->rowCount(), 7);

        proxy->sort(RunsModel::Layout, Qt::DescendingOrder);
        QCOMPARE(proxy->index(0, RunsModel::Layout).data().toString(), QStringLiteral("guest"));
        QCOMPARE(proxy->index(6, RunsModel::Layout).data().toString(),
                 QStringLiteral("bare-metal"));
        proxy->sort(RunsModel::Id, Qt::DescendingOrder);
        QCOMPARE(proxy->index(0, RunsModel::Id).data().toLongLong(), 7);

        // Failed runs carry their reason; "failed" finds them by status.
        proxy->setFilterText(QStringLiteral("failed"));
        QCOMPARE(proxy->rowCount(), 1);
        QCOMPARE(proxy->index(0, RunsModel::Status).data().toString(), QStringLiteral("failed"));
        QVERIFY(!proxy->index(0, RunsModel::Reason).data().toString().isEmpty());

        // Every word must match, in any column, case-insensitively.
        proxy->setFilterText(QStringLiteral("GUEST bonnie"));
        QCOMPARE(proxy->rowCount(), 1);
        proxy->setFilterText(QStringLiteral("guest"));
        QCOMPARE(proxy->rowCount(), 4);
        proxy->setFilterText(QStringLiteral("no-such-thing"));
        QCOMPARE(proxy->rowCount(), 0);

        // Typed into the filter box (debounced).
        proxy->setFilterText({});
        w->resultsTab()->filterEdit()->setText(QStringLiteral("bare-metal"));
        QTRY_COMPARE(proxy->rowCount(), 3);
    }

    void runsModelSortsNumbersAsNumbers() {
        std::vector<lb::RunSummary> runs{
            summary(2, "b", "fio:job10", lb::RunStatus::Ok, 9.5),
            summary(10, "a", "fio:job9", lb::RunStatus::Failed, 100.0, "exit status 1"),
            summary(1, "c", "fio:job9", lb::RunStatus::Ok, 20.0),
        };
        auto table = std::make_shared<const RunTable>(makeRunTable(std::move(runs)));
        QCOMPARE(table->strings.size(), std::size_t(7)); // "", 3 layouts, 2 workloads, 1 reason
        RunsModel model;
        model.setRuns(table);
        RunsFilterModel proxy;
        proxy.setSourceModel(&model);
        proxy.sort(RunsModel::Id, Qt::AscendingOrder);
        QCOMPARE(proxy.index(2, RunsModel::Id).data().toLongLong(), 10);
        proxy.sort(RunsModel::Seconds, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, RunsModel::Id).data().toLongLong(), 10);
        // Workloads in natural order: job9 before job10.
        proxy.sort(RunsModel::Workload, Qt::AscendingOrder);
        QCOMPARE(proxy.index(2, RunsModel::Workload).data().toString(),
                 QStringLiteral("fio:job10"));
        proxy.setFilterText(QStringLiteral("exit"));
        QCOMPARE(proxy.rowCount(), 1);
        // A new table: the filter applies to it at once.
        std::vector<lb::RunSummary> more{summary(5, "z", "xz", lb::RunStatus::Failed, 1, "exit 2"),
                                         summary(6, "z", "xz", lb::RunStatus::Ok, 1)};
        model.setRuns(std::make_shared<const RunTable>(makeRunTable(std::move(more))));
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.index(0, RunsModel::Id).data().toLongLong(), 5);
    }

    // --- Scenario editor ---------------------------------------------------------------------

    void scenarioEditorReportsTheErrorLine() {
        ScenarioTab tab;
        // A TOML syntax error on line 4.
        tab.setScenario(
            QStringLiteral("name = \"x\"\niterations = 2\n\n[[layouts]\nname = \"a\"\n"), {});
        QVERIFY(!tab.lastCheck().ok());
        QCOMPARE(tab.highlightedLine(), 4);
        QVERIFY2(tab.problemLabel()->text().startsWith(QStringLiteral("line 4: syntax:")),
                 qPrintable(tab.problemLabel()->text()));
        QCOMPARE(tab.editor()->extraSelections().size(), 1);
        QCOMPARE(tab.editor()->extraSelections().front().cursor.blockNumber(), 3);

        // A wrong value, found by the engine's validation, on line 2.
        tab.setScenario(QStringLiteral("name = \"x\"\niterations = \"three\"\n"), {});
        QCOMPARE(tab.highlightedLine(), 2);
        QVERIFY2(tab.problemLabel()->text().startsWith(QStringLiteral("line 2: iterations:")),
                 qPrintable(tab.problemLabel()->text()));

        // Fixed: no highlight, the summary instead.
        QString error;
        QVERIFY(
            tab.openFile(QStringLiteral(LAYOUTBENCH_SOURCE_DIR "/scenarios/quick.toml"), &error));
        QVERIFY(tab.lastCheck().ok());
        QCOMPARE(tab.highlightedLine(), 0);
        QVERIFY(tab.editor()->extraSelections().isEmpty());
        QVERIFY(tab.problemLabel()->text().contains(QStringLiteral("2 layout(s)")));
    }

    // The Scenario tab counts the runs as `layoutbench plan` does (bracketing, drills, adaptive
    // iterations), for every shipped scenario.
    void scenarioTabCountsTheRunsAsPlanDoes() {
        const QDir shipped(QStringLiteral(LAYOUTBENCH_SOURCE_DIR "/scenarios"));
        const auto files = shipped.entryList({QStringLiteral("*.toml")}, QDir::Files);
        QVERIFY(files.size() >= 3);
        for (const auto& name : files) {
            const QString file = shipped.filePath(name);
            QProcess plan;
            plan.start(QStringLiteral(LAYOUTBENCH_CLI),
                       {QStringLiteral("plan"), file, QStringLiteral("--json")});
            QVERIFY(plan.waitForFinished(60000));
            QVERIFY2(plan.exitCode() == 0, qPrintable(name + plan.readAllStandardError()));
            const QJsonObject planned =
                QJsonDocument::fromJson(plan.readAllStandardOutput()).object();
            const QJsonObject schedule = planned.value(u"schedule").toObject();
            const qint64 runs = schedule.value(u"runs").toInteger(-1);
            const qint64 maxRuns = schedule.value(u"max_runs").toInteger(-1);
            QVERIFY2(runs > 0, qPrintable(name));
            ScenarioTab tab;
            QString error;
            QVERIFY2(tab.openFile(file, &error), qPrintable(error));
            QVERIFY2(tab.lastCheck().ok(), qPrintable(name));
            const QString said = tab.problemLabel()->text();
            const QString expected =
                maxRuns > runs ? QStringLiteral("— %1, up to %2 run(s)").arg(runs).arg(maxRuns)
                               : QStringLiteral("— %1 run(s)").arg(runs);
            QVERIFY2(said.contains(expected), qPrintable(name + ": " + said + " / " + expected));
        }
    }

    void scenarioEditorValidatesWhileTyping() {
        ScenarioTab tab;
        QSignalSpy validity(&tab, &ScenarioTab::validityChanged);
        QString error;
        QVERIFY(
            tab.openFile(QStringLiteral(LAYOUTBENCH_SOURCE_DIR "/scenarios/quick.toml"), &error));
        // Break line 6 (iterations = 3) by typing into the editor.
        QTextCursor cursor(tab.editor()->document()->findBlockByNumber(5));
        QVERIFY(cursor.block().text().startsWith(QStringLiteral("iterations")));
        cursor.movePosition(QTextCursor::EndOfBlock);
        tab.editor()->setTextCursor(cursor);
        QTest::keyClicks(tab.editor(), QStringLiteral("x"));
        QCOMPARE(tab.highlightedLine(), 0); // not yet: the debounce timer runs
        QTRY_COMPARE(tab.highlightedLine(), 6);
        QVERIFY(!tab.lastCheck().ok());
        QTest::keyClick(tab.editor(), Qt::Key_Backspace);
        QTRY_COMPARE(tab.highlightedLine(), 0);
        QVERIFY(tab.lastCheck().ok());
        QVERIFY(validity.count() >= 2);
    }

    void scenarioLayoutListShowsCapacity() {
        ScenarioTab tab;
        QString error;
        QVERIFY(
            tab.openFile(QStringLiteral(LAYOUTBENCH_SOURCE_DIR "/scenarios/quick.toml"), &error));
        CapacityModel* model = tab.capacityModel();
        QCOMPARE(model->rowCount(), 2);
        const auto& raidz = model->layouts().at(1);
        QCOMPARE(raidz.name, QStringLiteral("raidz1"));
        QVERIFY(raidz.capacity);
        QCOMPARE(raidz.capacity->faultTolerance, 1u);
        QVERIFY(raidz.capacity->usableBytes > 0);
        QVERIFY(model->index(1, CapacityModel::Usable)
                    .data()
                    .toString()
                    .contains(QStringLiteral("GB")));
        QVERIFY(model->index(1, CapacityModel::Efficiency)
                    .data()
                    .toString()
                    .endsWith(QStringLiteral("%")));
        QCOMPARE(model->index(1, CapacityModel::FaultTolerance).data().toString(),
                 QStringLiteral("1 disk(s)"));
        // dir has no capacity model: a dash, and the reason on hover.
        QCOMPARE(model->index(0, CapacityModel::Usable).data().toString(), QStringLiteral("—"));
        QVERIFY(!model->index(0, CapacityModel::Usable).data(Qt::ToolTipRole).toString().isEmpty());

        // Larger vdevs: more usable bytes, as soon as the text is valid again.
        const std::uint64_t before = raidz.capacity->usableBytes;
        const QString bigger = tab.text().replace(QStringLiteral("512MiB"), QStringLiteral("2GiB"));
        tab.editor()->setPlainText(bigger);
        QTRY_VERIFY(tab.capacityModel()->layouts().at(1).capacity->usableBytes > 3 * before);
    }

    void scenarioFormEditsTheText() {
        ScenarioTab tab;
        QString error;
        QVERIFY(
            tab.openFile(QStringLiteral(LAYOUTBENCH_SOURCE_DIR "/scenarios/quick.toml"), &error));
        // The General tab's first spin box (the other tabs' forms have spin boxes too).
        auto* iterations = tab.formTabs()->widget(0)->findChildren<QSpinBox*>().value(0);
        QVERIFY(iterations);
        QCOMPARE(iterations->value(), 3);
        iterations->setValue(5);
        QVERIFY(tab.text().contains(QStringLiteral("\niterations = 5\n")));
        QCOMPARE(tab.lastCheck().scenario->iterations, 5);
        // Undo in the editor takes the form's edit back.
        tab.editor()->undo();
        tab.validateNow();
        QCOMPARE(tab.lastCheck().scenario->iterations, 3);
        QCOMPARE(iterations->value(), 3);
    }

    void scenarioTextHelpers() {
        // The General form's edits, as the Scenario tab makes them
        // (engine/scenario/scenario_edit.h).
        const auto setScenarioKey = [](const QString& text, const QString& table,
                                       const QString& key,
                                       const QString& value) -> std::optional<QString> {
            const auto edited =
                lb::setScenarioValue(text.toStdString(), {{}, 0, table.toStdString()},
                                     key.toStdString(), value.toStdString());
            return edited ? std::optional<QString>(QString::fromStdString(*edited)) : std::nullopt;
        };
        const QString text = QStringLiteral("# head\nname = \"a\"\n\n[[layouts]]\nname = \"l\"\n");
        // A top-level key is replaced in place, or added after the last one.
        QCOMPARE(*setScenarioKey(text, {}, QStringLiteral("name"), tomlString(QStringLiteral("b"))),
                 QStringLiteral("# head\nname = \"b\"\n\n[[layouts]]\nname = \"l\"\n"));
        QCOMPARE(*setScenarioKey(text, {}, QStringLiteral("iterations"), QStringLiteral("4")),
                 QStringLiteral("# head\nname = \"a\"\niterations = 4\n\n[[layouts]]\nname = "
                                "\"l\"\n"));
        // A missing table is added at the end.
        const QString withThresholds = *setScenarioKey(text, QStringLiteral("thresholds"),
                                                       QStringLiteral("viable"), tomlFloat(1.2));
        QVERIFY(withThresholds.endsWith(QStringLiteral("\n\n[thresholds]\nviable = 1.2\n")));
        QCOMPARE(*setScenarioKey(withThresholds, QStringLiteral("thresholds"),
                                 QStringLiteral("not_viable"), tomlFloat(3)),
                 QString(withThresholds)
                     .replace(QStringLiteral("viable = 1.2\n"),
                              QStringLiteral("viable = 1.2\nnot_viable = 3.0\n")));
        // A multi-line string is replaced whole; text that is not TOML is left alone.
        QCOMPARE(*setScenarioKey(QStringLiteral("description = \"\"\"\nx\n\"\"\"\nname = \"a\"\n"),
                                 {}, QStringLiteral("description"),
                                 tomlString(QStringLiteral("y"))),
                 QStringLiteral("description = \"y\"\nname = \"a\"\n"));
        QVERIFY(!setScenarioKey(QStringLiteral("name = \"a\n"), {}, QStringLiteral("name"),
                                tomlString(QStringLiteral("b"))));
        QCOMPARE(tomlString(QStringLiteral("a\"b\\c\n")), QStringLiteral("\"a\\\"b\\\\c\\n\""));

        const auto p = locateProblem("/x/s.toml:12:3: layouts[1].kind: unknown", "/x/s.toml");
        QCOMPARE(p.line, 12);
        QCOMPARE(p.column, 3);
        QCOMPARE(p.message, QStringLiteral("layouts[1].kind: unknown"));
        QCOMPARE(locateProblem("<scenario>:7: disks.name: twice", "").line, 7);
        const auto noLine = locateProblem("<scenario>: layouts: at least one", "");
        QCOMPARE(noLine.line, 0);
        QCOMPARE(noLine.display(), QStringLiteral("layouts: at least one"));
    }

    // --- Main window --------------------------------------------------------------------------

    void mainWindowFitsA1366x768Screen() {
        MainWindow w;
        w.show();
        QVERIFY(w.width() <= MainWindow::defaultWidth && w.height() <= MainWindow::defaultHeight);
        // Room for the title bar and a desktop panel below 768 pixels.
        const QSize screen(1366, 768 - 64);
        for (int i = 0; i < w.tabs()->count(); ++i) {
            w.tabs()->setCurrentIndex(i);
            const QSize hint = w.minimumSizeHint();
            QVERIFY2(hint.width() <= screen.width() && hint.height() <= screen.height(),
                     qPrintable(QStringLiteral("tab %1: minimumSizeHint %2x%3")
                                    .arg(w.tabs()->tabText(i))
                                    .arg(hint.width())
                                    .arg(hint.height())));
            QVERIFY(w.minimumWidth() <= screen.width() && w.minimumHeight() <= screen.height());
        }
        // And it really shrinks that far.
        w.resize(1024, 600);
        QTRY_VERIFY(w.width() <= 1024 && w.height() <= 600);
    }

    void recentFilesRememberTheDatabase() {
        RecentFiles().clear();
        auto w = openFixture();
        QCOMPARE(RecentFiles().list().value(0), QFileInfo(db_).absoluteFilePath());
        emit w->recentMenu()->aboutToShow();
        bool found = false;
        for (QAction* a : w->recentMenu()->actions())
            found = found || a->text().contains(QStringLiteral("fixture.db"));
        QVERIFY(found);
        // A database that cannot be opened leaves the list.
        const QString bad = writeFile(QStringLiteral("not-a-db.db"), QStringLiteral("garbage"));
        RecentFiles().add(bad);
        QSignalSpy failed(w.get(), &MainWindow::databaseFailed);
        w->openDatabase(bad);
        QVERIFY(failed.wait(waitMs));
        QVERIFY(!RecentFiles().list().contains(QFileInfo(bad).absoluteFilePath()));
    }

    // --- Campaigns, with the real local runner and real tools ---------------------------------

    void campaignRunsOnAWorkerThread() {
        MainWindow w;
        w.show();
        QSignalSpy opened(&w, &MainWindow::databaseOpened);
        w.openDatabase(dir_.filePath(QStringLiteral("campaign.db")));
        QVERIFY(opened.wait(waitMs));
        const QString text = dirScenario(
            QStringLiteral("gui-run"),
            QStringLiteral("[[workloads]]\nprobe = \"randfile\"\nsize = \"4MiB\"\n\n"
                           "[[workloads]]\nprobe = \"fio\"\npreset = \"seq-write-1m\"\n"
                           "size = \"8MiB\"\nruntime = 1\nioengine = \"psync\"\n\n"
                           "[[workloads]]\nprobe = \"fio\"\njob_file = \"%1\"\n")
                .arg(
                    writeFile(QStringLiteral("bad.fio"),
                              QStringLiteral("[bad]\nrw=write\nsize=1M\nioengine=psync\n"
                                             "filename=%1/file\n")
                                  .arg(writeFile(QStringLiteral("a-file"), QStringLiteral("x"))))));
        w.scenarioTab()->setScenario(text, dir_.filePath(QStringLiteral("gui-run.toml")));
        QVERIFY2(w.scenarioTab()->lastCheck().ok(),
                 qPrintable(w.scenarioTab()->problemLabel()->text()));

        CampaignController* controller = w.campaignController();
        QSignalSpy planned(controller, &CampaignController::planned);
        QSignalSpy progress(controller, &CampaignController::progress);
        QSignalSpy output(controller, &CampaignController::toolOutput);
        QSignalSpy stopped(controller, &CampaignController::stopped);
        // The engine's callbacks are emitted on the worker thread, never on the GUI thread.
        QList<QThread*> emittedOn;
        connect(
            controller, &CampaignController::progress, this,
            [&emittedOn](const lb::CampaignProgress&) { emittedOn << QThread::currentThread(); },
            Qt::DirectConnection);
        opened.clear();
        emit w.campaignTab()->runRequested();
        QCOMPARE(w.tabs()->currentWidget(), static_cast<QWidget*>(w.campaignTab()));
        QVERIFY(controller->isRunning());
        QVERIFY(stopped.wait(120000));
        QVERIFY(!controller->isRunning());
        QCOMPARE(planned.count(), 1);
        QVERIFY(progress.count() >= 3);
        QCOMPARE(emittedOn.size(), progress.count());
        for (QThread* t : emittedOn)
            QVERIFY(t != QCoreApplication::instance()->thread());
        QVERIFY(output.count() > 0);

        CampaignQueueModel* queue = w.campaignTab()->queueModel();
        QCOMPARE(queue->rowCount(), 3);
        QCOMPARE(queue->state(0), CampaignQueueModel::RunState::Ok);
        QCOMPARE(queue->state(1), CampaignQueueModel::RunState::Ok);
        // The job file writes below a regular file: fio fails, and the queue says why.
        QCOMPARE(queue->state(2), CampaignQueueModel::RunState::Failed);
        QVERIFY(!queue->index(2, CampaignQueueModel::Reason).data().toString().isEmpty());
        QCOMPARE(w.campaignTab()->progressBar()->value(), 3);
        QCOMPARE(w.campaignTab()->progressBar()->maximum(), 3);
        QVERIFY(!w.campaignTab()->output()->toPlainText().isEmpty());

        // The database is read again: the new runs are in the Results tab.
        QVERIFY(opened.wait(waitMs));
        QCOMPARE(w.resultsTab()->runsModel()->rowCount(), 3);
    }

    void campaignEndShowsTheVerdictHeadlineAndOpensTheComparison() {
        MainWindow w;
        w.show();
        QSignalSpy opened(&w, &MainWindow::databaseOpened);
        w.openDatabase(dir_.filePath(QStringLiteral("gui-verdict.db")));
        QVERIFY(opened.wait(waitMs));
        // Two directories measured against each other: a campaign with a verdict.
        QDir().mkpath(dir_.filePath(QStringLiteral("gui-verdict-other")));
        const QString text =
            dirScenario(QStringLiteral("gui-verdict"),
                        QStringLiteral("[[layouts]]\nname = \"other\"\nkind = \"dir\"\npath = "
                                       "\"%1\"\n\n[[workloads]]\nprobe = \"randfile\"\n"
                                       "size = \"4MiB\"\n")
                            .arg(dir_.filePath(QStringLiteral("gui-verdict-other"))));
        w.scenarioTab()->setScenario(text, dir_.filePath(QStringLiteral("gui-verdict.toml")));
        QVERIFY2(w.scenarioTab()->lastCheck().ok(),
                 qPrintable(w.scenarioTab()->problemLabel()->text()));
        QSignalSpy stopped(w.campaignController(), &CampaignController::stopped);
        opened.clear();
        emit w.campaignTab()->runRequested();
        QVERIFY(stopped.wait(120000));
        QVERIFY(opened.wait(waitMs)); // the database read again
        // The headline of the verdict, on the Campaign tab itself.
        QLabel* verdicts = w.campaignTab()->verdictLabel();
        QVERIFY(verdicts->isVisible());
        QVERIFY2(verdicts->text().contains(QStringLiteral("other: ")),
                 qPrintable(verdicts->text()));
        // The baseline ran twice (bracketing), the candidate once: no interval yet.
        QVERIFY2(verdicts->text().contains(QStringLiteral("too few runs: 2 and 1")),
                 qPrintable(verdicts->text()));
        // One run a layout; the baseline runs again after the candidate (bracketing).
        QCOMPARE(w.campaignTab()->queueModel()->rowCount(), 3);
        QPushButton* show = w.campaignTab()->comparisonButton();
        QVERIFY(show->isVisible());
        QSignalSpy shown(&w, &MainWindow::comparisonShown);
        QTest::mouseClick(show, Qt::LeftButton);
        QCOMPARE(w.tabs()->currentWidget(), static_cast<QWidget*>(w.resultsTab()));
        QVERIFY(shown.wait(waitMs));
        QCOMPARE(w.resultsTab()->candidateBox()->currentText(), QStringLiteral("other"));
        QCOMPARE(w.resultsTab()->baselineBox()->currentText(), QStringLiteral("dir"));
    }

    void campaignWithoutADatabaseUsesTheDefault() {
        MainWindow w;
        w.show();
        QVERIFY(w.databasePath().isEmpty());
        w.scenarioTab()->setScenario(
            dirScenario(QStringLiteral("gui-default"),
                        QStringLiteral("[[workloads]]\nprobe = \"randfile\"\nsize = \"1MiB\"\n")),
            {});
        QSignalSpy stopped(w.campaignController(), &CampaignController::stopped);
        emit w.campaignTab()->runRequested();
        // The default database is opened first, then the campaign starts on it.
        QVERIFY(stopped.wait(60000));
        const QString expected = dir_.filePath(QStringLiteral("data/layoutbench/results.db"));
        QCOMPARE(w.databasePath(), expected);
        QVERIFY(QFileInfo::exists(expected));
        QCOMPARE(w.campaignTab()->queueModel()->state(0), CampaignQueueModel::RunState::Ok);
    }

    void campaignStopsAndResumes() {
        MainWindow w;
        w.show();
        QSignalSpy opened(&w, &MainWindow::databaseOpened);
        w.openDatabase(dir_.filePath(QStringLiteral("resume.db")));
        QVERIFY(opened.wait(waitMs));
        const QString text = dirScenario(
            QStringLiteral("gui-resume"),
            QStringLiteral("[[workloads]]\nprobe = \"randfile\"\nsize = \"4MiB\"\n\n"
                           "[[workloads]]\nprobe = \"fio\"\npreset = \"rand-read-4k-qd1\"\n"
                           "size = \"8MiB\"\nruntime = 3\nioengine = \"psync\"\n"));
        w.scenarioTab()->setScenario(text, dir_.filePath(QStringLiteral("gui-resume.toml")));
        QVERIFY(w.scenarioTab()->lastCheck().ok());

        CampaignController* controller = w.campaignController();
        CampaignQueueModel* queue = w.campaignTab()->queueModel();
        QSignalSpy stopped(controller, &CampaignController::stopped);
        QSignalSpy finished(controller, &CampaignController::finished);
        emit w.campaignTab()->runRequested();
        // Stop while fio runs.
        QTRY_VERIFY_WITH_TIMEOUT(queue->rowCount() == 2 &&
                                     queue->state(1) == CampaignQueueModel::RunState::Running,
                                 60000);
        opened.clear();
        emit w.campaignTab()->stopRequested();
        QVERIFY(stopped.wait(60000));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.front().front().value<lb::CampaignResult>().status,
                 lb::CampaignStatus::Aborted);
        QCOMPARE(queue->state(0), CampaignQueueModel::RunState::Ok);
        QCOMPARE(queue->state(1), CampaignQueueModel::RunState::Aborted);

        // The stopped campaign is offered for resuming once the database is read again.
        QVERIFY(opened.wait(waitMs));
        auto* resumeBox = w.campaignTab()->findChild<QComboBox*>();
        QVERIFY(resumeBox);
        QCOMPARE(resumeBox->count(), 1);
        const auto id = resumeBox->currentData().toLongLong();
        finished.clear();
        emit w.campaignTab()->resumeRequested(id);
        QVERIFY(stopped.wait(60000));
        QCOMPARE(finished.count(), 1);
        const auto result = finished.front().front().value<lb::CampaignResult>();
        QCOMPARE(result.status, lb::CampaignStatus::Done);
        QCOMPARE(result.campaignId, id);
        QCOMPARE(result.skippedRuns, std::size_t(1));
        QCOMPARE(queue->state(0), CampaignQueueModel::RunState::DoneBefore);
        QCOMPARE(queue->state(1), CampaignQueueModel::RunState::Ok);
    }

    // Clean up: the unfinished campaign's cleanup runs on the worker, each undo command shown as
    // it runs, the result in the status line, the campaign list read again. The engine's cleanup
    // is replaced by one that reports two undos (the command line's tests run the real one on
    // real pools); the real one then runs on the same campaign, with nothing left to undo.
    void campaignCleanedUp() {
        MainWindow w;
        w.show();
        QSignalSpy opened(&w, &MainWindow::databaseOpened);
        w.openDatabase(dir_.filePath(QStringLiteral("cleanup.db")));
        QVERIFY(opened.wait(waitMs));
        const QString text = dirScenario(
            QStringLiteral("gui-cleanup"),
            QStringLiteral("[[workloads]]\nprobe = \"fio\"\npreset = \"rand-read-4k-qd1\"\n"
                           "size = \"8MiB\"\nruntime = 20\nioengine = \"psync\"\n"));
        w.scenarioTab()->setScenario(text, dir_.filePath(QStringLiteral("gui-cleanup.toml")));
        QVERIFY(w.scenarioTab()->lastCheck().ok());
        CampaignController* controller = w.campaignController();
        QSignalSpy stopped(controller, &CampaignController::stopped);
        emit w.campaignTab()->runRequested();
        QTRY_VERIFY_WITH_TIMEOUT(w.campaignTab()->queueModel()->rowCount() == 1 &&
                                     w.campaignTab()->queueModel()->state(0) ==
                                         CampaignQueueModel::RunState::Running,
                                 60000);
        QVERIFY(!w.campaignTab()->cleanupButton()->isEnabled()); // not while a campaign runs
        opened.clear();
        emit w.campaignTab()->stopRequested();
        QVERIFY(stopped.wait(60000));
        QVERIFY(opened.wait(waitMs));
        auto* resumeBox = w.campaignTab()->findChild<QComboBox*>();
        QCOMPARE(resumeBox->count(), 1);
        const auto id = resumeBox->currentData().toLongLong();
        QVERIFY(w.campaignTab()->cleanupButton()->isEnabled());

        QThread* gui = QThread::currentThread();
        std::atomic<bool> offGuiThread{false};
        controller->setCleanupFunction(
            [&](lb::Store&, std::int64_t campaignId, const lb::ProbeRegistry&,
                const lb::CleanupOptions& options) -> lb::Expected<lb::CleanupResult> {
                offGuiThread = QThread::currentThread() != gui;
                lb::CleanupResult r;
                r.campaignId = campaignId;
                r.statusBefore = lb::CampaignStatus::Running;
                r.status = lb::CampaignStatus::Aborted;
                r.abortedRuns = 1;
                for (const char* undo : {"zpool destroy -f lb-z", "rm -f -- /srv/v1.img"}) {
                    options.onCommand(undo);
                    r.undone.emplace_back(undo);
                }
                return r;
            });
        QSignalSpy cleaned(controller, &CampaignController::cleanedUp);
        stopped.clear();
        opened.clear();
        QTest::mouseClick(w.campaignTab()->cleanupButton(), Qt::LeftButton);
        QVERIFY(stopped.wait(waitMs));
        QCOMPARE(cleaned.count(), 1);
        QVERIFY(offGuiThread.load());
        QCOMPARE(cleaned.front().front().value<lb::CleanupResult>().campaignId, id);
        const QString output = w.campaignTab()->output()->toPlainText();
        QVERIFY2(output.contains(QStringLiteral("undo: zpool destroy -f lb-z\nundo: rm -f -- "
                                                "/srv/v1.img")),
                 qPrintable(output));
        QCOMPARE(w.campaignTab()->statusLabel()->text(),
                 QStringLiteral("Campaign #%1: 2 undo command(s) run; it was running, now "
                                "aborted; 1 interrupted run(s) marked aborted")
                     .arg(id));
        QVERIFY(opened.wait(waitMs)); // the campaign list is read again

        // The engine's own cleanup: Stop tore the layout down already.
        controller->setCleanupFunction(lb::cleanupCampaign);
        cleaned.clear();
        stopped.clear();
        QTest::mouseClick(w.campaignTab()->cleanupButton(), Qt::LeftButton);
        QVERIFY(stopped.wait(waitMs));
        QCOMPARE(cleaned.count(), 1);
        const auto real = cleaned.front().front().value<lb::CleanupResult>();
        QVERIFY(real.undone.empty());
        QVERIFY(real.problems.empty());
        QCOMPARE(real.status, lb::CampaignStatus::Aborted);
        QCOMPARE(w.campaignTab()->statusLabel()->text(),
                 QStringLiteral("Campaign #%1: nothing left to undo; status aborted").arg(id));
    }

    // --- Destroying block devices: the typed confirmation and the plan --------------------------

    void destroyDialogWaitsForEveryDevice() {
        DestroyConfirmDialog dialog;
        dialog.setReview(mirrorReview());
        QCOMPARE(dialog.devices().size(), std::size_t(2));
        QVERIFY(!dialog.destroyButton()->isEnabled());
        QVERIFY(dialog.cancelButton()->isEnabled());
        // What the inspection found, per layout, and the layout's plan with its undo.
        const QString details = dialog.details()->toPlainText();
        QVERIFY2(details.contains(QStringLiteral("Layout mirror (zfs-mirror)")),
                 qPrintable(details));
        QVERIFY(details.contains(QStringLiteral("serial SER-A")));
        QVERIFY(details.contains(QStringLiteral("blank")));
        QVERIFY(details.contains(QStringLiteral("could not be inspected: /dev/lbtest-b: not a "
                                                "block device")));
        QVERIFY(details.contains(QStringLiteral("wipe = true")));
        QCOMPARE(planLines(*dialog.planModel()),
                 QStringList{QStringLiteral("zpool create lb-mirror mirror /dev/lbtest-a "
                                            "/dev/lbtest-b => zpool destroy -f lb-mirror")});

        QTest::keyClicks(dialog.confirmEdit(0), QStringLiteral("/dev/lbtest-a"));
        QVERIFY(dialog.confirmed(0));
        QVERIFY(!dialog.destroyButton()->isEnabled()); // one of two
        // A wrong path, a prefix, a trailing space: still disabled.
        for (const QString& wrong :
             {QStringLiteral("/dev/lbtest-a"), QStringLiteral("/dev/lbtest-"),
              QStringLiteral("/dev/lbtest-b "), QStringLiteral("lbtest-b")}) {
            dialog.confirmEdit(1)->setText(wrong);
            QVERIFY2(!dialog.confirmed(1), qPrintable(wrong));
            QVERIFY(!dialog.destroyButton()->isEnabled());
            QVERIFY(!dialog.allConfirmed());
        }
        // Accepting needs the button: a click while disabled does nothing.
        QTest::mouseClick(dialog.destroyButton(), Qt::LeftButton);
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        dialog.confirmEdit(1)->clear();
        QTest::keyClicks(dialog.confirmEdit(1), QStringLiteral("/dev/lbtest-b"));
        QVERIFY(dialog.destroyButton()->isEnabled());
        QCOMPARE(dialog.typedNames(), (std::vector<std::string>{"/dev/lbtest-a", "/dev/lbtest-b"}));
        // Clearing one disables it again.
        dialog.confirmEdit(0)->clear();
        QVERIFY(!dialog.destroyButton()->isEnabled());
    }

    void destroyDialogRefusesADeviceInUse() {
        auto review = mirrorReview();
        review.devices[1].inspectError.clear();
        review.devices[1].wipe = true;
        lb::DiskState inUse{"/dev/lbtest-b", "SER-B", {}, "/dev/sdy"};
        inUse.inUse = {"/dev/lbtest-b (through /dev/sdy1) is mounted at /srv/data"};
        inUse.carries = {"/dev/lbtest-b carries a partition table (gpt)"};
        review.devices[1].state = inUse;
        DestroyConfirmDialog dialog;
        dialog.setReview(review);
        QVERIFY(dialog.refused(1));
        QVERIFY(!dialog.refused(0));
        const QString details = dialog.details()->toPlainText();
        QVERIFY2(details.contains(QStringLiteral("IN USE: /dev/lbtest-b (through /dev/sdy1) is "
                                                 "mounted at /srv/data")),
                 qPrintable(details));
        QVERIFY(details.contains(QStringLiteral("REFUSED")));
        QVERIFY(details.contains(QStringLiteral("carries a partition table (gpt)")));
        // Its line takes no input, and nothing typed anywhere confirms the campaign.
        QVERIFY(!dialog.confirmEdit(1)->isEnabled());
        QTest::keyClicks(dialog.confirmEdit(1), QStringLiteral("/dev/lbtest-b"));
        QVERIFY(!dialog.confirmed(1));
        dialog.confirmEdit(0)->setText(QStringLiteral("/dev/lbtest-a"));
        for (const QString& typed : {QStringLiteral("/dev/lbtest-b"), QStringLiteral("SER-B"),
                                     QStringLiteral("/dev/sdy")}) {
            dialog.confirmEdit(1)->setText(typed);
            QVERIFY2(!dialog.confirmed(1), qPrintable(typed));
            QVERIFY(!dialog.allConfirmed());
            QVERIFY(!dialog.destroyButton()->isEnabled());
        }
        QTest::mouseClick(dialog.destroyButton(), Qt::LeftButton);
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(dialog.cancelButton()->isEnabled());
    }

    void destroyDialogAcceptsTheSerial() {
        DestroyConfirmDialog dialog;
        dialog.setReview(mirrorReview());
        dialog.confirmEdit(0)->setText(QStringLiteral("SER-A"));
        QVERIFY(dialog.confirmed(0));
        dialog.confirmEdit(0)->setText(QStringLiteral("ser-a")); // exactly
        QVERIFY(!dialog.confirmed(0));
        dialog.confirmEdit(0)->setText(QStringLiteral("/dev/sdz")); // the kernel's name for it
        QVERIFY(dialog.confirmed(0));
        // Another device's serial does not confirm this one; without an inspection only the
        // path does.
        dialog.confirmEdit(1)->setText(QStringLiteral("SER-A"));
        QVERIFY(!dialog.confirmed(1));
        QVERIFY(!dialog.destroyButton()->isEnabled());
        dialog.confirmEdit(0)->setText(QStringLiteral("SER-A"));
        dialog.confirmEdit(1)->setText(QStringLiteral("/dev/lbtest-b"));
        QVERIFY(dialog.destroyButton()->isEnabled());
        QTest::mouseClick(dialog.destroyButton(), Qt::LeftButton);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.typedNames(), (std::vector<std::string>{"SER-A", "/dev/lbtest-b"}));
    }

    void campaignPassesTheTypedDevicesToTheEngine() {
        MainWindow w;
        w.show();
        QSignalSpy opened(&w, &MainWindow::databaseOpened);
        w.openDatabase(dir_.filePath(QStringLiteral("destroy.db")));
        QVERIFY(opened.wait(waitMs));
        w.scenarioTab()->setScenario(mirrorScenario(QStringLiteral("gui-destroy"), true), {});
        QVERIFY2(w.scenarioTab()->lastCheck().ok(),
                 qPrintable(w.scenarioTab()->problemLabel()->text()));
        auto calls = std::make_shared<EngineCalls>();
        CampaignController* controller = w.campaignController();
        fakeEngine(controller, calls);
        QSignalSpy shown(&w, &MainWindow::destroyConfirmationShown);
        QSignalSpy stopped(controller, &CampaignController::stopped);

        emit w.campaignTab()->runRequested();
        QVERIFY(shown.wait(waitMs));
        DestroyConfirmDialog* dialog = w.destroyConfirmDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->isModal());
        // Nothing has run: the devices were inspected, on the worker thread, and that is all.
        QVERIFY(!controller->isRunning());
        QCOMPARE(calls->calls, 0);
        QCOMPARE(calls->inspected, (std::vector<std::string>{"/dev/lbtest-a", "/dev/lbtest-b"}));
        QVERIFY(calls->inspectedOffGuiThread);
        QVERIFY(dialog->details()->toPlainText().contains(QStringLiteral("serial SER-b")));
        QVERIFY(planLines(*dialog->planModel())
                    .filter(QStringLiteral("zpool create"))
                    .front()
                    .endsWith(QStringLiteral("/dev/lbtest-a /dev/lbtest-b => zpool destroy -f "
                                             "lb-mirror")));
        QVERIFY(!w.campaignTab()->runButton()->isEnabled()); // meanwhile

        QTest::keyClicks(dialog->confirmEdit(0), QStringLiteral("/dev/lbtest-a"));
        QTest::keyClicks(dialog->confirmEdit(1), QStringLiteral("/dev/lbtest-x"));
        QVERIFY(!dialog->destroyButton()->isEnabled());
        dialog->confirmEdit(1)->setText(QStringLiteral("SER-b"));
        QVERIFY(dialog->destroyButton()->isEnabled());
        QTest::mouseClick(dialog->destroyButton(), Qt::LeftButton);
        QVERIFY(stopped.wait(waitMs));
        QCOMPARE(calls->calls, 1);
        QCOMPARE(calls->yesDestroy, (std::vector<std::string>{"/dev/lbtest-a", "SER-b"}));
        QTRY_VERIFY(!w.destroyConfirmDialog()); // deleted once closed
    }

    void cancelledConfirmationRunsNothing() {
        MainWindow w;
        w.show();
        QSignalSpy opened(&w, &MainWindow::databaseOpened);
        w.openDatabase(dir_.filePath(QStringLiteral("cancel.db")));
        QVERIFY(opened.wait(waitMs));
        w.scenarioTab()->setScenario(mirrorScenario(QStringLiteral("gui-cancel"), true), {});
        QVERIFY(w.scenarioTab()->lastCheck().ok());
        auto calls = std::make_shared<EngineCalls>();
        fakeEngine(w.campaignController(), calls);
        QSignalSpy shown(&w, &MainWindow::destroyConfirmationShown);
        QSignalSpy started(w.campaignController(), &CampaignController::planned);

        emit w.campaignTab()->runRequested();
        QVERIFY(shown.wait(waitMs));
        QTest::keyClicks(w.destroyConfirmDialog()->confirmEdit(0), QStringLiteral("/dev/lbtest-a"));
        QTest::mouseClick(w.destroyConfirmDialog()->cancelButton(), Qt::LeftButton);
        QTRY_VERIFY(!w.destroyConfirmDialog());
        QTest::qWait(200);
        QCOMPARE(started.count(), 0);
        QCOMPARE(calls->calls, 0);
        QVERIFY(!w.campaignController()->isRunning());
        QVERIFY(w.campaignTab()->statusLabel()->text().contains(QStringLiteral("Nothing ran")));
        QVERIFY(w.campaignTab()->runButton()->isEnabled()); // again
    }

    void fileDisksNeedNoConfirmation() {
        MainWindow w;
        w.show();
        QSignalSpy opened(&w, &MainWindow::databaseOpened);
        w.openDatabase(dir_.filePath(QStringLiteral("files.db")));
        QVERIFY(opened.wait(waitMs));
        w.scenarioTab()->setScenario(mirrorScenario(QStringLiteral("gui-files"), false), {});
        QVERIFY2(w.scenarioTab()->lastCheck().ok(),
                 qPrintable(w.scenarioTab()->problemLabel()->text()));
        auto calls = std::make_shared<EngineCalls>();
        CampaignController* controller = w.campaignController();
        fakeEngine(controller, calls);
        QSignalSpy shown(&w, &MainWindow::destroyConfirmationShown);
        QSignalSpy stopped(controller, &CampaignController::stopped);

        emit w.campaignTab()->runRequested();
        QVERIFY(controller->isRunning()); // at once: nothing to confirm
        QVERIFY(stopped.wait(waitMs));
        QCOMPARE(shown.count(), 0);
        QVERIFY(!w.destroyConfirmDialog());
        QVERIFY(!w.findChild<DestroyConfirmDialog*>());
        QCOMPARE(calls->calls, 1);
        QVERIFY(calls->yesDestroy.empty());
        QVERIFY(calls->inspected.empty());
    }

    void planShowsZpoolCreateWithItsUndo() {
        MainWindow w;
        w.show();
        w.scenarioTab()->setScenario(mirrorScenario(QStringLiteral("gui-plan"), false), {});
        QVERIFY(w.scenarioTab()->lastCheck().ok());
        QVERIFY(!w.planDialog());
        QVERIFY(w.scenarioTab()->planButton()->isEnabled());
        QTest::mouseClick(w.scenarioTab()->planButton(), Qt::LeftButton);
        PlanDialog* dialog = w.planDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        const QStringList lines = planLines(*dialog->model());
        // File disks of an unsaved scenario go to its work directory.
        const QString a = dir_.filePath(QStringLiteral("gui-plan-work/a.img"));
        const QString b = dir_.filePath(QStringLiteral("gui-plan-work/b.img"));
        // The dir baseline's step, then the mirror's: the sparse files, the mount point, the pool.
        QVERIFY2(lines.contains(QStringLiteral("truncate -s 67108864 -- %1 => rm -f -- %1").arg(a)),
                 qPrintable(lines.join(QLatin1Char('\n'))));
        // A step without an undo says so, and why, where its undo would be.
        QVERIFY2(lines.contains(
                     QStringLiteral("test '!' -e %1 => no undo: a check changes nothing").arg(a)),
                 qPrintable(lines.join(QLatin1Char('\n'))));
        const QStringList create = lines.filter(QStringLiteral("zpool create"));
        QCOMPARE(create.size(), 1);
        QVERIFY2(create.front().startsWith(QStringLiteral("zpool create -f -o ashift=12")),
                 qPrintable(create.front()));
        QVERIFY(create.front().contains(QStringLiteral("lb-mirror mirror %1 %2").arg(a, b)));
        QVERIFY(create.front().endsWith(QStringLiteral(" => zpool destroy -f lb-mirror")));
        // Both layouts are there, the baseline first.
        QCOMPARE(dialog->model()->index(0, PlanModel::Layout).data().toString(),
                 QStringLiteral("dir"));
        QCOMPARE(dialog->model()
                     ->index(dialog->model()->rowCount() - 1, PlanModel::Layout)
                     .data()
                     .toString(),
                 QStringLiteral("mirror"));

        // The Campaign tab's button shows the same list, of the scenario as it is now.
        w.scenarioTab()->setScenario(
            dirScenario(QStringLiteral("gui-plan-dir"), QStringLiteral("[[workloads]]\nprobe = "
                                                                       "\"randfile\"\n")),
            {});
        QVERIFY(w.campaignTab()->planButton()->isEnabled());
        QTest::mouseClick(w.campaignTab()->planButton(), Qt::LeftButton);
        QCOMPARE(w.planDialog(), dialog);
        QCOMPARE(dialog->model()->rowCount(), 1);
        QVERIFY(dialog->model()
                    ->index(0, PlanModel::Command)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("mkdir -- ")));
    }

    // --- File ▸ Import results… and File ▸ Write report… -------------------------------------

    void importDialogImportsFilesAndAPasteEachWholeOrNotAtAll() {
        MainWindow w;
        w.show();
        QSignalSpy opened(&w, &MainWindow::databaseOpened);
        w.openDatabase(dir_.filePath(QStringLiteral("import.db")));
        QVERIFY(opened.wait(waitMs));
        ImportDialog* dialog = w.openImportDialog();
        QVERIFY(dialog);
        const QString data = QStringLiteral(LAYOUTBENCH_SOURCE_DIR "/tests/data");
        dialog->setLayoutName(QStringLiteral("old-nas"));
        dialog->addFiles(
            {data + QStringLiteral("/bonnie++/1.97/seed-guest.csv"),
             data + QStringLiteral("/fio/3.33/seq_read.json"),
             writeFile(QStringLiteral("broken.json"), QStringLiteral("{\"fio version\""))});
        // A paste says what it holds as it is typed.
        QFile csv(data + QStringLiteral("/bonnie++/1.97/seed-bare-metal.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        dialog->setPaste(QStringLiteral("pasted from the ticket:\n") +
                         QString::fromUtf8(csv.readAll()));
        QVERIFY2(dialog->detection().startsWith(QStringLiteral("bonnie++ CSV")),
                 qPrintable(dialog->detection()));
        QVERIFY(dialog->importButton()->isEnabled());
        QSignalSpy done(dialog, &ImportDialog::importDone);
        dialog->startImport();
        QVERIFY(done.wait(waitMs));
        QCOMPARE(done.front().at(0).toInt(), 3); // two files and the paste
        QCOMPARE(done.front().at(1).toInt(), 1); // the broken file, listed with its error
        const QTableWidget* table = dialog->outcomes();
        QCOMPARE(table->rowCount(), 4);
        int failedRows = 0;
        for (int r = 0; r < table->rowCount(); ++r) {
            const QString outcome = table->item(r, ImportDialog::Outcome)->text();
            if (outcome.startsWith(QStringLiteral("not imported")))
                ++failedRows;
            else
                QVERIFY2(table->item(r, ImportDialog::Metrics)->text().toInt() > 0,
                         qPrintable(outcome));
        }
        QCOMPARE(failedRows, 1);
        // Nothing of the broken file is in the database: three runs, all from the good sources.
        QTRY_VERIFY_WITH_TIMEOUT(w.snapshot().runs && w.snapshot().runs->rows.size() == 3, waitMs);
    }

    void writeReportDialogWritesTheReportForTheOpenDatabase() {
        auto w = openFixture();
        ReportDialog* dialog = w->openReportDialog();
        QVERIFY(dialog);
        const QString out = dir_.filePath(QStringLiteral("decision.md"));
        dialog->setOutputPath(out);
        dialog->setBaseline(QStringLiteral("bare-metal"));
        dialog->setOpenWhenWritten(false);
        QSignalSpy written(dialog, &ReportDialog::written);
        dialog->startWriting();
        QVERIFY(written.wait(waitMs));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        QVERIFY2(text.contains(QStringLiteral(
                     "**guest**: **decision** — put\\_block 58 % more time per byte")),
                 qPrintable(text.left(2000)));
        // A file whose extension names no format is refused before anything is gathered.
        dialog->setOutputPath(dir_.filePath(QStringLiteral("decision.docx")));
        dialog->startWriting();
        QVERIFY(dialog->status().contains(QStringLiteral(".html, .pdf or .md")));
    }
};

QTEST_MAIN(GuiTest)
#include "gui_test.moc"
