// The client side of iSCSI and NFS with the real servers on 127.0.0.1 (issue 6):
//  - tgtd serving a 64 MiB file LUN: lb-netload, built from the netload probe's options, writes
//    then reads it, sequential and random at queue depth 1 and 16; the metrics come out as
//    iscsi.<job>.<dir>.<stat> with plausible values, and the written data is on the LUN file;
//    the same on a LUN file in a zfs-fuse dataset (zfs-fuse has no zvols);
//  - nfs-ganesha (with rpcbind) exporting a directory: lb-netload over NFSv3 and NFSv4;
//  - three `fio --server` instances on 127.0.0.1:8765-8767 driven as three clients by one
//    `fio --client` run, per-client and aggregate metrics stored in a results database;
//  - faults, each a non-zero exit with one clear line on stderr within a bound, never a hang:
//    nothing listening on the portal, a wrong IQN, a wrong LUN, a path that is not exported,
//    tgtd killed in the middle of a run, and tgtd stopped (SIGSTOP) so that only timeouts help.
// Everything lives under /var/tmp/layoutbench-test-network and is removed afterwards; daemons are
// started by the fixtures and stopped by their process ids.
#include "engine/exec/runner.h"
#include "engine/measure/probe.h"
#include "engine/store/store.h"
#include "probes/fio_clients.h"
#include "probes/netload.h"
#include "probes/registry.h"
#include "tests/cli/process.h"
#include "tests/support/ganesha.h"
#include "tests/support/proc_sampler.h"
#include "tests/support/tgtd.h"
#include "tests/support/zfs_fuse.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using lb::test::ChildDaemon;
using lb::test::Ganesha;
using lb::test::Tgtd;

const std::string root = "/var/tmp/layoutbench-test-network";
const std::string iqn = "iqn.2026-11.org.layoutbench.test:lun1";
constexpr int portalPort = 13260; // not 3260, so a target someone else runs is left alone
constexpr int controlPort = 13260;

std::string netloadBinary() {
    if (const char* env = std::getenv("LB_NETLOAD"))
        return env;
#ifdef LAYOUTBENCH_NETLOAD
    return LAYOUTBENCH_NETLOAD;
#else
    return "lb-netload";
#endif
}

struct Outcome {
    lb::test::ProcessResult process;
    double seconds = 0;
};

// Runs argv with an outer bound (coreutils timeout) so that a hang fails the test, not the CI.
Outcome runBounded(std::vector<std::string> argv, int limitSeconds = 120) {
    argv.insert(argv.begin(), {"timeout", "-k", "5", std::to_string(limitSeconds)});
    const auto start = std::chrono::steady_clock::now();
    Outcome o;
    o.process = lb::test::runProcess(argv);
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return o;
}

// The netload probe's options from scenario-like raw values, validated by its table.
lb::OptionValues netloadOptions(const std::map<std::string, lb::RawOption::Value>& raw) {
    static const auto probe = lb::makeNetloadProbe();
    std::map<std::string, lb::RawOption> options;
    for (const auto& [k, v] : raw)
        options[k] = lb::RawOption{v, 1, 1};
    auto values = lb::validateOptions(probe->options(), options, "network_test.toml:1");
    EXPECT_TRUE(values) << (values ? "" : values.error().message);
    auto ok = probe->validate(*values, "network_test.toml:1");
    EXPECT_TRUE(ok) << (ok ? "" : ok.error().message);
    return *values;
}

// Builds the command with the probe, runs the real lb-netload, parses with the probe.
lb::Expected<lb::ParsedRun> runNetload(const lb::OptionValues& opts, Outcome* out = nullptr) {
    static const auto probe = lb::makeNetloadProbe();
    const auto mc = probe->command(opts, lb::WorkloadContext{});
    if (!mc)
        return lb::fail(mc.error());
    EXPECT_EQ(mc->command.program, "lb-netload");
    std::vector<std::string> argv = {netloadBinary()};
    argv.insert(argv.end(), mc->command.args.begin(), mc->command.args.end());
    const auto o = runBounded(argv);
    if (out)
        *out = o;
    if (o.process.exitCode != 0)
        return lb::runtimeError("lb-netload exited " + std::to_string(o.process.exitCode) + ": " +
                                o.process.err);
    lb::ProcessResult r;
    r.exitCode = 0;
    r.stdoutText = o.process.out;
    r.stderrText = o.process.err;
    return probe->parse(r, {}, opts);
}

std::map<std::string, double> byName(const lb::ParsedRun& run) {
    std::map<std::string, double> m;
    for (const auto& x : run.metrics)
        m[x.name] = x.value;
    return m;
}

