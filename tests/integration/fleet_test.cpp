// A fleet through Ansible: real sshd servers on 127.0.0.1 (throwaway keys, a port and a work
// directory each) are an inventory's hosts; `layoutbench fleet run` drives ansible-playbook,
// which runs the scenario on each and fetches its database, and the merged database holds every
// host's runs under its inventory name. One host is made slower by an inventory variable the
// scenario uses (a fio rate cap): `fleet report` names it. A host that cannot be reached is
// reported while the others complete, and after the controller is killed with SIGKILL a resume
// finishes what is missing, merging nothing twice. Bounded: small fio jobs, one workload.
#include "engine/store/store.h"
#include "tests/cli/process.h"
#include "tests/support/ports.h"
#include "tests/support/sshd.h"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string root = "/var/tmp/layoutbench-test-fleet";

// The scenario every host runs; a template: each host's work directory, and a fio rate cap for
// the host whose inventory sets slow_iops.
const std::string scenarioTemplate = R"(name = "fleet"
iterations = 3
work_dir = "{{ lb_dir }}/work"
drop_caches = false

[[layouts]]
name = "dir"
kind = "dir"
path = "."
baseline = true

[[workloads]]
probe = "fio"
preset = "rand-read-4k-qd1"
size = "8M"
runtime = 1
{% if slow_iops is defined %}rate_iops = {{ slow_iops }}{% endif %}
)";

bool haveAnsible() {
    return lb::test::runProcess({"ansible-playbook", "--version"}).exitCode == 0;
}

// Whether a `layoutbench run` of this test is still running on any host (they all run here).
bool remoteRunsLeft() {
    for (const auto& entry : fs::directory_iterator("/proc")) {
        std::ifstream cmdline(entry.path() / "cmdline");
        std::string text((std::istreambuf_iterator<char>(cmdline)), {});
        if (text.find(root + "/hosts/") != std::string::npos &&
            text.find("scenario.toml") != std::string::npos &&
            text.find("ansible") == std::string::npos)
            return true;
    }
    return false;
}

class Fleet : public ::testing::Test {
protected:
    void SetUp() override {
        if (!haveAnsible())
            GTEST_SKIP() << "ansible-playbook is not installed (scripts/setup.sh installs "
                            "ansible-core)";
        fs::remove_all(root);
        fs::create_directories(root + "/hosts");
        std::ofstream(root + "/scenario.toml") << scenarioTemplate;
        db_ = root + "/fleet.db";
    }
    void TearDown() override {
        servers_.clear();
        fs::remove_all(root);
    }

    // `n` hosts srv-1..srv-n, each its own sshd; `vars` adds a host's own variables.
    void startHosts(int n) {
        for (int i = 1; i <= n; ++i) {
            auto sshd = std::make_unique<lb::test::Sshd>();
            if (!sshd->available())
                GTEST_SKIP() << "no sshd on 127.0.0.1: " << sshd->why();
            servers_.push_back(std::move(sshd));
        }
    }
    std::string hostLine(const std::string& name, int port, const lb::test::Sshd& keys,
                         const std::string& vars = "") const {
        return name + " ansible_host=127.0.0.1 ansible_port=" + std::to_string(port) +
               " ansible_user=" + keys.target().user +
               " ansible_ssh_private_key_file=" + keys.userKey() +
               " ansible_ssh_common_args='-o UserKnownHostsFile=" + keys.knownHostsFile() +
               " -o StrictHostKeyChecking=yes -o ConnectTimeout=5' lb_remote_dir=" + root +
               "/hosts/" + name + (vars.empty() ? "" : " " + vars) + "\n";
    }
    // The inventory (INI): srv-i for each server, with `vars` of its own, and extra lines.
    std::string inventory(const std::map<std::string, std::string>& vars,
                          const std::string& extra = "") const {
        std::string text = "[storage]\n";
        for (std::size_t i = 0; i < servers_.size(); ++i) {
            const std::string name = "srv-" + std::to_string(i + 1);
            const auto v = vars.find(name);
            text +=
                hostLine(name, servers_[i]->port(), *servers_[i], v == vars.end() ? "" : v->second);
        }
        text += extra;
        const std::string path = root + "/inventory.ini";
        std::ofstream(path) << text;
        return path;
    }
    std::vector<std::string> fleetRun(const std::string& inv, bool resume = false) const {
        std::vector<std::string> argv{
            LAYOUTBENCH_CLI, "fleet", "run",           root + "/scenario.toml",
            "--inventory",   inv,     "--layoutbench", LAYOUTBENCH_CLI,
            "--forks",       "4",     "--db",          db_,
            "--json"};
        if (resume)
            argv.push_back("--resume");
        return argv;
    }
    std::map<std::string, json> outcomes(const std::string& out) const {
        std::map<std::string, json> byHost;
        const auto j = json::parse(out, nullptr, false);
        if (!j.is_object())
            return byHost;
        for (const auto& h : j["hosts"])
            byHost[h["host"].get<std::string>()] = h;
        return byHost;
    }
    // How many runs of the merged database each host has.
    std::map<std::string, int> runsByHost() const {
        std::map<std::string, int> out;
        auto store = lb::Store::open(db_);
        EXPECT_TRUE(store) << store.error().message;
        if (!store)
            return out;
        const auto runs = store->runs();
        EXPECT_TRUE(runs);
        for (const auto& r : runs ? *runs : std::vector<lb::RunSummary>{})
            ++out[r.host];
        return out;
    }

