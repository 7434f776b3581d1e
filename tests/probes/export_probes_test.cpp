// Workloads on a layout's export and on client hosts, as command plans: fio through the kernel
// iSCSI initiator (discovery, CHAP on the node record, login, the LUN's disk found in sysfs,
// logout) and the kernel NFS client (mount with the scenario's options, unmount), fio on three
// clients at once through its client/server mode, and netload's URLs made from the export.
// The plans are golden files (tests/data/plans/probe-*.txt) because this machine's kernel has no
// iscsi_tcp and no NFS client; tests/guest runs them for real inside the lab guest. Regenerate
// with LAYOUTBENCH_UPDATE_GOLDEN=1 and read the diff. Also: the CHAP secret is a masked argument
// everywhere it appears, and metric names follow the target and the clients.
#include "engine/measure/probe.h"
#include "probes/registry.h"
#include "tests/support/plan_golden.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace lb {
namespace {

using test::expectGolden;

const std::string secret = "s3cret-chap-pw";

const Probe& probe(const std::string& name) {
    static const ProbeRegistry r = standardProbes();
    return *r.find(name);
}

Expected<OptionValues> options(const Probe& p,
                               const std::map<std::string, RawOption::Value>& values) {
    std::map<std::string, RawOption> raw;
    for (const auto& [name, value] : values)
        raw[name] = RawOption{value, 1, 1};
    auto v = validateOptions(p.options(), raw, "test.toml");
    if (!v)
        return v;
    if (auto ok = p.validate(*v, "test.toml:1"); !ok)
        return fail(ok.error());
    return v;
}

WorkloadContext exported() {
    WorkloadContext ctx;
    ctx.workdir = "/srv/lb/mnt-raidz2";
    ctx.layoutName = "raidz2";
    ctx.exported.iscsiPortal = "192.0.2.10:3260";
    ctx.exported.iqn = "iqn.2026-11.org.layoutbench:raidz2";
    ctx.exported.lun = 1;
    ctx.exported.chapUser = "xen";
    ctx.exported.chapPassword = secret;
    ctx.exported.nfsServer = "192.0.2.10";
    ctx.exported.nfsPath = "/srv/lb/mnt-raidz2";
    ctx.exported.nfsVersions = {3, 4};
    return ctx;
}

std::string described(const MeasuredCommand& mc) {
    std::ostringstream out;
    for (const auto& c : mc.clientPrepare)
        out << "client " << c.client << ": " << c.command.toUserOutput() << "\n";
    for (const auto& c : mc.prepare)
        out << "prepare: " << c.toUserOutput() << "\n";
    out << "run: " << (mc.command.cwd.empty() ? "" : "(in " + mc.command.cwd + ") ")
        << mc.command.toUserOutput() << "\n";
    for (const auto& c : mc.cleanup)
        out << "cleanup: " << c.toUserOutput() << "\n";
    for (const auto& c : mc.clientCleanup)
        out << "client " << c.client << " after: " << c.command.toUserOutput() << "\n";
    for (const auto& c : mc.caveats)
        out << "caveat: " << c << "\n";
    return out.str();
}

// The secret is passed, on stdin only: never in an argument or the environment of any command,
// and nowhere in what is shown.
void expectSecretOnStdinOnly(const MeasuredCommand& mc) {
    std::vector<const Command*> all{&mc.command};
    for (const auto& c : mc.prepare)
        all.push_back(&c);
    for (const auto& c : mc.cleanup)
        all.push_back(&c);
    int carrying = 0;
    for (const Command* c : all) {
        if (c->secretStdin.find(secret) != std::string::npos)
            ++carrying;
        for (const auto& a : c->args)
            EXPECT_EQ(a.find(secret), std::string::npos) << c->toUserOutput();
        for (const auto& [name, value] : c->env)
            EXPECT_EQ(value.find(secret), std::string::npos) << name;
        for (const auto& word : c->argvForDisplay())
            EXPECT_EQ(word.find(secret), std::string::npos) << word;
        EXPECT_EQ(c->toUserOutput().find(secret), std::string::npos);
    }
    EXPECT_GT(carrying, 0) << "the secret is not passed at all";
}

TEST(ExportProbes, FioThroughTheKernelInitiatorWithChap) {
    const auto o = options(probe("fio"), {{"preset", std::string("rand-read-4k-qd32")},
                                          {"target", std::string("iscsi")},
                                          {"net_timeout", std::int64_t{20}}});
    ASSERT_TRUE(o) << o.error().message;
    const auto mc = probe("fio").command(*o, exported());
    ASSERT_TRUE(mc) << mc.error().message;
    expectSecretOnStdinOnly(*mc);
    // The wait for the LUN's disk gets 10 s more than each step.
    for (const auto& c : mc->prepare)
        EXPECT_EQ(c.timeout,
                  std::chrono::milliseconds(
                      c.args.size() > 1 && c.args[1].starts_with("lbdev") ? 30000 : 20000))
            << c.toUserOutput();
    expectGolden("probe-fio-kernel-iscsi-chap", described(*mc));
}

TEST(ExportProbes, FioJobFileOnTheLunSeesItAsLbDevice) {
    const auto o = options(probe("fio"), {{"job_file", std::string("/srv/jobs/vm-mix.fio")},
                                          {"target", std::string("iscsi")}});
    ASSERT_TRUE(o) << o.error().message;
    auto ctx = exported();
    ctx.exported.chapUser.clear();
    ctx.exported.chapPassword.clear();
    const auto mc = probe("fio").command(*o, ctx);
    ASSERT_TRUE(mc) << mc.error().message;
    EXPECT_EQ(mc->command.program, "sh");
    EXPECT_EQ(mc->command.args.back(), "/srv/jobs/vm-mix.fio");
    EXPECT_NE(mc->command.args[1].find("export LB_DEVICE="), std::string::npos);
    EXPECT_EQ(mc->command.args[1].find("--filename"), std::string::npos);
    expectGolden("probe-fio-kernel-iscsi-job-file", described(*mc));
}

TEST(ExportProbes, FioThroughTheKernelNfsClient) {
    const auto o = options(probe("fio"), {{"preset", std::string("seq-write-1m")},
                                          {"target", std::string("nfs")},
                                          {"nfs_version", std::string("4.1")},
                                          {"rsize", std::string("256k")},
                                          {"wsize", std::string("256k")},
                                          {"mount_options", std::string("nconnect=4,hard")}});
    ASSERT_TRUE(o) << o.error().message;
    const auto mc = probe("fio").command(*o, exported());
    ASSERT_TRUE(mc) << mc.error().message;
    EXPECT_EQ(mc->command.cwd, "/mnt/layoutbench/seq-write-1m");
    expectGolden("probe-fio-kernel-nfs", described(*mc));
}

TEST(ExportProbes, FioOnThreeClientsAtOnceOnTheNfsExport) {
    const auto o = options(probe("fio"), {{"preset", std::string("rand-read-4k-qd1")},
                                          {"size", std::string("64M")},
                                          {"runtime", std::int64_t{5}},
                                          {"target", std::string("nfs")}});
    ASSERT_TRUE(o) << o.error().message;
    auto ctx = exported();
    for (int i = 1; i <= 3; ++i)
        ctx.clients.push_back({"vm" + std::to_string(i), "192.0.2." + std::to_string(20 + i), 8765,
                               "/var/tmp/layoutbench-client"});
    EXPECT_TRUE(probe("fio").drivesClients());
    const auto mc = probe("fio").command(*o, ctx);
    ASSERT_TRUE(mc) << mc.error().message;
    EXPECT_EQ(mc->command.program, "fio");
    EXPECT_EQ(mc->clientPrepare.size(), 3u * 5u);
    expectGolden("probe-fio-three-clients-nfs", described(*mc));
}

TEST(ExportProbes, FioOnClientsIsNamedByClientAndTarget) {
    const auto o = options(probe("fio"), {{"preset", std::string("rand-read-4k-qd1")},
                                          {"target", std::string("nfs")}});
    ASSERT_TRUE(o) << o.error().message;
    auto ctx = exported();
    ctx.clients = {{"a", "127.0.0.1", 8765, "/tmp"},
                   {"b", "127.0.0.1", 8766, "/tmp"},
                   {"c", "127.0.0.1", 8767, "/tmp"}};
    ProcessResult r;
    std::ifstream in(std::string(LAYOUTBENCH_TEST_DATA_DIR) + "/fio/3.33/client_server.json");
    std::stringstream text;
    text << in.rdbuf();
    r.exitCode = 0;
    r.stdoutText = text.str();
    // The capture's clients are 127.0.0.1:8765..8767.
    const auto parsed = probe("fio").parseFor(r, {}, *o, ctx);
    ASSERT_TRUE(parsed) << parsed.error().message;
    std::set<std::string> names;
    for (const auto& m : parsed->metrics)
        names.insert(m.name);
    bool perClient = false, aggregate = false;
    for (const auto& n : names) {
        EXPECT_TRUE(n.rfind("nfs.", 0) == 0) << n;
        EXPECT_EQ(n.find("127.0.0.1"), std::string::npos) << n;
        perClient = perClient || n.find("@a.") != std::string::npos;
        aggregate = aggregate || n.find('@') == std::string::npos;
    }
    EXPECT_TRUE(perClient);
    EXPECT_TRUE(aggregate);
}

TEST(ExportProbes, NetloadUrlsComeFromTheExport) {
    const auto iscsi = options(probe("netload"), {{"target", std::string("iscsi")},
                                                  {"rw", std::string("randread")},
                                                  {"runtime", std::int64_t{5}},
                                                  {"job", std::string("lun-randread")}});
    ASSERT_TRUE(iscsi) << iscsi.error().message;
    const auto mc = probe("netload").command(*iscsi, exported());
    ASSERT_TRUE(mc) << mc.error().message;
    EXPECT_EQ(mc->command.args.front(),
              "iscsi://192.0.2.10:3260/iqn.2026-11.org.layoutbench:raidz2/1");
    expectSecretOnStdinOnly(*mc);
    EXPECT_EQ(mc->command.secretStdin, secret + "\n");
    EXPECT_EQ(mc->command.toUserOutput(),
              "lb-netload iscsi://192.0.2.10:3260/iqn.2026-11.org.layoutbench:raidz2/1 "
              "--chap-user=xen --chap-secret-fd=0 --rw=randread --bs=4096 --iodepth=32 "
              "--runtime=5 --name=lun-randread --timeout=10 <<< ****");

    const auto nfs = options(probe("netload"), {{"target", std::string("nfs")},
                                                {"rw", std::string("write")},
                                                {"size", std::string("16M")},
                                                {"file", std::string("w.dat")},
                                                {"nfs_version", std::string("4")}});
    ASSERT_TRUE(nfs) << nfs.error().message;
    const auto mcNfs = probe("netload").command(*nfs, exported());
    ASSERT_TRUE(mcNfs) << mcNfs.error().message;
    EXPECT_EQ(mcNfs->command.args.front(), "nfs://192.0.2.10/srv/lb/mnt-raidz2/w.dat?version=4");

    // A CHAP secret written into a URL would be on lb-netload's command line: refused, unechoed.
    const auto inUrl = options(probe("netload"),
                               {{"url", "iscsi://xen%" + secret + "@192.0.2.10/iqn.2026-11.x:y/1"},
                                {"runtime", std::int64_t{5}}});
    ASSERT_FALSE(inUrl);
    EXPECT_EQ(inUrl.error().kind, ErrorKind::BadInput);
    EXPECT_NE(inUrl.error().message.find("give no user or secret in the URL"), std::string::npos)
        << inUrl.error().message;
    EXPECT_EQ(inUrl.error().message.find(secret), std::string::npos) << inUrl.error().message;

    WorkloadContext none;
    const auto missing = probe("netload").command(*iscsi, none);
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().message, "netload: the layout has no iSCSI export");
}