// bw, iops, latencies present, consistent and in a range a loopback target can reach.
void expectPlausible(const lb::ParsedRun& run, const std::string& prefix, double bs) {
    const auto m = byName(run);
    for (const char* stat : {"bw", "iops", "clat_p50", "clat_p99", "clat_p99_9", "lat_mean"})
        ASSERT_TRUE(m.count(prefix + "." + stat)) << prefix << "." << stat << " missing";
    const double iops = m.at(prefix + ".iops");
    const double bw = m.at(prefix + ".bw");
    EXPECT_GT(iops, 50.0) << prefix;
    EXPECT_LT(iops, 5e6) << prefix;
    EXPECT_NEAR(bw / (iops * bs), 1.0, 0.02) << prefix << ": bw is not iops times bs";
    const double p50 = m.at(prefix + ".clat_p50");
    const double p99 = m.at(prefix + ".clat_p99");
    const double p999 = m.at(prefix + ".clat_p99_9");
    const double mean = m.at(prefix + ".lat_mean");
    EXPECT_GT(p50, 1e3) << prefix << ": a network round trip under 1 us";
    EXPECT_LE(p50, p99);
    EXPECT_LE(p99, p999);
    EXPECT_LT(p999, 10e9) << prefix;
    EXPECT_GT(mean, 1e3);
    for (const auto& x : run.metrics)
        EXPECT_TRUE(lb::describeMetric(x.name)) << x.name << " is not in the metric catalog";
}

// One line on stderr that contains `needle`.
void expectOneLineError(const Outcome& o, const std::string& needle) {
    EXPECT_NE(o.process.exitCode, 0) << o.process.out;
    EXPECT_NE(o.process.exitCode, 124) << "stopped by the outer timeout: it hung";
    EXPECT_TRUE(o.process.out.empty()) << o.process.out;
    std::string err = o.process.err;
    while (!err.empty() && err.back() == '\n')
        err.pop_back();
    EXPECT_EQ(err.find('\n'), std::string::npos) << "more than one line: " << err;
    EXPECT_TRUE(err.starts_with("lb-netload: ")) << err;
    EXPECT_NE(err.find(needle), std::string::npos) << "'" << needle << "' not in: " << err;
}

// The working root goes away after the last test, whatever happened.
class RemoveRoot : public ::testing::Environment {
public:
    void TearDown() override { fs::remove_all(root); }
};
const auto* const removeRoot = ::testing::AddGlobalTestEnvironment(new RemoveRoot);

// ---- iSCSI ----

class IscsiTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        fs::remove_all(root + "/iscsi");
        fs::create_directories(root + "/iscsi");
        lunFile = root + "/iscsi/lun1.img";
        std::ofstream(lunFile).close();
        fs::resize_file(lunFile, 64 << 20);
        tgtd = std::make_unique<Tgtd>(root + "/iscsi/tgtd", portalPort, controlPort);
        if (tgtd->available() && !tgtd->addLun(1, iqn, 1, lunFile, &setupError))
            tgtd.reset();
    }
    static void TearDownTestSuite() {
        tgtd.reset();
        fs::remove_all(root + "/iscsi");
    }
    void SetUp() override {
        ASSERT_TRUE(tgtd) << "tgtadm failed: " << setupError;
        ASSERT_TRUE(tgtd->available()) << tgtd->why();
    }

    static inline std::unique_ptr<Tgtd> tgtd;
    static inline std::string lunFile;
    static inline std::string setupError;
};

