// Scenario text helpers for the Scenario tab (see scenario_text.h).
#include "app/gui/scenario_text.h"

#include "app/gui/gui_types.h"

#include <QRegularExpression>
#include <QStringList>
#include <cmath>

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
        if (l.kind == LayoutKind::Dir || l.kind == LayoutKind::Guest) {
            row.note = QObject::tr("no capacity model for %1 layouts").arg(row.kind);
            out.push_back(std::move(row));
            continue;
        }
        CapacityInput in;
        in.kind = l.kind;
        in.recordsizeBytes = l.recordsizeBytes;
        in.ashift = l.ashift;
        in.underprovision = l.underprovision;
        for (const auto& name : l.disks) {
            const ScenarioDisk* d = scenario.disk(name);
            if (!d || d->sizeBytes == 0) {
                row.note = QObject::tr("disk '%1' has no size in the scenario").arg(qs(name));
                break;
            }
            in.diskBytes.push_back(d->sizeBytes);
        }
        if (row.note.isEmpty()) {
            auto cap = computeCapacity(in);
            if (cap)
                row.capacity = *cap;
            else
                row.note = qs(cap.error().message);
        }
        out.push_back(std::move(row));
    }
    return out;
}

namespace {

// "[name]" -> "name", "[[name]]" -> "[name]" (an array of tables), else "" with ok=false.
bool tableHeader(const QString& line, QString* name) {
    const QString t = line.trimmed();
    if (!t.startsWith(QLatin1Char('[')))
        return false;
    static const QRegularExpression header(QStringLiteral("^\\[(\\[?)\\s*([^\\]]*?)\\s*\\]\\]?"));
    const auto m = header.match(t);
    if (!m.hasMatch())
        return false;
    *name = m.captured(1).isEmpty() ? m.captured(2) : QLatin1Char('[') + m.captured(2);
    return true;
}

} // namespace

std::optional<QString> setScenarioKey(const QString& text, const QString& table, const QString& key,
                                      const QString& tomlValue) {
    QStringList lines = text.split(QLatin1Char('\n'));
    const QRegularExpression keyLine(QStringLiteral("^\\s*") + QRegularExpression::escape(key) +
                                     QStringLiteral("\\s*="));
    // The lines of the table: [begin, end).
    qsizetype begin = -1, end = lines.size();
    if (table.isEmpty())
        begin = 0;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString name;
        if (!tableHeader(lines[i], &name))
            continue;
        if (begin >= 0) {
            end = i;
            break;
        }
        if (name == table)
            begin = i + 1;
    }
    const QString newLine = key + QStringLiteral(" = ") + tomlValue;
    if (begin < 0) {
        // No such table yet: add it at the end, where a table header is always allowed.
        while (!lines.isEmpty() && lines.last().trimmed().isEmpty())
            lines.removeLast();
        lines << QString() << QLatin1Char('[') + table + QLatin1Char(']') << newLine << QString();
        return lines.join(QLatin1Char('\n'));
    }
    qsizetype lastKey = -1;
    for (qsizetype i = begin; i < end; ++i) {
        const QString t = lines[i].trimmed();
        if (t.isEmpty() || t.startsWith(QLatin1Char('#')))
            continue;
        if (keyLine.match(lines[i]).hasMatch()) {
            if (lines[i].contains(QStringLiteral("\"\"\"")) ||
                lines[i].contains(QStringLiteral("'''")))
                return std::nullopt; // a multi-line string: edit it in the text
            lines[i] = newLine;
            return lines.join(QLatin1Char('\n'));
        }
        lastKey = i;
    }
    lines.insert(lastKey >= 0 ? lastKey + 1 : begin, newLine);
    return lines.join(QLatin1Char('\n'));
}

QString tomlString(const QString& value) {
    QString out = QStringLiteral("\"");
    for (const QChar c : value) {
        switch (c.unicode()) {
        case '\\':
            out += QStringLiteral("\\\\");
            break;
        case '"':
            out += QStringLiteral("\\\"");
            break;
        case '\n':
            out += QStringLiteral("\\n");
            break;
        case '\t':
            out += QStringLiteral("\\t");
            break;
        case '\r':
            out += QStringLiteral("\\r");
            break;
        default:
            if (c.unicode() < 0x20 || c.unicode() == 0x7f)
                out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
            else
                out += c;
        }
    }
    return out + QLatin1Char('"');
}

QString tomlFloat(double value) {
    QString s = QString::number(value, 'g', 15);
    if (!s.contains(QLatin1Char('.')) && !s.contains(QLatin1Char('e')) && std::isfinite(value))
        s += QStringLiteral(".0");
    return s;
}

} // namespace lb::gui
