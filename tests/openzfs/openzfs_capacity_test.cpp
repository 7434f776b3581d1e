// `layoutbench capacity` held against real OpenZFS pools: the lab guest with OpenZFS 2.3 (the
// modules built for its kernel, tests/lab-guest/openzfs.sh) creates a pool for every cell of a
// grid of layouts on 256 MiB virtio disks (ashift 12), reads `zpool list -Hp -o size` and
// `zfs list -Hp -o used,avail` of the root dataset right after creation, destroys it, and
// compares the model's usable bytes with used + avail and its pool size with zpool's SIZE.
// The table is printed. Goal: every cell within 0.1 % and never above the real figure (a plan
// that promises more than the pool gives is the worse error).
#include "engine/exec/ssh_runner.h"
#include "tests/cli/process.h"
#include "tests/support/lab_guest.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <gtest/gtest.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

using lb::test::LabGuest;
using nlohmann::json;

constexpr std::uint64_t MiB = 1024 * 1024;
constexpr std::uint64_t diskBytes = 256 * MiB;
constexpr std::uint64_t bigDiskBytes = 384 * MiB;
// vda..vdh are 256 MiB, vdi is 384 MiB (for the mixed-size cells).
constexpr int smallDisks = 8;

std::string disk(int i) {
    return "/dev/vd" + std::string(1, static_cast<char>('a' + i));
}
std::string disks(int from, int count) {
    std::string out;
    for (int i = from; i < from + count; ++i)
        out += " " + disk(i);
    return out;
}

struct Cell {
    std::string name;             // as the table shows it
    std::string vdevs;            // zpool create's vdev arguments
    std::vector<std::string> cli; // layoutbench capacity's arguments
    std::string prepare;          // shell run before zpool create (partitions), may be empty
    std::string grow;             // shell run after it (an expansion), may be empty
};

std::vector<Cell> grid() {
    std::vector<Cell> cells;
    const auto sized = [](int n) { return std::to_string(n); };
    const auto simple = [&](const std::string& kind, const std::string& keyword, int n) {
        cells.push_back({kind + " x" + sized(n),
                         keyword + disks(0, n),
                         {"--kind", kind, "--disks", sized(n), "--disk-size", "256MiB"},
                         {},
                         {}});
    };
    simple("zfs-stripe", "", 1);
    simple("zfs-stripe", "", 4);
    simple("zfs-mirror", "mirror", 2);
    simple("zfs-mirror", "mirror", 3);
    cells.push_back({"zfs-raid10 x4",
                     "mirror" + disks(0, 2) + " mirror" + disks(2, 2),
                     {"--kind", "zfs-raid10", "--disks", "4", "--disk-size", "256MiB"},
                     {},
                     {}});
    cells.push_back({"zfs-raid10 x6",
                     "mirror" + disks(0, 2) + " mirror" + disks(2, 2) + " mirror" + disks(4, 2),
                     {"--kind", "zfs-raid10", "--disks", "6", "--disk-size", "256MiB"},
                     {},
                     {}});
    for (int n : {3, 4, 5, 6, 8})
        simple("zfs-raidz1", "raidz1", n);
    for (int n : {4, 5, 6, 8})
        simple("zfs-raidz2", "raidz2", n);
    for (int n : {5, 6, 8})
        simple("zfs-raidz3", "raidz3", n);
    // dRAID: OpenZFS's own spelling is accepted by --kind.
    for (const char* spec : {"draid1:2d:5c:0s", "draid1:2d:6c:1s", "draid2:4d:8c:0s",
                             "draid2:3d:8c:1s", "draid3:3d:7c:1s"}) {
        const std::string s(spec);
        const int children = std::stoi(s.substr(s.find("d:") + 2));
        cells.push_back({s,
                         s + disks(0, children),
                         {"--kind", s, "--disks", sized(children), "--disk-size", "256MiB"},
                         {},
                         {}});
    }
    // Mixed sizes: the larger disk's extra space is lost.
    cells.push_back({"zfs-mirror 256M+384M",
                     "mirror " + disk(0) + " " + disk(smallDisks),
                     {"--kind", "zfs-mirror", "--disks", "2", "--disk-size", "256MiB,384MiB"},
                     {},
                     {}});
    cells.push_back(
        {"zfs-raidz1 256M x2+384M",
         "raidz1" + disks(0, 2) + " " + disk(smallDisks),
         {"--kind", "zfs-raidz1", "--disks", "3", "--disk-size", "256MiB,256MiB,384MiB"},
         {},
         {}});
    // 80 % partitions, made as the plan makes them (sgdisk from 1 MiB, the size in KiB).
    const auto partitioned = [&](const std::string& kind, const std::string& keyword, int n) {
        std::string prepare, vdevs = keyword;
        const std::uint64_t part = diskBytes * 8 / 10 / MiB * MiB;
        for (int i = 0; i < n; ++i) {
            prepare += "sgdisk --zap-all " + disk(i) + " >/dev/null && sgdisk --new=1:1M:+" +
                       std::to_string(part / 1024) + "K --typecode=1:BF01 " + disk(i) +
                       " >/dev/null && ";
            vdevs += " " + disk(i) + "1";
        }
        prepare += "udevadm settle";
        cells.push_back({kind + " x" + sized(n) + " at 80 %",
                         vdevs,
                         {"--kind", kind, "--disks", sized(n), "--disk-size", "256MiB",
                          "--underprovision", "0.8"},
                         prepare,
                         {}});
    };
    partitioned("zfs-mirror", "mirror", 2);
    partitioned("zfs-raidz1", "raidz1", 4);
    partitioned("zfs-raidz2", "raidz2", 6);
    // RAIDZ expansion (OpenZFS 2.3): a raidz1 of 4 with a fifth disk attached. Old blocks keep
    // their ratio and the deflate ratio stays at the original width.
    cells.push_back({"zfs-raidz1 x4 -> x5",
                     "raidz1" + disks(0, 4),
                     {"--kind", "zfs-raidz1", "--disks", "5", "--disk-size", "256MiB",
                      "--raidz-expanded-from", "4"},
                     {},
                     // The vdev grows when the reflow has finished: wait for SIZE to change.
                     "s0=$(zpool list -Hp -o size lbcap); zpool attach -w lbcap raidz1-0 " +
                         disk(4) +
                         "; i=0; while [ \"$(zpool list -Hp -o size lbcap)\" = \"$s0\" ] && "
                         "[ $i -lt 120 ]; do sleep 1; i=$((i + 1)); done; zpool sync lbcap"});
    return cells;
}

