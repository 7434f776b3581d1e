// Fill and age a layout before its workloads run at a fill level (issue 44): a seeded ageing
// recipe run on the target as one shell script, and what the pool says of itself after it.
//
// The recipe, round after round until the layout's used space reaches the level (a share of
// its usable space): write incompressible files (/dev/urandom) of a stated size mix — 60 %
// small (4–64 KiB), 30 % medium (256 KiB–1 MiB), 10 % large (4–16 MiB, at most 1/50 of the
// usable space) — each round about 1/40 of the usable space; delete about a quarter of that
// from the files present, any round's; rewrite 16 random 4 KiB blocks in place in up to four
// large files. The seed fixes every size, name, deletion and rewrite offset (awk's srand), not
// the data. Levels are filled lowest first on the same build, so each level ages the last; the
// files stay under LAYOUT/.lb-fill until the layout is torn down.
//
// After each level it reports, as the drills do ("lb-drill key=value" lines): the usable and
// used bytes, the bytes written, deleted and rewritten so far and for this level, the files,
// the seconds, and the pool's own figures — ZFS: zpool list's capacity and fragmentation (where
// the ZFS has the property); ext4: e2freefrag's free extents and their average size; xfs:
// xfs_db's freesp summary.
#pragma once

#include "engine/base/expected.h"
#include "engine/exec/layout_plan.h"
#include "engine/measure/probe.h"
#include "engine/scenario/scenario.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace lb {

// The workload name of an ageing run, stored at the level it reached (probe "fill").
inline constexpr const char* fillWorkload = "fill:age";

// The ageing that takes `layout` to `level` (a share of its usable space) as a probe: its
// command runs in the layout's directory, its parse gives the fill.* metrics. `maxBytes`: the
// most the ageing may write on the layout, all levels together (--fill-max); 0: no cap — a
// level the cap stops short of fails, saying so.
Expected<std::unique_ptr<Probe>> fillProbe(const Scenario& scenario, const ScenarioLayout& layout,
                                           double level, std::uint64_t maxBytes = 0);

// What the ageing to `level` means for `plan`: how much it writes (at most), and how long that
// takes at `writeBytesPerSecond` when a measured rate is known. One line without a newline.
std::string describeFill(double level, std::uint64_t usableBytes,
                         std::optional<double> writeBytesPerSecond);

// The bytes the ageing writes to take a layout of `usableBytes` from empty to `level`: about 1.5
// times the level, as measured (a little more than a quarter of what it writes is deleted).
std::uint64_t fillWriteBytes(double level, std::uint64_t usableBytes);

} // namespace lb
