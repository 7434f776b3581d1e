// Scenario files (TOML): the host, its disks, the candidate layouts (one baseline), the workloads,
// iterations and thresholds. Loading validates everything up front: unknown keys, wrong types and
// out-of-range values are bad input naming FILE:LINE:COLUMN and the field.
#pragma once

#include "engine/analysis.h"
#include "engine/expected.h"
#include "engine/layout.h"
#include "engine/probe.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

struct ScenarioHost {
    std::string target = "local"; // "local" or "ssh://user@host[:port]"
    std::string identity;         // ssh key file
    std::string knownHosts;       // ssh known_hosts file; empty: the user's own
    bool operator==(const ScenarioHost&) const = default;
};

struct ScenarioDisk {
    std::string name;
    std::string device;          // a block device, or
    std::string file;            // a file (made sparse, of sizeBytes) for file-backed layouts
    std::uint64_t sizeBytes = 0; // files only
    bool wipe = false;
    int line = 0;
    bool operator==(const ScenarioDisk&) const = default;
};

struct ScenarioLayout {
    std::string name;
    LayoutKind kind = LayoutKind::Dir;
    bool baseline = false;
    std::vector<std::string> disks; // names of [[disks]]
    std::string path;               // dir: the directory to work in
    std::string pool;               // zfs: pool name (default lb-<name>)
    unsigned ashift = 12;
    std::uint64_t recordsizeBytes = 128 * 1024;
    std::string compression = "off";
    bool atime = false;
    double underprovision = 1.0;
    int line = 0;
    bool operator==(const ScenarioLayout&) const = default;
};

struct ScenarioWorkload {
    std::string name; // unique; default "<probe>" or "<probe>:<preset>"
    std::string probe;
    OptionValues options;
    int timeoutSeconds = 3600;
    int line = 0;
    bool operator==(const ScenarioWorkload&) const = default;
};

struct Scenario {
    std::string name;
    std::string description;
    std::string path;    // the file it came from ("" for text)
    std::string text;    // the whole file, stored with the campaign
    std::string workDir; // where file vdevs and scratch files go
    int iterations = 3;
    bool dropCaches = true;
    Thresholds thresholds;
    ScenarioHost host;
    std::vector<ScenarioDisk> disks;
    std::vector<ScenarioLayout> layouts;
    std::vector<ScenarioWorkload> workloads;

    const ScenarioLayout& baseline() const; // exactly one is marked
    const ScenarioDisk* disk(std::string_view diskName) const;
};

// `path` names the file in messages and anchors relative paths (work_dir, job files, disks).
Expected<Scenario> parseScenario(std::string_view text, const std::string& path,
                                 const ProbeRegistry& probes);
Expected<Scenario> loadScenario(const std::string& path, const ProbeRegistry& probes);

} // namespace lb
