// The Projection tab: a five-year projection (engine/capacity/projection.h) of one layout —
// usable capacity, projected use, the fill ceiling and the expansion steps of the first path
// that keeps up, drawn by the shared chart code (reports/charts.h) — with a summary of the month
// the ceiling is passed, the expansion paths, underprovisioning and SSD wear.
//
// The layouts offered are the engine's (projectableLayouts): the open database's with their disks
// recorded or imported, then the open scenario's whose disks are known; "New layout…" projects one
// that does not exist yet (`project --kind K --disks N --disk-size S --underprovision F`, a guest
// with its inner md kind and pool). The tab opens on the first layout whose disks are known, its
// own kind, disks, sizes and partitions shown (greyed: they are its record's), with a use it can
// hold (suggestedUse) until one is typed. An imported layout takes its usable capacity (the
// command line's --capacity LAYOUT=SIZE) or its disks (--imported-disks LAYOUT=KIND,DISKS,...).
// Every figure comes from planProjection and projectPlan, as `project` gets them; sizes are said
// in TiB when they were typed in TiB. Computed on the GUI thread: a projection is a few hundred
// small calculations.
#pragma once

#include "engine/capacity/drive_catalog.h"
#include "engine/capacity/projection.h"
#include "engine/scenario/scenario.h"
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

    // The database's layouts, with the rebuild rate each one's fail-rebuild drill measured: the
    // risk of a stored layout takes it, as `project --layout` does, and says so. Recomputes.
    void setLayouts(const std::vector<LayoutRecord>& layouts,
                    const std::map<std::string, MeasuredRebuild>& rebuilds = {});
    // What the database's layouts measured at their fill levels, by name: a stored layout's
    // projection then names the month each level is reached and the figure measured there.
    // Takes effect at the next recompute.
    void setFillLevels(std::map<std::string, FillMeasured> fills) { fills_ = std::move(fills); }
    // The open scenario, whose layouts with known disks are offered after the database's.
    // Recomputes.
    void setScenario(const Scenario& scenario);
    // Replaces the drive catalog (the app loads data/drives.toml when it was built with one).
    void setCatalog(const DriveCatalog& catalog);

    // Recomputes from the inputs; false (and the reason in the summary) when they are not valid.
    bool recompute();
    // The projection shown, as the engine made it; none when the inputs are not valid.
    const std::optional<LayoutProjection>& projection() const { return projection_; }

    QCustomPlot* plot() const { return plot_; }
    QComboBox* layoutBox() const { return layout_; }
    // Chooses "New layout…" in the layout box: the kind, disks and disk size below describe it.
    void chooseNewLayout();
    bool newLayoutChosen() const;
    // The layout's kind (every kind with a capacity model, and guest), the guest's inner md kind
    // and pool, its disks, disk size ("500G", "4TiB", or one per disk; empty: the drive's
    // capacity) and the fraction of each disk partitioned ("80%" or 0.8): typed for a new layout,
    // the chosen layout's own (disabled) for a stored or scenario one, hidden for an imported one.
    QComboBox* kindBox() const { return kind_; }
    QComboBox* innerBox() const { return inner_; }
    QComboBox* guestPoolBox() const { return guestPool_; }
    QSpinBox* disksBox() const { return disks_; }
    QLineEdit* diskSizeEdit() const { return diskSize_; }
    QLineEdit* underprovisionEdit() const { return underprovision_; }
    QComboBox* driveBox() const { return drive_; }
    QLineEdit* usedEdit() const { return used_; }
    // The usable capacity, or the disks (KIND,DISKS[,SIZE][,PARTITIONED]), of the chosen layout
    // when it is imported; hidden otherwise.
    QLineEdit* capacityEdit() const { return capacity_; }
    QLineEdit* importedDisksEdit() const { return importedDisks_; }
    QLineEdit* growthEdit() const { return growth_; }
    QLineEdit* hostWritesEdit() const { return hostWrites_; }
    QLineEdit* priceEdit() const { return price_; }
    QLineEdit* writeAmplificationEdit() const { return writeAmplification_; }
    QSpinBox* yearsBox() const { return years_; }
    QLabel* summary() const { return summary_; }
    // The chance of losing the data over the horizon, as the engine states it; empty without one.
    QLabel* riskLabel() const { return risk_; }
    QLabel* fillLabel() const { return fill_; }
    // True when the field's row is shown.
    bool rowShown(QWidget* field) const;

