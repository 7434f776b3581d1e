# bash completion for layoutbench(1): its commands and each command's options, layout kinds, list
# targets, drive ids from the catalog, layout names from the database, files by type.
# tests/packaging/completion_test.cpp checks the options against `layoutbench COMMAND --help`.

# The drive catalog a command line would read: --catalog, else the one installed beside the
# program (share/layoutbench/drives.toml).
_layoutbench_catalog() {
    local i
    for ((i = 1; i < ${#words[@]} - 1; i++)); do
        if [[ ${words[i]} == --catalog ]]; then
            printf '%s\n' "${words[i + 1]}"
            return
        fi
    done
    local program
    program=$(command -v "${words[0]}" 2>/dev/null) || return
    program=$(readlink -f "$program")
    printf '%s\n' "${program%/*}/../share/layoutbench/drives.toml"
}

# Layout names in the database of --db (or the default one: $LAYOUTBENCH_DB, else under
# $XDG_DATA_HOME), if that database exists: a completion never creates one.
_layoutbench_layouts() {
    local i db="${LAYOUTBENCH_DB:-${XDG_DATA_HOME:-$HOME/.local/share}/layoutbench/results.db}"
    for ((i = 1; i < ${#words[@]} - 1; i++)); do
        [[ ${words[i]} == --db ]] && db=${words[i + 1]}
    done
    db=${db/#\~/$HOME}
    [[ -f $db ]] || return
    "${words[0]}" list layouts --json --db "$db" 2>/dev/null |
        sed -n 's/^ *"name": "\(.*\)",\{0,1\}$/\1/p'
}

_layoutbench() {
    local cur prev words cword
    _init_completion || return

    local kinds="dir md-raid0 md-raid1 md-raid10 md-raid5 md-raid6 zfs-stripe zfs-mirror
                 zfs-raid10 zfs-raidz1 zfs-raidz2 zfs-raidz3 zfs-draid1 zfs-draid2 zfs-draid3 guest"
    local command="" i
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --db) ((i++)) ;;
            -*) ;;
            *)
                command=${words[i]}
                break
                ;;
        esac
    done

    # The value of the option before the cursor.
    case $prev in
        --db)
            _filedir db
            return
            ;;
        --fail-on)
            COMPREPLY=($(compgen -W "not-viable decision" -- "$cur"))
            return
            ;;
        --kind)
            [[ $command == capacity ]] && kinds="all $kinds"
            COMPREPLY=($(compgen -W "$kinds" -- "$cur"))
            return
            ;;
        --layout | --baseline | --candidate)
            COMPREPLY=($(compgen -W "$(_layoutbench_layouts)" -- "$cur"))
            return
            ;;
        --inner)
            COMPREPLY=($(compgen -W "md-raid0 md-raid1 md-raid10 md-raid5 md-raid6" -- "$cur"))
            return
            ;;
        --guest-pool)
            COMPREPLY=($(compgen -W "zfs-stripe" -- "$cur"))
            return
            ;;
        --capacity | --imported-disks)
            # LAYOUT=SIZE: the layout's name and '=', the size is the user's.
            [[ $cur == *=* ]] && return
            COMPREPLY=($(compgen -W "$(_layoutbench_layouts)" -S = -- "$cur"))
            compopt -o nospace
            return
            ;;
        --drive)
            local catalog
            catalog=$(_layoutbench_catalog)
            [[ -r $catalog ]] &&
                COMPREPLY=($(compgen -W "$(sed -n 's/^id = "\(.*\)"/\1/p' "$catalog")" -- "$cur"))
            return
            ;;
        --out)
            _filedir '@(html|pdf|md)'
            return
            ;;
        --samples)
            _filedir csv
            return
            ;;
        --catalog)
            _filedir toml
            return
            ;;
        --yes-destroy)
            COMPREPLY=($(compgen -W "$(lsblk -dpno NAME 2>/dev/null)" -- "$cur"))
            return
            ;;
        --disks | --disk-size | --recordsize | --ashift | --underprovision | --host | --viable | \
            --not-viable | --decide | --resume | --used | --growth | --years | --ceiling | \
            --host-writes | --underprovision-wa-gain | --campaign | --prefix | --author | --price | \
            --write-amplification | --baseline-host | --candidate-host | --forks | --remote-dir | \
            --fleet-dir | --afr | --replace-after | --rebuild-rate)
            return
            ;;
    esac

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "-h --help -V --version --db --json --max-input-size" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "capacity import compare list plan run cleanup project report merge fleet" \
                -- "$cur"))
        fi
        return
    fi

    local options
    case $command in
        capacity) options="--kind --inner --guest-pool --disks --disk-size --recordsize --ashift
                           --underprovision --vdevs --raidz-expanded-from --special --zfs-devices
                           --explain" ;;
        import) options="--layout --host --kind --allow-duplicate" ;;
        compare) options="--baseline --candidate --host --baseline-host --candidate-host --viable
                          --not-viable --decide --fail-on --fill" ;;
        list) options="--catalog" ;;
        plan) options="--fill-max" ;;
        run) options="--layout --resume --yes-destroy --fail-on --fill-max" ;;
        cleanup) options="--campaign" ;;
        merge) options="--prefix --host" ;;
        fleet)
            # fleet run | fleet report: the word after fleet chooses the options.
            local sub="" j
            for ((j = i + 1; j < cword; j++)); do
                [[ ${words[j]} == run || ${words[j]} == report ]] && sub=${words[j]} && break
            done
            case $sub in
                run) options="--inventory -i --forks --resume --yes-destroy --fleet-dir --remote-dir
                              --layoutbench --package --playbook" ;;
                report) options="--layout --all-metrics --out" ;;
                *)
                    if [[ $cur != -* ]]; then
                        COMPREPLY=($(compgen -W "run report" -- "$cur"))
                        return
                    fi
                    options=""
                    ;;
            esac
            if [[ $sub == run && $cur != -* ]]; then
                _filedir toml
                return
            fi
            ;;
        project)
            options="--layout --kind --disks --disk-size --recordsize --ashift --underprovision
                     --used --growth --samples --years --ceiling --drive --host-writes
                     --underprovision-wa-gain --catalog --capacity --price --write-amplification
                     --inner --guest-pool --imported-disks --afr --replace-after --rebuild-rate
                     --hot-spare"
            ;;
        report)
            options="--out --baseline --candidate --campaign --all --host --viable --not-viable --used --growth
                     --years --drive --host-writes --catalog --capacity --price --write-amplification
                     --imported-disks --author --afr --replace-after --rebuild-rate --hot-spare"
            ;;
        *) return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options --db --json -h --help" -- "$cur"))
        return
    fi
    case $command in
        import) _filedir ;;
        plan | run) _filedir toml ;;
        merge) _filedir db ;;
        list) COMPREPLY=($(compgen -W "layouts runs campaigns drives" -- "$cur")) ;;
    esac
} &&
    complete -F _layoutbench layoutbench
