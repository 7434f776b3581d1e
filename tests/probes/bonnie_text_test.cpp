// bonnie++ text tables against golden files: real 2.00a tables (each with the CSV line of the same
// run), bon_csv2txt output, hand-written 1.03/1.96/1.97 tables and pastes with prose
// (tests/data/bonnie++/<version>/README.txt says where each came from).
#include "engine/measure/metric.h"
#include "probes/bonnie_csv.h"
#include "probes/bonnie_text.h"
#include "tests/probes/golden.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace lb;
using lb::test::golden;
using lb::test::hasNote;
using lb::test::metricValue;
using lb::test::sortedMetrics;
using lb::test::sortedNotes;

namespace {

std::vector<bonnie::PastedRun> paste(const std::string& text) {
    auto runs = bonnie::parsePaste(text);
    EXPECT_TRUE(runs) << (runs ? "" : runs.error().message);
    return runs ? *runs : std::vector<bonnie::PastedRun>{};
}

ParsedRun onlyRun(const std::string& text) {
    auto runs = paste(text);
    EXPECT_EQ(runs.size(), 1u);
    return runs.empty() ? ParsedRun{} : runs.front().run;
}

ParsedRun csv(const std::string& line) {
    auto run = bonnie::parseCsvLine(line);
    EXPECT_TRUE(run) << (run ? "" : run.error().message);
    return run ? *run : ParsedRun{};
}

std::string firstLines(const std::string& text, int n) {
    std::size_t pos = 0;
    for (int i = 0; i < n && pos != std::string::npos; ++i)
        pos = text.find('\n', pos + (i ? 1 : 0));
    return text.substr(0, pos == std::string::npos ? text.size() : pos + 1);
}

std::string errorOf(const std::string& text) {
    auto runs = bonnie::parsePaste(text);
    EXPECT_FALSE(runs);
    return runs ? std::string() : runs.error().message;
}

} // namespace

// The same bonnie++ 2.00a run, read from its text table and from its CSV line: every figure the
// table prints exactly (k rates, CPU, seeks, latencies, +++++) comes out the same.
TEST(BonnieText, SameRunAsTableAndAsCsvGivesIdenticalMetrics) {
    const auto [table, csvLine] =
        lb::test::splitLastLine(golden("bonnie++/2.00a/table-s64-n1.stdout"));
    const auto fromText = onlyRun(table);
    const auto fromCsv = csv(csvLine);
    EXPECT_EQ(sortedMetrics(fromText.metrics), sortedMetrics(fromCsv.metrics));
    EXPECT_EQ(sortedNotes(fromText.notes), sortedNotes(fromCsv.notes));
    EXPECT_EQ(fromText.toolVersion, fromCsv.toolVersion);
    EXPECT_EQ(fromText.workload, fromCsv.workload);
    EXPECT_FALSE(fromText.metrics.empty());
    EXPECT_TRUE(hasNote(fromText, MetricNote::Kind::Excludes, "bonnie.put_block", "+++++"));
}

TEST(BonnieText, SameRunAs197TableAndAsCsvGivesIdenticalMetrics) {
    const auto fromText = onlyRun(golden("bonnie++/1.97/table-seed-bare-metal.txt"));
    const auto fromCsv = csv(golden("bonnie++/1.97/seed-bare-metal.csv"));
    EXPECT_EQ(sortedMetrics(fromText.metrics), sortedMetrics(fromCsv.metrics));
    EXPECT_EQ(sortedNotes(fromText.notes), sortedNotes(fromCsv.notes));
    EXPECT_EQ(fromText.toolVersion, "1.97");
    EXPECT_DOUBLE_EQ(metricValue(fromText, "bonnie.put_block"), 343719.0 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(fromText, "bonnie.seeks"), 612.4);
    EXPECT_EQ(fromText.origin.format, "bonnie++ 1.97 text table");
    EXPECT_EQ(fromText.origin.spec.at("machine"), "bare-metal");
    EXPECT_EQ(fromText.origin.spec.at("size"), "63G");
}

