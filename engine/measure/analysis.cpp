#include "engine/measure/analysis.h"

#include <algorithm>
#include <array>
#include <boost/math/distributions/students_t.hpp>
#include <cassert>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace lb {

std::string_view verdictName(Verdict v) {
    switch (v) {
    case Verdict::Viable:
        return "viable";
    case Verdict::Decision:
        return "decision";
    case Verdict::NotViable:
        return "not-viable";
    }
    return "decision";
}

Verdict worse(Verdict a, Verdict b) {
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

double median(const std::vector<double>& samples) {
    assert(!samples.empty());
    // Partitioned in a scratch copy the thread keeps: a comparison takes two medians a metric.
    thread_local std::vector<double> values;
    values.assign(samples.begin(), samples.end());
    const auto mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid),
                     values.end());
    const double upper = values[mid];
    if (values.size() % 2 == 1)
        return upper;
    const double lower =
        *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
    return (lower + upper) / 2;
}

double coefficientOfVariation(const std::vector<double>& values) {
    if (values.size() < 2)
        return 0;
    double mean = 0;
    for (double v : values)
        mean += v;
    mean /= static_cast<double>(values.size());
    double ss = 0;
    for (double v : values)
        ss += (v - mean) * (v - mean);
    return mean == 0 ? 0 : std::sqrt(ss / static_cast<double>(values.size() - 1)) / std::fabs(mean);
}

bool decidesUnder(const ComparePolicy& policy, std::string_view metric) {
    if (policy.decide.empty()) {
        const auto info = describeMetric(metric);
        return info && info->decisive;
    }
    return std::any_of(policy.decide.begin(), policy.decide.end(),
                       [&](const std::string& g) { return metricMatches(g, metric); });
}

double costRatio(double baselineMedian, double candidateMedian, Better better) {
    const double num = better == Better::Higher ? baselineMedian : candidateMedian;
    const double den = better == Better::Higher ? candidateMedian : baselineMedian;
    if (den == 0)
        return num == 0 ? 1.0 : HUGE_VAL;
    return num / den;
}

namespace {

struct LogStats {
    double mean = 0;
    double variance = 0; // sample variance (n - 1)
    std::size_t n = 0;
};

// Mean and sample variance of the logs; none when a value is not positive. Each log is taken
// once (a comparison of 1,000 metrics over 500 runs a side takes a million).
std::optional<LogStats> logStats(const std::vector<double>& values) {
    thread_local std::vector<double> logs;
    logs.clear();
    LogStats s;
    s.n = values.size();
    for (double v : values) {
        if (!(v > 0) || !std::isfinite(v))
            return std::nullopt;
        logs.push_back(std::log(v));
        s.mean += logs.back();
    }
    s.mean /= static_cast<double>(s.n);
    for (double x : logs)
        s.variance += (x - s.mean) * (x - s.mean);
    s.variance /= static_cast<double>(s.n - 1);
    return s;
}

// Student's t computed in double. Boost promotes a double to long double by default, and the
// quantiles were 8 % of a comparison of 1,000 metrics; double is precise far beyond what an
// interval or a chance of settling needs.
using StudentT = boost::math::students_t_distribution<
    double, boost::math::policies::policy<boost::math::policies::promote_double<false>>>;

double studentQuantile(double df, double p) {
    return boost::math::quantile(StudentT(df), p);
}

} // namespace

