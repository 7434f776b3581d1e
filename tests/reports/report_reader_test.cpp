// Pages for a reader (issue 41, item 6): the report's disks are the ones its scenario named (the
// machine's root disk and zram, never tested, are named as left out, not listed), and its first
// page says its scope and its prices in words, with no command-line flag. Part of report_tests
// (its main makes the QApplication, offscreen).
#include "engine/capacity/projection.h"
#include "engine/store/store.h"
#include "engine/workbench.h"
#include "reports/report.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace lb;

namespace {

constexpr std::uint64_t GB = 1000ULL * 1000 * 1000;

// The machine as lsblk saw it: the VM's root disk, zram, and three SSDs, two of them the
// scenario's (one named by /dev/disk/by-id/, which carries its serial).
nlohmann::json machine() {
    const auto disk = [](const char* name, const char* serial, std::uint64_t size) {
        return nlohmann::json{{"name", name},     {"path", std::string("/dev/") + name},
                              {"serial", serial}, {"size", size},
                              {"rota", false},    {"type", "disk"}};
    };
    nlohmann::json vda = disk("vda", "", 32 * GB);
    vda["children"] = {{{"name", "vda1"}, {"path", "/dev/vda1"}, {"type", "part"}}};
    nlohmann::json sdb = disk("sdb", "S3Z1NB0K111111", 500 * GB);
    sdb["children"] = {{{"name", "sdb1"}, {"path", "/dev/sdb1"}, {"type", "part"}}};
    return {{"hostname", "devuan"},
            {"disks",
             {vda, disk("zram0", "", 0), sdb, disk("sdc", "S3Z1NB0K654321", 500 * GB),
              disk("sdd", "S3Z1NB0K999999", 500 * GB)}}};
}

const std::string namingScenario = R"(name = "seed"
[[disks]]
name = "ssd0"
device = "/dev/sdb"
[[disks]]
name = "ssd1"
device = "/dev/disk/by-id/ata-Samsung_SSD_860_EVO_500GB_S3Z1NB0K654321"
)";

Run bonnieRun(const std::string& layout, std::int64_t campaign, double bytesPerSecond) {
    Run r;
    r.layout = layout;
    r.workload = "bonnie";
    r.probe = "bonnie";
    r.argv = {"bonnie++", "-d", "/mnt/" + layout};
    r.exitCode = 0;
    r.toolVersion = "1.97";
    r.startedAt = r.finishedAt = "2024-04-04T12:00:00Z";
    r.status = RunStatus::Ok;
    r.campaignId = campaign;
    r.metrics = {{"bonnie.put_block", bytesPerSecond, Unit::BytesPerSecond}};
    return r;
}

// A database of two layouts of ten 500 GB disks, with a campaign per scenario text given (each
// with the machine's inventory and a run on each layout); the last campaign is the report's.
struct Database {
    std::optional<Store> store;
    std::int64_t lastCampaign = 0;
};

const fs::path dir =
    fs::temp_directory_path() / ("layoutbench-reader-test-" + std::to_string(::getpid()));

// The databases' directory, removed when the tests end.
class RemoveDatabases : public ::testing::Environment {
public:
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
    }
};
[[maybe_unused]] ::testing::Environment* const removeDatabases =
    ::testing::AddGlobalTestEnvironment(new RemoveDatabases);

Database database(const std::string& name, const std::vector<std::string>& scenarios) {
    fs::create_directories(dir);
    fs::remove(dir / name);
    Database db;
    auto store = Store::open((dir / name).string());
    EXPECT_TRUE(store) << (store ? "" : store.error().message);
    db.store = std::move(*store);
    auto host = db.store->ensureHost("devuan", machine().dump());
    EXPECT_TRUE(host);
    nlohmann::json spec = {{"kind", "zfs-raidz2"},
                           {"disk_bytes", std::vector<std::uint64_t>(10, 500 * GB)},
                           {"underprovision", 0.8}};
    spec["baseline"] = true;
    auto bare = db.store->ensureLayout("bare-metal", "zfs-raidz2", spec.dump(), *host);
    spec["kind"] = "md-raid6";
    spec["baseline"] = false;
    auto guest = db.store->ensureLayout("guest", "md-raid6", spec.dump(), *host);
    EXPECT_TRUE(bare && guest);
    for (const auto& text : scenarios) {
        auto campaign =
            db.store->createCampaign({"seed", "seed.toml", text, *host, machine().dump()});
        EXPECT_TRUE(campaign);
        db.lastCampaign = *campaign;
        EXPECT_TRUE(db.store->insertRun(*bare, bonnieRun("bare-metal", *campaign, 350e6)));
        EXPECT_TRUE(db.store->insertRun(*guest, bonnieRun("guest", *campaign, 220e6)));
    }
    return db;
}

