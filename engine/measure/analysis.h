// Comparison of a candidate layout against the baseline: medians, the ratio as a cost (time per
// unit of work), overhead, the verdict band, a 95 % interval that says how sure we are, which
// metrics decide and why, what could not be compared, and a headline naming what drove the
// verdict. Implemented across analysis*.cpp, one module per seam (each file says which).
#pragma once

#include "engine/measure/metric.h"
#include "engine/measure/run.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

// A metric's verdict is one of the three bands. A layout's is its worst deciding metric's, or
// NoVerdict when no deciding metric could be compared (nothing measured on both sides, or every
// metric measured doing other work): that is neither viable nor a decision to make.
enum class Verdict { Viable, Decision, NotViable, NoVerdict };
std::string_view verdictName(Verdict v); // "viable", "decision", "not-viable", "no-verdict"
// Severity order for "the worst metric decides": viable < decision < not-viable; NoVerdict
// stands outside it (the other one is the worse).
Verdict worse(Verdict a, Verdict b);
// Strictly worse, in worse()'s order.
bool worseThan(Verdict a, Verdict b);

struct Thresholds {
    double viableMax = 1.10;   // ratio at or below: viable
    double notViableMin = 2.0; // ratio at or above: not viable
    bool operator==(const Thresholds&) const = default;
};

Verdict verdictFor(double ratio, const Thresholds& t);
// The bands hold together: 1 <= viable < not viable (no cost ratio below 1 is a cost, and the
// band between the two must exist). Every front end checks what it was given with this, and
// names its own fields in the message.
bool validThresholds(const Thresholds& t);

// How a scenario judges: the bands, and which metrics decide (globs over metric names, see
// metricMatches). No globs: the default set — throughput, IOPS and the total p99 latency of
// each job (the completion p99 where a job has no total-latency percentiles).
struct ComparePolicy {
    Thresholds thresholds;
    std::vector<std::string> decide;
    bool operator==(const ComparePolicy&) const = default;
};

double median(const std::vector<double>& values); // values must not be empty
// Standard deviation over mean (sample standard deviation); 0 for fewer than two values.
double coefficientOfVariation(const std::vector<double>& values);
// Whether a metric decides under a policy: named by one of its globs, or (none) in the default
// set of the catalog.
bool decidesUnder(const ComparePolicy& policy, std::string_view metric);

// Cost ratio of candidate over baseline for one metric's medians: baseline/candidate for a
// throughput, candidate/baseline for a time or latency.
double costRatio(double baselineMedian, double candidateMedian, Better better);

struct Interval {
    double low = 0;
    double high = 0;
    bool operator==(const Interval&) const = default;
};

// The fewest runs on each side for which an interval (and so confidence) exists: one or two
// runs cannot estimate their own noise.
inline constexpr std::size_t minSamplesForInterval = 3;

// How the interval is computed, in the words every reader is given (report, GUI; the manual page
// says the same, and a test holds it to it).
inline constexpr std::string_view intervalMethod =
    "Welch t-interval on the logs of the runs (the ratio of geometric means)";

// 95 % interval of the cost ratio: a Welch t-interval on the difference of mean log values,
// i.e. of the ratio of geometric means. None below minSamplesForInterval on either side, or when
// a value is not positive (a ratio scale has no room for 0).
std::optional<Interval> ratioInterval(const std::vector<double>& baseline,
                                      const std::vector<double>& candidate, Better better,
                                      double level = 0.95);

// A run whose value of a metric stands apart from its side's other runs (a stall, a run that hit
// a cache): by the modified z-score of the log values (Iglewicz and Hoaglin: 0.6745 times the
// distance from the median over the median absolute deviation; the mean absolute deviation
// when more than half the runs are equal), beyond outlierScore, with at least
// minSamplesForOutliers runs and at least the viable band (10 % by default) from the median, so
// that a steady metric's small jitter is not called an outlier.
struct Outlier {
    bool baseline = false; // one of the baseline's runs, else the candidate's
    std::int64_t run = 0;  // its id; 0 when not known
    double value = 0;
    double median = 0; // of all the side's runs
    double score = 0;  // the modified z-score, signed
    bool operator==(const Outlier&) const = default;
};
inline constexpr double outlierScore = 3.5;
inline constexpr std::size_t minSamplesForOutliers = 5;

// The indexes of `values` that stand apart (see Outlier), each with its signed score; none
// with fewer than `minCount` values.
std::vector<std::pair<std::size_t, double>>
outlierIndexes(const std::vector<double>& values, double minRatio,
               std::size_t minCount = minSamplesForOutliers);

