// The bonnie++ CSV parser against golden files: real 2.00a output, hand-written 1.96/1.97 lines
// and broken inputs (tests/data/bonnie++/<version>/README.txt says where each came from).
#include "engine/measure/metric.h"
#include "probes/bonnie_csv.h"
#include "tests/support/metric_note_print.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace lb;

namespace {

const std::filesystem::path dataDir = std::filesystem::path(LAYOUTBENCH_TEST_DATA_DIR) / "bonnie++";

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << "cannot open " << path;
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string golden(const std::string& relative) {
    return readFile(dataDir / relative);
}

ParsedRun parseGolden(const std::string& relative) {
    auto run = bonnie::parseCsvLine(golden(relative));
    EXPECT_TRUE(run) << relative << ": " << (run ? "" : run.error().message);
    return run ? *run : ParsedRun{};
}

std::optional<Metric> find(const ParsedRun& run, const std::string& name) {
    for (const auto& m : run.metrics)
        if (m.name == name)
            return m;
    return std::nullopt;
}

double value(const ParsedRun& run, const std::string& name) {
    const auto m = find(run, name);
    EXPECT_TRUE(m) << "no metric " << name;
    return m ? m->value : -1;
}

bool hasCaveat(const ParsedRun& run, const std::string& caveat) {
    for (const auto& c : run.caveats)
        if (c == caveat)
            return true;
    return false;
}

std::string errorOf(const std::string& text) {
    auto run = bonnie::parseCsvLine(text);
    EXPECT_FALSE(run) << "accepted: " << text;
    if (run)
        return {};
    EXPECT_EQ(run.error().kind, ErrorKind::BadInput);
    return run.error().message;
}

std::vector<std::filesystem::path> goldenCsvFiles(const std::string& folder) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dataDir / folder))
        if (entry.path().extension() == ".csv")
            files.push_back(entry.path());
    return files;
}

constexpr double KiB = 1024.0;

} // namespace

// Every good golden file parses, and every metric it yields is in the catalog with the unit the
// catalog expects.
TEST(BonnieCsv, EveryGoodGoldenFileParsesIntoCatalogMetrics) {
    int files = 0;
    for (const auto* folder : {"2.00a", "1.97", "1.96"}) {
        for (const auto& path : goldenCsvFiles(folder)) {
            ++files;
            SCOPED_TRACE(path.string());
            const auto text = readFile(path);
            EXPECT_TRUE(bonnie::looksLikeCsv(text));
            auto run = bonnie::parseCsvLine(text);
            ASSERT_TRUE(run) << run.error().message;
            EXPECT_EQ(run->workload, "bonnie");
            EXPECT_FALSE(run->failed);
            EXPECT_FALSE(run->metrics.empty());
            for (const auto& m : run->metrics) {
                const auto info = describeMetric(m.name);
                ASSERT_TRUE(info) << m.name << " is not in the metric catalog";
                EXPECT_EQ(info->unit, m.unit) << m.name;
                EXPECT_GE(m.value, 0) << m.name;
            }
            for (const auto& c : run->caveats)
                EXPECT_TRUE(describeMetric(c.substr(0, c.find(':')))) << c;
        }
    }
    EXPECT_GE(files, 10);
}

TEST(BonnieCsv, SeedFilesCarryTheImportNumbers) {
    const auto bare = parseGolden("1.97/seed-bare-metal.csv");
    EXPECT_EQ(bare.toolVersion, "1.97");
    EXPECT_EQ(value(bare, "bonnie.put_block"), 343719 * KiB);
    EXPECT_EQ(find(bare, "bonnie.put_block")->unit, Unit::BytesPerSecond);
    EXPECT_EQ(value(bare, "bonnie.put_block_cpu"), 34);
    EXPECT_EQ(find(bare, "bonnie.put_block_cpu")->unit, Unit::Percent);
    EXPECT_EQ(value(bare, "bonnie.seeks"), 612.4);
    EXPECT_EQ(find(bare, "bonnie.seeks")->unit, Unit::OpsPerSecond);
    EXPECT_EQ(value(bare, "bonnie.put_block_latency"), 31107e3); // 31107us
    EXPECT_EQ(value(bare, "bonnie.rewrite_latency"), 1653e6);    // 1653ms
    EXPECT_EQ(find(bare, "bonnie.rewrite_latency")->unit, Unit::Nanoseconds);
    EXPECT_EQ(value(bare, "bonnie.ran_del"), 26980);

    const auto guest = parseGolden("1.97/seed-guest.csv");
    EXPECT_EQ(value(guest, "bonnie.put_block"), 217553 * KiB);
    EXPECT_EQ(value(guest, "bonnie.seeks_latency"), 131e6); // 131ms
}

