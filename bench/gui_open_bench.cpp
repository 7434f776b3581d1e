// Opening a large database in layoutbench-gui: creates a database of 100,000 runs (300,000
// metrics, four layouts, ten campaigns; one transaction, through the store), then measures, in
// the offscreen platform, the time from MainWindow::openDatabase to the first paint of the runs
// table with its rows, the time until the comparison is shown, and the process's peak RSS. The
// database is built in a child process so its memory is not counted.
//   gui_open_bench [--runs N] [--db PATH] [--keep] [--reuse]
// --reuse opens PATH as an earlier --db PATH --keep left it, without writing it again: for
// profiling the opening alone (valgrind --tool=callgrind runs the writing fifty times slower).
#include "app/gui/main_window.h"
#include "app/gui/results_tab.h"
#include "app/gui/runs_model.h"
#include "engine/store/store.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QEventLoop>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QWindow>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// A line of /proc/self/status in KiB ("VmHWM", "VmRSS").
long statusKiB(const char* key) {
    std::ifstream in("/proc/self/status");
    std::string line;
    const std::string prefix = std::string(key) + ":";
    while (std::getline(in, line))
        if (line.rfind(prefix, 0) == 0)
            return std::strtol(line.c_str() + prefix.size(), nullptr, 10);
    return -1;
}

int fail(const std::string& what, const lb::Error& e) {
    std::fprintf(stderr, "gui_open_bench: %s: %s\n", what.c_str(), e.message.c_str());
    return 1;
}

// Run `i` of the database: workload, layout and iteration in turn, every 50th failed with a
// reason, three fio metrics on a successful one that differ by layout.
lb::Run benchRun(long i, std::int64_t campaignId) {
    const char* workloads[] = {"fio:seq-read-1m", "fio:seq-write-1m", "fio:rand-read-4k-qd1",
                               "fio:rand-write-4k-qd32", "fio:randrw-70-30-4k"};
    const char* jobs[] = {"seq-read-1m", "seq-write-1m", "rand-read-4k-qd1", "rand-write-4k-qd32",
                          "randrw-70-30-4k"};
    const char* directions[] = {"read", "write", "read", "write", "read"};
    const auto w = static_cast<std::size_t>(i % 5);
    const auto layout = static_cast<std::size_t>((i / 5) % 4);
    const bool failed = i % 50 == 49;
    lb::Run run;
    run.campaignId = campaignId;
    run.workload = workloads[w];
    run.probe = "fio";
    run.iteration = static_cast<int>((i / 20) % 5);
    run.argv = {"fio", "--output-format=json", std::string("--name=") + jobs[w]};
    run.exitCode = failed ? 1 : 0;
    run.toolVersion = "fio-3.33";
    run.startedAt = run.finishedAt = "2026-11-29T21:00:00Z";
    run.wallSeconds = 10.0 + static_cast<double>(i % 7);
    run.status = failed ? lb::RunStatus::Failed : lb::RunStatus::Ok;
    run.reason = failed ? "fio exited with status 1: Input/output error" : "";
    if (!failed) {
        const std::string prefix = std::string("fio.") + jobs[w] + "." + directions[w] + ".";
        const double scale =
            1.0 + 0.1 * static_cast<double>(layout) + 0.01 * static_cast<double>(i % 3);
        run.metrics = {{prefix + "bw", 5e8 / scale, lb::Unit::BytesPerSecond},
                       {prefix + "iops", 2e4 / scale, lb::Unit::OpsPerSecond},
                       {prefix + "clat_p99", 2e5 * scale, lb::Unit::Nanoseconds}};
    }
    return run;
}

