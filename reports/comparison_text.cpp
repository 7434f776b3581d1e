#include "reports/comparison_text.h"

#include "reports/display.h"

#include <cmath>

namespace lb {

namespace {

nlohmann::json number(double v) {
    if (std::isfinite(v))
        return v;
    return nullptr; // JSON has no infinity: a zero baseline or candidate
}

} // namespace

nlohmann::json comparisonJson(const Comparison& c) {
    nlohmann::json metrics = nlohmann::json::array();
    for (const auto& m : c.metrics)
        metrics.push_back({{"name", m.name},
                           {"unit", unitName(m.unit)},
                           {"better", m.better == Better::Higher ? "higher" : "lower"},
                           {"decisive", m.decisive},
                           {"baseline_samples", m.baselineSamples},
                           {"candidate_samples", m.candidateSamples},
                           {"baseline_median", m.baselineMedian},
                           {"candidate_median", m.candidateMedian},
                           {"ratio", number(m.ratio)},
                           {"overhead", number(m.overhead)},
                           {"ci_low", number(m.interval.low)},
                           {"ci_high", number(m.interval.high)},
                           {"verdict", verdictName(m.verdict)},
                           {"confident", m.confident},
                           {"reason", verdictReason(m)}});
    return {
        {"baseline", c.baseline},
        {"candidate", c.candidate},
        {"verdict", verdictName(c.verdict)},
        {"thresholds",
         {{"viable_max", c.thresholds.viableMax}, {"not_viable_min", c.thresholds.notViableMin}}},
        {"metrics", metrics},
        {"only_in_baseline", c.onlyInBaseline},
        {"only_in_candidate", c.onlyInCandidate}};
}

std::string comparisonTable(const Comparison& c) {
    display::Table table(
        {"metric", "baseline", "candidate", "ratio", "overhead", "95% interval", "verdict"});
    for (const auto& m : c.metrics) {
        std::string verdict(verdictName(m.verdict));
        if (!m.confident)
            verdict += " (not confident)";
        if (!m.decisive)
            verdict += " [info]";
        table.addRow({m.name, display::value(m.baselineMedian, m.unit),
                      display::value(m.candidateMedian, m.unit), display::ratio(m.ratio),
                      display::percent(m.overhead),
                      display::ratio(m.interval.low) + "–" + display::ratio(m.interval.high),
                      verdict});
    }
    std::string out = "baseline '" + c.baseline + "' vs candidate '" + c.candidate + "'\n" +
                      table.render() + "overall: " + std::string(verdictName(c.verdict)) + "\n";
    for (const auto& m : c.metrics)
        if (m.decisive && m.verdict != Verdict::Viable)
            out += "  " + verdictReason(m) + "\n";
    return out;
}

} // namespace lb
