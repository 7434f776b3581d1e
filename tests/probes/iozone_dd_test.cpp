// iozone reports and dd summaries against golden files: iozone 3.465 throughput reports,
// automatic tables, -O, -N and -+m cluster output captured from the real tool (edited in the
// tests where a line is cut or widened), real GNU dd 9.1 output, and BSD,
// FreeBSD 12, BusyBox and old coreutils summaries written from their formats
// (tests/data/<tool>/<version>/README.txt says which is which).
#include "engine/measure/metric.h"
#include "probes/dd.h"
#include "probes/iozone.h"
#include "tests/probes/golden.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace lb;
using lb::test::findMetric;
using lb::test::golden;
using lb::test::hasCaveat;
using lb::test::hasNote;
using lb::test::metricValue;

namespace {

template <typename Runs> Runs must(Expected<Runs> runs) {
    EXPECT_TRUE(runs) << (runs ? "" : runs.error().message);
    return runs ? std::move(*runs) : Runs{};
}

std::vector<iozone::PastedRun> iozoneRuns(const std::string& text) {
    return must(iozone::parse(text));
}

std::vector<dd::PastedRun> ddRuns(const std::string& text) {
    return must(dd::parse(text));
}

template <typename Runs> void expectCatalogued(const Runs& runs) {
    for (const auto& r : runs)
        for (const auto& m : r.run.metrics) {
            const auto info = describeMetric(m.name);
            ASSERT_TRUE(info) << m.name;
            EXPECT_EQ(info->unit, m.unit) << m.name;
            // Throughputs decide by default; a cell of iozone's automatic table (iozone.<file>-
            // <record>.<op>) is shown only, a scenario's [decide] names the cells that matter.
            const bool tableCell =
                m.name.starts_with("iozone.") && m.name.find('.', 7) != std::string::npos;
            EXPECT_EQ(info->decisive, !tableCell) << m.name;
        }
}

// The 1-based line of `text` that holds `what`.
long lineOf(const std::string& text, std::string_view what) {
    const auto at = text.find(what);
    EXPECT_NE(at, std::string::npos) << what;
    return 1 + std::count(text.begin(), text.begin() + static_cast<long>(at), '\n');
}

// The one run of an iozone -i 0 -i 1 throughput report, its write and re-read figures (kB/s as
// the file prints them) checked.
ParsedRun writeAndReread(const std::string& file, double writeKiB, double rereadKiB) {
    const auto runs = iozoneRuns(golden(file));
    EXPECT_EQ(runs.size(), 1u);
    if (runs.empty())
        return {};
    const auto& run = runs[0].run;
    EXPECT_EQ(run.metrics.size(), 4u);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.write"), writeKiB * 1024);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.reread"), rereadKiB * 1024);
    return run;
}

} // namespace

TEST(Iozone, ThroughputReportOneProcess) {
    const auto runs = iozoneRuns(golden("iozone/3.465/throughput-t1-i0-i1-i2.txt"));
    ASSERT_EQ(runs.size(), 1u);
    const auto& run = runs[0].run;
    EXPECT_EQ(run.workload, "iozone");
    EXPECT_EQ(run.toolVersion, "3.465");
    EXPECT_EQ(run.metrics.size(), 6u);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.write"), 1034232.69 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.reread"), 1304348.88 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.random_read"), 1030263.25 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.random_write"), 761950.56 * 1024);
    EXPECT_EQ(run.origin.format, "iozone 3.465 throughput report");
    EXPECT_EQ(run.origin.convertedFrom, std::vector<std::string>{"kB/sec (KiB/s)"});
    EXPECT_EQ(run.origin.spec.at("record_size_bytes"), "4096");
    EXPECT_EQ(run.origin.spec.at("file_size_bytes"), "1048576");
    EXPECT_EQ(run.origin.spec.at("processes"), "1");
    EXPECT_EQ(run.origin.spec.at("command"),
              "./src/current/iozone -t 1 -i 0 -i 1 -i 2 -r 4k -s 1m -F /tmp/iozcap/a");
    EXPECT_EQ(runs[0].line, 1);
    expectCatalogued(runs);

    // As a write-up pastes it, with prose before the banner: the run starts at the banner.
    const auto pasted = iozoneRuns("Results of the NAS, default settings:\n\n" +
                                   golden("iozone/3.465/throughput-t1-i0-i1-i2.txt"));
    ASSERT_EQ(pasted.size(), 1u);
    EXPECT_EQ(pasted[0].line, 3);
    EXPECT_EQ(pasted[0].run.metrics, run.metrics);
}

