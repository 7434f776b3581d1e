// The decision report from a fixture database built here from the golden files (bonnie++ seed
// results, fio JSON) plus hand-made runs for extra iterations, a failed run and caveats: what it
// says, that it escapes hostile names, that it is deterministic, that the PDF renders, and that
// the charts have the series and bands the app relies on. Runs under the offscreen platform.
#include "engine/base/size.h"
#include "engine/capacity/projection.h"
#include "engine/store/store.h"
#include "probes/import.h"
#include "reports/charts.h"
#include "reports/display.h"
#include "reports/report.h"
#include "reports/report_pdf.h"
#include "reports/svg_chart.h"

#include <QApplication>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <qcustomplot.h>
#include <set>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace lb;

namespace {

const std::string dataDir = LAYOUTBENCH_TEST_DATA_DIR;
const std::string hostile = "<script>alert(1)</script>";
const std::string oomReason = "out of memory: exit status 1: Can't write block.: Cannot "
                              "allocate memory";
const std::string odirectCaveat = "the file system of this layout does not accept O_DIRECT";
const std::string arcCaveat = "ZFS reads can come from the ARC when the data set is smaller than "
                              "RAM; dropping the page cache does not empty the ARC";
const std::string smallFileCaveat = "bonnie++ file size 15360 MiB is below twice the RAM "
                                    "(28672 MiB): the page cache inflates the numbers";

// Where the test writes its reports: $LAYOUTBENCH_REPORT_OUT if set (to look at them), else a
// fresh temporary directory.
fs::path outputDir() {
    static const fs::path dir = [] {
        if (const char* keep = std::getenv("LAYOUTBENCH_REPORT_OUT"); keep && *keep) {
            fs::create_directories(keep);
            return fs::path(keep);
        }
        fs::path d =
            fs::temp_directory_path() / ("layoutbench-report-test-" + std::to_string(::getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

std::string fixedClock() {
    return "2024-04-04T12:00:00Z";
}

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

Metric bytesPerSecond(const std::string& name, double kibPerSecond) {
    return {name, kibPerSecond * 1024.0, Unit::BytesPerSecond};
}

// A bonnie++ run recorded by hand, as a campaign would store it.
Run bonnieRun(const std::string& layout, int iteration, double putBlockKiB, double getBlockKiB,
              std::vector<std::string> caveats) {
    Run r;
    r.layout = layout;
    r.workload = "bonnie";
    r.probe = "bonnie";
    r.iteration = iteration;
    r.argv = {"bonnie++", "-d", "/mnt/lb-" + layout, "-s", "63G", "-n", "16", "-u", "root"};
    r.exitCode = 0;
    r.toolVersion = "1.97";
    r.startedAt = r.finishedAt = fixedClock();
    r.wallSeconds = 812.5;
    r.status = RunStatus::Ok;
    r.caveats = std::move(caveats);
    r.metrics = {bytesPerSecond("bonnie.put_block", putBlockKiB),
                 bytesPerSecond("bonnie.get_block", getBlockKiB)};
    return r;
}

void check(bool ok, const std::string& what) {
    if (!ok)
        throw std::runtime_error("fixture: " + what);
}

template <typename T> T must(Expected<T> e, const std::string& what) {
    if (!e)
        throw std::runtime_error("fixture: " + what + ": " + e.error().message);
    return std::move(*e);
}

// bare-metal (ZFS RAIDZ2, the baseline), guest-vm (md RAID6 under a guest, SSDs partitioned to
// 80 %) and a layout with a hostile name, from the golden files and hand-made runs.
std::string buildFixture() {
    const fs::path db = outputDir() / "fixture.db";
    fs::remove(db);
    fs::remove(db.string() + "-wal");
    fs::remove(db.string() + "-shm");
    auto store = must(Store::open(db.string(), fixedClock), "open");

    const nlohmann::json inventory = {{"hostname", "storage1"},
                                      {"kernel", "Linux 6.1.0-18-amd64 x86_64"},
                                      {"cpu_model", "Intel(R) Xeon(R) E-2236 CPU @ 3.40GHz"},
                                      {"cpus", "12"},
                                      {"ram_bytes", 34359738368ULL},
                                      {"swap_bytes", 0},
                                      {"root", true},
                                      {"disks",
                                       {{{"name", "sda"},
                                         {"path", "/dev/sda"},
                                         {"model", "Samsung SSD 860 EVO <500GB> & \"friends\""},
                                         {"serial", "S3Z9NB0K123456"},
                                         {"size", 500107862016ULL},
                                         {"rota", false},
                                         {"type", "disk"},
                                         {"children",
                                          {{{"name", "sda1"},
                                            {"path", "/dev/sda1"},
                                            {"size", 400086289408ULL},
                                            {"rota", false},
                                            {"type", "part"}}}}}}},
                                      {"tools", {{"bonnie", "1.97"}, {"fio", "fio-3.33"}}}};
    const auto host = must(store.ensureHost("storage1", inventory.dump()), "host");

    nlohmann::json disks = nlohmann::json::array(), bytes = nlohmann::json::array();
    for (int i = 0; i < 10; ++i) {
        disks.push_back("ssd" + std::to_string(i));
        bytes.push_back(500107862016ULL);
    }
    const nlohmann::json bareSpec = {{"kind", "zfs-raidz2"}, {"baseline", true},
                                     {"disks", disks},       {"disk_bytes", bytes},
                                     {"ashift", 12},         {"recordsize", 131072},
                                     {"compression", "off"}, {"underprovision", 1.0}};
    const nlohmann::json guestSpec = {{"kind", "md-raid6"},
                                      {"disks", disks},
                                      {"disk_bytes", bytes},
                                      {"underprovision", 0.8},
                                      {"hypervisor", "xen-hvm"}};
    const auto bare =
        must(store.ensureLayout("bare-metal", "zfs-raidz2", bareSpec.dump(), host), "bare");
    const auto guest =
        must(store.ensureLayout("guest-vm", "md-raid6", guestSpec.dump(), host), "guest");

    const std::string bonnie = dataDir + "/bonnie++/1.97/";
    const std::string fio = dataDir + "/fio/3.33/";
    must(importFiles(store, {"bare-metal",
                             "storage1",
                             "zfs-raidz2",
                             {bonnie + "seed-bare-metal.csv", fio + "seq_read.json"}}),
         "import bare-metal");
    // The same fio output on both sides: imported again on purpose.
    must(importFiles(store, {"guest-vm",
                             "storage1",
                             "md-raid6",
                             {bonnie + "seed-guest.csv", fio + "seq_read.json"},
                             true}),
         "import guest-vm");
    must(importFiles(store, {hostile, "storage1", "imported", {bonnie + "hdd-slow-seeks.csv"}}),
         "import hostile");

    // Two more iterations each, around the seed values so the medians stay the seed's.
    must(store.insertRun(bare, bonnieRun("bare-metal", 1, 340000, 420000, {arcCaveat})), "run");
    must(store.insertRun(bare, bonnieRun("bare-metal", 2, 350000, 425000, {arcCaveat})), "run");
    must(store.insertRun(guest, bonnieRun("guest-vm", 1, 210000, 295000, {odirectCaveat})), "run");
    must(store.insertRun(guest, bonnieRun("guest-vm", 2, 225000, 301000, {odirectCaveat})), "run");

    // bonnie++ aborted in the guest once its memory went from 32 G to 28 G with no swap.
    Run failed = bonnieRun("guest-vm", 3, 0, 0, {odirectCaveat, smallFileCaveat});
    failed.metrics.clear();
    failed.status = RunStatus::Failed;
    failed.exitCode = 1;
    failed.reason = oomReason;
    failed.stderrText = "Using uid:0, gid:0.\nWriting a byte at a time...done\n"
                        "Writing intelligently...Can't write block.: Cannot allocate memory\n\n";
    must(store.insertRun(guest, failed), "failed run");
    return db.string();
}

const std::string& fixturePath() {
    static const std::string path = buildFixture();
    return path;
}

ReportData gather(ReportRequest request = {}) {
    auto store = Store::open(fixturePath(), fixedClock);
    check(static_cast<bool>(store), "reopen");
    auto data = gatherReport(*store, request);
    check(static_cast<bool>(data), data ? "" : data.error().message);
    return *data;
}

const Comparison& comparisonOf(const ReportData& data, const std::string& candidate) {
    for (const auto& c : data.comparisons)
        if (c.candidate == candidate)
            return c;
    throw std::runtime_error("no comparison for " + candidate);
}

std::size_t count(const std::string& haystack, const std::string& needle) {
    std::size_t n = 0;
    for (auto pos = haystack.find(needle); pos != std::string::npos;
         pos = haystack.find(needle, pos + 1))
        ++n;
    return n;
}

} // namespace

TEST(HtmlEscape, EscapesMarkupQuotesAndAmpersands) {
    EXPECT_EQ(htmlEscape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
    EXPECT_EQ(htmlEscape("say \"hi\" & 'bye'"), "say &quot;hi&quot; &amp; &#39;bye&#39;");
    EXPECT_EQ(htmlEscape("&amp;"), "&amp;amp;");
    EXPECT_EQ(htmlEscape("plain ünïcode — ok"), "plain ünïcode — ok");
}

TEST(MarkdownEscape, EscapesMarkupAndKeepsCellsOnOneLine) {
    EXPECT_EQ(markdownEscape("<script>alert(1)</script>"), "\\<script\\>alert(1)\\</script\\>");
    EXPECT_EQ(markdownEscape("a|b\nc"), "a\\|b c");
    EXPECT_EQ(markdownEscape("put_block *x*"), "put\\_block \\*x\\*");
}

TEST(GatherReport, BaselineFirstThenCandidatesByNameWithCapacity) {
    const ReportData data = gather();
    EXPECT_EQ(data.title, "layoutbench decision report");
    EXPECT_EQ(data.baseline, "bare-metal"); // marked baseline in its spec
    ASSERT_EQ(data.layouts.size(), 3U);
    EXPECT_EQ(data.layouts[0].name, "bare-metal");
    EXPECT_TRUE(data.layouts[0].baseline);
    EXPECT_EQ(data.layouts[1].name, hostile);
    EXPECT_EQ(data.layouts[2].name, "guest-vm");
    ASSERT_TRUE(data.layouts[0].capacity);
    EXPECT_EQ(data.layouts[0].capacity->faultTolerance, 2U);
    ASSERT_TRUE(data.layouts[2].capacity);
    EXPECT_GT(data.layouts[2].capacity->underprovisionedBytes, 0U);
    EXPECT_FALSE(data.layouts[1].capacity); // imported: no spec to compute from
    EXPECT_EQ(data.layouts[2].failedRuns, 1);
    ASSERT_EQ(data.comparisons.size(), 2U);
    EXPECT_EQ(data.comparisons[0].candidate, hostile);
    EXPECT_EQ(data.comparisons[1].candidate, "guest-vm");
    EXPECT_NE(data.inventoryJson.find("storage1"), std::string::npos);
    EXPECT_TRUE(std::is_sorted(data.runs.begin(), data.runs.end(),
                               [](const auto& a, const auto& b) { return a.id < b.id; }));

    const Comparison& guest = comparisonOf(data, "guest-vm");
    const auto put = std::find_if(guest.metrics.begin(), guest.metrics.end(),
                                  [](const auto& m) { return m.name == "bonnie.put_block"; });
    ASSERT_NE(put, guest.metrics.end());
    EXPECT_DOUBLE_EQ(put->baselineMedian, 343719.0 * 1024);
    EXPECT_DOUBLE_EQ(put->candidateMedian, 217553.0 * 1024);
    EXPECT_EQ(put->verdict, Verdict::Decision);
    EXPECT_EQ(put->baselineSamples, 3U);
}

TEST(GatherReport, FailedRunKeepsItsReasonStderrTailAndCaveats) {
    const ReportData data = gather();
    const auto failed = std::find_if(data.runs.begin(), data.runs.end(),
                                     [](const auto& r) { return r.status == RunStatus::Failed; });
    ASSERT_NE(failed, data.runs.end());
    EXPECT_EQ(failed->layout, "guest-vm");
    EXPECT_EQ(failed->reason, oomReason);
    const std::string end = "Writing intelligently...Can't write block.: Cannot allocate memory";
    ASSERT_GE(failed->stderrTail.size(), end.size());
    EXPECT_EQ(failed->stderrTail.substr(failed->stderrTail.size() - end.size()), end)
        << "trailing blank lines dropped";
    EXPECT_EQ(failed->argv.front(), "bonnie++");
    EXPECT_EQ(failed->caveats, (std::vector<std::string>{odirectCaveat, smallFileCaveat}));
    EXPECT_EQ(failed->exitCode, 1);
}

TEST(GatherReport, NamedPairAndErrors) {
    ReportRequest pair;
    pair.baseline = "bare-metal";
    pair.candidate = "guest-vm";
    const ReportData data = gather(pair);
    ASSERT_EQ(data.layouts.size(), 2U);
    ASSERT_EQ(data.comparisons.size(), 1U);
    for (const auto& r : data.runs)
        EXPECT_NE(r.layout, hostile);

    auto store = Store::open(fixturePath(), fixedClock);
    ASSERT_TRUE(store);
    ReportRequest unknown;
    unknown.baseline = "nope";
    auto e = gatherReport(*store, unknown);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(e.error().message.rfind("baseline: no layout named 'nope'", 0), 0U);
    ReportRequest badCandidate;
    badCandidate.candidate = "missing";
    e = gatherReport(*store, badCandidate);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().message.rfind("candidate: no layout named 'missing'", 0), 0U);
    ReportRequest badCampaign;
    badCampaign.campaignId = 99;
    e = gatherReport(*store, badCampaign);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().kind, ErrorKind::BadInput);
}

TEST(GatherReport, CampaignGivesThresholdsInventoryAndScope) {
    const fs::path db = outputDir() / "campaign.db";
    fs::remove(db);
    auto store = Store::open(db.string(), fixedClock);
    ASSERT_TRUE(store);
    auto host = store->ensureHost("h", "{}");
    ASSERT_TRUE(host);
    auto created = store->createCampaign({"nas", "nas.toml",
                                          "name = \"nas\"\ndescription = \"Home "
                                          "NAS\"\n[thresholds]\nviable = 1.2\nnot_viable = 3.0\n",
                                          *host, R"({"hostname":"nas","ram_bytes":1024})"});
    ASSERT_TRUE(created);
    const auto campaign = *created;
    ASSERT_TRUE(store->setCampaignStatus(campaign, CampaignStatus::Done, true));
    auto a = store->ensureLayout("mirrors", "zfs-raid10", R"({"baseline":true})", *host);
    auto b = store->ensureLayout("raidz1", "zfs-raidz1", "{}", *host);
    auto other = store->ensureLayout("other", "dir", "{}", *host);
    ASSERT_TRUE(a && b && other);
    for (auto [layoutId, name, kib] :
         {std::tuple{*a, "mirrors", 180000.0}, std::tuple{*b, "raidz1", 40000.0 * 4}}) {
        lb::Run r = bonnieRun(name, 0, kib, kib, {});
        r.campaignId = campaign;
        ASSERT_TRUE(store->insertRun(layoutId, r));
    }
    ASSERT_TRUE(store->insertRun(*other, bonnieRun("other", 0, 1, 1, {}))); // not in it

    ReportRequest request;
    request.campaignId = campaign;
    auto data = gatherReport(*store, request);
    ASSERT_TRUE(data) << data.error().message;
    EXPECT_EQ(data->baseline, "mirrors");
    ASSERT_EQ(data->layouts.size(), 2U);
    EXPECT_EQ(data->thresholds, (Thresholds{1.2, 3.0}));
    EXPECT_EQ(data->scenarioDescription, "Home NAS");
    EXPECT_EQ(data->campaign, "nas");
    EXPECT_NE(data->inventoryJson.find("\"nas\""), std::string::npos);
    ASSERT_EQ(data->comparisons.size(), 1U);
    EXPECT_EQ(data->comparisons[0].metrics[0].verdict, Verdict::Viable); // 1.125 <= 1.2

    request.scenarioThresholds = false;
    data = gatherReport(*store, request);
    ASSERT_TRUE(data);
    EXPECT_EQ(data->thresholds, Thresholds{});
    EXPECT_EQ(data->comparisons[0].metrics[0].verdict, Verdict::Decision);
}

// By default the report is the newest campaign of the compared layouts: the failed runs of an
// earlier attempt stay out, a layout that was only imported comes with all its runs, and the top
// says so; --all takes every run, --campaign another campaign.
TEST(GatherReport, TheNewestCampaignByDefaultAndEveryRunOnRequest) {
    const fs::path db = outputDir() / "scope.db";
    fs::remove(db);
    auto store = Store::open(db.string(), fixedClock);
    ASSERT_TRUE(store);
    auto host = store->ensureHost("h", "{}");
    ASSERT_TRUE(host);
    auto base = store->ensureLayout("base", "dir", R"({"baseline":true})", *host);
    auto cand = store->ensureLayout("cand", "dir", "{}", *host);
    auto old = store->ensureLayout("old-server", "imported", "{}", *host);
    ASSERT_TRUE(base && cand && old);
    std::vector<std::int64_t> campaigns;
    for (const char* name : {"first", "second"}) {
        auto c = store->createCampaign({name, "s.toml", "name = \"s\"\n", *host, "{}"});
        ASSERT_TRUE(c);
        ASSERT_TRUE(store->setCampaignStatus(*c, CampaignStatus::Done, true));
        campaigns.push_back(*c);
    }
    // The first attempt failed on the candidate; the second ran.
    for (int i = 0; i < 3; ++i) {
        lb::Run failed = bonnieRun("cand", i, 0, 0, {});
        failed.metrics.clear();
        failed.status = RunStatus::Failed;
        failed.reason = "mkdir: cannot create directory: Permission denied";
        failed.campaignId = campaigns[0];
        ASSERT_TRUE(store->insertRun(*cand, failed));
    }
    for (auto [layoutId, name, kib] :
         {std::tuple{*base, "base", 300000.0}, std::tuple{*cand, "cand", 290000.0}}) {
        lb::Run r = bonnieRun(name, 0, kib, kib, {});
        r.campaignId = campaigns[1];
        ASSERT_TRUE(store->insertRun(layoutId, r));
    }
    ASSERT_TRUE(store->insertRun(*old, bonnieRun("old-server", 0, 150000, 150000, {})));

    auto data = gatherReport(*store, {});
    ASSERT_TRUE(data) << data.error().message;
    EXPECT_EQ(data->campaignId, campaigns[1]);
    EXPECT_EQ(data->layouts.size(), 3U);
    for (const auto& r : data->runs)
        EXPECT_EQ(r.status, RunStatus::Ok) << "run #" << r.id << " of another campaign";
    EXPECT_EQ(data->runs.size(), 3U);
    EXPECT_EQ(data->scope, "campaign " + std::to_string(campaigns[1]) +
                               " 'second', the newest of 2 campaigns with these layouts, and "
                               "every imported run (the other campaigns' runs are left out)");
    // The flags are the command line's: a page for a reader carries none (issue 41, item 6).
    EXPECT_EQ(data->scopeHint, "--campaign N for another, --all for every run");
    EXPECT_EQ(renderMarkdown(*data).find("--campaign"), std::string::npos);
    EXPECT_NE(renderMarkdown(*data).find("**Runs:** campaign"), std::string::npos);

    ReportRequest all;
    all.allRuns = true;
    data = gatherReport(*store, all);
    ASSERT_TRUE(data) << data.error().message;
    EXPECT_EQ(data->runs.size(), 6U);
    EXPECT_EQ(data->scope, "every run in the database");
    EXPECT_EQ(data->scopeHint, "--all");

    ReportRequest first;
    first.campaignId = campaigns[0];
    data = gatherReport(*store, first);
    ASSERT_TRUE(data) << data.error().message;
    EXPECT_EQ(data->layouts.size(), 1U); // the named campaign alone: its one layout
    EXPECT_EQ(data->runs.size(), 3U);
}

TEST(Report, MarkdownHasTheVerdictReasonsAndSeedNumbers) {
    const std::string md = renderMarkdown(gather());
    EXPECT_NE(md.find("# layoutbench decision report"), std::string::npos);
    EXPECT_NE(md.find("put\\_block: 58 % more time per byte — decision required"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("decision"), std::string::npos);
    const std::string baseline = display::value(343719.0 * 1024, Unit::BytesPerSecond);
    const std::string candidate = display::value(217553.0 * 1024, Unit::BytesPerSecond);
    EXPECT_EQ(baseline, "352.0 MB/s");
    EXPECT_EQ(candidate, "222.8 MB/s");
    EXPECT_NE(md.find("| bonnie.put\\_block | " + baseline + " | " + candidate + " | 1.58 |"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("ratio ≤ 1.10"), std::string::npos);
    EXPECT_NE(md.find("ratio ≥ 2.00"), std::string::npos);
    EXPECT_NE(md.find("\\<script\\>alert(1)\\</script\\>"), std::string::npos);
    // Raw only inside fenced code blocks (the appendix), which Markdown shows as text.
    std::string outsideCode;
    bool inCode = false;
    std::istringstream lines(md);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("```", 0) == 0)
            inCode = !inCode;
        else if (!inCode)
            outsideCode += line + "\n";
    }
    EXPECT_FALSE(inCode);
    EXPECT_EQ(outsideCode.find("<script>"), std::string::npos);
}

TEST(Report, HtmlHasVerdictReasonAndEscapesTheHostileLayout) {
    const std::string html = renderHtml(gather());
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0U);
    EXPECT_NE(html.find("put_block: 58 % more time per byte — decision required"),
              std::string::npos);
    EXPECT_NE(html.find(">decision<"), std::string::npos);
    EXPECT_NE(html.find("352.0 MB/s"), std::string::npos);
    EXPECT_NE(html.find("222.8 MB/s"), std::string::npos);
    // The hostile name appears, but only escaped: no raw tag anywhere.
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("alert(1)</"), std::string::npos);
    EXPECT_GE(count(html, "&lt;script&gt;alert(1)&lt;/script&gt;"), 3U);
    // The disk model with markup and quotes from the inventory, escaped.
    EXPECT_NE(html.find("Samsung SSD 860 EVO &lt;500GB&gt; &amp; &quot;friends&quot;"),
              std::string::npos);
    // Charts inline as SVG, nothing fetched from elsewhere.
    EXPECT_GE(count(html, "<svg class=\"chart\""), 3U);
    EXPECT_EQ(html.find("<img"), std::string::npos);
    EXPECT_EQ(html.find("http://"), std::string::npos);
    EXPECT_EQ(html.find("https://"), std::string::npos);
}

TEST(Report, FailedRunsAndCaveatsAppear) {
    const ReportData data = gather();
    for (const std::string& out : {renderMarkdown(data), renderHtml(data)}) {
        EXPECT_NE(out.find("Failed runs"), std::string::npos);
        EXPECT_NE(out.find("Cannot allocate memory"), std::string::npos); // the stderr tail
        EXPECT_NE(out.find("out of memory: exit status 1"), std::string::npos);
        EXPECT_NE(out.find("does not accept O"), std::string::npos); // O_DIRECT, O\\_DIRECT
        EXPECT_NE(out.find("ARC"), std::string::npos);
        EXPECT_NE(out.find("page cache inflates the numbers"), std::string::npos);
        EXPECT_NE(out.find("bonnie++ -d /mnt/lb-guest-vm -s 63G"), std::string::npos);
        EXPECT_NE(out.find("imported from"), std::string::npos);
        EXPECT_NE(out.find("bonnie++ CSV (format 1.97), converted from KiB/s"), std::string::npos);
    }
}

TEST(Report, SameDatabaseSameBytes) {
    const ReportData first = gather();
    const ReportData second = gather();
    EXPECT_EQ(renderMarkdown(first), renderMarkdown(second));
    const std::string html = renderHtml(first);
    EXPECT_EQ(html, renderHtml(second));
    EXPECT_EQ(html, renderHtml(first));
    const auto a = renderCharts(first);
    const auto b = renderCharts(second);
    ASSERT_EQ(a.size(), b.size());
    ASSERT_GE(a.size(), 3U);
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].id, b[i].id);
        EXPECT_EQ(a[i].png.substr(1, 3), "PNG");
        EXPECT_EQ(a[i].png, b[i].png) << a[i].id;
    }
    // The SVG of every chart, byte for byte, and the model it is drawn from.
    const ReportDocument one = reportDocument(first), two = reportDocument(second);
    EXPECT_TRUE(one == two);
    ASSERT_EQ(one.charts.size(), a.size());
    for (std::size_t i = 0; i < one.charts.size(); ++i) {
        EXPECT_EQ(reportChartSvg(one.charts[i]), reportChartSvg(two.charts[i])) << one.charts[i].id;
        std::ofstream(outputDir() / (one.charts[i].id + ".svg"), std::ios::binary)
            << reportChartSvg(one.charts[i]);
    }
    std::ofstream(outputDir() / "report.html", std::ios::binary) << html;
    std::ofstream(outputDir() / "report.md", std::ios::binary) << renderMarkdown(first);
    for (const auto& c : a)
        std::ofstream(outputDir() / (c.id + ".png"), std::ios::binary) << c.png;
}

