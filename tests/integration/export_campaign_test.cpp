// Campaigns whose layouts are exported (issue 6), with the real servers on 127.0.0.1:
//  - a zfs-fuse RAIDZ1 pool on file vdevs, exported as a file LUN through tgtd (tgtadm, with a
//    CHAP account) and as an NFS export through nfs-ganesha that the campaign starts itself; the
//    netload probe writes and reads both through the export (URLs made from the scenario's
//    export, one workload on a [[clients]] entry), and the campaign tears everything down: tgtd
//    shows no target or account afterwards, ganesha is stopped, the pool and vdevs are gone and
//    the journal shows every undo applied;
//  - the CHAP secret is nowhere: not in any table or byte of the database, not in the output of
//    `layoutbench plan`, not in the campaign's progress and tool output, not in tgtd's log, and
//    not in the argv or environment of any process while the campaign runs (a thread reads every
//    /proc/PID/cmdline and environ meanwhile): tgtd gets it from lb-tgt-account, lb-netload on
//    its stdin;
//  - faults: a portal nothing listens on, a wrong IQN and a path that is not exported give failed
//    runs with the tool's reason within seconds, and the exports are still torn down; an export
//    step that fails (a target id already taken, or no tgtd on the control port) undoes the
//    layout under it and leaves the other target alone;
//  - [[clients]]: three fio servers on 127.0.0.1 driven as three clients by one workload, with
//    per-client and aggregate metrics stored and nothing left running.
// tgtd (portal and control port 13262) and rpcbind are started by the fixtures when absent;
// nfs-ganesha is started by the campaign's own plan. Everything lives under
// /var/tmp/layoutbench-test-export and is removed afterwards.
#include "engine/build/plan.h"
#include "engine/campaign/campaign.h"
#include "engine/exec/runner.h"
#include "engine/scenario/scenario.h"
#include "engine/store/journal.h"
#include "engine/store/store.h"
#include "probes/registry.h"
#include "tests/cli/process.h"
#include "tests/support/proc_sampler.h"
#include "tests/support/raw_sql.h"
#include "tests/support/tgtd.h"
#include "tests/support/zfs_fuse.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const std::string root = "/var/tmp/layoutbench-test-export";
const std::string secret = "chap-secret-4711";
constexpr int portal = 13262; // tgtd's portal and control port: not 3260, not network_test's
constexpr int unreachablePortal = 13998;

std::string netloadBinary() {
#ifdef LAYOUTBENCH_NETLOAD
    return LAYOUTBENCH_NETLOAD;
#else
    return "lb-netload";
#endif
}

std::string tgtAccountBinary() {
#ifdef LAYOUTBENCH_TGT_ACCOUNT
    return LAYOUTBENCH_TGT_ACCOUNT;
#else
    return "lb-tgt-account";
#endif
}

struct Outcome {
    std::unique_ptr<lb::Store> store;
    lb::Expected<lb::CampaignResult> result = lb::runtimeError("not run");
    std::string log; // progress messages and tool output, as a user would see them
    double seconds = 0;
    lb::Scenario scenario;
    // What a /proc sampler found while the campaign ran: processes holding the secret in their
    // argv or environment, how many times it read /proc, whether it saw lb-netload.
    std::vector<std::string> leaks;
    std::size_t sampleRounds = 0;
    bool sawNetload = false;
};

// One row of a run, with its metrics.
struct RunRow {
    std::int64_t id = 0;
    std::string workload, status, reason, argv, err;
    double wallSeconds = 0;
    std::map<std::string, double> metrics;
};

std::vector<RunRow> runRows(lb::Store& store, std::int64_t campaign) {
    std::vector<RunRow> rows;
    auto runs = store.storedRuns({campaign, lb::RunQuery::Output::All});
    EXPECT_TRUE(runs) << runs.error().message;
    if (!runs)
        return rows;
    for (const auto& r : *runs) {
        RunRow row{r.id,
                   r.workload,
                   std::string(lb::runStatusName(r.status)),
                   r.reason,
                   nlohmann::json(r.argv).dump(),
                   r.stderrText,
                   r.wallSeconds,
                   {}};
        auto metrics = store.runMetrics(r.id);
        EXPECT_TRUE(metrics);
        if (metrics)
            for (const auto& m : *metrics)
                row.metrics[m.name] = m.value;
        rows.push_back(std::move(row));
    }
    return rows;
}

