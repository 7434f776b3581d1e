// The Scenario tab's layout list: each layout of the scenario being edited with its capacity
// (usable bytes, data efficiency, fault tolerance) when its disks have sizes, updated as the text
// is edited and stays valid.
#pragma once

#include "app/gui/scenario_text.h"

#include <QAbstractTableModel>
#include <vector>

namespace lb::gui {

class CapacityModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Kind, Disks, Usable, Efficiency, FaultTolerance, Count };

    explicit CapacityModel(QObject* parent = nullptr);

    void setLayouts(std::vector<LayoutCapacity> layouts);
    const std::vector<LayoutCapacity>& layouts() const { return layouts_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<LayoutCapacity> layouts_;
};

} // namespace lb::gui
