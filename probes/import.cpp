// Import: detect each text's format, parse it with that tool's parser, refuse a run that yields
// nothing, and store every file's runs in one transaction.
#include "probes/import.h"

#include "probes/bonnie_csv.h"
#include "probes/bonnie_text.h"
#include "probes/dd.h"
#include "probes/fio_json.h"
#include "probes/fio_json_compat.h"
#include "probes/fio_terse.h"
#include "probes/iozone.h"
#include "probes/json_locate.h"
#include "probes/text_fields.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

namespace lb {

namespace {

// One run as a parser found it: where it starts, the text it was read from, what it measured.
struct Found {
    int line = 1;
    std::string raw;
    ParsedRun run;
};

Run runFrom(Found found, const std::string& path, const std::string& probe) {
    ParsedRun& parsed = found.run;
    Run run;
    run.workload = parsed.workload.empty() ? probe : parsed.workload;
    run.probe = probe;
    run.toolVersion = parsed.toolVersion;
    run.stdoutText = std::move(found.raw);
    run.caveats = std::move(parsed.caveats);
    run.notes = std::move(parsed.notes);
    run.origin = std::move(parsed.origin);
    run.metrics = std::move(parsed.metrics);
    run.status = parsed.failed ? RunStatus::Failed : RunStatus::Ok;
    run.reason = parsed.failureReason;
    run.source = path;
    return run;
}

// "PATH:" before a parser's "LINE: FIELD: message"; nothing when there is no file (a paste).
Unexpected located(const std::string& path, const std::string& message) {
    return badInput(path.empty() ? message : path + ":" + message);
}

// fio JSON errors name a byte offset or a JSON path; the line is found from either.
std::string withFioLine(std::string_view text, const std::string& message) {
    std::size_t offset = 0;
    for (const std::string_view prefix : {"invalid JSON at byte ", "truncated JSON at byte "})
        if (message.starts_with(prefix))
            offset = std::stoull(message.substr(prefix.size()));
    if (offset == 0)
        if (const auto at = json::locatePath(text, message.substr(0, message.find(": "))))
            offset = *at;
    // A text cut short ends the JSON at its last byte: name the last line that has any.
    const auto last = text.find_last_not_of("\r\n");
    if (last != std::string_view::npos && offset > last)
        offset = last;
    return std::to_string(text::lineAt(text, offset)) + ": " + message;
}

std::optional<ImportFormat> detect(std::string_view text) {
    if (fio::looksLikeJson(text))
        return ImportFormat::FioJson;
    if (fio::looksLikeTerse(text))
        return ImportFormat::FioTerse;
    if (bonnie::looksLikeCsv(text))
        return ImportFormat::BonnieCsv;
    if (bonnie::looksLikeTable(text))
        return ImportFormat::BonnieText;
    if (iozone::looksLikeIozone(text))
        return ImportFormat::Iozone;
    if (dd::looksLikeDd(text))
        return ImportFormat::Dd;
    for (const auto& line : text::lines(text)) // CSV lines among prose
        if (bonnie::looksLikeCsv(line.text))
            return ImportFormat::BonnieText;
    return std::nullopt;
}

RunOrigin fioJsonOrigin(const ParsedRun& run, std::string_view text) {
    RunOrigin o;
    const std::string version =
        run.toolVersion.starts_with("fio-") ? run.toolVersion.substr(4) : run.toolVersion;
    const bool plus = text.find("\"bins\"") != std::string_view::npos;
    o.format = "fio " + version + (plus ? " JSON+" : " JSON");
    if (fio::compat::isLegacyVersion(run.toolVersion))
        o.convertedFrom = {"KiB/s", "KiB (io_bytes)", "us", "ms"};
    else
        o.convertedFrom = {"ms (runtime)"};
    return o;
}

Expected<std::vector<Found>> bonnieCsvRuns(std::string_view text) {
    std::vector<Found> runs;
    for (const auto& line : text::lines(text)) {
        if (text::trim(line.text).empty())
            continue;
        auto parsed = bonnie::parseCsvLine(line.text);
        if (!parsed)
            return badInput(std::to_string(line.number) + ": " + parsed.error().message);
        runs.push_back({line.number, std::string(line.text), std::move(*parsed)});
    }
    if (runs.empty())
        return badInput("1: no bonnie++ CSV lines");
    return runs;
}

template <typename Pasted> std::vector<Found> found(std::vector<Pasted> pasted) {
    std::vector<Found> out;
    for (auto& p : pasted)
        out.push_back({p.line, std::move(p.raw), std::move(p.run)});
    return out;
}

Expected<std::vector<Found>> parseAs(ImportFormat format, std::string_view text) {
    switch (format) {
    case ImportFormat::FioJson: {
        auto run = fio::parseJson(text);
        if (!run)
            return badInput(withFioLine(text, run.error().message));
        run->origin = fioJsonOrigin(*run, text);
        return std::vector<Found>{{1, std::string(text), std::move(*run)}};
    }
    case ImportFormat::FioTerse: {
        auto run = fio::parseTerse(text);
        if (!run)
            return fail(run.error());
        return std::vector<Found>{{1, std::string(text), std::move(*run)}};
    }
    case ImportFormat::BonnieCsv:
        return bonnieCsvRuns(text);
    case ImportFormat::BonnieText: {
        auto runs = bonnie::parsePaste(text);
        if (!runs)
            return fail(runs.error());
        return found(std::move(*runs));
    }
    case ImportFormat::Iozone: {
        auto runs = iozone::parse(text);
        if (!runs)
            return fail(runs.error());
        return found(std::move(*runs));
    }
    case ImportFormat::Dd: {
        auto runs = dd::parse(text);
        if (!runs)
            return fail(runs.error());
        return found(std::move(*runs));
    }
    }
    return badInput("1: unknown format");
}

std::string_view probeOf(ImportFormat f) {
    switch (f) {
    case ImportFormat::BonnieCsv:
    case ImportFormat::BonnieText:
        return "bonnie";
    case ImportFormat::FioJson:
    case ImportFormat::FioTerse:
        return "fio";
    case ImportFormat::Iozone:
        return "iozone";
    case ImportFormat::Dd:
        return "dd";
    }
    return "imported";
}

// Why a run that did not fail gave no metric: what its parser noted, or that nothing was there.
std::string whyNoMetric(const ParsedRun& run) {
    std::vector<std::string> reasons = run.caveats;
    if (reasons.empty())
        for (const auto& n : run.notes)
            reasons.push_back(n.metrics + ": " + n.text);
    if (reasons.empty())
        return "the output holds no measurement";
    std::string why;
    constexpr std::size_t shown = 3;
    for (std::size_t i = 0; i < reasons.size() && i < shown; ++i)
        why += (i ? "; " : "") + reasons[i];
    if (reasons.size() > shown)
        why += "; and " + std::to_string(reasons.size() - shown) + " more";
    return why;
}

std::string plural(std::size_t n, std::string_view noun) {
    return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

// "fio.seq-read@host:8765.read.bw" -> "seq-read"
std::string fioJob(const std::string& metric) {
    const auto head = metric.substr(0, metric.rfind('.'));
    auto job = head.substr(4, head.rfind('.') - 4);
    return job.substr(0, job.find('@'));
}

std::string describe(const ImportedFile& file) {
    std::size_t metrics = 0;
    std::size_t failed = 0;
    std::set<std::string> machines;
    std::set<std::string> jobs;
    for (const auto& r : file.runs) {
        metrics += r.metrics.size();
        failed += r.status == RunStatus::Ok ? 0 : 1;
        if (const auto m = r.origin.spec.find("machine"); m != r.origin.spec.end())
            machines.insert(m->second);
        for (const auto& m : r.metrics)
            if (m.name.starts_with("fio."))
                jobs.insert(fioJob(m.name));
    }
    const auto& first = file.runs.front().origin.format;
    std::string out = first.empty() ? std::string(importFormatName(file.format)) : first;
    const auto runs = file.runs.size();
    if (file.format == ImportFormat::BonnieCsv || file.format == ImportFormat::BonnieText)
        out += ", " + (machines.size() == runs || machines.empty()
                           ? plural(runs, "machine")
                           : plural(runs, "run") + " of " + plural(machines.size(), "machine"));
    else if (file.format == ImportFormat::FioJson || file.format == ImportFormat::FioTerse)
        out += ", " + plural(jobs.size(), "job");
    else
        out += ", " + plural(runs, "run");
    out += ", " + plural(metrics, "metric");
    if (failed)
        out += ", " + plural(failed, "failed run");
    return out;
}

} // namespace

std::string_view importFormatName(ImportFormat f) {
    switch (f) {
    case ImportFormat::BonnieCsv:
        return "bonnie++ CSV";
    case ImportFormat::BonnieText:
        return "bonnie++ text table";
    case ImportFormat::FioJson:
        return "fio JSON";
    case ImportFormat::FioTerse:
        return "fio terse";
    case ImportFormat::Iozone:
        return "iozone";
    case ImportFormat::Dd:
        return "dd";
    }
    return "unknown";
}

Expected<ImportedFile> parseResultFile(const std::string& path, std::string_view text) {
    const auto format = detect(text);
    if (!format)
        return located(path, "1: not a format layoutbench imports (bonnie++ CSV or text table, "
                             "fio JSON or terse, iozone, dd)");
    auto runs = parseAs(*format, text);
    if (!runs)
        return located(path, runs.error().message);
    ImportedFile file;
    file.path = path;
    file.format = *format;
    for (auto& f : *runs) {
        if (!f.run.failed && f.run.metrics.empty())
            return located(path, std::to_string(f.line) + ": no metric: " + whyNoMetric(f.run));
        file.runs.push_back(runFrom(std::move(f), path, std::string(probeOf(*format))));
    }
    file.description = describe(file);
    return file;
}

ImportPreview describeImport(std::string_view text) {
    ImportPreview preview;
    auto file = parseResultFile("", text);
    if (!file) {
        preview.description = file.error().message;
        return preview;
    }
    preview.ok = true;
    preview.format = file->format;
    preview.description = file->description;
    preview.runs = file->runs.size();
    for (const auto& r : file->runs)
        preview.metrics += r.metrics.size();
    return preview;
}

Expected<ImportSummary> importFiles(Store& store, const ImportRequest& request) {
    if (request.files.empty())
        return badInput("import: no files given");
    if (std::count(request.files.begin(), request.files.end(), "-") > 1)
        return badInput("import: standard input (-) given more than once");
    std::vector<ImportedFile> parsed;
    for (const auto& path : request.files) {
        auto text = readInput(path, request.limit.value_or(resultLimit()));
        if (!text)
            return fail(text.error());
        auto file = parseResultFile(path == "-" ? std::string(standardInputName) : path, *text);
        if (!file)
            return fail(file.error());
        parsed.push_back(std::move(*file));
    }

    auto tx = store.transaction();
    if (!tx)
        return fail(tx.error());
    auto hostId = store.ensureHost(request.host);
    if (!hostId)
        return fail(hostId.error());
    const nlohmann::json spec{{"imported", true}};
    auto layoutId = store.ensureLayout(request.layout, request.kind, spec.dump(), *hostId);
    if (!layoutId)
        return fail(layoutId.error());

    // Iterations continue from what the layout already holds: counted once per workload here,
    // then in memory (counting per run would rescan the layout's runs for every file).
    auto countQ = store.database().prepare(
        "SELECT workload, COUNT(*) FROM run WHERE layout_id = ?1 GROUP BY workload");
    if (!countQ)
        return fail(countQ.error());
    std::map<std::string, int> nextIteration;
    countQ->bind(1, *layoutId);
    if (auto r = countQ->forEachRow([&](sql::Statement& row) {
            nextIteration[row.columnText(0)] = static_cast<int>(row.columnInt(1));
        });
        !r)
        return fail(r.error());
    ImportSummary summary;
    summary.layout = request.layout;
    const std::string importedAt = store.now();
    for (auto& file : parsed) {
        summary.files.push_back(file.path);
        summary.descriptions.push_back(file.description);
        for (auto& run : file.runs) {
            run.iteration = nextIteration[run.workload]++;
            run.finishedAt = importedAt;
            auto id = store.insertRun(*layoutId, run);
            if (!id)
                return fail(id.error());
            ++summary.runs;
            if (run.status != RunStatus::Ok)
                ++summary.failedRuns;
            summary.metrics += static_cast<std::int64_t>(run.metrics.size());
        }
    }
    if (auto r = tx->commit(); !r)
        return fail(r.error());
    return summary;
}

} // namespace lb
