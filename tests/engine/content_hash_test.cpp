// The content hash by which an import recognises data it holds (engine/base/content_hash.h):
// XXH3-128 of the text with trailing white space, CRs and blank lines at either end left out. Texts
// already in that form are hashed without a copy; the two ways must agree.
#include "engine/base/content_hash.h"

#include <gtest/gtest.h>
#include <random>
#include <set>

using namespace lb;

namespace {

// The normal form, written plainly as the header states it, to check the store's against.
std::string normalForm(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t at = 0;
    for (;;) {
        const auto end = text.find('\n', at);
        std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
            line.pop_back();
        lines.push_back(line);
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    while (!lines.empty() && lines.front().empty())
        lines.erase(lines.begin());
    while (!lines.empty() && lines.back().empty())
        lines.pop_back();
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += (i ? "\n" : "") + lines[i];
    return out;
}

} // namespace

// The hashes xxhsum -H2 prints for the same bytes.
TEST(ContentHash, IsXxh3OfTheNormalForm) {
    EXPECT_EQ(contentHash("abc"), "06b05ab6733a618578af5f94892f3950");
    EXPECT_EQ(contentHash(""), "99aa06d3014798d86001c324468d497f");
    EXPECT_EQ(contentHash("a\r\nb\n"), "dfee833252d71d99c60f8ba575c1ad36");
    EXPECT_EQ(contentHash("abc\n"), contentHash("abc"));
    EXPECT_EQ(contentHash("\n\nabc \t\r\n  \n\n"), contentHash("abc"));
    EXPECT_EQ(contentHash("a\r\nb\r\n"), contentHash("a\nb"));
    EXPECT_EQ(contentHash("a \nb"), contentHash("a\nb"));
    EXPECT_NE(contentHash("a\n\nb"), contentHash("a\nb")) << "blank lines inside count";
    EXPECT_NE(contentHash(" a"), contentHash("a")) << "leading white space counts";
    EXPECT_EQ(contentHash(""), contentHash("\n \n\t\r\n"));
}

// Random texts of the characters that matter, long enough for the 64-byte blocks the fast check
// reads and their tails: two texts hash alike exactly when their normal forms are alike.
TEST(ContentHash, AgreesWithThePlainNormalForm) {
    std::mt19937 random(20261203);
    const std::string alphabet = "ab \t\r\n\n";
    std::map<std::string, std::string> hashOfForm;
    for (int i = 0; i < 4000; ++i) {
        std::string text(random() % 300, ' ');
        for (auto& c : text)
            c = alphabet[random() % alphabet.size()];
        const std::string form = normalForm(text);
        const std::string hash = contentHash(text);
        EXPECT_EQ(hash, contentHash(form)) << "text: " << testing::PrintToString(text);
        const auto [it, added] = hashOfForm.emplace(form, hash);
        EXPECT_EQ(it->second, hash);
    }
    std::set<std::string> hashes;
    for (const auto& [form, hash] : hashOfForm)
        hashes.insert(hash);
    EXPECT_EQ(hashes.size(), hashOfForm.size()) << "different forms, different hashes";
    EXPECT_GT(hashOfForm.size(), 1000U);
}
