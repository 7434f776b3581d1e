// The Projection tab: inputs on top, the chart in the middle, the summary below. Every edit
// recomputes; a projection takes well under a millisecond.
#include "app/gui/projection_tab.h"

#include "app/gui/gui_types.h"
#include "engine/base/install_paths.h"
#include "engine/base/size.h"
#include "engine/build/layout_spec.h"
#include "engine/capacity/layout.h"
#include "engine/capacity/projection.h"
#include "engine/workbench.h"
#include "reports/charts.h"
#include "reports/display.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace lb::gui {

// The stored layout (or "New layout…"), an imported one's capacity, the use, growth and horizon.
QFormLayout* ProjectionTab::makeLayoutFields() {
    layout_ = new QComboBox;
    layout_->setObjectName("projection-layout");
    capacity_ = new QLineEdit;
    capacity_->setObjectName("projection-capacity");
    capacity_->setPlaceholderText(tr("imported layouts: usable size, e.g. 12T"));
    capacity_->setToolTip(tr("The usable capacity of an imported layout: its results came from "
                             "elsewhere and its disks are unknown"));
    capacity_->setEnabled(false);
    used_ = new QLineEdit("1T");
    used_->setObjectName("projection-used");
    used_->setToolTip(tr("Bytes in use now, e.g. 1.2T"));
    growth_ = new QLineEdit("30%");
    growth_->setObjectName("projection-growth");
    growth_->setToolTip(tr("Yearly growth: 30% (compound) or 2TB/y (linear)"));
    years_ = new QSpinBox;
    years_->setObjectName("projection-years");
    years_->setRange(1, 50);
    years_->setValue(5);
    auto* form = new QFormLayout;
    form->addRow(tr("&Layout:"), layout_);
    form->addRow(tr("&Capacity:"), capacity_);
    form->addRow(tr("&Used now:"), used_);
    form->addRow(tr("&Growth per year:"), growth_);
    form->addRow(tr("&Years:"), years_);
    return form;
}

// A layout that does not exist yet, as `project --kind --disks --disk-size`.
QFormLayout* ProjectionTab::makeNewLayoutFields() {
    kind_ = new QComboBox;
    kind_->setObjectName("projection-kind");
    for (const LayoutKind k : diskLayoutKinds())
        kind_->addItem(qs(layoutKindName(k)));
    kind_->setCurrentText(qs(layoutKindName(LayoutKind::ZfsRaidz2)));
    kind_->setToolTip(tr("The kind of the new layout"));
    disks_ = new QSpinBox;
    disks_->setObjectName("projection-disks");
    disks_->setRange(0, 1024);
    disks_->setValue(6);
    disks_->setToolTip(tr("Disks of the new layout; 0 with one size per disk: one disk a size"));
    diskSize_ = new QLineEdit("4T");
    diskSize_->setObjectName("projection-disk-size");
    diskSize_->setPlaceholderText(tr("empty: the drive's capacity"));
    diskSize_->setToolTip(tr("Each disk's size: 500G (10^9 bytes), 4TiB (2^40 bytes), or one per "
                             "disk (500G,500G,1T); empty: the chosen drive's capacity"));
    auto* fresh = new QFormLayout;
    fresh->addRow(tr("&Kind:"), kind_);
    fresh->addRow(tr("D&isks:"), disks_);
    fresh->addRow(tr("Disk si&ze:"), diskSize_);
    return fresh;
}

