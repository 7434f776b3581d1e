// One answer, said the same everywhere: for a corpus of databases — the shipped samples, a real
// campaign of two directories, and constructed cases (one deciding metric confidently not viable
// among unsettled ones, all confident, nothing comparable, mixed block sizes, a run too short on
// one workload only, an outlier) — `compare --json` is read as the statement, and `compare`'s
// text, the report's HTML, Markdown and PDF (pdftotext) and the GUI's comparison (offscreen) are
// each held to it: the verdict, its confidence, the deciding metrics, each caveat with its
// metrics, what was not compared and the next step. A disagreement names the two places.
#include "app/gui/comparison_model.h"
#include "app/gui/main_window.h"
#include "app/gui/results_tab.h"
#include "engine/base/joined.h"
#include "engine/measure/analysis.h"
#include "engine/measure/metric.h"
#include "engine/store/store.h"
#include "tests/support/report_text.h"

#include <QComboBox>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using namespace lb;
using namespace lb::gui;

namespace {

constexpr int waitMs = 30000;

// One run of `workload` on a layout with its metrics and notes.
struct RunSpec {
    std::string workload;
    std::vector<Metric> metrics;
    std::vector<MetricNote> notes;
};

// The runs of two layouts, "base" and "cand", stored as a campaign would store them.
void fill(Store& store, const std::vector<RunSpec>& base, const std::vector<RunSpec>& cand) {
    const auto host = store.ensureHost("storage1", "{}");
    QVERIFY(host);
    int n = 0;
    for (const auto& [layout, runs] : {std::pair{"base", &base}, std::pair{"cand", &cand}}) {
        const auto id = store.ensureLayout(layout, "dir", "{}", *host);
        QVERIFY(id);
        for (const auto& spec : *runs) {
            lb::Run r;
            r.layout = layout;
            r.workload = spec.workload;
            r.probe = spec.workload.substr(0, spec.workload.find(':'));
            r.iteration = ++n;
            r.stdoutText = layout + std::string(" run ") + std::to_string(n);
            r.status = RunStatus::Ok;
            r.metrics = spec.metrics;
            r.notes = spec.notes;
            QVERIFY(store.insertRun(*id, r));
        }
    }
}

// Runs of one workload, a metric each, with the values given (and the same notes on each).
std::vector<RunSpec> runsOf(const std::string& workload, const std::string& metric, Unit unit,
                            const std::vector<double>& values,
                            const std::vector<MetricNote>& notes = {}) {
    std::vector<RunSpec> out;
    for (double v : values)
        out.push_back({workload, {{metric, v, unit}}, notes});
    return out;
}

std::vector<RunSpec> operator+(std::vector<RunSpec> a, const std::vector<RunSpec>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

const Unit bw = Unit::BytesPerSecond;
const Unit ns = Unit::Nanoseconds;

// What `compare --json` says: the statement the other outputs are held to.
struct Statement {
    std::string verdict;
    bool confident = false;
    std::string confidence;
    std::string next;                 // "" when none
    std::vector<std::string> metrics; // in the comparison's order
    std::set<std::string> deciding;
    std::map<std::string, std::string> metricVerdict; // deciding ones
    std::map<std::string, bool> metricConfident;      // deciding ones
    std::vector<NoteLine> caveats;                    // every note line, in order
    bool drift = false; // the baseline drifted: its note is in the headline, not the notes
    std::vector<NoteLine> decidingCaveats; // on a deciding metric, not "the sides"
    std::vector<std::string> notCompared;  // excluded metrics and those not compared
};

Statement statementOf(const nlohmann::json& j) {
    Statement s;
    s.verdict = j.at("verdict");
    s.confident = j.at("confident");
    s.confidence = j.at("confidence");
    s.next = j.at("next_step").is_null() ? "" : j.at("next_step").get<std::string>();
    const bool drift = s.drift = !j.at("drift").is_null();
    for (const auto& m : j.at("metrics")) {
        const std::string name = m.at("name");
        s.metrics.push_back(name);
        if (m.at("decisive")) {
            s.deciding.insert(name);
            s.metricVerdict[name] = m.at("verdict");
            s.metricConfident[name] = m.at("confident");
        }
        if (!m.at("excluded").is_null())
            s.notCompared.push_back(name);
        for (const auto& n : m.at("notes")) {
            const std::string text = n;
            auto it = std::find_if(s.caveats.begin(), s.caveats.end(),
                                   [&](const NoteLine& l) { return l.text == text; });
            if (it == s.caveats.end())
                it = s.caveats.insert(s.caveats.end(), NoteLine{text, {}});
            it->metrics.push_back(name);
        }
    }
    for (const auto& line : s.caveats)
        if (!line.text.starts_with("the sides ") &&
            !(drift && line.text.find("drifted") != std::string::npos) &&
            std::any_of(line.metrics.begin(), line.metrics.end(),
                        [&](const std::string& m) { return s.deciding.count(m) > 0; }))
            s.decidingCaveats.push_back(line);
    for (const auto& n : j.at("not_compared"))
        s.notCompared.push_back(n.at("name"));
    return s;
}

// The metrics of a note as every output writes them (noteMetricsText), of the set the JSON
// gives.
std::string metricsText(const NoteLine& line, const Statement& s) {
    Comparison c;
    for (const auto& name : s.metrics) {
        MetricComparison m;
        m.name = name;
        c.metrics.push_back(std::move(m));
    }
    return noteMetricsText(line, c);
}

std::string capitalised(std::string s) {
    if (!s.empty() && s[0] >= 'a' && s[0] <= 'z')
        s[0] = static_cast<char>(s[0] - 'a' + 'A');
    return s;
}

// Text as a reader takes it: every run of white space (no-break spaces too) one space.
std::string oneSpaced(const std::string& s) {
    static const QRegularExpression space(QStringLiteral("\\s+"));
    QString text = QString::fromStdString(s);
    text.replace(QChar(0x00a0), QLatin1Char(' '));
    text.replace(space, QStringLiteral(" "));
    return text.toStdString();
}

// HTML as a reader takes it: a block's end (paragraph, item, line break, cell) a space, other
// tags out, entities read.
std::string readable(const std::string& html) {
    static const QRegularExpression blocks(
        QStringLiteral("<(br|/p|/li|/td|/th|/tr|/h[1-6]|/div|ul|/ul)[^>]*>"));
    static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
    QString text = QString::fromStdString(html);
    text.replace(blocks, QStringLiteral(" "));
    text.replace(tags, QString());
    text.replace(QStringLiteral("&nbsp;"), QStringLiteral(" "));
    return oneSpaced(test::unescapeHtml(text.toStdString()));
}

// Markdown as a reader takes it: emphasis marks and escapes out.
std::string readableMarkdown(const std::string& md) {
    QString text = QString::fromStdString(md);
    text.replace(QStringLiteral("**"), QString());
    return oneSpaced(test::unescapeMarkdown(text.toStdString()));
}

// pdftotext's text as a reader takes it: its ligatures as letters, a word that wrapped after its
// own hyphen ("bare-⏎metal") joined.
std::string readablePdf(const std::string& text) {
    static const QRegularExpression wrappedHyphen(QStringLiteral("-\\n\\s*"));
    QString t = QString::fromStdString(text);
    for (const auto& [ligature, letters] :
         {std::pair{u"\ufb00", "ff"}, std::pair{u"\ufb01", "fi"}, std::pair{u"\ufb02", "fl"},
          std::pair{u"\ufb03", "ffi"}, std::pair{u"\ufb04", "ffl"}})
        t.replace(QString::fromUtf16(ligature), QString::fromLatin1(letters));
    t.replace(wrappedHyphen, QStringLiteral("-"));
    return oneSpaced(t.toStdString());
}

std::string slurp(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Cli {
    int exitCode = -1;
    std::string out, err;
};

Cli run(const QString& program, const QStringList& args, int timeoutMs = 120000) {
    QProcess p;
    p.start(program, args);
    Cli r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}

Cli layoutbench(const QStringList& args) {
    return run(QStringLiteral(LAYOUTBENCH_CLI), args);
}

// Holds one output's text to the statement: each thing it must say, named with where it failed.
class Holder {
public:
    Holder(std::string where, std::string text)
        : where_(std::move(where)), text_(std::move(text)) {}
    void says(const std::string& what, const std::string& part) {
        if (text_.find(part) == std::string::npos)
            failures_.push_back("compare --json says " + what + " \"" + part + "\"; " + where_ +
                                " does not");
    }
    void saysNot(const std::string& what, const std::string& part) {
        if (text_.find(part) != std::string::npos)
            failures_.push_back("compare --json has no " + what + "; " + where_ + " says \"" +
                                part + "\"");
    }
    std::vector<std::string> failures_;

private:
    std::string where_;
    std::string text_;
};

// What every rendering of the first page (and the GUI, whose summary opens "cand against base:")
// must say of a comparison.
void holdPageOne(Holder& h, const Statement& s, const std::string& opening = "cand: ") {
    h.says("the verdict", opening + s.verdict + " — ");
    if (s.verdict != "no-verdict")
        h.says("the confidence", capitalised(s.confidence) + ".");
    else
        h.says("why there is no verdict", s.confidence);
    if (!s.next.empty())
        h.says("the next step", "Next step: " + s.next + ".");
    else
        h.saysNot("next step", "Next step:");
    for (const auto& line : s.decidingCaveats)
        h.says("a caveat on its metrics", line.text + " — on " + metricsText(line, s));
    // What makes the sides differ besides the layout, under "Mind".
    for (const auto& line : s.caveats)
        if (line.text.starts_with("the sides "))
            h.says("the sides differ", "Mind: the figures of the two sides differ in more than "
                                       "the layout.");
    for (const auto& line : s.caveats)
        if (line.text.starts_with("the sides "))
            h.says("how the sides differ",
                   line.text + " (on " + std::to_string(line.metrics.size()) + " of the " +
                       std::to_string(s.metrics.size()) + " metrics compared)");
}

void report(const std::vector<std::string>& failures, const char* name) {
    if (!failures.empty())
        QFAIL(qPrintable(
            QString::fromStdString(std::string(name) + ":\n  " + joinedText(failures, "\n  "))));
}

} // namespace

class OneAnswerTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    QString path(const std::string& name) const {
        return dir_.filePath(QString::fromStdString(name));
    }

    // Every output of one database, held to compare --json.
    void holdEveryOutput(const std::string& name) {
        const QString db = path(name + ".db");
        const QStringList pair{QStringLiteral("--baseline"),  QStringLiteral("base"),
                               QStringLiteral("--candidate"), QStringLiteral("cand"),
                               QStringLiteral("--db"),        db};
        const Cli json = layoutbench(QStringList{QStringLiteral("compare")} + pair +
                                     QStringList{QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 0, json.err.c_str());
        const Statement s = statementOf(nlohmann::json::parse(json.out));
        std::vector<std::string> failures;
        const auto keep = [&failures](Holder& h) {
            failures.insert(failures.end(), h.failures_.begin(), h.failures_.end());
        };

        // compare's text: the same verdict, confidence, next step, notes and not-compared list.
        const Cli text = layoutbench(QStringList{QStringLiteral("compare")} + pair);
        QVERIFY2(text.exitCode == 0, text.err.c_str());
        Holder t("compare's text", text.out);
        t.says("the verdict and its confidence",
               "overall: " + s.verdict +
                   (s.verdict == "no-verdict" ? std::string()
                    : s.confident             ? std::string(" (confident)")
                                              : std::string(" (not confident)")) +
                   ": " + s.confidence + "\n");
        if (!s.next.empty())
            t.says("the next step", "next: " + s.next + "\n");
        else
            t.saysNot("next step", "next: ");
        for (const auto& line : s.caveats)
            if (!(s.drift && line.text.find("drifted") != std::string::npos))
                t.says("a note on its metrics",
                       "  " + line.text + "\n    on " + metricsText(line, s));
        for (const auto& n : s.notCompared)
            t.says("a metric not compared", "  " + n + ": ");
        // Each metric's row ends with its verdict, or "shown" when it does not decide.
        for (const auto& m : s.metrics) {
            const std::string cell = !s.deciding.count(m) ? std::string("shown")
                                     : s.metricConfident.at(m)
                                         ? s.metricVerdict.at(m)
                                         : s.metricVerdict.at(m) + " (not confident)";
            static const QRegularExpression trailing(QStringLiteral(" +\n"));
            const std::string rows = QString::fromStdString(text.out)
                                         .replace(trailing, QStringLiteral("\n"))
                                         .toStdString();
            const auto at = rows.find("\n" + m + " ");
            const auto end = at == std::string::npos ? at : rows.find('\n', at + 1);
            if (at == std::string::npos || rows.substr(0, end).ends_with(" " + cell) == false)
                failures.push_back("compare --json gives " + m + " \"" + cell +
                                   "\"; compare's table row does not end with it");
        }
        keep(t);

        // The report's HTML, Markdown and PDF: page 1 and the not-compared list.
        for (const char* format : {"html", "md", "pdf"}) {
            const QString out = path(name + "." + format);
            const Cli r = layoutbench(
                QStringList{QStringLiteral("report"), QStringLiteral("--out"), out} + pair);
            QVERIFY2(r.exitCode == 0, r.err.c_str());
            std::string page;
            if (std::string(format) == "pdf") {
                const Cli pdf = run(QStringLiteral("pdftotext"),
                                    {QStringLiteral("-layout"), out, QStringLiteral("-")});
                QVERIFY2(pdf.exitCode == 0, pdf.err.c_str());
                page = readablePdf(pdf.out);
            } else if (std::string(format) == "md") {
                page = readableMarkdown(slurp(out));
            } else {
                page = readable(slurp(out));
            }
            Holder h("the report's " + std::string(format), page);
            holdPageOne(h, s);
            h.says("the verdict of the comparison's section",
                   "Verdict: " + s.verdict +
                       (s.verdict == "no-verdict" ? std::string(" — ")
                        : s.confident ? std::string(" (confident; the worst deciding metric "
                                                    "decides): ")
                                      : std::string(" (not confident; the worst deciding metric "
                                                    "decides): ")) +
                       s.confidence + ".");
            for (const auto& n : s.notCompared)
                h.says("a metric not compared", n + ": ");
            // The PDF's table cells wrap long names; the HTML and Markdown name every deciding
            // metric of the first page's table (twelve at most) as compare does.
            if (std::string(format) != "pdf") {
                std::size_t shown = 0;
                for (const auto& m : s.metrics)
                    if (s.deciding.count(m) && shown++ < 12)
                        h.says("a deciding metric", plainMetricName(m));
            }
            keep(h);
        }

        // The GUI: the summary above the comparison and each row of its table.
        MainWindow w;
        openOn(w, db);
        if (QTest::currentTestFailed())
            return;
        ResultsTab* results = w.resultsTab();
        QSignalSpy shown(&w, &MainWindow::comparisonShown);
        QVERIFY(
            results->selectLayouts(QStringLiteral("base"), QStringLiteral("cand"), std::nullopt));
        QVERIFY(shown.wait(waitMs));
        Holder g("the GUI's summary", readable(results->summaryLabel()->text().toStdString()));
        holdPageOne(g, s, "cand against base: ");
        for (const auto& n : s.notCompared)
            g.says("a metric not compared", n + ": ");
        keep(g);
        const ComparisonModel& model = *results->comparisonModel();
        for (int row = 0; row < model.rowCount(); ++row) {
            const std::string metric =
                model.data(model.index(row, ComparisonModel::Metric)).toString().toStdString();
            const std::string verdict =
                model.data(model.index(row, ComparisonModel::Verdict)).toString().toStdString();
            const std::string confident =
                model.data(model.index(row, ComparisonModel::Confident)).toString().toStdString();
            const bool deciding = s.deciding.count(metric) > 0;
            const std::string expected = deciding ? s.metricVerdict.at(metric) : "shown";
            if (verdict != expected)
                failures.push_back("compare --json gives " + metric + " the verdict \"" + expected +
                                   "\"; the GUI's table says \"" + verdict + "\"");
            if (deciding && (confident == "yes") != s.metricConfident.at(metric))
                failures.push_back("compare --json says " + metric + " is " +
                                   (s.metricConfident.at(metric) ? "" : "not ") +
                                   "confident; the GUI's table says \"" + confident + "\"");
            if (!deciding &&
                model.data(model.index(row, ComparisonModel::Verdict), Qt::BackgroundRole)
                    .isValid())
                failures.push_back("compare --json says " + metric +
                                   " is shown only; the GUI paints it in a verdict colour");
        }
        if (static_cast<std::size_t>(model.rowCount()) != s.metrics.size())
            failures.push_back("compare --json compares " + std::to_string(s.metrics.size()) +
                               " metrics; the GUI's table has " + std::to_string(model.rowCount()));
        report(failures, name.c_str());
    }

    // The main window shown on `db`, once it has opened it.
    static void openOn(MainWindow& w, const QString& db) {
        w.resize(1280, 800);
        w.show();
        QSignalSpy opened(&w, &MainWindow::databaseOpened);
        w.openDatabase(db);
        QVERIFY(opened.count() > 0 || opened.wait(waitMs));
    }

    void construct(const std::string& name, const std::vector<RunSpec>& base,
                   const std::vector<RunSpec>& cand) {
        auto store = Store::open(path(name + ".db").toStdString());
        QVERIFY(store);
        fill(*store, base, cand);
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // The shipped samples, imported as a user does (bonnie++ 1.03, one run a side).
    void theShippedSamples() {
        const QString db = path("samples.db");
        for (const auto& [layout, file] :
             {std::pair{"base", "bare-metal-bonnie.csv"}, std::pair{"cand", "guest-bonnie.csv"}}) {
            const Cli r = layoutbench(
                {QStringLiteral("import"), QStringLiteral("--layout"), QString::fromUtf8(layout),
                 QStringLiteral(LAYOUTBENCH_SOURCE_DIR "/data/samples/") + QString::fromUtf8(file),
                 QStringLiteral("--db"), db});
            QVERIFY2(r.exitCode == 0, r.err.c_str());
        }
        holdEveryOutput("samples");
    }

    // A real campaign: two directories, fio's 4 KiB random reads and the random-file write, three
    // iterations, run by `layoutbench run`.
    void aFinishedCampaign() {
        QDir().mkpath(path("campaign-base"));
        QDir().mkpath(path("campaign-cand"));
        const QString scenario = path("campaign.toml");
        QFile f(scenario);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("name = \"one-answer\"\niterations = 3\nwork_dir = \"%1\"\n"
                               "drop_caches = false\n\n"
                               "[[layouts]]\nname = \"base\"\nkind = \"dir\"\npath = \"%2\"\n"
                               "baseline = true\n\n"
                               "[[layouts]]\nname = \"cand\"\nkind = \"dir\"\npath = \"%3\"\n\n"
                               "[[workloads]]\nprobe = \"fio\"\npreset = \"rand-read-4k-qd1\"\n"
                               "size = \"8M\"\nruntime = 1\n\n"
                               "[[workloads]]\nprobe = \"randfile\"\nsize = \"4MiB\"\n")
                    .arg(path("campaign-work"), path("campaign-base"), path("campaign-cand"))
                    .toUtf8());
        f.close();
        const Cli r = layoutbench(
            {QStringLiteral("run"), scenario, QStringLiteral("--db"), path("campaign.db")});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).c_str());
        holdEveryOutput("campaign");
    }