TEST(Iozone, ThroughputReportFourProcesses) {
    // "for 4 re-readers", one space less than the others
    const auto run = writeAndReread("iozone/3.465/throughput-t4-i0-i1.txt", 461486.72, 472555.75);
    EXPECT_EQ(run.origin.spec.at("processes"), "4");
    EXPECT_EQ(run.origin.spec.at("record_size_bytes"), "1024");
}

TEST(Iozone, AutomaticTableNamesEachCell) {
    const auto runs = iozoneRuns(golden("iozone/3.465/auto-n64k-g1m.txt"));
    ASSERT_EQ(runs.size(), 1u);
    const auto& run = runs[0].run;
    EXPECT_EQ(run.metrics.size(), 25u * 13u); // 5 file sizes x 5 record sizes, 13 tests
    EXPECT_TRUE(run.caveats.empty());
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.f64k-r4k.write"), 503814.0 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.f64k-r4k.random_read"), 1526887.0 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.f64k-r4k.backward_read"), 1183548.0 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.f1M-r16k.record_rewrite"), 3951918.0 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.f1M-r64k.stride_read"), 15516181.0 * 1024);
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.f1M-r64k.freread"), 15516181.0 * 1024);
    EXPECT_EQ(run.origin.format, "iozone 3.465 automatic-mode table");
    EXPECT_EQ(run.origin.spec.at("mode"), "automatic");
    EXPECT_EQ(run.origin.spec.at("file_sizes_bytes"), "65536,131072,262144,524288,1048576");
    EXPECT_EQ(run.origin.spec.at("record_sizes_bytes"), "4096,8192,16384,32768,65536");
    expectCatalogued(runs);
}

TEST(Iozone, OneRunPerInvocationAndOpsMode) {
    const auto both =
        golden("iozone/3.465/throughput-t4-i0-i1.txt") + golden("iozone/3.465/auto-n64k-g1m.txt");
    const auto runs = iozoneRuns(both);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].run.origin.spec.at("mode"), "throughput");
    EXPECT_EQ(runs[1].run.origin.spec.at("mode"), "automatic");

    const auto ops = iozoneRuns(golden("iozone/3.465/throughput-t2-O-i0-i1.txt"));
    ASSERT_EQ(ops.size(), 1u);
    ASSERT_EQ(ops[0].run.metrics.size(), 4u);
    EXPECT_EQ(ops[0].run.metrics[0], (Metric{"iozone.write_ops", 312151.88, Unit::OpsPerSecond}));
    EXPECT_EQ(ops[0].run.metrics[3], (Metric{"iozone.reread_ops", 831642.56, Unit::OpsPerSecond}));
    EXPECT_EQ(ops[0].run.origin.convertedFrom, std::vector<std::string>{"ops/sec"});
    expectCatalogued(ops);
}

TEST(Iozone, ErrorsNameLineAndOperation) {
    const auto genuine = golden("iozone/3.465/throughput-t1-i0-i1-i2.txt");
    auto bad = genuine;
    bad.replace(bad.find("1034232.69"), 10, "10x4232.69");
    auto r = iozone::parse(bad);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message,
              std::to_string(lineOf(bad, "10x4232")) + ": write: '10x4232.69' is not a number");

    // Cut off before its first figure: the banner and settings only.
    r = iozone::parse(genuine.substr(0, genuine.find("\tChildren see")));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message,
              "1: iozone: this run has no throughput lines and no table (cut short?)");
    r = iozone::parse("nothing here\n");
    ASSERT_FALSE(r);

    auto unknown = genuine;
    unknown.replace(unknown.find("random writers"), 14, "pfrobnicators");
    const auto runs = iozoneRuns(unknown);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].run.metrics.size(), 5u);
    ASSERT_EQ(runs[0].run.caveats.size(), 1u);
    const auto where = "'pfrobnicators' (line " + std::to_string(lineOf(unknown, "pfrob")) + ")";
    EXPECT_NE(runs[0].run.caveats[0].find(where), std::string::npos) << runs[0].run.caveats[0];
}

