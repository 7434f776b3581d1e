#include "reports/display.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace lb::display {

std::string sentence(std::string clause) {
    if (!clause.empty() && clause[0] >= 'a' && clause[0] <= 'z')
        clause[0] = static_cast<char>(clause[0] - 'a' + 'A');
    return clause;
}

namespace {

// "<value with `decimals` places> <suffix>"
std::string format(int decimals, double v, const char* suffix) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f%s%s", decimals, v, *suffix ? " " : "", suffix);
    return buf;
}

// Display width in code points, so "µs" and "—" do not break the alignment.
std::size_t width(const std::string& s) {
    std::size_t n = 0;
    for (char c : s)
        if ((static_cast<unsigned char>(c) & 0xC0U) != 0x80U)
            ++n;
    return n;
}

bool numeric(const std::string& s) {
    return !s.empty() && (std::isdigit(static_cast<unsigned char>(s[0])) ||
                          (s.size() > 1 && (s[0] == '-' || s[0] == '+') &&
                           std::isdigit(static_cast<unsigned char>(s[1]))));
}

} // namespace

std::string value(double canonical, Unit unit) {
    switch (unit) {
    case Unit::BytesPerSecond:
        return format(1, canonical / 1e6, "MB/s");
    case Unit::OpsPerSecond:
        return format(1, canonical, "ops/s");
    case Unit::Nanoseconds:
        if (canonical >= 1e6)
            return format(2, canonical / 1e6, "ms");
        return format(1, canonical / 1e3, "µs");
    case Unit::Seconds:
        return format(2, canonical, "s");
    case Unit::Percent:
        return format(0, canonical, "%");
    case Unit::Count:
        return format(0, canonical, "");
    }
    return format(2, canonical, "");
}

std::pair<double, std::string> decimalPrefix(double largest) {
    static const std::pair<double, const char*> prefixes[] = {
        {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
    for (const auto& [scale, prefix] : prefixes)
        if (std::abs(largest) >= scale)
            return {scale, prefix};
    return {1.0, ""};
}

std::pair<double, std::string> binaryPrefix(double largest) {
    static const std::pair<double, const char*> prefixes[] = {{1125899906842624.0, "Pi"},
                                                              {1099511627776.0, "Ti"},
                                                              {1073741824.0, "Gi"},
                                                              {1048576.0, "Mi"},
                                                              {1024.0, "Ki"}};
    for (const auto& [scale, prefix] : prefixes)
        if (std::abs(largest) >= scale)
            return {scale, prefix};
    return {1.0, ""};
}

AxisUnit axisUnit(double largest, Unit unit) {
    largest = std::abs(largest);
    switch (unit) {
    case Unit::BytesPerSecond: {
        auto [scale, prefix] = decimalPrefix(std::min(largest, 999e12)); // TB/s at most
        return {scale, prefix + "B/s"};
    }
    case Unit::OpsPerSecond: {
        auto [scale, prefix] = decimalPrefix(std::min(largest, 999e6)); // M ops/s at most
        return {scale, prefix.empty() ? "ops/s" : prefix + " ops/s"};
    }
    case Unit::Nanoseconds:
        if (largest >= 1e9)
            return {1e9, "s"};
        if (largest >= 1e6)
            return {1e6, "ms"};
        if (largest >= 1e3)
            return {1e3, "µs"};
        return {1, "ns"};
    case Unit::Seconds:
        return {1, "s"};
    case Unit::Percent:
        return {1, "%"};
    case Unit::Count:
        return {1, ""};
    }
    return {1, ""};
}

std::string percent(double fraction, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.*f %%", decimals, fraction * 100.0);
    return buf;
}

std::string share(double fraction, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f %%", decimals, fraction * 100.0);
    return buf;
}

std::string usd(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "$%.0f", v);
    return buf;
}

std::string horizonCost(const HorizonCost& c, unsigned years) {
    std::string out = "Cost over " + std::to_string(years) + " years: " + usd(c.totalUsd) +
                      ": the disks " + usd(c.purchaseUsd) + " (" + c.priceBasis + ")";
    if (c.replacementUsd > 0)
        out += ", worn-out disks bought again " + usd(c.replacementUsd);
    if (c.expansion)
        out += ", expansion by " + std::string(expansionKindName(*c.expansion)) + " " +
               usd(c.expansionUsd);
    else if (c.expansionShort)
        out += "; no expansion path keeps up with the growth, so the total leaves out what "
               "growing it would cost";
    else
        out += "; no expansion needed";
    return out + ".";
}

std::string underprovisioned(const LayoutProjection& p, bool binary) {
    if (!p.wholeDiskCapacity)
        return {};
    std::string out = "Underprovisioned: usable ";
    out += formatBytes(p.capacity.usableBytes, binary);
    out += " instead of ";
    out += formatBytes(p.wholeDiskCapacity->usableBytes, binary);
    out += " on whole disks (";
    out += formatBytes(p.capacity.underprovisionedBytes, binary);
    out += " left unpartitioned).";
    return out;
}

std::string ratio(double r) {
    if (std::isinf(r))
        return "inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", r);
    return buf;
}

