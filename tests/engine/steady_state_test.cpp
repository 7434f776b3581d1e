// The SNIA PTS steady-state rule (engine/measure/steady_state.h) on rounds whose window statistics
// are worked out by hand.
#include "engine/measure/steady_state.h"

#include <gtest/gtest.h>
#include <vector>

namespace {

using lb::checkSteadyState;

TEST(SteadyState, NeedsAFullWindow) {
    const std::vector<double> four{100, 100, 100, 100};
    const auto c = checkSteadyState(four);
    EXPECT_FALSE(c.reached);
    EXPECT_EQ(c.windowRounds, 4u);
    EXPECT_FALSE(checkSteadyState(std::vector<double>{}).reached);
}

TEST(SteadyState, FlatRoundsAreSteady) {
    const std::vector<double> flat{5000, 5000, 5000, 5000, 5000};
    const auto c = checkSteadyState(flat);
    EXPECT_TRUE(c.reached);
    EXPECT_DOUBLE_EQ(c.average, 5000);
    EXPECT_DOUBLE_EQ(c.excursion, 0);
    EXPECT_DOUBLE_EQ(c.slope, 0);
}

TEST(SteadyState, NoiseWithinTwentyPercentAndNoTrendIsSteady) {
    // Average 100, range 20 (the limit), slope -1.5/round: the line moves 6 over the window.
    const std::vector<double> rounds{100, 110, 90, 105, 95};
    const auto c = checkSteadyState(rounds);
    EXPECT_TRUE(c.reached);
    EXPECT_DOUBLE_EQ(c.excursion, 20);
    EXPECT_DOUBLE_EQ(c.slope, -1.5);
    EXPECT_DOUBLE_EQ(c.slopeExcursion, 6);
}

TEST(SteadyState, ATrendIsNotSteadyEvenWithinTheRange) {
    // Range 20 of 100 passes; the line climbs 5 a round, 20 over the window: over 10 %.
    const std::vector<double> rounds{90, 95, 100, 105, 110};
    const auto c = checkSteadyState(rounds);
    EXPECT_FALSE(c.reached);
    EXPECT_DOUBLE_EQ(c.excursion, 20);
    EXPECT_DOUBLE_EQ(c.slope, 5);
    EXPECT_DOUBLE_EQ(c.slopeExcursion, 20);
}

TEST(SteadyState, OneOutlierBeyondTwentyPercentIsNotSteady) {
    // Average 105, range 25 > 21.
    const std::vector<double> rounds{100, 125, 100, 100, 100};
    EXPECT_FALSE(checkSteadyState(rounds).reached);
}

TEST(SteadyState, OnlyTheLastWindowCounts) {
    // A fresh drive's write IOPS fall, then settle: the last five rounds decide.
    const std::vector<double> rounds{52000, 31000, 18000, 12100, 12000, 11900, 12050, 11980};
    const auto c = checkSteadyState(rounds);
    EXPECT_TRUE(c.reached);
    EXPECT_EQ(c.windowStart, 3u);
    EXPECT_EQ(c.windowRounds, 5u);
    // The first round at which the rule holds, as a campaign checking after each round sees it.
    std::size_t first = 0;
    for (std::size_t n = 1; n <= rounds.size() && first == 0; ++n)
        if (checkSteadyState(std::span(rounds).first(n)).reached)
            first = n;
    EXPECT_EQ(first, 8u); // at round 7 the window still holds the 18000 of round 3
}

TEST(SteadyState, NoPositiveAverageNoSteadyState) {
    const std::vector<double> zeros{0, 0, 0, 0, 0};
    EXPECT_FALSE(checkSteadyState(zeros).reached);
}

TEST(SteadyState, TheWindowSizeCanBeChosen) {
    const std::vector<double> rounds{10, 100, 100, 100};
    EXPECT_TRUE(checkSteadyState(rounds, 3).reached);
    EXPECT_FALSE(checkSteadyState(rounds, 4).reached);
}

} // namespace
