// What a projection is given, read from text (engine/capacity/projection.h): growth as a rate or
// bytes a year, host writes a day, drive prices, write amplification given per layout, and dated
// usage samples with the growth fitted to them.
#include "engine/base/size.h"
#include "engine/capacity/capacity_internal.h"
#include "engine/capacity/projection.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace lb {

namespace {

// A year of days on average; months are a twelfth of it, so linear and compound growth and fits
// from dated samples all use the same calendar.
constexpr double daysPerYear = 365.25;
constexpr double monthsPerYear = 12;

std::string trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return std::string(s);
}

std::string lower(std::string s) {
    for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::optional<double> parseNumber(std::string_view s) {
    double v = 0;
    const auto* end = s.data() + s.size();
    auto [ptr, ec] = std::from_chars(s.data(), end, v);
    if (ec != std::errc() || ptr != end || !std::isfinite(v))
        return std::nullopt;
    return v;
}

} // namespace

double GrowthModel::usedAfter(double usedBytes, double months) const {
    const double years = months / monthsPerYear;
    const double v = kind == GrowthKind::Linear ? usedBytes + bytesPerYear * years
                                                : usedBytes * std::pow(1.0 + annualRate, years);
    return std::max(v, 0.0);
}

Expected<GrowthModel> parseGrowth(std::string_view text) {
    const std::string t = trim(text);
    const std::string usage = "expected a yearly rate: 30% (compound) or 2TB/y (linear)";
    if (t.empty())
        return badInput("growth: " + usage);
    if (t.front() == '-')
        return badInput("growth: negative growth '" + t +
                        "'; a projection needs growth of 0 or more");
    GrowthModel g;
    if (t.back() == '%') {
        auto v = parseNumber(trim(std::string_view(t).substr(0, t.size() - 1)));
        if (!v)
            return badInput("growth: '" + t + "' is not a percentage; " + usage);
        g.kind = GrowthKind::Compound;
        g.annualRate = *v / 100.0;
        return g;
    }
    const auto slash = t.find('/');
    if (slash == std::string::npos)
        return badInput("growth: '" + t + "' has no unit; " + usage);
    const std::string per = lower(trim(std::string_view(t).substr(slash + 1)));
    if (per != "y" && per != "yr" && per != "year")
        return badInput("growth: '" + t + "' is not per year (/y); " + usage);
    auto bytes = parseSize(std::string_view(t).substr(0, slash));
    if (!bytes)
        return badInput("growth: " + bytes.error().message);
    g.kind = GrowthKind::Linear;
    g.bytesPerYear = static_cast<double>(*bytes);
    return g;
}

std::string describeGrowth(const GrowthModel& g) {
    if (g.kind == GrowthKind::Compound)
        return "compound " + fixed(g.annualRate * 100.0, 1) + " %/year";
    return "linear " + std::string(g.bytesPerYear < 0 ? "-" : "") +
           formatBytes(toBytes(std::fabs(g.bytesPerYear))) + "/year";
}

Expected<std::uint64_t> parseDailyWrites(std::string_view text) {
    const std::string t = trim(text);
    const auto slash = t.find('/');
    const std::string per =
        slash == std::string::npos ? "" : lower(trim(std::string_view(t).substr(slash + 1)));
    if (per != "d" && per != "day")
        return badInput("host-writes: expected bytes per day such as 100G/d, got '" + t + "'");
    auto bytes = parseSize(std::string_view(t).substr(0, slash));
    if (!bytes)
        return badInput("host-writes: " + bytes.error().message);
    return *bytes;
}

Expected<DrivePrice> parseDrivePrice(std::string_view text) {
    const std::string t = trim(text);
    const std::string usage = "expected a price per drive (180, $180) or per terabyte (25/TB)";
    DrivePrice price;
    price.text = t;
    std::string number = t;
    if (const auto slash = t.find('/'); slash != std::string::npos) {
        const std::string per = lower(trim(std::string_view(t).substr(slash + 1)));
        if (per != "tb")
            return badInput("price: '" + t + "' is per " + per + "; " + usage);
        price.perTb = true;
        number = trim(std::string_view(t).substr(0, slash));
    }
    if (!number.empty() && number.front() == '$')
        number = trim(std::string_view(number).substr(1));
    if (const std::string l = lower(number); l.ends_with("usd"))
        number = trim(std::string_view(number).substr(0, number.size() - 3));
    const auto v = parseNumber(number);
    if (!v)
        return badInput("price: '" + t + "' is not a number; " + usage);
    if (*v < 0)
        return badInput("price: '" + t + "' is negative");
    price.usd = *v;
    return price;
}

