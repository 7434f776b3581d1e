// Import detects the format of every kind of file it reads, names file, line and field in its
// errors, refuses a run without metrics, and stores whole files with their origin.
#include "probes/import.h"
#include "probes/text_fields.h"
#include "tests/probes/golden.h"
#include "tests/support/scratch_dir.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>

using namespace lb;

TEST(ParseResultFile, DetectsFioJsonAndBonnieCsv) {
    const std::string fio = R"(note: a log line before the JSON
{"fio version": "fio-3.33", "jobs": []})";
    auto f = parseResultFile("a.json", fio);
    ASSERT_TRUE(f) << f.error().message;
    EXPECT_EQ(f->format, ImportFormat::FioJson);
    EXPECT_EQ(f->runs.size(), 1U);
    EXPECT_EQ(f->runs[0].stdoutText, fio); // raw output kept as printed
}

TEST(ParseResultFile, ErrorsNameFileAndLine) {
    auto r = parseResultFile("x.csv", "hello world\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(r.error().message.rfind("x.csv:1: ", 0), 0U) << r.error().message;
}

// ---- Every format, as a file or a paste ----

namespace {

ImportedFile parsedFile(const std::string& relative) {
    auto f = parseResultFile(relative, lb::test::golden(relative));
    EXPECT_TRUE(f) << relative << ": " << (f ? "" : f.error().message);
    return f ? *f : ImportedFile{};
}

} // namespace

TEST(ParseResultFile, DetectsEveryFormat) {
    struct Case {
        const char* file;
        ImportFormat format;
        const char* description;
    };
    for (const auto& c : {
             Case{"bonnie++/1.97/seed-bare-metal.csv", ImportFormat::BonnieCsv,
                  "bonnie++ CSV (format 1.97), 1 machine, 32 metrics"},
             Case{"bonnie++/1.97/paste-two-machines.txt", ImportFormat::BonnieText,
                  "bonnie++ 1.97 text table, 2 machines, 64 metrics"},
             Case{"bonnie++/1.03/table-4g.txt", ImportFormat::BonnieText,
                  "bonnie++ 1.03 CSV (its text table, rounded, not used), 1 machine, 18 "
                  "metrics"},
             Case{"fio/3.33/seq_read.json", ImportFormat::FioJson,
                  "fio 3.33 JSON, 1 job, 7 metrics"},
             Case{"fio/2.2.10/two_jobs_direct_and_buffered.json", ImportFormat::FioJson,
                  "fio 2.2.10 JSON, 2 jobs, 21 metrics"},
             Case{"fio/3.33/terse_v3_randrw.terse", ImportFormat::FioTerse,
                  "fio 3.33 terse v3, 1 job, 14 metrics"},
             Case{"fio/3.33/normal_numjobs2.normal", ImportFormat::FioNormal,
                  "fio 3.33 normal output, 1 job (2 entries combined by name), 7 metrics"},
             Case{"fio/2.2.10/normal_randrw_70_30.normal", ImportFormat::FioNormal,
                  "fio 2.2.10 normal output, 1 job, 14 metrics"},
             Case{"iozone/3.465/throughput-t1-i0-i1-i2.txt", ImportFormat::Iozone,
                  "iozone 3.465 throughput report, 1 run, 6 metrics"},
             Case{"dd/coreutils-9.1/write-direct-then-read.txt", ImportFormat::Dd,
                  "dd summary (GNU coreutils), 2 runs, 2 metrics"},
         }) {
        const auto file = parsedFile(c.file);
        EXPECT_EQ(file.format, c.format) << c.file;
        EXPECT_EQ(file.description, c.description) << c.file;
        EXPECT_EQ(describeImport(lb::test::golden(c.file)).description, c.description) << c.file;
    }
}

// The message counts fio's job entries and groups as the file has them: several entries of one
// job (numjobs without group_reporting, or one per fio --client server) are not "1 job" alone.
TEST(ParseResultFile, FioMessageCountsEntriesAndGroups) {
    const auto startsWith = [](const std::string& file, const std::string& head) {
        const auto f = parsedFile(file);
        EXPECT_EQ(f.description.rfind(head, 0), 0u) << file << ": " << f.description;
    };
    startsWith("fio/3.33/jsonplus_numjobs4.json",
               "fio 3.33 JSON+, 1 job (4 entries combined by name), ");
    startsWith("fio/3.33/normal_two_groups.json", "fio 3.33 JSON, 2 jobs, 2 groups, ");
    startsWith("fio/3.33/normal_two_groups.normal", "fio 3.33 normal output, 2 jobs, 2 groups, ");
    startsWith("fio/3.33/normal_client_two_randrw_numjobs2.json",
               "fio 3.33 JSON, 1 job (4 entries combined by name), ");
    startsWith("fio/3.33/normal_client_two_randrw_numjobs2.txt",
               "fio 3.33 normal output, 1 job (4 entries combined by name), ");
    const auto terse = lb::test::golden("fio/3.33/terse_v3_randrw.terse");
    auto twice = parseResultFile("twice.terse", terse + terse);
    ASSERT_TRUE(twice) << twice.error().message;
    EXPECT_EQ(
        twice->description.rfind("fio 3.33 terse v3, 1 job (2 entries combined by name), ", 0), 0u)
        << twice->description;
}

// fio --client's text names the machine its servers said they are ("hostname=vm"): the run's.
TEST(ParseResultFile, FioClientTextNamesTheMachine) {
    const auto f = parsedFile("fio/3.33/normal_client_three_write_group.txt");
    ASSERT_EQ(f.runs.size(), 1u);
    EXPECT_EQ(f.format, ImportFormat::FioNormal);
    EXPECT_EQ(f.runs[0].host, "vm");
}

TEST(ParseResultFile, RunsRecordTheirOrigin) {
    const auto fio2 = parsedFile("fio/2.2.10/two_jobs_direct_and_buffered.json");
    ASSERT_EQ(fio2.runs.size(), 1u);
    EXPECT_EQ(fio2.runs[0].origin.format, "fio 2.2.10 JSON");
    EXPECT_EQ(fio2.runs[0].origin.convertedFrom,
              (std::vector<std::string>{"KiB/s", "KiB (io_bytes)", "us", "ms"}));
    EXPECT_EQ(fio2.runs[0].probe, "fio");
    const auto plus = parsedFile("fio/3.33/randrw_70_30_jsonplus.json");
    EXPECT_EQ(plus.runs[0].origin.format, "fio 3.33 JSON+");
    const auto table = parsedFile("bonnie++/1.97/paste-two-machines.txt");
    ASSERT_EQ(table.runs.size(), 2u);
    EXPECT_EQ(table.runs[1].origin.spec.at("machine"), "guest-vm");
    EXPECT_EQ(table.runs[1].workload, "bonnie");
    EXPECT_EQ(table.runs[1].stdoutText.rfind("Version  1.97", 0), 0u); // its own lines, raw
    const auto dd = parsedFile("dd/bsd/freebsd-11-write.txt");
    EXPECT_EQ(dd.runs[0].probe, "dd");
    EXPECT_EQ(dd.runs[0].origin.spec.at("direction"), "write");
}

TEST(ParseResultFile, NoMetricIsAnErrorThatSaysWhy) {
    // Every test too fast to time: bonnie++ printed only +++++.
    std::string line = "1.97,1.97,h,1,1,1G,";
    for (int i = 0; i < 6; ++i)
        line += ",+++++,+++";
    line += ",16,,,,";
    for (int i = 0; i < 6; ++i)
        line += ",+++++,+++";
    line += std::string(12, ',');
    auto r = parseResultFile("fast.csv", line + "\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(r.error().message.rfind("fast.csv:1: no metric: bonnie.putc: too fast to time", 0),
              0u)
        << r.error().message;
    EXPECT_NE(r.error().message.find("and 9 more"), std::string::npos) << r.error().message;

    // A fio job that did no I/O.
    const std::string idle = R"({"fio version": "fio-3.33", "jobs": [{"jobname": "idle",
        "error": 0, "read": {"total_ios": 0, "io_bytes": 0}}]})";
    r = parseResultFile("idle.json", idle);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "idle.json:1: no metric: the output holds no measurement");
    // A paste, without a file name.
    EXPECT_EQ(describeImport(idle).description, "1: no metric: the output holds no measurement");
    EXPECT_FALSE(describeImport(idle).ok);
}