// Why Welch on logs: benchmark figures are positive and their noise is multiplicative (a run
// is a few percent faster or slower), so their logs are close to normal with a spread that does
// not depend on the level; the cost ratio becomes a difference of means, for which Welch's
// t-interval keeps its coverage with unequal spreads and at n = 3 (the t quantile with few
// degrees of freedom is what a percentile bootstrap of medians lacks: at n = 3 it held the true
// ratio only ~90 % of the time). tests/engine/analysis_test.cpp proves the coverage by
// simulation.
std::vector<std::pair<std::size_t, double>> outlierIndexes(const std::vector<double>& values,
                                                           double minRatio) {
    std::vector<std::pair<std::size_t, double>> out;
    if (values.size() < minSamplesForOutliers ||
        std::any_of(values.begin(), values.end(), [](double v) { return !(v > 0); }))
        return out;
    std::vector<double> logs, deviations;
    for (const double v : values)
        logs.push_back(std::log(v));
    const double centre = median(logs);
    for (const double l : logs)
        deviations.push_back(std::fabs(l - centre));
    const double mad = median(deviations);
    const double meanDeviation = std::accumulate(deviations.begin(), deviations.end(), 0.0) /
                                 static_cast<double>(deviations.size());
    // M = 0.6745 (x - median) / MAD; where more than half are equal, MAD is 0 and the mean
    // absolute deviation stands in (M = (x - median) / (1.253314 MeanAD)).
    const double scale = mad > 0 ? mad / 0.6745 : 1.253314 * meanDeviation;
    if (!(scale > 0))
        return out;
    const double apart = std::log(std::max(minRatio, 1.0));
    for (std::size_t i = 0; i < logs.size(); ++i) {
        const double score = (logs[i] - centre) / scale;
        if (std::fabs(score) > outlierScore && std::fabs(logs[i] - centre) >= apart)
            out.emplace_back(i, score);
    }
    return out;
}

namespace {

// A note's words and numbers: a number stands alone (after a space, '(' or the start, not after a
// letter, digit, '_', '.', '-' or '#'; not followed by a letter, digit or '_').
struct NoteToken {
    bool number = false;
    std::string text;
    double value = 0;
};

std::vector<NoteToken> noteTokens(const std::string& s) {
    const auto word = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    std::vector<NoteToken> out;
    std::string text;
    for (std::size_t i = 0; i < s.size();) {
        const bool starts =
            std::isdigit(static_cast<unsigned char>(s[i])) &&
            (i == 0 || !(word(s[i - 1]) || s[i - 1] == '.' || s[i - 1] == '-' || s[i - 1] == '#'));
        std::size_t end = i;
        if (starts) {
            while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end])))
                ++end;
            if (end + 1 < s.size() && s[end] == '.' &&
                std::isdigit(static_cast<unsigned char>(s[end + 1]))) {
                ++end;
                while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end])))
                    ++end;
            }
        }
        if (!starts || (end < s.size() && (word(s[end]) || s[end] == '.'))) {
            text += s[i++];
            continue;
        }
        if (!text.empty())
            out.push_back({false, std::move(text), 0});
        text.clear();
        out.push_back({true, s.substr(i, end - i), std::strtod(s.c_str() + i, nullptr)});
        i = end;
    }
    if (!text.empty())
        out.push_back({false, std::move(text), 0});
    return out;
}

} // namespace

std::vector<std::string> collapseNotes(const std::vector<std::string>& notes,
                                       const std::vector<std::size_t>& runs,
                                       std::size_t totalRuns) {
    struct Group {
        std::vector<std::vector<NoteToken>> members;
        std::size_t runs = 0;
    };
    std::vector<std::string> order;
    std::map<std::string, Group> groups;
    for (std::size_t i = 0; i < notes.size(); ++i) {
        auto tokens = noteTokens(notes[i]);
        std::string shape;
        for (const auto& t : tokens)
            shape += t.number ? std::string("\x01") : t.text;
        auto [it, added] = groups.try_emplace(shape);
        if (added)
            order.push_back(shape);
        it->second.members.push_back(std::move(tokens));
        it->second.runs += i < runs.size() ? runs[i] : 1;
    }
    std::vector<std::string> out;
    for (const auto& shape : order) {
        const Group& g = groups.at(shape);
        std::string line;
        for (std::size_t k = 0; k < g.members.front().size(); ++k) {
            const NoteToken& first = g.members.front()[k];
            if (!first.number) {
                line += first.text;
                continue;
            }
            const NoteToken *low = &first, *high = &first;
            for (const auto& m : g.members) {
                if (m[k].value < low->value)
                    low = &m[k];
                if (m[k].value > high->value)
                    high = &m[k];
            }
            line += low->value == high->value ? low->text : low->text + "\u2013" + high->text;
        }
        if (g.members.size() > 1 && totalRuns > 0 && g.runs < totalRuns)
            line +=
                " (in " + std::to_string(g.runs) + " of " + std::to_string(totalRuns) + " runs)";
        out.push_back(std::move(line));
    }
    return out;
}

