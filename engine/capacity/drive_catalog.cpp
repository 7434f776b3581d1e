// Loads data/drives.toml. The catalog feeds money and wear-out dates into a purchase decision, so
// it is strict: a misspelt key or a duplicated drive is an error naming its line, never a silently
// ignored value.
#include "engine/capacity/drive_catalog.h"

#include "engine/base/size.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <toml++/toml.h>

namespace lb {

namespace {

constexpr double bytesPerTb = 1e12; // TBW is quoted in decimal terabytes
constexpr double daysPerYear = 365;

std::string at(const std::string& source, const toml::source_region& where,
               const std::string& field, const std::string& message) {
    return source + ":" + std::to_string(where.begin.line) + ":" +
           std::to_string(where.begin.column) + ": " + field + ": " + message;
}

constexpr std::array<std::string_view, 11> driveKeys{
    "id",        "model", "medium", "capacity_bytes",    "tbw", "dwpd", "warranty_years",
    "price_usd", "afr",   "ure",    "reliability_source"};

// A positive number (integer or float) or nothing; anything else names the key.
Expected<std::optional<double>> optionalNumber(const toml::table& t, const char* key,
                                               const std::string& source) {
    const toml::node* node = t.get(key);
    if (!node)
        return std::optional<double>{};
    std::optional<double> v;
    if (const auto* i = node->as_integer())
        v = static_cast<double>(i->get());
    else if (const auto* f = node->as_floating_point())
        v = f->get();
    if (!v)
        return badInput(at(source, node->source(), key, "must be a number"));
    if (!(*v > 0) || !std::isfinite(*v))
        return badInput(at(source, node->source(), key, "must be positive"));
    return v;
}

Expected<std::string> requiredString(const toml::table& t, const char* key,
                                     const toml::source_region& entry, const std::string& source) {
    const toml::node* node = t.get(key);
    if (!node)
        return badInput(at(source, entry, key, "missing"));
    const auto* s = node->as_string();
    if (!s || s->get().empty())
        return badInput(at(source, node->source(), key, "must be a non-empty string"));
    return s->get();
}

// Every key of a [[drive]] one the catalog knows.
Expected<void> rejectUnknownKeys(const toml::table& t, const std::string& source) {
    for (const auto& [key, node] : t) {
        if (std::find(driveKeys.begin(), driveKeys.end(), key.str()) == driveKeys.end()) {
            std::string allowed;
            for (auto k : driveKeys)
                allowed += (allowed.empty() ? "" : ", ") + std::string(k);
            return badInput(at(source, key.source(), std::string(key.str()),
                               "unknown key (allowed: " + allowed + ")"));
        }
    }
    return {};
}

// What the drive is: its id, model, medium and capacity.
Expected<void> parseIdentity(const toml::table& t, const std::string& source, Drive& d) {
    const auto& region = t.source();
    LB_TRY(id, requiredString(t, "id", region, source));
    d.id = id;
    LB_TRY(model, requiredString(t, "model", region, source));
    d.model = model;
    LB_TRY(medium, requiredString(t, "medium", region, source));
    if (medium == "ssd")
        d.medium = DriveMedium::Ssd;
    else if (medium == "hdd")
        d.medium = DriveMedium::Hdd;
    else
        return badInput(at(source, t.get("medium")->source(), "medium",
                           "must be \"ssd\" or \"hdd\", got \"" + medium + "\""));
    const toml::node* capacity = t.get("capacity_bytes");
    if (!capacity)
        return badInput(at(source, region, "capacity_bytes", "missing"));
    const auto* capacityInt = capacity->as_integer();
    if (!capacityInt || capacityInt->get() <= 0)
        return badInput(at(source, capacity->source(), "capacity_bytes",
                           "must be a positive whole number of bytes"));
    d.capacityBytes = static_cast<std::uint64_t>(capacityInt->get());
    return {};
}

// An SSD's rated endurance, tbw or dwpd with warranty_years; none for an HDD.
Expected<void> checkEndurance(const toml::table& t, const std::string& source, const Drive& d) {
    if (d.medium == DriveMedium::Ssd) {
        if (!d.tbw && !d.dwpd)
            return badInput(at(source, t.source(), "tbw",
                               "an SSD needs its rated endurance: tbw, or dwpd with "
                               "warranty_years"));
        if (d.tbw && d.dwpd)
            return badInput(at(source, t.get("dwpd")->source(), "dwpd",
                               "give tbw or dwpd, not both (they would have to agree)"));
        if (d.dwpd && !d.warrantyYears)
            return badInput(at(source, t.get("dwpd")->source(), "warranty_years",
                               "dwpd needs warranty_years to become bytes written"));
    } else if (d.tbw || d.dwpd) {
        const char* key = d.tbw ? "tbw" : "dwpd";
        return badInput(at(source, t.get(key)->source(), key,
                           "an HDD has no flash endurance rating; leave it out"));
    }
    return {};
}

// A fraction strictly between 0 and 1: a number (0.0058), or a percentage as text ("0.58%").
Expected<std::optional<double>> optionalFraction(const toml::table& t, const char* key,
                                                 const std::string& source) {
    const toml::node* node = t.get(key);
    if (!node)
        return std::optional<double>{};
    std::optional<double> v;
    if (const auto* text = node->as_string()) {
        auto fraction = parseFraction(text->get());
        if (!fraction)
            return badInput(at(source, node->source(), key, fraction.error().message));
        v = *fraction;
    } else {
        LB_TRY(number, optionalNumber(t, key, source));
        v = number;
    }
    if (!(*v > 0.0 && *v < 1.0))
        return badInput(at(source, node->source(), key,
                           "must be a fraction between 0 and 1 (0.0058, or \"0.58%\")"));
    return v;
}

// The annual failure rate and the unrecoverable-read rate, with where they come from.
Expected<void> parseReliability(const toml::table& t, const std::string& source, Drive& d) {
    LB_TRY(afr, optionalFraction(t, "afr", source));
    LB_TRY(ure, optionalFraction(t, "ure", source));
    d.afr = afr;
    d.urePerBit = ure;
    const toml::node* from = t.get("reliability_source");
    if (from) {
        LB_TRY(text, requiredString(t, "reliability_source", t.source(), source));
        d.reliabilitySource = text;
    }
    if ((afr || ure) && !from)
        return badInput(at(source, t.get(afr ? "afr" : "ure")->source(), "reliability_source",
                           "missing: say where the afr and ure figures come from"));
    if (from && !afr && !ure)
        return badInput(at(source, from->source(), "reliability_source",
                           "names the source of afr and ure, and neither is given"));
    return {};
}

Expected<Drive> parseDrive(const toml::table& t, const std::string& source) {
    LB_TRY_VOID(rejectUnknownKeys(t, source));
    Drive d;
    d.line = static_cast<unsigned>(t.source().begin.line);
    d.source = source;
    LB_TRY_VOID(parseIdentity(t, source, d));
    LB_TRY(tbw, optionalNumber(t, "tbw", source));
    LB_TRY(dwpd, optionalNumber(t, "dwpd", source));
    LB_TRY(warranty, optionalNumber(t, "warranty_years", source));
    LB_TRY(price, optionalNumber(t, "price_usd", source));
    if (!price)
        return badInput(at(source, t.source(), "price_usd", "missing"));
    d.tbw = tbw;
    d.dwpd = dwpd;
    d.warrantyYears = warranty;
    d.priceUsd = *price;
    LB_TRY_VOID(checkEndurance(t, source, d));
    LB_TRY_VOID(parseReliability(t, source, d));
    return d;
}

} // namespace

std::optional<double> Drive::enduranceBytes() const {
    if (medium != DriveMedium::Ssd)
        return std::nullopt;
    if (tbw)
        return *tbw * bytesPerTb;
    if (dwpd && warrantyYears)
        return *dwpd * static_cast<double>(capacityBytes) * daysPerYear * *warrantyYears;
    return std::nullopt;
}

std::string_view driveMediumName(DriveMedium m) {
    return m == DriveMedium::Ssd ? "ssd" : "hdd";
}

const Drive* DriveCatalog::find(std::string_view id) const {
    for (const auto& d : drives)
        if (d.id == id)
            return &d;
    return nullptr;
}

Expected<Drive> DriveCatalog::lookup(std::string_view id, std::string_view field) const {
    if (const Drive* d = find(id))
        return *d;
    std::string known;
    for (const auto& d : drives)
        known += (known.empty() ? "" : ", ") + d.id;
    return badInput(std::string(field) + ": unknown drive '" + std::string(id) + "' in " + source +
                    " (known: " + known + ")");
}

Expected<DriveCatalog> parseDriveCatalog(std::string_view text, const std::string& sourceName) {
    toml::table root;
    try {
        root = toml::parse(text, sourceName);
    } catch (const toml::parse_error& e) {
        return badInput(at(sourceName, e.source(), "toml", std::string(e.description())));
    }
    DriveCatalog catalog;
    catalog.source = sourceName;
    for (const auto& [key, node] : root) {
        if (key.str() != "drive")
            return badInput(at(sourceName, key.source(), std::string(key.str()),
                               "unknown key (the catalog holds [[drive]] entries only)"));
    }
    const toml::node* list = root.get("drive");
    if (!list)
        return catalog; // an empty catalog is valid; lookups will say the drive is unknown
    const auto* array = list->as_array();
    if (!array || !array->is_array_of_tables())
        return badInput(
            at(sourceName, list->source(), "drive", "must be an array of tables ([[drive]])"));
    for (const auto& entry : *array) {
        auto d = parseDrive(*entry.as_table(), sourceName);
        if (!d)
            return fail(d.error());
        if (const Drive* first = catalog.find(d->id))
            return badInput(at(sourceName, entry.as_table()->get("id")->source(), "id",
                               "duplicate drive '" + d->id + "' (first defined on line " +
                                   std::to_string(first->line) + ")"));
        catalog.drives.push_back(std::move(*d));
    }
    return catalog;
}

Expected<DriveCatalog> loadDriveCatalog(const std::string& path, const InputLimit& limit) {
    auto text = readInput(path, limit);
    if (!text)
        return badInput("catalog: " + text.error().message);
    return parseDriveCatalog(*text, path);
}

} // namespace lb
