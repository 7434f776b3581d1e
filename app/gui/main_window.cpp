// The main window (see main_window.h).
#include "app/gui/main_window.h"

#include "app/gui/campaign_controller.h"
#include "app/gui/campaign_tab.h"
#include "app/gui/charts_tab.h"
#include "app/gui/destroy_confirm_dialog.h"
#include "app/gui/fleet_tab.h"
#include "app/gui/import_dialog.h"
#include "app/gui/plan_view.h"
#include "app/gui/projection_tab.h"
#include "app/gui/recent_files.h"
#include "app/gui/report_dialog.h"
#include "app/gui/results_tab.h"
#include "app/gui/scenario_tab.h"
#include "app/gui/store_service.h"
#include "layoutbench_version.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QScreen>
#include <QStatusBar>
#include <QTabWidget>

namespace lb::gui {

namespace {

QString embeddedScenario() {
    QFile file(QStringLiteral(":/scenarios/quick.toml"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

} // namespace

// The store's answers, queued signals from its thread, shown on the Results and Charts tabs.
void MainWindow::connectStore() {
    constexpr auto queued = Qt::QueuedConnection;
    connect(store_, &StoreService::layoutsLoaded, this, &MainWindow::onLayoutsLoaded, queued);
    connect(store_, &StoreService::opened, this, &MainWindow::onOpened, queued);
    connect(store_, &StoreService::openFailed, this, &MainWindow::onOpenFailed, queued);
    connect(
        store_, &StoreService::fleetLoaded, this,
        [this](const std::vector<FleetAnalysis>& fleet) {
            fleet_->setFleet(fleet);
            emit fleetShown();
        },
        queued);
    connect(store_, &StoreService::fleetFailed, fleet_, &FleetTab::clear, queued);
    connect(
        store_, &StoreService::compared, this,
        [this](const ComparisonResult& result) {
            results_->showComparison(result.comparison);
            emit comparisonShown();
        },
        queued);
    connect(
        store_, &StoreService::compareFailed, this,
        [this](const QString& message) {
            results_->showComparisonError(message);
            charts_->clear(message);
        },
        queued);
    connect(
        store_, &StoreService::chartsGathered, this,
        [this](const ReportData& charts) {
            charts_->showResult(charts);
            emit chartsShown();
        },
        queued);
    connect(store_, &StoreService::chartsFailed, charts_, &ChartsTab::clear, queued);
    connect(results_, &ResultsTab::compareRequested, this,
            [this](const QString& b, const QString& c, const Thresholds& t,
                   std::optional<std::int64_t> campaign, const QString& host,
                   std::optional<int> fill) { store_->compare(b, c, t, campaign, host, fill); });
}

// The Campaign tab's requests to the controller, and the controller's queued signals back.
void MainWindow::connectCampaign() {
    constexpr auto queued = Qt::QueuedConnection;
    connect(campaign_, &CampaignTab::runRequested, this, [this] { startCampaign(std::nullopt); });
    connect(campaign_, &CampaignTab::resumeRequested, this,
            [this](std::int64_t id) { startCampaign(id); });
    connect(campaign_, &CampaignTab::cleanupRequested, this, [this](std::int64_t id) {
        if (!controller_->cleanup(databasePath(), id))
            return;
        campaign_->setRunning(true);
        campaign_->showStatus(tr("Cleaning up campaign #%1 …").arg(id));
    });
    connect(controller_, &CampaignController::cleanedUp, campaign_, &CampaignTab::cleanupFinished,
            queued);
    connect(controller_, &CampaignController::cleanupFailed, campaign_, &CampaignTab::cleanupFailed,
            queued);
    connect(campaign_, &CampaignTab::stopRequested, this, [this] {
        controller_->stop();
        statusBar()->showMessage(tr("Stopping the campaign: the tool is asked to finish …"));
    });
    connect(controller_, &CampaignController::reviewed, this, &MainWindow::onReviewed, queued);
    connect(controller_, &CampaignController::reviewFailed, this, &MainWindow::onReviewFailed,
            queued);
    connect(campaign_, &CampaignTab::planRequested, this, &MainWindow::showPlan);
    // After a campaign: its comparison on the Results tab, once the reloaded database is shown.
    connect(campaign_, &CampaignTab::comparisonRequested, this,
            [this](const QString& baseline, const QString& candidate, std::int64_t campaign) {
                tabs_->setCurrentWidget(results_);
                results_->selectLayouts(baseline, candidate, campaign);
            });
    connect(
        controller_, &CampaignController::planned, this,
        [this](const CampaignPlan& plan) {
            campaign_->campaignPlanned(plan, snapshot_.runs.get());
        },
        queued);
    connect(controller_, &CampaignController::progress, campaign_, &CampaignTab::campaignProgress,
            queued);
    connect(controller_, &CampaignController::toolOutput, campaign_, &CampaignTab::appendToolOutput,
            queued);
    connect(controller_, &CampaignController::finished, campaign_, &CampaignTab::campaignFinished,
            queued);
    connect(controller_, &CampaignController::failed, campaign_, &CampaignTab::campaignFailed,
            queued);
    // Queued too, so it arrives after everything the worker emitted before it ended.
    connect(
        controller_, &CampaignController::stopped, this,
        [this] {
            campaign_->campaignStopped();
            campaign_->setRunning(false);
            statusBar()->clearMessage();
            store_->reload(); // the campaign wrote runs
        },
        queued);
}

// The Scenario tab's file buttons, its validity and its title.
void MainWindow::connectScenario() {
    connect(scenario_, &ScenarioTab::planRequested, this, &MainWindow::showPlan);
    connect(scenario_, &ScenarioTab::validityChanged, campaign_, &CampaignTab::setScenarioValid);
    connect(scenario_, &ScenarioTab::scenarioValid, this, [this] {
        if (const auto& s = scenario_->lastCheck().scenario)
            projection_->setScenario(*s);
    });
    connect(scenario_, &ScenarioTab::newRequested, this, &MainWindow::newScenario);
    connect(scenario_, &ScenarioTab::openRequested, this, &MainWindow::openScenarioDialog);
    connect(scenario_, &ScenarioTab::saveRequested, this,
            [this](bool askPath) { saveScenario(askPath); });
    connect(scenario_, &ScenarioTab::pathChanged, this, &MainWindow::updateTitle);
    connect(scenario_->editor()->document(), &QTextDocument::modificationChanged, this,
            &MainWindow::updateTitle);
}

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    registerGuiMetaTypes();
    store_ = new StoreService(this);
    controller_ = new CampaignController(this);

    scenario_ = new ScenarioTab;
    campaign_ = new CampaignTab;
    results_ = new ResultsTab;
    charts_ = new ChartsTab;
    projection_ = new ProjectionTab;
    fleet_ = new FleetTab;
    tabs_ = new QTabWidget;
    tabs_->setDocumentMode(true);
    tabs_->addTab(scenario_, tr("&Scenario"));
    tabs_->addTab(campaign_, tr("C&ampaign"));
    tabs_->addTab(results_, tr("&Results"));
    tabs_->addTab(charts_, tr("C&harts"));
    tabs_->addTab(projection_, tr("&Projection"));
    tabs_->addTab(fleet_, tr("&Fleet"));
    setCentralWidget(tabs_);

    statusDb_ = new QLabel;
    statusBar()->addPermanentWidget(statusDb_);
    buildMenus();

    connectStore();
    connectCampaign();
    connectScenario();

    scenario_->setScenario(embeddedScenario(), {});
    campaign_->setScenarioValid(scenario_->lastCheck().ok());
    updateTitle();

    // A default size that fits a 1366×768 screen with its panel and the title bar.
    QSize size(defaultWidth, defaultHeight);
    if (const QScreen* screen = QGuiApplication::primaryScreen()) {
        const QSize available = screen->availableGeometry().size();
        size = size.boundedTo(available * 0.92);
    }
    resize(size);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open database…"), this, [this] {
        const QString dir = databasePath_.isEmpty()
                                ? QFileInfo(qs(defaultDatabasePath())).absolutePath()
                                : QFileInfo(databasePath_).absolutePath();
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open results database"), dir,
            tr("layoutbench databases (*.db *.sqlite *.sqlite3);;All files (*)"));
        if (!path.isEmpty())
            openDatabase(path);
    });
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("&New database…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("New results database"),
                                                          QStringLiteral("results.db"),
                                                          tr("layoutbench databases (*.db)"));
        if (!path.isEmpty())
            openDatabase(path);
    });
    recentMenu_ = file->addMenu(tr("Open &recent"));
    connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction(tr("New scenario"), this, &MainWindow::newScenario);
    file->addAction(tr("Open scenario…"), this, &MainWindow::openScenarioDialog);
    QAction* save = file->addAction(tr("&Save scenario"), this, [this] { saveScenario(false); });
    save->setShortcut(QKeySequence::Save);
    QAction* saveAs =
        file->addAction(tr("Save scenario &as…"), this, [this] { saveScenario(true); });
    saveAs->setShortcut(QKeySequence::SaveAs);
    file->addSeparator();
    file->addAction(tr("&Import results…"), this, [this] { openImportDialog(); });
    file->addAction(tr("&Write report…"), this, [this] { openReportDialog(); });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About layoutbench"), this, [this] {
        QMessageBox::about(
            this, tr("About layoutbench"),
            tr("<b>layoutbench</b> %1<br><br>layoutbench benchmarks storage layouts, keeps every "
               "result and compares a candidate against a baseline: up to 10 % more time per unit "
               "of work is viable, twice the time is not, anything between needs a decision.")
                .arg(QString::fromUtf8(lb::kVersionText).toHtmlEscaped()));
    });
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList files = RecentFiles().list();
    for (const QString& path : files)
        recentMenu_->addAction(QDir::toNativeSeparators(path), this,
                               [this, path] { openDatabase(path); });
    if (files.isEmpty()) {
        recentMenu_->addAction(tr("(none)"))->setEnabled(false);
        return;
    }
    recentMenu_->addSeparator();
    recentMenu_->addAction(tr("Clear the list"), this, [] { RecentFiles().clear(); });
}

