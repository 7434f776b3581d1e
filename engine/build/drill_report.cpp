// What a drill's shell reports: "lb-drill key=value ..." lines (drill_internal.h).
#include "engine/base/size.h"
#include "engine/build/drill_internal.h"

#include <sstream>

namespace lb::drill_report {

// "lb-drill a=1 b=2" lines into a map; later keys win.
std::map<std::string, std::string> parse(const std::string& out) {
    std::map<std::string, std::string> kv;
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
        if (!line.starts_with("lb-drill "))
            continue;
        std::istringstream words(line.substr(9));
        std::string word;
        while (words >> word)
            if (const auto eq = word.find('='); eq != std::string::npos)
                kv[word.substr(0, eq)] = word.substr(eq + 1);
    }
    return kv;
}

std::optional<double> number(const std::map<std::string, std::string>& kv, const char* key) {
    const auto it = kv.find(key);
    if (it == kv.end() || it->second.empty())
        return std::nullopt;
    try {
        std::size_t used = 0;
        const double v = std::stod(it->second, &used);
        return used == it->second.size() ? std::optional(v) : std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// A size as the drill printed it: bytes, or zpool's rounded "1.88G" where it lacks -p.
std::optional<double> size(const std::map<std::string, std::string>& kv, const char* key) {
    if (auto n = number(kv, key))
        return n;
    const auto it = kv.find(key);
    if (it == kv.end())
        return std::nullopt;
    if (auto bytes = parseSize(it->second, SizeConvention::Binary))
        return static_cast<double>(*bytes);
    // zpool's own rounding, "32.3M": a figure and one binary unit letter, whatever bytes it
    // makes (parseSize takes only whole bytes).
    const std::string& text = it->second;
    static constexpr std::string_view units = "BKMGTPE";
    const auto unit = text.empty() ? std::string_view::npos : units.find(text.back());
    if (unit == std::string_view::npos)
        return std::nullopt;
    std::map<std::string, std::string> figure{{key, text.substr(0, text.size() - 1)}};
    const auto n = number(figure, key);
    if (!n)
        return std::nullopt;
    double scale = 1;
    for (std::size_t i = 0; i < unit; ++i)
        scale *= 1024;
    return *n * scale;
}

std::string valueOr(const std::map<std::string, std::string>& kv, const char* key) {
    const auto it = kv.find(key);
    return it == kv.end() ? "?" : it->second;
}

} // namespace lb::drill_report
