#!/usr/bin/env bash
# Builds the libFuzzer targets (the fuzz preset: clang, ASan + UBSan) and runs each for a bounded
# time with its seed corpus from tests/data. Fails on any crash, sanitizer report, leak, timeout
# or out-of-memory; the input that did it is kept in build/fuzz/artifacts/ and the command to
# reproduce it is printed. Keep such an input under tests/data/fuzz/<target>/ once fixed: the
# regression test runs them in every build.
#
#   scripts/fuzz.sh [--seconds N] [--jobs J] [--no-build] [TARGET...]
#
# --seconds: per target (default 30); --jobs: targets run at once (default: the processors, at
# most 2). Without TARGETs, every target runs. The corpora grow in build/fuzz/corpus/ and are
# reused by the next run on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=30
jobs=$(( $(nproc) < 2 ? $(nproc) : 2 ))
build=1
selected=()
while [ $# -gt 0 ]; do
    case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) selected+=("$1"); shift ;;
    esac
done

# Each target's seed files, as globs under the source tree.
declare -A seeds=(
    [bonnie_csv]="tests/data/bonnie++/*/*.csv data/samples/*.csv"
    [bonnie_text]="tests/data/bonnie++/*/*.txt tests/data/bonnie++/*/*.stdout tests/data/bonnie++/*/*.input"
    [fio_json]="tests/data/fio/*/*.json"
    [fio_terse]="tests/data/fio/*/*.terse"
    [fio_normal]="tests/data/fio/*/*.normal tests/data/fio/*/normal_client_*.txt"
    [iozone]="tests/data/iozone/*/*.txt tests/data/iozone/*/*.xls"
    [dd]="tests/data/dd/*/*.txt tests/data/dd/*/*.stderr"
    [scenario]="scenarios/*.toml tests/data/scenarios/*.toml tests/data/fuzz/scenario-seeds/*.toml"
    [drive_catalog]="data/drives.toml"
    [import]="tests/data/bonnie++/*/*.csv tests/data/bonnie++/*/*.txt tests/data/fio/*/*.json tests/data/fio/*/*.terse tests/data/fio/*/*.normal tests/data/fio/*/normal_client_*.txt tests/data/iozone/*/*.txt tests/data/iozone/*/*.xls tests/data/dd/*/*.txt"
)
# Dictionaries of the formats' keywords help the mutations reach past the syntax.
declare -A dicts=(
    [fio_json]=tests/fuzz/fio_json.dict
    [iozone]=tests/fuzz/iozone.dict
    [scenario]=tests/fuzz/scenario.dict
    [drive_catalog]=tests/fuzz/scenario.dict
)
all=(bonnie_csv bonnie_text fio_json fio_terse fio_normal iozone dd scenario drive_catalog import)
[ ${#selected[@]} -gt 0 ] || selected=("${all[@]}")
for t in "${selected[@]}"; do
    [ -n "${seeds[$t]+x}" ] || { echo "fuzz.sh: no target '$t' (targets: ${all[*]})" >&2; exit 2; }
done

if [ "$build" = 1 ]; then
    cmake --workflow --preset fuzz
fi

out=build/fuzz
mkdir -p "$out/corpus" "$out/artifacts" "$out/logs"

# Runs one target; prints one summary line; non-zero when libFuzzer found something.
run_one() {
    local t="$1" seeddir="$out/seeds/$t" corpus="$out/corpus/$t" log="$out/logs/$t.log"
    rm -rf "$seeddir"
    mkdir -p "$seeddir" "$corpus"
    local f
    for f in ${seeds[$t]} tests/data/fuzz/"$t"/*; do
        [ -f "$f" ] && cp "$f" "$seeddir/$(echo "$f" | tr '/' '_')"
    done
    local dict=()
    [ -n "${dicts[$t]+x}" ] && dict=("-dict=${dicts[$t]}")
    local start=$SECONDS rc=0
    # -timeout: one input may take 10 s at most (a hang); -rss_limit_mb: memory; ASan's leak
    # check runs at the end of each input that allocated more than it freed.
    "$out/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 "${dict[@]}" \
        -artifact_prefix="$out/artifacts/$t-" "$corpus" "$seeddir" >"$log" 2>&1 || rc=$?
    local execs cov
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    if [ "$rc" = 0 ]; then
        printf 'fuzz: %-14s ok      %4ds  %9s runs  coverage %s\n' "$t" $((SECONDS - start)) \
            "${execs:-?}" "${cov:-?}"
        return 0
    fi
    printf 'fuzz: %-14s FAILED  %4ds  (exit %d), log %s\n' "$t" $((SECONDS - start)) "$rc" "$log"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|ALARM|.*out-of-memory|artifact_prefix|Test unit written)' \
        "$log" | head -20 | sed 's/^/    /'
    local artifact
    artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    [ -n "$artifact" ] && echo "    reproduce: $out/tests/fuzz/fuzz_$t $artifact"
    return 1
}
echo "fuzz: ${#selected[@]} target(s), ${seconds} s each, ${jobs} at a time"
start=$SECONDS
# Each target in the background, at most $jobs at once; each leaves its verdict in a file.
for t in "${selected[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    rm -f "$out/logs/$t.failed"
    ( run_one "$t" || touch "$out/logs/$t.failed" ) &
done
wait
failed=()
for t in "${selected[@]}"; do
    [ -e "$out/logs/$t.failed" ] && failed+=("$t")
done
echo "fuzz: done in $((SECONDS - start)) s"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: failed: ${failed[*]} (see above); the inputs are in $out/artifacts/" >&2
    exit 1
fi
