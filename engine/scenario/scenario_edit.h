// Editing a scenario's text one key at a time, as a form does: the text is read with toml++ to
// find where a table and its keys are, and only those lines change, so comments, the order of the
// keys and every other value stay as written. Values travel as form text, the way a person types
// them into a field ("64MiB", "true", "a, b" for a list); the key's OptionSpec (scenario_keys.h,
// or a probe's options) says how each is written in TOML.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/probe.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lb {

// A table of a scenario: the top-level table (array and sub empty), a top-level [sub], the
// index-th [[array]] table, or that table's [array.sub].
struct TablePath {
    std::string array;
    std::size_t index = 0;
    std::string sub;
    bool operator==(const TablePath&) const = default;
};

// One table's keys as form text; the tables inside it (a layout's guest and export) apart.
struct TableValues {
    std::map<std::string, std::string> values;
    std::map<std::string, std::map<std::string, std::string>> subtables;
    bool operator==(const TableValues&) const = default;
};

// The tables of [[array]], in order (none when the text has no such array). Bad input naming the
// line when the text is not TOML.
Expected<std::vector<TableValues>> readScenarioArray(std::string_view text, std::string_view array);

// `formText` as a TOML value of the key's type: "true", 12, 1.5, "64MiB" (a size with a unit is
// a string, bare digits a number), ["a", "b"], [3, 4]. Bad input naming the key when the text does
// not read as that type.
Expected<std::string> tomlValue(const OptionSpec& key, std::string_view formText);

// A TOML basic string: quoted, with backslash, quote and control characters escaped.
std::string tomlString(std::string_view text);
// A TOML float that reads back the same: "1.1", "2.0".
std::string tomlNumber(double value);

// The text with `key = tomlValue` set in the table at `at`: the value replaced where the key is
// written, else the key added after the table's last key, and the table ([array.sub]) added at the
// end of its parent when it is missing. nullopt removes the key's line(s). Bad input when the text
// is not TOML, the table does not exist, or is written inline (edit that in the text).
Expected<std::string> setScenarioValue(std::string_view text, const TablePath& at,
                                       std::string_view key,
                                       const std::optional<std::string>& tomlValue);

// The text with a new [[array]] table at its end, holding `keys` (name, TOML value) in order.
Expected<std::string>
appendScenarioTable(std::string_view text, std::string_view array,
                    const std::vector<std::pair<std::string, std::string>>& keys);

// The text without the index-th [[array]] table: from its header to its last line (its subtables
// included).
Expected<std::string> removeScenarioTable(std::string_view text, std::string_view array,
                                          std::size_t index);

} // namespace lb
