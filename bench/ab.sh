#!/usr/bin/env bash
# A/B benchmark: this tree's Release build against the Release build of REV, run alternately N
# times on the same machine by bench/run.sh, each figure given as the medians of both and their
# ratio as a cost ("1.03× REV": 3 % more time, or 3 % fewer lines a second), with the spread of
# the ratios of the N pairs. On a shared machine an absolute time drifts; the ratio of two builds
# run side by side does not. Usage:
#   bench/ab.sh REV [N]      (N: 3 by default)
# REV's build is kept by commit under $LB_AB_CACHE (default /var/tmp/layoutbench-ab/COMMIT), so
# a second comparison against it builds only this tree. This tree builds in build/release.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:?usage: bench/ab.sh REV [N]}
n=${2:-3}
commit=$(git -C "$here" rev-parse --verify "$rev^{commit}")
short=$(git -C "$here" rev-parse --short "$commit")
cache="${LB_AB_CACHE:-/var/tmp/layoutbench-ab}/$commit"
targets=(layoutbench layoutbench_bench gui_open_bench)

build() { # SOURCE BUILD_DIR
    cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
        -DLAYOUTBENCH_BENCHMARKS=ON >/dev/null
    cmake --build "$2" -j2 --target "${targets[@]}" >/dev/null
}

if [[ ! -d $cache/src ]]; then
    echo "ab.sh: unpacking $short into $cache/src" >&2
    mkdir -p "$cache/src"
    git -C "$here" archive "$commit" | tar -x -C "$cache/src"
fi
echo "ab.sh: building $short (Release, kept in $cache/build) ..." >&2
build "$cache/src" "$cache/build"
echo "ab.sh: building this tree (Release, build/release) ..." >&2
build "$here" "$here/build/release"

work=$(mktemp -d /var/tmp/lb-ab.XXXXXX)
trap 'rm -rf "$work"' EXIT
for ((i = 1; i <= n; i++)); do
    # Alternate which goes first, so a machine that slows down during a pair hurts both alike.
    order=(a b)
    ((i % 2 == 0)) && order=(b a)
    for side in "${order[@]}"; do
        dir=$cache/build
        [[ $side == b ]] && dir=$here/build/release
        echo "ab.sh: round $i of $n, $([[ $side == a ]] && echo "$short" || echo "this tree") ..." >&2
        LB_BENCH_TSV="$work/$side.$i" "$here/bench/run.sh" "$dir" >"$work/$side.$i.out" 2>/dev/null
    done
done

# Per figure: the median of each side, the cost ratio of the medians (time: B/A; a rate, "per
# second": A/B) and the lowest and highest ratio of the N pairs.
for ((i = 1; i <= n; i++)); do
    paste "$work/a.$i" "$work/b.$i" | awk -F'\t' -v i="$i" '{ print $1 "\t" i "\t" $2 "\t" $4 }'
done | awk -F'\t' -v rev="$short" -v n="$n" '
    function median(list,   v, k, m, t, j) {
        m = split(list, v, " ");
        for (k = 1; k <= m; k++) for (j = k + 1; j <= m; j++) if (v[j] < v[k]) { t = v[k]; v[k] = v[j]; v[j] = t }
        return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
    }
    function cost(label, a, b) { return label ~ /per second/ ? a / b : b / a }
    {
        if (!($1 in seen)) { seen[$1] = 1; order[++count] = $1 }
        as[$1] = as[$1] " " $3; bs[$1] = bs[$1] " " $4
        r = cost($1, $3, $4)
        if (!($1 in lo) || r < lo[$1]) lo[$1] = r
        if (!($1 in hi) || r > hi[$1]) hi[$1] = r
    }
    END {
        printf "%-52s %12s %12s %14s %16s\n", "figure", rev, "this tree", "cost vs " rev, "pairs (" n ")"
        for (k = 1; k <= count; k++) {
            l = order[k]; a = median(as[l]); b = median(bs[l])
            printf "%-52s %12.1f %12.1f %13.2f× %7.2f–%.2f×\n", l, a, b, cost(l, a, b), lo[l], hi[l]
        }
        print "cost: this tree'\''s time for the same work over " rev "'\''s (below 1: faster)"
    }'
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F)"
