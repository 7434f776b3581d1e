// JSON written as it is made (engine/base/json_writer.h) against what nlohmann's dump writes for
// the same document through dumpJson: the same bytes, in both layouts, for the values a
// comparison holds and the ones that are easy to get wrong.
#include "engine/base/json_writer.h"
#include "engine/base/utf8.h"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

namespace {

using lb::JsonWriter;

// Doubles whose shortest form is easy to get wrong: whole numbers ("2.0"), exponents on both
// sides, the limits, negative zero, and what is not finite (null).
const std::vector<double> awkwardDoubles{0.0,
                                         -0.0,
                                         1.0,
                                         2.0,
                                         -3.0,
                                         0.1,
                                         1.0 / 3.0,
                                         1e-7,
                                         1e21,
                                         1e22,
                                         123456789012345678.0,
                                         5e-324,
                                         1.7976931348623157e308,
                                         0.000123,
                                         12345.6789,
                                         -1e-300,
                                         std::numeric_limits<double>::quiet_NaN(),
                                         std::numeric_limits<double>::infinity(),
                                         -std::numeric_limits<double>::infinity()};

const std::vector<std::string> awkwardStrings{"",
                                              "plain",
                                              "quote \" backslash \\ slash /",
                                              "tab\tnewline\nreturn\r",
                                              "\b\f",
                                              std::string("nul\0byte", 8),
                                              "\x01\x1f\x7f",
                                              "µs — 1 %",
                                              "\xF0\x9F\x92\xBE",
                                              "bad \xff byte",
                                              "cut \xE2\x82",
                                              "\xC0\xAF overlong"};

TEST(JsonWriter, ScalarsAreWrittenAsNlohmannDumpsThem) {
    for (const int indent : {-1, 2}) {
        for (const double d : awkwardDoubles) {
            std::string out;
            JsonWriter(out, indent).value(d);
            EXPECT_EQ(out, lb::dumpJson(nlohmann::json(d), indent)) << d;
        }
        for (const auto& s : awkwardStrings) {
            std::string out;
            JsonWriter(out, indent).value(s);
            EXPECT_EQ(out, lb::dumpJson(nlohmann::json(s), indent)) << s;
        }
        for (const std::int64_t i :
             {std::int64_t{0}, std::int64_t{-1}, std::int64_t{42},
              std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()}) {
            std::string out;
            JsonWriter(out, indent).value(i);
            EXPECT_EQ(out, nlohmann::json(i).dump(indent));
        }
        std::string out;
        JsonWriter(out, indent).value(std::numeric_limits<std::uint64_t>::max());
        EXPECT_EQ(out, nlohmann::json(std::numeric_limits<std::uint64_t>::max()).dump(indent));
    }
}

TEST(JsonWriter, NestedDocumentsMatchByteForByte) {
    // Empty and full objects and arrays at several depths, keys that need escaping, null and
    // bool members; keys given in std::map's order, as nlohmann writes them.
    nlohmann::json doc;
    doc["a"] = nlohmann::json::array();
    doc["b"] = nlohmann::json::object();
    doc["c"] = {1.5, "x", nullptr, true, nlohmann::json::array(), nlohmann::json::object()};
    doc["d\"q"] = {{"inner", {{"deep", nlohmann::json::array({nlohmann::json::array({2.0})})}}},
                   {"k\xff", false}};
    doc["e"] = std::vector<std::string>{"one", "two\n"};
    for (const int indent : {-1, 0, 2, 4}) {
        std::string out;
        JsonWriter w(out, indent);
        w.beginObject();
        w.key("a").beginArray().endArray();
        w.key("b").beginObject().endObject();
        w.key("c").beginArray().value(1.5).value("x").null().value(true);
        w.beginArray().endArray().beginObject().endObject().endArray();
        w.key("d\"q").beginObject().key("inner").beginObject().key("deep");
        w.beginArray().beginArray().value(2.0).endArray().endArray().endObject();
        w.member("k\xff", false).endObject();
        w.member("e", std::vector<std::string>{"one", "two\n"});
        w.endObject();
        EXPECT_EQ(out, lb::dumpJson(doc, indent)) << "indent " << indent;
    }
}

TEST(JsonWriter, RandomDoublesRoundTripInTheSameText) {
    // Values spread over the exponents a comparison's medians, ratios and intervals take.
    std::mt19937_64 rng(20261207);
    std::uniform_real_distribution<double> mantissa(-10.0, 10.0);
    std::uniform_int_distribution<int> exponent(-30, 30);
    for (int i = 0; i < 20000; ++i) {
        const double d = mantissa(rng) * std::pow(10.0, exponent(rng));
        std::string out;
        JsonWriter(out).value(d);
        ASSERT_EQ(out, nlohmann::json(d).dump()) << d;
        EXPECT_EQ(nlohmann::json::parse(out).get<double>(), d);
    }
}

} // namespace
