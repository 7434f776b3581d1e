#!/usr/bin/env bash
# Issue 31's two figures, measured in one go:
#  1. the wall time of `fleet run` on 4 hosts against `run` of the same scenario on one host
#     (goal: at most 1.3×). The hosts are sshd servers on 127.0.0.1 (throwaway keys, a port and a
#     work directory each), so the 4 fleet hosts share this machine's cores: the ratio includes
#     Ansible's own cost and 4 campaigns at once on the cores one campaign had;
#  2. the merge of 100 host databases of 1,000 runs each into one, under their host names.
# Usage: bench/fleet.sh [LAYOUTBENCH] [HOSTS]   (default build/release/app/cli/layoutbench, 4)
set -euo pipefail
lb=$(realpath "${1:-build/release/app/cli/layoutbench}")
hosts=${2:-4}
here=$(cd "$(dirname "$0")" && pwd)
for tool in ansible-playbook sshd ssh-keygen sqlite3; do
    command -v "$tool" >/dev/null || [[ -x /usr/sbin/$tool ]] ||
        { echo "fleet.sh: $tool is needed (scripts/setup.sh installs it)" >&2; exit 2; }
done
work=$(mktemp -d /var/tmp/lb-fleet-bench.XXXXXX)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# --- the servers: one sshd each, on a port the kernel hands out
ssh-keygen -q -t ed25519 -N '' -f "$work/user_key"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
echo "[storage]" >"$work/inventory.ini"
for i in $(seq 1 "$hosts"); do
    d="$work/srv-$i"
    mkdir -p "$d"
    ssh-keygen -q -t ed25519 -N '' -f "$d/host_key"
    cp "$work/user_key.pub" "$d/authorized_keys"
    port=$(free_port)
    /usr/sbin/sshd -D -e -p "$port" -h "$d/host_key" -o ListenAddress=127.0.0.1 \
        -o AuthorizedKeysFile="$d/authorized_keys" -o PasswordAuthentication=no \
        -o StrictModes=no -o PidFile=none 2>"$d/sshd.log" &
    pids+=($!)
    echo "[127.0.0.1]:$port $(cat "$d/host_key.pub")" >>"$work/known_hosts"
    echo "srv-$i ansible_host=127.0.0.1 ansible_port=$port ansible_user=$(id -un)" \
        "ansible_ssh_private_key_file=$work/user_key" \
        "ansible_ssh_common_args='-o UserKnownHostsFile=$work/known_hosts'" \
        "lb_remote_dir=$d/remote" >>"$work/inventory.ini"
done
sleep 1

# --- the scenario: one dir layout, a fio job of fixed length, three iterations
cat >"$work/scenario.toml" <<'TOML'
name = "fleet-bench"
iterations = 3
work_dir = "{{ lb_dir }}/work"
drop_caches = false

[[layouts]]
name = "dir"
kind = "dir"
path = "."
baseline = true

[[workloads]]
probe = "fio"
preset = "rand-read-4k-qd1"
size = "16M"
runtime = 5
TOML
# The single host runs the scenario as the fleet's playbook would write it there.
mkdir -p "$work/single"
sed "s|{{ lb_dir }}|$work/single|" "$work/scenario.toml" \
    >"$work/single/scenario.toml"

seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }
echo "one host: layoutbench run ..." >&2
t0=$(date +%s%N)
"$lb" run "$work/single/scenario.toml" --db "$work/single/results.db" >/dev/null 2>&1
single=$(seconds "$t0" "$(date +%s%N)")
echo "$hosts hosts: layoutbench fleet run ..." >&2
t0=$(date +%s%N)
"$lb" fleet run "$work/scenario.toml" --inventory "$work/inventory.ini" --layoutbench "$lb" \
    --forks "$hosts" --db "$work/fleet.db" >"$work/fleet.out" 2>"$work/fleet.err" ||
    { cat "$work/fleet.out" "$work/fleet.err" >&2; exit 1; }
fleet=$(seconds "$t0" "$(date +%s%N)")
ratio=$(awk -v a="$fleet" -v b="$single" 'BEGIN { printf "%.2f", a / b }')

# --- 100 host databases of 1,000 runs each: one imported, copied with new identities
echo "100 databases of 1,000 runs: merge ..." >&2
sample=$(head -1 "$here/../tests/data/bonnie++/1.97/hdd-slow-seeks.csv")
awk -v l="$sample" 'BEGIN { n = split(l, f, ",");
    for (i = 1; i <= 1000; i++) { f[5] = 1709912204 + i; s = f[1];
        for (j = 2; j <= n; j++) s = s "," f[j]; print s } }' >"$work/lines.csv"
"$lb" import --db "$work/one.db" --layout dir --host model "$work/lines.csv" >/dev/null
mkdir -p "$work/dbs"
for i in $(seq 1 100); do
    cp "$work/one.db" "$work/dbs/h$i.db"
    sqlite3 "$work/dbs/h$i.db" "UPDATE run SET uid = lower(hex(randomblob(16))),
        content_hash = NULL; DELETE FROM run_hash;"
done
t0=$(date +%s%N)
for i in $(seq 1 100); do
    "$lb" merge "$work/dbs/h$i.db" --host "h$i" --db "$work/merged.db" >/dev/null
done
merge=$(seconds "$t0" "$(date +%s%N)")
runs=$(sqlite3 "$work/merged.db" "SELECT COUNT(*) FROM run")

printf '%-58s %10s   %s\n' "figure" "measured" "goal"
printf '%-58s %10s   %s\n' "layoutbench run, 1 host (s)" "$single" ""
printf '%-58s %10s   %s\n' "layoutbench fleet run, $hosts hosts (s)" "$fleet" ""
printf '%-58s %10s   %s\n' "fleet over one host" "$ratio×" "≤ 1.3×"
printf '%-58s %10s   %s\n' "merge of 100 host databases of 1,000 runs ($runs runs) (s)" "$merge" ""
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
