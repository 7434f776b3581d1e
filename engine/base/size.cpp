#include "engine/base/size.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace lb {

namespace {

constexpr std::uint64_t kilo = 1000;

// Unit letters, case-insensitive: K M G T P with an optional B are powers of 1000, the same
// with "i" (KiB, Gi) are powers of 1024, B alone is bytes. Returns 0 for an unknown unit.
std::uint64_t unitMultiplier(std::string_view unit, SizeConvention convention) {
    std::string u;
    for (char c : unit)
        u.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (u.empty() || u == "b")
        return 1;
    bool binary = convention == SizeConvention::Binary;
    if (u.back() == 'b') {
        u.pop_back();
        binary = false;
    }
    if (u.size() == 2 && u[1] == 'i') {
        binary = true;
        u.pop_back();
    }
    if (u.size() != 1)
        return 0;
    static constexpr std::string_view letters = "kmgtp";
    const auto pos = letters.find(u[0]);
    if (pos == std::string_view::npos)
        return 0;
    std::uint64_t m = 1;
    for (std::size_t i = 0; i <= pos; ++i)
        m *= binary ? 1024 : kilo;
    return m;
}

// Decimals an approximate size keeps: enough for any figure a tool prints, few enough that the
// fraction times a unit never overflows (see below).
constexpr std::uint64_t approximateDecimals = 1'000'000;

// parseSize, and with `roundDown` parseApproximateSize.
// The number a size starts with: its whole part and its fraction, kept as numerator/denominator
// so "1.5T" stays exact; and where the unit starts.
struct SizeNumber {
    std::uint64_t whole = 0;
    std::uint64_t fracNum = 0, fracDen = 1;
    std::size_t end = 0;
};

Expected<SizeNumber> readSizeNumber(std::string_view text, const std::string& original,
                                    bool roundDown) {
    SizeNumber n;
    std::size_t& i = n.end;
    bool digits = false;
    constexpr auto max = std::numeric_limits<std::uint64_t>::max();
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        const auto d = static_cast<std::uint64_t>(text[i] - '0');
        if (n.whole > (max - d) / 10)
            return badInput("size '" + original + "' is too large");
        n.whole = n.whole * 10 + d;
        digits = true;
        ++i;
    }
    if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
            if (roundDown && n.fracDen >= approximateDecimals) { // the rest only rounds down
                digits = true;
                ++i;
                continue;
            }
            if (n.fracDen > max / 10)
                return badInput("size '" + original + "' has too many decimals");
            n.fracNum = n.fracNum * 10 + static_cast<std::uint64_t>(text[i] - '0');
            n.fracDen *= 10;
            digits = true;
            ++i;
        }
    }
    if (!digits)
        return badInput("size '" + original + "' does not start with a number");
    return n;
}

// The number times the unit's multiplier, exactly (or rounded down where asked).
Expected<std::uint64_t> scaledSize(const SizeNumber& n, std::uint64_t multiplier,
                                   const std::string& original, bool roundDown) {
    constexpr auto max = std::numeric_limits<std::uint64_t>::max();
    if (n.whole != 0 && multiplier > max / n.whole)
        return badInput("size '" + original + "' is too large");
    std::uint64_t bytes = n.whole * multiplier;
    if (n.fracNum != 0 && roundDown) {
        // fracNum * multiplier / fracDen, exactly, rounded down: multiplier = q * fracDen + r,
        // and fracNum * r < 10^12 fits.
        const std::uint64_t q = multiplier / n.fracDen, r = multiplier % n.fracDen;
        const std::uint64_t part = n.fracNum * q + n.fracNum * r / n.fracDen;
        if (bytes > max - part)
            return badInput("size '" + original + "' is too large");
        bytes += part;
    } else if (n.fracNum != 0) {
        if (multiplier > max / n.fracNum || (n.fracNum * multiplier) % n.fracDen != 0)
            return badInput("size '" + original + "' is not a whole number of bytes");
        bytes += n.fracNum * multiplier / n.fracDen;
    }
    return bytes;
}

Expected<std::uint64_t> readSize(std::string_view text, SizeConvention convention, bool roundDown) {
    const std::string original(text);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    if (text.empty())
        return badInput("empty size");
    LB_TRY(number, readSizeNumber(text, original, roundDown));
    std::string_view unit = text.substr(number.end);
    while (!unit.empty() && unit.front() == ' ')
        unit.remove_prefix(1);
    const std::uint64_t multiplier = unitMultiplier(unit, convention);
    if (multiplier == 0)
        return badInput("size '" + original + "' has an unknown unit '" + std::string(unit) +
                        "' (K/M/G/T[B] are powers of 1000, KiB/MiB/GiB/TiB powers of 1024)");
    return scaledSize(number, multiplier, original, roundDown);
}

} // namespace