TEST(BonnieCsv, TooFastGivesACaveatAndNoMetric) {
    const auto bare = parseGolden("1.97/seed-bare-metal.csv");
    EXPECT_FALSE(find(bare, "bonnie.seq_stat"));
    EXPECT_FALSE(find(bare, "bonnie.seq_stat_cpu"));
    EXPECT_TRUE(hasCaveat(bare, "bonnie.seq_stat: too fast to time (+++++)"));
    EXPECT_TRUE(hasCaveat(bare, "bonnie.ran_stat: too fast to time (+++++)"));
    // The +++ in the CPU column belongs to the same test: no second caveat.
    EXPECT_EQ(bare.caveats.size(), 2u);

    const auto tiny = parseGolden("2.00a/s64-n1-too-fast.csv");
    EXPECT_FALSE(find(tiny, "bonnie.put_block"));
    EXPECT_TRUE(hasCaveat(tiny, "bonnie.put_block: too fast to time (+++++)"));
    // Too-fast tests still report a latency.
    EXPECT_EQ(value(tiny, "bonnie.put_block_latency"), 89e3);
    EXPECT_EQ(tiny.caveats.size(), 10u); // 4 IO tests and all 6 file tests
}

TEST(BonnieCsv, TooFastNamesEachMissingMetricInAnExcludesNote) {
    // So the comparison lists them as not compared instead of losing them.
    const auto bare = parseGolden("1.97/seed-bare-metal.csv");
    const auto excludes = [](const ParsedRun& run) {
        std::vector<MetricNote> out;
        for (const auto& n : run.notes)
            if (n.kind == MetricNote::Kind::Excludes)
                out.push_back(n);
        return out;
    };
    EXPECT_EQ(excludes(bare),
              (std::vector<MetricNote>{
                  {MetricNote::Kind::Excludes, "bonnie.seq_stat", "too fast to time (+++++)"},
                  {MetricNote::Kind::Excludes, "bonnie.seq_stat_cpu", "too fast to time (+++)"},
                  {MetricNote::Kind::Excludes, "bonnie.ran_stat", "too fast to time (+++++)"},
                  {MetricNote::Kind::Excludes, "bonnie.ran_stat_cpu", "too fast to time (+++)"},
              }));

    const auto tiny = parseGolden("2.00a/s64-n1-too-fast.csv");
    EXPECT_EQ(excludes(tiny).size(), 20u); // rate and CPU of 4 IO tests and 6 file tests
    for (const auto& n : excludes(tiny)) {
        EXPECT_EQ(n.kind, MetricNote::Kind::Excludes) << n.metrics;
        EXPECT_FALSE(find(tiny, n.metrics)) << n.metrics << " has a value";
        EXPECT_TRUE(describeMetric(n.metrics)) << n.metrics << " is not in the catalog";
    }
    // A latency that was measured is not excluded with its test's rate.
    for (const auto& n : excludes(tiny))
        EXPECT_FALSE(metricMatches(n.metrics, "bonnie.put_block_latency")) << n.metrics;
}

// How much work each test did (-s, -n), for the comparison to hold against the other side's.
TEST(BonnieCsv, TheFileSizeAndFileCountAreMethodNotesOfTheirTests) {
    const auto bare = parseGolden("1.97/seed-bare-metal.csv");
    const auto on = [&](const std::string& metric) {
        std::vector<std::string> out;
        for (const auto& n : bare.notes)
            if (n.kind == MetricNote::Kind::Method && metricMatches(n.metrics, metric))
                out.push_back(n.text);
        return out;
    };
    EXPECT_EQ(on("bonnie.put_block"), (std::vector<std::string>{"file_size=63G"}));
    EXPECT_EQ(on("bonnie.seeks_latency"), (std::vector<std::string>{"file_size=63G"}));
    EXPECT_EQ(on("bonnie.seq_create"), (std::vector<std::string>{"files=16"}));
}

