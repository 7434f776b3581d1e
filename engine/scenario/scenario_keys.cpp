// The option tables of a scenario's TOML tables (engine/scenario/scenario_keys.h): the top level,
// [host], [thresholds], [decide], [[disks]], [[workloads]], [[clients]] and [[drills]], and the
// look-ups over every table and the defaults as the parser applies them. The tables of a layout
// are in scenario_keys_layouts.cpp.
#include "engine/scenario/scenario_keys.h"

#include "engine/base/size.h"
#include "engine/scenario/scenario.h"
#include "engine/scenario/scenario_internal.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cstdlib>

namespace lb {

namespace {

using T = OptionType;
using scenario_keys::choicesOf;

const std::vector<OptionSpec> topKeys{
    {.name = "name",
     .label = "Name",
     .help = "The scenario's name: letters, digits, '-', '_' and '.'",
     .required = true},
    {.name = "description", .label = "Description", .help = "What the scenario compares"},
    {.name = "iterations",
     .label = "Iterations",
     .type = T::Int,
     .help = "Runs of each workload on each layout; or \"auto\" with min_iterations and "
             "max_iterations, written in the text",
     .min = 1,
     .max = 1000,
     .defaultValue = "3"},
    {.name = "min_iterations",
     .label = "Minimum iterations",
     .type = T::Int,
     .help = "iterations = \"auto\": runs before the first check",
     .min = 1,
     .max = 1000,
     .defaultValue = "3"},
    {.name = "max_iterations",
     .label = "Maximum iterations",
     .type = T::Int,
     .help = "iterations = \"auto\": at most this many runs",
     .min = 1,
     .max = 1000,
     .defaultValue = "10"},
    {.name = "until",
     .label = "Until",
     .help = "iterations = \"auto\": also run while a layout's runs spread more, e.g. \"cv<3%\""},
    {.name = "bracket",
     .label = "Bracket",
     .type = T::Bool,
     .help = "Run the baseline again after the candidates to measure drift; unset: where it "
             "destroys nothing"},
    {.name = "interleave",
     .label = "Interleave",
     .type = T::Bool,
     .help = "Run the layouts' iterations in turn where they can coexist; unset: the campaign "
             "decides"},
    {.name = "work_dir",
     .label = "Work directory",
     .type = T::Path,
     .help = "Where file vdevs and scratch files go; default /var/tmp/layoutbench/NAME"},
    {.name = "drop_caches",
     .label = "Drop caches",
     .type = T::Bool,
     .help = "Drop the page cache before each run",
     .defaultValue = "true"},
    {.name = "cache",
     .label = "Cache",
     .type = T::Choice,
     .help = "cold: every run starts from disk; warm: neither the page cache nor the ARC is "
             "emptied, and the report says so",
     .defaultValue = "cold",
     .choices = {"cold", "warm"}},
    {.name = "io",
     .label = "I/O path",
     .type = T::Choice,
     .help = "auto: direct I/O where every layout takes O_DIRECT, else buffered on all",
     .defaultValue = "auto",
     .choices = {"auto", "direct", "buffered"}},
    {.name = "data_compressibility",
     .label = "Data compressibility",
     .type = T::Number,
     .help = "How much the users' own data compresses (0.5: to half), when the workloads write "
             "data like it: a compressing layout is then compared with others on it; unset, "
             "not on compressible data"},
    {.name = "fill",
     .label = "Fill levels",
     .type = T::List,
     .help = "Shares of each layout's usable space its workloads run at, filled and aged lowest "
             "first, e.g. 0.0, 0.5, 0.8 (at most 0.95); unset: as built"},
    {.name = "fill_seed",
     .label = "Fill seed",
     .type = T::Int,
     .help = "Fixes the ageing's file sizes, deletions and rewrites, so a campaign repeats",
     .min = 0,
     .max = 2147483647,
     .defaultValue = "1"},
};

const std::vector<OptionSpec> hostKeys{
    {.name = "target",
     .label = "Target",
     .help = "\"local\" or ssh://[user@]host[:port]",
     .defaultValue = "local"},
    {.name = "identity", .label = "SSH key", .type = T::Path, .help = "The ssh key file"},
    {.name = "known_hosts",
     .label = "Known hosts",
     .type = T::Path,
     .help = "An ssh known_hosts file; default the user's own"},
    {.name = "os",
     .label = "Operating system",
     .type = T::Choice,
     .help = "What the target runs; auto: a campaign asks it (uname -s), plan assumes linux",
     .defaultValue = "auto",
     .choices = {"auto", "linux", "freebsd"}},
};

const std::vector<OptionSpec> thresholdKeys{
    {.name = "viable",
     .label = "Viable up to ×",
     .type = T::Number,
     .help = "A cost ratio at or below this is viable",
     .defaultValue = "1.10"},
    {.name = "not_viable",
     .label = "Not viable from ×",
     .type = T::Number,
     .help = "A cost ratio at or above this is not viable",
     .defaultValue = "2.0"},
};

const std::vector<OptionSpec> decideKeys{
    {.name = "metrics",
     .label = "Deciding metrics",
     .type = T::List,
     .help = "Metric names or patterns that decide a layout's verdict, e.g. fio.*.read.bw",
     .required = true},
};

const std::vector<OptionSpec> diskKeys{
    {.name = "name",
     .label = "Name",
     .help = "How layouts name the disk: letters, digits, '-', '_' and '.'",
     .required = true},
    {.name = "device",
     .label = "Device",
     .type = T::Path,
     .help = "A block device under /dev/ (give a device or a file)"},
    {.name = "file",
     .label = "File",
     .type = T::Path,
     .help = "A sparse file of the given size, relative to the work directory"},
    {.name = "size",
     .label = "Size",
     .type = T::Size,
     .help = "A file disk's size, e.g. \"512MiB\" (500G = 500·10⁹ bytes)"},
    {.name = "wipe",
     .label = "Wipe",
     .type = T::Bool,
     .help = "The device may carry a label, partition table or file system to destroy",
     .defaultValue = "false"},
};

const std::vector<OptionSpec> workloadCommonKeys{
    {.name = "probe",
     .label = "Probe",
     .type = T::Choice,
     .help = "The tool that runs the workload",
     .required = true},
    {.name = "name",
     .label = "Name",
     .help = "Unique; default PROBE or PROBE:PRESET (PROBE:JOB for a job file)"},
    {.name = "timeout",
     .label = "Timeout (s)",
     .type = T::Int,
     .help = "A run that takes longer is stopped",
     .min = 1,
     .max = 7 * 24 * 3600,
     .defaultValue = "3600"},
    {.name = "clients",
     .label = "Clients",
     .type = T::List,
     .help = "[[clients]] names it runs on, or all; none: the layout's host"},
    {.name = "precondition",
     .label = "Precondition",
     .type = T::Choice,
     .help = "snia: SSD preconditioning, then steady-state rounds (fio presets)",
     .defaultValue = "none",
     .choices = {"none", "snia"}},
    {.name = "steady_rounds",
     .label = "Steady-state rounds",
     .type = T::Int,
     .help = "At most this many rounds",
     .min = 1,
     .max = 1000,
     .defaultValue = "25"},
    {.name = "steady_round_seconds",
     .label = "Round (s)",
     .type = T::Int,
     .help = "Seconds per steady-state round",
     .min = 1,
     .max = 3600,
     .defaultValue = "60"},
    {.name = "precondition_size",
     .label = "Precondition size",
     .type = T::Size,
     .help = "What to write, twice; default 90 % of the space free",
     .min = 128 * 1024},
};

const std::vector<OptionSpec> clientKeys{
    {.name = "name",
     .label = "Name",
     .help = "How workloads name the client (not 'all')",
     .required = true},
    {.name = "target",
     .label = "Target",
     .help = "\"local\" or ssh://[user@]host[:port]",
     .defaultValue = "local"},
    {.name = "identity", .label = "SSH key", .type = T::Path, .help = "The ssh key file"},
    {.name = "known_hosts", .label = "Known hosts", .type = T::Path, .help = "A known_hosts file"},
    {.name = "address",
     .label = "Address",
     .help = "Where the workbench reaches it; default the target's host"},
    {.name = "fio_port",
     .label = "fio port",
     .type = T::Int,
     .help = "Its fio --server port",
     .min = 1,
     .max = 65535,
     .defaultValue = "8765"},
    {.name = "work_dir",
     .label = "Work directory",
     .type = T::Path,
     .help = "An absolute path on the client, without spaces",
     .defaultValue = "/var/tmp/layoutbench-client"},
};

const std::vector<OptionSpec> drillTable{
    {.name = "layout",
     .label = "Layout",
     .help = "The [[layouts]] name it grows",
     .required = true},
    {.name = "action",
     .label = "Action",
     .type = T::Choice,
     .help = "How the layout grows",
     .choices = choicesOf<DrillAction>(),
     .required = true},
    {.name = "disks",
     .label = "Spare disks",
     .type = T::List,
     .help = "[[disks]] names not in the layout",
     .required = true},
    {.name = "disk", .label = "Disk to fail", .help = "fail-rebuild: the layout's member it fails"},
    {.name = "fail",
     .label = "Failure",
     .type = T::Choice,
     .help = "fail-rebuild: how the member fails (admin: mdadm --fail, zpool offline; pull: "
             "pull_command pulls it and the drill waits until md or ZFS sees it failed; error: "
             "the member, a /dev/mapper device, gets device-mapper's error target under the load "
             "and its table back after the rebuild)",
     .defaultValue = "admin",
     .choices = choicesOf<DrillFailure>()},
    {.name = "pull_command",
     .label = "Pull command",
     .type = T::List,
     .help = "fail = \"pull\": the program and its arguments that pull the disk, run on this "
             "machine (not the target), with LAYOUTBENCH_PULL_DISK and LAYOUTBENCH_PULL_DEVICE "
             "set to the disk's name and device"},
    {.name = "pull_wait",
     .label = "Pull wait (s)",
     .type = T::Int,
     .help = "fail = \"pull\" or \"error\": how long md or ZFS has to report the member "
             "failed",
     .min = 1,
     .max = 86400,
     .defaultValue = "120"},
    {.name = "fill",
     .label = "Fill",
     .type = T::Number,
     .help = "fail-rebuild: share of the usable space filled with incompressible data first, "
             "in [0, 0.95] (ZFS resilvers what is allocated)",
     .defaultValue = "0.25"},
    {.name = "phase_seconds",
     .label = "Load phase (s)",
     .type = T::Int,
     .help = "fail-rebuild: seconds of the random read/write load healthy and degraded",
     .min = 1,
     .max = 3600,
     .defaultValue = "10"},
    {.name = "sync_speed_min",
     .label = "md rebuild floor (KiB/s)",
     .type = T::Int,
     .help = "fail-rebuild on md: the array's sync_speed_min while it rebuilds under the load "
             "(md slows a rebuild to it when the array serves I/O); 0: the system's",
     .min = 0,
     .max = 10000000,
     .defaultValue = "0"},
    {.name = "read_load",
     .label = "Read load",
     .type = T::Bool,
     .help = "Read while it grows",
     .defaultValue = "true"},
    {.name = "timeout",
     .label = "Timeout (s)",
     .type = T::Int,
     .help = "The drill is stopped after this long",
     .min = 1,
     .max = 7 * 24 * 3600,
     .defaultValue = "86400"},
};

} // namespace

const std::vector<OptionSpec>& scenarioKeys(ScenarioTable table) {
    switch (table) {
    case ScenarioTable::Top:
        return topKeys;
    case ScenarioTable::Host:
        return hostKeys;
    case ScenarioTable::Thresholds:
        return thresholdKeys;
    case ScenarioTable::Decide:
        return decideKeys;
    case ScenarioTable::Disk:
        return diskKeys;
    case ScenarioTable::Layout:
        return scenario_keys::layoutKeyList();
    case ScenarioTable::Guest:
        return scenario_keys::guestKeys;
    case ScenarioTable::Export:
        return scenario_keys::exportCommonKeys;
    case ScenarioTable::ExportIscsi:
        return scenario_keys::exportIscsiKeys;
    case ScenarioTable::ExportNfs:
        return scenario_keys::exportNfsKeys;
    case ScenarioTable::Workload:
        return workloadCommonKeys;
    case ScenarioTable::Client:
        return clientKeys;
    case ScenarioTable::Drill:
        return drillTable;
    }
    assert(false);
    return topKeys;
}

bool isFailRebuildKey(std::string_view key) {
    for (const std::string_view own :
         {"disk", "fail", "fill", "phase_seconds", "sync_speed_min", "pull_command", "pull_wait"})
        if (key == own)
            return true;
    return false;
}

std::vector<OptionSpec> drillKeys(std::string_view action) {
    const auto& all = scenarioKeys(ScenarioTable::Drill);
    const auto& choices = scenarioKey(ScenarioTable::Drill, "action").choices;
    std::vector<OptionSpec> out;
    if (std::find(choices.begin(), choices.end(), action) == choices.end()) {
        for (const auto& spec : all)
            if (spec.name == "layout" || spec.name == "action")
                out.push_back(spec);
        return out;
    }
    const bool failRebuild = action == "fail-rebuild";
    for (const auto& spec : all)
        if (isFailRebuildKey(spec.name) ? failRebuild : spec.name != "read_load" || !failRebuild)
            out.push_back(spec);
    return out;
}

const std::vector<std::string>& scenarioSubtables(ScenarioTable table) {
    static const std::vector<std::string> none;
    static const std::vector<std::string> top{"host",    "thresholds", "decide", "disks",
                                              "layouts", "workloads",  "drills", "clients"};
    static const std::vector<std::string> layout{"guest", "export"};
    if (table == ScenarioTable::Top)
        return top;
    if (table == ScenarioTable::Layout)
        return layout;
    return none;
}

std::set<std::string> acceptedKeys(ScenarioTable table) {
    std::set<std::string> out;
    auto add = [&](ScenarioTable t) {
        for (const auto& spec : scenarioKeys(t))
            out.insert(spec.name);
        for (const auto& sub : scenarioSubtables(t))
            out.insert(sub);
    };
    add(table);
    if (table == ScenarioTable::Export) {
        add(ScenarioTable::ExportIscsi);
        add(ScenarioTable::ExportNfs);
    }
    return out;
}

bool hasScenarioKey(ScenarioTable table, std::string_view name) {
    const auto& keys = scenarioKeys(table);
    return std::any_of(keys.begin(), keys.end(),
                       [&](const OptionSpec& s) { return s.name == name; });
}

const OptionSpec& scenarioKey(ScenarioTable table, std::string_view name) {
    const auto& keys = scenarioKeys(table);
    const auto it =
        std::find_if(keys.begin(), keys.end(), [&](const OptionSpec& s) { return s.name == name; });
    assert(it != keys.end());
    return *it;
}

std::vector<OptionSpec> workloadKeys(const ProbeRegistry& probes, const Probe* probe) {
    std::vector<OptionSpec> out = workloadCommonKeys;
    out.front().choices = probes.names();
    if (probe)
        out.insert(out.end(), probe->options().begin(), probe->options().end());
    return out;
}

std::int64_t defaultInteger(const OptionSpec& spec) {
    if (spec.defaultValue.empty())
        return 0;
    if (spec.type == OptionType::Size) {
        auto bytes = parseSize(spec.defaultValue, SizeConvention::Binary);
        assert(bytes);
        return static_cast<std::int64_t>(*bytes);
    }
    std::int64_t value = 0;
    const auto* end = spec.defaultValue.data() + spec.defaultValue.size();
    [[maybe_unused]] const auto r = std::from_chars(spec.defaultValue.data(), end, value);
    assert(r.ec == std::errc{} && r.ptr == end);
    return value;
}

double defaultNumber(const OptionSpec& spec) {
    if (spec.defaultValue.empty())
        return 0;
    char* end = nullptr;
    const double value = std::strtod(spec.defaultValue.c_str(), &end);
    assert(end && *end == '\0');
    return value;
}

bool defaultFlag(const OptionSpec& spec) {
    assert(spec.defaultValue.empty() || spec.defaultValue == "true" ||
           spec.defaultValue == "false");
    return spec.defaultValue == "true";
}

std::vector<std::string> splitList(std::string_view text) {
    std::vector<std::string> out;
    while (!text.empty()) {
        const auto comma = text.find(',');
        std::string_view item = text.substr(0, comma);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t'))
            item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t'))
            item.remove_suffix(1);
        if (!item.empty())
            out.emplace_back(item);
        if (comma == std::string_view::npos)
            break;
        text.remove_prefix(comma + 1);
    }
    return out;
}

std::vector<std::string> defaultList(const OptionSpec& spec) {
    return splitList(spec.defaultValue);
}

} // namespace lb
