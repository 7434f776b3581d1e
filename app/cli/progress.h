// A campaign's progress as `layoutbench run` shows it, on standard error so standard output holds
// only the result (the table, or the JSON of --json).
#pragma once

#include "engine/campaign/campaign.h"

#include <cstddef>
#include <iosfwd>
#include <string>

namespace lb::cli {

// "[3/12] raidz1 · seq-read · iteration 2/3: ok · ETA 4m10s": one event as a line.
std::string progressLine(const CampaignProgress& p);

// On a terminal (`columns` > 0): one line drawn in place, cut to the terminal's width, with a
// finished run that did not succeed left on screen. Otherwise one line per finished run and per
// message of the campaign, nothing drawn over.
class ProgressPrinter {
public:
    ProgressPrinter(std::ostream& out, std::size_t columns) : out_(out), columns_(columns) {}
    void operator()(const CampaignProgress& p);
    // Clears the line drawn in place.
    void finish();

private:
    std::ostream& out_;
    std::size_t columns_;
};

} // namespace lb::cli
