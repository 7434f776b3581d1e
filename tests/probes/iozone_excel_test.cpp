// iozone's -R report against genuine iozone 3.465 outputs (tests/data/iozone/3.465): the same
// metrics as the normal output, read once when both are in a file, alone when only the report
// was kept; numbers that disagree, lines it cannot place and the -Rb spreadsheet are named.
#include "probes/iozone.h"
#include "tests/probes/golden.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace lb;
using lb::test::golden;
using lb::test::hasCaveat;
using lb::test::metricValue;
using lb::test::sortedMetrics;

namespace {

std::vector<iozone::PastedRun> runsOf(const std::string& text) {
    auto runs = iozone::parse(text);
    EXPECT_TRUE(runs) << (runs ? "" : runs.error().message);
    return runs ? std::move(*runs) : std::vector<iozone::PastedRun>{};
}

// The text from iozone's "Excel output is below:" (or the throughput report's title) on.
std::string reportOnly(const std::string& text, const std::string& from) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.substr(at);
}

const std::string autoFile = "iozone/3.465/auto-n4m-g32m-R.txt";

} // namespace

TEST(IozoneExcel, NormalOutputAndItsReportImportOnce) {
    const auto runs = runsOf(golden(autoFile));
    ASSERT_EQ(runs.size(), 1u);
    const auto& run = runs[0].run;
    // 11 + 12 + 13 rows of 4, 8 and 16 MB and 9 of 32 MB (record sizes from 64k), 13 tests each.
    EXPECT_EQ(run.metrics.size(), 45u * 13u);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.f4M-r4k.write"), 512773.0 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.f32M-r64k.write"), 461079.0 * 1024);
    EXPECT_EQ(run.origin.format, "iozone 3.465 automatic-mode table");
    // The 32 MB row's four skipped record sizes are 0 in each of the 13 tables.
    EXPECT_TRUE(hasCaveat(run, "52 cells of iozone's -R tables are 0")) << run.caveats.size();
    EXPECT_FALSE(hasCaveat(run, "do not say their unit"));
}

TEST(IozoneExcel, ReportAloneGivesTheSameMetrics) {
    const auto whole = runsOf(golden(autoFile));
    const auto alone = runsOf(reportOnly(golden(autoFile), "Excel output is below:"));
    ASSERT_EQ(whole.size(), 1u);
    ASSERT_EQ(alone.size(), 1u);
    EXPECT_EQ(sortedMetrics(alone[0].run.metrics), sortedMetrics(whole[0].run.metrics));
    EXPECT_EQ(alone[0].run.origin.format, "iozone automatic-mode -R report");
    EXPECT_EQ(alone[0].run.origin.spec.at("file_sizes_bytes"),
              whole[0].run.origin.spec.at("file_sizes_bytes"));
    // Without iozone's header the tables do not say kB/s or ops/s: read as kB/s, and said so.
    EXPECT_TRUE(hasCaveat(alone[0].run, "do not say their unit"));
}

TEST(IozoneExcel, OpsModeTables) {
    const auto text = golden("iozone/3.465/auto-O-i0-i1-R.txt");
    const auto runs = runsOf(text);
    ASSERT_EQ(runs.size(), 1u);
    const auto& run = runs[0].run;
    EXPECT_EQ(run.metrics.size(), 3u * 5u * 4u);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.f64k-r4k.write_ops"), 225344.0);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.f256k-r64k.reread_ops"), 306121.0);
    EXPECT_EQ(run.origin.convertedFrom, std::vector<std::string>{"ops/sec"});
}

TEST(IozoneExcel, ThroughputReportReadOnceOrAlone) {
    const auto text = golden("iozone/3.465/throughput-t2-i0-i1-R.txt");
    const auto whole = runsOf(text);
    ASSERT_EQ(whole.size(), 1u);
    EXPECT_EQ(whole[0].run.metrics.size(), 4u);
    EXPECT_DOUBLE_EQ(metricValue(whole[0].run, "iozone.write"), 1321200.88 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(whole[0].run, "iozone.reread"), 1928757.12 * 1024);
    EXPECT_EQ(whole[0].run.origin.format, "iozone 3.465 throughput report");

    const auto alone = runsOf(reportOnly(text, "\"Throughput report"));
    ASSERT_EQ(alone.size(), 1u);
    EXPECT_EQ(sortedMetrics(alone[0].run.metrics), sortedMetrics(whole[0].run.metrics));
    EXPECT_EQ(alone[0].run.origin.spec.at("record_size_bytes"), "4096");
}