TEST_F(IscsiTest, WritesThenReadsSequentialAndRandomAtQueueDepth1And16) {
    const std::string url = tgtd->url(iqn, 1);
    struct Case {
        const char* rw;
        int iodepth;
        const char* dir;
    };
    // Writes first, so the reads read what was written.
    for (const Case c :
         {Case{"write", 1, "write"}, Case{"write", 16, "write"}, Case{"randwrite", 1, "write"},
          Case{"randwrite", 16, "write"}, Case{"read", 1, "read"}, Case{"read", 16, "read"},
          Case{"randread", 1, "read"}, Case{"randread", 16, "read"}}) {
        const std::string job = std::string(c.rw) + "-qd" + std::to_string(c.iodepth);
        SCOPED_TRACE(job);
        std::map<std::string, lb::RawOption::Value> raw = {{"url", url},
                                                           {"rw", std::string(c.rw)},
                                                           {"bs", std::string("4k")},
                                                           {"iodepth", std::int64_t{c.iodepth}},
                                                           {"job", job}};
        // Sequential jobs by size (the whole LUN once at qd16), random ones by time.
        if (std::string(c.rw).starts_with("rand"))
            raw["runtime"] = std::int64_t{2};
        else
            raw["size"] = std::string(c.iodepth == 16 ? "64M" : "8M");
        Outcome runOutput;
        const auto run = runNetload(netloadOptions(raw), &runOutput);
        ASSERT_TRUE(run) << run.error().message;
        EXPECT_FALSE(run->failed) << run->failureReason;
        EXPECT_EQ(run->workload, "netload");
        EXPECT_TRUE(run->toolVersion.starts_with("lb-netload-")) << run->toolVersion;
        expectPlausible(*run, "iscsi." + job + "." + c.dir, 4096);
        const auto m = byName(*run);
        const std::string other = std::string("iscsi.") + job + "." +
                                  (std::string(c.dir) == "read" ? "write" : "read") + ".iops";
        EXPECT_FALSE(m.count(other)) << other << " reported for a one-direction job";
        if (std::string(c.rw) == "write" && c.iodepth == 16) {
            // The whole LUN was written: its backing file holds no zero block any more.
            const std::string data = lb::test::readFile(lunFile);
            ASSERT_EQ(data.size(), std::size_t{64} << 20);
            EXPECT_EQ(data.find(std::string(4096, '\0')), std::string::npos);
        }
    }
}

// The parser on the real output above, cut short and mangled: errors, not guesses.
TEST_F(IscsiTest, ParserNamesMetricsByProtocolAndRejectsBrokenOutput) {
    // Its own short random-read run: each test may run alone (ctest runs them one by one).
    Outcome runOutput;
    const auto run = runNetload(netloadOptions({{"url", tgtd->url(iqn, 1)},
                                                {"rw", std::string("randread")},
                                                {"bs", std::string("4k")},
                                                {"iodepth", std::int64_t{16}},
                                                {"job", std::string("randread-qd16")},
                                                {"runtime", std::int64_t{1}}}),
                                &runOutput);
    ASSERT_TRUE(run) << run.error().message;
    const std::string& out = runOutput.process.out;
    ASSERT_FALSE(out.empty());
    const auto nfs = lb::netload::parseJson("a log line\n" + out, "", "nfs");
    ASSERT_TRUE(nfs) << nfs.error().message;
    EXPECT_TRUE(byName(*nfs).count("nfs.randread-qd16.read.iops"));
    const auto cut = lb::netload::parseJson(out.substr(0, out.size() / 2), "", "iscsi");
    ASSERT_FALSE(cut);
    EXPECT_TRUE(cut.error().message.starts_with("lb-netload output: truncated JSON"))
        << cut.error().message;
    const auto none = lb::netload::parseJson("", "lb-netload: iscsi://x: boom\n", "iscsi");
    ASSERT_FALSE(none);
    EXPECT_EQ(
        none.error().message,
        "no lb-netload JSON object found in the output (stderr: lb-netload: iscsi://x: boom)");
    std::string mistyped = out;
    const auto at = mistyped.find("\"total_ios\": ", mistyped.find("\"read\""));
    ASSERT_NE(at, std::string::npos);
    const auto valueEnd = mistyped.find_first_of(",\n}", at + 13);
    mistyped.replace(at + 13, valueEnd - (at + 13), "\"many\"");
    const auto bad = lb::netload::parseJson(mistyped, "", "iscsi");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message, "lb-netload output: jobs[0].read.total_ios: expected a number");
}

std::string tgtAccountBinary() {
#ifdef LAYOUTBENCH_TGT_ACCOUNT
    return LAYOUTBENCH_TGT_ACCOUNT;
#else
    return "lb-tgt-account";
#endif
}

