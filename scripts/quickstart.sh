#!/usr/bin/env bash
# Installs, builds (Release) and runs the main job on the embedded default.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --workflow --preset release
exec ./scripts/main-job.sh build/release/app/cli/layoutbench
