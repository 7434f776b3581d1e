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

namespace {

const QString guestKind = QString::fromUtf8(layoutKindName(LayoutKind::Guest));

// "New layout…" before anything is typed: six 4 TB disks in RAIDZ2, whole.
LayoutFields defaultNewLayout() {
    LayoutFields f;
    f.kind = layoutKindName(LayoutKind::ZfsRaidz2);
    f.inner = layoutKindName(LayoutKind::MdRaid6);
    f.guestPool = layoutKindName(LayoutKind::ZfsStripe);
    f.disks = 6;
    f.diskSize = "4T";
    f.underprovision = fractionText(1.0);
    return f;
}

} // namespace

// The layout (or "New layout…"), an imported one's capacity or disks, the use, growth and horizon.
QFormLayout* ProjectionTab::makeLayoutFields() {
    layout_ = new QComboBox;
    layout_->setObjectName("projection-layout");
    capacity_ = new QLineEdit;
    capacity_->setObjectName("projection-capacity");
    capacity_->setPlaceholderText(tr("usable size, e.g. 12T"));
    capacity_->setToolTip(tr("The usable capacity of an imported layout (zfs list or df): its "
                             "results came from elsewhere and its disks are unknown"));
    importedDisks_ = new QLineEdit;
    importedDisks_->setObjectName("projection-imported-disks");
    importedDisks_->setPlaceholderText(tr("or its disks: zfs-raidz2,10,500G,80%"));
    importedDisks_->setToolTip(
        tr("The disks an imported layout was built on: KIND,DISKS[,SIZE][,PARTITIONED] "
           "(guest:md-raid6 for a guest's pool on md RAID6); its capacity, expansions, cost and "
           "wear are then modelled"));
    used_ = new QLineEdit;
    used_->setObjectName("projection-used");
    used_->setPlaceholderText(tr("e.g. 1.2T"));
    used_->setToolTip(tr("Bytes in use now, e.g. 1.2T; empty: half the layout's fill ceiling"));
    growth_ = new QLineEdit("30%");
    growth_->setObjectName("projection-growth");
    growth_->setToolTip(tr("Yearly growth: 30% (compound) or 2TB/y (linear)"));
    years_ = new QSpinBox;
    years_->setObjectName("projection-years");
    years_->setRange(1, 50);
    years_->setValue(5);
    layoutForm_ = new QFormLayout;
    layoutForm_->addRow(tr("&Layout:"), layout_);
    layoutForm_->addRow(tr("&Capacity:"), capacity_);
    layoutForm_->addRow(tr("Its di&sks:"), importedDisks_);
    layoutForm_->addRow(tr("&Used now:"), used_);
    layoutForm_->addRow(tr("&Growth per year:"), growth_);
    layoutForm_->addRow(tr("&Years:"), years_);
    return layoutForm_;
}

