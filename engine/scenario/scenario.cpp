// Loading a scenario: the top-level table, the host, thresholds and workloads, and the order in
// which the other tables are read and checked (see scenario_parse.h for the modules).
#include "engine/scenario/scenario.h"

#include "engine/exec/ssh_runner.h"
#include "engine/scenario/scenario_internal.h"

#include <algorithm>
#include <cassert>
#include <filesystem>
#include <sstream>

namespace lb {

namespace fs = std::filesystem;
using namespace scenario_parse;

const ScenarioLayout& Scenario::baseline() const {
    const auto it = std::find_if(layouts.begin(), layouts.end(),
                                 [](const ScenarioLayout& l) { return l.baseline; });
    assert(it != layouts.end());
    return *it;
}

std::optional<std::uint64_t> knownMemoryBytes(const ScenarioGuest& g) {
    if (g.hypervisor == Hypervisor::Qemu || g.hypervisor == Hypervisor::Bhyve || g.memoryStated)
        return g.memoryBytes;
    return std::nullopt;
}

std::optional<LayoutKind> ScenarioLayout::mdKind() const {
    if (isMd(kind))
        return kind;
    return inner;
}

const ScenarioClient* Scenario::client(std::string_view clientName) const {
    for (const auto& c : clients)
        if (c.name == clientName)
            return &c;
    return nullptr;
}

const ScenarioDisk* Scenario::disk(std::string_view diskName) const {
    for (const auto& d : disks)
        if (d.name == diskName)
            return &d;
    return nullptr;
}

std::vector<std::string> ScenarioZfsAux::disks() const {
    std::vector<std::string> out = log;
    out.insert(out.end(), cache.begin(), cache.end());
    out.insert(out.end(), special.begin(), special.end());
    return out;
}

std::vector<std::string> Scenario::disksTouchedBy(const ScenarioLayout& layout) const {
    std::vector<std::string> out = layout.disks;
    const auto aux = layout.zfsAux.disks();
    out.insert(out.end(), aux.begin(), aux.end());
    for (const auto& d : drills)
        if (d.layout == layout.name)
            out.insert(out.end(), d.disks.begin(), d.disks.end());
    return out;
}

namespace {

// A workload's precondition, steady_rounds, steady_round_seconds and precondition_size. The
// rounds' settings also serve a layout's precondition = "snia".
Expected<Preconditioning> parsePreconditioning(const toml::table& t, const std::string& where,
                                               const Reporter& rep, const Probe& probe,
                                               const OptionValues& options) {
    const auto keyOf = [](std::string_view n) -> const OptionSpec& {
        return scenarioKey(ScenarioTable::Workload, n);
    };
    Preconditioning p;
    LB_TRY(mode, getChoice(t, keyOf("precondition"), where, rep));
    p.snia = mode == "snia";
    LB_TRY(rounds, getInt(t, keyOf("steady_rounds"), where, rep));
    p.maxRounds = static_cast<int>(rounds);
    LB_TRY(seconds, getInt(t, keyOf("steady_round_seconds"), where, rep));
    p.roundSeconds = static_cast<int>(seconds);
    LB_TRY(bytes, getPreconditionSize(t, where, rep));
    p.bytes = bytes;
    if (!p.snia)
        return p;
    const toml::node& at = *t.get("precondition");
    if (!probe.supportsSteadyState())
        return badInput(rep.at(at, where + "precondition",
                               "the " + std::string(probe.name()) +
                                   " probe has no steady-state rounds (fio presets have)"));
    if (!options.has("preset"))
        return badInput(rep.at(at, where + "precondition",
                               "steady-state rounds need a preset (a job file sets its own "
                               "runtime)"));
    if (options.has("target") || t.get("clients"))
        return badInput(rep.at(at, where + "precondition",
                               "preconditioning runs in the layout's directory, not on an export "
                               "or from clients"));
    return p;
}

// The workload's name: given, or its probe's with the preset or job file it runs
// ("fio:randread", "fio:mixed").
Expected<std::string> workloadName(const toml::table& t, const std::string& where,
                                   const Reporter& rep, const std::string& probeName,
                                   const OptionValues& options) {
    std::string defaultName = probeName;
    // Appended part by part: ":" + string&& makes GCC 12 at -O3 warn -Wrestrict (a false alarm
    // in libstdc++'s operator+, GCC bug 105329).
    if (options.has("preset"))
        defaultName.append(":").append(options.text("preset"));
    else if (options.has("job_file"))
        defaultName.append(":").append(fs::path(options.text("job_file")).stem().string());
    LB_TRY(name, getString(t, scenarioKey(ScenarioTable::Workload, "name").name.c_str(), where, rep,
                           false, defaultName));
    if (name.empty() || name.size() > 128)
        return badInput(rep.at(t, "name", where + "name", "must be 1 to 128 characters"));
    return name;
}

// The keys of a [[workloads]] table that are not the workload's own: the probe's options, as
// written, with where they were written.
Expected<std::map<std::string, RawOption>>
rawProbeOptions(const toml::table& t, const std::string& where, const Reporter& rep) {
    std::map<std::string, RawOption> raw;
    for (const auto& [key, node] : t) {
        const std::string k(key.str());
        if (hasScenarioKey(ScenarioTable::Workload, k))
            continue; // the workload's own key, not the probe's option
        RawOption opt;
        opt.line = static_cast<int>(key.source().begin.line);
        opt.column = static_cast<int>(key.source().begin.column);
        if (const auto* s = node.as_string())
            opt.value = s->get();
        else if (const auto* i = node.as_integer())
            opt.value = i->get();
        else if (const auto* b = node.as_boolean())
            opt.value = b->get();
        else if (const auto* f = node.as_floating_point())
            opt.value = f->get();
        else
            return badInput(rep.at(node, where + k, "expected a string, number or boolean"));
        raw.emplace(k, std::move(opt));
    }
    return raw;
}

Expected<ScenarioWorkload> parseWorkload(const toml::table& t, const std::string& where,
                                         const std::string& baseDir, const Reporter& rep,
                                         const ProbeRegistry& probes) {
    ScenarioWorkload w;
    w.line = static_cast<int>(t.source().begin.line);
    const auto keyOf = [](std::string_view n) -> const OptionSpec& {
        return scenarioKey(ScenarioTable::Workload, n);
    };
    LB_TRY(probeName, getString(t, keyOf("probe"), where, rep));
    const Probe* probe = probes.find(probeName);
    if (!probe) {
        std::string list;
        for (const auto& n : probes.names())
            list += (list.empty() ? "" : ", ") + n;
        return badInput(rep.at(t, "probe", where + "probe",
                               "unknown probe '" + probeName + "' (known: " + list + ")"));
    }
    w.probe = probeName;
    LB_TRY(timeout, getInt(t, keyOf("timeout"), where, rep));
    w.timeoutSeconds = static_cast<int>(timeout);
    // "all", one name, or a list; names are checked against [[clients]] with the rest.
    LB_TRY(clients, getStringList(t, keyOf("clients"), where, rep));
    w.clients = clients;

    LB_TRY(raw, rawProbeOptions(t, where, rep));
    auto values = validateOptions(probe->options(), raw, rep.path(), where);
    if (!values)
        return fail(values.error());
    if (auto r = probe->validate(*values, rep.path() + ":" + std::to_string(w.line)); !r)
        return fail(r.error());
    // Paths in a scenario are relative to the scenario file.
    for (const auto& spec : probe->options())
        if (spec.type == OptionType::Path && values->has(spec.name))
            values->set(spec.name, resolve(baseDir, values->text(spec.name)));
    w.options = std::move(*values);
    LB_TRY(precondition, parsePreconditioning(t, where, rep, *probe, w.options));
    w.precondition = precondition;

    LB_TRY(name, workloadName(t, where, rep, probeName, w.options));
    w.name = name;
    return w;
}

} // namespace

ComparePolicy Scenario::policy() const {
    return {thresholds, decide};
}

namespace {

const OptionSpec& topKey(std::string_view n) {
    return scenarioKey(ScenarioTable::Top, n);
}

// The top level's own keys: name, description, repetition, caches, the I/O path, the work
// directory.
Expected<void> parseTopLevel(const toml::table& root, const std::string& baseDir,
                             const Reporter& rep, Scenario& s) {
    LB_TRY(name, getString(root, topKey("name"), "", rep));
    if (!validName(name))
        return badInput(rep.at(root, "name", "name", "use letters, digits, '-', '_' and '.' only"));
    s.name = name;
    LB_TRY(description, getString(root, topKey("description"), "", rep));
    s.description = description;
    LB_TRY_VOID(parseRepetition(root, s, rep));
    LB_TRY(dropCaches, getBool(root, topKey("drop_caches"), "", rep));
    s.dropCaches = dropCaches;
    LB_TRY(cache, getChoice(root, topKey("cache"), "", rep));
    s.coldCache = cache == "cold";
    LB_TRY(io, getChoice(root, topKey("io"), "", rep));
    s.io = io == "direct"     ? Scenario::IoPath::Direct
           : io == "buffered" ? Scenario::IoPath::Buffered
                              : Scenario::IoPath::Auto;
    if (root.contains("data_compressibility")) {
        LB_TRY(data, getDouble(root, topKey("data_compressibility"), "", rep));
        if (!(data > 0 && data <= 1))
            return badInput(rep.at(root, "data_compressibility", "data_compressibility",
                                   "must be above 0 and at most 1 (the share of its size the "
                                   "users' data keeps once compressed)"));
        s.dataCompressibility = data;
    }
    LB_TRY(fill, getFillLevels(root, "", rep));
    s.fill = fill.value_or(std::vector<double>{});
    LB_TRY(seed, getInt(root, topKey("fill_seed"), "", rep));
    s.fillSeed = seed;
    LB_TRY(workDir, getString(root, topKey("work_dir").name.c_str(), "", rep, false,
                              "/var/tmp/layoutbench/" + name));
    if (workDir.empty())
        return badInput(rep.at(root, "work_dir", "work_dir", "must not be empty"));
    s.workDir = resolve(baseDir, workDir);
    return {};
}

// [host]: where the layouts are built (local, or over SSH with its identity and known hosts), and
// its operating system unless detected.
Expected<void> parseHost(const toml::node& host, const std::string& baseDir, const Reporter& rep,
                         Scenario& s) {
    const auto* t = host.as_table();
    if (!t)
        return badInput(rep.at(host, "host", "expected a [host] table"));
    LB_TRY_VOID(rejectUnknown(*t, ScenarioTable::Host, "host.", rep));
    const auto hostKey = [](std::string_view n) -> const OptionSpec& {
        return scenarioKey(ScenarioTable::Host, n);
    };
    LB_TRY(target, getString(*t, hostKey("target"), "host.", rep));
    if (target != "local") {
        if (auto url = parseSshUrl(target); !url)
            return badInput(
                rep.at(*t, "target", "host.target",
                       "expected \"local\" or ssh://[user@]host[:port]: " + url.error().message));
    }
    s.host.target = target;
    LB_TRY(identity, getString(*t, hostKey("identity"), "host.", rep));
    s.host.identity = resolve(baseDir, identity);
    LB_TRY(knownHosts, getString(*t, hostKey("known_hosts"), "host.", rep));
    s.host.knownHosts = resolve(baseDir, knownHosts);
    LB_TRY(os, getChoice(*t, hostKey("os"), "host.", rep));
    if (os != "auto")
        s.host.os = enumFromName<TargetOs>(os);
    return {};
}

// [thresholds]: the verdict's bands, 1 <= viable < not_viable.
Expected<void> parseThresholds(const toml::node& thr, const Reporter& rep, Scenario& s) {
    const auto* t = thr.as_table();
    if (!t)
        return badInput(rep.at(thr, "thresholds", "expected a [thresholds] table"));
    LB_TRY_VOID(rejectUnknown(*t, ScenarioTable::Thresholds, "thresholds.", rep));
    LB_TRY(viable,
           getDouble(*t, scenarioKey(ScenarioTable::Thresholds, "viable"), "thresholds.", rep));
    LB_TRY(notViable,
           getDouble(*t, scenarioKey(ScenarioTable::Thresholds, "not_viable"), "thresholds.", rep));
    s.thresholds = {viable, notViable};
    if (!validThresholds(s.thresholds))
        return badInput(rep.at(*t, "thresholds", "need 1 <= viable < not_viable"));
    return {};
}

// The arrays of tables: [[disks]], [[layouts]], [[workloads]], [[clients]], [[drills]].
Expected<void> parseArrays(const toml::table& root, const std::string& baseDir, const Reporter& rep,
                           const ProbeRegistry& probes, Scenario& s) {
    LB_TRY(disks, parseArray<ScenarioDisk>(root, "disks", rep, [&](const auto& t, const auto& w) {
               return parseDisk(t, w, s.workDir, rep);
           }));
    s.disks = std::move(disks);
    LB_TRY(layouts,
           parseArray<ScenarioLayout>(root, "layouts", rep, [&](const auto& t, const auto& w) {
               return parseLayout(t, w, s.workDir, rep);
           }));
    s.layouts = std::move(layouts);
    LB_TRY(workloads,
           parseArray<ScenarioWorkload>(root, "workloads", rep, [&](const auto& t, const auto& w) {
               return parseWorkload(t, w, baseDir, rep, probes);
           }));
    s.workloads = std::move(workloads);
    LB_TRY(clients,
           parseArray<ScenarioClient>(root, "clients", rep, [&](const auto& t, const auto& w) {
               return parseClient(t, w, baseDir, rep);
           }));
    s.clients = std::move(clients);
    LB_TRY(drills,
           parseArray<ScenarioDrill>(root, "drills", rep, [&](const auto& t, const auto& w) {
               return parseDrill(t, w, rep);
           }));
    s.drills = std::move(drills);
    return {};
}

} // namespace

Expected<Scenario> parseScenario(std::string_view text, const std::string& path,
                                 const ProbeRegistry& probes) {
    const Reporter rep(path.empty() ? "<scenario>" : path);
    toml::table root;
    try {
        root = toml::parse(text, path);
    } catch (const toml::parse_error& e) {
        return badInput(rep.at(e.source(), "syntax", std::string(e.description())));
    }
    const std::string baseDir = path.empty() ? fs::current_path().string()
                                             : fs::absolute(fs::path(path)).parent_path().string();
    LB_TRY_VOID(rejectUnknown(root, ScenarioTable::Top, "", rep));
    Scenario s;
    s.path = path;
    s.text = maskSecrets(text, root);
    LB_TRY_VOID(parseTopLevel(root, baseDir, rep, s));
    if (const toml::node* host = root.get("host"))
        LB_TRY_VOID(parseHost(*host, baseDir, rep, s));
    if (const toml::node* thr = root.get("thresholds"))
        LB_TRY_VOID(parseThresholds(*thr, rep, s));
    LB_TRY_VOID(parseArrays(root, baseDir, rep, probes, s));
    LB_TRY_VOID(checkScenario(s, root, rep));
    LB_TRY_VOID(checkExportsAndClients(s, rep, probes));
    LB_TRY_VOID(parseDecide(root, s, rep, probes));
    return s;
}

StoredScenarioSummary summarizeStoredScenario(std::string_view text) {
    StoredScenarioSummary out;
    if (text.empty())
        return out;
    toml::table root;
    try {
        root = toml::parse(text);
    } catch (const toml::parse_error&) {
        return out;
    }
    if (auto d = root["description"].value<std::string>())
        out.description = *d;
    if (const toml::table* t = root["thresholds"].as_table()) {
        Thresholds th;
        th.viableMax = (*t)["viable"].value_or(th.viableMax);
        th.notViableMin = (*t)["not_viable"].value_or(th.notViableMin);
        if (validThresholds(th))
            out.thresholds = th;
    }
    out.devices.emplace();
    if (const toml::array* disks = root["disks"].as_array())
        for (const auto& d : *disks)
            if (const toml::table* t = d.as_table())
                if (auto device = (*t)["device"].value<std::string>())
                    out.devices->push_back(*device);
    return out;
}

Expected<Scenario> loadScenario(const std::string& path, const ProbeRegistry& probes,
                                const InputLimit& limit) {
    auto text = readInput(path, limit);
    if (!text)
        return fail(text.error());
    return parseScenario(*text, path, probes);
}

} // namespace lb
