#include "app/gui/fleet_tab.h"

#include "app/gui/gui_types.h"
#include "reports/fleet_text.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace lb::gui {

namespace {

// The column of fleetHostHeaders that says whether a host stands apart.
constexpr int standsColumn = 5;

} // namespace

FleetTab::FleetTab(QWidget* parent) : QWidget(parent) {
    layout_ = new QComboBox;
    layout_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    standouts_ = new QLabel;
    standouts_->setWordWrap(true);
    standouts_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    metrics_ = new QTreeWidget;
    QStringList headers;
    for (const auto& h : fleetHostHeaders)
        headers << qs(h);
    metrics_->setHeaderLabels(headers);
    metrics_->setRootIsDecorated(false);
    metrics_->setUniformRowHeights(true);
    metrics_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Layout:")));
    top->addWidget(layout_);
    top->addStretch();
    auto* box = new QVBoxLayout(this);
    box->addLayout(top);
    box->addWidget(standouts_);
    box->addWidget(metrics_, 1);
    connect(layout_, &QComboBox::currentIndexChanged, this, &FleetTab::showLayout);
    clear(tr("No database is open."));
}

void FleetTab::clear(const QString& why) {
    fleet_.clear();
    layout_->clear();
    layout_->setEnabled(false);
    metrics_->clear();
    standouts_->setText(why);
}

void FleetTab::setFleet(const std::vector<FleetAnalysis>& fleet) {
    if (fleet.empty()) {
        clear(tr("No layout holds runs of more than one machine. A fleet run (layoutbench fleet "
                 "run) or databases merged with their hosts' names give one."));
        return;
    }
    fleet_ = fleet;
    const QSignalBlocker quiet(layout_);
    layout_->clear();
    for (const auto& a : fleet_)
        layout_->addItem(tr("%1 (%2 hosts)").arg(qs(a.layout)).arg(a.hosts.size()));
    layout_->setEnabled(true);
    layout_->setCurrentIndex(0);
    showLayout(0);
}

void FleetTab::showLayout(int index) {
    metrics_->clear();
    if (index < 0 || static_cast<std::size_t>(index) >= fleet_.size())
        return;
    const auto& a = fleet_[static_cast<std::size_t>(index)];
    QStringList lines;
    for (const auto& s : a.standouts)
        lines << (s.worse ? QStringLiteral("<b>%1</b>") : QStringLiteral("%1"))
                     .arg(qs(s.sentence).toHtmlEscaped());
    standouts_->setText(lines.isEmpty() ? tr("No host stands apart.")
                                        : lines.join(QStringLiteral("<br>")));
    for (const auto& m : a.metrics) {
        auto* title = new QTreeWidgetItem(metrics_, QStringList{qs(fleetMetricTitle(m))});
        title->setFirstColumnSpanned(true);
        QFont bold = title->font(0);
        bold.setBold(true);
        title->setFont(0, bold);
        for (const auto& row : fleetHostRows(m)) {
            QStringList cells;
            for (const auto& c : row)
                cells << qs(c);
            auto* item = new QTreeWidgetItem(metrics_, cells);
            for (int c = 1; c <= 4; ++c)
                item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
            if (!row[standsColumn].empty())
                for (int c = 0; c < item->columnCount(); ++c)
                    item->setFont(c, bold);
        }
    }
}

} // namespace lb::gui