// A line the parser could not place is named in the import's message, not only in the run.
TEST(ImportFiles, MessageNamesLinesNotRead) {
    auto text = lb::test::golden("iozone/3.465/auto-n64k-g1m.txt");
    const std::string lastRow = "            1024      64  4614246 13998981";
    text.resize(text.find(lastRow) + lastRow.size());
    const auto line = std::to_string(std::count(text.begin(), text.end(), '\n') + 1);
    const auto d = describeImport(text);
    EXPECT_TRUE(d.ok);
    EXPECT_EQ(d.description, "iozone 3.465 automatic-mode table, 1 run, 312 metrics, line " + line +
                                 " not read (the report's caveats say why)");
}

// bonnie++ CSV refuses negative figures; fio JSON does too now (they imported with exit 0), and
// a number too large for a double, and sums that overflow, name their line instead of line 1
// or failing in the store on a NaN.
TEST(ParseResultFile, FioJsonRefusesNegativeAndOverflowingNumbersAtTheirLine) {
    const auto golden = lb::test::golden("fio/3.33/seq_read.json");
    const auto refusedAt = [](const std::string& text, const std::string& needle,
                              const std::string& why) {
        const int line = lb::text::lineAt(text, text.find(needle));
        auto r = parseResultFile("seq.json", text);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().kind, lb::ErrorKind::BadInput);
        EXPECT_EQ(r.error().message, "seq.json:" + std::to_string(line) + ": " + why);
    };
    const auto with = [&](const std::string& from, const std::string& to) {
        std::string text = golden;
        text.replace(text.find(from), from.size(), to);
        return text;
    };
    refusedAt(with("\"bw_bytes\" : 1398101333", "\"bw_bytes\" : -1398101333"), "-1398101333",
              "jobs[0].read.bw_bytes: must not be negative, got -1398101333");
    refusedAt(with("\"iops\" : 10666.666667", "\"iops\" : -5"), "\"iops\" : -5",
              "jobs[0].read.iops: must not be negative, got -5");
    refusedAt(with("\"bw_bytes\" : 1398101333", "\"bw_bytes\" : 1e999"), "1e999",
              "invalid JSON at byte " + std::to_string(golden.find("1398101333")) +
                  ": number overflow parsing '1e999'");

    // Two entries of one job (numjobs=2) are summed: near the largest double, the sum is not
    // one, and the second entry's read statistics are where it overflows.
    std::string two = lb::test::golden("fio/3.33/numjobs2.json");
    for (const std::string bw : {"\"bw_bytes\" : 71697504", "\"bw_bytes\" : 72315586"})
        two.replace(two.find(bw), bw.size(), "\"bw_bytes\" : 1.7e308");
    const int secondRead =
        lb::text::lineAt(two, two.find("\"read\"", two.find("\"bw_bytes\" : 1.7e308")));
    ASSERT_GT(secondRead, 1);
    auto r = parseResultFile("two.json", two);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message,
              "two.json:" + std::to_string(secondRead) +
                  ": jobs[1].read: its values overflow when added to those of the other jobs "
                  "named 'twojobs' in one fio invocation (numjobs>1 without group_reporting)");
}

