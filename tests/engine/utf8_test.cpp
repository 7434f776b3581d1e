// Text that is not UTF-8, escaped for printing and for JSON (engine/base/utf8.h).
#include "engine/base/utf8.h"

#include <gtest/gtest.h>
#include <string>
#include <string_view>

namespace {

using lb::dumpJson;
using lb::escapeInvalidUtf8;
using lb::isValidUtf8;

TEST(Utf8, ValidTextIsLeftAlone) {
    for (const std::string s : {"", "plain", "µs — 1 %", "\xF0\x9F\x92\xBE", "\x7F", "a\0b"}) {
        EXPECT_TRUE(isValidUtf8(s)) << s;
        EXPECT_EQ(escapeInvalidUtf8(s), s);
    }
}

TEST(Utf8, InvalidBytesBecomeHexEscapes) {
    EXPECT_EQ(escapeInvalidUtf8("r\xE9sultats"), "r\\xe9sultats");            // Latin-1
    EXPECT_EQ(escapeInvalidUtf8("\xFF\xFE"), "\\xff\\xfe");                   // never in UTF-8
    EXPECT_EQ(escapeInvalidUtf8("\xC0\xAF"), "\\xc0\\xaf");                   // overlong '/'
    EXPECT_EQ(escapeInvalidUtf8("\xED\xA0\x80"), "\\xed\\xa0\\x80");          // a surrogate
    EXPECT_EQ(escapeInvalidUtf8("\xF4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"); // above U+10FFFF
    EXPECT_EQ(escapeInvalidUtf8("ab\xE2\x82"), "ab\\xe2\\x82");               // cut off at the end
    EXPECT_EQ(escapeInvalidUtf8("\x80µ"), "\\x80µ"); // a stray continuation
    EXPECT_FALSE(isValidUtf8("r\xE9sultats"));
}

TEST(Utf8, ASequenceSplitAcrossPiecesIsHeldBack) {
    std::string out;
    const std::string first = "x \xE2\x82"; // "€" is E2 82 AC
    EXPECT_EQ(escapeInvalidUtf8(first, out, false), 2u);
    EXPECT_EQ(out, "x ");
    const std::string rest = first.substr(2) + "\xAC!";
    EXPECT_EQ(escapeInvalidUtf8(rest, out, false), rest.size());
    EXPECT_EQ(out, "x €!");
    out.clear();
    EXPECT_EQ(escapeInvalidUtf8("\xE2\x82", out, true), 2u); // nothing follows: escaped
    EXPECT_EQ(out, "\\xe2\\x82");
}

TEST(Utf8, DumpJsonEscapesStringsAndKeysInsteadOfThrowing) {
    const nlohmann::json j{{"layout", "caf\xE9"}, {"k\xFF", {1, "ok", "\xC3"}}};
    EXPECT_THROW((void)j.dump(), nlohmann::json::type_error);
    const auto text = dumpJson(j);
    const auto back = nlohmann::json::parse(text);
    EXPECT_EQ(back.at("layout"), "caf\\xe9");
    EXPECT_EQ(back.at("k\\xff").at(2), "\\xc3");
    const nlohmann::json valid{{"a", "é"}};
    EXPECT_EQ(dumpJson(valid, 2), valid.dump(2));
    const nlohmann::ordered_json o{{"z", "\xFF"}, {"a", 1}};
    EXPECT_EQ(dumpJson(o), R"({"z":"\\xff","a":1})");
}

// The store writes its small documents directly; the text must be what dumpJson writes, escapes
// and bytes that are not UTF-8 included, so that readers and earlier rows agree.
TEST(Utf8, AppendJsonStringWritesWhatDumpJsonWrites) {
    using namespace std::string_view_literals;
    const std::string cases[] = {"",
                                 "plain",
                                 "quote \" and backslash \\",
                                 "line\nfeed\ttab\rreturn\bback\fform",
                                 std::string("nul\0and\x01\x1f"sv) + "\x7f del",
                                 "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x92\xBE",
                                 "bad \xFF byte, cut \xE2\x82",
                                 "\xC3",
                                 "surrogate \xED\xA0\x80, overlong \xC0\xAF"};
    for (const auto& text : cases) {
        std::string out = "prefix:";
        lb::appendJsonString(out, text);
        EXPECT_EQ(out, "prefix:" + dumpJson(nlohmann::json(text))) << text;
        EXPECT_EQ(nlohmann::json::parse(out.substr(7)).get<std::string>(), escapeInvalidUtf8(text));
    }
}

} // namespace
