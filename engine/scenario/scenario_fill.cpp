// The fill levels of a scenario and of a layout (fill = [0.0, 0.5, 0.8]): shares of a layout's
// usable space its workloads run at, read with the file, line and field of any mistake.
#include "engine/scenario/scenario_internal.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace lb::scenario_parse {

namespace {

// Above this a pool stops being a pool to measure: ZFS keeps its slop, a file system its
// reserve, and the last files would only measure ENOSPC.
constexpr double maxFillLevel = 0.95;

// "0.5" or "50%" as a share; none when it is neither.
std::optional<double> shareOf(std::string text) {
    double scale = 1.0;
    if (!text.empty() && text.back() == '%') {
        text.pop_back();
        scale = 0.01;
    }
    while (!text.empty() && text.back() == ' ')
        text.pop_back();
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return v * scale;
}

} // namespace

Expected<std::optional<std::vector<double>>>
getFillLevels(const toml::table& t, const std::string& where, const Reporter& rep) {
    const toml::node* node = t.get("fill");
    if (!node)
        return std::optional<std::vector<double>>{};
    const auto* arr = node->as_array();
    if (!arr)
        return badInput(rep.at(*node, where + "fill",
                               "expected a list of shares of the usable space, e.g. [0.0, 0.5]"));
    std::vector<double> levels;
    std::size_t index = 0;
    for (const auto& item : *arr) {
        const std::string field = where + "fill[" + std::to_string(index++) + "]";
        std::optional<double> v;
        if (const auto d = item.value<double>())
            v = *d;
        else if (const auto* s = item.as_string())
            v = shareOf(s->get());
        if (!v || !std::isfinite(*v))
            return badInput(rep.at(item, field, "expected a share such as 0.8 or \"80%\""));
        if (*v < 0 || *v > maxFillLevel)
            return badInput(rep.at(item, field,
                                   "must be from 0 to 0.95 of the usable space (a full pool "
                                   "measures only its refusals)"));
        // Levels are stored to a tenth of a percent: two that round alike are one level.
        const double level = std::round(*v * 1000.0) / 1000.0;
        if (!levels.empty() && level <= levels.back())
            return badInput(
                rep.at(item, field, "levels go up, each once (they are filled lowest first)"));
        levels.push_back(level);
    }
    return std::optional<std::vector<double>>{std::move(levels)};
}

} // namespace lb::scenario_parse
