#include "reports/comparison_text.h"

#include "engine/base/joined.h"
#include "engine/measure/fill_levels.h"
#include "engine/store/store.h"
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

std::string intervalText(const MetricComparison& m) {
    if (!m.interval)
        return "—";
    return display::ratio(m.interval->low) + "–" + display::ratio(m.interval->high);
}

std::string verdictCell(const MetricComparison& m) {
    if (!m.decisive)
        return "shown";
    std::string verdict(verdictName(m.verdict));
    if (!m.confident)
        verdict += " (not confident)";
    return verdict;
}

nlohmann::json outliersJson(const Comparison& c, const MetricComparison& m) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& o : m.outliers)
        out.push_back({{"layout", o.baseline ? c.baseline : c.candidate},
                       {"run", o.run ? nlohmann::json(o.run) : nlohmann::json(nullptr)},
                       {"value", number(o.value)},
                       {"median", number(o.median)},
                       {"score", number(o.score)}});
    return out;
}

nlohmann::json withoutOutliersJson(const MetricComparison& m) {
    if (!m.withoutOutliers)
        return nullptr;
    const auto& w = *m.withoutOutliers;
    return {{"verdict", verdictName(w.verdict)},
            {"confident", w.confident},
            {"overhead", number(w.overhead)},
            {"ci_low", w.interval ? number(w.interval->low) : nlohmann::json(nullptr)},
            {"ci_high", w.interval ? number(w.interval->high) : nlohmann::json(nullptr)}};
}

namespace {

// The fill level both sides were measured at (issue 44), where they were filled.
nlohmann::json withFillLevel(const Comparison& c, nlohmann::json j) {
    if (c.fillLevel)
        j["fill_level"] = *c.fillLevel;
    return j;
}

} // namespace

nlohmann::json comparisonJson(const Comparison& c) {
    // Each metric's object is filled key by key: an initializer list of {key, value} pairs makes
    // every pair a two-element array first, which was a third of compare --json's time on a
    // comparison of 1,000 metrics.
    nlohmann::json metrics = nlohmann::json::array();
    metrics.get_ref<nlohmann::json::array_t&>().reserve(c.metrics.size());
    for (const auto& m : c.metrics) {
        auto& o = metrics.emplace_back(nlohmann::json::object());
        o["name"] = m.name;
        o["unit"] = unitName(m.unit);
        o["better"] = m.better == Better::Higher ? "higher" : "lower";
        o["decisive"] = m.decisive;
        o["role"] = m.role;
        o["baseline_samples"] = m.baselineSamples;
        o["candidate_samples"] = m.candidateSamples;
        o["baseline_median"] = m.baselineMedian;
        o["candidate_median"] = m.candidateMedian;
        o["ratio"] = number(m.ratio);
        o["overhead"] = number(m.overhead);
        o["ci_low"] = m.interval ? number(m.interval->low) : nlohmann::json(nullptr);
        o["ci_high"] = m.interval ? number(m.interval->high) : nlohmann::json(nullptr);
        o["verdict"] = verdictName(m.verdict);
        o["confident"] = m.confident;
        o["uncertainty"] =
            m.uncertainty.empty() ? nlohmann::json(nullptr) : nlohmann::json(m.uncertainty);
        o["notes"] = m.notes;
        o["excluded"] = m.excluded.empty() ? nlohmann::json(nullptr) : nlohmann::json(m.excluded);
        o["reason"] = verdictReason(m);
        o["outliers"] = outliersJson(c, m);
        o["without_outliers"] = withoutOutliersJson(m);
    }
    nlohmann::json notCompared = nlohmann::json::array();
    for (const auto& n : c.notCompared)
        notCompared.push_back({{"name", n.name}, {"reason", n.reason}});
    nlohmann::json drift = nullptr;
    if (c.drift)
        drift = {{"metric", c.drift->metric},
                 {"change", number(c.drift->change)},
                 {"ci_low", number(c.drift->interval.low)},
                 {"ci_high", number(c.drift->interval.high)}};
    return withFillLevel(
        c,
        {{"baseline", c.baseline},
         {"candidate", c.candidate},
         {"verdict", verdictName(c.verdict)},
         {"confident", c.confident},
         {"confidence", c.confidence},
         {"headline", c.headline},
         {"measured_on",
          {{"baseline", c.baselineMeasuredOn}, {"candidate", c.candidateMeasuredOn}}},
         {"thresholds",
          {{"viable_max", c.thresholds.viableMax}, {"not_viable_min", c.thresholds.notViableMin}}},
         {"decide", c.decide},
         {"metrics", metrics},
         {"not_compared", notCompared},
         {"only_in_baseline", c.onlyInBaseline},
         {"only_in_candidate", c.onlyInCandidate},
         {"drift", drift},
         {"next_step", c.next ? nlohmann::json(c.next->text) : nlohmann::json(nullptr)}});
}

