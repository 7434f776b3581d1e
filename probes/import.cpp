// Import: detect each text's format, parse it with that tool's parser, refuse a run that yields
// nothing, and store every file's runs in one transaction.
#include "probes/import.h"

#include "engine/base/content_hash.h"
#include "engine/base/utf8.h"
#include "engine/build/layout_spec.h"
#include "engine/store/import_stage.h"
#include "probes/bonnie_csv.h"
#include "probes/bonnie_text.h"
#include "probes/dd.h"
#include "probes/fio_json.h"
#include "probes/fio_json_compat.h"
#include "probes/fio_normal.h"
#include "probes/fio_runs.h"
#include "probes/fio_terse.h"
#include "probes/iozone.h"
#include "probes/json_locate.h"
#include "probes/text_fields.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <thread>

namespace lb {

namespace {

// One run as a parser found it: where it starts, the text it was read from, what it measured.
struct Found {
    std::int64_t line = 1;
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
    run.series = std::move(parsed.series);
    run.status = parsed.failed ? RunStatus::Failed : RunStatus::Ok;
    run.reason = parsed.failureReason;
    run.source = path;
    run.sourceLine = found.line;
    if (const auto m = run.origin.spec.find("machine"); m != run.origin.spec.end())
        run.host = m->second;
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

// One bonnie++ CSV line as a run; nothing for a blank line.
Expected<std::optional<Found>> bonnieCsvLine(std::int64_t number, std::string_view line) {
    if (text::trim(line).empty())
        return std::optional<Found>();
    auto parsed = bonnie::parseCsvLine(line);
    if (!parsed)
        return badInput(std::to_string(number) + ": " + parsed.error().message);
    return std::optional<Found>(Found{number, std::string(line), std::move(*parsed)});
}

constexpr std::string_view noCsvLines = "1: no bonnie++ CSV lines";

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

// A whole text's format and runs, or the error naming `path` (a file parsed whole, or a paste).
Expected<std::pair<ImportFormat, std::vector<Found>>> parseWhole(const std::string& path,
                                                                 std::string text) {
    const auto format = detect(text);
    if (!format && iozone::looksLikeSpreadsheet(text))
        return located(path, "1: an iozone -Rb spreadsheet (binary Excel) is not imported: "
                             "import iozone's standard output, which holds the same tables "
                             "after 'Excel output is below:'");
    if (!format)
        return located(path, "1: not a format layoutbench imports (bonnie++ CSV or text table, "
                             "fio JSON, terse or normal output, iozone, dd)");
    auto runs = parseAs(*format, std::move(text));
    if (!runs)
        return located(path, runs.error().message);
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
std::string_view fioJob(std::string_view metric) {
    const auto head = metric.substr(0, metric.rfind('.'));
    const auto job = head.substr(4, head.rfind('.') - 4);
    return job.substr(0, job.find('@'));
}

bool isFio(ImportFormat f) {
    return f == ImportFormat::FioJson || f == ImportFormat::FioTerse ||
           f == ImportFormat::FioNormal;
}

// What one file holds, counted run by run as they go by, for its one-line description.
class FileTally {
public:
    explicit FileTally(ImportFormat format) : format_(format) {}

    void add(const Run& r) {
        if (runs_++ == 0)
            firstOrigin_ = r.origin.format;
        else if (r.origin.format != firstOrigin_ && !r.origin.format.empty() &&
                 seenOrigins_.size() < maxMachines && seenOrigins_.insert(r.origin.format).second)
            ++otherOrigins_;
        metrics_ += r.metrics.size();
        failed_ += r.status == RunStatus::Ok ? 0 : 1;
        if (const auto m = r.origin.spec.find("machine"); m != r.origin.spec.end()) {
            // A file of millions of lines is counted in constant memory: past this many
            // machines, only "more than".
            if (machines_.size() < maxMachines)
                machines_.insert(m->second);
            else
                manyMachines_ = manyMachines_ || !machines_.count(m->second);
        }
        for (const auto& m : r.metrics)
            if (m.name.starts_with("fio."))
                if (const auto job = fioJob(m.name); !jobs_.contains(job))
                    jobs_.emplace(job);
        if (const auto e = r.origin.spec.find("job_entries"); e != r.origin.spec.end())
            jobEntries_ += static_cast<std::size_t>(std::stoull(e->second));
        // Lines a parser could not place ("52,60"): the message names them, so a cut paste or a
        // stray line is never dropped without a word.
        if (const auto n = r.origin.spec.find("lines_not_read"); n != r.origin.spec.end())
            notRead_ += (notRead_.empty() ? "" : ",") + n->second;
        if (const auto g = r.origin.spec.find("job_groups"); g != r.origin.spec.end())
            jobGroups_ += static_cast<std::size_t>(std::stoull(g->second));
    }

    std::size_t runs() const { return runs_; }
    std::size_t metrics() const { return metrics_; }
    std::size_t failed() const { return failed_; }

    std::string describe() const {
        std::string out =
            firstOrigin_.empty() ? std::string(importFormatName(format_)) : firstOrigin_;
        if (otherOrigins_)
            out += " (and " + plural(otherOrigins_, "other version") + ")";
        if (format_ == ImportFormat::BonnieCsv || format_ == ImportFormat::BonnieText)
            out += ", " +
                   (manyMachines_
                        ? plural(runs_, "run") + " of more than " + plural(maxMachines, "machine")
                    : machines_.size() == runs_ || machines_.empty()
                        ? plural(runs_, "machine")
                        : plural(runs_, "run") + " of " + plural(machines_.size(), "machine"));
        else if (isFio(format_) && runs_ > 1)
            // Several invocations: each a run, same-named entries combined within one only.
            out += ", " + plural(runs_, "run") + " (one per fio invocation), " +
                   plural(jobs_.size(), "job") +
                   (jobEntries_ > 0 ? " (same-named entries combined within an invocation)" : "");
        else if (isFio(format_))
            out += ", " + plural(jobs_.size(), "job") +
                   (jobEntries_ > jobs_.size()
                        ? " (" + std::to_string(jobEntries_) + " entries combined by name)"
                        : "") +
                   (jobGroups_ > 1 ? ", " + plural(jobGroups_, "group") : "");
        else
            out += ", " + plural(runs_, "run");
        out += ", " + plural(metrics_, "metric");
        if (failed_)
            out += ", " + plural(failed_, "failed run");
        if (!notRead_.empty())
            out += ", " +
                   std::string(notRead_.find(',') == std::string::npos ? "line " : "lines ") +
                   notRead_ + " not read (the report's caveats say why)";
        return out;
    }

private:
    static constexpr std::size_t maxMachines = 10000;
    ImportFormat format_;
    std::string firstOrigin_;
    std::set<std::string> seenOrigins_; // other than the first: a log of several fio versions
    std::size_t otherOrigins_ = 0;
    std::size_t runs_ = 0, metrics_ = 0, failed_ = 0;
    std::set<std::string> machines_;
    bool manyMachines_ = false;
    std::set<std::string, std::less<>> jobs_; // looked up by view: a file's metrics name few
    std::size_t jobEntries_ = 0;              // fio's entries of same-named jobs, combined
    std::string notRead_;                     // line numbers, comma-separated
    std::size_t jobGroups_ = 0;               // fio's group ids, when a run has several
};

// A parsed run as it is stored; one that did not fail and yields no metric is refused, naming why.
Expected<Run> checkedRun(Found found, const std::string& path, ImportFormat format) {
    if (!found.run.failed && found.run.metrics.empty())
        return located(path, std::to_string(found.line) + ": no metric: " + whyNoMetric(found.run));
    // Values near the largest a double holds parse, and their sums (several jobs of one name)
    // overflow: stored, they would read as infinity or break the store's NOT NULL.
    for (const auto& m : found.run.metrics)
        if (!std::isfinite(m.value))
            return located(path, std::to_string(found.line) + ": " + m.name +
                                     ": not a finite number (the values it is made of overflow)");
    return runFrom(std::move(found), path, std::string(probeOf(format)));
}

// FILE:LINE, or FILE when the line is not known: an earlier run, named inside a message.
std::string whereFrom(const std::string& source, std::int64_t line) {
    std::string where = source;
    if (line > 0) {
        where += ':';
        where += std::to_string(line);
    }
    return where;
}

// Bad input, in the one-line format of every input error: the run read at SOURCE:LINE has the
// data of `earlier`, a run of the same import (staged under `staging`) or one published.
Error duplicateOf(const std::string& source, std::int64_t line, const ImportedRunRef& earlier,
                  std::int64_t staging) {
    const std::string hint = "; --allow-duplicate imports it again";
    const std::string what =
        earlier.layoutId == staging
            ? "the same data as " + whereFrom(earlier.source, earlier.sourceLine) + hint
            : "already imported as run " + std::to_string(earlier.id) + " of layout '" +
                  earlier.layout + "' (from " + whereFrom(earlier.source, earlier.sourceLine) +
                  ", " + earlier.importedAt + ")" + hint;
    return Error::badInput(inputError(source, line, 0, "", what));
}

// Stages a run on the storing thread: its content hash taken, and (unless duplicates are
// allowed) looked up, so the same file imported again stops at its first line. Repeats within
// the import (and data published meanwhile by another import) are found when the import is
// published, in one sorted pass (StagedImport::publish).
// The run's host is the import's when it names one, else the machine the output named.
Expected<void> stageRun(StagedImport& stage, Run& run, const ImportRequest& request) {
    if (!request.host.empty())
        run.host = request.host;
    else if (run.host.empty())
        run.host = defaultImportHost;
    run.contentHash = contentHash(run.stdoutText);
    if (!request.allowDuplicate) {
        LB_TRY(earlier, stage.store().importedRunWithContent(run.contentHash));
        if (earlier)
            return fail(duplicateOf(run.source, run.sourceLine, *earlier, 0));
    }
    return stage.add(run);
}

// How much of a file detection looks at before a format is read line by line.
constexpr std::size_t headBytes = std::size_t{64} << 10;

// What one file held, once it has been read.
struct FileRead {
    std::string name;
    std::string description; // FileTally::describe
    std::size_t runs = 0, failed = 0, metrics = 0;
};

// Runs as the reading thread hands them to the storing one, a few hundred at a time (one hand-over
// per file cost more than reading it): runs of one file or several, and what each file that
// ended in the piece held.
struct Piece {
    std::vector<Run> runs;
    std::size_t bytes = 0; // of raw output
    std::vector<FileRead> ended;
    // A bonnie++ CSV file, read line by line by the storer after the runs above: its runs are a
    // few hundred bytes each, and handing them from one core to the other cost more (user time
    // half as much again) than parsing them where they are stored.
    std::optional<InputReader> streamed;
};
constexpr std::size_t pieceRuns = 256;
constexpr std::size_t pieceBytes = std::size_t{1} << 20;

// The pieces read and not yet stored: at most maxPieces, and at most maxBytes of raw output (one
// piece is let in whatever its size). A run in memory is several times its raw output (a bonnie++
// line of 250 bytes has forty metrics), so the count bounds the memory of small runs. The reader
// waits for room, the storer for a piece; the reader stops waiting when asked to stop (the storer
// failed, or finished early). Stored pieces go back to the reader to be freed: memory is freed by
// the thread that allocated it, without the two taking turns at the allocator's lock (a tenth of
// the reader's time when the storer freed it).
class PieceQueue {
public:
    static constexpr std::size_t maxPieces = 4;
    static constexpr std::size_t maxBytes = std::size_t{16} << 20;

    // False when the reader was asked to stop instead.
    bool push(Expected<Piece> piece, std::stop_token stop) {
        std::vector<Piece> stored;
        std::unique_lock lock(mutex_);
        stored.swap(stored_);
        if (!changed_.wait(lock, stop, [&] {
                return pieces_.empty() || (pieces_.size() < maxPieces && bytes_ < maxBytes);
            }))
            return false;
        bytes_ += piece ? piece->bytes : 0;
        pieces_.push_back(std::move(piece));
        changed_.notify_all();
        lock.unlock();
        return true; // `stored` freed here, outside the lock
    }
    // The reader has pushed its last piece.
    void finish() {
        std::lock_guard lock(mutex_);
        finished_ = true;
        changed_.notify_all();
    }
    // The next piece; nullopt when the reader finished and every piece was taken.
    std::optional<Expected<Piece>> pop() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return !pieces_.empty() || finished_; });
        if (pieces_.empty())
            return std::nullopt;
        auto piece = std::move(pieces_.front());
        pieces_.pop_front();
        bytes_ -= piece ? piece->bytes : 0;
        changed_.notify_all();
        return piece;
    }
    // A piece the storer is done with, for the reader to free.
    void giveBack(Piece piece) {
        std::lock_guard lock(mutex_);
        stored_.push_back(std::move(piece));
    }

private:
    std::mutex mutex_;
    std::condition_variable_any changed_;
    std::deque<Expected<Piece>> pieces_;
    std::size_t bytes_ = 0;
    bool finished_ = false;
    std::vector<Piece> stored_;
};

// Reads the files of an import, in order, on a thread of its own: detected, parsed and checked,
// handed on in pieces (bonnie++ CSV files handed on open). Reading and parsing a fio JSON+ file
// takes about as long as storing it; the two go on side by side.
class FileReader {
public:
    FileReader(const ImportRequest& request, std::string importedAt, PieceQueue& queue,
               std::stop_token stop)
        : request_(request), importedAt_(std::move(importedAt)), queue_(queue), stop_(stop),
          limit_(request.limit.value_or(resultLimit())),
          wholeLimit_(request.limit.value_or(wholeResultLimit())) {}

