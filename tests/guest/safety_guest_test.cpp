// Disk safety where md RAID runs: in the lab guest (qemu, TCG), a member of an assembled md array
// is refused by the campaign's guard although the scenario marks it wipe = true and the options
// name it again (--yes-destroy), the message naming the array; the array and its data are
// untouched afterwards. The inspection runs over SSH against the guest's busybox and util-linux.
// Skipped, saying why, when qemu or the guest build is unavailable.
#include "engine/campaign/campaign.h"
#include "engine/exec/ssh_runner.h"
#include "engine/scenario/scenario.h"
#include "engine/store/store.h"
#include "probes/registry.h"
#include "tests/support/lab_guest.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <string>

namespace {

namespace fs = std::filesystem;

lb::ProcessResult inGuest(lb::Runner& guest, const std::string& script) {
    auto r = guest.run(lb::Command::timed("sh", {"-c", script}, std::chrono::seconds(60)));
    EXPECT_TRUE(r) << r.error().message;
    return r ? *r : lb::ProcessResult{};
}

TEST(SafetyInTheLabGuest, AnMdMemberIsRefusedWhateverTheFlags) {
    const std::string dir = "/var/tmp/layoutbench-safety-guest-test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    lb::test::LabGuestOptions o;
    o.newDiskBytes = {64ULL << 20, 64ULL << 20};
    lb::test::LabGuest guest(o);
    if (!guest.available())
        GTEST_SKIP() << "no lab guest (md RAID runs only there): " << guest.why();
    ASSERT_TRUE(guest.running()) << guest.why() << "\n" << guest.consoleLog();
    auto runner = lb::makeRunnerFor(guest.sshUrl(), guest.identity(), guest.knownHosts());
    ASSERT_TRUE(runner) << runner.error().message;

    const auto made =
        inGuest(**runner, "mdadm --create /dev/md0 --run --level=1 --raid-devices=2 "
                          "--metadata=1.2 /dev/vda /dev/vdb 2>&1 && "
                          "dd if=/dev/urandom of=/dev/md0 bs=1M count=8 2>&1 && sync");
    ASSERT_EQ(made.exitCode, 0) << made.stdoutText << made.stderrText;
    const std::string checksum = "head -c 8388608 /dev/md0 | sha256sum";
    const auto before = inGuest(**runner, checksum).stdoutText;
    ASSERT_FALSE(before.empty());

    const std::string text = "name = \"md-in-use\"\niterations = 1\nwork_dir = \"/tmp/lb\"\n"
                             "[host]\ntarget = \"" +
                             guest.sshUrl() + "\"\nidentity = \"" + guest.identity() +
                             "\"\nknown_hosts = \"" + guest.knownHosts() + R"("

[[disks]]
name = "vda"
device = "/dev/vda"
wipe = true

[[disks]]
name = "vdb"
device = "/dev/vdb"
wipe = true

[[layouts]]
name = "tmp"
kind = "dir"
path = "/tmp"
baseline = true

[[layouts]]
name = "r1"
kind = "md-raid1"
disks = ["vda", "vdb"]
md_device = "/dev/md1"

[[workloads]]
probe = "xz"
)";
    std::ofstream(dir + "/scenario.toml") << text;
    const lb::ProbeRegistry probes = lb::standardProbes();
    auto scenario = lb::loadScenario(dir + "/scenario.toml", probes);
    ASSERT_TRUE(scenario) << scenario.error().message;
    auto store = lb::Store::open(dir + "/results.db");
    ASSERT_TRUE(store) << store.error().message;
    lb::CampaignOptions options;
    options.yesDestroy = {"/dev/vda", "/dev/vdb"};
    const auto result = lb::runCampaign(*store, *scenario, probes, **runner, options);

    ASSERT_FALSE(result.has_value()) << "a campaign over an md array's members ran";
    EXPECT_EQ(result.error().kind, lb::ErrorKind::BadInput);
    const auto& m = result.error().message;
    for (const char* disk : {"/dev/vda", "/dev/vdb"})
        EXPECT_NE(m.find(std::string("refusing to destroy ") + disk + ": it is in use: " + disk +
                         " is held by md array /dev/md0"),
                  std::string::npos)
            << m;
    std::cout << "[ refused  ] " << m << "\n";
    // The array runs on, with the same data, and nothing was built.
    const auto mdstat = inGuest(**runner, "cat /proc/mdstat").stdoutText;
    EXPECT_NE(mdstat.find("md0 : active raid1"), std::string::npos) << mdstat;
    EXPECT_EQ(mdstat.find("md1"), std::string::npos) << mdstat;
    EXPECT_EQ(inGuest(**runner, checksum).stdoutText, before);
    EXPECT_EQ(inGuest(**runner, "mdadm --examine /dev/vda >/dev/null").exitCode, 0);
    inGuest(**runner, "mdadm --stop /dev/md0");
    fs::remove_all(dir);
}

} // namespace