void MainWindow::openDatabase(const QString& path) {
    databasePath_ = QFileInfo(path).absoluteFilePath();
    showResultsOnOpen_ = true;
    statusBar()->showMessage(tr("Opening %1 …").arg(QDir::toNativeSeparators(databasePath_)));
    store_->open(databasePath_);
    updateTitle();
}

void MainWindow::onLayoutsLoaded(const DatabaseSnapshot& snapshot) {
    if (snapshot.path != databasePath_)
        return; // an older request
    // The comparison is asked for now, while the runs load.
    results_->setLayouts(snapshot.layouts, snapshot.campaigns, snapshot.hosts, snapshot.fillLevels);
    if (snapshot.layouts.size() < 2)
        charts_->clear(tr("Two layouts with results are needed for the charts."));
}

void MainWindow::onOpened(const DatabaseSnapshot& snapshot) {
    if (snapshot.path != databasePath_)
        return; // an older request
    snapshot_ = snapshot;
    results_->setRuns(snapshot_.runs);
    projection_->setFillLevels(snapshot_.fills);
    projection_->setLayouts(snapshot_.layouts, snapshot_.rebuilds);
    store_->loadFleet();
    campaign_->setCampaigns(snapshot_.campaigns);
    campaign_->setDatabase(databasePath_);
    std::int64_t failed = 0;
    for (const auto& l : snapshot_.layouts)
        failed += l.failedRuns;
    statusDb_->setText(tr("%1 — %2 layout(s), %3 run(s), %4 not ok")
                           .arg(QFileInfo(databasePath_).fileName())
                           .arg(snapshot_.layouts.size())
                           .arg(snapshot_.runs ? snapshot_.runs->rows.size() : 0)
                           .arg(failed));
    statusDb_->setToolTip(databasePath_);
    statusBar()->clearMessage();
    RecentFiles().add(databasePath_);
    if (showResultsOnOpen_) {
        tabs_->setCurrentWidget(results_);
        showResultsOnOpen_ = false;
    }
    emit databaseOpened(databasePath_);
    if (pendingCampaign_) {
        const auto resume = *pendingCampaign_;
        pendingCampaign_.reset();
        startCampaign(resume);
    }
}

