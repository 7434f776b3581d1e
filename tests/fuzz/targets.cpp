#include "tests/fuzz/targets.h"

#include "engine/capacity/drive_catalog.h"
#include "engine/scenario/scenario.h"
#include "probes/bonnie_csv.h"
#include "probes/bonnie_text.h"
#include "probes/dd.h"
#include "probes/fio_json.h"
#include "probes/fio_normal.h"
#include "probes/fio_terse.h"
#include "probes/import.h"
#include "probes/iozone.h"
#include "probes/registry.h"

#include <array>

namespace lb::fuzz {

namespace {

void bonnieCsv(std::string_view in) {
    (void)bonnie::looksLikeCsv(in);
    (void)bonnie::parseCsvLine(in);
}

void bonnieText(std::string_view in) {
    (void)bonnie::looksLikeTable(in);
    (void)bonnie::parsePaste(in);
}

// fio's JSON on stdout and, after the first NUL byte, its stderr (the "err=" lines it cites).
void fioJson(std::string_view in) {
    const auto nul = in.find('\0');
    const std::string_view out = in.substr(0, nul);
    const std::string_view err = nul == std::string_view::npos ? "" : in.substr(nul + 1);
    (void)fio::looksLikeJson(out);
    (void)fio::parseJson(out, err);
}

void fioTerse(std::string_view in) {
    (void)fio::looksLikeTerse(in);
    (void)fio::parseTerse(in);
}

void fioNormal(std::string_view in) {
    (void)fio::looksLikeNormal(in);
    (void)fio::parseNormal(in);
}

void iozoneText(std::string_view in) {
    (void)iozone::looksLikeIozone(in);
    (void)iozone::parse(in);
}

void ddText(std::string_view in) {
    (void)dd::looksLikeDd(in);
    (void)dd::parse(in);
}

// The path names a directory that does not exist, so relative file names in the scenario (job
// files, CHAP secret files) are not found rather than read from wherever the fuzzer runs.
void scenario(std::string_view in) {
    static const ProbeRegistry probes = standardProbes();
    (void)parseScenario(in, "/nonexistent/layoutbench-fuzz/scenario.toml", probes);
}

void driveCatalog(std::string_view in) {
    (void)parseDriveCatalog(in, "fuzz-drives.toml");
}

// Every format at once, through the detection `import` and the GUI's paste box use.
void importText(std::string_view in) {
    (void)describeImport(in);
    (void)parseResultFile("fuzz-input", in);
}

constexpr std::array<Target, 10> all{{
    {"bonnie_csv", bonnieCsv},
    {"bonnie_text", bonnieText},
    {"fio_json", fioJson},
    {"fio_terse", fioTerse},
    {"fio_normal", fioNormal},
    {"iozone", iozoneText},
    {"dd", ddText},
    {"scenario", scenario},
    {"drive_catalog", driveCatalog},
    {"import", importText},
}};

} // namespace

std::span<const Target> targets() {
    return all;
}

const Target* findTarget(std::string_view name) {
    for (const auto& t : all)
        if (t.name == name)
            return &t;
    return nullptr;
}

} // namespace lb::fuzz
