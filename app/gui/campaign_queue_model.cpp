// The campaign queue model (see campaign_queue_model.h).
#include "app/gui/campaign_queue_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace lb::gui {

CampaignQueueModel::CampaignQueueModel(QObject* parent) : QAbstractTableModel(parent) {}

QString CampaignQueueModel::stateName(RunState s) {
    switch (s) {
    case RunState::Pending:
        return tr("pending");
    case RunState::Building:
        return tr("building layout");
    case RunState::Running:
        return tr("running");
    case RunState::Ok:
        return tr("ok");
    case RunState::Failed:
        return tr("failed");
    case RunState::Aborted:
        return tr("aborted");
    case RunState::DoneBefore:
        return tr("done before");
    }
    return {};
}

void CampaignQueueModel::setPlan(const CampaignPlan& plan) {
    beginResetModel();
    rows_.clear();
    rows_.reserve(plan.runs.size());
    for (const auto& e : plan.runs)
        rows_.push_back({qs(e.layout), qs(e.workload), e.iteration, RunState::Pending, 0, {}});
    done_ = 0;
    total_ = rows_.size();
    eta_.reset();
    running_ = -1;
    endResetModel();
    emit progressChanged();
}

void CampaignQueueModel::markDoneBefore(const RunTable& runs, std::int64_t campaignId) {
    for (const auto& r : runs.rows) {
        if (r.campaignId != campaignId ||
            (r.status != RunStatus::Ok && r.status != RunStatus::Failed))
            continue;
        const int row = find(ss(runs.text(r.layout)), ss(runs.text(r.workload)), r.iteration);
        if (row < 0 || rows_[static_cast<std::size_t>(row)].state == RunState::DoneBefore)
            continue;
        auto& target = rows_[static_cast<std::size_t>(row)];
        target.seconds = r.wallSeconds;
        target.reason = runs.text(r.reason);
        setState(row, RunState::DoneBefore);
        ++done_;
    }
    emit progressChanged();
}

int CampaignQueueModel::find(const std::string& layout, const std::string& workload,
                             int iteration) const {
    const QString l = qs(layout), w = qs(workload);
    for (std::size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].iteration == iteration && rows_[i].layout == l && rows_[i].workload == w)
            return static_cast<int>(i);
    return -1;
}

// A run the plan did not list (an iteration added by iterations = "auto", a run again after
// the I/O path changed) is appended when it starts.
int CampaignQueueModel::findOrAdd(const std::string& layout, const std::string& workload,
                                  int iteration) {
    if (const int row = find(layout, workload, iteration); row >= 0)
        return row;
    const int row = static_cast<int>(rows_.size());
    beginInsertRows({}, row, row);
    rows_.push_back({qs(layout), qs(workload), iteration, RunState::Pending, 0, {}});
    endInsertRows();
    return row;
}

void CampaignQueueModel::setState(int row, RunState state) {
    rows_[static_cast<std::size_t>(row)].state = state;
    emit dataChanged(index(row, 0), index(row, Count - 1));
}

void CampaignQueueModel::applyProgress(const CampaignProgress& p) {
    done_ = p.done;
    total_ = p.total;
    eta_ = p.etaSeconds;
    switch (p.kind) {
    case CampaignProgress::Kind::Building: {
        // The layout's next run waits for it to be built; the later ones are still just pending.
        for (std::size_t i = 0; i < rows_.size(); ++i)
            if (rows_[i].layout == qs(p.layout) && rows_[i].state == RunState::Pending) {
                setState(static_cast<int>(i), RunState::Building);
                break;
            }
        break;
    }
    case CampaignProgress::Kind::Running: {
        const int row = findOrAdd(p.layout, p.workload, p.iteration);
        if (row >= 0) {
            running_ = row;
            runClock_.start();
            setState(row, RunState::Running);
        }
        break;
    }
    case CampaignProgress::Kind::RunFinished: {
        const int row = findOrAdd(p.layout, p.workload, p.iteration);
        if (row >= 0) {
            auto& r = rows_[static_cast<std::size_t>(row)];
            if (row == running_ && runClock_.isValid())
                r.seconds = static_cast<double>(runClock_.elapsed()) / 1000.0;
            r.reason = qs(p.message);
            setState(row, p.status == RunStatus::Ok        ? RunState::Ok
                          : p.status == RunStatus::Aborted ? RunState::Aborted
                                                           : RunState::Failed);
            if (row == running_)
                running_ = -1;
        }
        break;
    }
    case CampaignProgress::Kind::TearingDown:
        // Runs never started on this layout (stopped, or the build failed) go back to pending.
        for (std::size_t i = 0; i < rows_.size(); ++i)
            if (rows_[i].layout == qs(p.layout) && rows_[i].state == RunState::Building)
                setState(static_cast<int>(i), RunState::Pending);
        break;
    case CampaignProgress::Kind::Message:
        break;
    }
    emit progressChanged();
}

void CampaignQueueModel::campaignStopped() {
    if (running_ >= 0)
        setState(running_, RunState::Aborted);
    running_ = -1;
    for (std::size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].state == RunState::Building)
            setState(static_cast<int>(i), RunState::Pending);
    eta_.reset();
    emit progressChanged();
}

int CampaignQueueModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int CampaignQueueModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : Count;
}

QVariant CampaignQueueModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const auto& r = rows_[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Layout:
            return r.layout;
        case Workload:
            return r.workload;
        case Iteration:
            return r.iteration + 1;
        case State:
            return stateName(r.state);
        case Seconds:
            return r.seconds > 0 ? QString::number(r.seconds, 'f', 1) : QString();
        case Reason:
            return r.reason;
        case Count:
            break;
        }
        return {};
    case Qt::ToolTipRole:
        return r.reason.isEmpty() ? QVariant() : QVariant(r.reason);
    case Qt::ForegroundRole:
        if (r.state == RunState::Failed || r.state == RunState::Aborted)
            return QBrush(QColor(0xb0, 0x20, 0x20));
        if (r.state == RunState::DoneBefore || r.state == RunState::Pending)
            return QBrush(QColor(0x70, 0x70, 0x70));
        return {};
    case Qt::FontRole:
        if (r.state == RunState::Running) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (column == Iteration || column == Seconds)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant CampaignQueueModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (static_cast<Column>(section)) {
    case Layout:
        return tr("Layout");
    case Workload:
        return tr("Workload");
    case Iteration:
        return tr("Iteration");
    case State:
        return tr("State");
    case Seconds:
        return tr("Seconds");
    case Reason:
        return tr("Reason");
    case Count:
        break;
    }
    return {};
}

} // namespace lb::gui
