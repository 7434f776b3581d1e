// The drive catalog (data/drives.toml): published capacity, rated endurance, reliability and an
// illustrative price of common drives, so a projection can say when SSDs wear out, what growing
// costs, and how likely the layout is to lose its data (engine/capacity/risk.h).
#pragma once

#include "engine/base/expected.h"
#include "engine/base/input.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

enum class DriveMedium { Ssd, Hdd };

struct Drive {
    std::string id;    // "samsung-870-evo-1tb": what --drive takes
    std::string model; // "Samsung 870 EVO 1TB", for people
    DriveMedium medium = DriveMedium::Ssd;
    std::uint64_t capacityBytes = 0; // as sold: decimal bytes
    // Rated endurance, as the manufacturer publishes it: terabytes written (10^12 bytes) or drive
    // writes per day over the warranty. An SSD has one of the two; an HDD has neither.
    std::optional<double> tbw;
    std::optional<double> dwpd;
    std::optional<double> warrantyYears;
    double priceUsd = 0; // illustrative; the catalog file says so
    // Reliability, with where the figures come from: the annual failure rate (a fraction) and the
    // rated unrecoverable read errors per bit read (1e-15 for "1 in 10^15 bits"). Either needs
    // reliabilitySource; a catalog of one's own may leave all three out (the risk model then
    // says it assumed them).
    std::optional<double> afr;
    std::optional<double> urePerBit;
    std::string reliabilitySource;
    unsigned line = 0;  // where the entry starts in the catalog, for messages
    std::string source; // the catalog file it came from, for messages

    // Rated bytes written per drive: TBW * 10^12, else DWPD * capacity * 365 * warranty years.
    // nullopt when endurance does not apply (HDDs).
    std::optional<double> enduranceBytes() const;
    bool operator==(const Drive&) const = default;
};

std::string_view driveMediumName(DriveMedium m); // "ssd", "hdd"

struct DriveCatalog {
    std::string source;        // the file it came from
    std::vector<Drive> drives; // in file order

    const Drive* find(std::string_view id) const;
    // Unknown id -> badInput naming `field` and listing the known ids.
    Expected<Drive> lookup(std::string_view id, std::string_view field = "drive") const;
};

// Parses catalog text. Errors are badInput "SOURCE:LINE:COL: field: message": TOML syntax, unknown
// keys, missing or mistyped fields, duplicate ids, an SSD without endurance, an HDD with one, an
// afr or ure outside (0, 1), either without reliability_source or that source without them.
Expected<DriveCatalog> parseDriveCatalog(std::string_view text, const std::string& sourceName);
// Reads (through readInput, within `limit`) and parses a catalog file; an unreadable file is
// badInput naming the field catalog.
Expected<DriveCatalog> loadDriveCatalog(const std::string& path,
                                        const InputLimit& limit = documentLimit());

} // namespace lb