TEST(BonnieCsv, LatencyUnits) {
    const auto hdd = parseGolden("1.97/hdd-slow-seeks.csv");
    EXPECT_EQ(value(hdd, "bonnie.putc_latency"), 14227e3);     // us
    EXPECT_EQ(value(hdd, "bonnie.put_block_latency"), 1198e6); // ms
    EXPECT_EQ(value(hdd, "bonnie.rewrite_latency"), 128e9);    // s
    EXPECT_EQ(value(hdd, "bonnie.seeks"), 187.4);

    const std::string prefix = "1.97,1.97,h,1,1,1G,,1,1,1,1,1,1,1,1,1,1,1,1,,,,,,,,,,,,,,,,,,";
    auto ns = bonnie::parseCsvLine(prefix + "250ns,,,,,,,,,,,");
    ASSERT_TRUE(ns) << ns.error().message;
    EXPECT_EQ(value(*ns, "bonnie.putc_latency"), 250);
    EXPECT_EQ(errorOf(prefix + "5xs,,,,,,,,,,,"),
              "field 37 (putc_latency): '5xs' has an unknown unit 'xs' (expected ns, us, ms or s)");
}

// Real 2.00a output: format 1.98, 50 fields, two seek fields after io_chunk_size.
TEST(BonnieCsv, Real200aFieldsAtTheRightPositions) {
    const auto files = parseGolden("2.00a/s512-n16-files.csv");
    EXPECT_EQ(files.toolVersion, "2.00a");
    EXPECT_EQ(value(files, "bonnie.putc"), 1981 * KiB);
    EXPECT_EQ(value(files, "bonnie.putc_cpu"), 99);
    EXPECT_EQ(value(files, "bonnie.put_block"), 511098 * KiB);
    EXPECT_EQ(value(files, "bonnie.put_block_cpu"), 88);
    EXPECT_EQ(value(files, "bonnie.getc"), 3205 * KiB);
    EXPECT_FALSE(find(files, "bonnie.rewrite"));
    EXPECT_EQ(value(files, "bonnie.seq_create"), 9249);
    EXPECT_EQ(value(files, "bonnie.seq_create_cpu"), 92);
    EXPECT_EQ(value(files, "bonnie.seq_del"), 14522);
    EXPECT_EQ(value(files, "bonnie.ran_create"), 4655);
    EXPECT_EQ(value(files, "bonnie.ran_del"), 14933);
    EXPECT_EQ(value(files, "bonnie.ran_del_cpu"), 33);
    EXPECT_EQ(value(files, "bonnie.putc_latency"), 4378e3);
    EXPECT_EQ(value(files, "bonnie.seeks_latency"), 4072e3);
    EXPECT_EQ(value(files, "bonnie.seq_create_latency"), 3802e3);
    EXPECT_EQ(value(files, "bonnie.ran_del_latency"), 2995e3);
    // 12 latencies, 3 timed IO tests and 4 timed file tests, each with its CPU column.
    EXPECT_EQ(files.metrics.size(), 12u + 6u + 8u);

    const auto seeks = parseGolden("2.00a/c2-seeks3M.csv");
    EXPECT_EQ(value(seeks, "bonnie.seeks"), 1278409);
    EXPECT_EQ(value(seeks, "bonnie.seeks_cpu"), 360); // -c 2: above 100 percent
    EXPECT_EQ(value(seeks, "bonnie.put_block"), 463072 * KiB);
}

TEST(BonnieCsv, EmptyFieldsAreTestsNotRun) {
    const auto noFiles = parseGolden("2.00a/s1024-n0-f.csv"); // -n 0 -f
    EXPECT_FALSE(find(noFiles, "bonnie.putc"));
    EXPECT_FALSE(find(noFiles, "bonnie.putc_latency"));
    EXPECT_FALSE(find(noFiles, "bonnie.getc"));
    EXPECT_FALSE(find(noFiles, "bonnie.seq_create"));
    EXPECT_EQ(value(noFiles, "bonnie.put_block"), 343659 * KiB);
    EXPECT_EQ(value(noFiles, "bonnie.get_block_latency"), 72e3);
    for (const auto& c : noFiles.caveats)
        EXPECT_EQ(c.find("bonnie.putc"), std::string::npos) << "not-run test got a caveat: " << c;

    const auto noIo = parseGolden("2.00a/s0-n64-files-only.csv"); // -s 0
    EXPECT_FALSE(find(noIo, "bonnie.put_block"));
    EXPECT_FALSE(find(noIo, "bonnie.put_block_latency"));
    EXPECT_EQ(value(noIo, "bonnie.seq_create"), 7119);
    EXPECT_EQ(value(noIo, "bonnie.seq_del"), 109171);
    EXPECT_EQ(value(noIo, "bonnie.ran_del_latency"), 3012e3);
}

