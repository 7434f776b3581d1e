// What the Scenario tab knows about scenario text, as functions of values: validating it with the
// engine's parser and locating the problem ("line N: field: message"), the capacity of each layout
// whose disks have sizes, and TOML values for the common top-level fields of the form (the raw
// text stays the source of truth; engine/scenario/scenario_edit.h edits it).
#pragma once

#include "engine/capacity/capacity.h"
#include "engine/scenario/scenario.h"

#include <QString>
#include <optional>
#include <vector>

namespace lb::gui {

// Where the engine says a scenario is wrong. line/column are 1-based; 0 when the message has none.
struct ScenarioProblem {
    int line = 0;
    int column = 0;
    QString message; // "field: what is wrong", without the file and position
    // "line 7: iterations: expected a whole number"
    QString display() const;
};

// Splits an engine message "FILE:LINE:COL: field: message" (also "FILE:LINE: ..." and "FILE: ...")
// into its parts; `path` is the path given to parseScenario ("" names "<scenario>").
ScenarioProblem locateProblem(const std::string& message, const std::string& path);

struct ScenarioCheck {
    std::optional<Scenario> scenario; // when valid
    ScenarioProblem problem;          // when not
    bool ok() const { return scenario.has_value(); }
};
ScenarioCheck checkScenario(const QString& text, const QString& path, const ProbeRegistry& probes);

// One layout of a scenario with its capacity, when the capacity model applies and every disk has
// a size (file disks); otherwise `note` says why there is none.
struct LayoutCapacity {
    QString name;
    QString kind;
    bool baseline = false;
    int disks = 0;
    std::optional<Capacity> capacity;
    QString note;
};
std::vector<LayoutCapacity> layoutCapacities(const Scenario& scenario);

// A TOML basic string: quoted, with backslash, quote and control characters escaped.
QString tomlString(const QString& value);
// A TOML float that reads back the same: "1.1", "2.0".
QString tomlFloat(double value);

} // namespace lb::gui
