// Import: detect each text's format, parse it with that tool's parser, refuse a run that yields
// nothing, and store every file's runs in one transaction.
#include "probes/import.h"

#include "engine/base/content_hash.h"
#include "engine/base/zeroed_array.h"
#include "engine/build/layout_spec.h"
#include "engine/store/import_stage.h"
#include "probes/import_internal.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <thread>

namespace lb {

namespace {

using import_read::detect;
using import_read::Found;
using import_read::located;
using import_read::probeOf;

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

    // The run with content hash `hash` comes next: its slot is fetched into the cache meanwhile.
    void expect(std::string_view hash) { hashes_.prefetch(keyOf(hash)); }

    // Whether the run repeats one met before in this file (the same content hash, which the run
    // must have): not stored, and named in the description.
    bool repeated(const Run& r) {
        const auto earlier = hashes_.firstOrAdd(keyOf(r.contentHash), r.sourceLine);
        if (!earlier)
            return false;
        if (++repeats_ <= shownRepeats)
            repeatLines_ += (repeatLines_.empty() ? "" : ", ") + std::string("line ") +
                            std::to_string(r.sourceLine) + " repeats line " +
                            std::to_string(*earlier);
        return true;
    }

    void add(const Run& r) {
        if (r.probe != probeOf(format_)) { // another tool's runs in the same file
            others_[r.origin.format.empty() ? r.probe : r.origin.format] += 1;
            otherMetrics_ += r.metrics.size();
            failed_ += r.status == RunStatus::Ok ? 0 : 1;
            ++allRuns_;
            return;
        }
        ++allRuns_;
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
        if (const auto n = r.origin.spec.find("not_imported"); n != r.origin.spec.end())
            notImported_ = n->second;
        if (const auto g = r.origin.spec.find("job_groups"); g != r.origin.spec.end())
            jobGroups_ += static_cast<std::size_t>(std::stoull(g->second));
    }

    std::size_t runs() const { return allRuns_; }
    std::size_t metrics() const { return metrics_ + otherMetrics_; }
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
        for (const auto& [origin, n] : others_)
            out += "; and " + origin + ", " + plural(n, "run");
        if (!others_.empty())
            out += ", " + plural(otherMetrics_, "metric");
        if (!notImported_.empty())
            out += "; the " + notImported_ +
                   " it also holds is not imported (import it from a file of its own)";
        if (repeats_)
            out += "; " + plural(repeats_, "repeated run") + " skipped (" + repeatLines_ +
                   (repeats_ > shownRepeats ? ", ..." : "") + ")";
        return out;
    }

private:
    // A content hash (32 hex digits) as the two 64-bit halves it spells.
    struct HashKey {
        std::uint64_t high = 0, low = 0;
    };
    // The content hashes met, each with its line, in one flat table probed in order: a million
    // lines were a million nodes of a std::unordered_map, each allocated, and a miss of the cache
    // or two to reach (6 % of an import's time at 200,000 lines). XXH3's bits are uniform: the
    // hash's own bits place it. A slot keeps 96 of the hash's 128 bits (two runs of a million
    // lines agree in 96 bits by chance with odds of about 1 in 10^17) and the line, in 16 bytes:
    // at a million lines the table is 32 MiB, probed once a line at random. Its memory is
    // mapped zeroed (a zero line is an empty slot) and asked of the kernel in 2 MiB pages: in
    // 4 KiB pages each probe also missed the TLB, and the table cost 3 % of the import's CPU
    // time and 27,000 page faults.
    class SeenHashes {
    public:
        // The line `key` was first met on; nullopt when new, and then it is kept with `line`.
        std::optional<std::int64_t> firstOrAdd(HashKey key, std::int64_t line) {
            if (2 * (used_ + 1) > slots_.size())
                grow();
            Slot& slot = find(slots_, key);
            if (slot.line != empty)
                return slot.line - 1;
            slot = {key.high, static_cast<std::uint32_t>(key.low), lineOf(line)};
            ++used_;
            return std::nullopt;
        }

        // A probe of `key` starts in the memory fetched here.
        void prefetch(HashKey key) const {
            if (slots_.size() == 0)
                return;
            const Slot* slot = &slots_[key.high & (slots_.size() - 1)];
#if defined(__x86_64__)
            // GCC dropped __builtin_prefetch here as having no effect.
            asm volatile("prefetcht0 %0" : : "m"(*slot));
#else
            __builtin_prefetch(slot);
#endif
        }

