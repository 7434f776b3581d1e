#!/usr/bin/env bash
# The speed goals of issue 15, measured: runs the Release build's benchmarks and prints each
# figure beside its goal. Wall-clock figures; on a shared machine the CPU time is shown too,
# since other work there stretches wall time. Usage:
#   bench/run.sh [BUILD_DIR]        (default build/release; configure with --preset release)
# Needs jq (the benchmark's JSON), GNU time (an import's peak RSS) and the offscreen Qt platform
# (no display).
set -euo pipefail
build=$(realpath "${1:-build/release}")
bench="$build/bench/layoutbench_bench"
gui="$build/bench/gui_open_bench"
cli="$build/app/cli/layoutbench"
for f in "$bench" "$gui" "$cli"; do
    [[ -x $f ]] || { echo "run.sh: $f is missing: cmake --preset release && cmake --build build/release" >&2; exit 2; }
done
command -v jq >/dev/null || { echo "run.sh: jq is needed (apt-get install jq)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "run.sh: GNU time is needed (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d /var/tmp/lb-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

rows=()
# row LABEL MEASURED GOAL_TEXT MET(0/1) NOTE
# With LB_BENCH_TSV=FILE each figure is also written there as "LABEL<TAB>NUMBER" (bench/ab.sh).
row() {
    local verdict=missed
    [[ $4 == 1 ]] && verdict=met
    rows+=("$(printf '%-52s %14s   %-12s %-6s %s' "$1" "$2" "$3" "$verdict" "$5")")
    if [[ -n ${LB_BENCH_TSV:-} ]]; then
        printf '%s\t%s\n' "$1" "${2%% *}" >>"$LB_BENCH_TSV"
    fi
}
# ge A B / le A B: the comparison as 1 or 0 (awk: the figures are decimals).
ge() { awk -v a="$1" -v b="$2" 'BEGIN { print (a >= b) ? 1 : 0 }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { print (a <= b) ? 1 : 0 }'; }
fmt() { awk -v a="$1" -v d="${2:-0}" 'BEGIN { printf "%.*f", d, a }'; }

echo "layoutbench_bench (import, compare) ..." >&2
"$bench" --benchmark_format=json --benchmark_out="$work/store.json" \
    --benchmark_out_format=json >/dev/null
field() { jq -r ".benchmarks[] | select(.name | startswith(\"$1\")) | .$2" "$work/store.json"; }
import_ms=$(field BM_ImportFioJson real_time)
import_cpu_ms=$(field BM_ImportFioJson cpu_time)
files=$(field BM_ImportFioJson files)
import_rate=$(awk -v n="$files" -v ms="$import_ms" 'BEGIN { print n / (ms / 1000) }')
import_cpu_rate=$(awk -v n="$files" -v ms="$import_cpu_ms" 'BEGIN { print n / (ms / 1000) }')
row "import: fio json+ files per second (10,000, one call)" "$(fmt "$import_rate")" "≥ 20000" \
    "$(ge "$import_rate" 20000)" "($(fmt "$import_cpu_rate") by CPU time)"
compare_ms=$(field BM_CompareMillionRows real_time)
compare_cpu_ms=$(field BM_CompareMillionRows cpu_time)
row "compare over 1,000,000 metric rows, warm (in process)" "$(fmt "$compare_ms" 1) ms" \
    "≤ 50 ms" "$(le "$compare_ms" 50)" "($(fmt "$compare_cpu_ms" 1) ms CPU)"

# The same comparison as a person runs it: a new process each time, the database file warm in
# the OS's cache; the median of five.
echo "layoutbench compare on the 1,000,000-row database ..." >&2
"$bench" --write-compare-db "$work/compare.db"
"$cli" compare --db "$work/compare.db" --baseline base --candidate cand --json >/dev/null
times=()
for _ in 1 2 3 4 5; do
    start=$(date +%s%N)
    "$cli" compare --db "$work/compare.db" --baseline base --candidate cand --json >/dev/null
    times+=($(( ($(date +%s%N) - start) / 1000 )))
done
cli_ms=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p | awk '{ print $1 / 1000 }')
row "layoutbench compare, the same rows, a new process" "$(fmt "$cli_ms" 1) ms" "≤ 50 ms" \
    "$(le "$cli_ms" 50)" "(median of 5; includes starting the process)"

# Issue 14's import at scale: a million bonnie++ CSV lines (one file, each line another machine
# and seed) in one call, with the process's peak RSS.
echo "layoutbench import of 1,000,000 bonnie++ lines ..." >&2
sample=$(head -1 "$(dirname "$0")/../tests/data/bonnie++/1.97/hdd-slow-seeks.csv")
awk -v l="$sample" 'BEGIN { n = split(l, f, ",");
    for (i = 1; i <= 1000000; i++) { f[3] = "m" i; f[5] = 1709912204 + i; s = f[1];
        for (j = 2; j <= n; j++) s = s "," f[j]; print s } }' >"$work/lines.csv"
/usr/bin/time -f "%e %U %S %M" -o "$work/lines.time" \
    "$cli" import --db "$work/lines.db" --layout lines "$work/lines.csv" >/dev/null
read -r lines_s lines_user lines_sys lines_kib <"$work/lines.time"
lines_rate=$(awk -v s="$lines_s" 'BEGIN { print 1000000 / s }')
lines_cpu_rate=$(awk -v u="$lines_user" -v y="$lines_sys" 'BEGIN { print 1000000 / (u + y) }')
row "import: bonnie++ CSV lines per second (1,000,000)" "$(fmt "$lines_rate")" "≥ 50000" \
    "$(ge "$lines_rate" 50000)" "($(fmt "$lines_cpu_rate") by CPU time)"
lines_mib=$(awk -v k="$lines_kib" 'BEGIN { print k / 1024 }')
row "import: peak RSS of that import" "$(fmt "$lines_mib" 1) MiB" "≤ 200 MiB" \
    "$(le "$lines_mib" 200)" ""
rm -f "$work"/lines.*

echo "gui_open_bench (100,000 runs) ..." >&2
QT_QPA_PLATFORM=offscreen "$gui" >"$work/gui.txt"
gui_value() { sed -n "s/^$1: *\([0-9.]*\).*/\1/p" "$work/gui.txt" | head -1; }
paint=$(gui_value "first paint of the runs table")
shown=$(gui_value "comparison shown")
rss=$(gui_value "peak RSS of the process (ru_maxrss)")
row "GUI: first paint after opening 100,000 runs" "$(fmt "$paint" 1) ms" "≤ 500 ms" \
    "$(le "$paint" 500)" ""
row "GUI: comparison shown after opening 100,000 runs" "$(fmt "${shown:-999999}" 1) ms" \
    "≤ 300 ms" "$(le "${shown:-999999}" 300)" ""
row "GUI: peak RSS" "$(fmt "$rss" 1) MiB" "≤ 150 MiB" "$(le "$rss" 150)" ""

printf '%-52s %14s   %-12s %-6s\n' "figure" "measured" "goal" ""
printf '%s\n' "${rows[@]}"
echo
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
