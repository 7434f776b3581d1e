// `layoutbench merge`: another machine's results database brought into this one.
#include "app/cli/commands.h"
#include "engine/store/store_merge.h"

#include <iostream>
#include <nlohmann/json.hpp>

namespace lb::cli {

namespace {

int runMerge(const Globals& g, const MergeRequest& request) {
    auto store = openStore(g, DbAccess::Create);
    if (!store)
        return report(store.error());
    auto sum = mergeDatabase(*store, request);
    if (!sum)
        return report(sum.error(), {{"prefix", "--prefix"}, {"host", "--host"}});
    if (g.json) {
        std::cout << nlohmann::json{{"other", request.other},
                                    {"hosts", sum->hosts},
                                    {"disks", sum->disks},
                                    {"layouts", sum->layouts},
                                    {"campaigns", sum->campaigns},
                                    {"runs", sum->runs},
                                    {"metrics", sum->metrics},
                                    {"plan_steps", sum->planSteps},
                                    {"conditioning_steps", sum->conditioningSteps},
                                    {"duplicate_runs", sum->duplicateRuns}}
                         .dump(2)
                  << '\n';
        return 0;
    }
    std::cout << "merged " << request.other << " into " << g.db << ": " << sum->layouts
              << " layout(s), " << sum->campaigns << " campaign(s), " << sum->runs
              << " run(s) with " << sum->metrics << " metric(s), " << sum->planSteps
              << " journal step(s), " << sum->conditioningSteps << " conditioning step(s), "
              << sum->hosts << " host(s), " << sum->disks << " disk(s) added";
    if (sum->duplicateRuns)
        std::cout << "; " << sum->duplicateRuns
                  << " imported run(s) left out: their data is here already";
    std::cout << '\n';
    return 0;
}

} // namespace

void addMerge(CLI::App& app, Globals& g, Action& action) {
    auto req = std::make_shared<MergeRequest>();
    auto* sub = app.add_subcommand(
        "merge", "Bring another database's results into this one (again: nothing more)");
    sub->add_option("other", req->other, "The database to merge in (only read)")->required();
    sub->add_option("--prefix", req->prefix,
                    "Put before each merged layout name (srv2-), to keep layouts of the same "
                    "name from two servers apart");
    sub->add_option("--host", req->host,
                    "The machine the other database's results come from, by the name to keep "
                    "(a fleet's inventory name): its layouts join the same layouts measured "
                    "here on other machines");
    addGlobalOptions(*sub, g);
    sub->callback([&g, &action, req] { action = [&g, req] { return runMerge(g, *req); }; });
}

} // namespace lb::cli
