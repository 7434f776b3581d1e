// The main window of layoutbench-gui: the Scenario, Campaign, Results, Charts and Projection tabs,
// the File menu (open a database, recent databases, open and save scenarios) and the wiring between
// the tabs and the two worker-thread adapters (StoreService, CampaignController). A campaign that
// destroys block devices starts only after the DestroyConfirmDialog, and the plan of the scenario
// being edited is shown in a PlanDialog.
#pragma once

#include "app/gui/campaign_controller.h"
#include "app/gui/gui_types.h"

#include <QMainWindow>
#include <QPointer>
#include <memory>
#include <optional>

class QLabel;
class QMenu;
class QTabWidget;

namespace lb::gui {

class CampaignTab;
class ChartsTab;
class DestroyConfirmDialog;
class PlanDialog;
class ImportDialog;
class ReportDialog;
class ProjectionTab;
class FleetTab;
class ResultsTab;
class ScenarioTab;
class StoreService;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // The default size; the window never asks for more than a 1366×768 screen has.
    static constexpr int defaultWidth = 1280;
    static constexpr int defaultHeight = 720;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a results database (loaded on the store's thread; databaseOpened when shown).
    void openDatabase(const QString& path);
    QString databasePath() const { return databasePath_; }
    const DatabaseSnapshot& snapshot() const { return snapshot_; }

    QTabWidget* tabs() const { return tabs_; }
    ScenarioTab* scenarioTab() const { return scenario_; }
    CampaignTab* campaignTab() const { return campaign_; }
    ResultsTab* resultsTab() const { return results_; }
    ChartsTab* chartsTab() const { return charts_; }
    ProjectionTab* projectionTab() const { return projection_; }
    FleetTab* fleetTab() const { return fleet_; }
    CampaignController* campaignController() const { return controller_; }
    QMenu* recentMenu() const { return recentMenu_; }
    // The destroy confirmation while it is open, the plan window once shown; otherwise null.
    DestroyConfirmDialog* destroyConfirmDialog() const;
    PlanDialog* planDialog() const;
    // File ▸ Import results… and File ▸ Write report…: opened (and returned) for the open
    // database; null without one.
    ImportDialog* openImportDialog();
    ReportDialog* openReportDialog();

    // Shows the plan of the scenario being edited (the Scenario and Campaign tabs' "Show plan…").
    void showPlan();

signals:
    void databaseOpened(const QString& path);
    void databaseFailed(const QString& message);
    void comparisonShown();
    void chartsShown(); // the charts of the comparison shown, drawn after it
    void fleetShown();  // the Fleet tab filled from the database just opened
    // The destroy confirmation was opened, before anything runs.
    void destroyConfirmationShown();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void connectStore();
    void connectCampaign();
    void connectScenario();
    void rebuildRecentMenu();
    void onLayoutsLoaded(const DatabaseSnapshot& snapshot);
    void onOpened(const DatabaseSnapshot& snapshot);
    void onOpenFailed(const QString& path, const QString& message);
    void startCampaign(std::optional<std::int64_t> resume);
    void runCampaign(const CampaignRequest& request);
    void onReviewed(const CampaignReview& review);
    void onReviewFailed(const QString& message);
    void newScenario();
    void openScenarioDialog();
    bool saveScenario(bool askPath);
    bool maybeSaveScenario();
    void updateTitle();

    StoreService* store_ = nullptr;
    CampaignController* controller_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    ScenarioTab* scenario_ = nullptr;
    CampaignTab* campaign_ = nullptr;
    ResultsTab* results_ = nullptr;
    ChartsTab* charts_ = nullptr;
    ProjectionTab* projection_ = nullptr;
    FleetTab* fleet_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QLabel* statusDb_ = nullptr;
    QString databasePath_;
    DatabaseSnapshot snapshot_;
    bool showResultsOnOpen_ = false;
    // A campaign asked for while its database was still opening: nullopt inside for a new one.
    std::optional<std::optional<std::int64_t>> pendingCampaign_;
    // A campaign whose block devices are being inspected or confirmed.
    std::optional<CampaignRequest> reviewedRequest_;
    QPointer<DestroyConfirmDialog> confirmDialog_;
    QPointer<PlanDialog> planDialog_;
    QPointer<ImportDialog> importDialog_;
    QPointer<ReportDialog> reportDialog_;
};

} // namespace lb::gui
