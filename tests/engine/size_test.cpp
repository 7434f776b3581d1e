// Sizes are parsed exactly: decimal suffixes as drives are sold, binary with "i".
#include "engine/base/size.h"

#include <gtest/gtest.h>

using namespace lb;

TEST(ParseSize, DecimalSuffixesAreHowDrivesAreSold) {
    EXPECT_EQ(*parseSize("500G"), 500'000'000'000ULL);
    EXPECT_EQ(*parseSize("500GB"), 500'000'000'000ULL);
    EXPECT_EQ(*parseSize("500gb"), 500'000'000'000ULL);
    EXPECT_EQ(*parseSize("4k"), 4000ULL);
    EXPECT_EQ(*parseSize("2TB"), 2'000'000'000'000ULL);
}

TEST(ParseSize, BinarySuffixes) {
    EXPECT_EQ(*parseSize("465GiB"), 465ULL * 1024 * 1024 * 1024);
    EXPECT_EQ(*parseSize("128KiB"), 131072ULL);
    EXPECT_EQ(*parseSize("1MiB"), 1048576ULL);
    EXPECT_EQ(*parseSize("4Ki"), 4096ULL);
}

TEST(ParseSize, BareNumbersAreBytesAndFractionsStayExact) {
    EXPECT_EQ(*parseSize("4096"), 4096ULL);
    EXPECT_EQ(*parseSize(" 4096B "), 4096ULL);
    EXPECT_EQ(*parseSize("1.5T"), 1'500'000'000'000ULL);
    EXPECT_EQ(*parseSize("0.5KiB"), 512ULL);
}

TEST(ParseSize, BadInputIsAnErrorNamingTheText) {
    for (const char* bad : {"", "G", "12X", "1.5", "-3G", "1.0001KiB", "99999999999999999999"}) {
        auto r = parseSize(bad);
        ASSERT_FALSE(r) << bad;
        EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    }
    EXPECT_NE(parseSize("12X").error().message.find("12X"), std::string::npos);
    EXPECT_FALSE(parseSize("20000P"));
}

// A figure read off zfs list or df: what is not a whole number of bytes is rounded down, the
// rest is read as parseSize reads it.
TEST(ParseApproximateSize, RoundsAFractionOfAByteDown) {
    EXPECT_FALSE(parseSize("3.6TiB"));
    EXPECT_EQ(*parseApproximateSize("3.6TiB"), 3958241859993ULL); // 3.6 * 2^40 = ...993.6
    EXPECT_EQ(*parseApproximateSize("1.0001KiB"), 1024ULL);       // 1024.1024
    EXPECT_EQ(*parseApproximateSize("12T"), 12'000'000'000'000ULL);
    EXPECT_EQ(*parseApproximateSize("1.5"), 1ULL);
    // Decimals past the sixth only round down further: 1.23456789 KiB = 1264.19...
    EXPECT_EQ(*parseApproximateSize("1.23456789KiB"), 1264ULL);
    for (const char* bad : {"", "G", "12X", "-3G", "20000P", "16384PiB"})
        EXPECT_FALSE(parseApproximateSize(bad)) << bad;
}

TEST(FormatBytes, HumanReadable) {
    EXPECT_EQ(formatBytes(500'000'000'000ULL), "500.00 GB");
    EXPECT_EQ(formatBytes(512), "512 B");
    EXPECT_EQ(formatBytes(1024ULL * 1024 * 1024, true), "1.00 GiB");
}

TEST(ParseSize, BinaryConventionForRecordAndToolSizes) {
    EXPECT_EQ(*parseSize("128K", SizeConvention::Binary), 131072ULL);
    EXPECT_EQ(*parseSize("256M", SizeConvention::Binary), 256ULL * 1024 * 1024);
    EXPECT_EQ(*parseSize("128KiB", SizeConvention::Binary), 131072ULL);
    // An explicit B keeps the decimal meaning: "MB" is 10^6 in both conventions.
    EXPECT_EQ(*parseSize("1MB", SizeConvention::Binary), 1'000'000ULL);
    EXPECT_EQ(*parseSize("128K"), 128'000ULL);
}

// A fraction may be typed as a percentage wherever one is taken (issue 41): 80% is 0.8.
TEST(Fraction, TakesAFractionOrAPercentage) {
    EXPECT_DOUBLE_EQ(*parseFraction("0.8"), 0.8);
    EXPECT_DOUBLE_EQ(*parseFraction("80%"), 0.8);
    EXPECT_DOUBLE_EQ(*parseFraction(" 80 % "), 0.8);
    EXPECT_DOUBLE_EQ(*parseFraction("1"), 1.0);
    EXPECT_DOUBLE_EQ(*parseFraction("12.5%"), 0.125);
    for (const char* bad : {"", "%", "80 percent", "0,8", "eighty", "inf"}) {
        const auto f = parseFraction(bad);
        ASSERT_FALSE(f) << bad;
        EXPECT_NE(f.error().message.find("0.8 or 80%"), std::string::npos) << f.error().message;
    }
}