const RunRow* find(const std::vector<RunRow>& rows, const std::string& workload) {
    for (const auto& r : rows)
        if (r.workload == workload)
            return &r;
    return nullptr;
}

struct StepRow {
    std::string phase, argv, undo, status, output;
};

std::vector<StepRow> journal(lb::Store& store, std::int64_t campaign) {
    std::vector<StepRow> rows;
    auto steps = lb::Journal(store).steps(campaign);
    EXPECT_TRUE(steps) << steps.error().message;
    if (!steps)
        return rows;
    for (const auto& s : *steps)
        rows.push_back({std::string(lb::enumName(s.phase)), nlohmann::json(s.argv).dump(),
                        s.undo ? nlohmann::json(*s.undo).dump() : std::string(),
                        std::string(lb::enumName(s.status)), s.output});
    return rows;
}

// Every build step with an undo was undone, and every undo applied.
void expectAllUndone(lb::Store& store, std::int64_t campaign) {
    const auto steps = journal(store, campaign);
    int undos = 0;
    for (const auto& s : steps) {
        if (s.phase == "build" && !s.undo.empty() && s.status != "failed") {
            EXPECT_EQ(s.status, "undone") << s.argv;
        }
        if (s.phase == "undo") {
            ++undos;
            EXPECT_EQ(s.status, "applied") << s.argv << ": " << s.output;
        }
    }
    EXPECT_GT(undos, 0);
}

std::string tgtadm(const std::vector<std::string>& args) {
    std::vector<std::string> argv{"tgtadm", "-C", std::to_string(portal), "--lld", "iscsi"};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = lb::test::runProcess(argv);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return r.out;
}

// Processes whose command line mentions `needle`.
std::vector<std::string> processesWith(const std::string& needle) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator("/proc")) {
        const std::string pid = e.path().filename().string();
        if (!std::all_of(pid.begin(), pid.end(), ::isdigit))
            continue;
        std::string cmdline = lb::test::readFile(e.path().string() + "/cmdline");
        std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
        if (cmdline.find(needle) != std::string::npos)
            out.push_back(pid + ": " + cmdline);
    }
    return out;
}

// The working root goes away after the last test, whatever happened.
class RemoveRoot : public ::testing::Environment {
public:
    void TearDown() override { fs::remove_all(root); }
};
const auto* const removeRoot = ::testing::AddGlobalTestEnvironment(new RemoveRoot);