    private:
        static constexpr std::uint32_t empty = 0; // a slot's line is the line + 1
        struct Slot {
            std::uint64_t high;
            std::uint32_t low;
            std::uint32_t line;
        };
        static std::uint32_t lineOf(std::int64_t line) {
            // Past 4 billion lines only the message's line number would be wrong.
            return static_cast<std::uint32_t>(
                std::clamp<std::int64_t>(line + 1, 1, std::numeric_limits<std::uint32_t>::max()));
        }
        static Slot& find(ZeroedArray<Slot>& slots, const HashKey& key) {
            const std::size_t mask = slots.size() - 1;
            const auto low = static_cast<std::uint32_t>(key.low);
            for (std::size_t i = key.high & mask;; i = (i + 1) & mask)
                if (slots[i].line == empty || (slots[i].high == key.high && slots[i].low == low))
                    return slots[i];
        }
        void grow() {
            ZeroedArray<Slot> bigger(std::max<std::size_t>(16, 2 * slots_.size()));
            for (std::size_t i = 0; i < slots_.size(); ++i)
                if (const Slot& s = slots_[i]; s.line != empty)
                    find(bigger, {s.high, s.low}) = s;
            slots_ = std::move(bigger);
        }
        ZeroedArray<Slot> slots_;
        std::size_t used_ = 0;
    };
    static HashKey keyOf(std::string_view hash) {
        HashKey key;
        const auto half = std::min<std::size_t>(16, hash.size());
        std::from_chars(hash.data(), hash.data() + half, key.high, 16);
        std::from_chars(hash.data() + half, hash.data() + hash.size(), key.low, 16);
        return key;
    }

    static constexpr std::size_t maxMachines = 10000;
    static constexpr std::size_t shownRepeats = 5;
    SeenHashes hashes_;
    std::size_t repeats_ = 0;
    std::string repeatLines_;
    std::map<std::string, std::size_t> others_; // other tools' runs, by format
    std::size_t otherMetrics_ = 0;
    std::size_t allRuns_ = 0;
    std::string notImported_; // another tool's output the file holds, not read
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
    const auto probe = probeOf(found.format.value_or(format));
    return runFrom(std::move(found), path, std::string(probe));
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
// allowed, or `lookUp` is false) looked up, so the same file imported again stops at its first
// line. Repeats within the import, of data published before it past a file's first run, and of
// data published meanwhile by another import are found when the import is published, in one
// sorted pass (StagedImport::publish), and named alike.
// The run's host is the import's when it names one, else the machine the output named.
Expected<void> stageRun(StagedImport& stage, Run& run, const ImportRequest& request,
                        bool lookUp = true) {
    if (!request.host.empty())
        run.host = request.host;
    else if (run.host.empty())
        run.host = defaultImportHost;
    if (run.contentHash.empty())
        run.contentHash = contentHash(run.stdoutText);
    if (!request.allowDuplicate && lookUp) {
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
        run->contentHash = contentHash(run->stdoutText);
        if (tally_.repeated(*run))
            return {};
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
        LB_TRY(parsed, import_read::parseWhole(name_, std::move(text)));
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
    std::vector<Metric> spare; // the last line's metrics, written over by the next one's
    for (;;) {
        LB_TRY(line, reader.next());
        if (!line)
            break;
        // The line is the run's output: hashed first, the table's slot for it is fetched from
        // memory while the line is parsed (a miss of the cache a line, 2 % of the CPU time).
        std::string hash = contentHash(line->text);
        tally.expect(hash);
        auto found = import_read::bonnieCsvLine(line->number, line->text, std::move(spare));
        if (!found)
            return located(name, found.error().message);
        if (!*found)
            continue;
        LB_TRY(run, checkedRun(std::move(**found), name, ImportFormat::BonnieCsv));
        run.finishedAt = importedAt;
        run.contentHash = std::move(hash);
        if (!tally.repeated(run)) {
            // A CSV's first line looked up alone: a lookup a line was 2.4 % of a million lines'
            // import, and a repeat past the first line is found as the import is published.
            LB_TRY_VOID(stageRun(stage, run, request, tally.runs() == 0));
            tally.add(run);
        }
        spare = std::move(run.metrics);
    }
    if (tally.runs() == 0)
        return located(name, std::string(import_read::noCsvLines));
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
    LB_TRY(parsed, import_read::parseWhole(path, std::string(text)));
    auto& [format, runs] = parsed;
    ImportedFile file;
    file.path = path;
    file.format = format;
    FileTally tally(format);
    for (auto& f : runs) {
        auto run = checkedRun(std::move(f), path, format);
        if (!run)
            return fail(run.error());
        run->contentHash = contentHash(run->stdoutText);
        if (tally.repeated(*run))
            continue;
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
