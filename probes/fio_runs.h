// Where one fio invocation's output ends and the next begins, in a text that holds several (a log
// appended to with `tee -a`, a page of pasted runs): each becomes a run of its own, never a sum.
// Pure functions of text.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace lb::fio {

// The bytes [begin, end) of the text that one invocation printed, and the line they start on.
// The parts of a text follow one another and cover it whole.
struct Invocation {
    int line = 1;
    std::size_t begin = 0;
    std::size_t end = 0;
};

// fio's normal output: an invocation starts at its first job description ("<job>: (g=0): rw="),
// its version line ("fio-3.33") or "Starting N processes" when the part before already holds a
// job's results, and at a job's results ("<job>: (groupid=0, ...") that follow a "Run status
// group" summary (results pasted without fio's banner). After an invocation that gave up before
// any results, at a second version line, a description after the version line or a description
// given again; fio's complaints just before ("error: maximum number of jobs reached.", "fio: ...")
// go with the invocation they precede. fio --client output ("hostname=" lines), whose servers
// each print their own summary, is one invocation.
// Results of a job pid already reported after a summary are a later report of the same
// invocation (--status-interval prints the whole report every interval), not another one.
std::vector<Invocation> normalInvocations(std::string_view text);

// One invocation's normal output that holds several reports (--status-interval): where its
// first report's results start and where its last, final one's do; nullopt for one report.
std::optional<std::pair<std::size_t, std::size_t>> intervalReports(std::string_view part);

// fio's JSON documents: each is an invocation, but for the reports fio prints every interval with
// --status-interval, which carry the same jobs, each further on ("elapsed" grows) since the same
// start ("timestamp" less "elapsed", within a second): those are one invocation, the last report
// its result. A part ends where its last document does; the text after the last is the last's.
// Documents are told by their "fio version" key: one without it (trimmed by hand) is not cut.
std::vector<Invocation> jsonInvocations(std::string_view text);

// fio's terse lines: fio ends each line of one invocation with the same disk statistics
// ("vda;25715;0;...;62.59%"); a line whose statistics (or fio version) differ from the line
// before starts another invocation. Lines without disk statistics cannot be told apart and stay
// one invocation. A part ends after its last terse line.
std::vector<Invocation> terseInvocations(std::string_view text);

} // namespace lb::fio
