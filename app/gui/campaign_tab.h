// The Campaign tab: run the scenario being edited, stop it, resume an unfinished campaign or clean
// up after it (undo what it left built without resuming it); the
// queue of runs with their state (failed runs with their reason), the overall progress bar with
// the ETA, and the live output of the running tool. It shows what the CampaignController reports;
// the main window decides what to run. "Show plan…" asks for the commands each layout runs.
#pragma once

#include "app/gui/gui_types.h"

#include <QWidget>
#include <vector>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTableView;
class QVBoxLayout;

namespace lb::gui {

class CampaignQueueModel;

class CampaignTab : public QWidget {
    Q_OBJECT
public:
    static constexpr int maxOutputLines = 5000;

    explicit CampaignTab(QWidget* parent = nullptr);

    // Campaigns that can be resumed (not done) fill the resume list.
    void setCampaigns(const std::vector<CampaignRecord>& campaigns);
    void setScenarioValid(bool valid);
    void setDatabase(const QString& path);

    // Controller signals.
    void campaignPlanned(const CampaignPlan& plan, const RunTable* runs);
    void campaignProgress(const CampaignProgress& progress);
    void appendToolOutput(bool stderrStream, const QString& text);
    void campaignFinished(const CampaignResult& result);
    void campaignFailed(const QString& message);
    void campaignStopped();
    void cleanupFinished(const CleanupResult& result);
    void cleanupFailed(const QString& message);
    void setRunning(bool running);
    // A message in the status line (e.g. while the disks are inspected before a campaign).
    void showStatus(const QString& text);

    CampaignQueueModel* queueModel() const { return queue_; }
    QTableView* queueView() const { return queueView_; }
    QPlainTextEdit* output() const { return output_; }
    QProgressBar* progressBar() const { return progress_; }
    QLabel* etaLabel() const { return eta_; }
    QLabel* statusLabel() const { return status_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* planButton() const { return plan_; }
    QPushButton* cleanupButton() const { return cleanup_; }
    // The verdict headlines of the campaign that just ended, and the button to its comparison.
    QLabel* verdictLabel() const { return verdicts_; }
    QPushButton* comparisonButton() const { return showComparison_; }

signals:
    void runRequested();
    void resumeRequested(std::int64_t campaignId);
    void cleanupRequested(std::int64_t campaignId);
    void stopRequested();
    void planRequested();
    // "Show the comparison" after a campaign: its baseline and first candidate, its runs only.
    void comparisonRequested(const QString& baseline, const QString& candidate,
                             std::int64_t campaignId);

private:
    QHBoxLayout* makeButtonRow();
    QVBoxLayout* makeProgressRows();
    QSplitter* makeQueueAndOutput();
    void updateProgress();
    void updateButtons();
    void appendMessage(const QString& text);

    CampaignQueueModel* queue_ = nullptr;
    QTableView* queueView_ = nullptr;
    QPlainTextEdit* output_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* eta_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* database_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* stop_ = nullptr;
    QPushButton* resume_ = nullptr;
    QPushButton* cleanup_ = nullptr;
    QPushButton* plan_ = nullptr;
    QLabel* verdicts_ = nullptr;
    QPushButton* showComparison_ = nullptr;
    QComboBox* resumeBox_ = nullptr;
    bool running_ = false;
    bool scenarioValid_ = false;
    bool lastOutputEndedLine_ = true;
};

// "1h05m", "4m07s": how an ETA is written.
QString formatDuration(double seconds);

} // namespace lb::gui