// What the drives cost and wear, beside what the layout holds: the window fits 768 lines.
QFormLayout* ProjectionTab::makeDriveFields() {
    drive_ = new QComboBox;
    drive_->setObjectName("projection-drive");
    drive_->addItem(tr("(none)"), QString());
    hostWrites_ = new QLineEdit;
    hostWrites_->setObjectName("projection-host-writes");
    hostWrites_->setPlaceholderText(tr("e.g. 100G/d"));
    price_ = new QLineEdit;
    price_->setObjectName("projection-price");
    price_->setPlaceholderText(tr("per drive (180) or per TB (25/TB)"));
    price_->setToolTip(tr("What a drive costs you; over the catalog's illustrative price"));
    writeAmplification_ = new QLineEdit;
    writeAmplification_->setObjectName("projection-write-amplification");
    writeAmplification_->setPlaceholderText(tr("the layout's model"));
    writeAmplification_->setToolTip(
        tr("Device writes per host write, e.g. 3.0, over the layout's model"));

    auto* drives = new QFormLayout;
    drives->addRow(tr("&Drive:"), drive_);
    drives->addRow(tr("&Host writes:"), hostWrites_);
    drives->addRow(tr("&Price:"), price_);
    drives->addRow(tr("&Write amplification:"), writeAmplification_);

    return drives;
}

ProjectionTab::ProjectionTab(QWidget* parent) : QWidget(parent) {
    plot_ = new QCustomPlot;
    plot_->setObjectName("projection-plot");
    plot_->setMinimumHeight(260);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    summary_ = new QLabel;
    summary_->setObjectName("projection-summary");
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    risk_ = new QLabel;
    risk_->setObjectName("projection-risk");
    risk_->setWordWrap(true);
    risk_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* top = new QHBoxLayout;
    top->addLayout(makeLayoutFields());
    top->addSpacing(24);
    top->addLayout(makeNewLayoutFields());
    top->addSpacing(24);
    top->addLayout(makeDriveFields());
    top->addStretch(1);
    auto* box = new QVBoxLayout(this);
    box->addLayout(top);
    box->addWidget(plot_, 1);
    box->addWidget(summary_);
    box->addWidget(risk_);

    auto changed = [this] { recompute(); };
    connect(layout_, &QComboBox::currentIndexChanged, this, [this] {
        layoutChosen();
        recompute();
    });
    connect(capacity_, &QLineEdit::editingFinished, this, changed);
    connect(kind_, &QComboBox::currentIndexChanged, this, changed);
    connect(disks_, &QSpinBox::valueChanged, this, changed);
    connect(diskSize_, &QLineEdit::editingFinished, this, changed);
    connect(drive_, &QComboBox::currentIndexChanged, this, changed);
    connect(years_, &QSpinBox::valueChanged, this, changed);
    for (QLineEdit* edit : {used_, growth_, hostWrites_, price_, writeAmplification_})
        connect(edit, &QLineEdit::editingFinished, this, changed);
    if (auto catalog = loadDriveCatalog(defaultDriveCatalogPath()))
        setCatalog(*catalog);
    {
        const QSignalBlocker block(layout_);
        layout_->addItem(tr("New layout…"));
    }
    layoutChosen();
    showMessage(tr("Open a database with a layout whose disks are known, or describe a new "
                   "layout by its kind, disks and disk size."));
}

void ProjectionTab::setLayouts(const std::vector<LayoutRecord>& layouts) {
    const QString current = layout_->currentText();
    // "New layout…" alone was no choice: a database's first layout is shown when it has one.
    const bool newLayoutAlone = layouts_.empty();
    layouts_.clear();
    for (const auto& l : layouts)
        if (capacityFromSpec(l.spec, l.kind) || layoutSpecIsImported(l.spec))
            layouts_.push_back(l);
    {
        const QSignalBlocker block(layout_);
        layout_->clear();
        for (const auto& l : layouts_)
            layout_->addItem(qs(l.name));
        layout_->addItem(tr("New layout…"));
        const int again = newLayoutAlone ? 0 : layout_->findText(current);
        if (again >= 0)
            layout_->setCurrentIndex(again);
    }
    layoutChosen();
    recompute();
}

void ProjectionTab::chooseNewLayout() {
    layout_->setCurrentIndex(static_cast<int>(layouts_.size()));
}

bool ProjectionTab::newLayoutChosen() const {
    return layout_->currentIndex() == static_cast<int>(layouts_.size());
}

