// Merging another machine's results database into this one: hosts with their inventory, disks,
// layouts, campaigns, runs with their raw output and metrics, SSD conditioning steps, and the
// journal of applied commands, so a team that benchmarks several servers can compare them in one
// place.
#pragma once

#include "engine/base/expected.h"
#include "engine/store/store.h"

#include <cstdint>
#include <string>

namespace lb {

struct MergeRequest {
    std::string other;  // the database to merge in; it is only read
    std::string prefix; // put before each of its layout names ("srv2-"), to keep them apart
    // The machine the other database's results were measured on, as this one is to know it (a
    // fleet's inventory name); empty: as the other database names it. Its one host takes the
    // name (a database of several machines is refused), and its layouts join those of the same
    // name and kind here measured on other machines: one layout, runs kept apart by host.
    std::string host;
};

// What a merge added (nothing, the second time) and left out.
struct MergeSummary {
    std::int64_t hosts = 0;
    std::int64_t disks = 0;
    std::int64_t layouts = 0;
    std::int64_t campaigns = 0;
    std::int64_t runs = 0;
    std::int64_t metrics = 0;
    std::int64_t planSteps = 0;
    std::int64_t conditioningSteps = 0;
    // Imported runs of the other database whose data this one already holds (imported here
    // too): left out, as a second import of them would be; counted again by a second merge.
    std::int64_t duplicateRuns = 0;
    bool operator==(const MergeSummary&) const = default;
};

// Runs, campaigns, journal and conditioning steps are recognised by the identity they carry from
// the database they were made in, so merging twice (or merging back a database that merged this
// one) adds nothing more. A layout of the other database joins the one of the same name here
// when both are of the same kind on the same host; otherwise the merge is refused (bad input on
// the prefix, naming the layout): merge with a prefix. One transaction: all or nothing. An older
// other database is read through a migrated copy; it is never written.
Expected<MergeSummary> mergeDatabase(Store& store, const MergeRequest& request);

} // namespace lb