TEST(Report, PdfRendersToPages) {
    const fs::path pdf = outputDir() / "report.pdf";
    fs::remove(pdf);
    auto r = renderPdf(gather(), pdf.string());
    ASSERT_TRUE(r) << r.error().message;
    const std::string bytes = readFile(pdf);
    ASSERT_GT(bytes.size(), 1000U);
    EXPECT_EQ(bytes.substr(0, 4), "%PDF");
    // Same database, same report: a second rendering is byte for byte the same, clock included.
    const fs::path again = outputDir() / "report-again.pdf";
    ASSERT_TRUE(renderPdf(gather(), again.string()));
    EXPECT_TRUE(readFile(again) == bytes);
    EXPECT_NE(bytes.find("/CreationDate (D:19700101000000Z)"), std::string::npos);
    fs::remove(again);

    if (std::system("command -v pdftoppm >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "pdftoppm (poppler-utils) is not installed: cannot rasterise the PDF";
    const fs::path prefix = outputDir() / "page";
    for (const auto& e : fs::directory_iterator(outputDir()))
        if (e.path().filename().string().rfind("page-", 0) == 0)
            fs::remove(e.path());
    const std::string cmd = "pdftoppm -png -r 50 '" + pdf.string() + "' '" + prefix.string() + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::size_t pages = 0;
    for (const auto& e : fs::directory_iterator(outputDir()))
        if (e.path().filename().string().rfind("page-", 0) == 0 && e.path().extension() == ".png")
            ++pages;
    EXPECT_GE(pages, 1U);
}

namespace {

// The PDF's text as pdftotext lays it out, one string per page; empty without poppler-utils.
std::vector<std::string> pdfPages(const fs::path& pdf) {
    const fs::path text = pdf.string() + ".txt";
    const std::string cmd = "pdftotext -layout '" + pdf.string() + "' '" + text.string() + "'";
    if (std::system(cmd.c_str()) != 0)
        return {};
    std::vector<std::string> pages;
    std::istringstream all(readFile(text));
    std::string page;
    while (std::getline(all, page, '\f'))
        if (!page.empty())
            pages.push_back(page);
    return pages;
}

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.find_first_not_of(' ') != std::string::npos)
            out.push_back(line.substr(line.find_first_not_of(' ')));
    return out;
}

} // namespace

