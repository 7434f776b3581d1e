// A redundancy group's chance of losing data, solved exactly (engine/capacity/risk_chain.h).
// The chain has at most a handful of states (f + 2, f ≤ 3 for RAIDZ3; more only for a wide
// mirror), so its matrix exponential is computed outright rather than approximated, in long
// double: squaring up to T carries each step's rounding along, about 8·q·T roundings in all, so
// the 64-bit mantissa of x86-64's long double (128 bits on aarch64) keeps a short window's
// figure to about 10⁻¹⁸·q·T, where double would keep it to 10⁻¹⁵·q·T.
#include "engine/capacity/risk_chain.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <vector>

namespace lb {

namespace {

// A small square matrix, row by row.
using Real = long double;

struct Matrix {
    std::size_t size = 0;
    std::vector<Real> v;
    explicit Matrix(std::size_t n) : size(n), v(n * n, 0.0L) {}
    Real& at(std::size_t r, std::size_t c) { return v[r * size + c]; }
    Real at(std::size_t r, std::size_t c) const { return v[r * size + c]; }
};

Matrix product(const Matrix& a, const Matrix& b) {
    Matrix out(a.size);
    for (std::size_t r = 0; r < a.size; ++r)
        for (std::size_t k = 0; k < a.size; ++k) {
            const Real x = a.at(r, k);
            if (x == 0.0L)
                continue;
            for (std::size_t c = 0; c < a.size; ++c)
                out.at(r, c) += x * b.at(k, c);
        }
    return out;
}

// The rates out of each state: failures (n − i)·λ up, repairs 1/W down from states 1 … f.
struct Rates {
    std::vector<Real> up, down;
};

Rates ratesOf(const RedundancyChain& c) {
    const std::size_t states = c.tolerates + 2u;
    Rates r{std::vector<Real>(states, 0.0L), std::vector<Real>(states, 0.0L)};
    for (unsigned i = 0; i <= c.tolerates; ++i) {
        r.up[i] = static_cast<Real>(c.disks - i) * static_cast<Real>(c.failuresPerYear);
        if (i >= 1)
            r.down[i] = static_cast<Real>(c.repairsPerYear);
    }
    return r;
}

// exp(Q·h) = e^{−q·h} Σ_k (q·h)^k / k! · P^k with P = I + Q/q, for q·h ≤ 1/2. Every term is not
// negative. Sixty-four terms leave out less than (1/2)^64 / 64!, far below any entry's own
// rounding, however small the entry (the smallest non-zero one needs f + 1 ≤ 64 steps).
Matrix uniformisedStep(const Rates& r, Real q, Real h) {
    const std::size_t n = r.up.size();
    Matrix p(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Real out = r.up[i] + r.down[i];
        p.at(i, i) = (q - out) / q; // q is the largest `out`: never negative
        if (i + 1 < n)
            p.at(i, i + 1) = r.up[i] / q;
        if (i >= 1)
            p.at(i, i - 1) = r.down[i] / q;
    }
    Matrix sum(n), power(n);
    for (std::size_t i = 0; i < n; ++i)
        power.at(i, i) = 1.0L;
    Real weight = 1.0L; // (q·h)^k / k!
    for (unsigned k = 0; k <= 64; ++k) {
        if (k > 0) {
            power = product(power, p);
            weight *= q * h / static_cast<Real>(k);
        }
        for (std::size_t e = 0; e < sum.v.size(); ++e)
            sum.v[e] += weight * power.v[e];
    }
    const Real decay = std::exp(-q * h);
    for (auto& x : sum.v)
        x *= decay;
    return sum;
}

} // namespace

double failureRateOfAfr(double afr) {
    assert(afr >= 0.0 && afr < 1.0);
    return -std::log1p(-afr);
}

double chainLossProbability(const RedundancyChain& chain, double years) {
    assert(chain.tolerates < chain.disks);
    if (!(years > 0.0) || !(chain.failuresPerYear > 0.0))
        return 0.0;
    const Rates rates = ratesOf(chain);
    Real q = 0.0L;
    for (std::size_t i = 0; i < rates.up.size(); ++i)
        q = std::max(q, rates.up[i] + rates.down[i]);
    // Halve T until q·h ≤ 1/2, then square back up: exp(Q·T) = exp(Q·h)^(2^s).
    unsigned squarings = 0;
    Real h = static_cast<Real>(years);
    while (q * h > 0.5L) {
        h /= 2.0L;
        ++squarings;
    }
    Matrix m = uniformisedStep(rates, q, h);
    for (unsigned s = 0; s < squarings; ++s)
        m = product(m, m);
    return std::min(1.0, static_cast<double>(m.at(0, chain.tolerates + 1u)));
}

double noRepairLossProbability(unsigned disks, unsigned tolerates, double failuresPerYear,
                               double years) {
    assert(tolerates < disks);
    const double failed = -std::expm1(-failuresPerYear * years); // one drive, within T
    const double working = std::exp(-failuresPerYear * years);
    if (!(failed > 0.0))
        return 0.0;
    if (!(working > 0.0))
        return 1.0; // every drive has failed: more than f of them
    double sum = 0.0;
    for (unsigned k = tolerates + 1; k <= disks; ++k) {
        // C(n, k) p^k (1 − p)^(n − k), through logarithms so that no factor overflows.
        const double logTerm = std::lgamma(disks + 1.0) - std::lgamma(k + 1.0) -
                               std::lgamma(disks - k + 1.0) + k * std::log(failed) +
                               (disks - k) * std::log(working);
        sum += std::exp(logTerm);
    }
    return std::min(1.0, sum);
}

double anyOf(std::span<const double> probabilities) {
    double logNone = 0.0;
    for (const double p : probabilities) {
        if (p >= 1.0)
            return 1.0;
        logNone += std::log1p(-p);
    }
    return -std::expm1(logNone);
}

double unrecoverableReadProbability(double bytes, double errorsPerBitRead) {
    if (!(bytes > 0.0) || !(errorsPerBitRead > 0.0))
        return 0.0;
    return -std::expm1(8.0 * bytes * std::log1p(-errorsPerBitRead));
}

} // namespace lb