    std::vector<std::unique_ptr<lb::test::Sshd>> servers_;
    std::string db_;
};

} // namespace

TEST_F(Fleet, FourHostsRunOneScenarioIntoOneDatabaseAndTheSlowHostIsNamed) {
    startHosts(4);
    const auto inv = inventory({{"srv-3", "slow_iops=150"}});
    const auto t0 = std::chrono::steady_clock::now();
    const auto run = lb::test::runProcess(fleetRun(inv));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    std::printf("[  fleet   ] 4 hosts, 3 fio runs each: %.1f s\n", seconds);
    const auto hosts = outcomes(run.out);
    ASSERT_EQ(hosts.size(), 4U) << run.out;
    for (const auto& [name, h] : hosts) {
        EXPECT_EQ(h["status"], "ok") << name << ": " << h.dump();
        EXPECT_EQ(h["runs"], 3) << name;
    }
    // Progress came per host, on standard error.
    EXPECT_NE(run.err.find("fleet: changed: [srv-2]"), std::string::npos) << run.err;
    EXPECT_EQ(runsByHost(),
              (std::map<std::string, int>{{"srv-1", 3}, {"srv-2", 3}, {"srv-3", 3}, {"srv-4", 3}}));

    const auto report =
        lb::test::runProcess({LAYOUTBENCH_CLI, "fleet", "report", "--db", db_, "--json"});
    ASSERT_EQ(report.exitCode, 0) << report.out << report.err;
    const auto fleet = json::parse(report.out);
    ASSERT_EQ(fleet.size(), 1U);
    EXPECT_EQ(fleet[0]["layout"], "dir");
    ASSERT_FALSE(fleet[0]["standouts"].empty()) << report.out;
    const auto& worst = fleet[0]["standouts"][0];
    EXPECT_EQ(worst["host"], "srv-3") << report.out;
    EXPECT_TRUE(worst["worse"].get<bool>());
    for (const auto& s : fleet[0]["standouts"])
        EXPECT_EQ(s["host"], "srv-3") << "only the capped host stands apart: " << report.out;
    const auto text = lb::test::runProcess({LAYOUTBENCH_CLI, "fleet", "report", "--db", db_});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("srv-3: rand-read-4k-qd1.read.bw"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("below the fleet median, worse"), std::string::npos) << text.out;

    // Host against host, the same layout on both sides, by the same rule as layouts.
    const auto cmp = lb::test::runProcess({LAYOUTBENCH_CLI, "compare", "--baseline", "dir",
                                           "--candidate", "dir", "--baseline-host", "srv-1",
                                           "--candidate-host", "srv-3", "--db", db_, "--json"});
    ASSERT_EQ(cmp.exitCode, 0) << cmp.out << cmp.err;
    const auto verdict = json::parse(cmp.out);
    EXPECT_EQ(verdict["verdict"], "not-viable") << cmp.out;
    EXPECT_EQ(verdict["baseline_host"], "srv-1");
    EXPECT_EQ(verdict["candidate_host"], "srv-3");
    const auto mixed = lb::test::runProcess(
        {LAYOUTBENCH_CLI, "compare", "--baseline", "dir", "--candidate", "dir", "--db", db_});
    EXPECT_EQ(mixed.exitCode, 2);
    EXPECT_NE(mixed.err.find("holds runs of 4 hosts (srv-1, srv-2, srv-3, srv-4)"),
              std::string::npos)
        << mixed.err;
}

