// A layout's measured fill levels tied to its projection (engine/workbench/projection_fill.h).
#include "engine/workbench/projection_fill.h"

#include "engine/base/size.h"
#include "engine/measure/fill_levels.h"

#include <cmath>
#include <cstdio>

namespace lb {

namespace {

// The share of the usable space the projection says is used in month `m` (without expansion).
double usedShare(const MonthPoint& m) {
    return m.usableBytes ? static_cast<double>(m.usedBytes) / static_cast<double>(m.usableBytes)
                         : 0.0;
}

std::optional<unsigned> monthReaching(const LayoutProjection& p, double level) {
    for (const auto& m : p.months)
        if (usedShare(m) + 1e-9 >= level)
            return m.month;
    return std::nullopt;
}

std::string ratioText(double ratio) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f×", ratio);
    return buf;
}

std::string monthText(std::optional<unsigned> month, unsigned horizonMonths) {
    if (!month)
        return std::string("beyond month ").append(std::to_string(horizonMonths));
    return std::string("month ").append(std::to_string(*month));
}

// The months between two measured levels (the figure lies between theirs) and past the last
// (nothing measured, nothing extrapolated).
void describeSpans(const LayoutProjection& projection, double lowest, double last,
                   FillProjection& out) {
    double from = lowest;
    std::optional<unsigned> fromMonth = monthReaching(projection, lowest);
    for (const auto& m : out.milestones) {
        if (fromMonth && m.month && *m.month > *fromMonth + 1) {
            const unsigned firstMonth = *fromMonth + 1, lastMonth = *m.month - 1;
            std::string months = firstMonth == lastMonth
                                     ? std::string("month ").append(std::to_string(firstMonth))
                                     : std::string("months ")
                                           .append(std::to_string(firstMonth))
                                           .append("–")
                                           .append(std::to_string(lastMonth));
            out.between.push_back(months.append(": between ")
                                      .append(fillLevelText(from))
                                      .append(" and ")
                                      .append(fillLevelText(m.level))
                                      .append(" full, between the figures measured at those "
                                              "levels"));
            out.lines.push_back(out.between.back());
        }
        out.lines.push_back(m.text);
        from = m.level;
        fromMonth = m.month;
    }
    if (const auto past = monthReaching(projection, last + 0.001))
        out.beyond = std::string("from month ")
                         .append(std::to_string(*past))
                         .append(" the pool is fuller than ")
                         .append(fillLevelText(last))
                         .append(", the last level measured: nothing was measured there and "
                                 "nothing is extrapolated");
    else
        out.beyond = std::string("within the horizon the pool stays at or below ")
                         .append(fillLevelText(last))
                         .append(", the last level measured");
    out.lines.push_back(out.beyond);
}

// Where today's use stands among the measured levels.
std::string todayText(const FillMeasured& measured, double used) {
    std::string out = std::string("month 0: ").append(fillLevelText(used)).append(" full");
    double below = measured.lowest;
    if (used + 1e-9 < below)
        return out.append(", below the lowest level measured (")
            .append(fillLevelText(below))
            .append(")");
    for (const auto& l : measured.above) {
        if (used + 1e-9 < l.level)
            return out.append(", between the levels measured at ")
                .append(fillLevelText(below))
                .append(" and ")
                .append(fillLevelText(l.level));
        below = l.level;
    }
    return out.append(", at or above the last level measured (")
        .append(fillLevelText(below))
        .append(")");
}

// What the ageing runs among `samples` wrote on the layout.
std::uint64_t ageingBytesOf(const LayoutSamples& samples) {
    double sum = 0;
    for (const auto& m : samples.metrics)
        if (m.name == "fill.level_written_bytes")
            for (const double v : m.values)
                sum += v;
    return static_cast<std::uint64_t>(std::llround(sum));
}

FillAgeingWear ageingWear(const FillMeasured& measured, const LayoutProjection& projection) {
    FillAgeingWear out;
    out.hostBytes = measured.ageingBytes;
    out.text = std::string("ageing: wrote ")
                   .append(formatBytes(out.hostBytes, false))
                   .append(" on this layout to reach the measured levels");
    const auto& wear = projection.wear;
    if (!wear || projection.diskBytes.empty()) {
        out.text.append(", which the drive-wear projection does not count (it counts the hosts' "
                        "writes alone)");
        return out;
    }
    out.deviceBytesPerDisk = static_cast<double>(out.hostBytes) * wear->writeAmplification /
                             static_cast<double>(projection.diskBytes.size());
    char factor[32];
    std::snprintf(factor, sizeof factor, "%.2f", wear->writeAmplification);
    out.text.append(" (")
        .append(
            formatBytes(static_cast<std::uint64_t>(std::llround(*out.deviceBytesPerDisk)), false))
        .append(" per disk at write amplification ")
        .append(factor);
    if (wear->enduranceBytes && *wear->enduranceBytes > 0) {
        out.enduranceShare = *out.deviceBytesPerDisk / *wear->enduranceBytes;
        char share[32];
        std::snprintf(share, sizeof share, "%.2g %%", *out.enduranceShare * 100.0);
        out.text.append(", ").append(share).append(" of its rated endurance");
    }
    out.text.append("), not counted in the wear projection, which counts the hosts' writes "
                    "alone");
    return out;
}

} // namespace