class ExportCampaign : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        fs::remove_all(root);
        fs::create_directories(root);
        // The campaign runs lb-netload and lb-tgt-account by name, as on a server where they
        // are installed.
        for (const auto& tool : {netloadBinary(), tgtAccountBinary()}) {
            const std::string dir = fs::path(tool).parent_path().string();
            if (!dir.empty())
                setenv("PATH", (dir + ":" + std::getenv("PATH")).c_str(), 1);
        }
        zfs_ = std::make_unique<lb::test::ZfsFuse>();
        tgtd_ = std::make_unique<lb::test::Tgtd>(root + "/tgtd", portal, portal);
        lb::test::stopLeftover(root + "/rpcbind.pid", "rpcbind");
        if (!lb::test::tcpListening("127.0.0.1", 111)) {
            rpcbind_ = std::make_unique<lb::test::ChildDaemon>();
            std::string why;
            if (!rpcbind_->start({"rpcbind", "-f", "-w"}, root + "/rpcbind.log",
                                 root + "/rpcbind.pid", &why) ||
                !lb::test::waitForTcp("127.0.0.1", 111, 10s))
                setupError_ = "rpcbind: " + why;
        }
    }
    static void TearDownTestSuite() {
        main_.reset();
        rpcbind_.reset();
        tgtd_.reset();
        zfs_.reset();
        fs::remove_all(root);
    }
    void SetUp() override {
        ASSERT_TRUE(zfs_->available()) << zfs_->why();
        ASSERT_TRUE(tgtd_->available()) << tgtd_->why();
        ASSERT_TRUE(setupError_.empty()) << setupError_;
        ASSERT_FALSE(lb::test::tcpListening("127.0.0.1", 2049))
            << "another NFS server listens on 2049; these tests start nfs-ganesha there";
    }

    static const lb::ProbeRegistry& probes() {
        static const lb::ProbeRegistry r = lb::standardProbes();
        return r;
    }

    // Writes the scenario, loads it as `layoutbench run` does and runs the campaign.
    static Outcome campaign(const std::string& name, const std::string& text) {
        Outcome o;
        const std::string dir = root + "/" + name;
        fs::create_directories(dir);
        std::ofstream(dir + "/scenario.toml") << text;
        auto scenario = lb::loadScenario(dir + "/scenario.toml", probes());
        EXPECT_TRUE(scenario) << scenario.error().message;
        if (!scenario)
            return o;
        o.scenario = *scenario;
        auto store = lb::Store::open(dir + "/results.db");
        EXPECT_TRUE(store) << store.error().message;
        o.store = std::make_unique<lb::Store>(std::move(*store));
        lb::CampaignOptions options;
        options.onProgress = [&](const lb::CampaignProgress& p) {
            o.log += p.layout + " " + p.workload + " " + p.message + "\n";
        };
        options.onToolOutput = [&](lb::OutputStream, std::string_view chunk) { o.log += chunk; };
        auto runner = lb::makeLocalRunner();
        const auto start = std::chrono::steady_clock::now();
        o.result = lb::runCampaign(*o.store, o.scenario, probes(), *runner, options);
        o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return o;
    }

    static std::string vdevs(const std::string& name) {
        std::string out;
        for (int i = 1; i <= 4; ++i)
            out += "[[disks]]\nname = \"v" + std::to_string(i) + "\"\nfile = \"" + root + "/" +
                   name + "/v" + std::to_string(i) + ".img\"\nsize = \"256MiB\"\n";
        return out;
    }

    // The exported RAIDZ1 campaign, run once for the tests that look at it, with every process's
    // argv and environment sampled meanwhile.
    static Outcome& mainCampaign() {
        if (!main_) {
            lb::test::ProcSampler sampler({secret});
            main_ = std::make_unique<Outcome>(campaign("main", mainScenario()));
            sampler.stop();
            main_->leaks = sampler.leaks();
            main_->sampleRounds = sampler.rounds();
            main_->sawNetload = sampler.saw("lb-netload");
        }
        return *main_;
    }

    static std::string mainScenario() {
        return R"(name = "export-main"
iterations = 1
drop_caches = false
work_dir = ")" +
               root + R"(/main/work"
)" + vdevs("main") +
               R"(
[[layouts]]
name = "exp-raidz1"
kind = "zfs-raidz1"
baseline = true
disks = ["v1", "v2", "v3", "v4"]
[layouts.export]
iscsi = "tgt"
lun = "file"
lun_size = "64M"
portal_port = 13262
tgt_control_port = 13262
chap_user = "lbtest"
chap_password = ")" +
               secret + R"("
nfs = "ganesha"
nfs_versions = [3, 4]

[[clients]]
name = "c1"

[[workloads]]
name = "lun-write"
probe = "netload"
target = "iscsi"
rw = "write"
bs = "64k"
iodepth = 8
size = "32M"
job = "lun-write"

[[workloads]]
name = "lun-randread"
probe = "netload"
target = "iscsi"
rw = "randread"
bs = "4k"
iodepth = 16
runtime = 2
job = "lun-randread"

[[workloads]]
name = "nfs-write"
probe = "netload"
target = "nfs"
rw = "write"
bs = "64k"
iodepth = 8
size = "32M"
file = "w.dat"
job = "nfs-write"

