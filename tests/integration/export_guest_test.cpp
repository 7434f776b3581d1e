// The kernel client paths for real, in the lab guest (a Debian 12 kernel under qemu TCG with the
// iscsi_tcp and NFS client modules this machine's kernel lacks): a campaign exports a directory
// layout through tgtd (with CHAP) and a campaign-started nfs-ganesha on this machine, and runs
// fio through the guest's kernel initiator (iscsiadm discovery, login, the LUN's disk found in
// sysfs) and its NFS client (mount -t nfs vers=4.1) as a [[clients]] entry reached over SSH. The
// guest reaches the host at 10.0.2.2 (qemu user networking). Afterwards the guest has no session,
// node record or mount left, and the host no target and no ganesha. Meanwhile the CHAP secret is
// in no process's argv or environment, here (a sampler thread) or in the guest (a sampler loop
// there): tgtd gets it from lb-tgt-account, iscsiadm through the node record written from stdin.
// Skipped, saying why, when the lab guest cannot be built or qemu is missing.
#include "engine/campaign/campaign.h"
#include "engine/exec/runner.h"
#include "engine/exec/ssh_runner.h"
#include "engine/scenario/scenario.h"
#include "engine/store/store.h"
#include "probes/registry.h"
#include "tests/cli/process.h"
#include "tests/support/lab_guest.h"
#include "tests/support/proc_sampler.h"
#include "tests/support/tgtd.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <map>
#include <string>

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const std::string root = "/var/tmp/layoutbench-test-export-guest";
const std::string secret = "guest-chap-secret-42";
constexpr int portal = 13264;

lb::ProcessResult inGuest(lb::Runner& guest, const std::string& script,
                          const std::string& secretStdin = {}) {
    lb::Command c;
    c.program = "sh";
    c.args = {"-c", script};
    c.timeout = std::chrono::seconds(60);
    c.secretStdin = secretStdin;
    auto r = guest.run(c);
    EXPECT_TRUE(r) << r.error().message;
    return r ? *r : lb::ProcessResult{};
}

// In the guest, a loop that reads every /proc/PID/cmdline and environ, round after round, and
// keeps the lines holding the secret (given on stdin, kept in a 0600 file, never an argument):
// /tmp/lb-sampler/{hits,rounds}, and saw-fio once fio's own argv was seen.
constexpr const char* guestSamplerStart =
    "umask 077; mkdir -p /tmp/lb-sampler && cd /tmp/lb-sampler || exit 1; "
    "IFS= read -r s; printf '%s\\n' \"$s\" > pattern; : > hits; echo 0 > rounds; rm -f stop "
    "stopped saw-fio; "
    "( n=0; while [ ! -e stop ]; do "
    "cat /proc/[0-9]*/cmdline /proc/[0-9]*/environ 2>/dev/null | tr '\\000' '\\n' > snap; "
    "grep -F -f pattern snap >> hits; grep -qx fio snap && : > saw-fio; "
    "n=$((n+1)); echo $n > rounds; done; : > stopped ) </dev/null >/dev/null 2>&1 &";
constexpr const char* guestSamplerStop =
    "cd /tmp/lb-sampler && : > stop && i=0; while [ ! -e stopped ] && [ $i -lt 300 ]; do "
    "sleep 0.1; i=$((i+1)); done; echo \"rounds $(cat rounds) hits $(grep -c . hits) "
    "fio $([ -e saw-fio ] && echo seen || echo unseen)\"; cd / && rm -rf /tmp/lb-sampler";

TEST(ExportToTheLabGuest, KernelIscsiAndNfsClientsInTheGuestRunFioOnTheExport) {
    fs::remove_all(root);
    fs::create_directories(root + "/layout");
    lb::test::LabGuestOptions options;
    options.restrictNetwork = false; // it reaches this machine's 127.0.0.1 at 10.0.2.2
    lb::test::LabGuest guest(options);
    if (!guest.available())
        GTEST_SKIP() << "no lab guest: " << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why() << "\n" << guest.consoleLog();
    std::cout << "[ guest    ] booted in " << guest.bootSeconds() << " s, " << guest.sshUrl()
              << "\n";
    auto guestRunner = lb::makeSshRunner(guest.target());
    // What a Debian client has running: iscsid (socket-activated there), the client modules and
    // sd_mod for the LUN's disk (udev loads it there; the guest has no udev).
    const auto ready =
        inGuest(*guestRunner, "modprobe iscsi_tcp && modprobe sd_mod && modprobe nfsv4 && iscsid");
    ASSERT_EQ(ready.exitCode, 0) << ready.stderrText;

    lb::test::Tgtd tgtd(root + "/tgtd", portal, portal);
    ASSERT_TRUE(tgtd.available()) << tgtd.why();
    lb::test::ChildDaemon rpcbind;
    if (!lb::test::tcpListening("127.0.0.1", 111)) {
        std::string why;
        ASSERT_TRUE(rpcbind.start({"rpcbind", "-f", "-w"}, root + "/rpcbind.log",
                                  root + "/rpcbind.pid", &why))
            << why;
        ASSERT_TRUE(lb::test::waitForTcp("127.0.0.1", 111, 10s));
    }
    ASSERT_FALSE(lb::test::tcpListening("127.0.0.1", 2049)) << "another NFS server runs here";

    const std::string text = R"(name = "export-guest"
iterations = 1
drop_caches = false
work_dir = ")" + root + R"(/work"

[[layouts]]
name = "exp-guest"
kind = "dir"
path = ")" + root + R"(/layout"
baseline = true
[layouts.export]
address = "10.0.2.2"
iscsi = "tgt"
lun_size = "64M"
portal_port = 13264
tgt_control_port = 13264
chap_user = "lab"
chap_password = ")" + secret +
                             R"("
nfs = "ganesha"

[[clients]]
name = "lab"
target = ")" + guest.sshUrl() +
                             R"("
identity = ")" + guest.identity() +
                             R"("
known_hosts = ")" + guest.knownHosts() +
                             R"("

[[workloads]]
name = "lun"
probe = "fio"
preset = "rand-read-4k-qd32"
size = "32M"
runtime = 3
target = "iscsi"
clients = "lab"

[[workloads]]
name = "nfs"
probe = "fio"
preset = "seq-write-1m"
size = "32M"
runtime = 3
target = "nfs"
nfs_version = "4.1"
clients = "lab"
)";
    std::ofstream(root + "/scenario.toml") << text;
    const lb::ProbeRegistry probes = lb::standardProbes();
    auto scenario = lb::loadScenario(root + "/scenario.toml", probes);
    ASSERT_TRUE(scenario) << scenario.error().message;
    auto store = lb::Store::open(root + "/results.db");
    ASSERT_TRUE(store) << store.error().message;
    auto runner = lb::makeLocalRunner();
    // The campaign runs lb-tgt-account by name, as on a server where it is installed.
