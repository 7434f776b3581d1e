// Import and comparison at scale: 10,000 fio JSON results imported in one call, and compare over a
// database of 1,000,000 metric rows. Run the Release build: build/release/bench/layoutbench_bench
// (bench/run.sh runs it and prints each figure beside its goal).
//   layoutbench_bench --write-compare-db PATH   writes the 1,000,000-row database and exits, for
//                                               timing `layoutbench compare` on it
#include "engine/store/store.h"
#include "probes/import.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace lb;

namespace {

fs::path scratch(const std::string& name) {
    auto dir = fs::temp_directory_path() / ("lb-bench-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::string readAll(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void BM_ImportFioJson(benchmark::State& state) {
    const auto files = static_cast<std::size_t>(state.range(0));
    const auto dir = scratch("import");
    const std::string sample = readAll(fs::path(LAYOUTBENCH_TEST_DATA_DIR) / "fio" / "3.33" /
                                       "randrw_70_30_jsonplus.json");
    ImportRequest req;
    req.layout = "bench";
    req.allowDuplicate = true; // one sample, written many times over
    for (std::size_t i = 0; i < files; ++i) {
        const auto path = dir / ("r" + std::to_string(i) + ".json");
        std::ofstream(path) << sample;
        req.files.push_back(path.string());
    }
    std::int64_t imported = 0;
    for (auto _ : state) {
        state.PauseTiming();
        fs::remove(dir / "results.db");
        fs::remove(dir / "results.db-wal");
        fs::remove(dir / "results.db-shm");
        auto store = Store::open((dir / "results.db").string());
        state.ResumeTiming();
        auto summary = importFiles(*store, req);
        if (!summary) {
            state.SkipWithError(summary.error().message.c_str());
            break;
        }
        imported = summary->metrics;
    }
    state.counters["files"] = static_cast<double>(files);
    state.counters["metrics"] = static_cast<double>(imported);
    state.counters["files/s"] = benchmark::Counter(static_cast<double>(files),
                                                   benchmark::Counter::kIsIterationInvariantRate);
    fs::remove_all(dir);
}
// The CPU time of the whole process, which bench/run.sh prints beside the wall time.
BENCHMARK(BM_ImportFioJson)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->MeasureProcessCPUTime();

// Two layouts, each with `runs` runs of `perRun` metrics: runs * perRun * 2 rows.
void fill(Store& store, int runs, int perRun) {
    auto tx = store.transaction();
    for (const char* layout : {"base", "cand"}) {
        const auto id = *store.ensureLayout(layout, "dir", "{}", std::nullopt);
        for (int r = 0; r < runs; ++r) {
            Run run;
            run.workload = "fio";
            run.probe = "fio";
            run.status = RunStatus::Ok;
            for (int m = 0; m < perRun; ++m)
                run.metrics.push_back({"fio.job" + std::to_string(m) + ".read.bw",
                                       1e6 + (r * 7919 + m) % 1000, Unit::BytesPerSecond});
            (void)store.insertRun(id, run);
        }
    }
    (void)tx->commit();
}

constexpr int compareRuns = 500, comparePerRun = 1000; // 2 * 500 * 1000 = 1,000,000 metric rows

void BM_CompareMillionRows(benchmark::State& state) {
    const auto dir = scratch("compare");
    auto store = Store::open((dir / "results.db").string());
    const int runs = compareRuns, perRun = comparePerRun;
    fill(*store, runs, perRun);
    // Warm: one comparison first, untimed, so the database is in the OS's cache and the store's
    // statements are prepared, as for every comparison after the first.
    if (auto first = compareStoredLayouts(*store, "base", "cand", {}); !first) {
        state.SkipWithError(first.error().message.c_str());
        return;
    }
    std::size_t metrics = 0;
    for (auto _ : state) {
        auto cmp = compareStoredLayouts(*store, "base", "cand", {});
        if (!cmp) {
            state.SkipWithError(cmp.error().message.c_str());
            break;
        }
        metrics = cmp->metrics.size();
        benchmark::DoNotOptimize(cmp->verdict);
    }
    state.counters["metric_rows"] = 2.0 * runs * perRun;
    state.counters["compared_metrics"] = static_cast<double>(metrics);
    fs::remove_all(dir);
}
BENCHMARK(BM_CompareMillionRows)->Unit(benchmark::kMillisecond)->Iterations(3);

} // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--write-compare-db") {
        fs::remove(argv[2]);
        auto store = Store::open(argv[2]);
        if (!store) {
            std::fprintf(stderr, "%s\n", store.error().message.c_str());
            return 1;
        }
        fill(*store, compareRuns, comparePerRun);
        return 0;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