double diskPriceUsd(const DrivePrice& price, std::uint64_t diskBytes) {
    return price.perTb ? price.usd * static_cast<double>(diskBytes) / bytesPerTb : price.usd;
}

std::optional<double> GivenWriteAmplification::forLayout(const std::string& name) const {
    if (const auto it = byLayout.find(name); it != byLayout.end())
        return it->second;
    return all;
}

Expected<GivenWriteAmplification> parseWriteAmplifications(const std::vector<std::string>& texts) {
    GivenWriteAmplification out;
    for (const auto& given : texts) {
        const std::string text = trim(given);
        const auto eq = text.rfind('=');
        const std::string name = eq == std::string::npos ? "" : trim(text.substr(0, eq));
        const std::string number = eq == std::string::npos ? text : trim(text.substr(eq + 1));
        if (eq != std::string::npos && name.empty())
            return badInput("write-amplification: '" + text + "' names no layout (LAYOUT=3.0)");
        const auto v = parseNumber(number);
        if (!v)
            return badInput("write-amplification: '" + text +
                            "' is not a factor such as 3.0 or LAYOUT=3.0");
        if (*v < 1)
            return badInput("write-amplification: '" + text +
                            "' is below 1: the disks write at least what the hosts write");
        if (name.empty()) {
            if (out.all)
                return badInput("write-amplification: given twice for every layout");
            out.all = *v;
        } else if (!out.byLayout.emplace(name, *v).second) {
            return badInput("write-amplification: layout '" + name + "' given twice");
        }
    }
    return out;
}

namespace {

// "YYYY-MM-DD" with an optional "THH:MM[:SS][Z]" (or a space before the time): days since the
// epoch, the time as a fraction of a day.
std::optional<double> parseDate(std::string_view s) {
    auto digits = [&](std::size_t pos, std::size_t n) -> std::optional<int> {
        if (pos + n > s.size())
            return std::nullopt;
        int v = 0;
        for (std::size_t i = pos; i < pos + n; ++i) {
            if (!std::isdigit(static_cast<unsigned char>(s[i])))
                return std::nullopt;
            v = v * 10 + (s[i] - '0');
        }
        return v;
    };
    const auto y = digits(0, 4), m = digits(5, 2), d = digits(8, 2);
    if (!y || !m || !d || s[4] != '-' || s[7] != '-')
        return std::nullopt;
    const std::chrono::year_month_day ymd{std::chrono::year{*y},
                                          std::chrono::month{static_cast<unsigned>(*m)},
                                          std::chrono::day{static_cast<unsigned>(*d)}};
    if (!ymd.ok())
        return std::nullopt;
    double day = static_cast<double>(std::chrono::sys_days{ymd}.time_since_epoch().count());
    std::string_view rest = s.substr(10);
    if (rest.empty())
        return day;
    if (rest.front() != 'T' && rest.front() != ' ')
        return std::nullopt;
    rest.remove_prefix(1);
    if (!rest.empty() && rest.back() == 'Z')
        rest.remove_suffix(1);
    const std::string_view time = rest;
    auto two = [&](std::size_t pos) -> std::optional<int> {
        if (pos + 2 > time.size() || !std::isdigit(static_cast<unsigned char>(time[pos])) ||
            !std::isdigit(static_cast<unsigned char>(time[pos + 1])))
            return std::nullopt;
        return (time[pos] - '0') * 10 + (time[pos + 1] - '0');
    };
    const auto hh = two(0), mm = two(3);
    if (!hh || !mm || time.size() < 5 || time[2] != ':' || *hh > 23 || *mm > 59)
        return std::nullopt;
    int ss = 0;
    if (time.size() != 5) {
        const auto sec = two(6);
        if (time.size() != 8 || time[5] != ':' || !sec || *sec > 60)
            return std::nullopt;
        ss = *sec;
    }
    return day + (*hh * 3600 + *mm * 60 + ss) / 86400.0;
}

std::string unquote(std::string s) {
    s = trim(s);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"')
        s = s.substr(1, s.size() - 2);
    return s;
}

struct LineFit {
    double slope = 0;     // per day
    double intercept = 0; // value at the mean day
    double meanDay = 0;
};

// Ordinary least squares of ys against days, centred on the mean day for numerical stability.
LineFit leastSquares(const std::vector<double>& days, const std::vector<double>& ys) {
    const auto n = static_cast<double>(days.size());
    double tm = 0, ym = 0;
    for (std::size_t i = 0; i < days.size(); ++i) {
        tm += days[i];
        ym += ys[i];
    }
    tm /= n;
    ym /= n;
    double sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < days.size(); ++i) {
        sxx += (days[i] - tm) * (days[i] - tm);
        sxy += (days[i] - tm) * (ys[i] - ym);
    }
    return {sxx > 0 ? sxy / sxx : 0.0, ym, tm};
}

} // namespace