// CHAP without a secret on any command line: lb-tgt-account makes tgtd's account from stdin, and
// lb-netload logs in with the secret read from its stdin (--chap-secret-fd 0), while no process
// holds it in its argv or environment. A wrong secret is refused without being printed; a secret
// in the URL is refused before anything is tried.
TEST_F(IscsiTest, ChapSecretsTravelOnStdinOnly) {
    const std::string chapIqn = "iqn.2026-11.org.layoutbench.test:chap";
    const std::string secret = "net-chap-secret-" + std::to_string(::getpid());
    const std::string lun = root + "/iscsi/chap.img";
    std::ofstream(lun).close();
    fs::resize_file(lun, 16 << 20);
    std::string why;
    ASSERT_TRUE(tgtd->addLun(2, chapIqn, 1, lun, &why)) << why;
    const std::string port = std::to_string(controlPort);
    lb::test::ProcSampler sampler({secret});
    auto runner = lb::makeLocalRunner();
    lb::Command account = lb::Command::timed(tgtAccountBinary(), {"-C", port, "--user", "nettest"},
                                             std::chrono::seconds(30));
    account.secretStdin = secret + "\n";
    const auto made = runner->run(account);
    ASSERT_TRUE(made && made->ok()) << (made ? made->exitSummary() : made.error().message);
    const auto bound =
        lb::test::runProcess({"tgtadm", "-C", port, "--lld", "iscsi", "--op", "bind", "--mode",
                              "account", "--tid", "2", "--user", "nettest"});
    ASSERT_EQ(bound.exitCode, 0) << bound.err;

    const auto netload = [&](const std::string& url, const std::string& stdinText,
                             std::vector<std::string> chap) {
        lb::Command c = lb::Command::timed(netloadBinary(), {url}, std::chrono::seconds(60));
        c.args.insert(c.args.end(), chap.begin(), chap.end());
        for (const char* a :
             {"--rw=randread", "--bs=4096", "--iodepth=4", "--runtime=1", "--timeout=5"})
            c.arg(a);
        c.secretStdin = stdinText;
        auto r = runner->run(c);
        EXPECT_TRUE(r) << r.error().message;
        return r ? *r : lb::ProcessResult{};
    };
    const std::vector<std::string> chap = {"--chap-user=nettest", "--chap-secret-fd=0"};
    const auto ok = netload(tgtd->url(chapIqn, 1), secret + "\n", chap);
    sampler.stop();
    EXPECT_EQ(ok.exitCode, 0) << ok.stderrText;
    EXPECT_NE(ok.stdoutText.find("\"iops\""), std::string::npos);
    EXPECT_EQ(ok.stdoutText.find(secret), std::string::npos);
    EXPECT_TRUE(sampler.leaks().empty()) << sampler.leaks().front();
    EXPECT_TRUE(sampler.saw("lb-netload"));

    // Without CHAP, or with a wrong secret, the target refuses the login; the secret tried is in
    // no message.
    const auto none = netload(tgtd->url(chapIqn, 1), "", {});
    EXPECT_EQ(none.exitCode, 1) << none.stdoutText;
    const std::string wrong = "wrong-secret-" + std::to_string(::getpid());
    const auto refused = netload(tgtd->url(chapIqn, 1), wrong + "\n", chap);
    EXPECT_EQ(refused.exitCode, 1) << refused.stdoutText;
    EXPECT_NE(refused.stderrText.find("login to target " + chapIqn), std::string::npos)
        << refused.stderrText;
    EXPECT_EQ(refused.stderrText.find(wrong), std::string::npos) << refused.stderrText;
    // A secret in the URL, or CHAP with nothing to read: usage errors, nothing printed of it.
    const auto inUrl =
        netload("iscsi://nettest%" + secret + "@127.0.0.1:" + std::to_string(portalPort) + "/" +
                    chapIqn + "/1",
                "", {});
    EXPECT_EQ(inUrl.exitCode, 2);
    EXPECT_NE(inUrl.stderrText.find("--chap-secret-fd"), std::string::npos) << inUrl.stderrText;
    EXPECT_EQ(inUrl.stderrText.find(secret), std::string::npos) << inUrl.stderrText;
    const auto empty = netload(tgtd->url(chapIqn, 1), "", chap);
    EXPECT_EQ(empty.exitCode, 2);
    EXPECT_NE(empty.stderrText.find("no CHAP secret to read"), std::string::npos)
        << empty.stderrText;
}

TEST_F(IscsiTest, UnreachablePortalFailsQuicklyWithAClearMessage) {
    // Nothing listens on this port (checked).
    ASSERT_FALSE(lb::test::tcpListening("127.0.0.1", 13999));
    const auto o = runBounded({netloadBinary(), "iscsi://127.0.0.1:13999/" + iqn + "/1", "--rw",
                               "read", "--bs", "4k", "--runtime", "1", "--timeout", "5"});
    expectOneLineError(o, "cannot reach an iSCSI portal at 127.0.0.1:13999: Connection refused");
    EXPECT_EQ(o.process.exitCode, 1);
    EXPECT_LT(o.seconds, 3.0);
}

