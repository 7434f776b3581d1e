// The next step after a comparison (engine/measure/next_step.h): the runs that would settle the
// open deciding metrics, the metrics no number of runs settles, the outlier runs to look at, or the
// reader's call when the figures are settled.
#include "engine/measure/next_step.h"

#include "engine/base/size.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace lb {

namespace {

std::string listed(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

std::string percentMore(double overhead) {
    return fixed(std::abs(overhead) * 100, 0) + (overhead >= 0 ? " % more time" : " % less time");
}

// The runs each side should have for `m` to become confident, or none when no number up to
// `maxRuns` makes that likely; 0 when the metric has no interval for another reason (a value
// of 0), which more runs do not mend.
std::optional<std::size_t> runsToSettle(const MetricComparison& m, const Thresholds& t,
                                        std::size_t maxRuns) {
    const std::size_t fewest = std::min(m.baselineSamples, m.candidateSamples);
    if (!m.interval)
        return fewest < minSamplesForInterval ? std::optional<std::size_t>(minSamplesForInterval)
                                              : std::optional<std::size_t>(0);
    for (std::size_t n = fewest + 1; n <= maxRuns; ++n)
        if (chanceOfConfidence(m, t, n) >= 0.5)
            return n;
    return std::nullopt;
}

// The verdict the confident metrics already fix: a layout is at least as bad as its worst
// confident deciding metric.
const MetricComparison* confidentFloor(const Comparison& c) {
    const MetricComparison* floor = nullptr;
    for (const auto& m : c.metrics)
        if (m.decisive && m.confident && (!floor || worseThan(m.verdict, floor->verdict)))
            floor = &m;
    return floor;
}

// The deciding metrics still open: an open metric matters only where its interval reaches a worse
// band than the floor (or it has no interval yet) and nothing is confidently not viable.
std::vector<const MetricComparison*> openMetrics(const Comparison& c,
                                                 const MetricComparison* floor) {
    std::vector<const MetricComparison*> open;
    for (const auto& m : c.metrics)
        if (m.decisive && !m.confident &&
            (!floor || (floor->verdict != Verdict::NotViable &&
                        (!m.interval ||
                         worseThan(verdictFor(m.interval->high, c.thresholds), floor->verdict)))))
            open.push_back(&m);
    return open;
}

// The runs each workload needs on each side for its open metrics to settle, and the metrics no
// number of runs up to the maximum settles.
struct RunsNeeded {
    std::map<std::string, std::pair<std::size_t, std::size_t>> more; // workload: more a side
    std::vector<std::string> workloads;                              // in the order first met
    std::size_t eachSide = 0;                                        // runs a side, at most
    bool noInterval = false;                                         // a metric has no interval yet
    const MetricComparison* spanning = nullptr; // the worst that has an interval across bands
    std::vector<const MetricComparison*> unsettled;
};

RunsNeeded runsNeeded(const std::vector<const MetricComparison*>& open, const Thresholds& t,
                      std::size_t maxRuns) {
    RunsNeeded out;
    for (const auto* m : open) {
        const auto runs = runsToSettle(*m, t, maxRuns);
        if (!runs) {
            out.unsettled.push_back(m);
            continue;
        }
        if (*runs == 0)
            continue;
        out.eachSide = std::max(out.eachSide, *runs);
        const std::string w = m->workload.empty() ? std::string("the workloads") : m->workload;
        if (!out.more.count(w))
            out.workloads.push_back(w);
        auto& [b, k] = out.more[w];
        b = std::max(b, *runs > m->baselineSamples ? *runs - m->baselineSamples : 0);
        k = std::max(k, *runs > m->candidateSamples ? *runs - m->candidateSamples : 0);
        out.noInterval = out.noInterval || !m->interval;
        if (m->interval && !out.spanning)
            out.spanning = m;
    }
    return out;
}

// One clause per distinct ask: "run 2 more iterations of bonnie and xz on both layouts (5 a
// side): ..."; "import" and "runs" where the results were imported.
std::string moreRunsClause(const RunsNeeded& need, const Comparison& c) {
    std::map<std::pair<std::size_t, std::size_t>, std::vector<std::string>> byAsk;
    std::vector<std::pair<std::size_t, std::size_t>> askOrder;
    for (const auto& w : need.workloads) {
        const auto ask = need.more.at(w);
        if (!byAsk.count(ask))
            askOrder.push_back(ask);
        byAsk[ask].push_back(w);
    }
    std::vector<std::string> asks;
    for (const auto& ask : askOrder) {
        const auto [b, k] = ask;
        const std::size_t more = std::max(b, k);
        const std::string where = b > 0 && k > 0 ? "both layouts"
                                  : b > 0        ? c.baseline
                                                 : c.candidate;
        asks.push_back(c.imported ? std::to_string(more) + " more " + (more == 1 ? "run" : "runs") +
                                        " of " + listed(byAsk.at(ask)) + " for " + where
                                  : std::to_string(more) + " more " +
                                        (more == 1 ? "iteration" : "iterations") + " of " +
                                        listed(byAsk.at(ask)) + " on " + where);
    }
    std::string clause = (c.imported ? "import " : "run ") + listed(asks) + " (" +
                         std::to_string(need.eachSide) + " a side): ";
    if (need.noInterval)
        return clause + "an interval needs at least " + std::to_string(minSamplesForInterval) +
               " runs on each side";
    return clause + "the interval of " + plainMetricName(need.spanning->name) + " (" +
           fixed(need.spanning->interval->low, 2) + "–" + fixed(need.spanning->interval->high, 2) +
           ") still spans two bands";
}

std::string unsettledClause(const std::vector<const MetricComparison*>& unsettled,
                            std::size_t maxRuns) {
    std::vector<std::string> names;
    for (const auto* m : unsettled)
        names.push_back(plainMetricName(m->name));
    return "more runs will not settle " + listed(names) + " (up to " + std::to_string(maxRuns) +
           " a side): its ratio lies too near a band's edge, so decide on " +
           (unsettled.size() == 1 ? "it" : "them") + " as measured";
}

// Outliers that change a deciding verdict: looked at before anything is signed. "" when none do.
std::string outliersClause(const Comparison& c) {
    std::vector<std::string> outlierRuns;
    for (const auto& m : c.metrics)
        if (m.decisive && m.withoutOutliers)
            for (const auto& o : m.outliers) {
                const std::string name = (o.run ? "run #" + std::to_string(o.run) : "a run") +
                                         " of " + (o.baseline ? c.baseline : c.candidate);
                if (std::find(outlierRuns.begin(), outlierRuns.end(), name) == outlierRuns.end())
                    outlierRuns.push_back(name);
            }
    if (outlierRuns.empty())
        return {};
    return "look at " + listed(outlierRuns) +
           (outlierRuns.size() == 1
                ? ": it stands apart from its siblings and the verdict without it "
                  "differs; run it again if it was a stall"
                : ": they stand apart from their siblings and the verdict without "
                  "them differs; run them again if they were stalls");
}

// Nothing to run or look at: none where the verdict is settled in a band, else the reader's call
// on the worst metric between the bands.
std::optional<NextStep> settledStep(const Comparison& c) {
    if (c.verdict != Verdict::Decision)
        return std::nullopt;
    const MetricComparison* worst = nullptr;
    for (const auto& m : c.metrics)
        if (m.decisive && m.verdict == Verdict::Decision) {
            worst = &m;
            break;
        }
    NextStep out;
    out.text = "the figures are settled; decide whether " +
               (worst ? percentMore(worst->overhead) + " on " + plainMetricName(worst->name)
                      : std::string("the cost")) +
               " is acceptable";
    return out;
}

// No deciding metric was compared: what to measure so that one is.
NextStep measureAlikeStep(const Comparison& c) {
    NextStep out;
    if (const OtherWork other = otherWork(c); other.metrics > 0)
        out.text = "measure both layouts doing the same work: every metric that decides was "
                   "measured doing other work on each side (" +
                   other.first + ")";
    else if (c.metrics.empty())
        out.text = "measure both layouts with the same workloads: no metric was measured on both";
    else
        out.text = "measure both layouts with the same workloads: no metric that decides was "
                   "measured on both";
    return out;
}

} // namespace

std::optional<NextStep> nextStep(const Comparison& c, std::size_t maxRuns) {
    if (c.verdict == Verdict::NoVerdict)
        return measureAlikeStep(c);
    NextStep out;
    const MetricComparison* floor = confidentFloor(c);
    const RunsNeeded need =
        c.confident ? RunsNeeded{} : runsNeeded(openMetrics(c, floor), c.thresholds, maxRuns);
    std::vector<std::string> clauses;
    out.runsEachSide = need.eachSide;
    out.workloads = need.workloads;
    if (!need.workloads.empty())
        clauses.push_back(moreRunsClause(need, c));
    if (!need.unsettled.empty())
        clauses.push_back(unsettledClause(need.unsettled, maxRuns));
    if (auto outliers = outliersClause(c); !outliers.empty())
        clauses.push_back(std::move(outliers));
    const bool othersOpen = std::any_of(c.metrics.begin(), c.metrics.end(),
                                        [](const auto& m) { return m.decisive && !m.confident; });
    if (clauses.empty() && c.confident && c.verdict == Verdict::NotViable && othersOpen) {
        // Open metrics left, none of which can change it.
        out.text = "nothing to run: " + plainMetricName(floor->name) + " alone makes it not " +
                   "viable, with confidence, whatever more runs of the others would show";
        return out;
    }
    if (clauses.empty() && c.confident)
        return settledStep(c);
    if (clauses.empty()) // open, and nothing measurable settles it: said, never called settled
        clauses.push_back("decide on the figures as measured: " + c.confidence +
                          ", and more runs cannot settle it");
    std::string text;
    for (std::size_t i = 0; i < clauses.size(); ++i)
        text += (i == 0 ? "" : "; ") + clauses[i];
    out.text = std::move(text);
    return out;
}

std::set<std::string> workloadsToRunAgainForOutliers(const Comparison& c, std::size_t minRuns) {
    std::set<std::string> out;
    for (const auto& m : c.metrics)
        if (m.decisive && !m.workload.empty())
            for (const auto& o : m.outliers)
                if ((o.baseline ? m.baselineSamples : m.candidateSamples) <= minRuns)
                    out.insert(m.workload);
    return out;
}

} // namespace lb