// The report's section from `heading` to the next heading of its level or above.
std::string section(const std::string& md, const std::string& heading) {
    const auto start = md.find(heading);
    if (start == std::string::npos)
        return {};
    const auto end = md.find("\n## ", start + heading.size());
    return md.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

} // namespace

TEST(ReportDisks, OnlyTheDisksTheScenarioNamedTheRestNamedAsLeftOut) {
    Database db = database("named.db", {namingScenario});
    ReportRequest request;
    request.campaignId = db.lastCampaign;
    const auto data = gatherReport(*db.store, request);
    ASSERT_TRUE(data) << data.error().message;
    EXPECT_EQ(data->disksLeftOut, (std::vector<std::string>{"vda", "zram0", "sdd"}));
    const std::string disks = section(renderMarkdown(*data), "### Disks the scenario named");
    ASSERT_FALSE(disks.empty()) << renderMarkdown(*data);
    for (const char* shown : {"| sdb |", "sdb1 |", "| sdc |"})
        EXPECT_NE(disks.find(shown), std::string::npos) << shown << "\n" << disks;
    for (const char* hidden : {"| vda |", "vda1", "| zram0 |", "| sdd |", "0 B"})
        EXPECT_EQ(disks.find(hidden), std::string::npos) << hidden << "\n" << disks;
    EXPECT_NE(disks.find("Left out, not named by the scenario and not tested: vda, zram0, sdd."),
              std::string::npos)
        << disks;
}

TEST(ReportDisks, AScenarioOfFilesNamesNoBlockDevice) {
    Database db = database("files.db", {"name = \"quick\"\n[[disks]]\nname = \"vdev1\"\n"
                                        "file = \"vdev1.img\"\nsize = \"512MiB\"\n"});
    ReportRequest request;
    request.campaignId = db.lastCampaign;
    const auto data = gatherReport(*db.store, request);
    ASSERT_TRUE(data) << data.error().message;
    const std::string disks = section(renderMarkdown(*data), "### Disks the scenario named");
    EXPECT_NE(disks.find("The scenario named no block device"), std::string::npos) << disks;
    EXPECT_EQ(disks.find("| sdb |"), std::string::npos) << disks;
    EXPECT_NE(disks.find("not tested: vda, zram0, sdb, sdc, sdd."), std::string::npos) << disks;
}

// Without a campaign its scenario is unknown: the machine's disks, all of them, as recorded.
TEST(ReportDisks, WithoutAScenarioTheMachinesDisksAsRecorded) {
    Database db = database("none.db", {});
    const auto data = gatherReport(*db.store, {});
    ASSERT_TRUE(data) << data.error().message;
    EXPECT_TRUE(data->disksLeftOut.empty());
    const std::string md = renderMarkdown(*data);
    EXPECT_EQ(md.find("Disks the scenario named"), std::string::npos);
    const std::string disks = section(md, "### Disks");
    for (const char* shown : {"| vda |", "| zram0 |", "| sdb |", "| sdd |"})
        EXPECT_NE(disks.find(shown), std::string::npos) << shown << "\n" << disks;
}

// Page 1 (the title and the Summary) has its scope — another campaign left out — and its
// prices in words: no command-line flag, which the command line prints for itself.
TEST(ReportFirstPage, ScopeAndPricesInWordsNotFlags) {
    Database db = database("page1.db", {namingScenario, namingScenario});
    ProjectionSettings settings;
    settings.used = "1T";
    settings.growth = "30%";
    Drive evo;
    evo.id = "samsung-860-evo-500gb";
    evo.model = "Samsung 860 EVO 500GB";
    evo.capacityBytes = 500 * GB;
    evo.priceUsd = 60;
    const std::regex flag("(^|[\\s(])--[a-z]");
    for (const char* price : {"", "55"}) {
        for (const bool withDrive : {false, true}) {
            settings.price = price;
            settings.drive = withDrive ? std::optional(evo) : std::nullopt;
            auto projection = projectionRequest(settings);
            ASSERT_TRUE(projection) << projection.error().message;
            ReportRequest request;
            request.projection = *projection;
            const auto data = gatherReport(*db.store, request);
            ASSERT_TRUE(data) << data.error().message;
            EXPECT_FALSE(data->scopeHint.empty()); // the command line's, in flags
            const std::string md = renderMarkdown(*data);
            const std::string page1 = md.substr(0, md.find("## The question"));
            EXPECT_FALSE(std::regex_search(page1, flag)) << page1;
            EXPECT_NE(page1.find("the other campaigns' runs are left out"), std::string::npos)
                << page1;
            const std::string priced = *price      ? "cost per usable TB (price given: 55)"
                                       : withDrive ? "cost per usable TB (Samsung 860 EVO 500GB)"
                                                   : "cost per usable TB (no drive or price given)";
            EXPECT_NE(page1.find(priced), std::string::npos) << page1;
        }
    }
}