TEST_F(IscsiTest, WrongIqnFailsWithTargetNotFound) {
    const auto o = runBounded({netloadBinary(), tgtd->url("iqn.2026-11.org.layoutbench.test:no", 1),
                               "--rw", "read", "--bs", "4k", "--runtime", "1", "--timeout", "5"});
    expectOneLineError(o, "Target not found");
    EXPECT_NE(o.process.err.find("login to target iqn.2026-11.org.layoutbench.test:no"),
              std::string::npos)
        << o.process.err;
    EXPECT_LT(o.seconds, 6.0);
}

TEST_F(IscsiTest, WrongLunFailsWithLogicalUnitNotSupported) {
    const auto o = runBounded({netloadBinary(), tgtd->url(iqn, 7), "--rw", "read", "--bs", "4k",
                               "--runtime", "1", "--timeout", "5"});
    expectOneLineError(o, "LOGICAL_UNIT_NOT_SUPPORTED");
    EXPECT_NE(o.process.err.find("LUN 7"), std::string::npos) << o.process.err;
    EXPECT_LT(o.seconds, 6.0);
}

TEST_F(IscsiTest, BlockSizeThatIsNotAMultipleOfTheLunBlocksIsBadInput) {
    const auto o = runBounded(
        {netloadBinary(), tgtd->url(iqn, 1), "--rw", "read", "--bs", "1000", "--size", "1m"});
    expectOneLineError(o, "is not a multiple of the LUN's 512-byte blocks");
    EXPECT_EQ(o.process.exitCode, 2);
}

// A second target of its own, so killing it leaves the suite's target alone.
TEST(IscsiKillTest, TargetKilledMidRunIsAnErrorWithinTheTimeoutNotAHang) {
    fs::remove_all(root + "/kill");
    fs::create_directories(root + "/kill");
    const std::string lun = root + "/kill/lun.img";
    std::ofstream(lun).close();
    fs::resize_file(lun, 64 << 20);
    {
        Tgtd tgtd(root + "/kill/tgtd", portalPort + 1, controlPort + 1);
        ASSERT_TRUE(tgtd.available()) << tgtd.why();
        std::string why;
        ASSERT_TRUE(tgtd.addLun(1, iqn, 1, lun, &why)) << why;

        ChildDaemon load;
        const std::string log = root + "/kill/netload.log";
        ASSERT_TRUE(load.start({netloadBinary(), tgtd.url(iqn, 1), "--rw", "randread", "--bs", "4k",
                                "--iodepth", "16", "--runtime", "60", "--timeout", "5"},
                               log, "", &why))
            << why;
        std::this_thread::sleep_for(1500ms);
        ASSERT_TRUE(load.running()) << lb::test::readFile(log);
        const auto killedAt = std::chrono::steady_clock::now();
        tgtd.killHard();
        const auto status = load.waitExit(20s);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - killedAt).count();
        if (!status)
            load.stop();
        ASSERT_TRUE(status) << "lb-netload still runs 20 s after tgtd was killed";
        EXPECT_EQ(*status, 1);
        EXPECT_LT(seconds, 5.0 + 2.0) << "not within the 5 s timeout";
        const std::string text = lb::test::readFile(log);
        EXPECT_NE(text.find("lb-netload: iscsi://127.0.0.1:13261/"), std::string::npos) << text;
        EXPECT_EQ(text.find("\"jobs\""), std::string::npos) << "no results after a failure";
    }
    fs::remove_all(root + "/kill");
}