// 2.00a rounds block rates it prints in MiB/s and prints the file count where the file-creation
// rates belong: rounded figures are qualified, the file rates left out with a reason.
TEST(BonnieText, Table200aRoundsRatesAndPrintsFileCountsForFileRates) {
    const auto [table, csvLine] =
        lb::test::splitLastLine(golden("bonnie++/2.00a/table-s512-n16-files.stdout"));
    const auto text = onlyRun(table);
    const auto exact = csv(csvLine);
    for (const auto& m : text.metrics) {
        const double want = metricValue(exact, m.name);
        if (hasNote(text, MetricNote::Kind::Qualifies, m.name, "rounded"))
            EXPECT_LE(std::abs(m.value - want), 0.5 * 1024 * 1024) << m.name; // "131m": ±0.5 MiB/s
        else
            EXPECT_DOUBLE_EQ(m.value, want) << m.name;
    }
    EXPECT_TRUE(hasNote(text, MetricNote::Kind::Qualifies, "bonnie.put_block", "131m"));
    for (const char* test : {"seq_create", "seq_del", "ran_create", "ran_stat", "ran_del"}) {
        const std::string name = std::string("bonnie.") + test;
        EXPECT_EQ(lb::test::findMetric(text.metrics, name), nullptr) << name;
        EXPECT_TRUE(hasNote(text, MetricNote::Kind::Excludes, name, "number of files (16384)"))
            << name;
        EXPECT_NE(lb::test::findMetric(text.metrics, name + "_cpu"), nullptr) << name;
    }
    EXPECT_TRUE(hasNote(text, MetricNote::Kind::Excludes, "bonnie.seq_stat", "+++++"));
    EXPECT_EQ(text.origin.spec.at("files"), "16:4096:1024/2");
}

TEST(BonnieText, TableFollowedByItsCsvLineGivesTheCsvValues) {
    const auto whole = golden("bonnie++/2.00a/table-s512-n16-files.stdout");
    const auto runs = paste(whole);
    ASSERT_EQ(runs.size(), 1u);
    const auto exact = csv(lb::test::splitLastLine(whole).second);
    EXPECT_EQ(runs[0].run.metrics, exact.metrics);
    EXPECT_EQ(runs[0].line, 4);
    EXPECT_EQ(runs[0].raw, whole);
    EXPECT_NE(runs[0].run.origin.format.find("CSV"), std::string::npos);
}

// -f leaves the per-char cells blank, a 6-digit seek rate shifts the rest of its row, and a long
// size label cuts the machine name to "t": columns, not token counts, say which cell is which.
TEST(BonnieText, ColumnsTellBlankCellsFromShiftedOnes) {
    const auto run = onlyRun(firstLines(golden("bonnie++/2.00a/table-c2-f-n0.stdout"), 5));
    EXPECT_EQ(lb::test::findMetric(run.metrics, "bonnie.putc"), nullptr);
    EXPECT_EQ(lb::test::findMetric(run.metrics, "bonnie.getc"), nullptr);
    EXPECT_EQ(lb::test::findMetric(run.metrics, "bonnie.getc_latency"), nullptr);
    EXPECT_DOUBLE_EQ(metricValue(run, "bonnie.put_block"), 328.0 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(run, "bonnie.seeks"), 105236);
    EXPECT_DOUBLE_EQ(metricValue(run, "bonnie.seeks_cpu"), 126);
    EXPECT_DOUBLE_EQ(metricValue(run, "bonnie.get_block_latency"), 8935e3);
    EXPECT_TRUE(hasNote(run, MetricNote::Kind::Excludes, "bonnie.get_block", "+++++"));
    EXPECT_EQ(run.origin.spec.at("machine"), "t");
    EXPECT_EQ(run.origin.spec.at("size"), "256M:4k:2:3000000");

    // With its CSV line (after a blank line, named "testhost" in full) the CSV wins.
    const auto whole = golden("bonnie++/2.00a/table-c2-f-n0.stdout");
    const auto runs = paste(whole);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_DOUBLE_EQ(metricValue(runs[0].run, "bonnie.put_block"), 335968.0 * 1024);
}

