#!/usr/bin/env bash
# Builds the lab guest: a Debian 12 kernel and an initramfs that boots under qemu (TCG) into
# busybox init, loads virtio, md RAID and file system modules, and serves SSH with dropbear, so
# the tests can run mdadm, fio, bonnie++, xz and the kernel NFS and iSCSI clients on a machine
# whose own kernel has none of them. Everything comes from Debian packages fetched with
# `apt-get download` at the archive's candidate versions; nothing is taken from the host.
#
#   build.sh [--openzfs] OUTDIR  ->  OUTDIR/vmlinuz, OUTDIR/initrd.gz, OUTDIR/manifest.txt
#
# --openzfs adds OpenZFS (the newest the archive has: bookworm-backports' 2.3): the spl and zfs
# modules built for the guest's kernel by openzfs.sh (cached on the machine), zpool, zfs and zdb
# with their libraries, and udev, which OpenZFS needs to label whole disks. The modules load at
# boot; udevd runs before them. It also gets the servers that export a pool's zvols and datasets:
# tgt (tgtd, tgtadm) and the kernel NFS server (the nfsd module, exportfs, rpc.mountd, rpc.nfsd,
# rpcbind), installed but not started: a test starts them as a server's administrator would.
#
# manifest.txt lists "package version" for every package used, sorted. When it equals what the
# archive offers now and this recipe (this script, guest-init.sh, lb-session) is unchanged, nothing is
# rebuilt. Same versions and recipe give byte-identical files: sorted cpio, fixed times, gzip -n.
set -euo pipefail

openzfs=0
if [ "${1:-}" = --openzfs ]; then
    openzfs=1
    shift
