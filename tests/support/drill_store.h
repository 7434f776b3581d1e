// Test fixture support: a database holding a layout's fail-rebuild drill as a campaign stores it
// (engine/campaign/campaign_runs.cpp, runDrills and storeLoadPhases), made from a drill's
// captured output (tests/data/drill/3.33): the drill's run read by its own probe, with the argv
// its probe gives, and each phase of its load a run of the fio probe, its per-second logs its
// series, under "<layout>@<phase>". Beside it a layout without a drill.
#pragma once

#include "engine/base/expected.h"
#include "engine/store/store.h"

#include <cstdint>
#include <string>

namespace lb::test {

// The scenario the fixture's layouts come from: four 128 MiB disks d0..d3 (/dev/vda..vdd), a
// raidz1 "raidz1" of d0..d2 with a fail-rebuild drill of d1 onto d3 (fill 0.3), and an md RAID-5
// "md5" of the same disks without a drill.
std::string drillFixtureScenario();

// Stores both layouts, the raidz1's drill from `outputFile` (the drill's stdout) and its phases,
// in `store`; the drill's run id.
Expected<std::int64_t> storeDrillFixture(Store& store, const std::string& outputFile);

} // namespace lb::test