TEST(BonnieText, FileBlockAloneIsARun) {
    const auto run = onlyRun(firstLines(golden("bonnie++/2.00a/table-s0-n4.stdout"), 5));
    EXPECT_EQ(run.toolVersion, "2.00a");
    EXPECT_EQ(run.origin.spec.at("machine"), "testhost");
    EXPECT_EQ(lb::test::findMetric(run.metrics, "bonnie.put_block"), nullptr);
    EXPECT_DOUBLE_EQ(metricValue(run, "bonnie.seq_create_cpu"), 62);
    EXPECT_DOUBLE_EQ(metricValue(run, "bonnie.ran_del_latency"), 8105e3);
    EXPECT_TRUE(hasNote(run, MetricNote::Kind::Excludes, "bonnie.seq_create", "(4096)"));
}

// bon_csv2txt prints every throughput row, then every file row with its machine's name, real
// file rates, and "0k" beside +++ where bonnie++ wrote +++++.
TEST(BonnieText, BonCsv2TxtPairsRowsByMachine) {
    const auto runs = paste(golden("bonnie++/2.00a/bon_csv2txt-two-machines.txt"));
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].machine, "testho");
    EXPECT_EQ(runs[1].machine, "otherho");
    EXPECT_DOUBLE_EQ(metricValue(runs[0].run, "bonnie.seq_create"), 7314);
    EXPECT_DOUBLE_EQ(metricValue(runs[0].run, "bonnie.ran_del"), 319);
    EXPECT_DOUBLE_EQ(metricValue(runs[1].run, "bonnie.putc"), 303.0 * 1024);
    EXPECT_EQ(lb::test::findMetric(runs[1].run.metrics, "bonnie.put_block"), nullptr);
    EXPECT_TRUE(hasNote(runs[1].run, MetricNote::Kind::Excludes, "bonnie.put_block", "0k"));
    EXPECT_TRUE(hasNote(runs[1].run, MetricNote::Kind::Excludes, "bonnie.seq_create", "+++++"));
}

TEST(BonnieText, SeveralMachinesAmongProse) {
    const auto runs = paste(golden("bonnie++/1.97/paste-two-machines.txt"));
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].machine, "bare-metal");
    EXPECT_EQ(runs[1].machine, "guest-vm");
    EXPECT_EQ(runs[0].line, 6);
    EXPECT_DOUBLE_EQ(metricValue(runs[0].run, "bonnie.put_block"), 343719.0 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(runs[1].run, "bonnie.put_block"), 217553.0 * 1024);
    EXPECT_EQ(sortedMetrics(runs[1].run.metrics),
              sortedMetrics(csv(golden("bonnie++/1.97/seed-guest.csv")).metrics));

    const auto real = paste(golden("bonnie++/2.00a/paste-two-tables-with-prose.txt"));
    ASSERT_EQ(real.size(), 2u);
    EXPECT_EQ(real[0].machine, "testhost");
    EXPECT_EQ(real[1].machine, "t");
    EXPECT_DOUBLE_EQ(metricValue(real[1].run, "bonnie.seeks"), 105236);
}

// The 1.0x CSV line after the table (name first, no version) gives the run; the table says
// which 1.0x.
TEST(BonnieText, Version103HasNoLatencyRows) {
    const auto run = onlyRun(golden("bonnie++/1.03/table-4g.txt"));
    EXPECT_EQ(run.toolVersion, "1.03");
    EXPECT_EQ(run.origin.format, "bonnie++ 1.03 CSV (its text table, rounded, not used)");
    auto table = golden("bonnie++/1.03/table-4g.txt");
    table.erase(table.find("storage01,4G"));
    EXPECT_EQ(onlyRun(table).origin.format, "bonnie++ 1.03 text table");
    EXPECT_DOUBLE_EQ(metricValue(onlyRun(table), "bonnie.seeks"), 200.4);
    EXPECT_DOUBLE_EQ(metricValue(run, "bonnie.putc"), 45123.0 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(run, "bonnie.seeks"), 200.4);
    EXPECT_DOUBLE_EQ(metricValue(run, "bonnie.seeks_cpu"), 0);
    EXPECT_DOUBLE_EQ(metricValue(run, "bonnie.seq_create"), 3123);
    EXPECT_DOUBLE_EQ(metricValue(run, "bonnie.ran_del"), 10123);
    EXPECT_TRUE(hasNote(run, MetricNote::Kind::Excludes, "bonnie.seq_stat", "+++++"));
    for (const auto& m : run.metrics)
        EXPECT_EQ(m.name.find("_latency"), std::string::npos) << m.name;
}

