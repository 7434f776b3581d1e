// The GUI's access to the results store: a thin QObject adapter that owns the Store on a worker
// thread, so opening a large database or bootstrapping a comparison never blocks the GUI thread.
// Comparisons run on a second worker with its own connection to the same file (WAL lets readers
// work side by side), so the comparison of a database just opened does not wait for its run
// list. Requests are methods; answers are queued signals carrying value types.
#pragma once

#include "app/gui/gui_types.h"

#include <QObject>
#include <QThread>
#include <atomic>
#include <map>
#include <optional>

namespace lb::gui {

class StoreService : public QObject {
    Q_OBJECT
public:
    explicit StoreService(QObject* parent = nullptr);
    ~StoreService() override; // waits for the request in progress

    // Opens (creating and migrating if needed) and loads layouts and campaigns (layoutsLoaded),
    // then runs (opened).
    void open(const QString& path);
    // Loads the open database again (after a campaign wrote to it).
    void reload();
    // Compares two stored layouts (compared), then gathers the charts' data (chartsGathered):
    // the runs of `host` alone when one is picked, as every comparison keeps one machine's runs
    // (comparedHost); the runs at `fillPermille` alone when a level is picked, as compare --fill
    // takes them (none: the one level both sides hold). Answers only the latest request.
    void compare(const QString& baseline, const QString& candidate, const Thresholds& thresholds,
                 std::optional<std::int64_t> campaignId, const QString& host = {},
                 std::optional<int> fillPermille = std::nullopt);

    // Imports each file into `layout` (made if new), one after the other and each whole or not at
    // all, answering after each; then reloads the database.
    void importFiles(const QString& layout, const QString& host, const QStringList& files);
    // Gathers what a report shows (the rendering needs the GUI thread: charts are widgets).
    void gatherReport(const lb::ReportRequest& request);
    // Each layout measured on several machines, its hosts side by side (fleetLoaded).
    void loadFleet();

    QString path() const { return path_; }

signals:
    void fileImported(const lb::gui::ImportOutcome& outcome, int done, int total);
    void importFinished(int imported, int failed);
    void reportGathered(const lb::ReportData& data);
    void reportFailed(const QString& message);
    void fleetLoaded(const std::vector<lb::FleetAnalysis>& fleet);
    void fleetFailed(const QString& message);
    // The snapshot without its runs (null), as soon as the layouts and campaigns are read: a
    // comparison may be asked for while the runs load.
    void layoutsLoaded(const lb::gui::DatabaseSnapshot& snapshot);
    void opened(const lb::gui::DatabaseSnapshot& snapshot);
    void openFailed(const QString& path, const QString& message);
    void compared(const lb::gui::ComparisonResult& result);
    void compareFailed(const QString& message);
    // Every layout's samples and series with the comparison they were gathered for.
    void chartsGathered(const lb::ReportData& data);
    void chartsFailed(const QString& message);

private:
    template <typename F> static void post(QObject* context, F&& job);
    // A comparison-thread job; it posts gatherCharts to the store thread.
    // What one comparison asks for: the layouts, the runs they are taken from, the bands.
    struct CompareAsk {
        std::uint64_t request = 0;
        std::string baseline, candidate;
        Thresholds thresholds;
        std::optional<std::int64_t> campaignId;
        std::optional<std::string> host;
        std::optional<int> fill; // thousandths, asBuiltPermille; none: the one level both hold
    };
    // The store thread's reading of a database it opened: its layouts with their machines and
    // fill levels, then its runs with what the fill levels and drills measured.
    Expected<void> readLayouts(DatabaseSnapshot& snapshot);
    Expected<void> readRuns(DatabaseSnapshot& snapshot);
    void runComparison(const CompareAsk& ask);
    void gatherCharts(const CompareAsk& ask, const Comparison& comparison,
                      std::map<std::string, LayoutSamples> loaded);
    bool superseded(std::uint64_t request) const { return request != latestCompare_.load(); }

    QThread thread_;             // opening, loading, imports, reports, the charts' data
    QObject* context_ = nullptr; // lives on thread_; jobs run in its event loop
    QThread compareThread_;      // comparisons
    QObject* compareContext_ = nullptr;
    QString path_;
    std::atomic<std::uint64_t> latestCompare_{0};
    // Worker-thread state: store_ touched only by thread_'s jobs, compareStore_ only by
    // compareThread_'s (opened there once store_ has opened and migrated the file).
    std::optional<Store> store_;
    std::optional<Store> compareStore_;
    QString compareError_; // why compareStore_ is not open
};

} // namespace lb::gui