[[workloads]]
name = "nfs-randread"
probe = "netload"
target = "nfs"
nfs_version = "4"
rw = "randread"
bs = "4k"
iodepth = 16
runtime = 2
file = "w.dat"
job = "nfs-randread"
clients = "c1"
)";
    }

    static inline std::unique_ptr<lb::test::ZfsFuse> zfs_;
    static inline std::unique_ptr<lb::test::Tgtd> tgtd_;
    static inline std::unique_ptr<lb::test::ChildDaemon> rpcbind_;
    static inline std::unique_ptr<Outcome> main_;
    static inline std::string setupError_;
};

TEST_F(ExportCampaign, ZfsLayoutServedOverIscsiAndNfsThroughItsExportThenTornDown) {
    Outcome& o = mainCampaign();
    ASSERT_TRUE(o.result) << o.result.error().message;
    EXPECT_EQ(o.result->status, lb::CampaignStatus::Done);
    EXPECT_TRUE(o.result->problems.empty()) << o.result->problems.front();
    const auto rows = runRows(*o.store, o.result->campaignId);
    ASSERT_EQ(rows.size(), 4u);
    for (const auto& r : rows)
        EXPECT_EQ(r.status, "ok") << r.workload << ": " << r.reason << "\n" << r.err;

    const auto* write = find(rows, "lun-write");
    const auto* read = find(rows, "lun-randread");
    const auto* nfsWrite = find(rows, "nfs-write");
    const auto* nfsRead = find(rows, "nfs-randread");
    ASSERT_TRUE(write && read && nfsWrite && nfsRead);
    // The URLs came from the export: the portal, the IQN derived from the layout, the dataset;
    // the CHAP secret went on stdin.
    EXPECT_NE(write->argv.find("\"iscsi://127.0.0.1:13262/iqn.2026-11.org.layoutbench:exp-raidz1/"
                               "1\",\"--chap-user=lbtest\",\"--chap-secret-fd=0\""),
              std::string::npos)
        << write->argv;
    EXPECT_NE(write->argv.find("\"<<<\",\"****\""), std::string::npos) << write->argv;
    EXPECT_NE(nfsWrite->argv.find("nfs://127.0.0.1" + root + "/main/work/mnt-exp-raidz1/w.dat"),
              std::string::npos)
        << nfsWrite->argv;
    EXPECT_NE(nfsRead->argv.find("?version=4"), std::string::npos) << nfsRead->argv;
    const double lunWrite = write->metrics.at("iscsi.lun-write.write.bw");
    const double lunIops = read->metrics.at("iscsi.lun-randread.read.iops");
    const double nfsWriteBw = nfsWrite->metrics.at("nfs.nfs-write.write.bw");
    const double nfsIops = nfsRead->metrics.at("nfs.nfs-randread.read.iops");
    EXPECT_GT(lunWrite, 1e6);
    EXPECT_GT(lunIops, 100);
    EXPECT_GT(nfsWriteBw, 1e6);
    EXPECT_GT(nfsIops, 100);
    std::cout << "[ FIGURES  ] through the export of a zfs-fuse RAIDZ1 (4 x 256 MiB file vdevs): "
              << "iSCSI write 64k qd8 " << lunWrite / 1e6 << " MB/s, iSCSI randread 4k qd16 "
              << lunIops << " IOPS; NFSv3 write 64k qd8 " << nfsWriteBw / 1e6
              << " MB/s, NFSv4 randread 4k qd16 " << nfsIops << " IOPS; campaign " << o.seconds
              << " s\n";

    // Torn down: no target or account in tgtd, ganesha stopped, pool and vdevs gone.
    EXPECT_EQ(tgtadm({"--op", "show", "--mode", "target"}), "");
    EXPECT_EQ(tgtadm({"--op", "show", "--mode", "account"}).find("lbtest"), std::string::npos);
    EXPECT_TRUE(processesWith("ganesha-exp-raidz1").empty())
        << processesWith("ganesha-exp-raidz1").front();
    EXPECT_FALSE(lb::test::tcpListening("127.0.0.1", 2049)) << "ganesha still listens";
    EXPECT_FALSE(lb::test::poolExists("lb-exp-raidz1"));
    for (int i = 1; i <= 4; ++i)
        EXPECT_FALSE(fs::exists(root + "/main/v" + std::to_string(i) + ".img"));
    EXPECT_FALSE(fs::exists(root + "/main/work/ganesha-exp-raidz1"));
    expectAllUndone(*o.store, o.result->campaignId);
    // The export steps are in the journal, after the pool and undone before it.
    const auto steps = journal(*o.store, o.result->campaignId);
    auto at = [&](const std::string& phase, const std::string& part) {
        for (std::size_t i = 0; i < steps.size(); ++i)
            if (steps[i].phase == phase && steps[i].argv.find(part) != std::string::npos)
                return static_cast<long>(i);
        return -1L;
    };
    EXPECT_LT(at("build", "zpool"), at("build", "\"logicalunit\""));
    EXPECT_LT(at("build", "\"logicalunit\""), at("build", "ganesha.nfsd"));
    EXPECT_LT(at("undo", "ganesha"), at("undo", "\"logicalunit\""));
    EXPECT_LT(at("undo", "\"logicalunit\""), at("undo", "zpool"));

    // The layout's stored spec says how it was served (that CHAP was used, not the secret).
    auto layouts = o.store->layouts();
    ASSERT_TRUE(layouts) << layouts.error().message;
    const auto layout =
        std::find_if(layouts->begin(), layouts->end(),
                     [](const lb::LayoutRecord& l) { return l.name == "exp-raidz1"; });
    ASSERT_NE(layout, layouts->end());
    const auto spec = nlohmann::json::parse(layout->spec);
    ASSERT_TRUE(spec.contains("export")) << layout->spec;
    EXPECT_EQ(spec["export"]["iscsi"]["target"], "tgt");
    EXPECT_EQ(spec["export"]["iscsi"]["chap"], true);
    EXPECT_EQ(spec["export"]["nfs"]["server"], "ganesha");
}

