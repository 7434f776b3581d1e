// The plan before anything runs: the steps each layout of a campaign runs when it is built, each
// with the command that undoes it, as `layoutbench plan` prints them. PlanModel is the table
// (one row a step; a layout that cannot be planned gets one row saying why); PlanDialog shows it
// from the Scenario and Campaign tabs, and the destroy confirmation shows the same table.
#pragma once

#include "app/gui/gui_types.h"

#include <QAbstractTableModel>
#include <QDialog>
#include <vector>

class QLabel;
class QTableView;

namespace lb::gui {

class PlanModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Layout, Step, What, Command, Undo, ColumnCount };

    explicit PlanModel(QObject* parent = nullptr);

    void setLayouts(std::vector<PlannedLayout> layouts);
    const std::vector<PlannedLayout>& layouts() const { return layouts_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row {
        std::size_t layout = 0;
        std::optional<std::size_t> step; // none: the layout's problem
    };
    std::vector<PlannedLayout> layouts_;
    std::vector<Row> rows_;
};

// A table view of a PlanModel sized for commands: the step list the dialogs share.
QTableView* makePlanView(PlanModel* model, QWidget* parent = nullptr);

class PlanDialog : public QDialog {
    Q_OBJECT
public:
    explicit PlanDialog(QWidget* parent = nullptr);

    void setPlan(const CampaignReview& review);
    PlanModel* model() const { return model_; }
    QTableView* view() const { return view_; }

private:
    PlanModel* model_ = nullptr;
    QTableView* view_ = nullptr;
    QLabel* title_ = nullptr;
};

} // namespace lb::gui
