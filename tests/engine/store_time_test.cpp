// A run's start read as seconds since 1970 (engine/store/store_internal.h, isoUtcSeconds): for
// the forms layoutbench writes, the same double SQLite's (julianday(t) - 2440587.5) * 86400.0
// gives, bit for bit, since a comparison's drift and order rest on it; any other form is left to
// SQLite.
#include "engine/store/store_internal.h"
#include "tests/support/raw_sql.h"
#include "tests/support/scratch_dir.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <random>
#include <string>

using namespace lb;

namespace {

std::string stamp(int y, int mo, int d, int h, int mi, int s, const std::string& fraction) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, s);
    return std::string(buf) + (fraction.empty() ? "" : "." + fraction) + "Z";
}

} // namespace

TEST(StoreTime, LayoutbenchsFormsReadAsSqliteReadsThemBitForBit) {
    test::ScratchDir dir{"time"};
    auto store = Store::open(dir.path("results.db"));
    ASSERT_TRUE(store) << store.error().message;
    std::mt19937 random(20261208);
    const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution(lo, hi)(random); };
    std::vector<std::string> texts = {
        stamp(1970, 1, 1, 0, 0, 0, ""), stamp(2000, 2, 29, 23, 59, 59, "999"),
        stamp(2026, 12, 8, 1, 2, 3, "004"), stamp(2100, 3, 1, 12, 0, 0, "5"),
        stamp(1969, 12, 31, 23, 59, 59, "123456789")};
    for (int i = 0; i < 5000; ++i) {
        std::string fraction;
        for (int digits = pick(0, 9) * (i % 3 == 0 ? 0 : 1); digits > 0; --digits)
            fraction += static_cast<char>('0' + pick(0, 9));
        texts.push_back(stamp(pick(1960, 2200), pick(1, 12), pick(1, 28), pick(0, 23), pick(0, 59),
                              pick(0, 59), fraction));
    }
    for (const auto& t : texts) {
        const auto mine = store::isoUtcSeconds(t);
        ASSERT_TRUE(mine) << t;
        EXPECT_EQ(*mine, test::julianSeconds(*store, t)) << t; // the same double, not a near one
    }
}

TEST(StoreTime, OtherFormsAreLeftToSqlite) {
    for (const std::string t :
         {"", "garbage", "2026-11-29 12:00:00Z", "2026-11-29T12:00:00", "2026-11-29T12:00:00+02:00",
          "2026-11-29T12:00Z", "2026-13-01T00:00:00Z", "2026-11-29T24:00:00Z",
          "2026-11-29T12:00:00.Z", "2026-11-29T12:00:00.1234567890Z", "2026-11-29T12:00:0xZ"})
        EXPECT_FALSE(store::isoUtcSeconds(t)) << t;
}
