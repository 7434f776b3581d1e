// Several runs in one file are several runs, never a sum (issue 40): fio logs appended to run
// after run (normal, JSON, terse; fio 3.33 captures and 2.2.10 ones concatenated), each run's
// figures equal to those its own part of the file gives alone.
#include "probes/fio_json.h"
#include "probes/fio_normal.h"
#include "probes/fio_terse.h"
#include "probes/import.h"
#include "tests/probes/golden.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace lb;
using lb::test::golden;
using lb::test::metricValue;

namespace {

// The text cut before every line that starts with `marker`: the parts as the test reads them.
std::vector<std::string> cutBefore(const std::string& text, const std::string& marker) {
    std::vector<std::string> parts;
    std::size_t begin = 0;
    for (std::size_t at = text.find(marker); at != std::string::npos;
         at = text.find(marker, at + 1)) {
        if (at != 0 && text[at - 1] != '\n')
            continue;
        if (at > begin)
            parts.push_back(text.substr(begin, at - begin));
        begin = at;
    }
    parts.push_back(text.substr(begin));
    return parts;
}

ImportedFile imported(const std::string& relative) {
    auto f = parseResultFile(relative, golden(relative));
    EXPECT_TRUE(f) << relative << ": " << (f ? "" : f.error().message);
    return f ? *f : ImportedFile{};
}

// Each run holds the metrics its own part gives when parsed alone, and that part as its output.
template <typename Parse>
void expectEachPartAlone(const ImportedFile& file, const std::vector<std::string>& parts,
                         Parse parse) {
    ASSERT_EQ(file.runs.size(), parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
        auto alone = parse(parts[i]);
        ASSERT_TRUE(alone) << alone.error().message;
        EXPECT_EQ(lb::test::sortedMetrics(file.runs[i].metrics),
                  lb::test::sortedMetrics(alone->metrics))
            << "run " << i + 1;
        EXPECT_EQ(file.runs[i].stdoutText, parts[i]) << "run " << i + 1;
        EXPECT_EQ(file.runs[i].toolVersion, alone->toolVersion);
        EXPECT_EQ(file.runs[i].status, RunStatus::Ok);
        EXPECT_EQ(file.runs[i].origin.spec.at("invocation"),
                  std::to_string(i + 1) + " of " + std::to_string(parts.size()));
    }
}

double valueOf(const Run& run, const std::string& metric) {
    return metricValue(ParsedRun{.metrics = run.metrics}, metric);
}

auto normalAlone = [](const std::string& t) { return fio::parseNormal(t); };
auto jsonAlone = [](const std::string& t) { return fio::parseJson(t); };
auto terseAlone = [](const std::string& t) { return fio::parseTerse(t); };

} // namespace

// Five fio 3.33 runs appended with tee -a: five runs, each with the IOPS its own lines print
// ("IOPS=12.2k" ... "IOPS=16.1k"), not one run of their sum.
TEST(ImportRuns, FiveFioNormalRunsAreFiveRuns) {
    const std::string file = "fio/3.33/five_runs_randread.normal";
    const auto f = imported(file);
    expectEachPartAlone(f, cutBefore(golden(file), "randread: (g=0)"), normalAlone);
    const double printed[] = {12.2e3, 14.0e3, 14.3e3, 19.4e3, 16.1e3}; // as fio rounded them
    ASSERT_EQ(f.runs.size(), 5u);
    for (std::size_t i = 0; i < 5; ++i) {
        const auto* iops = lb::test::findMetric(f.runs[i].metrics, "fio.randread.read.iops");
        ASSERT_NE(iops, nullptr);
        EXPECT_NEAR(iops->value, printed[i], 50.0) << "run " << i + 1;
        EXPECT_EQ(f.runs[i].toolVersion, "fio-3.33");
        EXPECT_EQ(f.runs[i].workload, "fio"); // iterations of one workload
    }
    EXPECT_EQ(f.lines, (std::vector<int>{1, 33, 64, 95, 126})); // each "randread: (g=0)" line
    EXPECT_TRUE(lb::test::hasCaveat(ParsedRun{.caveats = f.runs[2].caveats},
                                    "fio invocation 3 of 5 in one file"));
    EXPECT_EQ(f.description, "fio 3.33 normal output, 5 runs (one per fio invocation), 1 job, "
                             "35 metrics");
}

