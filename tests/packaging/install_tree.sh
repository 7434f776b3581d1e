#!/usr/bin/env bash
# The install tree: `cmake --install` of each component under /usr puts exactly the files that
# tests/data/packaging/COMPONENT.files lists, the whole install is those two and nothing else,
# and the installed layoutbench finds its drive catalog relative to itself (the one in the build
# tree, the source tree's).
#   install_tree.sh BUILD_DIR GOLDEN_DIR SOURCE_DIR
set -euo pipefail
build=$1 golden=$2 source=$3
tmp=$(mktemp -d /tmp/lb-install-tree-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

files() { (cd "$1" && find . -type f -o -type l) | sed 's|^\./||' | LC_ALL=C sort; }

status=0
for component in layoutbench layoutbench-gui; do
    DESTDIR=$tmp/$component cmake --install "$build" --prefix /usr --component "$component" >/dev/null
    files "$tmp/$component" >"$tmp/$component.files"
    if ! diff -u "$golden/$component.files" "$tmp/$component.files"; then
        echo "install tree of $component differs from $golden/$component.files (above)" >&2
        status=1
    fi
done
# Nothing is installed outside the two components (it would be in no package).
DESTDIR=$tmp/all cmake --install "$build" --prefix /usr >/dev/null
files "$tmp/all" >"$tmp/all.files"
if ! LC_ALL=C sort "$golden/layoutbench.files" "$golden/layoutbench-gui.files" |
    diff -u - "$tmp/all.files"; then
    echo "cmake --install installs files of no component (above)" >&2
    status=1
fi

# The installed program, wherever the tree is, reads the catalog installed beside it.
export XDG_DATA_HOME=$tmp/xdg
prefix=$tmp/layoutbench/usr
catalog=$prefix/share/layoutbench/drives.toml
if ! "$prefix/bin/layoutbench" project --help | grep -qF -- "--catalog TEXT=$catalog"; then
    echo "the installed layoutbench does not default to $catalog:" >&2
    "$prefix/bin/layoutbench" project --help | grep -F -- --catalog >&2
    status=1
fi
"$prefix/bin/layoutbench" project --kind zfs-raidz2 --disks 6 --drive samsung-860-evo-500gb \
    --used 1T --growth 30% --host-writes 50G/d --json >"$tmp/project.json"
grep -q '"endurance_years"' "$tmp/project.json" || { echo "no projection" >&2; status=1; }
"$prefix/bin/layoutbench" --version | grep -q '^layoutbench ' || status=1
if ! "$build/app/cli/layoutbench" project --help | grep -qF -- "--catalog TEXT=$source/data/drives.toml"; then
    echo "layoutbench in the build tree does not default to $source/data/drives.toml" >&2
    status=1
fi
exit $status
