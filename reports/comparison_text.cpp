#include "reports/comparison_text.h"

#include "engine/base/joined.h"
#include "engine/base/json_writer.h"
#include "engine/measure/fill_levels.h"
#include "engine/store/store.h"
#include "reports/display.h"

#include <cmath>

namespace lb {

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

namespace {

// An interval's ends, or nulls when there are too few runs for one.
void intervalMembers(JsonWriter& w, const std::optional<Interval>& interval) {
    if (interval)
        w.member("ci_high", interval->high).member("ci_low", interval->low);
    else
        w.key("ci_high").null().key("ci_low").null();
}

void textOrNull(JsonWriter& w, std::string_view key, const std::string& text) {
    w.key(key);
    if (text.empty())
        w.null();
    else
        w.value(text);
}

void outliersJson(JsonWriter& w, const Comparison& c, const MetricComparison& m) {
    w.beginArray();
    for (const auto& o : m.outliers) {
        w.beginObject().member("layout", o.baseline ? c.baseline : c.candidate);
        w.member("median", o.median).key("run");
        if (o.run)
            w.value(o.run);
        else
            w.null();
        w.member("score", o.score).member("value", o.value).endObject();
    }
    w.endArray();
}

void withoutOutliersJson(JsonWriter& w, const MetricComparison& m) {
    if (!m.withoutOutliers) {
        w.null();
        return;
    }
    const auto& o = *m.withoutOutliers;
    w.beginObject();
    intervalMembers(w, o.interval);
    w.member("confident", o.confident)
        .member("overhead", o.overhead)
        .member("verdict", verdictName(o.verdict))
        .endObject();
}

// Each member in the order nlohmann's sorted keys write it.
void metricJson(JsonWriter& w, const Comparison& c, const MetricComparison& m) {
    w.beginObject()
        .member("baseline_median", m.baselineMedian)
        .member("baseline_samples", std::uint64_t{m.baselineSamples})
        .member("better", m.better == Better::Higher ? "higher" : "lower")
        .member("candidate_median", m.candidateMedian)
        .member("candidate_samples", std::uint64_t{m.candidateSamples});
    intervalMembers(w, m.interval);
    w.member("confident", m.confident).member("decisive", m.decisive);
    textOrNull(w, "excluded", m.excluded);
    w.member("name", m.name).member("notes", m.notes).key("outliers");
    outliersJson(w, c, m);
    w.member("overhead", m.overhead)
        .member("ratio", m.ratio)
        .member("reason", verdictReason(m))
        .member("role", m.role);
    textOrNull(w, "uncertainty", m.uncertainty);
    w.member("unit", unitName(m.unit)).member("verdict", verdictName(m.verdict));
    w.key("without_outliers");
    withoutOutliersJson(w, m);
    w.endObject();
}

// The sides, each with the machine it was measured on when the sides were picked apart
// (`baseline_host`, `candidate_host`), in the keys' order.
void sidesMembers(JsonWriter& w, const std::string& baseline, const std::string& candidate,
                  const HostChoice& hosts) {
    const bool apart = hosts.baseline != hosts.candidate;
    w.member("baseline", baseline);
    if (apart && hosts.baseline)
        w.member("baseline_host", *hosts.baseline);
    w.member("candidate", candidate);
    if (apart && hosts.candidate)
        w.member("candidate_host", *hosts.candidate);
}

// One machine picked for both sides: `host`.
void hostMember(JsonWriter& w, const HostChoice& hosts) {
    if (hosts.baseline == hosts.candidate && hosts.baseline)
        w.member("host", *hosts.baseline);
}

void writeComparison(JsonWriter& w, const Comparison& c, const HostChoice& hosts) {
    w.beginObject();
    sidesMembers(w, c.baseline, c.candidate, hosts);
    w.member("confidence", c.confidence)
        .member("confident", c.confident)
        .member("decide", c.decide)
        .key("drift");
    if (c.drift)
        w.beginObject()
            .member("change", c.drift->change)
            .member("ci_high", c.drift->interval.high)
            .member("ci_low", c.drift->interval.low)
            .member("metric", c.drift->metric)
            .endObject();
    else
        w.null();
    // The fill level both sides were measured at (issue 44), where they were filled.
    if (c.fillLevel)
        w.member("fill_level", *c.fillLevel);
    w.member("headline", c.headline);
    hostMember(w, hosts);
    w.key("measured_on")
        .beginObject()
        .member("baseline", c.baselineMeasuredOn)
        .member("candidate", c.candidateMeasuredOn)
        .endObject();
    w.key("metrics").beginArray();
    for (const auto& m : c.metrics)
        metricJson(w, c, m);
    w.endArray().key("next_step");
    if (c.next)
        w.value(c.next->text);
    else
        w.null();
    w.key("not_compared").beginArray();
    for (const auto& n : c.notCompared)
        w.beginObject().member("name", n.name).member("reason", n.reason).endObject();
    w.endArray()
        .member("only_in_baseline", c.onlyInBaseline)
        .member("only_in_candidate", c.onlyInCandidate)
        .key("thresholds")
        .beginObject()
        .member("not_viable_min", c.thresholds.notViableMin)
        .member("viable_max", c.thresholds.viableMax)
        .endObject()
        .member("verdict", verdictName(c.verdict))
        .endObject();
}

// Fill levels in thousandths as the JSON gives them: a share, null for as built.
void fillLevels(JsonWriter& w, const std::vector<int>& permille) {
    w.beginArray();
    for (const int p : permille)
        if (p == asBuiltPermille)
            w.null();
        else
            w.value(fillLevelOf(p));
    w.endArray();
}

} // namespace

std::string comparisonJsonText(const Comparison& c, const HostChoice& hosts, int indent) {
    std::string out;
    out.reserve(1024 + c.metrics.size() * 900);
    JsonWriter w(out, indent);
    writeComparison(w, c, hosts);
    return out;
}

std::string fillCurveJsonText(const FillCurve& curve, const HostChoice& hosts, int indent) {
    std::string out;
    JsonWriter w(out, indent);
    w.beginObject();
    sidesMembers(w, curve.baseline, curve.candidate, hosts);
    w.member("fill_summary", curve.summary);
    hostMember(w, hosts);
    w.key("levels").beginArray();
    for (const auto& l : curve.levels)
        writeComparison(w, l.comparison, {});
    w.endArray().key("only_in_baseline_levels");
    fillLevels(w, curve.onlyBaseline);
    w.key("only_in_candidate_levels");
    fillLevels(w, curve.onlyCandidate);
    w.endObject();
    return out;
}

nlohmann::json comparisonJson(const Comparison& c) {
    return nlohmann::json::parse(comparisonJsonText(c));
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
