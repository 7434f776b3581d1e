// The comparison (engine/measure/analysis.h): verdict bands, which metrics decide and in what
// role, each metric both sides measured compared with its notes and outliers, what could not be
// compared and why, and the layout's verdict. The statistics are in analysis_stats.cpp, what the
// notes say in analysis_notes.cpp, the headline and other words in analysis_text.cpp, the
// machine's drift in analysis_drift.cpp.
#include "engine/measure/analysis.h"

#include "engine/measure/measure_internal.h"
#include "engine/measure/next_step.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace lb {

MetricSamples MetricSamples::withRuns(std::string name, std::vector<double> values,
                                      const std::vector<SampleRun>& runs, std::string workload) {
    MetricSamples out{std::move(name), std::move(values), std::move(workload), {}, {}};
    out.runOf.resize(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        out.runOf[i] = static_cast<std::uint32_t>(i);
    out.runs = std::make_shared<const std::vector<SampleRun>>(runs);
    return out;
}

std::string_view verdictName(Verdict v) {
    switch (v) {
    case Verdict::Viable:
        return "viable";
    case Verdict::Decision:
        return "decision";
    case Verdict::NotViable:
        return "not-viable";
    case Verdict::NoVerdict:
        return "no-verdict";
    }
    return "no-verdict";
}

bool worseThan(Verdict a, Verdict b) {
    return a != b && worse(a, b) == a;
}

Verdict worse(Verdict a, Verdict b) {
    if (a == Verdict::NoVerdict)
        return b;
    if (b == Verdict::NoVerdict)
        return a;
    return static_cast<int>(a) >= static_cast<int>(b) ? a : b;
}

bool worstFirst(const MetricComparison& a, const MetricComparison& b) {
    if (a.decisive != b.decisive)
        return a.decisive;
    if (a.verdict != b.verdict)
        return static_cast<int>(a.verdict) > static_cast<int>(b.verdict);
    if (a.ratio != b.ratio)
        return a.ratio > b.ratio;
    return a.name < b.name;
}

bool validThresholds(const Thresholds& t) {
    return t.viableMax >= 1.0 && t.notViableMin > t.viableMax;
}

Verdict verdictFor(double ratio, const Thresholds& t) {
    if (ratio <= t.viableMax)
        return Verdict::Viable;
    if (ratio >= t.notViableMin)
        return Verdict::NotViable;
    return Verdict::Decision;
}

bool decidesUnder(const ComparePolicy& policy, std::string_view metric) {
    if (policy.decide.empty()) {
        const auto info = describeMetric(metric);
        return info && info->decisive;
    }
    return std::any_of(policy.decide.begin(), policy.decide.end(),
                       [&](const std::string& g) { return metricMatches(g, metric); });
}

std::optional<std::string> checkDecideGlob(std::string_view glob) {
    if (glob.empty())
        return "an empty pattern matches no metric";
    const auto dot = glob.find('.');
    const auto family = glob.substr(0, dot);
    if (family.find_first_of("*?") != std::string_view::npos)
        return std::nullopt; // "*" or "f*": any family
    if (!knownMetricFamily(family))
        return "unknown metric family '" + std::string(family) + "' in '" + std::string(glob) + "'";
    if (dot == std::string_view::npos)
        return "'" + std::string(glob) + "' names a family, not metrics (write '" +
               std::string(glob) + ".*')";
    return std::nullopt;
}

namespace {

// "fio.job.read.clat_p99" -> "fio.job.read.lat_p99": the total latency it stands in for.
std::optional<std::string> totalLatencyOf(const std::string& name) {
    constexpr std::string_view clat = ".clat_p99";
    if (name.size() <= clat.size() || !name.ends_with(clat))
        return std::nullopt;
    return name.substr(0, name.size() - clat.size()) + ".lat_p99";
}

std::string defaultRole(const MetricInfo& info) {
    const std::string stat = info.name.substr(info.name.rfind('.') + 1);
    if (info.decisive) {
        if (info.unit == Unit::BytesPerSecond)
            return "throughput";
        if (info.unit == Unit::OpsPerSecond)
            return "operations per second";
        if (stat == "lat_p99")
            return "p99 total latency";
        return "time";
    }
    if (stat.ends_with("_latency"))
        return "shown: the single slowest operation of a run";
    if (info.unit == Unit::Percent || stat == "cpu" || stat.ends_with("_cpu"))
        return "shown: CPU";
    if (stat == "runtime" || stat == "wall")
        return "shown: a runtime (the throughput decides)";
    if (info.unit == Unit::Nanoseconds)
        return "shown: the p99 total latency decides";
    return "shown";
}

const FailedWorkload* failedWorkload(const LayoutSamples& side, const std::string& workload) {
    for (const auto& f : side.failed)
        if (f.workload == workload && f.failed > 0)
            return &f;
    return nullptr;
}

void addFailureNotes(MetricComparison& m, const LayoutSamples& side, const std::string& sideName,
                     const std::string& workload) {
    if (const auto* f = failedWorkload(side, workload))
        m.notes.push_back(std::to_string(f->failed) + " of " + std::to_string(f->failed + f->ok) +
                          " runs failed on " + sideName + ": " + f->reason);
}

std::vector<double> without(const std::vector<double>& values,
                            const std::vector<std::pair<std::size_t, double>>& left) {
    std::vector<double> kept;
    for (std::size_t i = 0; i < values.size(); ++i)
        if (std::none_of(left.begin(), left.end(), [i](const auto& o) { return o.first == i; }))
            kept.push_back(values[i]);
    return kept;
}

// Names the runs of either side that stand apart, and compares the metric again without them:
// kept where it changes the verdict or its confidence, said in a note either way.
void markOutliers(MetricComparison& m, const MetricSamples& b, const MetricSamples& c,
                  const std::string& baseline, const std::string& candidate,
                  const Thresholds& thresholds) {
    const auto bo = outlierIndexes(b.values, thresholds.viableMax);
    const auto co = outlierIndexes(c.values, thresholds.viableMax);
    if (bo.empty() && co.empty())
        return;
    std::vector<std::string> named;
    for (const auto& [side, found, samples, layout] :
         {std::tuple{true, &bo, &b, &baseline}, std::tuple{false, &co, &c, &candidate}}) {
        const double med = median(samples->values);
        for (const auto& [i, score] : *found) {
            const SampleRun* of = samples->runAt(i);
            const std::int64_t run = of ? of->id : 0;
            m.outliers.push_back({side, run, samples->values[i], med, score});
            named.push_back((run ? "run #" + std::to_string(run) + " of " : "a run of ") + *layout +
                            " at " + shareText(samples->values[i] / med) +
                            " % of its median (modified z-score " + scoreText(score) + ")");
        }
    }
    const auto bk = without(b.values, bo), ck = without(c.values, co);
    WithoutOutliers w;
    const double ratio = costRatio(median(bk), median(ck), m.better);
    w.overhead = ratio - 1;
    w.verdict = verdictFor(ratio, thresholds);
    w.interval = ratioInterval(bk, ck, m.better);
    w.confident = w.interval && verdictFor(w.interval->low, thresholds) == w.verdict &&
                  verdictFor(w.interval->high, thresholds) == w.verdict;
    const bool many = named.size() > 1;
    std::string note = std::string(many ? "outliers: " : "outlier: ") + joinedText(named, "; ");
    if (w.verdict != m.verdict || w.confident != m.confident) {
        m.withoutOutliers = w;
        note += "; without " + std::string(many ? "them" : "it") + ": " +
                std::string(verdictName(w.verdict)) + ", " + percentText(w.overhead) + " % " +
                costNoun(m.unit, w.overhead >= 0) +
                (w.interval ? " (interval " + scoreText(w.interval->low * 100 - 100) + " to " +
                                  scoreText(w.interval->high * 100 - 100) + " %)"
                            : std::string()) +
                (w.confident ? ", confident" : ", not confident") + ". The verdict shown keeps " +
                (many ? "them" : "it") + ": look at the run, or run the iteration again";
    } else {
        note += "; leaving " + std::string(many ? "them" : "it") +
                " out changes neither the verdict nor its confidence";
    }
    m.notes.push_back(std::move(note));
}

// Every metric of a side comes from imported files (no campaign ran it).
bool allImported(const LayoutSamples& side) {
    return !side.metrics.empty() &&
           std::all_of(side.metrics.begin(), side.metrics.end(), [](const MetricSamples& m) {
               if (m.runOf.empty())
                   return false;
               for (std::size_t i = 0; i < m.values.size(); ++i)
                   if (const SampleRun* run = m.runAt(i); !run || run->campaign != 0)
                       return false;
               return true;
           });
}

// The measured metrics of a side by name (a metric with no value is not measured).
std::map<std::string, const MetricSamples*> byName(const LayoutSamples& side) {
    std::map<std::string, const MetricSamples*> out;
    for (const auto& s : side.metrics)
        if (!s.values.empty())
            out[s.name] = &s;
    return out;
}

// A metric measured on one side only, and why the other lacks it: what it excludes, every run of
// the workload failing there, or simply not measured.
void addOnlyOn(Comparison& out, const std::string& name, const MetricSamples& s,
               const LayoutSamples& other, bool onBaseline) {
    (onBaseline ? out.onlyInBaseline : out.onlyInCandidate).push_back(name);
    const std::string otherName = onBaseline ? "the candidate" : "the baseline";
    const auto excluded = notesFor(other, name, s.workload, MetricNote::Kind::Excludes);
    std::string reason;
    if (!excluded.empty())
        reason = joinedText(excluded, "; ") + " on " + otherName;
    else if (const auto* f = failedWorkload(other, s.workload))
        reason = "every run failed on " + otherName + ": " + f->reason;
    else
        reason = std::string("measured only on ") + (onBaseline ? "the baseline" : "the candidate");
    out.notCompared.push_back({name, reason});
}

// Whether the metric decides, and its role in words: the catalog's default, or the scenario's
// [decide] globs.
void assignRole(MetricComparison& m, const MetricInfo& info, const ComparePolicy& policy) {
    if (policy.decide.empty()) {
        m.decisive = info.decisive;
        m.role = defaultRole(info);
        return;
    }
    const auto glob =
        std::find_if(policy.decide.begin(), policy.decide.end(),
                     [&metric = m.name](const std::string& g) { return metricMatches(g, metric); });
    m.decisive = glob != policy.decide.end();
    m.role = m.decisive ? "[decide] " + *glob : "shown: not named in [decide]";
}

// The medians, their cost ratio and verdict, its interval, and why the verdict is not confident.
void measureRatio(MetricComparison& m, const MetricSamples& b, const MetricSamples& c,
                  const Thresholds& thresholds) {
    m.baselineSamples = b.values.size();
    m.candidateSamples = c.values.size();
    m.baselineMedian = median(b.values);
    m.candidateMedian = median(c.values);
    m.ratio = costRatio(m.baselineMedian, m.candidateMedian, m.better);
    m.overhead = m.ratio - 1;
    m.verdict = verdictFor(m.ratio, thresholds);
    m.interval = ratioInterval(b.values, c.values, m.better);
    if (!m.interval)
        m.uncertainty =
            m.baselineSamples < minSamplesForInterval || m.candidateSamples < minSamplesForInterval
                ? "too few runs: " + std::to_string(m.baselineSamples) + " and " +
                      std::to_string(m.candidateSamples)
                : "a value of 0 or less has no ratio interval";
    else if (verdictFor(m.interval->low, thresholds) != m.verdict ||
             verdictFor(m.interval->high, thresholds) != m.verdict)
        m.uncertainty = "the 95 % interval spans more than one band";
    m.confident = m.uncertainty.empty();
}

// The notes of both sides that qualify the metric, each text once with the runs of it that carry
// it, collapsed where they differ only in their numbers.
std::vector<std::string> qualifyingNotes(const LayoutSamples& b, const LayoutSamples& c,
                                         const MetricSamples& bm, const MetricSamples& cm,
                                         std::size_t totalRuns) {
    std::vector<std::string> qualifying;
    std::vector<std::size_t> carriedBy;
    for (const auto& [side, metric] : {std::pair{&b, &bm}, std::pair{&c, &cm}})
        for (std::size_t i = 0; i < side->notes.size(); ++i) {
            const auto& n = side->notes[i];
            if (n.kind != MetricNote::Kind::Qualifies || !metricMatches(n.metrics, metric->name))
                continue;
            const std::size_t runs = runsCarrying(*side, i, metric->workload);
            if (runs == 0)
                continue;
            const auto at = std::find(qualifying.begin(), qualifying.end(), n.text);
            if (at == qualifying.end()) {
                qualifying.push_back(n.text);
                carriedBy.push_back(runs);
            } else {
                carriedBy[static_cast<std::size_t>(at - qualifying.begin())] += runs;
            }
        }
    return collapseNotes(qualifying, carriedBy, totalRuns);
}

// One metric both sides measured: its role, figures, notes and outliers, and whether the sides
// did the same work (a metric they did not is shown, never deciding).
MetricComparison compareMetric(const std::string& name, const MetricInfo& info,
                               const MetricSamples& b, const MetricSamples& c,
                               const LayoutSamples& baselineSamples,
                               const LayoutSamples& candidateSamples, const Comparison& out,
                               const ComparePolicy& policy) {
    MetricComparison m;
    m.name = name;
    m.unit = info.unit;
    m.better = info.better;
    assignRole(m, info, policy);
    m.workload = c.workload;
    measureRatio(m, b, c, policy.thresholds);
    m.notes = qualifyingNotes(baselineSamples, candidateSamples, b, c,
                              m.baselineSamples + m.candidateSamples);
    addFailureNotes(m, baselineSamples, "the baseline", b.workload);
    addFailureNotes(m, candidateSamples, "the candidate", c.workload);
    markOutliers(m, b, c, out.baseline, out.candidate, policy.thresholds);
    std::vector<std::string> differs;
    m.excluded = exclusion(baselineSamples, candidateSamples, b, c, differs);
    m.notes.insert(m.notes.end(), differs.begin(), differs.end());
    if (!m.excluded.empty()) {
        m.decisive = false;
        m.role = "shown: " + m.excluded;
    }
    return m;
}

// Where a job has no total-latency percentiles on both sides (imported fio JSON, older runs),
// its completion p99 decides in their place.
void completionLatencyStandsIn(Comparison& out) {
    for (auto& m : out.metrics) {
        const auto total = totalLatencyOf(m.name);
        if (!total || !m.excluded.empty())
            continue;
        const bool hasTotal =
            std::any_of(out.metrics.begin(), out.metrics.end(), [&](const MetricComparison& o) {
                return o.name == *total && o.excluded.empty();
            });
        if (!hasTotal) {
            m.decisive = true;
            m.role = "p99 completion latency (no total latency measured)";
        }
    }
}

// Metrics a run named in a note but never measured (bonnie++'s +++++): listed, not lost.
void listExcludedOnly(Comparison& out, const LayoutSamples& baselineSamples,
                      const LayoutSamples& candidateSamples) {
    std::set<std::string> listed;
    for (const auto& m : out.metrics)
        listed.insert(m.name);
    for (const auto& n : out.notCompared)
        listed.insert(n.name);
    for (const auto* side : {&baselineSamples, &candidateSamples}) {
        const auto* other = side == &baselineSamples ? &candidateSamples : &baselineSamples;
        for (const auto& n : side->notes) {
            if (n.kind != MetricNote::Kind::Excludes ||
                n.metrics.find_first_of("*?") != std::string::npos ||
                !listed.insert(n.metrics).second)
                continue;
            const bool both =
                std::find(other->notes.begin(), other->notes.end(), n) != other->notes.end();
            out.notCompared.push_back(
                {n.metrics, n.text + (both                       ? " on both layouts"
                                      : side == &baselineSamples ? " on the baseline"
                                                                 : " on the candidate")});
        }
    }
}

// Why no deciding metric was compared: the sides' other work, else what was measured.
std::string noVerdictReason(const Comparison& out) {
    if (const OtherWork other = otherWork(out); other.metrics > 0)
        return "nothing comparable: " + other.first + " (" + std::to_string(other.metrics) +
               (other.metrics == 1 ? " metric" : " metrics") + " measured doing other work)";
    if (out.metrics.empty())
        return "nothing comparable: no metric was measured on both layouts";
    return "nothing comparable: no deciding metric was measured on both layouts";
}

// "4 of 11 deciding metrics are not confident (too few runs: 2 and 2)": the reason when every
// open one shares it, else the first's with how many more reasons there are.
std::string openMetricsText(const std::vector<const MetricComparison*>& deciding) {
    std::vector<std::string> reasons;
    std::size_t open = 0;
    for (const auto* m : deciding)
        if (!m->confident) {
            ++open;
            if (std::find(reasons.begin(), reasons.end(), m->uncertainty) == reasons.end())
                reasons.push_back(m->uncertainty);
        }
    std::string out = std::to_string(open) + " of " + std::to_string(deciding.size()) +
                      " deciding metrics " + (open == 1 ? "is" : "are") + " not confident";
    if (!reasons.empty())
        out += " (" + reasons.front() +
               (reasons.size() > 1 ? "; and " + std::to_string(reasons.size() - 1) +
                                         (reasons.size() == 2 ? " other reason" : " other reasons")
                                   : std::string()) +
               ")";
    return out;
}

// Whether a deciding metric other than the one that fixes the verdict could still be worse than
// it: its interval reaches a worse band, or it has no interval (then only not viable is safe).
bool couldBeWorse(const MetricComparison& m, Verdict verdict, const Thresholds& t) {
    if (!m.interval)
        return verdict != Verdict::NotViable;
    return worseThan(verdictFor(m.interval->high, t), verdict);
}

// The layout's verdict: its worst deciding metric's; confident when that metric is confidently
// in its band and no other deciding metric's interval reaches a worse one (a worst-of verdict
// cannot be made better by the others); no verdict when nothing that decides was compared.
void decideOverall(Comparison& out) {
    std::vector<const MetricComparison*> deciding;
    for (const auto& m : out.metrics)
        if (m.decisive)
            deciding.push_back(&m);
    out.confident = false;
    if (deciding.empty()) {
        out.verdict = Verdict::NoVerdict;
        out.confidence = noVerdictReason(out);
        return;
    }
    out.verdict = Verdict::Viable;
    for (const auto* m : deciding)
        out.verdict = worse(out.verdict, m->verdict);
    const auto anchor = std::find_if(deciding.begin(), deciding.end(), [&](const auto* m) {
        return m->verdict == out.verdict && m->confident;
    });
    const bool othersBelow = std::none_of(deciding.begin(), deciding.end(), [&](const auto* m) {
        return (anchor == deciding.end() || m != *anchor) &&
               couldBeWorse(*m, out.verdict, out.thresholds);
    });
    out.confident = anchor != deciding.end() && othersBelow;
    const bool allConfident =
        std::all_of(deciding.begin(), deciding.end(), [](const auto* m) { return m->confident; });
    if (!out.confident)
        out.confidence = "not settled: " + openMetricsText(deciding);
    else if (allConfident)
        out.confidence = "settled: every deciding metric's 95 % interval lies inside one band";
    else
        out.confidence = "settled: " + plainMetricName((*anchor)->name) + " is " +
                         std::string(verdictName(out.verdict)) +
                         " with confidence and no other deciding metric's interval reaches a "
                         "worse band (" +
                         openMetricsText(deciding) + ", which cannot change the verdict)";
}

} // namespace

Comparison compareLayouts(std::string baseline, const LayoutSamples& baselineSamples,
                          std::string candidate, const LayoutSamples& candidateSamples,
                          const ComparePolicy& policy) {
    Comparison out;
    out.baseline = std::move(baseline);
    out.candidate = std::move(candidate);
    out.thresholds = policy.thresholds;
    out.decide = policy.decide;
    out.imported = allImported(baselineSamples) && allImported(candidateSamples);
    const auto base = byName(baselineSamples), cand = byName(candidateSamples);
    for (const auto& [name, b] : base) {
        const auto c = cand.find(name);
        if (c == cand.end()) {
            addOnlyOn(out, name, *b, candidateSamples, true);
            continue;
        }
        const auto info = describeMetric(name);
        if (!info) {
            out.notCompared.push_back({name, "not in the metric catalog (unit and direction "
                                             "unknown)"});
            continue;
        }
        out.metrics.push_back(compareMetric(name, *info, *b, *c->second, baselineSamples,
                                            candidateSamples, out, policy));
    }
    for (const auto& [name, c] : cand)
        if (!base.count(name))
            addOnlyOn(out, name, *c, baselineSamples, false);
    if (policy.decide.empty())
        completionLatencyStandsIn(out);
    listExcludedOnly(out, baselineSamples, candidateSamples);
    std::sort(out.notCompared.begin(), out.notCompared.end(),
              [](const NotCompared& a, const NotCompared& b) { return a.name < b.name; });
    std::stable_sort(out.metrics.begin(), out.metrics.end(), worstFirst);
    decideOverall(out);
    out.baselineMeasuredOn = baselineSamples.measuredOn;
    out.candidateMeasuredOn = candidateSamples.measuredOn;
    out.headline = headlineFor(out);
    out.next = nextStep(out);
    return out;
}

Comparison compareLayouts(std::string baseline, const std::vector<MetricSamples>& baselineSamples,
                          std::string candidate, const std::vector<MetricSamples>& candidateSamples,
                          const Thresholds& thresholds) {
    LayoutSamples b, c;
    b.metrics = baselineSamples;
    c.metrics = candidateSamples;
    ComparePolicy policy;
    policy.thresholds = thresholds;
    return compareLayouts(std::move(baseline), b, std::move(candidate), c, policy);
}

} // namespace lb
