// The capacity projection of imported layouts through the real binary (issue 16): results
// imported from elsewhere record no disks, so `report` and `project` project them against a
// usable capacity given with --capacity LAYOUT=SIZE, and refuse, naming them, to apply the
// projection's options where they cannot.
#include "tests/cli/cli_fixture.h"

#include <cmath>
#include <fstream>
#include <iterator>
#include <regex>

namespace {

using lb::test::data;
using lb::test::expectOneLineError;
using nlohmann::json;

class ImportedProjection : public lb::test::Cli {
protected:
    void SetUp() override {
        Cli::SetUp();
        for (const auto& [layout, file] :
             {std::pair{"bare-metal", "seed-bare-metal.csv"}, std::pair{"guest", "seed-guest.csv"}})
            ASSERT_EQ(lb({"import", "--layout", layout, data + "/bonnie++/1.97/" + file}).exitCode,
                      0);
        catalog_ = write("drives.toml", R"([[drive]]
id = "ssd"
model = "Test SSD 1TB"
medium = "ssd"
capacity_bytes = 1_000_000_000_000
tbw = 600
warranty_years = 5
price_usd = 80
)");
        out_ = (dir_ / "report.md").string();
    }

    lb::test::ProcessResult report(std::vector<std::string> extra) {
        std::vector<std::string> args{"report", "--out", out_};
        args.insert(args.end(), extra.begin(), extra.end());
        return lb(args);
    }
    std::string reportText() const {
        std::ifstream in(out_);
        return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }

    std::string catalog_;
    std::string out_;
};

TEST_F(ImportedProjection, ReportProjectsImportedLayoutsAgainstTheCapacityGiven) {
    const auto r = report({"--used", "5T", "--growth", "2TB/y", "--capacity", "bare-metal=12T",
                           "--capacity", "guest=3.6TiB", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = json::parse(r.out);
    ASSERT_EQ(j.at("projections").size(), 2U) << r.out;
    const auto& bare = j["projections"][0];
    EXPECT_EQ(bare["name"], "bare-metal");
    EXPECT_EQ(bare["capacity_given"], true);
    EXPECT_EQ(bare["usable_bytes"], 12'000'000'000'000ULL);
    // The 0.90 ceiling of a layout of no known kind: 10.8 TB, passed when 5 + 2m/12 TB > 10.8,
    // from month 35.
    EXPECT_EQ(bare["ceiling_bytes"], 10'800'000'000'000ULL);
    EXPECT_EQ(bare["ceiling_month"], 35);
    EXPECT_EQ(j["projections"][1]["usable_bytes"], 3958241859993ULL); // 3.6 * 2^40, rounded down
    EXPECT_EQ(j["projections"][1]["ceiling_month"], 0); // 5 TB is past 90 % of 3.96 TB already

    // A capacity typed in TiB: the report's sizes in TiB (ReportSaysTheSizesInTheUnitGiven).
    const std::string text = reportText();
    const auto section = text.find("## Capacity projection");
    ASSERT_NE(section, std::string::npos) << text;
    EXPECT_NE(text.find("| bare-metal | 10.91 TiB (given) |", section), std::string::npos)
        << text.substr(section, 1500);
    EXPECT_NE(text.find("disks are unknown", section), std::string::npos)
        << text.substr(section, 1500);
}

// The unit the user gave, as the README promises (issue 41, item 6): a capacity or an imported
// layout's disks typed in TiB give TiB, though the use was typed in TB; in TB, TB.
TEST_F(ImportedProjection, ReportAndProjectSayTheSizesInTheUnitGiven) {
    auto r = report({"--used", "1T", "--growth", "30%", "--capacity", "guest=3.6TiB", "--capacity",
                     "bare-metal=4T"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::string text = reportText();
    auto section = text.find("## Capacity projection");
    ASSERT_NE(section, std::string::npos) << text;
    EXPECT_NE(text.find("| guest | 3.60 TiB (given) |", section), std::string::npos)
        << text.substr(section, 800);
    EXPECT_NE(text.find("from 931.32 GiB in use", section), std::string::npos)
        << text.substr(section, 800);
    EXPECT_EQ(text.find(" TB (given)"), std::string::npos) << text.substr(section, 800);

    r = report({"--used", "1T", "--growth", "30%", "--capacity", "guest=4T", "--capacity",
                "bare-metal=4T"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    text = reportText();
    section = text.find("## Capacity projection");
    EXPECT_NE(text.find("| guest | 4.00 TB (given) |", section), std::string::npos)
        << text.substr(section, 800);

    const auto project = lb({"project", "--layout", "guest", "--used", "1T", "--growth", "30%",
                             "--capacity", "guest=3.6TiB"});
    ASSERT_EQ(project.exitCode, 0) << project.err;
    EXPECT_NE(project.out.find("guest: imported, usable 3.60 TiB (given)"), std::string::npos)
        << project.out;
    EXPECT_NE(project.out.find("from 931.32 GiB in use"), std::string::npos) << project.out;
    const auto disks = lb({"project", "--layout", "guest", "--used", "1T", "--growth", "30%",
                           "--imported-disks", "guest=guest:md-raid6,10,466GiB,80%"});
    ASSERT_EQ(disks.exitCode, 0) << disks.err;
    EXPECT_NE(disks.out.find("x 466.00 GiB md-raid6"), std::string::npos) << disks.out;
}

// TiB in, TiB out: the use typed in TiB gives the report's sizes in TiB (the cost stays per TB).
TEST_F(ImportedProjection, ReportAnswersInTheUnitTheUseWasTypedIn) {
    const auto r = report({"--used", "4.5TiB", "--growth", "2TB/y", "--capacity", "bare-metal=12T",
                           "--capacity", "guest=3.6TiB"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string text = reportText();
    const auto section = text.find("## Capacity projection");
    ASSERT_NE(section, std::string::npos) << text;
    EXPECT_NE(text.find("from 4.50 TiB in use", section), std::string::npos)
        << text.substr(section, 600);
    EXPECT_NE(text.find("| bare-metal | 10.91 TiB (given) |", section), std::string::npos)
        << text.substr(section, 600);
    EXPECT_NE(text.find("| guest | 3.60 TiB (given) |", section), std::string::npos)
        << text.substr(section, 600);
}

TEST_F(ImportedProjection, ReportRefusesAProjectionItCannotApplyNamingTheLayouts) {
    const auto none = report({"--used", "5T", "--growth", "30%"});
    expectOneLineError(none, "layoutbench: --used applies to no capacity model for imported "
                             "layout(s) 'bare-metal', 'guest'; give --capacity LAYOUT=SIZE");
    EXPECT_FALSE(std::filesystem::exists(out_)) << "a refused report was written";

    // One given, the other still named.
    expectOneLineError(report({"--used", "5T", "--growth", "30%", "--capacity", "guest=4T"}),
                       "imported layout(s) 'bare-metal';");

    // A capacity for a layout the report does not hold, or without a projection to apply to.
    expectOneLineError(report({"--used", "5T", "--growth", "30%", "--capacity", "nas=4T"}),
                       "--capacity: 'nas' is not among the layouts projected ('bare-metal', "
                       "'guest')");
    expectOneLineError(report({"--capacity", "guest=4T"}),
                       "--capacity applies only to the capacity projection");
    expectOneLineError(report({"--used", "5T", "--growth", "30%", "--capacity", "guest"}),
                       "--capacity: 'guest' is not LAYOUT=SIZE");

    // Price and wear need disks: every layout here has only the capacity given.
    expectOneLineError(report({"--used", "5T", "--growth", "30%", "--capacity", "bare-metal=4T",
                               "--capacity", "guest=4T", "--drive", "ssd", "--catalog", catalog_}),
                       "--drive applies to no layout whose disks are known: imported layout(s) "
                       "'bare-metal', 'guest'");
}

TEST_F(ImportedProjection, ReportRefusesAnUnknownDriveNamingTheCatalog) {
    // Whether or not there is a projection to apply it to.
    for (const auto& extra :
         std::vector<std::vector<std::string>>{{},
                                               {"--used", "5T", "--growth", "30%", "--capacity",
                                                "bare-metal=4T", "--capacity", "guest=4T"}}) {
        auto args = extra;
        args.insert(args.end(), {"--drive", "nope", "--catalog", catalog_});
        expectOneLineError(report(args),
                           "--drive: unknown drive 'nope' in " + catalog_ + " (known: ssd)");
    }
    expectOneLineError(report({"--drive", "ssd", "--catalog", catalog_}),
                       "--drive applies only to the capacity projection: give --used and "
                       "--growth");
}

TEST_F(ImportedProjection, ProjectTakesACapacityForAnImportedLayout) {
    const std::vector<std::string> args{"project",    "--layout",       "bare-metal",
                                        "--capacity", "bare-metal=12T", "--used",
                                        "5T",         "--growth",       "2TB/y"};
    auto withJson = args;
    withJson.push_back("--json");
    const auto r = lb(withJson);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = json::parse(r.out);
    ASSERT_EQ(j.at("layouts").size(), 1U);
    const auto& l = j["layouts"][0];
    EXPECT_EQ(l["name"], "bare-metal");
    EXPECT_EQ(l["kind"], "imported"); // as recorded
    EXPECT_EQ(l["capacity_given"], true);
    EXPECT_EQ(l["usable_bytes"], 12'000'000'000'000ULL);
    EXPECT_TRUE(l["raw_bytes"].is_null());
    EXPECT_EQ(l["disks"], 0);
    EXPECT_EQ(l["ceiling_month"], 35);
    EXPECT_EQ(l["months"].size(), 61U);
    EXPECT_TRUE(l["expansions"].empty());

    const auto human = lb(args);
    ASSERT_EQ(human.exitCode, 0) << human.err;
    EXPECT_NE(human.out.find("bare-metal: imported, usable 12.00 TB (given), ceiling 90"),
              std::string::npos)
        << human.out;
    EXPECT_NE(human.out.find("passed in month 35"), std::string::npos) << human.out;

    // Beside a kind described on the command line, which has disks for the drive.
    auto mixed = args;
    mixed.insert(mixed.end(), {"--kind", "zfs-mirror", "--disks", "2", "--drive", "ssd",
                               "--catalog", catalog_, "--json"});
    const auto both = lb(mixed);
    ASSERT_EQ(both.exitCode, 0) << both.err;
    const auto jb = json::parse(both.out);
    ASSERT_EQ(jb["layouts"].size(), 2U);
    EXPECT_EQ(jb["layouts"][0]["capacity_given"], true);
    EXPECT_EQ(jb["layouts"][1]["capacity_given"], false);
    EXPECT_EQ(jb["layouts"][1]["kind"], "zfs-mirror");
}

TEST_F(ImportedProjection, ProjectRefusesWhatCannotApplyNamingTheLayouts) {
    expectOneLineError(
        lb({"project", "--layout", "bare-metal", "--layout", "guest", "--used", "5T", "--growth",
            "30%"}),
        "layoutbench: --used applies to no capacity model for imported layout(s) 'bare-metal', "
        "'guest'; give --capacity LAYOUT=SIZE");
    expectOneLineError(lb({"project", "--layout", "guest", "--capacity", "bare-metal=4T", "--used",
                           "5T", "--growth", "30%"}),
                       "--capacity: 'bare-metal' is not among the layouts projected ('guest')");
    expectOneLineError(lb({"project", "--kind", "zfs-mirror", "--disks", "2", "--disk-size", "1T",
                           "--capacity", "guest=4T", "--used", "5T", "--growth", "30%"}),
                       "--capacity: 'guest' is not among the layouts projected (none)");
    expectOneLineError(lb({"project", "--layout", "guest", "--capacity", "guest=4T", "--used", "1T",
                           "--growth", "30%", "--host-writes", "10G/d"}),
                       "--host-writes applies to no layout whose disks are known: imported "
                       "layout(s) 'guest'");
}

// The buyer's figures: --price per TB prices every disk by its size, --write-amplification
// replaces one layout's model (and says what the model said), and the cost over the horizon adds
// the disks, their replacements and the cheapest expansion; a factor for a layout not projected
// is refused naming both.
TEST_F(ImportedProjection, ProjectTakesThePriceAndTheWriteAmplificationOfTheBuyer) {
    const std::vector<std::string> args{"project",
                                        "--kind",
                                        "md-raid6,zfs-raidz2",
                                        "--disks",
                                        "6",
                                        "--disk-size",
                                        "4T",
                                        "--used",
                                        "10T",
                                        "--growth",
                                        "30%",
                                        "--host-writes",
                                        "1T/d",
                                        "--price",
                                        "25/TB",
                                        "--write-amplification",
                                        "md-raid6=2",
                                        "--drive",
                                        "ssd",
                                        "--catalog",
                                        catalog_};
    auto withJson = args;
    withJson.push_back("--json");
    const auto r = lb(withJson);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = json::parse(r.out);
    EXPECT_EQ(j.at("drive").at("price_is_illustrative"), false);
    EXPECT_EQ(j.at("price").at("per_tb"), true);
    ASSERT_EQ(j.at("layouts").size(), 2U);
    for (const auto& l : j["layouts"]) {
        SCOPED_TRACE(l.at("name").get<std::string>());
        // Six 4 TB disks at $25 per TB.
        EXPECT_DOUBLE_EQ(l.at("cost").at("purchase_usd").get<double>(), 600.0);
        EXPECT_EQ(l["cost"]["price_basis"], "price given: 25/TB");
        EXPECT_EQ(l["cost"]["price_is_illustrative"], false);
        const double total = l["cost"]["purchase_usd"].get<double>() +
                             l["cost"]["replacement_usd"].get<double>() +
                             l["cost"]["expansion_usd"].get<double>();
        EXPECT_DOUBLE_EQ(l["cost"]["total_usd"].get<double>(), total);
    }
    const auto& raid6 = j["layouts"][0];
    EXPECT_EQ(raid6.at("wear").at("write_amplification_given"), true);
    EXPECT_DOUBLE_EQ(raid6["wear"]["write_amplification"].get<double>(), 2.0);
    EXPECT_DOUBLE_EQ(raid6["wear"]["write_amplification_modelled"].get<double>(), 3.0);
    const auto& raidz2 = j["layouts"][1];
    EXPECT_EQ(raidz2.at("wear").at("write_amplification_given"), false);
    EXPECT_TRUE(raidz2["wear"]["write_amplification_modelled"].is_null());

    const auto human = lb(args);
    ASSERT_EQ(human.exitCode, 0) << human.err;
    EXPECT_NE(human.out.find("Price: $25 per TB (--price)"), std::string::npos) << human.out;
    EXPECT_EQ(human.out.find("illustrative price"), std::string::npos) << human.out;
    EXPECT_NE(human.out.find("write amplification 2.00 (given with --write-amplification; the "
                             "layout's model says 3.00"),
              std::string::npos)
        << human.out;
    EXPECT_NE(human.out.find("Cost over 5 years: $"), std::string::npos) << human.out;
    EXPECT_NE(human.out.find(": the disks $600 (price given: 25/TB)"), std::string::npos)
        << human.out;

    auto unknown = args;
    unknown.insert(unknown.end(), {"--write-amplification", "raid5=2"});
    expectOneLineError(lb(unknown), "--write-amplification: 'raid5' is not among the layouts "
                                    "projected ('md-raid6', 'zfs-raidz2')");
    auto perGb = args;
    perGb[perGb.size() - 7] = "25/GB";
    expectOneLineError(lb(perGb), "--price: '25/GB' is per gb");
}

// Sizes come back in the unit they were given in: TiB in, TiB out; TB in, TB out.
TEST_F(ImportedProjection, ProjectSpeaksInTheUnitOfTheSizesGiven) {
    const auto binary = lb({"project", "--kind", "md-raid6", "--disks", "6", "--disk-size", "4TiB",
                            "--used", "10TiB", "--growth", "30%"});
    ASSERT_EQ(binary.exitCode, 0) << binary.err;
    EXPECT_NE(binary.out.find("from 10.00 TiB in use"), std::string::npos) << binary.out;
    EXPECT_NE(binary.out.find("6 x 4.00 TiB, usable "), std::string::npos) << binary.out;
    // No size in decimal units (the cost column stays per TB, as drives are priced).
    EXPECT_FALSE(std::regex_search(binary.out, std::regex("[0-9] [kMGTP]B\\b"))) << binary.out;
    const auto decimal = lb({"project", "--kind", "md-raid6", "--disks", "6", "--disk-size", "4T",
                             "--used", "10T", "--growth", "30%"});
    ASSERT_EQ(decimal.exitCode, 0) << decimal.err;
    EXPECT_NE(decimal.out.find("6 x 4.00 TB, usable "), std::string::npos) << decimal.out;
    EXPECT_EQ(decimal.out.find("TiB"), std::string::npos) << decimal.out;
}

} // namespace

// Imported results with their disks told (issue 41, item 2): the field report's two candidates
// get capacity, cost, expansions and wear in one report, each kind with its own ceiling — ZFS's
// 80 % for the RAIDZ2 and for the guest's pool on md RAID6 — and the same figures as `project`
// of layouts of those disks.
TEST_F(ImportedProjection, ImportedLayoutsWithTheirDisksGetCostWearAndTheirKindsCeiling) {
    const auto r =
        report({"--used", "1T", "--growth", "30%", "--imported-disks",
                "bare-metal=zfs-raidz2,10,,80%", "--imported-disks", "guest=guest:md-raid6,10,,0.8",
                "--drive", "ssd", "--catalog", catalog_, "--host-writes", "100G/d", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = json::parse(r.out);
    ASSERT_EQ(j.at("projections").size(), 2U) << r.out;
    for (const auto& p : j["projections"]) {
        EXPECT_EQ(p["capacity_given"], false) << p;
        EXPECT_DOUBLE_EQ(p["ceiling_bytes"].get<double>(),
                         std::floor(p["usable_bytes"].get<double>() * 0.8))
            << p;
    }
    const auto expected =
        lb({"project", "--kind", "zfs-raidz2,guest", "--inner", "md-raid6", "--disks", "10",
            "--drive", "ssd", "--catalog", catalog_, "--underprovision", "80%", "--used", "1T",
            "--growth", "30%", "--json"});
    ASSERT_EQ(expected.exitCode, 0) << expected.err;
    const auto e = json::parse(expected.out);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(j["projections"][i]["usable_bytes"], e["layouts"][i]["usable_bytes"]) << i;
        EXPECT_EQ(j["projections"][i]["ceiling_month"], e["layouts"][i]["ceiling_month"]) << i;
    }
    const auto text = reportText();
    EXPECT_NE(text.find("Cost over 5 years"), std::string::npos) << text;
    EXPECT_NE(text.find("Wear: write amplification"), std::string::npos) << text;
    EXPECT_NE(text.find("cannot repair"), std::string::npos) << text;
}

TEST_F(ImportedProjection, ImportedDisksAreCheckedNamingTheFlag) {
    expectOneLineError(report({"--used", "1T", "--growth", "30%", "--imported-disks",
                               "bare-metal=raidz2,10,500G"}),
                       "--imported-disks: bare-metal: kind: unknown layout kind 'raidz2' (did "
                       "you mean 'zfs-raidz2'?)");
    expectOneLineError(
        report({"--used", "1T", "--growth", "30%", "--imported-disks", "nas=zfs-raidz2,10,500G"}),
        "--imported-disks: 'nas' is not among the layouts projected");
    expectOneLineError(
        report({"--used", "1T", "--growth", "30%", "--imported-disks", "bare-metal=zfs-raidz2,10"}),
        "--imported-disks: bare-metal: no disk size");
    expectOneLineError(
        report({"--used", "1T", "--growth", "30%", "--capacity", "guest=3T", "--imported-disks",
                "bare-metal=zfs-raidz2,10,500G", "--capacity", "bare-metal=3T"}),
        "--imported-disks: 'bare-metal' has its capacity given too");
}

// A layout not in the database is answered with the one meant, or the list of those there are.
TEST_F(ImportedProjection, AnUnknownLayoutIsAnsweredWithTheLayoutsThereAre) {
    expectOneLineError(lb({"compare", "--baseline", "bare-metal", "--candidate", "raidz"}),
                       "--candidate: no layout named 'raidz' in");
    expectOneLineError(lb({"compare", "--baseline", "bare-metal", "--candidate", "raidz"}),
                       "(layouts: 'bare-metal', 'guest')");
    expectOneLineError(lb({"compare", "--baseline", "bare-metal", "--candidate", "gueest"}),
                       "(did you mean 'guest'?)");
    expectOneLineError(report({"--baseline", "bare-mtal"}), "(did you mean 'bare-metal'?)");
}