TEST(ExportProbes, TargetOptionsAreCheckedTogether) {
    const auto both = options(probe("netload"), {{"target", std::string("nfs")},
                                                 {"url", std::string("nfs://h/e/f")},
                                                 {"runtime", std::int64_t{1}}});
    ASSERT_FALSE(both);
    EXPECT_EQ(both.error().message,
              "test.toml:1: workloads.url: give exactly one of url or target");
    const auto fileWithoutNfs = options(probe("netload"), {{"target", std::string("iscsi")},
                                                           {"file", std::string("f")},
                                                           {"runtime", std::int64_t{1}}});
    ASSERT_FALSE(fileWithoutNfs);
    EXPECT_EQ(fileWithoutNfs.error().message,
              "test.toml:1: workloads.file: only a workload with target = \"nfs\" takes it");
    const auto rsizeOnIscsi = options(probe("fio"), {{"preset", std::string("seq-read-1m")},
                                                     {"target", std::string("iscsi")},
                                                     {"rsize", std::string("64k")}});
    ASSERT_FALSE(rsizeOnIscsi);
    EXPECT_EQ(rsizeOnIscsi.error().message,
              "test.toml:1: workloads.rsize: only a workload with target = \"nfs\" mounts NFS");
}

} // namespace
} // namespace lb
