// What holds across a scenario's tables: unique names, disks used once, one baseline, drills that
// fit their layouts; how often the workloads run; and the [decide] metrics.
#include "engine/scenario/scenario_internal.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace lb::scenario_parse {

namespace {

// Each disk once by name, each file or device backing one disk.
Expected<void> checkDisks(const Scenario& s, const Reporter& rep) {
    std::set<std::string> seen, backings;
    for (const auto& d : s.disks) {
        if (!seen.insert(d.name).second)
            return badInput(rep.path() + ":" + std::to_string(d.line) + ": disks.name: '" + d.name +
                            "' is defined twice");
        const std::string& backing = d.file.empty() ? d.device : d.file;
        if (!backings.insert(backing).second)
            return badInput(rep.path() + ":" + std::to_string(d.line) + ": disks: '" + backing +
                            "' backs two disks");
    }
    return {};
}

// A ZFS layout's log, cache and special disks: each in [[disks]], none a data disk or named
// twice, devices or files as the data disks are.
Expected<void> checkAuxDisks(const Scenario& s, const ScenarioLayout& l, const std::string& at,
                             bool dataOnFiles) {
    std::set<std::string> used(l.disks.begin(), l.disks.end());
    for (auto [key, list] : {std::pair{"log", &l.zfsAux.log}, std::pair{"cache", &l.zfsAux.cache},
                             std::pair{"special", &l.zfsAux.special}})
        for (const auto& d : *list) {
            const ScenarioDisk* disk = s.disk(d);
            if (!disk)
                return badInput(at + key + ": '" + d + "' is not in [[disks]]");
            if (std::find(l.disks.begin(), l.disks.end(), d) != l.disks.end())
                return badInput(at + key + ": '" + d +
                                "' is one of the layout's data disks; a disk is either a data "
                                "disk or an auxiliary one");
            if (!used.insert(d).second)
                return badInput(at + key + ": '" + d +
                                "' is named twice among log, cache and "
                                "special");
            if (disk->device.empty() != dataOnFiles)
                return badInput(at + key + ": '" + d + "' must be a " +
                                (dataOnFiles ? "file" : "block device") +
                                " like the layout's data disks");
        }
    return {};
}

// A layout's disks: each in [[disks]] and listed once, all devices or all files (md and
// underprovisioning need devices), as many as what is built of them takes.
Expected<void> checkLayoutDisks(const Scenario& s, const ScenarioLayout& l, const std::string& at) {
    std::set<std::string> used;
    for (const auto& d : l.disks) {
        if (!s.disk(d))
            return badInput(at + "disks: '" + d + "' is not in [[disks]]");
        if (!used.insert(d).second)
            return badInput(at + "disks: '" + d + "' is listed twice");
    }
    bool devices = false, files = false;
    for (const auto& d : l.disks)
        (s.disk(d)->device.empty() ? files : devices) = true;
    if (devices && files)
        return badInput(at + "disks: mixes block devices and files; use one or the other");
    if (l.mdKind() && files)
        return badInput(at + "disks: md arrays are built on block devices, not files");
    // What is built of the disks: the md array, the pool, or a guest's one disk.
    const auto built = l.kind == LayoutKind::Guest ? l.inner : l.mdKind().value_or(l.kind);
    const bool own = built == l.kind; // the vdev split and dRAID shape are the layout's
    if (const auto why = built ? diskCountProblem(*built, l.disks.size(), own ? l.vdevs : 1,
                                                  own ? &l.draid : nullptr)
                               : std::nullopt)
        return badInput(at + "disks: " + *why);
    if (l.kind == LayoutKind::Guest && !l.inner && l.disks.size() != 1)
        return badInput(at + "disks: a guest is passed exactly one disk (or inner = an md "
                             "kind, built of several)");
    if (files && l.underprovision < 1.0)
        return badInput(at + "underprovision: only block devices are partitioned");
    return checkAuxDisks(s, l, at, files);
}

// Layouts: at least one, each name and pool once, their disks, exactly one baseline.
Expected<void> checkLayouts(const Scenario& s, const toml::table& root, const Reporter& rep) {
    std::set<std::string> seen, pools;
    int baselines = 0;
    for (const auto& l : s.layouts) {
        const std::string at = rep.path() + ":" + std::to_string(l.line) + ": layouts.";
        if (!seen.insert(l.name).second)
            return badInput(at + "name: '" + l.name + "' is defined twice");
        if (isZfs(l.kind) && !pools.insert(l.pool).second)
            return badInput(at + "pool: '" + l.pool + "' is used by two layouts");
        baselines += l.baseline ? 1 : 0;
        LB_TRY_VOID(checkLayoutDisks(s, l, at));
    }
    if (s.layouts.empty())
        return badInput(rep.at(root, "layouts", "at least one [[layouts]] is required"));
    if (baselines != 1) {
        // Point at the second baseline, or at the first layout when none is marked.
        int line = s.layouts.front().line;
        int seenBaselines = 0;
        for (const auto& l : s.layouts)
            if (l.baseline && ++seenBaselines == 2)
                line = l.line;
        return badInput(rep.path() + ":" + std::to_string(line) +
                        ": layouts.baseline: exactly one layout must be marked baseline = true "
                        "(found " +
                        std::to_string(baselines) + ")");
    }
    return {};
}

// Workloads: at least one, each name once.
Expected<void> checkWorkloads(const Scenario& s, const toml::table& root, const Reporter& rep) {
    if (s.workloads.empty())
        return badInput(rep.at(root, "workloads", "at least one [[workloads]] is required"));
    std::set<std::string> seen;
    for (const auto& w : s.workloads)
        if (!seen.insert(w.name).second)
            return badInput(rep.path() + ":" + std::to_string(w.line) + ": workloads.name: '" +
                            w.name + "' is used twice; give one of them a name");
    return {};
}

// Why a fail-rebuild drill cannot fail and rebuild a member of the layout; none where it can: a
// layout with redundancy that layoutbench builds itself on the disks, md's or ZFS's, or a
// zfs-stripe pool on an md array with redundancy (md's member fails and rebuilds under the
// pool). Not yet a guest: the host's md rebuilding while the guest's pool serves needs the load
// run in the guest while the host's md rebuilds (layoutbench-scenario(5), FAIL-REBUILD).
std::optional<std::string> failRebuildProblem(const ScenarioLayout& layout) {
    const LayoutKind k = layout.kind;
    const std::string kind(layoutKindName(k));
    if (k == LayoutKind::Guest)
        return "a guest layout's drill (the host's md array rebuilding while the guest's pool "
               "serves) is not built yet; drill the same array under a pool on the host instead "
               "(kind = \"zfs-stripe\", inner = \"md-raid1\", \"md-raid10\", \"md-raid5\" or "
               "\"md-raid6\"): the pool sees nothing of md's rebuild either way";
    if (layout.inner && *layout.inner == LayoutKind::MdRaid0)
        return "its inner md-raid0 array has no redundancy: nothing rebuilds a failed member";
    if (layout.inner)
        return std::nullopt; // zfs-stripe on md-raid1/10/5/6 (checkLayoutDisks)
    if (k == LayoutKind::MdRaid0 || k == LayoutKind::ZfsStripe)
        return "a " + kind + " layout has no redundancy: nothing rebuilds a failed member" +
               (k == LayoutKind::ZfsStripe ? " (a zfs-stripe on an inner md array with "
                                             "redundancy is drilled: md's member fails)"
                                           : "");
    if (isMd(k) || isZfs(k))
        return std::nullopt;
    return "a " + kind + " layout is not one layoutbench builds on the disks";
}

// Whether a drill's action applies to a layout of this kind and shape.
bool drillFits(DrillAction action, const ScenarioLayout& layout) {
    const LayoutKind k = layout.kind;
    switch (action) {
    case DrillAction::MdGrow:
        return isMd(k) && k != LayoutKind::MdRaid0;
    case DrillAction::MdRaid6:
        return k == LayoutKind::MdRaid5;
    case DrillAction::ZfsAddVdev:
        return isZfs(k);
    case DrillAction::RaidzExpand:
        return isRaidz(k) && layout.vdevs == 1; // dRAID has no expansion in OpenZFS 2.3
    case DrillAction::FailRebuild:
        return !failRebuildProblem(layout);
    }
    return false;
}

// A drill's spares: as many as its action adds, each in [[disks]], none of the layout's own or
// added by an earlier drill of it, devices or files as the layout's disks are.
Expected<void> checkDrillSpares(const Scenario& s, const ScenarioDrill& d,
                                const ScenarioLayout& layout, const std::string& at,
                                std::set<std::string>& added) {
    const LayoutKind k = layout.kind;
    const std::string action(enumName(d.action));
    std::size_t width = 1; // fail-rebuild: the one spare it rebuilds onto
    if (d.action == DrillAction::ZfsAddVdev)
        width = k == LayoutKind::ZfsRaid10   ? 2
                : k == LayoutKind::ZfsStripe ? 1
                                             : layout.disks.size() / layout.vdevs;
    if (d.action != DrillAction::MdGrow && d.disks.size() != width)
        return badInput(at + "disks: " + action + " adds exactly " + std::to_string(width) +
                        " disk" + (width == 1 ? "" : "s") + " here, got " +
                        std::to_string(d.disks.size()));
    const bool layoutOnDevices = !s.disk(layout.disks.front())->device.empty();
    for (const auto& spare : d.disks) {
        const ScenarioDisk* disk = s.disk(spare);
        if (!disk)
            return badInput(at + "disks: '" + spare + "' is not in [[disks]]");
        if (std::find(layout.disks.begin(), layout.disks.end(), spare) != layout.disks.end())
            return badInput(at + "disks: '" + spare + "' is already in layout '" + d.layout +
                            "'; a drill adds spares");
        if (!added.insert(spare).second)
            return badInput(at + "disks: '" + spare + "' is added by an earlier drill");
        if (disk->device.empty() == layoutOnDevices)
            return badInput(at + "disks: '" + spare + "' must be a " +
                            (layoutOnDevices ? "block device" : "file") +
                            " like the layout's disks");
    }
    return {};
}

// fail = "error" swaps the member's device-mapper table: the member must be one.
Expected<void> checkErrorTarget(const Scenario& s, const ScenarioDrill& d, const std::string& at) {
    if (d.failure != DrillFailure::Error)
        return {};
    const auto disk = std::find_if(s.disks.begin(), s.disks.end(),
                                   [&](const ScenarioDisk& one) { return one.name == d.failDisk; });
    if (disk != s.disks.end() && disk->device.starts_with("/dev/mapper/") &&
        disk->device.size() > 12)
        return {};
    return badInput(at +
                    "fail: \"error\" swaps device-mapper's error target under the member, "
                    "but disk '" +
                    d.failDisk + "' (" +
                    (disk == s.disks.end()  ? std::string("?")
                     : disk->device.empty() ? disk->file
                                            : disk->device) +
                    ") is not a device-mapper device: name it as /dev/mapper/NAME (a dm linear "
                    "device over the real disk, made with dmsetup create)");
}

// Drills: each on a layout of the scenario that its action applies to, with its spares.
Expected<void> checkDrills(const Scenario& s, const Reporter& rep) {
    std::map<std::string, std::set<std::string>> drillDisks; // layout -> spares used so far
    for (const auto& d : s.drills) {
        const std::string at = rep.path() + ":" + std::to_string(d.line) + ": drills.";
        const auto layout =
            std::find_if(s.layouts.begin(), s.layouts.end(),
                         [&](const ScenarioLayout& l) { return l.name == d.layout; });
        if (layout == s.layouts.end())
            return badInput(at + "layout: '" + d.layout + "' is not in [[layouts]]");
        if (!drillFits(d.action, *layout)) {
            const auto why =
                d.action == DrillAction::FailRebuild ? failRebuildProblem(*layout) : std::nullopt;
            return badInput(at + "action: " + std::string(enumName(d.action)) +
                            " does not apply to a " + std::string(layoutKindName(layout->kind)) +
                            " layout" + (why ? ": " + *why : std::string()));
        }
        LB_TRY_VOID(checkDrillSpares(s, d, *layout, at, drillDisks[d.layout]));
        if (d.action == DrillAction::FailRebuild &&
            std::find(layout->disks.begin(), layout->disks.end(), d.failDisk) ==
                layout->disks.end())
            return badInput(at + "disk: '" + d.failDisk + "' is not a member of layout '" +
                            d.layout + "'; a fail-rebuild drill fails one of its disks");
        LB_TRY_VOID(checkErrorTarget(s, d, at));
    }
    return {};
}

} // namespace

