// What the campaign learns of a target (engine/campaign/campaign_target.cpp), through a runner
// that answers as the system would: a FreeBSD guest under a Linux host is asked as FreeBSD
// (sysctl hw.physmem), so bonnie++ in it is sized by its own memory. It used to be asked as the
// host's Linux (/proc/meminfo, which FreeBSD has not), its memory read as 0.
#include "engine/campaign/campaign_internal.h"
#include "probes/registry.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace lb {
namespace {

// A FreeBSD machine of 28 GiB: uname -s and sysctl answer, the rest fails as it would there.
class FreeBsdGuest : public Runner {
public:
    Expected<ProcessResult> run(const Command& cmd, const RunOptions&) override {
        asked.push_back(cmd.toUserOutput());
        ProcessResult r;
        r.exitCode = 1;
        if (cmd.program == "uname" && cmd.args == std::vector<std::string>{"-s"})
            r = answer("FreeBSD\n");
        else if (cmd.program == "sysctl" &&
                 cmd.args == std::vector<std::string>{"-n", "hw.physmem"})
            r = answer("30064771072\n");
        return r;
    }
    std::string target() const override { return "ssh://root@freebsd-zfs"; }
    std::vector<std::string> asked;

private:
    static ProcessResult answer(std::string out) {
        ProcessResult r;
        r.exitCode = 0;
        r.stdoutText = std::move(out);
        return r;
    }
};

TEST(CampaignTarget, AFreeBsdGuestUnderALinuxHostIsAskedItsMemoryAsFreeBsd) {
    const ProbeRegistry probes = standardProbes();
    Scenario scenario;
    scenario.host.os = TargetOs::Linux; // the campaign sets it from the host before the guests
    FreeBsdGuest guest;
    const auto inside = campaign::inspectTarget(guest, scenario, probes, TargetOs::FreeBsd);
    EXPECT_EQ(inside.ramBytes, 28ULL << 30);
    EXPECT_EQ(inside.inventory["os"], "freebsd");
    EXPECT_EQ(std::count(guest.asked.begin(), guest.asked.end(), "cat /proc/meminfo"), 0);
    // Asked as Linux, the same machine has no memory to tell.
    FreeBsdGuest asLinux;
    EXPECT_EQ(campaign::inspectTarget(asLinux, scenario, probes, TargetOs::Linux).ramBytes, 0U);
}

} // namespace
} // namespace lb
