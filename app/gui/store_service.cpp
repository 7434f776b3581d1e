// The store's worker-thread adapter (see store_service.h).
#include "app/gui/store_service.h"

#include "probes/import.h"

#include <algorithm>
#include <map>

namespace lb::gui {

StoreService::StoreService(QObject* parent) : QObject(parent) {
    registerGuiMetaTypes();
    thread_.setObjectName(QStringLiteral("layoutbench-store"));
    compareThread_.setObjectName(QStringLiteral("layoutbench-compare"));
    compareError_ = tr("No database is open.");
    for (auto [thread, context] :
         {std::pair{&thread_, &context_}, std::pair{&compareThread_, &compareContext_}}) {
        *context = new QObject;
        (*context)->moveToThread(thread);
        connect(thread, &QThread::finished, *context, &QObject::deleteLater);
        thread->start();
    }
}

StoreService::~StoreService() {
    for (QThread* thread : {&thread_, &compareThread_}) {
        thread->quit();
        thread->wait();
    }
}

template <typename F> void StoreService::post(QObject* context, F&& job) {
    QMetaObject::invokeMethod(context, std::forward<F>(job), Qt::QueuedConnection);
}

void StoreService::open(const QString& path) {
    path_ = path;
    post(context_, [this, path] {
        store_.reset();
        auto store = Store::open(ss(path));
        // The comparisons' connection follows: opened once this one has created and migrated
        // the file, and before the layouts go out, so every comparison they prompt finds it.
        post(compareContext_, [this, path, ok = store.has_value()] {
            compareStore_.reset();
            compareError_ = tr("No database is open.");
            if (!ok)
                return;
            auto reader = Store::openReader(ss(path));
            if (reader)
                compareStore_.emplace(std::move(*reader));
            else
                compareError_ = qs(reader.error().message);
        });
        if (!store) {
            emit openFailed(path, qs(store.error().message));
            return;
        }
        store_.emplace(std::move(*store));
        DatabaseSnapshot snapshot;
        snapshot.path = path;
        // The layouts go out first (the comparison starts from them), the run list after.
        auto read = readLayouts(snapshot);
        if (read)
            emit layoutsLoaded(snapshot);
        if (read)
            read = readRuns(snapshot);
        if (!read) {
            emit openFailed(path, qs(read.error().message));
            return;
        }
        emit opened(snapshot);
    });
}

Expected<void> StoreService::readLayouts(DatabaseSnapshot& snapshot) {
    LB_TRY(layouts, store_->layouts());
    LB_TRY(campaigns, store_->campaigns());
    snapshot.layouts = std::move(layouts);
    snapshot.campaigns = std::move(campaigns);
    for (const auto& l : snapshot.layouts) {
        LB_TRY(hosts, store_->layoutHosts(l.name));
        snapshot.hosts[l.name] = std::move(hosts);
        LB_TRY(levels, store_->layoutFillLevels(l.name));
        if (std::any_of(levels.begin(), levels.end(), [](int p) { return p != asBuiltPermille; }))
            snapshot.fillLevels[l.name] = std::move(levels);
    }
    return {};
}

Expected<void> StoreService::readRuns(DatabaseSnapshot& snapshot) {
    // What each filled layout measured at its levels; a layout measured only as built has none.
    for (const auto& [layout, levels] : snapshot.fillLevels) {
        LB_TRY(fill, measuredFillLevels(*store_, layout));
        if (fill)
            snapshot.fills[layout] = std::move(*fill);
    }
    LB_TRY(runs, store_->runs());
    LB_TRY(rebuilds, measuredRebuilds(*store_, runs));
    snapshot.rebuilds = std::move(rebuilds);
    snapshot.runs = std::make_shared<const RunTable>(makeRunTable(std::move(runs)));
    return {};
}

void StoreService::reload() {
    if (!path_.isEmpty())
        open(path_);
}

void StoreService::compare(const QString& baseline, const QString& candidate,
                           const Thresholds& thresholds, std::optional<std::int64_t> campaignId,
                           const QString& host, std::optional<int> fillPermille) {
    CompareAsk ask{++latestCompare_, ss(baseline), ss(candidate), thresholds,
                   campaignId,       {},           fillPermille};
    if (!host.isEmpty())
        ask.host = ss(host);
    post(compareContext_, [this, ask] {
        if (!superseded(ask.request)) // else a newer request is queued behind this one
            runComparison(ask);
    });
}

void StoreService::runComparison(const CompareAsk& ask) {
    if (!compareStore_) {
        emit compareFailed(compareError_);
        return;
    }
    Store& store = *compareStore_;
    // The two sides' samples, read once: for the comparison, then for the charts' bars. A layout
    // of several machines is refused unless a host is picked, as on the command line.
    auto loaded =
        loadComparedSamples(store, ask.baseline, ask.candidate, ask.campaignId, ask.host, ask.fill);
    if (!loaded) {
        emit compareFailed(qs(loaded.error().message));
        return;
    }
    // The thresholds are the tab's; the deciding metrics those of the candidate's scenario.
    auto stored = storedPolicy(store, ask.candidate, ask.campaignId);
    const ComparePolicy policy{ask.thresholds,
                               stored ? stored->decide : std::vector<std::string>{}};
    auto cmp = compareLoadedLayouts(store, ask.baseline, loaded->baseline, ask.candidate,
                                    loaded->candidate, policy, ask.campaignId);
    std::map<std::string, LayoutSamples> samples;
    samples[ask.baseline] = std::move(loaded->baseline);
    samples[ask.candidate] = std::move(loaded->candidate);
    if (!cmp) {
        emit compareFailed(qs(cmp.error().message));
        return;
    }
    if (superseded(ask.request))
        return;
    if (loaded->fillPermille && *loaded->fillPermille != asBuiltPermille)
        cmp->fillLevel = fillLevelOf(*loaded->fillPermille); // as compareStoredLayouts says it
    ComparisonResult result;
    result.request = ask.request;
    result.comparison = std::move(*cmp);
    emit compared(result);
    // The charts' data on the store thread: after the run list when one is loading, which the
    // user waits for, and not in its way on a machine of two cores.
    post(context_, [this, ask, comparison = std::move(result.comparison),
                    samples = std::move(samples)]() mutable {
        if (!superseded(ask.request))
            gatherCharts(ask, comparison, std::move(samples));
    });
}

void StoreService::gatherCharts(const CompareAsk& ask, const Comparison& comparison,
                                std::map<std::string, LayoutSamples> loaded) {
    if (!store_) {
        emit chartsFailed(tr("No database is open."));
        return;
    }
    Store& store = *store_;
    auto layouts = store.layouts();
    if (!layouts) {
        emit chartsFailed(qs(layouts.error().message));
        return;
    }
    // The charts show every layout (the baseline first) with this comparison's overhead; each of
    // one machine, the one picked, and a layout of several machines none picks is left out.
    ReportData data;
    data.title = comparison.candidate + " against " + comparison.baseline;
    data.baseline = comparison.baseline;
    data.thresholds = ask.thresholds;
    for (const auto& l : *layouts) {
        if (superseded(ask.request))
            return; // the charts of a newer comparison come next
        if (!loaded.count(l.name)) {
            if (!comparedHost(store, "candidate", l.name, ask.campaignId, ask.host))
                continue;
            auto samples = store.layoutSamples(l.name, ask.campaignId, ask.host, ask.fill);
            if (!samples) {
                emit chartsFailed(qs(samples.error().message));
                return;
            }
            loaded[l.name] = std::move(*samples);
        }
        if (loaded[l.name].metrics.empty())
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
        data.samples[l.name] = std::move(loaded[l.name]);
        if (auto series = store.layoutSeries(l.name, ask.campaignId, ask.host);
            series && !series->empty())
            data.series[l.name] = std::move(*series);
    }
    std::stable_partition(data.layouts.begin(), data.layouts.end(),
                          [](const ReportLayout& l) { return l.baseline; });
    data.comparisons.push_back(comparison);
    if (!superseded(ask.request))
        emit chartsGathered(data);
}

void StoreService::importFiles(const QString& layout, const QString& host,
                               const QStringList& files) {
    post(context_, [this, layout, host, files] {
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
    post(context_, [this, request] {
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

void StoreService::loadFleet() {
    post(context_, [this] {
        if (!store_) {
            emit fleetFailed(tr("No database is open."));
            return;
        }
        auto fleet = fleetAnalyses(*store_, std::nullopt);
        if (!fleet) {
            emit fleetFailed(qs(fleet.error().message));
            return;
        }
        emit fleetLoaded(*fleet);
    });
}

} // namespace lb::gui