// The database: four layouts, ten campaigns, `runs` runs spread over them (2 % failed, with a
// reason), three fio metrics per successful run.
int createDatabase(const std::string& path, long runs) {
    auto store = lb::Store::open(path, [] { return std::string("2026-11-29T21:00:00Z"); });
    if (!store)
        return fail("open", store.error());
    auto host = store->ensureHost("bench-host");
    if (!host)
        return fail("host", host.error());
    const char* layoutNames[] = {"bare-metal", "md-raid10", "zfs-raidz2", "guest-raidz2"};
    const char* layoutKinds[] = {"dir", "md-raid10", "zfs-raidz2", "guest"};
    std::int64_t layoutIds[4] = {};
    for (int i = 0; i < 4; ++i) {
        auto id = store->ensureLayout(layoutNames[i], layoutKinds[i], "{}", *host);
        if (!id)
            return fail("layout", id.error());
        layoutIds[i] = *id;
    }
    auto tx = store->transaction();
    if (!tx)
        return fail("transaction", tx.error());
    std::int64_t campaigns[10] = {};
    for (int c = 0; c < 10; ++c) {
        auto id = store->createCampaign({"bench-" + std::to_string(c + 1), "", "", *host, "{}"});
        if (!id)
            return fail("campaign", id.error());
        if (auto r = store->setCampaignStatus(*id, lb::CampaignStatus::Done, true); !r)
            return fail("campaign", r.error());
        campaigns[c] = *id;
    }
    for (long i = 0; i < runs; ++i) {
        const auto layout = static_cast<std::size_t>((i / 5) % 4);
        const lb::Run run = benchRun(i, campaigns[i % 10]);
        if (auto r = store->insertRun(layoutIds[layout], run); !r)
            return fail("run", r.error());
    }
    if (auto r = tx->commit(); !r)
        return fail("commit", r.error());
    return 0;
}

// Catches the first paint of the runs table once it has rows.
class FirstPaint : public QObject {
public:
    FirstPaint(QWidget* viewport, const lb::gui::RunsModel* model)
        : viewport_(viewport), model_(model) {
        viewport_->installEventFilter(this);
    }
    bool painted() const { return painted_; }
    Clock::time_point at() const { return at_; }
    long peakKiB() const { return peakKiB_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (!painted_ && watched == viewport_ && event->type() == QEvent::Paint &&
            model_->rowCount() > 0) {
            painted_ = true;
            at_ = Clock::now();
            peakKiB_ = statusKiB("VmHWM");
        }
        return false;
    }

private:
    QWidget* viewport_;
    const lb::gui::RunsModel* model_;
    bool painted_ = false;
    Clock::time_point at_;
    long peakKiB_ = 0;
};

struct Options {
    long runs = 100000;
    std::string dbPath;
    bool keep = false;
    bool reuse = false;
};

std::optional<Options> parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            o.runs = std::strtol(argv[++i], nullptr, 10);
        else if (std::strcmp(argv[i], "--db") == 0 && i + 1 < argc)
            o.dbPath = argv[++i];
        else if (std::strcmp(argv[i], "--keep") == 0)
            o.keep = true;
        else if (std::strcmp(argv[i], "--reuse") == 0)
            o.reuse = true;
        else
            return std::nullopt;
    }
    return o;
}

// The database is written by a child, so its SQLite cache and buffers are not in our RSS.
bool writeDatabaseInChild(const std::string& dbPath, long runs) {
    const auto t0 = Clock::now();
    const pid_t child = fork();
    if (child < 0) {
        std::perror("fork");
        return false;
    }
    if (child == 0)
        _exit(createDatabase(dbPath, runs));
    int status = 0;
    if (waitpid(child, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "gui_open_bench: creating the database failed\n");
        return false;
    }
    std::printf("database: %ld runs written in %.0f ms (%s)\n", runs, msSince(t0), dbPath.c_str());
    return true;
}

// The window shown and exposed for at least 200 ms, so opening starts from a settled window.
bool waitUntilExposed(const QWidget& window) {
    QElapsedTimer shown;
    shown.start();
    while (shown.elapsed() < 200 ||
           !(window.windowHandle() && window.windowHandle()->isExposed())) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        if (shown.elapsed() > 10000) {
            std::fprintf(stderr, "gui_open_bench: the window was not exposed\n");
            return false;
        }
    }
    return true;
}