// -N: iozone prints whole microseconds per operation; stored as latencies in nanoseconds, never
// as kB/s.
TEST(Iozone, MicrosecondsPerOperationAreLatencies) {
    const auto genuine = golden("iozone/3.465/auto-N-i0-i1-i2.txt");
    const auto runs = iozoneRuns(genuine);
    ASSERT_EQ(runs.size(), 1u);
    const auto& run = runs[0].run;
    EXPECT_EQ(run.metrics.size(), 15u * 6u); // 3 file sizes x 5 record sizes, 6 tests
    EXPECT_EQ(*findMetric(run.metrics, "iozone.f64k-r4k.write_latency"),
              (Metric{"iozone.f64k-r4k.write_latency", 7000.0, Unit::Nanoseconds}));
    EXPECT_DOUBLE_EQ(metricValue(run, "iozone.f256k-r64k.random_write_latency"), 11000.0);
    for (const auto& m : run.metrics)
        EXPECT_EQ(m.unit, Unit::Nanoseconds) << m.name;
    EXPECT_EQ(
        run.origin.convertedFrom,
        std::vector<std::string>{"microseconds/op (whole microseconds, as iozone truncates them)"});
    EXPECT_TRUE(run.caveats.empty());
    expectCatalogued(runs);
    EXPECT_EQ(describeMetric("iozone.f64k-r4k.write_latency")->better, Better::Lower);

    // An operation under 1 µs prints as 0: not stored as 0 ns, and said so.
    auto fast = genuine;
    const std::string row = "              64       4        7";
    fast.replace(fast.find(row) + row.size() - 1, 1, "0");
    const auto edited = iozoneRuns(fast);
    ASSERT_EQ(edited.size(), 1u);
    EXPECT_EQ(edited[0].run.metrics.size(), 15u * 6u - 1u);
    EXPECT_EQ(findMetric(edited[0].run.metrics, "iozone.f64k-r4k.write_latency"), nullptr);
    EXPECT_TRUE(hasCaveat(edited[0].run, "1 cells of iozone's -N output are 0"));
}

TEST(Iozone, MicrosecondsInThroughputModeAreRefused) {
    // iozone itself refuses -N with -t and exits: the file holds its refusal, no figure.
    const auto text = golden("iozone/3.465/throughput-t2-N-i0-i1.txt");
    const auto r = iozone::parse(text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, std::to_string(lineOf(text, "Microsecond mode not")) +
                                     ": iozone: iozone refused this run ('Microsecond mode not "
                                     "supported in throughput mode.'): it holds no figures");
}

// iozone -+m prints no client's name (only the -+h name the clients call back): the run's host is
// the import's.
TEST(Iozone, ClusterModeNamesNoHost) {
    const auto run = writeAndReread("iozone/3.465/cluster-t2-i0-i1.txt", 124726.19, 2254425.50);
    EXPECT_EQ(run.origin.spec.count("machine"), 0u);
    EXPECT_TRUE(run.caveats.empty());
}

// A line with figures that no table takes is never dropped without a word.
TEST(Iozone, LinesNotReadAreNamed) {
    const auto genuine = golden("iozone/3.465/auto-n64k-g1m.txt");
    const std::string lastRow = "            1024      64  4614246 13998981 15027577";
    const auto at = genuine.find(lastRow);
    ASSERT_NE(at, std::string::npos);
    const auto cutLine = lineOf(genuine, lastRow);

    // A paste cut off in its last row: the rows before it are read, the cut one is named.
    const auto cut = iozoneRuns(genuine.substr(0, at + lastRow.size() - 3) + "\n");
    ASSERT_EQ(cut.size(), 1u);
    EXPECT_EQ(cut[0].run.metrics.size(), 24u * 13u);
    EXPECT_EQ(findMetric(cut[0].run.metrics, "iozone.f1M-r64k.write"), nullptr);
    EXPECT_DOUBLE_EQ(metricValue(cut[0].run, "iozone.f1M-r32k.freread"), 9855234.0 * 1024);
    EXPECT_TRUE(hasCaveat(cut[0].run, "iozone line " + std::to_string(cutLine) + " ('1024"));
    EXPECT_EQ(cut[0].run.origin.spec.at("lines_not_read"), std::to_string(cutLine));

    // Cut after its file size: no longer a row, still named.
    const auto stub = iozoneRuns(genuine.substr(0, at + 16) + "\n");
    ASSERT_EQ(stub.size(), 1u);
    EXPECT_EQ(stub[0].run.metrics.size(), 24u * 13u);
    EXPECT_EQ(stub[0].run.origin.spec.at("lines_not_read"), std::to_string(cutLine));

    // An extra column: which number is which test can no longer be told; refused, naming it.
    auto wide = genuine;
    wide.insert(wide.find('\n', at), "  1234567");
    const auto refused = iozone::parse(wide);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().message,
              std::to_string(cutLine) + ": row: the value '1234567' is under no column heading");
}