// Cross-checks: unique names, disks exist and are used once per layout, one baseline, drills
// that fit their layouts.
Expected<void> checkScenario(const Scenario& s, const toml::table& root, const Reporter& rep) {
    LB_TRY_VOID(checkDisks(s, rep));
    LB_TRY_VOID(checkLayouts(s, root, rep));
    LB_TRY_VOID(checkWorkloads(s, root, rep));
    // The scenario's fill levels reach every layout without its own, and a directory is not
    // layoutbench's to fill.
    const bool filling = std::any_of(s.fill.begin(), s.fill.end(), [](double f) { return f > 0; });
    for (const auto& l : s.layouts)
        if (filling && l.kind == LayoutKind::Dir && !l.fill)
            return badInput(rep.at(root, "fill", "fill",
                                   "dir layout '" + l.name +
                                       "' is not filled (layoutbench does not fill a directory "
                                       "it did not make): give it fill = [] or fill = [0.0]"));
    return checkDrills(s, rep);
}

// How often each workload runs: `iterations = N`, or `iterations = "auto"` with
// min_iterations / max_iterations (and optionally the coefficient-of-variation rule `until`);
// and how the runs of the layouts are ordered in time (bracket, interleave).
Expected<void> parseRepetition(const toml::table& root, Scenario& s, const Reporter& rep) {
    const auto keyOf = [](std::string_view n) -> const OptionSpec& {
        return scenarioKey(ScenarioTable::Top, n);
    };
    const toml::node* it = root.get("iterations");
    const bool automatic = it && it->is_string();
    if (automatic && it->as_string()->get() != "auto")
        return badInput(rep.at(*it, "iterations", "expected a whole number or \"auto\""));
    if (!automatic) {
        LB_TRY(iterations, getInt(root, keyOf("iterations"), "", rep));
        s.iterations = static_cast<int>(iterations);
        for (const char* key : {"min_iterations", "max_iterations", "until"})
            if (const toml::node* n = root.get(key))
                return badInput(rep.at(*n, key, "only with iterations = \"auto\""));
    } else {
        LB_TRY(minimum, getInt(root, keyOf("min_iterations"), "", rep));
        LB_TRY(maximum, getInt(root, keyOf("max_iterations"), "", rep));
        if (maximum < minimum)
            return badInput(rep.at(*(root.get("max_iterations") ? root.get("max_iterations")
                                                                : root.get("min_iterations")),
                                   "max_iterations",
                                   std::to_string(maximum) + " is below min_iterations (" +
                                       std::to_string(minimum) + ")"));
        s.iterations = static_cast<int>(minimum);
        s.maxIterations = static_cast<int>(maximum);
        LB_TRY(until, getString(root, keyOf("until"), "", rep));
        if (!until.empty()) {
            // "cv<3%": the Phoronix Test Suite's rule, the spread of each layout's own runs.
            double cv = 0;
            char percent = 0;
            int used = 0;
            if (std::sscanf(until.c_str(), "cv<%lf%c%n", &cv, &percent, &used) != 2 ||
                percent != '%' || static_cast<std::size_t>(used) != until.size() || !(cv > 0) ||
                cv >= 100)
                return badInput(rep.at(root, "until", "until",
                                       "expected \"cv<N%\" with 0 < N < 100, e.g. \"cv<3%\""));
            s.untilCv = cv / 100.0;
        }
    }
    if (root.get("bracket")) {
        LB_TRY(bracket, getBool(root, keyOf("bracket"), "", rep));
        s.bracket = bracket;
    }
    if (root.get("interleave")) {
        LB_TRY(interleave, getBool(root, keyOf("interleave"), "", rep));
        s.interleave = interleave;
    }
    return {};
}

