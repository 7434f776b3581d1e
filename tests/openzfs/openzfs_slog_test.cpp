// Log, cache and special vdevs and synchronous writes on OpenZFS 2.3 in the lab guest (`ctest -R
// Slog`), one guest boot for the suite: the capacity model against real pools with each kind of
// auxiliary vdev (what `zpool list` SIZE and `zfs list` used + avail say of them), small blocks
// landing on a special vdev the layout's own plan built (`zpool list -v` ALLOC), and a raidz with
// and without a log device, and with sync=disabled, under the synchronous-write presets to
// verdicts whose notes say what was measured (fsync-randwrite-4k alone: CI's budget for the suite
// is five minutes, and it took 307 s with vm-mix too under other builds' load; vm-mix ran here
// then, its figures in docs/openzfs-lab.md), and a raidz with compression=lz4 against one without,
// with compressible and with incompressible data. The guest runs under TCG: its figures are an
// emulator's, and the printed comparisons say so.
#include "engine/exec/ssh_runner.h"
#include "tests/openzfs/openzfs_fixture.h"

#include <cinttypes>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

using lb::test::LabGuest;
using lb::test::MiB;
using nlohmann::json;

constexpr int guestDisks = 7;
constexpr const char* tcgLabel = "(TCG emulation in the lab guest: an emulator's figures, not "
                                 "hardware's)";

class OpenZfsSlog : public lb::test::OpenZfsCampaign {
protected:
    static void SetUpTestSuite() {
        guest_ = std::make_unique<LabGuest>(lb::test::openzfsGuestOptions(guestDisks, 256 * MiB));
    }
    static void TearDownTestSuite() { guest_.reset(); }

    void SetUp() override {
        OpenZfsCampaign::SetUp();
        if (!guest_->available())
            GTEST_SKIP() << "no OpenZFS lab guest: " << guest_->why();
        ASSERT_TRUE(guest_->running()) << guest_->why();
    }

    static lb::ProcessResult run(const lb::Command& command) {
        auto runner = lb::makeRunnerFor(guest_->sshUrl(), guest_->identity(), guest_->knownHosts());
        if (!runner)
            return {};
        auto r = (*runner)->run(command);
        return r ? *r : lb::ProcessResult{};
    }
    static lb::ProcessResult shell(const std::string& script, int seconds = 300) {
        lb::Command c{"sh", {"-c", script}};
        c.timeout = std::chrono::seconds(seconds);
        return run(c);
    }

    static std::unique_ptr<LabGuest> guest_;
};
std::unique_ptr<LabGuest> OpenZfsSlog::guest_;

// One pool of the capacity check: a raidz1 of vda..vdc and the auxiliary vdevs.
struct AuxCell {
    std::string name;
    std::string aux;     // zpool create's words after the data vdev
    std::string special; // layoutbench capacity --special
};

json capacityModel(const std::string& special) {
    std::vector<std::string> argv{LAYOUTBENCH_CLI, "capacity", "--json", "--kind",
                                  "zfs-raidz1",    "--disks",  "3",      "--disk-size",
                                  "256MiB"};
    if (!special.empty())
        argv.insert(argv.end(), {"--special", special});
    const auto r = lb::test::runProcess(argv);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return r.exitCode == 0 ? json::parse(r.out) : json::object();
}

