#!/usr/bin/env bash
# lb-netload against libiscsi's own iscsi-perf on the same LUN: random 4 KiB reads at the same
# queue depth, one after the other, each for RUNTIME seconds; prints both IOPS and the ratio
# lb-netload / iscsi-perf. Without a URL it starts its own tgtd on 127.0.0.1:13270 serving a
# 256 MiB file LUN, and stops it (by its pid) afterwards. Usage:
#   bench/netload_vs_iscsi_perf.sh [LB_NETLOAD] [QUEUE_DEPTH] [RUNTIME_SECONDS] [URL]
set -euo pipefail
netload=$(realpath "${1:-build/release-netload/lb-netload}")
qd=${2:-32}
runtime=${3:-10}
url=${4:-}

command -v iscsi-perf >/dev/null || { echo "iscsi-perf missing: apt-get install libiscsi-bin" >&2; exit 1; }
work=$(mktemp -d /var/tmp/lb-netload-bench.XXXXXX)
tgtd_pid=
cleanup() {
    if [ -n "$tgtd_pid" ] && kill -0 "$tgtd_pid" 2>/dev/null; then
        tgtadm -C 13270 --lld iscsi --op delete --force --mode target --tid 1 >/dev/null 2>&1 || true
        tgtadm -C 13270 --lld iscsi --op delete --mode system >/dev/null 2>&1 || true
        for _ in $(seq 50); do kill -0 "$tgtd_pid" 2>/dev/null || break; sleep 0.1; done
        kill -TERM "$tgtd_pid" 2>/dev/null || true
        sleep 1
        kill -KILL "$tgtd_pid" 2>/dev/null || true
        rm -f /var/run/tgtd/socket.13270 /var/run/tgtd/socket.13270.lock
    fi
    rm -rf "$work"
}
trap cleanup EXIT

if [ -z "$url" ]; then
    truncate -s 256M "$work/lun.img"
    # Fill it, so reads are of real blocks, not holes.
    dd if=/dev/urandom of="$work/lun.img" bs=1M count=256 conv=notrunc status=none
    rm -f /var/run/tgtd/socket.13270 /var/run/tgtd/socket.13270.lock
    tgtd -f -C 13270 --iscsi portal=127.0.0.1:13270 >"$work/tgtd.log" 2>&1 &
    tgtd_pid=$!
    for _ in $(seq 100); do
        tgtadm -C 13270 --lld iscsi --op show --mode target >/dev/null 2>&1 && break
        sleep 0.1
    done
    iqn=iqn.2026-11.org.layoutbench.bench:lun1
    tgtadm -C 13270 --lld iscsi --op new --mode target --tid 1 -T "$iqn"
    tgtadm -C 13270 --lld iscsi --op new --mode logicalunit --tid 1 --lun 1 -b "$work/lun.img"
    tgtadm -C 13270 --lld iscsi --op bind --mode target --tid 1 -I ALL
    url="iscsi://127.0.0.1:13270/$iqn/1"
fi

# iscsi-perf counts its transfer size in LUN blocks.
block=$(iscsi-readcapacity16 "$url" | sed -n 's/^LOGICAL BLOCK LENGTH IN BYTES:\([0-9]*\).*/\1/p')
[ -n "$block" ] || { echo "iscsi-readcapacity16 $url failed" >&2; exit 1; }
# It prints "iops average N" every second and runs until stopped: SIGINT after RUNTIME seconds.
timeout -s INT -k 5 "$runtime" iscsi-perf -b $((4096 / block)) -m "$qd" -r "$url" \
    >"$work/perf.out" 2>&1 || true
perf_iops=$(tr '\r' '\n' <"$work/perf.out" | grep -oE 'iops average [0-9]+' | tail -1 |
    grep -oE '[0-9]+$' || true)
[ -n "$perf_iops" ] || { echo "no IOPS from iscsi-perf: $(tail -c 300 "$work/perf.out")" >&2; exit 1; }

"$netload" "$url" --rw randread --bs 4k --iodepth "$qd" --runtime "$runtime" --name bench \
    >"$work/netload.json"
netload_iops=$(python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"]))' "$work/netload.json")

echo "queue depth $qd, $runtime s, random 4 KiB reads on $url"
echo "iscsi-perf  IOPS: $perf_iops"
echo "lb-netload  IOPS: $netload_iops"
python3 -c "import sys; print('ratio lb-netload/iscsi-perf: %.3f' % (float(sys.argv[1]) / float(sys.argv[2])))" "$netload_iops" "$perf_iops"
