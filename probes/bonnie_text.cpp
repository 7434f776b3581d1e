// bonnie++ text tables: finding the blocks among prose, reading each row by the columns bonnie++
// prints it in (a 19-character label, then " %5s %3s" per test, " %9s" per latency), pairing a
// machine's throughput and file-creation rows, and letting the CSV line of the same run win.
#include "probes/bonnie_text.h"

#include "probes/bonnie_csv.h"
#include "probes/text_fields.h"

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <utility>

namespace lb::bonnie {

namespace {

using text::Token;

// Where bonnie++ (every version, and bon_csv2txt) ends a row's label and how wide each cell is.
constexpr std::size_t rowLabelEnd = 19;
constexpr std::size_t latencyLabelEnd = 17;
constexpr std::array<std::size_t, 12> rowWidths{5, 3, 5, 3, 5, 3, 5, 3, 5, 3, 5, 3};
constexpr std::array<std::size_t, 6> latencyWidths{9, 9, 9, 9, 9, 9};

enum class BlockKind { None, Io, File };

// One row of a table with its Latency row, as read.
struct Row {
    int line = 0;
    std::string_view source; // the row's line
    std::string machine;
    std::string size; // "512M", "256M:4k:2", "16:4096:1024/2"
    std::vector<std::string_view> cells;
    std::vector<std::string_view> latencies; // empty until the Latency row is read
    int latencyLine = 0;
};

// What the lines before a row said about it.
struct Block {
    BlockKind kind = BlockKind::None;
    std::string version;        // from "Version 1.96", empty when the header has none
    std::string headerMachine;  // file blocks: the name bonnie++ prints above the columns
    bool suffixedRates = false; // 1.98+: "/sec" columns with 1959k / 21.3m / 1.2g
    bool rowExpected = false;   // a column header was read and no row yet
    std::vector<std::string_view> headerLines;
};

struct TableRun {
    int line = 0;
    std::string version;
    std::string raw;
    std::optional<Row> io;
    std::optional<Row> file;
    Block ioBlock;
    Block fileBlock;
    std::optional<PastedRun> csv; // the run's CSV line, which wins over the table
};

bool contains(std::string_view s, std::string_view what) {
    return s.find(what) != std::string_view::npos;
}

// +++++ (a rate) and +++ (its CPU): the test was too fast to time.
bool allPlus(std::string_view s) {
    return !s.empty() && s.find_first_not_of('+') == std::string_view::npos;
}

bool isCellValue(std::string_view s) {
    if (s.empty())
        return false;
    if (allPlus(s))
        return true;
    if (s.back() == 'k' || s.back() == 'm' || s.back() == 'g')
        s.remove_suffix(1);
    return text::parseNonNegative(s).has_value();
}

// Assigns a row's value tokens to its fixed-width cells: a token belongs to the cell it ends
// in (bonnie++ right-aligns), or to the cell it starts in when it is wider than the cell, which
// then shifts the rest of the row; a token that starts after a cell's end leaves that cell
// empty. nullopt when the tokens do not sit where bonnie++ prints them.
std::optional<std::vector<std::string_view>> byColumns(std::span<const Token> values,
                                                       std::size_t labelEnd,
                                                       std::span<const std::size_t> widths) {
    std::vector<std::string_view> cells(widths.size());
    std::size_t c = 0;
    std::size_t pos = labelEnd; // the column where the previous cell ended
    for (const auto& t : values) {
        for (;;) {
            if (c == widths.size())
                return std::nullopt;
            const std::size_t fieldStart = pos + 1; // after the separating space
            const std::size_t cellEnd = fieldStart + widths[c];
            if (t.end == cellEnd && t.begin >= fieldStart) {
                cells[c++] = t.text;
                pos = cellEnd;
                break;
            }
            if (t.begin == fieldStart && t.end > cellEnd) {
                cells[c++] = t.text;
                pos = t.end;
                break;
            }
            if (t.begin <= cellEnd)
                return std::nullopt;
            pos = cellEnd; // cell c printed blank: the test did not run
            ++c;
        }
    }
    return cells;
}

// A row's label and cells. By column first; a table whose spacing was changed when it was
// pasted is read in order if it has every cell.
Expected<std::pair<std::vector<Token>, std::vector<std::string_view>>>
splitRow(const std::vector<Token>& tokens, std::size_t labelEnd,
         std::span<const std::size_t> widths, std::size_t minLabel) {
    std::size_t labelCount = 0;
    while (labelCount < tokens.size() && tokens[labelCount].begin < labelEnd)
        ++labelCount;
    if (labelCount >= minLabel) {
        const std::size_t end = std::max(labelEnd, tokens[labelCount - 1].end);
        const std::span<const Token> values(tokens.data() + labelCount, tokens.size() - labelCount);
        if (auto cells = byColumns(values, end, widths))
            return std::pair{
                std::vector<Token>(tokens.begin(),
                                   tokens.begin() + static_cast<std::ptrdiff_t>(labelCount)),
                std::move(*cells)};
    }
    if (tokens.size() >= widths.size() + minLabel) {
        const auto first = tokens.end() - static_cast<std::ptrdiff_t>(widths.size());
        std::vector<std::string_view> cells;
        for (auto it = first; it != tokens.end(); ++it)
            cells.push_back(it->text);
        return std::pair{std::vector<Token>(tokens.begin(), first), std::move(cells)};
    }
    return badInput("row: " + std::to_string(tokens.size()) + " fields for a label and " +
                    std::to_string(widths.size()) +
                    " columns, and the spacing does not show which are empty (was the table "
                    "re-spaced when it was pasted?)");
}

std::string joined(std::span<const Token> tokens) {
    std::string out;
    for (const auto& t : tokens) {
        if (!out.empty())
            out += ' ';
        out += t.text;
    }
    return out;
}

Unexpected lineError(int line, std::string_view field, const std::string& message) {
    return badInput(std::to_string(line) + ": " + std::string(field) + ": " + message);
}

Expected<Row> parseRow(const text::Line& line, std::size_t minLabel) {
    const auto tokens = text::tokens(line.text);
    auto split = splitRow(tokens, rowLabelEnd, rowWidths, minLabel);
    if (!split)
        return badInput(std::to_string(line.number) + ": " + split.error().message);
    Row row;
    row.line = line.number;
    row.source = line.text;
    auto& label = split->first;
    if (!label.empty()) {
        row.size = std::string(label.back().text);
        row.machine = joined(std::span<const Token>(label.data(), label.size() - 1));
    }
    row.cells = std::move(split->second);
    return row;
}

Expected<void> parseLatencyRow(const text::Line& line, Row& row) {
    const auto tokens = text::tokens(line.text);
    auto split = splitRow(tokens, latencyLabelEnd, latencyWidths, 1);
    if (!split)
        return badInput(std::to_string(line.number) + ": Latency " + split.error().message);
    row.latencies = std::move(split->second);
    row.latencyLine = line.number;
    return {};
}

// After the first row, more rows follow only in tables of several machines (bon_csv2txt); a
// line whose values are not all cells ends the table.
bool looksLikeRow(std::string_view line) {
    const auto tokens = text::tokens(line);
    std::size_t values = 0;
    for (const auto& t : tokens) {
        if (t.begin < rowLabelEnd)
            continue;
        if (!isCellValue(t.text))
            return false;
        ++values;
    }
    return values >= 2;
}

// ---- Turning cells into metrics ----

struct RateValue {
    double value = 0;
    bool rounded = false;
};

// Block rates: a plain number is KiB/s (1.03-1.97); 1.98+ print k, m or g: KiB/s, MiB/s, GiB/s,
// the last two rounded.
Expected<RateValue> parseBlockRate(std::string_view cell) {
    double factor = text::bytesPerKiB;
    bool rounded = false;
    std::string_view number = cell;
    if (!number.empty() && (number.back() == 'k' || number.back() == 'm' || number.back() == 'g')) {
        const char unit = number.back();
        number.remove_suffix(1);
        if (unit != 'k') {
            factor *= unit == 'm' ? 1024.0 : 1024.0 * 1024.0;
            rounded = true;
        }
    }
    auto value = text::parseNonNegative(number, cell);
    if (!value)
        return fail(value.error());
    return RateValue{*value * factor, rounded};
}

struct Emit {
    ParsedRun& run;
    int line;
};

Expected<void> addRate(Emit e, std::string_view test, std::string_view cell, std::string_view cpu,
                       bool blockRate) {
    const std::string name = "bonnie." + std::string(test);
    if (cell.empty())
        return {};
    if (allPlus(cell)) {
        noteTooFast(e.run, name, cell);
        return {};
    }
    if (allPlus(cpu)) {
        // bonnie++ prints +++ for CPU only when the test was too fast; bon_csv2txt turns the
        // rate's +++++ into "0k" beside it.
        noteTooFast(e.run, name, std::string(cpu) + ", the rate printed as " + std::string(cell));
        return {};
    }
    if (blockRate) {
        auto rate = parseBlockRate(cell);
        if (!rate)
            return lineError(e.line, test, rate.error().message);
        e.run.metrics.push_back({name, rate->value, Unit::BytesPerSecond});
        if (rate->rounded)
            e.run.notes.push_back(
                {MetricNote::Kind::Qualifies, name,
                 "rounded by bonnie++'s text table (printed as " + std::string(cell) + ")"});
        return {};
    }
    auto value = text::parseNonNegative(cell);
    if (!value)
        return lineError(e.line, test, value.error().message);
    e.run.metrics.push_back({name, *value, Unit::OpsPerSecond});
    return {};
}

Expected<void> addCpu(Emit e, std::string_view test, std::string_view cell) {
    if (cell.empty())
        return {};
    const std::string field = std::string(test) + "_cpu";
    if (allPlus(cell)) {
        // As from the CSV: the missing CPU figure is named, and the rate's caveat covers both.
        e.run.notes.push_back({MetricNote::Kind::Excludes, "bonnie." + field,
                               "too fast to time (" + std::string(cell) + ")"});
        return {};
    }
    auto value = text::parseNonNegative(cell);
    if (!value)
        return lineError(e.line, field, value.error().message);
    e.run.metrics.push_back({"bonnie." + field, *value, Unit::Percent});
    return {};
}

Expected<void> addLatencies(ParsedRun& run, const Row& row,
                            std::span<const std::string_view> tests) {
    for (std::size_t i = 0; i < row.latencies.size() && i < tests.size(); ++i) {
        const auto cell = row.latencies[i];
        if (cell.empty())
            continue;
        const std::string field = std::string(tests[i]) + "_latency";
        auto ns = text::parseLatencyNs(cell);
        if (!ns)
            return lineError(row.latencyLine, field, ns.error().message);
        run.metrics.push_back({"bonnie." + field, *ns, Unit::Nanoseconds});
    }
    return {};
}

// bonnie++ 1.98 to 2.00a print a file test's count of files where its rate belongs (the rate is
// a double passed to "%5d"); bon_csv2txt and older versions print the rate.
bool printsFileCountForRate(const Block& fileBlock) {
    return !fileBlock.version.empty() && fileBlock.version >= "1.98";
}

Expected<void> addFileRow(ParsedRun& run, const Row& row, const Block& block) {
    const bool countsForRates = printsFileCountForRate(block);
    for (std::size_t i = 0; i < fileTestNames.size(); ++i) {
        const auto test = fileTestNames[i];
        const auto rate = row.cells[2 * i];
        if (countsForRates && !rate.empty() && !allPlus(rate))
            run.notes.push_back({MetricNote::Kind::Excludes, "bonnie." + std::string(test),
                                 "not in bonnie++ " + block.version +
                                     "'s text table, which prints the number of files (" +
                                     std::string(rate) +
                                     ") where the rate belongs; the CSV line has the rate"});
        else if (auto r = addRate({run, row.line}, test, rate, row.cells[2 * i + 1], false); !r)
            return r;
        if (auto r = addCpu({run, row.line}, test, row.cells[2 * i + 1]); !r)
            return r;
    }
    return addLatencies(run, row, fileTestNames);
}

Expected<void> addIoRow(ParsedRun& run, const Row& row) {
    for (std::size_t i = 0; i < ioTestNames.size(); ++i) {
        const auto test = ioTestNames[i];
        const bool blockRate = test != "seeks";
        if (auto r =
                addRate({run, row.line}, test, row.cells[2 * i], row.cells[2 * i + 1], blockRate);
            !r)
            return r;
        if (auto r = addCpu({run, row.line}, test, row.cells[2 * i + 1]); !r)
            return r;
    }
    return addLatencies(run, row, ioTestNames);
}

RunOrigin tableOrigin(const TableRun& t) {
    RunOrigin o;
    o.format = "bonnie++ " + (t.version.empty() ? std::string() : t.version + " ") + "text table";
    if (t.io)
        o.convertedFrom.push_back(t.ioBlock.suffixedRates ? "k/m/g (KiB/s, MiB/s, GiB/s)"
                                                          : "K/sec (KiB/s)");
    if ((t.io && !t.io->latencies.empty()) || (t.file && !t.file->latencies.empty()))
        o.convertedFrom.push_back("us/ms/s latencies");
    const std::string machine = t.io ? t.io->machine : t.file ? t.file->machine : "";
    if (!machine.empty())
        o.spec["machine"] = machine;
    if (t.io)
        o.spec["size"] = t.io->size;
    if (t.file)
        o.spec["files"] = t.file->size;
    return o;
}

Expected<PastedRun> finishTable(const TableRun& t) {
    PastedRun out;
    out.line = t.line;
    out.raw = t.raw;
    out.machine = t.io ? t.io->machine : t.file ? t.file->machine : "";
    out.run.workload = "bonnie";
    out.run.toolVersion = t.version;
    if (t.io)
        if (auto r = addIoRow(out.run, *t.io); !r)
            return fail(r.error());
    if (t.file)
        if (auto r = addFileRow(out.run, *t.file, t.fileBlock); !r)
            return fail(r.error());
    out.run.origin = tableOrigin(t);
    noteWork(out.run, t.io ? std::string_view(t.io->size) : std::string_view(),
             t.file ? std::string_view(t.file->size) : std::string_view());
    return out;
}

std::string versionOf(std::string_view line) {
    const auto tokens = text::tokens(line);
    if (tokens.size() >= 2 && tokens[0].text == "Version")
        return std::string(tokens[1].text);
    return {};
}

// A comma-separated line this long is a result of some kind: bonnie++ 1.0x's throughput
// block alone is 14 fields.
constexpr std::size_t minCsvFields = 14;

// Whether a long comma-separated line that is no bonnie++ CSV line is a record (mostly figures,
// blanks and +++++: a result cut or mangled, refused) rather than words (a header row such as
// bonnie++ 1.03's "name,file_size,putc,...", a spreadsheet's title, prose with commas: skipped
// and named).
bool looksLikeRecord(const std::vector<std::string_view>& fields) {
    std::size_t figures = 0;
    for (const auto f : fields)
        if (f.empty() || f.find_first_not_of("0123456789.+%") == std::string_view::npos ||
            (f.find_first_of("0123456789") == 0 &&
             f.find_first_not_of("0123456789.:kKmMgGtTuns") == std::string_view::npos))
            ++figures;
    return figures * 2 >= fields.size();
}

bool namesMatch(std::string_view a, std::string_view b) {
    if (a.empty() || b.empty())
        return true; // 1.03 prints no name above its file rows
    // bonnie++ truncates a long name to fit the label, differently in the two blocks.
    return a.starts_with(b) || b.starts_with(a);
}

// Reads a paste line by line: table blocks (their headers, rows and Latency rows), CSV lines,
// and everything else as prose.
class PasteParser {
public:
    Expected<std::vector<PastedRun>> parse(std::string_view text);

private:
    Expected<bool> tableLine(const text::Line& line);
    bool headerLine(const text::Line& line, std::string_view trimmed);
    Expected<void> rowLine(const text::Line& line);
    void attachIo(Row row);
    void attachFile(Row row);
    void appendRaw(TableRun& run, std::string_view line);
    Expected<void> csvLine(const text::Line& line);

