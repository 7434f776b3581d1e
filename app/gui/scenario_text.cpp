// Scenario text helpers for the Scenario tab (see scenario_text.h).
#include "app/gui/scenario_text.h"

#include "app/gui/gui_types.h"
#include "engine/build/layout_spec.h"
#include "engine/scenario/scenario_edit.h"

#include <QRegularExpression>

namespace lb::gui {

QString ScenarioProblem::display() const {
    if (line > 0)
        return QObject::tr("line %1: %2").arg(line).arg(message);
    return message;
}

ScenarioProblem locateProblem(const std::string& message, const std::string& path) {
    ScenarioProblem p;
    QString rest = qs(message);
    const QString prefix = qs(path.empty() ? std::string("<scenario>") : path) + QLatin1Char(':');
    if (rest.startsWith(prefix))
        rest = rest.mid(prefix.size());
    static const QRegularExpression position(QStringLiteral("^(\\d+):(?:(\\d+):)?\\s*"));
    if (const auto m = position.match(rest); m.hasMatch()) {
        p.line = m.captured(1).toInt();
        p.column = m.captured(2).isEmpty() ? 0 : m.captured(2).toInt();
        rest = rest.mid(m.capturedLength());
    }
    p.message = rest.trimmed();
    return p;
}

ScenarioCheck checkScenario(const QString& text, const QString& path, const ProbeRegistry& probes) {
    ScenarioCheck check;
    const std::string p = ss(path);
    auto parsed = parseScenario(ss(text), p, probes);
    if (parsed)
        check.scenario = std::move(*parsed);
    else
        check.problem = locateProblem(parsed.error().message, p);
    return check;
}

std::vector<LayoutCapacity> layoutCapacities(const Scenario& scenario) {
    std::vector<LayoutCapacity> out;
    for (const auto& l : scenario.layouts) {
        LayoutCapacity row;
        row.name = qs(l.name);
        row.kind = qs(layoutKindName(l.kind));
        row.baseline = l.baseline;
        row.disks = static_cast<int>(l.disks.size());
        // A guest is modelled as its pool on the inner layout's one device (layout_spec).
        if (l.kind == LayoutKind::Dir) {
            row.note = QObject::tr("no capacity model for %1 layouts").arg(row.kind);
            out.push_back(std::move(row));
            continue;
        }
        for (const auto& name : l.disks) {
            const ScenarioDisk* d = scenario.disk(name);
            if (!d || d->sizeBytes == 0) {
                row.note = QObject::tr("disk '%1' has no size in the scenario").arg(qs(name));
                break;
            }
        }
        if (row.note.isEmpty()) {
            // The layout as the store records it, so the GUI models it as `report` does.
            const auto in = capacityInputFromSpec(layoutSpecJson(scenario, l, {}),
                                                  std::string(layoutKindName(l.kind)));
            auto cap =
                in ? computeCapacity(*in) : Expected<Capacity>(badInput("no capacity model"));
            if (cap)
                row.capacity = *cap;
            else
                row.note = qs(cap.error().message);
        }
        out.push_back(std::move(row));
    }
    return out;
}

QString tomlString(const QString& value) {
    return qs(lb::tomlString(ss(value)));
}

QString tomlFloat(double value) {
    return qs(lb::tomlNumber(value));
}

} // namespace lb::gui