// Two different jobs, one after the other: two runs, each with its own job's metrics only.
TEST(ImportRuns, TwoFioJobsOneAfterTheOtherAreTwoRuns) {
    const std::string file = "fio/3.33/two_runs_seqread_then_randwrite.normal";
    const auto f = imported(file);
    expectEachPartAlone(f, cutBefore(golden(file), "randwrite: (g=0)"), normalAlone);
    ASSERT_EQ(f.runs.size(), 2u);
    EXPECT_NEAR(valueOf(f.runs[0], "fio.seqread.read.iops"), 18.5e3, 50.0);
    EXPECT_EQ(lb::test::findMetric(f.runs[0].metrics, "fio.randwrite.write.iops"), nullptr);
    EXPECT_NEAR(valueOf(f.runs[1], "fio.randwrite.write.iops"), 216e3, 500.0);
}

// numjobs=2 run twice: within an invocation the two entries are combined (summed, as before),
// across invocations never; the caveat says which.
TEST(ImportRuns, SameNamedJobsCombineWithinAnInvocationOnly) {
    const std::string file = "fio/3.33/two_runs_numjobs2.normal";
    const auto f = imported(file);
    expectEachPartAlone(f, cutBefore(golden(file), "twojobs: (g=0)"), normalAlone);
    ASSERT_EQ(f.runs.size(), 2u);
    // "IOPS=17.5k" and "IOPS=17.4k" in the first invocation, 12.8k and 14.5k in the second.
    EXPECT_NEAR(valueOf(f.runs[0], "fio.twojobs.read.iops"), 17.5e3 + 17.4e3, 100.0);
    EXPECT_NEAR(valueOf(f.runs[1], "fio.twojobs.read.iops"), 12.8e3 + 14.5e3, 100.0);
    EXPECT_TRUE(lb::test::hasCaveat(ParsedRun{.caveats = f.runs[0].caveats},
                                    "jobs named 'twojobs' in one fio invocation"));
    EXPECT_EQ(f.description.rfind("fio 3.33 normal output, 2 runs (one per fio invocation), 1 "
                                  "job (same-named entries combined within an invocation), ",
                                  0),
              0u)
        << f.description;
}

// fio --status-interval in normal output prints its whole report every interval, for the same
// pid: one run, the last (final) report's figures ("IOPS=20.8k ... (243MiB/3001msec)"), not
// four runs nor their sum; appended to other runs, still one run of its own.
TEST(ImportRuns, StatusIntervalReportsAreOneRun) {
    const std::string file = "fio/3.33/status_interval.normal";
    const auto f = imported(file);
    ASSERT_EQ(f.runs.size(), 1u);
    EXPECT_NEAR(valueOf(f.runs[0], "fio.si.read.iops"), 20.8e3, 50.0);
    EXPECT_DOUBLE_EQ(valueOf(f.runs[0], "fio.si.read.runtime"), 3.001);
    EXPECT_TRUE(lb::test::hasCaveat(ParsedRun{.caveats = f.runs[0].caveats},
                                    "fio --status-interval: the last of its reports (line 90)"));
    auto after =
        parseResultFile("log", golden("fio/3.33/five_runs_randread.normal") + golden(file));
    ASSERT_TRUE(after) << after.error().message;
    ASSERT_EQ(after->runs.size(), 6u);
    EXPECT_EQ(after->runs[5].metrics, f.runs[0].metrics);
}

// An invocation that gave up before any job ran is a failed run quoting fio, between two runs
// with their own figures.
TEST(ImportRuns, AnInvocationWithoutResultsIsAFailedRun) {
    const std::string file = "fio/3.33/three_runs_one_failed.normal";
    const auto text = golden(file);
    const auto f = imported(file);
    ASSERT_EQ(f.runs.size(), 3u);
    EXPECT_EQ(f.runs[0].status, RunStatus::Ok);
    EXPECT_EQ(f.runs[1].status, RunStatus::Failed);
    EXPECT_EQ(f.runs[1].reason, "fio printed no job's results: error: maximum number of jobs "
                                "reached.; error: failed to setup shm segment");
    EXPECT_EQ(f.runs[2].status, RunStatus::Ok);
    EXPECT_NEAR(valueOf(f.runs[0], "fio.randread.read.iops"), 14.1e3, 50.0);
    EXPECT_NEAR(valueOf(f.runs[2], "fio.randread.read.iops"), 17.5e3, 50.0);
    EXPECT_EQ(f.lines,
              (std::vector<int>{1, 32, 35})); // "error: maximum number ...", "randread: (g=0)"
}

