// How wide text is in DejaVu Sans, the font of the SVG charts, without a font library: for
// wrapping titles, sizing legends and boxes behind labels. No Qt.
#pragma once

#include <string_view>

namespace lb::font {

// The font's ascent and descent as fractions of its size (the em): a line of text is
// (ascent + descent) * pixels high, its baseline ascent * pixels below its top.
inline constexpr double ascent = 1901.0 / 2048.0;
inline constexpr double descent = 483.0 / 2048.0;

// The width in pixels of UTF-8 text set at `pixels` (the em), regular or bold.
double textWidth(std::string_view utf8, double pixels, bool bold = false);

} // namespace lb::font
