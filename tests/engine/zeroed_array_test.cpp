// The zeroed array an import's table of content hashes lives in (engine/base/zeroed_array.h):
// zero everywhere when made, small or past a huge page, its values its own once moved.
#include "engine/base/zeroed_array.h"

#include <cstdint>
#include <gtest/gtest.h>

using namespace lb;

namespace {

struct Slot {
    std::uint64_t high;
    std::uint32_t low, line;
};

// Every value of a fresh array reads zero, and each takes what is written to it.
void expectZeroedAndWritable(std::size_t size) {
    ZeroedArray<Slot> a(size);
    ASSERT_EQ(a.size(), size);
    for (std::size_t i = 0; i < size; ++i)
        ASSERT_TRUE(a[i].high == 0 && a[i].low == 0 && a[i].line == 0)
            << "at " << i << " of " << size;
    for (std::size_t i = 0; i < size; ++i)
        a[i] = {i, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1)};
    for (std::size_t i = 0; i < size; ++i)
        ASSERT_EQ(a[i].high, i);
}

} // namespace

TEST(ZeroedArray, SmallAndPastAHugePageAreZeroedAndWritable) {
    expectZeroedAndWritable(1);
    expectZeroedAndWritable(16);
    // 16-byte values: 131,072 fill a 2 MiB page; one more and three pages' worth.
    expectZeroedAndWritable(131'072);
    expectZeroedAndWritable(131'073);
    expectZeroedAndWritable(3 * 131'072 + 5);
}

TEST(ZeroedArray, EmptyHasNoValuesAndMovesKeepThem) {
    ZeroedArray<Slot> none;
    EXPECT_EQ(none.size(), 0u);
    ZeroedArray<Slot> a(200'000);
    a[199'999].line = 7;
    ZeroedArray<Slot> b(std::move(a));
    EXPECT_EQ(b.size(), 200'000u);
    EXPECT_EQ(b[199'999].line, 7u);
    a = std::move(b); // back, over the emptied one
    EXPECT_EQ(a.size(), 200'000u);
    EXPECT_EQ(a[199'999].line, 7u);
    a = ZeroedArray<Slot>(4);
    EXPECT_EQ(a.size(), 4u);
    EXPECT_EQ(a[3].line, 0u);
}
