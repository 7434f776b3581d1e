// What a projection can be asked of (see projection_choices.h).
#include "engine/workbench/projection_choices.h"

#include "engine/base/size.h"
#include "engine/build/layout_spec.h"
#include "engine/capacity/layout.h"

#include <algorithm>
#include <functional>
#include <set>

namespace lb {

std::vector<LayoutRecord> scenarioLayoutRecords(const Scenario& scenario) {
    std::vector<LayoutRecord> out;
    for (const auto& l : scenario.layouts) {
        LayoutRecord r;
        r.name = l.name;
        r.kind = layoutKindName(l.kind);
        r.spec = layoutSpecJson(scenario, l, {});
        out.push_back(std::move(r));
    }
    return out;
}

namespace {

// Every recorded disk has a size and the capacity model takes them.
bool disksKnown(const LayoutRecord& r) {
    const auto in = capacityInputFromSpec(r.spec, r.kind);
    return in &&
           std::none_of(in->diskBytes.begin(), in->diskBytes.end(),
                        [](std::uint64_t b) { return b == 0; }) &&
           computeCapacity(*in).has_value();
}

} // namespace

std::vector<ProjectableLayout> projectableLayouts(const std::vector<LayoutRecord>& stored,
                                                  const std::vector<LayoutRecord>& scenario) {
    std::vector<ProjectableLayout> out;
    std::set<std::string> names;
    for (const auto& r : stored) {
        names.insert(r.name);
        const bool known = disksKnown(r);
        if (known || layoutSpecIsImported(r.spec))
            out.push_back({r, known, false});
    }
    for (const auto& r : scenario)
        if (!names.count(r.name) && disksKnown(r))
            out.push_back({r, true, true});
    return out;
}

std::optional<std::size_t> firstProjectable(const std::vector<ProjectableLayout>& layouts) {
    if (layouts.empty())
        return std::nullopt;
    const auto known = std::find_if(layouts.begin(), layouts.end(),
                                    [](const ProjectableLayout& l) { return l.disksKnown; });
    return known == layouts.end() ? 0 : static_cast<std::size_t>(known - layouts.begin());
}

namespace {

// Rounded down to two significant figures: 1163000000000 -> 1100000000000.
std::uint64_t twoFigures(std::uint64_t v) {
    std::uint64_t scale = 1;
    while (v / scale >= 100)
        scale *= 10;
    return v / scale * scale;
}

} // namespace

Expected<std::string> suggestedUse(const ProjectionAsk& ask,
                                   const std::vector<LayoutRecord>& records) {
    // Only what decides the layout's capacity and ceiling: the rest cannot make it fail.
    ProjectionAsk bare;
    bare.stored = ask.stored;
    bare.hypothetical = ask.hypothetical;
    // Moved in, not assigned from a literal: GCC 12 at -O3 takes operator=(const char*) on a
    // default string for an overlapping copy, -Wrestrict's false alarm (GCC bug 105329).
    bare.settings.used = std::string("0");
    bare.settings.growth = std::string("0%");
    bare.settings.years = 1;
    bare.settings.drive = ask.settings.drive;
    bare.settings.capacities = ask.settings.capacities;
    bare.settings.importedDisks = ask.settings.importedDisks;
    bare.settings.ceiling = ask.settings.ceiling;
    LB_TRY(plan, planProjection(bare, records));
    LB_TRY(projected, projectPlan(plan));
    return sizeText(twoFigures(projected.front().ceilingBytes / 2));
}

LayoutFields layoutFields(const CapacityInput& layout, std::string_view recordedKind) {
    LayoutFields f;
    f.kind = layoutKindName(layout.kind);
    if (layout.poolOnArray) {
        f.inner = f.kind;
        const std::string_view stripe = layoutKindName(LayoutKind::ZfsStripe);
        f.kind = recordedKind == stripe ? stripe : layoutKindName(LayoutKind::Guest);
        if (recordedKind != stripe)
            f.guestPool = stripe;
    }
    f.disks = static_cast<unsigned>(layout.diskBytes.size());
    const bool alike = std::adjacent_find(layout.diskBytes.begin(), layout.diskBytes.end(),
                                          std::not_equal_to<>()) == layout.diskBytes.end();
    for (std::size_t i = 0; i < layout.diskBytes.size() && !(alike && i > 0); ++i) {
        if (i > 0)
            f.diskSize += ',';
        f.diskSize += sizeText(layout.diskBytes[i]);
    }
    f.underprovision = fractionText(layout.underprovision);
    return f;
}

std::optional<LayoutFields> layoutFields(const LayoutRecord& layout) {
    const auto in = capacityInputFromSpec(layout.spec, layout.kind);
    if (!in)
        return std::nullopt;
    return layoutFields(*in, layout.kind);
}

} // namespace lb
