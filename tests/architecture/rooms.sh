#!/usr/bin/env bash
# Rooms a person can hold (docs/architecture.md): no source file outside tests/ over 800 lines, no
# function over 100 lines, and at most 15 functions over 60. Functions are measured by Universal
# Ctags (definition to closing brace, comments and lambdas inside included). A room still over a
# limit is named in tests/architecture/rooms-allowed.txt with its size, and fails the check when
# it grows past that size or has come under the limit (so the list only shrinks); anything else
# over a limit fails, named with its size.
#
#   rooms.sh SOURCE_DIR
set -euo pipefail
cd "$1"
allowed=tests/architecture/rooms-allowed.txt
dirs=(app bench engine probes reports tools)
if ! command -v ctags >/dev/null || ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
    echo "rooms: Universal Ctags is missing (scripts/setup.sh installs universal-ctags)" >&2
    exit 1
fi

# "file PATH LINES" and "function PATH:NAME LINES", each room once.
measure() {
    find "${dirs[@]}" -type f \( -name '*.cpp' -o -name '*.h' \) -print0 | sort -z |
        xargs -0 wc -l | awk '$2 != "total" { print "file", $2, $1 }'
    ctags -R --languages=C++ --kinds-C++=f --fields=+ne -x \
        --_xformat='%{end} %{line} %F %N' "${dirs[@]}" |
        awk '$1 != "-" { print "function", $3 ":" $4, $1 - $2 + 1 }' | sort -k2,2 -k3,3nr |
        awk '!seen[$2]++'
}

declare -A limit=()
if [ -f "$allowed" ]; then
    while read -r kind room size _; do
        case $kind in ''|'#'*) continue ;; esac
        limit["$kind $room"]=$size
    done < "$allowed"
fi

failures=0 over60=0
declare -A seen=()
while read -r kind room size; do
    case $kind in
        file) max=800 ;;
        function) max=100
                  [ "$size" -gt 60 ] && over60=$((over60 + 1)) ;;
    esac
    key="$kind $room"
    if [ -n "${limit[$key]:-}" ]; then
        seen[$key]=1
        if [ "$size" -gt "${limit[$key]}" ]; then
            echo "rooms: $kind $room has $size lines, more than the $((limit[$key])) it is allowed" \
                "($allowed): split it, don't grow it"
            failures=$((failures + 1))
        elif [ "$size" -le "$max" ]; then
            echo "rooms: $kind $room is $size lines now, within $max: take it out of $allowed"
            failures=$((failures + 1))
        fi
    elif [ "$size" -gt "$max" ]; then
        echo "rooms: $kind $room has $size lines (at most $max): split it along its seams"
        failures=$((failures + 1))
    fi
done < <(measure)
for key in "${!limit[@]}"; do
    [ "${key%% *}" = over60 ] && continue
    if [ -z "${seen[$key]:-}" ]; then
        echo "rooms: $key is in $allowed but no longer exists: take it out"
        failures=$((failures + 1))
    fi
done
max60=${limit["over60 functions"]:-15}
if [ "$over60" -gt "$max60" ]; then
    echo "rooms: $over60 functions are over 60 lines (at most $max60)"
    failures=$((failures + 1))
elif [ "$max60" -gt 15 ] && [ "$over60" -lt "$max60" ]; then
    echo "rooms: $over60 functions are over 60 lines now: lower 'over60 functions' in $allowed" \
        "to $over60"
    failures=$((failures + 1))
fi
echo "rooms: $over60 functions over 60 lines; $failures problem(s)"
[ "$failures" -eq 0 ]