    // A p99 latency five times the baseline's with three steady runs a side, and a read rate with
    // one run a side: not viable, with confidence, whatever the read rate does.
    void oneConfidentlyNotViableAmongOpenOnes() {
        construct("not-viable",
                  runsOf("fio:seq", "fio.seq.write.lat_p99", ns, {1.0e6, 1.02e6, 0.98e6}) +
                      runsOf("fio:rand", "fio.rand.read.bw", bw, {100e6}),
                  runsOf("fio:seq", "fio.seq.write.lat_p99", ns, {5.0e6, 5.1e6, 4.9e6}) +
                      runsOf("fio:rand", "fio.rand.read.bw", bw, {90e6}));
        holdEveryOutput("not-viable");
    }

    void everyDecidingMetricConfident() {
        construct("all-confident",
                  runsOf("bonnie", "bonnie.put_block", bw, {100e6, 101e6, 99e6}) +
                      runsOf("bonnie", "bonnie.get_block", bw, {200e6, 202e6, 198e6}),
                  runsOf("bonnie", "bonnie.put_block", bw, {99e6, 100e6, 98e6}) +
                      runsOf("bonnie", "bonnie.get_block", bw, {199e6, 201e6, 197e6}));
        holdEveryOutput("all-confident");
    }

    // Block sizes of 4 KiB against 64 KiB: every metric measured doing other work.
    void nothingComparable() {
        const std::vector<MetricNote> small{{MetricNote::Kind::Method, "fio.j.*", "bs=4 KiB"}};
        const std::vector<MetricNote> large{{MetricNote::Kind::Method, "fio.j.*", "bs=64 KiB"}};
        construct("nothing-comparable",
                  runsOf("fio:j", "fio.j.read.bw", bw, {100e6, 101e6, 99e6}, small),
                  runsOf("fio:j", "fio.j.read.bw", bw, {300e6, 301e6, 299e6}, large));
        holdEveryOutput("nothing-comparable");
    }

