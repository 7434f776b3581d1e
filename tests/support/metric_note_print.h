// Prints a MetricNote in gtest failure messages ("{qualifies, fio.a.read.*, "ran 2.0 s: ..."}")
// instead of its bytes.
#pragma once

#include "engine/measure/run.h"

#include <ostream>

namespace lb {

inline void PrintTo(const MetricNote& n, std::ostream* os) {
    *os << "{" << metricNoteKindName(n.kind) << ", " << n.metrics << ", \"" << n.text << "\"}";
}

} // namespace lb
