// The Results tab's comparison table: one row per metric both layouts measured, with the medians
// in display units, the cost ratio, the overhead, the 95 % interval, the verdict (its cell coloured
// with the shared verdict colour) and whether the verdict is confident. Rows are in the verdict's
// order (lb::worstFirst: deciding metrics first, the worst first); sorting the Verdict column
// in descending order gives that order back.
#pragma once

#include "engine/measure/analysis.h"

#include <QAbstractTableModel>
#include <QString>

namespace lb::gui {

class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Metric,
        Baseline,
        Candidate,
        Ratio,
        Overhead,
        Interval,
        Verdict,
        Confident,
        Count
    };
    // Raw value of a cell for sorting (ratio, overhead, the row's place in the verdict's order
    // ...).
    static constexpr int SortRole = Qt::UserRole;

    explicit ComparisonModel(QObject* parent = nullptr);

    void setComparison(Comparison comparison);
    void clear();
    const Comparison& comparison() const { return comparison_; }
    bool hasComparison() const { return has_; }

    // "decision: put_block: 58 % more time per byte — decision required; ..." for the header line.
    QString summary() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    Comparison comparison_;
    bool has_ = false;
};

} // namespace lb::gui
