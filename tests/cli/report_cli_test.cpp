// `layoutbench report` on a command line without Qt: HTML and Markdown with their charts as SVG,
// written by the program alone; a PDF through layoutbench-render, found beside the program; and
// without it, exit 1 with a message naming the program and the package that has it. The program
// itself links no Qt, X11 or GL (ldd).
#include "tests/cli/cli_fixture.h"

#include <filesystem>
#include <sstream>

namespace lb::test {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

class ReportCli : public Cli {
protected:
    void SetUp() override {
        Cli::SetUp();
        const std::string bonnie = data + "/bonnie++/1.97/";
        for (const auto& [layout, file] :
             {std::pair{"bare-metal", "seed-bare-metal.csv"}, {"guest", "seed-guest.csv"}}) {
            const auto r = lb({"import", "--layout", layout, bonnie + file});
            ASSERT_EQ(r.exitCode, 0) << r.err;
        }
    }
};

TEST_F(ReportCli, HtmlAndMarkdownDrawTheirChartsAsSvg) {
    const auto html = lb({"report", "--out", (dir_ / "r.html").string()});
    ASSERT_EQ(html.exitCode, 0) << html.err;
    const std::string page = slurp(dir_ / "r.html");
    EXPECT_NE(page.find("<svg class=\"chart\""), std::string::npos);
    EXPECT_EQ(page.find("data:image/png"), std::string::npos);

    const auto md = lb({"report", "--out", (dir_ / "r.md").string()});
    ASSERT_EQ(md.exitCode, 0) << md.err;
    const std::string text = slurp(dir_ / "r.md");
    EXPECT_NE(text.find("](<r-charts/overhead-0.svg>)"), std::string::npos) << text;
    const std::string svg = slurp(dir_ / "r-charts" / "overhead-0.svg");
    EXPECT_EQ(svg.rfind("<svg xmlns=", 0), 0U) << svg.substr(0, 200);
    EXPECT_NE(svg.find("guest against bare-metal"), std::string::npos);
}

TEST_F(ReportCli, APdfIsDrawnByLayoutbenchRenderBesideTheProgram) {
    const fs::path pdf = dir_ / "r.pdf", tmp = dir_ / "tmp";
    fs::create_directories(tmp);
    const auto r = runProcess({"env", "TMPDIR=" + tmp.string(), LAYOUTBENCH_CLI, "report", "--db",
                               db_, "--out", pdf.string(), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out).at("format"), "pdf");
    EXPECT_EQ(slurp(pdf).substr(0, 5), "%PDF-");
    for (const auto& entry : fs::directory_iterator(tmp))
        EXPECT_FALSE(entry.path().filename().string().starts_with("layoutbench-report-"))
            << entry.path() << ": the document handed to the renderer is left behind";
}

// A server with the command line only: HTML is written, a PDF names what to install.
TEST_F(ReportCli, WithoutTheRendererAPdfNamesItAndItsPackage) {
    const fs::path bin = dir_ / "bin";
    fs::create_directories(bin);
    fs::copy_file(LAYOUTBENCH_CLI, bin / "layoutbench");
    // Nothing else in the environment: no PATH that leads to a renderer.
    const auto alone = [&](const std::string& out) {
        return runProcess({"env", "-i", "PATH=/usr/bin:/bin", (bin / "layoutbench").string(),
                           "report", "--db", db_, "--out", out});
    };
    const auto pdf = alone((dir_ / "r.pdf").string());
    EXPECT_EQ(pdf.exitCode, 1) << pdf.err;
    EXPECT_TRUE(pdf.out.empty()) << pdf.out;
    EXPECT_EQ(pdf.err.find('\n'), pdf.err.size() - 1) << pdf.err;
    for (const char* named : {"--out", "layoutbench-render", "layoutbench-gui", ".html"})
        EXPECT_NE(pdf.err.find(named), std::string::npos) << named << " in " << pdf.err;
    EXPECT_FALSE(fs::exists(dir_ / "r.pdf"));
    const auto html = alone((dir_ / "r.html").string());
    EXPECT_EQ(html.exitCode, 0) << html.err;
}

// What a storage server without a display must install to run the command line.
TEST(CommandLine, LinksNoQtX11OrGl) {
    const auto r = runProcess({"ldd", LAYOUTBENCH_CLI});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char* library : {"libQt", "libX11", "libxcb", "libGL", "libEGL", "libOpenGL",
                                "libfontconfig", "libfreetype", "libQCustomPlot"})
        EXPECT_EQ(r.out.find(library), std::string::npos) << library << " in\n" << r.out;
}

} // namespace
} // namespace lb::test
