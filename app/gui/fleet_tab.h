// The Fleet tab: each layout measured on several machines (a fleet run, merged databases), its
// hosts side by side as `fleet report` shows them (engine/workbench/fleet.h): the hosts that
// stand apart, worst first, above every deciding metric host by host — median, 95 % interval,
// runs, distance from the fleet's median — with the hosts that stand apart marked.
#pragma once

#include "engine/measure/fleet.h"

#include <QWidget>
#include <vector>

class QComboBox;
class QLabel;
class QTreeWidget;

namespace lb::gui {

class FleetTab : public QWidget {
    Q_OBJECT
public:
    explicit FleetTab(QWidget* parent = nullptr);

    // The open database's fleet (fleetAnalyses); shows the first layout, or says there is none.
    void setFleet(const std::vector<FleetAnalysis>& fleet);
    // Says why there is no fleet to show (the database could not be read).
    void clear(const QString& why);

    QComboBox* layoutBox() const { return layout_; }
    QLabel* standouts() const { return standouts_; }
    QTreeWidget* metrics() const { return metrics_; }

private:
    void showLayout(int index);

    std::vector<FleetAnalysis> fleet_;
    QComboBox* layout_ = nullptr;
    QLabel* standouts_ = nullptr;
    QTreeWidget* metrics_ = nullptr;
};

} // namespace lb::gui
