// The runs table model and its sort/filter proxy (see runs_model.h).
#include "app/gui/runs_model.h"

#include <QBrush>
#include <QColor>
#include <QLocale>
#include <array>

namespace lb::gui {

namespace {

const std::array<RunStatus, 4> allStatuses{RunStatus::Ok, RunStatus::Failed, RunStatus::Aborted,
                                           RunStatus::Running};

QString statusText(RunStatus s) {
    return qs(runStatusName(s));
}

} // namespace

RunsModel::RunsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunsModel::setRuns(std::shared_ptr<const RunTable> runs) {
    beginResetModel();
    runs_ = std::move(runs);
    endResetModel();
}

int RunsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !runs_)
        return 0;
    return static_cast<int>(runs_->rows.size());
}

int RunsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : Count;
}

QVariant RunsModel::data(const QModelIndex& index, int role) const {
    if (!runs_ || !index.isValid() || index.row() >= rowCount())
        return {};
    const auto& r = runs_->rows[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    if (role == Qt::DisplayRole || role == SortRole) {
        const bool sort = role == SortRole;
        switch (column) {
        case Id:
            return QVariant::fromValue<qint64>(r.id);
        case Campaign:
            if (sort)
                return QVariant::fromValue<qint64>(r.campaignId);
            return r.campaignId == 0 ? QStringLiteral("imported") : QString::number(r.campaignId);
        case Layout:
            return runs_->text(r.layout);
        case Host:
            return runs_->text(r.host);
        case Workload:
            return runs_->text(r.workload);
        case Iteration:
            // Stored from 0; people count from 1.
            return sort ? QVariant(r.iteration) : QVariant(r.iteration + 1);
        case Status:
            return statusText(r.status);
        case Seconds:
            if (sort)
                return r.wallSeconds;
            return r.wallSeconds > 0 ? QString::number(r.wallSeconds, 'f', 1) : QString();
        case Metrics:
            return r.metrics;
        case Reason:
            return runs_->text(r.reason);
        case Count:
            break;
        }
        return {};
    }
    if (role == Qt::ToolTipRole && column == Reason && r.reason != 0)
        return runs_->text(r.reason);
    if (role == Qt::ForegroundRole && r.status != RunStatus::Ok &&
        (column == Status || column == Reason))
        return QBrush(r.status == RunStatus::Running ? QColor(0x1f, 0x5f, 0xa8)
                                                     : QColor(0xb0, 0x20, 0x20));
    if (role == Qt::TextAlignmentRole) {
        switch (column) {
        case Id:
        case Campaign:
        case Iteration:
        case Seconds:
        case Metrics:
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        }
    }
    return {};
}

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (static_cast<Column>(section)) {
    case Id:
        return tr("Run");
    case Campaign:
        return tr("Campaign");
    case Layout:
        return tr("Layout");
    case Host:
        return tr("Host");
    case Workload:
        return tr("Workload");
    case Iteration:
        return tr("Iteration");
    case Status:
        return tr("Status");
    case Seconds:
        return tr("Seconds");
    case Metrics:
        return tr("Metrics");
    case Reason:
        return tr("Reason");
    case Count:
        break;
    }
    return {};
}

bool RunsModel::lessThan(int leftRow, int rightRow, int column) const {
    const auto& a = runs_->rows[static_cast<std::size_t>(leftRow)];
    const auto& b = runs_->rows[static_cast<std::size_t>(rightRow)];
    const auto& rank = runs_->collationRank;
    switch (static_cast<Column>(column)) {
    case Id:
        return a.id < b.id;
    case Campaign:
        return a.campaignId < b.campaignId;
    case Layout:
        return rank[a.layout] < rank[b.layout];
    case Host:
        return rank[a.host] < rank[b.host];
    case Workload:
        return rank[a.workload] < rank[b.workload];
    case Iteration:
        return a.iteration < b.iteration;
    case Status:
        return runStatusName(a.status) < runStatusName(b.status);
    case Seconds:
        return a.wallSeconds < b.wallSeconds;
    case Metrics:
        return a.metrics < b.metrics;
    case Reason:
        return rank[a.reason] < rank[b.reason];
    case Count:
        break;
    }
    return false;
}

RunsFilterModel::RunsFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(RunsModel::SortRole);
}

const RunsModel* RunsFilterModel::runsModel() const {
    return qobject_cast<const RunsModel*>(sourceModel());
}

void RunsFilterModel::setFilterText(const QString& text) {
    if (text == text_)
        return;
    text_ = text;
    words_ = text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    rebuildMatches();
    invalidateFilter();
}

void RunsFilterModel::rebuildMatches() const {
    matches_.clear();
    statusMatches_.clear();
    const RunsModel* model = runsModel();
    matchedTable_ = model ? model->table() : nullptr;
    if (!matchedTable_)
        return;
    const auto& strings = matchedTable_->strings;
    for (const auto& word : words_) {
        std::vector<bool> m(strings.size());
        for (std::size_t i = 0; i < strings.size(); ++i)
            m[i] = strings[i].contains(word, Qt::CaseInsensitive);
        matches_.push_back(std::move(m));
        std::vector<bool> st(allStatuses.size());
        for (const RunStatus s : allStatuses)
            st[static_cast<std::size_t>(s)] = statusText(s).contains(word, Qt::CaseInsensitive);
        statusMatches_.push_back(std::move(st));
    }
}

bool RunsFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (words_.isEmpty())
        return true;
    const RunsModel* model = runsModel();
    if (!model || !model->table())
        return true;
    Q_UNUSED(sourceParent);
    const RunTable& table = *model->table();
    if (matchedTable_ != &table)
        rebuildMatches();
    const auto& row = table.rows[static_cast<std::size_t>(sourceRow)];
    for (std::size_t w = 0; w < matches_.size(); ++w) {
        const auto& m = matches_[w];
        if (!m[row.layout] && !m[row.host] && !m[row.workload] && !m[row.reason] &&
            !statusMatches_[w][static_cast<std::size_t>(row.status)])
            return false;
    }
    return true;
}

bool RunsFilterModel::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    if (const RunsModel* model = runsModel(); model && model->table())
        return model->lessThan(left.row(), right.row(), left.column());
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace lb::gui
