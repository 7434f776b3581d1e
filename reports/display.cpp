#include "reports/display.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace lb::display {

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

std::string Table::render() const {
    std::vector<std::size_t> widths(headers_.size());
    for (std::size_t c = 0; c < headers_.size(); ++c) {
        widths[c] = width(headers_[c]);
        for (const auto& row : rows_)
            widths[c] = std::max(widths[c], width(row[c]));
    }
    std::string out;
    auto emit = [&](const std::vector<std::string>& cells, bool header) {
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const std::size_t pad = widths[c] - width(cells[c]);
            const bool right = !header && numeric(cells[c]);
            if (right)
                out.append(pad, ' ');
            out += cells[c];
            if (!right && c + 1 < cells.size())
                out.append(pad, ' ');
            if (c + 1 < cells.size())
                out += "  ";
        }
        out += '\n';
    };
    emit(headers_, true);
    std::vector<std::string> rule;
    for (auto w : widths)
        rule.emplace_back(w, '-');
    emit(rule, true);
    for (const auto& row : rows_)
        emit(row, false);
    return out;
}

} // namespace lb::display
