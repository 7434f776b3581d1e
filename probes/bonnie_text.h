// Parser for bonnie++ results as people paste them: the text tables bonnie++ 1.03, 1.96/1.97
// and 1.98-2.00a print (and bon_csv2txt makes), with the CSV lines that often come with them,
// among any prose. A pure function of text.
#pragma once

#include "engine/base/expected.h"
#include "engine/measure/run.h"

#include <string>
#include <string_view>
#include <vector>

namespace lb::bonnie {

struct PastedRun {
    int line = 0;    // the run's first line in the paste (1-based)
    std::string raw; // the lines the run was read from
    std::string machine;
    ParsedRun run; // workload "bonnie", toolVersion, metrics, caveats, notes, origin
};

// Every bonnie++ run in a paste, in order: one per machine row of a text table (its throughput
// row and its file-creation row paired by machine name, each with its Latency row) and one per
// CSV line. Metrics have the CSV path's names and canonical units. A table followed by the CSV
// line of the same machine (bonnie++ without -q prints both) gives the CSV's exact values.
// Text tables round what they print: 1.98 and later print block rates as 1959k / 21.3m / 1.2g
// (each rounded figure gets a Qualifies note), and print the number of files where the
// file-creation rates belong (a printf of a double with %d), so those rates are not imported
// from a 1.98+ table: an Excludes note names each one. A +++++ cell (too fast to time) gives an
// Excludes note and a caveat, as in the CSV. Columns are read by position, so empty cells
// (tests not run) are told apart from missing ones; a re-spaced table is read in order when
// every cell is there.
// Errors: badInput("<line>: <field>: <message>"), e.g. "12: put_block: '12x' is not a number".
// No run at all is an error too.
Expected<std::vector<PastedRun>> parsePaste(std::string_view text);

// True if some line opens a bonnie++ text table ("------Sequential Output------" or
// "------Sequential Create------").
bool looksLikeTable(std::string_view text);

} // namespace lb::bonnie
