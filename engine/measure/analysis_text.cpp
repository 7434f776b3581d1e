// A comparison in words (engine/measure/analysis.h): percentages and costs as a reader takes
// them, the headline that names what drove the verdict, a metric's verdict in a line, the
// metrics that did other work, and the label of runs measured on an emulation.
#include "engine/measure/analysis.h"
#include "engine/measure/measure_internal.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lb {

std::string percentText(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", std::fabs(fraction) * 100.0);
    return text;
}

std::string costNoun(Unit unit, bool more) {
    const char* amount = more ? "more " : "less ";
    if (unit == Unit::BytesPerSecond)
        return std::string(amount) + "time per byte";
    if (unit == Unit::OpsPerSecond)
        return std::string(amount) + "time per operation";
    if (unit == Unit::Nanoseconds)
        return std::string(amount) + "latency";
    return std::string(amount) + "time";
}

std::string scoreText(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", v);
    return text;
}

// A share of a median as a reader takes it: "0.2 %", "31 %", "180 %".
std::string shareText(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text,
                  fraction < 0.01  ? "%.2f"
                  : fraction < 0.1 ? "%.1f"
                                   : "%.0f",
                  fraction * 100.0);
    return text;
}

std::string shortMetricName(std::string_view name) {
    // bonnie++'s and fio's own names read well alone; "throughput" of randfile or xz does not.
    for (std::string_view family : {"bonnie.", "fio."})
        if (name.starts_with(family))
            return std::string(name.substr(family.size()));
    return std::string(name);
}

namespace {

// Metrics the two sides measured doing different work, with the first difference: out of the
// verdict, and said at its head; "" when there are none.
std::string otherWorkText(const Comparison& c) {
    const OtherWork other = otherWork(c);
    if (other.metrics == 0)
        return {};
    return std::to_string(other.metrics) + " metric" + (other.metrics == 1 ? "" : "s") +
           " not comparable (the sides did different work: " + other.first + ")";
}

// The deciding metrics beyond the viable band, worst first, the first three named; or, where
// there are none, the worst of them within it.
std::string driversText(const std::vector<const MetricComparison*>& deciding,
                        const std::string& within) {
    std::vector<std::string> drivers;
    for (const auto* m : deciding) { // worst first already
        if (m->verdict == Verdict::Viable)
            break;
        // The first names what the percentage measures; the rest are read the same way. Appended
        // part by part: "literal" + string&& draws GCC 12's -Wrestrict at -O3, a false alarm in
        // libstdc++'s operator+ (GCC bug 105329).
        std::string driver = shortMetricName(m->name);
        driver.append(" ").append(percentText(m->overhead)).append(" %");
        if (drivers.empty())
            driver.append(" ").append(costNoun(m->unit, true));
        drivers.push_back(std::move(driver));
    }
    if (drivers.empty()) {
        const auto* worst = deciding.front();
        return "every deciding metric within " + within +
               " % (worst: " + shortMetricName(worst->name) + " " + percentText(worst->overhead) +
               " % " + costNoun(worst->unit, worst->overhead >= 0) + ")";
    }
    constexpr std::size_t shown = 3;
    const std::size_t extra = drivers.size() > shown ? drivers.size() - shown : 0;
    drivers.resize(std::min(drivers.size(), shown));
    std::string out = joinedText(drivers, "; ");
    if (extra > 0)
        out += "; " + std::to_string(extra) + " more beyond " + within + " %";
    const bool rest = deciding.size() > drivers.size() + extra;
    if (rest)
        out += "; everything else within " + within + " %";
    return out;
}

// " (not confident: 2 of 5 deciding metrics; too few runs: 2 and 3)".
std::string unsureText(const std::vector<const MetricComparison*>& deciding) {
    std::size_t unsure = 0;
    for (const auto* m : deciding)
        unsure += m->confident ? 0 : 1;
    std::string out = " (not confident: " + std::to_string(unsure) + " of " +
                      std::to_string(deciding.size()) + " deciding metrics";
    const auto few = std::find_if(deciding.begin(), deciding.end(), [](const auto* m) {
        return m->uncertainty.starts_with("too few runs");
    });
    if (few != deciding.end())
        out += "; " + (*few)->uncertainty;
    return out + ")";
}

// Runs that stand apart on a deciding metric, and the verdict without them where they change it:
// named next to the verdict, which keeps them; "" when no run does.
std::string outlierRunsText(const Comparison& c,
                            const std::vector<const MetricComparison*>& deciding) {
    std::vector<std::string> outlierRuns;
    bool changed = false;
    Verdict without = Verdict::Viable;
    bool confidentWithout = true;
    for (const auto* m : deciding) {
        for (const auto& o : m->outliers) {
            // Appended, not "literal" + string&& (GCC 12's -Wrestrict false alarm, bug 105329).
            std::string name = o.run ? std::string("#") : std::string("one of ");
            name.append(o.run ? std::to_string(o.run) : (o.baseline ? c.baseline : c.candidate));
            if (std::find(outlierRuns.begin(), outlierRuns.end(), name) == outlierRuns.end())
                outlierRuns.push_back(name);
        }
        changed = changed || m->withoutOutliers.has_value();
        without = worse(without, m->withoutOutliers ? m->withoutOutliers->verdict : m->verdict);
        confidentWithout =
            confidentWithout && (m->withoutOutliers ? m->withoutOutliers->confident : m->confident);
    }
    if (outlierRuns.empty())
        return {};
    std::string out = std::string(outlierRuns.size() > 1 ? "; outlier runs " : "; outlier run ") +
                      joinedText(outlierRuns, ", ");
    if (changed)
        out += " (without: " + std::string(verdictName(without)) +
               (confidentWithout ? ", confident)" : ", not confident)");
    return out;
}

} // namespace

