// The stored layout spec (the layout table's spec column, JSON): what a layout is — its kind,
// disks and their sizes, md and ZFS settings, the guest and the export — written when a campaign
// builds it or results are imported, and read by the report and the projections. This module
// alone writes and reads that document.
#pragma once

#include "engine/base/expected.h"
#include "engine/capacity/capacity.h"
#include "engine/scenario/scenario.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace lb {

// The spec of a scenario's layout as a campaign builds it; `deviceBytes` gives the block
// devices' sizes (lsblk), files have theirs in the scenario. Never the CHAP secret.
std::string layoutSpecJson(const Scenario& scenario, const ScenarioLayout& layout,
                           const std::map<std::string, std::uint64_t>& deviceBytes);

// The spec of a layout whose results were imported: nothing is known of its disks.
std::string importedLayoutSpecJson();

// True when the spec is an imported layout's: its results came from elsewhere, its disks are
// unknown.
bool layoutSpecIsImported(const std::string& specJson);

// True when the spec says the scenario marked the layout its baseline.
bool layoutSpecMarksBaseline(const std::string& specJson);

// The capacity model's input read from a spec ("kind", "disk_bytes" and optionally "recordsize",
// "ashift", "underprovision", "chunk", "md"); nullopt when it does not say kind and disks.
std::optional<CapacityInput> capacityInputFromSpec(const std::string& specJson,
                                                   const std::string& kind);

// The capacity of a stored layout; nullopt when the spec does not say enough or the kind has no
// capacity model (dir, guest, imported).
std::optional<Capacity> capacityFromSpec(const std::string& specJson, const std::string& kind);

// The capacity model's input of the layout named `name` with this spec, or bad input naming the
// field `layout` and what the spec lacks (an imported layout records no disks).
Expected<CapacityInput> requireCapacityInput(const std::string& name, const std::string& specJson);

} // namespace lb
