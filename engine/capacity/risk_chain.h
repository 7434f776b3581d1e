// The mathematics of losing data: one redundancy group of n drives that tolerates f failures as a
// continuous-time Markov chain, solved exactly over a horizon; a pool of groups; and the chance of
// an unrecoverable read over a number of bits. engine/capacity/risk.h says which group a layout
// is made of and what its window is; this file knows nothing of layouts.
#pragma once

#include <span>

namespace lb {

// A year of 365.25 days, as the projection's calendar counts it.
inline constexpr double hoursPerYear = 8766.0;

// The failure rate per year of a drive whose annual failure rate is `afr`: λ = −ln(1 − AFR), so
// that a drive fails within a year with probability AFR. afr in [0, 1).
double failureRateOfAfr(double afr);

// States 0 … f + 1 failed drives; from state i a drive fails at (n − i)·λ; from states 1 … f one
// rebuild at a time brings it back to i − 1 at rate 1/W; state f + 1 (data lost) is absorbing.
struct RedundancyChain {
    unsigned disks = 0;         // n
    unsigned tolerates = 0;     // f, below n
    double failuresPerYear = 0; // λ, each drive
    double repairsPerYear = 0;  // 1/W; 0: a failed drive is never replaced
};

// The chance that the chain, started with every drive working, reaches f + 1 within `years`: the
// transient solution exp(Q·T) of its generator Q, row 0, column f + 1. Computed by uniformisation
// (Q = q·(P − I), P a stochastic matrix) over a step h with q·h ≤ 1/2 and squared up to T: every
// operation adds or multiplies numbers that are not negative, so the loss probability is computed
// directly, never as 1 − survival, and keeps its relative precision however small it is. The
// squarings carry rounding along: the relative error is about 10⁻¹⁸·q·T (long double), below
// 10⁻⁹ for a window of one second over 50 years.
double chainLossProbability(const RedundancyChain& chain, double years);

// The same group never repaired: the chance that more than f of its n drives fail within `years`,
// each independently with probability 1 − e^{−λT} (the binomial tail). The chain with no repair
// is exactly this.
double noRepairLossProbability(unsigned disks, unsigned tolerates, double failuresPerYear,
                               double years);

// 1 − Π(1 − pᵢ): the chance that at least one of independent events happens, computed through
// log1p and expm1 so that tiny probabilities keep their digits.
double anyOf(std::span<const double> probabilities);

// 1 − (1 − perBit)^bits: the chance of at least one unrecoverable read error while reading
// `bytes` bytes from drives rated at `errorsPerBitRead`.
double unrecoverableReadProbability(double bytes, double errorsPerBitRead);

} // namespace lb
