// The Projection tab: a five-year projection (engine/capacity/projection.h) of one layout of the
// open database — usable capacity, projected use, the fill ceiling and the expansion steps of the
// first path that keeps up, drawn by the shared chart code (reports/charts.h) — with a summary of
// the month the ceiling is passed, the expansion paths and SSD wear. An imported layout, whose
// disks are unknown, is projected against the usable capacity typed for it (the command line's
// --capacity LAYOUT=SIZE). "New layout…" projects one that does not exist yet from its kind,
// disks and disk size (`project --kind K --disks N --disk-size S`). Sizes are said in TiB when
// they were typed in TiB, as the command line says them. Computed on the GUI thread: a
// projection is a few hundred small calculations.
#pragma once

#include "engine/capacity/drive_catalog.h"
#include "engine/capacity/projection.h"
#include "engine/store/store.h"
#include "engine/workbench.h"

#include <QWidget>
#include <map>
#include <optional>
#include <string>
#include <vector>

class QComboBox;
class QFormLayout;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace lb::gui {

class ProjectionTab : public QWidget {
    Q_OBJECT
public:
    explicit ProjectionTab(QWidget* parent = nullptr);

    // The layouts of the open database; those whose spec gives kind and disk sizes and the
    // imported ones are offered, then "New layout…". Recomputes.
    void setLayouts(const std::vector<LayoutRecord>& layouts);
    // Replaces the drive catalog (the app loads data/drives.toml when it was built with one).
    void setCatalog(const DriveCatalog& catalog);

    // Recomputes from the inputs; false (and the reason in the summary) when they are not valid.
    bool recompute();

    QCustomPlot* plot() const { return plot_; }
    QComboBox* layoutBox() const { return layout_; }
    // Chooses "New layout…" in the layout box: the kind, disks and disk size below describe it.
    void chooseNewLayout();
    bool newLayoutChosen() const;
    // The new layout's kind (every kind with a capacity model), disks and disk size ("500G",
    // "4TiB", or one per disk; empty: the drive's capacity); disabled for a stored layout.
    QComboBox* kindBox() const { return kind_; }
    QSpinBox* disksBox() const { return disks_; }
    QLineEdit* diskSizeEdit() const { return diskSize_; }
    QComboBox* driveBox() const { return drive_; }
    QLineEdit* usedEdit() const { return used_; }
    // The usable capacity of the chosen layout when it is imported; disabled otherwise.
    QLineEdit* capacityEdit() const { return capacity_; }
    QLineEdit* growthEdit() const { return growth_; }
    QLineEdit* hostWritesEdit() const { return hostWrites_; }
    QLineEdit* priceEdit() const { return price_; }
    QLineEdit* writeAmplificationEdit() const { return writeAmplification_; }
    QSpinBox* yearsBox() const { return years_; }
    QLabel* summary() const { return summary_; }
    // The chance of losing the data over the horizon, as the engine states it; empty without one.
    QLabel* riskLabel() const { return risk_; }

private:
    QFormLayout* makeLayoutFields();
    QFormLayout* makeNewLayoutFields();
    QFormLayout* makeDriveFields();
    // The projection's settings as the fields say them; none, with the reason shown, when an
    // imported layout has no capacity typed.
    std::optional<ProjectionSettings> settingsOfFields(const LayoutRecord* chosenLayout);
    void showMessage(const QString& text);
    // The chosen layout, or none.
    const LayoutRecord* chosen() const;
    // Shows the capacity typed for the chosen layout; what only disks give is off for an
    // imported one.
    void layoutChosen();
    // The chosen layout's projection under `request`; none when it has no capacity model.
    std::optional<Expected<LayoutProjection>> project(const ProjectionRequest& request) const;
    // An engine error with the field it names said by its widget's label.
    QString fieldError(const Error& error) const;

    std::vector<LayoutRecord> layouts_;         // those offered, in combo order
    std::map<std::string, QString> capacities_; // typed for imported layouts, by name
    DriveCatalog catalog_;
    QComboBox* layout_ = nullptr;
    QLineEdit* used_ = nullptr;
    QLineEdit* capacity_ = nullptr;
    QComboBox* kind_ = nullptr;
    QSpinBox* disks_ = nullptr;
    QLineEdit* diskSize_ = nullptr;
    QLineEdit* growth_ = nullptr;
    QSpinBox* years_ = nullptr;
    QComboBox* drive_ = nullptr;
    QLineEdit* hostWrites_ = nullptr;
    QLineEdit* price_ = nullptr;
    QLineEdit* writeAmplification_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* risk_ = nullptr;
};

} // namespace lb::gui
