// What the modules of the projection (projection*.cpp) share and nobody else needs.
#pragma once

#include "engine/capacity/projection.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

namespace lb {

inline constexpr double bytesPerTb = 1e12;

// A double byte count as an integer, clamped to what 64 bits hold.
inline std::uint64_t toBytes(double v) {
    if (!(v > 0))
        return 0;
    if (v >= 18446744073709551615.0)
        return std::numeric_limits<std::uint64_t>::max();
    return static_cast<std::uint64_t>(std::llround(v));
}

// projection.cpp: what one disk of `diskBytes` costs: the buyer's price, else the catalog
// drive's; none without either.
std::optional<double> unitPriceUsd(const ProjectionInput& in, std::uint64_t diskBytes);

// projection_paths.cpp: the layout's expansion paths, each scheduled over the horizon against
// p's ceiling (a path whose step adds no space is left out with a note in p.notes).
Expected<void> addExpansions(LayoutProjection& p, const ProjectionInput& in);

} // namespace lb