TEST_F(OpenZfsSlog, SlogCacheAndSpecialCapacityAgainstTheRealPool) {
    const std::vector<AuxCell> cells{
        // Four pools: a log and a cache (last) add nothing to either figure, a special vdev its
        // metaslabs to SIZE alone (measured here on 2.3.2: SIZE 738197504 -> 989855744, used +
        // avail 357433344 either way).
        {"raidz1 x3", "", ""},
        {"+ special mirror", "special mirror /dev/vdf /dev/vdg", "256MiB,256MiB"},
        {"+ special (one)", "special /dev/vdf", "256MiB"},
        {"+ log, cache, special mirror",
         "log /dev/vdd cache /dev/vde special mirror /dev/vdf /dev/vdg", "256MiB,256MiB"},
    };
    std::printf("%-30s %12s %12s %12s %12s %8s\n", "pool", "zpool SIZE", "model SIZE", "used+avail",
                "model usable", "diff %");
    for (const auto& cell : cells) {
        SCOPED_TRACE(cell.name);
        const auto r = shell("set -e; zpool create -f -o ashift=12 -m none lbslog raidz1 /dev/vda "
                             "/dev/vdb /dev/vdc " +
                             cell.aux +
                             "; zpool list -Hp -o size lbslog; zfs list -Hp -o used,avail "
                             "lbslog; zpool list -v -Hp lbslog >&2; zpool destroy lbslog");
        if (r.exitCode != 0) {
            ADD_FAILURE() << r.stdoutText << r.stderrText;
            shell("zpool destroy -f lbslog 2>/dev/null; true");
            continue;
        }
        std::uint64_t size = 0, used = 0, avail = 0;
        std::istringstream in(r.stdoutText);
        in >> size >> used >> avail;
        ASSERT_TRUE(in) << r.stdoutText;
        const json model = capacityModel(cell.special);
        const auto usable = model.value("usable_bytes", std::uint64_t{0});
        const auto poolSize = model.value("pool_size_bytes", std::uint64_t{0});
        const std::uint64_t real = used + avail;
        const double diff = 100.0 * (static_cast<double>(usable) - static_cast<double>(real)) /
                            static_cast<double>(real);
        std::printf("%-30s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %+8.3f\n",
                    cell.name.c_str(), size, poolSize, real, usable, diff);
        std::printf("%s", r.stderrText.c_str());
        EXPECT_EQ(poolSize, size) << "zpool list's SIZE";
        EXPECT_LE(usable, real) << "the model promises more than the pool gives";
        EXPECT_LE(-diff, 0.1) << "the model is more than 0.1 % below the pool";
        if (cell.special == "256MiB") {
            EXPECT_EQ(model.value("fault_tolerance", 99U), 0U) << model.dump();
            EXPECT_NE(model.value("redundancy_note", std::string()).find("tolerates 0 failures"),
                      std::string::npos)
                << model.dump();
        }
    }
}

// ALLOC of the vdev named on the line after a class's header ("special", "log") in `zpool list
// -v -Hp`, or of the first data vdev when `klass` is empty.
std::uint64_t allocOf(const std::string& listing, const std::string& klass) {
    std::istringstream in(listing);
    std::string line;
    bool inClass = klass.empty();
    int lineNo = 0;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string name, size, alloc;
        words >> name >> size >> alloc;
        if (++lineNo == 1)
            continue; // the pool's own line
        if (!inClass) {
            inClass = name == klass;
            continue;
        }
        return std::strtoull(alloc.c_str(), nullptr, 10);
    }
    return 0;
}

TEST_F(OpenZfsSlog, SlogSmallBlocksLandOnTheSpecialVdevThePlanBuilt) {
    const std::string toml = header(*guest_, "openzfs-special", guestDisks) + R"(
[[layouts]]
name = "special"
kind = "zfs-raidz1"
baseline = true
disks = ["d0", "d1", "d2"]
special = ["d5", "d6"]
special_small_blocks = "32K"

[[workloads]]
probe = "fio"
preset = "osync-randwrite-4k"
)";
    const auto plan = layoutbench({"plan", write("scenario.toml", toml), "--json"});
    ASSERT_EQ(plan.exitCode, 0) << plan.err;
    const json steps = json::parse(plan.out).at("layouts").at(0).at("steps");
    std::vector<json> undos;
    ASSERT_EQ(shell("mkdir -p /tmp/lb").exitCode, 0)
        << "the work directory, as a campaign makes it";
    for (const auto& step : steps) {
        const auto argv = step.at("argv").get<std::vector<std::string>>();
        const auto r = run({argv.front(), {argv.begin() + 1, argv.end()}});
        ASSERT_EQ(r.exitCode, 0) << step.dump() << "\n" << r.stderrText;
        undos.push_back(step.at("undo"));
    }
    // 1,000 files of 8 KiB (blocks up to 32K: the special vdev) and one of 48 MiB (records of
    // 128K: the raidz), each written and synced.
    const auto r = shell("set -e; cd /tmp/lb/mnt-special; mkdir small; i=0; while [ $i -lt 1000 ]; "
                         "do head -c 8192 /dev/urandom > small/$i; i=$((i+1)); done; "
                         "head -c 50331648 /dev/urandom > big; sync; zpool sync lb-special; "
                         "zpool list -v -Hp lb-special; zfs get -Hp -o value "
                         "special_small_blocks lb-special",
                         600);
    for (auto it = undos.rbegin(); it != undos.rend(); ++it)
        if (it->is_array()) {
            const auto argv = it->get<std::vector<std::string>>();
            EXPECT_EQ(run({argv.front(), {argv.begin() + 1, argv.end()}}).exitCode, 0) << *it;
        }
    ASSERT_EQ(r.exitCode, 0) << r.stderrText;
    std::printf("%s", r.stdoutText.c_str());
    EXPECT_NE(r.stdoutText.find("\n32768\n"), std::string::npos) << "special_small_blocks";
    const std::uint64_t special = allocOf(r.stdoutText, "special");
    const std::uint64_t data = allocOf(r.stdoutText, "");
    std::printf("[ special  ] ALLOC on the special mirror %" PRIu64 " bytes, on the raidz %" PRIu64
                " bytes\n",
                special, data);
    // The mirror's ALLOC counts one copy; the raidz's counts its parity too.
    EXPECT_GE(special, 1000U * 8192U) << "the small files are on the special vdev";
    EXPECT_GE(data, 48U * MiB) << "the big file is on the raidz";
    EXPECT_LT(special, 16U * MiB) << "the big file's records are not on the special vdev";
}