Expected<std::uint64_t> parseSize(std::string_view text, SizeConvention convention) {
    return readSize(text, convention, false);
}

Expected<std::uint64_t> parseApproximateSize(std::string_view text, SizeConvention convention) {
    return readSize(text, convention, true);
}

Expected<std::vector<std::uint64_t>> parseDiskSizes(std::string_view list, unsigned disks) {
    std::vector<std::uint64_t> sizes;
    std::size_t start = 0;
    while (start <= list.size()) {
        const auto comma = list.find(',', start);
        const auto item = list.substr(
            start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        auto size = parseSize(item);
        if (!size)
            return fail(size.error());
        sizes.push_back(*size);
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    if (sizes.size() == 1 && disks > 1)
        sizes.assign(disks, sizes.front());
    if (disks != 0 && sizes.size() != disks)
        return badInput(std::to_string(sizes.size()) + " sizes for " + std::to_string(disks) +
                        " disks");
    return sizes;
}

Expected<double> parseFraction(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    const bool percent = !text.empty() && text.back() == '%';
    if (percent) {
        text.remove_suffix(1);
        while (!text.empty() && text.back() == ' ')
            text.remove_suffix(1);
    }
    // from_chars: the C locale's decimal point whatever the process's locale (the GUI sets one).
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
        !std::isfinite(value))
        return badInput(std::string("'")
                            .append(text)
                            .append(percent ? "%" : "")
                            .append("' is not a fraction or a percentage (0.8 or 80%)"));
    return percent ? value / 100.0 : value;
}

std::string formatBytes(std::uint64_t bytes, bool binary) {
    static constexpr std::array<const char*, 6> dec{"B", "kB", "MB", "GB", "TB", "PB"};
    static constexpr std::array<const char*, 6> bin{"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    const double base = binary ? 1024.0 : 1000.0;
    auto value = static_cast<double>(bytes);
    std::size_t u = 0;
    while (value >= base && u + 1 < dec.size()) {
        value /= base;
        ++u;
    }
    char buf[64];
    if (u == 0)
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    else
        std::snprintf(buf, sizeof buf, "%.2f %s", value, binary ? bin[u] : dec[u]);
    return buf;
}

std::string fractionText(double fraction) {
    const double percent = fraction * 100.0;
    if (std::abs(percent - std::round(percent)) < 1e-9)
        return fixed(std::round(percent), 0) + "%";
    std::string text = fixed(percent, 6);
    while (text.back() == '0')
        text.pop_back();
    if (text.back() == '.')
        text.pop_back();
    return text + "%";
}

std::string sizeText(std::uint64_t bytes) {
    struct Unit {
        std::uint64_t bytes;
        const char* name;
        bool decimal;
    };
    static constexpr std::array<Unit, 8> units{{{1'000'000'000'000, "T", true},
                                                {1'000'000'000, "G", true},
                                                {1'000'000, "M", true},
                                                {1'000, "K", true},
                                                {TiB, "TiB", false},
                                                {GiB, "GiB", false},
                                                {MiB, "MiB", false},
                                                {KiB, "KiB", false}}};
    // The shortest text that is exact: a whole number of a unit, or one decimal of a decimal
    // unit ("1.1T"), which parseSize reads back exactly; the bytes when nothing is shorter.
    std::string best = std::to_string(bytes);
    const auto consider = [&best](std::string text) {
        if (text.size() < best.size())
            best = std::move(text);
    };
    for (const Unit& u : units) {
        if (bytes < u.bytes)
            continue;
        if (bytes % u.bytes == 0) {
            consider(std::to_string(bytes / u.bytes) + u.name);
        } else if (u.decimal && bytes % (u.bytes / 10) == 0) {
            std::string text = std::to_string(bytes / u.bytes);
            text += '.';
            text += std::to_string(bytes % u.bytes / (u.bytes / 10));
            text += u.name;
            consider(std::move(text));
        }
    }
    return best;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string formatRate(double bytesPerSecond) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f MB/s", bytesPerSecond / 1e6);
    return buf;
}

} // namespace lb
