// A ZFS layout served over iSCSI and NFS from OpenZFS 2.3 in the lab guest, as a storage server
// serves one: the campaign builds a raidz1 on the guest's whole disks over SSH, a zvol of the pool
// as the LUN of a tgt target and the pool's dataset as a kernel NFS export; the guest's own
// kernel initiator (open-iscsi) and NFS client, reached as a [[clients]] entry over SSH, run fio
// on them at the guest's own address (10.0.2.15 on qemu's user network). The servers (tgtd,
// rpcbind, nfsd and its mountd) are started first as a server's administrator starts them. NFSv3:
// the kernel's NFSv4 server reaches an export through a pseudo root built from / down, and this
// guest's / is the initramfs (ramfs, which nfsd cannot export) with /tmp a tmpfs without a UUID, so
// every NFSv4 mount is refused with "No such file or directory"; on a server whose / is a disk file
// system it is not. Checked: the figures came through the export, the journal built pool, zvol,
// target, LUN and export in that order and undid them in reverse, and afterwards the guest has no
// target, export, zvol, pool, session or mount.
#include "engine/exec/ssh_runner.h"
#include "engine/store/journal.h"
#include "engine/store/store.h"
#include "tests/openzfs/openzfs_fixture.h"
#include "tests/support/stored_runs.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace {

using lb::test::LabGuest;
using lb::test::MiB;
using nlohmann::json;

// The servers' guest, reached over SSH, and what the campaign there is checked against.
class OpenZfsExport : public lb::test::OpenZfsCampaign {
protected:
    // A shell command in the guest (its input on stdin).
    lb::ProcessResult inGuest(const std::string& script, const std::string& input = {}) {
        lb::Command c{"sh", {"-c", script}};
        c.timeout = std::chrono::seconds(120);
        c.secretStdin = input;
        auto r = runner_->run(c);
        EXPECT_TRUE(r) << r.error().message;
        return r ? *r : lb::ProcessResult{};
    }

    // The raidz1 of the guest's three disks, exported, and the two workloads on the guest as a
    // client: the preset on the LUN, the job file `job` on the NFS export.
    static std::string scenarioText(const LabGuest& guest, const std::string& job) {
        std::string toml = header(guest, "openzfs-export", 3);
        toml.replace(toml.find("iterations = 2"), 14, "iterations = 1");
        toml += R"(
[[layouts]]
name = "raidz1"
kind = "zfs-raidz1"
baseline = true
disks = )" + diskList(0, 3) +
                R"(
[layouts.export]
address = "10.0.2.15"
iscsi = "tgt"
lun = "zvol"
lun_size = "64M"
nfs = "kernel"

[[clients]]
name = "guest"
target = ")" + guest.sshUrl() +
                R"("
identity = ")" + guest.identity() +
                R"("
known_hosts = ")" +
                guest.knownHosts() +
                R"("

[[workloads]]
name = "lun"
probe = "fio"
preset = "rand-write-4k-qd32"
size = "32M"
runtime = 3
target = "iscsi"
clients = "guest"

[[workloads]]
name = "nfs"
probe = "fio"
job_file = ")" + job +
                R"("
target = "nfs"
nfs_version = "3"
clients = "guest"
)";
        return toml;
    }

    // The journal: pool, zvol, target, LUN, export, in that order; undone newest first, each
    // undo exiting 0.
    static void expectBuiltAndUndoneInOrder(lb::Store& store, std::int64_t campaign) {
        auto steps = lb::Journal(store).steps(campaign);
        ASSERT_TRUE(steps) << steps.error().message;
        std::vector<std::string> built, undone;
        const auto named = [](const std::vector<std::string>& argv) {
            std::string s;
            for (const auto& a : argv)
                s += (s.empty() ? "" : " ") + a;
            return s;
        };
        for (const auto& s : *steps) {
            (s.phase == lb::StepPhase::Undo ? undone : built).push_back(named(s.argv));
            if (s.phase == lb::StepPhase::Undo) {
                EXPECT_EQ(s.exitCode, 0) << named(s.argv) << ": " << s.output;
            }
        }
        const auto position = [](const std::vector<std::string>& in, const std::string& start) {
            const auto it = std::find_if(
                in.begin(), in.end(), [&](const std::string& s) { return s.starts_with(start); });
            EXPECT_NE(it, in.end()) << "no step " << start;
            return it - in.begin();
        };
        const std::vector<std::pair<std::string, std::string>> order{
            {"zpool create", "zpool destroy"},
            {"zfs create -b 16384 -V", "zfs destroy"},
            {"tgtadm --lld iscsi --op new --mode target", "tgtadm --lld iscsi --op delete --force"},
            {"tgtadm --lld iscsi --op new --mode logicalunit",
             "tgtadm --lld iscsi --op delete --mode logicalunit"},
            {"exportfs -o", "exportfs -u"}};
        for (std::size_t i = 1; i < order.size(); ++i) {
            EXPECT_LT(position(built, order[i - 1].first), position(built, order[i].first))
                << order[i].first;
            EXPECT_GT(position(undone, order[i - 1].second), position(undone, order[i].second))
                << order[i].second;
        }
    }

    // Nothing left in the guest: no target, export, zvol or pool; no session or NFS mount.
    void expectNothingLeft() {
        EXPECT_EQ(inGuest("tgtadm --lld iscsi --op show --mode target").stdoutText, "");
        EXPECT_EQ(inGuest("exportfs").stdoutText, "");
        for (const char* list : {"zfs list -H -o name", "zpool list -H -o name"}) {
            const auto listed = inGuest(list);
            EXPECT_EQ(listed.exitCode, 0) << list << ": " << listed.stderrText;
            EXPECT_EQ(listed.stdoutText, "") << list;
        }
        EXPECT_NE(inGuest("iscsiadm -m session 2>&1").stdoutText.find("No active"),
                  std::string::npos);
        EXPECT_EQ(inGuest("grep -c ' nfs ' /proc/mounts").stdoutText, "0\n");
    }

    std::unique_ptr<lb::Runner> runner_;
};

