// The front door's capacity projections (see projections.h).
#include "engine/workbench/projections.h"

#include "engine/base/size.h"
#include "engine/build/layout_spec.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <set>

namespace lb {

namespace {

// The growth, typed as a rate or fitted to usage samples, and the use it starts from: typed, or
// with samples the last one measured.
Expected<void> readGrowthAndUse(const ProjectionSettings& s, ProjectionRequest& r) {
    if (!s.growth.empty() && !s.samples.empty())
        return badInput("growth/samples: give one (a rate, or samples to fit)");
    if (s.growth.empty() && s.samples.empty())
        return badInput("growth: required: 30% (compound) or 2TB/y (linear), or samples to fit");
    if (!s.samples.empty()) {
        LB_TRY(samples, loadUsageSamples(s.samples));
        LB_TRY(fit, fitGrowth(samples));
        r.growth = fit.model;
        r.fit = fit;
        r.samplesPath = s.samples;
    } else {
        LB_TRY(growth, parseGrowth(s.growth));
        r.growth = growth;
    }
    if (s.used.empty() && !r.fit)
        return badInput("used: required (bytes in use now, e.g. 1.2T)");
    if (s.used.empty()) {
        r.usedBytes = r.fit->lastBytes; // start from the last measurement
        return {};
    }
    auto used = parseSize(s.used);
    if (!used)
        return badInput("used: " + used.error().message);
    r.usedBytes = *used;
    return {};
}

} // namespace

namespace {

// A size of the settings was typed in a binary unit: the use, a capacity given ("nas=3.6TiB"),
// an imported layout's disks ("nas=zfs-raidz2,10,4TiB").
bool typedInBinary(const ProjectionSettings& s) {
    const auto afterName = [](const std::string& text, std::size_t eq) {
        return eq == std::string::npos ? std::string_view() : std::string_view(text).substr(eq + 1);
    };
    if (projectionInBinaryUnits("", s.used))
        return true;
    for (const auto& c : s.capacities) // a name may hold '=': the size follows the last
        if (projectionInBinaryUnits(afterName(c, c.rfind('=')), ""))
            return true;
    for (const auto& d : s.importedDisks)
        if (projectionInBinaryUnits(afterName(d, d.find('=')), ""))
            return true;
    return false;
}

} // namespace

Expected<ProjectionRequest> projectionRequest(const ProjectionSettings& s) {
    ProjectionRequest r;
    LB_TRY_VOID(readGrowthAndUse(s, r));
    // The answer is in the unit the sizes were typed in (as `project`'s): TiB in, TiB out.
    r.binaryUnits = typedInBinary(s);
    if (s.years < 1 || s.years > 50)
        return badInput("years: must be 1 to 50");
    r.years = s.years;
    r.drive = s.drive;
    if (!s.hostWrites.empty()) {
        LB_TRY(writes, parseDailyWrites(s.hostWrites));
        r.hostBytesPerDay = writes;
    }
    LB_TRY(given, parseGivenCapacities(s.capacities));
    r.givenCapacity = std::move(given);
    LB_TRY(imported, parseImportedDisks(s.importedDisks, s.drive));
    r.importedDisks = std::move(imported);
    if (!s.price.empty()) {
        LB_TRY(price, parseDrivePrice(s.price));
        r.price = std::move(price);
    }
    LB_TRY(wa, parseWriteAmplifications(s.writeAmplification));
    r.writeAmplification = std::move(wa);
    r.ceiling = s.ceiling;
    r.underprovisionGain = s.underprovisionGain;
    r.risk.afr = s.afr;
    r.risk.replaceAfterHours = s.replaceAfterHours;
    if (s.rebuildMegabytesPerSecond)
        r.risk.rebuildBytesPerSecond = *s.rebuildMegabytesPerSecond * 1e6;
    r.risk.hotSpare = s.hotSpare;
    LB_TRY_VOID(checkRiskSettings(r.risk));
    return r;
}

Expected<std::vector<HypotheticalLayout>> hypotheticalLayouts(const HypotheticalLayoutSettings& s,
                                                              const std::optional<Drive>& drive) {
    if (s.diskSize.empty() && !drive)
        return badInput("disk-size: required (each disk's size, e.g. 500G or 4TiB, or one size "
                        "per disk), or a drive whose capacity it is");
    if (s.disks == 0 && s.diskSize.find(',') == std::string::npos)
        return badInput(
            "disks: required (how many disks) with one size for every disk (or give one size "
            "per disk: 500G,500G,1T)");
    auto sizes = s.diskSize.empty() ? Expected<std::vector<std::uint64_t>>(
                                          std::vector<std::uint64_t>(s.disks, drive->capacityBytes))
                                    : parseDiskSizes(s.diskSize, s.disks);
    if (!sizes)
        return badInput("disk-size: " + sizes.error().message);
    auto record = parseSize(s.recordsize, SizeConvention::Binary);
    if (!record)
        return badInput("recordsize: " + record.error().message);
    std::vector<HypotheticalLayout> out;
    for (const auto& name : s.kinds) {
        const auto kind = parseLayoutKind(name);
        if (!kind)
            return badInput("kind: " + unknownLayoutKind(name));
        HypotheticalLayout h;
        h.name = name;
        h.layout.kind = *kind;
        h.layout.diskBytes = *sizes;
        h.layout.recordsizeBytes = *record;
        h.layout.ashift = s.ashift;
        h.layout.underprovision = s.underprovision;
        if (*kind == LayoutKind::Guest) {
            LB_TRY(guest, guestCapacityInput(h.layout, s.inner, s.guestPool));
            h.layout = std::move(guest);
        }
        out.push_back(std::move(h));
    }
    if (!s.inner.empty() && std::none_of(out.begin(), out.end(), [](const HypotheticalLayout& h) {
            return h.layout.poolOnArray;
        }))
        return badInput("inner: applies to the kind guest, the layout passed to a guest");
    return out;
}

bool projectionInBinaryUnits(std::string_view diskSize, std::string_view used) {
    const auto typedBinary = [](std::string_view t) {
        return t.find("iB") != std::string_view::npos || t.find("ib") != std::string_view::npos;
    };
    return typedBinary(diskSize) || typedBinary(used);
}

Expected<std::map<std::string, std::uint64_t>>
parseGivenCapacities(const std::vector<std::string>& texts) {
    std::map<std::string, std::uint64_t> out;
    for (const auto& text : texts) {
        // A size never holds '=': a layout's name may.
        const auto eq = text.rfind('=');
        if (eq == std::string::npos || eq == 0)
            return badInput("capacity: '" + text + "' is not LAYOUT=SIZE (e.g. nas=12T)");
        const std::string name = text.substr(0, eq);
        // A usable capacity is read off zfs list or df: "3.6TiB" is near enough.
        auto size = parseApproximateSize(std::string_view(text).substr(eq + 1));
        if (!size)
            return badInput("capacity: " + name + ": " + size.error().message);
        if (*size == 0)
            return badInput("capacity: " + name + ": a usable capacity of 0 bytes holds nothing");
        if (!out.emplace(name, *size).second)
            return badInput("capacity: '" + name + "' is given twice");
    }
    return out;
}

namespace {

// "zfs-raidz2", "guest:md-raid6" with the disks -> the capacity model's input.
Expected<CapacityInput> importedLayout(std::string_view kindText, std::vector<std::uint64_t> disks,
                                       double partitioned) {
    CapacityInput in;
    in.diskBytes = std::move(disks);
    in.underprovision = partitioned;
    constexpr std::string_view guestPrefix = "guest:";
    if (kindText.starts_with(guestPrefix))
        return guestCapacityInput(std::move(in), kindText.substr(guestPrefix.size()),
                                  layoutKindName(LayoutKind::ZfsStripe));
    const auto kind = parseLayoutKind(kindText);
    if (!kind)
        return badInput("kind: " + unknownLayoutKind(kindText));
    if (*kind == LayoutKind::Guest)
        return badInput("kind: a guest is given as guest:INNER, e.g. guest:md-raid6");
    in.kind = *kind;
    return in;
}

// "zfs-raidz2,10,500G,80%" -> the layout of those disks.
Expected<CapacityInput> importedDisksOf(std::string_view text, const std::optional<Drive>& drive) {
    std::vector<std::string> parts;
    for (std::size_t start = 0;;) {
        const auto comma = text.find(',', start);
        parts.emplace_back(
            text.substr(start, comma == std::string_view::npos ? comma : comma - start));
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    if (parts.size() < 2 || parts.size() > 4)
        return badInput("not KIND,DISKS[,SIZE][,PARTITIONED] (e.g. zfs-raidz2,10,500G,80%)");
    unsigned count = 0;
    const auto [end, ec] =
        std::from_chars(parts[1].data(), parts[1].data() + parts[1].size(), count);
    if (ec != std::errc() || end != parts[1].data() + parts[1].size() || count == 0)
        return badInput("'" + parts[1] + "' is not a number of disks");
    std::uint64_t size = drive ? drive->capacityBytes : 0;
    if (parts.size() > 2 && !parts[2].empty()) {
        LB_TRY(typed, parseSize(parts[2]));
        size = typed;
    }
    if (size == 0)
        return badInput("no disk size: give one (zfs-raidz2,10,500G) or --drive");
    double partitioned = 1.0;
    if (parts.size() > 3) {
        LB_TRY(fraction, parseFraction(parts[3]));
        partitioned = fraction;
    }
    return importedLayout(parts[0], std::vector<std::uint64_t>(count, size), partitioned);
}

} // namespace

Expected<std::map<std::string, CapacityInput>>
parseImportedDisks(const std::vector<std::string>& texts, const std::optional<Drive>& drive) {
    std::map<std::string, CapacityInput> out;
    for (const auto& text : texts) {
        const auto eq = text.find('=');
        if (eq == std::string::npos || eq == 0)
            return badInput("imported-disks: '" + text +
                            "' is not LAYOUT=KIND,DISKS[,SIZE][,PARTITIONED] (e.g. "
                            "nas=zfs-raidz2,10,500G,80%)");
        const std::string name = text.substr(0, eq);
        auto in = importedDisksOf(std::string_view(text).substr(eq + 1), drive);
        if (!in)
            return badInput("imported-disks: " + name + ": " + in.error().message);
        if (!out.emplace(name, std::move(*in)).second)
            return badInput("imported-disks: '" + name + "' is given twice");
    }
    return out;
}

Error notAmongProjected(std::string_view field, const std::string& name,
                        const std::vector<std::string>& projected) {
    std::string names;
    for (const auto& p : projected)
        names += (names.empty() ? "'" : ", '") + p + "'";
    return Error::badInput(std::string(field) + ": '" + name +
                           "' is not among the layouts projected (" +
                           (names.empty() ? std::string("none") : names) + ")");
}

Expected<void> checkWriteAmplificationLayouts(const GivenWriteAmplification& given,
                                              const std::vector<std::string>& projected) {
    for (const auto& entry : given.byLayout)
        if (std::find(projected.begin(), projected.end(), entry.first) == projected.end())
            return fail(notAmongProjected("write-amplification", entry.first, projected));
    return {};
}

namespace {

// The layout of that name among those projected, or notAmongProjected naming `field`.
Expected<const LayoutRecord*> projectedLayout(const std::vector<LayoutRecord>& layouts,
                                              std::string_view field, const std::string& name) {
    const auto l = std::find_if(layouts.begin(), layouts.end(),
                                [&](const LayoutRecord& r) { return r.name == name; });
    if (l != layouts.end())
        return &*l;
    std::vector<std::string> names;
    for (const auto& r : layouts)
        names.push_back(r.name);
    return fail(notAmongProjected(field, name, names));
}

// Each layout whose disks are given is an imported one among `layouts`, with no capacity given.
Expected<void> checkImportedDisks(const std::vector<LayoutRecord>& layouts,
                                  const std::map<std::string, std::uint64_t>& givenCapacity,
                                  const std::map<std::string, CapacityInput>& importedDisks) {
    for (const auto& entry : importedDisks) {
        const std::string& name = entry.first;
        LB_TRY(l, projectedLayout(layouts, "imported-disks", name));
        if (!layoutSpecIsImported(l->spec))
            return badInput("imported-disks: '" + name +
                            "' is not an imported layout: its disks are recorded");
        if (givenCapacity.count(name))
            return badInput("imported-disks: '" + name +
                            "' has its capacity given too: give its disks or its capacity");
    }
    return {};
}

} // namespace

Expected<ProjectionCoverage>
projectionCoverage(const std::vector<LayoutRecord>& layouts,
                   const std::map<std::string, std::uint64_t>& givenCapacity,
                   const std::map<std::string, CapacityInput>& importedDisks) {
    LB_TRY_VOID(checkImportedDisks(layouts, givenCapacity, importedDisks));
    for (const auto& entry : givenCapacity) {
        const std::string& name = entry.first;
        LB_TRY(l, projectedLayout(layouts, "capacity", name));
        if (!layoutSpecIsImported(l->spec))
            return badInput("capacity: '" + name + "' is not an imported layout: " +
                            (capacityInputFromSpec(l->spec, l->kind)
                                 ? "its capacity comes from its recorded disks"
                                 : "only an imported layout's capacity is given"));
    }
    ProjectionCoverage out;
    for (const auto& l : layouts) {
        if (capacityInputFromSpec(l.spec, l.kind) || importedDisks.count(l.name))
            out.modelled.push_back(l.name);
        else if (!layoutSpecIsImported(l.spec))
            continue;
        else if (givenCapacity.count(l.name))
            out.given.push_back(l.name);
        else
            out.missing.push_back(l.name);
    }
    return out;
}

ProjectionInput projectionInput(std::string name, CapacityInput layout,
                                const ProjectionRequest& request) {
    ProjectionInput in;
    in.name = std::move(name);
    in.layout = std::move(layout);
    in.usedBytes = request.usedBytes;
    in.growth = request.growth;
    in.years = request.years;
    in.drive = request.drive;
    in.price = request.price;
    in.hostBytesPerDay = request.hostBytesPerDay;
    in.writeAmplification = request.writeAmplification.forLayout(in.name);
    in.ceiling = request.ceiling;
    in.underprovisionGain = request.underprovisionGain;
    in.risk = request.risk;
    return in;
}

Expected<LayoutRecord> storedLayout(Store& store, const std::string& layout) {
    LB_TRY(record, store.findLayout(layout));
    if (!record)
        return fail(store.noLayoutNamed("layout", layout));
    return std::move(*record);
}

Expected<ProjectionInput> storedProjectionInput(const LayoutRecord& layout,
                                                const ProjectionRequest& request) {
    const auto told = request.importedDisks.find(layout.name);
    if (told != request.importedDisks.end() && layoutSpecIsImported(layout.spec))
        return projectionInput(layout.name, told->second, request);
    const auto given = request.givenCapacity.find(layout.name);
    if (given != request.givenCapacity.end() && layoutSpecIsImported(layout.spec)) {
        CapacityInput kindOnly; // what was recorded of the kind chooses the default ceiling
        kindOnly.kind = parseLayoutKind(layout.kind).value_or(LayoutKind::Dir);
        ProjectionInput in = projectionInput(layout.name, std::move(kindOnly), request);
        in.givenUsableBytes = given->second;
        return in;
    }
    if (auto disks = capacityInputFromSpec(layout.spec, layout.kind))
        return projectionInput(layout.name, std::move(*disks), request);
    LB_TRY(disks, requireCapacityInput(layout.name, layout.spec)); // says what the spec lacks
    return projectionInput(layout.name, std::move(disks), request);
}

std::optional<Expected<LayoutProjection>> projectStoredLayout(const LayoutRecord& layout,
                                                              const ProjectionRequest& request) {
    auto in = storedProjectionInput(layout, request);
    if (!in || (!in->givenUsableBytes && !computeCapacity(in->layout)))
        return std::nullopt;
    return projectLayout(*in);
}

namespace {

// The stored layouts of an ask (`records`, in the order asked), each with what it is projected
// from.
Expected<void> planStored(const ProjectionAsk& ask, const std::vector<LayoutRecord>& records,
                          ProjectionPlan& plan) {
    LB_TRY(coverage,
           projectionCoverage(records, plan.request.givenCapacity, plan.request.importedDisks));
    plan.coverage = std::move(coverage);
    plan.misfit = projectionMisfit(plan.request, plan.coverage, !ask.hypothetical.kinds.empty(),
                                   ask.settings.used.empty() ? "samples" : "used");
    if (plan.misfit)
        return {};
    for (const auto& record : records) {
        LB_TRY(in, storedProjectionInput(record, plan.request));
        plan.inputs.push_back(std::move(in));
        plan.kinds.push_back(record.kind);
    }
    return {};
}

// Without a disk size the disks are the catalog drive's: a size the layout cannot take is the
// catalog's, named at the drive's entry.
Error blameCatalog(Error error, const Drive& drive) {
    constexpr std::string_view field = "disk-size: ";
    if (error.message.starts_with(field))
        error.message = drive.source + ":" + std::to_string(drive.line) +
                        ": capacity_bytes: " + error.message.substr(field.size()) + " (drive '" +
                        drive.id + "', whose capacity is the disk size when none is given)";
    return error;
}

} // namespace

std::optional<ProjectionMisfit> projectionMisfit(const ProjectionRequest& r,
                                                 const ProjectionCoverage& coverage,
                                                 bool newLayouts, std::string useField) {
    using Why = ProjectionMisfit::Why;
    if (!coverage.missing.empty())
        return ProjectionMisfit{Why::NoCapacityModel, std::move(useField), coverage.missing};
    // Price, endurance and wear need disks: an imported layout has only its capacity.
    if (newLayouts || !coverage.modelled.empty() || coverage.given.empty())
        return std::nullopt;
    const bool writeAmplification =
        r.writeAmplification.all.has_value() || !r.writeAmplification.byLayout.empty();
    for (const auto& [named, field] :
         {std::pair{r.drive.has_value(), "drive"},
          std::pair{r.hostBytesPerDay.has_value(), "host-writes"},
          std::pair{r.price.has_value(), "price"},
          std::pair{writeAmplification, "write-amplification"},
          std::pair{r.risk.afr.has_value(), "afr"},
          std::pair{r.risk.replaceAfterHours.has_value(), "replace-after"},
          std::pair{r.risk.rebuildBytesPerSecond.has_value(), "rebuild-rate"},
          std::pair{r.risk.hotSpare, "hot-spare"}})
        if (named)
            return ProjectionMisfit{Why::NoDisksKnown, field, coverage.given};
    return std::nullopt;
}

namespace {

// The plan of an ask whose stored layouts are `records`, in the order asked.
Expected<ProjectionPlan> planOf(const ProjectionAsk& ask,
                                const std::vector<LayoutRecord>& records) {
    ProjectionPlan plan;
    LB_TRY(request, projectionRequest(ask.settings));
    plan.request = std::move(request);
    plan.binaryUnits =
        plan.request.binaryUnits || projectionInBinaryUnits(ask.hypothetical.diskSize, "");
    LB_TRY_VOID(planStored(ask, records, plan));
    if (plan.misfit)
        return plan;
    if (!ask.hypothetical.kinds.empty()) {
        plan.disksFromDrive = ask.hypothetical.diskSize.empty() && ask.settings.drive;
        LB_TRY(hypothetical, hypotheticalLayouts(ask.hypothetical, ask.settings.drive));
        for (auto& h : hypothetical) {
            plan.kinds.push_back(h.name);
            plan.inputs.push_back(projectionInput(h.name, std::move(h.layout), plan.request));
        }
    }
    if (plan.inputs.empty())
        return badInput("kind/layout: name at least one layout to project");
    std::vector<std::string> projected;
    for (const auto& in : plan.inputs)
        projected.push_back(in.name);
    LB_TRY_VOID(checkWriteAmplificationLayouts(plan.request.writeAmplification, projected));
    return plan;
}

} // namespace

std::optional<MeasuredRebuild> measuredRebuild(const LayoutSamples& samples) {
    const auto m =
        std::find_if(samples.metrics.begin(), samples.metrics.end(), [](const MetricSamples& x) {
            return x.name == "drill.fail-rebuild.rebuild_rate";
        });
    if (m == samples.metrics.end() || m->values.empty())
        return std::nullopt;
    // The newest run: the largest id where the samples carry them, else the last value.
    std::size_t newest = m->values.size() - 1;
    const auto idOf = [&](std::size_t i) {
        const SampleRun* run = m->runAt(i);
        return run ? run->id : 0;
    };
    for (std::size_t i = 0; i < m->values.size(); ++i)
        if (idOf(i) > idOf(newest))
            newest = i;
    std::string basis = "measured: fail-rebuild drill";
    if (idOf(newest) != 0)
        basis += ", run " + std::to_string(idOf(newest));
    basis += ", on the layout's disks";
    if (std::find(samples.measuredOn.begin(), samples.measuredOn.end(), "TCG emulation") !=
        samples.measuredOn.end())
        basis += " under TCG";
    return MeasuredRebuild{m->values[newest], std::move(basis)};
}

Expected<std::map<std::string, MeasuredRebuild>>
measuredRebuilds(Store& store, const std::vector<RunSummary>& runs) {
    std::set<std::string> drilled;
    for (const auto& r : runs)
        if (r.workload == "drill:fail-rebuild" && r.probe == "drill" && r.status == RunStatus::Ok)
            drilled.insert(r.layout);
    std::map<std::string, MeasuredRebuild> out;
    for (const auto& layout : drilled) {
        LB_TRY(samples, store.layoutSamples(layout));
        if (auto m = measuredRebuild(samples))
            out.emplace(layout, std::move(*m));
    }
    return out;
}

RiskSettings withMeasuredRebuild(RiskSettings given,
                                 const std::optional<MeasuredRebuild>& measured) {
    if (given.rebuildBytesPerSecond || !measured)
        return given;
    given.rebuildBytesPerSecond = measured->bytesPerSecond;
    given.rebuildBasis = measured->basis;
    return given;
}

RiskSettings withMeasuredRebuild(RiskSettings given, const LayoutSamples& samples) {
    return withMeasuredRebuild(std::move(given), measuredRebuild(samples));
}

Expected<ProjectionPlan> planProjection(const ProjectionAsk& ask, Store* store) {
    std::vector<LayoutRecord> records;
    for (const auto& name : ask.stored) {
        assert(store && "a projection of stored layouts needs the store");
        LB_TRY(record, storedLayout(*store, name));
        records.push_back(std::move(record));
    }
    LB_TRY(plan, planOf(ask, records));
    // The stored layouts come first among the inputs: each with the rebuild its drill measured.
    for (std::size_t i = 0; i < records.size() && i < plan.inputs.size() && !plan.misfit; ++i) {
        LB_TRY(samples, store->layoutSamples(records[i].name));
        plan.inputs[i].risk = withMeasuredRebuild(plan.inputs[i].risk, samples);
    }
    return plan;
}

Expected<ProjectionPlan> planProjection(const ProjectionAsk& ask,
                                        const std::vector<LayoutRecord>& records,
                                        const std::map<std::string, MeasuredRebuild>& rebuilds) {
    std::vector<LayoutRecord> asked;
    for (const auto& name : ask.stored) {
        LB_TRY(record, projectedLayout(records, "layout", name));
        asked.push_back(*record);
    }
    LB_TRY(plan, planOf(ask, asked));
    // The stored layouts come first among the inputs, as the store's planProjection has them.
    for (std::size_t i = 0; i < asked.size() && i < plan.inputs.size() && !plan.misfit; ++i)
        if (const auto m = rebuilds.find(asked[i].name); m != rebuilds.end())
            plan.inputs[i].risk = withMeasuredRebuild(plan.inputs[i].risk, m->second);
    return plan;
}

Expected<std::vector<LayoutProjection>> projectPlan(const ProjectionPlan& plan) {
    if (plan.misfit)
        return badInput(plan.misfit->field + ": applies to none of the layouts projected");
    std::vector<LayoutProjection> out;
    for (const auto& in : plan.inputs) {
        auto p = projectLayout(in);
        if (!p)
            return fail(plan.disksFromDrive ? blameCatalog(p.error(), *plan.request.drive)
                                            : p.error());
        out.push_back(std::move(*p));
    }
    return out;
}

} // namespace lb