fi
if [ $# -ne 1 ]; then
    echo "usage: $0 [--openzfs] OUTDIR" >&2
    exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"
mkdir -p "$1"
out=$(cd "$1" && pwd)
umask 022
export LC_ALL=C

for tool in apt-get apt-cache dpkg-deb depmod cpio gzip readelf sha256sum flock; do
    if ! command -v "$tool" >/dev/null; then
        echo "lab guest: '$tool' is missing (run scripts/setup.sh)" >&2
        exit 1
    fi
done

# Programs the guest runs, from these packages; the shared libraries they need come from the
# library packages below, found by their DT_NEEDED entries (a missing one stops the build).
tool_packages=(busybox-static dash dropbear-bin mdadm fio bonnie++ xz-utils e2fsprogs xfsprogs
               util-linux gdisk open-iscsi nfs-common coreutils dmsetup)
programs=(
    bin/dash
    usr/sbin/dropbear usr/bin/dropbearconvert
    sbin/mdadm sbin/dmsetup
    usr/bin/fio usr/sbin/bonnie++ usr/bin/xz
    sbin/mke2fs sbin/e2fsck sbin/tune2fs sbin/resize2fs sbin/mkfs.xfs usr/sbin/xfs_growfs
    usr/sbin/e2freefrag usr/sbin/xfs_db
    sbin/blkid bin/lsblk sbin/wipefs sbin/blkdiscard bin/findmnt usr/bin/partx
    sbin/sgdisk
    sbin/iscsiadm sbin/iscsid
    sbin/mount.nfs
    usr/bin/env
)
# mke2fs answers to these names too, mount.nfs to the others (as in the packages). /bin/sh is
# dash, as on Debian: Debian's static busybox prefers its own applets to programs in PATH, so
# under a busybox shell `xz` or `mke2fs` would run busybox's cut-down versions, not the real ones.
# For the same reason env is coreutils' (the SSH runner runs `env -- NAME=VALUE tool`): busybox's
# env would run its own xz applet, which knows no -T.
aliases=(bin/sh:dash sbin/mkfs.ext4:mke2fs sbin/mkfs.ext2:mke2fs sbin/fsck.ext4:e2fsck
         sbin/mount.nfs4:mount.nfs sbin/umount.nfs:mount.nfs sbin/umount.nfs4:mount.nfs)
library_packages=(
    libc6 libgcc-s1 libstdc++6 zlib1g liblzma5 libzstd1 liblz4-1 libbz2-1.0
    libcrypt1 libtomcrypt1 libtommath1 libgmp10                          # dropbear
    libudev1 libkmod2 libsystemd0 libcap2 libgcrypt20 libgpg-error0      # mdadm, open-iscsi
    libblkid1 libuuid1 libmount1 libsmartcols1 libselinux1 libpcre2-8-0  # util-linux
    libext2fs2 libcom-err2 libinih1 liburcu8 libpopt0                    # e2fsprogs, xfsprogs, gdisk
    libedit2 libbsd0 libmd0 libtinfo6                                    # xfs_db
    libisns0 libopeniscsiusr libssl3                                     # open-iscsi
    libtirpc3 libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libkeyutils1 # nfs-common
    # fio is built with every ioengine Debian has: these are loaded at start whether used or not.
    libaio1 libnuma1 libnbd0 libibverbs1 librdmacm1 libnl-3-200 libnl-route-3-200
    libpmem1 libpmemblk1 libndctl6 libdaxctl1 libgfapi0 libgfrpc0 libgfxdr0 libglusterfs0
    librados2 librbd1 libboost-iostreams1.74.0 libboost-thread1.74.0 libfmt9 libcryptsetup12
    libdevmapper1.02.1 libargon2-1 libjson-c5 libacl1 libgnutls30 libhogweed6 libnettle8
    libidn2-0 libunistring2 libtasn1-6 libp11-kit0 libffi8 libxml2 libicu72
)
# Modules loaded at boot, in this order; their dependencies come from modules.dep. crc32c_generic
# goes first: libcrc32c needs a crc32c implementation, a soft dependency modules.dep leaves out.
boot_modules=(crc32c_generic virtio_pci virtio_blk virtio_net virtio_rng qemu_fw_cfg
              md-mod raid0 raid1 raid10 raid456 ext4 xfs loop)
# Copied for `modprobe` (mount -t nfs, iscsiadm) but loaded only when a test asks.
extra_modules=(nfs nfsv3 nfsv4 iscsi_tcp sd_mod dm-mod)

# OpenZFS's packages, all at one version (backports is pinned below the release, so the
# candidate would be bookworm's 2.1), and what zpool, zfs, zdb and udevd are.
zfs_packages=(zfsutils-linux libzfs6linux libzpool6linux libnvpair3linux libuutil3linux)
zfs_programs=(sbin/zpool sbin/zfs sbin/zdb bin/udevadm lib/udev/zvol_id)
# udevd is udevadm under another name (systemd 252); vdev_id is a shell script.
zfs_aliases=(lib/systemd/systemd-udevd:/usr/bin/udevadm)
udev_packages=(udev)
# The servers of exports (iSCSI: tgt; NFS: the kernel's nfsd, driven by nfs-utils, with
# rpcbind), their libraries, and the files they read: /etc/netconfig (libtirpc), /etc/services,
# /etc/protocols and /etc/rpc (netbase).
server_packages=(tgt nfs-kernel-server rpcbind libwrap0 libnsl2 libtirpc-common netbase)
server_programs=(usr/sbin/tgtd usr/sbin/tgtadm usr/sbin/exportfs usr/sbin/rpc.mountd
                 usr/sbin/rpc.nfsd sbin/rpcbind usr/sbin/rpcinfo)
server_modules=(nfsd)

# The kernel: the ABI package linux-image-amd64 points at, e.g. linux-image-6.1.0-57-amd64.
kernel_release=$(guest_kernel_release)
if [ -z "$kernel_release" ]; then
    echo "lab guest: apt-cache knows no linux-image-amd64 (run apt-get update)" >&2
    exit 1
fi
kernel_package=linux-image-$kernel_release
packages=("$kernel_package" "${tool_packages[@]}" "${library_packages[@]}")
zfs_version= zfs_modules=
if [ $openzfs = 1 ]; then
    zfs_version=$(openzfs_version)
    if [ -z "$zfs_version" ]; then
        echo "lab guest: the archive offers no OpenZFS (run scripts/setup.sh: it adds" \
            "bookworm-backports contrib)" >&2
        exit 1
    fi
    packages+=("${udev_packages[@]}" "${server_packages[@]}")
    programs+=("${zfs_programs[@]}" "${server_programs[@]}")
    aliases+=("${zfs_aliases[@]}")
    boot_modules+=(zfs)
    extra_modules+=("${server_modules[@]}")
fi

# "package version" for each package at the archive's candidate version (OpenZFS's at
# zfs_version), and the OpenZFS module build, sorted.
manifest() {
    {
        apt-cache policy "${packages[@]}" | awk '
            /^[^ ].*:$/ { name = substr($0, 1, length($0) - 1); sub(/:amd64$/, "", name) }
            /^  Candidate:/ { print name, $2 }'
        if [ $openzfs = 1 ]; then
            printf '%s '"$zfs_version"'\n' "${zfs_packages[@]}"
            echo "openzfs-modules $(basename "$zfs_modules")"
        fi
    } | sort
}
recipe() {
    cat "${BASH_SOURCE[0]}" "$here/common.sh" "$here/guest-init.sh" "$here/lb-session" |
        sha256sum | cut -d' ' -f1
}

exec 9>"$out/.lock"
flock 9
if [ $openzfs = 1 ]; then
    # Built once per machine (minutes), then found in its cache.
    zfs_modules=$("$here/openzfs.sh")
fi
wanted=$(manifest)
missing=$(comm -23 <(printf '%s\n' "${packages[@]}" | sort) \
              <(grep -v ' (none)$' <<<"$wanted" | cut -d' ' -f1))
if [ -n "$missing" ]; then
    echo "lab guest: the archive offers no version of: $(tr '\n' ' ' <<<"$missing")" \
        "(run apt-get update)" >&2
    exit 1
fi
if [ -f "$out/manifest.txt" ] && [ "$(cat "$out/manifest.txt")" = "$wanted" ] &&
    [ -f "$out/recipe.sha256" ] && [ "$(cat "$out/recipe.sha256")" = "$(recipe)" ] &&
    [ -f "$out/vmlinuz" ] && [ -f "$out/initrd.gz" ]; then
    echo "lab guest up to date"
    exit 0
fi

started=$SECONDS
work=$(mktemp -d "$out/.build.XXXXXX")
trap 'rm -rf "$work"' EXIT
debs=$work/debs pkg=$work/pkg kernel=$work/kernel root=$work/root
mkdir -p "$debs" "$pkg" "$kernel" "$root"

echo "lab guest: fetching ${#packages[@]} packages (kernel $kernel_release)"
# package=version pins exactly what the manifest says.
mapfile -t pinned < <(awk '$1 != "openzfs-modules" {print $1 "=" $2}' <<<"$wanted")
(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root "${pinned[@]}" >/dev/null)
for deb in "$debs"/*.deb; do
    case $(basename "$deb") in
        "${kernel_package}"_*) dpkg-deb -x "$deb" "$kernel" ;;
        *) dpkg-deb -x "$deb" "$pkg" ;;
    esac
done

# A merged-/usr root, like Debian 12's.
mkdir -p "$root"/usr/{bin,sbin,lib/x86_64-linux-gnu,lib64} \
    "$root"/{dev,proc,sys,run,tmp,root,mnt,etc/lb,etc/dropbear,etc/iscsi,var/lib/iscsi,var/lock}
for d in bin sbin lib lib64; do
    ln -s "usr/$d" "$root/$d"
done
# A package path (sbin/mdadm, usr/lib/...) as the merged root has it.
usr_path() {
    local p=${1#/}
    echo "usr/${p#usr/}"
}

# Copies an ELF file and, recursively, every library it needs, looking where ld.so would: its
# RUNPATH, then the multiarch directories, all inside the extracted packages.
declare -A copied_libs=()
copy_elf() {
    local src=$1 dest=$2 needed runpath dirs soname dir found
    install -D -m "$(stat -c %a "$src")" "$src" "$root/$dest"
    runpath=$(readelf -d "$src" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
    dirs="${runpath//:/ } /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu"
    needed=$(readelf -d "$src" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    for soname in $needed; do
        [ -n "${copied_libs[$soname]:-}" ] && continue
        found=
        for dir in $dirs; do
            if [ -e "$pkg$dir/$soname" ]; then
                found=$dir/$soname
                break
            fi
        done
        if [ -z "$found" ]; then
            echo "lab guest: $soname (needed by $dest) is in none of the packages;" \
                "add its package to library_packages in $0" >&2
            exit 1
        fi
        copied_libs[$soname]=$found
        copy_elf "$(readlink -f "$pkg$found")" "$(usr_path "$found")"
    done
}

for p in "${programs[@]}"; do
    if [ ! -f "$pkg/$p" ]; then
        echo "lab guest: $p is not in the packages (${tool_packages[*]})" >&2
        exit 1
    fi
    copy_elf "$pkg/$p" "$(usr_path "$p")"
done
for a in "${aliases[@]}"; do
    mkdir -p "$(dirname "$root/$(usr_path "${a%%:*}")")"
    ln -s "${a#*:}" "$root/$(usr_path "${a%%:*}")"
done
# The dynamic loader, at the path every program names (PT_INTERP).
copy_elf "$pkg/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" \
    usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
ln -s ../lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$root/usr/lib64/ld-linux-x86-64.so.2"

# busybox for everything else; a real program of the same name wins. /init is busybox's init.
install -m 0755 "$pkg/bin/busybox" "$root/usr/bin/busybox"
for applet in $("$root/usr/bin/busybox" --list-full); do
    dest=$(usr_path "$applet")
    [ -e "$root/$dest" ] || [ -L "$root/$dest" ] || ln -s /usr/bin/busybox "$root/$dest"
done
ln -s /usr/bin/busybox "$root/init"

# Kernel modules: the ones named above and what modules.dep says they need, decompressed;
# depmod in the guest's root makes the modules.dep that the guest's modprobe reads.
kmods=$kernel/lib/modules/$kernel_release
if [ $openzfs = 1 ]; then
    # Where DKMS would install them; depmod then finds what zfs.ko needs from the kernel.
    mkdir -p "$kmods/updates/dkms"
    cp "$zfs_modules"/spl.ko "$zfs_modules"/zfs.ko "$kmods/updates/dkms/"
fi
depmod -b "$kernel" "$kernel_release"
declare -A module_copied=()
copy_module() {
    # Module names treat - and _ alike (virtio_rng is virtio-rng.ko).
    local name=${1//[-_]/[-_]} line path
    line=$(grep -E "(^|/)${name}\.ko(\.xz|\.zst)?:" "$kmods/modules.dep" || true)
    if [ -z "$line" ]; then
        if grep -qE "/${name}\.ko" "$kmods/modules.builtin"; then
            return 0
        fi
        echo "lab guest: kernel module $1 is not in $kernel_package" >&2
        exit 1
    fi
    for path in ${line/:/}; do
        [ -n "${module_copied[$path]:-}" ] && continue
        module_copied[$path]=1
        mkdir -p "$(dirname "$root/lib/modules/$kernel_release/$path")"
        case $path in
            *.ko.xz) xz -dc "$kmods/$path" >"$root/lib/modules/$kernel_release/${path%.xz}" ;;
            *.ko.zst) zstd -qdc "$kmods/$path" >"$root/lib/modules/$kernel_release/${path%.zst}" ;;
            *) cp "$kmods/$path" "$root/lib/modules/$kernel_release/$path" ;;
        esac
    done
}
for m in "${boot_modules[@]}" "${extra_modules[@]}"; do
    copy_module "$m"
done
cp "$kmods"/modules.{builtin,builtin.modinfo,order} "$root/lib/modules/$kernel_release/"
depmod -b "$root" "$kernel_release"
printf '%s\n' "${boot_modules[@]}" >"$root/etc/lb/modules"

# Configuration: root with sh and no password (keys only), files-only name service, busybox init
# running guest-init.sh, and an iSCSI initiator name.
cat >"$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
EOF
cat >"$root/etc/shadow" <<'EOF'
root:*:19000:0:99999:7:::
EOF
chmod 0600 "$root/etc/shadow"
cat >"$root/etc/group" <<'EOF'
root:x:0:
EOF
echo /bin/sh >"$root/etc/shells"
printf 'passwd: files\ngroup: files\nshadow: files\nhosts: files\n' >"$root/etc/nsswitch.conf"
printf '127.0.0.1 localhost\n10.0.2.15 lab-guest\n' >"$root/etc/hosts"
echo lab-guest >"$root/etc/hostname"
cat >"$root/etc/inittab" <<'EOF'
::sysinit:/etc/lb/guest-init.sh
::ctrlaltdel:/sbin/poweroff -f
::shutdown:/bin/umount -a -r
EOF
install -m 0755 "$here/guest-init.sh" "$root/etc/lb/guest-init.sh"
install -m 0755 "$here/lb-session" "$root/usr/bin/lb-session"
echo "InitiatorName=iqn.2026-11.test.layoutbench:lab-guest" >"$root/etc/iscsi/initiatorname.iscsi"
cp "$pkg/etc/iscsi/iscsid.conf" "$root/etc/iscsi/iscsid.conf"
echo "$kernel_release" >"$root/etc/lb/kernel-release"
if [ $openzfs = 1 ]; then
    # udev's and OpenZFS's rules (by-id links, vdev_id, zvol links); guest-init.sh starts udevd
    # when they are there. zpool's cache file and the host id live in /etc.
    mkdir -p "$root/usr/lib/udev/rules.d" "$root/etc/udev/rules.d" "$root/etc/zfs"
    cp "$pkg"/lib/udev/rules.d/*.rules "$root/usr/lib/udev/rules.d/"
    install -m 0755 "$pkg/lib/udev/vdev_id" "$root/usr/lib/udev/vdev_id"
    cp "$pkg/etc/udev/udev.conf" "$root/etc/udev/udev.conf"
    printf 'openzfs %s\n' "$zfs_version" >"$root/etc/lb/openzfs"
    # The servers: tgtd's socket in /var/run/tgtd, rpcbind running as _rpc (as Debian's does),
    # nfs-utils' state in /var/lib/nfs (v4recovery: the kernel's own NFSv4 client tracking), an
    # empty /etc/exports (exportfs adds to the kernel's table).
    ln -s ../run "$root/var/run"
    echo '_rpc:x:102:65534::/run/rpcbind:/usr/sbin/nologin' >>"$root/etc/passwd"
    echo 'nogroup:x:65534:' >>"$root/etc/group"
    cp "$pkg"/etc/{netconfig,services,protocols,rpc} "$root/etc/"
    mkdir -p "$root/var/lib/nfs/v4recovery" "$root/etc/exports.d"
    : >"$root/etc/exports"
fi

# Reproducible archive: sorted names, one fixed time, owner root, no inode numbers, no gzip name.
find "$root" -exec touch -h -d @946684800 {} +
(cd "$root" && find . -mindepth 1 | sort |
    cpio -o -H newc --reproducible --owner=0:0 --quiet) | gzip -9n >"$work/initrd.gz"

cp "$kernel/boot/vmlinuz-$kernel_release" "$work/vmlinuz"
mv "$work/vmlinuz" "$out/vmlinuz"
mv "$work/initrd.gz" "$out/initrd.gz"
recipe >"$out/recipe.sha256"
echo "$wanted" >"$out/manifest.txt"
echo "lab guest: built kernel $kernel_release, initrd $(du -h "$out/initrd.gz" | cut -f1)," \
    "$(wc -l <"$out/manifest.txt") packages, in $((SECONDS - started)) s"
