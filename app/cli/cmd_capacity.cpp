// `layoutbench capacity`: usable space, efficiency and fault tolerance of a layout of disks.
#include "app/cli/commands.h"
#include "app/cli/terminal.h"
#include "engine/base/size.h"
#include "engine/base/utf8.h"
#include "engine/capacity/capacity.h"
#include "engine/capacity/layout.h"
#include "reports/display.h"

#include <array>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lb::cli {

namespace {

// The capacity model's fields, as this command's flags.
constexpr std::array<FieldFlag, 13> capacityFlags{{{"kind", "--kind"},
                                                   {"inner", "--inner"},
                                                   {"guest-pool", "--guest-pool"},
                                                   {"disks", "--disks"},
                                                   {"disk-size", "--disk-size"},
                                                   {"recordsize", "--recordsize"},
                                                   {"ashift", "--ashift"},
                                                   {"underprovision", "--underprovision"},
                                                   {"chunk", "--chunk"},
                                                   {"vdevs", "--vdevs"},
                                                   {"draid", "--kind"},
                                                   {"raidz-expanded-from", "--raidz-expanded-from"},
                                                   {"special", "--special"}}};

struct CapacityOptions {
    std::string kind;
    unsigned disks = 0;
    std::string diskSize;
    std::string recordsize = "128K";
    unsigned ashift = 12;
    double underprovision = 1.0;
    unsigned vdevs = 1;
    unsigned raidzExpandedFrom = 0;
    std::string zfsDevices = "whole-disk";
    std::string special; // ZFS: the special vdev's disk sizes, one per disk (two or more: a mirror)
    std::string inner;   // --kind guest: the layout passed to the guest
    std::string guestPool = "zfs-stripe"; // --kind guest: the pool the guest makes of it
    bool explain = false;                 // --explain: what each column counts
};

nlohmann::json toJson(std::string_view kind, std::size_t disks, const CapacityInput& in,
                      const Capacity& c) {
    return {{"kind", kind},
            {"disks", disks},
            {"raw_bytes", c.rawBytes},
            {"usable_bytes", c.usableBytes},
            {"data_efficiency", c.dataEfficiency},
            {"fault_tolerance", c.faultTolerance},
            {"fault_tolerance_best", c.faultToleranceBest},
            {"parity_bytes", c.parityBytes},
            {"padding_bytes", c.paddingBytes},
            {"slop_bytes", c.slopBytes},
            {"underprovisioned_bytes", c.underprovisionedBytes},
            {"mixed_size_waste_bytes", c.mixedSizeWasteBytes},
            {"reserved_bytes", c.reservedBytes},
            {"spare_bytes", c.spareBytes},
            {"pool_size_bytes", c.poolSizeBytes},
            {"special_pool_size_bytes", c.specialPoolSizeBytes},
            {"special_bytes", c.specialBytes},
            {"special_fault_tolerance",
             c.specialFaultTolerance ? nlohmann::json(*c.specialFaultTolerance) : nullptr},
            {"vdevs", in.vdevs},
            {"recordsize_bytes", in.recordsizeBytes},
            {"ashift", in.ashift},
            {"underprovision", in.underprovision}};
}

// --disk-size takes one size for every disk, or a comma-separated list of one size per disk.
Expected<std::vector<std::uint64_t>> diskSizes(const CapacityOptions& o) {
    if (o.disks == 0 && o.diskSize.find(',') == std::string::npos)
        return badInput("--disks: required (how many disks), or give --disk-size one size per "
                        "disk: 500G,500G,1T");
    auto sizes = parseDiskSizes(o.diskSize, o.disks);
    if (!sizes)
        return badInput("--disk-size: " + sizes.error().message);
    return sizes;
}

// The kinds --kind names: every disk layout ("all"), one kind, or a dRAID in OpenZFS's own
// spelling (draid2:4d:8c:1s, as zpool create takes it) with its shape.
Expected<std::pair<std::vector<LayoutKind>, DraidShape>> kindsOf(const CapacityOptions& o,
                                                                 std::size_t disks) {
    if (o.kind == "all")
        return std::pair{diskLayoutKinds(), DraidShape{}};
    if (o.kind != layoutKindName(LayoutKind::Guest) && !o.inner.empty())
        return badInput("--inner: applies to --kind guest, the layout passed to a guest");
    if (auto k = parseLayoutKind(o.kind))
        return std::pair{std::vector<LayoutKind>{*k}, DraidShape{}};
    if (auto spec = parseDraidSpec(o.kind)) {
        if (spec->children != 0 && spec->children * o.vdevs != disks)
            return badInput("--kind: " + o.kind + " has " + std::to_string(spec->children) +
                            " children but " + std::to_string(disks) + " disks are given");
        return std::pair{std::vector<LayoutKind>{spec->kind}, spec->shape};
    }
    return badInput("--kind: " + unknownLayoutKind(o.kind) +
                    "; a kind such as zfs-raidz2, 'all', or OpenZFS's dRAID spelling, e.g. "
                    "draid1:2d:5c:0s");
}

// --special: the sizes of the special vdev's disks, comma-separated; none without it.
Expected<std::vector<std::uint64_t>> specialSizes(const CapacityOptions& o) {
    if (o.special.empty())
        return std::vector<std::uint64_t>{};
    auto sizes = parseDiskSizes(o.special, 0);
    if (!sizes)
        return badInput("--special: " + sizes.error().message);
    return sizes;
}

CapacityInput capacityInput(LayoutKind kind, const std::vector<std::uint64_t>& sizes,
                            std::uint64_t record, const DraidShape& draid,
                            const CapacityOptions& o) {
    CapacityInput in;
    in.kind = kind;
    in.diskBytes = sizes;
    in.recordsizeBytes = record;
    in.ashift = o.ashift;
    in.underprovision = o.underprovision;
    in.zfsWholeDiskLabel = o.zfsDevices == "whole-disk";
    in.vdevs = o.vdevs;
    in.raidzExpandedFrom = o.raidzExpandedFrom;
    if (isDraid(kind))
        in.draid = draid;
    return in;
}

std::vector<std::string> tableRow(const CapacityInput& in, const Capacity& c) {
    return {layoutLabel(in),
            std::to_string(in.diskBytes.size()),
            formatBytes(c.rawBytes),
            formatBytes(c.usableBytes),
            display::share(c.dataEfficiency),
            std::to_string(c.faultTolerance) + " disk" + (c.faultTolerance == 1 ? "" : "s"),
            formatBytes(c.mixedSizeWasteBytes),
            formatBytes(c.spareBytes),
            formatBytes(c.specialBytes),
            formatBytes(c.parityBytes),
            formatBytes(c.paddingBytes),
            formatBytes(c.slopBytes),
            formatBytes(c.underprovisionedBytes),
            formatBytes(c.reservedBytes)};
}

// What raw holds beyond usable, so that a row adds up: mixed-size waste, dRAID spares and a
// special vdev next to usable (kept when the terminal is narrow), then parity, padding, slop,
// unpartitioned and reserved space. A column that holds nothing in any row is left out first.
display::Table capacityTable(const std::vector<std::vector<std::string>>& rows) {
    const std::vector<std::string> header{
        "kind",   "disks",   "raw",    "usable",  "data eff.", "tolerates",     "mixed sizes",
        "spares", "special", "parity", "padding", "slop",      "unpartitioned", "reserved"};
    constexpr std::size_t firstSpace = 6; // "mixed sizes"
    constexpr std::size_t whereAny = 3;   // mixed sizes, spares, special: only where any
    std::vector<bool> empty(header.size(), true);
    for (const auto& cells : rows)
        for (std::size_t i = firstSpace; i < header.size(); ++i)
            empty[i] = empty[i] && cells[i] == formatBytes(0);
    std::vector<std::size_t> shown;
    for (std::size_t i = 0; i < header.size(); ++i)
        if (i < firstSpace || !empty[i] || i >= firstSpace + whereAny)
            shown.push_back(i); // the usual parts stay, at 0 B too; the rest where any
    std::vector<std::string> headers, nothing;
    for (const auto i : shown) {
        headers.push_back(header[i]);
        if (i >= firstSpace && empty[i])
            nothing.push_back(header[i]);
    }
    display::Table table(headers);
    table.leaveOutFirst(nothing);
    for (const auto& cells : rows) {
        std::vector<std::string> kept;
        for (const auto i : shown)
            kept.push_back(cells[i]);
        table.addRow(std::move(kept));
    }
    return table;
}

// `text` on lines of at most `width` columns (0: one line), broken at spaces, later lines
// indented by two.
std::string wrapped(const std::string& text, std::size_t width) {
    if (width == 0 || text.size() <= width)
        return text + '\n';
    std::string out, line;
    std::istringstream words(text);
    for (std::string word; words >> word;) {
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            out += line + '\n';
            line = "  ";
        }
        line += (line.empty() || line == "  " ? "" : " ") + word;
    }
    return out + line + '\n';
}

