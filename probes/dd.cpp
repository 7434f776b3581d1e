// dd summaries: the bytes and seconds of each summary line give dd.throughput; a pasted dd
// command line before it says what was measured.
#include "probes/dd.h"

#include "engine/base/size.h"
#include "engine/base/utf8.h"
#include "probes/text_fields.h"

#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <system_error>

namespace lb::dd {

namespace {

using text::Line;
using text::Token;

enum class Form { Gnu, GnuOld, Bsd, FreeBsd, BusyBox };

std::string_view formName(Form f) {
    switch (f) {
    case Form::Gnu:
        return "dd summary (GNU coreutils)";
    case Form::GnuOld:
        return "dd summary (GNU coreutils, old form)";
    case Form::Bsd:
        return "dd summary (BSD)";
    case Form::FreeBsd:
        return "dd summary (FreeBSD 12 or later)";
    case Form::BusyBox:
        return "dd summary (BusyBox)";
    }
    return "dd summary";
}

struct Summary {
    std::string_view bytes;
    std::string_view seconds;
    Form form = Form::Gnu;
};

bool isWholeNumber(std::string_view s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

std::string_view withoutSuffix(std::string_view s, std::string_view suffix) {
    if (s.ends_with(suffix))
        s.remove_suffix(suffix.size());
    return s;
}

// The token after `word`, if there is one.
std::optional<std::size_t> after(const std::vector<Token>& tokens, std::string_view word) {
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i)
        if (tokens[i].text == word)
            return i + 1;
    return std::nullopt;
}

std::optional<Summary> summaryOf(std::string_view line) {
    const auto tokens = text::tokens(line);
    if (tokens.size() < 4 || !isWholeNumber(tokens[0].text) ||
        (tokens[1].text != "bytes" && tokens[1].text != "byte"))
        return std::nullopt;
    Summary s;
    s.bytes = tokens[0].text;
    if (const auto t = after(tokens, "transferred")) {
        if (tokens[*t].text == "in" && *t + 1 < tokens.size()) {
            // "transferred in 10.420047 secs" (BSD) or "... seconds" (GNU before "copied")
            s.seconds = tokens[*t + 1].text;
            const bool seconds = *t + 2 < tokens.size() && tokens[*t + 2].text == "seconds";
            s.form = seconds ? Form::GnuOld : Form::Bsd;
        } else {
            s.seconds = withoutSuffix(withoutSuffix(tokens[*t].text, ","), "s"); // "10.420s,"
            s.form = Form::FreeBsd;
        }
    } else if (const auto c = after(tokens, "copied,")) {
        s.seconds = tokens[*c].text;
        const bool words = *c + 1 < tokens.size() && tokens[*c + 1].text.starts_with("seconds");
        s.form = words ? Form::BusyBox : Form::Gnu;
    } else {
        return std::nullopt;
    }
    return s;
}

bool isRecordsLine(std::string_view line) {
    const auto tokens = text::tokens(line);
    return tokens.size() >= 3 && tokens[1].text == "records" &&
           (tokens[2].text == "in" || tokens[2].text == "out");
}

// dd prints seconds with %g (8.5683e-05) and in the locale's decimal separator.
Expected<double> parseSeconds(std::string_view s) {
    std::string number(s);
    for (auto& c : number)
        if (c == ',')
            c = '.';
    double value = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc{} || end != number.data() + number.size() || !std::isfinite(value) ||
        value < 0)
        return badInput(text::quoted(s) + " is not a number of seconds");
    if (value == 0)
        return badInput(text::quoted(s) + " seconds gives no rate");
    return value;
}

// ---- The command line ----

struct Command {
    std::string line;
    std::map<std::string, std::string, std::less<>> operands;
};

std::optional<Command> commandOf(std::string_view line) {
    const auto tokens = text::tokens(line);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (tokens[i].text != "dd" && !tokens[i].text.ends_with("/dd"))
            continue;
        Command cmd;
        for (std::size_t j = i + 1; j < tokens.size(); ++j) {
            const auto eq = tokens[j].text.find('=');
            if (eq == std::string_view::npos || eq == 0)
                continue;
            cmd.operands[std::string(tokens[j].text.substr(0, eq))] =
                std::string(tokens[j].text.substr(eq + 1));
        }
        if (cmd.operands.empty())
            return std::nullopt;
        // From the token's byte offset: Token::begin is a column, tabs expanded.
        const auto offset = static_cast<std::size_t>(tokens[i].text.data() - line.data());
        cmd.line = std::string(text::trim(line.substr(offset)));
        return cmd;
    }
    return std::nullopt;
}

std::string operand(const Command& cmd, std::string_view key) {
    const auto it = cmd.operands.find(key);
    return it == cmd.operands.end() ? std::string() : it->second;
}

bool hasFlag(const Command& cmd, std::string_view key, std::string_view flag) {
    // Kept in a variable: split's views point into it, and a temporary would be gone before the
    // loop reads them.
    const std::string flags = operand(cmd, key);
    for (const auto item : text::split(flags, ','))
        if (item == flag)
            return true;
    return false;
}

