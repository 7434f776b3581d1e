// The Projection tab: a five-year projection (engine/projection.h) of one layout of the open
// database — usable capacity, projected use, the fill ceiling and the expansion steps of the
// first path that keeps up, drawn by the shared chart code (reports/charts.h) — with a summary of
// the month the ceiling is passed, the expansion paths and SSD wear. Computed on the GUI thread:
// a projection is a few hundred small calculations.
#pragma once

#include "engine/drive_catalog.h"
#include "engine/store.h"

#include <QWidget>
#include <optional>
#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace lb::gui {

class ProjectionTab : public QWidget {
    Q_OBJECT
public:
    explicit ProjectionTab(QWidget* parent = nullptr);

    // The layouts of the open database; only those whose spec gives kind and disk sizes are
    // offered. Recomputes.
    void setLayouts(const std::vector<LayoutRecord>& layouts);
    // Replaces the drive catalog (the app loads data/drives.toml when it was built with one).
    void setCatalog(const DriveCatalog& catalog);

    // Recomputes from the inputs; false (and the reason in the summary) when they are not valid.
    bool recompute();

    QCustomPlot* plot() const { return plot_; }
    QComboBox* layoutBox() const { return layout_; }
    QComboBox* driveBox() const { return drive_; }
    QLineEdit* usedEdit() const { return used_; }
    QLineEdit* growthEdit() const { return growth_; }
    QLineEdit* hostWritesEdit() const { return hostWrites_; }
    QSpinBox* yearsBox() const { return years_; }
    QLabel* summary() const { return summary_; }

private:
    void showMessage(const QString& text);

    std::vector<LayoutRecord> layouts_; // those with a capacity model, in combo order
    DriveCatalog catalog_;
    QComboBox* layout_ = nullptr;
    QLineEdit* used_ = nullptr;
    QLineEdit* growth_ = nullptr;
    QSpinBox* years_ = nullptr;
    QComboBox* drive_ = nullptr;
    QLineEdit* hostWrites_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QLabel* summary_ = nullptr;
};

} // namespace lb::gui