// The layout's kind, disks and partitions: typed for a new layout, as `project --kind --disks
// --disk-size --underprovision` (a guest with --inner and --guest-pool) takes them.
QFormLayout* ProjectionTab::makeNewLayoutFields() {
    kind_ = new QComboBox;
    kind_->setObjectName("projection-kind");
    for (const LayoutKind k : diskLayoutKinds())
        kind_->addItem(qs(layoutKindName(k)));
    kind_->addItem(guestKind);
    kind_->setToolTip(tr("The kind of the layout"));
    inner_ = new QComboBox;
    inner_->setObjectName("projection-inner");
    for (const LayoutKind k : diskLayoutKinds())
        if (isMd(k))
            inner_->addItem(qs(layoutKindName(k)));
    inner_->setToolTip(tr("The md array passed to the guest as one disk"));
    guestPool_ = new QComboBox;
    guestPool_->setObjectName("projection-guest-pool");
    guestPool_->addItem(qs(layoutKindName(LayoutKind::ZfsStripe)));
    guestPool_->setToolTip(tr("The guest's pool on that one disk"));
    disks_ = new QSpinBox;
    disks_->setObjectName("projection-disks");
    disks_->setRange(0, 1024);
    disks_->setToolTip(tr("Disks of the layout; 0 with one size per disk: one disk a size"));
    diskSize_ = new QLineEdit;
    diskSize_->setObjectName("projection-disk-size");
    diskSize_->setPlaceholderText(tr("empty: the drive's capacity"));
    diskSize_->setToolTip(tr("Each disk's size: 500G (10^9 bytes), 4TiB (2^40 bytes), or one per "
                             "disk (500G,500G,1T); empty: the chosen drive's capacity"));
    underprovision_ = new QLineEdit;
    underprovision_->setObjectName("projection-underprovision");
    underprovision_->setToolTip(tr("The part of each disk partitioned, 0.8 or 80%, so an SSD "
                                   "keeps the rest spare; 100%: whole disks"));
    freshForm_ = new QFormLayout;
    freshForm_->addRow(tr("&Kind:"), kind_);
    freshForm_->addRow(tr("I&nner layout:"), inner_);
    freshForm_->addRow(tr("Guest p&ool:"), guestPool_);
    freshForm_->addRow(tr("D&isks:"), disks_);
    freshForm_->addRow(tr("Disk si&ze:"), diskSize_);
    freshForm_->addRow(tr("Underpro&vision:"), underprovision_);
    return freshForm_;
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
    fill_ = new QLabel;
    fill_->setObjectName("projection-fill");
    fill_->setWordWrap(true);
    fill_->setTextInteractionFlags(Qt::TextSelectableByMouse);

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
    box->addWidget(fill_);

    fresh_ = defaultNewLayout();
    showLayoutFields(fresh_, true);
    connectFields();
    if (auto catalog = loadDriveCatalog(defaultDriveCatalogPath()))
        setCatalog(*catalog);
    {
        const QSignalBlocker block(layout_);
        layout_->addItem(tr("New layout…"));
    }
    layoutChosen();
    showMessage(tr("Open a database or a scenario with a layout whose disks are known, or "
                   "describe a new layout by its kind, disks and disk size."));
}

void ProjectionTab::connectFields() {
    auto changed = [this] { recompute(); };
    connect(layout_, &QComboBox::activated, this, [this] {
        const ProjectableLayout* l = chosen();
        userChoice_ = l ? l->record.name : std::string();
    });
    connect(layout_, &QComboBox::currentIndexChanged, this, [this] {
        layoutChosen();
        recompute();
    });
    connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
        showRows();
        recompute();
    });
    for (QLineEdit* edit : {capacity_, importedDisks_})
        connect(edit, &QLineEdit::editingFinished, this, [this] {
            enableDriveFields();
            recompute();
        });
    for (QComboBox* box : {inner_, guestPool_, drive_})
        connect(box, &QComboBox::currentIndexChanged, this, changed);
    connect(disks_, &QSpinBox::valueChanged, this, changed);
    connect(years_, &QSpinBox::valueChanged, this, changed);
    for (QLineEdit* edit :
         {used_, growth_, diskSize_, underprovision_, hostWrites_, price_, writeAmplification_})
        connect(edit, &QLineEdit::editingFinished, this, changed);
}

void ProjectionTab::setLayouts(const std::vector<LayoutRecord>& layouts,
                               const std::map<std::string, MeasuredRebuild>& rebuilds) {
    stored_ = layouts;
    rebuilds_ = rebuilds;
    offerLayouts();
}

void ProjectionTab::setScenario(const Scenario& scenario) {
    scenario_ = scenarioLayoutRecords(scenario);
    offerLayouts();
}