TEST(ParseResultFile, FioJsonErrorsNameTheLineOfTheField) {
    auto text = lb::test::golden("fio/3.33/seq_read.json");
    const auto at = text.find("\"bw_bytes\" : ");
    text.replace(at, 13, "\"bw_bytes\" : \"x\", \"old\" : ");
    const int line = lb::text::lineAt(text, at);
    auto r = parseResultFile("seq.json", text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message,
              "seq.json:" + std::to_string(line) + ": jobs[0].read.bw_bytes: expected a number");

    // A 2.x field that is not there: the line of the object that lacks it.
    auto old = lb::test::golden("fio/2.0.13/seqread.json");
    old.erase(old.find("\"bw\" : 131072,"), 14);
    const int readLine = lb::text::lineAt(old, old.find("\"read\""));
    r = parseResultFile("old.json", old);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message,
              "old.json:" + std::to_string(readLine) + ": jobs[0].read.bw: missing");

    // Broken JSON: the line of the byte; cut short: the last line there is.
    r = parseResultFile("bad.json",
                        "note: x\n{\"fio version\": \"fio-3.33\",\n \"jobs\": [1,,2]}\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message.rfind("bad.json:3: invalid JSON at byte", 0), 0u)
        << r.error().message;
    r = parseResultFile("cut.json", "note: x\n{\"fio version\": \"fio-3.33\",\n \"jobs\": [}\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message.rfind("cut.json:3: truncated JSON at byte", 0), 0u)
        << r.error().message;
}

TEST(ParseResultFile, ErrorsOfEveryParserNameFileLineAndField) {
    auto r =
        parseResultFile("t.txt", "\tChildren see throughput for  1 readers \t\t=  1x kB/sec\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "t.txt:1: read: '1x' is not a number");
    r = parseResultFile("d.txt", "1 bytes (1 B) copied, 0 s, 1 B/s\n");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "d.txt:1: seconds: '0' seconds gives no rate");
    auto table = lb::test::golden("bonnie++/1.97/table-seed-bare-metal.txt");
    table.replace(table.find("343719"), 6, "34371x");
    r = parseResultFile("b.txt", table);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "b.txt:4: put_block: '34371x' is not a number");
}

