// The Campaign tab's queue: every run the campaign will make, with its state (pending, building,
// running, ok, failed, aborted, done before a resume), how long it took and, for a failed run, the
// reason. Fed by the CampaignController's plan and progress signals; it also keeps the overall
// progress (done / total) and the engine's ETA.
#pragma once

#include "app/gui/gui_types.h"

#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <optional>
#include <vector>

namespace lb::gui {

class CampaignQueueModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Layout, Workload, Iteration, State, Seconds, Reason, Count };
    enum class RunState { Pending, Building, Running, Ok, Failed, Aborted, DoneBefore };

    explicit CampaignQueueModel(QObject* parent = nullptr);

    void setPlan(const CampaignPlan& plan);
    // Marks the runs a resumed campaign already settled (from the runs of the database).
    void markDoneBefore(const RunTable& runs, std::int64_t campaignId);
    void applyProgress(const CampaignProgress& progress);
    // Runs still pending or running when the campaign stopped are left as they were, except the
    // running one, which is aborted.
    void campaignStopped();

    std::size_t done() const { return done_; }
    std::size_t total() const { return total_; }
    std::optional<double> etaSeconds() const { return eta_; }
    // The row of the running run, or -1.
    int runningRow() const { return running_; }
    RunState state(int row) const { return rows_[static_cast<std::size_t>(row)].state; }
    static QString stateName(RunState s);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    void progressChanged();

private:
    struct Row {
        QString layout;
        QString workload;
        int iteration = 0;
        RunState state = RunState::Pending;
        double seconds = 0;
        QString reason;
    };
    int find(const std::string& layout, const std::string& workload, int iteration) const;
    int findOrAdd(const std::string& layout, const std::string& workload, int iteration);
    void setState(int row, RunState state);

    std::vector<Row> rows_;
    std::size_t done_ = 0;
    std::size_t total_ = 0;
    std::optional<double> eta_;
    int running_ = -1;
    QElapsedTimer runClock_;
};

} // namespace lb::gui
