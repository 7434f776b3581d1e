#!/usr/bin/env zsh
# Completes command lines the way an interactive zsh does, with the completion functions of a
# directory: zsh_complete.zsh FPATH_DIR BIN_DIR DUMP LINE... prints, for each LINE, one line
# "LINE<TAB>CANDIDATE CANDIDATE ..." (sorted). BIN_DIR goes first on PATH. Runs one zsh under a
# pseudo-terminal (zpty) with compinit, and records what the completion system adds (compadd).
# DUMP is compinit's dump file, kept between runs: making it reads every completion function
# on the system (seconds), reading it does not. Tests run in parallel: a dump is made under a
# name of its own and renamed into place, and one in place is read as it is (-C), never rewritten.
emulate -L zsh
zmodload zsh/zpty || exit 1
local fdir=$1 bdir=$2 dump=$3
shift 3
zpty lbz zsh -f -i || exit 1
{
    zpty -w lbz "PS1=''; PS2=''; unsetopt zle_bracketed_paste 2>/dev/null"
    zpty -w lbz "fpath=(${(q)fdir} \$fpath); path=(${(q)bdir} \$path)"
    zpty -w lbz "autoload -U compinit; if [[ -r ${(q)dump} ]]; then compinit -u -C -d ${(q)dump};
        else compinit -u -d ${(q)dump}.\$\$ && mv -f ${(q)dump}.\$\$ ${(q)dump}; fi"
    zpty -w lbz 'compadd() { builtin compadd -O __hits "$@"; local h; for h in $__hits; do print -r -- "HIT:$h"; done; builtin compadd "$@" }'
    # ^T completes, then prints a numbered marker: the next keys are sent only once it is seen,
    # so no completion runs with keys typed ahead of it (zsh may cut a completion short then).
    zpty -w lbz 'zle -C lbcomplete complete-word _main_complete; integer __lbn=0'
    zpty -w lbz 'lbmarked() { zle lbcomplete; print -r -- "COMPLETED-$(( 500 + ++__lbn ))"; }'
    zpty -w lbz 'zle -N lbmarked; bindkey "^T" lbmarked'
    local line out n=0
    # lbtype LINE: types LINE, completes it, waits for the marker, then clears the line.
    lbtype() {
        (( n++ ))
        zpty -w -n lbz "$1"$'\x14'
        out=
        zpty -r lbz out "*COMPLETED-$(( 500 + n ))*" || exit 1
        zpty -w -n lbz $'\x15'
    }
    # Wait until the setup is done, so its echo is not read as a completion's output; the first
    # completion of a session loads the completion system's functions, so it is done twice.
    zpty -w lbz 'print READY-$(( 40 + 2 ))'
    zpty -r lbz out '*READY-42*' || exit 1
    lbtype "${1:-true}"
    for line in "$@"; do
        lbtype "$line"
        local -a hits=(${(f)"$(print -r -- ${out//$'\r'/} | grep -ao 'HIT:[^[:space:]]*' | sed 's/^HIT://' | sort -u)"})
        print -r -- "$line"$'\t'"${hits[*]}"
    done
} always {
    zpty -d lbz
}
