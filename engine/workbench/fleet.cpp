#include "engine/workbench/fleet.h"

#include "engine/base/install_paths.h"
#include "engine/base/joined.h"
#include "engine/base/utf8.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace lb {

namespace fs = std::filesystem;
using nlohmann::json;

Expected<std::vector<FleetAnalysis>>
fleetAnalyses(Store& store, const std::optional<std::string>& layout, bool allMetrics) {
    LB_TRY(layouts, store.layouts());
    std::vector<FleetAnalysis> out;
    bool found = false;
    for (const auto& l : layouts) {
        if (layout && l.name != *layout)
            continue;
        found = true;
        LB_TRY(hosts, store.layoutHosts(l.name, std::nullopt));
        if (hosts.size() < 2) {
            if (layout)
                return badInput(
                    "layout: '" + l.name + "' was measured on " +
                    (hosts.empty() ? "no known machine" : "one machine (" + hosts[0] + ")") +
                    ": a fleet's report needs two or more");
            continue;
        }
        std::vector<std::pair<std::string, LayoutSamples>> samples;
        for (const auto& h : hosts) {
            LB_TRY(s, store.layoutSamples(l.name, std::nullopt, h));
            samples.emplace_back(h, std::move(s));
        }
        LB_TRY(policy, storedPolicy(store, l.name));
        out.push_back(analyseFleet(l.name, samples, policy, allMetrics));
    }
    if (layout && !found)
        return fail(store.noLayoutNamed("layout", *layout));
    return out;
}

namespace {

// Ansible's settings for a run driven from here: plain text, no retry files, an inventory it
// cannot read an error rather than a warning and an empty fleet, and pipelining (each task's
// module sent through the open SSH connection rather than copied first: a third of the round
// trips).
std::vector<std::pair<std::string, std::string>> ansibleEnvironment() {
    return {{"ANSIBLE_NOCOLOR", "1"},
            {"ANSIBLE_FORCE_COLOR", "0"},
            {"ANSIBLE_RETRY_FILES_ENABLED", "0"},
            {"ANSIBLE_INVENTORY_UNPARSED_FAILED", "1"},
            {"ANSIBLE_PYTHON_INTERPRETER", "auto_silent"},
            {"ANSIBLE_PIPELINING", "1"},
            {"LC_ALL", "C.UTF-8"}};
}

// The hosts of an inventory group and of its children, depth first, each once.
void collectHosts(const json& list, const std::string& group, std::vector<std::string>& out,
                  std::set<std::string>& seen, int depth) {
    const auto g = list.find(group);
    if (g == list.end() || !g->is_object() || depth > 64)
        return;
    for (const auto& h : g->value("hosts", json::array()))
        if (h.is_string() && seen.insert(h.get<std::string>()).second)
            out.push_back(h.get<std::string>());
    for (const auto& c : g->value("children", json::array()))
        if (c.is_string())
            collectHosts(list, c.get<std::string>(), out, seen, depth + 1);
}

// Why Ansible could not read an inventory, from ansible-inventory's warnings (each plugin says
// why it failed; the one for the file's form is the one that matters: yaml for .yml/.yaml, else
// ini), its words unwrapped; else its last line.
std::string inventoryError(const std::string& stderrText, const std::string& path) {
    std::string flat;
    for (const char c : stderrText) {
        const bool space = c == '\n' || c == ' ';
        if (!space || (!flat.empty() && flat.back() != ' '))
            flat += space ? ' ' : c;
    }
    const bool yaml = path.ends_with(".yml") || path.ends_with(".yaml");
    const std::string plugin = yaml ? "with yaml plugin: " : "with ini plugin: ";
    const auto at = flat.find(plugin);
    if (at == std::string::npos) {
        const auto err = flat.rfind("ERROR! ");
        return err == std::string::npos ? flat : flat.substr(err + 7);
    }
    std::string why = flat.substr(at + plugin.size());
    for (const char* end : {"[WARNING]", " The offending line"})
        if (const auto e = why.find(end); e != std::string::npos)
            why.erase(e);
    while (!why.empty() && why.back() == ' ')
        why.pop_back();
    return why;
}

std::string lastLines(const std::string& text, std::size_t n) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            lines.push_back(line);
    if (lines.size() > n)
        lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(n));
    return joinedText(lines, " / ");
}

// "fatal: [srv-2]: UNREACHABLE! => {...}": the host, whether it was not reached, and why (the
// result's msg, with the tail of a failed command's stderr).
struct FatalLine {
    std::string host;
    bool unreachable = false;
    std::string reason;
};

