#!/usr/bin/env bash
# The unit, golden-file and command-line suites again, as the fuzz preset builds them: clang with
# AddressSanitizer, UndefinedBehaviorSanitizer (any report aborts) and LeakSanitizer at exit,
# the command-line tests running the instrumented layoutbench. Fails on any failed test or
# sanitizer report. The integration, system, guest and network suites are not run here: they
# take a quarter of an hour uninstrumented (the ci preset runs them); `cmake --preset sanitize`
# builds everything with GCC's sanitizers for a whole run by hand.
#
#   scripts/sanitized-tests.sh [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
case "${1:-}" in
--no-build) build=0 ;;
"") ;;
*) echo "sanitized-tests.sh: unknown option $1" >&2; exit 2 ;;
esac
[ "$build" = 1 ] && cmake --workflow --preset fuzz

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
failed=()
for suite in engine_tests probe_tests cli_tests fuzz_regression_tests; do
    start=$SECONDS
    log="build/fuzz/$suite.log"
    # Bounded: a hang fails the suite instead of the whole run.
    if timeout 900 "build/fuzz/tests/$suite" --gtest_brief=1 >"$log" 2>&1; then
        echo "sanitized: $suite ok in $((SECONDS - start)) s ($(sed -n 's/^\[==========\] \([0-9]*\) tests.*/\1/p' "$log") tests)"
    else
        echo "sanitized: $suite FAILED in $((SECONDS - start)) s, log $log"
        grep -E '^\[  FAILED  \]|ERROR: (Address|Leak)Sanitizer|runtime error|SUMMARY' "$log" |
            head -20 | sed 's/^/    /'
        failed+=("$suite")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "sanitized: failed: ${failed[*]}" >&2
    exit 1
fi