// Sorting and filtering at this size, for the record.
void measureSortAndFilter(lb::gui::ResultsTab& results) {
    auto* proxy = results.runsProxy();
    auto t = Clock::now();
    proxy->sort(lb::gui::RunsModel::Workload, Qt::DescendingOrder);
    std::printf("sort by workload:                    %8.1f ms\n", msSince(t));
    t = Clock::now();
    proxy->setFilterText(QStringLiteral("failed raid10"));
    std::printf("filter \"failed raid10\" (%d rows):   %8.1f ms\n", proxy->rowCount(), msSince(t));
}

// Opens the database in the window and prints the times from the call to the database's
// snapshot, to the first paint of the runs table and to the comparison shown, and the memory.
bool measureOpen(lb::gui::MainWindow& window, const std::string& dbPath) {
    const long rssBefore = statusKiB("VmRSS");
    const long hwmBefore = statusKiB("VmHWM");

    lb::gui::ResultsTab* results = window.resultsTab();
    FirstPaint firstPaint(results->runsView()->viewport(), results->runsModel());
    bool opened = false, compared = false;
    Clock::time_point openedAt, comparedAt;
    QObject::connect(&window, &lb::gui::MainWindow::databaseOpened, [&] {
        opened = true;
        openedAt = Clock::now();
    });
    QObject::connect(&window, &lb::gui::MainWindow::comparisonShown, [&] {
        compared = true;
        comparedAt = Clock::now();
    });

    const auto start = Clock::now();
    window.openDatabase(QString::fromStdString(dbPath));
    QElapsedTimer timeout;
    timeout.start();
    while (!(firstPaint.painted() && compared) && timeout.elapsed() < 120000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    if (!firstPaint.painted() || !opened) {
        std::fprintf(stderr, "gui_open_bench: no paint of the runs table within 120 s\n");
        return false;
    }
    auto ms = [&](Clock::time_point t) {
        return std::chrono::duration<double, std::milli>(t - start).count();
    };

    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("runs in the table: %d\n", results->runsModel()->rowCount());
    std::printf("loaded (snapshot on the GUI thread): %8.1f ms\n", ms(openedAt));
    std::printf("first paint of the runs table:       %8.1f ms\n", ms(firstPaint.at()));
    if (compared)
        std::printf("comparison shown:                    %8.1f ms\n", ms(comparedAt));
    std::printf("RSS before opening:                  %8.1f MiB (peak so far %.1f MiB)\n",
                static_cast<double>(rssBefore) / 1024.0, static_cast<double>(hwmBefore) / 1024.0);
    std::printf("peak RSS at the first paint:         %8.1f MiB\n",
                static_cast<double>(firstPaint.peakKiB()) / 1024.0);
    std::printf("RSS after the comparison:            %8.1f MiB\n",
                static_cast<double>(statusKiB("VmRSS")) / 1024.0);
    std::printf("peak RSS of the process (ru_maxrss): %8.1f MiB\n",
                static_cast<double>(usage.ru_maxrss) / 1024.0);

    return true;
}

} // namespace

int main(int argc, char** argv) {
    const auto options = parseOptions(argc, argv);
    if (!options) {
        std::fprintf(stderr, "usage: gui_open_bench [--runs N] [--db PATH] [--keep] [--reuse]\n");
        return 2;
    }
    QTemporaryDir dir;
    dir.setAutoRemove(!options->keep);
    std::string dbPath = options->dbPath;
    if (options->reuse && dbPath.empty()) {
        std::fprintf(stderr, "gui_open_bench: --reuse needs --db PATH\n");
        return 2;
    }
    if (dbPath.empty())
        dbPath = dir.filePath(QStringLiteral("results.db")).toStdString();
    else if (!options->reuse)
        std::remove(dbPath.c_str());
    if (!options->reuse && !writeDatabaseInChild(dbPath, options->runs))
        return 1;

    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("XDG_CONFIG_HOME", dir.filePath(QStringLiteral("config")).toUtf8());
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("layoutbench-bench"));

    lb::gui::MainWindow window;
    window.show();
    if (!waitUntilExposed(window))
        return 1;
    if (!measureOpen(window, dbPath))
        return 1;
    measureSortAndFilter(*window.resultsTab());
    return 0;
}
