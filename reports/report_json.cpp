// The report document as JSON (see report_json.h): each struct by its fields, named as in C++;
// whiskers that are not drawn (NaN) as null.
#include "reports/report_json.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace lb {

namespace report_detail {

NLOHMANN_JSON_SERIALIZE_ENUM(Block::Kind, {{Block::Kind::Heading, "heading"},
                                           {Block::Kind::Paragraph, "paragraph"},
                                           {Block::Kind::Bullets, "bullets"},
                                           {Block::Kind::Table, "table"},
                                           {Block::Kind::Code, "code"},
                                           {Block::Kind::Chart, "chart"}})
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Span, text, strong, color)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Cell, text, color, numeric, dotted)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Block, kind, level, spans, items, headers, rows, text, caption)

} // namespace report_detail

namespace chart {

NLOHMANN_JSON_SERIALIZE_ENUM(Dash, {{Dash::Solid, "solid"},
                                    {Dash::Dashed, "dashed"},
                                    {Dash::Dotted, "dotted"},
                                    {Dash::DashDotted, "dash-dotted"}})
NLOHMANN_JSON_SERIALIZE_ENUM(Marker, {{Marker::None, "none"},
                                      {Marker::Circle, "circle"},
                                      {Marker::Square, "square"}})
NLOHMANN_JSON_SERIALIZE_ENUM(Align, {{Align::Start, "start"},
                                     {Align::Centre, "centre"},
                                     {Align::End, "end"}})
NLOHMANN_JSON_SERIALIZE_ENUM(Series::Kind, {{Series::Kind::Bars, "bars"},
                                            {Series::Kind::Line, "line"},
                                            {Series::Kind::StepLine, "step-line"}})
NLOHMANN_JSON_SERIALIZE_ENUM(Axis::Ticks, {{Axis::Ticks::Auto, "auto"},
                                           {Axis::Ticks::Given, "given"},
                                           {Axis::Ticks::Powers, "powers"}})
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Stroke, colour, alpha, width, dash)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Label, name, x, y, text, points, horizontal, vertical, upright,
                                   background, backgroundAlpha, padLeft, padTop, padRight,
                                   padBottom)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Arrow, name, x1, y1, x2, y2, colour)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Band, name, low, high, colour, alpha)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Rule, name, x, stroke)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Tick, at, label)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Axis, visible, label, min, max, logarithmic, tickKind, ticks,
                                   categories, uprightLabels, grid, zeroLine)

namespace {

// Values that may be NaN (no whisker) or infinite: null, "inf" and "-inf" in JSON.
nlohmann::json values(const std::vector<double>& v) {
    auto out = nlohmann::json::array();
    for (const double d : v)
        out.push_back(std::isnan(d)   ? nlohmann::json(nullptr)
                      : std::isinf(d) ? nlohmann::json(d > 0 ? "inf" : "-inf")
                                      : nlohmann::json(d));
    return out;
}

std::vector<double> values(const nlohmann::json& j) {
    std::vector<double> out;
    for (const auto& d : j)
        out.push_back(d.is_null()     ? std::numeric_limits<double>::quiet_NaN()
                      : d.is_string() ? (d.get<std::string>() == "-inf" ? -1.0 : 1.0) *
                                            std::numeric_limits<double>::infinity()
                                      : d.get<double>());
    return out;
}

} // namespace

void to_json(nlohmann::json& j, const Series& s) {
    j = {{"kind", s.kind},
         {"name", s.name},
         {"inLegend", s.inLegend},
         {"rightAxis", s.rightAxis},
         {"x", values(s.x)},
         {"y", values(s.y)},
         {"stroke", s.stroke},
         {"fill", s.fill},
         {"marker", s.marker},
         {"markerSize", s.markerSize},
         {"barWidth", s.barWidth},
         {"grouped", s.grouped},
         {"groupIndex", s.groupIndex},
         {"groupSize", s.groupSize},
         {"errorMinus", values(s.errorMinus)},
         {"errorPlus", values(s.errorPlus)},
         {"errorName", s.errorName}};
}

void from_json(const nlohmann::json& j, Series& s) {
    j.at("kind").get_to(s.kind);
    j.at("name").get_to(s.name);
    j.at("inLegend").get_to(s.inLegend);
    j.at("rightAxis").get_to(s.rightAxis);
    s.x = values(j.at("x"));
    s.y = values(j.at("y"));
    j.at("stroke").get_to(s.stroke);
    j.at("fill").get_to(s.fill);
    j.at("marker").get_to(s.marker);
    j.at("markerSize").get_to(s.markerSize);
    j.at("barWidth").get_to(s.barWidth);
    j.at("grouped").get_to(s.grouped);
    j.at("groupIndex").get_to(s.groupIndex);
    j.at("groupSize").get_to(s.groupSize);
    s.errorMinus = values(j.at("errorMinus"));
    s.errorPlus = values(j.at("errorPlus"));
    j.at("errorName").get_to(s.errorName);
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Chart, title, x, y, y2, bands, series, labels, arrows, rules,
                                   legend)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ReportChart, id, caption, chart)

} // namespace chart

std::string reportDocumentJson(const ReportDocument& d) {
    const nlohmann::json j = {{"format", "layoutbench report document"},
                              {"version", reportDocumentVersion},
                              {"title", d.title},
                              {"writtenAt", d.writtenAt},
                              {"blocks", d.doc.blocks},
                              {"charts", d.charts}};
    return j.dump();
}

Expected<ReportDocument> parseReportDocument(std::string_view text, const std::string& source) {
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded())
        return badInput(source + ": not JSON (a report document is written by layoutbench)");
    if (!j.is_object() || j.value("format", "") != "layoutbench report document")
        return badInput(source + ": format: not a layoutbench report document");
    if (j.value("version", 0) != reportDocumentVersion)
        return badInput(source + ": version: " + j.value("version", nlohmann::json()).dump() +
                        ", this program reads version " + std::to_string(reportDocumentVersion) +
                        " (layoutbench and layoutbench-render of the same release)");
    ReportDocument d;
    try {
        j.at("title").get_to(d.title);
        j.at("writtenAt").get_to(d.writtenAt);
        j.at("blocks").get_to(d.doc.blocks);
        j.at("charts").get_to(d.charts);
    } catch (const nlohmann::json::exception& e) {
        return badInput(source + ": not a layoutbench report document: " + e.what());
    }
    return d;
}

} // namespace lb