    // A 4 KiB job's record caveat (its glob would match the 1 MiB job too) beside a 1 MiB job.
    void mixedBlockSizes() {
        const std::vector<MetricNote> records{
            {MetricNote::Kind::Qualifies, "fio.*",
             "4.00 KiB blocks on 128.00 KiB records: each read fetches a whole record from the "
             "vdevs and each write rewrites one, 32 times the bytes counted"}};
        const auto side = [&](double f) {
            return runsOf("fio:rand-4k", "fio.rand-4k.read.bw", bw, {20e6 * f, 21e6 * f, 19e6 * f},
                          records) +
                   runsOf("fio:seq-1m", "fio.seq-1m.read.bw", bw,
                          {500e6 * f, 505e6 * f, 495e6 * f});
        };
        construct("block-sizes", side(1.0), side(0.7));
        holdEveryOutput("block-sizes");
    }

    // A run too short to trust on the random-file write only, xz beside it.
    void aShortRunOnOneWorkloadOnly() {
        const std::vector<MetricNote> shortRun{{MetricNote::Kind::Qualifies, "randfile.*",
                                                "ran 0.3 s: under 5 s, too short to trust"}};
        const auto side = [&](double f) {
            return runsOf("randfile", "randfile.throughput", bw, {300e6 * f, 310e6 * f, 290e6 * f},
                          shortRun) +
                   runsOf("xz", "xz.throughput", bw, {40e6 * f, 40.5e6 * f, 39.5e6 * f});
        };
        construct("short-run", side(1.0), side(0.95));
        holdEveryOutput("short-run");
    }