// Cut anywhere (a paste that stops short), a genuine output gives only numbers the whole file
// holds: a number cut in two is never stored. The table's first row is where the cuts start: it
// is the width the rows after it are held to.
TEST(Iozone, NoCutNumberIsStored) {
    for (const auto& [file, from] :
         {std::pair<std::string, std::string>{"iozone/3.465/auto-n64k-g1m.txt",
                                              "\n              64       8"},
          {"iozone/3.465/auto-N-i0-i1-i2.txt", "\n              64"},
          {"iozone/3.465/throughput-t1-i0-i1-i2.txt", "Children"}}) {
        SCOPED_TRACE(file);
        const auto text = golden(file);
        const auto whole = iozoneRuns(text);
        ASSERT_EQ(whole.size(), 1u);
        const auto start = text.find(from);
        ASSERT_NE(start, std::string::npos);
        std::size_t read = 0;
        for (auto end = start; end < text.size(); ++end) {
            const auto cut = iozone::parse(text.substr(0, end));
            if (!cut)
                continue;
            ++read;
            for (const auto& m : cut->front().run.metrics) {
                const auto* full = findMetric(whole[0].run.metrics, m.name);
                ASSERT_NE(full, nullptr) << m.name << " at " << end;
                ASSERT_EQ(m.value, full->value) << m.name << " cut at byte " << end;
            }
        }
        EXPECT_GT(read, 0u);
    }
}

TEST(Iozone, LooksLikeIozone) {
    EXPECT_TRUE(iozone::looksLikeIozone(golden("iozone/3.465/throughput-t1-i0-i1-i2.txt")));
    EXPECT_TRUE(iozone::looksLikeIozone("              kB  reclen    write\n"));
    EXPECT_FALSE(iozone::looksLikeIozone("1048576000 bytes transferred in 1 secs\n"));
}

TEST(Dd, GnuSummariesWithTheirCommandLines) {
    const auto runs = ddRuns(golden("dd/coreutils-9.1/write-direct-then-read.txt"));
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].line, 4);
    EXPECT_DOUBLE_EQ(metricValue(runs[0].run, "dd.throughput"), 67108864 / 0.104722);
    EXPECT_DOUBLE_EQ(metricValue(runs[1].run, "dd.throughput"), 67108864 / 0.0647889);
    const auto& w = runs[0].run.origin;
    EXPECT_EQ(w.format, "dd summary (GNU coreutils)");
    EXPECT_EQ(w.spec.at("direction"), "write");
    EXPECT_EQ(w.spec.at("block_size"), "1M");
    EXPECT_EQ(w.spec.at("block_size_bytes"), "1048576");
    EXPECT_EQ(w.spec.at("count"), "64");
    EXPECT_TRUE(hasNote(runs[0].run, MetricNote::Kind::Method, "dd.throughput", "direct I/O"));
    EXPECT_EQ(runs[1].run.origin.spec.at("direction"), "read");
    EXPECT_EQ(runs[1].run.origin.spec.at("block_size_bytes"), "65536");
    EXPECT_TRUE(hasNote(runs[1].run, MetricNote::Kind::Method, "dd.throughput", "buffered I/O"));
    EXPECT_NE(runs[1].raw.find("of=/dev/null"), std::string::npos);
    expectCatalogued(runs);
}