TEST(BonnieCsv, Format196IncludingItsShortNoIoLine) {
    const auto full = parseGolden("1.96/hdd-full.csv");
    EXPECT_EQ(full.toolVersion, "1.96");
    EXPECT_EQ(value(full, "bonnie.put_block"), 103210 * KiB);
    EXPECT_EQ(value(full, "bonnie.seeks"), 231.9);

    const auto shortLine = parseGolden("1.96/s0-47-fields.csv");
    EXPECT_FALSE(find(shortLine, "bonnie.put_block"));
    EXPECT_EQ(value(shortLine, "bonnie.seq_create"), 1688);
    EXPECT_EQ(value(shortLine, "bonnie.ran_del_cpu"), 3);
    EXPECT_EQ(value(shortLine, "bonnie.seq_create_latency"), 3911e6);
    EXPECT_EQ(value(shortLine, "bonnie.ran_del_latency"), 9580e6);
    EXPECT_EQ(shortLine.metrics.size(), 12u + 6u);
}

TEST(BonnieCsv, WithoutQuietTheCsvIsTheLastStdoutLine) {
    const auto stdoutText = golden("2.00a/s64-n1-without-q.stdout");
    EXPECT_FALSE(bonnie::looksLikeCsv(stdoutText));
    EXPECT_FALSE(bonnie::parseCsvLine(stdoutText));
    auto body = std::string_view(stdoutText);
    body.remove_suffix(1); // the final newline
    const auto lastLine = body.substr(body.rfind('\n') + 1);
    auto run = bonnie::parseCsvLine(lastLine);
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(value(*run, "bonnie.seq_create"), 1000);
}

TEST(BonnieCsv, ToleratesWhitespaceAndLineEndings) {
    const auto line = golden("1.97/seed-guest.csv"); // ends in '\n'
    auto crlf = bonnie::parseCsvLine("  " + line.substr(0, line.size() - 1) + "\r\n\n");
    ASSERT_TRUE(crlf) << crlf.error().message;
    EXPECT_EQ(value(*crlf, "bonnie.put_block"), 217553 * KiB);
    EXPECT_EQ(*crlf, parseGolden("1.97/seed-guest.csv"));
}

TEST(BonnieCsv, BrokenFilesNameTheProblem) {
    EXPECT_EQ(errorOf(golden("broken/truncated.csv")),
              "expected 50 fields (format 1.98), got 29 (truncated line?)");
    EXPECT_EQ(errorOf(golden("broken/extra-field.csv")),
              "expected 50 fields (format 1.98), got 51");
    EXPECT_EQ(errorOf(golden("broken/non-numeric.csv")),
              "field 10 (put_block): 'abc' is not a number");
    EXPECT_EQ(errorOf(golden("broken/negative.csv")), "field 27 (seq_create): '-9249' is negative");
    EXPECT_EQ(errorOf(golden("broken/latency-no-unit.csv")),
              "field 40 (put_block_latency): '361' has no unit (expected ns, us, ms or s)");
    // A line of neither layout: too few fields for 1.0x, no format version for 1.96+.
    EXPECT_NE(errorOf("oldbox,300M,38449,67,36403,9")
                  .find("field 1 (format_version): 'oldbox' is not a bonnie++ CSV format"),
              std::string::npos);
    EXPECT_NE(
        errorOf(golden("broken/header.csv")).find("field 1 (format_version): 'format_version'"),
        std::string::npos);
}