    // Every file, then finish(); stops at the first error, pushed as the last piece.
    void readAll() {
        for (const auto& path : request_.files) {
            Expected<void> read = [&]() -> Expected<void> {
                LB_TRY(file, InputFile::open(path, limit_));
                return readFile(InputReader(std::move(file)));
            }();
            if (!read) {
                // What was read before the error is stored first: a repeat in it is the error
                // the import reports, as when files were read and stored one by one.
                if (queue_.push(std::exchange(piece_, Piece{}), stop_))
                    queue_.push(fail(read.error()), stop_);
                break;
            }
            if (stop_.stop_requested())
                break;
        }
        if (!piece_.runs.empty() || !piece_.ended.empty())
            queue_.push(std::exchange(piece_, Piece{}), stop_);
        queue_.finish();
    }

private:
    // A run found in the file: checked, counted, and into the piece; a full piece is pushed.
    Expected<void> add(Found found, ImportFormat format) {
        auto run = checkedRun(std::move(found), name_, format);
        if (!run)
            return fail(run.error());
        run->finishedAt = importedAt_;
        tally_.add(*run);
        piece_.bytes += run->stdoutText.size();
        piece_.runs.push_back(std::move(*run));
        return pushWhenFull();
    }

    Expected<void> pushWhenFull() {
        if (piece_.runs.size() < pieceRuns && piece_.bytes < pieceBytes)
            return {};
        if (!queue_.push(std::exchange(piece_, Piece{}), stop_))
            return runtimeError("import stopped");
        return {};
    }