TEST_F(ExportCampaign, ChapSecretIsNowhereInTheStoreThePlanOrTheLogs) {
    Outcome& o = mainCampaign();
    ASSERT_TRUE(o.result) << o.result.error().message;
    // Every text column of every table.
    const auto cells = lb::test::cellsHolding(*o.store, secret);
    EXPECT_GE(cells.tables, 8);
    EXPECT_GT(cells.columns, 40);
    for (const auto& cell : cells.holding)
        ADD_FAILURE() << cell << " holds the CHAP secret";
    // The stored scenario is there, masked.
    auto stored = o.store->campaign(o.result->campaignId);
    ASSERT_TRUE(stored && *stored);
    EXPECT_NE((*stored)->scenario.find("chap_password = \"****\""), std::string::npos);
    // And not in any byte of the files: the database, its WAL.
    for (const auto& f : fs::directory_iterator(root + "/main"))
        if (f.path().filename().string().rfind("results.db", 0) == 0) {
            EXPECT_EQ(lb::test::readFile(f.path()).find(secret), std::string::npos) << f.path();
        }
    // Nor in what the user saw, what tgtd logged, or what `layoutbench plan` prints.
    EXPECT_EQ(o.log.find(secret), std::string::npos);
    EXPECT_FALSE(o.log.empty());
    EXPECT_EQ(lb::test::readFile(root + "/tgtd/tgtd.log").find(secret), std::string::npos);
    const auto plan = lb::test::runProcess(
        {LAYOUTBENCH_CLI, "plan", root + "/main/scenario.toml", "--db", root + "/plan.db"});
    EXPECT_EQ(plan.exitCode, 0) << plan.err;
    EXPECT_NE(plan.out.find("lb-tgt-account -C 13262 --user lbtest <<< ****"), std::string::npos)
        << plan.out;
    EXPECT_EQ(plan.out.find(secret), std::string::npos);
    EXPECT_EQ(plan.err.find(secret), std::string::npos);
}