void ProjectionTab::offerLayouts() {
    offered_ = projectableLayouts(stored_, scenario_);
    // The user's choice while it is offered; else the first layout whose disks are known.
    std::optional<std::size_t> index;
    for (std::size_t i = 0; i < offered_.size() && userChoice_; ++i)
        if (offered_[i].record.name == *userChoice_)
            index = i;
    const bool keepNew = userChoice_ && userChoice_->empty();
    if (!index && !keepNew)
        index = firstProjectable(offered_);
    {
        const QSignalBlocker block(layout_);
        layout_->clear();
        for (const auto& l : offered_) {
            layout_->addItem(qs(l.record.name));
            layout_->setItemData(layout_->count() - 1,
                                 l.fromScenario ? tr("The scenario's, not built yet")
                                 : l.disksKnown
                                     ? tr("The database's, as its campaign recorded it")
                                     : tr("Imported results: give its capacity or its disks"),
                                 Qt::ToolTipRole);
        }
        layout_->addItem(tr("New layout…"));
        layout_->setCurrentIndex(static_cast<int>(index.value_or(offered_.size())));
    }
    layoutChosen();
    recompute();
}

void ProjectionTab::chooseNewLayout() {
    userChoice_ = std::string();
    layout_->setCurrentIndex(static_cast<int>(offered_.size()));
}

bool ProjectionTab::newLayoutChosen() const {
    return layout_->currentIndex() == static_cast<int>(offered_.size());
}

const ProjectableLayout* ProjectionTab::chosen() const {
    const int index = layout_->currentIndex();
    if (index < 0 || static_cast<std::size_t>(index) >= offered_.size())
        return nullptr;
    return &offered_[static_cast<std::size_t>(index)];
}

bool ProjectionTab::chosenImported() const {
    const ProjectableLayout* l = chosen();
    return l && !l->disksKnown;
}

std::vector<LayoutRecord> ProjectionTab::records() const {
    if (const ProjectableLayout* l = chosen())
        return {l->record};
    return {};
}

LayoutFields ProjectionTab::typedLayoutFields() const {
    LayoutFields f;
    f.kind = ss(kind_->currentText());
    f.inner = ss(inner_->currentText());
    f.guestPool = ss(guestPool_->currentText());
    f.disks = static_cast<unsigned>(disks_->value());
    f.diskSize = ss(diskSize_->text().trimmed());
    f.underprovision = ss(underprovision_->text().trimmed());
    return f;
}

void ProjectionTab::showLayoutFields(const LayoutFields& f, bool editable) {
    const QSignalBlocker blockKind(kind_), blockInner(inner_), blockPool(guestPool_),
        blockDisks(disks_);
    kind_->setCurrentText(qs(f.kind));
    if (!f.inner.empty())
        inner_->setCurrentText(qs(f.inner));
    if (!f.guestPool.empty())
        guestPool_->setCurrentText(qs(f.guestPool));
    disks_->setValue(static_cast<int>(f.disks));
    diskSize_->setText(qs(f.diskSize));
    underprovision_->setText(qs(f.underprovision));
    for (QWidget* w : std::initializer_list<QWidget*>{kind_, inner_, guestPool_, disks_, diskSize_,
                                                      underprovision_})
        w->setEnabled(editable);
}

void ProjectionTab::layoutChosen() {
    const ProjectableLayout* l = chosen();
    if (l && freshShown_)
        fresh_ = typedLayoutFields(); // kept while another layout's fields are shown
    freshShown_ = !l;
    if (!l)
        showLayoutFields(fresh_, true);
    else if (const auto own = layoutFields(l->record))
        showLayoutFields(*own, false);
    const bool imported = chosenImported();
    capacity_->setText(imported ? typedCapacities_[l->record.name] : QString());
    importedDisks_->setText(imported ? typedDisks_[l->record.name] : QString());
    enableDriveFields();
    showRows();
}

void ProjectionTab::enableDriveFields() {
    const bool on = !chosenImported() || !importedDisks_->text().trimmed().isEmpty();
    for (QWidget* w :
         std::initializer_list<QWidget*>{drive_, hostWrites_, price_, writeAmplification_})
        w->setEnabled(on);
}

