// The campaign's worker-thread adapter (see campaign_controller.h).
#include "app/gui/campaign_controller.h"

#include "engine/build/plan.h"
#include "engine/campaign/campaign.h"
#include "engine/campaign/cleanup.h"
#include "engine/campaign/schedule.h"
#include "engine/exec/ssh_runner.h"
#include "engine/workbench.h"
#include "probes/registry.h"

#include <QStringDecoder>

namespace lb::gui {

namespace {

// The scenario a request runs: the one stored with the campaign when resuming, whatever the
// editor says now. `store` is needed only then.
Expected<Scenario> requestedScenario(const CampaignRequest& request, const ProbeRegistry& probes,
                                     Store* store) {
    auto scenario = resolveScenario({ss(request.scenarioPath), ss(request.scenarioText)},
                                    request.resume, request.onlyLayout, store, probes);
    if (!scenario && scenario.error().message.starts_with("layout: "))
        return badInput(ss(CampaignController::tr("No layout named '%1' in the scenario.")
                               .arg(qs(*request.onlyLayout))));
    return scenario;
}

} // namespace

CampaignPlan planCampaign(const Scenario& scenario, const std::optional<std::string>& onlyLayout) {
    CampaignPlan plan;
    plan.scenario = scenario.name;
    // The engine's order: interleaved rounds, the bracketing pass, drills.
    for (const auto& r : scheduleCampaign(scenario, onlyLayout).runs)
        plan.runs.push_back({r.layout, r.workload, r.iteration});
    return plan;
}

CampaignController::CampaignController(QObject* parent)
    : QObject(parent), campaignFunction_(runCampaign), diskInspector_(inspectDisk),
      cleanupFunction_(cleanupCampaign) {
    registerGuiMetaTypes();
}

CampaignController::~CampaignController() {
    cancel_.store(true);
    for (QThread* t : {thread_, reviewThread_})
        if (t) {
            t->wait();
            delete t;
        }
}

bool CampaignController::start(const CampaignRequest& request) {
    return startWorker([this, request] { run(request); });
}

bool CampaignController::cleanup(const QString& databasePath, std::int64_t campaignId) {
    if (reviewThread_)
        return false;
    return startWorker([this, databasePath, campaignId] { runCleanup(databasePath, campaignId); });
}

// A campaign and a cleanup share the worker: one at a time.
bool CampaignController::startWorker(std::function<void()> work) {
    if (thread_)
        return false;
    cancel_.store(false);
    thread_ = QThread::create(std::move(work));
    thread_->setObjectName(QStringLiteral("layoutbench-campaign"));
    connect(thread_, &QThread::finished, this, [this] {
        thread_->deleteLater();
        thread_ = nullptr;
        emit stopped();
    });
    thread_->start();
    return true;
}

bool CampaignController::review(const CampaignRequest& request) {
    if (reviewThread_ || thread_)
        return false;
    cancel_.store(false);
    reviewThread_ = QThread::create([this, request] { runReview(request); });
    reviewThread_->setObjectName(QStringLiteral("layoutbench-review"));
    connect(reviewThread_, &QThread::finished, this, [this] {
        reviewThread_->deleteLater();
        reviewThread_ = nullptr;
    });
    reviewThread_->start();
    return true;
}

void CampaignController::stop() {
    cancel_.store(true);
}

Expected<std::unique_ptr<Runner>> CampaignController::makeRunner(const Scenario& scenario) const {
    if (runnerFactory_)
        return runnerFactory_();
    return makeRunnerFor(scenario.host.target, scenario.host.identity, scenario.host.knownHosts);
}

void CampaignController::runReview(CampaignRequest request) {
    const ProbeRegistry probes = standardProbes();
    std::optional<Store> store;
    if (request.resume) {
        auto opened = Store::open(ss(request.databasePath));
        if (!opened) {
            emit reviewFailed(qs(opened.error().message));
            return;
        }
        store.emplace(std::move(*opened));
    }
    auto scenario = requestedScenario(request, probes, store ? &*store : nullptr);
    if (!scenario) {
        emit reviewFailed(qs(scenario.error().message));
        return;
    }
    CampaignReview review = reviewCampaign(*scenario, request.onlyLayout);
    if (!review.devices.empty()) {
        auto runner = makeRunner(*scenario);
        if (!runner) {
            emit reviewFailed(qs(runner.error().message));
            return;
        }
        // The same inspection the engine makes before it builds anything; a device it cannot
        // inspect is still listed, with the reason, and the engine will refuse it.
        inspectReviewedDevices(review, **runner, diskInspector_, &cancel_);
    }
    if (cancel_.load()) {
        emit reviewFailed(tr("Stopped before anything ran."));
        return;
    }
    emit reviewed(review);
}

void CampaignController::runCleanup(const QString& databasePath, std::int64_t campaignId) {
    auto store = Store::open(ss(databasePath));
    if (!store) {
        emit cleanupFailed(qs(store.error().message));
        return;
    }
    CleanupOptions options;
    if (runnerFactory_)
        options.makeRunner = [this](const std::string&, const std::string&,
                                    const std::string&) -> Expected<std::unique_ptr<Runner>> {
            return runnerFactory_();
        };
    options.onCommand = [this](const std::string& command) {
        CampaignProgress p;
        p.message = "undo: " + command;
        emit progress(p);
    };
    auto result = cleanupFunction_(*store, campaignId, standardProbes(), options);
    if (!result) {
        emit cleanupFailed(qs(result.error().message));
        return;
    }
    emit cleanedUp(*result);
}

void CampaignController::run(CampaignRequest request) {
    const ProbeRegistry probes = standardProbes();
    auto store = Store::open(ss(request.databasePath));
    if (!store) {
        emit failed(qs(store.error().message));
        return;
    }
    auto scenario = requestedScenario(request, probes, &*store);
    if (!scenario) {
        emit failed(qs(scenario.error().message));
        return;
    }
    CampaignPlan plan = planCampaign(*scenario, request.onlyLayout);
    plan.resume = request.resume;
    emit planned(plan);

    // Tool output arrives in chunks that may split a UTF-8 sequence: one decoder per stream.
    QStringDecoder outDecoder(QStringDecoder::Utf8);
    QStringDecoder errDecoder(QStringDecoder::Utf8);
    CampaignOptions options;
    options.resume = request.resume;
    options.onlyLayout = request.onlyLayout;
    options.yesDestroy = request.yesDestroy;
    options.cancel = &cancel_;
    options.onProgress = [this](const CampaignProgress& p) { emit progress(p); };
    options.onToolOutput = [&](OutputStream stream, std::string_view text) {
        const bool isErr = stream == OutputStream::Stderr;
        QStringDecoder& decoder = isErr ? errDecoder : outDecoder;
        const QString decoded =
            decoder.decode(QByteArrayView(text.data(), static_cast<qsizetype>(text.size())));
        if (!decoded.isEmpty())
            emit toolOutput(isErr, decoded);
    };
    auto runner = makeRunner(*scenario);
    if (!runner) {
        emit failed(qs(runner.error().message));
        return;
    }
    auto result = campaignFunction_(*store, *scenario, probes, **runner, options);
    if (!result) {
        emit failed(qs(result.error().message));
        return;
    }
    emit finished(*result);
}

} // namespace lb::gui
