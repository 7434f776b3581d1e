// Raw output packed with LZ4 (engine/base/output_codec.h): what is packed and what is not, every
// block standing alone, and a damaged BLOB refused rather than trusted.
#include "engine/base/output_codec.h"

#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <sstream>

using namespace lb;

namespace {

std::string fioJsonPlus() {
    std::ifstream in(std::string(LAYOUTBENCH_TEST_DATA_DIR) +
                     "/fio/3.33/randrw_70_30_jsonplus.json");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string randomBytes(std::size_t n, unsigned seed) {
    std::mt19937 random(seed);
    std::string out(n, '\0');
    for (auto& c : out)
        c = static_cast<char>(random() & 0xff);
    return out;
}

} // namespace

TEST(OutputCodec, FioJsonIsPackedAndComesBackWhole) {
    const std::string text = fioJsonPlus();
    ASSERT_GT(text.size(), 10000U);
    const auto blob = packOutput(text);
    ASSERT_TRUE(blob);
    EXPECT_TRUE(blob->starts_with(std::string_view("LZ4\x01", 4)));
    EXPECT_LT(blob->size(), text.size() / 2) << "fio's JSON packs to about a third";
    const auto back = unpackOutput(*blob);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(*back, text);
}

TEST(OutputCodec, ShortOrIncompressibleOutputStaysText) {
    EXPECT_FALSE(packOutput(std::string(packedOutputMinBytes - 1, 'a')));
    EXPECT_TRUE(packOutput(std::string(packedOutputMinBytes, 'a')));
    EXPECT_FALSE(packOutput(randomBytes(8192, 1))) << "LZ4 does not shrink random bytes";
    EXPECT_FALSE(packOutput(""));
}

// The packer keeps its LZ4 state from one output to the next: each block must still stand alone.
TEST(OutputCodec, EachBlockStandsAlone) {
    const std::string fio = fioJsonPlus();
    std::string other = fio;
    std::reverse(other.begin(), other.end());
    std::vector<std::pair<std::string, std::string>> packed;
    for (const std::string& text : {fio, other, fio.substr(100), std::string(5000, 'x'), fio}) {
        const auto blob = packOutput(text);
        ASSERT_TRUE(blob);
        packed.emplace_back(text, *blob);
    }
    EXPECT_EQ(packed.front().second, packed.back().second) << "the same text, the same block";
    for (auto it = packed.rbegin(); it != packed.rend(); ++it) {
        const auto back = unpackOutput(it->second);
        ASSERT_TRUE(back) << back.error().message;
        EXPECT_EQ(*back, it->first);
    }
}

TEST(OutputCodec, DamageIsAnErrorNotText) {
    const auto blob = packOutput(fioJsonPlus());
    ASSERT_TRUE(blob);
    // Cut short, a byte changed in the block, another magic, a header alone.
    std::string flipped = *blob;
    flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x5a);
    std::string magic = *blob;
    magic[3] = '\x02';
    for (const std::string& bad : {blob->substr(0, blob->size() - 10), magic, blob->substr(0, 12),
                                   std::string("LZ4"), std::string()}) {
        const auto back = unpackOutput(bad);
        EXPECT_FALSE(back) << bad.size();
    }
    const auto changed = unpackOutput(flipped);
    EXPECT_TRUE(!changed || *changed != fioJsonPlus()) << "a changed block is not the text";
    // A length no block of this size could hold is refused before anything is allocated.
    std::string huge = *blob;
    for (std::size_t i = 4; i < 12; ++i)
        huge[i] = '\x7f';
    const auto back = unpackOutput(huge);
    ASSERT_FALSE(back);
    EXPECT_NE(back.error().message.find("claims"), std::string::npos) << back.error().message;
}