    // The block's last row, which a Latency row belongs to; null before the block's first row.
    Row* lastRow();

    Block block_;
    std::vector<TableRun> runs_;
    std::optional<std::size_t> lastRun_; // the run that holds the current block's last row
    bool lastIsFile_ = false;
    std::vector<int> notRead_; // comma-separated lines of words: a header row, prose

    // The lines of words skipped, on the run: a caveat and origin.spec["lines_not_read"].
    void noteNotRead(ParsedRun& run) const {
        if (notRead_.empty())
            return;
        std::string lines;
        for (const int n : notRead_)
            lines += (lines.empty() ? "" : ",") + std::to_string(n);
        run.origin.spec["lines_not_read"] = lines;
        run.caveats.push_back("line" + std::string(notRead_.size() > 1 ? "s " : " ") + lines +
                              ": comma-separated words (a header row or prose), no bonnie++ "
                              "CSV line: not read");
    }
};

Row* PasteParser::lastRow() {
    if (!lastRun_)
        return nullptr;
    auto& row = lastIsFile_ ? runs_[*lastRun_].file : runs_[*lastRun_].io;
    return row ? &*row : nullptr;
}

void PasteParser::appendRaw(TableRun& run, std::string_view line) {
    run.raw.append(line);
    run.raw += '\n';
}

bool PasteParser::headerLine(const text::Line& line, std::string_view trimmed) {
    if (contains(trimmed, "------Sequential Output------") ||
        contains(trimmed, "------Sequential Create------")) {
        block_ = Block{};
        block_.kind = contains(trimmed, "Output") ? BlockKind::Io : BlockKind::File;
        block_.version = versionOf(trimmed);
        block_.headerLines.push_back(line.text);
        lastRun_.reset();
        return true;
    }
    if (block_.kind == BlockKind::None)
        return false;
    if (contains(trimmed, "-Per Chr-") || contains(trimmed, "-Create--")) {
        if (block_.kind == BlockKind::File)
            block_.headerMachine = std::string(text::trim(line.text.substr(0, rowLabelEnd + 1)));
        block_.headerLines.push_back(line.text);
        return true;
    }
    if (contains(trimmed, "/sec") && contains(trimmed, "%CP")) {
        block_.suffixedRates = !contains(trimmed, "K/sec");
        block_.rowExpected = true;
        block_.headerLines.push_back(line.text);
        return true;
    }
    return false;
}

Expected<bool> PasteParser::tableLine(const text::Line& line) {
    const auto trimmed = text::trim(line.text);
    if (headerLine(line, trimmed))
        return true;
    if (block_.kind == BlockKind::None)
        return false;
    if (trimmed.empty())
        return block_.rowExpected; // blank lines between a header and its row are paste noise
    const auto first = text::tokens(trimmed).front().text;
    if (first == "Latency") {
        Row* row = lastRow();
        if (row == nullptr || !row->latencies.empty())
            return lineError(line.number, "Latency", "no table row above it");
        if (auto r = parseLatencyRow(line, *row); !r)
            return fail(r.error());
        appendRaw(runs_[*lastRun_], line.text);
        return true;
    }
    if (block_.rowExpected || (lastRow() != nullptr && looksLikeRow(line.text))) {
        if (auto r = rowLine(line); !r)
            return fail(r.error());
        return true;
    }
    return false;
}

Expected<void> PasteParser::rowLine(const text::Line& line) {
    auto row = parseRow(line, 1);
    if (!row)
        return fail(row.error());
    block_.rowExpected = false;
    if (block_.kind == BlockKind::Io)
        attachIo(std::move(*row));
    else
        attachFile(std::move(*row));
    return {};
}

void PasteParser::attachIo(Row row) {
    TableRun& run = runs_.emplace_back();
    run.line = row.line;
    run.version = block_.version;
    run.ioBlock = block_;
    for (const auto h : block_.headerLines)
        appendRaw(run, h);
    appendRaw(run, row.source);
    run.io = std::move(row);
    lastRun_ = runs_.size() - 1;
    lastIsFile_ = false;
}

void PasteParser::attachFile(Row row) {
    std::optional<std::size_t> owner;
    const bool labelled = !row.machine.empty();
    if (!labelled)
        row.machine = block_.headerMachine;
    if (labelled) {
        // bon_csv2txt: every throughput row first, then every file row with its machine name.
        for (std::size_t i = 0; i < runs_.size() && !owner; ++i)
            if (runs_[i].io && !runs_[i].file && !runs_[i].csv && !runs_[i].io->machine.empty() &&
                namesMatch(runs_[i].io->machine, row.machine))
                owner = i;
    } else if (!runs_.empty()) {
        // bonnie++ itself: the file block follows its own throughput block.
        const auto& last = runs_.back();
        if (last.io && !last.file && !last.csv && namesMatch(last.io->machine, row.machine))
            owner = runs_.size() - 1;
    }
    if (!owner) {
        runs_.emplace_back().line = row.line;
        owner = runs_.size() - 1;
    }
    TableRun& run = runs_[*owner];
    if (run.version.empty())
        run.version = block_.version;
    run.fileBlock = block_;
    for (const auto h : block_.headerLines)
        appendRaw(run, h);
    appendRaw(run, row.source);
    run.file = std::move(row);
    lastRun_ = owner;
    lastIsFile_ = true;
}

Expected<void> PasteParser::csvLine(const text::Line& line) {
    auto parsed = parseCsvLine(line.text);
    if (!parsed)
        return badInput(std::to_string(line.number) + ": " + parsed.error().message);
    PastedRun csv{line.number, std::string(line.text) + "\n", machineOf(line.text),
                  std::move(*parsed)};
    // The table bonnie++ printed just before its CSV line is the same run: the CSV has exact
    // values, so it replaces the table's rounded ones.
    for (auto it = runs_.rbegin(); it != runs_.rend(); ++it) {
        if (it->csv)
            break;
        const std::string machine = it->io ? it->io->machine : it->file ? it->file->machine : "";
        if (!machine.empty() && namesMatch(machine, csv.machine)) {
            if (csv.run.toolVersion == v1Version && !it->version.empty()) {
                // A 1.0x line does not say which 1.0x; its table does.
                csv.run.toolVersion = it->version;
                csv.run.origin.format = "bonnie++ " + it->version + " CSV";
            }
            csv.line = it->line;
            csv.raw = it->raw + csv.raw;
            csv.run.origin.format += " (its text table, rounded, not used)";
            it->csv = std::move(csv);
            return {};
        }
    }
    TableRun& run = runs_.emplace_back();
    run.line = line.number;
    run.csv = std::move(csv);
    return {};
}

Expected<std::vector<PastedRun>> PasteParser::parse(std::string_view text) {
    for (const auto& line : text::lines(text)) {
        auto consumed = tableLine(line);
        if (!consumed)
            return fail(consumed.error());
        if (*consumed)
            continue;
        block_ = Block{}; // anything else ends the table
        lastRun_.reset();
        if (looksLikeCsv(line.text)) {
            if (auto r = csvLine(line); !r)
                return fail(r.error());
        } else if (const auto fields = text::split(line.text, ','); fields.size() >= minCsvFields) {
            // Never dropped without a word: a record this long is a result of some kind; words
            // are named in the first run's caveats.
            if (!looksLikeRecord(fields)) {
                notRead_.push_back(line.number);
                continue;
            }
            return badInput(std::to_string(line.number) + ": a line of " +
                            std::to_string(fields.size()) +
                            " comma-separated fields that is no bonnie++ CSV line (1.96 and "
                            "later: the format version first; 1.0x: 27 fields, the machine "
                            "name first)");
        }
    }
    std::vector<PastedRun> out;
    for (const auto& run : runs_) {
        if (run.csv) {
            out.push_back(*run.csv);
            continue;
        }
        auto finished = finishTable(run);
        if (!finished)
            return fail(finished.error());
        out.push_back(std::move(*finished));
    }
    if (out.empty())
        return badInput("1: no bonnie++ table row or CSV line");
    noteNotRead(out.front().run);
    return out;
}

} // namespace

Expected<std::vector<PastedRun>> parsePaste(std::string_view text) {
    return PasteParser{}.parse(text);
}

bool looksLikeTable(std::string_view text) {
    return contains(text, "------Sequential Output------") ||
           contains(text, "------Sequential Create------");
}

} // namespace lb::bonnie
