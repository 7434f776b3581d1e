// The scenario layouts' capacity model (see capacity_model.h).
#include "app/gui/capacity_model.h"

#include "app/gui/gui_types.h"
#include "engine/base/size.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace lb::gui {

CapacityModel::CapacityModel(QObject* parent) : QAbstractTableModel(parent) {}

void CapacityModel::setLayouts(std::vector<LayoutCapacity> layouts) {
    beginResetModel();
    layouts_ = std::move(layouts);
    endResetModel();
}

int CapacityModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(layouts_.size());
}

int CapacityModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : Count;
}

QVariant CapacityModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const auto& l = layouts_[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    const auto& c = l.capacity;
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Name:
            return l.baseline ? l.name + tr(" (baseline)") : l.name;
        case Kind:
            return l.kind;
        case Disks:
            return l.disks;
        case Usable:
            return c ? qs(formatBytes(c->usableBytes)) : QStringLiteral("—");
        case Efficiency:
            return c ? QStringLiteral("%1 %").arg(c->dataEfficiency * 100.0, 0, 'f', 1)
                     : QStringLiteral("—");
        case FaultTolerance:
            if (!c)
                return QStringLiteral("—");
            if (c->faultToleranceBest != c->faultTolerance)
                return tr("%1 disk(s), up to %2").arg(c->faultTolerance).arg(c->faultToleranceBest);
            return tr("%1 disk(s)").arg(c->faultTolerance);
        case Count:
            break;
        }
        return {};
    case Qt::ToolTipRole:
        if (!c)
            return l.note;
        return tr("raw %1, usable %2 (%3)\nparity %4, padding %5, slop %6, reserved %7\n"
                  "underprovisioned %8, mixed-size waste %9")
            .arg(qs(formatBytes(c->rawBytes)), qs(formatBytes(c->usableBytes)),
                 qs(formatBytes(c->usableBytes, true)), qs(formatBytes(c->parityBytes)),
                 qs(formatBytes(c->paddingBytes)), qs(formatBytes(c->slopBytes)),
                 qs(formatBytes(c->reservedBytes)), qs(formatBytes(c->underprovisionedBytes)),
                 qs(formatBytes(c->mixedSizeWasteBytes)));
    case Qt::ForegroundRole:
        if (!c && column >= Usable)
            return QBrush(QColor(0x70, 0x70, 0x70));
        return {};
    case Qt::FontRole:
        if (l.baseline && column == Name) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (column == Name || column == Kind)
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

namespace {

// What a column counts, as the command line's --explain says it (engine/capacity).
QVariant columnMeaning(std::string_view name) {
    for (const auto& column : capacityColumns())
        if (column.name == name)
            return qs(std::string(column.meaning));
    return {};
}

} // namespace

QVariant CapacityModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (static_cast<Column>(section)) {
        case Usable:
            return columnMeaning("usable");
        case Efficiency:
            return columnMeaning("data efficiency");
        case FaultTolerance:
            return columnMeaning("tolerates");
        default:
            return {};
        }
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (static_cast<Column>(section)) {
    case Name:
        return tr("Layout");
    case Kind:
        return tr("Kind");
    case Disks:
        return tr("Disks");
    case Usable:
        return tr("Usable");
    case Efficiency:
        return tr("Data efficiency");
    case FaultTolerance:
        return tr("Survives");
    case Count:
        break;
    }
    return {};
}

} // namespace lb::gui