// While the CHAP campaign ran (tgtd's account made, lb-netload logging in with CHAP four
// times), no process had the secret in its argv or environment.
TEST_F(ExportCampaign, ChapSecretIsInNoProcessArgvOrEnvironmentDuringTheRun) {
    Outcome& o = mainCampaign();
    ASSERT_TRUE(o.result) << o.result.error().message;
    EXPECT_EQ(o.result->status, lb::CampaignStatus::Done)
        << (o.result->problems.empty() ? o.log : o.result->problems.front());
    EXPECT_TRUE(o.leaks.empty()) << o.leaks.size() << " leaks, first: " << o.leaks.front();
    EXPECT_TRUE(o.sawNetload) << "the sampler never saw lb-netload run";
    EXPECT_GT(o.sampleRounds, 100u);
    std::cout << "[ sampled  ] every /proc/*/cmdline and environ " << o.sampleRounds
              << " times during the " << o.seconds << " s campaign: no secret\n";

    // The sampler does find a secret where one is: a process holding it in argv.
    lb::test::ProcSampler control({secret});
    const auto r = lb::test::runProcess({"sh", "-c", "sleep 0.5", "sh", secret});
    control.stop();
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_FALSE(control.leaks().empty()) << "the sampler missed a secret in argv";
}

TEST_F(ExportCampaign, ResumeTakesTheMaskedChapSecretFromTheScenarioFile) {
    Outcome& o = mainCampaign();
    ASSERT_TRUE(o.result) << o.result.error().message;
    const std::string id = std::to_string(o.result->campaignId);
    const std::string db = root + "/main/results.db";
    // Nothing is missing, so nothing runs; the stored scenario still has to be complete.
    const auto resumed = lb::test::runProcess(
        {LAYOUTBENCH_CLI, "run", root + "/main/scenario.toml", "--resume", id, "--db", db});
    EXPECT_EQ(resumed.exitCode, 0) << resumed.out << resumed.err;
    EXPECT_EQ(resumed.out.find(secret), std::string::npos);
    // A file that has no secret for the layout cannot resume it.
    const std::string masked = root + "/main/masked.toml";
    std::string text = mainScenario();
    text.replace(text.find(secret), secret.size(), "****");
    std::ofstream(masked) << text;
    const auto refused =
        lb::test::runProcess({LAYOUTBENCH_CLI, "run", masked, "--resume", id, "--db", db});
    EXPECT_EQ(refused.exitCode, 2) << refused.out << refused.err;
    EXPECT_NE(refused.err.find(masked + ": layout 'exp-raidz1': the campaign stored its CHAP "
                                        "secret masked, and this scenario gives none"),
              std::string::npos)
        << refused.err;
}

