// The Results tab's runs table: a QAbstractTableModel over a shared, compact RunTable (loaded once
// per database on the store's worker thread), and the proxy that sorts and filters it. Both work
// on the interned strings and raw numbers, never on QVariants per row, so 100,000 runs sort and
// filter at once.
#pragma once

#include "app/gui/gui_types.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <QStringList>
#include <memory>
#include <vector>

namespace lb::gui {

class RunsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Id,
        Campaign,
        Layout,
        Host,
        Workload,
        Iteration,
        Status,
        Seconds,
        Metrics,
        Reason,
        Count
    };
    // Raw value of a cell for sorting: numbers as numbers, strings as text.
    static constexpr int SortRole = Qt::UserRole;

    explicit RunsModel(QObject* parent = nullptr);

    void setRuns(std::shared_ptr<const RunTable> runs);
    const RunTable* table() const { return runs_.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Ordering of two source rows by a column, on the raw fields.
    bool lessThan(int leftRow, int rightRow, int column) const;

private:
    std::shared_ptr<const RunTable> runs_;
};

// Sorts by RunsModel::lessThan and keeps the rows whose layout, host, workload, status or reason
// contains every word of the filter text (case-insensitive). Matching is decided once per distinct
// string, then looked up per row.
class RunsFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunsFilterModel(QObject* parent = nullptr);

    void setFilterText(const QString& text);
    QString filterText() const { return text_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    // Decides, per word, which interned strings and which status names contain it; again
    // whenever the model holds a new table.
    void rebuildMatches() const;
    const RunsModel* runsModel() const;

    QString text_;
    QStringList words_;
    mutable const RunTable* matchedTable_ = nullptr;
    mutable std::vector<std::vector<bool>> matches_;       // [word][string]
    mutable std::vector<std::vector<bool>> statusMatches_; // [word][RunStatus]
};

} // namespace lb::gui