// 95 % interval of the geometric mean of `values`: a t-interval on their logs. None below
// minSamplesForInterval values or when a value is not positive.
std::optional<Interval> geometricMeanInterval(const std::vector<double>& values,
                                              double level = 0.95);

// A metric compared again with its outliers left out.
struct WithoutOutliers {
    Verdict verdict = Verdict::Viable;
    bool confident = false;
    double overhead = 0;
    std::optional<Interval> interval;
    bool operator==(const WithoutOutliers&) const = default;
};

struct MetricComparison {
    std::string name;
    std::string workload; // of the candidate's runs that measured it
    Unit unit = Unit::Count;
    Better better = Better::Higher;
    bool decisive = true; // takes part in the verdict of this comparison
    std::string role;     // why it decides or not: "throughput", "[decide] fio.*.read.bw", ...
    std::size_t baselineSamples = 0;
    std::size_t candidateSamples = 0;
    double baselineMedian = 0;
    double candidateMedian = 0;
    double ratio = 0;
    double overhead = 0; // ratio - 1
    std::optional<Interval> interval;
    Verdict verdict = Verdict::Viable;
    bool confident = false;  // there is an interval and it lies inside the verdict's band
    std::string uncertainty; // why not confident: "too few runs: 1 and 2", ...; "" if confident
    // Remarks that change what the figure means, from the runs of either side (cache, short
    // runs, drift): shown next to the verdict.
    std::vector<std::string> notes;
    // Why it stays out of the verdict although both sides measured it ("not comparable: direct
    // I/O vs buffered I/O", "bounded by the data source ..."); "" when it may decide.
    std::string excluded;
    // Runs of either side that stand apart, named in a note. The verdict keeps them (a stall is
    // something the layout did); where leaving them out changes the verdict or whether it is
    // confident, that comparison is here too and the note says so.
    std::vector<Outlier> outliers;
    std::optional<WithoutOutliers> withoutOutliers;
};

// Whether more runs, up to `maxRuns` on each side, could still make a metric that is not
// confident confident. The interval with maxRuns a side of the same spread is narrower (the
// standard error by the square root of the runs, the t quantile by the degrees of freedom); its
// centre moves as the runs to come move it (by the share of the runs still to come, with the
// heavy tails of the few runs there are). "Could" while the chance that it then lies inside one
// band is 5 % or more: a ratio on a band's edge, or a spread no number of runs up to the
// maximum can narrow enough, cannot. A metric with too few runs for an interval could.
bool couldBecomeConfident(const MetricComparison& m, const Thresholds& thresholds,
                          std::size_t maxRuns);
// The chance itself, with `runs` on each side (1 for a metric that is confident or has no
// interval yet, 0 where `runs` is no more than it has).
double chanceOfConfidence(const MetricComparison& m, const Thresholds& thresholds,
                          std::size_t runs);

// A metric one side measured and the comparison could not use, with the reason.
struct NotCompared {
    std::string name;
    std::string reason;
    bool operator==(const NotCompared&) const = default;
};

// Notes that differ only in their numbers as one line: each number that differs becomes its
// range ("ran 0.25–0.53 s: under 5 s"), and the line says how many of `totalRuns` runs carry it
// ("(in 7 of 8 runs)") unless all do. A number is one that stands alone, not part of a name
// (the 4 of rand-read-4k, the 13 of run #13). In first-seen order; `runs[i]` is how many runs
// carry notes[i] (1 where `runs` is shorter).
std::vector<std::string> collapseNotes(const std::vector<std::string>& notes,
                                       const std::vector<std::size_t>& runs, std::size_t totalRuns);

// A note of a comparison once, with the metrics it is on.
struct NoteLine {
    std::string text;
    std::vector<std::string> metrics; // in the comparison's order
    bool operator==(const NoteLine&) const = default;
};

// How far the baseline moved during the campaign: its own runs, early against late.
struct Drift {
    std::string metric;
    double change = 0; // late over early, minus 1: +0.08 is 8 % more of the metric
    Interval interval; // of late/early
    bool operator==(const Drift&) const = default;
};

// The verdict's order of a comparison's metrics: deciding metrics first; then the worst verdict
// first (not viable, decision, viable); within a verdict the largest cost ratio first; then by
// name. compareLayouts lists its metrics so, and every table that shows them sorts by it.
bool worstFirst(const MetricComparison& a, const MetricComparison& b);

// What to do next about a comparison (engine/measure/next_step.h).
struct NextStep {
    std::string text; // a sentence, no final full stop
    // The workloads to run again and how many runs each side should then have; empty when
    // more runs would not help.
    std::vector<std::string> workloads;
    std::size_t runsEachSide = 0;
    bool operator==(const NextStep&) const = default;
};