Expected<std::vector<UsageSample>> parseUsageSamples(std::string_view csv,
                                                     const std::string& sourceName) {
    std::vector<UsageSample> out;
    std::istringstream in{std::string(csv)};
    std::string raw;
    unsigned lineNo = 0;
    bool sawContent = false;
    while (std::getline(in, raw)) {
        ++lineNo;
        const std::string line = trim(raw);
        if (line.empty() || line.front() == '#')
            continue;
        const bool first = !sawContent;
        sawContent = true;
        const std::string where = sourceName + ":" + std::to_string(lineNo) + ": ";
        std::vector<std::string> fields;
        std::stringstream split(line);
        std::string field;
        while (std::getline(split, field, ','))
            fields.push_back(unquote(field));
        if (!line.empty() && line.back() == ',')
            fields.emplace_back();
        // An optional header: the first line, when its date column does not start with a digit.
        if (first && !fields.empty() &&
            (fields[0].empty() || !std::isdigit(static_cast<unsigned char>(fields[0][0]))))
            continue;
        if (fields.size() != 2)
            return badInput(where + "line: expected 2 fields (date,bytes), got " +
                            std::to_string(fields.size()));
        UsageSample s;
        s.line = lineNo;
        s.date = fields[0];
        const auto day = parseDate(s.date);
        if (!day)
            return badInput(where + "date: '" + s.date +
                            "' is not a date (YYYY-MM-DD, optionally THH:MM[:SS][Z])");
        s.day = *day;
        auto bytes = parseSize(fields[1]);
        if (!bytes)
            return badInput(where + "bytes: " + bytes.error().message);
        s.bytes = *bytes;
        if (!out.empty() && s.day <= out.back().day)
            return badInput(where + "date: " + s.date + " is not after " + out.back().date +
                            " (line " + std::to_string(out.back().line) +
                            "); samples must be in increasing date order");
        out.push_back(std::move(s));
    }
    return out;
}

Expected<std::vector<UsageSample>> loadUsageSamples(const std::string& path,
                                                    const InputLimit& limit) {
    auto text = readInput(path, limit);
    if (!text)
        return badInput("samples: " + text.error().message);
    return parseUsageSamples(*text, path);
}

Expected<GrowthFit> fitGrowth(const std::vector<UsageSample>& samples) {
    if (samples.size() < 2)
        return badInput("samples: " + std::to_string(samples.size()) + " sample" +
                        (samples.size() == 1 ? "" : "s") + "; a fit needs at least 2");
    std::vector<double> days, ys;
    bool positive = true;
    for (const auto& s : samples) {
        days.push_back(s.day);
        ys.push_back(static_cast<double>(s.bytes));
        positive = positive && s.bytes > 0;
    }
    GrowthFit fit;
    fit.samples = samples.size();
    fit.firstDate = samples.front().date;
    fit.lastDate = samples.back().date;
    fit.lastBytes = samples.back().bytes;

    const auto line = leastSquares(days, ys);
    double rss = 0;
    for (std::size_t i = 0; i < days.size(); ++i) {
        const double r = ys[i] - (line.intercept + line.slope * (days[i] - line.meanDay));
        rss += r * r;
    }
    const auto n = static_cast<double>(days.size());
    fit.linear = {GrowthKind::Linear, line.slope * daysPerYear, 0};
    fit.linearRmsBytes = std::sqrt(rss / n);
    fit.model = fit.linear;

    if (positive) {
        std::vector<double> logs;
        for (double y : ys)
            logs.push_back(std::log(y));
        const auto exp = leastSquares(days, logs);
        double erss = 0;
        for (std::size_t i = 0; i < days.size(); ++i) {
            const double r = ys[i] - std::exp(exp.intercept + exp.slope * (days[i] - exp.meanDay));
            erss += r * r;
        }
        fit.compound = GrowthModel{GrowthKind::Compound, 0, std::expm1(exp.slope * daysPerYear)};
        fit.exponentialRmsBytes = std::sqrt(erss / n);
        if (*fit.exponentialRmsBytes < fit.linearRmsBytes) {
            fit.exponential = true;
            fit.model = *fit.compound;
        }
    }
    const double rate = fit.exponential ? fit.model.annualRate : fit.model.bytesPerYear;
    if (rate < 0)
        return badInput("samples: usage shrinks from " + fit.firstDate + " to " + fit.lastDate +
                        " (fitted " + describeGrowth(fit.model) +
                        "); a projection needs growth of 0 or more (give --growth)");
    return fit;
}

} // namespace lb
