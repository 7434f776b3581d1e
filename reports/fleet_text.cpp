#include "reports/fleet_text.h"

#include "engine/base/joined.h"
#include "reports/display.h"

#include <sstream>

namespace lb {

namespace {

std::string intervalCell(const FleetHostFigure& h, Unit unit) {
    if (!h.interval)
        return "—";
    return display::value(h.interval->low, unit) + " – " + display::value(h.interval->high, unit);
}

std::string standingCell(const FleetHostFigure& h) {
    if (!h.apart)
        return "";
    return h.intervalOutside ? "apart (interval outside the spread)" : "apart";
}

} // namespace

std::vector<std::vector<std::string>> fleetHostRows(const FleetMetric& m) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& h : m.hosts)
        rows.push_back({h.host, display::value(h.median, m.unit), intervalCell(h, m.unit),
                        std::to_string(h.runs), display::percent(h.deviation, 0), standingCell(h)});
    return rows;
}

const std::vector<std::string> fleetHostHeaders{"host", "median",   "95 % interval",
                                                "runs", "vs fleet", "stands"};

std::string fleetMetricTitle(const FleetMetric& m) {
    return m.name + " (" + std::string(m.better == Better::Higher ? "higher" : "lower") +
           " is better): fleet median " + display::value(m.fleetMedian, m.unit) + ", hosts " +
           display::value(m.spread.low, m.unit) + " to " + display::value(m.spread.high, m.unit);
}

nlohmann::json fleetJson(const std::vector<FleetAnalysis>& fleet) {
    auto out = nlohmann::json::array();
    for (const auto& a : fleet) {
        nlohmann::json layout{{"layout", a.layout}, {"hosts", a.hosts}};
        auto standouts = nlohmann::json::array();
        for (const auto& s : a.standouts)
            standouts.push_back({{"host", s.host},
                                 {"metric", s.metric},
                                 {"deviation", s.deviation},
                                 {"worse", s.worse},
                                 {"interval_outside", s.intervalOutside},
                                 {"sentence", s.sentence}});
        layout["standouts"] = standouts;
        auto metrics = nlohmann::json::array();
        for (const auto& m : a.metrics) {
            auto hosts = nlohmann::json::array();
            for (const auto& h : m.hosts) {
                nlohmann::json j{{"host", h.host},
                                 {"runs", h.runs},
                                 {"median", h.median},
                                 {"deviation", h.deviation},
                                 {"score", h.score},
                                 {"apart", h.apart},
                                 {"interval_outside", h.intervalOutside}};
                j["interval"] = h.interval ? nlohmann::json{{"low", h.interval->low},
                                                            {"high", h.interval->high}}
                                           : nlohmann::json();
                hosts.push_back(std::move(j));
            }
            metrics.push_back({{"name", m.name},
                               {"unit", unitName(m.unit)},
                               {"better", m.better == Better::Higher ? "higher" : "lower"},
                               {"fleet_median", m.fleetMedian},
                               {"spread", {{"low", m.spread.low}, {"high", m.spread.high}}},
                               {"hosts", hosts}});
        }
        layout["metrics"] = metrics;
        out.push_back(std::move(layout));
    }
    return out;
}

std::string fleetText(const std::vector<FleetAnalysis>& fleet, std::size_t maxWidth) {
    std::ostringstream out;
    if (fleet.empty())
        out << "no layout holds runs of more than one machine\n";
    for (const auto& a : fleet) {
        out << "layout " << a.layout << ": " << a.hosts.size() << " hosts ("
            << joinedText(a.hosts, ", ") << ")\n";
        if (a.standouts.empty())
            out << "  no host stands apart\n";
        for (const auto& s : a.standouts)
            out << "  " << s.sentence << '\n';
        for (const auto& m : a.metrics) {
            out << '\n' << fleetMetricTitle(m) << '\n';
            display::Table table(fleetHostHeaders);
            for (auto& row : fleetHostRows(m))
                table.addRow(std::move(row));
            table.leaveOutFirst({"95 % interval", "runs"});
            out << table.render(maxWidth);
        }
        out << '\n';
    }
    return out.str();
}

ReportDocument fleetDocument(const std::vector<FleetAnalysis>& fleet, std::string writtenAt) {
    using report_detail::Cell;
    using report_detail::Span;
    ReportDocument out;
    out.title = "Fleet report";
    out.writtenAt = std::move(writtenAt);
    auto& doc = out.doc;
    doc.heading(1, out.title);
    if (fleet.empty())
        doc.para("No layout holds runs of more than one machine.");
    for (const auto& a : fleet) {
        doc.heading(2, "Layout " + a.layout);
        doc.para(std::to_string(a.hosts.size()) + " hosts: " + joinedText(a.hosts, ", ") + ".");
        if (a.standouts.empty())
            doc.para("No host stands apart.");
        std::vector<std::vector<Span>> standouts;
        for (const auto& s : a.standouts)
            standouts.push_back({Span{s.sentence, s.worse, ""}});
        if (!standouts.empty())
            doc.bullets(std::move(standouts));
        for (const auto& m : a.metrics) {
            doc.heading(3, fleetMetricTitle(m));
            std::vector<std::vector<Cell>> rows;
            for (const auto& row : fleetHostRows(m)) {
                std::vector<Cell> cells;
                for (std::size_t i = 0; i < row.size(); ++i)
                    cells.push_back(Cell{row[i], "", i >= 1 && i <= 4, false});
                rows.push_back(std::move(cells));
            }
            doc.table(fleetHostHeaders, std::move(rows));
        }
    }
    return out;
}

} // namespace lb
