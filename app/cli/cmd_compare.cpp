// `layoutbench compare`: each metric of a candidate against the baseline, with verdicts.
#include "app/cli/commands.h"
#include "engine/store.h"
#include "reports/comparison_text.h"

#include <iostream>
#include <nlohmann/json.hpp>

namespace lb::cli {

namespace {

struct CompareOptions {
    std::string baseline;
    std::string candidate;
    Thresholds thresholds;
};

int runCompare(const Globals& g, const CompareOptions& o) {
    if (!(o.thresholds.viableMax >= 1.0 && o.thresholds.notViableMin > o.thresholds.viableMax))
        return report(Error::badInput("--viable/--not-viable: need 1 <= viable < not-viable"));
    auto store = Store::open(g.db);
    if (!store)
        return report(store.error());
    auto cmp = compareStoredLayouts(*store, o.baseline, o.candidate, o.thresholds);
    if (!cmp)
        return report(cmp.error());
    if (g.json)
        std::cout << comparisonJson(*cmp).dump(2) << '\n';
    else
        std::cout << comparisonTable(*cmp);
    return 0;
}

} // namespace

void addCompare(CLI::App& app, Globals& g, Action& action) {
    auto opts = std::make_shared<CompareOptions>();
    auto* sub = app.add_subcommand("compare", "Compare a candidate layout against the baseline");
    sub->add_option("--baseline", opts->baseline, "Baseline layout name")->required();
    sub->add_option("--candidate", opts->candidate, "Candidate layout name")->required();
    sub->add_option("--viable", opts->thresholds.viableMax,
                    "Cost ratio at or below which a metric is viable")
        ->capture_default_str();
    sub->add_option("--not-viable", opts->thresholds.notViableMin,
                    "Cost ratio at or above which a metric is not viable")
        ->capture_default_str();
    addGlobalOptions(*sub, g);
    sub->callback([&g, &action, opts] { action = [&g, opts] { return runCompare(g, *opts); }; });
}

} // namespace lb::cli
