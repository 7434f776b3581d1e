// The command-line tests' fixture: a temporary directory with a database, the real binary run
// with --db, and the error contract for bad input.
#pragma once

#include "tests/cli/process.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lb::test {

inline const std::string data = LAYOUTBENCH_TEST_DATA_DIR;

class Cli : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("lb-cli-" +
                std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        db_ = (dir_ / "results.db").string();
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    ProcessResult lb(std::vector<std::string> args, bool withDb = true) {
        args.insert(args.begin(), LAYOUTBENCH_CLI);
        if (withDb) {
            args.push_back("--db");
            args.push_back(db_);
        }
        return runProcess(args);
    }
    std::string write(const std::string& name, const std::string& text) {
        const auto path = (dir_ / name).string();
        std::ofstream(path) << text;
        return path;
    }
    std::size_t storedRuns() {
        const auto r = lb({"list", "runs", "--json"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return nlohmann::json::parse(r.out).size();
    }

    std::filesystem::path dir_;
    std::string db_;
};

// One line on stderr, no stdout: the error contract for bad input.
inline void expectOneLineError(const ProcessResult& r, const std::string& mustMention) {
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_NE(r.err.find(mustMention), std::string::npos) << r.err;
}

} // namespace lb::test
