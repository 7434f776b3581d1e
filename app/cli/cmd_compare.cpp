// `layoutbench compare`: each metric of a candidate against the baseline, with verdicts.
#include "app/cli/commands.h"
#include "app/cli/terminal.h"
#include "engine/store/store.h"
#include "reports/comparison_text.h"

#include <iostream>

namespace lb::cli {

namespace {

struct CompareOptions {
    std::string baseline;
    std::string candidate;
    std::optional<std::string> host;
    std::optional<std::string> baselineHost, candidateHost;
    Thresholds thresholds;
    std::vector<std::string> decide;
    bool thresholdsGiven = false;
    std::string failOn;
    std::optional<std::string> fill; // --fill LEVEL|built|all
};

// --fill: a share (0.8) or percent (80%) as the store keeps it, in thousandths; "built" for the
// runs measured as built; "all" is the caller's.
Expected<int> fillPick(const std::string& text) {
    if (text == "built")
        return asBuiltPermille;
    std::string number = text;
    double scale = 1.0;
    if (!number.empty() && number.back() == '%') {
        number.pop_back();
        scale = 0.01;
    }
    try {
        std::size_t used = 0;
        const double v = std::stod(number, &used) * scale;
        if (used == number.size() && v >= 0 && v <= 1)
            return *fillPermille(v);
    } catch (const std::exception&) {
    }
    return badInput("--fill: '" + text + "' is not a fill level (0.8 or 80%), 'built' or 'all'");
}

// The machines each side was measured on, as picked: --host for both, or one a side.
HostChoice hostsOf(const CompareOptions& o) {
    if (o.baselineHost || o.candidateHost)
        return {o.baselineHost, o.candidateHost};
    return o.host;
}

int runCompare(const Globals& g, const CompareOptions& o) {
    if (!validThresholds(o.thresholds))
        return report(Error::badInput("--viable/--not-viable: need 1 <= viable < not-viable"));
    auto store = openStore(g, DbAccess::Existing);
    if (!store)
        return report(store.error());
    for (const auto& glob : o.decide)
        if (auto bad = checkDecideGlob(glob))
            return report(Error::badInput("--decide: " + *bad));
    // The policy of the candidate's campaign unless the command line names one.
    std::optional<ComparePolicy> policy;
    if (o.thresholdsGiven || !o.decide.empty())
        policy = ComparePolicy{o.thresholds, o.decide};
    const HostChoice hosts = hostsOf(o);
    const std::vector<FieldFlag> flags{{"baseline", "--baseline"},
                                       {"candidate", "--candidate"},
                                       {"host", "--host"},
                                       {"baseline_host", "--baseline-host"},
                                       {"candidate_host", "--candidate-host"},
                                       {"fill", "--fill"}};
    if (o.fill && *o.fill == "all") {
        // Level by level, like with like, and where the verdict changes.
        auto curve =
            compareAtFillLevels(*store, o.baseline, o.candidate, policy, std::nullopt, hosts);
        if (!curve)
            return report(curve.error(), flags);
        if (g.json)
            std::cout << fillCurveJsonText(*curve, hosts, 2) << '\n';
        else
            std::cout << fillCurveText(*curve, outputColumns());
        std::optional<Verdict> worst;
        for (const auto& l : curve->levels)
            worst = worst ? worse(*worst, l.comparison.verdict) : l.comparison.verdict;
        return worst ? verdictExitStatus(o.failOn, *worst) : 0;
    }
    std::optional<int> level;
    if (o.fill) {
        auto pick = fillPick(*o.fill);
        if (!pick)
            return report(pick.error());
        level = *pick;
    }
    auto cmp =
        compareStoredLayouts(*store, o.baseline, o.candidate, policy, std::nullopt, hosts, level);
    if (!cmp)
        return report(cmp.error(), flags);
    if (g.json)
        std::cout << comparisonJsonText(*cmp, hosts, 2) << '\n';
    else
        std::cout << comparisonTable(*cmp, outputColumns());
    return verdictExitStatus(o.failOn, cmp->verdict);
}

} // namespace

void addCompare(CLI::App& app, Globals& g, Action& action) {
    auto opts = std::make_shared<CompareOptions>();
    auto* sub = app.add_subcommand("compare", "Compare a candidate layout against the baseline");
    sub->add_option("--baseline", opts->baseline, "Baseline layout name")->required();
    sub->add_option("--candidate", opts->candidate, "Candidate layout name")->required();
    auto* host = sub->add_option("--host", opts->host,
                                 "Compare only the runs measured on this machine (required when "
                                 "a layout holds runs of several hosts)");
    sub->add_option("--baseline-host", opts->baselineHost,
                    "The baseline's runs from this machine: host against host, with "
                    "--candidate-host (the same layout on both sides, or not)")
        ->excludes(host);
    sub->add_option("--candidate-host", opts->candidateHost,
                    "The candidate's runs from this machine")
        ->excludes(host);
    auto* viable = sub->add_option("--viable", opts->thresholds.viableMax,
                                   "Cost ratio at or below which a metric is viable (default: "
                                   "the candidate's scenario, else 1.10)");
    auto* notViable =
        sub->add_option("--not-viable", opts->thresholds.notViableMin,
                        "Cost ratio at or above which a metric is not viable (default: the "
                        "candidate's scenario, else 2.0)");
    sub->add_option("--decide", opts->decide,
                    "A metric (or glob: fio.*.read.bw) that decides the verdict; repeatable. "
                    "Default: the candidate's scenario [decide], else throughput, IOPS and p99 "
                    "total latency");
    sub->add_option("--fill", opts->fill,
                    "Compare the runs measured at this fill level (0.8 or 80%; 'built' for those "
                    "measured as built), or 'all': level by level, and where the verdict "
                    "changes. Required when a layout holds runs at several fill levels");
    addFailOn(*sub, opts->failOn);
    addGlobalOptions(*sub, g);
    sub->callback([&g, &action, opts, viable, notViable] {
        opts->thresholdsGiven = viable->count() > 0 || notViable->count() > 0;
        action = [&g, opts] { return runCompare(g, *opts); };
    });
}

} // namespace lb::cli
