// What the notes say (engine/measure/analysis.h): the notes of each side that apply to a metric,
// the aspects of the work on which the sides differ (what keeps a metric out of the verdict, what
// is only said beside it), notes of many runs collapsed into one line, the notes of a comparison
// by line, and what the runs were measured on.
#include "engine/measure/analysis.h"
#include "engine/measure/measure_internal.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <map>
#include <tuple>

namespace lb {

std::size_t runsCarrying(const LayoutSamples& side, std::size_t i, const std::string& workload) {
    const std::size_t runs = i < side.noteRuns.size() ? side.noteRuns[i] : 1;
    if (i >= side.noteWorkloads.size() || side.noteWorkloads[i].empty())
        return runs;
    for (const auto& [w, count] : side.noteWorkloads[i])
        if (w == workload)
            return count;
    return 0;
}

std::vector<std::string> notesFor(const LayoutSamples& side, const std::string& metric,
                                  const std::string& workload, MetricNote::Kind kind) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < side.notes.size(); ++i) {
        const auto& n = side.notes[i];
        if (n.kind == kind && metricMatches(n.metrics, metric) &&
            runsCarrying(side, i, workload) > 0 &&
            std::find(out.begin(), out.end(), n.text) == out.end())
            out.push_back(n.text);
    }
    return out;
}

namespace {

// A method note says one aspect of how a metric was measured: "bs=4 KiB" (the work: an option of
// the tool, a bonnie++ file size), or without '=' the I/O path ("direct I/O"). The aspect, and
// its value.
std::pair<std::string, std::string> aspectOf(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || text.find(' ') < eq)
        return {"", text};
    return {text.substr(0, eq), text.substr(eq + 1)};
}

// Aspects that say how much or how long, not what: sides that differ in them did the same kind of
// work, and the difference is said next to the metric rather than keeping it out of the verdict.
constexpr std::array<std::string_view, 4> amountAspects{"size", "runtime", "file_size", "files"};
// Aspects that do not change what was measured but may change the figure: the tool's version
// (the store notes it on every run), the memory and kernel of the machine the runs went on (a
// campaign notes them on its runs; a guest's are the guest's).
constexpr std::array<std::string_view, 3> caveatAspects{"version", "memory", "kernel"};

} // namespace

// Why a metric both sides measured stays out of the verdict, or "": what either side excludes,
// or an aspect of the work on which they differ ("not comparable: bs 4 KiB vs 64 KiB"). Aspects
// of amount that differ go to `differs` ("size 16 MiB vs 64 MiB"), and so do the tool's versions.
std::string exclusion(const LayoutSamples& b, const LayoutSamples& c, const MetricSamples& bm,
                      const MetricSamples& cm, std::vector<std::string>& differs) {
    const std::string& name = bm.name;
    auto excludes = notesFor(b, name, bm.workload, MetricNote::Kind::Excludes);
    for (auto& e : notesFor(c, name, cm.workload, MetricNote::Kind::Excludes))
        if (std::find(excludes.begin(), excludes.end(), e) == excludes.end())
            excludes.push_back(std::move(e));
    if (!excludes.empty())
        return joinedText(excludes, "; ");
    // Each side's values of each aspect, in the order they first appear.
    std::vector<std::string> aspects;
    std::map<std::string, std::vector<std::string>> ofBaseline, ofCandidate;
    for (auto [side, values, workload] :
         {std::tuple{&b, &ofBaseline, &bm.workload}, std::tuple{&c, &ofCandidate, &cm.workload}})
        for (const auto& text : notesFor(*side, name, *workload, MetricNote::Kind::Method)) {
            auto [aspect, value] = aspectOf(text);
            if (std::find(aspects.begin(), aspects.end(), aspect) == aspects.end())
                aspects.push_back(aspect);
            (*values)[aspect].push_back(aspect.empty() ? text : value);
        }
    std::vector<std::string> reasons;
    for (const auto& aspect : aspects) {
        const auto& vb = ofBaseline[aspect];
        const auto& vc = ofCandidate[aspect];
        if (vb.empty() || vc.empty()) // one side does not say: nothing to hold against
            continue;
        std::string what;
        const std::string named = aspect.empty() ? std::string() : aspect + " ";
        if (vb.size() > 1 || vc.size() > 1)
            what = "measured both ways (" + named + joinedText(vb.size() > 1 ? vb : vc, ", ") + ")";
        else if (vb[0] != vc[0])
            what = named + vb[0] + " vs " + vc[0];
        else
            continue;
        if (std::find(amountAspects.begin(), amountAspects.end(), aspect) != amountAspects.end())
            differs.push_back(std::string(sidesDifferPrefix) +
                              "did different amounts of work: " + what);
        else if (std::find(caveatAspects.begin(), caveatAspects.end(), aspect) !=
                 caveatAspects.end())
            differs.push_back(aspect == "version"
                                  ? std::string(sidesDifferPrefix) +
                                        "ran other versions of the tool, which may matter: " + what
                                  : std::string(sidesDifferPrefix) +
                                        "ran on different machines, which may matter: " + what);
        else
            reasons.push_back(what);
    }
    return reasons.empty() ? std::string()
                           : std::string(notComparablePrefix) + joinedText(reasons, "; ");
}

