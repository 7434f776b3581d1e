// The fill suites' fixture in the OpenZFS lab guest (issue 44): one boot a suite, with new disks
// of the sizes the suite gives; a scenario of those disks with a fio random-write job at each fill
// level, its campaign run with every disk named for --yes-destroy, and what it stored read back.
// tests/fill/fill_lab_test.cpp (CI) and fill_lab_grid_test.cpp (the lab target) use it.
#pragma once

#include "tests/fill/fill_json.h"
#include "tests/openzfs/openzfs_fixture.h"

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace lb::test {

// The ZFS pair both fill suites measure: a mirror of d0 and d1 (the baseline) and a raidz1 of
// d2..d4.
inline constexpr const char* zfsMirrorAndRaidz1 = R"(
[[layouts]]
name = "mirror"
kind = "zfs-mirror"
disks = ["d0", "d1"]
baseline = true
[[layouts]]
name = "raidz1"
kind = "zfs-raidz1"
disks = ["d2", "d3", "d4"]
)";

// How far above the level the ageing may stop: its last round writes up to 1/40 of the usable
// space (at least 4 MiB), and ZFS's accounting of small pools moves by a few percent more.
constexpr double levelSlack = 10.0; // percentage points

// A suite of fill campaigns in one boot of the OpenZFS lab guest, whose new disks have the sizes
// `Disks` gives (guestDisk(0), guestDisk(1), ...).
template <const std::vector<std::uint64_t>& Disks> class FillLabSuite : public OpenZfsCampaign {
protected:
    using json = nlohmann::json;

    static void SetUpTestSuite() {
        auto options = openzfsGuestOptions(0, 0);
        options.newDiskBytes = Disks;
        guest_ = std::make_unique<LabGuest>(options);
    }
    static void TearDownTestSuite() { guest_.reset(); }

    void SetUp() override {
        OpenZfsCampaign::SetUp();
        if (!guest_->available())
            GTEST_SKIP() << "no OpenZFS lab guest: " << guest_->why();
        ASSERT_TRUE(guest_->running()) << guest_->why();
    }

    // The scenario's head and the disks from..from+count-1 (named d<i>), a fio random-write job
    // of a second at each level, the scenario's fill levels.
    static std::string scenario(const std::string& name, int from, int count, int iterations,
                                const std::string& fill) {
        std::string toml = "name = \"" + name + "\"\niterations = " + std::to_string(iterations) +
                           "\ninterleave = false\nbracket = false\nfill_seed = 7\nfill = " + fill +
                           "\n" + "work_dir = \"/tmp/lb\"\n[host]\ntarget = \"" + guest_->sshUrl() +
                           "\"\nidentity = \"" + guest_->identity() + "\"\nknown_hosts = \"" +
                           guest_->knownHosts() + "\"\n";
        for (int i = from; i < from + count; ++i)
            toml += "[[disks]]\nname = \"d" + std::to_string(i) + "\"\ndevice = \"" + guestDisk(i) +
                    "\"\nwipe = true\n";
        return toml + R"(
[[workloads]]
probe = "fio"
preset = "rand-write-4k-qd32"
size = "8M"
runtime = 1
)";
    }
    ProcessResult runOn(const std::string& file, const std::string& text, int from, int count) {
        std::vector<std::string> args{"run", write(file, text), "--json"};
        for (int i = from; i < from + count; ++i)
            args.insert(args.end(), {"--yes-destroy", guestDisk(i)});
        return layoutbench(std::move(args));
    }

    static json parsed(const ProcessResult& r) { return parsedJson(r); }
    static std::pair<double, double> medians(const json& cmp, const std::string& name) {
        return comparedMedians(cmp, name);
    }
    // The campaign of `text` on disks from..from+count-1, done with no problem, with a comparison
    // at each of `levels`, in order: its JSON in `out`.
    void campaign(const std::string& file, const std::string& text, int from, int count,
                  const std::vector<double>& levels, json& out) {
        const auto r = runOn(file, text, from, count);
        ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
        out = parsed(r);
        EXPECT_EQ(out.at("status"), "done");
        EXPECT_TRUE(out.at("problems").empty()) << out.at("problems").dump(1);
        const auto& comparisons = out.at("comparisons");
        ASSERT_EQ(comparisons.size(), levels.size()) << out.dump(1).substr(0, 4000);
        for (std::size_t i = 0; i < levels.size(); ++i)
            EXPECT_EQ(comparisons[i].at("fill_level"), levels[i]);
    }
    static void expectLevel(double percent, double level, const char* layout) {
        EXPECT_GE(percent, level) << layout;
        EXPECT_LT(percent, level + levelSlack) << layout;
    }

    // Every run stores its level: the levels of the campaign's measured runs and ageings.
    std::set<std::pair<std::string, double>> storedLevels() {
        std::set<std::pair<std::string, double>> out;
        for (const auto& r : parsed(layoutbench({"list", "runs", "--json"}))) {
            EXPECT_EQ(r.at("status"), "ok") << r.dump();
            EXPECT_TRUE(r.at("fill_level").is_number()) << r.dump();
            if (r.at("fill_level").is_number())
                out.insert({r.at("workload").get<std::string>(), r.at("fill_level").get<double>()});
        }
        return out;
    }

    static inline std::unique_ptr<LabGuest> guest_;
};

} // namespace lb::test
