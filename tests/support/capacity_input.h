// Sizes and layouts as capacity and projection tests write them: decimal units, and a layout of
// a kind on identical disks.
#pragma once

#include "engine/capacity/capacity.h"

#include <cstdint>

namespace lb::test {

inline constexpr std::uint64_t GB = 1000ULL * 1000 * 1000;
inline constexpr std::uint64_t TB = 1000 * GB;

// `disks` disks of `size` bytes each, as `kind`.
inline CapacityInput layout(LayoutKind kind, unsigned disks, std::uint64_t size) {
    CapacityInput in;
    in.kind = kind;
    in.diskBytes.assign(disks, size);
    return in;
}

} // namespace lb::test