TEST(Dd, ProgressLinesAreNotSummaries) {
    const auto runs = ddRuns(golden("dd/coreutils-9.1/progress.stderr"));
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_DOUBLE_EQ(metricValue(runs[0].run, "dd.throughput"), 8192000000 / 9.57755);
    EXPECT_TRUE(runs[0].run.notes.empty()); // no command line: nothing known about the method
}

TEST(Dd, BsdBusyBoxAndOldCoreutils) {
    const double seed = 1048576000 / 10.420047;
    struct Case {
        const char* file;
        double throughput;
        const char* format;
        const char* direction;
    };
    for (const auto& c : {Case{"dd/bsd/freebsd-11-write.txt", seed, "dd summary (BSD)", "write"},
                          Case{"dd/bsd/freebsd-12-read.txt", 1048576000 / 10.420,
                               "dd summary (FreeBSD 12 or later)", "read"},
                          Case{"dd/bsd/seed-line-only.txt", seed, "dd summary (BSD)", nullptr},
                          Case{"dd/busybox/write-fsync.txt", seed, "dd summary (BusyBox)", "write"},
                          Case{"dd/coreutils-8.4/write-direct.txt", 1048576000 / 10.4203,
                               "dd summary (GNU coreutils)", "write"}}) {
        const auto runs = ddRuns(golden(c.file));
        ASSERT_EQ(runs.size(), 1u) << c.file;
        EXPECT_DOUBLE_EQ(metricValue(runs[0].run, "dd.throughput"), c.throughput) << c.file;
        EXPECT_EQ(runs[0].run.origin.format, c.format) << c.file;
        if (c.direction)
            EXPECT_EQ(runs[0].run.origin.spec.at("direction"), c.direction) << c.file;
        else
            EXPECT_EQ(runs[0].run.origin.spec.count("direction"), 0u) << c.file;
    }
    // FreeBSD's bs=1m is MiB, as dd reads it.
    EXPECT_EQ(
        ddRuns(golden("dd/bsd/freebsd-11-write.txt"))[0].run.origin.spec.at("block_size_bytes"),
        "1048576");
}

// Found by the dd fuzz target (tests/data/fuzz/dd): tabs before "dd" on the command line (a
// shell prompt, a pasted table) made a column be read as a byte offset, past the line's end.
TEST(Dd, CommandLineAfterTabs) {
    const auto runs = ddRuns(golden("fuzz/dd/command-after-tabs.txt"));
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].run.origin.spec.at("command"), "dd if=/dev/zero of=/tank/test bs=1M count=1");
    EXPECT_EQ(runs[0].run.origin.spec.at("direction"), "write");
}

// Found by the dd fuzz target under ASan: the flags were split out of a string already gone.
TEST(Dd, DirectAmongSeveralFlags) {
    const auto runs = ddRuns(golden("fuzz/dd/oflag-list.txt"));
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_TRUE(hasNote(runs[0].run, MetricNote::Kind::Method, "dd.throughput", "direct I/O"));
}

TEST(Dd, ExponentsAndDecimalCommas) {
    auto runs = ddRuns("1024 bytes (1.0 kB, 1.0 KiB) copied, 8.5683e-05 s, 12.0 MB/s\n");
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_DOUBLE_EQ(metricValue(runs[0].run, "dd.throughput"), 1024 / 8.5683e-05);
    runs = ddRuns("1048576000 bytes (1,0 GB, 1000 MiB) copied, 10,4203 s, 101 MB/s\n");
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_DOUBLE_EQ(metricValue(runs[0].run, "dd.throughput"), 1048576000 / 10.4203);
}

TEST(Dd, ErrorsNameLineAndField) {
    auto r = dd::parse("x\n0 bytes copied, 0 s, 0 kB/s\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "2: seconds: '0' seconds gives no rate");
    r = dd::parse("1 bytes (1 B) copied, 1.2.3 s, 1 B/s\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "1: seconds: '1.2.3' is not a number of seconds");
    r = dd::parse("no summary here\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message.rfind("1: dd: no dd summary line", 0), 0u);
    EXPECT_FALSE(dd::looksLikeDd("2000000+0 records in\n"));
}