std::optional<Interval> ratioInterval(const std::vector<double>& baseline,
                                      const std::vector<double>& candidate, Better better,
                                      double level) {
    if (baseline.size() < minSamplesForInterval || candidate.size() < minSamplesForInterval)
        return std::nullopt;
    const auto b = logStats(baseline);
    const auto c = logStats(candidate);
    if (!b || !c)
        return std::nullopt;
    // log cost ratio: baseline over candidate for a throughput, candidate over baseline else.
    const double d = better == Better::Higher ? b->mean - c->mean : c->mean - b->mean;
    const double vb = b->variance / static_cast<double>(b->n);
    const double vc = c->variance / static_cast<double>(c->n);
    const double se = std::sqrt(vb + vc);
    if (se == 0)
        return Interval{std::exp(d), std::exp(d)}; // identical runs: nothing to be unsure of
    // Welch–Satterthwaite degrees of freedom.
    const double df =
        (vb + vc) * (vb + vc) /
        (vb * vb / static_cast<double>(b->n - 1) + vc * vc / static_cast<double>(c->n - 1));
    const double t = studentQuantile(df, 0.5 + level / 2);
    return Interval{std::exp(d - t * se), std::exp(d + t * se)};
}

bool couldBecomeConfident(const MetricComparison& m, const Thresholds& thresholds,
                          std::size_t maxRuns) {
    return chanceOfConfidence(m, thresholds, maxRuns) >= 0.05;
}

double chanceOfConfidence(const MetricComparison& m, const Thresholds& thresholds,
                          std::size_t runs) {
    if (m.confident || !m.interval)
        return 1;
    const std::size_t fewest = std::min(m.baselineSamples, m.candidateSamples);
    const std::size_t maxRuns = runs;
    if (maxRuns <= fewest || !(m.interval->low > 0))
        return 0;
    // In logs: the centre of the interval now, its standard error now and with maxRuns a side.
    const double low = std::log(m.interval->low), high = std::log(m.interval->high);
    const double centre = (low + high) / 2;
    const double now = 1.0 / static_cast<double>(m.baselineSamples) +
                       1.0 / static_cast<double>(m.candidateSamples);
    const double then = 2.0 / static_cast<double>(maxRuns);
    const double df = static_cast<double>(fewest - 1);
    const double seNow = (high - low) / 2 / studentQuantile(df, 0.975);
    const double seThen = seNow * std::sqrt(then / now);
    const double reach = studentQuantile(static_cast<double>(2 * maxRuns - 2), 0.975) * seThen;
    // Where the centre may end with maxRuns a side: the runs to come move it by a share of what
    // is unknown now (the share of runs still to come), with the heavy tails of few runs.
    const double shift = seNow * std::sqrt(std::max(0.0, 1 - then / now));
    const StudentT tails(df);
    const auto below = [&](double x) {
        if (x == std::numeric_limits<double>::infinity())
            return 1.0;
        if (x == -std::numeric_limits<double>::infinity())
            return 0.0;
        return shift > 0 ? boost::math::cdf(tails, (x - centre) / shift) : (centre < x ? 1.0 : 0.0);
    };
    const double inf = std::numeric_limits<double>::infinity();
    const double viable = std::log(thresholds.viableMax),
                 notViable = std::log(thresholds.notViableMin);
    // The chance that the interval then lies inside one band: its centre at least `reach` from
    // the band's edges.
    double chance = 0;
    for (const auto& [bandLow, bandHigh] :
         {std::pair{-inf, viable}, std::pair{viable, notViable}, std::pair{notViable, inf}})
        if (bandHigh - bandLow > 2 * reach)
            chance += below(bandHigh - reach) - below(bandLow + reach);
    return chance;
}

std::string shortMetricName(std::string_view name) {
    // bonnie++'s and fio's own names read well alone; "throughput" of randfile or xz does not.
    for (std::string_view family : {"bonnie.", "fio."})
        if (name.starts_with(family))
            return std::string(name.substr(family.size()));
    return std::string(name);
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

// Notes of `side` that apply to `metric`, of one kind.
std::vector<std::string> notesFor(const LayoutSamples& side, const std::string& metric,
                                  MetricNote::Kind kind) {
    std::vector<std::string> out;
    for (const auto& n : side.notes)
        if (n.kind == kind && metricMatches(n.metrics, metric) &&
            std::find(out.begin(), out.end(), n.text) == out.end())
            out.push_back(n.text);
    return out;
}

std::string joinedText(const std::vector<std::string>& items, std::string_view sep) {
    std::string out;
    for (const auto& i : items)
        out += (out.empty() ? "" : std::string(sep)) + i;
    return out;
}

// A method note says one aspect of how a metric was measured: "bs=4 KiB" (the work: an option of
// the tool, a bonnie++ file size), or without '=' the I/O path ("direct I/O"). The aspect, and
// its value.
std::pair<std::string, std::string> aspectOf(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || text.find(' ') < eq)
        return {"", text};
    return {text.substr(0, eq), text.substr(eq + 1)};
}