// What a signer prints: a metric name breaks only after one of its dots; a table that runs onto
// another page repeats its header row there; no heading is left last on a page; the PDF is dated
// when the report was written.
TEST(Report, PdfWrapsNamesAtDotsRepeatsHeadersAndKeepsHeadingsWithText) {
    if (std::system("command -v pdftotext >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "pdftotext (poppler-utils) is not installed: cannot read the PDF's text";
    ReportRequest request;
    request.writtenAt = "2026-12-02T03:04:05Z";
    const ReportData data = gather(request);
    const fs::path pdf = outputDir() / "report-layout.pdf";
    ASSERT_TRUE(renderPdf(data, pdf.string()));
    const std::string bytes = readFile(pdf);
    EXPECT_TRUE(bytes.find("/CreationDate (D:20261202030405Z)") != std::string::npos ||
                bytes.find("/CreationDate (D:20261202030405+00'00')") != std::string::npos);

    const auto pages = pdfPages(pdf);
    ASSERT_GE(pages.size(), 2U) << "the fixture's report runs over several pages";
    std::set<std::string> names;
    for (const auto& c : data.comparisons)
        for (const auto& m : c.metrics)
            names.insert(m.name);
    ASSERT_FALSE(names.empty());
    std::set<std::string> headings;
    for (const auto& line : linesOf(renderMarkdown(data)))
        if (line.rfind("#", 0) == 0)
            headings.insert(line.substr(line.find_first_not_of("# ")));

    std::size_t pagesWithRows = 0;
    for (std::size_t p = 0; p < pages.size(); ++p) {
        SCOPED_TRACE("page " + std::to_string(p + 1));
        const auto lines = linesOf(pages[p]);
        bool header = false, rows = false;
        for (const auto& line : lines) {
            std::istringstream words(line);
            std::string first;
            words >> first;
            header = header || (first == "metric" && line.find("baseline") != std::string::npos);
            for (const auto& name : names) {
                rows = rows || first == name;
                // A piece of a name, as the first word of a line: whole, or up to a dot.
                if (name.rfind(first, 0) == 0 && !names.count(first) &&
                    first.find('.') != std::string::npos) {
                    EXPECT_EQ(first.back(), '.') << "'" << name << "' broken as '" << first << "'";
                }
            }
        }
        if (rows) {
            ++pagesWithRows;
            EXPECT_TRUE(header) << "rows of a comparison without its header row";
        }
        // The last line is the page's foot; the one before it must not be a heading.
        ASSERT_GE(lines.size(), 2U);
        EXPECT_EQ(lines.back().rfind(data.title, 0), 0U) << lines.back();
        EXPECT_NE(lines.back().find("page " + std::to_string(p + 1) + " of " +
                                    std::to_string(pages.size())),
                  std::string::npos)
            << lines.back();
        EXPECT_FALSE(headings.count(lines[lines.size() - 2]))
            << "heading '" << lines[lines.size() - 2] << "' left last on the page";
    }
    EXPECT_GE(pagesWithRows, 2U) << "a comparison table runs onto a second page";
}

// The campaign chose direct I/O, a workload asked for buffered: the statement of what was
// measured says both, as the command lines do.
TEST(Report, WhatWasMeasuredNamesTheWorkloadsThatRanBuffered) {
    ReportData data = gather();
    data.io = CampaignIo{true, "every layout accepts O_DIRECT", true, true};
    data.runs.push_back({});
    data.runs.back().workload = "fio:seq-read-1m";
    data.runs.back().argv = {"fio", "--name=seq-read-1m", "--direct=0"};
    const std::string md = renderMarkdown(data);
    EXPECT_NE(md.find("direct I/O on every layout"), std::string::npos) << md.substr(0, 2000);
    EXPECT_NE(md.find("buffered I/O where the workload asks for it (direct = false): "
                      "fio:seq-read-1m"),
              std::string::npos)
        << md.substr(0, 2000);
    data.io->direct = false;
    EXPECT_EQ(renderMarkdown(data).find("where the workload asks for it"), std::string::npos);
}

TEST(Report, PdfToAnUnwritablePathIsARuntimeError) {
    auto r = renderPdf(gather(), "/nonexistent-dir/x/report.pdf");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::Runtime);
    EXPECT_NE(r.error().message.find("/nonexistent-dir/x/report.pdf"), std::string::npos);
}

TEST(Charts, GroupedBarsHaveOneSeriesPerLayout) {
    const ReportData data = gather();
    const QStringList metrics = charts::barMetrics(data);
    EXPECT_TRUE(metrics.contains("bonnie.put_block"));
    EXPECT_TRUE(metrics.contains("bonnie.seeks"));
    // Every deciding metric is drawn (putc decides); CPU shares are shown, never deciding.
    EXPECT_TRUE(metrics.contains("bonnie.putc"));
    EXPECT_FALSE(metrics.contains("bonnie.putc_cpu"));
    EXPECT_TRUE(std::is_sorted(metrics.begin(), metrics.end()));
    QCustomPlot plot;
    for (int pass = 0; pass < 2; ++pass) { // rebuilding in place leaves nothing behind
        charts::buildGroupedBars(plot, data, metrics, pass == 1);
        std::vector<QString> names;
        int errorBars = 0;
        for (int i = 0; i < plot.plottableCount(); ++i) {
            if (auto* bars = qobject_cast<QCPBars*>(plot.plottable(i)))
                names.push_back(bars->name());
            if (auto* err = qobject_cast<QCPErrorBars*>(plot.plottable(i))) {
                ++errorBars;
                EXPECT_NE(err->dataPlottable(), nullptr);
            }
        }
        ASSERT_EQ(names.size(), data.layouts.size());
        for (std::size_t i = 0; i < names.size(); ++i)
            EXPECT_EQ(names[i].toStdString(), data.layouts[i].name);
        EXPECT_EQ(errorBars, static_cast<int>(data.layouts.size()));
        EXPECT_TRUE(plot.legend->visible());
    }
    EXPECT_TRUE(plot.yAxis->label().startsWith("cost ratio")) << plot.yAxis->label().toStdString();
    charts::buildGroupedBars(plot, data, {"bonnie.put_block", "bonnie.get_block"}, false);
    EXPECT_EQ(plot.yAxis->label(), "MB/s");
    auto* baseline = qobject_cast<QCPBars*>(plot.plottable(0));
    ASSERT_NE(baseline, nullptr);
    ASSERT_EQ(baseline->data()->size(), 2);
    // Keys follow the metric order: put_block at 1, get_block at 2; the value in MB/s.
    EXPECT_NEAR(baseline->data()->at(0)->value, 343719.0 * 1024 / 1e6, 1e-9);
}

TEST(Charts, OverheadChartHasBandsAndOneBarPerDecisiveMetric) {
    const ReportData data = gather();
    const Comparison& guest = comparisonOf(data, "guest-vm");
    QCustomPlot plot;
    charts::buildOverheadChart(plot, guest);
    QCPItemRect* viable = nullptr;
    QCPItemRect* notViable = nullptr;
    for (int i = 0; i < plot.itemCount(); ++i) {
        if (plot.item(i)->objectName() == "band-viable")
            viable = qobject_cast<QCPItemRect*>(plot.item(i));
        if (plot.item(i)->objectName() == "band-not-viable")
            notViable = qobject_cast<QCPItemRect*>(plot.item(i));
    }
    ASSERT_NE(viable, nullptr);
    ASSERT_NE(notViable, nullptr);
    EXPECT_NEAR(viable->topLeft->coords().y(), 10.0, 1e-9); // (1.10 - 1) * 100
    EXPECT_NEAR(notViable->bottomRight->coords().y(), 100.0, 1e-9);

    const auto decisive = std::count_if(guest.metrics.begin(), guest.metrics.end(),
                                        [](const auto& m) { return m.decisive; });
    ASSERT_GT(decisive, 0);
    int bars = 0;
    bool decisionBarFound = false;
    for (int i = 0; i < plot.plottableCount(); ++i)
        if (auto* b = qobject_cast<QCPBars*>(plot.plottable(i))) {
            bars += b->data()->size();
            if (b->name() == "decision required") {
                decisionBarFound = true;
                EXPECT_EQ(b->brush().color(), QColor(charts::verdictColor(Verdict::Decision)));
            }
        }
    EXPECT_EQ(bars, decisive);
    EXPECT_TRUE(decisionBarFound);
}

ReportRequest projectionRequest() {
    ReportRequest request;
    ProjectionRequest projection;
    projection.usedBytes = 2'000'000'000'000ULL; // 2 TB of about 3.6 TB usable
    projection.growth.kind = GrowthKind::Compound;
    projection.growth.annualRate = 0.30;
    projection.years = 5;
    projection.hostBytesPerDay = 100'000'000'000ULL;
    request.projection = projection;
    return request;
}

TEST(Report, ProjectionSectionHasTheCeilingMonthAndChart) {
    const ReportData data = gather(projectionRequest());
    // The two layouts with disk sizes in their spec; the imported one has no capacity model.
    ASSERT_EQ(data.projections.size(), 2U);
    EXPECT_EQ(data.projections[0].name, "bare-metal");
    EXPECT_EQ(data.projections[1].name, "guest-vm");
    const LayoutProjection& bare = data.projections[0];
    ASSERT_TRUE(bare.ceilingMonth.has_value());
    ASSERT_TRUE(bare.wear.has_value());

    const std::string md = renderMarkdown(data);
    const auto section = md.find("## Capacity projection");
    ASSERT_NE(section, std::string::npos) << md;
    const std::string row = "| bare-metal | " + formatBytes(bare.capacity.usableBytes);
    EXPECT_NE(md.find(row, section), std::string::npos) << md;
    EXPECT_NE(md.find("month " + std::to_string(*bare.ceilingMonth) + " |", section),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("zfs-add-vdev", section), std::string::npos);
    EXPECT_NE(md.find("Wear: write amplification", section), std::string::npos);
    // Without a projection request, no section.
    EXPECT_EQ(renderMarkdown(gather()).find("Capacity projection"), std::string::npos);

    const auto charts = chart::reportCharts(data);
    EXPECT_EQ(std::count_if(
                  charts.begin(), charts.end(),
                  [](const chart::ReportChart& c) { return c.id.rfind("projection-", 0) == 0; }),
              2);
    const std::string html = renderHtml(data);
    EXPECT_NE(html.find("Capacity projection"), std::string::npos);
    EXPECT_NE(html.find("Capacity projection of bare-metal"), std::string::npos);
}

// The fixture's imported layout records no disks: the projection names it as not projected,
// or, with a capacity given, projects it against that capacity beside the layouts with disks.
TEST(Report, ImportedLayoutIsProjectedAgainstTheCapacityGiven) {
    const ReportData without = gather(projectionRequest());
    EXPECT_EQ(without.notProjected, std::vector<std::string>{hostile});
    const std::string md = renderMarkdown(without);
    const auto section = md.find("## Capacity projection");
    ASSERT_NE(section, std::string::npos) << md;
    EXPECT_NE(md.find("Not projected: ", section), std::string::npos) << md.substr(section, 800);

    ReportRequest request = projectionRequest();
    request.projection->givenCapacity = {{hostile, 4'000'000'000'000ULL}};
    const ReportData data = gather(request);
    EXPECT_TRUE(data.notProjected.empty());
    ASSERT_EQ(data.projections.size(), 3U);
    const auto given = std::find_if(data.projections.begin(), data.projections.end(),
                                    [](const LayoutProjection& p) { return p.name == hostile; });
    ASSERT_NE(given, data.projections.end());
    EXPECT_TRUE(given->capacityGiven);
    EXPECT_EQ(given->capacity.usableBytes, 4'000'000'000'000ULL);
    EXPECT_FALSE(given->wear); // host writes were asked for; its disks are unknown
    const std::string withGiven = renderMarkdown(data);
    EXPECT_NE(withGiven.find("4.00 TB (given)"), std::string::npos);
    EXPECT_EQ(renderHtml(data).find("<script>alert"), std::string::npos);

    // A capacity for a layout with disks is refused, naming it.
    request.projection->givenCapacity = {{"bare-metal", 4'000'000'000'000ULL}};
    auto store = Store::open(fixturePath(), fixedClock);
    ASSERT_TRUE(store);
    auto refused = gatherReport(*store, request);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().message.rfind("capacity: 'bare-metal' is not an imported layout", 0),
              0U)
        << refused.error().message;
}

