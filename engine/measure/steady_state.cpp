#include "engine/measure/steady_state.h"

#include <algorithm>
#include <cmath>

namespace lb {

namespace {
// PTS 2.0 (SNIA SSS PTS), "Steady State" definition.
constexpr double maxDataExcursion = 0.20;
constexpr double maxSlopeExcursion = 0.10;
} // namespace

SteadyStateCheck checkSteadyState(std::span<const double> rounds, std::size_t window) {
    SteadyStateCheck c;
    if (window == 0)
        return c;
    const std::size_t n = std::min(window, rounds.size());
    c.windowStart = rounds.size() - n;
    c.windowRounds = n;
    if (n == 0)
        return c;
    const auto values = rounds.subspan(c.windowStart);
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    c.excursion = *hi - *lo;
    double sum = 0;
    for (const double v : values)
        sum += v;
    c.average = sum / static_cast<double>(n);
    // Least squares over x = 0 .. n-1: slope = sum((x - mx)(y - my)) / sum((x - mx)^2).
    const double mx = static_cast<double>(n - 1) / 2.0;
    double sxy = 0;
    double sxx = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double dx = static_cast<double>(i) - mx;
        sxy += dx * (values[i] - c.average);
        sxx += dx * dx;
    }
    c.slope = sxx > 0 ? sxy / sxx : 0;
    c.slopeExcursion = std::abs(c.slope) * static_cast<double>(n - 1);
    c.reached = n == window && c.average > 0 && c.excursion <= maxDataExcursion * c.average &&
                c.slopeExcursion <= maxSlopeExcursion * c.average;
    return c;
}

} // namespace lb