void MainWindow::onOpenFailed(const QString& path, const QString& message) {
    if (path != databasePath_)
        return;
    statusBar()->clearMessage();
    RecentFiles().remove(path);
    databasePath_.clear();
    pendingCampaign_.reset();
    updateTitle();
    emit databaseFailed(message);
    if (isVisible() && qEnvironmentVariableIsEmpty("LAYOUTBENCH_GUI_NO_DIALOGS"))
        QMessageBox::warning(this, tr("Open database"),
                             tr("Could not open %1:\n%2").arg(path, message));
}

void MainWindow::startCampaign(std::optional<std::int64_t> resume) {
    if (controller_->isRunning() || reviewedRequest_)
        return;
    if (!resume && !scenario_->lastCheck().ok()) {
        tabs_->setCurrentWidget(scenario_);
        return;
    }
    if (databasePath_.isEmpty() || snapshot_.path != databasePath_) {
        // No database open yet (results then go to the default one, as with the command line),
        // or it is still being opened: start once it is, so that only one connection creates
        // and migrates it.
        pendingCampaign_ = resume;
        if (databasePath_.isEmpty()) {
            const QString path = qs(defaultDatabasePath());
            QDir().mkpath(QFileInfo(path).absolutePath());
            openDatabase(path);
            showResultsOnOpen_ = false;
        }
        tabs_->setCurrentWidget(campaign_);
        return;
    }
    CampaignRequest request;
    request.databasePath = databasePath_;
    request.scenarioText = scenario_->text();
    request.scenarioPath = scenario_->path();
    request.resume = resume;
    if (!resume &&
        reviewCampaign(*scenario_->lastCheck().scenario, request.onlyLayout).devices.empty()) {
        runCampaign(request); // nothing to destroy: no confirmation
        return;
    }
    // Block devices, or a stored scenario not read yet: inspect on the worker, then ask.
    reviewedRequest_ = request;
    if (!controller_->review(request)) {
        reviewedRequest_.reset();
        return;
    }
    campaign_->setRunning(true);
    campaign_->showStatus(tr("Inspecting the disks the campaign would destroy …"));
    tabs_->setCurrentWidget(campaign_);
}

