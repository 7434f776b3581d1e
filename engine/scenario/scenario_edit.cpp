// Editing a scenario's text key by key (see scenario_edit.h).
#include "engine/scenario/scenario_edit.h"

#include "engine/scenario/scenario_keys.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <toml++/toml.h>

namespace lb {

namespace {

// The text, its tables as toml++ read them, and where each line starts.
struct Document {
    std::string text;
    toml::table root;
    std::vector<std::size_t> lineStarts; // byte offset of line N at [N - 1]
};

Expected<Document> parseDocument(std::string_view text) {
    Document d;
    d.text = std::string(text);
    try {
        d.root = toml::parse(d.text);
    } catch (const toml::parse_error& e) {
        return badInput("line " + std::to_string(e.source().begin.line) + ": " +
                        std::string(e.description()));
    }
    // toml++ counts lines by '\n' and columns in code points, after a byte order mark.
    constexpr std::string_view bom = "\xEF\xBB\xBF";
    d.lineStarts.push_back(d.text.starts_with(bom) ? bom.size() : 0);
    for (std::size_t i = 0; i < d.text.size(); ++i)
        if (d.text[i] == '\n')
            d.lineStarts.push_back(i + 1);
    return d;
}

std::size_t offsetOf(const Document& d, const toml::source_position& pos) {
    if (pos.line == 0 || pos.line > d.lineStarts.size())
        return d.text.size();
    std::size_t offset = d.lineStarts[pos.line - 1];
    for (std::size_t col = 1; col < pos.column && offset < d.text.size(); ++col) {
        ++offset;
        while (offset < d.text.size() &&
               (static_cast<unsigned char>(d.text[offset]) & 0xC0) == 0x80)
            ++offset;
    }
    return offset;
}

// The offset where line `line + 1` starts: text inserted there comes after line `line`.
std::size_t afterLine(const Document& d, std::size_t line) {
    return line < d.lineStarts.size() ? d.lineStarts[line] : d.text.size();
}

std::string insertAfter(const Document& d, std::size_t line, const std::string& lines) {
    const std::size_t at = afterLine(d, line);
    std::string out = d.text;
    const bool needsBreak = at == out.size() && !out.empty() && out.back() != '\n';
    out.insert(at, needsBreak ? "\n" + lines : lines);
    return out;
}

std::string eraseLines(const Document& d, std::size_t first, std::size_t last) {
    const std::size_t begin = d.lineStarts[first - 1];
    const std::size_t end = afterLine(d, last);
    std::string out = d.text;
    out.erase(begin, end - begin);
    return out;
}

bool blankLine(const Document& d, std::size_t line) {
    if (line == 0 || line > d.lineStarts.size())
        return false;
    const std::size_t begin = d.lineStarts[line - 1];
    const std::size_t end = afterLine(d, line);
    return std::all_of(d.text.begin() + static_cast<std::ptrdiff_t>(begin),
                       d.text.begin() + static_cast<std::ptrdiff_t>(end),
                       [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; });
}

// A table written under its own [header] (not inline, not made by dotted keys): keys can be added
// below the header.
bool hasHeader(const Document& d, const toml::table& t) {
    if (t.is_inline())
        return false;
    const std::size_t at = offsetOf(d, t.source().begin);
    return at < d.text.size() && d.text[at] == '[';
}

// The last line of a table's own keys: its header line when it has none, 0 for the top-level
// table without keys.
std::size_t lastKeyLine(const toml::table& t, bool topLevel) {
    std::size_t line = topLevel ? 0 : t.source().begin.line;
    for (const auto& [key, node] : t)
        if (!node.is_table() && !node.is_array_of_tables())
            line = std::max<std::size_t>(line, node.source().end.line);
    return line;
}

// The last line that belongs to a node: a table's subtables included.
std::size_t lastLine(const toml::node& node) {
    std::size_t line = node.is_table() ? node.source().begin.line : node.source().end.line;
    if (const auto* t = node.as_table()) {
        for (const auto& [key, child] : *t)
            line = std::max(line, lastLine(child));
    } else if (const auto* a = node.as_array()) {
        for (const auto& child : *a)
            line = std::max(line, lastLine(child));
    }
    return line;
}

const toml::table* arrayElement(const Document& d, std::string_view array, std::size_t index) {
    const auto* arr = d.root.get_as<toml::array>(array);
    if (!arr || index >= arr->size())
        return nullptr;
    return arr->get(index)->as_table();
}

std::string numberText(double value) {
    char buffer[64];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, value);
    std::string out(buffer, r.ptr);
    if (out.find_first_of(".en") == std::string::npos)
        out += ".0";
    return out;
}

// The form text of a value: strings as they are, numbers and flags as written, arrays joined
// with ", ".
std::optional<std::string> formText(const toml::node& node) {
    if (const auto* s = node.as_string())
        return s->get();
    if (const auto* i = node.as_integer())
        return std::to_string(i->get());
    if (const auto* f = node.as_floating_point())
        return numberText(f->get());
    if (const auto* b = node.as_boolean())
        return std::string(b->get() ? "true" : "false");
    if (const auto* a = node.as_array()) {
        std::string out;
        for (const auto& item : *a) {
            const auto text = formText(item);
            if (!text)
                return std::nullopt;
            out += (out.empty() ? "" : ", ") + *text;
        }
        return out;
    }
    return std::nullopt;
}

std::map<std::string, std::string> formValues(const toml::table& t) {
    std::map<std::string, std::string> out;
    for (const auto& [key, node] : t)
        if (!node.is_table())
            if (const auto text = formText(node))
                out.emplace(std::string(key.str()), *text);
    return out;
}

std::string quoted(std::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
        switch (c) {
        case '\\':
            out += "\\\\";
            break;
        case '"':
            out += "\\\"";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned char>(c));
                out += escaped;
            } else {
                out += c;
            }
        }
    }
    return out + '"';
}

