// A comparison as the command line shows it: the JSON of the contract (canonical units) and an
// aligned table for people (MB/s, ms), followed by the reasons behind every non-viable verdict.
#pragma once

#include "engine/measure/analysis.h"
#include "engine/store/store.h"

#include <nlohmann/json.hpp>
#include <string>

namespace lb {

// The comparison's JSON (the command-line contract), with the machines its sides were measured
// on when they were picked (`host`, or `baseline_host` and `candidate_host`): written as it is
// made, byte for byte what dumpJson(document, indent) wrote (JsonWriter).
std::string comparisonJsonText(const Comparison& c, const HostChoice& hosts = {}, int indent = -1);
// The same document as a value, for the documents that hold comparisons (run, report --json).
nlohmann::json comparisonJson(const Comparison& c);
// "1.02–1.21", or "—" when there are too few runs for an interval.
std::string intervalText(const MetricComparison& m);
// "decision (not confident)", or "shown" for a metric that does not decide (it has no verdict).
std::string verdictCell(const MetricComparison& m);
// The table fits `maxWidth` display columns (0: no limit), the interval and the overhead
// left out first.
std::string comparisonTable(const Comparison& c, std::size_t maxWidth = 0);
// A candidate against the baseline level by level (compare --fill all): the sentence of where
// its verdict changes, the levels one side lacks, then each level's comparison (whose JSON is
// comparisonJsonText's), with the machines picked as there.
std::string fillCurveJsonText(const FillCurve& curve, const HostChoice& hosts = {},
                              int indent = -1);
std::string fillCurveText(const FillCurve& curve, std::size_t maxWidth = 0);

} // namespace lb
