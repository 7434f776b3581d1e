#!/usr/bin/env bash
# Completes command lines the way bash-completion does: bash_complete.sh FILE BIN_DIR LINE...
# loads bash-completion and the completion FILE, and prints for each LINE one line
# "LINE<TAB>CANDIDATE CANDIDATE ..." (sorted) from the function FILE registers for the line's
# first word. BIN_DIR goes first on PATH.
set -uo pipefail
file=$1 bin=$2
shift 2
# shellcheck source=/dev/null
source /usr/share/bash-completion/bash_completion || exit 1
# shellcheck source=/dev/null
source "$file" || exit 1
PATH=$bin:$PATH
for line in "$@"; do
    COMP_LINE=$line
    COMP_POINT=${#line}
    read -ra COMP_WORDS <<<"$line"
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    function=$(complete -p "${COMP_WORDS[0]}" | sed -n 's/.*-F \([^ ]*\).*/\1/p')
    "$function" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf '%s\t%s\n' "$line" "$(printf '%s\n' "${COMPREPLY[@]}" | sort -u | tr '\n' ' ' | sed 's/ $//')"
done
