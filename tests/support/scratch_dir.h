// A directory of its own for the running test, named after it, empty at the start and removed
// at the end: lb-PREFIX-TESTNAME under the temporary directory.
#pragma once

#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace lb::test {

class ScratchDir {
public:
    explicit ScratchDir(const std::string& prefix)
        : dir_(std::filesystem::temp_directory_path() /
               ("lb-" + prefix + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
    }
    ~ScratchDir() { std::filesystem::remove_all(dir_); }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    std::string path(const std::string& name) const { return (dir_ / name).string(); }

private:
    std::filesystem::path dir_;
};

} // namespace lb::test
