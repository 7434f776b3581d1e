#include "engine/campaign/precondition.h"

#include "engine/base/size.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace lb {

namespace {

constexpr std::uint64_t block = 128 * 1024; // the preconditioning's sequential write size

std::string percentOf(double part, double whole) {
    std::ostringstream s;
    s.precision(1);
    s << std::fixed << (whole > 0 ? 100.0 * part / whole : 0.0) << " %";
    return s.str();
}

std::string number(double v) {
    std::ostringstream s;
    s.precision(v >= 100 ? 0 : 2);
    s << std::fixed << v;
    return s.str();
}

} // namespace

std::optional<Preconditioning> preconditioningFor(const ScenarioLayout& layout,
                                                  const ScenarioWorkload& workload,
                                                  const Probe& probe, std::string* skipped) {
    auto why = [&](std::string text) {
        if (skipped)
            *skipped = std::move(text);
        return std::optional<Preconditioning>{};
    };
    if (skipped)
        skipped->clear();
    if (!workload.precondition.snia && !layout.precondition)
        return std::nullopt;
    // The loader refused a workload's own precondition where it cannot run, so only a layout's
    // reaches a workload that cannot take it.
    if (!workload.precondition.snia) {
        if (!probe.supportsSteadyState())
            return why("the " + std::string(probe.name()) + " probe has no steady-state rounds");
        if (!workload.options.has("preset"))
            return why("a job file sets its own runtime, so it has no steady-state rounds");
        if (workload.options.has("target") || !workload.clients.empty())
            return why("it runs on an export or from clients, not in the layout's directory");
    }
    Preconditioning p = workload.precondition;
    p.snia = true;
    if (!p.bytes)
        p.bytes = layout.preconditionBytes;
    if (layout.kind == LayoutKind::Dir && !p.bytes)
        return why("a dir layout is preconditioned only with a precondition_size: layoutbench "
                   "does not fill a directory it did not make");
    return p;
}

std::uint64_t preconditionBytes(std::span<const Preconditioning> workloads,
                                const ScenarioLayout& layout, std::uint64_t freeBytes) {
    std::optional<std::uint64_t> given = layout.preconditionBytes;
    for (const auto& p : workloads)
        if (p.bytes)
            given = std::max(given.value_or(0), *p.bytes);
    const std::uint64_t bytes =
        given ? *given
              : static_cast<std::uint64_t>(std::floor(static_cast<double>(freeBytes) * 0.9));
    return bytes - bytes % block;
}

std::optional<std::uint64_t> parseDfAvailable(std::string_view output) {
    std::istringstream in{std::string(output)};
    std::string line;
    std::optional<std::uint64_t> value;
    while (std::getline(in, line)) {
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos)
            continue;
        const auto last = line.find_last_not_of(" \t\r");
        const std::string_view word = std::string_view(line).substr(first, last - first + 1);
        // Digits only; a figure beyond 64 bits is no free space df prints.
        std::uint64_t bytes = 0;
        const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), bytes);
        if (ec == std::errc{} && end == word.data() + word.size())
            value = bytes;
    }
    return value;
}

std::optional<double> trackedValue(const std::vector<Metric>& metrics, std::string_view glob) {
    std::optional<double> sum;
    for (const auto& m : metrics)
        if (metricMatches(glob, m.name))
            sum = sum.value_or(0) + m.value;
    return sum;
}

MetricNote steadyStateNote(const SteadyStateCheck& check, std::span<const double> rounds,
                           const Preconditioning& p, std::uint64_t bytes,
                           std::string_view tracked) {
    const std::string written =
        "after SNIA preconditioning (2 x " + formatBytes(bytes, true) + " written sequentially)";
    const std::string what = std::string(tracked);
    if (check.reached)
        return {MetricNote::Kind::Method, "",
                written + ", at steady state: rounds " + std::to_string(check.windowStart + 1) +
                    "-" + std::to_string(check.windowStart + check.windowRounds) + " of " +
                    std::to_string(p.roundSeconds) + " s, " + what + " " + number(check.average) +
                    " on average, range " + percentOf(check.excursion, check.average) +
                    " and slope " + percentOf(check.slopeExcursion, check.average) + " of it"};
    std::string text = written + ", not at steady state after " + std::to_string(rounds.size()) +
                       " round(s) of " + std::to_string(p.roundSeconds) + " s (the limit is " +
                       std::to_string(p.maxRounds) + ")";
    if (rounds.size() >= 5)
        text += ": over the last " + std::to_string(check.windowRounds) + " rounds " + what +
                " moved by " + percentOf(check.excursion, check.average) +
                " (at most 20 %) with a slope of " +
                percentOf(check.slopeExcursion, check.average) + " (at most 10 %)";
    else
        text += ": the SNIA window needs 5 rounds";
    return {MetricNote::Kind::Qualifies, "", text};
}

std::string describePreconditioning(const ScenarioLayout& layout,
                                    std::span<const Preconditioning> workloads) {
    std::optional<std::uint64_t> given = layout.preconditionBytes;
    for (const auto& p : workloads)
        if (p.bytes)
            given = std::max(given.value_or(0), *p.bytes);
    return "precondition (SNIA PTS): fio sequential 128 KiB writes, twice " +
           (given ? formatBytes(*given - *given % block, true)
                  : std::string("90 % of the space free when the layout is built")) +
           ", once before the layout's first measured run";
}

std::string describeSteadyStateRounds(const Preconditioning& p) {
    return "steady state: up to " + std::to_string(p.maxRounds) + " round(s) of " +
           std::to_string(p.roundSeconds) +
           " s of its own pattern until, over 5 rounds, the tracked figure stays within 20 % of "
           "its average and its trend within 10 %";
}

} // namespace lb
