// cleanupCampaign (engine/campaign/cleanup.h) on a journal made by applyPlan through recording
// runners: a guest layout's steps are undone inside the guest, then the host's, newest first; the
// campaign left running is marked aborted; cleaning up again does nothing; an unknown campaign is
// bad input; a campaign in use (its lock held) is refused. The command line's tests run it on real
// zfs-fuse pools (tests/integration/cleanup_test.cpp).
#include "engine/build/plan.h"
#include "engine/campaign/campaign.h"
#include "engine/campaign/campaign_lock.h"
#include "engine/campaign/cleanup.h"
#include "engine/store/store.h"
#include "probes/registry.h"

#include <filesystem>
#include <functional>
#include <gtest/gtest.h>

using namespace lb;

namespace {

const char* scenarioText = R"(name = "cleanup"
work_dir = "/srv/lb"

[[disks]]
name = "ssd-b"
device = "/dev/sdb"

[[layouts]]
name = "base"
kind = "dir"
path = "/srv/base"
baseline = true

[[layouts]]
name = "kvm"
kind = "guest"
disks = ["ssd-b"]
[layouts.guest]
hypervisor = "libvirt"
domain = "storage-vm"
target = "ssh://root@storage-vm"
layout = "xfs"
disk = "/dev/vdb"

[[workloads]]
probe = "xz"
)";

// Passes commands to a recorder the test keeps, under the target it was made for.
class Forwarding : public Runner {
public:
    Forwarding(RecordingRunner& to, std::string target,
               std::function<bool(const Command&)> unreachable = {})
        : to_(to), target_(std::move(target)), unreachable_(std::move(unreachable)) {}
    Expected<ProcessResult> run(const Command& cmd, const RunOptions& opts) override {
        if (unreachable_ && unreachable_(cmd))
            return runtimeError(target_ + ": ssh: connect to host: Connection refused");
        return to_.run(cmd, opts);
    }
    std::string target() const override { return target_; }

private:
    RecordingRunner& to_;
    std::string target_;
    std::function<bool(const Command&)> unreachable_;
};

PlanStep step(std::string program, std::string arg, std::string undoProgram) {
    PlanStep s;
    s.description = program + " " + arg;
    s.command = Command::timed(std::move(program), {arg}, std::chrono::minutes(1));
    s.undo = Command::timed(std::move(undoProgram), {std::move(arg)}, std::chrono::minutes(1));
    return s;
}

std::vector<std::string> shown(const RecordingRunner& r) {
    std::vector<std::string> out;
    for (const auto& c : r.commands())
        out.push_back(c.toUserOutput());
    return out;
}

// The command that stops the tools a campaign left running: a shell script over the tracking
// directory's files for that tag.
bool stopsToolsTagged(const Command& c, const std::string& tag) {
    const std::string text = c.toUserOutput();
    return c.program == "sh" && text.find("layoutbench-tools") != std::string::npos &&
           text.find("/" + tag + ".*") != std::string::npos;
}

class Cleanup : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("lb-cleanup-" +
                std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        auto s = Store::open((dir_ / "results.db").string());
        ASSERT_TRUE(s) << s.error().message;
        store_.emplace(std::move(*s));
        // A campaign killed while its guest layout was built: the host's part (the VM gets the
        // disk) and the guest's (a file system made and mounted) applied.
        auto id = store_->createCampaign({"cleanup", "/srv/cleanup.toml", scenarioText});
        ASSERT_TRUE(id) << id.error().message;
        campaign_ = *id;
        auto layout = store_->ensureLayout("kvm", "guest", "{}", std::nullopt);
        ASSERT_TRUE(layout);
        LayoutPlan host{
            "kvm", "/srv/lb", RunsOn::Host, {step("virsh-attach", "vdb", "virsh-detach")}};
        LayoutPlan guest{
            "kvm",
            "/mnt/lb",
            RunsOn::Guest,
            {step("mkfs.xfs", "/dev/vdb", "wipefs"), step("mount", "/mnt/lb", "umount")}};
        RecordingRunner build;
        ASSERT_TRUE(applyPlan(*store_, build, campaign_, *layout, host));
        ASSERT_TRUE(applyPlan(*store_, build, campaign_, *layout, guest));
    }
    void TearDown() override {
        store_.reset();
        std::filesystem::remove_all(dir_);
    }

    CleanupOptions options() {
        CleanupOptions o;
        o.makeRunner = [this](const std::string& target, const std::string&,
                              const std::string&) -> Expected<std::unique_ptr<Runner>> {
            if (target == "local")
                return std::unique_ptr<Runner>(
                    std::make_unique<Forwarding>(host_, target, hostUnreachableFor_));
            return std::unique_ptr<Runner>(std::make_unique<Forwarding>(guest_, target));
        };
        return o;
    }

    std::filesystem::path dir_;
    std::optional<Store> store_;
    std::int64_t campaign_ = 0;
    RecordingRunner host_, guest_;
    std::function<bool(const Command&)> hostUnreachableFor_;
};