// Under the table: what each column counts (--explain), or the one most misread and how to ask.
void printLegend(bool explain) {
    const std::size_t width = outputColumns();
    std::cout << '\n';
    if (!explain) {
        std::cout << wrapped("data eff.: data efficiency, the share of allocated space holding "
                             "data (not usable / raw); --explain says what each column counts.",
                             width);
        return;
    }
    for (const auto& column : capacityColumns())
        std::cout << wrapped(std::string(column.name) + ": " + std::string(column.meaning) + ".",
                             width);
}

int runCapacity(const Globals& g, const CapacityOptions& o) {
    auto sizes = diskSizes(o);
    if (!sizes)
        return report(sizes.error());
    auto record = parseSize(o.recordsize, SizeConvention::Binary);
    if (!record)
        return report(Error::badInput("--recordsize: " + record.error().message));
    auto kinds = kindsOf(o, sizes->size());
    if (!kinds)
        return report(kinds.error());
    auto special = specialSizes(o);
    if (!special)
        return report(special.error());
    if (o.zfsDevices != "whole-disk" && o.zfsDevices != "as-is")
        return report(
            Error::badInput("--zfs-devices: whole-disk or as-is, not '" + o.zfsDevices + "'"));
    nlohmann::json all = nlohmann::json::array();
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> notes;
    for (const auto kind : kinds->first) {
        auto in =
            kind == LayoutKind::Guest
                ? guestCapacityInput(capacityInput(kind, *sizes, *record, {}, o), o.inner,
                                     o.guestPool)
                : Expected<CapacityInput>(capacityInput(kind, *sizes, *record, kinds->second, o));
        if (!in)
            return report(in.error(), capacityFlags);
        in->specialDiskBytes = *special;
        auto c = computeCapacity(*in);
        if (!c) {
            if (kinds->first.size() == 1)
                return report(c.error(), capacityFlags);
            continue; // "all": skip kinds that cannot be built from these disks
        }
        auto j = toJson(layoutKindName(kind), sizes->size(), *in, *c);
        if (isDraid(kind))
            j["draid"] = layoutLabel(*in);
        if (in->raidzExpandedFrom != 0)
            j["raidz_expanded_from"] = in->raidzExpandedFrom;
        if (kind == LayoutKind::Guest) {
            j["inner"] = layoutKindName(in->kind);
            j["guest_pool"] = layoutKindName(LayoutKind::ZfsStripe);
        }
        if (auto note = redundancyNote(*in)) {
            j["redundancy_note"] = *note;
            notes.push_back(layoutLabel(*in) + ": " + *note + ".");
        }
        all.push_back(std::move(j));
        rows.push_back(tableRow(*in, *c));
    }
    if (!g.json) {
        std::cout << capacityTable(rows).render(outputColumns());
        for (const auto& note : notes)
            std::cout << '\n' << wrapped(note, outputColumns());
        printLegend(o.explain);
    } else if (kinds->first.size() == 1)
        std::cout << dumpJson(all.front(), 2) << '\n';
    else
        std::cout << dumpJson(nlohmann::json{{"layouts", all}}, 2) << '\n';
    return 0;
}

} // namespace