TEST(ImportFiles, StoresTheOrigin) {
    auto store = Store::open(":memory:");
    ASSERT_TRUE(store);
    const std::string file =
        std::string(LAYOUTBENCH_TEST_DATA_DIR) + "/iozone/3.465/auto-n64k-g1m.txt";
    auto summary = importFiles(*store, {"nas", "box", "imported", {file}});
    ASSERT_TRUE(summary) << summary.error().message;
    EXPECT_EQ(summary->metrics, 325);
    ASSERT_EQ(summary->descriptions.size(), 1u);
    EXPECT_EQ(summary->descriptions[0], "iozone 3.465 automatic-mode table, 1 run, 325 metrics");
    auto runs = store->storedRuns();
    ASSERT_TRUE(runs);
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_EQ(runs->front().probe, "iozone");
    const RunOrigin& origin = runs->front().origin;
    EXPECT_EQ(origin.format, "iozone 3.465 automatic-mode table");
    ASSERT_FALSE(origin.convertedFrom.empty());
    EXPECT_EQ(origin.convertedFrom[0], "kB/sec (KiB/s)");
    EXPECT_EQ(origin.spec.at("record_sizes_bytes"), "4096,8192,16384,32768,65536");
}

namespace {

std::string dataFile(const std::string& name) {
    return std::string(LAYOUTBENCH_TEST_DATA_DIR) + "/" + name;
}

std::string textOf(const std::string& path) {
    auto text = readInput(path, wholeResultLimit());
    EXPECT_TRUE(text);
    return text ? *text : std::string();
}

// `lines` bonnie++ CSV lines, each a different machine so that none repeats another.
std::string bonnieLines(int lines) {
    const std::string line = textOf(dataFile("bonnie++/1.97/hdd-slow-seeks.csv"));
    std::string out;
    for (int i = 0; i < lines; ++i) {
        std::string one = line;
        one.replace(one.find("nas-hdd"), 7, "host-" + std::to_string(i));
        out += one;
    }
    return out;
}

} // namespace