// ZFS behind the target. zfs-fuse has no zvols ("zfs create -V" fails with "Function not
// implemented"), so the LUN is a file in a zfs-fuse dataset; a real server's zvol is a block
// device to tgtadm like any other.
TEST(IscsiZfsTest, LunOnAFileInAZfsFuseDatasetIsWrittenAndRead) {
    lb::test::ZfsFuse zfs;
    if (!zfs.available())
        GTEST_SKIP() << "ZFS unavailable: " << zfs.why();
    const std::string dir = root + "/zfs";
    const std::string pool = "lbnettest";
    if (lb::test::poolExists(pool)) // left by a crashed run
        lb::test::runProcess({"zpool", "destroy", "-f", pool});
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string vdev = dir + "/vdev.img";
    std::ofstream(vdev).close();
    fs::resize_file(vdev, 256 << 20);
    const auto created = lb::test::runProcess({"zpool", "create", "-m", dir + "/mnt", pool, vdev});
    ASSERT_EQ(created.exitCode, 0) << created.err;
    // Destroyed however the test ends; the FUSE mount can stay busy a moment after tgtd exits.
    struct PoolGuard {
        std::string pool;
        ~PoolGuard() {
            for (int i = 0; i < 20 && lb::test::poolExists(pool); ++i) {
                if (lb::test::runProcess({"zpool", "destroy", "-f", pool}).exitCode == 0)
                    break;
                std::this_thread::sleep_for(500ms);
            }
        }
    };
    {
        PoolGuard guard{pool};
        const std::string lun = dir + "/mnt/lun.img";
        std::ofstream(lun).close();
        fs::resize_file(lun, 64 << 20);
        Tgtd tgtd(dir + "/tgtd", portalPort + 3, controlPort + 3);
        ASSERT_TRUE(tgtd.available()) << tgtd.why();
        std::string why;
        ASSERT_TRUE(tgtd.addLun(1, iqn, 1, lun, &why)) << why;
        const auto write = runNetload(netloadOptions({{"url", tgtd.url(iqn, 1)},
                                                      {"rw", std::string("write")},
                                                      {"bs", std::string("64k")},
                                                      {"iodepth", std::int64_t{16}},
                                                      {"size", std::string("16M")},
                                                      {"job", std::string("zfs-write")}}));
        ASSERT_TRUE(write) << write.error().message;
        expectPlausible(*write, "iscsi.zfs-write.write", 65536);
        const auto read = runNetload(netloadOptions({{"url", tgtd.url(iqn, 1)},
                                                     {"rw", std::string("randread")},
                                                     {"bs", std::string("4k")},
                                                     {"iodepth", std::int64_t{16}},
                                                     {"runtime", std::int64_t{2}},
                                                     {"size", std::string("16M")},
                                                     {"job", std::string("zfs-randread")}}));
        ASSERT_TRUE(read) << read.error().message;
        expectPlausible(*read, "iscsi.zfs-randread.read", 4096);
    }
    EXPECT_FALSE(lb::test::poolExists(pool)) << "pool " << pool << " could not be destroyed";
    fs::remove_all(dir);
}

// A target that stops answering but keeps the connection open (SIGSTOP): only lb-netload's own
// timeouts can end the run, at connect and login as in the middle of it.
TEST(IscsiKillTest, TargetThatStopsAnsweringIsAnErrorWithinTheTimeout) {
    fs::remove_all(root + "/stop");
    fs::create_directories(root + "/stop");
    const std::string lun = root + "/stop/lun.img";
    std::ofstream(lun).close();
    fs::resize_file(lun, 16 << 20);
    {
        Tgtd tgtd(root + "/stop/tgtd", portalPort + 2, controlPort + 2);
        ASSERT_TRUE(tgtd.available()) << tgtd.why();
        std::string why;
        ASSERT_TRUE(tgtd.addLun(1, iqn, 1, lun, &why)) << why;

        ChildDaemon load;
        const std::string log = root + "/stop/netload.log";
        ASSERT_TRUE(load.start({netloadBinary(), tgtd.url(iqn, 1), "--rw", "randread", "--bs", "4k",
                                "--iodepth", "16", "--runtime", "60", "--timeout", "3"},
                               log, "", &why))
            << why;
        std::this_thread::sleep_for(1500ms);
        ASSERT_TRUE(load.running()) << lb::test::readFile(log);
        const auto stoppedAt = std::chrono::steady_clock::now();
        tgtd.freeze(true);
        const auto status = load.waitExit(20s);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - stoppedAt).count();
        if (!status)
            load.stop();
        ASSERT_TRUE(status) << "lb-netload still runs 20 s after tgtd stopped answering";
        EXPECT_EQ(*status, 1);
        // libiscsi checks its PDU timeouts once a second: the 3 s timeout plus that tick.
        EXPECT_LT(seconds, 3.0 + 2.5);
        EXPECT_GT(seconds, 2.0);
        EXPECT_NE(lb::test::readFile(log).find("timed out"), std::string::npos)
            << lb::test::readFile(log);

        // A new login to the frozen target: TCP connects (the kernel accepts), login times out.
        const auto login = runBounded({netloadBinary(), tgtd.url(iqn, 1), "--rw", "read", "--bs",
                                       "4k", "--size", "1m", "--timeout", "3"});
        expectOneLineError(login, "login to target");
        EXPECT_LT(login.seconds, 3.0 + 2.5);
        tgtd.freeze(false);
    }
    fs::remove_all(root + "/stop");
}

// ---- NFS ----

class NfsTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        fs::remove_all(root + "/nfs");
        ganesha = std::make_unique<Ganesha>(root + "/nfs/ganesha", root + "/nfs/export");
    }
    static void TearDownTestSuite() {
        ganesha.reset();
        fs::remove_all(root + "/nfs");
    }
    void SetUp() override { ASSERT_TRUE(ganesha->available()) << ganesha->why(); }

    static inline std::unique_ptr<Ganesha> ganesha;
};

