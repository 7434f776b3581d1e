// A layout's measured fill levels tied to its projection (issue 44): the month its projected use
// reaches each level it was measured at, and what was measured there against the lowest level —
// said once here for `project`, the report and the desktop app. Between measured levels it says
// the figure lies between them; past the last it says nothing was measured and extrapolates
// nothing.
#pragma once

#include "engine/base/expected.h"
#include "engine/capacity/projection.h"
#include "engine/store/store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lb {

// What a layout's runs measured at each fill level against the lowest level (read from the
// store once; a front end keeps it while the projection's settings change).
struct FillMeasured {
    std::string layout;
    double lowest = 0; // the lowest level measured, the one the others are set against
    struct Level {
        double level = 0;
        std::string metric;          // the deciding metric that costs most more than at `lowest`
        std::optional<double> ratio; // its cost there over its cost at `lowest`
        bool operator==(const Level&) const = default;
    };
    std::vector<Level> above; // the levels above the lowest, ascending
    // What every ageing of the layout wrote on it, all levels and sessions (the sum of its
    // fill:age runs' fill.level_written_bytes): writes its disks took that no host asked for.
    std::uint64_t ageingBytes = 0;
    bool operator==(const FillMeasured&) const = default;
};

struct FillMilestone {
    double level = 0;              // a share of the usable space, as measured
    std::optional<unsigned> month; // the first month the projected use reaches it; none: later
    std::string metric;
    std::optional<double> ratio;
    // "month 38: 80 % full; fio.rand-write-4k.write.iops takes 1.90× the time of today
    // (measured at 80 %; today's figure measured at 0 %)"
    std::string text;
};

// The ageing's writes set beside the drive-wear projection, which counts the hosts' writes alone
// (issue 44): never counted there silently, always said.
struct FillAgeingWear {
    std::uint64_t hostBytes = 0; // written on the layout by its ageings (FillMeasured)
    // With a wear estimate: per member disk at the layout's write amplification, spread evenly
    // as the hosts' writes are, and that as a share of each disk's rated endurance (when known).
    std::optional<double> deviceBytesPerDisk;
    std::optional<double> enduranceShare;
    // "ageing: wrote 39.5 MB on this layout to reach the measured levels (19.8 MB per disk at
    // write amplification 2.00, 0.0001 % of its rated endurance), not counted in the wear
    // projection, which counts the hosts' writes alone"
    std::string text;
};

struct FillProjection {
    std::string layout;
    std::string today; // "month 0: 12 % full, between the levels measured at 0 % and 50 %"
    std::vector<FillMilestone> milestones; // the measured levels above the lowest, ascending
    std::vector<std::string> between;      // the months between two measured levels
    std::string beyond;    // past the last measured level: nothing measured, not extrapolated
    FillAgeingWear ageing; // what the ageing wrote, beside the wear projection
    // Every sentence above in the order of the months, as every output prints them: today, then
    // each span between two levels before the level that ends it, then what lies beyond; last,
    // what the ageing wrote.
    std::vector<std::string> lines;
};

// None when the layout holds no runs measured at a fill level.
Expected<std::optional<FillMeasured>> measuredFillLevels(Store& store, const std::string& layout);

// The measured levels set on a projection's months (without expansion).
FillProjection tieFillLevels(const FillMeasured& measured, const LayoutProjection& projection);

// The rate the ageing wrote at on a layout (the median of its fill.write_rate), for `plan`'s
// time; none when it was never filled.
Expected<std::optional<double>> measuredFillWriteRate(Store& store, const std::string& layout);

// Both: what `project --layout` and the report say.
Expected<std::optional<FillProjection>> fillProjection(Store& store, const std::string& layout,
                                                       const LayoutProjection& projection);

} // namespace lb