TEST_F(Cleanup, UndoesTheGuestInsideItThenTheHostAndMarksTheCampaignAborted) {
    auto r = cleanupCampaign(*store_, campaign_, standardProbes(), options());
    ASSERT_TRUE(r) << r.error().message;
    // Each place is first asked to stop the campaign's tools left running there (by its tag),
    // then undoes what was applied there, the guest before the host.
    const std::string tag = campaignToolTag(store_->path(), campaign_);
    ASSERT_EQ(guest_.commands().size(), 3U);
    EXPECT_TRUE(stopsToolsTagged(guest_.commands()[0], tag));
    EXPECT_EQ(shown(guest_),
              (std::vector<std::string>{shown(guest_)[0], "umount /mnt/lb", "wipefs /dev/vdb"}));
    ASSERT_EQ(host_.commands().size(), 2U);
    EXPECT_TRUE(stopsToolsTagged(host_.commands()[0], tag));
    EXPECT_EQ(shown(host_), (std::vector<std::string>{shown(host_)[0], "virsh-detach vdb"}));
    EXPECT_EQ(r->undone, (std::vector<std::string>{"[ssh://root@storage-vm] umount /mnt/lb",
                                                   "[ssh://root@storage-vm] wipefs /dev/vdb",
                                                   "virsh-detach vdb"}));
    EXPECT_TRUE(r->problems.empty());
    EXPECT_EQ(r->statusBefore, CampaignStatus::Running);
    EXPECT_EQ(r->status, CampaignStatus::Aborted);
    auto campaigns = store_->campaigns();
    ASSERT_TRUE(campaigns);
    EXPECT_EQ(campaigns->at(0).status, CampaignStatus::Aborted);
    EXPECT_FALSE(campaigns->at(0).finishedAt.empty());

    // Again: nothing is left to undo, nothing runs.
    auto again = cleanupCampaign(*store_, campaign_, standardProbes(), options());
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_TRUE(again->undone.empty());
    EXPECT_EQ(again->statusBefore, CampaignStatus::Aborted);
    EXPECT_EQ(again->status, CampaignStatus::Aborted);
    // Only the host is asked again for left tools; nothing is undone and no guest is contacted.
    ASSERT_EQ(host_.commands().size(), 3U);
    EXPECT_TRUE(stopsToolsTagged(host_.commands()[2], tag));
    EXPECT_EQ(guest_.commands().size(), 3U);
}

TEST_F(Cleanup, AHostThatCannotBeAskedForLeftToolsIsAProblemKeptWithTheUndos) {
    const std::string tag = campaignToolTag(store_->path(), campaign_);
    hostUnreachableFor_ = [tag](const Command& c) { return stopsToolsTagged(c, tag); };
    auto r = cleanupCampaign(*store_, campaign_, standardProbes(), options());
    ASSERT_TRUE(r) << r.error().message;
    // The undos still ran, and what could not be asked is said, not lost behind them.
    EXPECT_EQ(r->undone, (std::vector<std::string>{"[ssh://root@storage-vm] umount /mnt/lb",
                                                   "[ssh://root@storage-vm] wipefs /dev/vdb",
                                                   "virsh-detach vdb"}));
    ASSERT_EQ(r->problems.size(), 1U);
    EXPECT_NE(r->problems[0].find("Connection refused"), std::string::npos) << r->problems[0];
    EXPECT_TRUE(r->stoppedTools.empty());
}

TEST_F(Cleanup, UnknownCampaignIsBadInputNamingTheField) {
    auto r = cleanupCampaign(*store_, 99, standardProbes(), options());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(r.error().message, "campaign: no campaign 99 in " + store_->path());
}

TEST_F(Cleanup, CampaignInUseIsRefusedAndNothingRuns) {
    auto held = acquireCampaignLock(store_->path(), campaign_);
    ASSERT_TRUE(held) << held.error().message;
    auto r = cleanupCampaign(*store_, campaign_, standardProbes(), options());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::Runtime);
    EXPECT_NE(r.error().message.find("campaign " + std::to_string(campaign_) + " is in use"),
              std::string::npos)
        << r.error().message;
    EXPECT_TRUE(host_.commands().empty());
    EXPECT_TRUE(guest_.commands().empty());
    // Another campaign's lock is another byte: not held.
    EXPECT_TRUE(acquireCampaignLock(store_->path(), campaign_ + 1));
}

} // namespace
