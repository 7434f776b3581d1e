#!/usr/bin/env bash
# The main job on the embedded default: what capacity each layout gives the seed server's ten
# 500 GB SSDs, and whether the guest's measured bonnie++ results are viable against bare metal.
set -euo pipefail
cd "$(dirname "$0")/.."
lb=${1:-build/release/app/cli/layoutbench}
db=${LAYOUTBENCH_DB:-build/main-job.db}
rm -f "$db" "$db-wal" "$db-shm"

echo "== Capacity of 10 x 500 GB SSDs, 128 KiB records, ashift 12"
"$lb" capacity --kind all --disks 10 --disk-size 500G
echo
echo "== The same disks partitioned to 80 % (room for garbage collection)"
"$lb" capacity --kind all --disks 10 --disk-size 500G --underprovision 0.8
echo
echo "== bonnie++ on bare metal against the same in a guest (data/samples)"
"$lb" import --db "$db" --layout bare-metal data/samples/bare-metal-bonnie.csv
"$lb" import --db "$db" --layout guest data/samples/guest-bonnie.csv
"$lb" compare --db "$db" --baseline bare-metal --candidate guest
