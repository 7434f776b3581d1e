// The campaign's worker-thread adapter (see campaign_controller.h).
#include "app/gui/campaign_controller.h"

#include "engine/campaign.h"
#include "engine/ssh_runner.h"
#include "probes/tools.h"

#include <QStringDecoder>

namespace lb::gui {

CampaignPlan planCampaign(const Scenario& scenario, const std::optional<std::string>& onlyLayout) {
    CampaignPlan plan;
    plan.scenario = scenario.name;
    for (const auto& l : scenario.layouts) {
        if (onlyLayout && !l.baseline && l.name != *onlyLayout)
            continue;
        for (int i = 0; i < scenario.iterations; ++i)
            for (const auto& w : scenario.workloads)
                plan.runs.push_back({l.name, w.name, i});
    }
    return plan;
}

CampaignController::CampaignController(QObject* parent) : QObject(parent) {
    registerGuiMetaTypes();
}

CampaignController::~CampaignController() {
    if (thread_) {
        cancel_.store(true);
        thread_->wait();
        delete thread_;
    }
}

bool CampaignController::start(const CampaignRequest& request) {
    if (thread_)
        return false;
    cancel_.store(false);
    thread_ = QThread::create([this, request] { run(request); });
    thread_->setObjectName(QStringLiteral("layoutbench-campaign"));
    connect(thread_, &QThread::finished, this, [this] {
        thread_->deleteLater();
        thread_ = nullptr;
        emit stopped();
    });
    thread_->start();
    return true;
}

void CampaignController::stop() {
    cancel_.store(true);
}

void CampaignController::run(CampaignRequest request) {
    const ProbeRegistry probes = standardProbes();
    auto store = Store::open(ss(request.databasePath));
    if (!store) {
        emit failed(qs(store.error().message));
        return;
    }
    Expected<Scenario> scenario = badInput("no scenario");
    if (request.resume) {
        // A resumed campaign runs the scenario it started with, whatever the editor says now.
        auto stored = storedScenario(*store, *request.resume);
        if (!stored) {
            emit failed(qs(stored.error().message));
            return;
        }
        scenario = parseScenario(stored->second, stored->first, probes);
    } else {
        scenario = parseScenario(ss(request.scenarioText), ss(request.scenarioPath), probes);
    }
    if (!scenario) {
        emit failed(qs(scenario.error().message));
        return;
    }
    if (request.onlyLayout) {
        bool found = false;
        for (const auto& l : scenario->layouts)
            found = found || l.name == *request.onlyLayout;
        if (!found) {
            emit failed(tr("No layout named '%1' in the scenario.").arg(qs(*request.onlyLayout)));
            return;
        }
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
    std::unique_ptr<Runner> runner;
    if (runnerFactory_) {
        runner = runnerFactory_();
    } else {
        auto made = makeRunnerFor(scenario->host.target, scenario->host.identity,
                                  scenario->host.knownHosts);
        if (!made) {
            emit failed(qs(made.error().message));
            return;
        }
        runner = std::move(*made);
    }
    auto result = runCampaign(*store, *scenario, probes, *runner, options);
    if (!result) {
        emit failed(qs(result.error().message));
        return;
    }
    emit finished(*result);
}

} // namespace lb::gui
