// The store's worker-thread adapter (see store_service.h).
#include "app/gui/store_service.h"

#include "probes/import.h"

#include <algorithm>
#include <map>

namespace lb::gui {

StoreService::StoreService(QObject* parent) : QObject(parent) {
    registerGuiMetaTypes();
    thread_.setObjectName(QStringLiteral("layoutbench-store"));
    context_ = new QObject;
    context_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, context_, &QObject::deleteLater);
    thread_.start();
}

StoreService::~StoreService() {
    thread_.quit();
    thread_.wait();
}

template <typename F> void StoreService::post(F&& job) {
    QMetaObject::invokeMethod(context_, std::forward<F>(job), Qt::QueuedConnection);
}

void StoreService::open(const QString& path) {
    path_ = path;
    post([this, path] {
        store_.reset();
        auto store = Store::open(ss(path));
        if (!store) {
            emit openFailed(path, qs(store.error().message));
            return;
        }
        store_.emplace(std::move(*store));
        DatabaseSnapshot snapshot;
        snapshot.path = path;
        auto layouts = store_->layouts();
        auto campaigns = store_->campaigns();
        auto runs = store_->runs();
        for (const Error* e :
             {layouts ? nullptr : &layouts.error(), campaigns ? nullptr : &campaigns.error(),
              runs ? nullptr : &runs.error()})
            if (e) {
                emit openFailed(path, qs(e->message));
                return;
            }
        snapshot.layouts = std::move(*layouts);
        snapshot.campaigns = std::move(*campaigns);
        snapshot.runs = std::make_shared<const RunTable>(makeRunTable(std::move(*runs)));
        emit opened(snapshot);
    });
}

void StoreService::reload() {
    if (!path_.isEmpty())
        open(path_);
}

void StoreService::compare(const QString& baseline, const QString& candidate,
                           const Thresholds& thresholds, std::optional<std::int64_t> campaignId) {
    const std::uint64_t request = ++latestCompare_;
    post([this, request, baseline, candidate, thresholds, campaignId] {
        if (request != latestCompare_.load())
            return; // a newer request is queued behind this one
        if (!store_) {
            emit compareFailed(tr("No database is open."));
            return;
        }
        // Every layout's samples, read once: the comparison's two sides and the charts' bars.
        auto layouts = store_->layouts();
        if (!layouts) {
            emit compareFailed(qs(layouts.error().message));
            return;
        }
        std::map<std::string, LayoutSamples> samples;
        for (const auto& l : *layouts) {
            auto loaded = store_->layoutSamples(l.name, campaignId);
            if (!loaded) {
                emit compareFailed(qs(loaded.error().message));
                return;
            }
            samples[l.name] = std::move(*loaded);
        }
        for (const auto& [field, name] :
             {std::pair{"baseline", &baseline}, std::pair{"candidate", &candidate}})
            if (!samples.count(ss(*name))) {
                emit compareFailed(qs(std::string(field) + ": no layout named '" + ss(*name) +
                                      "' in " + store_->path()));
                return;
            }
        // The thresholds are the tab's; the deciding metrics those of the candidate's scenario.
        ComparePolicy policy{thresholds, {}};
        auto campaign = campaignId ? Expected<std::optional<std::int64_t>>(campaignId)
                                   : store_->latestCampaignOf(ss(candidate));
        if (campaign && *campaign)
            if (auto stored = store_->campaignPolicy(**campaign); stored && *stored)
                policy.decide = (*stored)->decide;
        auto cmp = compareLoadedLayouts(*store_, ss(baseline), samples[ss(baseline)], ss(candidate),
                                        samples[ss(candidate)], policy, campaignId);
        if (!cmp) {
            emit compareFailed(qs(cmp.error().message));
            return;
        }
        ComparisonResult result;
        result.request = request;
        result.comparison = std::move(*cmp);

        // The charts show every layout (the baseline first) with this comparison's overhead.
        ReportData& data = result.chartData;
        data.title = result.comparison.candidate + " against " + result.comparison.baseline;
        data.baseline = result.comparison.baseline;
        data.thresholds = thresholds;
        for (const auto& l : *layouts) {
            auto& loaded = samples[l.name];
            if (loaded.metrics.empty())
                continue; // nothing measured: no bars
            ReportLayout rl;
            rl.name = l.name;
            rl.kind = l.kind;
            rl.host = l.host;
            rl.specJson = l.spec;
            rl.baseline = l.name == data.baseline;
            rl.runs = l.runs;
            rl.failedRuns = l.failedRuns;
            data.layouts.push_back(std::move(rl));
            data.samples[l.name] = std::move(loaded);
            if (auto series = store_->layoutSeries(l.name, campaignId); series && !series->empty())
                data.series[l.name] = std::move(*series);
        }
        std::stable_partition(data.layouts.begin(), data.layouts.end(),
                              [](const ReportLayout& l) { return l.baseline; });
        data.comparisons.push_back(result.comparison);
        if (request == latestCompare_.load())
            emit compared(result);
    });
}

void StoreService::importFiles(const QString& layout, const QString& host,
                               const QStringList& files) {
    post([this, layout, host, files] {
        int imported = 0, failed = 0;
        const int total = static_cast<int>(files.size());
        for (int i = 0; i < total; ++i) {
            ImportOutcome outcome;
            outcome.file = ss(files[i]);
            if (!store_) {
                outcome.message = ss(tr("No database is open."));
            } else {
                ImportRequest request;
                request.layout = ss(layout);
                request.host = host.isEmpty() ? request.host : ss(host);
                request.files = {outcome.file};
                auto summary = lb::importFiles(*store_, request);
                outcome.ok = summary.has_value();
                if (summary) {
                    outcome.message = summary->descriptions.empty() ? std::string()
                                                                    : summary->descriptions.front();
                    outcome.runs = summary->runs;
                    outcome.metrics = summary->metrics;
                } else {
                    outcome.message = summary.error().message;
                }
            }
            (outcome.ok ? imported : failed) += 1;
            emit fileImported(outcome, i + 1, total);
        }
        emit importFinished(imported, failed);
    });
    reload();
}

void StoreService::gatherReport(const ReportRequest& request) {
    post([this, request] {
        if (!store_) {
            emit reportFailed(tr("No database is open."));
            return;
        }
        auto data = lb::gatherReport(*store_, request);
        if (!data) {
            emit reportFailed(qs(data.error().message));
            return;
        }
        emit reportGathered(*data);
    });
}

} // namespace lb::gui