// A campaign whose raidz1 was preconditioned: the report's steady-state section has a row per
// workload with the window's figures and a chart each; the rounds are no runs of the verdict.
TEST(Report, SteadyStateSectionHasTheRoundsWindowAndChart) {
    const fs::path db = outputDir() / "steady.db";
    fs::remove(db);
    auto store = Store::open(db.string(), fixedClock);
    ASSERT_TRUE(store);
    auto host = store->ensureHost("h", "{}");
    ASSERT_TRUE(host);
    const auto created = store->createCampaign({"ssd", "ssd.toml", "name = \"ssd\"", *host});
    ASSERT_TRUE(created);
    const auto campaign = *created;
    ASSERT_TRUE(store->setCampaignStatus(campaign, CampaignStatus::Done, true));
    auto dir = store->ensureLayout("dir", "dir", R"({"baseline":true})", *host);
    auto raidz1 = store->ensureLayout("raidz1", "zfs-raidz1", "{}", *host);
    ASSERT_TRUE(dir && raidz1);
    for (auto [layoutId, name] : {std::tuple{*dir, "dir"}, std::tuple{*raidz1, "raidz1"}}) {
        lb::Run r = bonnieRun(name, 0, 100000, 100000, {});
        r.campaignId = campaign;
        ASSERT_TRUE(store->insertRun(layoutId, r));
    }
    auto step = [&](const std::string& workload, int round, const std::string& tracked,
                    double value) {
        lb::ConditioningStep st;
        st.campaignId = campaign;
        st.layoutId = *raidz1;
        st.workload = workload;
        st.round = round;
        st.tracked = tracked;
        st.value = value;
        if (round == 0)
            st.bytes = 100ULL << 20;
        st.wallSeconds = 4;
        ASSERT_TRUE(store->addConditioningStep(st));
    };
    step("", 0, "fio.*.bw", 50e6);
    int round = 1;
    for (const double v : {260.0, 230.0, 200.0, 201.0, 199.0, 200.0, 200.0})
        step("fio:rand-write-4k-qd32", round++, "fio.*.iops", v);
    ReportRequest request;
    request.campaignId = campaign;
    auto data = gatherReport(*store, request);
    ASSERT_TRUE(data) << data.error().message;
    ASSERT_EQ(data->steadyState.size(), 1U);
    const auto& series = data->steadyState[0];
    EXPECT_EQ(series.layout, "raidz1");
    EXPECT_EQ(series.rounds.size(), 7U);
    EXPECT_EQ(series.written, std::optional<std::uint64_t>(100ULL << 20));
    EXPECT_TRUE(series.check.reached);
    EXPECT_EQ(series.check.windowStart, 2U); // rounds 3-7
    const std::string md = renderMarkdown(*data);
    const auto section = md.find("## SSD preconditioning and steady state");
    ASSERT_NE(section, std::string::npos) << md;
    EXPECT_NE(
        md.find("| raidz1 | fio:rand-write-4k-qd32 | 2 × 100.00 MiB at 50.0 MB/s | 7 |", section),
        std::string::npos)
        << md.substr(section);
    EXPECT_NE(md.find("steady over rounds 3–7", section), std::string::npos) << md.substr(section);
    const auto charts = chart::reportCharts(*data);
    EXPECT_EQ(std::count_if(charts.begin(), charts.end(),
                            [](const chart::ReportChart& c) { return c.id == "steady-0"; }),
              1);
    QCustomPlot plot;
    charts::buildSteadyStateChart(plot, series);
    std::vector<std::string> names;
    for (int i = 0; i < plot.graphCount(); ++i)
        names.push_back(plot.graph(i)->name().toStdString());
    EXPECT_EQ(names, (std::vector<std::string>{"tracked", "average", "110 % of average",
                                               "90 % of average", "slope"}));
    EXPECT_EQ(plot.graph(0)->data()->size(), 7);
    EXPECT_NEAR(plot.graph(1)->data()->at(0)->value, 200.0, 1e-9);
    EXPECT_EQ(plot.graph(1)->data()->at(0)->key, 3.0); // the window starts at round 3
    // The rounds are not runs: one measured run per layout, as inserted.
    EXPECT_EQ(data->runs.size(), 2U);
}

