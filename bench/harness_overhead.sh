#!/usr/bin/env bash
# Harness overhead: the same fio job run by `layoutbench run` (a one-layout, one-workload
# scenario, everything stored) and run directly, alternating, PAIRS times in one go. Prints each
# pair's wall times and ratio, then the median ratio. Usage:
#   bench/harness_overhead.sh [LAYOUTBENCH] [PAIRS] [RUNTIME_SECONDS]
set -euo pipefail
lb=$(realpath "${1:-build/release/app/cli/layoutbench}")
pairs=${2:-5}
runtime=${3:-10}
work=$(mktemp -d /var/tmp/lb-overhead.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/direct"

cat > "$work/job.fio" <<JOB
[overhead]
rw=randread
bs=4k
size=256M
ioengine=psync
direct=1
time_based
runtime=$runtime
filename=lb-overhead.dat
JOB
cat > "$work/bench.toml" <<TOML
name = "overhead"
iterations = 1
work_dir = "$work"
drop_caches = false

[[layouts]]
name = "dir"
kind = "dir"
path = "."
baseline = true

[[workloads]]
probe = "fio"
job_file = "job.fio"
TOML

now() { date +%s.%N; }
ratios=()
printf '%-5s %12s %12s %8s\n' pair layoutbench fio ratio
for i in $(seq "$pairs"); do
    rm -f "$work/results.db"*
    t0=$(now)
    "$lb" run "$work/bench.toml" --db "$work/results.db" --json >/dev/null
    t1=$(now)
    (cd "$work/direct" && fio --output-format=json "$work/job.fio" >/dev/null && rm -f lb-overhead.dat)
    t2=$(now)
    a=$(echo "$t1 - $t0" | bc -l)
    b=$(echo "$t2 - $t1" | bc -l)
    r=$(echo "$a / $b" | bc -l)
    ratios+=("$r")
    printf '%-5s %11.3fs %11.3fs %8.4f\n' "$i" "$a" "$b" "$r"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}')
printf 'median wall-time ratio layoutbench/fio over %d pairs: %.4f\n' "$pairs" "$median"
