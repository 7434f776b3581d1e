// Everything a decision report shows, gathered from the store as plain values: the question and
// thresholds, host and disk inventory, each layout with its capacity, the comparisons of every
// candidate against the baseline, per-metric samples for the charts, failed runs and caveats,
// and every run's command line. Qt-free: the app, the CLI and every renderer share it.
#pragma once

#include "engine/base/expected.h"
#include "engine/build/layout_spec.h"
#include "engine/capacity/capacity.h"
#include "engine/capacity/drive_catalog.h"
#include "engine/capacity/projection.h"
#include "engine/measure/analysis.h"
#include "engine/measure/steady_state.h"
#include "engine/store/store.h"
#include "engine/workbench.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lb {

struct ReportRequest {
    std::optional<std::string> baseline;  // default: the campaign's baseline, else the first layout
    std::optional<std::string> candidate; // default: every other layout
    // The runs reported: this campaign's; else, unless allRuns, the newest campaign of the
    // compared layouts (a layout with imported runs only: all of them); else every run.
    std::optional<std::int64_t> campaignId;
    bool allRuns = false;
    // Only the runs measured on this machine. Without it a layout whose runs come from several
    // hosts is refused, as every comparison refuses it (comparedHost, engine/store/store.h).
    std::optional<std::string> host;
    Thresholds thresholds;
    // When the report is about one campaign (given, or the only one the runs belong to) and its
    // scenario has a [thresholds] table, those thresholds replace `thresholds`. Set to false when
    // the user named thresholds explicitly.
    bool scenarioThresholds = true;
    // A capacity projection of every layout whose capacity is known; none when unset.
    std::optional<ProjectionRequest> projection;
    // For the summary of the person who signs: who wrote the report (user@host, or --author),
    // when (ISO 8601 UTC) and with what ("layoutbench 0.1.0"); set by the app, "" leaves it out.
    std::string author;
    std::string writtenAt;
    std::string generator;
};

// "user@host" of the process writing a report: $USER (else the password entry) at the host name.
std::string defaultAuthor();

struct ReportLayout {
    std::string name;
    std::string kind;
    std::string host;
    std::string specJson;
    bool baseline = false;
    std::optional<Capacity> capacity; // when the spec says kind and disk sizes
    // What its fault tolerance leaves unsaid (a ZFS pool on one md device cannot repair).
    std::optional<std::string> redundancyNote;
    std::int64_t runs = 0;
    std::int64_t failedRuns = 0;
};

// A run as the report shows it: the stored record, its output left out (but for the last lines
// of a failed run's stderr), and where an imported run came from, said in words.
struct ReportRun : StoredRun {
    std::string stderrTail; // last lines of stderr, for failed runs
    std::string
        originText; // imported runs: "bonnie++ 1.97 text table, converted from K/sec (KiB/s)"
};

// One workload's steady-state rounds on a layout after its preconditioning (SNIA PTS), as the
// report's table and chart show them; a layout rebuilt (a resumed campaign) has a series per
// build.
struct SteadyStateSeries {
    std::string layout;
    std::string workload;
    std::string tracked;                  // "fio.*.iops"
    std::optional<std::uint64_t> written; // the preconditioning's size (written twice)
    std::optional<double> writeRate;      // its bytes per second
    double writeSeconds = 0;
    std::vector<double> rounds; // the tracked value of each round that ran to its end
    std::string failed;         // why a step failed, "" when none did
    SteadyStateCheck check;     // over the last window of `rounds`
};

// The series of a campaign's preconditioning steps, in the order they ran.
std::vector<SteadyStateSeries> steadyStateSeries(const std::vector<ConditioningStep>& steps);

struct ReportData {
    std::string title;
    std::string baseline;
    Thresholds thresholds;
    std::optional<std::int64_t> campaignId; // the campaign the report is about, if one
    std::string campaign;                   // its name ("" without one)
    std::string scenarioPath;               // the scenario file it ran ("" without one)
    std::string scenarioDescription;        // the scenario's description, if it has one
    // Which runs the report holds, in words, as its top says: "campaign 3 'quick', the newest of 2
    // campaigns with these layouts (the other campaigns' runs are left out)", "every run ...".
    std::string scope;
    // How to ask `report` for other runs, in its flags, for the command line alone (a page for a
    // reader carries no flags): "--campaign N for another, --all for every run"; "" for none.
    std::string scopeHint;
    // The campaign's (or host's) inventory, "{}" when unknown. Its "disks" are those its
    // scenario named (with their partitions) when the scenario is known: the rest of the
    // machine's block devices were not tested, and are named in disksLeftOut.
    std::string inventoryJson;
    // The block devices the campaign's scenario named; unset when its scenario is unknown.
    std::optional<std::vector<std::string>> scenarioDevices;
    // The machine's block devices the scenario did not name, left out of its disks: "zram0".
    std::vector<std::string> disksLeftOut;
    std::vector<ReportLayout> layouts;            // sorted by name, baseline first
    std::vector<Comparison> comparisons;          // one per candidate, in layout order
    std::vector<std::string> decide;              // the deciding metrics' globs, if named
    std::optional<CampaignIo> io;                 // how the campaign's runs did their I/O, if one
    std::map<std::string, LayoutSamples> samples; // layout -> samples (sorted), notes
    // layout -> its successful runs' series (fio's per-interval logs), in run order; a layout
    // without any (imported runs, job files, exports) is not in it.
    std::map<std::string, std::vector<RunSeries>> series;
    std::vector<ReportRun> runs;                        // by id
    std::optional<ProjectionRequest> projectionRequest; // as requested
    // Layouts with a known capacity (their disks, or a capacity given for an imported one), in
    // layout order.
    std::vector<LayoutProjection> projections;
    // Imported layouts the requested projection cannot cover: their disks are unknown and no
    // capacity was given for them (ProjectionRequest::givenCapacity).
    std::vector<std::string> notProjected;
    // What the requested projection asks that applies to none of the layouts (a report with it
    // is refused, in the front end's words).
    std::optional<ProjectionMisfit> projectionMisfit;
    std::vector<SteadyStateSeries> steadyState; // the campaign's preconditioning, if any
    // The newest fail-rebuild drill of each layout that has one (of the campaign, when the report
    // is about one), in layout order: "When a disk fails".
    std::vector<FailureDrill> failureDrills;
    // With fill levels (issue 44): the level the report's tables and verdicts take, the lowest
    // every chosen layout was measured at (none: as built); each candidate's sentence of where
    // its verdict changes across the levels; each projected layout's measured levels tied to
    // its projection.
    std::optional<int> fillPermille;
    std::vector<std::string> fillSummaries;
    std::vector<FillCurve> fillCurves; // each candidate against the baseline level by level
    std::vector<FillProjection> fillProjections;
    std::string author, writtenAt, generator; // as requested
    std::vector<std::string> hosts;           // where the layouts ran, sorted, once each
    // The machine the report is about: the one picked (ReportRequest::host), else the one every
    // compared run was measured on; "" when they come from several or none is known.
    std::string host;
    bool hostPicked = false;
};

// Bad input (exit 2), naming the field (baseline, candidate, campaign, capacity, host), when a
// named baseline, candidate or campaign does not exist, when a capacity is given for a layout that
// is not an imported one of the report, when the database holds no layout, or when the named
// candidate shares no measured metric with the baseline, or when a layout's runs come from several
// hosts and none is picked (comparedHost). A candidate taken by default that shares none gets a
// comparison with no metrics, one with no runs on the picked host is left out.
Expected<ReportData> gatherReport(Store& store, const ReportRequest& request);

} // namespace lb