// The summary for the person who signs, first after the title: the question, each candidate's
// headline, usable capacity and cost per usable TB of each layout with a capacity model, and who
// wrote it when, with what, about which hosts.
TEST(Report, SummaryBlockOpensTheReport) {
    ReportRequest request = projectionRequest();
    lb::Drive drive;
    drive.id = "test-ssd";
    drive.model = "Test SSD 1TB";
    drive.capacityBytes = 1'000'000'000'000ULL;
    drive.tbw = 600;
    drive.priceUsd = 80;
    request.projection->drive = drive;
    request.author = "alice@lab";
    request.writtenAt = "2026-12-01T12:00:00Z";
    request.generator = "layoutbench 9.9.9";
    const ReportData data = gather(request);
    const std::string md = renderMarkdown(data);
    const auto summary = md.find("## Summary");
    ASSERT_NE(summary, std::string::npos) << md;
    EXPECT_LT(summary, md.find("## The question"));
    EXPECT_NE(md.find("**Question:** can ", summary), std::string::npos) << md.substr(summary);
    const Comparison& guest = comparisonOf(data, "guest-vm");
    EXPECT_NE(md.find("**guest-vm**: **decision**", summary), std::string::npos)
        << md.substr(summary, 2000);
    EXPECT_LT(md.find("**guest-vm**: **decision**", summary), md.find("## The question"));
    EXPECT_FALSE(guest.headline.empty());
    ASSERT_FALSE(data.projections.empty());
    const auto& bare = data.projections[0];
    const auto usable =
        std::find_if(data.layouts.begin(), data.layouts.end(), [&](const ReportLayout& l) {
            return l.name == bare.name;
        })->capacity->usableBytes;
    ASSERT_TRUE(request.projection->drive);
    const double perTb = request.projection->drive->priceUsd *
                         static_cast<double>(bare.diskBytes.size()) /
                         (static_cast<double>(usable) / 1e12);
    char cost[32];
    std::snprintf(cost, sizeof cost, "$%.0f", perTb);
    EXPECT_NE(md.find("| " + bare.name + " | " + formatBytes(usable), summary), std::string::npos)
        << md.substr(summary, 2000);
    EXPECT_NE(md.find(std::string(cost) + " |", summary), std::string::npos)
        << cost << "\n"
        << md.substr(summary, 2000);
    EXPECT_NE(md.find("Written 2026-12-01T12:00:00Z by alice@lab with layoutbench 9.9.9; measured "
                      "on ",
                      summary),
              std::string::npos)
        << md.substr(summary, 2000);
    // Without a drive there is no price: the column says so.
    EXPECT_NE(renderMarkdown(gather()).find("cost per usable TB (no drive or price given)"),
              std::string::npos);
}