// fio 2.2.10's genuine captures concatenated: each run is what its file gives alone.
TEST(ImportRuns, Fio2NormalRunsConcatenatedAreSeparateRuns) {
    const auto f = imported("fio/2.2.10/three_runs_concatenated.normal");
    std::vector<std::string> parts;
    for (const char* one : {"normal_seq_read", "normal_randrw_70_30", "normal_numjobs2"})
        parts.push_back(golden("fio/2.2.10/" + std::string(one) + ".normal"));
    expectEachPartAlone(f, parts, normalAlone);
}

// A log written by two fio versions: each run records its own.
TEST(ImportRuns, EachRunHasItsOwnFioVersion) {
    const auto f = imported("fio/2.2.10/two_versions_2.2.10_then_3.33.normal");
    expectEachPartAlone(
        f, {golden("fio/2.2.10/normal_seq_read.normal"), golden("fio/3.33/normal_seq_read.normal")},
        normalAlone);
    ASSERT_EQ(f.runs.size(), 2u);
    EXPECT_EQ(f.runs[0].toolVersion, "fio-2.2.10");
    EXPECT_EQ(f.runs[1].toolVersion, "fio-3.33");
    EXPECT_EQ(f.description.rfind("fio 2.2.10 normal output (and 1 other version), 2 runs", 0), 0u)
        << f.description;
}

// Three JSON documents from three invocations (not --status-interval's reports of one).
TEST(ImportRuns, ConcatenatedFioJsonDocumentsAreSeparateRuns) {
    const std::string file = "fio/3.33/three_runs_randread.json";
    const auto f = imported(file);
    expectEachPartAlone(f, cutBefore(golden(file), "{"), jsonAlone);
    ASSERT_EQ(f.runs.size(), 3u);
    const double bw[] = {85614993, 60793478, 78454153}; // each document's "bw_bytes"
    for (std::size_t i = 0; i < 3; ++i)
        EXPECT_DOUBLE_EQ(valueOf(f.runs[i], "fio.randread.read.bw"), bw[i]);
    // --status-interval's reports are still one run: the last, final one.
    EXPECT_EQ(imported("fio/3.33/status_interval.json").runs.size(), 1u);
}

// Terse lines of two invocations, told apart by the disk statistics fio ends each line with.
TEST(ImportRuns, TerseLinesOfTwoInvocationsAreTwoRuns) {
    const std::string v4 = "fio/3.33/two_runs_randread_v4.terse";
    expectEachPartAlone(imported(v4), cutBefore(golden(v4), "4;"), terseAlone);
    const std::string v3 = "fio/3.33/two_runs_numjobs2_v3.terse";
    const auto text = golden(v3);
    const auto second = text.find("3;", text.find('\n', text.find('\n') + 1));
    expectEachPartAlone(imported(v3), {text.substr(0, second), text.substr(second)}, terseAlone);
}

// An error in a later run names its line in the whole file.
TEST(ImportRuns, ErrorsNameTheLineOfTheWholeFile) {
    auto text = golden("fio/3.33/five_runs_randread.normal");
    const std::string printed = "IOPS=14.3k";
    const auto at = text.find(printed);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, printed.size(), "IOPS=x4.3k");
    auto r = parseResultFile("five.normal", text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message.rfind("five.normal:69: read: IOPS: ", 0), 0u) << r.error().message;
    auto json = golden("fio/3.33/three_runs_randread.json");
    const std::string bw = "\"bw_bytes\" : 78454153";
    json.replace(json.find(bw), bw.size(), "\"bw_bytes\" : \"x\"");
    auto j = parseResultFile("three.json", json);
    ASSERT_FALSE(j);
    EXPECT_EQ(j.error().message.rfind("three.json:565: ", 0), 0u) << j.error().message;
}

// ---- dd ----