TEST(IozoneExcel, RbRunsStandardOutputAndSpreadsheet) {
    const auto runs = runsOf(golden("iozone/3.465/auto-i0-Rb-stdout.txt"));
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].run.metrics.size(), 8u);
    EXPECT_DOUBLE_EQ(metricValue(runs[0].run, "iozone.f128k-r32k.rewrite"), 7476717.0 * 1024);

    const auto xls = golden("iozone/3.465/auto-i0-Rb.xls");
    EXPECT_TRUE(iozone::looksLikeSpreadsheet(xls));
    EXPECT_FALSE(iozone::looksLikeIozone(xls));
    EXPECT_FALSE(iozone::looksLikeSpreadsheet(golden(autoFile)));
}

// -N with -R: the tables are microseconds per operation too, and only the banner says so.
TEST(IozoneExcel, MicrosecondTablesAreLatencies) {
    const auto runs = runsOf(golden("iozone/3.465/auto-N-i0-i1-R.txt"));
    ASSERT_EQ(runs.size(), 1u);
    const auto& run = runs[0].run;
    EXPECT_EQ(run.metrics.size(), 15u * 4u); // the -R tables checked against the table above
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.f64k-r64k.write_latency"), 175000.0);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.f256k-r64k.rewrite_latency"), 12000.0);
    EXPECT_TRUE(run.caveats.empty());
}

TEST(IozoneExcel, DisagreeingNumberNamesLineAndField) {
    auto text = golden(autoFile);
    // The Writer report's first row: 512773 (also in the normal table) becomes 512774.
    const auto at = text.find("\"4096\"   512773", text.find("\"Writer report\""));
    ASSERT_NE(at, std::string::npos);
    text.replace(text.find("512773", at), 6, "512774");
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(at), '\n');
    const auto runs = iozone::parse(text);
    ASSERT_FALSE(runs);
    EXPECT_EQ(runs.error().message.rfind(std::to_string(line) + ": write: '512774' differs", 0), 0u)
        << runs.error().message;
}

TEST(IozoneExcel, BadCellAndUnplacedLineAreNamed) {
    const auto report = reportOnly(golden(autoFile), "Excel output is below:");
    // Line 5 is the Writer report's first row.
    auto bad = report;
    bad.replace(bad.find("512773"), 6, "51x773");
    const auto refused = iozone::parse(bad);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().message.rfind("5: write: ", 0), 0u) << refused.error().message;

    auto extra = report;
    extra.insert(extra.find("\"Re-writer report\""), "copied from the lab machine\n");
    const auto runs = runsOf(extra);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_TRUE(hasCaveat(runs[0].run, "line 10 ('copied from the lab machine') is not part"));

    auto tooMany = report;
    tooMany.replace(tooMany.find("236693 \n"), 8, "236693 1 2 3\n");
    const auto wide = iozone::parse(tooMany);
    ASSERT_FALSE(wide);
    EXPECT_NE(wide.error().message.find("14 values under 13 record sizes"), std::string::npos)
        << wide.error().message;
}

TEST(IozoneExcel, PublishedThroughputReportOfIozone3308) {
    const auto text = golden("iozone/3.308/forum-l5-u5-s50m-R.txt");
    const auto whole = runsOf(text);
    ASSERT_EQ(whole.size(), 1u);
    const auto& run = whole[0].run;
    EXPECT_EQ(run.metrics.size(), 11u);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.mixed"), 1135221.11 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.pread"), 1598297.62 * 1024);
    EXPECT_EQ(run.origin.spec.at("processes"), "5");

    // "Output is in Kbytes/sec", "Record size = 4 Kbytes ": the report alone, as 3.308 spells it.
    const auto alone = runsOf(reportOnly(text, "\"Throughput report"));
    ASSERT_EQ(alone.size(), 1u);
    EXPECT_EQ(sortedMetrics(alone[0].run.metrics), sortedMetrics(run.metrics));
    EXPECT_TRUE(alone[0].run.caveats.empty());
}
