// Compression, honestly: what a compressing layout makes of the data a run wrote, measured by
// compressing a sample of it (the probes), said beside the metrics and kept out of a verdict
// against a layout that stores the data as written unless the data is the users' kind.
#include "engine/scenario/scenario.h"

#include <cmath>
#include <cstdio>

namespace lb {

namespace {

std::string times(double ratio) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", std::round(ratio * 10) / 10);
    std::string out(text);
    out += "x";
    return out;
}

bool compresses(const ScenarioLayout& layout) {
    return isZfs(layout.kind) && !layout.compression.empty() && layout.compression != "off";
}

} // namespace

std::vector<MetricNote> compressionNotes(const Scenario& scenario, const ScenarioLayout& layout,
                                         std::optional<double> dataRatio) {
    if (!dataRatio)
        return {};
    const bool compressed = compresses(layout) && *dataRatio > compressibleRatio;
    std::vector<MetricNote> out;
    if (compressed) {
        std::string text = "data compressed ";
        text += times(*dataRatio);
        text += " on this layout (compression=";
        text += layout.compression;
        text += "): measures the compressor as much as the disks";
        if (scenario.dataCompressibility) {
            text += "; the scenario says the users' data compresses like it "
                    "(data_compressibility = ";
            char value[32];
            std::snprintf(value, sizeof value, "%g", *scenario.dataCompressibility);
            text += value;
            text += ")";
        }
        out.push_back({MetricNote::Kind::Qualifies, "*", std::move(text)});
    }
    // Both sides say what became of the data, so that the comparison holds the two kinds apart
    // (exclusion: "not comparable: data ... vs ..."); with the users' kind of data it need not.
    if (!scenario.dataCompressibility)
        out.push_back({MetricNote::Kind::Method, "*",
                       compressed ? "data=compressible, compressed by the layout"
                                  : "data=stored as written"});
    return out;
}

} // namespace lb
