// SSD preconditioning and steady state before a layout's measured runs (SNIA SSS PTS): which
// workloads get it on which layout, how much is written, the variable the rounds track, and what
// the measured runs' metrics say about it. The campaign runs the steps; these are its rules.
#pragma once

#include "engine/measure/metric.h"
#include "engine/measure/steady_state.h"
#include "engine/scenario/scenario.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

// The rounds a workload runs on a layout before it is measured: its own precondition = "snia",
// or the layout's for a workload that can take it (a fio preset in the layout's directory).
// None, with `skipped` saying why when preconditioning was asked for but does not apply.
std::optional<Preconditioning> preconditioningFor(const ScenarioLayout& layout,
                                                  const ScenarioWorkload& workload,
                                                  const Probe& probe, std::string* skipped);

// What the workload-independent preconditioning writes (twice): the largest size a workload or
// the layout gives, else 90 % of `freeBytes`, the space free in the layout when it starts (a
// file system needs room of its own), in whole 128 KiB blocks.
std::uint64_t preconditionBytes(std::span<const Preconditioning> workloads,
                                const ScenarioLayout& layout, std::uint64_t freeBytes);

// The available bytes `df -B1 --output=avail DIR` printed.
std::optional<std::uint64_t> parseDfAvailable(std::string_view output);

// The sum of the metrics matching `glob` (a round's IOPS over its read and write sides); none
// when no metric matches.
std::optional<double> trackedValue(const std::vector<Metric>& metrics, std::string_view glob);

// The note on a measured run's metrics once the rounds ended: where steady state was reached
// (a Method note) or that it was not within the round limit (Qualifies: it changes what the
// figures mean).
MetricNote steadyStateNote(const SteadyStateCheck& check, std::span<const double> rounds,
                           const Preconditioning& p, std::uint64_t bytes, std::string_view tracked);

// For `plan`: what the preconditioning of a layout does, one line without a newline.
std::string describePreconditioning(const ScenarioLayout& layout,
                                    std::span<const Preconditioning> workloads);
// For `plan`: a workload's rounds, one line without a newline.
std::string describeSteadyStateRounds(const Preconditioning& p);

} // namespace lb