// [decide] metrics = ["bonnie.put_block", "fio.*.read.bw"]: the metrics that decide a layout's
// verdict. Each glob must name a known family and match a metric the workloads can produce.
Expected<void> parseDecide(const toml::table& root, Scenario& s, const Reporter& rep,
                           const ProbeRegistry& probes) {
    const toml::node* node = root.get("decide");
    if (!node)
        return {};
    const auto* t = node->as_table();
    if (!t)
        return badInput(rep.at(*node, "decide", "expected a [decide] table"));
    if (auto r = rejectUnknown(*t, ScenarioTable::Decide, "decide.", rep); !r)
        return r;
    const auto* list = t->get_as<toml::array>("metrics");
    if (!list || list->empty())
        return badInput(rep.at(t->get("metrics") ? *t->get("metrics") : *node, "decide.metrics",
                               "expected a non-empty list of metric names or patterns"));
    std::vector<std::string> produced;
    bool allKnown = true;
    for (const auto& w : s.workloads) {
        auto names = probes.find(w.probe)->metricNames(w.name, w.options);
        allKnown = allKnown && !names.empty();
        produced.insert(produced.end(), names.begin(), names.end());
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        const toml::node& item = *list->get(i);
        const std::string field = "decide.metrics[" + std::to_string(i) + "]";
        const auto* glob = item.as_string();
        if (!glob)
            return badInput(rep.at(item, field, "expected a string"));
        if (auto bad = checkDecideGlob(glob->get()))
            return badInput(rep.at(item, field, *bad));
        const bool matches =
            std::any_of(produced.begin(), produced.end(),
                        [&](const std::string& n) { return metricMatches(glob->get(), n); });
        // A workload whose metric names are only known after it ran (a job file) may match.
        if (!matches && allKnown)
            return badInput(
                rep.at(item, field,
                       "'" + glob->get() + "' matches no metric of this scenario's workloads"));
        s.decide.push_back(glob->get());
    }
    return {};
}

} // namespace lb::scenario_parse
