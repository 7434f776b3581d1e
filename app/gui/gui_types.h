// The value types that cross from the engine's worker threads to the GUI thread in queued signals
// (engine structs, the database snapshot, comparison results), their Qt metatype declarations, and
// the small string conversions every GUI file needs.
#pragma once

#include "engine/build/plan.h"
#include "engine/campaign/campaign.h"
#include "engine/campaign/cleanup.h"
#include "engine/exec/safety.h"
#include "engine/measure/analysis.h"
#include "engine/store/store.h"
#include "engine/workbench.h"
#include "reports/report_data.h"

#include <QMetaType>
#include <QString>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lb::gui {

inline QString qs(const std::string& s) {
    return QString::fromStdString(s);
}
inline QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
inline std::string ss(const QString& s) {
    return s.toStdString();
}

// An engine error for people at a form: the field it names ("growth: ...") becomes the label of
// the widget that holds it ("Growth per year: ..."); other messages stay as they are.
QString fieldMessage(const Error& error,
                     std::initializer_list<std::pair<std::string_view, QString>> widgets);

// Every run of a database in a compact, read-only form: the strings (layout, workload, reason)
// interned once, about 48 bytes a run, so 100,000 runs cost a few MB and the model never copies a
// string per row. Built on the store's worker thread, shared with the GUI thread by pointer.
struct RunTable {
    struct Row {
        std::int64_t id = 0;
        std::int64_t campaignId = 0;
        double wallSeconds = 0;
        std::uint32_t layout = 0; // index into strings
        std::uint32_t host = 0;   // the machine it ran on ("" when the store does not know)
        std::uint32_t workload = 0;
        std::uint32_t reason = 0;
        std::int32_t iteration = 0;
        std::int32_t metrics = 0;
        RunStatus status = RunStatus::Ok;
    };
    std::vector<Row> rows;                    // by id
    std::vector<QString> strings;             // strings[0] is ""
    std::vector<std::uint32_t> collationRank; // per string: its position in sorted order

    const QString& text(std::uint32_t index) const { return strings[index]; }
};

// Compacts the store's run list (consumed) into a RunTable.
RunTable makeRunTable(std::vector<RunSummary> runs);

// What the GUI shows of a database once it is open.
struct DatabaseSnapshot {
    QString path;
    std::vector<LayoutRecord> layouts;     // by name
    std::vector<CampaignRecord> campaigns; // by id
    // Each layout's machines, those its settled runs were measured on (Store::layoutHosts):
    // where a layout has several, a comparison asks which one.
    std::map<std::string, std::vector<std::string>> hosts;
    // Each layout's fill levels (Store::layoutFillLevels, thousandths, asBuiltPermille for runs
    // measured as built), only for layouts with runs at a fill level: where a layout has several,
    // a comparison asks which one, as compare --fill does.
    std::map<std::string, std::vector<int>> fillLevels;
    // The rebuild rate each layout's newest fail-rebuild drill measured, for the Projection tab's
    // risk (measuredRebuilds, read with the runs): the rate `project --layout` takes for it.
    std::map<std::string, MeasuredRebuild> rebuilds;
    std::shared_ptr<const RunTable> runs;
    // What each layout measured at its fill levels (issue 44), for the Projection tab; only
    // layouts with runs at a fill level.
    std::map<std::string, FillMeasured> fills;
};

// A comparison of two stored layouts, made on the comparison thread. What the charts need to draw
// it (every layout's samples and series) follows as a ReportData.
struct ComparisonResult {
    std::uint64_t request = 0; // the request it answers; older answers are dropped
    Comparison comparison;
};

// The runs a campaign will make, in order (see planCampaign in campaign_controller.h). The
// review of what it builds and destroys is the engine's CampaignReview (engine/workbench.h).
struct CampaignPlan {
    std::string scenario;
    std::optional<std::int64_t> resume;
    struct Entry {
        std::string layout;
        std::string workload;
        int iteration = 0; // from 0
    };
    std::vector<Entry> runs;
};

// One file's outcome in an import from the desktop app: imported whole, or not at all and why.
struct ImportOutcome {
    std::string file;
    bool ok = false;
    std::string message; // "bonnie++ CSV (format 1.97), 1 machine, 32 metrics" or the error
    std::int64_t runs = 0;
    std::int64_t metrics = 0;
};

// Registers the types above and the engine types used in queued signals. Call once, before any
// queued connection carries them (MainWindow's constructor does).
void registerGuiMetaTypes();

} // namespace lb::gui

Q_DECLARE_METATYPE(lb::Comparison)
Q_DECLARE_METATYPE(lb::CampaignProgress)
Q_DECLARE_METATYPE(lb::CampaignResult)
Q_DECLARE_METATYPE(lb::CleanupResult)
Q_DECLARE_METATYPE(lb::gui::DatabaseSnapshot)
Q_DECLARE_METATYPE(lb::gui::ComparisonResult)
Q_DECLARE_METATYPE(lb::gui::CampaignPlan)
Q_DECLARE_METATYPE(lb::CampaignReview)
Q_DECLARE_METATYPE(lb::gui::ImportOutcome)
Q_DECLARE_METATYPE(lb::ReportData)
Q_DECLARE_METATYPE(std::vector<lb::FleetAnalysis>)