// Files are read on a thread of their own and stored on the caller's, a few hundred runs at a
// time, bonnie++ CSV files handed over to be read where they are stored: many files of both kinds
// come out in their order, each run with its own file's output and its iteration in that order,
// fio JSON+ output packed and read back as it was.
TEST(ImportFiles, ManyFilesKeepTheirOrderAndTheirOutput) {
    test::ScratchDir dir("import-many");
    const std::vector<std::string> samples = {
        textOf(dataFile("fio/3.33/randrw_70_30_jsonplus.json")),
        textOf(dataFile("fio/3.33/seq_read.json")), bonnieLines(1)};
    ImportRequest request{"nas", "box", "imported", {}};
    request.allowDuplicate = true;
    std::vector<std::string> raw; // each run's: a CSV line's without its line end
    for (int i = 0; i < 700; ++i) {
        request.files.push_back(dir.path("r" + std::to_string(i) + ".txt"));
        const std::string& text = samples[static_cast<std::size_t>(i) % samples.size()];
        std::ofstream(request.files.back()) << text;
        raw.push_back(i % 3 == 2 ? text.substr(0, text.find('\n')) : text);
    }
    auto store = Store::open(dir.path("r.db"));
    ASSERT_TRUE(store);
    const auto summary = importFiles(*store, request);
    ASSERT_TRUE(summary) << summary.error().message;
    EXPECT_EQ(summary->runs, 700);
    EXPECT_EQ(summary->files, request.files);
    ASSERT_EQ(summary->descriptions.size(), 700U);
    EXPECT_EQ(summary->descriptions[0], "fio 3.33 JSON+, 1 job, 14 metrics");
    EXPECT_EQ(summary->descriptions[2], "bonnie++ CSV (format 1.97), 1 machine, 32 metrics");
    const auto runs = store->storedRuns({std::nullopt, RunQuery::Output::All});
    ASSERT_TRUE(runs) << runs.error().message;
    ASSERT_EQ(runs->size(), 700U);
    std::map<std::string, int> next;
    for (std::size_t i = 0; i < runs->size(); ++i) {
        const auto& run = (*runs)[i];
        EXPECT_EQ(run.source, request.files[i]) << i;
        EXPECT_EQ(run.stdoutText, raw[i]) << i;
        EXPECT_EQ(run.iteration, next[run.workload]++) << i;
    }
}

// An error anywhere stores nothing, and the first error in the files' order is the one reported,
// although the reader has gone on ahead of the storer: a repeat of stored data in the third
// file, not the bad line read after it.
TEST(ImportFiles, TheFirstErrorInFileOrderIsReportedAndNothingStored) {
    test::ScratchDir dir("import-first-error");
    auto store = Store::open(dir.path("r.db"));
    ASSERT_TRUE(store);
    const std::string held = dataFile("fio/3.33/seq_read.json");
    ASSERT_TRUE(importFiles(*store, {"nas", "box", "imported", {held}}));
    const std::string many = dir.path("many.csv");
    std::ofstream(many) << bonnieLines(1500);
    // Line 1101 of 1200 is bad.
    std::string bad = bonnieLines(1200);
    std::size_t line1101 = 0;
    for (int i = 0; i < 1100; ++i)
        line1101 = bad.find('\n', line1101) + 1;
    bad.replace(bad.find("148932", line1101), 6, "14893x");
    std::ofstream(dir.path("bad.csv")) << bad;
    const auto refused = importFiles(
        *store, {"nas",
                 "box",
                 "imported",
                 {many, dataFile("fio/3.33/rand_write_4k.json"), held, dir.path("bad.csv")}});
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().message.rfind(held + ":1: already imported as run 1", 0), 0U)
        << refused.error().message;
    // Without the repeat, the bad line's error is reported.
    const auto bare = importFiles(*store, {"nas", "box", "imported", {many, dir.path("bad.csv")}});
    ASSERT_FALSE(bare);
    EXPECT_EQ(bare.error().message,
              dir.path("bad.csv") + ":1101: field 10 (put_block): '14893x' is not a number");
    const auto runs = store->runs();
    ASSERT_TRUE(runs);
    EXPECT_EQ(runs->size(), 1U) << "nothing of a refused import is stored";
}