// Aspects that say how much or how long, not what: sides that differ in them did the same kind of
// work, and the difference is said next to the metric rather than keeping it out of the verdict.
constexpr std::array<std::string_view, 4> amountAspects{"size", "runtime", "file_size", "files"};
// Aspects that do not change what was measured but may change the figure: the tool's version
// (the store notes it on every run), the memory and kernel of the machine the runs went on (a
// campaign notes them on its runs; a guest's are the guest's).
constexpr std::array<std::string_view, 3> caveatAspects{"version", "memory", "kernel"};

// Why a metric both sides measured stays out of the verdict, or "": what either side excludes,
// or an aspect of the work on which they differ ("not comparable: bs 4 KiB vs 64 KiB"). Aspects
// of amount that differ go to `differs` ("size 16 MiB vs 64 MiB"), and so do the tool's versions.
std::string exclusion(const LayoutSamples& b, const LayoutSamples& c, const std::string& name,
                      std::vector<std::string>& differs) {
    auto excludes = notesFor(b, name, MetricNote::Kind::Excludes);
    for (auto& e : notesFor(c, name, MetricNote::Kind::Excludes))
        if (std::find(excludes.begin(), excludes.end(), e) == excludes.end())
            excludes.push_back(std::move(e));
    if (!excludes.empty())
        return joinedText(excludes, "; ");
    // Each side's values of each aspect, in the order they first appear.
    std::vector<std::string> aspects;
    std::map<std::string, std::vector<std::string>> ofBaseline, ofCandidate;
    for (auto [side, values] : {std::pair{&b, &ofBaseline}, std::pair{&c, &ofCandidate}})
        for (const auto& text : notesFor(*side, name, MetricNote::Kind::Method)) {
            auto [aspect, value] = aspectOf(text);
            if (std::find(aspects.begin(), aspects.end(), aspect) == aspects.end())
                aspects.push_back(aspect);
            (*values)[aspect].push_back(aspect.empty() ? text : value);
        }
    std::vector<std::string> reasons;
    for (const auto& aspect : aspects) {
        const auto& vb = ofBaseline[aspect];
        const auto& vc = ofCandidate[aspect];
        if (vb.empty() || vc.empty()) // one side does not say: nothing to hold against
            continue;
        std::string what;
        const std::string named = aspect.empty() ? std::string() : aspect + " ";
        if (vb.size() > 1 || vc.size() > 1)
            what = "measured both ways (" + named + joinedText(vb.size() > 1 ? vb : vc, ", ") + ")";
        else if (vb[0] != vc[0])
            what = named + vb[0] + " vs " + vc[0];
        else
            continue;
        if (std::find(amountAspects.begin(), amountAspects.end(), aspect) != amountAspects.end())
            differs.push_back(std::string(sidesDifferPrefix) +
                              "did different amounts of work: " + what);
        else if (std::find(caveatAspects.begin(), caveatAspects.end(), aspect) !=
                 caveatAspects.end())
            differs.push_back(aspect == "version"
                                  ? std::string(sidesDifferPrefix) +
                                        "ran other versions of the tool, which may matter: " + what
                                  : std::string(sidesDifferPrefix) +
                                        "ran on different machines, which may matter: " + what);
        else
            reasons.push_back(what);
    }
    return reasons.empty() ? std::string()
                           : std::string(notComparablePrefix) + joinedText(reasons, "; ");
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
            const std::int64_t run = i < samples->runs.size() ? samples->runs[i] : 0;
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

std::string headlineFor(const Comparison& c) {
    const std::string within = percentText(c.thresholds.viableMax - 1);
    std::vector<const MetricComparison*> deciding;
    for (const auto& m : c.metrics)
        if (m.decisive)
            deciding.push_back(&m);
    // Metrics the two sides measured doing different work, with the first difference: out of the
    // verdict, and said at its head.
    const OtherWork other = otherWork(c);
    const std::string different =
        other.metrics == 0
            ? std::string()
            : std::to_string(other.metrics) + " metric" + (other.metrics == 1 ? "" : "s") +
                  " not comparable (the sides did different work: " + other.first + ")";
    if (deciding.empty())
        return c.candidate + ": " + std::string(verdictName(c.verdict)) +
               " — no deciding metric could be compared" +
               (different.empty() ? std::string() : "; " + different);
    std::string out = c.candidate + ": " + std::string(verdictName(c.verdict)) + " — ";
    std::vector<std::string> drivers;
    for (const auto* m : deciding) { // worst first already
        if (m->verdict == Verdict::Viable)
            break;
        // The first names what the percentage measures; the rest are read the same way.
        drivers.push_back(shortMetricName(m->name) + " " + percentText(m->overhead) + " %" +
                          (drivers.empty() ? " " + costNoun(m->unit, true) : std::string()));
    }
    constexpr std::size_t shown = 3;
    if (drivers.empty()) {
        const auto* worst = deciding.front();
        out += "every deciding metric within " + within +
               " % (worst: " + shortMetricName(worst->name) + " " + percentText(worst->overhead) +
               " % " + costNoun(worst->unit, worst->overhead >= 0) + ")";
    } else {
        const std::size_t extra = drivers.size() > shown ? drivers.size() - shown : 0;
        drivers.resize(std::min(drivers.size(), shown));
        out += joinedText(drivers, "; ");
        if (extra > 0)
            out += "; " + std::to_string(extra) + " more beyond " + within + " %";
        const bool rest = deciding.size() > drivers.size() + extra;
        if (rest)
            out += "; everything else within " + within + " %";
    }
    if (!c.confident) {
        std::size_t unsure = 0;
        for (const auto* m : deciding)
            unsure += m->confident ? 0 : 1;
        out += " (not confident: " + std::to_string(unsure) + " of " +
               std::to_string(deciding.size()) + " deciding metrics";
        const auto few = std::find_if(deciding.begin(), deciding.end(), [](const auto* m) {
            return m->uncertainty.starts_with("too few runs");
        });
        if (few != deciding.end())
            out += "; " + (*few)->uncertainty;
        out += ")";
    }
    // Runs that stand apart on a deciding metric, and the verdict without them where they change
    // it: named next to the verdict, which keeps them.
    std::vector<std::string> outlierRuns;
    bool changed = false;
    Verdict without = Verdict::Viable;
    bool confidentWithout = true;
    for (const auto* m : deciding) {
        for (const auto& o : m->outliers) {
            const std::string name = o.run ? "#" + std::to_string(o.run)
                                           : "one of " + (o.baseline ? c.baseline : c.candidate);
            if (std::find(outlierRuns.begin(), outlierRuns.end(), name) == outlierRuns.end())
                outlierRuns.push_back(name);
        }
        changed = changed || m->withoutOutliers.has_value();
        without = worse(without, m->withoutOutliers ? m->withoutOutliers->verdict : m->verdict);
        confidentWithout =
            confidentWithout && (m->withoutOutliers ? m->withoutOutliers->confident : m->confident);
    }
    if (!outlierRuns.empty()) {
        out += std::string(outlierRuns.size() > 1 ? "; outlier runs " : "; outlier run ") +
               joinedText(outlierRuns, ", ");
        if (changed)
            out += " (without: " + std::string(verdictName(without)) +
                   (confidentWithout ? ", confident)" : ", not confident)");
    }
    if (!different.empty())
        out += "; " + different;
    // Said next to the verdict, not only among the notes: this is not a server's ZFS on disks.
    return out + emulationLabel(c);
}

} // namespace

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