TEST_F(OpenZfsSlog, SlogRaidzWithAndWithoutALogDeviceToVerdicts) {
    const std::string raidz = "kind = \"zfs-raidz1\"\ndisks = [\"d0\", \"d1\", \"d2\"]\n";
    // Three layouts on the same data disks, built one after the other; no bracketing run of the
    // baseline (it would build it a second time).
    std::string text = "name = \"openzfs-slog\"\niterations = 2\nbracket = false\n"
                       "work_dir = \"/tmp/lb\"\n[host]\ntarget = \"" +
                       guest_->sshUrl() + "\"\nidentity = \"" + guest_->identity() +
                       "\"\nknown_hosts = \"" + guest_->knownHosts() + "\"\n";
    // wipe = true: the suite's earlier pools left their labels and GPTs on these disks, which the
    // safety check refuses to destroy otherwise (the log device's too).
    for (int i = 0; i < 4; ++i)
        text += "[[disks]]\nname = \"d" + std::to_string(i) + "\"\ndevice = \"" +
                lb::test::guestDisk(i) + "\"\nwipe = true\n";
    text += "[[layouts]]\nname = \"raidz\"\nbaseline = true\n" + raidz +
            "[[layouts]]\nname = \"raidz-slog\"\nlog = [\"d3\"]\n" + raidz +
            "[[layouts]]\nname = \"raidz-nosync\"\nsync = \"disabled\"\n" + raidz + R"(
[[workloads]]
probe = "fio"
preset = "fsync-randwrite-4k"
size = "16M"
runtime = 3
)";
    const auto r = runDestroying(write("scenario.toml", text), 4, true);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << guest_->consoleLog();

    const auto listed = layoutbench({"list", "runs", "--json"});
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    for (const auto& one : json::parse(listed.out))
        EXPECT_EQ(one.value("status", ""), "ok") << one.dump();

    for (const char* candidate : {"raidz-slog", "raidz-nosync"}) {
        SCOPED_TRACE(candidate);
        const auto compared =
            layoutbench({"compare", "--baseline", "raidz", "--candidate", candidate, "--json"});
        ASSERT_EQ(compared.exitCode, 0) << compared.err;
        const auto j = json::parse(compared.out);
        EXPECT_TRUE(j.at("verdict").is_string()) << compared.out;
        bool syncLatency = false, noted = false;
        for (const auto& m : j.at("metrics")) {
            const auto name = m.value("name", std::string());
            syncLatency = syncLatency || name == "fio.fsync-randwrite-4k.sync.lat_p99";
            for (const auto& note : m.at("notes"))
                noted = noted || note.get<std::string>().find("sync=disabled") != std::string::npos;
        }
        EXPECT_TRUE(syncLatency) << "fio's fsync latency is stored and compared: " << compared.out;
        // The data-loss caveat is said beside every figure of the layout that disables sync,
        // and of no other.
        EXPECT_EQ(noted, std::string(candidate) == "raidz-nosync") << compared.out;
        const auto shown =
            layoutbench({"compare", "--baseline", "raidz", "--candidate", candidate});
        ASSERT_EQ(shown.exitCode, 0) << shown.err;
        std::printf("%s\n%s\n", tcgLabel, shown.out.c_str());
    }
}