TEST_F(NfsTest, Nfs3WritesThenReadsAFile) {
    const std::string url = ganesha->url("v3.dat", 3);
    for (const char* rw : {"write", "randwrite", "read", "randread"}) {
        SCOPED_TRACE(rw);
        const std::string job = std::string("v3-") + rw;
        std::map<std::string, lb::RawOption::Value> raw = {{"url", url},
                                                           {"rw", std::string(rw)},
                                                           {"bs", std::string("64k")},
                                                           {"iodepth", std::int64_t{8}},
                                                           {"size", std::string("16M")},
                                                           {"job", job}};
        if (std::string(rw).starts_with("rand")) {
            raw["bs"] = std::string("4k");
            raw["runtime"] = std::int64_t{2};
        }
        const auto run = runNetload(netloadOptions(raw));
        ASSERT_TRUE(run) << run.error().message;
        EXPECT_FALSE(run->failed) << run->failureReason;
        const bool write = std::string(rw).ends_with("write");
        expectPlausible(*run, "nfs." + job + (write ? ".write" : ".read"),
                        std::string(rw).starts_with("rand") ? 4096 : 65536);
    }
    EXPECT_EQ(fs::file_size(ganesha->exportDir() + "/v3.dat"), std::uintmax_t{16} << 20);
}

TEST_F(NfsTest, Nfs4ReadsAFileAndWritesWhereLibnfsCan) {
    // The file is made on the server side, then read through the NFSv4 pseudo path.
    {
        std::ofstream f(ganesha->exportDir() + "/v4.dat", std::ios::binary);
        const std::string block(1 << 20, 'x');
        for (int i = 0; i < 16; ++i)
            f << block;
    }
    for (const char* rw : {"read", "randread"}) {
        SCOPED_TRACE(rw);
        const std::string job = std::string("v4-") + rw;
        const auto run = runNetload(netloadOptions({{"url", ganesha->url("v4.dat", 4)},
                                                    {"rw", std::string(rw)},
                                                    {"bs", std::string("4k")},
                                                    {"iodepth", std::int64_t{16}},
                                                    {"runtime", std::int64_t{2}},
                                                    {"job", job}}));
        ASSERT_TRUE(run) << run.error().message;
        expectPlausible(*run, "nfs." + job + ".read", 4096);
    }
    // Debian 12's libnfs 4.0.0 cannot encode an NFSv4 WRITE (nfs-cp fails the same way): the
    // write must then fail at once with a message that says so, not hang or pass silently.
    Outcome o;
    const auto write = runNetload(netloadOptions({{"url", ganesha->url("v4w.dat", 4)},
                                                  {"rw", std::string("write")},
                                                  {"bs", std::string("64k")},
                                                  {"iodepth", std::int64_t{4}},
                                                  {"size", std::string("4M")},
                                                  {"job", std::string("v4-write")}}),
                                  &o);
    const auto version = lb::test::runProcess({"pkg-config", "--modversion", "libnfs"}).out;
    if (version.starts_with("4.0.")) {
        ASSERT_FALSE(write);
        expectOneLineError(o, "cannot encode NFSv4 WRITE; use version=3");
        std::cout << "[   NOTE   ] NFSv4 write: libnfs " << version.substr(0, 5)
                  << " cannot send NFSv4 WRITE; checked that lb-netload says so\n";
    } else {
        ASSERT_TRUE(write) << write.error().message;
        expectPlausible(*write, "nfs.v4-write.write", 65536);
    }
}

TEST_F(NfsTest, PathThatIsNotExportedIsRefused) {
    const auto v3 = runBounded({netloadBinary(), "nfs://127.0.0.1/var/tmp/not-exported/f", "--rw",
                                "read", "--bs", "4k", "--runtime", "1", "--timeout", "5"});
    expectOneLineError(v3, "MNT3ERR_ACCES");
    EXPECT_NE(v3.process.err.find("mounting export /var/tmp/not-exported"), std::string::npos)
        << v3.process.err;
    const auto v4 = runBounded({netloadBinary(), "nfs://127.0.0.1/not-exported/f?version=4", "--rw",
                                "read", "--bs", "4k", "--runtime", "1", "--timeout", "5"});
    expectOneLineError(v4, "NFS4ERR_NOENT");
    EXPECT_LT(v3.seconds + v4.seconds, 12.0);
}

// ---- fio client/server: three servers, one client run ----