TEST(BonnieCsv, FieldCountIsKeyedOnTheFormatVersion) {
    // A 1.97 line relabelled 1.98 has the 48 fields of the older format.
    auto line = golden("1.97/seed-guest.csv");
    line.replace(0, 4, "1.98");
    EXPECT_EQ(errorOf(line),
              "expected 50 fields (format 1.98), got 48; 48 fields is format 1.96/1.97");
    // A 47-field line is only forgiven when its IO block is empty.
    auto bare = golden("1.97/seed-bare-metal.csv");
    bare.erase(bare.find(",,1087"), 1); // drop the empty io_chunk_size field
    EXPECT_EQ(errorOf(bare), "expected 48 fields (format 1.97), got 47 (truncated line?)");
}

TEST(BonnieCsv, OtherBadInput) {
    EXPECT_EQ(errorOf(""), "empty input: expected a bonnie++ CSV line");
    EXPECT_EQ(errorOf(" \r\n"), "empty input: expected a bonnie++ CSV line");
    const auto line = golden("1.97/seed-guest.csv");
    EXPECT_EQ(errorOf(line + line), "expected one bonnie++ CSV line, got several lines");
    auto noVersion = line;
    noVersion.erase(5, 4); // "1.97,1.97,guest" -> "1.97,,guest"
    EXPECT_EQ(errorOf(noVersion), "field 2 (bonnie_version): is empty");
    auto nan = line;
    nan.replace(nan.find("217553"), 6, "nan");
    EXPECT_EQ(errorOf(nan), "field 10 (put_block): 'nan' is not a number");
    auto exponent = line;
    exponent.replace(exponent.find("217553"), 6, "2e5");
    EXPECT_EQ(errorOf(exponent), "field 10 (put_block): '2e5' is not a number");
    auto negLatency = line;
    negLatency.replace(negLatency.find("11204us"), 7, "-11204us");
    EXPECT_EQ(errorOf(negLatency), "field 37 (putc_latency): '-11204us' is negative");
}

TEST(BonnieCsv, LooksLikeCsv) {
    EXPECT_TRUE(bonnie::looksLikeCsv(golden("2.00a/s512-n16-files.csv")));
    EXPECT_TRUE(bonnie::looksLikeCsv("\n\n  1.97,1.97,host,1,2\n"));
    EXPECT_TRUE(bonnie::looksLikeCsv("1.99,2.01b,host")); // unknown versions: the parser explains
    EXPECT_FALSE(bonnie::looksLikeCsv(""));
    EXPECT_FALSE(bonnie::looksLikeCsv("1.97"));
    EXPECT_FALSE(bonnie::looksLikeCsv("1.97,1.97"));
    EXPECT_TRUE(bonnie::looksLikeCsv(golden("1.03/oldbox-line.csv"))); // 1.0x: no version
    EXPECT_FALSE(bonnie::looksLikeCsv(golden("broken/header.csv")));
    EXPECT_FALSE(bonnie::looksLikeCsv("{\"fio version\": \"fio-3.33\"}"));
    EXPECT_FALSE(bonnie::looksLikeCsv("Version 2.00a       ------Sequential Output------"));
    EXPECT_FALSE(bonnie::looksLikeCsv("1.5,2.5,3.5\n")); // a format version has two decimals
}

// An import parses each line over the last one's metrics (their names' memory reused): a line
// parsed so is the line parsed alone, whether the spare held more metrics, fewer, or a 1.0x
// line's.
TEST(BonnieCsv, ALineParsedOverAnotherLinesMetricsIsTheLineAlone) {
    std::vector<std::string> lines;
    for (const auto* folder : {"2.00a", "1.97", "1.96"})
        for (const auto& path : goldenCsvFiles(folder))
            lines.push_back(readFile(path));
    lines.push_back(golden("1.03/oldbox-line.csv"));
    ASSERT_GE(lines.size(), 10u);
    for (const auto& spareLine : lines)
        for (const auto& line : lines) {
            auto spare = bonnie::parseCsvLine(spareLine);
            ASSERT_TRUE(spare) << spare.error().message;
            const auto alone = bonnie::parseCsvLine(line);
            ASSERT_TRUE(alone) << alone.error().message;
            const auto over = bonnie::parseCsvLine(line, std::move(spare->metrics));
            ASSERT_TRUE(over) << over.error().message;
            EXPECT_EQ(*over, *alone) << line << "\nover the metrics of\n" << spareLine;
        }
}