    // Issue 44: two layouts measured at 0 %, 50 % and 90 % full. The Results tab offers the
    // levels the store holds and opens on the lowest (nothing was measured as built), never on
    // the refusal to mix levels; at each level it picks, its summary says what `compare --fill
    // LEVEL --json` says.
    void layoutsMeasuredAtSeveralFillLevels() {
        const QString db = path("fill.db");
        {
            auto store = Store::open(db.toStdString());
            QVERIFY(store);
            const auto host = store->ensureHost("storage1", "{}");
            QVERIFY(host);
            // base steady; cand 5 % slower at 0 %, 60 % slower at 50 %, three times at 90 %.
            const std::map<std::string, std::vector<double>> factor{{"base", {1.0, 1.0, 1.0}},
                                                                    {"cand", {0.95, 0.6, 0.33}}};
            int n = 0;
            for (const auto& [layout, f] : factor) {
                const auto id = store->ensureLayout(layout, "zfs-mirror", "{}", *host);
                QVERIFY(id);
                const double levels[] = {0.0, 0.5, 0.9};
                for (std::size_t l = 0; l < 3; ++l)
                    for (const double v : {100e6, 101e6, 99e6}) {
                        lb::Run r;
                        r.layout = layout;
                        r.workload = "bonnie";
                        r.probe = "bonnie";
                        r.iteration = ++n;
                        r.status = RunStatus::Ok;
                        r.fillLevel = levels[l];
                        r.metrics = {{"bonnie.put_block", v * f[l], bw}};
                        QVERIFY(store->insertRun(*id, r));
                    }
            }
        }
        MainWindow w;
        openOn(w, db);
        if (QTest::currentTestFailed())
            return;
        ResultsTab* results = w.resultsTab();
        QVERIFY(
            results->selectLayouts(QStringLiteral("base"), QStringLiteral("cand"), std::nullopt));
        QComboBox* fill = results->fillBox();
        QCOMPARE(fill->count(), 3);
        QCOMPARE(fill->itemText(0), QStringLiteral("0 %"));
        QCOMPARE(fill->itemText(2), QStringLiteral("90 %"));
        QCOMPARE(fill->currentText(), QStringLiteral("0 %"));
        QVERIFY(fill->isEnabled());
        std::vector<std::string> failures;
        std::set<std::string> verdicts;
        for (int i = 0; i < 3; ++i) {
            fill->setCurrentIndex(i);
            const std::string level = fill->currentText().toStdString();
            const std::string opening = "cand against base at " + level + ": ";
            QTRY_VERIFY_WITH_TIMEOUT(
                readable(results->summaryLabel()->text().toStdString()).rfind(opening, 0) == 0,
                waitMs);
            const Cli json = layoutbench({QStringLiteral("compare"), QStringLiteral("--baseline"),
                                          QStringLiteral("base"), QStringLiteral("--candidate"),
                                          QStringLiteral("cand"), QStringLiteral("--fill"),
                                          QString::fromStdString(level).remove(QLatin1Char(' ')),
                                          QStringLiteral("--json"), QStringLiteral("--db"), db});
            QVERIFY2(json.exitCode == 0, json.err.c_str());
            const Statement s = statementOf(nlohmann::json::parse(json.out));
            verdicts.insert(s.verdict);
            Holder g("the GUI's summary at " + level,
                     readable(results->summaryLabel()->text().toStdString()));
            holdPageOne(g, s, opening);
            g.saysNot("refusal to mix levels", "name one, or all");
            failures.insert(failures.end(), g.failures_.begin(), g.failures_.end());
        }
        // The levels differ in verdict: the summary followed the level picked.
        QCOMPARE(verdicts.size(), 3U);
        report(failures, "fill-levels");
    }

    // One stalled run among six: named, and the verdict without it given.
    void anOutlier() {
        construct(
            "outlier",
            runsOf("bonnie", "bonnie.put_block", bw, {100e6, 101e6, 99e6, 100.5e6, 99.5e6, 100e6}),
            runsOf("bonnie", "bonnie.put_block", bw, {98e6, 99e6, 97e6, 98.5e6, 30e6, 98e6}));
        holdEveryOutput("outlier");
    }
};

QTEST_MAIN(OneAnswerTest)
#include "one_answer_test.moc"
