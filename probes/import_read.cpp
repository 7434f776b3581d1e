// Reading one file's text into runs: its format detected, then that tool's parser, run by run
// (several fio invocations in one text are several runs, fio_runs.h).
#include "engine/base/utf8.h"
#include "probes/bonnie_csv.h"
#include "probes/bonnie_text.h"
#include "probes/dd.h"
#include "probes/fio_json.h"
#include "probes/fio_json_compat.h"
#include "probes/fio_normal.h"
#include "probes/fio_runs.h"
#include "probes/fio_terse.h"
#include "probes/import_internal.h"
#include "probes/iozone.h"
#include "probes/json_locate.h"
#include "probes/pasted_text.h"
#include "probes/text_fields.h"

#include <algorithm>

namespace lb::import_read {

// "PATH:" before a parser's "LINE: FIELD: message"; nothing when there is no file (a paste).
Unexpected located(const std::string& path, const std::string& message) {
    return badInput(path.empty() ? message : path + ":" + message);
}

namespace {

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

} // namespace

std::optional<ImportFormat> detect(std::string_view text) {
    if (fio::looksLikeJson(text))
        return ImportFormat::FioJson;
    if (fio::looksLikeTerse(text))
        return ImportFormat::FioTerse;
    if (fio::looksLikeNormal(text))
        return ImportFormat::FioNormal;
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

namespace {

RunOrigin fioJsonOrigin(const ParsedRun& run, std::string_view text) {
    RunOrigin o;
    const std::string version =
        run.toolVersion.starts_with("fio-") ? run.toolVersion.substr(4) : run.toolVersion;
    const bool plus = text.find("\"bins\"") != std::string_view::npos;
    o.format = "fio " + version + (plus ? " JSON+" : " JSON");
    o.spec = run.origin.spec; // job_entries and job_groups, as the file has them
    if (fio::compat::isLegacyVersion(run.toolVersion))
        o.convertedFrom = {"KiB/s", "KiB (io_bytes)", "us", "ms"};
    else
        o.convertedFrom = {"ms (runtime)"};
    return o;
}

} // namespace

// One bonnie++ CSV line as a run; nothing for a blank line.
Expected<std::optional<Found>> bonnieCsvLine(std::int64_t number, std::string_view line,
                                             std::vector<Metric> spare) {
    if (text::trim(line).empty())
        return std::optional<Found>();
    auto parsed = bonnie::parseCsvLine(line, std::move(spare));
    if (!parsed)
        return badInput(std::to_string(number) + ": " + parsed.error().message);
    return std::optional<Found>(Found{number, std::string(line), std::move(*parsed)});
}

namespace {

Expected<std::vector<Found>> bonnieCsvRuns(std::string_view text) {
    std::vector<Found> runs;
    for (const auto& line : text::lines(text)) {
        auto run = bonnieCsvLine(line.number, line.text);
        if (!run)
            return fail(run.error());
        if (*run)
            runs.push_back(std::move(**run));
    }
    if (runs.empty())
        return badInput(std::string(noCsvLines));
    return runs;
}

template <typename Pasted> std::vector<Found> found(std::vector<Pasted> pasted) {
    std::vector<Found> out;
    for (auto& p : pasted)
        out.push_back({p.line, std::move(p.raw), std::move(p.run)});
    return out;
}

// One run of the whole text (fio JSON and terse), which becomes its raw output uncopied.
std::vector<Found> wholeText(std::string text, ParsedRun run) {
    std::vector<Found> runs;
    runs.push_back({1, std::move(text), std::move(run)});
    return runs;
}

// "LINE: message" of a part that starts at line `first` of the whole text, with the whole's line.
std::string shifted(const std::string& message, int first) {
    const auto colon = message.find(": ");
    if (first <= 1 || colon == 0 || colon == std::string::npos ||
        message.find_first_not_of("0123456789") != colon)
        return message;
    return std::to_string(std::stoll(message.substr(0, colon)) + first - 1) + message.substr(colon);
}

Expected<ParsedRun> fioJsonPart(std::string_view part, int first) {
    auto run = fio::parseJson(part);
    if (!run)
        return badInput(shifted(withFioLine(part, run.error().message), first));
    run->origin = fioJsonOrigin(*run, part);
    return run;
}

// A part of fio's normal output in which fio printed no job's results (it stopped before any
// ran: "fio: maximum number of jobs (1) reached"): a failed run quoting fio's own lines.
Expected<ParsedRun> fioNormalPart(std::string_view part, int first) {
    if (const auto reports = fio::intervalReports(part)) {
        // --status-interval: every report but the last, final one left out, line for line.
        const auto [begin, last] = *reports;
        std::string finalOnly(part.substr(0, begin));
        finalOnly.append(
            static_cast<std::size_t>(std::count(part.begin() + begin, part.begin() + last, '\n')),
            '\n');
        finalOnly += part.substr(last);
        LB_TRY(run, fio::parseNormal(finalOnly, first));
        run.caveats.push_back("fio --status-interval: the last of its reports (line " +
                              std::to_string(text::lineAt(part, last) + first - 1) +
                              "), fio's final one, is imported; the earlier ones are its "
                              "figures so far");
        return run;
    }
    if (fio::looksLikeNormal(part))
        return fio::parseNormal(part, first);
    ParsedRun run;
    run.workload = "fio";
    run.failed = true;
    std::string said; // fio's complaints, as it printed them
    for (const auto& line : text::lines(part)) {
        const auto t = text::trim(line.text);
        if (t.starts_with("fio-") && t.find(' ') == std::string_view::npos)
            run.toolVersion = escapeInvalidUtf8(t);
        if (t.starts_with("fio: ") || t.starts_with("Error: ") || t.starts_with("error: "))
            said += (said.empty() ? "" : "; ") + escapeInvalidUtf8(t);
    }
    run.failureReason = "fio printed no job's results" + (said.empty() ? "" : ": " + said);
    const std::string_view version = run.toolVersion;
    run.origin.format =
        "fio " + (version.empty() ? "" : std::string(version.substr(4)) + " ") + "normal output";
    return run;
}

// One run per fio invocation the text holds (fio_runs.h), each read from its own part and
// keeping that part as its raw output; a text of one invocation is one run of the whole text.
template <typename Parse>
Expected<std::vector<Found>> perInvocation(std::string text,
                                           const std::vector<fio::Invocation>& parts, Parse parse) {
    if (parts.size() <= 1) {
        LB_TRY(run, parse(std::string_view(text), 1));
        return wholeText(std::move(text), std::move(run));
    }
    std::vector<Found> runs;
    const std::string of = " of " + std::to_string(parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const auto& p = parts[i];
        const auto part = std::string_view(text).substr(p.begin, p.end - p.begin);
        LB_TRY(run, parse(part, p.line));
        run.origin.spec["invocation"] = std::to_string(i + 1) + of;
        run.caveats.push_back("fio invocation " + std::to_string(i + 1) + of +
                              " in one file: a run of its own, never added to the others");
        runs.push_back({p.line, std::string(part), std::move(run)});
    }
    return runs;
}

Expected<std::vector<Found>> parseAs(ImportFormat format, std::string text) {
    switch (format) {
    case ImportFormat::FioJson: {
        const auto parts = fio::jsonInvocations(text);
        return perInvocation(std::move(text), parts, fioJsonPart);
    }
    case ImportFormat::FioTerse: {
        const auto parts = fio::terseInvocations(text);
        return perInvocation(std::move(text), parts, [](std::string_view part, int first) {
            return fio::parseTerse(part, first);
        });
    }
    case ImportFormat::FioNormal: {
        const auto parts = fio::normalInvocations(text);
        return perInvocation(std::move(text), parts, fioNormalPart);
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

// A device-test log holds several tools' output (an iozone report, then dd's summary): the
// runs of iozone and dd in a text of another format, each marked with its own format, in the
// order of their lines after the file's own. Their parsers read around what is not theirs.
Expected<std::vector<Found>> otherTools(ImportFormat format, std::string_view text) {
    std::vector<Found> others;
    const auto add = [&](std::vector<Found> runs, ImportFormat tool) {
        for (auto& f : runs) {
            f.format = tool;
            others.push_back(std::move(f));
        }
    };
    if (format != ImportFormat::Iozone && iozone::looksLikeIozone(text)) {
        LB_TRY(runs, iozone::parse(text));
        add(found(std::move(runs)), ImportFormat::Iozone);
    }
    if (format != ImportFormat::Dd && dd::looksLikeDd(text)) {
        LB_TRY(runs, dd::parse(text));
        add(found(std::move(runs)), ImportFormat::Dd);
    }
    return others;
}

// The other tools' output a text also holds that is not imported with the file's own (fio's
// beside bonnie++'s, or bonnie++'s beside fio's): named, so that nothing is dropped unsaid.
std::string notImported(ImportFormat format, std::string_view text) {
    const bool fio = format == ImportFormat::FioJson || format == ImportFormat::FioTerse ||
                     format == ImportFormat::FioNormal;
    const bool bonnie = format == ImportFormat::BonnieCsv || format == ImportFormat::BonnieText;
    if (!fio &&
        (fio::looksLikeJson(text) || fio::looksLikeTerse(text) || fio::looksLikeNormal(text)))
        return "fio output";
    if (!bonnie && (bonnie::looksLikeTable(text) || bonnie::looksLikeCsv(text)))
        return "bonnie++ output";
    return {};
}

} // namespace

// A whole text's format and runs, or the error naming `path` (a file parsed whole, or a paste).
Expected<std::pair<ImportFormat, std::vector<Found>>> parseWhole(const std::string& path,
                                                                 std::string text) {
    // fio's JSON is found among whatever surrounds it: only other texts are unwrapped (a search
    // of every line that cost a tenth of a json+ import).
    auto format = detect(text);
    if (format != ImportFormat::FioJson && text::isWrapped(text)) {
        text = text::plainText(text);
        format = detect(text);
    }
    if (!format && iozone::looksLikeSpreadsheet(text))
        return located(path, "1: an iozone -Rb spreadsheet (binary Excel) is not imported: "
                             "import iozone's standard output, which holds the same tables "
                             "after 'Excel output is below:'");
    if (!format)
        return located(path, "1: not a format layoutbench imports (bonnie++ CSV or text table, "
                             "fio JSON, terse or normal output, iozone, dd)");
    // fio's JSON documents are read around whatever log lines they have, and not searched line
    // by line for other tools: that took twice as long as reading them (10 KB of json+ each).
    const bool json = *format == ImportFormat::FioJson;
    auto others =
        json ? Expected<std::vector<Found>>(std::vector<Found>{}) : otherTools(*format, text);
    if (!others)
        return located(path, others.error().message);
    const auto unread = json ? std::string() : notImported(*format, text);
    auto runs = parseAs(*format, std::move(text));
    if (!runs)
        return located(path, runs.error().message);
    if (!unread.empty() && !runs->empty())
        runs->front().run.origin.spec["not_imported"] = unread;
    for (auto& other : *others)
        runs->push_back(std::move(other));
    return std::pair{*format, std::move(*runs)};
}

std::string_view probeOf(ImportFormat f) {
    switch (f) {
    case ImportFormat::BonnieCsv:
    case ImportFormat::BonnieText:
        return "bonnie";
    case ImportFormat::FioJson:
    case ImportFormat::FioTerse:
    case ImportFormat::FioNormal:
        return "fio";
    case ImportFormat::Iozone:
        return "iozone";
    case ImportFormat::Dd:
        return "dd";
    }
    return "imported";
}

} // namespace lb::import_read
