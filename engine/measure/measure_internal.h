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
// The runs of `workload` that carry note `i` of a side: all that carry it where the side does not
// say their workloads; 0 when none of them ran that workload (the note is about other runs).
std::size_t runsCarrying(const LayoutSamples& side, std::size_t i, const std::string& workload);
// Notes of `side` that apply to `metric` as the runs of `workload` measured it, of one kind,
// each text once.
std::vector<std::string> notesFor(const LayoutSamples& side, const std::string& metric,
                                  const std::string& workload, MetricNote::Kind kind);
// Why a metric both sides measured (bm, cm) stays out of the verdict, or ""; aspects of the work
// that differ without keeping it out go to `differs`.
std::string exclusion(const LayoutSamples& b, const LayoutSamples& c, const MetricSamples& bm,
                      const MetricSamples& cm, std::vector<std::string>& differs);

} // namespace lb
