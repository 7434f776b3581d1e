// Text widths of DejaVu Sans, the font the SVG charts ask for (fonts-dejavu-core, installed with
// Chromium and Qt on Debian), so that the SVG writer can wrap titles, size legends and place
// labels without a font library: the advance widths of its glyphs in font units (2048 to the em),
// read from DejaVuSans.ttf and DejaVuSans-Bold.ttf 2.37 (their hmtx table, through cmap). No
// kerning: DejaVu's is small, and a width a few pixels wide of the truth only leaves more room.
#include "reports/font_metrics.h"

#include <algorithm>
#include <cstdint>

namespace lb::font {

namespace {

constexpr double unitsPerEm = 2048;

// Printable ASCII, from ' ' (32) to '~' (126).
constexpr std::uint16_t regularAscii[95] = {
    651,  821,  942,  1716, 1303, 1946, 1597, 563,  799,  799,  1024, 1716, 651,  739,  651,  690,
    1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690,  690,  1716, 1716, 1716, 1087,
    2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604,  604,  1343, 1141, 1767, 1532, 1612,
    1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799,  690,  799,  1716, 1024,
    1024, 1255, 1300, 1126, 1300, 1260, 721,  1300, 1298, 569,  569,  1186, 569,  1995, 1298, 1253,
    1300, 1300, 842,  1067, 803,  1298, 1212, 1675, 1212, 1212, 1075, 1303, 690,  1303, 1716};
constexpr std::uint16_t boldAscii[95] = {
    713,  934,  1067, 1716, 1425, 2052, 1786, 627,  936,  936,  1071, 1716, 778,  850,  778,  748,
    1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 819,  819,  1716, 1716, 1716, 1188,
    2048, 1585, 1561, 1503, 1700, 1399, 1399, 1681, 1714, 762,  762,  1587, 1305, 2038, 1714, 1741,
    1501, 1741, 1577, 1475, 1397, 1663, 1585, 2259, 1579, 1483, 1485, 936,  748,  936,  1716, 1024,
    1024, 1382, 1466, 1214, 1466, 1389, 891,  1466, 1458, 702,  702,  1362, 702,  2134, 1458, 1407,
    1466, 1466, 1010, 1219, 979,  1458, 1335, 1892, 1321, 1335, 1192, 1458, 748,  1458, 1716};

struct Glyph {
    char32_t code;
    std::uint16_t advance;
};
// The other characters the charts write: µ – — · ≥ ≤ × ° … → é − and the no-break space.
constexpr Glyph regularOther[] = {{0xB5, 1303},   {0x2013, 1024}, {0x2014, 2048}, {0xB7, 651},
                                  {0x2265, 1716}, {0x2264, 1716}, {0xD7, 1716},   {0xB0, 1024},
                                  {0x2026, 2048}, {0x2192, 1716}, {0xE9, 1260},   {0x2212, 1716},
                                  {0xA0, 651}};
constexpr Glyph boldOther[] = {{0xB5, 1507},   {0x2013, 1024}, {0x2014, 2048}, {0xB7, 778},
                               {0x2265, 1716}, {0x2264, 1716}, {0xD7, 1716},   {0xB0, 1024},
                               {0x2026, 2048}, {0x2192, 1716}, {0xE9, 1389},   {0x2212, 1716},
                               {0xA0, 713}};

// The next code point of UTF-8 text at `i`, which it moves past; U+FFFD for a broken sequence.
char32_t next(std::string_view text, std::size_t& i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    const int length = lead < 0x80         ? 1
                       : lead >> 5 == 0x6  ? 2
                       : lead >> 4 == 0xe  ? 3
                       : lead >> 3 == 0x1e ? 4
                                           : 0;
    if (length == 0 || i + static_cast<std::size_t>(length) > text.size()) {
        ++i;
        return 0xfffd;
    }
    char32_t code = length == 1 ? lead : lead & (0x7fU >> length);
    for (int k = 1; k < length; ++k) {
        if ((byte(i + static_cast<std::size_t>(k)) & 0xc0U) != 0x80U) {
            ++i;
            return 0xfffd;
        }
        code = (code << 6) | (byte(i + static_cast<std::size_t>(k)) & 0x3fU);
    }
    i += static_cast<std::size_t>(length);
    return code;
}

std::uint16_t advance(char32_t code, bool bold) {
    if (code >= 32 && code <= 126)
        return (bold ? boldAscii : regularAscii)[code - 32];
    for (const Glyph& g : bold ? boldOther : regularOther)
        if (g.code == code)
            return g.advance;
    // Anything else (a name in another script): as wide as an 'M', so that it is never
    // underestimated by much.
    return (bold ? boldAscii : regularAscii)['M' - 32];
}

} // namespace

double textWidth(std::string_view utf8, double pixels, bool bold) {
    double units = 0;
    for (std::size_t i = 0; i < utf8.size();)
        units += advance(next(utf8, i), bold);
    return units * pixels / unitsPerEm;
}

} // namespace lb::font