// What a Debian server's administrator (or its init scripts) runs to serve iSCSI and NFS: tgtd;
// rpcbind, the nfsd file system, the export table, the kernel's NFS threads and mountd.
constexpr const char* startServers =
    "set -e; tgtd; modprobe nfsd; mount -t nfsd nfsd /proc/fs/nfsd; rpcbind -w; exportfs -r; "
    "rpc.nfsd 4; rpc.mountd; "
    "i=0; until tgtadm --lld iscsi --op show --mode sys >/dev/null 2>&1; do "
    "i=$((i+1)); [ $i -lt 100 ] || { echo 'tgtd does not answer' >&2; exit 1; }; sleep 0.1; done";

// What a client needs of the same guest: the initiator's modules, iscsid, the NFS client.
constexpr const char* startClients =
    "modprobe iscsi_tcp && modprobe sd_mod && modprobe nfsv3 && iscsid";

// The NFS job file: random 4 KiB reads and 64 KiB writes (bs=4k,64k) on 128 KiB records.
constexpr const char* mixedJob = "[global]\nioengine=libaio\niodepth=8\ndirect=1\nsize=16M\n"
                                 "runtime=3\ntime_based=1\n\n[mixed]\nrw=randrw\nbs=4k,64k\n";

TEST_F(OpenZfsExport, ZvolOverIscsiAndDatasetOverNfsToTheGuestsKernelClients) {
    LabGuest guest(lb::test::openzfsGuestOptions(3, 256 * MiB));
    if (!guest.available())
        GTEST_SKIP() << "no OpenZFS lab guest: " << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why();
    std::printf("[ guest    ] built in %.1f s, booted in %.1f s\n", guest.buildSeconds(),
                guest.bootSeconds());
    auto runner = lb::makeRunnerFor(guest.sshUrl(), guest.identity(), guest.knownHosts());
    ASSERT_TRUE(runner) << runner.error().message;
    runner_ = std::move(*runner);
    const auto servers = inGuest(startServers);
    ASSERT_EQ(servers.exitCode, 0) << servers.stdoutText << servers.stderrText;
    const auto clients = inGuest(startClients);
    ASSERT_EQ(clients.exitCode, 0) << clients.stderrText;
    // The job file at the same path here (the workbench reads its block sizes) and in the guest
    // (where fio runs it).
    const std::string job = write("mixed.fio", mixedJob);
    ASSERT_EQ(inGuest("mkdir -p '" + dir_ + "' && cat > '" + job + "'", mixedJob).exitCode, 0);

    const auto scenario = write("scenario.toml", scenarioText(guest, job));
    const auto started = std::chrono::steady_clock::now();
    const auto r = runDestroying(scenario, 3, true);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << guest.consoleLog();

    auto store = lb::Store::open(dir_ + "/results.db");
    ASSERT_TRUE(store) << store.error().message;
    const auto campaigns = layoutbench({"list", "campaigns", "--json"});
    ASSERT_EQ(campaigns.exitCode, 0) << campaigns.err;
    const auto campaign = json::parse(campaigns.out).at(0).value("id", std::int64_t{0});
    std::map<std::string, lb::test::RunRow> runs;
    for (auto& row : lb::test::runRows(*store, campaign)) {
        EXPECT_EQ(row.status, "ok") << row.workload << ": " << row.reason << "\n" << row.err;
        runs[row.workload] = row;
    }
    ASSERT_EQ(runs.size(), 2U);

    // The figures came through the export: the LUN's writes from the kernel initiator, the NFS
    // client's reads and writes; floors far below what TCG gives, far above nothing.
    const auto metric = [&](const std::string& workload, const std::string& name) {
        const auto v = lb::test::metricValue(*store, runs[workload].id, name);
        EXPECT_TRUE(v) << workload << ": no " << name;
        return v.value_or(0);
    };
    const double lunIops = metric("lun", "iscsi.rand-write-4k-qd32.write.iops");
    const double lunLatency = metric("lun", "iscsi.rand-write-4k-qd32.write.lat_p99");
    const double nfsRead = metric("nfs", "nfs.mixed.read.bw");
    const double nfsWrite = metric("nfs", "nfs.mixed.write.bw");
    EXPECT_GT(lunIops, 10);
    EXPECT_GT(lunLatency, 0);
    EXPECT_GT(nfsRead, 10e3);
    EXPECT_GT(nfsWrite, 10e3);
    EXPECT_TRUE(lb::test::hasCaveat(runs["lun"], "through the kernel initiator"));
    EXPECT_TRUE(lb::test::hasCaveat(runs["nfs"], "mounted with the kernel client (vers=3)"));
    // What ZFS really moves for the LUN's 4 KiB blocks: the zvol's 16 KiB blocks.
    EXPECT_TRUE(lb::test::hasCaveat(runs["lun"], "4.00 KiB blocks on a zvol of 16.00 KiB blocks "
                                                 "(volblocksize)"));
    // What ZFS really moves for the job file's blocks: 4 KiB reads and 64 KiB writes on
    // 128 KiB records.
    EXPECT_TRUE(lb::test::hasCaveat(runs["nfs"], "job mixed, reads: 4.00 KiB blocks on 128.00 "
                                                 "KiB records"));
    EXPECT_TRUE(lb::test::hasCaveat(runs["nfs"], "job mixed, writes: 64.00 KiB blocks on 128.00 "
                                                 "KiB records"));

    expectBuiltAndUndoneInOrder(*store, campaign);
    expectNothingLeft();
    std::printf("[ FIGURES  ] OpenZFS %s raidz1 in the lab guest (TCG), its own kernel clients: "
                "iSCSI zvol 4k randwrite qd32 %.0f IOPS (p99 %.1f ms), NFSv3 4k/64k randrw "
                "%.2f MB/s read, %.2f MB/s written; campaign %.1f s\n",
                guest.openzfsVersion().c_str(), lunIops, lunLatency / 1e6, nfsRead / 1e6,
                nfsWrite / 1e6, seconds);
}

} // namespace
