// What the modules of the comparison (analysis*.cpp) share and nobody else needs: the t quantile,
// the words for percentages and costs, the notes that apply to a metric, and the headline.
#pragma once

#include "engine/base/joined.h"
#include "engine/measure/analysis.h"

#include <string>
#include <string_view>
#include <vector>

namespace lb {

// analysis_stats.cpp: Student's t quantile in double precision.
double studentQuantile(double df, double p);

// analysis_text.cpp
std::string percentText(double fraction); // |fraction| as a whole percentage: "58"
// "more time per byte", "less latency": what a cost ratio of the unit measures.
std::string costNoun(Unit unit, bool more);
std::string scoreText(double v);        // one decimal: "3.9"
std::string shareText(double fraction); // a share of a median: "0.2", "31", "180"
// "candidate: decision — put_block 58 % more time per byte; ..." (Comparison::headline).
std::string headlineFor(const Comparison& c);

// analysis_notes.cpp
// Notes of `side` that apply to `metric`, of one kind, each text once.
std::vector<std::string> notesFor(const LayoutSamples& side, const std::string& metric,
                                  MetricNote::Kind kind);
// Why a metric both sides measured stays out of the verdict, or ""; aspects of the work that
// differ without keeping it out go to `differs`.
std::string exclusion(const LayoutSamples& b, const LayoutSamples& c, const std::string& name,
                      std::vector<std::string>& differs);

} // namespace lb
