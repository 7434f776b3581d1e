// What a layout's fail-rebuild drill measured, read back from the store for whoever shows it (the
// report's "When a disk fails", the app): the drill's run and its figures, the disk it failed and
// the spare it rebuilt onto, what the data checks found in words, the drill's course (when the
// member failed, when the spare went in, when the layout was whole), and the load's per-second
// bandwidth and IOPS in each phase (healthy, degraded, rebuilding, rebuilt) from the runs stored
// under "<layout>@<phase>" (engine/build/drill.h). The sentences said about a drill, or about a
// layout without one, are made here once.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/run.h"
#include "engine/store/store.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

// One phase of the drill's load: where it began in the drill's course and what fio logged each
// second of it.
struct FailureDrillPhase {
    std::string phase;          // "healthy", "degraded", "rebuilding", "rebuilt"
    std::optional<double> at;   // seconds since the healthy load began; none from older drills
    std::int64_t runId = 0;     // the phase's run under "<layout>@<phase>"
    std::vector<Series> series; // fio.drill-randrw.<read|write>.<bw|iops>, x: seconds in the phase
    bool operator==(const FailureDrillPhase&) const = default;
};

struct FailureDrill {
    std::string layout;
    std::int64_t runId = 0;
    RunStatus status = RunStatus::Ok;
    std::string reason;     // why it failed, "" when ok
    std::string failedDisk; // the member it failed ("/dev/vdb"), "" where the argv does not say
    std::string spare;      // the disk it rebuilt onto
    // The run's drill.fail-rebuild.* metrics by their last part: "seconds", "rebuild_bytes",
    // "rebuild_rate", "fill" (percent), "failed_at", ...
    std::map<std::string, double> figures;
    std::vector<FailureDrillPhase> phases; // in the drill's order
    bool underEmulation = false;           // it ran under TCG
    std::optional<double> figure(std::string_view stat) const;
    bool operator==(const FailureDrill&) const = default;
};

// The newest fail-rebuild drill of each of `layouts` that has one, in the order given; only the
// campaign's runs when one is given.
Expected<std::vector<FailureDrill>> failureDrills(Store& store,
                                                  const std::vector<std::string>& layouts,
                                                  std::optional<std::int64_t> campaignId);
// The same among runs already read (the report's, Store::storedRuns): no second pass over the
// run table.
Expected<std::vector<FailureDrill>> failureDrills(Store& store,
                                                  const std::vector<std::string>& layouts,
                                                  const std::vector<const StoredRun*>& runs);

// What the data checks after the rebuild found: "md check: 0 mismatched sectors; files: 0 of
// the filled files changed", "scrub: 0 errors; files: ...".
std::string drillIntegrityText(const FailureDrill& drill);

// What a layout without a drill's risk rests on: "<layout> has no fail-rebuild drill: its risk
// uses an assumed rebuild rate (100 MB/s), not a measured one."
std::string noDrillStatement(const std::string& layout);

// The drill's course as the chart marks it: (moment, label) by time, of those the drill reported:
// "failed" (failed_at), "spare added" (rebuild_at), "whole again" (whole_at).
std::vector<std::pair<double, std::string>> drillMoments(const FailureDrill& drill);

} // namespace lb