const LayoutRecord* ProjectionTab::chosen() const {
    const int index = layout_->currentIndex();
    if (index < 0 || static_cast<std::size_t>(index) >= layouts_.size())
        return nullptr;
    return &layouts_[static_cast<std::size_t>(index)];
}

void ProjectionTab::layoutChosen() {
    const LayoutRecord* l = chosen();
    const bool imported = l && layoutSpecIsImported(l->spec);
    capacity_->setEnabled(imported);
    capacity_->setText(imported ? capacities_[l->name] : QString());
    const bool fresh = newLayoutChosen();
    kind_->setEnabled(fresh);
    disks_->setEnabled(fresh);
    diskSize_->setEnabled(fresh);
    // Price, endurance and wear need disks.
    drive_->setEnabled(!imported);
    hostWrites_->setEnabled(!imported);
    price_->setEnabled(!imported);
    writeAmplification_->setEnabled(!imported);
}

void ProjectionTab::setCatalog(const DriveCatalog& catalog) {
    catalog_ = catalog;
    const QSignalBlocker block(drive_);
    drive_->clear();
    drive_->addItem(tr("(none)"), QString());
    for (const auto& d : catalog_.drives)
        drive_->addItem(qs(d.model), qs(d.id));
}

std::optional<Expected<LayoutProjection>>
ProjectionTab::project(const ProjectionRequest& request) const {
    if (const LayoutRecord* l = chosen())
        return projectStoredLayout(*l, request);
    HypotheticalLayoutSettings settings;
    settings.kinds = {ss(kind_->currentText())};
    settings.disks = static_cast<unsigned>(disks_->value());
    settings.diskSize = ss(diskSize_->text().trimmed());
    auto layouts = hypotheticalLayouts(settings, request.drive);
    if (!layouts)
        return Expected<LayoutProjection>(fail(layouts.error()));
    HypotheticalLayout& h = layouts->front();
    return projectLayout(projectionInput(h.name, std::move(h.layout), request));
}

QString ProjectionTab::fieldError(const Error& error) const {
    // Without a disk size typed, the disks are the chosen drive's size.
    const bool driveSized =
        diskSize_->text().trimmed().isEmpty() && !drive_->currentData().toString().isEmpty();
    const QString diskSize =
        driveSized ? tr("Drive (its capacity is the disk size)") : tr("Disk size");
    return fieldMessage(error, {{"used", tr("Used now")},
                                {"growth", tr("Growth per year")},
                                {"years", tr("Years")},
                                {"host-writes", tr("Host writes")},
                                {"capacity", tr("Capacity")},
                                {"price", tr("Price")},
                                {"write-amplification", tr("Write amplification")},
                                {"kind", tr("Kind")},
                                {"disks", tr("Disks")},
                                {"disk-size", diskSize}});
}

void ProjectionTab::showMessage(const QString& text) {
    plot_->clearPlottables();
    plot_->clearItems();
    plot_->legend->setVisible(false);
    plot_->replot();
    summary_->setText(text);
    risk_->clear();
}

std::optional<ProjectionSettings>
ProjectionTab::settingsOfFields(const LayoutRecord* chosenLayout) {
    ProjectionSettings settings;
    settings.used = ss(used_->text().trimmed());
    settings.growth = ss(growth_->text().trimmed());
    settings.years = static_cast<unsigned>(years_->value());
    if (chosenLayout && layoutSpecIsImported(chosenLayout->spec)) {
        const LayoutRecord& l = *chosenLayout;
        // Its disks are unknown: the capacity typed for it is all there is to project against.
        const QString capacity = capacity_->text().trimmed();
        capacities_[l.name] = capacity;
        if (capacity.isEmpty()) {
            showMessage(tr("%1 holds imported results: its disks are unknown, so it has no "
                           "capacity model. Type its usable capacity (e.g. 12T) under Capacity "
                           "to project it.")
                            .arg(qs(l.name)));
            return std::nullopt;
        }
        settings.capacities.push_back(l.name + "=" + ss(capacity));
    } else {
        settings.hostWrites = ss(hostWrites_->text().trimmed());
        settings.price = ss(price_->text().trimmed());
        if (const QString wa = writeAmplification_->text().trimmed(); !wa.isEmpty())
            settings.writeAmplification.push_back(ss(wa));
        if (const QString id = drive_->currentData().toString(); !id.isEmpty())
            if (const Drive* d = catalog_.find(ss(id)))
                settings.drive = *d;
    }
    return settings;
}