    // One file: parsed whole (within the limit for that), or, for bonnie++ CSV, handed on to be
    // read line by line in constant memory by the storer.
    Expected<void> readFile(InputReader reader) {
        name_ = reader.file().name();
        LB_TRY(head, reader.peek(headBytes));
        if (detect(head) == ImportFormat::BonnieCsv) {
            piece_.streamed.emplace(std::move(reader));
            if (!queue_.push(std::exchange(piece_, Piece{}), stop_))
                return runtimeError("import stopped");
            return {};
        }
        LB_TRY(text, reader.rest(wholeLimit_));
        LB_TRY(parsed, parseWhole(name_, std::move(text)));
        auto& [format, runs] = parsed;
        tally_ = FileTally(format);
        for (auto& f : runs)
            LB_TRY_VOID(add(std::move(f), format));
        piece_.ended.push_back(
            {name_, tally_.describe(), tally_.runs(), tally_.failed(), tally_.metrics()});
        return pushWhenFull();
    }

    const ImportRequest& request_;
    const std::string importedAt_;
    PieceQueue& queue_;
    std::stop_token stop_;
    const InputLimit limit_, wholeLimit_;
    std::string name_;
    FileTally tally_{ImportFormat::BonnieCsv};
    Piece piece_;
};

// Stages a bonnie++ CSV file line by line, in constant memory, on the storing thread.
Expected<FileRead> stageCsvFile(InputReader& reader, StagedImport& stage,
                                const std::string& importedAt, const ImportRequest& request) {
    const std::string& name = reader.file().name();
    FileTally tally(ImportFormat::BonnieCsv);
    for (;;) {
        LB_TRY(line, reader.next());
        if (!line)
            break;
        auto found = bonnieCsvLine(line->number, line->text);
        if (!found)
            return located(name, found.error().message);
        if (!*found)
            continue;
        LB_TRY(run, checkedRun(std::move(**found), name, ImportFormat::BonnieCsv));
        run.finishedAt = importedAt;
        LB_TRY_VOID(stageRun(stage, run, request));
        tally.add(run);
    }
    if (tally.runs() == 0)
        return located(name, std::string(noCsvLines));
    return FileRead{name, tally.describe(), tally.runs(), tally.failed(), tally.metrics()};
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
    case ImportFormat::FioNormal:
        return "fio normal output";
    case ImportFormat::Iozone:
        return "iozone";
    case ImportFormat::Dd:
        return "dd";
    }
    return "unknown";
}

