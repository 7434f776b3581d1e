// bonnie++ 1.0x CSV lines (no format version, 27 fields), alone, after their text tables, and in
// one file with 1.96+ lines whichever comes first; against genuine bonnie++ 1.03c results
// (tests/data/bonnie++/1.03/README.txt) and real 2.00a captures.
#include "probes/bonnie_csv.h"
#include "probes/bonnie_text.h"
#include "probes/import.h"
#include "tests/probes/golden.h"

#include <gtest/gtest.h>

using namespace lb;
using lb::test::findMetric;
using lb::test::golden;
using lb::test::hasNote;
using lb::test::metricValue;

namespace {

constexpr double KiB = 1024;

ImportedFile imported(const std::string& relative) {
    auto f = parseResultFile(relative, golden(relative));
    EXPECT_TRUE(f) << relative << ": " << (f ? "" : f.error().message);
    return f ? *f : ImportedFile{};
}

std::string firstLine(const std::string& text) {
    return text.substr(0, text.find('\n'));
}

} // namespace

TEST(Bonnie1xCsv, LineIsReadByItsLayout) {
    const auto line = firstLine(golden("bonnie++/1.03/kvm-three-lines.csv"));
    auto run = bonnie::parseCsvLine(line);
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(run->toolVersion, "1.0x");
    EXPECT_EQ(run->origin.spec.at("machine"), "virtiotest");
    EXPECT_EQ(run->origin.spec.at("size"), "500M");
    EXPECT_EQ(run->origin.spec.at("files"), "16");
    EXPECT_DOUBLE_EQ(metricValue(*run, "bonnie.putc"), 28462 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(*run, "bonnie.put_block"), 29208 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(*run, "bonnie.put_block_cpu"), 7);
    EXPECT_DOUBLE_EQ(metricValue(*run, "bonnie.get_block"), 362458 * KiB);
    EXPECT_DOUBLE_EQ(metricValue(*run, "bonnie.seeks"), 3790.7);
    EXPECT_DOUBLE_EQ(metricValue(*run, "bonnie.seeks_cpu"), 13);
    EXPECT_EQ(findMetric(run->metrics, "bonnie.seq_create"), nullptr); // +++++
    EXPECT_TRUE(hasNote(*run, MetricNote::Kind::Excludes, "bonnie.seq_create", "+++++"));
    EXPECT_EQ(run->metrics.size(), 12u);
    EXPECT_EQ(bonnie::machineOf(line), "virtiotest");
}

TEST(Bonnie1xCsv, FileOfLinesKeepsMachinesApart) {
    const auto f = imported("bonnie++/1.03/kvm-three-lines.csv");
    EXPECT_EQ(f.format, ImportFormat::BonnieCsv);
    ASSERT_EQ(f.runs.size(), 3u);
    EXPECT_EQ(f.runs[2].origin.spec.at("machine"), "eve");
    EXPECT_EQ(f.description, "bonnie++ 1.0x CSV (no format version), 3 runs of 2 machines, "
                             "36 metrics");
}

// The CSV line after each table gives the exact values (seeks 3790.7, the table 3791), and the
// table says which 1.0x wrote it.
TEST(Bonnie1xCsv, TableThenItsLine) {
    const auto f = imported("bonnie++/1.03/kvm-ide-virtio-host.txt");
    EXPECT_EQ(f.format, ImportFormat::BonnieText);
    ASSERT_EQ(f.runs.size(), 3u);
    for (const auto& r : f.runs)
        EXPECT_EQ(r.toolVersion, "1.03c");
    const auto seeks = std::find_if(f.runs[0].metrics.begin(), f.runs[0].metrics.end(),
                                    [](const Metric& m) { return m.name == "bonnie.seeks"; });
    ASSERT_NE(seeks, f.runs[0].metrics.end());
    EXPECT_DOUBLE_EQ(seeks->value, 3790.7);
}

// One rule whatever comes first: every line of a file that mixes versions is imported.
TEST(Bonnie1xCsv, MixedVersionsEveryLineImported) {
    for (const char* file :
         {"bonnie++/1.03/mixed-2.00a-then-1.03c.csv", "bonnie++/1.03/mixed-1.03c-then-2.00a.csv"}) {
        const auto f = imported(file);
        ASSERT_EQ(f.runs.size(), 4u) << file;
        std::size_t old = 0;
        for (const auto& r : f.runs)
            old += r.toolVersion == "1.0x" ? 1u : 0u;
        EXPECT_EQ(old, 1u) << file;
    }
}

// A long comma-separated line in a paste that is no bonnie++ line refuses the paste, named.
TEST(Bonnie1xCsv, UnreadableRecordInAPasteIsNamed) {
    auto text = golden("bonnie++/1.03/kvm-ide-virtio-host.txt");
    text += "\nsomething,500M,1,2,3,4,5,6,7,8,9,10,11,12,13,14\n";
    auto r = parseResultFile("paste.txt", text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message.rfind("paste.txt:36: a line of 16 comma-separated fields", 0), 0u)
        << r.error().message;
}

TEST(Bonnie1xCsv, NeitherVersionNorOldLayoutIsNamed) {
    auto r = bonnie::parseCsvLine("host,500M,1,2,3");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message,
              "field 1 (format_version): 'host' is not a bonnie++ CSV format version this parser "
              "knows (1.96, 1.97, 1.98), nor is the line one of bonnie++ 1.0x's (27 fields, the "
              "machine name first): 5 fields");
}