void ProjectionTab::showRows() {
    // An imported layout has no recorded kind, disks or sizes to show: its capacity or disks
    // are typed instead. A guest's inner array and pool are shown for a guest alone.
    const bool imported = chosenImported();
    layoutForm_->setRowVisible(capacity_, imported);
    layoutForm_->setRowVisible(importedDisks_, imported);
    for (QWidget* w : std::initializer_list<QWidget*>{kind_, disks_, diskSize_, underprovision_})
        freshForm_->setRowVisible(w, !imported);
    const bool guest = !imported && kind_->currentText() == guestKind;
    // A stored ZFS pool on the host's md array shows its array too.
    const ProjectableLayout* l = chosen();
    const auto own = l && !imported ? layoutFields(l->record) : std::nullopt;
    freshForm_->setRowVisible(inner_, guest || (own && !own->inner.empty()));
    freshForm_->setRowVisible(guestPool_, guest);
}

bool ProjectionTab::rowShown(QWidget* field) const {
    for (const QFormLayout* form : {layoutForm_, freshForm_})
        if (form->indexOf(field) >= 0)
            return form->isRowVisible(field);
    return field->isVisibleTo(const_cast<ProjectionTab*>(this));
}

void ProjectionTab::setCatalog(const DriveCatalog& catalog) {
    catalog_ = catalog;
    const QSignalBlocker block(drive_);
    drive_->clear();
    drive_->addItem(tr("(none)"), QString());
    for (const auto& d : catalog_.drives)
        drive_->addItem(qs(d.model), qs(d.id));
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
                                {"imported-disks", tr("Its disks")},
                                {"price", tr("Price")},
                                {"write-amplification", tr("Write amplification")},
                                {"kind", tr("Kind")},
                                {"inner", tr("Inner layout")},
                                {"guest-pool", tr("Guest pool")},
                                {"disks", tr("Disks")},
                                {"disk-size", diskSize},
                                {"underprovision", tr("Underprovision")},
                                {"layout", tr("Layout")}});
}

void ProjectionTab::showMessage(const QString& text) {
    plot_->clearPlottables();
    plot_->clearItems();
    plot_->legend->setVisible(false);
    plot_->replot();
    summary_->setText(text);
    risk_->clear();
    fill_->clear();
}

std::optional<ProjectionAsk> ProjectionTab::askOfFields(QString& why) {
    ProjectionAsk ask;
    ProjectionSettings& s = ask.settings;
    s.used = ss(used_->text().trimmed());
    s.growth = ss(growth_->text().trimmed());
    s.years = static_cast<unsigned>(years_->value());
    const ProjectableLayout* l = chosen();
    if (l)
        ask.stored = {l->record.name};
    if (l && !l->disksKnown) {
        // Its disks are unknown: the capacity or the disks typed for it are all there is.
        const QString capacity = capacity_->text().trimmed();
        const QString disks = importedDisks_->text().trimmed();
        typedCapacities_[l->record.name] = capacity;
        typedDisks_[l->record.name] = disks;
        if (capacity.isEmpty() && disks.isEmpty()) {
            why = tr("%1 holds imported results: its disks are unknown, so it has no "
                     "capacity model. Type its usable capacity (e.g. 12T) under Capacity, "
                     "or its disks (e.g. zfs-raidz2,10,500G,80%), to project it.")
                      .arg(qs(l->record.name));
            return std::nullopt;
        }
        if (!capacity.isEmpty())
            s.capacities = {l->record.name + "=" + ss(capacity)};
        if (!disks.isEmpty())
            s.importedDisks = {l->record.name + "=" + ss(disks)};
    }
    if (!l) {
        const LayoutFields typed = typedLayoutFields();
        HypotheticalLayoutSettings& h = ask.hypothetical;
        h.kinds = {typed.kind};
        h.disks = typed.disks;
        h.diskSize = typed.diskSize;
        // As the command line's --underprovision reads it: 0.8 or 80%.
        auto fraction = parseFraction(typed.underprovision);
        if (!fraction) {
            why = fieldError(Error::badInput("underprovision: " + fraction.error().message));
            return std::nullopt;
        }
        h.underprovision = *fraction;
        if (typed.kind == ss(guestKind)) {
            h.inner = typed.inner;
            h.guestPool = typed.guestPool;
        }
    }
    if (drive_->isEnabled()) {
        if (const QString id = drive_->currentData().toString(); !id.isEmpty())
            if (const Drive* d = catalog_.find(ss(id)))
                s.drive = *d;
        s.hostWrites = ss(hostWrites_->text().trimmed());
        s.price = ss(price_->text().trimmed());
        if (const QString wa = writeAmplification_->text().trimmed(); !wa.isEmpty())
            s.writeAmplification.push_back(ss(wa));
    }
    return ask;
}