struct Comparison {
    std::string baseline;
    std::string candidate;
    Thresholds thresholds;
    std::vector<std::string> decide; // the policy's globs; empty: the default set
    // The worst deciding metric's verdict; NoVerdict when no deciding metric was compared.
    Verdict verdict = Verdict::NoVerdict;
    // The worst deciding metric's interval lies inside its band and no other deciding metric's
    // interval reaches a worse band: no more runs of any metric can change the verdict.
    bool confident = false;
    // Why it is confident or not, or why there is no verdict, in one clause every output shows
    // as it is: "settled: every deciding metric's interval lies inside one band", "not settled:
    // 4 of 11 deciding metrics are not confident (too few runs: 2 and 2)", "nothing comparable:
    // bs 4 KiB vs 64 KiB".
    std::string confidence;
    // What to do next, computed with the verdict (nextStep); none when nothing is left to do.
    std::optional<NextStep> next;
    std::string headline; // "guest: decision — put_block 58 % more time per byte; ..."
    // What each side was measured on (measuredOn()), where its runs say: a verdict on zfs-fuse
    // or file vdevs is not one on a server's kernel ZFS and disks, and the headline says so.
    std::vector<std::string> baselineMeasuredOn, candidateMeasuredOn;
    // Deciding metrics first, each group worst (highest cost ratio) first.
    std::vector<MetricComparison> metrics;
    std::vector<NotCompared> notCompared; // sorted by name
    std::vector<std::string> onlyInBaseline;
    std::vector<std::string> onlyInCandidate;
    std::optional<Drift> drift;
    // Every run of both sides was imported (no campaign): more of them are imported, not run.
    bool imported = false;
    // The fill level both sides were measured at (a share of the usable space); none: as built.
    std::optional<double> fillLevel;
};

// The run a sample came from: its id (0: not known), when it started (seconds since the epoch,
// 0: not known) and its campaign (0: imported).
struct SampleRun {
    std::int64_t id = 0;
    double startedAt = 0;
    std::int64_t campaign = 0;
    bool operator==(const SampleRun&) const = default;
};

// Samples of one metric for one layout: one value per run (iteration), and the run each came
// from. The runs are a table the layout's metrics share, each sample holding its index in it: 4
// bytes a sample where a run's id, start and campaign beside every value took 24, most of the
// memory a comparison of a million samples wrote.
struct MetricSamples {
    std::string name;
    std::vector<double> values;
    std::string workload;                               // of the runs that measured it
    std::vector<std::uint32_t> runOf;                   // parallel to values, or empty
    std::shared_ptr<const std::vector<SampleRun>> runs; // what runOf indexes

    // The run of value i; none where the samples do not know their runs.
    const SampleRun* runAt(std::size_t i) const {
        return runs && i < runOf.size() && runOf[i] < runs->size() ? &(*runs)[runOf[i]] : nullptr;
    }
    // Samples whose runs are given one a value (tests, and samples made outside the store).
    static MetricSamples withRuns(std::string name, std::vector<double> values,
                                  const std::vector<SampleRun>& runs, std::string workload = {});
};

// A workload whose runs failed on a layout: how many, and the last reason.
struct FailedWorkload {
    std::string workload;
    std::size_t failed = 0;
    std::size_t ok = 0;
    std::string reason;
    bool operator==(const FailedWorkload&) const = default;
};

// The caveats a campaign writes on a run about what it ran on start with these; measuredOn()
// turns them into the short labels a verdict carries.
inline constexpr std::string_view zfsCaveatPrefix = "ZFS: "; // "ZFS: OpenZFS 2.3.2 (...)"
inline constexpr std::string_view fileVdevsCaveatPrefix = "file vdevs: ";
inline constexpr std::string_view tcgCaveatPrefix = "TCG: ";

// What a layout's runs were measured on, from their caveats, for the reader of a verdict:
// "zfs-fuse", "OpenZFS 2.3.2", "file vdevs", "TCG emulation"; distinct, in that order.
std::vector<std::string> measuredOn(const std::vector<std::string>& caveats);

// Everything the comparison needs of one layout.
struct LayoutSamples {
    std::vector<MetricSamples> metrics; // sorted by name
    std::vector<MetricNote> notes;      // distinct notes of its successful runs
    std::vector<std::size_t> noteRuns;  // parallel to notes: the runs that carry each; empty: 1
    // Parallel to notes (or empty): the workloads of the runs that carry each, with how many runs
    // of each. A note is about the metrics its own runs measured: a 4 KiB job's caveat is not one
    // of the 1 MiB job beside it, whatever its glob matches. Empty for a note: every workload.
    std::vector<std::vector<std::pair<std::string, std::size_t>>> noteWorkloads;
    std::vector<FailedWorkload> failed;  // sorted by workload
    std::vector<std::string> measuredOn; // measuredOn() of its successful runs' caveats
};

