#!/usr/bin/env bash
# Adaptive repetition against a fixed count: scenarios/quick.toml run with iterations = 5 and with
# iterations = "auto" (min 3, max 5), one after the other in one go, each into its own database.
# Prints each campaign's iterations per layout and wall time, then whether the overall verdicts
# (and each deciding metric's verdict) agree. Goal: the same verdicts in at most 60 % of the
# fixed-5 time; the ratio of runs is printed too, since it does not stretch with the machine's
# other load as wall time does, and the least it can be (every workload's min_iterations and the
# bracketing pass). Needs ZFS (zfs-fuse is started if no ZFS answers). Usage:
#   bench/adaptive_iterations.sh [LAYOUTBENCH]
set -euo pipefail
cd "$(dirname "$0")/.."
lb=$(realpath "${1:-build/release/app/cli/layoutbench}")
work=$(mktemp -d /var/tmp/lb-adaptive.XXXXXX)
trap 'rm -rf "$work"' EXIT

if ! zpool list -H >/dev/null 2>&1; then
    zfs-fuse
    for _ in $(seq 50); do zpool list -H >/dev/null 2>&1 && break; sleep 0.2; done
fi

variant() { # NAME ITERATIONS-LINES
    sed -e "s|^iterations = 3$|$2|" -e "s|^name = \"quick\"$|name = \"quick-$1\"|" \
        -e "s|^work_dir = .*$|work_dir = \"$work/$1\"|" scenarios/quick.toml >"$work/$1.toml"
}
variant fixed5 'iterations = 5'
variant auto 'iterations = "auto"\nmin_iterations = 3\nmax_iterations = 5'

for v in fixed5 auto; do
    start=$(date +%s.%N)
    "$lb" run "$work/$v.toml" --db "$work/$v.db" --json >"$work/$v.json" 2>"$work/$v.log"
    end=$(date +%s.%N)
    echo "$v $(echo "$end - $start" | bc)" >>"$work/times"
done

python3 - "$work" <<'PY'
import json, sqlite3, sys
work = sys.argv[1]
times = dict(line.split() for line in open(f"{work}/times"))
verdicts = {}
runs = {}
for v in ("fixed5", "auto"):
    out = json.load(open(f"{work}/{v}.json"))
    db = sqlite3.connect(f"{work}/{v}.db")
    rows = db.execute("SELECT l.name, COUNT(DISTINCT r.iteration) FROM run r JOIN layout l "
                      "ON l.id = r.layout_id WHERE r.status = 'ok' GROUP BY l.name").fetchall()
    its = ", ".join(f"{name} {n}" for name, n in rows)
    runs[v] = db.execute("SELECT COUNT(*) FROM run WHERE status = 'ok'").fetchone()[0]
    verdicts[v] = {c["candidate"]: (c["verdict"], {m["name"]: m["verdict"] for m in c["metrics"]
                                                    if m["decisive"]}) for c in out["comparisons"]}
    print(f"{v:7s} wall {float(times[v]):7.1f} s   iterations per layout (bracketing included): {its}")
    per = db.execute("SELECT l.name, r.workload, COUNT(*) FROM run r JOIN layout l ON l.id = "
                     "r.layout_id WHERE r.status = 'ok' GROUP BY l.name, r.workload "
                     "ORDER BY l.name, r.workload").fetchall()
    print("        runs: " + "; ".join(f"{l} {w} {n}" for l, w, n in per))
    for c in out["comparisons"]:
        print(f"        {c['headline']}")
ratio = float(times["auto"]) / float(times["fixed5"])
print(f"auto / fixed5 wall time: {ratio:.2f} (goal <= 0.60)")
# Runs do not stretch with the machine's other load as wall time does.
print(f"auto / fixed5 runs: {runs['auto']} / {runs['fixed5']} = {runs['auto'] / runs['fixed5']:.2f}")
# The least auto can run: min_iterations (3) of everything and the baseline's bracketing pass,
# which fixed5 runs as well.
db = sqlite3.connect(f"{work}/fixed5.db")
layouts, workloads = db.execute("SELECT COUNT(DISTINCT layout_id), COUNT(DISTINCT workload) "
                                "FROM run WHERE status = 'ok'").fetchone()
bracketing = runs["fixed5"] - 5 * layouts * workloads
floor = (3 * layouts * workloads + bracketing) / runs["fixed5"]
print(f"least possible with min_iterations = 3 and the bracketing pass: {floor:.2f} of the runs")
for cand, (overall, metrics) in verdicts["fixed5"].items():
    a_overall, a_metrics = verdicts["auto"].get(cand, (None, {}))
    same = [m for m in metrics if a_metrics.get(m) == metrics[m]]
    print(f"{cand}: overall {overall} vs {a_overall}: {'agree' if overall == a_overall else 'DIFFER'}; "
          f"{len(same)} of {len(metrics)} deciding metrics agree")
PY
