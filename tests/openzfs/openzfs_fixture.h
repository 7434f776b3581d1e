// The fixture of the OpenZFS campaign suites: a scenario header for the lab guest's whole
// virtual disks over SSH, the command line run against the test's own database.
#pragma once

#include "tests/cli/process.h"
#include "tests/support/lab_guest.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace lb::test {

constexpr std::uint64_t MiB = 1024 * 1024;

inline std::string guestDisk(int i) {
    return "/dev/vd" + std::string(1, static_cast<char>('a' + i));
}

// A workload of a second: what a scenario whose point is its drill needs to have one.
constexpr const char* briefWrite = R"(
[[workloads]]
probe = "fio"
preset = "seq-write-1m"
size = "16M"
runtime = 1
)";

class OpenZfsCampaign : public ::testing::Test {
protected:
    void SetUp() override {
        name_ = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        dir_ = "/var/tmp/layoutbench-openzfs-test-" + name_;
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
        std::filesystem::create_directories(dir_);
        t0_ = std::chrono::steady_clock::now();
    }
    void TearDown() override {
        std::printf("[   time   ] %s: %.1f s\n", name_.c_str(),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count());
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }

    static std::string header(const LabGuest& guest, const std::string& name, int disks,
                              bool wipe = false) {
        std::string toml = "name = \"" + name + "\"\niterations = 2\nwork_dir = \"/tmp/lb\"\n" +
                           "[host]\ntarget = \"" + guest.sshUrl() + "\"\nidentity = \"" +
                           guest.identity() + "\"\nknown_hosts = \"" + guest.knownHosts() + "\"\n";
        for (int i = 0; i < disks; ++i)
            toml += "[[disks]]\nname = \"d" + std::to_string(i) + "\"\ndevice = \"" + guestDisk(i) +
                    "\"\n" + (wipe ? "wipe = true\n" : "");
        return toml;
    }
    // The header's two iterations made one: for a scenario whose point is its drill, run once
    // after the workloads.
    static std::string oneIteration(std::string toml) {
        const auto at = toml.find("iterations = 2");
        EXPECT_NE(at, std::string::npos);
        if (at != std::string::npos)
            toml.replace(at, 14, "iterations = 1");
        return toml;
    }
    static std::string diskList(int from, int count) {
        std::string out = "[";
        for (int i = from; i < from + count; ++i)
            out += std::string(i == from ? "" : ", ") + "\"d" + std::to_string(i) + "\"";
        return out + "]";
    }

    // `layoutbench run SCENARIO [--json]` naming the guest's first `disks` disks with
    // --yes-destroy.
    ProcessResult runDestroying(const std::string& scenario, int disks, bool json = false) {
        std::vector<std::string> args{"run", scenario};
        if (json)
            args.emplace_back("--json");
        for (int i = 0; i < disks; ++i)
            args.insert(args.end(), {"--yes-destroy", guestDisk(i)});
        return layoutbench(std::move(args));
    }
    ProcessResult layoutbench(std::vector<std::string> args) {
        args.insert(args.begin(), LAYOUTBENCH_CLI);
        args.insert(args.end(), {"--db", dir_ + "/results.db"});
        return runProcess(args);
    }
    std::string write(const std::string& file, const std::string& text) {
        const auto path = dir_ + "/" + file;
        std::ofstream(path) << text;
        return path;
    }

    std::string name_, dir_;
    std::chrono::steady_clock::time_point t0_;
};

} // namespace lb::test