// Five GNU dd summaries back to back (each run's "records in" right after the summary before):
// five runs, each with its own bytes over its own seconds.
TEST(ImportRuns, FiveDdSummariesAreFiveRuns) {
    const auto f = imported("dd/coreutils-9.1/five-fdatasync.txt");
    ASSERT_EQ(f.runs.size(), 5u);
    const double seconds[] = {0.0176756, 0.0280393, 0.0202976, 0.0280365, 0.0240304};
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(f.runs[i].status, RunStatus::Ok);
        EXPECT_DOUBLE_EQ(valueOf(f.runs[i], "dd.throughput"), 16777216 / seconds[i])
            << "run " << i + 1;
    }
    EXPECT_EQ(f.lines, (std::vector<int>{3, 6, 9, 12, 15}));
    EXPECT_EQ(f.description, "dd summary (GNU coreutils), 5 runs, 5 metrics");
}

// A dd that reports a write error is a failed run quoting dd, not an ok run of what it copied.
TEST(ImportRuns, DdWriteErrorIsAFailedRun) {
    const auto full = imported("dd/coreutils-9.1/write-error-dev-full.txt");
    ASSERT_EQ(full.runs.size(), 1u);
    EXPECT_EQ(full.runs[0].status, RunStatus::Failed);
    EXPECT_EQ(full.runs[0].reason,
              "dd reported an error: dd: error writing '/dev/full': No space left on device");
    EXPECT_TRUE(full.runs[0].metrics.empty());

    const auto session = imported("dd/coreutils-9.1/write-error-then-ok.txt");
    ASSERT_EQ(session.runs.size(), 2u);
    EXPECT_EQ(session.runs[0].status, RunStatus::Failed);
    EXPECT_EQ(session.runs[0].reason, "dd reported an error: dd: error writing "
                                      "'/tmp/imp-cap/small/f': No space left on device");
    EXPECT_EQ(session.runs[1].status, RunStatus::Ok);
    EXPECT_DOUBLE_EQ(valueOf(session.runs[1], "dd.throughput"), 4194304 / 0.0478058);
    EXPECT_EQ(session.description, "dd summary (GNU coreutils), 2 runs, 1 metric, 1 failed run");
}

// ---- Several tools in one file ----

// A device-test log of an iozone table and then dd's summaries imports both tools' runs, each
// as its own file gives them.
TEST(ImportRuns, AFileWithTwoToolsImportsBoth) {
    const auto f = imported("iozone/3.465/device-test-iozone-then-dd.txt");
    const auto iozoneAlone = imported("iozone/3.465/auto-n64k-g1m.txt");
    const auto ddAlone = imported("dd/coreutils-9.1/write-direct-then-read.txt");
    ASSERT_EQ(iozoneAlone.runs.size(), 1u);
    ASSERT_EQ(ddAlone.runs.size(), 2u);
    ASSERT_EQ(f.runs.size(), 3u);
    EXPECT_EQ(f.format, ImportFormat::Iozone);
    EXPECT_EQ(f.runs[0].probe, "iozone");
    EXPECT_EQ(lb::test::sortedMetrics(f.runs[0].metrics),
              lb::test::sortedMetrics(iozoneAlone.runs[0].metrics));
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(f.runs[1 + i].probe, "dd");
        EXPECT_EQ(f.runs[1 + i].metrics, ddAlone.runs[i].metrics);
        EXPECT_EQ(f.runs[1 + i].origin.format, "dd summary (GNU coreutils)");
    }
    EXPECT_NE(f.description.find("; and dd summary (GNU coreutils), 2 runs, 2 metrics"),
              std::string::npos)
        << f.description;
}

// A tool whose runs are not read beside the file's own is named in the message, never dropped
// unsaid: bonnie++'s table after fio's normal output.
TEST(ImportRuns, AToolNotImportedIsNamed) {
    const auto fio = golden("fio/3.33/normal_seq_read.normal");
    auto f = parseResultFile("log.txt", fio + golden("bonnie++/1.97/table-seed-bare-metal.txt"));
    ASSERT_TRUE(f) << f.error().message;
    EXPECT_EQ(f->format, ImportFormat::FioNormal);
    EXPECT_NE(f->description.find(
                  "; the bonnie++ output it also holds is not imported (import it from a file "
                  "of its own)"),
              std::string::npos)
        << f->description;
}

