// The comparison table model (see comparison_model.h).
#include "app/gui/comparison_model.h"

#include "app/gui/gui_types.h"
#include "engine/measure/analysis.h"
#include "reports/charts.h"
#include "reports/display.h"

#include <QBrush>
#include <QColor>
#include <algorithm>
#include <cmath>
#include <optional>

namespace lb::gui {

namespace {

QString ratioText(double r) {
    if (!std::isfinite(r))
        return QStringLiteral("∞");
    return qs(display::ratio(r));
}

// The verdict colour of a deciding metric; a metric that is only shown has no verdict, so no
// colour (as in the report and compare, where it reads "shown").
std::optional<QColor> verdictBackground(const MetricComparison& m) {
    if (!m.decisive)
        return std::nullopt;
    return QColor(charts::verdictColor(m.verdict));
}

} // namespace

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonModel::setComparison(Comparison comparison) {
    beginResetModel();
    comparison_ = std::move(comparison);
    // The verdict's order, whoever made the comparison: the Verdict column sorts by it.
    std::stable_sort(comparison_.metrics.begin(), comparison_.metrics.end(), lb::worstFirst);
    has_ = true;
    endResetModel();
}

void ComparisonModel::clear() {
    beginResetModel();
    comparison_ = {};
    has_ = false;
    endResetModel();
}

QString ComparisonModel::summary() const {
    if (!has_)
        return {};
    QString text = qs(comparison_.headline);
    QStringList notes;
    for (const auto& n : comparison_.notCompared)
        notes << qs(n.name + ": " + n.reason);
    if (!notes.isEmpty())
        text += tr("\nNot compared: ") + notes.join(QStringLiteral("; "));
    return text;
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(comparison_.metrics.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : Count;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const auto& m = comparison_.metrics[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Metric:
            return qs(m.name);
        case Baseline:
            return qs(display::value(m.baselineMedian, m.unit));
        case Candidate:
            return qs(display::value(m.candidateMedian, m.unit));
        case Ratio:
            return ratioText(m.ratio);
        case Overhead:
            return std::isfinite(m.overhead) ? qs(display::percent(m.overhead))
                                             : QStringLiteral("∞");
        case Interval:
            return m.interval ? ratioText(m.interval->low) + QStringLiteral("–") +
                                    ratioText(m.interval->high)
                              : QStringLiteral("—");
        case Verdict:
            return m.decisive ? qs(verdictName(m.verdict)) : tr("shown");
        case Confident:
            if (!m.decisive)
                return QStringLiteral("—");
            return m.confident ? tr("yes") : tr("no: %1").arg(qs(m.uncertainty));
        case Count:
            break;
        }
        return {};
    case SortRole:
        switch (column) {
        case Metric:
            return qs(m.name);
        case Baseline:
            return m.baselineMedian;
        case Candidate:
            return m.candidateMedian;
        case Ratio:
            return m.ratio;
        case Overhead:
            return m.overhead;
        case Interval:
            return m.interval ? m.interval->low : 0.0;
        case Verdict: // the verdict's order: the higher, the earlier (worse)
            return rowCount() - index.row();
        case Confident:
            return m.confident;
        case Count:
            break;
        }
        return {};
    case Qt::BackgroundRole:
        if (const auto colour = verdictBackground(m); column == Verdict && colour)
            return QBrush(*colour);
        return {};
    case Qt::ForegroundRole:
        if (const auto colour = verdictBackground(m); column == Verdict && colour)
            return QBrush(colour->lightnessF() < 0.5f ? QColor(Qt::white) : QColor(Qt::black));
        if (!m.decisive)
            return QBrush(QColor(0x60, 0x60, 0x60));
        return {};
    case Qt::ToolTipRole: {
        QString tip = m.decisive ? qs(verdictReason(m)) + tr(" (decides: %1)").arg(qs(m.role))
                                 : tr("Does not decide the layout's verdict: %1").arg(qs(m.role));
        tip += tr("\n%1 baseline and %2 candidate run(s); %3")
                   .arg(m.baselineSamples)
                   .arg(m.candidateSamples)
                   .arg(m.confident ? tr("the 95 % interval lies in one band") : qs(m.uncertainty));
        for (const auto& n : m.notes)
            tip += QStringLiteral("\n• ") + qs(n);
        return tip;
    }
    case Qt::TextAlignmentRole:
        if (column == Metric)
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        if (column == Verdict || column == Confident)
            return QVariant::fromValue(Qt::AlignCenter);
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (static_cast<Column>(section)) {
        case Ratio:
            return tr("Cost ratio: the candidate's time per unit of work over the baseline's");
        case Overhead:
            return tr("Ratio − 1: how much more time the candidate takes");
        case Interval:
            return tr("95 % interval of the ratio: %1")
                .arg(QString::fromUtf8(lb::intervalMethod.data(),
                                       static_cast<qsizetype>(lb::intervalMethod.size())));
        case Confident:
            return tr("The whole interval lies inside one verdict band");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (static_cast<Column>(section)) {
    case Metric:
        return tr("Metric");
    case Baseline:
        return comparison_.baseline.empty() ? tr("Baseline") : qs(comparison_.baseline);
    case Candidate:
        return comparison_.candidate.empty() ? tr("Candidate") : qs(comparison_.candidate);
    case Ratio:
        return tr("Ratio");
    case Overhead:
        return tr("Overhead");
    case Interval:
        return tr("95 % interval");
    case Verdict:
        return tr("Verdict");
    case Confident:
        return tr("Confident");
    case Count:
        break;
    }
    return {};
}

} // namespace lb::gui