Comparison compareLayouts(std::string baseline, const LayoutSamples& baselineSamples,
                          std::string candidate, const LayoutSamples& candidateSamples,
                          const ComparePolicy& policy = {});
// The same from metric samples alone (no notes, no failures).
Comparison compareLayouts(std::string baseline, const std::vector<MetricSamples>& baselineSamples,
                          std::string candidate, const std::vector<MetricSamples>& candidateSamples,
                          const Thresholds& thresholds = {});

// Drift of the baseline over one campaign: for each metric named in `metrics` with at least
// minSamplesForInterval timed runs, the trend of its log values against time; the largest change
// whose 95 % interval (Bonferroni over the metrics tried) excludes 0. None when nothing moved more
// than the runs' own noise.
std::optional<Drift> measureDrift(const std::vector<MetricSamples>& baseline,
                                  const std::vector<std::string>& metrics);

// The drift of the baseline's runs of `campaign` over the deciding metrics of `c`.
std::optional<Drift> baselineDrift(const std::vector<MetricSamples>& baseline,
                                   std::int64_t campaign, const Comparison& c);

// Each distinct note of the comparison's metrics once, in the order of the metrics (deciding
// first, worst first), with the metrics it is on; notes containing `leaveOut` (when not empty)
// are left out.
std::vector<NoteLine> noteLines(const Comparison& c, const std::string& leaveOut = {});

// The metrics of a note line as a reader takes them: "every compared metric", or the first few
// names and how many more ("bonnie.put_block, bonnie.get_block and 12 more").
std::string noteMetricsText(const NoteLine& line, const Comparison& c, std::size_t shown = 4);

// Records the baseline's drift in a comparison: a note on every deciding metric and a clause in
// the headline ("the machine drifted by 8 % during the campaign"). Nothing when `drift` is none.
void addDrift(Comparison& c, std::optional<Drift> drift);

// compareLayouts under `policy`, with the baseline's drift over `driftCampaign` recorded
// (addDrift) when one is given: two layouts' loaded samples as every front end compares them.
Comparison compareWithDrift(std::string baseline, const LayoutSamples& baselineSamples,
                            std::string candidate, const LayoutSamples& candidateSamples,
                            const ComparePolicy& policy, std::optional<std::int64_t> driftCampaign);

// "put_block: 58 % more time per byte — decision required"
std::string verdictReason(const MetricComparison& m);

// How a metric's exclusion starts when the sides did other work ("not comparable: bs 4 KiB vs
// 64 KiB"), and how a note starts when their figures differ in more than the layout ("the sides
// did different amounts of work: ...", "the sides ran other versions of the tool, ...").
inline constexpr std::string_view notComparablePrefix = "not comparable: ";
inline constexpr std::string_view sidesDifferPrefix = "the sides ";

// The metrics kept out of the verdict because the sides did other work, and the first of them
// with its difference ("bs 4 KiB vs 64 KiB"); 0 and "" when there are none.
struct OtherWork {
    std::size_t metrics = 0;
    std::string firstMetric;
    std::string first;
};
OtherWork otherWork(const Comparison& c);

// What makes the two sides' figures differ besides the layout, each in one line said before the
// numbers ("Mind: ..."): the sides' differences in the work's amount, the tool's version or the
// machine, with how many of the compared metrics each is on, and the metrics left out of the
// verdict because the sides did other work. Empty when they differ in the layout alone.
std::vector<std::string> figuresDiffer(const Comparison& c);
// The caveats on the deciding figures: the note lines (noteLines) on at least one deciding metric,
// without the sides' differences (figuresDiffer says them) and the drift (the headline says it).
std::vector<NoteLine> decidingCaveats(const Comparison& c);

// "[raidz1 measured on zfs-fuse, file vdevs]" for each side measured on something that is not a
// server's kernel ZFS on disks (zfs-fuse, file vdevs, TCG), candidate first; "" when neither is.
// The headline ends with it.
std::string emulationLabel(const Comparison& c);

// A metric's name for a sentence: bonnie++'s and fio's without their family ("put_block",
// "seq-read-1m.read.bw"), the others whole ("randfile.throughput").
std::string shortMetricName(std::string_view name);

// Whether every glob of `decide` is well formed: it names a known family (bonnie, fio, iscsi,
// nfs, xz, randfile, drill, ...). The message names the bad glob.
std::optional<std::string> checkDecideGlob(std::string_view glob);

} // namespace lb
