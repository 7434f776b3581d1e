// Tests of the redundancy group's Markov chain (engine/capacity/risk_chain.h): its transient
// solution against the closed forms that exist (no redundancy, no repair, a two-way mirror), its
// limits (a window of nothing, a window of forever), its precision where the probability is tiny,
// and a seeded Monte Carlo simulation of the drives themselves that must agree with it within its
// own standard error.
#include "engine/capacity/risk_chain.h"

#include <chrono>
#include <cmath>
#include <deque>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace lb {
namespace {

// |got - want| within `relative` of want.
::testing::AssertionResult near(double got, double want, double relative) {
    if (std::fabs(got - want) <= relative * std::fabs(want))
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << got << ", want " << want << " (relative "
                                         << std::fabs(got - want) / std::fabs(want) << ")";
}

// A two-way mirror with repair, solved by hand: the transient states {0, 1} have the generator
// A = [[-2λ, 2λ], [μ, -(λ + μ)]], whose eigenvalues are the roots of r² + (3λ + μ)r + 2λ² = 0.
// From state 0, S(0) = 1 and S'(0) = 0, so S(t) = (r2·e^{r1 t} − r1·e^{r2 t}) / (r2 − r1) and
// the loss 1 − S(t) = (r1·expm1(r2 t) − r2·expm1(r1 t)) / (r2 − r1). The larger root is taken
// without cancellation and the smaller from their product 2λ², so this keeps its digits too.
double mirrorLoss(double lambda, double mu, double t) {
    const double b = 3 * lambda + mu;
    const double r2 = (-b - std::sqrt(b * b - 8 * lambda * lambda)) / 2;
    const double r1 = 2 * lambda * lambda / r2;
    return (r1 * std::expm1(r2 * t) - r2 * std::expm1(r1 * t)) / (r2 - r1);
}

TEST(RiskChain, FailureRateMakesTheAfrAYearsChance) {
    for (const double afr : {0.001, 0.0058, 0.0157, 0.2}) {
        const double lambda = failureRateOfAfr(afr);
        EXPECT_TRUE(near(-std::expm1(-lambda), afr, 1e-14)) << afr;
    }
    EXPECT_EQ(failureRateOfAfr(0.0), 0.0);
}

// f = 0: any of the n drives failing loses the data, 1 − e^{−nλT}, down to 10⁻¹⁴ and below with
// every digit (computing 1 − survival would keep none of them there).
TEST(RiskChain, NoRedundancyIsTheFirstFailure) {
    for (const unsigned n : {1U, 4U, 10U})
        for (const double lambda : {1e-15, 1e-9, 0.0058, 0.5, 3.0})
            for (const double years : {1.0, 5.0}) {
                const double want = -std::expm1(-static_cast<double>(n) * lambda * years);
                const double got = chainLossProbability({n, 0, lambda, 1e6}, years);
                EXPECT_TRUE(near(got, want, 1e-12)) << n << " disks, λ " << lambda;
            }
}

// Never repaired, the chain is n independent drives: more than f failing within T is the
// binomial tail, tiny or not.
TEST(RiskChain, NoRepairIsTheBinomialTail) {
    struct Case {
        unsigned n, f;
    };
    for (const Case c : {Case{2, 1}, Case{4, 1}, Case{10, 2}, Case{6, 3}, Case{11, 3}})
        for (const double lambda : {1e-6, 0.0058, 0.1, 1.0})
            for (const double years : {1.0, 5.0, 20.0}) {
                const double want = noRepairLossProbability(c.n, c.f, lambda, years);
                const double got = chainLossProbability({c.n, c.f, lambda, 0.0}, years);
                EXPECT_TRUE(near(got, want, 1e-10))
                    << c.n << " disks tolerating " << c.f << ", λ " << lambda << ", " << years;
            }
}

// The binomial tail itself, against the sum written out for a small case: a mirror of two loses
// its data when both fail, p².
TEST(RiskChain, BinomialTailOfAMirrorIsBothFailing) {
    const double p = -std::expm1(-0.3 * 2.0);
    EXPECT_TRUE(near(noRepairLossProbability(2, 1, 0.3, 2.0), p * p, 1e-13));
    // Three of three, or two of three: 3p²(1 − p) + p³.
    EXPECT_TRUE(
        near(noRepairLossProbability(3, 1, 0.3, 2.0), 3 * p * p * (1 - p) + p * p * p, 1e-13));
}

// Down to a window of a second over 50 years (μ·T = 1.6·10⁹), within the precision the chain
// states, 10⁻¹⁸·q·T.
TEST(RiskChain, MirrorWithRepairMatchesItsClosedForm) {
    for (const double lambda : {1e-4, 0.0058, 0.05, 0.5})
        for (const double mu : {0.5, 10.0, 121.0, 1e4, 1e7, hoursPerYear * 3600})
            for (const double years : {1.0, 5.0, 50.0}) {
                const double want = mirrorLoss(lambda, mu, years);
                const double got = chainLossProbability({2, 1, lambda, mu}, years);
                EXPECT_TRUE(near(got, want, 1e-14 + 1e-18 * (mu + 3 * lambda) * years))
                    << "λ " << lambda << ", μ " << mu << ", " << years << " years";
            }
}

// A window that shrinks to nothing leaves nothing to lose: the loss falls with the window and,
// once the window is short, as 2λ²T/μ (the first failure, then the second inside the window).
TEST(RiskChain, MirrorWithAWindowOfNothingTendsToNoLoss) {
    const double lambda = 0.0058, years = 5;
    double before = 1;
    for (double mu = 1; mu <= 1e12; mu *= 10) {
        const double p = chainLossProbability({2, 1, lambda, mu}, years);
        EXPECT_LT(p, before) << "μ " << mu;
        before = p;
        if (mu >= 1e4) {
            EXPECT_TRUE(near(p, 2 * lambda * lambda * years / mu, 1e-3)) << "μ " << mu;
        }
    }
    EXPECT_LT(before, 1e-15);
}

// A window that grows without end is no repair at all.
TEST(RiskChain, AWindowOfForeverTendsToNoRepair) {
    for (const unsigned f : {1U, 2U, 3U}) {
        const double none = noRepairLossProbability(8, f, 0.05, 5);
        double before = 0;
        for (double mu = 1e3; mu >= 1e-9; mu /= 100) {
            const double p = chainLossProbability({8, f, 0.05, mu}, 5);
            EXPECT_GT(p, before) << "f " << f << ", μ " << mu;
            EXPECT_LE(p, none * (1 + 1e-12));
            before = p;
        }
        EXPECT_TRUE(near(before, none, 1e-6)) << "f " << f;
    }
}

// More failures, longer windows, more drives: more risk; more tolerance: less.
TEST(RiskChain, RiskGrowsWithFailuresWindowsAndDrives) {
    const RedundancyChain base{10, 2, 0.0058, hoursPerYear / 73};
    const double p = chainLossProbability(base, 5);
    EXPECT_GT(p, 0);
    EXPECT_LT(p, chainLossProbability({10, 2, 0.0116, base.repairsPerYear}, 5));
    EXPECT_LT(p, chainLossProbability({10, 2, 0.0058, base.repairsPerYear / 2}, 5));
    EXPECT_LT(p, chainLossProbability({12, 2, 0.0058, base.repairsPerYear}, 5));
    EXPECT_GT(p, chainLossProbability({10, 3, 0.0058, base.repairsPerYear}, 5));
    EXPECT_LT(p, chainLossProbability(base, 10));
}

TEST(RiskChain, APoolIsLostWhenAnyGroupIs) {
    const std::vector<double> groups{0.1, 0.2, 0.05};
    EXPECT_TRUE(near(anyOf(groups), 1 - 0.9 * 0.8 * 0.95, 1e-14));
    // Tiny figures keep their digits: five groups of 10⁻¹⁸ are 5·10⁻¹⁸, not 0.
    const std::vector<double> tiny(5, 1e-18);
    EXPECT_TRUE(near(anyOf(tiny), 5e-18, 1e-12));
    const std::vector<double> certain{0.5, 1.0};
    EXPECT_EQ(anyOf(certain), 1.0);
    EXPECT_EQ(anyOf({}), 0.0);
}

TEST(RiskChain, UnrecoverableReadIsAtLeastOneBadBit) {
    // Three 4 TB members of an md RAID-5 read at 1 in 10^14: 9.6·10^13 bits, 1 − e^{−0.96}.
    const double bytes = 3 * 4e12;
    EXPECT_TRUE(
        near(unrecoverableReadProbability(bytes, 1e-14), -std::expm1(-bytes * 8 * 1e-14), 1e-9));
    // Small reads: about bits × rate.
    EXPECT_TRUE(near(unrecoverableReadProbability(1e6, 1e-15), 8e6 * 1e-15, 1e-8));
    EXPECT_EQ(unrecoverableReadProbability(0, 1e-15), 0.0);
}

// ---- Monte Carlo --------------------------------------------------------------------------

// The drives themselves, simulated: each working drive fails after its own exponential lifetime
// (rate λ); failed drives wait their turn and are rebuilt one at a time, each rebuild an
// exponential time of mean 1/μ, after which the drive is new; more than f failed at once loses
// the data. Nothing here is the chain's generator.
bool lostWithin(unsigned n, unsigned f, double lambda, double mu, double years,
                std::mt19937_64& rng) {
    std::exponential_distribution<double> lifetime(lambda), rebuild(mu);
    constexpr double never = std::numeric_limits<double>::infinity();
    std::vector<double> failsAt(n);
    for (auto& t : failsAt)
        t = lifetime(rng);
    std::deque<std::size_t> waiting; // failed drives, the one being rebuilt first
    double rebuiltAt = never;
    for (;;) {
        std::size_t next = 0;
        for (std::size_t d = 1; d < n; ++d)
            if (failsAt[d] < failsAt[next])
                next = d;
        const double t = std::min(failsAt[next], rebuiltAt);
        if (t > years)
            return false;
        if (failsAt[next] <= rebuiltAt) { // a drive fails
            failsAt[next] = never;
            waiting.push_back(next);
            if (waiting.size() > f)
                return true;
            if (waiting.size() == 1)
                rebuiltAt = t + rebuild(rng);
        } else { // the rebuild ends: that drive works again, the next one's starts
            failsAt[waiting.front()] = t + lifetime(rng);
            waiting.pop_front();
            rebuiltAt = waiting.empty() ? never : t + rebuild(rng);
        }
    }
}

struct Simulated {
    double probability = 0, standardError = 0;
};

Simulated simulate(unsigned n, unsigned f, double lambda, double mu, double years, int trials,
                   std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    int lost = 0;
    for (int i = 0; i < trials; ++i)
        lost += lostWithin(n, f, lambda, mu, years, rng) ? 1 : 0;
    const double p = static_cast<double>(lost) / trials;
    return {p, std::sqrt(p * (1 - p) / trials)};
}

// At settings where the loss is likely enough for 40,000 trials to see it (failure rates and
// windows far worse than real drives', so that the chain's every state is visited), the
// simulation's estimate lies within 4 of its standard errors of the chain's solution, and that
// error is small enough (below 0.0025) for the agreement to mean something.
TEST(RiskChain, MonteCarloOfTheDrivesAgreesWithTheChain) {
    struct Case {
        unsigned n, f;
        double lambda, mu, years;
    };
    const auto started = std::chrono::steady_clock::now();
    std::uint64_t seed = 20240404;
    for (const Case c :
         {Case{2, 1, 0.3, 4.0, 5.0}, Case{4, 1, 0.2, 6.0, 5.0}, Case{6, 2, 0.4, 3.0, 5.0},
          Case{8, 3, 0.6, 2.0, 3.0}, Case{5, 0, 0.05, 1.0, 2.0}}) {
        const double chain = chainLossProbability({c.n, c.f, c.lambda, c.mu}, c.years);
        ASSERT_GT(chain, 0.05);
        ASSERT_LT(chain, 0.95);
        const Simulated mc = simulate(c.n, c.f, c.lambda, c.mu, c.years, 40000, seed++);
        EXPECT_LT(mc.standardError, 0.0025);
        const std::string what = std::to_string(c.n) + " disks tolerating " + std::to_string(c.f) +
                                 ": simulated " + std::to_string(mc.probability) + " ± " +
                                 std::to_string(mc.standardError) + ", chain " +
                                 std::to_string(chain);
        EXPECT_LE(std::fabs(mc.probability - chain), 4 * mc.standardError) << what;
        RecordProperty("n" + std::to_string(c.n) + "f" + std::to_string(c.f), what);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    RecordProperty("seconds", std::to_string(seconds));
}

} // namespace
} // namespace lb
