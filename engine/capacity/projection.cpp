// The projection: growth models and fits, the month-by-month use of a layout, its expansion paths
// with a purchase schedule, and SSD wear. Every capacity figure, grown layouts included, comes from
// the capacity model (computeCapacity), so a projection never disagrees with `layoutbench
// capacity`.
#include "engine/capacity/projection.h"

#include "engine/base/size.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <sstream>

namespace lb {

namespace {

// A year of days on average; months are a twelfth of it, so linear and compound growth and fits
// from dated samples all use the same calendar.
constexpr double daysPerYear = 365.25;
constexpr double monthsPerYear = 12;
constexpr double bytesPerTb = 1e12;
constexpr unsigned maxYears = 50;
// Limits of the expansion paths. md arrays with v1.2 metadata and ZFS pools allow more, but no
// server in this tool's scope does; the cap also bounds the schedule when growth is absurd.
constexpr unsigned maxDisks = 1024;
// A cap on RAIDZ width for the expansion path, far beyond any vdev one would build (rebuild
// time and small-block padding grow with width); it only bounds the schedule.
constexpr unsigned maxRaidzWidth = 255;

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

// A double byte count as an integer, clamped to what 64 bits hold.
std::uint64_t toBytes(double v) {
    if (!(v > 0))
        return 0;
    if (v >= 18446744073709551615.0)
        return std::numeric_limits<std::uint64_t>::max();
    return static_cast<std::uint64_t>(std::llround(v));
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Growth

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

// ---------------------------------------------------------------------------------------------
// Wear

Expected<WriteAmplification> layoutWriteAmplification(const CapacityInput& layout) {
    // computeCapacity validates the kind, disk count, record size and ashift the figures use.
    if (auto c = computeCapacity(layout); !c)
        return fail(c.error());
    // One vdev's width (a pool of several identical vdevs amplifies as one of them does).
    const auto n = static_cast<unsigned>(layout.diskBytes.size() / layout.vdevs);
    const std::string nDisks = std::to_string(n);
    switch (layout.kind) {
    case LayoutKind::MdRaid1:
    case LayoutKind::ZfsMirror:
        return WriteAmplification{static_cast<double>(n), nDisks +
                                                              "-way mirror: every write lands on " +
                                                              nDisks + " disks"};
    case LayoutKind::MdRaid10:
    case LayoutKind::ZfsRaid10:
        return WriteAmplification{2.0, "striped two-way mirrors: every write lands on 2 disks"};
    case LayoutKind::MdRaid5:
    case LayoutKind::MdRaid6: {
        // A write smaller than a stripe is read-modify-write: the data chunk and every parity
        // chunk of the stripe are rewritten. Full-stripe writes cost only n / (n - p), so this
        // is the small-write (pessimistic) figure, which is what VM and database traffic is.
        const unsigned p = parityOf(layout.kind);
        const double full = static_cast<double>(n) / static_cast<double>(n - p);
        return WriteAmplification{1.0 + p, "RAID-" + std::string(p == 1 ? "5" : "6") +
                                               " small writes (read-modify-write): data + " +
                                               std::to_string(p) + " parity chunk" +
                                               (p == 1 ? "" : "s") +
                                               "; full-stripe writes would be " + fixed(full, 2)};
    }
    case LayoutKind::ZfsRaidz1:
    case LayoutKind::ZfsRaidz2:
    case LayoutKind::ZfsRaidz3: {
        // Copy-on-write: a record is written once with its parity and padding, no
        // read-modify-write. Records smaller than the record size (small files, the tail of a
        // file) pay more padding; this uses full records.
        const auto a =
            raidzAllocate(layout.recordsizeBytes, n, parityOf(layout.kind), layout.ashift);
        const std::uint64_t total = a.dataSectors + a.paritySectors + a.paddingSectors;
        return WriteAmplification{
            static_cast<double>(total) / static_cast<double>(a.dataSectors),
            "RAIDZ" + std::to_string(parityOf(layout.kind)) + " width " + nDisks + ", " +
                std::to_string(layout.recordsizeBytes / KiB) + "K records, ashift " +
                std::to_string(layout.ashift) + ": (" + std::to_string(a.dataSectors) + " data + " +
                std::to_string(a.paritySectors) + " parity + " + std::to_string(a.paddingSectors) +
                " padding) / " + std::to_string(a.dataSectors) + " sectors"};
    }
    case LayoutKind::ZfsDraid1:
    case LayoutKind::ZfsDraid2:
    case LayoutKind::ZfsDraid3: {
        // Fixed-width stripes: every record takes whole rows of data + parity sectors.
        const unsigned p = parityOf(layout.kind);
        const unsigned d = layout.draid.data != 0 ? layout.draid.data
                                                  : draidDefaultData(p, n, layout.draid.spares);
        const std::uint64_t sectorBytes = 1ULL << layout.ashift;
        const std::uint64_t dataSectors = (layout.recordsizeBytes + sectorBytes - 1) / sectorBytes;
        const std::uint64_t rows = (dataSectors + d - 1) / d;
        return WriteAmplification{
            static_cast<double>(rows * (d + p)) / static_cast<double>(dataSectors),
            draidVdevName(layout.kind, n, layout.draid) + ", " +
                std::to_string(layout.recordsizeBytes / KiB) + "K records, ashift " +
                std::to_string(layout.ashift) + ": " + std::to_string(rows) + " row(s) of " +
                std::to_string(d) + " data + " + std::to_string(p) + " parity sectors for " +
                std::to_string(dataSectors) + " data sectors"};
    }
    case LayoutKind::MdRaid0:
    case LayoutKind::ZfsStripe:
        return WriteAmplification{1.0, "striped, no redundancy: every byte written once"};
    default:
        return badInput("kind: " + std::string(layoutKindName(layout.kind)) +
                        " has no write-amplification model");
    }
}

double enduranceYears(double enduranceBytes, double deviceBytesPerDay) {
    if (deviceBytesPerDay <= 0)
        return std::numeric_limits<double>::infinity();
    return enduranceBytes / (deviceBytesPerDay * 365.0);
}

std::string_view expansionKindName(ExpansionKind k) {
    switch (k) {
    case ExpansionKind::MdGrow:
        return "md-grow";
    case ExpansionKind::ZfsAddVdev:
        return "zfs-add-vdev";
    case ExpansionKind::RaidzExpand:
        return "raidz-expand";
    }
    return "md-grow";
}

double defaultCeiling(LayoutKind kind) {
    return isZfs(kind) ? 0.80 : 0.90;
}

// ---------------------------------------------------------------------------------------------
// Expansion paths and their schedules

namespace {

// The layout after `steps` expansion steps; nullopt past the path's limit.
struct GrownState {
    std::uint64_t usableBytes = 0;
    double efficiency = 1;
    unsigned disks = 0;
};
using StateFn = std::function<Expected<std::optional<GrownState>>(unsigned steps)>;

struct PathSpec {
    ExpansionKind kind;
    unsigned disksPerStep;
    std::uint64_t diskBytes;
    std::string description;
    std::string note;
    StateFn state;
    // RAIDZ expansion: what `zfs list` shows after one step (the capacity model with the
    // original width kept for the deflate ratio).
    std::function<Expected<std::uint64_t>()> reportedAfterStep = {};
};

std::vector<std::uint64_t> grownDisks(const std::vector<std::uint64_t>& base,
                                      const std::vector<std::uint64_t>& added, unsigned steps) {
    std::vector<std::uint64_t> out = base;
    for (unsigned s = 0; s < steps; ++s)
        out.insert(out.end(), added.begin(), added.end());
    return out;
}

// A path whose every state is computeCapacity on a layout with more disks of the same kind.
StateFn grownLayout(const CapacityInput& base, std::vector<std::uint64_t> added, unsigned limit) {
    return [base, added = std::move(added),
            limit](unsigned steps) -> Expected<std::optional<GrownState>> {
        CapacityInput in = base;
        in.diskBytes = grownDisks(base.diskBytes, added, steps);
        if (in.diskBytes.size() > limit)
            return std::optional<GrownState>{};
        auto c = computeCapacity(in);
        if (!c)
            return fail(c.error());
        return std::optional<GrownState>{GrownState{c->usableBytes, c->dataEfficiency,
                                                    static_cast<unsigned>(in.diskBytes.size())}};
    };
}

std::vector<PathSpec> pathsFor(const CapacityInput& in, std::vector<std::string>& notes) {
    std::vector<PathSpec> paths;
    const auto& disks = in.diskBytes;
    const auto n = static_cast<unsigned>(disks.size() / in.vdevs); // one vdev's width
    const std::uint64_t largest = *std::max_element(disks.begin(), disks.end());

    switch (in.kind) {
    case LayoutKind::MdRaid0:
    case LayoutKind::MdRaid5:
    case LayoutKind::MdRaid6:
    case LayoutKind::MdRaid10: {
        const unsigned step = in.kind == LayoutKind::MdRaid10 ? 2 : 1;
        std::string note = "Reshapes every stripe onto the new disk" +
                           std::string(step == 2 ? "s" : "") +
                           " online (hours to days, slower I/O meanwhile); then grow what sits "
                           "on the array (filesystem, LVM, or the guest's disk and its pool).";
        if (in.kind == LayoutKind::MdRaid0)
            note += " md reshapes raid0 by converting it to raid4 and back.";
        if (in.kind == LayoutKind::MdRaid10)
            note += " Two disks per step keep the near=2 copies in pairs.";
        paths.push_back(
            {ExpansionKind::MdGrow, step, largest,
             "mdadm --add, then mdadm --grow --raid-devices=" + std::to_string(n + step), note,
             grownLayout(in, std::vector<std::uint64_t>(step, largest), maxDisks)});
        break;
    }
    case LayoutKind::MdRaid1:
        notes.push_back("md-raid1: adding a member adds a copy, not space; it grows only by "
                        "replacing every member with a larger disk (not modelled).");
        break;
    case LayoutKind::ZfsStripe:
        paths.push_back({ExpansionKind::ZfsAddVdev, 1, disks.front(), "zpool add POOL DISK",
                         "Existing data stays where it is; new writes favour the emptier disk.",
                         grownLayout(in, {disks.front()}, maxDisks)});
        break;
    case LayoutKind::ZfsRaid10:
        paths.push_back({ExpansionKind::ZfsAddVdev, 2, std::max(disks[0], disks[1]),
                         "zpool add POOL mirror DISK DISK",
                         "Existing data stays on the old mirrors; new writes favour the new one.",
                         grownLayout(in, {disks[0], disks[1]}, maxDisks)});
        break;
    case LayoutKind::ZfsMirror:
    case LayoutKind::ZfsRaidz1:
    case LayoutKind::ZfsRaidz2:
    case LayoutKind::ZfsRaidz3:
    case LayoutKind::ZfsDraid1:
    case LayoutKind::ZfsDraid2:
    case LayoutKind::ZfsDraid3: {
        const bool raidz = isRaidz(in.kind);
        const std::string shape = raidz              ? "raidz" + std::to_string(parityOf(in.kind))
                                  : isDraid(in.kind) ? draidVdevName(in.kind, n, in.draid)
                                                     : std::string("mirror");
        const double efficiency = [&] {
            auto c = computeCapacity(in);
            return c ? c->dataEfficiency : 1.0;
        }();
        paths.push_back(
            {ExpansionKind::ZfsAddVdev, n, largest,
             "zpool add POOL " + shape + " " + std::to_string(n) + " DISKS",
             "Another " + shape +
                 " vdev of the same width and disks: existing data stays where it "
                 "is, and the pool is lost if any one vdev is.",
             [in, n, efficiency](unsigned steps) -> Expected<std::optional<GrownState>> {
                 // One more vdev like the first per step, in the same pool (one
                 // slop reserve, capped at 128 GiB: the model's vdevs).
                 CapacityInput grown = in;
                 for (unsigned s = 0; s < steps; ++s)
                     grown.diskBytes.insert(grown.diskBytes.end(), in.diskBytes.begin(),
                                            in.diskBytes.begin() + n);
                 grown.vdevs = in.vdevs + steps;
                 if (grown.diskBytes.size() > maxDisks)
                     return std::optional<GrownState>{};
                 auto c = computeCapacity(grown);
                 if (!c)
                     return fail(c.error());
                 return std::optional<GrownState>{GrownState{
                     c->usableBytes, efficiency, static_cast<unsigned>(grown.diskBytes.size())}};
             }});
        if (raidz && in.vdevs == 1)
            paths.push_back(
                {ExpansionKind::RaidzExpand, 1, largest, "zpool attach POOL " + shape + "-0 DISK",
                 "Needs OpenZFS 2.3 or later. Blocks written before an expansion keep their "
                 "old data:parity ratio, so they take more room than the same data written "
                 "after (the schedule counts this); and OpenZFS keeps using the original "
                 "ratio to report space, so zfs list and df show less free space than there "
                 "is.",
                 grownLayout(in, {largest}, maxRaidzWidth),
                 [in, largest]() -> Expected<std::uint64_t> {
                     CapacityInput grown = in;
                     grown.raidzExpandedFrom = static_cast<unsigned>(in.diskBytes.size());
                     grown.diskBytes.push_back(largest);
                     auto c = computeCapacity(grown);
                     if (!c)
                         return fail(c.error());
                     return c->usableBytes;
                 }});
        break;
    }
    default:
        break;
    }
    return paths;
}

struct Simulation {
    const GrowthModel& growth;
    double used0;
    double ceiling;
    unsigned months;
    unsigned years;
};

// What one disk of `diskBytes` costs: the buyer's price, else the catalog drive's.
std::optional<double> unitPriceUsd(const ProjectionInput& in, std::uint64_t diskBytes) {
    if (in.price)
        return diskPriceUsd(*in.price, diskBytes);
    if (in.drive)
        return in.drive->priceUsd;
    return std::nullopt;
}

Expected<ExpansionPath> schedulePath(const PathSpec& spec, const Simulation& sim,
                                     std::optional<double> diskPrice) {
    ExpansionPath path;
    path.kind = spec.kind;
    path.description = spec.description;
    path.note = spec.note;
    path.disksPerStep = spec.disksPerStep;
    path.diskBytes = spec.diskBytes;
    path.disksPerYear.assign(sim.years, 0);
    if (spec.kind == ExpansionKind::RaidzExpand)
        path.requiresOpenZfs = "2.3";

    std::vector<GrownState> states; // states[k]: after k steps
    auto state = [&](unsigned k) -> Expected<std::optional<GrownState>> {
        while (states.size() <= k) {
            auto s = spec.state(static_cast<unsigned>(states.size()));
            if (!s)
                return fail(s.error());
            if (!*s)
                return std::optional<GrownState>{};
            states.push_back(**s);
        }
        return std::optional<GrownState>{states[k]};
    };
    auto first = state(0);
    if (!first)
        return fail(first.error());
    auto second = state(1);
    if (!second)
        return fail(second.error());
    if (!*first || !*second || (*second)->usableBytes <= (*first)->usableBytes)
        return path; // no step possible; disksPerStep says what one would have been
    const GrownState s0 = **first, s1 = **second;
    path.stepUsableBytes = s1.usableBytes - s0.usableBytes;
    if (spec.reportedAfterStep) {
        // Space accounting keeps the original deflate ratio and metaslab size: zfs list shows
        // less than the new width holds.
        auto reported = spec.reportedAfterStep();
        if (!reported)
            return fail(reported.error());
        path.reportedStepUsableBytes = *reported > s0.usableBytes ? *reported - s0.usableBytes : 0;
    }
    if (diskPrice) {
        path.stepCostUsd = *diskPrice * spec.disksPerStep;
        path.costPerUsableTbUsd =
            *path.stepCostUsd / (static_cast<double>(path.stepUsableBytes) / bytesPerTb);
    }

    // Month by month: before the month's data is written, add steps until it fits under the
    // ceiling. For RAIDZ expansion, data keeps the efficiency of the width it was written at:
    // `consumed` counts raw space in units of (usable / efficiency), and what the pool can still
    // take is the new width's usable less the extra room the old data occupies.
    const bool oldDataKeepsRatio = spec.kind == ExpansionKind::RaidzExpand;
    unsigned k = 0;
    double consumed = 0, usedBefore = 0;
    auto effective = [&](const GrownState& s) {
        const double u = static_cast<double>(s.usableBytes);
        return oldDataKeepsRatio ? u - (consumed * s.efficiency - usedBefore) : u;
    };
    for (unsigned m = 0; m <= sim.months && path.keepsUp; ++m) {
        const double used = sim.growth.usedAfter(sim.used0, m);
        while (used > sim.ceiling * effective(states[k])) {
            auto next = state(k + 1);
            if (!next)
                return fail(next.error());
            if (!*next) {
                path.keepsUp = false;
                path.limitMonth = m;
                break;
            }
            ++k;
            const unsigned added = states[k].disks - states[k - 1].disks;
            path.schedule.push_back(
                {m, added, states[k].disks, states[k].usableBytes, toBytes(effective(states[k]))});
            path.disksBought += added;
            const unsigned year = m == 0 ? 1 : (m + 11) / 12;
            path.disksPerYear[year - 1] += added;
        }
        consumed += (used - usedBefore) / states[k].efficiency;
        usedBefore = used;
    }
    path.finalUsableBytes = toBytes(effective(states[k]));
    if (diskPrice)
        path.totalCostUsd = *diskPrice * path.disksBought;
    return path;
}

// The layout's disks, their replacements and the cheapest expansion that keeps up, at the
// buyer's price or the catalog's; none without a price.
std::optional<HorizonCost> horizonCost(const LayoutProjection& p, const ProjectionInput& in) {
    if (!in.price && !in.drive)
        return std::nullopt;
    HorizonCost c;
    c.illustrative = !in.price;
    c.priceBasis = in.price
                       ? "price given: " + in.price->text + (in.price->perTb ? "" : " per drive")
                       : "catalog price of the " + in.drive->model + " (illustrative)";
    for (const auto bytes : in.layout.diskBytes)
        c.purchaseUsd += *unitPriceUsd(in, bytes);
    if (p.wear && p.wear->replacementDisks > 0)
        c.replacementUsd = c.purchaseUsd * p.wear->replacementDisks /
                           static_cast<double>(in.layout.diskBytes.size());
    if (p.ceilingMonth) {
        const ExpansionPath* cheapest = nullptr;
        for (const auto& e : p.expansions)
            if (e.keepsUp && e.totalCostUsd &&
                (!cheapest || *e.totalCostUsd < *cheapest->totalCostUsd))
                cheapest = &e;
        if (cheapest) {
            c.expansion = cheapest->kind;
            c.expansionUsd = *cheapest->totalCostUsd;
        } else {
            c.expansionShort = true;
        }
    }
    c.totalUsd = c.purchaseUsd + c.replacementUsd + c.expansionUsd;
    return c;
}

// Month by month without expansion: the use, and the first month it passes the ceiling.
void addMonths(LayoutProjection& p, const ProjectionInput& in) {
    const unsigned months = in.years * 12;
    const auto used0 = static_cast<double>(in.usedBytes);
    for (unsigned m = 0; m <= months; ++m) {
        const std::uint64_t used = toBytes(in.growth.usedAfter(used0, m));
        p.months.push_back({m, p.capacity.usableBytes, used});
        if (!p.ceilingMonth && used > p.ceilingBytes)
            p.ceilingMonth = m;
    }
}

// A layout whose disks are unknown, against the usable capacity given for it: its use and
// ceiling alone. Growing it, its costs and its wear all depend on disks nobody recorded.
Expected<LayoutProjection> projectGivenCapacity(const ProjectionInput& in) {
    if (*in.givenUsableBytes == 0)
        return badInput("capacity: '" + in.name + "' must be given more than 0 bytes");
    LayoutProjection p;
    p.name = in.name;
    p.kind = in.layout.kind;
    p.capacityGiven = true;
    p.capacity.usableBytes = *in.givenUsableBytes;
    p.ceilingFraction = in.ceiling.value_or(defaultCeiling(in.layout.kind));
    p.ceilingBytes =
        toBytes(std::floor(static_cast<double>(p.capacity.usableBytes) * p.ceilingFraction));
    addMonths(p, in);
    p.notes.push_back("Usable capacity as given: the layout's results were imported and its "
                      "disks are unknown, so it has no expansion paths, costs or wear figures.");
    return p;
}

} // namespace

// ---------------------------------------------------------------------------------------------

Expected<LayoutProjection> projectLayout(const ProjectionInput& in) {
    if (in.years < 1 || in.years > maxYears)
        return badInput("years: must be between 1 and " + std::to_string(maxYears) + ", got " +
                        std::to_string(in.years));
    if (in.ceiling && !(*in.ceiling > 0.0 && *in.ceiling <= 1.0))
        return badInput("ceiling: must be a fraction in (0, 1], e.g. 0.8, got " +
                        fixed(*in.ceiling, 3));
    if (in.growth.bytesPerYear < 0 || in.growth.annualRate < 0 ||
        !std::isfinite(in.growth.bytesPerYear) || !std::isfinite(in.growth.annualRate))
        return badInput("growth: negative growth; a projection needs growth of 0 or more");
    if (!(in.underprovisionGain > 0.0 && in.underprovisionGain <= 1.0))
        return badInput("underprovision-wa-gain: must be a factor in (0, 1] (e.g. 0.8 for "
                        "20 % less write amplification), got " +
                        fixed(in.underprovisionGain, 3));
    if (in.writeAmplification &&
        !(std::isfinite(*in.writeAmplification) && *in.writeAmplification >= 1.0))
        return badInput("write-amplification: must be 1 or more (the disks write at least what "
                        "the hosts write), got " +
                        fixed(*in.writeAmplification, 3));

    if (in.givenUsableBytes)
        return projectGivenCapacity(in);
    auto capacity = computeCapacity(in.layout);
    if (!capacity)
        return fail(capacity.error());

    LayoutProjection p;
    p.name = in.name.empty() ? std::string(layoutKindName(in.layout.kind)) : in.name;
    p.kind = in.layout.kind;
    p.diskBytes = in.layout.diskBytes;
    p.capacity = *capacity;
    if (in.layout.underprovision < 1.0) {
        CapacityInput whole = in.layout;
        whole.underprovision = 1.0;
        if (auto c = computeCapacity(whole))
            p.wholeDiskCapacity = *c;
    }
    p.ceilingFraction = in.ceiling.value_or(defaultCeiling(in.layout.kind));
    p.ceilingBytes =
        toBytes(std::floor(static_cast<double>(capacity->usableBytes) * p.ceilingFraction));

    const unsigned months = in.years * 12;
    const auto used0 = static_cast<double>(in.usedBytes);
    addMonths(p, in);

    const Simulation sim{in.growth, used0, p.ceilingFraction, months, in.years};
    for (const auto& spec : pathsFor(in.layout, p.notes)) {
        auto path = schedulePath(spec, sim, unitPriceUsd(in, spec.diskBytes));
        if (!path)
            return fail(path.error());
        if (path->stepUsableBytes == 0) {
            p.notes.push_back(std::string(expansionKindName(spec.kind)) +
                              ": a step would add no usable space; left out.");
            continue;
        }
        p.expansions.push_back(std::move(*path));
    }

    if (in.hostBytesPerDay) {
        auto wa = layoutWriteAmplification(in.layout);
        if (!wa)
            return fail(wa.error());
        WearEstimate w;
        w.layout = *wa;
        if (in.writeAmplification) {
            w.modelled = *wa;
            w.layout = {*in.writeAmplification, "given with --write-amplification"};
        }
        w.underprovisionGain = in.underprovisionGain;
        w.writeAmplification = w.layout.factor * in.underprovisionGain;
        w.hostBytesPerDay = static_cast<double>(*in.hostBytesPerDay);
        w.deviceBytesPerDay = w.hostBytesPerDay * w.writeAmplification /
                              static_cast<double>(in.layout.diskBytes.size());
        if (in.drive) {
            w.enduranceBytes = in.drive->enduranceBytes();
            if (w.enduranceBytes)
                w.years = enduranceYears(*w.enduranceBytes, w.deviceBytesPerDay);
        }
        // Worn out at years, 2 * years, ... before the horizon: bought again each time.
        if (w.years && std::isfinite(*w.years) && *w.years > 0 && *w.years < in.years)
            w.replacementDisks =
                static_cast<unsigned>(in.layout.diskBytes.size()) *
                (static_cast<unsigned>(std::ceil(static_cast<double>(in.years) / *w.years)) - 1);
        p.wear = w;
    }
    p.cost = horizonCost(p, in);
    return p;
}

} // namespace lb