TEST(BonnieText, Version196AndARespacedPasteOfIt) {
    const auto table = onlyRun(golden("bonnie++/1.96/table-old-hdd.txt"));
    const auto respaced = onlyRun(golden("bonnie++/1.96/table-old-hdd-respaced.txt"));
    const auto fromCsv = csv(golden("bonnie++/1.96/hdd-full.csv"));
    EXPECT_EQ(sortedMetrics(table.metrics), sortedMetrics(fromCsv.metrics));
    EXPECT_EQ(sortedMetrics(respaced.metrics), sortedMetrics(fromCsv.metrics));
    EXPECT_DOUBLE_EQ(metricValue(table, "bonnie.seq_del_latency"), 6120e6);
}

TEST(BonnieText, EveryMetricIsInTheCatalog) {
    for (const char* file :
         {"2.00a/table-s64-n1.stdout", "2.00a/table-s512-n16-files.stdout",
          "2.00a/table-c2-f-n0.stdout", "2.00a/table-s0-n4.stdout",
          "2.00a/bon_csv2txt-two-machines.txt", "2.00a/paste-two-tables-with-prose.txt",
          "1.97/paste-two-machines.txt", "1.96/table-old-hdd.txt", "1.03/table-4g.txt"})
        for (const auto& r : paste(golden(std::string("bonnie++/") + file)))
            for (const auto& m : r.run.metrics) {
                const auto info = describeMetric(m.name);
                ASSERT_TRUE(info) << file << ": " << m.name;
                EXPECT_EQ(info->unit, m.unit) << m.name;
            }
}

TEST(BonnieText, BadCellsNameLineAndField) {
    auto table = golden("bonnie++/1.97/table-seed-bare-metal.txt");
    auto bad = table;
    bad.replace(bad.find("343719"), 6, "34x719");
    EXPECT_EQ(errorOf(bad), "4: put_block: '34x719' is not a number");
    bad = table;
    bad.replace(bad.find("31107us"), 7, "31107xs");
    EXPECT_EQ(errorOf(bad), "5: put_block_latency: '31107xs' has an unknown unit 'xs' (expected "
                            "ns, us, ms or s)");
    bad = table;
    bad.replace(bad.find(" 47 "), 4, " 4% ");
    EXPECT_EQ(errorOf(bad), "9: seq_create_cpu: '4%' is not a number");
}

TEST(BonnieText, ReSpacedRowWithMissingCellsIsAmbiguous) {
    const auto respaced = golden("bonnie++/1.96/table-old-hdd-respaced.txt");
    auto bad = respaced;
    bad.replace(bad.find(" 841 97"), 7, "");
    const auto message = errorOf(bad);
    EXPECT_EQ(message.rfind("4: row: 12 fields for a label and 12 columns", 0), 0u) << message;
    EXPECT_NE(message.find("re-spaced"), std::string::npos) << message;
}

TEST(BonnieText, NothingToReadIsAnError) {
    EXPECT_EQ(errorOf("just some words\n"), "1: no bonnie++ table row or CSV line");
    EXPECT_EQ(errorOf("Latency 1us\n"), "1: no bonnie++ table row or CSV line");
    const auto headerOnly = firstLines(golden("bonnie++/1.97/table-seed-bare-metal.txt"), 3) +
                            "Latency              8425us\n";
    EXPECT_EQ(errorOf(headerOnly), "4: Latency: no table row above it");
    EXPECT_TRUE(bonnie::looksLikeTable(headerOnly));
    EXPECT_FALSE(bonnie::looksLikeTable("1.97,1.97,h,1\n"));
}
