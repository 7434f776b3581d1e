// The Results tab: every run of the database with the machine it ran on (filterable, sortable),
// and the comparison of a candidate layout against a baseline picked from two lists — medians,
// ratio, overhead, interval, the verdict coloured and whether it is confident — with the overall
// verdict and its reasons. Where a layout's runs come from several machines, the host list beside
// the layouts says which machine's runs are compared; none is mixed with another. Where a layout
// was measured at several fill levels, the fill list says which level's runs are compared (the
// level as built, else the lowest, by default); levels are never mixed either.
#pragma once

#include "app/gui/gui_types.h"

#include <QWidget>
#include <map>
#include <optional>
#include <string>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QVBoxLayout;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace lb::gui {

class ComparisonModel;
class RunsFilterModel;
class RunsModel;

class ResultsTab : public QWidget {
    Q_OBJECT
public:
    explicit ResultsTab(QWidget* parent = nullptr);

    // The layouts, campaigns and each layout's machines to pick from (the picked ones kept when
    // still there); asks for the comparison of the picked layouts.
    void setLayouts(const std::vector<LayoutRecord>& layouts,
                    const std::vector<CampaignRecord>& campaigns,
                    const std::map<std::string, std::vector<std::string>>& hosts = {},
                    const std::map<std::string, std::vector<int>>& fillLevels = {});
    void setRuns(const std::shared_ptr<const RunTable>& runs);
    void showComparison(const Comparison& comparison);
    void showComparisonError(const QString& message);

    // Asks for the comparison of the layouts picked now (compareRequested), if they differ.
    void requestComparison();
    // Picks the baseline and candidate (by layout name); false when one is not in the lists.
    bool selectLayouts(const QString& baseline, const QString& candidate,
                       std::optional<std::int64_t> campaignId = std::nullopt);

    RunsModel* runsModel() const { return runs_; }
    RunsFilterModel* runsProxy() const { return runsProxy_; }
    QTableView* runsView() const { return runsView_; }
    QLineEdit* filterEdit() const { return filter_; }
    ComparisonModel* comparisonModel() const { return comparison_; }
    QSortFilterProxyModel* comparisonProxy() const { return comparisonProxy_; }
    QTableView* comparisonView() const { return comparisonView_; }
    QComboBox* baselineBox() const { return baseline_; }
    QComboBox* candidateBox() const { return candidate_; }
    QComboBox* hostBox() const { return host_; }
    QComboBox* fillBox() const { return fill_; }
    QLabel* summaryLabel() const { return summary_; }

signals:
    // `host`: the machine whose runs are compared, "" when none is picked. `fillPermille`: the
    // fill level whose runs are compared (thousandths, asBuiltPermille), none when no layout of
    // the two was measured at a fill level.
    void compareRequested(const QString& baseline, const QString& candidate,
                          const lb::Thresholds& thresholds, std::optional<std::int64_t> campaignId,
                          const QString& host, std::optional<int> fillPermille);

private:
    QWidget* makeRunsPane();
    QVBoxLayout* makeComparisonPicker();
    QWidget* makeComparisonPane();
    void updateRunCount();
    // The machines of the picked layouts, the picked one kept when still there.
    void fillHosts();
    // The fill levels of the picked layouts, the picked one kept when still there.
    void fillFillLevels();

    RunsModel* runs_ = nullptr;
    RunsFilterModel* runsProxy_ = nullptr;
    QTableView* runsView_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QLabel* runCount_ = nullptr;
    ComparisonModel* comparison_ = nullptr;
    QSortFilterProxyModel* comparisonProxy_ = nullptr;
    QTableView* comparisonView_ = nullptr;
    QComboBox* baseline_ = nullptr;
    QComboBox* candidate_ = nullptr;
    QComboBox* campaign_ = nullptr;
    QComboBox* host_ = nullptr;
    std::map<std::string, std::vector<std::string>> hosts_; // layout -> its machines
    QString hostsOf_; // the layouts host_ lists the machines of ("" before it is filled)
    QComboBox* fill_ = nullptr;
    std::map<std::string, std::vector<int>> fillLevels_; // layout -> its levels, if any filled
    QString fillOf_; // the layouts fill_ lists the levels of ("" before it is filled)
    QDoubleSpinBox* viable_ = nullptr;
    QDoubleSpinBox* notViable_ = nullptr;
    QLabel* summary_ = nullptr;
    bool filling_ = false;
};

} // namespace lb::gui