std::optional<std::int64_t> wholeNumber(std::string_view text) {
    std::int64_t value = 0;
    const auto* end = text.data() + text.size();
    const auto r = std::from_chars(text.data(), end, value);
    if (text.empty() || r.ec != std::errc{} || r.ptr != end)
        return std::nullopt;
    return value;
}

std::string trimmed(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return std::string(text);
}

Expected<std::string> checked(std::string text) {
    try {
        (void)toml::parse(text);
    } catch (const toml::parse_error& e) {
        return badInput("the edit would not be TOML (line " +
                        std::to_string(e.source().begin.line) + ": " +
                        std::string(e.description()) + "): edit it in the text");
    }
    return text;
}

} // namespace

std::string tomlString(std::string_view text) {
    return quoted(text);
}

std::string tomlNumber(double value) {
    return numberText(value);
}

Expected<std::vector<TableValues>> readScenarioArray(std::string_view text,
                                                     std::string_view array) {
    LB_TRY(doc, parseDocument(text));
    std::vector<TableValues> out;
    const auto* arr = doc.root.get_as<toml::array>(array);
    if (!arr)
        return out;
    for (const auto& item : *arr) {
        TableValues values;
        if (const auto* t = item.as_table()) {
            values.values = formValues(*t);
            for (const auto& [key, node] : *t)
                if (const auto* sub = node.as_table())
                    values.subtables.emplace(std::string(key.str()), formValues(*sub));
        }
        out.push_back(std::move(values));
    }
    return out;
}

Expected<std::string> tomlValue(const OptionSpec& key, std::string_view formText) {
    const std::string text = trimmed(formText);
    const auto wrong = [&](const std::string& what) {
        return badInput(key.name + ": '" + text + "' is not " + what);
    };
    switch (key.type) {
    case OptionType::Bool:
        if (text == "true" || text == "false")
            return text;
        return wrong("true or false");
    case OptionType::Int:
        if (const auto n = wholeNumber(text))
            return std::to_string(*n);
        return wrong("a whole number");
    case OptionType::Number: {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(value))
            return wrong("a number");
        return numberText(value);
    }
    case OptionType::Size:
        if (const auto n = wholeNumber(text))
            return std::to_string(*n);
        return quoted(text);
    case OptionType::String:
    case OptionType::Path:
    case OptionType::Choice:
        return quoted(text);
    case OptionType::List:
    case OptionType::IntList: {
        std::string out;
        for (const auto& item : splitList(text)) {
            if (key.type == OptionType::IntList && !wholeNumber(item))
                return wrong("a list of whole numbers");
            out +=
                (out.empty() ? "" : ", ") + (key.type == OptionType::IntList ? item : quoted(item));
        }
        return "[" + out + "]";
    }
    }
    return wrong("a value");
}