struct Measured {
    std::uint64_t size = 0, used = 0, avail = 0;
};

class OpenZfsCapacity : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        auto o = lb::test::openzfsGuestOptions(smallDisks, diskBytes);
        o.newDiskBytes.push_back(bigDiskBytes);
        guest_ = std::make_unique<LabGuest>(o);
    }
    static void TearDownTestSuite() { guest_.reset(); }

    void SetUp() override {
        if (!guest_->available())
            GTEST_SKIP() << "no OpenZFS lab guest: " << guest_->why();
        ASSERT_TRUE(guest_->running()) << guest_->why();
    }

    static lb::ProcessResult shell(const std::string& script, int seconds = 300) {
        auto runner = lb::makeRunnerFor(guest_->sshUrl(), guest_->identity(), guest_->knownHosts());
        if (!runner)
            return {};
        lb::Command c{"sh", {"-c", script}};
        c.timeout = std::chrono::seconds(seconds);
        auto r = (*runner)->run(c);
        return r ? *r : lb::ProcessResult{};
    }

    static std::unique_ptr<LabGuest> guest_;
};
std::unique_ptr<LabGuest> OpenZfsCapacity::guest_;

TEST_F(OpenZfsCapacity, TheGuestRunsOpenZfs23) {
    const auto r = shell("zpool version; cat /sys/module/zfs/version");
    ASSERT_EQ(r.exitCode, 0) << r.stderrText;
    EXPECT_NE(r.stdoutText.find("zfs-2.3"), std::string::npos) << r.stdoutText;
    std::printf("[ openzfs  ] %s boot %.1f s, build %.1f s\n", guest_->openzfsVersion().c_str(),
                guest_->bootSeconds(), guest_->buildSeconds());
}

TEST_F(OpenZfsCapacity, ModelAgainstRealPools) {
    std::printf("%-28s %14s %14s %8s %12s %12s\n", "layout", "zfs used+avail", "model usable",
                "diff %", "zpool size", "model size");
    for (const auto& cell : grid()) {
        SCOPED_TRACE(cell.name);
        std::string script = "set -e; ";
        if (!cell.prepare.empty())
            script += cell.prepare + "; ";
        script += "zpool create -f -o ashift=12 -m none lbcap " + cell.vdevs + "; ";
        if (!cell.grow.empty())
            script += cell.grow + "; ";
        script += "zpool list -Hp -o size lbcap; zfs list -Hp -o used,avail lbcap";
        const auto r = shell(script + "; zpool destroy lbcap");
        if (r.exitCode != 0) {
            ADD_FAILURE() << script << "\n" << r.stdoutText << r.stderrText;
            shell("zpool destroy -f lbcap 2>/dev/null; true");
            continue;
        }
        Measured m;
        std::istringstream in(r.stdoutText);
        in >> m.size >> m.used >> m.avail;
        ASSERT_TRUE(in) << r.stdoutText;

        std::vector<std::string> argv{LAYOUTBENCH_CLI, "capacity", "--json"};
        argv.insert(argv.end(), cell.cli.begin(), cell.cli.end());
        const auto model = lb::test::runProcess(argv);
        ASSERT_EQ(model.exitCode, 0) << model.err;
        const auto j = json::parse(model.out);
        const auto& c = j.is_array() ? j.at(0) : j;
        const auto usable = c.at("usable_bytes").get<std::uint64_t>();
        const auto poolSize = c.at("pool_size_bytes").get<std::uint64_t>();
        const std::uint64_t real = m.used + m.avail;
        const double diff = 100.0 * (static_cast<double>(usable) - static_cast<double>(real)) /
                            static_cast<double>(real);
        std::printf("%-28s %14" PRIu64 " %14" PRIu64 " %+8.3f %12" PRIu64 " %12" PRIu64 "\n",
                    cell.name.c_str(), real, usable, diff, m.size, poolSize);
        EXPECT_LE(usable, real) << "the model promises more than the pool gives";
        EXPECT_LE(-diff, 0.1) << "the model is more than 0.1 % below the pool";
        EXPECT_EQ(poolSize, m.size) << "zpool list's SIZE";
    }
}

} // namespace
