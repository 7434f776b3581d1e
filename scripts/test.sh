#!/usr/bin/env bash
# Installs, builds with warnings as errors, runs every test, runs the unit and command-line
# suites again under ASan and UBSan (scripts/sanitized-tests.sh), then fuzzes every parser of
# outside input for a bounded time (scripts/fuzz.sh: LAYOUTBENCH_FUZZ_SECONDS per target,
# default 30; 0 skips fuzzing).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --workflow --preset ci
./scripts/sanitized-tests.sh
seconds="${LAYOUTBENCH_FUZZ_SECONDS:-30}"
if [ "$seconds" != 0 ]; then
    ./scripts/fuzz.sh --no-build --seconds "$seconds"
fi