bool ProjectionTab::usedIsSuggested() const {
    const QString typed = used_->text().trimmed();
    return typed.isEmpty() || typed == usedSuggested_;
}

void ProjectionTab::forgetSuggestedUse() {
    // It was another layout's, or one this layout cannot have: not shown as this one's.
    if (usedIsSuggested())
        used_->clear();
    usedSuggested_.clear();
}

bool ProjectionTab::recompute() {
    projection_.reset();
    QString why;
    auto ask = askOfFields(why);
    if (!ask) {
        forgetSuggestedUse();
        showMessage(why);
        return false;
    }
    if (usedIsSuggested()) {
        // A use this layout can hold until one is typed (engine: half its fill ceiling).
        auto used = suggestedUse(*ask, records());
        if (!used) {
            forgetSuggestedUse();
            showMessage(fieldError(used.error()));
            return false;
        }
        usedSuggested_ = qs(*used);
        used_->setText(usedSuggested_);
        ask->settings.used = *used;
    }
    // The engine's own path, as `project` takes it: checked, planned, projected.
    auto plan = planProjection(*ask, records(), rebuilds_);
    if (!plan) {
        showMessage(fieldError(plan.error()));
        return false;
    }
    auto projected = projectPlan(*plan);
    if (!projected) {
        showMessage(fieldError(projected.error()));
        return false;
    }
    projection_ = std::move(projected->front());
    showProjection(*projection_, *plan);
    return true;
}

void ProjectionTab::showProjection(const LayoutProjection& p, const ProjectionPlan& plan) {
    const bool binary = plan.binaryUnits;
    const unsigned years = plan.request.years;
    charts::buildProjectionChart(*plot_, p, binary);
    plot_->replot();

    const auto bytes = [binary](std::uint64_t b) { return qs(formatBytes(b, binary)); };

    QStringList lines;
    lines << tr("Usable %1, ceiling %2 % = %3; %4.")
                 .arg(bytes(p.capacity.usableBytes) +
                      (p.capacityGiven ? tr(" (given)") : QString()))
                 .arg(p.ceilingFraction * 100.0, 0, 'f', 0)
                 .arg(bytes(p.ceilingBytes))
                 .arg(p.ceilingMonth ? tr("the ceiling is passed in month %1 without expansion")
                                           .arg(*p.ceilingMonth)
                                     : tr("the ceiling is not passed within %1 years").arg(years));
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
    if (p.wholeDiskCapacity)
        lines << qs(display::underprovisioned(p, binary));
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
        lines << qs(display::horizonCost(*p.cost, years));
    summary_->setText(lines.join("\n"));
    risk_->setText(p.risk ? tr("Risk: %1").arg(qs(riskStatement(*p.risk, binary))) : QString());
    showFillLevels(p);
}

// A stored layout's measured fill levels on this projection, as the engine says them.
void ProjectionTab::showFillLevels(const LayoutProjection& p) {
    fill_->clear();
    const ProjectableLayout* l = chosen();
    const auto measured = l ? fills_.find(l->record.name) : fills_.end();
    if (measured == fills_.end())
        return;
    const FillProjection tied = tieFillLevels(measured->second, p);
    QStringList lines{tr("Filled and aged (measured):")};
    for (const auto& line : tied.lines)
        lines << qs(line);
    fill_->setText(lines.join("\n"));
}

} // namespace lb::gui