TEST(FioClientsTest, ThreeServersDrivenAsThreeClientsStorePerClientAndAggregateMetrics) {
    const std::string dir = root + "/fio-clients";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::vector<lb::fio::ClientEndpoint> clients;
    std::vector<std::unique_ptr<ChildDaemon>> servers;
    for (int port = 8765; port <= 8767; ++port) {
        const auto e = lb::fio::parseEndpoint("127.0.0.1:" + std::to_string(port));
        ASSERT_TRUE(e) << e.error().message;
        ASSERT_FALSE(lb::test::tcpListening("127.0.0.1", port)) << port << " is in use";
        clients.push_back(*e);
        const std::string work = dir + "/client-" + std::to_string(port);
        fs::create_directories(work);
        lb::test::stopLeftover(work + "/fio.pid", "fio");
        const auto cmd = lb::fio::serverCommand(*e, work);
        EXPECT_EQ(cmd.args, std::vector<std::string>{"--server=127.0.0.1," + std::to_string(port)});
        std::vector<std::string> argv = {cmd.program};
        argv.insert(argv.end(), cmd.args.begin(), cmd.args.end());
        auto server = std::make_unique<ChildDaemon>();
        std::string why;
        ASSERT_TRUE(server->start(argv, work + "/fio-server.log", work + "/fio.pid", &why, cmd.cwd))
            << why;
        servers.push_back(std::move(server));
    }
    for (const auto& e : clients)
        ASSERT_TRUE(lb::test::waitForTcp("127.0.0.1", e.port, 10s)) << e.port;

    const std::string jobFile = dir + "/clients.fio";
    std::ofstream(jobFile) << "[clients]\nrw=randread\nbs=4k\nsize=16M\nioengine=psync\n"
                              "filename=lb-clients.dat\ntime_based\nruntime=2\n";
    const auto cmd = lb::fio::clientsCommand(clients, jobFile, 120s);
    ASSERT_TRUE(cmd) << cmd.error().message;
    std::vector<std::string> argv = {cmd->program};
    argv.insert(argv.end(), cmd->args.begin(), cmd->args.end());
    const auto o = runBounded(argv);
    ASSERT_EQ(o.process.exitCode, 0) << o.process.err << o.process.out;

    auto run = lb::fio::parseClients(o.process.out, o.process.err, clients);
    ASSERT_TRUE(run) << run.error().message;
    ASSERT_FALSE(run->failed) << run->failureReason;
    const auto m = byName(*run);
    ASSERT_TRUE(m.count("fio.clients.read.iops")) << "no aggregate";
    double sum = 0;
    for (const auto& e : clients) {
        const std::string p = "fio.clients@127.0.0.1:" + std::to_string(e.port) + ".read";
        expectPlausible(*run, p, 4096);
        sum += m.count(p + ".iops") ? m.at(p + ".iops") : 0;
        // Each server ran the job in its own directory.
        EXPECT_TRUE(fs::exists(dir + "/client-" + std::to_string(e.port) + "/lb-clients.dat"));
    }
    EXPECT_NEAR(m.at("fio.clients.read.iops") / sum, 1.0, 0.05) << "aggregate is not the sum";

    // Stored and read back like any run.
    auto store = lb::Store::open(dir + "/results.db");
    ASSERT_TRUE(store) << store.error().message;
    const auto layout = store->ensureLayout("netclients", "dir", "{}", std::nullopt);
    ASSERT_TRUE(layout) << layout.error().message;
    lb::Run r;
    r.layout = "netclients";
    r.workload = "fio-clients";
    r.probe = "fio";
    r.argv = argv;
    r.exitCode = 0;
    r.stdoutText = o.process.out;
    r.stderrText = o.process.err;
    r.toolVersion = run->toolVersion;
    r.status = lb::RunStatus::Ok;
    r.metrics = run->metrics;
    r.startedAt = r.finishedAt = store->now();
    ASSERT_TRUE(store->insertRun(*layout, r));
    const auto samples = store->metricSamples("netclients");
    ASSERT_TRUE(samples) << samples.error().message;
    std::vector<std::string> names;
    for (const auto& s : *samples)
        names.push_back(s.name);
    for (const std::string n :
         {"fio.clients.read.iops", "fio.clients@127.0.0.1:8765.read.iops",
          "fio.clients@127.0.0.1:8766.read.clat_p99", "fio.clients@127.0.0.1:8767.read.bw"})
        EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n << " not stored";

    for (auto& s : servers)
        s->stop();
    fs::remove_all(dir);
}

} // namespace