void MainWindow::runCampaign(const CampaignRequest& request) {
    const bool started = controller_->start(request);
    campaign_->setRunning(started);
    if (started)
        tabs_->setCurrentWidget(campaign_);
}

void MainWindow::onReviewed(const CampaignReview& review) {
    if (!reviewedRequest_)
        return;
    if (review.devices.empty()) {
        const CampaignRequest request = *reviewedRequest_;
        reviewedRequest_.reset();
        runCampaign(request);
        return;
    }
    auto* dialog = new DestroyConfirmDialog(this);
    dialog->setReview(review);
    confirmDialog_ = dialog;
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        CampaignRequest request = *reviewedRequest_;
        reviewedRequest_.reset();
        request.yesDestroy = dialog->typedNames();
        runCampaign(request);
    });
    connect(dialog, &QDialog::rejected, this, [this] {
        reviewedRequest_.reset();
        campaign_->setRunning(false);
        campaign_->showStatus(tr("Not started: the disks were not confirmed. Nothing ran."));
    });
    connect(dialog, &QDialog::finished, dialog, &QObject::deleteLater);
    campaign_->showStatus(tr("Waiting for the disks to be confirmed …"));
    dialog->open();
    emit destroyConfirmationShown();
}

void MainWindow::onReviewFailed(const QString& message) {
    reviewedRequest_.reset();
    statusBar()->clearMessage();
    campaign_->campaignFailed(message);
    campaign_->setRunning(false);
}

DestroyConfirmDialog* MainWindow::destroyConfirmDialog() const {
    return confirmDialog_;
}