// Two iozone reports in one file are two runs, each with its own report's figures.
TEST(ImportRuns, TwoIozoneReportsAreTwoRuns) {
    const auto f = imported("iozone/3.465/two-reports-t1-then-t4.txt");
    ASSERT_EQ(f.runs.size(), 2u);
    EXPECT_EQ(lb::test::sortedMetrics(f.runs[0].metrics),
              lb::test::sortedMetrics(
                  imported("iozone/3.465/throughput-t1-i0-i1-i2.txt").runs[0].metrics));
    EXPECT_EQ(
        lb::test::sortedMetrics(f.runs[1].metrics),
        lb::test::sortedMetrics(imported("iozone/3.465/throughput-t4-i0-i1.txt").runs[0].metrics));
}

// Two automatic tables pasted without iozone's banner: two runs, each what its own lines give
// alone, not one run holding each cell twice.
TEST(ImportRuns, TwoIozoneTablesWithoutBannerAreTwoRuns) {
    const std::string file = "iozone/3.465/two-tables-without-banner.txt";
    const auto text = golden(file);
    const auto f = imported(file);
    ASSERT_EQ(f.runs.size(), 2u);
    const auto second = f.runs[1].sourceLine;
    std::size_t at = 0;
    for (int line = 1; line < second; ++line)
        at = text.find('\n', at) + 1;
    auto first = parseResultFile("first", text.substr(0, at));
    auto rest = parseResultFile("second", text.substr(at));
    ASSERT_TRUE(first && rest);
    ASSERT_EQ(first->runs.size(), 1u);
    ASSERT_EQ(rest->runs.size(), 1u);
    EXPECT_EQ(f.runs[0].metrics, first->runs[0].metrics);
    EXPECT_EQ(f.runs[1].metrics, rest->runs[0].metrics);
    EXPECT_EQ(f.runs[0].metrics.size(), 325u);     // 5 file sizes x 5 record sizes x 13 columns
    EXPECT_EQ(f.lines, (std::vector<int>{1, 30})); // each heading's line above it
}

// ---- Repeats within one file ----

// The same bonnie++ line twice, or the same fio log pasted twice: the distinct runs import, the
// repeated ones are skipped and named.
TEST(ImportRuns, RepeatsWithinAFileAreSkippedAndNamed) {
    const auto csv = golden("bonnie++/1.03/kvm-three-lines.csv");
    const auto first = csv.substr(0, csv.find('\n') + 1);
    auto f = parseResultFile("twice.csv", csv + first);
    ASSERT_TRUE(f) << f.error().message;
    EXPECT_EQ(f->runs.size(), 3u);
    EXPECT_NE(f->description.find("; 1 repeated run skipped (line 4 repeats line 1)"),
              std::string::npos)
        << f->description;
    const auto fio = golden("fio/3.33/two_runs_numjobs2.normal");
    auto twice = parseResultFile("twice.normal", fio + fio);
    ASSERT_TRUE(twice) << twice.error().message;
    EXPECT_EQ(twice->runs.size(), 2u);
    EXPECT_NE(twice->description.find("; 2 repeated runs skipped (line "), std::string::npos)
        << twice->description;
}

// GNU dd's old summary ("transferred in ... seconds") is GNU's, not BSD's ("secs"): a session
// published on linux-kernel in 2004, four runs after their prompts.
TEST(ImportRuns, OldGnuDdIsLabelledGnu) {
    const auto f = imported("dd/coreutils-old/lkml-2004-sata.txt");
    ASSERT_EQ(f.runs.size(), 4u);
    const double bytes[] = {33554432, 33554432, 33554432, 174063616};
    const double seconds[] = {3.203750, 3.184339, 0.400394, 2.705558};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(f.runs[i].origin.format, "dd summary (GNU coreutils, old form)");
        EXPECT_DOUBLE_EQ(valueOf(f.runs[i], "dd.throughput"), bytes[i] / seconds[i]);
        EXPECT_EQ(f.runs[i].origin.spec.at("direction"), "read");
    }
    const auto bsd = imported("dd/bsd/freebsd-11-write.txt");
    ASSERT_FALSE(bsd.runs.empty());
    EXPECT_EQ(bsd.runs[0].origin.format, "dd summary (BSD)");
}