#ifdef LAYOUTBENCH_TGT_ACCOUNT
    setenv("PATH",
           (fs::path(LAYOUTBENCH_TGT_ACCOUNT).parent_path().string() + ":" + std::getenv("PATH"))
               .c_str(),
           1);
#endif
    ASSERT_EQ(inGuest(*guestRunner, guestSamplerStart, secret + "\n").exitCode, 0);
    lb::test::ProcSampler sampler({secret});
    const auto start = std::chrono::steady_clock::now();
    const auto result = lb::runCampaign(*store, *scenario, probes, *runner, {});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    sampler.stop();
    const auto guestHits = inGuest(*guestRunner, "grep -c . /tmp/lb-sampler/hits").stdoutText;
    // The guest's sampler does find a secret where one is: a process holding it in argv.
    inGuest(*guestRunner, "sleep 3; : \"$0\"; true " + secret);
    const auto guestSampled = inGuest(*guestRunner, guestSamplerStop).stdoutText;
    ASSERT_TRUE(result) << result.error().message;
    // No process here or in the guest had the secret in its argv or environment.
    EXPECT_TRUE(sampler.leaks().empty()) << sampler.leaks().front();
    EXPECT_GT(sampler.rounds(), 100u);
    EXPECT_EQ(guestHits, "0\n");
    EXPECT_NE(guestSampled.find(" fio seen"), std::string::npos) << guestSampled;
    EXPECT_EQ(guestSampled.find("rounds 0 "), std::string::npos) << guestSampled;
    EXPECT_EQ(guestSampled.find(" hits 0 "), std::string::npos)
        << "the guest's sampler missed a secret in argv: " << guestSampled;
    std::cout << "[ sampled  ] here " << sampler.rounds() << " rounds; in the guest "
              << guestSampled;

    std::map<std::string, std::map<std::string, double>> metrics;
    auto runs = store->storedRuns({result->campaignId, lb::RunQuery::Output::All});
    ASSERT_TRUE(runs) << runs.error().message;
    ASSERT_EQ(runs->size(), 2u);
    for (const auto& r : *runs) {
        EXPECT_EQ(r.status, lb::RunStatus::Ok) << r.workload << ": " << r.reason << "\n"
                                               << r.stderrText;
        for (const auto& word : r.argv)
            EXPECT_EQ(word.find(secret), std::string::npos);
        auto measured = store->runMetrics(r.id);
        ASSERT_TRUE(measured);
        for (const auto& m : *measured)
            metrics[r.workload][m.name] = m.value;
    }
    const double iops = metrics["lun"]["iscsi.rand-read-4k-qd32.read.iops"];
    const double bw = metrics["nfs"]["nfs.seq-write-1m.write.bw"];
    EXPECT_GT(iops, 10);
    EXPECT_GT(bw, 1e5);
    std::cout << "[ FIGURES  ] lab guest (TCG) kernel clients against this machine: iSCSI 4k "
                 "randread qd32 "
              << iops << " IOPS, NFSv4.1 1M seq write " << bw / 1e6 << " MB/s; campaign " << seconds
              << " s\n";
    EXPECT_EQ(result->status, lb::CampaignStatus::Done);

    // Nothing left in the guest: no session, no node record (it held the secret), no mount.
    EXPECT_NE(inGuest(*guestRunner, "iscsiadm -m session 2>&1").stdoutText.find("No active"),
              std::string::npos);
    EXPECT_EQ(inGuest(*guestRunner, "grep -c ' nfs4 ' /proc/mounts").stdoutText, "0\n");
    const auto nodes = inGuest(*guestRunner, "iscsiadm -m node 2>&1; grep -r . /etc/iscsi/nodes "
                                             "/var/lib/iscsi 2>/dev/null");
    EXPECT_EQ(nodes.stdoutText.find(secret), std::string::npos) << nodes.stdoutText;
    // Nor on this machine: no target, no ganesha.
    const auto targets = lb::test::runProcess({"tgtadm", "-C", std::to_string(portal), "--lld",
                                               "iscsi", "--op", "show", "--mode", "target"});
    EXPECT_EQ(targets.out, "");
    EXPECT_FALSE(lb::test::tcpListening("127.0.0.1", 2049));
    rpcbind.stop();
    fs::remove_all(root);
}

} // namespace
