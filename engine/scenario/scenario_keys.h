// The keys of a scenario's tables, as option tables (engine/measure/probe.h's OptionSpec): name,
// label, type, help, range, default and choices of every key. The scenario parser accepts exactly
// these keys and takes its defaults from here, and the GUI builds its forms from them, so a key
// added to a table is read, checked and shown without another list to keep in step.
#pragma once

#include "engine/capacity/layout.h"
#include "engine/measure/probe.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

enum class ScenarioTable {
    Top,         // the top-level table
    Host,        // [host]
    Thresholds,  // [thresholds]
    Decide,      // [decide]
    Disk,        // [[disks]]
    Layout,      // [[layouts]]
    Guest,       // [layouts.guest]
    Export,      // [layouts.export]: address and the servers
    ExportIscsi, // [layouts.export]: the keys only an iSCSI export takes
    ExportNfs,   // [layouts.export]: the keys only an NFS export takes
    Workload,    // [[workloads]]: the keys every workload has (the probe's options come on top)
    Client,      // [[clients]]
    Drill,       // [[drills]]
};

// The keys of a table, in the order a form shows them. A key whose default depends on the rest
// of the scenario (a pool named after its layout) has no defaultValue; its help says what it is.
const std::vector<OptionSpec>& scenarioKeys(ScenarioTable table);
// The keys of a table that hold tables of their own ([host], [[layouts]], [layouts.guest], ...).
const std::vector<std::string>& scenarioSubtables(ScenarioTable table);
// Every key the parser accepts in the table: its keys and subtables. [layouts.export] accepts
// the keys of Export, ExportIscsi and ExportNfs.
std::set<std::string> acceptedKeys(ScenarioTable table);
// The entry of `name` in the table; asserts that there is one (the parser reads no other key).
const OptionSpec& scenarioKey(ScenarioTable table, std::string_view name);
// True when the table has the key.
bool hasScenarioKey(ScenarioTable table, std::string_view name);

// The [[layouts]] keys that apply to a layout of `kind`, in table order: zfs keys for pools (and
// for guests, which may build one inside), md keys for md arrays (and for the layouts built on an
// inner one), a path for dir only, disks for all but dir.
std::vector<OptionSpec> layoutKeys(LayoutKind kind);
// The [[drills]] keys only a fail-rebuild drill takes: disk, fail, fill, phase_seconds,
// sync_speed_min.
bool isFailRebuildKey(std::string_view key);
// The [[drills]] keys that apply to a drill whose action is `action` ("fail-rebuild", "md-grow",
// as written), in table order: a fail-rebuild drill's own keys for it alone, read_load (the
// growing drills' reader) for the others; layout and action alone while the action is none of
// the drills'.
std::vector<OptionSpec> drillKeys(std::string_view action);
// [layouts.export]: Export's keys, then ExportIscsi's, then ExportNfs's.
std::vector<OptionSpec> exportKeys();
// The keys of a [[workloads]] table of `probe`: Workload's keys (`probe` offering the registry's
// probes) followed by the probe's own options. `probe` may be null: the common keys only.
std::vector<OptionSpec> workloadKeys(const ProbeRegistry& probes, const Probe* probe);

// A default as the parser applies it: the table's text as a number, a size, a flag or a list
// ("a, b" is two strings). Asserts that the text reads as the spec's type.
std::int64_t defaultInteger(const OptionSpec& spec);
double defaultNumber(const OptionSpec& spec);
bool defaultFlag(const OptionSpec& spec);
std::vector<std::string> defaultList(const OptionSpec& spec);
// A comma-separated list as a form writes it: "a, b" -> {"a", "b"}, blanks dropped.
std::vector<std::string> splitList(std::string_view text);

} // namespace lb