TEST_F(Fleet, AnUnreachableHostIsReportedAndTheOthersComplete) {
    startHosts(1);
    const int closed = lb::test::freeLoopbackPort(); // nothing listens there
    ASSERT_GT(closed, 0);
    const auto inv = inventory({}, hostLine("srv-gone", closed, *servers_[0]));
    const auto run = lb::test::runProcess(fleetRun(inv));
    EXPECT_EQ(run.exitCode, 1) << run.out << run.err;
    auto hosts = outcomes(run.out);
    ASSERT_EQ(hosts.size(), 2U) << run.out << run.err;
    EXPECT_EQ(hosts["srv-gone"]["status"], "unreachable");
    EXPECT_NE(hosts["srv-gone"]["reason"].get<std::string>().find("Connection refused"),
              std::string::npos)
        << hosts["srv-gone"].dump();
    EXPECT_EQ(hosts["srv-1"]["status"], "ok");
    EXPECT_EQ(runsByHost(), (std::map<std::string, int>{{"srv-1", 3}}));
}

TEST_F(Fleet, ResumeAfterTheControllerIsKilledFinishesWhatIsMissingAndMergesNothingTwice) {
    startHosts(2);
    const auto inv = inventory({});
    {
        lb::test::ChildProcess controller(fleetRun(inv));
        ASSERT_TRUE(controller.started());
        // Killed once a host has started its campaign (its database exists).
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        bool started = false;
        while (!started && std::chrono::steady_clock::now() < deadline) {
            for (const char* h : {"srv-1", "srv-2"})
                started = started || fs::exists(root + "/hosts/" + h + "/results.db");
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        ASSERT_TRUE(started) << "no host started its campaign within 120 s";
        ::kill(controller.pid(), SIGKILL);
        const auto killed = controller.wait();
        EXPECT_EQ(killed.exitCode, 128 + SIGKILL);
    }
    // What the killed controller left running on the hosts ends by itself.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (remoteRunsLeft() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ASSERT_FALSE(remoteRunsLeft()) << "a host's run outlived the controller by 120 s";

    const auto resumed = lb::test::runProcess(fleetRun(inv, true));
    ASSERT_EQ(resumed.exitCode, 0) << resumed.out << resumed.err;
    EXPECT_EQ(runsByHost(), (std::map<std::string, int>{{"srv-1", 3}, {"srv-2", 3}}));
    // Again: every host is merged already; nothing runs, nothing is added.
    const auto again = lb::test::runProcess(fleetRun(inv, true));
    ASSERT_EQ(again.exitCode, 0) << again.out << again.err;
    for (const auto& [name, h] : outcomes(again.out))
        EXPECT_EQ(h["status"], "merged-before") << name;
    EXPECT_EQ(runsByHost(), (std::map<std::string, int>{{"srv-1", 3}, {"srv-2", 3}}));
}

TEST_F(Fleet, AnInventoryAnsibleCannotReadIsBadInputNamingIt) {
    const std::string inv = root + "/broken.yml";
    std::ofstream(inv) << "all:\n  hosts: [unclosed\n";
    const auto run = lb::test::runProcess({LAYOUTBENCH_CLI, "fleet", "run", root + "/scenario.toml",
                                           "--inventory", inv, "--db", db_});
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_NE(run.err.find("--inventory: " + inv), std::string::npos) << run.err;
    EXPECT_FALSE(fs::exists(root + "/fleet.db.fleet/limit"));
}
