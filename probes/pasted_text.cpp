// Pasted text unwrapped line for line; see pasted_text.h.
#include "probes/pasted_text.h"

#include "probes/text_fields.h"

#include <array>
#include <cstddef>

namespace lb::text {

namespace {

// UTF-8 spaces a word processor or a mail client puts where the tool printed ' '.
constexpr std::array<std::string_view, 15> unicodeSpaces{
    "\xC2\xA0",     "\xE2\x80\x80", "\xE2\x80\x81", "\xE2\x80\x82", "\xE2\x80\x83",
    "\xE2\x80\x84", "\xE2\x80\x85", "\xE2\x80\x86", "\xE2\x80\x87", "\xE2\x80\x88",
    "\xE2\x80\x89", "\xE2\x80\x8A", "\xE2\x80\xAF", "\xE2\x81\x9F", "\xE3\x80\x80"};
constexpr std::string_view byteOrderMark = "\xEF\xBB\xBF";

bool isFence(std::string_view line) {
    const auto t = trim(line);
    return t.starts_with("```") || t.starts_with("~~~");
}

bool isQuoted(std::string_view line) {
    const auto at = line.find_first_not_of(' ');
    return at != std::string_view::npos && line[at] == '>';
}

// "> > text" -> "text": every quote marker, each with the one space after it.
std::string_view unquoted(std::string_view line) {
    while (isQuoted(line)) {
        line.remove_prefix(line.find('>') + 1);
        if (line.starts_with(' '))
            line.remove_prefix(1);
    }
    return line;
}

bool isDiffHeader(std::string_view line) {
    return line.starts_with("@@") || line.starts_with("+++ ") || line.starts_with("--- ") ||
           line.starts_with("diff --git ") || line.starts_with("index ");
}

// A unified diff (a hunk line), or a paste whose lines nearly all start with '+'.
bool isDiff(std::string_view text) {
    std::size_t lines = 0, added = 0;
    for (const auto& line : text::lines(text)) {
        const auto t = unquoted(line.text);
        if (t.starts_with("@@ "))
            return true;
        if (trim(t).empty())
            continue;
        ++lines;
        if (t.starts_with('+') && !t.starts_with("+++"))
            ++added;
    }
    return lines > 0 && added * 10 >= lines * 9;
}

// One line of a diff as the file it shows now has it: nothing for a header or a removed line.
std::string_view diffLine(std::string_view line) {
    if (isDiffHeader(line) || line.starts_with('-'))
        return {};
    if (line.starts_with('+') || line.starts_with(' '))
        line.remove_prefix(1);
    return line;
}

void appendPlainSpaces(std::string& out, std::string_view line) {
    for (std::size_t i = 0; i < line.size();) {
        bool replaced = false;
        if (static_cast<unsigned char>(line[i]) >= 0xC2)
            for (const auto space : unicodeSpaces)
                if (line.substr(i).starts_with(space)) {
                    out += ' ';
                    i += space.size();
                    replaced = true;
                    break;
                }
        if (!replaced)
            out += line[i++];
    }
}

} // namespace

bool isWrapped(std::string_view text) {
    if (text.starts_with(byteOrderMark) || text.starts_with('>') || text.starts_with('+'))
        return true;
    for (const std::string_view mark : {"\n>", "\n >", "```", "~~~", "\n+", "\n@@ ", "\xC2\xA0",
                                        "\xE2\x80", "\xE2\x81\x9F", "\xE3\x80\x80"})
        if (text.find(mark) != std::string_view::npos)
            return true;
    return false;
}

std::string plainText(std::string_view text) {
    if (text.starts_with(byteOrderMark))
        text.remove_prefix(byteOrderMark.size());
    const bool diff = isDiff(text);
    std::string out;
    out.reserve(text.size());
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto end = text.find('\n', pos);
        end = end == std::string_view::npos ? text.size() : end + 1;
        auto line = text.substr(pos, end - pos);
        auto body = line.size();
        while (body > 0 && (line[body - 1] == '\n' || line[body - 1] == '\r'))
            --body;
        const auto ending = line.substr(body);
        line = line.substr(0, body);
        line = unquoted(line);
        if (diff)
            line = diffLine(line);
        if (!isFence(line))
            appendPlainSpaces(out, line);
        out += ending;
        pos = end;
    }
    return out;
}

} // namespace lb::text
