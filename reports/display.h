// Conversion from canonical units to what people read: MB/s (10^6 bytes/s), ms, %. Only the
// reports and the applications convert; everything underneath stays canonical.
#pragma once

#include "engine/capacity/projection.h"
#include "engine/measure/metric.h"

#include <string>
#include <utility>
#include <vector>

namespace lb::display {

// 343719*1024 bytes/s -> "352.0 MB/s"; 1.5e6 ns -> "1.50 ms"; 12 ops/s -> "12.0 ops/s".
std::string value(double canonical, Unit unit);
std::string percent(double fraction, int decimals = 1); // 0.58 -> "+58.0 %" (an overhead)
std::string share(double fraction, int decimals = 1);   // 0.58 -> "58.0 %" (a part of a whole)
std::string ratio(double r);                            // "1.58"
// A clause as a sentence's start: its first letter a capital ("settled: ..." -> "Settled: ...").
std::string sentence(std::string clause);
std::string usd(double v); // "$1080"

// "Cost over 5 years: $1440: the disks $1080 (price given: 25/TB), worn-out disks bought again
// $0, expansion by md-grow $360."
std::string horizonCost(const HorizonCost& cost, unsigned years);

// "Underprovisioned: usable 2.34 TB instead of 2.93 TB on whole disks (1.00 TB left
// unpartitioned)."; empty when the layout's disks are whole. Sizes in TiB when `binary`.
std::string underprovisioned(const LayoutProjection& p, bool binary);

// The unit an axis shows values of `unit` in, chosen so the largest value (canonical) reads 1 to
// 999: bytes/s in B/s, kB/s, MB/s, GB/s or TB/s (decimal, as value() shows MB/s); nanoseconds in
// ns, µs, ms or s; ops/s in ops/s, k ops/s or M ops/s; seconds, percent and counts as they are.
// Displayed = canonical / divisor.
struct AxisUnit {
    double divisor = 1;
    std::string label; // "MB/s"
    bool operator==(const AxisUnit&) const = default;
};
AxisUnit axisUnit(double largest, Unit unit);

// The decimal prefix ("", "k", "M", "G", "T", "P") and its scale in which `largest` reads 1 to
// 999 (below 1: none), as drives are sold.
std::pair<double, std::string> decimalPrefix(double largest);
// The same in powers of 1024: {2^40, "Ti"} for 5 TiB.
std::pair<double, std::string> binaryPrefix(double largest);

// A plain-text table with aligned columns: numbers right-aligned, text left-aligned.
class Table {
public:
    explicit Table(std::vector<std::string> headers);
    void addRow(std::vector<std::string> cells);
    // The columns that may be left out when the table is wider than the terminal, the first
    // to go first. Default: from the right, never the first column.
    void leaveOutFirst(std::vector<std::string> headers);
    // Every row on one line of at most `maxWidth` display columns (0: no limit): the columns
    // of leaveOutFirst are left out, then text columns shortened (ending in "…", never below
    // their header or 8 columns), then columns left out from the right (never the first); a
    // last line names the columns not shown. Numbers and the first column, which names the
    // row, are never cut.
    std::string render(std::size_t maxWidth = 0) const;

private:
    std::vector<std::string> headers_;
    std::vector<std::vector<std::string>> rows_;
    std::vector<std::string> leaveOut_;
};

} // namespace lb::display