Expected<std::optional<FillMeasured>> measuredFillLevels(Store& store, const std::string& layout) {
    LB_TRY(permille, store.layoutFillLevels(layout));
    std::vector<int> levels;
    for (const int p : permille)
        if (p != asBuiltPermille)
            levels.push_back(p);
    if (levels.empty())
        return std::optional<FillMeasured>{};
    FillMeasured out;
    out.layout = layout;
    out.lowest = fillLevelOf(levels.front());
    LB_TRY(base, store.layoutSamples(layout, std::nullopt, std::nullopt, levels.front()));
    out.ageingBytes = ageingBytesOf(base);
    for (std::size_t i = 1; i < levels.size(); ++i) {
        FillMeasured::Level l;
        l.level = fillLevelOf(levels[i]);
        LB_TRY(at, store.layoutSamples(layout, std::nullopt, std::nullopt, levels[i]));
        out.ageingBytes += ageingBytesOf(at);
        // The layout against itself at the lowest level: its worst deciding metric.
        auto cmp = compareLoadedLayouts(store, layout, base, layout, at, std::nullopt);
        if (!cmp && cmp.error().kind != ErrorKind::BadInput)
            return fail(cmp.error());
        for (const auto& metric : cmp ? cmp->metrics : std::vector<MetricComparison>{})
            if (metric.decisive) {
                l.metric = metric.name;
                l.ratio = metric.ratio;
                break;
            }
        out.above.push_back(std::move(l));
    }
    return std::optional<FillMeasured>{std::move(out)};
}

FillProjection tieFillLevels(const FillMeasured& measured, const LayoutProjection& projection) {
    FillProjection out;
    out.layout = measured.layout;
    if (projection.months.empty())
        return out;
    out.today = todayText(measured, usedShare(projection.months.front()));
    out.lines.push_back(out.today);
    const unsigned horizon = projection.months.back().month;
    const std::string lowest = fillLevelText(measured.lowest);
    for (const auto& l : measured.above) {
        FillMilestone m;
        m.level = l.level;
        m.month = monthReaching(projection, l.level);
        m.metric = l.metric;
        m.ratio = l.ratio;
        m.text = monthText(m.month, horizon).append(": ").append(fillLevelText(l.level));
        m.text.append(" full; ");
        if (l.ratio)
            m.text.append(l.metric)
                .append(" takes ")
                .append(ratioText(*l.ratio))
                .append(" the time it takes at ")
                .append(lowest);
        else
            m.text.append("no deciding metric measured both there and at ").append(lowest);
        m.text.append(" (measured at ").append(fillLevelText(l.level)).append(")");
        out.milestones.push_back(std::move(m));
    }
    const double last = measured.above.empty() ? measured.lowest : measured.above.back().level;
    describeSpans(projection, measured.lowest, last, out);
    out.ageing = ageingWear(measured, projection);
    if (out.ageing.hostBytes > 0)
        out.lines.push_back(out.ageing.text);
    return out;
}

Expected<std::optional<double>> measuredFillWriteRate(Store& store, const std::string& layout) {
    LB_TRY(found, store.findLayout(layout));
    if (!found)
        return std::optional<double>{};
    LB_TRY(samples, store.layoutSamples(layout));
    for (const auto& m : samples.metrics)
        if (m.name == "fill.write_rate" && !m.values.empty())
            return std::optional<double>{median(m.values)};
    return std::optional<double>{};
}

Expected<std::optional<FillProjection>> fillProjection(Store& store, const std::string& layout,
                                                       const LayoutProjection& projection) {
    LB_TRY(measured, measuredFillLevels(store, layout));
    if (!measured)
        return std::optional<FillProjection>{};
    return std::optional<FillProjection>{tieFillLevels(*measured, projection)};
}

} // namespace lb