std::optional<FatalLine> fatalLine(const std::string& line) {
    if (!line.starts_with("fatal: [") && !line.starts_with("failed: ["))
        return std::nullopt;
    const auto open = line.find('[');
    const auto close = line.find("]: ", open);
    if (close == std::string::npos)
        return std::nullopt;
    FatalLine f;
    f.host = line.substr(open + 1, close - open - 1);
    f.unreachable = line.compare(close + 3, 12, "UNREACHABLE!") == 0;
    const auto arrow = line.find("=> ", close);
    const auto result =
        arrow == std::string::npos ? json() : json::parse(line.substr(arrow + 3), nullptr, false);
    if (result.is_object()) {
        f.reason = result.value("msg", std::string());
        const auto err = result.value("stderr", std::string());
        if (!err.empty())
            f.reason += (f.reason.empty() ? "" : ": ") + lastLines(err, 3);
    }
    if (f.reason.empty())
        f.reason = line.substr(close + 3);
    return f;
}

std::string markerOf(const FleetRunRequest& r, const std::string& host) {
    return (fs::path(r.fleetDir) / (host + ".merged")).string();
}
std::string fetchedOf(const FleetRunRequest& r, const std::string& host) {
    return (fs::path(r.fleetDir) / (host + ".db")).string();
}

// `limitFile`: the hosts to run, one a line (--limit @FILE); empty: every host.
Command playbookCommand(const FleetRunRequest& r, const std::string& limitFile) {
    json vars{{"lb_scenario", fs::absolute(r.scenario).string()},
              {"lb_fetch_dir", fs::absolute(r.fleetDir).string()},
              {"lb_resume", r.resume},
              {"lb_yes_destroy", r.yesDestroy}};
    if (!r.remoteDir.empty())
        vars["lb_remote_dir"] = r.remoteDir;
    if (!r.layoutbench.empty())
        vars["layoutbench_bin"] = r.layoutbench;
    if (!r.package.empty())
        vars["layoutbench_deb"] = fs::absolute(r.package).string();
    Command c;
    c.program = "ansible-playbook";
    c.args = {"-i", r.inventory,   "--forks", std::to_string(std::max(1, r.forks)),
              "-e", dumpJson(vars)};
    if (!limitFile.empty())
        c.args.insert(c.args.end(), {"--limit", "@" + limitFile});
    c.args.push_back(r.playbook.empty() ? fleetPlaybookPath() : r.playbook);
    c.env = ansibleEnvironment();
    return c;
}

// Each line of the playbook's output to `progress` as it completes.
class LineSplitter {
public:
    explicit LineSplitter(const std::function<void(std::string_view)>& sink) : sink_(sink) {}
    void add(std::string_view chunk) {
        pending_ += chunk;
        for (auto nl = pending_.find('\n'); nl != std::string::npos; nl = pending_.find('\n')) {
            std::string line = pending_.substr(0, nl);
            pending_.erase(0, nl + 1);
            // "TASK [scenario] *****": the stars are decoration.
            const auto end = line.find_last_not_of("* ");
            line.erase(end == std::string::npos ? 0 : end + 1);
            if (sink_ && !line.empty())
                sink_(line);
        }
    }

private:
    const std::function<void(std::string_view)>& sink_;
    std::string pending_;
};

// What came back from one host: its outcome as the playbook said it, and its database merged.
FleetHostOutcome settleHost(Store& store, const FleetRunRequest& r, const std::string& host,
                            const std::map<std::string, FatalLine>& fatal) {
    FleetHostOutcome o;
    o.host = host;
    if (const auto f = fatal.find(host); f != fatal.end()) {
        o.status = f->second.unreachable ? FleetHostStatus::Unreachable : FleetHostStatus::Failed;
        o.reason = f->second.reason;
    }
    std::error_code ec;
    const std::string fetched = fetchedOf(r, host);
    if (!fs::is_regular_file(fetched, ec)) {
        if (o.status == FleetHostStatus::Ok) {
            o.status = FleetHostStatus::Failed;
            o.reason = "no results database came back from " + host;
        }
        return o;
    }
    auto merged = mergeDatabase(store, MergeRequest{fetched, "", host});
    if (!merged) {
        o.status = FleetHostStatus::Failed;
        o.reason = "merging " + fetched + ": " + merged.error().message;
        return o;
    }
    o.merged = *merged;
    if (o.status == FleetHostStatus::Ok)
        std::ofstream(markerOf(r, host)) << "merged\n";
    return o;
}

} // namespace

