// What a projection can be asked of, as the Projection tab offers it (issue 41, item 5): the
// store's layouts and the open scenario's, the first whose disks are known, a use to open on
// that the layout can hold, and a layout as the tab's fields show it. Decided here, once, so the
// tab only renders what it is given and projects through planProjection as `project` does.
#pragma once

#include "engine/capacity/capacity.h"
#include "engine/scenario/scenario.h"
#include "engine/store/store.h"
#include "engine/workbench/projections.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

// A scenario's layouts as a campaign records them (layoutSpecJson: the disks' names, sizes and
// settings), so a layout not built yet is projected as a stored one is. A block device's size is
// unknown until a campaign asks the machine: such a layout records no capacity model.
std::vector<LayoutRecord> scenarioLayoutRecords(const Scenario& scenario);

// A layout a projection can be asked of.
struct ProjectableLayout {
    LayoutRecord record;
    bool disksKnown = false;   // its recorded disks give a capacity model: it projects as it is
    bool fromScenario = false; // the open scenario's, not (yet) in the store
};

// The layouts offered, in order: the store's whose disks are recorded or whose results were
// imported (their capacity or disks to be given), then the scenario's whose disks are all known
// and whose names the store does not hold. Neither kind of layout is offered: a dir, or a
// scenario's layout on block devices.
std::vector<ProjectableLayout> projectableLayouts(const std::vector<LayoutRecord>& stored,
                                                  const std::vector<LayoutRecord>& scenario);

// The layout to open on: the first whose disks are known, else the first offered (an imported
// one, asking for its capacity or disks); none when nothing is offered.
std::optional<std::size_t> firstProjectable(const std::vector<ProjectableLayout>& layouts);

// A use to open a projection on: half the first layout's fill ceiling, rounded down to two
// significant figures and written as a size is typed ("1.1T"), so the projection starts below
// its ceiling and no expansion is bought in month 0. The ask's use, growth, samples, horizon,
// host writes, price and write amplification are not read. Bad input, as planProjection and
// projectPlan say it, when the layout does not plan or project (a disk size the kind cannot
// take; an imported layout given neither its capacity nor its disks: the use applies to none).
Expected<std::string> suggestedUse(const ProjectionAsk& ask,
                                   const std::vector<LayoutRecord>& records);

// A layout as a form shows it: the values `project --kind` would be given for it.
struct LayoutFields {
    std::string kind;      // "zfs-raidz2"; "guest" for a guest's pool on an md array
    std::string inner;     // the md kind under a pool on an array ("md-raid6"), else empty
    std::string guestPool; // a guest's pool ("zfs-stripe"), else empty
    unsigned disks = 0;
    // Each disk's size as typed (sizeText): one for all when they are alike ("500G"), else one
    // per disk ("500G,500G,1T").
    std::string diskSize;
    std::string underprovision; // the fraction of each disk partitioned: "80%", "100%"
};

// `layout` (what the projection models) with the kind its record names (`recordedKind`: a pool
// on an array is a guest's unless the record says zfs-stripe, a pool on the host's array).
LayoutFields layoutFields(const CapacityInput& layout, std::string_view recordedKind);
// A recorded layout's fields; none when it records no disks (an imported layout, a dir).
std::optional<LayoutFields> layoutFields(const LayoutRecord& layout);

} // namespace lb