void describeCommand(const Command& cmd, ParsedRun& run) {
    auto& spec = run.origin.spec;
    spec["command"] = cmd.line;
    const auto in = operand(cmd, "if");
    const auto out = operand(cmd, "of");
    if (out == "/dev/null")
        spec["direction"] = "read";
    else if (in == "/dev/zero" || in == "/dev/urandom" || in == "/dev/random")
        spec["direction"] = "write";
    else if (!in.empty() && !out.empty())
        spec["direction"] = "copy";
    for (const auto key : {"bs", "ibs", "obs"}) {
        const auto value = operand(cmd, key);
        if (value.empty())
            continue;
        const std::string name =
            std::string(key == std::string_view("bs") ? "block" : key) + "_size";
        spec[name] = value;
        // dd's K, M, G are binary and kB, MB, GB decimal, as parseSize's binary convention.
        if (const auto bytes = parseSize(value, SizeConvention::Binary))
            spec[name + "_bytes"] = std::to_string(*bytes);
    }
    if (const auto count = operand(cmd, "count"); !count.empty())
        spec["count"] = count;
    const bool direct = hasFlag(cmd, "iflag", "direct") || hasFlag(cmd, "oflag", "direct");
    run.notes.push_back(
        {MetricNote::Kind::Method, "dd.throughput", direct ? "direct I/O" : "buffered I/O"});
}

Expected<PastedRun> runFrom(const Summary& s, const Line& line, const std::optional<Command>& cmd,
                            std::string raw) {
    const auto bytes = text::parseNonNegative(s.bytes);
    if (!bytes)
        return badInput(std::to_string(line.number) + ": bytes: " + bytes.error().message);
    const auto seconds = parseSeconds(s.seconds);
    if (!seconds)
        return badInput(std::to_string(line.number) + ": seconds: " + seconds.error().message);
    PastedRun out;
    out.line = line.number;
    out.raw = std::move(raw);
    out.run.workload = "dd";
    out.run.metrics.push_back({"dd.throughput", *bytes / *seconds, Unit::BytesPerSecond});
    out.run.origin.format = std::string(formName(s.form));
    out.run.origin.convertedFrom = {"bytes and seconds"};
    if (cmd)
        describeCommand(*cmd, out.run);
    return out;
}

// GNU dd's status=progress lines look like summaries; each is overwritten with '\r' and the
// real summary follows the "records in/out" lines. A summary right after "records out" is a
// real one, whatever follows it (the next run's "records in", when runs are back to back).
bool isProgress(const std::vector<Line>& lines, std::size_t i) {
    if (lines[i].text.find('\r') != std::string_view::npos)
        return true;
    for (std::size_t j = i; j-- > 0;)
        if (!text::trim(lines[j].text).empty()) {
            if (isRecordsLine(lines[j].text) && text::tokens(lines[j].text)[2].text == "out")
                return false;
            break;
        }
    for (std::size_t j = i + 1; j < lines.size(); ++j)
        if (!text::trim(lines[j].text).empty())
            return isRecordsLine(lines[j].text) && text::tokens(lines[j].text)[2].text == "in";
    return false;
}

// dd's complaint about its input or output ("dd: error writing '/x': No space left on
// device", BusyBox's "dd: write error: ...", BSD's "dd: /x: ..."); its warnings ("dd: warning:
// partial read") are not failures.
bool isError(std::string_view line) {
    const auto t = text::trim(line);
    return t.starts_with("dd: ") && !t.starts_with("dd: warning");
}

// A run dd reported an error in: failed, quoting dd; its summary counts what was copied before
// the error, which is not a measure of the device.
void failWith(const std::vector<std::string>& errors, ParsedRun& run) {
    run.failed = true;
    run.failureReason = "dd reported an error: ";
    for (std::size_t i = 0; i < errors.size(); ++i)
        run.failureReason += (i ? "; " : "") + escapeInvalidUtf8(errors[i]);
    run.metrics.clear();
    run.notes.clear();
}

} // namespace

Expected<std::vector<PastedRun>> parse(std::string_view text) {
    const auto lines = text::lines(text);
    std::vector<PastedRun> runs;
    std::optional<Command> command;
    std::string pending;             // lines since the last summary: the run's raw text
    std::vector<std::string> errors; // dd's own complaints among them
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto& line = lines[i];
        if (auto cmd = commandOf(line.text)) {
            command = std::move(cmd);
            pending.clear();
        }
        pending.append(line.text);
        pending += '\n';
        if (isError(line.text))
            errors.emplace_back(text::trim(line.text));
        const auto summary = summaryOf(line.text);
        if (!summary || isProgress(lines, i))
            continue;
        auto run = runFrom(*summary, line, command, std::move(pending));
        if (!run)
            return fail(run.error());
        if (!errors.empty())
            failWith(errors, run->run);
        errors.clear();
        runs.push_back(std::move(*run));
        pending.clear();
    }
    if (runs.empty())
        return badInput("1: dd: no dd summary line (\"<n> bytes ... copied, <s> s, ...\" or "
                        "\"<n> bytes transferred in <s> secs\")");
    return runs;
}

bool looksLikeDd(std::string_view text) {
    for (const auto& line : text::lines(text))
        if (summaryOf(line.text))
            return true;
    return false;
}

} // namespace lb::dd
