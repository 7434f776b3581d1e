#!/usr/bin/env bash
# Builds OpenZFS's kernel modules (spl.ko, zfs.ko) for the lab guest's kernel, from the source
# tree in Debian's zfs-dkms package, without installing that package: zfs-dkms declares
# "Breaks: zfs-fuse", and the host's own tests and the quickstart run on zfs-fuse. The host's
# kernel never loads these modules; only the guest does.
#
#   openzfs.sh [CACHE]  ->  prints CACHE/<kernel release>/zfs-<version>, holding spl.ko, zfs.ko
#                           and build.txt (versions, build time)
#
# CACHE defaults to /var/cache/layoutbench/openzfs (LAYOUTBENCH_OPENZFS_CACHE): outside the build
# tree, so a fresh clone on a machine that built the modules once does not build them again. The
# key is the guest's kernel release, the OpenZFS package version and this recipe.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"
export LC_ALL=C
umask 022

cache=${1:-${LAYOUTBENCH_OPENZFS_CACHE:-/var/cache/layoutbench/openzfs}}
for tool in apt-get apt-cache dpkg-deb make gcc flock sha256sum strip; do
    if ! command -v "$tool" >/dev/null; then
        echo "openzfs: '$tool' is missing (run scripts/setup.sh)" >&2
        exit 1
    fi
done
kernel_release=$(guest_kernel_release)
version=$(openzfs_version)
if [ -z "$kernel_release" ] || [ -z "$version" ]; then
    echo "openzfs: the archive offers no linux-image-amd64 or no zfs-dkms" \
        "(run scripts/setup.sh: it adds bookworm-backports contrib)" >&2
    exit 1
fi
headers=/usr/src/linux-headers-$kernel_release
common=/usr/src/linux-headers-${kernel_release%-amd64}-common
if [ ! -f "$headers/Module.symvers" ] || [ ! -d "$common" ]; then
    echo "openzfs: no kernel headers for the guest's kernel $kernel_release in $headers" \
        "(run scripts/setup.sh: it installs linux-headers-$kernel_release)" >&2
    exit 1
fi
recipe=$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)
dest=$cache/$kernel_release/zfs-$version-$recipe
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ -f "$dest/zfs.ko" ] && [ -f "$dest/spl.ko" ] && [ -f "$dest/build.txt" ]; then
    echo "$dest"
    exit 0
fi

started=$SECONDS
work=$(mktemp -d "$cache/.build.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "openzfs: building zfs $version for kernel $kernel_release (once per machine)" >&2
(cd "$work" && apt-get download -q -o APT::Sandbox::User=root "zfs-dkms=$version" >/dev/null)
dpkg-deb -x "$work"/zfs-dkms_*.deb "$work/pkg"
src=$(find "$work/pkg/usr/src" -mindepth 1 -maxdepth 1 -type d -name 'zfs-*' | head -n1)
# What DKMS would run (the package's dkms.conf PRE_BUILD and MAKE), with the guest's headers in
# place of the running kernel's.
(
    cd "$src"
    ./configure --disable-dependency-tracking --prefix=/usr --with-config=kernel \
        --with-linux="$common" --with-linux-obj="$headers" >"$work/configure.log" 2>&1 ||
        { tail -n 30 "$work/configure.log" >&2; exit 1; }
    make -C module -j"$(nproc)" >"$work/make.log" 2>&1 || { tail -n 30 "$work/make.log" >&2; exit 1; }
)
out=$work/out
mkdir -p "$out"
for m in spl zfs; do
    ko=$(find "$src/module" -name "$m.ko" | head -n1)
    [ -n "$ko" ] || { echo "openzfs: the build made no $m.ko" >&2; exit 1; }
    # As DKMS does: debug sections out, so the guest's initramfs stays small.
    strip --strip-debug -o "$out/$m.ko" "$ko"
done
printf 'kernel %s\nopenzfs %s\nrecipe %s\nbuild_seconds %d\n' \
    "$kernel_release" "$version" "$recipe" $((SECONDS - started)) >"$out/build.txt"
mkdir -p "$(dirname "$dest")"
rm -rf "$dest"
mv "$out" "$dest"
echo "openzfs: built in $((SECONDS - started)) s: $(du -ch "$dest"/*.ko | tail -n1 | cut -f1)" >&2
echo "$dest"