namespace {

// A note's words and numbers: a number stands alone (after a space, '(' or the start, not after a
// letter, digit, '_', '.', '-' or '#'; not followed by a letter, digit or '_').
struct NoteToken {
    bool number = false;
    std::string text;
    double value = 0;
};

std::vector<NoteToken> noteTokens(const std::string& s) {
    const auto word = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    std::vector<NoteToken> out;
    std::string text;
    for (std::size_t i = 0; i < s.size();) {
        const bool starts =
            std::isdigit(static_cast<unsigned char>(s[i])) &&
            (i == 0 || !(word(s[i - 1]) || s[i - 1] == '.' || s[i - 1] == '-' || s[i - 1] == '#'));
        std::size_t end = i;
        if (starts) {
            while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end])))
                ++end;
            if (end + 1 < s.size() && s[end] == '.' &&
                std::isdigit(static_cast<unsigned char>(s[end + 1]))) {
                ++end;
                while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end])))
                    ++end;
            }
        }
        if (!starts || (end < s.size() && (word(s[end]) || s[end] == '.'))) {
            text += s[i++];
            continue;
        }
        if (!text.empty())
            out.push_back({false, std::move(text), 0});
        text.clear();
        out.push_back({true, s.substr(i, end - i), std::strtod(s.c_str() + i, nullptr)});
        i = end;
    }
    if (!text.empty())
        out.push_back({false, std::move(text), 0});
    return out;
}

} // namespace

std::vector<std::string> collapseNotes(const std::vector<std::string>& notes,
                                       const std::vector<std::size_t>& runs,
                                       std::size_t totalRuns) {
    struct Group {
        std::vector<std::vector<NoteToken>> members;
        std::size_t runs = 0;
    };
    std::vector<std::string> order;
    std::map<std::string, Group> groups;
    for (std::size_t i = 0; i < notes.size(); ++i) {
        auto tokens = noteTokens(notes[i]);
        std::string shape;
        for (const auto& t : tokens)
            shape += t.number ? std::string("\x01") : t.text;
        auto [it, added] = groups.try_emplace(shape);
        if (added)
            order.push_back(shape);
        it->second.members.push_back(std::move(tokens));
        it->second.runs += i < runs.size() ? runs[i] : 1;
    }
    std::vector<std::string> out;
    for (const auto& shape : order) {
        const Group& g = groups.at(shape);
        std::string line;
        for (std::size_t k = 0; k < g.members.front().size(); ++k) {
            const NoteToken& first = g.members.front()[k];
            if (!first.number) {
                line += first.text;
                continue;
            }
            const NoteToken *low = &first, *high = &first;
            for (const auto& m : g.members) {
                if (m[k].value < low->value)
                    low = &m[k];
                if (m[k].value > high->value)
                    high = &m[k];
            }
            line += low->value == high->value ? low->text : low->text + "\u2013" + high->text;
        }
        if (g.members.size() > 1 && totalRuns > 0 && g.runs < totalRuns)
            line +=
                " (in " + std::to_string(g.runs) + " of " + std::to_string(totalRuns) + " runs)";
        out.push_back(std::move(line));
    }
    return out;
}

std::vector<NoteLine> noteLines(const Comparison& c, const std::string& leaveOut) {
    std::vector<NoteLine> out;
    for (const auto& m : c.metrics)
        for (const auto& n : m.notes) {
            if (!leaveOut.empty() && n.find(leaveOut) != std::string::npos)
                continue;
            auto it = std::find_if(out.begin(), out.end(),
                                   [&n](const NoteLine& l) { return l.text == n; });
            if (it == out.end()) {
                out.push_back({n, {}});
                it = out.end() - 1;
            }
            it->metrics.push_back(m.name);
        }
    return out;
}

std::string noteMetricsText(const NoteLine& line, const Comparison& c, std::size_t shown) {
    if (line.metrics.size() == c.metrics.size() && c.metrics.size() > 1)
        return "every compared metric";
    if (line.metrics.size() <= shown + 1)
        return joinedText(line.metrics, ", ");
    const std::vector<std::string> first(line.metrics.begin(),
                                         line.metrics.begin() + static_cast<long>(shown));
    return joinedText(first, ", ") + " and " + std::to_string(line.metrics.size() - shown) +
           " more";
}

std::vector<std::string> measuredOn(const std::vector<std::string>& caveats) {
    std::vector<std::string> zfs, files, tcg;
    for (const auto& c : caveats) {
        std::string label;
        std::vector<std::string>* into = nullptr;
        if (c.starts_with(zfsCaveatPrefix)) {
            // "zfs-fuse (FUSE, pool version 23)" -> "zfs-fuse"; "OpenZFS 2.3.2 (...)" ->
            // "OpenZFS 2.3.2".
            label = c.substr(zfsCaveatPrefix.size());
            label = label.substr(0, label.find(" ("));
            into = &zfs;
        } else if (c.starts_with(fileVdevsCaveatPrefix)) {
            label = "file vdevs";
            into = &files;
        } else if (c.starts_with(tcgCaveatPrefix)) {
            label = "TCG emulation";
            into = &tcg;
        }
        if (into && std::find(into->begin(), into->end(), label) == into->end())
            into->push_back(std::move(label));
    }
    zfs.insert(zfs.end(), files.begin(), files.end());
    zfs.insert(zfs.end(), tcg.begin(), tcg.end());
    return zfs;
}

} // namespace lb
