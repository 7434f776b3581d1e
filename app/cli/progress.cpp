#include "app/cli/progress.h"

#include <cstdio>
#include <ostream>

namespace lb::cli {

namespace {

std::string duration(double seconds) {
    const auto s = static_cast<long>(seconds + 0.5);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
    else
        std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
    return buf;
}

// "iteration 2/3", "iteration 2/3–5" (iterations = "auto"), "iteration 4 (after the candidates)".
// Iterations are counted from 1 wherever a person reads them.
std::string iterationText(const CampaignProgress& p) {
    // Appended part by part here and in progressLine: "/" + string&& makes GCC 12 at -O3 warn
    // -Wrestrict (a false alarm in libstdc++'s operator+, GCC bug 105329).
    std::string out = std::string("iteration ").append(std::to_string(p.iteration + 1));
    if (p.bracket)
        return out + " (after the candidates)";
    out.append("/").append(std::to_string(p.iterations));
    if (p.maxIterations > p.iterations)
        out.append("–").append(std::to_string(p.maxIterations));
    return out;
}

// The first `columns` - 1 display columns of `line` (the last column stays free, so the
// terminal does not wrap).
std::string fitted(const std::string& line, std::size_t columns) {
    std::string out;
    std::size_t width = 0;
    for (char c : line) {
        const bool starts = (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
        if (starts && ++width >= columns)
            break;
        out += c;
    }
    return out;
}

} // namespace

std::string progressLine(const CampaignProgress& p) {
    std::string line = std::string("[").append(std::to_string(p.done));
    line.append("/").append(std::to_string(p.total));
    if (p.maxTotal > p.total)
        line.append(" (up to ").append(std::to_string(p.maxTotal)).append(")");
    line.append("] ");
    switch (p.kind) {
    case CampaignProgress::Kind::Building:
        line += p.layout + ": building";
        break;
    case CampaignProgress::Kind::TearingDown:
        line += p.layout + ": tearing down";
        break;
    case CampaignProgress::Kind::Running:
        line += p.layout + " · " + p.workload + " · " + iterationText(p);
        break;
    case CampaignProgress::Kind::RunFinished:
        line += p.layout + " · " + p.workload + " · " + iterationText(p) + ": " +
                std::string(runStatusName(p.status));
        if (!p.message.empty())
            line += " (" + p.message + ")";
        break;
    case CampaignProgress::Kind::Message:
        line += p.message;
        break;
    }
    if (p.etaSeconds)
        line += " · ETA " + duration(*p.etaSeconds);
    return line;
}

void ProgressPrinter::operator()(const CampaignProgress& p) {
    using Kind = CampaignProgress::Kind;
    if (columns_ == 0) {
        if (p.kind == Kind::RunFinished || p.kind == Kind::Message)
            out_ << progressLine(p) << '\n' << std::flush;
        return;
    }
    // A finished run that failed, and a message, stay on screen; the rest is drawn over.
    const bool keep =
        (p.kind == Kind::RunFinished && p.status != RunStatus::Ok) || p.kind == Kind::Message;
    const std::string line = progressLine(p);
    out_ << "\r\033[K" << (keep ? line : fitted(line, columns_)) << (keep ? "\n" : "")
         << std::flush;
}

void ProgressPrinter::finish() {
    if (columns_ > 0)
        out_ << "\r\033[K" << std::flush;
}

} // namespace lb::cli