// A raidz with compression=lz4 against one without, with compressible data (fio's
// buffer_compress_percentage = 50) and with incompressible data (0: a random buffer for every
// write; fio's default 4 KiB buffers measured 1.3x, compressible): the compressible data's
// figures carry the caveat and the pool's compressratio and stay out of the verdict; the
// incompressible data's decide.
TEST_F(OpenZfsSlog, SlogCompressionWithCompressibleAndIncompressibleData) {
    const std::string raidz = "kind = \"zfs-raidz1\"\ndisks = [\"d0\", \"d1\", \"d2\"]\n";
    std::string text = "name = \"openzfs-lz4\"\niterations = 2\nbracket = false\n"
                       "work_dir = \"/tmp/lb\"\n[host]\ntarget = \"" +
                       guest_->sshUrl() + "\"\nidentity = \"" + guest_->identity() +
                       "\"\nknown_hosts = \"" + guest_->knownHosts() + "\"\n";
    for (int i = 0; i < 3; ++i)
        text += "[[disks]]\nname = \"d" + std::to_string(i) + "\"\ndevice = \"" +
                lb::test::guestDisk(i) + "\"\nwipe = true\n";
    text += "[[layouts]]\nname = \"raidz-off\"\nbaseline = true\n" + raidz +
            "[[layouts]]\nname = \"raidz-lz4\"\ncompression = \"lz4\"\n" + raidz + R"(
[[workloads]]
name = "compressible"
probe = "fio"
preset = "seq-write-1m"
buffer_compress_percentage = 50
size = "16M"
runtime = 2

[[workloads]]
name = "random"
probe = "fio"
preset = "rand-write-4k-qd32"
buffer_compress_percentage = 0
size = "16M"
runtime = 2
)";
    const auto r = runDestroying(write("scenario.toml", text), 3, true);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << guest_->consoleLog();

    const auto compared =
        layoutbench({"compare", "--baseline", "raidz-off", "--candidate", "raidz-lz4", "--json"});
    ASSERT_EQ(compared.exitCode, 0) << compared.err;
    const auto j = json::parse(compared.out);
    bool sawCompressible = false, sawRandom = false;
    for (const auto& m : j.at("metrics")) {
        const auto name = m.value("name", std::string());
        std::string notes;
        for (const auto& note : m.at("notes"))
            notes += note.get<std::string>() + "\n";
        const std::string excluded =
            m.at("excluded").is_string() ? m.at("excluded").get<std::string>() : "";
        if (name == "fio.seq-write-1m.write.bw") {
            sawCompressible = true;
            EXPECT_EQ(excluded, "not comparable: data stored as written vs compressible, "
                                "compressed by the layout")
                << compared.out;
            EXPECT_NE(notes.find("on this layout (compression=lz4)"), std::string::npos) << notes;
            EXPECT_NE(notes.find("ZFS compressratio of lb-raidz-lz4 after the run"),
                      std::string::npos)
                << notes;
        }
        if (name == "fio.rand-write-4k-qd32.write.iops") {
            sawRandom = true;
            EXPECT_EQ(excluded, "") << "random data is not compressed: " << notes;
            EXPECT_EQ(notes.find("data compressed"), std::string::npos) << notes;
        }
    }
    EXPECT_TRUE(sawCompressible && sawRandom) << compared.out;
    const auto shown =
        layoutbench({"compare", "--baseline", "raidz-off", "--candidate", "raidz-lz4"});
    ASSERT_EQ(shown.exitCode, 0) << shown.err;
    std::printf("%s\n%s\n", tcgLabel, shown.out.c_str());
}

} // namespace
