// The GUI's access to the results store: a thin QObject adapter that owns the Store on a worker
// thread, so opening a large database or bootstrapping a comparison never blocks the GUI thread.
// Requests are methods; answers are queued signals carrying value types.
#pragma once

#include "app/gui/gui_types.h"

#include <QObject>
#include <QThread>
#include <atomic>
#include <optional>

namespace lb::gui {

class StoreService : public QObject {
    Q_OBJECT
public:
    explicit StoreService(QObject* parent = nullptr);
    ~StoreService() override; // waits for the request in progress

    // Opens (creating and migrating if needed) and loads layouts, campaigns and runs.
    void open(const QString& path);
    // Loads the open database again (after a campaign wrote to it).
    void reload();
    // Compares two stored layouts and gathers the charts' data. Answers only the latest request.
    void compare(const QString& baseline, const QString& candidate, const Thresholds& thresholds,
                 std::optional<std::int64_t> campaignId);

    // Imports each file into `layout` (made if new), one after the other and each whole or not at
    // all, answering after each; then reloads the database.
    void importFiles(const QString& layout, const QString& host, const QStringList& files);
    // Gathers what a report shows (the rendering needs the GUI thread: charts are widgets).
    void gatherReport(const lb::ReportRequest& request);

    QString path() const { return path_; }

signals:
    void fileImported(const lb::gui::ImportOutcome& outcome, int done, int total);
    void importFinished(int imported, int failed);
    void reportGathered(const lb::ReportData& data);
    void reportFailed(const QString& message);
    void opened(const lb::gui::DatabaseSnapshot& snapshot);
    void openFailed(const QString& path, const QString& message);
    void compared(const lb::gui::ComparisonResult& result);
    void compareFailed(const QString& message);

private:
    template <typename F> void post(F&& job);

    QThread thread_;
    QObject* context_ = nullptr; // lives on thread_; jobs run in its event loop
    QString path_;
    std::atomic<std::uint64_t> latestCompare_{0};
    // Worker-thread state: touched only by jobs.
    std::optional<Store> store_;
};

} // namespace lb::gui