// The same line twice in one file, hundreds of runs apart (read line by line where it is
// stored): the repeat is skipped and named; the file imported again is refused as before, and
// with --allow-duplicate imports its distinct runs again.
TEST(ImportFiles, ARepeatFarApartInOneFileIsSkippedAndNamed) {
    test::ScratchDir dir("import-far-repeat");
    auto store = Store::open(dir.path("r.db"));
    ASSERT_TRUE(store);
    std::string lines = bonnieLines(900);
    lines += lines.substr(0, lines.find('\n') + 1);
    std::ofstream(dir.path("twice.csv")) << lines;
    ImportRequest request{"nas", "box", "imported", {dir.path("twice.csv")}};
    const auto summary = importFiles(*store, request);
    ASSERT_TRUE(summary) << summary.error().message;
    EXPECT_EQ(summary->runs, 900);
    ASSERT_EQ(summary->descriptions.size(), 1u);
    EXPECT_NE(summary->descriptions[0].find("; 1 repeated run skipped (line 901 repeats line 1)"),
              std::string::npos)
        << summary->descriptions[0];
    const auto again = importFiles(*store, request);
    ASSERT_FALSE(again);
    EXPECT_NE(again.error().message.find(":1: already imported as run "), std::string::npos)
        << again.error().message;
    request.allowDuplicate = true;
    const auto allowed = importFiles(*store, request);
    ASSERT_TRUE(allowed) << allowed.error().message;
    EXPECT_EQ(allowed->runs, 900);
}

// ---- Machines kept apart ----

namespace {

std::vector<std::string> hostsOf(const ImportedFile& f) {
    std::vector<std::string> out;
    for (const auto& r : f.runs)
        out.push_back(r.host);
    return out;
}

} // namespace

// The machine a result names is its run's host: each bonnie++ line's (1.0x and 1.96+ alike, CSV
// or table) and the hostname of fio's client records when they name one machine. Clients on
// several machines measured them together: that run names no one machine.
TEST(ParseResultFile, EachRunsHostIsTheMachineItsOutputNames) {
    using V = std::vector<std::string>;
    EXPECT_EQ(hostsOf(parsedFile("bonnie++/1.03/kvm-three-lines.csv")),
              (V{"virtiotest", "virtiotest", "eve"}));
    EXPECT_EQ(hostsOf(parsedFile("bonnie++/1.03/mixed-1.03c-then-2.00a.csv")),
              (V{"virtiotest", "testhost", "testhost", "testhost"}));
    // bon_csv2txt cuts names to its column's width: the table says "testho", "otherho".
    EXPECT_EQ(hostsOf(parsedFile("bonnie++/2.00a/bon_csv2txt-two-machines.txt")),
              (V{"testho", "otherho"}));
    EXPECT_EQ(hostsOf(parsedFile("fio/3.33/client_server_one_client.json")), (V{"127.0.0.1"}));
    EXPECT_EQ(hostsOf(parsedFile("fio/2.2.10/client_server.json")), (V{""}));
    EXPECT_EQ(hostsOf(parsedFile("fio/3.33/seq_read.json")), (V{""}));
}

// Stored, each run keeps the machine its line names; runs that name none are the import's
// default host; --host names the machine of every run, whatever the lines say.
TEST(ImportFiles, StoresTheMachineEachRunNamesUnlessTheImportNamesOne) {
    const std::string csv =
        std::string(LAYOUTBENCH_TEST_DATA_DIR) + "/bonnie++/1.03/kvm-three-lines.csv";
    const std::string fio = std::string(LAYOUTBENCH_TEST_DATA_DIR) + "/fio/3.33/seq_read.json";
    auto store = Store::open(":memory:");
    ASSERT_TRUE(store);
    ImportRequest named{"kvm", "", "imported", {csv, fio}};
    auto summary = importFiles(*store, named);
    ASSERT_TRUE(summary) << summary.error().message;
    ImportRequest given{"lab", "lab-1", "imported", {csv}};
    given.allowDuplicate = true;
    summary = importFiles(*store, given);
    ASSERT_TRUE(summary) << summary.error().message;
    const auto runs = store->runs();
    ASSERT_TRUE(runs);
    std::vector<std::string> hosts;
    for (const auto& r : *runs)
        hosts.push_back(r.layout + "@" + r.host);
    EXPECT_EQ(hosts,
              (std::vector<std::string>{"kvm@virtiotest", "kvm@virtiotest", "kvm@eve",
                                        "kvm@imported", "lab@lab-1", "lab@lab-1", "lab@lab-1"}));
    const auto kvm = store->findLayout("kvm");
    ASSERT_TRUE(kvm && *kvm);
    EXPECT_EQ((*kvm)->host, "imported");
}