TEST_F(ExportCampaign, UnreachablePortalWrongIqnAndRefusedExportFailRunsWithReasons) {
    ASSERT_FALSE(lb::test::tcpListening("127.0.0.1", unreachablePortal));
    Outcome o = campaign("faults", R"(name = "export-faults"
iterations = 1
drop_caches = false
work_dir = ")" + root + R"(/faults/work"

[[layouts]]
name = "exp-dir"
kind = "dir"
path = ")" + root + R"(/faults"
baseline = true
[layouts.export]
iscsi = "tgt"
lun_size = "16M"
portal_port = 13998
tgt_control_port = 13262
nfs = "ganesha"

[[workloads]]
name = "unreachable"
probe = "netload"
target = "iscsi"
rw = "read"
runtime = 1
net_timeout = 5

[[workloads]]
name = "wrong-iqn"
probe = "netload"
url = "iscsi://127.0.0.1:13262/iqn.2026-11.org.layoutbench:nobody/1"
rw = "read"
runtime = 1
net_timeout = 5

[[workloads]]
name = "not-exported"
probe = "netload"
url = "nfs://127.0.0.1/var/tmp/not-exported/f"
rw = "read"
runtime = 1
net_timeout = 5
)");
    ASSERT_TRUE(o.result) << o.result.error().message;
    EXPECT_EQ(o.result->failedRuns, 3u);
    const auto rows = runRows(*o.store, o.result->campaignId);
    ASSERT_EQ(rows.size(), 3u);
    const std::map<std::string, std::string> reasons = {
        {"unreachable", "cannot reach an iSCSI portal at 127.0.0.1:13998: Connection refused"},
        {"wrong-iqn", "Target not found"},
        {"not-exported", "MNT3ERR_ACCES"}};
    for (const auto& r : rows) {
        EXPECT_EQ(r.status, "failed") << r.workload;
        EXPECT_NE(r.err.find(reasons.at(r.workload)), std::string::npos)
            << r.workload << ": " << r.err;
        EXPECT_FALSE(r.reason.empty()) << r.workload;
        EXPECT_LT(r.wallSeconds, 10.0) << r.workload << " took long: a hang bounded by a timeout";
    }
    EXPECT_LT(o.seconds, 120.0);
    EXPECT_EQ(tgtadm({"--op", "show", "--mode", "target"}), "");
    EXPECT_FALSE(lb::test::tcpListening("127.0.0.1", 2049));
    expectAllUndone(*o.store, o.result->campaignId);
}

TEST_F(ExportCampaign, AFailingExportStepUndoesTheLayoutUnderIt) {
    // Target 9 is someone else's: creating it again fails, after the pool and LUN file exist.
    const std::string lun = root + "/other-lun.img";
    std::ofstream(lun).close();
    fs::resize_file(lun, 16 << 20);
    std::string why;
    ASSERT_TRUE(tgtd_->addLun(9, "iqn.2026-11.org.layoutbench.test:other", 1, lun, &why)) << why;
    Outcome o = campaign("taken", R"(name = "export-taken"
iterations = 1
drop_caches = false
work_dir = ")" + root + R"(/taken/work"
)" + vdevs("taken") + R"(
[[layouts]]
name = "exp-taken"
kind = "zfs-raidz1"
baseline = true
disks = ["v1", "v2", "v3", "v4"]
[layouts.export]
iscsi = "tgt"
lun_size = "16M"
tid = 9
tgt_control_port = 13262

[[workloads]]
probe = "netload"
target = "iscsi"
rw = "read"
runtime = 1
)");
    ASSERT_TRUE(o.result) << o.result.error().message;
    EXPECT_EQ(o.result->status, lb::CampaignStatus::Failed);
    ASSERT_EQ(o.result->problems.size(), 1u);
    EXPECT_NE(o.result->problems.front().find("building layout 'exp-taken': step 'create target 9 "
                                              "iqn.2026-11.org.layoutbench:exp-taken'"),
              std::string::npos)
        << o.result->problems.front();
    const auto rows = runRows(*o.store, o.result->campaignId);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].status, "failed");
    EXPECT_EQ(rows[0].reason.rfind("layout not built: ", 0), 0u) << rows[0].reason;
    EXPECT_FALSE(lb::test::poolExists("lb-exp-taken"));
    for (int i = 1; i <= 4; ++i)
        EXPECT_FALSE(fs::exists(root + "/taken/v" + std::to_string(i) + ".img"));
    expectAllUndone(*o.store, o.result->campaignId);
    // The other target is untouched.
    EXPECT_NE(tgtadm({"--op", "show", "--mode", "target"})
                  .find("Target 9: iqn.2026-11.org.layoutbench.test:other"),
              std::string::npos);

    // No tgtd on the control port: the first export step says so, and the directory goes.
    Outcome none = campaign("no-tgtd", R"(name = "export-no-tgtd"
iterations = 1
drop_caches = false
work_dir = ")" + root + R"(/no-tgtd/work"

[[layouts]]
name = "exp-none"
kind = "dir"
path = ")" + root + R"(/no-tgtd"
baseline = true
[layouts.export]
iscsi = "tgt"
tgt_control_port = 13299

[[workloads]]
probe = "netload"
target = "iscsi"
rw = "read"
runtime = 1
)");
    ASSERT_TRUE(none.result) << none.result.error().message;
    ASSERT_EQ(none.result->problems.size(), 1u);
    EXPECT_NE(none.result->problems.front().find(
                  "step 'check that tgtd answers (start it first: tgtd, or systemctl start tgt)' "
                  "(tgtadm -C 13299 --lld iscsi --op show --mode sys) failed"),
              std::string::npos)
        << none.result->problems.front();
    EXPECT_FALSE(fs::exists(root + "/no-tgtd/layoutbench-exp-none"));
    expectAllUndone(*none.store, none.result->campaignId);
}