TEST(Charts, ProjectionChartHasUsableUsedCeilingAndExpansion) {
    const ReportData data = gather(projectionRequest());
    ASSERT_FALSE(data.projections.empty());
    const LayoutProjection& bare = data.projections[0];
    QCustomPlot plot;
    for (int pass = 0; pass < 2; ++pass) { // rebuilding in place leaves nothing behind
        charts::buildProjectionChart(plot, bare);
        std::vector<std::string> names;
        for (int i = 0; i < plot.graphCount(); ++i)
            names.push_back(plot.graph(i)->name().toStdString());
        // The path drawn is named, the one the caption names.
        const ExpansionPath* drawn = charts::drawnExpansion(bare);
        ASSERT_NE(drawn, nullptr);
        EXPECT_EQ(names, (std::vector<std::string>{
                             "usable", "used", "ceiling",
                             "with " + std::string(expansionKindName(drawn->kind))}));
        ASSERT_EQ(plot.graph(0)->data()->size(), static_cast<int>(bare.months.size()));
        EXPECT_NEAR(plot.graph(2)->data()->at(0)->value,
                    static_cast<double>(bare.ceilingBytes) / 1e12, 1e-9);
        EXPECT_EQ(plot.graph(2)->pen().style(), Qt::DashLine);
        int steps = 0;
        for (int i = 0; i < plot.itemCount(); ++i)
            steps += plot.item(i)->objectName() == "expansion-step" ? 1 : 0;
        EXPECT_GE(steps, 1);
    }
}