Expected<ImportedFile> parseResultFile(const std::string& path, std::string_view text) {
    LB_TRY(parsed, parseWhole(path, std::string(text)));
    auto& [format, runs] = parsed;
    ImportedFile file;
    file.path = path;
    file.format = format;
    FileTally tally(format);
    for (auto& f : runs) {
        auto run = checkedRun(std::move(f), path, format);
        if (!run)
            return fail(run.error());
        tally.add(*run);
        file.lines.push_back(static_cast<int>(run->sourceLine));
        file.runs.push_back(std::move(*run));
    }
    file.description = tally.describe();
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
    // A layout of another kind is refused before anything is read.
    auto existing = store.findLayout(request.layout);
    if (!existing)
        return fail(existing.error());
    if (*existing && (*existing)->kind != request.kind)
        return badInput("layout '" + request.layout + "' already exists with kind '" +
                        (*existing)->kind + "', not '" + request.kind + "'");

    // Every file's runs are staged as they are read, and become the layout's only when all
    // files have been read: one bad line anywhere imports nothing.
    auto stage = StagedImport::begin(store);
    if (!stage)
        return fail(stage.error());
    ImportSummary summary;
    summary.layout = request.layout;
    PieceQueue queue;
    const std::string importedAt = store.now();
    // Declared after the queue: its destructor asks the reader to stop and waits for it.
    std::jthread reading(
        [&](std::stop_token stop) { FileReader(request, importedAt, queue, stop).readAll(); });
    while (auto piece = queue.pop()) {
        if (!*piece)
            return fail(piece->error());
        for (auto& run : (*piece)->runs)
            LB_TRY_VOID(stageRun(*stage, run, request));
        std::vector<FileRead>& ended = (*piece)->ended;
        if (auto& streamed = (*piece)->streamed) {
            LB_TRY(read, stageCsvFile(*streamed, *stage, importedAt, request));
            ended.push_back(std::move(read));
        }
        for (const auto& end : ended) {
            summary.files.push_back(end.name);
            summary.descriptions.push_back(end.description);
            summary.runs += static_cast<std::int64_t>(end.runs);
            summary.failedRuns += static_cast<std::int64_t>(end.failed);
            summary.metrics += static_cast<std::int64_t>(end.metrics);
        }
        queue.giveBack(std::move(**piece));
    }
    LB_TRY(repeated,
           stage->publish({request.layout, request.kind, importedLayoutSpecJson(),
                           request.host.empty() ? std::string(defaultImportHost) : request.host},
                          request.allowDuplicate ? StagedImport::Repeats::Keep
                                                 : StagedImport::Repeats::Refuse));
    if (repeated)
        return fail(duplicateOf(repeated->again.source, repeated->again.sourceLine, repeated->first,
                                stage->layoutId()));
    return summary;
}

} // namespace lb