Expected<std::string> setScenarioValue(std::string_view text, const TablePath& at,
                                       std::string_view key,
                                       const std::optional<std::string>& tomlValue) {
    LB_TRY(doc, parseDocument(text));
    std::string where =
        at.array.empty() ? std::string() : at.array + "[" + std::to_string(at.index) + "]";
    const toml::table* base = &doc.root;
    if (!at.array.empty()) {
        base = arrayElement(doc, at.array, at.index);
        if (!base)
            return badInput(where + ": no such table");
    }
    const toml::table* table = base;
    if (!at.sub.empty()) {
        where += (where.empty() ? "" : ".") + at.sub;
        const toml::node* node = base->get(at.sub);
        if (node && !node->is_table())
            return badInput(where + ": not a table");
        table = node ? node->as_table() : nullptr;
    }
    const std::string line = std::string(key) + " = " + tomlValue.value_or("") + "\n";
    const std::string inlineTable =
        where + " is written inline or with dotted keys: edit it in the text";
    if (!table) { // the subtable is missing: add it after the rest of its parent
        if (!tomlValue)
            return std::string(text);
        if (base != &doc.root && !hasHeader(doc, *base))
            return badInput(inlineTable);
        const std::size_t after = base == &doc.root ? doc.lineStarts.size() : lastLine(*base);
        const std::string header =
            "[" + (at.array.empty() ? at.sub : at.array + "." + at.sub) + "]\n";
        return checked(insertAfter(doc, after, "\n" + header + line));
    }
    const toml::node* node = table->get(key);
    if (node && (node->is_table() || node->is_array_of_tables()))
        return badInput(where + (where.empty() ? "" : ".") + std::string(key) + ": is a table");
    if (!node) {
        if (!tomlValue)
            return std::string(text);
        if (table != &doc.root && !hasHeader(doc, *table))
            return badInput(inlineTable);
        return checked(insertAfter(doc, lastKeyLine(*table, table == &doc.root), line));
    }
    if (tomlValue) {
        const std::size_t begin = offsetOf(doc, node->source().begin);
        const std::size_t end = offsetOf(doc, node->source().end);
        std::string out = doc.text;
        out.replace(begin, end - begin, *tomlValue);
        return checked(std::move(out));
    }
    if (table->is_inline())
        return badInput(inlineTable);
    std::size_t first = node->source().begin.line;
    for (const auto& [k, v] : *table)
        if (k.str() == key)
            first = k.source().begin.line;
    return checked(eraseLines(doc, first, node->source().end.line));
}

Expected<std::string>
appendScenarioTable(std::string_view text, std::string_view array,
                    const std::vector<std::pair<std::string, std::string>>& keys) {
    LB_TRY(doc, parseDocument(text));
    std::string out = doc.text;
    while (out.size() >= 2 && out.ends_with("\n\n"))
        out.pop_back();
    if (!out.empty() && out.back() != '\n')
        out += '\n';
    if (!out.empty())
        out += '\n';
    out += "[[" + std::string(array) + "]]\n";
    for (const auto& [key, value] : keys)
        out += key + " = " + value + "\n";
    return checked(std::move(out));
}

Expected<std::string> removeScenarioTable(std::string_view text, std::string_view array,
                                          std::size_t index) {
    LB_TRY(doc, parseDocument(text));
    const std::string where = std::string(array) + "[" + std::to_string(index) + "]";
    const toml::table* t = arrayElement(doc, array, index);
    if (!t)
        return badInput(where + ": no such table");
    if (!hasHeader(doc, *t))
        return badInput(where + " is written inline: edit it in the text");
    const std::size_t first = t->source().begin.line;
    std::size_t last = lastLine(*t);
    // The blank line after it goes too when one before it stays.
    if (blankLine(doc, first - 1) && last < doc.lineStarts.size() && blankLine(doc, last + 1))
        ++last;
    return checked(eraseLines(doc, first, last));
}

} // namespace lb