// The value axis reads in the unit that suits the pool: TB for the fixture's terabytes, MB for a
// pool of file vdevs, never ticks of 0.0005 TB.
TEST(Charts, ProjectionAxisIsInTheUnitOfThePoolsSize) {
    const ReportData data = gather(projectionRequest());
    ASSERT_FALSE(data.projections.empty());
    QCustomPlot plot;
    LayoutProjection big = data.projections[0];
    charts::buildProjectionChart(plot, big);
    EXPECT_EQ(plot.yAxis->label().toStdString(), "TB");
    EXPECT_NEAR(plot.graph(2)->data()->at(0)->value, static_cast<double>(big.ceilingBytes) / 1e12,
                1e-9);

    LayoutProjection small = big; // the same shape, a million times smaller
    const auto shrink = [](std::uint64_t& b) { b /= 1'000'000; };
    shrink(small.ceilingBytes);
    shrink(small.capacity.usableBytes);
    for (auto& m : small.months) {
        shrink(m.usableBytes);
        shrink(m.usedBytes);
    }
    for (auto& e : small.expansions)
        for (auto& step : e.schedule)
            shrink(step.effectiveUsableBytes);
    charts::buildProjectionChart(plot, small);
    EXPECT_EQ(plot.yAxis->label().toStdString(), "MB");
    EXPECT_NEAR(plot.graph(2)->data()->at(0)->value, static_cast<double>(small.ceilingBytes) / 1e6,
                1e-9);
    EXPECT_GE(plot.yAxis->range().upper, 1.0);
    EXPECT_LT(plot.yAxis->range().upper, 1100.0);

    // TiB in, TiB out: sizes typed in a binary unit give the axis in that unit.
    charts::buildProjectionChart(plot, big, true);
    EXPECT_EQ(plot.yAxis->label().toStdString(), "TiB");
    EXPECT_NEAR(plot.graph(2)->data()->at(0)->value,
                static_cast<double>(big.ceilingBytes) / 1099511627776.0, 1e-9);
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    const int status = RUN_ALL_TESTS();
    if (const char* keep = std::getenv("LAYOUTBENCH_REPORT_OUT"); !keep || !*keep) {
        std::error_code ignored;
        fs::remove_all(outputDir(), ignored);
    }
    return status;
}

// Near-identical caveats — the same note with another figure per run — are one row with their
// range and count; a caveat alone keeps its text (issue 41, item 6).
TEST(ReportCaveats, NearIdenticalNotesAreOneRowWithTheirRange) {
    ReportData data;
    data.title = "caveats";
    const std::vector<std::string> rates{"1180", "1410.5", "1302"};
    for (std::size_t i = 0; i < rates.size(); ++i) {
        ReportRun r;
        r.id = static_cast<std::int64_t>(i + 1);
        r.layout = "bare-metal";
        r.workload = "randfile";
        r.caveats = {"data from fio's random generator, " + rates[i] + " MB/s here"};
        if (i == 0)
            r.caveats.push_back("direct I/O refused, buffered instead");
        data.runs.push_back(r);
    }
    const auto md = renderMarkdown(data);
    EXPECT_NE(md.find("data from fio's random generator, 1180–1410.5 MB/s here (3 similar notes)"),
              std::string::npos)
        << md;
    EXPECT_EQ(md.find("1302 MB/s here"), std::string::npos) << md;
    EXPECT_NE(md.find("| direct I/O refused, buffered instead |"), std::string::npos) << md;
}