std::vector<std::string> measuredOn(const std::vector<std::string>& caveats) {
    std::vector<std::string> zfs, files, tcg;
    for (const auto& c : caveats) {
        std::string label;
        std::vector<std::string>* into = nullptr;
        if (c.starts_with(zfsCaveatPrefix)) {
            // "zfs-fuse (FUSE, pool version 23)" -> "zfs-fuse"; "OpenZFS 2.3.2 (...)" ->
            // "OpenZFS 2.3.2".
            label = c.substr(zfsCaveatPrefix.size());
            label = label.substr(0, label.find(" ("));
            into = &zfs;
        } else if (c.starts_with(fileVdevsCaveatPrefix)) {
            label = "file vdevs";
            into = &files;
        } else if (c.starts_with(tcgCaveatPrefix)) {
            label = "TCG emulation";
            into = &tcg;
        }
        if (into && std::find(into->begin(), into->end(), label) == into->end())
            into->push_back(std::move(label));
    }
    zfs.insert(zfs.end(), files.begin(), files.end());
    zfs.insert(zfs.end(), tcg.begin(), tcg.end());
    return zfs;
}

Comparison compareLayouts(std::string baseline, const LayoutSamples& baselineSamples,
                          std::string candidate, const LayoutSamples& candidateSamples,
                          const ComparePolicy& policy) {
    Comparison out;
    out.baseline = std::move(baseline);
    out.candidate = std::move(candidate);
    out.thresholds = policy.thresholds;
    out.decide = policy.decide;
    const auto allImported = [](const LayoutSamples& side) {
        return !side.metrics.empty() &&
               std::all_of(side.metrics.begin(), side.metrics.end(), [](const MetricSamples& m) {
                   return !m.campaigns.empty() &&
                          std::all_of(m.campaigns.begin(), m.campaigns.end(),
                                      [](std::int64_t id) { return id == 0; });
               });
    };
    out.imported = allImported(baselineSamples) && allImported(candidateSamples);

    std::map<std::string, const MetricSamples*> base, cand;
    for (const auto& s : baselineSamples.metrics)
        if (!s.values.empty())
            base[s.name] = &s;
    for (const auto& s : candidateSamples.metrics)
        if (!s.values.empty())
            cand[s.name] = &s;

    auto onlyOn = [&](const std::string& name, const MetricSamples& s, bool onBaseline) {
        (onBaseline ? out.onlyInBaseline : out.onlyInCandidate).push_back(name);
        const LayoutSamples& other = onBaseline ? candidateSamples : baselineSamples;
        const std::string otherName = onBaseline ? "the candidate" : "the baseline";
        const auto excluded = notesFor(other, name, MetricNote::Kind::Excludes);
        std::string reason;
        if (!excluded.empty())
            reason = joinedText(excluded, "; ") + " on " + otherName;
        else if (const auto* f = failedWorkload(other, s.workload))
            reason = "every run failed on " + otherName + ": " + f->reason;
        else
            reason =
                std::string("measured only on ") + (onBaseline ? "the baseline" : "the candidate");
        out.notCompared.push_back({name, reason});
    };

    for (const auto& [name, b] : base) {
        const auto c = cand.find(name);
        if (c == cand.end()) {
            onlyOn(name, *b, true);
            continue;
        }
        const auto info = describeMetric(name);
        if (!info) {
            out.notCompared.push_back({name, "not in the metric catalog (unit and direction "
                                             "unknown)"});
            continue;
        }
        MetricComparison m;
        m.name = name;
        m.unit = info->unit;
        m.better = info->better;
        if (policy.decide.empty()) {
            m.decisive = info->decisive;
            m.role = defaultRole(*info);
        } else {
            const auto glob = std::find_if(
                policy.decide.begin(), policy.decide.end(),
                [&metric = name](const std::string& g) { return metricMatches(g, metric); });
            m.decisive = glob != policy.decide.end();
            m.role = m.decisive ? "[decide] " + *glob : "shown: not named in [decide]";
        }
        m.workload = c->second->workload;
        m.baselineSamples = b->values.size();
        m.candidateSamples = c->second->values.size();
        m.baselineMedian = median(b->values);
        m.candidateMedian = median(c->second->values);
        m.ratio = costRatio(m.baselineMedian, m.candidateMedian, m.better);
        m.overhead = m.ratio - 1;
        m.verdict = verdictFor(m.ratio, policy.thresholds);
        m.interval = ratioInterval(b->values, c->second->values, m.better);
        if (!m.interval)
            m.uncertainty = m.baselineSamples < minSamplesForInterval ||
                                    m.candidateSamples < minSamplesForInterval
                                ? "too few runs: " + std::to_string(m.baselineSamples) + " and " +
                                      std::to_string(m.candidateSamples)
                                : "a value of 0 or less has no ratio interval";
        else if (verdictFor(m.interval->low, policy.thresholds) != m.verdict ||
                 verdictFor(m.interval->high, policy.thresholds) != m.verdict)
            m.uncertainty = "the 95 % interval spans more than one band";
        m.confident = m.uncertainty.empty();
        std::vector<std::string> qualifying;
        std::vector<std::size_t> carriedBy;
        for (const auto* side : {&baselineSamples, &candidateSamples})
            for (std::size_t i = 0; i < side->notes.size(); ++i) {
                const auto& n = side->notes[i];
                if (n.kind != MetricNote::Kind::Qualifies || !metricMatches(n.metrics, name))
                    continue;
                const std::size_t runs = i < side->noteRuns.size() ? side->noteRuns[i] : 1;
                const auto at = std::find(qualifying.begin(), qualifying.end(), n.text);
                if (at == qualifying.end()) {
                    qualifying.push_back(n.text);
                    carriedBy.push_back(runs);
                } else {
                    carriedBy[static_cast<std::size_t>(at - qualifying.begin())] += runs;
                }
            }
        m.notes = collapseNotes(qualifying, carriedBy, m.baselineSamples + m.candidateSamples);
        addFailureNotes(m, baselineSamples, "the baseline", b->workload);
        addFailureNotes(m, candidateSamples, "the candidate", c->second->workload);
        markOutliers(m, *b, *c->second, out.baseline, out.candidate, policy.thresholds);
        std::vector<std::string> differs;
        m.excluded = exclusion(baselineSamples, candidateSamples, name, differs);
        m.notes.insert(m.notes.end(), differs.begin(), differs.end());
        if (!m.excluded.empty()) {
            m.decisive = false;
            m.role = "shown: " + m.excluded;
        }
        out.metrics.push_back(std::move(m));
    }
    for (const auto& [name, c] : cand)
        if (!base.count(name))
            onlyOn(name, *c, false);

    // Where a job has no total-latency percentiles on both sides (imported fio JSON, older
    // runs), its completion p99 decides in their place.
    if (policy.decide.empty())
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

    // Metrics a run named in a note but never measured (bonnie++'s +++++): listed, not lost.
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
    std::sort(out.notCompared.begin(), out.notCompared.end(),
              [](const NotCompared& a, const NotCompared& b) { return a.name < b.name; });

    std::stable_sort(out.metrics.begin(), out.metrics.end(), worstFirst);
    bool anyDeciding = false;
    out.confident = true;
    for (const auto& m : out.metrics)
        if (m.decisive) {
            anyDeciding = true;
            out.verdict = worse(out.verdict, m.verdict);
            out.confident = out.confident && m.confident;
        }
    if (!anyDeciding) {
        // Nothing that decides could be compared: nobody can call that viable.
        out.verdict = Verdict::Decision;
        out.confident = false;
    }
    out.baselineMeasuredOn = baselineSamples.measuredOn;
    out.candidateMeasuredOn = candidateSamples.measuredOn;
    out.headline = headlineFor(out);
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

std::optional<Drift> measureDrift(const std::vector<MetricSamples>& baseline,
                                  const std::vector<std::string>& metrics) {
    struct Trend {
        std::string name;
        double slope = 0, se = 0, span = 0, df = 0;
    };
    std::vector<Trend> trends;
    for (const auto& s : baseline) {
        if (std::find(metrics.begin(), metrics.end(), s.name) == metrics.end() ||
            s.startedAt.size() != s.values.size() || s.values.size() < minSamplesForInterval)
            continue;
        // Least squares of log(value) on time: the slope, and its standard error from the
        // residuals (the runs' own noise).
        const auto n = static_cast<double>(s.values.size());
        double mt = 0, my = 0;
        bool positive = true;
        for (std::size_t i = 0; i < s.values.size(); ++i) {
            positive = positive && s.values[i] > 0;
            mt += s.startedAt[i];
            my += positive ? std::log(s.values[i]) : 0;
        }
        if (!positive)
            continue;
        mt /= n;
        my /= n;
        double sxx = 0, sxy = 0;
        for (std::size_t i = 0; i < s.values.size(); ++i) {
            sxx += (s.startedAt[i] - mt) * (s.startedAt[i] - mt);
            sxy += (s.startedAt[i] - mt) * (std::log(s.values[i]) - my);
        }
        if (sxx <= 0)
            continue;
        const double slope = sxy / sxx;
        double rss = 0;
        for (std::size_t i = 0; i < s.values.size(); ++i) {
            const double r = std::log(s.values[i]) - my - slope * (s.startedAt[i] - mt);
            rss += r * r;
        }
        const double df = n - 2;
        if (df < 1)
            continue;
        const auto [lo, hi] = std::minmax_element(s.startedAt.begin(), s.startedAt.end());
        trends.push_back({s.name, slope, std::sqrt(rss / df / sxx), *hi - *lo, df});
    }
    std::optional<Drift> worst;
    for (const auto& t : trends) {
        const double q = studentQuantile(t.df, 1.0 - 0.025 / static_cast<double>(trends.size()));
        const double low = (t.slope - q * t.se) * t.span;
        const double high = (t.slope + q * t.se) * t.span;
        if (low <= 0 && high >= 0)
            continue; // within the runs' own noise
        const double change = std::exp(t.slope * t.span) - 1;
        if (!worst || std::fabs(change) > std::fabs(worst->change))
            worst = Drift{t.name, change, {std::exp(low), std::exp(high)}};
    }
    return worst;
}

std::optional<Drift> baselineDrift(const std::vector<MetricSamples>& baseline,
                                   std::int64_t campaign, const Comparison& c) {
    std::vector<MetricSamples> own;
    for (const auto& s : baseline) {
        MetricSamples kept{s.name, {}, {}, {}, s.workload};
        for (std::size_t i = 0; i < s.values.size(); ++i)
            if (i < s.campaigns.size() && i < s.startedAt.size() && s.campaigns[i] == campaign) {
                kept.values.push_back(s.values[i]);
                kept.startedAt.push_back(s.startedAt[i]);
                kept.campaigns.push_back(campaign);
            }
        own.push_back(std::move(kept));
    }
    std::vector<std::string> deciding;
    for (const auto& m : c.metrics)
        if (m.decisive)
            deciding.push_back(m.name);
    return measureDrift(own, deciding);
}

std::vector<NoteLine> noteLines(const Comparison& c, const std::string& leaveOut) {
    std::vector<NoteLine> out;
    for (const auto& m : c.metrics)
        for (const auto& n : m.notes) {
            if (!leaveOut.empty() && n.find(leaveOut) != std::string::npos)
                continue;
            auto it = std::find_if(out.begin(), out.end(),
                                   [&n](const NoteLine& l) { return l.text == n; });
            if (it == out.end()) {
                out.push_back({n, {}});
                it = out.end() - 1;
            }
            it->metrics.push_back(m.name);
        }
    return out;
}

std::string noteMetricsText(const NoteLine& line, const Comparison& c, std::size_t shown) {
    if (line.metrics.size() == c.metrics.size() && c.metrics.size() > 1)
        return "every compared metric";
    if (line.metrics.size() <= shown + 1)
        return joinedText(line.metrics, ", ");
    const std::vector<std::string> first(line.metrics.begin(),
                                         line.metrics.begin() + static_cast<long>(shown));
    return joinedText(first, ", ") + " and " + std::to_string(line.metrics.size() - shown) +
           " more";
}

void addDrift(Comparison& c, std::optional<Drift> drift) {
    c.drift = std::move(drift);
    if (!c.drift)
        return;
    const std::string text = "the machine drifted by " + percentText(c.drift->change) + " % " +
                             (c.drift->change >= 0 ? "up" : "down") +
                             " during the campaign (the baseline's " + c.drift->metric +
                             ", early runs against late ones)";
    for (auto& m : c.metrics)
        if (m.decisive)
            m.notes.push_back(text);
    c.headline += "; " + text;
}

Comparison compareWithDrift(std::string baseline, const LayoutSamples& baselineSamples,
                            std::string candidate, const LayoutSamples& candidateSamples,
                            const ComparePolicy& policy,
                            std::optional<std::int64_t> driftCampaign) {
    Comparison c = compareLayouts(std::move(baseline), baselineSamples, std::move(candidate),
                                  candidateSamples, policy);
    if (driftCampaign)
        addDrift(c, baselineDrift(baselineSamples.metrics, *driftCampaign, c));
    return c;
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
