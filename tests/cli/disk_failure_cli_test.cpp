// "When a disk fails" through the real binary (issue 43, item 5): a database holding a raidz1's
// fail-rebuild drill (real fio 3.33 output with its per-second logs, tests/data/drill/3.33) and
// an md RAID-5 without one. `project --layout` takes the drill's measured rate and says so; the
// report's section has the drill's chart from the stored logs, its rebuild table, and the very
// statement `project` gives for each layout, the layout without a drill saying its rebuild is
// assumed.
#include "engine/capacity/risk.h"
#include "engine/store/store.h"
#include "engine/workbench/failure_drills.h"
#include "tests/cli/cli_fixture.h"
#include "tests/support/drill_store.h"

#include <fstream>
#include <iterator>

namespace {

using lb::test::data;
using nlohmann::json;

class DiskFailureCli : public lb::test::Cli {
protected:
    void SetUp() override {
        Cli::SetUp();
        auto store = lb::Store::open(db_);
        ASSERT_TRUE(store) << store.error().message;
        auto run =
            lb::test::storeDrillFixture(*store, data + "/drill/3.33/fail_rebuild_raidz1.out");
        ASSERT_TRUE(run) << run.error().message;
        drillRun_ = *run;
    }

    // `project --layout NAME` of the fixture's use, as JSON: its risk.
    json risk(const std::string& layout) {
        const auto r = lb({"project", "--layout", layout, "--used", "100M", "--growth", "10%",
                           "--years", "5", "--json"});
        EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
        return r.exitCode == 0 ? json::parse(r.out).at("layouts").at(0).at("risk") : json::object();
    }

    std::string read(const std::string& path) {
        std::ifstream in(path);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }

    std::int64_t drillRun_ = 0;
};

// The HTML's text as written: its entities turned back into characters.
std::string unescaped(std::string html) {
    const std::pair<const char*, const char*> entities[] = {
        {"&quot;", "\""}, {"&#39;", "'"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}};
    for (const auto& [entity, text] : entities)
        for (std::size_t at = 0; (at = html.find(entity, at)) != std::string::npos; ++at)
            html.replace(at, std::string(entity).size(), text);
    return html;
}

TEST_F(DiskFailureCli, ProjectTakesTheDrillsRateAndTheReportSaysTheSame) {
    const json raidz1 = risk("raidz1");
    const json md5 = risk("md5");
    // The drill's rate: 32.3 MiB (zpool's rounding) in 6.03 s, measured under TCG.
    EXPECT_NEAR(raidz1.value("rebuild_rate_bytes_per_s", 0.0), 32.3 * 1048576 / 6.03, 1.0);
    EXPECT_EQ(raidz1.value("rebuild_rate_basis", ""), "measured: fail-rebuild drill, run " +
                                                          std::to_string(drillRun_) +
                                                          ", on the layout's disks under TCG");
    EXPECT_EQ(raidz1.value("window_source", ""), "measured");
    EXPECT_EQ(md5.value("window_source", ""), "assumed");
    const std::string raidz1Statement = raidz1.value("statement", "");
    const std::string md5Statement = md5.value("statement", "");
    EXPECT_NE(raidz1Statement.find("at a measured 5.6 MB/s (measured: fail-rebuild drill"),
              std::string::npos)
        << raidz1Statement;
    EXPECT_NE(md5Statement.find("at an assumed 100.0 MB/s (no rebuild measured)"),
              std::string::npos)
        << md5Statement;

    const std::string html = dir_.string() + "/report.html";
    const auto r =
        lb({"report", "--out", html, "--used", "100M", "--growth", "10%", "--years", "5"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const std::string page = unescaped(read(html));
    const auto section = page.find("<h2>When a disk fails</h2>");
    ASSERT_NE(section, std::string::npos);
    const std::string failing = page.substr(section);
    // The same statement as `project`, for each layout, in the section (and on the first page).
    EXPECT_NE(page.find(raidz1Statement), page.rfind(raidz1Statement));
    EXPECT_NE(failing.find("<b>raidz1</b>: " + raidz1Statement), std::string::npos) << failing;
    EXPECT_NE(failing.find("<b>md5</b>: " + md5Statement), std::string::npos);
    EXPECT_NE(failing.find(lb::noDrillStatement("md5")), std::string::npos);
    // The drill's row: the disk failed, the spare, the fill, the bytes, the time, the checks.
    for (const char* cell : {"/dev/vdb", "/dev/vdd", "30 %", "6.03 s",
                             "scrub: 0 errors; files: 0 filled files changed", "TCG emulation"})
        EXPECT_NE(failing.find(cell), std::string::npos) << cell;
    // The chart, from the stored per-second logs: the phases and the moments named on it.
    EXPECT_NE(failing.find("id=\"lb-plot-failure-0\""), std::string::npos);
    for (const char* label : {">healthy<", ">degraded<", ">rebuilding<", ">rebuilt<", ">failed<",
                              ">spare added<", ">whole again<"})
        EXPECT_NE(failing.find(label), std::string::npos) << label;
}

} // namespace