std::string_view fleetHostStatusName(FleetHostStatus s) {
    switch (s) {
    case FleetHostStatus::Ok:
        return "ok";
    case FleetHostStatus::Failed:
        return "failed";
    case FleetHostStatus::Unreachable:
        return "unreachable";
    case FleetHostStatus::AlreadyMerged:
        return "merged-before";
    }
    return "ok";
}

Expected<std::vector<std::string>> inventoryHosts(Runner& runner, const std::string& inventory) {
    std::error_code ec;
    if (!fs::exists(inventory, ec))
        return badInput("inventory: " + inventory + ": no such file");
    Command c =
        Command::timed("ansible-inventory", {"-i", inventory, "--list"}, std::chrono::seconds(120));
    c.env = ansibleEnvironment();
    LB_TRY(result, runner.run(c));
    if (!result.ok())
        return badInput("inventory: " + inventory + ": Ansible cannot read it: " +
                        inventoryError(result.stderrText, inventory));
    const auto list = json::parse(result.stdoutText, nullptr, false);
    if (!list.is_object())
        return runtimeError("ansible-inventory --list wrote no JSON for " + inventory);
    std::vector<std::string> hosts;
    std::set<std::string> seen;
    collectHosts(list, "all", hosts, seen, 0);
    if (hosts.empty())
        return badInput("inventory: " + inventory + " names no hosts");
    return hosts;
}

Expected<std::vector<FleetHostOutcome>>
runFleet(Store& store, const FleetRunRequest& request, Runner& runner,
         const std::function<void(std::string_view line)>& progress,
         const std::atomic<bool>* cancel) {
    std::error_code ec;
    if (!fs::is_regular_file(request.scenario, ec))
        return badInput("scenario: " + request.scenario + ": no such file");
    LB_TRY(hosts, inventoryHosts(runner, request.inventory));
    fs::create_directories(request.fleetDir, ec);
    if (ec)
        return runtimeError("cannot create " + request.fleetDir + ": " + ec.message());
    // Hosts merged by an earlier run are left out on --resume; the others start afresh here.
    std::set<std::string> mergedBefore;
    for (const auto& h : hosts) {
        if (request.resume && fs::exists(markerOf(request, h), ec)) {
            mergedBefore.insert(h);
            continue;
        }
        fs::remove(fetchedOf(request, h), ec); // a database from an earlier run is not this one's
        fs::remove(markerOf(request, h), ec);
    }
    // Each host's outcome in inventory order: merged before, else what `settle` says.
    const auto outcomesBy = [&](const auto& settle) {
        std::vector<FleetHostOutcome> out;
        for (const auto& h : hosts)
            out.push_back(mergedBefore.contains(h)
                              ? FleetHostOutcome{h, FleetHostStatus::AlreadyMerged, "", {}}
                              : settle(h));
        return out;
    };
    if (mergedBefore.size() == hosts.size())
        return outcomesBy([](const std::string&) { return FleetHostOutcome{}; });
    std::string limitFile;
    if (!mergedBefore.empty()) {
        limitFile = (fs::path(request.fleetDir) / "limit").string();
        std::ofstream limit(limitFile);
        for (const auto& h : hosts)
            if (!mergedBefore.contains(h))
                limit << h << '\n';
    }
    LineSplitter lines(progress);
    RunOptions options;
    options.cancel = cancel;
    options.onOutput = [&](OutputStream, std::string_view chunk) { lines.add(chunk); };
    LB_TRY(result, runner.run(playbookCommand(request, limitFile), options));
    std::map<std::string, FatalLine> fatal;
    std::istringstream out(result.stdoutText);
    for (std::string line; std::getline(out, line);)
        if (auto f = fatalLine(line))
            fatal.emplace(f->host, *f);
    // 0: every host ok, 2: a host failed, 4: a host not reached; anything else is the playbook's
    // own failure (bad options, a broken playbook), which no host's outcome explains.
    const int code = result.exitCode;
    if (!result.cancelled && !result.timedOut && code != 0 && code != 2 && code != 4 &&
        fatal.empty())
        return runtimeError("ansible-playbook " + result.exitSummary() + ": " +
                            lastLines(result.stderrText + result.stdoutText, 5));
    return outcomesBy([&](const std::string& h) { return settleHost(store, request, h, fatal); });
}

} // namespace lb
