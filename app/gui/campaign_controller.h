// Runs a campaign on a worker thread behind a thin QObject adapter: the engine's progress and
// tool-output callbacks become queued signals carrying value types; stop() raises the engine's
// atomic cancel flag (the runner then stops the tool politely: SIGINT, SIGTERM, SIGKILL); resume
// passes CampaignOptions::resume and runs the scenario stored with that campaign.
#pragma once

#include "app/gui/gui_types.h"
#include "engine/runner.h"

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
};

// The runs of a campaign in the order the engine makes them: per layout, per iteration, per
// workload. The baseline is always included when only one layout is asked for.
CampaignPlan planCampaign(const Scenario& scenario, const std::optional<std::string>& onlyLayout);

class CampaignController : public QObject {
    Q_OBJECT
public:
    using RunnerFactory = std::function<std::unique_ptr<Runner>()>;

    explicit CampaignController(QObject* parent = nullptr);
    ~CampaignController() override; // stops a running campaign and waits for it

    // Tests run campaigns through a RecordingRunner; the app uses makeLocalRunner.
    void setRunnerFactory(RunnerFactory factory) { runnerFactory_ = std::move(factory); }

    // False (and nothing started) while a campaign runs.
    bool start(const CampaignRequest& request);
    void stop();
    bool isRunning() const { return thread_ != nullptr; }

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

private:
    void run(CampaignRequest request);

    RunnerFactory runnerFactory_;
    QThread* thread_ = nullptr;
    std::atomic<bool> cancel_{false};
};

} // namespace lb::gui