nlohmann::json fillCurveJson(const FillCurve& curve) {
    nlohmann::json levels = nlohmann::json::array();
    for (const auto& l : curve.levels)
        levels.push_back(comparisonJson(l.comparison));
    const auto listed = [](const std::vector<int>& permille) {
        nlohmann::json out = nlohmann::json::array();
        for (const int p : permille)
            out.push_back(p == asBuiltPermille ? nlohmann::json(nullptr)
                                               : nlohmann::json(fillLevelOf(p)));
        return out;
    };
    return {{"baseline", curve.baseline},
            {"candidate", curve.candidate},
            {"fill_summary", curve.summary},
            {"levels", levels},
            {"only_in_baseline_levels", listed(curve.onlyBaseline)},
            {"only_in_candidate_levels", listed(curve.onlyCandidate)}};
}

std::string fillCurveText(const FillCurve& curve, std::size_t maxWidth) {
    std::string out = curve.summary;
    out.append("\n");
    const auto named = [](const std::vector<int>& permille) {
        std::vector<std::string> words;
        for (const int p : permille)
            words.push_back(
                fillLevelText(p == asBuiltPermille ? std::nullopt : std::optional(fillLevelOf(p))));
        return joinedText(words, ", ");
    };
    if (!curve.onlyBaseline.empty())
        out.append("measured on the baseline only, not compared: ")
            .append(named(curve.onlyBaseline))
            .append("\n");
    if (!curve.onlyCandidate.empty())
        out.append("measured on the candidate only, not compared: ")
            .append(named(curve.onlyCandidate))
            .append("\n");
    for (const auto& l : curve.levels)
        out.append("\n").append(comparisonTable(l.comparison, maxWidth));
    return out;
}

std::string comparisonTable(const Comparison& c, std::size_t maxWidth) {
    display::Table table(
        {"metric", "baseline", "candidate", "ratio", "overhead", "95% interval", "verdict"});
    for (const auto& m : c.metrics)
        table.addRow({m.name, display::value(m.baselineMedian, m.unit),
                      display::value(m.candidateMedian, m.unit), display::ratio(m.ratio),
                      display::percent(m.overhead), intervalText(m), verdictCell(m)});
    table.leaveOutFirst({"95% interval", "overhead"});
    const std::string at =
        c.fillLevel ? std::string(", both at ").append(fillLevelText(c.fillLevel)).append(" full")
                    : std::string();
    std::string out = c.headline + "\n\nbaseline '" + c.baseline + "' vs candidate '" +
                      c.candidate + "'" + at +
                      " (deciding metrics first, worst first; those 'shown' do " + "not decide)\n" +
                      table.render(maxWidth) + "overall: " + std::string(verdictName(c.verdict)) +
                      (c.verdict == Verdict::NoVerdict ? std::string()
                       : c.confident                   ? " (confident)"
                                                       : " (not confident)") +
                      ": " + c.confidence + "\n";
    for (const auto& m : c.metrics)
        if (m.decisive && m.verdict != Verdict::Viable)
            out += "  " + verdictReason(m) + (m.confident ? "" : " (" + m.uncertainty + ")") + "\n";
    if (c.next)
        out += "next: " + c.next->text + "\n";
    // Each note once, with the metrics it is on; the drift is in the headline already.
    std::string notes;
    for (const auto& line : noteLines(c, c.drift ? "drifted" : ""))
        notes += "  " + line.text + "\n    on " + noteMetricsText(line, c) + "\n";
    if (!notes.empty())
        out += "notes:\n" + notes;
    std::string excluded;
    for (const auto& m : c.metrics)
        if (!m.excluded.empty())
            excluded += "  " + m.name + ": " + m.excluded + "\n";
    for (const auto& n : c.notCompared)
        excluded += "  " + n.name + ": " + n.reason + "\n";
    if (!excluded.empty())
        out += "not compared:\n" + excluded;
    return out;
}

} // namespace lb