Table::Table(std::vector<std::string> headers) : headers_(std::move(headers)) {}

void Table::addRow(std::vector<std::string> cells) {
    cells.resize(headers_.size());
    rows_.push_back(std::move(cells));
}

void Table::leaveOutFirst(std::vector<std::string> headers) {
    leaveOut_ = std::move(headers);
}

namespace {

// The first `n` display columns of `s`, the last of them "…" when it was cut.
std::string shortened(const std::string& s, std::size_t n) {
    if (width(s) <= n)
        return s;
    std::string out;
    std::size_t w = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const bool starts = (static_cast<unsigned char>(s[i]) & 0xC0U) != 0x80U;
        if (starts && ++w == n)
            break;
        out += s[i];
    }
    return out + "…";
}

// What a table shows: each column's width, whether it is shown, and the columns left out.
struct Fit {
    std::vector<std::size_t> widths;
    std::vector<bool> shown;
    std::vector<std::string> left;

    std::size_t total() const {
        std::size_t sum = 0, columns = 0;
        for (std::size_t c = 0; c < widths.size(); ++c)
            if (shown[c]) {
                sum += widths[c];
                ++columns;
            }
        return sum + (columns > 1 ? 2 * (columns - 1) : 0);
    }
};

// The columns the caller can spare, then the widest text column a display column at a time,
// then whole columns from the right, until the table is at most maxWidth wide.
Fit fitColumns(const std::vector<std::string>& headers,
               const std::vector<std::vector<std::string>>& rows,
               const std::vector<std::string>& spare, std::size_t maxWidth) {
    const std::size_t n = headers.size();
    Fit fit{std::vector<std::size_t>(n), std::vector<bool>(n, true), {}};
    std::vector<std::size_t> least(n);
    for (std::size_t c = 0; c < n; ++c) {
        bool text = false;
        fit.widths[c] = width(headers[c]);
        for (const auto& row : rows) {
            fit.widths[c] = std::max(fit.widths[c], width(row[c]));
            text = text || (!row[c].empty() && !numeric(row[c]));
        }
        // The first column names the row (a kind, a metric): never shortened.
        least[c] = text && c > 0
                       ? std::min(fit.widths[c], std::max<std::size_t>(width(headers[c]), 8))
                       : fit.widths[c];
    }
    if (maxWidth == 0)
        return fit;
    auto leaveOut = [&](const std::string& name) {
        const auto at = std::find(headers.begin() + 1, headers.end(), name);
        if (at == headers.end() || fit.total() <= maxWidth)
            return;
        fit.shown[static_cast<std::size_t>(at - headers.begin())] = false;
        fit.left.push_back(name);
    };
    for (const auto& name : spare)
        leaveOut(name);
    while (fit.total() > maxWidth) {
        std::size_t widest = n;
        for (std::size_t c = 0; c < n; ++c)
            if (fit.shown[c] && fit.widths[c] > least[c] &&
                (widest == n || fit.widths[c] > fit.widths[widest]))
                widest = c;
        if (widest == n)
            break;
        --fit.widths[widest];
    }
    for (std::size_t c = n; c-- > 1;)
        if (fit.shown[c])
            leaveOut(headers[c]);
    return fit;
}

} // namespace

std::string Table::render(std::size_t maxWidth) const {
    const Fit fit = fitColumns(headers_, rows_, leaveOut_, maxWidth);
    std::size_t last = 0;
    for (std::size_t c = 0; c < headers_.size(); ++c)
        if (fit.shown[c])
            last = c;
    std::string out;
    auto emit = [&](const std::vector<std::string>& cells, bool header) {
        for (std::size_t c = 0; c <= last; ++c) {
            if (!fit.shown[c])
                continue;
            const std::string cell = shortened(cells[c], fit.widths[c]);
            const std::size_t pad = fit.widths[c] - width(cell);
            const bool right = !header && numeric(cell);
            if (right)
                out.append(pad, ' ');
            out += cell;
            if (!right && c != last)
                out.append(pad, ' ');
            if (c != last)
                out += "  ";
        }
        out += '\n';
    };
    emit(headers_, true);
    std::vector<std::string> rule;
    for (auto w : fit.widths)
        rule.emplace_back(w, '-');
    emit(rule, true);
    for (const auto& row : rows_)
        emit(row, false);
    if (!fit.left.empty()) {
        std::string names;
        for (const auto& name : fit.left)
            names += (names.empty() ? "" : ", ") + name;
        out += shortened("(not shown to fit: " + names + ")", maxWidth) + "\n";
    }
    return out;
}

} // namespace lb::display
