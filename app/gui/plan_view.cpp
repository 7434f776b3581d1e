// The plan table and its dialog (see plan_view.h).
#include "app/gui/plan_view.h"

#include "engine/build/plan.h"

#include <QBrush>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace lb::gui {

PlanModel::PlanModel(QObject* parent) : QAbstractTableModel(parent) {}

void PlanModel::setLayouts(std::vector<PlannedLayout> layouts) {
    beginResetModel();
    layouts_ = std::move(layouts);
    rows_.clear();
    for (std::size_t l = 0; l < layouts_.size(); ++l) {
        if (!layouts_[l].problem.empty())
            rows_.push_back({l, std::nullopt});
        for (std::size_t s = 0; s < layouts_[l].steps.size(); ++s)
            rows_.push_back({l, s});
    }
    endResetModel();
}

int PlanModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int PlanModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    const PlannedLayout& layout = layouts_[row.layout];
    if (!row.step) {
        if (role == Qt::ForegroundRole)
            return QBrush(QColor(0xb7, 0x1c, 0x1c));
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
            return {};
        switch (index.column()) {
        case Layout:
            return qs(layout.name);
        case What:
            return tr("cannot be planned: %1").arg(qs(layout.problem));
        default:
            return {};
        }
    }
    const PlanStep& step = layout.steps[*row.step];
    if (role == Qt::FontRole && (index.column() == Command || index.column() == Undo))
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Layout:
        if (role == Qt::ToolTipRole)
            return tr("%1 (%2%3)")
                .arg(qs(layout.name), qs(layout.kind),
                     layout.baseline ? tr(", baseline") : QString());
        return qs(layout.name);
    case Step:
        return static_cast<int>(*row.step) + 1;
    case What:
        return step.optional
                   ? tr("%1 (where supported; a failure is skipped)").arg(qs(step.description))
                   : qs(step.description);
    case Command:
        return qs(step.command.toUserOutput());
    case Undo:
        return qs(undoText(step)); // the undo command, or "no undo: <why>"
    default:
        return {};
    }
}

QVariant PlanModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Layout:
        return tr("Layout");
    case Step:
        return tr("#");
    case What:
        return tr("Step");
    case Command:
        return tr("Command");
    case Undo:
        return tr("Undo");
    default:
        return {};
    }
}

QTableView* makePlanView(PlanModel* model, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setWordWrap(false);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setColumnWidth(PlanModel::Layout, 100);
    view->setColumnWidth(PlanModel::Step, 32);
    view->setColumnWidth(PlanModel::What, 220);
    view->setColumnWidth(PlanModel::Command, 420);
    return view;
}

PlanDialog::PlanDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Plan"));
    title_ = new QLabel;
    title_->setWordWrap(true);
    model_ = new PlanModel(this);
    view_ = makePlanView(model_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title_);
    layout->addWidget(view_, 1);
    layout->addWidget(buttons);
    resize(1000, 480);
}

void PlanDialog::setPlan(const CampaignReview& review) {
    setWindowTitle(tr("Plan — %1").arg(qs(review.scenario)));
    title_->setText(tr("The commands each layout of <b>%1</b> runs when it is built, each with the "
                       "command that undoes it; teardown runs the undos newest first. Nothing runs "
                       "from here.")
                        .arg(qs(review.scenario).toHtmlEscaped()));
    model_->setLayouts(review.layouts);
}

} // namespace lb::gui