void addCapacity(CLI::App& app, Globals& g, Action& action) {
    auto opts = std::make_shared<CapacityOptions>();
    auto* sub = app.add_subcommand("capacity", "Usable capacity and fault tolerance of a layout");
    sub->add_option("--kind", opts->kind,
                    "Layout kind (md-raid10, zfs-raidz2, ..., guest with --inner) or 'all'")
        ->required();
    addGuestOptions(*sub, opts->inner, opts->guestPool);
    sub->add_option("--disks", opts->disks, "Number of disks")->check(CLI::Range(1U, 1024U));
    sub->add_option("--disk-size", opts->diskSize,
                    "Size of each disk (500G = 500*10^9 bytes, 465GiB), or one per disk: 500G,1T")
        ->required();
    sub->add_option("--recordsize", opts->recordsize, "ZFS record size for efficiency")
        ->capture_default_str();
    sub->add_option("--ashift", opts->ashift, "ZFS sector shift")->capture_default_str();
    sub->add_option("--underprovision", opts->underprovision,
                    "Fraction of each disk partitioned, e.g. 0.8 or 80%")
        ->transform(fractionOrPercent())
        ->capture_default_str();
    sub->add_option("--vdevs", opts->vdevs,
                    "ZFS mirror/raidz/draid: split the disks into this many top-level vdevs")
        ->check(CLI::Range(1U, 1024U))
        ->capture_default_str();
    sub->add_option("--raidz-expanded-from", opts->raidzExpandedFrom,
                    "RAIDZ created with this many disks, then expanded (OpenZFS 2.3) to --disks");
    sub->add_option("--special", opts->special,
                    "ZFS: the special vdev's disk sizes, one per disk (256G,256G: a mirror; one "
                    "size: a single device, which the pool cannot lose)");
    sub->add_flag("--explain", opts->explain, "Say under the table what each column counts");
    sub->add_option("--zfs-devices", opts->zfsDevices,
                    "whole-disk: Linux OpenZFS partitions each disk (GPT, 8 MiB partition 9); "
                    "as-is: FreeBSD disks, files, partitions made beforehand")
        ->capture_default_str();
    addGlobalOptions(*sub, g);
    sub->callback([&g, &action, opts] { action = [&g, opts] { return runCapacity(g, *opts); }; });
}

} // namespace lb::cli
