#!/usr/bin/env bash
# The main job on the embedded default: the capacity of each layout for the seed server's disks,
# then the quick campaign (a directory baseline against ZFS RAIDZ1 on four file vdevs) to its
# verdicts.
set -euo pipefail
cd "$(dirname "$0")/.."
lb=${1:-build/release/app/cli/layoutbench}
db=${LAYOUTBENCH_DB:-build/main-job.db}

# The quick scenario needs a ZFS daemon; zfs-fuse is the one Debian ships.
if ! zpool list -H >/dev/null 2>&1; then
    echo "starting zfs-fuse"
    zfs-fuse
    for _ in $(seq 50); do zpool list -H >/dev/null 2>&1 && break; sleep 0.2; done
fi

echo "== Capacity of 10 x 500 GB SSDs (128 KiB records, ashift 12), whole disks"
"$lb" capacity --kind all --disks 10 --disk-size 500G
echo
echo "== The same 10 x 500 GB SSDs, each partitioned to 80 % (20 % left to the SSD's controller)"
"$lb" capacity --kind all --disks 10 --disk-size 500G --underprovision 80%
echo
echo "== The seed's second candidate: md RAID6 of those 80 % partitions, passed to a guest whose"
echo "   ZFS pool sits on that one device"
"$lb" capacity --kind guest --inner md-raid6 --disks 10 --disk-size 500G --underprovision 80% \
    --explain
echo
echo "== scenarios/quick.toml: dir baseline against zfs-raidz1 on four file vdevs"
"$lb" run scenarios/quick.toml --db "$db"
