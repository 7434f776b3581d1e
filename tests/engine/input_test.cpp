// Inputs are checked before they are read and bounded while they are: real files, a FIFO with
// no writer, /dev/zero, a directory; and the one-line error format.
#include "engine/base/input.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <vector>

namespace fs = std::filesystem;

namespace lb {
namespace {

class Input : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("lb-input-" +
                std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string write(const std::string& name, const std::string& text) {
        const auto path = (dir_ / name).string();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    fs::path dir_;
};

void expectRefused(const Expected<std::string>& r, const std::string& path,
                   const std::string& why) {
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(r.error().message, path + ": " + why);
}

TEST_F(Input, ReadsARegularFileWhole) {
    const std::string text = std::string(200000, 'x') + "\nend\n";
    const auto r = readInput(write("big.txt", text), {1 << 20, {}});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(*r, text);
    const auto empty = readInput(write("empty.txt", ""), {1 << 20, {}});
    ASSERT_TRUE(empty);
    EXPECT_EQ(*empty, "");
}

TEST_F(Input, AFileOverTheLimitIsRefusedBeforeReading) {
    const auto path = write("big.txt", std::string(5000, 'x'));
    const auto r = readInput(path, {4096, "--max-input-size"});
    expectRefused(r, path, "over the input size limit of 4.00 KiB (--max-input-size)");
    EXPECT_TRUE(readInput(path, {5000, {}}));
}

TEST_F(Input, ADirectoryIsAnErrorNotAnEmptyFile) {
    expectRefused(readInput(dir_.string(), documentLimit()), dir_.string(),
                  "is a directory, not a file");
}

TEST_F(Input, AFifoWithoutAWriterIsRefusedWithoutWaiting) {
    const auto path = (dir_ / "fifo").string();
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
    expectRefused(readInput(path, documentLimit()), path,
                  "is a FIFO, not a regular file (give - to read standard input)");
}

TEST_F(Input, DevZeroIsRefusedAsADevice) {
    expectRefused(readInput("/dev/zero", documentLimit()), "/dev/zero",
                  "is a character device, not a regular file (give - to read standard input)");
}

TEST_F(Input, AMissingFileSaysWhy) {
    const auto path = (dir_ / "missing.toml").string();
    expectRefused(readInput(path, documentLimit()), path, "cannot read: No such file or directory");
}

TEST_F(Input, ReadsInChunksAndCountsThem) {
    const auto path = write("a.txt", "0123456789");
    auto file = InputFile::open(path, {10, {}});
    ASSERT_TRUE(file) << file.error().message;
    EXPECT_EQ(file->name(), path);
    EXPECT_EQ(file->size(), 10u);
    char buf[4];
    std::string seen;
    for (;;) {
        auto n = file->read(buf, sizeof buf);
        ASSERT_TRUE(n) << n.error().message;
        if (*n == 0)
            break;
        seen.append(buf, *n);
    }
    EXPECT_EQ(seen, "0123456789");
    EXPECT_EQ(file->bytesRead(), 10u);
}

// A regular file is read to the size it had when opened without asking past it; one that grew
// since is read on to its new end, within the limit, a line split across reads kept whole.
TEST_F(Input, AFileThatGrowsAfterOpeningIsReadToItsNewEnd) {
    const std::string first = std::string(100000, 'a') + "\n";
    const auto path = write("growing.txt", first);
    auto file = InputFile::open(path, {1 << 20, {}});
    ASSERT_TRUE(file) << file.error().message;
    EXPECT_EQ(file->readSize(1 << 16), std::size_t{1} << 16);
    const std::string more = std::string(70000, 'b') + "\n" + std::string(3, 'c') + "\n";
    std::ofstream(path, std::ios::binary | std::ios::app) << more;
    InputReader reader(std::move(*file));
    std::vector<std::size_t> lengths;
    for (;;) {
        auto line = reader.next();
        ASSERT_TRUE(line) << line.error().message;
        if (!*line)
            break;
        lengths.push_back((*line)->text.size());
    }
    EXPECT_EQ(lengths, (std::vector<std::size_t>{100000, 70000, 3}));
    EXPECT_EQ(reader.file().bytesRead(), first.size() + more.size());

    // Read whole: what is left of the size, and one byte more to see whether it grew.
    auto whole = InputFile::open(write("small.txt", "0123456789"), {1 << 20, {}});
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole->readSize(1 << 16), 11u);
    InputReader small(std::move(*whole));
    auto head = small.peek(4);
    ASSERT_TRUE(head);
    EXPECT_EQ(*head, "0123");
    auto rest = small.rest({1 << 20, {}});
    ASSERT_TRUE(rest);
    EXPECT_EQ(*rest, "0123456789");
}

TEST(InputError, OneLineWithFileLineColumnAndField) {
    EXPECT_EQ(inputError("s.toml", 3, 7, "layouts[0].kind", "unknown kind"),
              "s.toml:3:7: layouts[0].kind: unknown kind");
    EXPECT_EQ(inputError("r.csv", 12, 0, "field 10 (put_block)", "'x' is not a number"),
              "r.csv:12: field 10 (put_block): 'x' is not a number");
    EXPECT_EQ(inputError("r.csv", 0, 0, "", "empty"), "r.csv: empty");
    // A key or value holding a newline, and toml++'s own multi-line messages, stay on one line.
    EXPECT_EQ(inputError("a\nb.toml", 1, 1, "na\nme", "expected\n\tx\r\x01\x7f"),
              "a\\nb.toml:1:1: na\\nme: expected\\n\\tx\\r\\x01\\x7f");
    EXPECT_EQ(escapeControl("caf\xc3\xa9"), "caf\xc3\xa9"); // UTF-8 passes as it is
}

} // namespace
} // namespace lb
