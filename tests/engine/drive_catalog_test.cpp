// Tests of the drive catalog: the shipped data/drives.toml loads and says what the data sheets
// say, and a malformed catalog is refused with the line at fault.
#include "engine/capacity/drive_catalog.h"

#include <cmath>
#include <gtest/gtest.h>
#include <set>

namespace lb {
namespace {

std::string shippedCatalog() {
#if defined(LAYOUTBENCH_DATA_DIR)
    return std::string(LAYOUTBENCH_DATA_DIR) + "/drives.toml";
#else
    return std::string(LAYOUTBENCH_SOURCE_DIR) + "/data/drives.toml";
#endif
}

void expectBadInput(const Error& e, const std::string& part) {
    EXPECT_EQ(e.kind, ErrorKind::BadInput) << e.message;
    EXPECT_NE(e.message.find(part), std::string::npos) << e.message;
}

const char* goodEntry = R"([[drive]]
id = "a"
model = "Drive A"
medium = "ssd"
capacity_bytes = 500_000_000_000
tbw = 300
warranty_years = 5
price_usd = 60
)";

TEST(DriveCatalog, ShippedCatalogLoads) {
    auto catalog = loadDriveCatalog(shippedCatalog());
    ASSERT_TRUE(catalog) << catalog.error().message;

    // Samsung 860 EVO 500GB: 300 TBW = 300e12 bytes.
    const Drive* evo = catalog->find("samsung-860-evo-500gb");
    ASSERT_NE(evo, nullptr);
    EXPECT_EQ(evo->capacityBytes, 500000000000ULL);
    ASSERT_TRUE(evo->tbw);
    EXPECT_DOUBLE_EQ(*evo->tbw, 300.0);
    EXPECT_DOUBLE_EQ(*evo->enduranceBytes(), 300e12);
    EXPECT_GT(evo->priceUsd, 0.0);

    // 870 EVO 500GB / 1TB / 2TB: 300 / 600 / 1200 TBW; MX500 500GB / 1TB: 180 / 360 TBW;
    // WD Red SA500 1TB: 600 TBW.
    const std::pair<const char*, double> tbw[] = {
        {"samsung-870-evo-500gb", 300}, {"samsung-870-evo-1tb", 600}, {"samsung-870-evo-2tb", 1200},
        {"crucial-mx500-500gb", 180},   {"crucial-mx500-1tb", 360},   {"wd-red-sa500-1tb", 600},
    };
    for (const auto& [id, rated] : tbw) {
        const Drive* d = catalog->find(id);
        ASSERT_NE(d, nullptr) << id;
        ASSERT_TRUE(d->tbw) << id;
        EXPECT_DOUBLE_EQ(*d->tbw, rated) << id;
    }

    // PM883 960GB: 1.3 DWPD for 3 years = 1.3 * 960e9 * 365 * 3 = 1.36656e15 bytes.
    const Drive* pm883 = catalog->find("samsung-pm883-960gb");
    ASSERT_NE(pm883, nullptr);
    EXPECT_FALSE(pm883->tbw);
    EXPECT_DOUBLE_EQ(*pm883->dwpd, 1.3);
    EXPECT_NEAR(*pm883->enduranceBytes(), 1.36656e15, 1e3);

    // D3-S4510 960GB is listed, with its rating.
    const Drive* s4510 = catalog->find("intel-d3-s4510-960gb");
    ASSERT_NE(s4510, nullptr);
    EXPECT_TRUE(s4510->enduranceBytes());

    // The 4 TB hard disk: endurance does not apply.
    const Drive* hdd = catalog->find("wd-red-plus-4tb");
    ASSERT_NE(hdd, nullptr);
    EXPECT_EQ(hdd->medium, DriveMedium::Hdd);
    EXPECT_EQ(hdd->capacityBytes, 4000000000000ULL);
    EXPECT_FALSE(hdd->enduranceBytes());

    // Every SSD has an endurance; ids are unique (the loader enforces it, this documents it).
    std::set<std::string> ids;
    for (const auto& d : catalog->drives) {
        EXPECT_TRUE(ids.insert(d.id).second) << d.id;
        if (d.medium == DriveMedium::Ssd) {
            EXPECT_TRUE(d.enduranceBytes()) << d.id;
        }
    }
}

TEST(DriveCatalog, UnknownDriveNamesTheField) {
    auto catalog = parseDriveCatalog(goodEntry, "drives.toml");
    ASSERT_TRUE(catalog) << catalog.error().message;
    auto d = catalog->lookup("samsung-990-pro");
    ASSERT_FALSE(d);
    EXPECT_EQ(d.error().message.rfind("drive: ", 0), 0U) << d.error().message;
    expectBadInput(d.error(), "samsung-990-pro");
    EXPECT_TRUE(catalog->lookup("a"));
}

TEST(DriveCatalog, UnknownKeyNamesTheLine) {
    // Line 1 [[drive]] ... line 9 is the misspelt key.
    const std::string text = std::string(goodEntry) + "\n[[drive]]\nid = \"b\"\ntbww = 300\n";
    auto catalog = parseDriveCatalog(text, "drives.toml");
    ASSERT_FALSE(catalog);
    expectBadInput(catalog.error(), "drives.toml:12:");
    expectBadInput(catalog.error(), "tbww");
}

TEST(DriveCatalog, SyntaxErrorNamesTheLine) {
    const std::string text = std::string(goodEntry) + "price_usd = = 3\n"; // line 9
    auto catalog = parseDriveCatalog(text, "drives.toml");
    ASSERT_FALSE(catalog);
    expectBadInput(catalog.error(), "drives.toml:9:");
}

TEST(DriveCatalog, DuplicateIdNamesBothLines) {
    const std::string text = std::string(goodEntry) + "\n" + goodEntry; // second id on line 11
    auto catalog = parseDriveCatalog(text, "drives.toml");
    ASSERT_FALSE(catalog);
    expectBadInput(catalog.error(), "drives.toml:11:");
    expectBadInput(catalog.error(), "duplicate");
    expectBadInput(catalog.error(), "line 1");
}

TEST(DriveCatalog, RefusesIncompleteOrContradictoryEntries) {
    struct Case {
        std::string text;
        std::string part;
    };
    const std::string head = "[[drive]]\nid = \"x\"\nmodel = \"X\"\n";
    const Case cases[] = {
        {head + "medium = \"ssd\"\ncapacity_bytes = 1000\nwarranty_years = 5\nprice_usd = 1\n",
         "tbw"}, // an SSD without endurance
        {head + "medium = \"hdd\"\ncapacity_bytes = 1000\ntbw = 5\nprice_usd = 1\n", "tbw"},
        {head + "medium = \"ssd\"\ncapacity_bytes = 1000\ndwpd = 1\nprice_usd = 1\n",
         "warranty_years"},
        {head + "medium = \"ssd\"\ncapacity_bytes = 1000\ntbw = 5\ndwpd = 1\nwarranty_years = "
                "5\nprice_usd = 1\n",
         "dwpd"},
        {head + "medium = \"ssd\"\ncapacity_bytes = 1000\ntbw = 5\n", "price_usd"},
        {head + "medium = \"tape\"\ncapacity_bytes = 1000\ntbw = 5\nprice_usd = 1\n", "medium"},
        {head + "medium = \"ssd\"\ncapacity_bytes = \"1TB\"\ntbw = 5\nprice_usd = 1\n",
         "capacity_bytes"},
        {head + "medium = \"ssd\"\ncapacity_bytes = 1000\ntbw = -5\nprice_usd = 1\n", "tbw"},
        {"[[drive]]\nmodel = \"X\"\n", "id"},
        {"colour = \"red\"\n", "drives.toml:1:"},
    };
    for (const auto& c : cases) {
        auto catalog = parseDriveCatalog(c.text, "drives.toml");
        ASSERT_FALSE(catalog) << c.text;
        expectBadInput(catalog.error(), c.part);
    }
}

// Every shipped drive states its annual failure rate and unrecoverable-read rate, with their
// source: a data sheet's MTBF converted (AFR = 1 − e^(−8766 h / MTBF)), the error rate the data
// sheet states or the JEDEC class it belongs to (an MTTF is the same figure for a drive nobody
// repairs).
TEST(DriveCatalog, ShippedDrivesStateTheirReliabilityAndItsSource) {
    auto catalog = loadDriveCatalog(shippedCatalog());
    ASSERT_TRUE(catalog) << catalog.error().message;
    for (const auto& d : catalog->drives) {
        ASSERT_TRUE(d.afr) << d.id;
        ASSERT_TRUE(d.urePerBit) << d.id;
        EXPECT_TRUE(d.reliabilitySource.find("MTBF") != std::string::npos ||
                    d.reliabilitySource.find("MTTF") != std::string::npos)
            << d.id << ": " << d.reliabilitySource;
        // A data sheet's MTBF of 0.5 to 3 million hours.
        EXPECT_GT(*d.afr, 0.0029) << d.id;
        EXPECT_LT(*d.afr, 0.0174) << d.id;
        EXPECT_LE(*d.urePerBit, 1e-14) << d.id;
    }
    // The consumer hard disk's rating, 1 in 10^14 bits; its MTBF of a million hours.
    const Drive* hdd = catalog->find("wd-red-plus-4tb");
    ASSERT_NE(hdd, nullptr);
    EXPECT_DOUBLE_EQ(*hdd->urePerBit, 1e-14);
    EXPECT_NEAR(*hdd->afr, -std::expm1(-8766.0 / 1e6), 5e-5);
}

// afr as a fraction or a percentage; ure per bit; each needs its source, and a source needs them.
TEST(DriveCatalog, ReliabilityFiguresAndTheirSource) {
    const std::string source = "reliability_source = \"data sheet\"\n";
    auto percent = parseDriveCatalog(
        std::string(goodEntry) + "afr = \"0.58%\"\nure = 1e-15\n" + source, "drives.toml");
    ASSERT_TRUE(percent) << percent.error().message;
    EXPECT_DOUBLE_EQ(*percent->drives[0].afr, 0.0058);
    EXPECT_DOUBLE_EQ(*percent->drives[0].urePerBit, 1e-15);
    EXPECT_EQ(percent->drives[0].reliabilitySource, "data sheet");
    auto fraction =
        parseDriveCatalog(std::string(goodEntry) + "afr = 0.0058\n" + source, "drives.toml");
    ASSERT_TRUE(fraction) << fraction.error().message;
    EXPECT_DOUBLE_EQ(*fraction->drives[0].afr, 0.0058);
    EXPECT_FALSE(fraction->drives[0].urePerBit);
    // Without any of the three, the drive is still a drive: the risk model assumes its figures.
    auto none = parseDriveCatalog(goodEntry, "drives.toml");
    ASSERT_TRUE(none) << none.error().message;
    EXPECT_FALSE(none->drives[0].afr);

    struct Case {
        std::string extra, part;
    };
    const Case cases[] = {
        {"afr = 0.0058\n", "drives.toml:9:"},    // no source: named at the figure
        {"ure = 1e-15\n", "reliability_source"}, // no source
        {source, "neither is given"},            // a source of nothing
        {"afr = 1.5\n" + source, "afr"},         // not a fraction
        {"afr = \"150%\"\n" + source, "afr"},    // not a fraction
        {"afr = \"often\"\n" + source, "afr"},   // not a number
        {"ure = 0\n" + source, "ure"},           // not positive
        {"afr = 0.01\nreliability_source = \"\"\n", "reliability_source"},
    };
    for (const auto& c : cases) {
        auto catalog = parseDriveCatalog(std::string(goodEntry) + c.extra, "drives.toml");
        ASSERT_FALSE(catalog) << c.extra;
        expectBadInput(catalog.error(), c.part);
    }
}

TEST(DriveCatalog, MissingFileNamesTheOption) {
    auto catalog = loadDriveCatalog("/nonexistent/drives.toml");
    ASSERT_FALSE(catalog);
    expectBadInput(catalog.error(), "catalog");
    EXPECT_EQ(catalog.error().message.rfind("catalog: ", 0), 0U) << catalog.error().message;
}

TEST(DriveCatalog, EnduranceFromDwpd) {
    // 1 DWPD on 1 TB for 5 years: 1e12 * 365 * 5 = 1.825e15 bytes.
    Drive d;
    d.capacityBytes = 1000000000000ULL;
    d.dwpd = 1;
    d.warrantyYears = 5;
    EXPECT_DOUBLE_EQ(*d.enduranceBytes(), 1.825e15);
}

} // namespace
} // namespace lb
