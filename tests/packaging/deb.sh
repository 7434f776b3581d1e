#!/usr/bin/env bash
# The Debian packages, as CI builds them: `cpack -G DEB` of the build tree makes
# layoutbench_VERSION_ARCH.deb and layoutbench-gui_VERSION_ARCH.deb; each holds exactly the
# files of its component's golden list (tests/data/packaging), its Depends is computed from the
# shared libraries its programs link (and the GUI's names the command line's package), the
# command line's names no Qt, X11 or GL library and its installed program links none, apt can
# install both on this machine, and lintian finds no error in either.
#   deb.sh BUILD_DIR GOLDEN_DIR
set -euo pipefail
build=$1 golden=$2
tmp=$(mktemp -d /tmp/lb-deb-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

status=0
fail() {
    echo "$*" >&2
    status=1
}

if ! cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/out" >"$tmp/cpack.log" 2>&1; then
    cat "$tmp/cpack.log" >&2
    exit 1
fi
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
arch=$(dpkg --print-architecture)
cli=$tmp/out/layoutbench_${version}_$arch.deb
gui=$tmp/out/layoutbench-gui_${version}_$arch.deb
for deb in "$cli" "$gui"; do
    [ -f "$deb" ] || { ls -l "$tmp/out" >&2; fail "cpack made no $deb"; exit 1; }
    echo "$(basename "$deb"): $(stat -c %s "$deb") bytes, Installed-Size $(dpkg-deb -f "$deb" Installed-Size) KiB"
done

# The files of each package: the golden list of its component.
for component in layoutbench layoutbench-gui; do
    deb=$tmp/out/${component}_${version}_$arch.deb
    dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\.\//, "", $6); print $6 }' | LC_ALL=C sort \
        >"$tmp/$component.files"
    diff -u "$golden/$component.files" "$tmp/$component.files" ||
        fail "$(basename "$deb") holds other files than $golden/$component.files (above)"
done

# Depends: computed from the shared libraries (dpkg-shlibdeps), not written by hand.
depends_cli=$(dpkg-deb -f "$cli" Depends)
depends_gui=$(dpkg-deb -f "$gui" Depends)
echo "layoutbench Depends: $depends_cli"
echo "layoutbench-gui Depends: $depends_gui"
for lib in libc6 libstdc++6 libsqlite3-0 libtomlplusplus3; do
    [[ $depends_cli == *"$lib "* ]] || fail "layoutbench does not depend on $lib"
done
for lib in libqt6widgets6 libqcustomplot2.1-qt6 "layoutbench (= $version)"; do
    [[ $depends_gui == *"$lib"* ]] || fail "layoutbench-gui does not depend on $lib"
done
# The command line runs on a server without a display: its package pulls no Qt, X11 or GL (a PDF
# report is layoutbench-render's, in the GUI's package), and neither does its program (ldd of
# the program as installed from the package).
for lib in libqt libqcustomplot libx11 libxcb libgl libegl libopengl libfontconfig; do
    [[ ${depends_cli,,} != *"$lib"* ]] || fail "layoutbench depends on $lib: $depends_cli"
done
dpkg-deb -x "$cli" "$tmp/cli-root"
ldd "$tmp/cli-root/usr/bin/layoutbench" >"$tmp/cli.ldd" ||
    { cat "$tmp/cli.ldd" >&2; fail "ldd cannot read the installed layoutbench"; }
echo "layoutbench links $(wc -l <"$tmp/cli.ldd") libraries"
if grep -Ei 'libQt6|libX11|libxcb|libGL|libEGL|libOpenGL|libfontconfig|libQCustomPlot' \
    "$tmp/cli.ldd" >&2; then
    fail "the installed layoutbench links the libraries above"
fi
[[ -n $(dpkg-deb -c "$gui" | grep ' ./usr/bin/layoutbench-render$') ]] ||
    fail "layoutbench-gui holds no layoutbench-render"

# apt resolves both packages against this machine (a simulation: nothing is installed).
apt-get install --simulate --no-install-recommends "$cli" "$gui" >"$tmp/apt.log" 2>&1 ||
    { cat "$tmp/apt.log" >&2; fail "apt cannot install the packages"; }

# lintian: no error. Its warnings and notes are printed for whoever reads the log.
if ! lintian --fail-on error --tag-display-limit 0 "$cli" "$gui" >"$tmp/lintian.log" 2>&1; then
    fail "lintian found errors:"
fi
cat "$tmp/lintian.log"
exit $status