private:
    QFormLayout* makeLayoutFields();
    QFormLayout* makeNewLayoutFields();
    QFormLayout* makeDriveFields();
    void connectFields();
    // Offers the engine's projectable layouts of the database and the scenario, keeping the
    // choice when it is still offered, else opening on the first whose disks are known.
    void offerLayouts();
    // The chosen layout, or none ("New layout…").
    const ProjectableLayout* chosen() const;
    bool chosenImported() const;
    // Shows the chosen layout's fields: a new layout's as typed, a stored one's own, an imported
    // one's capacity and disks as typed for it.
    void layoutChosen();
    void showLayoutFields(const LayoutFields& fields, bool editable);
    LayoutFields typedLayoutFields() const;
    void showRows();
    // What the fields ask, as `project` would be asked it; none, with the reason in `why`, when
    // an imported layout has neither capacity nor disks typed or the underprovision is not a
    // fraction.
    std::optional<ProjectionAsk> askOfFields(QString& why);
    // The chosen layout's record, as planProjection reads it; none for "New layout…".
    std::vector<LayoutRecord> records() const;
    // Price, endurance and wear need disks: off for an imported layout given only its capacity.
    void enableDriveFields();
    // "Used now" holds the engine's suggestion (or nothing), not a use the user typed.
    bool usedIsSuggested() const;
    void forgetSuggestedUse();
    void showMessage(const QString& text);
    void showProjection(const LayoutProjection& p, const ProjectionPlan& plan);
    void showFillLevels(const LayoutProjection& p);
    // An engine error with the field it names said by its widget's label.
    QString fieldError(const Error& error) const;

    std::vector<LayoutRecord> stored_;                // the database's layouts
    std::map<std::string, MeasuredRebuild> rebuilds_; // theirs a drill measured
    std::vector<LayoutRecord> scenario_;              // the scenario's, as a campaign records them
    std::vector<ProjectableLayout> offered_;
    std::map<std::string, QString> typedCapacities_; // typed for imported layouts, by name
    std::map<std::string, QString> typedDisks_;      // typed for imported layouts, by name
    LayoutFields fresh_;     // "New layout…" as typed, while another layout is shown
    bool freshShown_ = true; // the fields show "New layout…"
    // The layout the user chose (empty: "New layout…"), kept while it is offered.
    std::optional<std::string> userChoice_;
    QString usedSuggested_; // what suggestUse last put in "Used now"
    std::optional<LayoutProjection> projection_;
    DriveCatalog catalog_;
    QFormLayout* layoutForm_ = nullptr;
    QFormLayout* freshForm_ = nullptr;
    QComboBox* layout_ = nullptr;
    QLineEdit* used_ = nullptr;
    QLineEdit* capacity_ = nullptr;
    QLineEdit* importedDisks_ = nullptr;
    QComboBox* kind_ = nullptr;
    QComboBox* inner_ = nullptr;
    QComboBox* guestPool_ = nullptr;
    QSpinBox* disks_ = nullptr;
    QLineEdit* diskSize_ = nullptr;
    QLineEdit* underprovision_ = nullptr;
    QLineEdit* growth_ = nullptr;
    QSpinBox* years_ = nullptr;
    QComboBox* drive_ = nullptr;
    QLineEdit* hostWrites_ = nullptr;
    QLineEdit* price_ = nullptr;
    QLineEdit* writeAmplification_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* risk_ = nullptr;
    QLabel* fill_ = nullptr;
    std::map<std::string, FillMeasured> fills_;
};

} // namespace lb::gui