std::string headlineFor(const Comparison& c) {
    std::vector<const MetricComparison*> deciding;
    for (const auto& m : c.metrics)
        if (m.decisive)
            deciding.push_back(&m);
    const std::string different = otherWorkText(c);
    if (deciding.empty())
        return c.candidate + ": " + std::string(verdictName(c.verdict)) +
               " — no deciding metric could be compared" +
               (different.empty() ? std::string() : "; " + different);
    std::string out = c.candidate + ": " + std::string(verdictName(c.verdict)) + " — " +
                      driversText(deciding, percentText(c.thresholds.viableMax - 1));
    if (!c.confident)
        out += unsureText(deciding);
    out += outlierRunsText(c, deciding);
    if (!different.empty())
        out += "; " + different;
    // Said next to the verdict, not only among the notes: this is not a server's ZFS on disks.
    return out + emulationLabel(c);
}

OtherWork otherWork(const Comparison& c) {
    OtherWork out;
    for (const auto& m : c.metrics)
        if (m.excluded.starts_with(notComparablePrefix)) {
            if (out.metrics++ == 0) {
                out.firstMetric = m.name;
                out.first = m.excluded.substr(notComparablePrefix.size());
            }
        }
    return out;
}

std::vector<std::string> figuresDiffer(const Comparison& c) {
    std::vector<std::string> out;
    for (const auto& line : noteLines(c))
        if (line.text.starts_with(sidesDifferPrefix))
            out.push_back(line.text + " (on " + std::to_string(line.metrics.size()) + " of the " +
                          std::to_string(c.metrics.size()) + " metrics compared)");
    if (const OtherWork other = otherWork(c); other.metrics > 0)
        out.push_back(std::to_string(other.metrics) +
                      (other.metrics == 1 ? " metric is" : " metrics are") +
                      " left out of the verdict because the sides did other work (" +
                      other.firstMetric + ": " + other.first + ")");
    return out;
}

std::vector<NoteLine> decidingCaveats(const Comparison& c) {
    std::vector<NoteLine> out;
    for (auto& line : noteLines(c, c.drift ? "drifted" : "")) {
        const bool deciding =
            std::any_of(line.metrics.begin(), line.metrics.end(), [&](const std::string& n) {
                return std::any_of(
                    c.metrics.begin(), c.metrics.end(),
                    [&](const MetricComparison& m) { return m.decisive && m.name == n; });
            });
        if (deciding && !line.text.starts_with(sidesDifferPrefix))
            out.push_back(std::move(line));
    }
    return out;
}

std::string emulationLabel(const Comparison& c) {
    const auto onlyEmulated = [](const std::vector<std::string>& on) {
        return std::any_of(on.begin(), on.end(), [](const std::string& l) {
            return l == "zfs-fuse" || l == "file vdevs" || l == "TCG emulation";
        });
    };
    std::string out;
    for (const auto& [who, on] : {std::pair{c.candidate, &c.candidateMeasuredOn},
                                  std::pair{c.baseline, &c.baselineMeasuredOn}})
        if (onlyEmulated(*on))
            out += " [" + who + " measured on " + joinedText(*on, ", ") + "]";
    return out;
}

std::string verdictReason(const MetricComparison& m) {
    const char* tail = "viable";
    if (m.verdict == Verdict::Decision)
        tail = "decision required";
    else if (m.verdict == Verdict::NotViable)
        tail = "not viable";
    return shortMetricName(m.name) + ": " + percentText(m.overhead) + " % " +
           costNoun(m.unit, m.overhead >= 0) + " — " + tail;
}

} // namespace lb