PlanDialog* MainWindow::planDialog() const {
    return planDialog_;
}

ImportDialog* MainWindow::openImportDialog() {
    if (databasePath_.isEmpty()) {
        statusBar()->showMessage(tr("Open or create a database first: File ▸ Open database…"));
        return nullptr;
    }
    if (!importDialog_) {
        importDialog_ = new ImportDialog(store_, snapshot_.layouts, this);
        importDialog_->setAttribute(Qt::WA_DeleteOnClose);
        connect(importDialog_, &ImportDialog::importDone, this, [this](int imported, int failed) {
            statusBar()->showMessage(
                tr("Imported %1 file(s), %2 not imported.").arg(imported).arg(failed));
        });
    }
    importDialog_->show();
    importDialog_->raise();
    return importDialog_;
}

ReportDialog* MainWindow::openReportDialog() {
    if (databasePath_.isEmpty()) {
        statusBar()->showMessage(tr("Open a database first: File ▸ Open database…"));
        return nullptr;
    }
    if (!reportDialog_) {
        reportDialog_ = new ReportDialog(store_, snapshot_, this);
        reportDialog_->setAttribute(Qt::WA_DeleteOnClose);
        connect(reportDialog_, &ReportDialog::written, this, [this](const QString& path) {
            statusBar()->showMessage(tr("Wrote %1").arg(path));
        });
    }
    reportDialog_->show();
    reportDialog_->raise();
    return reportDialog_;
}

void MainWindow::showPlan() {
    const ScenarioCheck& check = scenario_->lastCheck();
    if (!check.ok()) {
        tabs_->setCurrentWidget(scenario_);
        return;
    }
    if (!planDialog_)
        planDialog_ = new PlanDialog(this);
    planDialog_->setPlan(reviewCampaign(*check.scenario, std::nullopt));
    planDialog_->show();
    planDialog_->raise();
    planDialog_->activateWindow();
}

void MainWindow::newScenario() {
    if (!maybeSaveScenario())
        return;
    scenario_->setScenario(embeddedScenario(), {});
    tabs_->setCurrentWidget(scenario_);
}

void MainWindow::openScenarioDialog() {
    if (!maybeSaveScenario())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), {},
                                                      tr("Scenarios (*.toml);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!scenario_->openFile(path, &error))
        QMessageBox::warning(this, tr("Open scenario"), error);
    tabs_->setCurrentWidget(scenario_);
}

bool MainWindow::saveScenario(bool askPath) {
    QString path = scenario_->path();
    if (askPath || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(this, tr("Save scenario"),
                                            path.isEmpty() ? QStringLiteral("scenario.toml") : path,
                                            tr("Scenarios (*.toml)"));
        if (path.isEmpty())
            return false;
    }
    QString error;
    if (!scenario_->saveFile(path, &error)) {
        QMessageBox::warning(this, tr("Save scenario"), error);
        return false;
    }
    return true;
}

bool MainWindow::maybeSaveScenario() {
    if (!scenario_->isModified())
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Scenario changed"), tr("Save the changes to the scenario first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel)
        return false;
    return answer == QMessageBox::Discard || saveScenario(false);
}

void MainWindow::updateTitle() {
    QString scenario = scenario_->path().isEmpty() ? tr("untitled scenario")
                                                   : QFileInfo(scenario_->path()).fileName();
    if (scenario_->isModified())
        scenario += QLatin1Char('*');
    const QString db =
        databasePath_.isEmpty() ? tr("no database") : QFileInfo(databasePath_).fileName();
    setWindowTitle(tr("layoutbench — %1 — %2").arg(db, scenario));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (controller_->isRunning()) {
        const auto answer = QMessageBox::question(
            this, tr("Campaign running"),
            tr("A campaign is running. Stop it (it can be resumed later) and quit?"));
        if (answer != QMessageBox::Yes) {
            event->ignore();
            return;
        }
        controller_->stop(); // the controller waits for the tool to stop when destroyed
    }
    if (!maybeSaveScenario()) {
        event->ignore();
        return;
    }
    event->accept();
}

} // namespace lb::gui