bool ProjectionTab::recompute() {
    const LayoutRecord* chosenLayout = chosen();
    const bool fresh = newLayoutChosen();
    if (!chosenLayout && !fresh) {
        showMessage(tr("Choose a layout."));
        return false;
    }
    const auto settings = settingsOfFields(chosenLayout);
    if (!settings)
        return false;
    auto request = projectionRequest(*settings);
    if (!request) {
        showMessage(fieldError(request.error()));
        return false;
    }
    auto projection = project(*request);
    if (!projection) {
        showMessage(tr("%1 has no capacity model.").arg(qs(chosenLayout->name)));
        return false;
    }
    if (!*projection) {
        showMessage(fieldError(projection->error()));
        return false;
    }
    const LayoutProjection& p = **projection;
    // In the unit the sizes were typed in, by the command line's rule: the summary and the axis.
    const bool binary =
        projectionInBinaryUnits(fresh ? ss(diskSize_->text()) : std::string(), ss(used_->text()));
    charts::buildProjectionChart(*plot_, p, binary);
    plot_->replot();

    const auto bytes = [binary](std::uint64_t b) { return qs(formatBytes(b, binary)); };

    QStringList lines;
    lines << tr("Usable %1, ceiling %2 % = %3; %4.")
                 .arg(bytes(p.capacity.usableBytes) +
                      (p.capacityGiven ? tr(" (given)") : QString()))
                 .arg(p.ceilingFraction * 100.0, 0, 'f', 0)
                 .arg(bytes(p.ceilingBytes))
                 .arg(p.ceilingMonth
                          ? tr("the ceiling is passed in month %1 without expansion")
                                .arg(*p.ceilingMonth)
                          : tr("the ceiling is not passed within %1 years").arg(request->years));
    for (const auto& e : p.expansions) {
        QString line = tr("%1: %2 disk(s) a step, %3 disk(s) bought")
                           .arg(qs(expansionKindName(e.kind)))
                           .arg(e.disksPerStep)
                           .arg(e.disksBought);
        if (!e.schedule.empty())
            line += tr(", first in month %1").arg(e.schedule.front().month);
        if (e.totalCostUsd)
            line += tr(", $%1").arg(*e.totalCostUsd, 0, 'f', 0);
        if (!e.keepsUp)
            line += tr(" (reaches its limit)");
        lines << line + ".";
    }
    if (p.capacityGiven)
        for (const auto& note : p.notes)
            lines << qs(note);
    if (p.wear) {
        const auto& w = *p.wear;
        QString line =
            tr("Wear: write amplification %1%2, %3 a day per disk")
                .arg(w.writeAmplification, 0, 'f', 2)
                .arg(w.modelled ? tr(" (given; the layout's model says %1)")
                                      .arg(w.modelled->factor, 0, 'f', 2)
                                : QString())
                .arg(bytes(static_cast<std::uint64_t>(std::llround(w.deviceBytesPerDay))));
        if (w.years)
            line += std::isfinite(*w.years)
                        ? tr("; rated endurance in %1 years").arg(*w.years, 0, 'f', 1)
                        : tr("; rated endurance never reached");
        if (w.replacementDisks > 0)
            line += tr("; %1 disk(s) bought again").arg(w.replacementDisks);
        lines << line + ".";
    }
    if (p.cost)
        lines << qs(display::horizonCost(*p.cost, request->years));
    summary_->setText(lines.join("\n"));
    risk_->setText(p.risk ? tr("Risk: %1").arg(qs(riskStatement(*p.risk, binary))) : QString());
    return true;
}

} // namespace lb::gui
