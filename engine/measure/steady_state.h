// The SNIA Solid State Storage Performance Test Specification's steady-state rule: a drive is
// measured once a tracked variable (IOPS, throughput or latency of the workload's own pattern,
// one value per round) has stopped moving over a window of rounds. A pure function of the
// rounds' values.
#pragma once

#include <cstddef>
#include <span>

namespace lb {

struct SteadyStateCheck {
    bool reached = false;
    std::size_t windowStart = 0;  // index of the window's first round
    std::size_t windowRounds = 0; // rounds in the window (fewer than asked: not enough yet)
    double average = 0;
    double excursion = 0;      // max - min of the values in the window
    double slopeExcursion = 0; // |slope| x (rounds - 1): how far the fitted line moves across it
    double slope = 0;          // least-squares slope, per round
    bool operator==(const SteadyStateCheck&) const = default;
};

// PTS 2.0: steady state over the last `window` rounds (5 by default) when the data excursion
// (max - min) is within 20 % of the window's average and the excursion of its least-squares
// line over the window (|slope| x (window - 1)) within 10 % of the average. Not reached with
// fewer rounds than the window, or with an average that is not positive (the limits are
// relative to it).
SteadyStateCheck checkSteadyState(std::span<const double> rounds, std::size_t window = 5);

} // namespace lb
