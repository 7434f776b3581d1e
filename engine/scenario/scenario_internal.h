// Shared by the scenario loader's modules only: scenario.cpp (the top level), scenario_fields.cpp
// (typed fields of a TOML table, with FILE:LINE:COLUMN in every message), scenario_layouts.cpp
// (disks, layouts, guests, drills), scenario_exports.cpp (exports, clients, secrets) and
// scenario_checks.cpp (what holds across tables: names, disks, baselines, drills, repetition,
// [decide]); and by the option tables, scenario_keys.cpp and scenario_keys_layouts.cpp.
#pragma once

#include "engine/base/size.h"
#include "engine/scenario/scenario.h"
#include "engine/scenario/scenario_keys.h"

#include <set>
#include <string>
#include <toml++/toml.h>
#include <vector>

namespace lb::scenario_parse {

// Builds "FILE:LINE:COL: field: message" for the node a problem is at.
class Reporter {
public:
    explicit Reporter(std::string path) : path_(std::move(path)) {}
    std::string at(const toml::node& node, const std::string& field, const std::string& msg) const {
        const auto& src = node.source();
        return path_ + ":" + std::to_string(src.begin.line) + ":" +
               std::to_string(src.begin.column) + ": " + field + ": " + msg;
    }
    std::string at(const toml::source_region& src, const std::string& field,
                   const std::string& msg) const {
        return path_ + ":" + std::to_string(src.begin.line) + ":" +
               std::to_string(src.begin.column) + ": " + field + ": " + msg;
    }
    // At a key of a table, or at the table itself where the key is absent (the value checked was
    // a default, e.g. a workload's name made from its probe and job file).
    std::string at(const toml::table& table, std::string_view key, const std::string& field,
                   const std::string& msg) const {
        const toml::node* node = table.get(key);
        return at(node != nullptr ? *node : static_cast<const toml::node&>(table), field, msg);
    }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

Expected<void> rejectUnknown(const toml::table& table, const std::set<std::string>& allowed,
                             const std::string& where, const Reporter& rep);
Expected<std::string> getString(const toml::table& t, const char* key, const std::string& where,
                                const Reporter& rep, bool required, std::string fallback = {});
Expected<bool> getBool(const toml::table& t, const char* key, const std::string& where,
                       const Reporter& rep, bool fallback);
Expected<std::int64_t> getInt(const toml::table& t, const char* key, const std::string& where,
                              const Reporter& rep, std::int64_t fallback, std::int64_t min,
                              std::int64_t max);
Expected<double> getDouble(const toml::table& t, const char* key, const std::string& where,
                           const Reporter& rep, double fallback);
Expected<std::uint64_t> getSize(const toml::table& t, const char* key, const std::string& where,
                                const Reporter& rep, std::uint64_t fallback,
                                SizeConvention convention = SizeConvention::Decimal);
// A string that must be one of a few words.
Expected<std::string> getChoice(const toml::table& t, const char* key, const std::string& where,
                                const Reporter& rep, const std::vector<std::string>& allowed,
                                std::string fallback);
// The same for a key of a scenario table (scenario_keys.h): its name, whether it is required,
// its range, choices and default come from the table.
Expected<std::string> getString(const toml::table& t, const OptionSpec& key,
                                const std::string& where, const Reporter& rep);
Expected<bool> getBool(const toml::table& t, const OptionSpec& key, const std::string& where,
                       const Reporter& rep);
Expected<std::int64_t> getInt(const toml::table& t, const OptionSpec& key, const std::string& where,
                              const Reporter& rep);
Expected<double> getDouble(const toml::table& t, const OptionSpec& key, const std::string& where,
                           const Reporter& rep);
Expected<std::uint64_t> getSize(const toml::table& t, const OptionSpec& key,
                                const std::string& where, const Reporter& rep,
                                SizeConvention convention = SizeConvention::Decimal);
Expected<std::string> getChoice(const toml::table& t, const OptionSpec& key,
                                const std::string& where, const Reporter& rep);
Expected<std::vector<std::string>> getStringList(const toml::table& t, const OptionSpec& key,
                                                 const std::string& where, const Reporter& rep);
// Refuses a key the table does not accept (acceptedKeys).
Expected<void> rejectUnknown(const toml::table& table, ScenarioTable keys, const std::string& where,
                             const Reporter& rep);
// precondition_size: at least one 128 KiB block of fio's sequential writes; none when absent.
Expected<std::optional<std::uint64_t>>
getPreconditionSize(const toml::table& t, const std::string& where, const Reporter& rep);
// fill = [0.0, 0.5, 0.8] (scenario_fill.cpp): shares of the usable space in [0, 0.95], each
// once, ascending; numbers, or strings as a form writes them ("0.5", "50%"). None when absent.
Expected<std::optional<std::vector<double>>>
getFillLevels(const toml::table& t, const std::string& where, const Reporter& rep);
// A list of strings (a single string counts as a list of one).
Expected<std::vector<std::string>> getStringList(const toml::table& t, const char* key,
                                                 const std::string& where, const Reporter& rep,
                                                 std::vector<std::string> fallback);

// A word of a closed set (an enum's name table); none when the key is absent.
template <typename E>
Expected<std::optional<E>> getEnum(const toml::table& t, const char* key, const std::string& where,
                                   const Reporter& rep) {
    const toml::node* node = t.get(key);
    if (!node)
        return std::optional<E>{};
    LB_TRY(value, getString(t, key, where, rep, true));
    if (const auto e = enumFromName<E>(value))
        return std::optional<E>{*e};
    return badInput(
        rep.at(*node, where + key, "'" + value + "' is not one of " + enumNameList<E>()));
}

// Paths in a scenario: "~/" is the user's home, absolute paths stay, the rest are relative to
// `base` (the scenario's directory, or its work_dir for disks and dir layouts).
std::string resolve(const std::string& base, const std::string& p);
// A name of a disk, layout or scenario: letters, digits, '-', '_' and '.'.
bool validName(const std::string& s);
bool hasSpace(const std::string& s);
// The host part of ssh://[user@]host[:port], or 127.0.0.1 for "local".
std::string hostOfTarget(const std::string& target);
bool isLoopback(const std::string& address);

template <typename T, typename F>
Expected<std::vector<T>> parseArray(const toml::table& root, const char* key, const Reporter& rep,
                                    F&& parseOne) {
    std::vector<T> out;
    const toml::node* node = root.get(key);
    if (!node)
        return out;
    const auto* arr = node->as_array();
    if (!arr)
        return badInput(rep.at(*node, key, "expected [[" + std::string(key) + "]] tables"));
    std::size_t index = 0;
    for (const auto& item : *arr) {
        const auto* table = item.as_table();
        const std::string where = std::string(key) + "[" + std::to_string(index++) + "].";
        if (!table)
            return badInput(rep.at(item, where, "expected a table"));
        auto parsed = parseOne(*table, where);
        if (!parsed)
            return fail(parsed.error());
        out.push_back(std::move(*parsed));
    }
    return out;
}

// scenario_layouts.cpp
Expected<ScenarioDisk> parseDisk(const toml::table& t, const std::string& where,
                                 const std::string& baseDir, const Reporter& rep);
Expected<ScenarioLayout> parseLayout(const toml::table& t, const std::string& where,
                                     const std::string& baseDir, const Reporter& rep);
Expected<ScenarioDrill> parseDrill(const toml::table& t, const std::string& where,
                                   const Reporter& rep);

// scenario_exports.cpp
Expected<ScenarioExport> parseExport(const toml::table& t, const std::string& where,
                                     const std::string& baseDir, const Reporter& rep,
                                     const ScenarioLayout& layout);
Expected<ScenarioClient> parseClient(const toml::table& t, const std::string& where,
                                     const std::string& baseDir, const Reporter& rep);
// The text with every CHAP secret written as "****": what is stored with a campaign.
std::string maskSecrets(std::string_view text, const toml::table& root);
// Cross-checks of exports, clients and the workloads that use them. Fills in the defaults that
// depend on the rest of the scenario (export addresses, "all" clients).
Expected<void> checkExportsAndClients(Scenario& s, const Reporter& rep,
                                      const ProbeRegistry& probes);

// scenario_checks.cpp
Expected<void> checkScenario(const Scenario& s, const toml::table& root, const Reporter& rep);
Expected<void> parseRepetition(const toml::table& root, Scenario& s, const Reporter& rep);
Expected<void> parseDecide(const toml::table& root, Scenario& s, const Reporter& rep,
                           const ProbeRegistry& probes);

} // namespace lb::scenario_parse

namespace lb::scenario_keys {

// The names of a closed set, in its name table's order: a Choice key's choices.
template <typename E> std::vector<std::string> choicesOf() {
    std::vector<std::string> out;
    for (const auto& [value, name] : EnumNames<E>::table)
        out.emplace_back(name);
    return out;
}

// scenario_keys_layouts.cpp: the tables of a layout, which scenarioKeys returns.
const std::vector<OptionSpec>& layoutKeyList(); // every [[layouts]] key
extern const std::vector<OptionSpec> guestKeys;
extern const std::vector<OptionSpec> exportCommonKeys;
extern const std::vector<OptionSpec> exportIscsiKeys;
extern const std::vector<OptionSpec> exportNfsKeys;

} // namespace lb::scenario_keys