// Three fio servers on this machine, as three [[clients]], one workload on all of them.
TEST(ClientsCampaign, ThreeFioServersRunOneWorkloadWithPerClientAndAggregateMetrics) {
    const std::string dir = root + "/clients";
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (int port = 18765; port <= 18767; ++port)
        ASSERT_FALSE(lb::test::tcpListening("127.0.0.1", port)) << port << " is in use";
    std::string text = R"(name = "clients"
iterations = 2
drop_caches = false
work_dir = ")" + dir + R"(/work"

[[layouts]]
name = "clients-dir"
kind = "dir"
path = ")" + dir + R"("
baseline = true

[[workloads]]
probe = "fio"
preset = "rand-read-4k-qd1"
size = "16M"
runtime = 2
ioengine = "psync"
clients = "all"
)";
    for (int i = 1; i <= 3; ++i)
        text += "\n[[clients]]\nname = \"c" + std::to_string(i) +
                "\"\nfio_port = " + std::to_string(18764 + i) + "\nwork_dir = \"" + dir +
                "/client-work\"\n";
    std::ofstream(dir + "/scenario.toml") << text;
    const lb::ProbeRegistry probes = lb::standardProbes();
    auto scenario = lb::loadScenario(dir + "/scenario.toml", probes);
    ASSERT_TRUE(scenario) << scenario.error().message;
    auto store = lb::Store::open(dir + "/results.db");
    ASSERT_TRUE(store) << store.error().message;
    auto runner = lb::makeLocalRunner();
    const auto result = lb::runCampaign(*store, *scenario, probes, *runner, {});
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, lb::CampaignStatus::Done);
    const auto rows = runRows(*store, result->campaignId);
    ASSERT_EQ(rows.size(), 2u);
    for (const auto& r : rows) {
        ASSERT_EQ(r.status, "ok") << r.reason << "\n" << r.err;
        EXPECT_NE(r.argv.find("--remote-config="), std::string::npos) << r.argv;
        const std::string job = "fio.rand-read-4k-qd1";
        ASSERT_TRUE(r.metrics.count(job + ".read.iops")) << "no aggregate";
        double sum = 0;
        for (int i = 1; i <= 3; ++i) {
            const std::string name = job + "@c" + std::to_string(i) + ".read.iops";
            ASSERT_TRUE(r.metrics.count(name)) << name;
            EXPECT_GT(r.metrics.at(name), 50);
            sum += r.metrics.at(name);
        }
        EXPECT_NEAR(r.metrics.at(job + ".read.iops") / sum, 1.0, 0.05);
        std::cout << "[ FIGURES  ] three fio clients, 4k random reads qd1 (psync): aggregate "
                  << r.metrics.at(job + ".read.iops") << " IOPS\n";
    }
    // The servers are stopped and their directories gone.
    for (int port = 18765; port <= 18767; ++port)
        EXPECT_FALSE(lb::test::tcpListening("127.0.0.1", port)) << port;
    EXPECT_TRUE(processesWith("--server=127.0.0.1,1876").empty());
    for (int i = 1; i <= 3; ++i)
        EXPECT_FALSE(fs::exists(dir + "/client-work/c" + std::to_string(i)));
    fs::remove_all(dir);
}

} // namespace
