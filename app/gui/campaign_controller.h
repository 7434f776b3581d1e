// Runs a campaign on a worker thread behind a thin QObject adapter: the engine's progress and
// tool-output callbacks become queued signals carrying value types; stop() raises the engine's
// atomic cancel flag (the runner then stops the tool politely: SIGINT, SIGTERM, SIGKILL); resume
// passes CampaignOptions::resume and runs the scenario stored with that campaign. Before a campaign
// that destroys block devices, review() plans it and runs the engine's safety inspection of each
// device on a worker thread too, so the window can ask the user to type every device again; what
// was typed goes to the engine as CampaignOptions::yesDestroy. cleanup() undoes what an
// interrupted campaign left built (engine/campaign/cleanup.h) on the same worker thread, each undo
// command shown as a progress message as it runs.
#pragma once

#include "app/gui/gui_types.h"
#include "engine/campaign/campaign.h"
#include "engine/exec/runner.h"
#include "engine/exec/safety.h"

#include <QObject>
#include <QThread>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace lb::gui {

struct CampaignRequest {
    QString databasePath;
    QString scenarioText; // ignored when resuming: the stored scenario runs
    QString scenarioPath; // names the file in messages, anchors relative paths
    std::optional<std::int64_t> resume;
    std::optional<std::string> onlyLayout;
    // The block devices the user typed again to allow their destruction (path, kernel name or
    // serial): CampaignOptions::yesDestroy.
    std::vector<std::string> yesDestroy;
};

// The runs of a campaign in the order the engine makes them (its schedule, drills included). The
// baseline is always included when only one layout is asked for. What the campaign builds and
// destroys is the engine's reviewCampaign (engine/workbench.h).
CampaignPlan planCampaign(const Scenario& scenario, const std::optional<std::string>& onlyLayout);

class CampaignController : public QObject {
    Q_OBJECT
public:
    using RunnerFactory = std::function<std::unique_ptr<Runner>()>;
    using CampaignFunction = std::function<Expected<CampaignResult>(
        Store&, const Scenario&, const ProbeRegistry&, Runner&, const CampaignOptions&)>;
    using DiskInspector = lb::DiskInspector;
    using CleanupFunction = std::function<Expected<CleanupResult>(
        Store&, std::int64_t, const ProbeRegistry&, const CleanupOptions&)>;

    explicit CampaignController(QObject* parent = nullptr);
    ~CampaignController() override; // stops a running campaign and waits for it

    // Tests run campaigns through a RecordingRunner; the app uses makeLocalRunner.
    void setRunnerFactory(RunnerFactory factory) { runnerFactory_ = std::move(factory); }
    // The engine's entry points, lb::runCampaign and lb::inspectDisk unless replaced: tests see
    // the options the engine is given and answer for block devices the machine does not have.
    void setCampaignFunction(CampaignFunction function) { campaignFunction_ = std::move(function); }
    void setDiskInspector(DiskInspector inspector) { diskInspector_ = std::move(inspector); }
    // lb::cleanupCampaign unless replaced.
    void setCleanupFunction(CleanupFunction function) { cleanupFunction_ = std::move(function); }

    // False (and nothing started) while a campaign runs.
    bool start(const CampaignRequest& request);
    // Loads the scenario the request would run (the stored one when resuming), plans it and
    // inspects its block devices through the scenario's runner, on a worker thread: reviewed, or
    // reviewFailed. Nothing is built. False (and nothing started) while a review or a campaign
    // runs.
    bool review(const CampaignRequest& request);
    // Undoes what campaign `campaignId` of the database left built, from its journal, without
    // resuming it, on the worker thread: progress messages ("undo: zpool destroy ..."), then
    // cleanedUp or cleanupFailed, then stopped. False (and nothing started) while a campaign, a
    // cleanup or a review runs.
    bool cleanup(const QString& databasePath, std::int64_t campaignId);
    // Stops the campaign; a review stops before its next device.
    void stop();
    bool isRunning() const { return thread_ != nullptr; }
    bool isReviewing() const { return reviewThread_ != nullptr; }

signals:
    // Emitted from the worker thread; receivers in the GUI thread get them queued.
    // The runs the campaign will make, in order, once the scenario is loaded.
    void planned(const lb::gui::CampaignPlan& plan);
    void progress(const lb::CampaignProgress& progress);
    void toolOutput(bool stderrStream, const QString& text);
    void finished(const lb::CampaignResult& result);
    void failed(const QString& message);
    // Emitted on the GUI thread once the worker has ended (after finished or failed).
    void stopped();
    // From the review's worker thread.
    void reviewed(const lb::CampaignReview& review);
    void reviewFailed(const QString& message);
    // From the cleanup's worker thread.
    void cleanedUp(const lb::CleanupResult& result);
    void cleanupFailed(const QString& message);

private:
    void run(CampaignRequest request);
    void runReview(CampaignRequest request);
    void runCleanup(const QString& databasePath, std::int64_t campaignId);
    bool startWorker(std::function<void()> work);
    Expected<std::unique_ptr<Runner>> makeRunner(const Scenario& scenario) const;

    RunnerFactory runnerFactory_;
    CampaignFunction campaignFunction_;
    DiskInspector diskInspector_;
    CleanupFunction cleanupFunction_;
    QThread* thread_ = nullptr;
    QThread* reviewThread_ = nullptr;
    std::atomic<bool> cancel_{false};
};

} // namespace lb::gui
